"""Command line: `python -m server serve | db upgrade | db downgrade REV | db backup [PATH] |
db restore PATH | game export ID [PATH] | game import PATH | demo KIND`."""

from __future__ import annotations

import argparse
import sys
import uuid
from typing import Any

from server.config import get_settings, lan_addresses
from server.i18n import N_


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m server", description="Arbitre")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="upgrade the database and serve")
    serve.add_argument("--host", default=None)
    serve.add_argument("--port", type=int, default=None)
    serve.add_argument(
        "--workers",
        type=int,
        default=1,
        help="server processes (PostgreSQL only: they pass live events through LISTEN/NOTIFY)",
    )
    db = commands.add_parser("db", help="database schema")
    db_commands = db.add_subparsers(dest="db_command", required=True)
    db_commands.add_parser("upgrade", help="apply every migration")
    down = db_commands.add_parser("downgrade", help="go back to a revision")
    down.add_argument("revision")
    save = db_commands.add_parser("backup", help="a consistent copy of the live database")
    save.add_argument("path", nargs="?", default=None)
    back = db_commands.add_parser("restore", help="the database made again from a backup")
    back.add_argument("path")
    game = commands.add_parser("game", help="move a game between servers")
    game_commands = game.add_subparsers(dest="game_command", required=True)
    export = game_commands.add_parser("export", help="a game's file (every secret in it)")
    export.add_argument("game")
    export.add_argument("path", nargs="?", default=None)
    take = game_commands.add_parser("import", help="a game's file replayed here, new links")
    take.add_argument("path")
    commands.add_parser("key", help="this server's key, for the TRUSTED_SERVERS of another")
    demo = commands.add_parser("demo", help="create a ready game with sample players")
    demo.add_argument("kind", nargs="?", default=None)
    demo.add_argument(
        "--url",
        default=None,
        help="the address phones reach the server at (default: http://HOST:PORT of the settings)",
    )
    args = parser.parse_args(argv)
    settings = get_settings()

    if args.command == "serve":
        return run_server(args.host or settings.host, args.port or settings.port, args.workers)
    if args.command == "db":
        from server.migrate import downgrade, upgrade

        if args.db_command in ("backup", "restore"):
            return backup_command(settings.database_url, args.db_command, args.path)
        if args.db_command == "upgrade":
            upgrade(settings.database_url)
        else:
            downgrade(settings.database_url, args.revision)
        print("ok")
        return 0
    if args.command == "game":
        url = f"http://{settings.host}:{settings.port}"
        return game_command(
            args.game_command, args.game if "game" in args else None, args.path, url
        )
    if args.command == "key":
        from server.platform.sealing import server_key

        print(server_key(settings.resolved_secret_key()))
        return 0
    if args.command == "demo":
        url = args.url or f"http://{settings.host}:{settings.port}"
        return demo_game(args.kind, url.rstrip("/"))
    return 2


def backup_command(url: str, command: str, path: str | None) -> int:
    from pathlib import Path

    from server.backup import BackupError, backup, restore

    try:
        if command == "backup":
            print(backup(url, Path(path) if path else None))
        else:
            assert path is not None
            restore(url, Path(path))
            print("restored")
    except BackupError as error:
        print(error, file=sys.stderr)
        return 2
    return 0


def where(host: str, port: int) -> None:
    """On every interface (`make run HOST=0.0.0.0`): the addresses phones can open, and a QR
    code of the first, to scan from the field."""
    if host not in ("0.0.0.0", "::"):
        print(f"Arbitre: http://{host}:{port}", flush=True)
        return
    addresses = lan_addresses()
    if not addresses:
        print(f"Arbitre listens on port {port}; no network found yet (join the hotspot).")
        return
    for address in addresses:
        print(f"Arbitre: http://{address}:{port}", flush=True)
    import segno

    print("Scan to open it on a phone (same Wi-Fi):")
    segno.make(f"http://{addresses[0]}:{port}").terminal(compact=True)
    sys.stdout.flush()


# How long a stopping server waits for its requests to end before it cuts them: the live streams
# end at the stop signal (`server.web.streaming`), but one blocked writing to a phone that stopped
# reading (out of range, or an attacker's) would hold the stop until TCP gave up.
STOP_GRACE_SECONDS = 5


def run_server(host: str, port: int, workers: int) -> int:
    import uvicorn

    from server.app import create_app, for_serving
    from server.migrate import upgrade

    settings = get_settings()
    if workers < 1:
        print("--workers: at least 1.", file=sys.stderr)
        return 2
    where(host, port)
    if workers == 1:
        app = for_serving(create_app(settings))
        uvicorn.run(
            app,
            host=host,
            port=port,
            timeout_graceful_shutdown=STOP_GRACE_SECONDS,
            server_header=False,  # no "server: uvicorn" on every answer: bytes, and a hint
            **settings.proxy_options(),
        )
        return 0
    if settings.is_sqlite:
        print(
            "Several workers need PostgreSQL (DATABASE_URL=postgresql://...): live events pass "
            "between processes through PostgreSQL. On SQLite, serve with one process.",
            file=sys.stderr,
        )
        return 2
    upgrade(settings.database_url)  # once, before the workers start
    uvicorn.run(
        "server.app:worker_app",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        timeout_graceful_shutdown=STOP_GRACE_SECONDS,
        server_header=False,
        **settings.proxy_options(),
    )
    return 0


def local_service() -> Any:
    import server.games  # noqa: F401  # every kind registered, as the app does
    from server.db import Database
    from server.migrate import upgrade
    from server.platform.clock import SteadyClock
    from server.platform.dice import secret_roll
    from server.platform.live import Broker
    from server.platform.service import GameService

    settings = get_settings()
    upgrade(settings.database_url)
    db = Database.connect(settings)
    return GameService(
        db,
        settings.resolved_secret_key(),
        SteadyClock(floor=db.latest_time()),
        secret_roll,
        Broker(),
        trusted_servers=settings.trusted_servers,
    )


def game_command(command: str, game_id: str | None, path: str | None, base: str) -> int:
    """`game export ID [PATH]` writes the game's file (to PATH, or arbitre-game-ID.json);
    `game import PATH` replays it here and prints its people's new links."""
    import json
    from pathlib import Path

    from server.errors import ArbitreError
    from server.platform.kinds import SYSTEM
    from server.web.deps import import_limits

    service = local_service()
    try:
        if command == "export":
            assert game_id is not None
            body = json.dumps(service.export_game(game_id, SYSTEM), ensure_ascii=False, indent=1)
            target = Path(path or f"arbitre-game-{game_id}.json")
            target.write_text(body, encoding="utf-8")
            print(target)
            return 0
        assert path is not None
        text = Path(path).read_text(encoding="utf-8-sig")
        game, _ = service.import_game(
            text, caller="cli", idem_key=uuid.uuid4().hex, limits=import_limits(get_settings())
        )
    except ArbitreError as error:
        print(error.message, file=sys.stderr)
        return 2
    except (OSError, UnicodeDecodeError) as error:
        print(error, file=sys.stderr)
        return 2
    print(
        said(
            N_("{name} ({kind}) is ready at {address}."),
            name=game.name,
            kind=game.kind,
            address=f"{base}/g/{game.id}",
        )
    )
    print_links(service, game.id, base)
    return 0


def said(text: str, **params: Any) -> str:
    """A sentence of the command line, in the server's language (`LANGUAGE`, French unless
    said), as its pages speak it."""
    from server import i18n

    token = i18n.current_language.set(get_settings().language)
    try:
        return i18n.polish(i18n.Msg(text, params).render())
    finally:
        i18n.current_language.reset(token)


def print_links(service: Any, game_id: str, base: str) -> None:
    from server.platform.kinds import KINDS

    kind = KINDS[service.load(game_id).game.kind]
    people = [p for p in service.people(game_id) if not p.revoked]
    roles = {p.role: said(kind.role_title(p.role)) for p in people}
    width = max(len(f"{p.name} ({roles[p.role]})") for p in people)
    for person in people:
        who = f"{person.name} ({roles[person.role]})".ljust(width)
        print(f"  {who}  {base}/t/{service.link_of(person).token}")


def demo_game(kind_key: str | None, base: str) -> int:
    from server.games.demo import DEMOS

    if not DEMOS:
        print(said(N_("No game kind has a demo yet.")), file=sys.stderr)
        return 1
    key = kind_key or next(iter(DEMOS))
    if key not in DEMOS:
        kinds = ", ".join(DEMOS)
        print(
            said(N_("Unknown kind “{kind}”; choose among: {kinds}"), kind=key, kinds=kinds),
            file=sys.stderr,
        )
        return 2
    service = local_service()
    game, _ = DEMOS[key](service, uuid.uuid4().hex)
    print(
        said(
            N_("{name} ({kind}) is ready at {address}."),
            name=game.name,
            kind=game.kind,
            address=base,
        )
    )
    print(said(N_("Public board: {address}"), address=f"{base}/g/{game.id}/board"))
    print(said(N_("Each person's own link (the organizer's runs the game):")))
    print_links(service, game.id, base)
    return 0


if __name__ == "__main__":
    sys.exit(main())

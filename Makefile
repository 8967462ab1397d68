# Arbitre: `make run` serves on http://127.0.0.1:8000, `make test` runs every test.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
HOST   ?= 127.0.0.1
PORT   ?= 8000
WORKERS ?= auto

.PHONY: run test lint bench ceiling design i18n demo clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m server serve --host $(HOST) --port $(PORT)

# The whole suite on WORKERS processes (pytest-xdist; each its own databases, server and browser),
# then its 25 slowest tests and how long it took. One folder or one test, serially: .venv/bin/pytest tests/rcb -k duel
test: $(STAMP)
	@start=$$(date +%s); \
	$(BIN)/python -m pytest -n $(WORKERS) --dist worksteal --durations=25 $(PYTEST_ARGS); status=$$?; \
	case "$${DATABASE_URL:-sqlite}" in postgres*) db=PostgreSQL;; *) db=SQLite;; esac; \
	took=$$(( $$(date +%s) - start )); \
	echo "make test: $$((took / 60)) min $$((took % 60)) s on $$db ($(WORKERS) workers, $$(nproc) processors)"; \
	exit $$status

lint: $(STAMP)
	$(BIN)/ruff check server tests migrations bench
	$(BIN)/ruff format --check server tests migrations bench
	$(BIN)/mypy server

# The benchmarks of bench/ against a real server on loopback; prints a table. BENCH_ARGS to vary
# (e.g. BENCH_ARGS="--games 1,10 --seconds 10"). Then the ceiling of this machine (below).
bench: $(STAMP)
	$(BIN)/python -m bench.run $(BENCH_ARGS)
	$(BIN)/python -m bench.log_growth
	$(BIN)/python -m bench.durability
	$(BIN)/python -m bench.battlefight
	$(BIN)/python -m bench.moving
	$(BIN)/python -m bench.replay
	$(BIN)/python -m bench.reconnect
	$(BIN)/python -m bench.restart
	cd bench && { [ -x node_modules/.bin/lighthouse ] || npm install --no-audit --no-fund --no-save lighthouse@12; }
	$(BIN)/python -m bench.lighthouse
	$(MAKE) ceiling

# The ceiling of this machine (issue 55): G = 200, 250, ... three runs each until one misses
# G = 200's targets, on SQLite with one process; with BENCH_DATABASE_URL (a PostgreSQL account
# that may create databases) also on PostgreSQL with two processes, and a process killed while
# it holds streams. About an hour a database.
ceiling: $(STAMP)
	$(BIN)/python -m bench.run --ceiling 200
	[ -z "$(BENCH_DATABASE_URL)" ] || $(BIN)/python -m bench.run --ceiling 200 --processes 2 --database-url "$(BENCH_DATABASE_URL)"
	[ -z "$(BENCH_DATABASE_URL)" ] || $(BIN)/python -m bench.failover --database-url "$(BENCH_DATABASE_URL)"

# The design pass (issue 54): every scene's first screen at 320 and 390 px in both languages,
# into DESIGN_OUT (docs/design by default) with a page of them side by side (index.html).
design: $(STAMP)
	$(BIN)/python -m pytest -p no:cacheprovider -q tests/browser/design_pass.py

demo: $(STAMP)
	$(BIN)/python -m server demo $(KIND) --url http://$(HOST):$(PORT)

# Extract translatable strings into the French catalogues: the platform's (server/locale) and each
# game's (server/games/<game>/locale); says what is left to translate.
i18n: $(STAMP)
	$(BIN)/python -m server.catalogues

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

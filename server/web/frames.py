"""The events of a stream as bytes, compressed once for every phone that gets them (issue 21).

A live part travels compressed, as a page does: a referee's console of 32 players is 107 KiB of
HTML and 5 KiB in gzip, and a phone on a field's network waits for every byte. A stream is one
gzip member for its whole life. Each event is compressed on its own (a fresh compressor, ended
on a full flush: no reference to what came before), so that the blocks made once for a
projection's part can be written as they are into the stream of every phone that gets it; a
phone's stream only keeps the checksum and length of what it carried, for the trailer it ends
with. Small events (a nudge, a ping) go as stored blocks. A client that does not take gzip gets
the frames as they are.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from typing import Any

import orjson

# A gzip member's header: deflate, no name, no time, unknown system.
GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
# The last block of a deflate stream: empty, stored, final.
LAST_BLOCK = b"\x01\x00\x00\xff\xff"
# Above this size an event is compressed; below, stored as it is.
SMALL = 512


@dataclass(frozen=True)
class Frame:
    """One event of a stream, as written (`raw`) and as deflate blocks of its own (`packed`)."""

    raw: bytes
    packed: bytes

    @classmethod
    def of(cls, event: str, data: Any, event_id: int | None = None) -> Frame:
        """An event: its name, its data (a word, or JSON on one line) and the sequence number
        it carries."""
        head = (f"id: {event_id}\n" if event_id is not None else "") + f"event: {event}\n"
        # JSON on one line (orjson: a part is 100 KiB of HTML in a string, made at a change).
        text = data.encode() if isinstance(data, str) else orjson.dumps(data)
        raw = b"".join((head.encode(), b"data: ", text, b"\n\n"))
        return cls(raw, deflated(raw) if len(raw) > SMALL else stored(raw))


def deflated(raw: bytes) -> bytes:
    """`raw` compressed on its own: raw deflate blocks ending byte-aligned on a full flush, never
    final, which any deflate stream can carry at any point."""
    compressor = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
    return compressor.compress(raw) + compressor.flush(zlib.Z_FULL_FLUSH)


def stored(raw: bytes) -> bytes:
    """`raw` as stored (uncompressed) deflate blocks, never final."""
    blocks = []
    for start in range(0, len(raw), 0xFFFF):
        chunk = raw[start : start + 0xFFFF]
        blocks.append(b"\x00" + struct.pack("<HH", len(chunk), len(chunk) ^ 0xFFFF) + chunk)
    return b"".join(blocks)


# A comment line every so often, so that proxies and phones keep the stream open.
PING = Frame(b": ping\n\n", stored(b": ping\n\n"))


class Encoder:
    """One phone's stream: frames written as they are, or as one gzip member."""

    def __init__(self, gzip: bool) -> None:
        self.gzip = gzip
        self._started = False
        self._crc = 0
        self._size = 0

    def write(self, frame: Frame) -> bytes:
        if not self.gzip:
            return frame.raw
        head = self._head()
        self._crc = zlib.crc32(frame.raw, self._crc)
        self._size += len(frame.raw)
        return head + frame.packed

    def end(self) -> bytes:
        """What closes the stream cleanly: the last block and the member's trailer."""
        if not self.gzip:
            return b""
        trailer = struct.pack("<II", self._crc & 0xFFFFFFFF, self._size & 0xFFFFFFFF)
        return self._head() + LAST_BLOCK + trailer

    def _head(self) -> bytes:
        """The member's header, before the first bytes of the stream."""
        if self._started:
            return b""
        self._started = True
        return GZIP_HEADER


def takes_gzip(accept_encoding: str) -> bool:
    """Whether a client said it takes gzip ("gzip, deflate, br", "gzip;q=1.0"), and did not
    refuse it ("gzip;q=0")."""
    for item in accept_encoding.lower().split(","):
        name, _, params = item.strip().partition(";")
        if name.strip() in ("gzip", "x-gzip"):
            q = params.strip().removeprefix("q=")
            try:
                return not params.strip().startswith("q=") or float(q) > 0
            except ValueError:
                return True
    return False

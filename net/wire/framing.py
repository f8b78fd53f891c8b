"""Framing: how a byte stream becomes frames, and back.

Every frame is a 4-byte big-endian length (:data:`HEADER`) followed by exactly that
many bytes, its body. A body is at most :data:`MAX_FRAME` bytes, and a longer length is
refused from the header alone, before any of the body is read.

:func:`frame` puts the length in front of a body; :class:`FrameSplitter` is the one
place a stream is cut into frames. The host, the client, the tests and the scripts all
read through it, nearly always by way of :class:`net.wire.stream.FrameReader`, which
feeds it from an asyncio transport. Nothing here touches an event loop or a socket.
"""

from __future__ import annotations

import struct

from net.wire.errors import FRAME_TOO_LARGE, TRUNCATED, ProtocolError

#: Bumped on every incompatible change; both sides must speak the same version.
PROTOCOL_VERSION = 3
#: The largest frame body either side accepts, in bytes.
MAX_FRAME = 256 * 1024
#: Before ``hello`` a host reads only frames this small (a hello is tiny).
MAX_HELLO_FRAME = 1024
HEADER = struct.Struct(">I")
#: What one whole frame of the largest size takes in a buffer, header included.
ONE_FRAME = HEADER.size + MAX_FRAME

_header_size = HEADER.size
_read_header = HEADER.unpack_from
_write_header = HEADER.pack


def frame(body: bytes) -> bytes:
    """``body`` as a complete frame (its length in front).

    Raises ``ValueError`` if the body exceeds :data:`MAX_FRAME`.
    """
    if len(body) > MAX_FRAME:
        raise ValueError(f"message of {len(body)} bytes exceeds the frame limit of {MAX_FRAME}")
    return _write_header(len(body)) + body


class FrameSplitter:
    """Cuts a byte stream into frame bodies, in order, whatever pieces it arrives in.

    :meth:`feed` what arrived; :meth:`take` each whole frame. A frame whose header
    says it is longer than the limit is refused before its body is waited for.
    """

    __slots__ = ("_held", "_start")

    def __init__(self) -> None:
        #: What came and is not taken yet, from ``_start`` on: the bytes as they came
        #: while they are one piece, so that the usual piece, whole frames, is cut
        #: without being copied into a buffer first; a bytearray once pieces are joined.
        self._held: bytes | bytearray = b""
        self._start = 0

    def __len__(self) -> int:
        """Bytes held: whole frames not yet taken and the start of the next."""
        return len(self._held) - self._start

    def feed(self, data: bytes) -> None:
        """Add bytes as they came from the stream."""
        held, start = self._held, self._start
        if start == len(held):
            self._held, self._start = data if type(data) is bytes else bytes(data), 0
            return
        if not isinstance(held, bytearray):
            held = bytearray(memoryview(held)[start:])
        elif start:
            del held[:start]
        held += data
        self._held, self._start = held, 0

    def take(self, limit: int = MAX_FRAME) -> bytes | None:
        """The next whole frame's body, or ``None`` until all of it is here.

        Raises a fatal :class:`ProtocolError` (``frame_too_large``) as soon as a header
        says the frame is longer than ``limit``; nothing is taken after that.
        """
        held, start = self._held, self._start
        if len(held) - start < _header_size:
            return None
        (length,) = _read_header(held, start)
        if length > limit:
            before = " before hello" if limit < MAX_FRAME else ""
            raise ProtocolError(
                FRAME_TOO_LARGE,
                f"a frame of {length} bytes exceeds the limit of {limit} bytes{before}",
                fatal=True)
        end = start + _header_size + length
        if len(held) < end:
            return None
        body = held[start + _header_size:end]
        if end == len(held):
            self._held, self._start = b"", 0
        else:
            self._start = end
        return body if type(body) is bytes else bytes(body)

    def cut_short(self) -> ProtocolError | None:
        """At the end of the stream: ``None`` if it ended between frames, else the
        fatal :class:`ProtocolError` (``truncated``) that says where it was cut."""
        have = len(self)
        if not have:
            return None
        if have < _header_size:
            return ProtocolError(
                TRUNCATED, "the connection ended in the middle of a frame header", fatal=True)
        (length,) = _read_header(self._held, self._start)
        return ProtocolError(
            TRUNCATED, f"the connection ended {have - _header_size} bytes into a frame of "
            f"{length} bytes", fatal=True)

    def clear(self) -> None:
        """Forget everything held."""
        self._held, self._start = b"", 0

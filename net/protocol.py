"""The hiddenhand wire: framing, msgpack limits, message schemas and error codes.

Every frame is a 4-byte big-endian length followed by exactly one msgpack map of that
many bytes. A frame longer than :data:`MAX_FRAME` is refused before it is read. Bodies
are decoded with msgpack's own limits (string, binary, array and map sizes;
``strict_map_key``; no extension types), then every message from a client is checked
against its schema by hand-written validators whose errors say in plain words what was
wrong. ``docs/protocol.md`` describes every message with an example.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import struct
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import msgpack

log = logging.getLogger(__name__)

#: Bumped on every incompatible change; both sides must speak the same version.
PROTOCOL_VERSION = 3
#: The largest frame body either side accepts, in bytes.
MAX_FRAME = 256 * 1024
HEADER = struct.Struct(">I")

# msgpack's decoding limits: generous for any real message, far below MAX_FRAME abuse.
MAX_STR_LEN = 64 * 1024
MAX_BIN_LEN = 0
MAX_ARRAY_LEN = 4096
MAX_MAP_LEN = 1024
#: How deep a client's plain data (an action, the options) may nest.
MAX_DEPTH = 6
#: Before ``hello`` a host reads only frames this small (a hello is tiny).
MAX_HELLO_FRAME = 1024
#: How deep a whole client message may nest: the message, a map in it, and MAX_DEPTH more.
MAX_MESSAGE_DEPTH = MAX_DEPTH + 2
#: How many values (containers and their items) one client message may hold.
MAX_MESSAGE_ITEMS = 2048
#: The longest string in a client message, in bytes (the longest field is 200 characters).
MAX_CLIENT_STR_LEN = 4096
#: At most this many combining marks may follow one character in a name or a chat line.
MAX_COMBINING = 4

NAME_LEN = 24
TABLE_NAME_LEN = 32
CHAT_LEN = 200
TOKEN_LEN = 64
ID_LEN = 16
REF_MAX = 2**31 - 1
MAX_SEATS = 16

# Error codes sent in ``error`` frames.
BAD_FRAME = "bad_frame"
FRAME_TOO_LARGE = "frame_too_large"
TRUNCATED = "truncated"
BAD_MESSAGE = "bad_message"
UNKNOWN_TYPE = "unknown_type"
VERSION_MISMATCH = "version_mismatch"
NOT_WELCOMED = "hello_first"
NO_TABLE = "no_table"
NO_SEAT = "no_seat"
TABLE_FULL = "table_full"
SEAT_TAKEN = "seat_taken"
BAD_TOKEN = "bad_token"
NOT_CREATOR = "not_creator"
WRONG_PHASE = "wrong_phase"
ILLEGAL_ACTION = "illegal_action"
BAD_REQUEST = "bad_request"
REPLACED = "replaced"
KICKED = "kicked"
TIMEOUT = "timeout"
HOST_FULL = "host_full"
SHUTTING_DOWN = "shutting_down"
TABLE_CLOSED = "table_closed"
SLOW_READER = "slow_reader"
INTERNAL = "internal"
RATE_LIMITED = "rate_limited"


class ProtocolError(Exception):
    """A frame or message that breaks the protocol.

    ``code`` is one of the module's error codes; ``fatal`` says whether the connection
    cannot go on (the framing is lost, or the peer cannot be spoken to).
    """

    def __init__(self, code: str, message: str, *, fatal: bool = False) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.fatal = fatal


class ConnectionClosed(Exception):
    """The peer closed the connection cleanly between frames."""


# --------------------------------------------------------------------------- framing


def pack(message: Mapping[str, Any]) -> bytes:
    """Encode one message as a complete frame (length prefix included).

    Raises ``ValueError`` if the body would exceed :data:`MAX_FRAME`.
    """
    body = msgpack.packb(message, use_bin_type=True)
    if len(body) > MAX_FRAME:
        raise ValueError(f"message of {len(body)} bytes exceeds the frame limit of {MAX_FRAME}")
    return HEADER.pack(len(body)) + body


_UPDATE_KEYS = {
    key: msgpack.packb(key)
    for key in ("table", "seat", "view", "view_changes", "legal", "events", "notices")
}
_UPDATE_TYPE = msgpack.packb("type") + msgpack.packb("update")
#: Seat numbers packed once (a seat is a small int in every update).
_SEATS = [msgpack.packb(i) for i in range(16)]


def update_tail(events: list[dict[str, Any]], notices: list[dict[str, Any]]) -> bytes:
    """The packed ``events`` and ``notices`` of an ``update``: the same for every
    connection of one push, so packed once (see :func:`update_frame`)."""
    return (_UPDATE_KEYS["events"] + msgpack.packb(events, use_bin_type=True)
            + _UPDATE_KEYS["notices"] + msgpack.packb(notices, use_bin_type=True))


def update_frame(table: bytes | None, seat: int | None, view: bytes, legal: bytes,
                 tail: bytes, *, changes: bool = False) -> bytes:
    """One ``update`` frame assembled from parts already packed with msgpack.

    The bytes are exactly ``pack`` of the map ``{"type": "update", "table": …, "seat": …,
    "view": …, "legal": …, "events": …, "notices": …}`` (``table`` left out when it is
    ``None``; with ``changes``, ``view`` is the packed map of what changed and goes
    under ``view_changes``): what every connection of a push shares is packed once,
    only its own view and legal actions per connection. Raises ``ValueError`` past
    :data:`MAX_FRAME`.
    """
    keys = _UPDATE_KEYS
    parts = [b"\x86" if table is None else b"\x87", _UPDATE_TYPE]
    if table is not None:
        parts += [keys["table"], table]
    seat_packed = _SEATS[seat] if seat is not None and 0 <= seat < len(_SEATS) else (
        msgpack.packb(seat))
    parts += [keys["seat"], seat_packed, keys["view_changes" if changes else "view"],
              view, keys["legal"], legal, tail]
    body = b"".join(parts)
    if len(body) > MAX_FRAME:
        raise ValueError(f"message of {len(body)} bytes exceeds the frame limit of {MAX_FRAME}")
    return HEADER.pack(len(body)) + body


def map_entries(packed: bytes) -> tuple[int, bytes]:
    """A map packed with msgpack as its number of entries and its entries without the
    header: maps with no key in common are joined by :func:`joined_map`."""
    first = packed[0]
    if 0x80 <= first <= 0x8F:
        return first & 0x0F, packed[1:]
    if first == 0xDE:
        return int.from_bytes(packed[1:3], "big"), packed[3:]
    if first == 0xDF:
        return int.from_bytes(packed[1:5], "big"), packed[5:]
    raise ValueError("not a packed map")


def joined_map(first: tuple[int, bytes], second: tuple[int, bytes]) -> bytes:
    """One packed map of the entries of two maps with no key in common (each as
    :func:`map_entries` gives it): exactly ``packb`` of the two merged, in that order."""
    count = first[0] + second[0]
    if count <= 0x0F:
        head = bytes((0x80 | count,))
    elif count <= 0xFFFF:
        head = b"\xde" + count.to_bytes(2, "big")
    else:
        head = b"\xdf" + count.to_bytes(4, "big")
    return head + first[1] + second[1]


_MISSING: Any = object()


def view_changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any] | None:
    """The entries of ``new`` that differ from ``old`` (top level), or ``None`` when
    ``new`` lacks a key ``old`` has (then only the whole view says it).

    ``apply_view_changes(old, view_changes(old, new)) == new`` whenever it is not
    ``None``. A value counts as changed when it compares unequal or its type changed
    (``1`` and ``True`` compare equal); views keep each key's types, so equal nested
    values are the same values.
    """
    changes: dict[str, Any] = {}
    get = old.get
    for key, value in new.items():
        before = get(key, _MISSING)  # a key ``old`` lacks: ``_MISSING`` equals nothing
        # The same object is unchanged without asking (small ints, names, None).
        if before is not value and (before != value or type(before) is not type(value)):
            changes[key] = value
    if len(new) == len(old):
        # Every unchanged key is in ``old``; if every changed one is too, the keys are
        # the same; if not, ``old`` has one that ``new`` lacks.
        for key in changes:
            if key not in old:
                return None
        return changes
    return changes if len(new) > len(old) and old.keys() <= new.keys() else None


def apply_view_changes(old: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    """The view ``old`` with ``changes`` (an update's ``view_changes``) applied: a new
    map; values that did not change are ``old``'s own (shared, not copied)."""
    view = dict(old)
    view.update(changes)
    return view


def _short(text: str, limit: int = 160) -> str:
    """``text`` cut to ``limit`` characters: error messages and log lines stay short."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def show(value: Any) -> str:
    """A short, safe rendering of a client's value for an error message.

    Never ``repr`` of a container: a deeply nested one would recurse, a big one would
    make a huge message (and log line).
    """
    if isinstance(value, str):
        return repr(value[:40]) + ("…" if len(value) > 40 else "")
    if value is None or isinstance(value, bool | int | float):
        return _short(repr(value), 40)
    return f"a {type(value).__name__}"


class _Refused(Exception):
    """Raised inside msgpack's hooks to stop decoding at once."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class _Checker:
    """msgpack hooks that bound one message's cost while it is decoded.

    Containers are finished innermost first, so depth is known bottom-up and a message
    nested too deep, or holding too many values, is refused as soon as the limit is
    crossed — before anything recurses over it. Duplicate keys, binary and extension
    values are refused too (``docs/protocol.md``).
    """

    __slots__ = ("depths", "items", "max_depth", "max_items")

    def __init__(self, max_depth: int, max_items: int) -> None:
        self.depths: dict[int, int] = {}
        self.items = 0
        self.max_depth = max_depth
        self.max_items = max_items

    def _level(self, values: Iterable[Any], count: int) -> int:
        self.items += count + 1
        if self.items > self.max_items:
            raise _Refused(
                BAD_MESSAGE, f"the message holds more than {self.max_items} values"
            )
        depth = 1
        depths = self.depths
        for v in values:
            if type(v) is bytes:
                raise _Refused(BAD_FRAME, "binary values are not part of the protocol")
            d = depths.get(id(v))
            if d is not None and d >= depth:
                depth = d + 1
        if depth > self.max_depth:
            raise _Refused(BAD_MESSAGE, f"the message nests deeper than {self.max_depth} levels")
        return depth

    def list_hook(self, value: list[Any]) -> list[Any]:
        """Called by msgpack for every finished array."""
        self.depths[id(value)] = self._level(value, len(value))
        return value

    def pairs_hook(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        """Called by msgpack for every finished map, with its pairs in order."""
        out = dict(pairs)
        if len(out) != len(pairs):
            seen: set[str] = set()
            for k, _ in pairs:
                if k in seen:
                    raise _Refused(BAD_MESSAGE, f"a map repeats the key {show(k)}")
                seen.add(k)
        self.depths[id(out)] = self._level(out.values(), len(out))
        return out

    @staticmethod
    def ext_hook(code: int, data: bytes) -> Any:
        """Extension types (even empty ones) are not part of the protocol."""
        raise _Refused(BAD_FRAME, "extension types are not part of the protocol")


def unpack_body(
    body: bytes,
    *,
    max_depth: int | None = None,
    max_items: int | None = None,
    max_str_len: int = MAX_STR_LEN,
) -> dict[str, Any]:
    """Decode one frame body with msgpack's limits; it must be a single map.

    With ``max_depth``/``max_items`` (what the host uses for clients' messages) decoding
    also stops as soon as the message nests too deep or holds too many values, and
    refuses duplicate keys and binary or extension values: one message costs little to
    check, whatever it holds. Raises :class:`ProtocolError` (not fatal: the framing is
    intact) for garbage.
    """
    hooks: dict[str, Any] = {}
    if max_depth is not None or max_items is not None:
        checker = _Checker(max_depth or 1 << 30, max_items or 1 << 30)
        hooks = {
            "list_hook": checker.list_hook,
            "object_pairs_hook": checker.pairs_hook,
            "ext_hook": checker.ext_hook,
        }
    try:
        obj = msgpack.unpackb(
            body,
            raw=False,
            strict_map_key=True,
            max_str_len=max_str_len,
            max_bin_len=MAX_BIN_LEN,
            max_array_len=MAX_ARRAY_LEN,
            max_map_len=MAX_MAP_LEN,
            max_ext_len=0 if not hooks else 1,
            **hooks,
        )
    except _Refused as exc:
        raise ProtocolError(exc.code, exc.message) from None
    except Exception as exc:  # msgpack raises many types (ValueError, ExtraData, ...)
        # msgpack's own words can quote the whole body (ExtraData does): keep them short.
        raise ProtocolError(
            BAD_FRAME, _short(f"the frame is not one valid msgpack object: {exc}")
        ) from None
    if type(obj) is dict:  # every message (the one check on the hot path)
        return obj
    if isinstance(obj, bytes | msgpack.ExtType):
        raise ProtocolError(BAD_FRAME, "binary and extension values are not part of the protocol")
    if not isinstance(obj, dict):
        raise ProtocolError(BAD_MESSAGE, f"a message must be a map, not {type(obj).__name__}")
    return obj


def unpack_client_body(body: bytes) -> dict[str, Any]:
    """Decode a message from a client with the host's tight limits (see :func:`unpack_body`)."""
    return unpack_body(
        body, max_depth=MAX_MESSAGE_DEPTH, max_items=MAX_MESSAGE_ITEMS,
        max_str_len=MAX_CLIENT_STR_LEN,
    )


async def read_frame(
    reader: asyncio.StreamReader,
    limit: int = MAX_FRAME,
    decode: Callable[[bytes], dict[str, Any]] = unpack_body,
) -> tuple[bytes, dict[str, Any]]:
    """Read one frame of at most ``limit`` bytes; return its raw body and the decoded map.

    Raises :class:`ConnectionClosed` on a clean end of stream between frames, and a
    fatal :class:`ProtocolError` for an oversized or truncated frame. A body that does
    not decode raises a non-fatal :class:`ProtocolError`.
    """
    try:
        header = await reader.readexactly(HEADER.size)
    except asyncio.IncompleteReadError as exc:
        if not exc.partial:
            raise ConnectionClosed() from None
        raise ProtocolError(
            TRUNCATED, "the connection ended in the middle of a frame header", fatal=True
        ) from None
    (length,) = HEADER.unpack(header)
    if length > limit:
        before = " before hello" if limit < MAX_FRAME else ""
        raise ProtocolError(
            FRAME_TOO_LARGE,
            f"a frame of {length} bytes exceeds the limit of {limit} bytes{before}",
            fatal=True,
        )
    try:
        body = await reader.readexactly(length)
    except asyncio.IncompleteReadError as exc:
        raise ProtocolError(
            TRUNCATED,
            f"the connection ended {len(exc.partial)} bytes into a frame of {length} bytes",
            fatal=True,
        ) from None
    return body, decode(body)


class FrameReader(asyncio.StreamReader):
    """A stream that hands on each frame from the event loop's read callback.

    Once :meth:`deliver` is called, every complete frame body goes to ``on_frame`` as
    soon as its last byte arrives: no task is woken per frame, and frames that arrive
    together are handed on together. A frame whose header says it is longer than
    ``limit()`` is refused before its body is read. It holds at most one unfinished
    frame (until ``deliver``, reading pauses past one frame): a peer cannot make it
    buffer more.

    :attr:`ended` resolves once, when the stream ends: with ``None`` for a clean end
    between frames (or :meth:`stop`), a fatal :class:`ProtocolError` for a frame over
    the limit or cut off by the end, or the connection's own exception. Nothing is
    delivered after that. Its writer is the usual ``asyncio.StreamWriter`` (see
    :func:`open_connection`); its ``read*`` methods are not for use.
    """

    def __init__(self) -> None:
        super().__init__()
        self._pending = bytearray()
        self._on_frame: Callable[[bytes], None] | None = None
        self._frame_limit: Callable[[], int] = lambda: MAX_FRAME
        #: The stream ended before ``deliver`` (and why): told once it is called.
        self._early_end: tuple[BaseException | None] | None = None
        self._held_back = False
        self.ended: asyncio.Future[BaseException | None] = (
            asyncio.get_running_loop().create_future())

    def deliver(self, on_frame: Callable[[bytes], None],
                limit: Callable[[], int] = lambda: MAX_FRAME) -> None:
        """Start handing frames to ``on_frame`` (those already here first)."""
        self._on_frame, self._frame_limit = on_frame, limit
        self._split()
        self._pause(False)
        if self._early_end is not None:
            self._finish(self._early_end[0])

    def _pause(self, pause: bool) -> None:
        transport: asyncio.ReadTransport | None = getattr(self, "_transport", None)
        if transport is not None and pause != self._held_back:
            self._held_back = pause
            with contextlib.suppress(RuntimeError, AttributeError):  # closing, or a pipe
                transport.pause_reading() if pause else transport.resume_reading()

    def stop(self, reason: BaseException | None = None) -> None:
        """Hand nothing more on; :attr:`ended` resolves with ``reason``."""
        if not self.ended.done():
            self.ended.set_result(reason)
        self._pending.clear()

    def feed_data(self, data: bytes) -> None:  # type: ignore[override]
        if self.ended.done():
            return
        self._pending += data
        if self._on_frame is None and len(self._pending) > HEADER.size + MAX_FRAME:
            # Nobody takes frames yet: hold no more than one (a peer gets no further).
            self._pause(True)
            return
        if self._on_frame is not None:
            self._split()

    def feed_eof(self) -> None:
        self._eof = True
        self._finish(None)

    def set_exception(self, exc: BaseException) -> None:
        self._finish(exc)

    def _finish(self, reason: BaseException | None) -> None:
        if self.ended.done():
            return
        if self._on_frame is None:
            self._early_end = (reason,)
            return
        if reason is None and self._pending:
            have = len(self._pending)
            if have < HEADER.size:
                reason = ProtocolError(
                    TRUNCATED, "the connection ended in the middle of a frame header",
                    fatal=True)
            else:
                (length,) = HEADER.unpack_from(self._pending)
                reason = ProtocolError(
                    TRUNCATED, f"the connection ended {have - HEADER.size} bytes into a "
                    f"frame of {length} bytes", fatal=True)
        self.stop(reason)

    def _split(self) -> None:
        buf, size = self._pending, HEADER.size
        on_frame = self._on_frame
        while on_frame is not None and len(buf) >= size and not self.ended.done():
            (length,) = HEADER.unpack_from(buf)
            limit = self._frame_limit()
            if length > limit:
                before = " before hello" if limit < MAX_FRAME else ""
                self.stop(ProtocolError(
                    FRAME_TOO_LARGE,
                    f"a frame of {length} bytes exceeds the limit of {limit} bytes{before}",
                    fatal=True))
                return
            end = size + length
            if len(buf) < end:
                return
            if len(buf) == end:  # the usual case: what came is one whole frame
                body = bytes(buf)[size:]
                buf.clear()
            else:
                body = bytes(buf[size:end])
                del buf[:end]
            try:
                on_frame(body)
            except Exception as exc:
                # The reader's bug: this stream ends (the connection's owner closes it).
                log.exception("handling a frame failed; ending the stream")
                self.stop(exc)


async def open_connection(
    host: str | None = None, port: int | None = None, *, sock: Any = None
) -> tuple[FrameReader, asyncio.StreamWriter]:
    """``asyncio.open_connection`` with a :class:`FrameReader`."""
    loop = asyncio.get_running_loop()
    reader = FrameReader()
    protocol = asyncio.StreamReaderProtocol(reader, loop=loop)
    transport, _ = await loop.create_connection(
        lambda: protocol, host, port, sock=sock)  # type: ignore[arg-type]
    return reader, asyncio.StreamWriter(transport, protocol, reader, loop)


def frame_protocol(
    connected: Callable[[FrameReader, asyncio.StreamWriter], Any],
) -> Callable[[], asyncio.StreamReaderProtocol]:
    """A protocol factory for ``loop.create_server`` that gives ``connected`` a
    :class:`FrameReader` and its writer for each connection (as ``start_server`` does
    with a plain stream)."""
    def make() -> asyncio.StreamReaderProtocol:
        return asyncio.StreamReaderProtocol(FrameReader(), connected)  # type: ignore[arg-type]
    return make


# --------------------------------------------------------------------------- validators

Validator = Callable[[str, Any], Any]


def _bad(message: str) -> ProtocolError:
    return ProtocolError(BAD_MESSAGE, message)


#: Categories refused in any client string: controls, formats, surrogates, private use,
#: unassigned, and line/paragraph separators (U+2028/U+2029 break other people's lines).
_REFUSED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
#: Characters that print as nothing although Unicode calls them letters or symbols.
_BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800\u3000\u00a0\u2007\u202f")


def _check_text(field: str, value: str) -> None:
    # Names and chat end up on other players' terminals: no escape sequences there.
    # ``isprintable`` is the fast path (C speed); only a string it doubts is walked.
    if value.isprintable():
        return
    for ch in value:
        if unicodedata.category(ch) in _REFUSED:
            raise _bad(
                f"{field!r} contains a control or unprintable character (U+{ord(ch):04X})"
            )


def visible_text(field: str, value: str) -> str:
    """``value`` if it shows something on a terminal, with few combining marks.

    Refuses text made only of spaces, fillers (Hangul filler, braille blank) and marks,
    and stacks of more than :data:`MAX_COMBINING` combining marks on one character.
    """
    run = 0
    visible = False
    for ch in value:
        cat = unicodedata.category(ch)
        if cat in ("Mn", "Me", "Mc"):
            run += 1
            if run > MAX_COMBINING:
                raise _bad(
                    f"{field!r} stacks more than {MAX_COMBINING} combining marks on a character"
                )
            continue
        run = 0
        if not visible and cat[0] != "Z" and ch not in _BLANK_LOOKING:
            visible = True
    if not visible:
        raise _bad(f"{field!r} must show something: it is blank or invisible")
    return value


def text(max_len: int, *, min_len: int = 0, printable: bool = True) -> Validator:
    """A string of ``min_len..max_len`` characters (printable unless told otherwise)."""

    def check(field: str, value: Any) -> str:
        if not isinstance(value, str):
            raise _bad(f"{field!r} must be a string, not {type(value).__name__}")
        if not min_len <= len(value) <= max_len:
            raise _bad(f"{field!r} must be {min_len} to {max_len} characters long")
        if printable:
            _check_text(field, value)
        return value

    return check


def name_text(max_len: int) -> Validator:
    """A display name (or a chat line): printable, trimmed, visibly not blank."""
    inner = text(max_len, min_len=1)

    def check(field: str, value: Any) -> str:
        value = inner(field, value)
        value = value.strip()
        if not value:
            raise _bad(f"{field!r} must not be blank")
        return visible_text(field, value)

    return check


def integer(lo: int, hi: int) -> Validator:
    """A whole number in ``lo..hi`` (booleans are not numbers here)."""

    def check(field: str, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _bad(f"{field!r} must be a whole number, not {show(value)}")
        if not lo <= value <= hi:
            raise _bad(f"{field!r} must be from {lo} to {hi}, not {value}")
        return value

    return check


def boolean(field: str, value: Any) -> bool:
    """``true`` or ``false``."""
    if not isinstance(value, bool):
        raise _bad(f"{field!r} must be true or false, not {show(value)}")
    return value


def nullable(inner: Validator) -> Validator:
    """``None`` or whatever ``inner`` accepts."""

    def check(field: str, value: Any) -> Any:
        return None if value is None else inner(field, value)

    return check


def plain(field: str, value: Any, depth: int = 0) -> Any:
    """Plain data as the engine contract defines it: str-keyed maps, lists, scalars.

    Strings must be printable; nesting is limited to :data:`MAX_DEPTH`; floats must be
    finite.
    """
    if depth > MAX_DEPTH:
        raise _bad(f"{field!r} nests deeper than {MAX_DEPTH} levels")
    kind = type(value)
    # The common cases first, by exact type (what msgpack decodes to).
    if kind is str and value.isprintable():
        return value
    if kind is int and -(2**63) < value < 2**63:
        return value
    if value is None or isinstance(value, bool | int):
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 2**63:
            raise _bad(f"{field!r} holds a number too large")
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise _bad(f"{field!r} holds a number that is not finite")
        return value
    if isinstance(value, str):
        _check_text(field, value)
        return value
    if isinstance(value, list):
        return [plain(field, v, depth + 1) for v in value]
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise _bad(f"{field!r} has a key that is not a string: {show(k)}")
            _check_text(field, k)
            out[k] = plain(field, v, depth + 1)
        return out
    raise _bad(f"{field!r} holds a value of type {type(value).__name__}, which is not plain data")


def plain_map(field: str, value: Any) -> dict[str, Any]:
    """A map of plain data."""
    if not isinstance(value, dict):
        raise _bad(f"{field!r} must be a map, not {type(value).__name__}")
    result: dict[str, Any] = plain(field, value)
    return result


def action(field: str, value: Any) -> dict[str, Any]:
    """An engine action: a plain map with a ``type`` string."""
    checked = plain_map(field, value)
    if not isinstance(checked.get("type"), str):
        raise _bad(f"{field!r} must have a 'type' string")
    return checked


_REF_TEXT = text(ID_LEN * 2)
_REF_NUMBER = integer(0, REF_MAX)


def ref(field: str, value: Any) -> int | str:
    """A request reference: a whole number or a short string, echoed in the reply."""
    if type(value) is int and 0 <= value <= REF_MAX:  # what every client sends
        return value
    if isinstance(value, str):
        return _REF_TEXT(field, value)
    return _REF_NUMBER(field, value)


#: Client-to-host messages: type -> {field: (validator, required)}.
CLIENT_MESSAGES: dict[str, dict[str, tuple[Validator, bool]]] = {
    "hello": {
        "version": (integer(0, REF_MAX), True),
        "name": (name_text(NAME_LEN), True),
        "client": (text(64), False),
    },
    "ping": {},
    "pong": {},
    "list_tables": {},
    "create_table": {
        "name": (name_text(TABLE_NAME_LEN), True),
        "game": (text(ID_LEN, min_len=1), True),
        "seats": (integer(1, MAX_SEATS), True),
        "options": (plain_map, False),
    },
    "join": {
        "table": (text(ID_LEN, min_len=1), True),
        "seat": (integer(0, MAX_SEATS - 1), False),
        "token": (text(TOKEN_LEN, min_len=1), False),
        "spectate": (boolean, False),
    },
    "leave": {},
    "pick_seat": {"seat": (integer(0, MAX_SEATS - 1), True)},
    "rename": {"name": (name_text(NAME_LEN), True)},
    "ready": {"ready": (boolean, True)},
    "chat": {"text": (name_text(CHAT_LEN), True)},
    "configure": {
        "game": (text(ID_LEN, min_len=1), False),
        "seats": (integer(1, MAX_SEATS), False),
        "options": (plain_map, False),
    },
    "add_bot": {"seat": (integer(0, MAX_SEATS - 1), True)},
    "remove_bot": {"seat": (integer(0, MAX_SEATS - 1), True)},
    "kick": {"seat": (integer(0, MAX_SEATS - 1), True)},
    "start": {},
    "to_lobby": {},
    "act": {"action": (action, True)},
}


def validate_client_message(message: dict[str, Any]) -> dict[str, Any]:
    """Check a decoded client message against its schema; return a cleaned copy.

    Raises :class:`ProtocolError` with code ``unknown_type`` or ``bad_message`` and a
    message naming the offending field.
    """
    kind = message.get("type")
    if not isinstance(kind, str):
        raise _bad("a message needs a 'type' string")
    schema = CLIENT_MESSAGES.get(kind)
    if schema is None:
        known = ", ".join(sorted(CLIENT_MESSAGES))
        raise ProtocolError(
            UNKNOWN_TYPE, f"unknown message type {kind[:40]!r}; known types: {known}"
        )
    out: dict[str, Any] = {"type": kind}
    if "ref" in message:
        out["ref"] = ref("ref", message["ref"])
    for key in message:
        if key not in schema and key not in {"type", "ref"}:
            raise _bad(f"unexpected field {str(key)[:40]!r} in a {kind!r} message")
    for key, (check, required) in schema.items():
        if key in message:
            out[key] = check(key, message[key])
        elif required:
            raise _bad(f"a {kind!r} message needs the field {key!r}")
    return out


def reply_ref(message: Mapping[str, Any]) -> int | str | None:
    """The ``ref`` of a raw message if it is a valid reference, for echoing in errors."""
    value = message.get("ref")
    try:
        return ref("ref", value) if value is not None else None
    except ProtocolError:
        return None


def error(code: str, message: str, ref: int | str | None = None) -> dict[str, Any]:
    """An ``error`` message (with the request's ``ref`` when there is one)."""
    out: dict[str, Any] = {"type": "error", "code": code, "message": _short(message, 400)}
    if ref is not None:
        out["ref"] = ref
    return out

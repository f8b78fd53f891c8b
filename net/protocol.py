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
import math
import struct
import unicodedata
from collections.abc import Callable, Mapping
from typing import Any

import msgpack

#: Bumped on every incompatible change; both sides must speak the same version.
PROTOCOL_VERSION = 1
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


def unpack_body(body: bytes) -> dict[str, Any]:
    """Decode one frame body with msgpack's limits; it must be a single map.

    Raises :class:`ProtocolError` (not fatal: the framing is intact) for garbage.
    """
    try:
        obj = msgpack.unpackb(
            body,
            raw=False,
            strict_map_key=True,
            max_str_len=MAX_STR_LEN,
            max_bin_len=MAX_BIN_LEN,
            max_array_len=MAX_ARRAY_LEN,
            max_map_len=MAX_MAP_LEN,
            max_ext_len=0,
        )
    except Exception as exc:  # msgpack raises many types (ValueError, ExtraData, ...)
        raise ProtocolError(
            BAD_FRAME, f"the frame is not one valid msgpack object: {exc}"
        ) from None
    if not isinstance(obj, dict):
        raise ProtocolError(BAD_MESSAGE, f"a message must be a map, not {type(obj).__name__}")
    return obj


async def read_frame(reader: asyncio.StreamReader) -> tuple[bytes, dict[str, Any]]:
    """Read one frame; return its raw body and the decoded map.

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
    if length > MAX_FRAME:
        raise ProtocolError(
            FRAME_TOO_LARGE,
            f"a frame of {length} bytes exceeds the limit of {MAX_FRAME} bytes",
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
    return body, unpack_body(body)


# --------------------------------------------------------------------------- validators

Validator = Callable[[str, Any], Any]


def _bad(message: str) -> ProtocolError:
    return ProtocolError(BAD_MESSAGE, message)


def _check_text(field: str, value: str) -> None:
    # Names and chat end up on other players' terminals: no escape sequences there.
    for ch in value:
        if unicodedata.category(ch) in {"Cc", "Cf", "Cs", "Co", "Cn"}:
            raise _bad(f"{field!r} contains a control or unprintable character ({ch!r})")


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
    """A display name: printable, trimmed, not blank."""
    inner = text(max_len, min_len=1)

    def check(field: str, value: Any) -> str:
        value = inner(field, value)
        value = value.strip()
        if not value:
            raise _bad(f"{field!r} must not be blank")
        return value

    return check


def integer(lo: int, hi: int) -> Validator:
    """A whole number in ``lo..hi`` (booleans are not numbers here)."""

    def check(field: str, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _bad(f"{field!r} must be a whole number, not {value!r}")
        if not lo <= value <= hi:
            raise _bad(f"{field!r} must be from {lo} to {hi}, not {value}")
        return value

    return check


def boolean(field: str, value: Any) -> bool:
    """``true`` or ``false``."""
    if not isinstance(value, bool):
        raise _bad(f"{field!r} must be true or false, not {value!r}")
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
                raise _bad(f"{field!r} has a key that is not a string: {k!r}")
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


def ref(field: str, value: Any) -> int | str:
    """A request reference: a whole number or a short string, echoed in the reply."""
    if isinstance(value, str):
        return text(ID_LEN * 2)(field, value)
    return integer(0, REF_MAX)(field, value)


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
        "seat": (nullable(integer(0, MAX_SEATS - 1)), False),
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
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if ref is not None:
        out["ref"] = ref
    return out

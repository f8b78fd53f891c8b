"""Error codes of the wire, the exceptions that carry them, and the ``error`` message.

The codes are the ``code`` of ``error`` frames (``docs/protocol.md`` lists when each is
sent). Everything that names one imports it from here: the host, the client and the
app never spell a code out themselves.
"""

from __future__ import annotations

from typing import Any

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
IDLE = "idle"
#: Said by this app of a host, never sent: the host sent what the app cannot read.
BAD_HOST = "bad_host"


class ProtocolError(Exception):
    """A frame or message that breaks the protocol.

    ``code`` is one of this module's error codes; ``fatal`` says whether the connection
    cannot go on (the framing is lost, or the peer cannot be spoken to).
    """

    def __init__(self, code: str, message: str, *, fatal: bool = False) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.fatal = fatal


class ConnectionClosed(Exception):
    """The peer closed the connection cleanly between frames."""


def short(text: str, limit: int = 160) -> str:
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
        return short(repr(value), 40)
    return f"a {type(value).__name__}"


def error(code: str, message: str, ref: int | str | None = None) -> dict[str, Any]:
    """An ``error`` message (with the request's ``ref`` when there is one)."""
    out: dict[str, Any] = {"type": "error", "code": code, "message": short(message, 400)}
    if ref is not None:
        out["ref"] = ref
    return out

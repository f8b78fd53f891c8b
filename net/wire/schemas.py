"""What a client's message may hold: validators, the schema of every kind, and the check.

Every message from a client, once decoded (:func:`net.wire.codec.unpack_client_body`),
is checked against the schema of its ``type`` (:data:`CLIENT_MESSAGES`) by
:func:`validate_client_message`; hand-written validators say in plain words what was
wrong (``docs/protocol.md`` describes every message with an example). Names and chat
end up on other players' terminals, so text is checked for what a terminal would
not show plainly.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable, Mapping
from typing import Any

from net.wire.codec import MAX_DEPTH
from net.wire.errors import BAD_MESSAGE, UNKNOWN_TYPE, ProtocolError, show

#: At most this many combining marks may follow one character in a name or a chat line.
MAX_COMBINING = 4

NAME_LEN = 24
TABLE_NAME_LEN = 32
CHAT_LEN = 200
TOKEN_LEN = 64
ID_LEN = 16
REF_MAX = 2**31 - 1
MAX_SEATS = 16
#: Moves a game may make (a step in its review names one; ``engine.record.MAX_MOVES``).
MAX_MOVES = 100_000

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


#: What a name may not hold: a screen reads ``[`` as the start of a style (Rich's and
#: Textual's markup), so a name "[/]" broke other players' screens where it was shown,
#: and "[@click=…]" would have made a link to an action in their apps.
MARKUP_BRACKETS = "[]"


def plain_name(field: str, value: str) -> str:
    """``value`` if it holds no :data:`MARKUP_BRACKETS`."""
    if any(ch in value for ch in MARKUP_BRACKETS):
        raise _bad(f"{field!r} may not hold [ or ]")
    return value


def name_text(max_len: int, *, name: bool = True) -> Validator:
    """A display name (or, ``name=False``, a chat line, which may hold brackets):
    printable, trimmed, visibly not blank."""
    inner = text(max_len, min_len=1)

    def check(field: str, value: Any) -> str:
        value = inner(field, value)
        value = value.strip()
        if not value:
            raise _bad(f"{field!r} must not be blank")
        if name:
            plain_name(field, value)
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
        "visitor": (text(32, min_len=8), False),
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
    "chat": {"text": (name_text(CHAT_LEN, name=False), True)},
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
    "rematch": {},
    "review_open": {},
    "review_go": {"at": (integer(0, MAX_MOVES), True)},
    "review_follow": {"auto": (boolean, False)},
    "review_close": {},
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

"""What a host's messages may hold, as this app reads them.

A host is another player's machine: a host of another make, an older or a hostile one
may send anything msgpack can hold. Every field the app looks into is checked here,
as the client receives it (:class:`net.client.Client`), so that a screen can trust
the shapes it indexes: a table's seats, a game's view, the legal actions. A message
that does not fit is refused whole with a :class:`~net.wire.errors.ProtocolError`
saying where and what (``view.hand_counts: must have one entry per seat``): the app
leaves that host with those words instead of crashing on them.

Keys a check does not know are let through (a newer host may send more); a known key
must have its shape. The checks take the number of seats at the table, which bounds
every seat number and every list kept per seat.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import engine
from net.wire.errors import BAD_MESSAGE, ProtocolError
from net.wire.schemas import (
    ID_LEN,
    MAX_SEATS,
    NAME_LEN,
    TABLE_NAME_LEN,
)

#: ``check(where, value, seats)``: raises :class:`ProtocolError` if ``value`` does not fit.
Check = Callable[[str, Any, int], None]

#: Any list a view holds is shorter than this (a game's cards, clues, moves).
LONG = 10_000
#: Text a host sends besides names: chat, reasons, card words.
TEXT_LEN = 2_000


def refusal(where: str, what: str) -> ProtocolError:
    """A message refused: where in it, and what is wrong there."""
    return ProtocolError(BAD_MESSAGE, f"{where}: {what}")


def integer(lo: int, hi: int) -> Check:
    """A whole number from ``lo`` to ``hi``."""

    def check(where: str, value: Any, seats: int) -> None:
        if type(value) is not int or not lo <= value <= hi:
            raise refusal(where, f"must be a whole number from {lo} to {hi}")

    return check


def number(lo: float, hi: float) -> Check:
    """A finite number from ``lo`` to ``hi``."""

    def check(where: str, value: Any, seats: int) -> None:
        if type(value) not in (int, float) or not math.isfinite(value) \
                or not lo <= value <= hi:
            raise refusal(where, f"must be a number from {lo:g} to {hi:g}")

    return check


def boolean(where: str, value: Any, seats: int) -> None:
    """True or false."""
    if type(value) is not bool:
        raise refusal(where, "must be true or false")


def text(max_len: int) -> Check:
    """A string of at most ``max_len`` characters."""

    def check(where: str, value: Any, seats: int) -> None:
        if type(value) is not str or len(value) > max_len:
            raise refusal(where, f"must be text of at most {max_len} characters")

    return check


def one_of(*values: Any) -> Check:
    """One of ``values`` (compared with their types: 1 is not True)."""
    allowed = {(type(v), v) for v in values}

    def check(where: str, value: Any, seats: int) -> None:
        try:
            known = (type(value), value) in allowed
        except TypeError:  # (unhashable)
            known = False
        if not known:
            raise refusal(where, f"must be one of {', '.join(map(repr, values))}")

    return check


def optional(inner: Check) -> Check:
    """``None``, or what ``inner`` accepts."""

    def check(where: str, value: Any, seats: int) -> None:
        if value is not None:
            inner(where, value, seats)

    return check


def either(*inners: Check) -> Check:
    """What any of ``inners`` accepts (the first one's words if none does)."""

    def check(where: str, value: Any, seats: int) -> None:
        first: ProtocolError | None = None
        for inner in inners:
            try:
                inner(where, value, seats)
            except ProtocolError as exc:
                first = first or exc
            else:
                return
        assert first is not None
        raise first

    return check


def seat(where: str, value: Any, seats: int) -> None:
    """A seat of the table: 0 to seats - 1."""
    if type(value) is not int or not 0 <= value < seats:
        raise refusal(where, f"must be a seat number from 0 to {seats - 1}")


def items(inner: Check, *, most: int = LONG, exactly: int | None = None) -> Check:
    """A list of at most ``most`` (or ``exactly``) entries, each what ``inner`` accepts."""

    def check(where: str, value: Any, seats: int) -> None:
        if type(value) is not list:
            raise refusal(where, "must be a list")
        if exactly is not None and len(value) != exactly:
            raise refusal(where, f"must have {exactly} entries")
        if len(value) > most:
            raise refusal(where, f"must have at most {most} entries")
        for i, entry in enumerate(value):
            inner(f"{where}[{i}]", entry, seats)

    return check


def per_seat(inner: Check) -> Check:
    """A list of one entry per seat, each what ``inner`` accepts."""

    def check(where: str, value: Any, seats: int) -> None:
        if type(value) is not list or len(value) != seats:
            raise refusal(where, "must have one entry per seat")
        for i, entry in enumerate(value):
            inner(f"{where}[{i}]", entry, seats)

    return check


def fields(spec: Mapping[str, tuple[Check, bool]]) -> Check:
    """A map whose keys in ``spec`` (``(check, required)``) fit their checks; other keys
    are let through."""

    def check(where: str, value: Any, seats: int) -> None:
        if type(value) is not dict:
            raise refusal(where, "must be a map")
        for key, (inner, required) in spec.items():
            if key in value:
                inner(f"{where}.{key}", value[key], seats)
            elif required:
                raise refusal(where, f"has no {key!r}")

    return check


def keyed(key: Check, inner: Check, *, most: int = LONG) -> Check:
    """A map of at most ``most`` entries, its keys what ``key`` accepts, its values what
    ``inner`` accepts."""

    def check(where: str, value: Any, seats: int) -> None:
        if type(value) is not dict or len(value) > most:
            raise refusal(where, f"must be a map of at most {most} entries")
        for k, v in value.items():
            key(f"{where} key", k, seats)
            inner(f"{where}.{k}", v, seats)

    return check


def anything(where: str, value: Any, seats: int) -> None:
    """Whatever the decoder let through (plain data, bounded in size and depth)."""


def typed(where: str, value: Any, seats: int) -> None:
    """A map with a ``type`` string: an action, an event, a notice."""
    if type(value) is not dict or type(value.get("type")) is not str:
        raise refusal(where, "must be a map with a 'type' string")


def req(check: Check) -> tuple[Check, bool]:
    return (check, True)


def opt(check: Check) -> tuple[Check, bool]:
    return (check, False)


def known_game(where: str, value: Any, seats: int) -> None:
    """A game this app knows (``engine.GAMES``, as it is now)."""
    if type(value) is not str or value not in engine.GAMES:
        raise refusal(where, "names no game this app knows")


#: A name (brackets and all: every screen shows a name as plain text, and a host's
#: kept names from before brackets were refused are shown as they are).
NAME = text(NAME_LEN)
COUNT = integer(0, LONG)

SEAT_ENTRY = fields({
    "seat": req(seat), "kind": req(one_of("empty", "human", "bot")),
    # (An empty seat's name is empty.)
    "name": req(either(one_of(""), NAME)), "connected": req(boolean),
    "ready": req(boolean), "for": opt(NAME),
})

TABLE = fields({
    "id": req(text(ID_LEN)), "name": req(text(TABLE_NAME_LEN)),
    "game": req(known_game), "options": req(keyed(text(64), anything, most=64)),
    "phase": req(one_of("lobby", "play", "over")), "creator": opt(optional(seat)),
    "seats": req(items(SEAT_ENTRY, most=MAX_SEATS)), "spectators": opt(COUNT),
    "paused": opt(boolean), "review": opt(boolean), "rematch": opt(boolean),
})


def check_table(where: str, table: Any) -> int:
    """Check a table's public part; its number of seats."""
    if type(table) is not dict or type(table.get("seats")) is not list:
        raise refusal(where, "must be a map with a list of seats")
    seats = len(table["seats"])
    TABLE(where, table, seats)
    for i, entry in enumerate(table["seats"]):
        if entry["seat"] != i:
            raise refusal(f"{where}.seats[{i}].seat", "must be its place in the list")
    spec = engine.GAMES[table["game"]]
    try:
        spec.check_seats(seats)
        spec.check_options(table["options"], seats)
    except ValueError as exc:
        raise refusal(where, str(exc)) from None
    return seats


#: A table in a host's list of tables (``list_tables``).
LISTED = fields({
    "id": req(text(ID_LEN)), "name": req(text(TABLE_NAME_LEN)),
    "game": req(known_game), "seats": req(integer(1, MAX_SEATS)),
    "free": req(integer(0, MAX_SEATS)), "phase": req(one_of("lobby", "play", "over")),
    "uid": opt(text(ID_LEN * 4)), "online": opt(items(integer(0, MAX_SEATS), most=MAX_SEATS)),
})


def check_listed(where: str, tables: Any) -> None:
    """Check a host's list of tables."""
    items(LISTED, most=LONG)(where, tables, MAX_SEATS)

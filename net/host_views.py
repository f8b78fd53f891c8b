"""What a game's view from a host may hold, as this app reads it (see
:mod:`net.host_check`): each game's view keys with their shapes, seat numbers
and per-seat lists bounded by the table's seats. A view arrives whole, or as the keys
that changed (``view_changes``): each key is checked alone, so a change is checked
key by key.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.getout import IMAGES
from net.host_check import (
    COUNT,
    LONG,
    NAME,
    TEXT_LEN,
    Check,
    anything,
    boolean,
    check_listed,
    check_table,
    either,
    fields,
    integer,
    items,
    keyed,
    known_game,
    number,
    one_of,
    opt,
    optional,
    per_seat,
    refusal,
    req,
    seat,
    text,
    typed,
)
from net.wire.schemas import ID_LEN, MAX_SEATS, TOKEN_LEN

POINTS = integer(0, 10**9)
ROUND = integer(0, 10**6)
SEATS = items(seat, most=64)

_GETOUT_FACE = fields({
    "id": req(integer(0, LONG)), "image": req(optional(one_of(*IMAGES))),
    "value": req(optional(integer(0, 99))), "wild": req(boolean),
})


def getout_card(where: str, value: Any, seats: int) -> None:
    """A GET OUT! card: a wild one, or one with an image and a number."""
    _GETOUT_FACE(where, value, seats)
    if not value["wild"] and (value["image"] is None or value["value"] is None):
        raise refusal(where, "a card that is not wild must have an image and a number")
GETOUT: dict[str, tuple[Check, bool]] = {
    "phase": req(one_of("play", "round_over", "over")), "turn": req(optional(seat)),
    "hand_counts": req(per_seat(COUNT)), "draw_count": req(COUNT),
    "played_count": req(COUNT), "call": req(optional(getout_card)),
    "pile": opt(items(text(40))), "turned": opt(items(text(40))),
    "image": req(optional(one_of(*IMAGES))), "scores": req(per_seat(POINTS)),
    "out": req(per_seat(boolean)), "dealer": req(optional(seat)), "round": req(ROUND),
    "match": req(boolean), "limit": req(POINTS),
    "last_round": req(optional(fields({"points": req(per_seat(POINTS)), "round": req(ROUND),
                                        "winner": req(seat)}))),
    "history": req(items(items(POINTS, most=64))), "winners": opt(optional(SEATS)),
    "hand": opt(items(getout_card)),
}

TILE = fields({"n": req(integer(1, 60)), "colour": req(integer(0, 4)),
               "dots": req(integer(1, 3))})
BACK = fields({"colour": req(integer(0, 4))})
GOTFIVE: dict[str, tuple[Check, bool]] = {
    "phase": req(one_of("reveal", "clue", "announce", "over")), "turn": req(optional(seat)),
    "racks": req(per_seat(items(either(TILE, BACK), most=5))),
    "public": req(items(TILE, most=60)), "supply": req(items(integer(0, 60), exactly=5)),
    "clues": req(items(fields({"clue": req(text(16)), "position": opt(integer(0, 4)),
                               "notch": opt(integer(0, 5)),
                               "same": opt(boolean), "seat": req(seat),
                               "tile": req(integer(1, 60))}))),
    "announcements": req(items(fields({"numbers": req(items(integer(0, 99), most=5)),
                                       "right": req(boolean), "seat": req(seat)}))),
    "out": req(per_seat(boolean)), "winners": req(optional(SEATS)),
    "auto_cross": opt(boolean),
    "marks": opt(keyed(one_of(*(str(n) for n in range(1, 61))),
                       one_of("cross", "circle"), most=60)),
}

GETIT_CARD = fields({"id": opt(integer(0, LONG)), "kind": req(text(16)),
                     "value": opt(optional(integer(0, 999)))})
LEVEL = either(integer(0, 99), one_of("X"))
GETIT: dict[str, tuple[Check, bool]] = {
    "phase": req(one_of("prepare", "play", "round_over", "over")),
    "level": req(LEVEL), "attempt": req(ROUND), "attempts": req(ROUND), "round": req(ROUND),
    "cards": req(COUNT), "timer": req(number(0, 10**6)),
    "deadline": opt(optional(number(-1e12, 1e12))),
    "remaining": opt(optional(number(0, 10**6))), "paused": opt(boolean),
    "hand_sizes": req(per_seat(COUNT)), "arranged": req(per_seat(boolean)),
    "piles": req(per_seat(fields({"count": req(COUNT), "top": req(optional(GETIT_CARD))}))),
    "played": req(items(GETIT_CARD)),
    "signals": req(per_seat(fields({"look": req(optional(seat)), "smile": req(optional(seat)),
                                    "look_past": req(optional(seat)),
                                    "peek": req(boolean)}))),
    "said": req(items(fields({"seat": req(seat), "text": req(text(TEXT_LEN))}))),
    "last_round": req(optional(fields({
        "attempt": req(ROUND), "cards": req(COUNT), "level": req(LEVEL),
        "played": req(COUNT), "reason": req(text(TEXT_LEN)), "round": req(ROUND),
        "won": req(boolean)}))),
    "result": req(optional(fields({"level": req(LEVEL), "rounds": opt(ROUND),
                                   "start_level": opt(LEVEL), "won": req(boolean)}))),
    "reveal": req(optional(fields({
        "piles": req(per_seat(optional(items(GETIT_CARD)))),
        "wrong": opt(optional(fields({"card": req(GETIT_CARD), "expected": req(items(
            fields({"seat": req(seat), "card": req(optional(GETIT_CARD))}))),
                                      "seat": req(seat)})))}))),
    "hand": opt(items(GETIT_CARD)), "peek": opt(optional(GETIT_CARD)),
}

#: Every view: its seat (``None``: a spectator's).
COMMON: dict[str, tuple[Check, bool]] = {"seat": opt(optional(seat)), "game": opt(text(16)),
                                         "version": opt(anything)}
VIEWS = {"getout": GETOUT, "gotfive": GOTFIVE, "getit": GETIT}


def check_view(where: str, game: str, view: Any, seats: int) -> None:
    """Check a whole view of ``game``."""
    if type(view) is not dict:
        raise refusal(where, "must be a map")
    spec = VIEWS.get(game, {})
    for key, (inner, required) in spec.items():
        if key not in view:
            if required:
                raise refusal(where, f"has no {key!r}")
            continue
        inner(f"{where}.{key}", view[key], seats)
    check_changes(where, game, {k: v for k, v in view.items() if k in COMMON}, seats)


def check_changes(where: str, game: str, changes: Any, seats: int) -> None:
    """Check the keys of a view that changed (each as it is in a whole view)."""
    if type(changes) is not dict:
        raise refusal(where, "must be a map")
    spec = VIEWS.get(game, {})
    for key, value in changes.items():
        inner = (spec.get(key) or COMMON.get(key) or (anything, False))[0]
        if value is None and key in spec and not spec[key][1]:
            continue  # (an optional key may go back to nothing)
        inner(f"{where}.{key}", value, seats)


__all__ = ["NAME", "check_changes", "check_message", "check_view"]


_SEAT_OR_NONE = optional(seat)
_TYPED_LIST = items(typed)
#: A legal action's fields the app reads (every game's); a GET OUT! play names its card.
_ACTION = fields({
    "type": req(text(32)), "card": opt(integer(0, LONG)), "image": opt(one_of(*IMAGES)),
    "target": opt(optional(seat)), "on": opt(boolean), "colour": opt(integer(0, 4)),
    "tile": opt(integer(1, 60)), "position": opt(integer(0, 4)), "n": opt(integer(1, 60)),
    "mark": opt(optional(text(16))),
})


_ACTIONS = items(_ACTION)


def _check_legal(game: str, value: Any, seats: int) -> None:
    _ACTIONS("legal", value, seats)
    if game == "getout" and any(a["type"] == "play" and "card" not in a for a in value):
        raise refusal("legal", "a play must name its card")
_ERROR = fields({"code": req(text(64)), "message": opt(text(TEXT_LEN))})
_NAMES = items(either(one_of(""), NAME), most=MAX_SEATS)
_JOINED = fields({"table": req(text(ID_LEN)), "seat": opt(optional(integer(0, MAX_SEATS))),
                  "token": opt(optional(text(TOKEN_LEN))), "past": opt(items(typed))})


def check_message(msg: Mapping[str, Any], table: Mapping[str, Any] | None,
                  legal: list[Any] | None = None) -> None:
    """Check a message from the host, as far as this app reads it; ``table``: the
    table's public part the host sent last (``None``: none yet); ``legal``: the legal
    actions of the last update checked, not checked again (most updates repeat them).
    Raises :class:`~net.wire.errors.ProtocolError` saying where and what does not fit."""
    kind = msg.get("type")
    if type(kind) is not str or len(kind) > 64:
        raise refusal("type", "must be text of at most 64 characters")
    if kind == "update":
        if "table" in msg:
            seats = check_table("table", msg["table"])
            game = msg["table"]["game"]
        elif table is None:
            raise refusal("update", "has no table, and none came before")
        else:
            seats, game = len(table["seats"]), table["game"]
        if "seat" in msg:
            _SEAT_OR_NONE("seat", msg["seat"], seats)
        if "view_changes" in msg:
            check_changes("view_changes", game, msg["view_changes"], seats)
        elif msg.get("view") is not None:
            check_view("view", game, msg["view"], seats)
        if "legal" in msg and ("table" in msg or msg["legal"] != legal):
            _check_legal(game, msg["legal"], seats)
        for key in ("events", "notices"):
            if key in msg:
                _TYPED_LIST(key, msg[key], seats)
    elif kind == "error":
        _ERROR("error", msg, MAX_SEATS)
    elif kind == "tables":
        check_listed("tables", msg.get("tables"))
    elif kind == "joined":
        _JOINED("joined", msg, MAX_SEATS)
    elif kind in ("review", "review_at") and msg.get("view") is not None:
        names = msg.get("names")
        if names is not None:
            _NAMES("names", names, MAX_SEATS)
        game = msg.get("game", table["game"] if table else None)
        known_game("review.game", game, MAX_SEATS)
        seats = len(names) if isinstance(names, list) else len(table["seats"]) if table else 0
        check_view("view", game, msg["view"], seats)

"""What a host may send, as the app reads it (``net.host_check``, ``net.host_views``).

A host of another make, or a hostile one, crashed the app with a view missing a key, a
seat number out of range, a list where a map was, or a Got Five! tile of 30,000,000
dots (it drew them for minutes). Every such message is refused whole, with where and
what, and the app leaves that host saying so (tests/test_tui_hostile_host.py).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest

import engine
from net.host_views import check_message
from net.wire.errors import ProtocolError


def played(game_id: str, seats: int = 3, moves: int = 40, seed: int = 4) -> engine.Game:
    """A game some random-legal moves in (so hands, clues and piles hold something)."""
    game = engine.new_game(game_id, seats, seed=seed, options={})
    rng = random.Random(seed)
    for step in range(moves):
        choices = [(s, a) for s in range(seats) for a in game.legal_actions(s)
                   if a["type"] not in ("say", "announce", "next_round", "mark", "auto_cross")]
        if not choices:
            break
        seat, action = rng.choice(choices)
        action = dict(action)
        if action["type"] == "arrange":
            action["pile"] = [c["id"] for c in game.view(seat)["hand"]]
        game.act(seat, action, now=step * 0.5)
    return game


def update(game_id: str, seats: int = 3) -> dict[str, Any]:
    """An update as a host sends it to seat 0."""
    game = played(game_id, seats)
    table = {
        "id": "t1", "name": "Ann's table", "game": game_id,
        "options": engine.GAMES[game_id].check_options({}, seats), "phase": "play",
        "creator": 0, "spectators": 0, "paused": False, "review": False,
        "seats": [{"seat": i, "kind": "human" if i == 0 else "bot", "name": f"P{i}",
                   "connected": True, "ready": True} for i in range(seats)],
    }
    return {"type": "update", "table": table, "seat": 0, "view": game.view(0),
            "legal": game.legal_actions(0), "events": [], "notices": []}


@pytest.mark.parametrize("game_id", ["getout", "gotfive", "getit"])
def test_what_our_host_sends_is_read(game_id: str) -> None:
    for seats in (2, 3, 4):
        if seats < engine.GAMES[game_id].min_seats:
            continue
        msg = update(game_id, seats)
        check_message(msg, None)
        table = msg.pop("table")
        check_message({**msg, "view_changes": {"turn": 1}, "view": None}, table)
        check_message({**msg, "view": None, "legal": []}, table)  # a lobby's


Change = Callable[[dict[str, Any]], None]


def view_set(key: str, value: Any) -> Change:
    def change(msg: dict[str, Any]) -> None:
        msg["view"][key] = value
    return change


def view_del(key: str) -> Change:
    def change(msg: dict[str, Any]) -> None:
        del msg["view"][key]
    return change


def at(path: str, value: Any) -> Change:
    """Set a dotted path (numbers index lists) to ``value``."""
    def change(msg: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = msg
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node[part]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value
    return change


# What crashed or hung the app (a fresh-eyed pass with a hostile host), game by game.
REFUSED: dict[str, list[tuple[str, Change]]] = {
    "getout": [
        ("no turn", view_del("turn")), ("turn 99", view_set("turn", 99)),
        ("turn text", view_set("turn", "x")), ("turn 1.5", view_set("turn", 1.5)),
        ("hand counts short", view_set("hand_counts", [6])),
        ("scores text", view_set("scores", "x")), ("history junk", view_set("history", ["x"])),
        ("hand of None", view_set("hand", [None])), ("hand text", view_set("hand", "x")),
        ("card without id", at("view.hand.0", {"image": "kevin", "value": 3, "wild": False})),
        ("card of no image", at("view.hand.0.image", "x")), ("call text", view_set("call", "x")),
        ("view text", lambda m: m.__setitem__("view", "x")),
        ("legal 5", lambda m: m.__setitem__("legal", 5)),
        ("legal text", lambda m: m.__setitem__("legal", ["x"])),
        ("legal of maps without type", lambda m: m.__setitem__("legal", [{}])),
        ("events 5", lambda m: m.__setitem__("events", 5)),
        ("events text", lambda m: m.__setitem__("events", ["x"])),
        ("notices 5", lambda m: m.__setitem__("notices", 5)),
        ("notices of None", lambda m: m.__setitem__("notices", [None])),
        ("seat 99", lambda m: m.__setitem__("seat", 99)),
    ],
    "gotfive": [
        ("public 5", view_set("public", 5)), ("public of maps", view_set("public", [{}])),
        ("tile number text", at("view.public.0.n", "x")),
        ("thirty million dots", at("view.public.0.dots", 30_000_000)),
        ("clues text", view_set("clues", ["x"])), ("marks text", view_set("marks", "x")),
        ("a mark a list", at("view.marks", {"1": []})), ("supply 5", view_set("supply", 5)),
        ("racks 5", view_set("racks", 5)), ("rack of text", at("view.racks.1", ["x"])),
        ("winners 5", view_set("winners", 5)), ("out 5", view_set("out", 5)),
        ("turn a list", view_set("turn", [])),
    ],
    "getit": [
        ("no arranged", view_del("arranged")), ("piles 5", view_set("piles", 5)),
        ("count None", at("view.piles.0.count", None)), ("level a list", view_set("level", [])),
        ("timer text", view_set("timer", "x")),
        ("a look at seat 7", at("view.signals.1.look", 7)),
        ("said text", view_set("said", "x")),
    ],
    "table": [
        ("no table", lambda m: m.pop("table")), ("table None", at("table", None)),
        ("table text", at("table", "x")), ("no seats", lambda m: m["table"].pop("seats")),
        ("sixty seats", at("table.seats", [
            {"seat": i, "kind": "bot", "name": "B", "ready": True} for i in range(60)])),
        ("unknown game", at("table.game", "chess")), ("game a list", at("table.game", [])),
        ("options None", at("table.options", None)),
        ("a seat without name", lambda m: m["table"]["seats"][0].pop("name")),
        ("a seat number text", at("table.seats.0.seat", "x")),
        ("a name 5", at("table.seats.0.name", 5)),
        ("seats out of order", at("table.seats.0.seat", 2)),
        ("a phase of no one", at("table.phase", "dancing")),
    ],
}


@pytest.mark.parametrize(("game_id", "what", "change"), [
    (game_id if game_id != "table" else "getout", what, change)
    for game_id, cases in REFUSED.items() for what, change in cases])
def test_what_crashed_the_app_is_refused_with_where(game_id: str, what: str,
                                                    change: Change) -> None:
    msg = copy.deepcopy(update(game_id))
    change(msg)
    with pytest.raises(ProtocolError) as refused:
        check_message(msg, None)
    assert ":" in refused.value.message, refused.value.message  # where, then what


def test_a_change_of_a_view_is_checked_key_by_key() -> None:
    msg = update("getout")
    table = msg.pop("table")
    with pytest.raises(ProtocolError, match=r"view_changes\.turn: must be a seat number"):
        check_message({**msg, "view": None, "view_changes": {"turn": 7}}, table)
    with pytest.raises(ProtocolError, match="no table"):
        check_message({**msg, "view": None, "view_changes": {"turn": 1}}, None)


def test_other_messages_a_host_sends() -> None:
    check_message({"type": "error", "code": "kicked", "message": "bye"}, None)
    with pytest.raises(ProtocolError, match=r"error\.code"):
        check_message({"type": "error", "code": ["kicked"], "message": "x"}, None)
    listed = {"id": "t1", "name": "[/]bad", "game": "getout", "seats": 3, "free": 1,
              "phase": "lobby"}
    check_message({"type": "tables", "tables": [listed]}, None)  # (shown as plain text)
    for bad in ({**listed, "id": [1, 2]}, {k: v for k, v in listed.items() if k != "free"}):
        with pytest.raises(ProtocolError, match=r"tables\[0\]"):
            check_message({"type": "tables", "tables": [bad]}, None)
    msg = update("getit")
    review = {"type": "review", "game": "getit", "names": ["A", "B", "C"], "length": 3,
              "seat": 0, "at": 0, "view": {**msg["view"], "piles": "x"}}
    with pytest.raises(ProtocolError, match=r"view\.piles"):
        check_message(review, msg["table"])


def test_legal_actions_are_checked_when_they_change() -> None:
    """(Most updates repeat the last legal actions: those are not checked again.)"""
    msg = update("getit")
    table = msg.pop("table")
    good = msg["legal"]
    check_message({**msg, "view": None}, table, good)
    with pytest.raises(ProtocolError, match=r"legal\[0\]"):
        check_message({**msg, "view": None, "legal": [{"type": "look", "target": 9}]},
                      table, good)

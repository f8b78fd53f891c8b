"""The engines against golden traces: seeded games recorded once, replayed step by step.

``scripts/record_golden.py`` played each game of ``tests/golden/`` by seeded random
legal actions and wrote down, after every step, the events, every seat's legal actions,
every seat's and the spectator's view, ``over`` and the result, and the last snapshot
(GET OUT! over a match's rounds, Get It! with signals, peeks, talk and a timer that runs
out, Got Five! with clues, marks and an announcement). The engines' fast paths (legal
actions in one pass, views from cached plain cards) must reproduce all of it exactly. A
rule meant to change is re-recorded on purpose (see that script); any other difference
fails here, naming the step and what differs.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.core import Game, View
from engine.getit import arrangement
from engine.getout import IMAGES
from engine.testing import stack_getout
from tests.helpers import walk

GOLDEN = Path(__file__).resolve().parent / "golden"
TRACES = sorted(path.name for path in GOLDEN.glob("*-seed*.json"))


def views_in_parts(game: Game) -> list[View]:
    """Every seat's and the spectator's view, checked against ``view_parts``: each is
    the shared part and its own, with no key in both, and the shared part is public
    (the spectator's view holds all of it)."""
    seats: list[int | None] = [*range(game.seats), None]
    views = [game.view(s) for s in seats]
    shared, own = game.view_parts(seats)
    for view, mine in zip(views, own, strict=True):
        assert not shared.keys() & mine.keys()
        assert {**shared, **mine} == view
    assert {k: views[-1][k] for k in shared} == shared
    return views


def apply(before: dict[str, Any], step: dict[str, Any]) -> dict[str, Any]:
    """The whole state after ``step``, from the state before it and the changes the
    trace wrote down (``scripts/record_golden.py``'s ``changes``)."""
    views = []
    for view, delta in zip(before["views"], step["views"], strict=True):
        view = dict(view)
        for key, change in delta.items():
            if change[0] == "=":
                view[key] = change[1]
            elif change[0] == "+":
                view[key] = [*view[key], *change[1]]
            else:
                del view[key]
        views.append(view)
    legal = [step["legal"].get(str(seat), actions) for seat, actions in enumerate(before["legal"])]
    return {"legal": legal, "views": views, "over": step["over"], "result": step["result"]}


def shown(game: Game) -> dict[str, Any]:
    """What the contract shows of ``game`` now, as plain JSON data (as recorded)."""
    return json.loads(json.dumps({
        "legal": [game.legal_actions(s) for s in range(game.seats)],
        "views": views_in_parts(game),
        "over": game.over,
        "result": game.result,
    }))


def differences(want: dict[str, Any], got: dict[str, Any]) -> list[str]:
    """Where ``got`` differs from ``want``: the legal list, view key or field."""
    found = [f"legal actions of seat {seat}" for seat, (a, b)
             in enumerate(zip(want["legal"], got["legal"], strict=True)) if a != b]
    for index, (a, b) in enumerate(zip(want["views"], got["views"], strict=True)):
        who = "the spectator's" if index == len(want["views"]) - 1 else f"seat {index}'s"
        found += [f"{who} view[{key!r}]" for key in sorted(a.keys() | b.keys())
                  if a.get(key) != b.get(key)]
    found += [field for field in ("over", "result") if want[field] != got[field]]
    return found


@pytest.mark.parametrize("name", TRACES)
def test_a_seeded_game_replays_its_golden_trace(name: str) -> None:
    trace = json.loads((GOLDEN / name).read_text())
    game = engine.new_game(trace["game"], seats=trace["seats"], seed=trace["seed"],
                           options=trace["options"])
    want = trace["start"]
    assert not differences(want, shown(game)), differences(want, shown(game))
    assert trace["steps"], "an empty trace checks nothing"
    for index, step in enumerate(trace["steps"]):
        if "advance" in step:
            events = game.advance(step["advance"])
        elif "refused" in step:
            with pytest.raises(engine.IllegalAction) as refused:
                game.act(step["seat"], step["action"], step["now"])
            assert str(refused.value) == step["refused"], f"step {index}"
            events = None
        else:
            events = game.act(step["seat"], step["action"], step["now"])
        if events is not None:
            assert json.loads(json.dumps(events)) == step["events"], f"events of step {index}"
        want = apply(want, step)
        got = shown(game)
        assert got == want, f"step {index} ({step.get('action', 'time')}): {differences(want, got)}"
    assert json.loads(json.dumps(game.snapshot())) == trace["snapshot"]


def test_the_traces_cover_every_game_and_what_the_fast_paths_skip() -> None:
    """The recorded play went where the fast paths differ from plain rules: GET OUT!
    plays, draws and a next round; Get It! peeks, talk, every signal and a round lost
    on time; Got Five! every clue."""
    actions: dict[str, set[str]] = {}
    reasons: set[str] = set()
    for name in TRACES:
        trace = json.loads((GOLDEN / name).read_text())
        kinds = actions.setdefault(trace["game"], set())
        for step in trace["steps"]:
            if "action" in step:
                kinds.add(f"{step['action']['type']} {step['action'].get('on', '')}".strip())
            reasons |= {e.get("reason") for e in step.get("events", ())
                        if e["type"] == "round_over"}
    assert {"play", "draw", "next_round"} <= actions["getout"]
    assert {"peek True", "say", "look", "smile", "look_past", "next_round"} <= actions["getit"]
    assert {"reveal", "sort", "compare", "mark", "announce"} <= actions["gotfive"]
    assert "time" in reasons


def test_getout_card_matching_is_as_recorded() -> None:
    """Every kind of card against every call card (and image a wild one was named), as
    the legal actions list them, against the table recorded with the traces."""
    recorded = json.loads((GOLDEN / "getout-matching.json").read_text())
    probe = engine.new_game("getout", seats=2, seed=3)
    counts: dict[str, int] = {}
    for _cid, image, value in probe.snapshot()["state"]["cards"]:
        name = "wild" if value is None else f"{image} {value}"
        counts[name] = counts.get(name, 0) + 1
    assert sorted(recorded) == sorted(counts)
    for call in sorted(counts):
        hand = [name for name in sorted(counts) if name != call or counts[name] > 1]
        for named in ((None, *IMAGES) if call == "wild" else (None,)):
            game = engine.new_game("getout", seats=2, seed=3)
            stack_getout(game, [hand], played=[call], call_image=named, turn=0)
            names = {c["id"]: "wild" if c["wild"] else f"{c['image']} {c['value']}"
                     for c in game.view(0)["hand"]}
            playable = {names[a["card"]] for a in game.legal_actions(0) if a["type"] == "play"}
            assert sorted(playable) == recorded[call][str(named)], (call, named)


def test_a_getout_view_is_shared_but_for_the_seat_and_its_hand() -> None:
    """GET OUT! builds what every seat sees once a push (``view_parts``): a seat's own
    part is its seat and hand; the spectator's its seat only."""
    game = engine.new_game("getout", seats=3, seed=5)
    shared, own = game.view_parts([0, 2, None])
    assert [set(part) for part in own] == [{"seat", "hand"}, {"seat", "hand"}, {"seat"}]
    assert {"hand_counts", "scores", "turn", "version"} <= shared.keys()
    assert own[1]["hand"] == game.view(2)["hand"] != own[0]["hand"]
    with pytest.raises(engine.IllegalAction, match="there is no seat 3"):
        game.view_parts([0, 3])
    # A hand that did not change is the very list it was (a host compares by ``is``).
    _, before = game.view_parts([0, 1, 2])
    mover = next(s for s in range(3) if game.legal_actions(s))
    game.act(mover, game.legal_actions(mover)[0])
    _, after = game.view_parts([0, 1, 2])
    for seat in range(3):
        same = after[seat]["hand"] is before[seat]["hand"]
        assert same == (seat != mover)
        assert after[seat]["hand"] == game.view(seat)["hand"]


@pytest.mark.parametrize(("game_id", "options"), [
    ("getout", {}), ("getit", {}), ("gotfive", {}), ("gotfive", {"hints": "board"})])
def test_view_parts_are_every_games_views(game_id: str, options: dict[str, Any]) -> None:
    """``view_parts`` gives each seat its view, whether the game splits it or not, and
    whatever the game adds to a view (a Got Five! hint)."""
    game = engine.new_game(game_id, seats=3, seed=2, options=options)
    rng = random.Random(2)
    for _ in range(30):
        views_in_parts(game)
        moves = [(s, a) for s in range(3) for a in game.legal_actions(s)
                 if a["type"] not in ("announce", "mark", "say", "auto_cross")]
        if game.over or not moves:
            break
        seat, action = rng.choice(moves)
        if action["type"] == "arrange":
            action = {"type": "arrange", "pile": arrangement(game.view(seat)["hand"], rng)}
        game.act(seat, action, game.now)
    shared, _own = game.view_parts([0])
    assert bool(shared) == (game_id == "getout")


def test_views_are_fresh_copies() -> None:
    """Changing a view a caller was given changes neither the game nor the next view."""
    for game_id, seats in (("getout", 3), ("gotfive", 3)):
        game = engine.new_game(game_id, seats=seats, seed=5)
        before = game.view(0)
        view = game.view(0)
        for _path, value in walk(view):
            if isinstance(value, dict):
                value.clear()
        assert game.view(0) == before

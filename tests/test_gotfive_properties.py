"""Property tests for Got Five! over random legal play (hypothesis picks the tables).

Each example plays a whole seeded game by :func:`tests.gotfive_play.choose` — reveals
and clues by the seat on turn, marks and announcements (mostly wrong) by anyone — and
checks after every move what must always hold.
"""

from __future__ import annotations

import random
from typing import Any

import msgpack
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.core import Action, Event
from engine.gotfive import GotFive
from engine.gotfive_solver import consistent_assignments
from tests.gotfive_play import check_clues, check_secrets, check_tiles, choose, play_random

SEEDS = st.integers(min_value=0, max_value=2**32)
SEATS = st.integers(min_value=2, max_value=4)
# How often someone announces: never (the game runs to the no-tiles-left rule), rarely,
# or often (eliminations and last-standing wins).
ANNOUNCE = st.sampled_from([0.0, 0.005, 0.03])
GAMES = settings(max_examples=25, deadline=None)


def new(seed: int, seats: int, auto_cross: bool = True) -> GotFive:
    game = engine.new_game("gotfive", seats=seats, seed=seed, options={"auto_cross": auto_cross})
    assert isinstance(game, GotFive)
    return game


def wire(data: Any) -> Any:
    return msgpack.unpackb(msgpack.packb(data), strict_map_key=True)


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, seats=SEATS, auto_cross=st.booleans(), announce=ANNOUNCE)
def test_invariants_hold_through_random_play(
    seed: int, seats: int, auto_cross: bool, announce: float
) -> None:
    game = new(seed, seats, auto_cross)
    rng = random.Random(seed)
    known: dict[int, set[tuple[int, ...]]] = {}
    check_secrets(game, [])
    for _seat, _action, events in play_random(game, rng, announce):
        check_secrets(game, events)
        check_tiles(game)
        check_clues(game)
        for event in events:
            assert wire(event) == event
        for viewer in [*range(seats), None]:
            view = game.view(viewer)
            assert wire(view) == view
        for seat in range(seats):
            answers = set(consistent_assignments(game.view(seat)))
            assert tuple(game.racks[seat]) in answers
            # What a seat knows only grows, so its answers only shrink.
            assert answers <= known.get(seat, answers)
            known[seat] = answers
    assert game.result is not None
    assert len(game.result["winners"]) == 1
    winner = game.result["winners"][0]
    assert game.result["reason"] in ("announced", "last_standing")
    assert game.result["reason"] == "last_standing" or not game.out[winner]


def record(game: GotFive, moves: list[tuple[int, Action]]) -> list[Any]:
    """Apply ``moves`` and return everything observable along the way."""
    log: list[Any] = []
    for seat, action in moves:
        events: list[Event] = game.act(seat, dict(action))
        log.append([events, [game.view(v) for v in [*range(game.seats), None]],
                    game.snapshot(), game.result])
    return log


@GAMES
@given(seed=SEEDS, seats=SEATS, announce=ANNOUNCE)
def test_same_seed_and_actions_give_the_same_game(seed: int, seats: int, announce: float) -> None:
    first = new(seed, seats)
    moves = [(s, dict(a)) for s, a, _ in play_random(first, random.Random(seed), announce)]
    again, third = new(seed, seats), new(seed, seats)
    assert record(again, moves) == record(third, moves)
    assert again.snapshot() == first.snapshot()
    assert again.result == first.result


@GAMES
@given(seed=SEEDS, seats=SEATS, cut=st.floats(min_value=0, max_value=1), announce=ANNOUNCE)
def test_restore_continues_identically(seed: int, seats: int, cut: float, announce: float) -> None:
    game = new(seed, seats, auto_cross=seed % 2 == 0)
    moves = [(s, dict(a)) for s, a, _ in play_random(game, random.Random(seed), announce)]
    split = int(cut * len(moves))
    original = new(seed, seats, auto_cross=seed % 2 == 0)
    record(original, moves[:split])
    snapshot = original.snapshot()
    restored = engine.restore(wire(snapshot))
    assert isinstance(restored, GotFive)
    assert restored.snapshot() == snapshot
    assert [restored.view(v) for v in [*range(seats), None]] == [
        original.view(v) for v in [*range(seats), None]
    ]
    assert record(restored, moves[split:]) == record(original, moves[split:])


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, seats=SEATS)
def test_illegal_actions_change_nothing(seed: int, seats: int) -> None:
    game = new(seed, seats)
    rng = random.Random(seed)
    while not game.over:
        before = game.snapshot()
        seat = rng.randrange(seats)
        legal = game.legal_actions(seat)
        attempt: Action = rng.choice([
            {"type": "reveal", "colour": rng.randrange(6)},
            {"type": "sort", "tile": rng.randint(0, 61)},
            {"type": "compare", "tile": rng.randint(1, 60), "position": rng.randrange(6)},
        ])
        if attempt in legal:
            continue
        try:
            game.act(seat, attempt)
        except engine.IllegalAction:
            assert game.snapshot() == before
        else:
            raise AssertionError(f"{attempt} by seat {seat} was not listed but was accepted")
        seat, action = choose(game, rng)
        game.act(seat, action)

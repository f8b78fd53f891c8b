"""Shared helpers for the Got Five! tests: stacked tables, random play, view walking."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import engine
from engine.core import Action, Event
from engine.gotfive import GotFive, all_tiles, colour_of, dots_of
from engine.gotfive_solver import consistent_assignments
from engine.testing import stack_gotfive

# Every rack holds colours 0,1,2,3,4 in that order. Dots: seat 0 1,3,2,1,3;
# seat 1 2,1,3,2,1; seat 2 3,2,1,3,2; seat 3 1,3,2,1,3. The row's colours: 4,0,1,2,3.
RACKS = [
    [1, 12, 23, 34, 45],
    [6, 17, 28, 39, 50],
    [11, 22, 33, 44, 55],
    [16, 27, 38, 49, 60],
]
PUBLIC = [5, 21, 32, 43, 54]


def stacked(
    seats: int = 3, *, turn: int = 0, auto_cross: bool = True, **kwargs: Any
) -> GotFive:
    """A game whose racks are ``RACKS[:seats]`` and whose public row is ``PUBLIC``."""
    game = engine.new_game("gotfive", seats=seats, seed=1, options={"auto_cross": auto_cross})
    assert isinstance(game, GotFive)
    kwargs.setdefault("public", PUBLIC)
    stack_gotfive(game, RACKS[:seats], turn=turn, **kwargs)
    return game


def tile_numbers(data: Any) -> Iterator[int]:
    """Every tile number in ``data``: values under the keys ``n`` and ``tile``, anywhere.

    Announced guesses (``numbers``) are left out: they are what a player said, not
    where a tile lies, and a wrong guess may name anything.
    """
    if isinstance(data, dict):
        for key, value in data.items():
            if key in ("n", "tile") and isinstance(value, int):
                yield value
            elif key != "numbers":
                yield from tile_numbers(value)
    elif isinstance(data, list | tuple):
        for item in data:
            yield from tile_numbers(item)


def check_secrets(game: GotFive, events: list[Event]) -> None:
    """No view or event shows a seat still in its own numbers while the game runs."""
    for viewer in [*range(game.seats), None]:
        view = game.view(viewer)
        shown = set(tile_numbers(view))
        for owner in game.active():
            if game.over or (owner != viewer and viewer is not None):
                continue
            # The owner (or a spectator) must not see this rack's numbers anywhere.
            assert not shown & set(game.racks[owner]), (viewer, owner, view)
            assert all(t.keys() == {"colour"} for t in view["racks"][owner])
            assert [t["colour"] for t in view["racks"][owner]] == [
                colour_of(n) for n in game.racks[owner]
            ]
        assert "supply" in view and all(isinstance(c, int) for c in view["supply"])
    if not game.over:
        in_events = set(tile_numbers(events))
        for owner in game.active():
            assert not in_events & set(game.racks[owner]), (owner, events)


def check_tiles(game: GotFive) -> None:
    """All 60 tiles are somewhere, each exactly once; every rack is one per colour."""
    tiles = list(all_tiles(game))
    assert sorted(tiles) == list(range(1, 61))
    for rack in game.racks:
        assert rack == sorted(rack)
        assert sorted(colour_of(n) for n in rack) == [0, 1, 2, 3, 4]


def check_clues(game: GotFive) -> None:
    """Every clue's answer is true of the rack it is about."""
    for clue in game.view(None)["clues"]:
        rack = game.racks[clue["seat"]]
        if clue["clue"] == "sort":
            assert clue["notch"] == sum(1 for x in rack if x < clue["tile"])
        else:
            assert clue["same"] == (dots_of(rack[clue["position"]]) == dots_of(clue["tile"]))


def wrong_numbers(game: GotFive, seat: int, rng: random.Random) -> list[int]:
    """Five valid but wrong numbers for ``seat`` to announce."""
    while True:
        guess = sorted(rng.sample(range(1, 61), 5))
        if guess != game.racks[seat]:
            return guess


def choose(
    game: GotFive, rng: random.Random, announce: float = 0.03
) -> tuple[int, Action]:
    """One legal action by some seat, as a random table might play it.

    Mostly the seat on turn plays a listed action; now and then any seat marks its
    board (or turns its auto-cross off or on), and with chance ``announce`` a seat
    announces (a quarter of the time right).
    With ``announce=0`` only the no-tiles-left rule ends the game.
    """
    roll = rng.random()
    active = game.active()
    if roll < 0.05:
        seat = rng.randrange(game.seats)
        if roll < 0.01:  # (a player turns their own auto-cross off or on)
            return seat, {"type": "auto_cross", "on": not game.auto_cross[seat]}
        n = rng.randint(1, 60)
        mark = rng.choice(["cross", "circle", None])
        if game.auto_cross[seat] and n in game.visible_to(seat):
            mark = "cross"
        return seat, {"type": "mark", "n": n, "mark": mark}
    if roll < 0.05 + announce:
        seat = rng.choice(active)
        if rng.random() < 0.25:
            return seat, {"type": "announce", "numbers": list(game.racks[seat])}
        return seat, {"type": "announce", "numbers": wrong_numbers(game, seat, rng)}
    turn = game.turn
    assert turn is not None
    concrete = [a for a in game.legal_actions(turn) if len(a) > 1]
    if concrete:
        return turn, rng.choice(concrete)
    # No tiles left: announcing is the only move.
    answers = consistent_assignments(game.view(turn))
    return turn, {"type": "announce", "numbers": list(rng.choice(answers))}


def play_random(
    game: GotFive, rng: random.Random, announce: float = 0.03, limit: int = 400
) -> Iterator[tuple[int, Action, list[Event]]]:
    """Play ``game`` to its end by :func:`choose`, yielding each move and its events."""
    for _ in range(limit):
        if game.over:
            return
        seat, action = choose(game, rng, announce)
        events = game.act(seat, action)
        yield seat, action, events
    raise AssertionError("a random game did not end")

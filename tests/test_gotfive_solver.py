"""The Got Five! consistent-assignment solver against brute force and known positions."""

from __future__ import annotations

import itertools
import random

import msgpack
import pytest

import engine
from engine.gotfive import GotFive, colour_of, dots_of
from engine.gotfive_solver import consistent_assignments, is_consistent, position_candidates
from tests.gotfive_play import RACKS, choose, stacked


def brute_force(game: GotFive, seat: int) -> list[tuple[int, ...]]:
    """Every rack the seat might hold, by trying every unseen number of each colour.

    Written from the rules, not from the solver: a candidate rack must use numbers the
    seat cannot see, match the rack's colours, be ascending, and give every recorded
    clue about this seat the same answer the engine would give.
    """
    view = game.view(seat)
    seen = {t["n"] for t in view["public"]} | {c["tile"] for c in view["clues"]}
    for owner, rack in enumerate(game.racks):
        if owner != seat:
            seen |= set(rack)
    colours = [t["colour"] for t in view["racks"][seat]]
    pools = [[n for n in range(1, 61) if colour_of(n) == c and n not in seen] for c in colours]
    out: list[tuple[int, ...]] = []
    for guess in itertools.product(*pools):
        if list(guess) != sorted(guess):
            continue
        ok = True
        for clue in view["clues"]:
            if clue["seat"] != seat:
                continue
            if clue["clue"] == "sort":
                ok = clue["notch"] == sum(x < clue["tile"] for x in guess)
            else:
                ok = clue["same"] == (dots_of(guess[clue["position"]]) == dots_of(clue["tile"]))
            if not ok:
                break
        if ok:
            out.append(guess)
    return sorted(out)


def played(seed: int, seats: int, moves: int) -> GotFive:
    """A seeded game after up to ``moves`` random moves with nobody announcing."""
    game = engine.new_game("gotfive", seats=seats, seed=seed)
    assert isinstance(game, GotFive)
    rng = random.Random(seed)
    for _ in range(moves):
        seat, action = choose(game, rng)
        if action["type"] == "announce":
            continue
        game.act(seat, action)
    return game


@pytest.mark.parametrize(("seed", "seats", "moves"), [
    (1, 4, 0), (2, 4, 10), (3, 4, 30), (4, 4, 60), (5, 3, 20), (6, 3, 50), (7, 3, 80),
    (8, 4, 45), (9, 3, 5),
])
def test_solver_matches_brute_force(seed: int, seats: int, moves: int) -> None:
    game = played(seed, seats, moves)
    for seat in range(seats):
        view = game.view(seat)
        answers = consistent_assignments(view)
        assert answers == brute_force(game, seat)
        assert tuple(game.racks[seat]) in answers
        assert all(is_consistent(view, a) for a in answers)
        # Every candidate of a position is used by some answer, and only those are.
        cands = position_candidates(view)
        assert cands == [sorted({a[p] for a in answers}) for p in range(5)]


def test_two_seat_opening_matches_brute_force() -> None:
    game = played(11, 2, 12)
    assert consistent_assignments(game.view(1)) == brute_force(game, 1)


def test_sort_clues_pin_positions() -> None:
    game = stacked(4)
    view = game.view(0)
    assert consistent_assignments(view) == brute_force(game, 0)
    game.act(0, {"type": "reveal", "colour": 0})
    game.act(0, {"type": "sort", "tile": 5})
    # Notch 1 below 5: position 0 (colour 0) is below 5, and only 1 is.
    cands = position_candidates(game.view(0))
    assert cands[0] == [1]
    assert all(x > 5 for c in cands[1:] for x in c)
    assert consistent_assignments(game.view(0)) == brute_force(game, 0)


def test_compare_clues_filter_by_dots() -> None:
    game = stacked(4)
    game.act(0, {"type": "reveal", "colour": 2})
    game.act(0, {"type": "compare", "tile": 43, "position": 4})  # 45 and 43: 3 dots each
    cands = position_candidates(game.view(0))
    assert cands[4] and all(dots_of(x) == 3 for x in cands[4])
    game2 = stacked(4)
    game2.act(0, {"type": "reveal", "colour": 2})
    game2.act(0, {"type": "compare", "tile": 5, "position": 4})  # 1 dot against 3: no
    assert all(dots_of(x) != 1 for x in position_candidates(game2.view(0))[4])


def test_an_out_seat_knows_its_rack() -> None:
    game = stacked(3)
    game.act(1, {"type": "announce", "numbers": [1, 2, 3, 4, 5]})
    assert consistent_assignments(game.view(1)) == [tuple(RACKS[1])]


def test_solver_works_on_a_view_from_the_wire() -> None:
    game = played(21, 4, 40)
    for seat in range(4):
        view = game.view(seat)
        wire = msgpack.unpackb(msgpack.packb(view), strict_map_key=True)
        assert consistent_assignments(wire) == consistent_assignments(view)


def test_a_spectator_view_has_nothing_to_solve() -> None:
    game = stacked(3)
    with pytest.raises(ValueError, match="spectator"):
        consistent_assignments(game.view(None))


def test_contradictory_view_has_no_answer() -> None:
    view = stacked(3).view(0)
    view["clues"] = [
        {"seat": 0, "tile": 5, "clue": "sort", "notch": 0},
        {"seat": 0, "tile": 5, "clue": "sort", "notch": 1},
    ]
    assert consistent_assignments(view) == []
    assert position_candidates(view) == [[]] * 5
    assert not is_consistent(view, RACKS[0])

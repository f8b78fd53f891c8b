"""The Got Five! ``hints`` table option: exact, from the seat's own view alone, on the wire.

The counts are checked against a brute force written from the rules and the game's
hidden state (not from the view); the secrecy against the view alone (the hint of a
view is a function of the view without it) and against twin games that differ only in
a seat's hidden tiles.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any

import msgpack
import pytest

import engine
from engine.bots import make_bot
from engine.gotfive import GotFive, colour_of, dots_of, numbers_of_colour
from engine.gotfive_hint import MODES, count_consistent, hint_for
from engine.gotfive_solver import consistent_assignments
from engine.testing import stack_gotfive
from net.client import Client
from net.host import Host
from tests.gotfive_play import RACKS, choose, stacked
from tests.helpers import assert_usage_error


def wire(data: Any) -> Any:
    return msgpack.unpackb(msgpack.packb(data), strict_map_key=True)


def new(seed: int, seats: int, hints: str) -> GotFive:
    game = engine.new_game("gotfive", seats=seats, seed=seed, options={"hints": hints})
    assert isinstance(game, GotFive)
    return game


def ascending_racks(colours: list[int]) -> Iterator[tuple[int, ...]]:
    """Every ascending rack with these colours in this order, from all 60 numbers."""
    def extend(prefix: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if len(prefix) == len(colours):
            yield prefix
            return
        low = prefix[-1] if prefix else 0
        for n in numbers_of_colour(colours[len(prefix)]):
            if n > low:
                yield from extend((*prefix, n))
    yield from extend(())


def truth(game: GotFive, seat: int) -> list[tuple[int, ...]]:
    """Every rack ``seat`` might hold, from the game's own state and the rules.

    Not read from any view: a rack is possible when it has the seat's colours in order,
    none of its numbers lies where the seat can see it (another rack, the public row, a
    clue) and every clue about this seat would have had the same answer for it. Once the
    seat is out or the game is over its rack is face up: only the rack itself is left.
    """
    if game.over or game.out[seat]:
        return [tuple(game.racks[seat])]
    seen = set(game.public) | {c["tile"] for c in game.clues}
    for other, rack in enumerate(game.racks):
        if other != seat:
            seen |= set(rack)
    colours = [colour_of(n) for n in game.racks[seat]]
    out = []
    for rack in ascending_racks(colours):
        if seen & set(rack):
            continue
        ok = True
        for clue in game.clues:
            if clue["seat"] != seat:
                continue
            if clue["clue"] == "sort":
                ok = clue["notch"] == sum(1 for x in rack if x < clue["tile"])
            else:
                ok = clue["same"] == (dots_of(rack[clue["position"]]) == dots_of(clue["tile"]))
            if not ok:
                break
        if ok:
            out.append(rack)
    return out


def expected_board(racks: list[tuple[int, ...]]) -> tuple[dict[str, list[int]], list[int]]:
    """``possible`` per colour and ``certain`` as the hint should give them for ``racks``."""
    possible = {str(c): sorted({n for r in racks for n in r if colour_of(n) == c})
                for c in range(5)}
    certain = sorted(set.intersection(*(set(r) for r in racks))) if racks else []
    return possible, certain


def without_hint(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "hint"}


# --------------------------------------------------------------------------- the option


def test_hints_is_a_choice_option_off_by_default() -> None:
    spec = engine.GAMES["gotfive"]
    option = next(o for o in spec.options if o.name == "hints")
    assert (option.kind, option.default, option.choices) == ("choice", "off", MODES)
    assert spec.defaults["hints"] == "off"
    game = engine.new_game("gotfive", seats=3, seed=1)
    assert all("hint" not in game.view(s) for s in [0, 1, 2, None])
    with pytest.raises(ValueError, match="option 'hints' must be one of 'off', 'count', 'board'"):
        engine.new_game("gotfive", seats=3, seed=1, options={"hints": "all"})
    with pytest.raises(ValueError, match="hints"):
        engine.new_game("gotfive", seats=3, seed=1, options={"hints": True})


def test_hint_for_refuses_an_unknown_mode_and_skips_spectators() -> None:
    view = stacked(3).view(0)
    with pytest.raises(ValueError, match="hints must be one of"):
        hint_for(view, "everything")
    assert hint_for(view, "off") is None
    assert hint_for(stacked(3).view(None), "board") is None


def test_count_consistent_on_hand_made_candidates() -> None:
    # (1,2,5), (1,4,5), (3,4,5): 3 ascending picks.
    assert count_consistent([[1, 3], [2, 4], [5]]) == 3
    assert count_consistent([[1, 2], [1, 2]]) == 1
    assert count_consistent([[4], [1, 2, 3]]) == 0
    assert count_consistent([[1, 2, 3], []]) == 0
    assert count_consistent([[1, 2, 3, 4]]) == 4
    assert count_consistent([list(range(1, 11)), list(range(1, 11))]) == 45


# --------------------------------------------------------------------------- exactness


def test_count_and_board_are_exact_on_hand_made_positions() -> None:
    game = stacked(4, turn=0, supply={4: [10], 1: [2], 3: [19]})
    game.options["hints"] = "board"
    # Here the racks are tight: colour 0 is below 12 for seat 0, and 6, 11 are in sight.
    start = game.view(0)["hint"]
    assert start["count"] == len(truth(game, 0)) > 1
    assert start["possible"]["0"] == [1] and start["certain"] == [1]
    # Seat 0 sorts 5 (notch 1: only 1 of colour 0 is below it), seat 1 compares.
    game.act(0, {"type": "reveal", "colour": 4})
    game.act(0, {"type": "sort", "tile": 5})
    game.act(1, {"type": "reveal", "colour": 1})
    game.act(1, {"type": "compare", "tile": 2, "position": 0})
    game.act(2, {"type": "reveal", "colour": 3})
    game.act(2, {"type": "sort", "tile": 19})
    game.act(3, {"type": "reveal", "colour": 0})
    game.act(3, {"type": "sort", "tile": 21})
    game.act(0, {"type": "reveal", "colour": 2})
    game.act(0, {"type": "compare", "tile": 10, "position": 4})
    checked = 0
    for seat in range(4):
        view = game.view(seat)
        racks = truth(game, seat)
        assert tuple(game.racks[seat]) in racks
        assert view["hint"]["count"] == len(racks)
        possible, certain = expected_board(racks)
        assert view["hint"]["possible"] == possible
        assert view["hint"]["certain"] == certain
        checked += len(racks)
    assert checked > 4
    # The sort (notch 1 under 5: positions 1..4 above 5) and the compare cut seat 0's racks.
    hint = game.view(0)["hint"]
    assert 1 <= hint["count"] < start["count"]
    assert hint["possible"]["4"] != start["possible"]["4"]


@pytest.mark.parametrize(("seed", "seats", "moves"), [
    (31, 2, 6), (32, 3, 25), (33, 4, 0), (34, 4, 40), (35, 4, 70),
])
def test_count_and_board_match_the_truth_through_play(seed: int, seats: int, moves: int) -> None:
    game = new(seed, seats, "board")
    rng = random.Random(seed)
    for _ in range(moves):
        if game.over:
            break
        seat, action = choose(game, rng, announce=0.02)
        game.act(seat, action)
    for seat in range(seats):
        racks = truth(game, seat)
        hint = game.view(seat)["hint"]
        assert hint["count"] == len(racks)
        assert (hint["possible"], hint["certain"]) == expected_board(racks)


def test_an_out_seat_and_a_finished_game_get_a_hint_that_shows_nothing_new() -> None:
    game = stacked(3)
    game.options["hints"] = "board"
    game.act(1, {"type": "announce", "numbers": [1, 2, 3, 4, 5]})  # wrong: seat 1 is out
    hint = game.view(1)["hint"]
    assert hint["count"] == 1 and hint["certain"] == RACKS[1]
    assert [t["n"] for t in game.view(1)["racks"][1]] == RACKS[1]
    game.act(0, {"type": "announce", "numbers": RACKS[0]})
    assert game.over
    for seat in range(3):
        assert game.view(seat)["hint"] == {
            "count": 1, "certain": RACKS[seat],
            "possible": {str(colour_of(n)): [n] for n in sorted(RACKS[seat], key=colour_of)},
        }
    assert "hint" not in game.view(None)


# --------------------------------------------------------------------------- from the view alone


@pytest.mark.parametrize("mode", ["count", "board"])
@pytest.mark.parametrize(("seed", "seats"), [(41, 2), (42, 3), (43, 4), (44, 4)])
def test_every_hint_is_the_hint_of_the_view_without_it(mode: str, seed: int, seats: int) -> None:
    game = new(seed, seats, mode)
    rng = random.Random(seed)
    while True:
        for seat in range(seats):
            view = game.view(seat)
            hint = view["hint"]
            bare = without_hint(view)
            assert hint_for(bare, mode) == hint
            assert hint_for(wire(bare), mode) == hint
            assert wire(view) == view
            assert hint["count"] == len(consistent_assignments(bare)) >= 1
            assert set(hint) == ({"count"} if mode == "count" else {"count", "possible",
                                                                    "certain"})
        assert "hint" not in game.view(None)
        if game.over:
            break
        seat, action = choose(game, rng, announce=0.02)
        game.act(seat, action)


def twin_with_other_rack(game: GotFive, seat: int, rack: tuple[int, ...]) -> GotFive:
    """A copy of ``game`` in which ``seat`` holds ``rack`` instead.

    ``rack`` must be consistent for the seat, so each number it has that the real rack
    lacks is face down in the supply: it swaps places with the real tile of its colour.
    """
    twin = engine.restore(game.snapshot())
    assert isinstance(twin, GotFive)
    for position, (mine, other) in enumerate(zip(game.racks[seat], rack, strict=True)):
        if mine == other:
            continue
        stack = twin.supply[colour_of(other)]
        stack[stack.index(other)] = mine
        twin.racks[seat][position] = other
    return twin


@pytest.mark.parametrize("mode", ["count", "board"])
@pytest.mark.parametrize(("seed", "seats", "moves"), [(51, 4, 8), (52, 3, 30), (53, 4, 50)])
def test_twin_games_with_other_hidden_tiles_give_the_same_hint(
    mode: str, seed: int, seats: int, moves: int
) -> None:
    game = new(seed, seats, mode)
    rng = random.Random(seed)
    for _ in range(moves):
        seat, action = choose(game, rng, announce=0.0)
        game.act(seat, action)
    twins = 0
    for seat in range(seats):
        others = [r for r in consistent_assignments(game.view(seat))
                  if r != tuple(game.racks[seat])]
        for rack in random.Random(seed + seat).sample(others, min(3, len(others))):
            twin = twin_with_other_rack(game, seat, rack)
            assert twin.racks[seat] != game.racks[seat]
            assert twin.view(seat) == game.view(seat)
            # The twin really is another game: every other seat sees the difference.
            assert all(twin.view(o) != game.view(o) for o in range(seats) if o != seat)
            twins += 1
    assert twins > 0


def test_stacked_twins_with_the_same_clue_answers_give_the_same_hint() -> None:
    # Seat 0 holds 45 or 60 at its colour-4 position, the other one lies face down on top
    # of the colour-4 stack; sorting 43 answers notch 4 either way.
    games = []
    for last, hidden in ((45, 60), (60, 45)):
        game = new(1, 3, "board")
        stack_gotfive(game, [[1, 12, 23, 34, last], RACKS[1], RACKS[2]],
                      public=[5, 21, 32, 43, 54], supply={4: [hidden]})
        game.act(0, {"type": "reveal", "colour": 3})
        game.act(0, {"type": "sort", "tile": 43})
        games.append(game)
    a, b = games
    assert a.racks[0] != b.racks[0]
    assert a.clues == b.clues == [{"seat": 0, "tile": 43, "clue": "sort", "notch": 4}]
    assert a.view(0) == b.view(0)
    assert {45, 60} <= set(a.view(0)["hint"]["possible"]["4"])
    assert a.view(1) != b.view(1)


def test_a_restored_game_keeps_its_hints_and_an_old_snapshot_has_none() -> None:
    game = new(61, 3, "count")
    restored = engine.restore(game.snapshot())
    assert restored.view(0) == game.view(0) and "hint" in restored.view(0)
    snap = game.snapshot()
    del snap["options"]["hints"]  # a snapshot saved before the option existed
    old = engine.restore(snap)
    assert "hint" not in old.view(0)


def test_all_four_seats_of_a_full_game_stay_consistent() -> None:
    """Brute force over every ascending rack, for every seat at every point of a game."""
    game = new(71, 4, "board")
    rng = random.Random(71)
    checked = 0
    for step in itertools.count():
        if game.over or step > 200:
            break
        if step % 9 == 0:
            for seat in range(4):
                racks = truth(game, seat)
                hint = game.view(seat)["hint"]
                assert hint["count"] == len(racks)
                checked += 1
        seat, action = choose(game, rng, announce=0.0)
        game.act(seat, action)
    assert checked >= 16


# --------------------------------------------------------------------------- command line, wire


@pytest.mark.parametrize(("text", "value"), [
    ("hints=count", "count"), ("hints=off", "off"), ("hints=BOARD", "board"),
])
def test_the_host_command_reads_hints_as_a_choice(text: str, value: str) -> None:
    from tui.cli import build_parser, check_host_args

    parser = build_parser()
    args = parser.parse_args(["host", "--game", "gotfive", "--option", text,
                              "--mdns-interface", "127.0.0.1"])
    check_host_args(args)
    assert args.options["hints"] == value


def test_the_host_command_says_auto_cross_is_each_players(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert_usage_error(["host", "--game", "gotfive", "--option", "auto_cross=off"],
                       "option 'auto_cross' is not the table's: each player sets their own "
                       "auto-cross, in Settings or with - at the table", capsys)


def test_the_host_command_refuses_a_wrong_hints_value(capsys: pytest.CaptureFixture[str]) -> None:
    assert_usage_error(["host", "--game", "gotfive", "--option", "hints=loud"],
                       "option 'hints' must be one of 'off', 'count', 'board'", capsys)


async def test_the_hint_travels_to_its_seat_and_not_to_a_spectator() -> None:
    # A seeded deal: on some deals the first sort clue tells nothing new (the count
    # stays), which made this test fail about one run in six.
    seeds = random.Random(2)
    async with Host("hints", bot_delay=0, bot_factory=make_bot,
                    seed_source=lambda: seeds.getrandbits(62)) as host:
        ann = await Client.local(host, name="Ann")
        eve = await Client.local(host, name="Eve")
        joined = await ann.create_table("T", "gotfive", 2, {"hints": "board", "first": 0})
        await ann.add_bot(1)
        await eve.join(joined.table, spectate=True)
        await ann.start()

        def playing(msg: dict[str, Any]) -> bool:
            return msg["type"] == "update" and msg["view"] is not None

        first = await ann.wait_for(playing)
        assert first["table"]["options"]["hints"] == "board"
        view = first["view"]
        assert view["hint"] == hint_for(without_hint(view), "board")
        assert view["hint"]["count"] > 1
        watched = await eve.wait_for(playing)
        assert "hint" not in watched["view"]
        await ann.act({"type": "reveal", "colour": 0})
        clue = await ann.wait_for(lambda m: playing(m) and m["view"]["phase"] == "clue")
        tile = next(a["tile"] for a in clue["legal"] if a["type"] == "sort")
        await ann.act({"type": "sort", "tile": tile})
        after = await ann.wait_for(lambda m: playing(m) and len(m["view"]["clues"]) == 1)
        assert after["view"]["hint"] == hint_for(without_hint(after["view"]), "board")
        assert after["view"]["hint"]["count"] < view["hint"]["count"]
        await eve.close()
        await ann.close()

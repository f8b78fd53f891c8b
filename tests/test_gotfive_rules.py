"""Got Five! rule scenarios from RULES.md §3: set-up, turns, clues and announcements."""

from __future__ import annotations

import pytest

import engine
from engine import IllegalAction
from engine.gotfive import GotFive, all_tiles, colour_of, dots_of, tile
from tests.gotfive_play import PUBLIC, RACKS, stacked

# The tiles on the racks of a 2-seat stacked table.
ON_TWO_RACKS = {*RACKS[0], *RACKS[1]}


def test_registered_with_seats_and_option_defaults() -> None:
    spec = engine.GAMES["gotfive"]
    assert (spec.min_seats, spec.max_seats) == (2, 4)
    assert spec.defaults == {"first": None, "auto_cross": True, "hints": "off", "bots": "strong",
                             "away_bot": "off"}


@pytest.mark.parametrize(
    ("seats", "options"),
    [(1, {}), (5, {}), (4, {"first": 4}), (2, {"first": -1}), (3, {"auto_cross": "yes"}),
     (3, {"jokers": True}), (3, {"first": True})],
)
def test_bad_table_is_refused(seats: int, options: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        engine.new_game("gotfive", seats=seats, seed=1, options=options)


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1, 2, 99])
def test_set_up_shape(seats: int, seed: int) -> None:
    game = engine.new_game("gotfive", seats=seats, seed=seed)
    assert isinstance(game, GotFive)
    assert sorted(all_tiles(game)) == list(range(1, 61))
    for rack in game.racks:
        assert rack == sorted(rack)
        assert sorted(colour_of(n) for n in rack) == [0, 1, 2, 3, 4]
    assert sorted(colour_of(n) for n in game.public) == [0, 1, 2, 3, 4]
    view = game.view(None)
    assert view["supply"] == [12 - seats - 1] * 5
    assert view["phase"] == "reveal"
    assert view["turn"] in range(seats)
    assert view["clues"] == [] and view["out"] == [False] * seats and view["winners"] is None
    assert game.result is None and not game.over
    # A face-down stack holds only its own colour.
    for c, stack in enumerate(game.supply):
        assert all(colour_of(n) == c for n in stack)


def test_tiles_have_the_ruled_colours_and_dots() -> None:
    assert [colour_of(n) for n in (1, 6, 56, 5, 60)] == [0, 0, 0, 4, 4]
    assert [dots_of(n) for n in (1, 5, 6, 10, 11, 15, 16, 30, 31, 60)] == [
        1, 1, 2, 2, 3, 3, 1, 3, 1, 3
    ]
    assert tile(17) == {"n": 17, "colour": 1, "dots": 1}


def test_first_option_and_random_first_are_seeded() -> None:
    for first in range(4):
        assert engine.new_game("gotfive", 4, 5, {"first": first}).view(None)["turn"] == first
    firsts = {engine.new_game("gotfive", 4, seed).view(None)["turn"] for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert engine.new_game("gotfive", 4, 8).view(0) == engine.new_game("gotfive", 4, 8).view(0)


def test_views_show_own_colours_only_and_others_in_full() -> None:
    game = stacked(3)
    for seat in range(3):
        view = game.view(seat)
        for owner in range(3):
            if owner == seat:
                assert view["racks"][owner] == [{"colour": c} for c in range(5)]
            else:
                assert view["racks"][owner] == [tile(n) for n in RACKS[owner]]
        assert view["public"] == [tile(n) for n in PUBLIC]
    spectator = game.view(None)
    assert spectator["racks"] == [[{"colour": c} for c in range(5)]] * 3
    assert "marks" not in spectator


def test_reveal_turns_the_top_of_the_chosen_colour_face_up() -> None:
    game = stacked(3, supply={2: [58, 53]})
    before = game.view(None)["supply"]
    events = game.act(0, {"type": "reveal", "colour": 2})
    assert events == [{"type": "revealed", "seat": 0, "tile": tile(58)}]
    view = game.view(1)
    assert [t["n"] for t in view["public"]] == sorted([*PUBLIC, 58])
    assert view["supply"] == [before[0], before[1], before[2] - 1, before[3], before[4]]
    assert view["phase"] == "clue" and view["turn"] == 0
    game.act(0, {"type": "sort", "tile": 5})
    game.act(1, {"type": "reveal", "colour": 2})
    assert 53 in game.public


def test_reveal_lists_only_colours_with_face_down_tiles() -> None:
    # Everything but colour 4 is out in the open: only colour 4 can be revealed.
    rest = [n for n in range(1, 61) if n not in ON_TWO_RACKS and colour_of(n) != 4]
    game = stacked(2, public=rest)
    assert game.legal_actions(0) == [
        {"type": "reveal", "colour": 4}, {"type": "announce"}, {"type": "mark"},
        {"type": "auto_cross"},
    ]
    with pytest.raises(IllegalAction, match="no face-down"):
        game.act(0, {"type": "reveal", "colour": 0})


def test_reveal_is_skipped_when_the_supply_is_empty() -> None:
    rest = [n for n in range(1, 61) if n not in ON_TWO_RACKS]
    game = stacked(2, public=rest)
    assert game.view(0)["phase"] == "clue"
    assert game.view(0)["supply"] == [0] * 5
    with pytest.raises(IllegalAction):
        game.act(0, {"type": "reveal", "colour": 0})
    events = game.act(0, {"type": "sort", "tile": 2})
    assert events[-1] == {"type": "turn", "seat": 1, "phase": "clue"}


@pytest.mark.parametrize(
    ("seat", "number", "notch"),
    [(0, 5, 1), (0, 21, 2), (0, 32, 3), (0, 43, 4), (0, 54, 5), (1, 5, 0), (1, 54, 5),
     (1, 21, 2), (2, 5, 0), (2, 54, 4)],
)
def test_sort_notch_counts_the_lower_hidden_numbers(seat: int, number: int, notch: int) -> None:
    game = stacked(3, turn=seat)
    game.act(seat, {"type": "reveal", "colour": 0})
    events = game.act(seat, {"type": "sort", "tile": number})
    clue = {"seat": seat, "tile": number, "clue": "sort", "notch": notch}
    assert events[0] == {"type": "clue", **clue}
    assert game.view(None)["clues"] == [clue]


@pytest.mark.parametrize(
    ("position", "number", "same"),
    # Seat 0's dots are 1,3,2,1,3; tile 5 has 1 dot, 21 has 2, 43 has 3.
    [(0, 5, True), (1, 5, False), (2, 21, True), (3, 21, False), (4, 43, True), (0, 43, False)],
)
def test_compare_tells_whether_the_dots_match(position: int, number: int, same: bool) -> None:
    game = stacked(3)
    game.act(0, {"type": "reveal", "colour": 1})
    events = game.act(0, {"type": "compare", "tile": number, "position": position})
    clue = {"seat": 0, "tile": number, "clue": "compare", "position": position, "same": same}
    # The event also names the compared position's colour, as every seat sees it.
    colour = game.view(2)["racks"][0][position]["colour"]
    assert events[0] == {"type": "clue", **clue, "colour": colour}
    assert game.view(2)["clues"] == [clue]


def test_clue_tiles_leave_the_row_and_stay_visible_to_everyone() -> None:
    game = stacked(3)
    game.act(0, {"type": "reveal", "colour": 0})
    game.act(0, {"type": "sort", "tile": 32})
    game.act(1, {"type": "reveal", "colour": 0})
    game.act(1, {"type": "compare", "tile": 5, "position": 3})
    for _ in range(3):
        seat = game.turn
        assert seat is not None
        game.act(seat, {"type": "reveal", "colour": 3})
        game.act(seat, {"type": "sort", "tile": game.public[0]})
    for viewer in (0, 1, 2, None):
        view = game.view(viewer)
        assert view["clues"][:2] == [
            {"seat": 0, "tile": 32, "clue": "sort", "notch": 3},
            {"seat": 1, "tile": 5, "clue": "compare", "position": 3, "same": False},
        ]
        assert len(view["clues"]) == 5
        assert {32, 5}.isdisjoint(t["n"] for t in view["public"])
    assert len(game.public) == 5


def test_turn_passes_clockwise_and_starts_with_reveal() -> None:
    game = stacked(3, turn=2)
    game.act(2, {"type": "reveal", "colour": 0})
    events = game.act(2, {"type": "sort", "tile": 5})
    assert events[-1] == {"type": "turn", "seat": 0, "phase": "reveal"}
    assert game.view(1)["turn"] == 0 and game.view(1)["phase"] == "reveal"


def test_one_clue_per_turn_and_only_on_your_turn() -> None:
    game = stacked(3)
    with pytest.raises(IllegalAction, match="first reveal"):
        game.act(0, {"type": "sort", "tile": 5})
    with pytest.raises(IllegalAction, match="seat 0's turn"):
        game.act(1, {"type": "reveal", "colour": 0})
    game.act(0, {"type": "reveal", "colour": 0})
    with pytest.raises(IllegalAction, match="already"):
        game.act(0, {"type": "reveal", "colour": 1})
    game.act(0, {"type": "sort", "tile": 5})
    with pytest.raises(IllegalAction, match="seat 1's turn"):
        game.act(0, {"type": "reveal", "colour": 1})


def test_legal_actions_list_concrete_moves() -> None:
    game = stacked(3)
    assert game.legal_actions(0) == [
        *({"type": "reveal", "colour": c} for c in range(5)),
        {"type": "announce"},
        {"type": "mark"},
        {"type": "auto_cross"},
    ]
    assert game.legal_actions(1) == [{"type": "announce"}, {"type": "mark"},
                                     {"type": "auto_cross"}]
    game.act(0, {"type": "reveal", "colour": 0})
    legal = game.legal_actions(0)
    assert [a for a in legal if a["type"] == "sort"] == [
        {"type": "sort", "tile": n} for n in game.public
    ]
    assert [a for a in legal if a["type"] == "compare"] == [
        {"type": "compare", "tile": n, "position": p} for n in game.public for p in range(5)
    ]
    assert len(game.public) == 6 and len(legal) == 6 * 6 + 3
    assert legal[-3:] == [{"type": "announce"}, {"type": "mark"}, {"type": "auto_cross"}]


def test_no_tiles_left_leaves_only_announcing() -> None:
    rest = [n for n in range(1, 61) if n not in ON_TWO_RACKS]
    game = stacked(2, public=rest)
    while game.public:
        seat = game.turn
        assert seat is not None
        game.act(seat, {"type": "sort", "tile": game.public[-1]})
    view = game.view(0)
    assert view["phase"] == "announce" and view["public"] == [] and view["supply"] == [0] * 5
    seat = view["turn"]
    assert game.legal_actions(seat) == [{"type": "announce"}, {"type": "mark"},
                                        {"type": "auto_cross"}]
    for bad in ({"type": "reveal", "colour": 0}, {"type": "sort", "tile": 3}):
        with pytest.raises(IllegalAction, match="only move"):
            game.act(seat, bad)
    # A wrong announcement puts the seat out; the other one is the last standing.
    game.act(seat, {"type": "announce", "numbers": [2, 3, 4, 5, 7]})
    assert game.over and game.result is not None
    assert game.result["winners"] == [1 - seat]
    assert game.result["reason"] == "last_standing"


def test_right_announcement_wins_at_once_even_out_of_turn() -> None:
    game = stacked(3)
    game.act(0, {"type": "reveal", "colour": 0})
    events = game.act(2, {"type": "announce", "numbers": RACKS[2]})
    assert events[0] == {"type": "announced", "seat": 2, "numbers": RACKS[2], "right": True}
    assert events[1]["type"] == "game_over" and events[1]["winners"] == [2]
    assert game.over
    assert game.result == {
        "winners": [2], "reason": "announced", "racks": RACKS[:3], "out": [False] * 3
    }
    view = game.view(2)
    assert view["phase"] == "over" and view["turn"] is None and view["winners"] == [2]
    # Once it is over every rack is face up, for spectators too.
    assert game.view(None)["racks"] == [[tile(n) for n in rack] for rack in RACKS[:3]]
    assert all(game.legal_actions(s) == [] for s in range(3))
    with pytest.raises(IllegalAction, match="over"):
        game.act(0, {"type": "sort", "tile": 5})
    with pytest.raises(IllegalAction, match="over"):
        game.act(1, {"type": "mark", "n": 3, "mark": "circle"})


def test_wrong_announcement_puts_the_seat_out_and_shows_its_rack() -> None:
    game = stacked(3)
    game.act(0, {"type": "reveal", "colour": 0})
    wrong = [6, 17, 28, 39, 51]
    events = game.act(1, {"type": "announce", "numbers": wrong})
    assert events == [
        {"type": "announced", "seat": 1, "numbers": wrong, "right": False},
        {"type": "out", "seat": 1, "rack": [tile(n) for n in RACKS[1]]},
    ]
    assert not game.over
    for viewer in (0, 1, 2, None):
        view = game.view(viewer)
        assert view["out"] == [False, True, False]
        assert view["racks"][1] == [tile(n) for n in RACKS[1]]
        assert view["announcements"] == [{"seat": 1, "numbers": wrong, "right": False}]
    # Seat 0's turn goes on; the out seat can only mark (and set its auto-cross).
    assert game.view(0)["turn"] == 0 and game.view(0)["phase"] == "clue"
    assert game.legal_actions(1) == [{"type": "mark"}, {"type": "auto_cross"}]
    for action in ({"type": "announce", "numbers": RACKS[1]}, {"type": "reveal", "colour": 1}):
        with pytest.raises(IllegalAction, match="out"):
            game.act(1, action)
    # Turn order skips the out seat.
    events = game.act(0, {"type": "sort", "tile": 5})
    assert events[-1] == {"type": "turn", "seat": 2, "phase": "reveal"}
    game.act(2, {"type": "reveal", "colour": 0})
    events = game.act(2, {"type": "sort", "tile": 21})
    assert events[-1] == {"type": "turn", "seat": 0, "phase": "reveal"}


def test_wrong_announcement_on_own_turn_passes_the_turn() -> None:
    game = stacked(3, turn=1)
    game.act(1, {"type": "reveal", "colour": 4})
    events = game.act(1, {"type": "announce", "numbers": [1, 2, 3, 4, 5]})
    assert events[-1] == {"type": "turn", "seat": 2, "phase": "reveal"}
    # The tile it revealed stays in the public row.
    assert len(game.public) == 6


def test_last_seat_standing_wins() -> None:
    game = stacked(4)
    game.act(3, {"type": "announce", "numbers": [1, 2, 3, 4, 5]})
    game.act(0, {"type": "announce", "numbers": [1, 2, 3, 4, 6]})
    assert not game.over and game.view(None)["turn"] == 1
    events = game.act(1, {"type": "announce", "numbers": [1, 2, 3, 4, 7]})
    assert events[-1] == {
        "type": "game_over", "winners": [2], "reason": "last_standing",
        "racks": [[tile(n) for n in rack] for rack in RACKS],
    }
    assert game.result is not None and game.result["winners"] == [2]
    assert game.result["out"] == [True, True, False, True]


@pytest.mark.parametrize(
    "numbers",
    [
        [1, 12, 23, 34],
        [1, 12, 23, 34, 45, 50],
        [12, 1, 23, 34, 45],
        [1, 12, 23, 34, 34],
        [0, 12, 23, 34, 45],
        [1, 12, 23, 34, 61],
        [True, 12, 23, 34, 45],
        [1.0, 12, 23, 34, 45],
        ["1", "12", "23", "34", "45"],
        "1 12 23 34 45",
        None,
    ],
)
def test_malformed_announcement_is_refused_and_changes_nothing(numbers: object) -> None:
    game = stacked(3)
    before = game.snapshot()
    with pytest.raises(IllegalAction):
        game.act(0, {"type": "announce", "numbers": numbers})
    assert game.snapshot() == before


@pytest.mark.parametrize(
    ("seat", "action"),
    [
        (0, {"type": "dance"}),
        (0, {"type": "reveal"}),
        (0, {"type": "reveal", "colour": 5}),
        (0, {"type": "reveal", "colour": -1}),
        (0, {"type": "reveal", "colour": "0"}),
        (0, {"type": "reveal", "colour": False}),
        (0, {"type": "reveal", "colour": 0, "tile": 5}),
        (1, {"type": "reveal", "colour": 0}),
        (0, {"type": "sort", "tile": 5}),
        (0, {"type": "announce"}),
        (0, {"type": "announce", "numbers": RACKS[0], "extra": 1}),
        (0, {"type": "mark", "n": 0, "mark": "cross"}),
        (0, {"type": "mark", "n": 61, "mark": "cross"}),
        (0, {"type": "mark", "n": "7", "mark": "cross"}),
        (0, {"type": "mark", "n": 7, "mark": "tick"}),
        (0, {"type": "mark", "n": 7}),
        (0, {"type": "mark", "n": 7, "mark": "cross", "colour": 1}),
        (0, {"type": "mark", "n": 6, "mark": "circle"}),
        (3, {"type": "mark", "n": 7, "mark": "cross"}),
        (0, "reveal"),
    ],
)
def test_bad_action_is_refused_and_changes_nothing(seat: int, action: object) -> None:
    game = stacked(3)
    before = game.snapshot()
    with pytest.raises(IllegalAction):
        game.act(seat, action)  # type: ignore[arg-type]
    assert game.snapshot() == before


@pytest.mark.parametrize(
    "action",
    [
        {"type": "sort", "tile": 58},
        {"type": "sort", "tile": 1},
        {"type": "sort", "tile": None},
        {"type": "sort", "tile": 5, "position": 0},
        {"type": "compare", "tile": 5},
        {"type": "compare", "tile": 5, "position": 5},
        {"type": "compare", "tile": 5, "position": -1},
        {"type": "compare", "tile": 5, "position": "0"},
        {"type": "compare", "tile": 6, "position": 0},
        {"type": "compare", "tile": 5, "position": 0, "notch": 1},
        {"type": "reveal", "colour": 1},
    ],
)
def test_bad_clue_is_refused_and_changes_nothing(action: dict[str, object]) -> None:
    game = stacked(3, supply={0: [56]})
    game.act(0, {"type": "reveal", "colour": 0})
    before = game.snapshot()
    with pytest.raises(IllegalAction):
        game.act(0, action)
    assert game.snapshot() == before

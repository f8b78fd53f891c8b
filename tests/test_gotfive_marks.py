"""Got Five! private boards: marks, their privacy, and auto-crossing."""

from __future__ import annotations

import pytest

import engine
from engine import IllegalAction
from tests.gotfive_play import PUBLIC, RACKS, stacked


def crossed(view: dict[str, object]) -> set[int]:
    marks = view["marks"]
    assert isinstance(marks, dict)
    return {int(n) for n, m in marks.items() if m == "cross"}


def test_auto_cross_starts_with_every_visible_number_crossed() -> None:
    game = stacked(3)
    for seat in range(3):
        others = {n for s, rack in enumerate(RACKS[:3]) if s != seat for n in rack}
        assert crossed(game.view(seat)) == others | set(PUBLIC)
        # Never one's own hidden numbers.
        assert not crossed(game.view(seat)) & set(RACKS[seat])


def test_auto_cross_keeps_up_with_reveals() -> None:
    game = stacked(3, supply={3: [59]})
    assert "59" not in game.view(1)["marks"]
    game.act(0, {"type": "reveal", "colour": 3})
    for seat in range(3):
        assert game.view(seat)["marks"]["59"] == "cross"
    game.act(0, {"type": "sort", "tile": 59})
    # Now a clue tile beside seat 0's rack: still seen, still crossed.
    assert all(game.view(seat)["marks"]["59"] == "cross" for seat in range(3))


def test_auto_cross_does_not_cross_an_out_seats_own_rack() -> None:
    game = stacked(3)
    game.act(1, {"type": "announce", "numbers": [1, 2, 3, 4, 5]})
    assert not crossed(game.view(1)) & set(RACKS[1])
    assert set(RACKS[1]) <= crossed(game.view(0))


def test_marks_are_private_and_keyed_by_strings() -> None:
    game = stacked(3)
    events = game.act(0, {"type": "mark", "n": 40, "mark": "circle"})
    assert events == []
    assert game.view(0)["marks"]["40"] == "circle"
    assert "40" not in game.view(1)["marks"] and "40" not in game.view(2)["marks"]
    assert "marks" not in game.view(None)
    assert all(isinstance(k, str) for k in game.view(0)["marks"])
    # Marking is not a move: the turn stays where it was, but the version moves on,
    # for the marker's view alone (another's jumping told how many marks were made,
    # and when: a security review).
    assert game.view(0)["turn"] == 0 and game.view(0)["phase"] == "reveal"
    assert game.view(0)["version"] == 1
    assert game.view(1)["version"] == game.view(None)["version"] == 0
    game.act(2, {"type": "auto_cross", "on": False})
    game.act(0, {"type": "reveal", "colour": game.legal_actions(0)[0]["colour"]})
    assert [game.view(s)["version"] for s in (0, 1, 2, None)] == [2, 1, 2, 1]
    # As a snapshot keeps it (a host resumed from its journal counts on from there).
    copy = engine.restore(game.snapshot())
    assert [copy.view(s)["version"] for s in (0, 1, 2, None)] == [2, 1, 2, 1]


def test_marks_can_be_changed_and_cleared() -> None:
    game = stacked(3)
    game.act(1, {"type": "mark", "n": 40, "mark": "circle"})
    game.act(1, {"type": "mark", "n": 40, "mark": "cross"})
    assert game.view(1)["marks"]["40"] == "cross"
    game.act(1, {"type": "mark", "n": 40, "mark": None})
    assert "40" not in game.view(1)["marks"]
    game.act(1, {"type": "mark", "n": 41, "mark": None})
    assert "41" not in game.view(1)["marks"]


def test_with_auto_cross_a_visible_number_stays_crossed() -> None:
    game = stacked(3)
    for mark in ("circle", None):
        with pytest.raises(IllegalAction, match="auto-cross"):
            game.act(0, {"type": "mark", "n": 6, "mark": mark})
    game.act(0, {"type": "mark", "n": 6, "mark": "cross"})
    assert game.view(0)["marks"]["6"] == "cross"


def test_a_circle_is_overruled_once_the_number_comes_into_sight() -> None:
    game = stacked(3, supply={3: [59]})
    game.act(1, {"type": "mark", "n": 59, "mark": "circle"})
    assert game.view(1)["marks"]["59"] == "circle"
    game.act(0, {"type": "reveal", "colour": 3})
    assert game.view(1)["marks"]["59"] == "cross"


def test_without_auto_cross_the_board_holds_only_what_was_marked() -> None:
    game = stacked(3, auto_cross=False, supply={3: [59]})
    assert game.view(0)["marks"] == {}
    assert game.view(0)["auto_cross"] is False
    game.act(0, {"type": "reveal", "colour": 3})
    assert game.view(0)["marks"] == {}
    game.act(2, {"type": "mark", "n": 6, "mark": "circle"})
    game.act(2, {"type": "mark", "n": 59, "mark": "cross"})
    assert game.view(2)["marks"] == {"6": "circle", "59": "cross"}
    assert game.view(0)["marks"] == {}


def test_auto_cross_is_each_players_own_setting() -> None:
    """RULES.md: auto-crossing is a player setting, on by default. The table's option is
    where every seat starts; a seat turns its own off or on, and no one else's."""
    game = stacked(3, supply={3: [59]})
    seen = crossed(game.view(1))
    game.act(1, {"type": "auto_cross", "on": False})
    assert game.view(1)["auto_cross"] is False and game.view(1)["marks"] == {}
    assert game.view(0)["auto_cross"] is True and crossed(game.view(0))
    assert game.view(None)["auto_cross"] is True  # (spectators: the table's)
    # Off, the seat marks what it sees by hand, circles included; its marks stay when
    # it turns auto-cross on again, under the crosses of what it sees.
    some = min(seen)
    game.act(1, {"type": "mark", "n": some, "mark": "circle"})
    game.act(1, {"type": "mark", "n": 6, "mark": "circle"})
    game.act(0, {"type": "reveal", "colour": 3})
    assert game.view(1)["marks"] == {str(some): "circle", "6": "circle"}
    assert "59" in game.view(2)["marks"]
    game.act(1, {"type": "auto_cross", "on": True})
    assert crossed(game.view(1)) == seen | {59} and game.view(1)["marks"]["6"] == "circle"
    # Any seat may set its own at any time the game runs, out of the game too.
    game.act(2, {"type": "announce", "numbers": [1, 2, 3, 4, 5]})
    game.act(2, {"type": "auto_cross", "on": False})
    assert game.view(2)["auto_cross"] is False


@pytest.mark.parametrize("bad", [
    {"type": "auto_cross"}, {"type": "auto_cross", "on": 1},
    {"type": "auto_cross", "on": "no"}, {"type": "auto_cross", "on": True, "seat": 2},
])
def test_a_malformed_auto_cross_is_refused_and_changes_nothing(bad: dict[str, object]) -> None:
    game = stacked(3)
    before = game.view(0)
    with pytest.raises(IllegalAction):
        game.act(0, bad)
    assert game.view(0) == before


def test_an_out_seat_may_still_mark_while_the_game_runs() -> None:
    game = stacked(3)
    game.act(2, {"type": "announce", "numbers": [1, 2, 3, 4, 5]})
    game.act(2, {"type": "mark", "n": 40, "mark": "circle"})
    assert game.view(2)["marks"]["40"] == "circle"


def test_marks_survive_snapshot_and_restore() -> None:
    game = stacked(3, auto_cross=False)
    game.act(0, {"type": "mark", "n": 40, "mark": "circle"})
    game.act(1, {"type": "mark", "n": 3, "mark": "cross"})
    game.act(2, {"type": "auto_cross", "on": True})
    copy = engine.restore(game.snapshot())
    for seat in range(3):
        assert copy.view(seat) == game.view(seat)
    assert copy.view(0)["marks"] == {"40": "circle"}
    assert [copy.view(s)["auto_cross"] for s in range(3)] == [False, False, True]

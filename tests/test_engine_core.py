"""Tests of the engine's entry points: the registry, validation of games, seats, options."""

from __future__ import annotations

import pytest

import engine
from tests.helpers import roundtrip


def test_registry_lists_games_with_seat_ranges_and_defaults() -> None:
    spec = engine.GAMES["getout"]
    assert (spec.min_seats, spec.max_seats) == (2, 6)
    assert spec.defaults == {"match": True, "limit": 100, "first": None, "bots": "normal",
                             "away_bot": "off"}
    assert roundtrip(spec.defaults) == spec.defaults


def test_unknown_game_says_which_games_exist() -> None:
    with pytest.raises(ValueError, match=r"unknown game 'poker'; known games: .*getout"):
        engine.new_game("poker", seats=2, seed=1)


@pytest.mark.parametrize("seats", [0, 1, 7, -3])
def test_seat_count_out_of_range_is_refused(seats: int) -> None:
    with pytest.raises(ValueError, match=f"GET OUT! takes 2 to 6 seats, not {seats}"):
        engine.new_game("getout", seats=seats, seed=1)


@pytest.mark.parametrize("seats", ["4", 4.0, True, None])
def test_seat_count_must_be_a_whole_number(seats: object) -> None:
    with pytest.raises(ValueError, match="seats must be a whole number"):
        engine.new_game("getout", seats=seats, seed=1)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"colour": "red"}, r"unknown option 'colour' for GET OUT!; allowed options: away_bot, "
                            r"bots, first, limit, match"),
        ({"match": "yes"}, r"option 'match' must be true or false, not 'yes'"),
        ({"limit": 0}, r"option 'limit' must be from 1 to 10000"),
        ({"limit": 2.5}, r"option 'limit' must be a whole number"),
        ({"limit": True}, r"option 'limit' must be a whole number"),
        ({"first": 4}, r"option 'first' must be from 0 to 3 or nothing with 4 seats, not 4"),
        ({"match": None}, r"option 'match' must be true or false, not an empty value"),
        ({"limit": None}, r"option 'limit' must be a whole number from 1 to 10000, not an "
                          r"empty value"),
        ({"first": "0"}, r"option 'first' must be a whole number"),
        ([("match", True)], r"options must be a mapping"),
    ],
)
def test_bad_options_are_refused_with_what_is_allowed(options: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        engine.new_game("getout", seats=4, seed=1, options=options)  # type: ignore[arg-type]


def test_options_are_filled_with_defaults() -> None:
    game = engine.new_game("getout", seats=3, seed=1, options={"limit": 50})
    assert game.options == {"match": True, "limit": 50, "first": None, "bots": "normal",
                            "away_bot": "off"}


@pytest.mark.parametrize("seed", ["1", 1.5, None, True, 2**63])
def test_bad_seed_is_refused(seed: object) -> None:
    with pytest.raises(ValueError, match="seed must be a whole number"):
        engine.new_game("getout", seats=2, seed=seed)  # type: ignore[arg-type]


def test_illegal_action_is_a_value_error() -> None:
    assert issubclass(engine.IllegalAction, ValueError)


def test_view_of_a_seat_that_does_not_exist_is_refused() -> None:
    game = engine.new_game("getout", seats=2, seed=1)
    for seat in (2, -1, "0", True):
        with pytest.raises(engine.IllegalAction, match="there is no seat"):
            game.view(seat)  # type: ignore[arg-type]
        with pytest.raises(engine.IllegalAction, match="there is no seat"):
            game.legal_actions(seat)  # type: ignore[arg-type]


def test_time_cannot_go_backwards_and_must_be_a_number() -> None:
    game = engine.new_game("getout", seats=2, seed=1, options={"first": 0})
    action = game.legal_actions(0)[0]
    game.act(0, action, now=10.0)
    before = game.snapshot()
    with pytest.raises(engine.IllegalAction, match="backwards"):
        game.act(1, {"type": "draw"}, now=5.0)
    with pytest.raises(engine.IllegalAction, match="number of seconds"):
        game.act(1, {"type": "draw"}, now="soon")  # type: ignore[arg-type]
    assert game.snapshot() == before
    assert game.advance(11.0) == []  # GET OUT! is untimed


def test_snapshot_is_plain_data_and_restore_refuses_garbage() -> None:
    game = engine.new_game("getout", seats=4, seed=99)
    snap = game.snapshot()
    assert roundtrip(snap) == snap
    assert snap["seed"] == 99 and snap["game"] == "getout"
    with pytest.raises(ValueError, match="not a game snapshot"):
        engine.restore({"state": {}})
    with pytest.raises(ValueError, match="unknown game"):
        engine.restore({"game": "chess"})


def test_every_option_says_what_kind_of_value_it_takes() -> None:
    kinds = {(g, o.name): o.kind for g, spec in engine.GAMES.items() for o in spec.options}
    assert kinds[("getout", "match")] == "bool"
    assert kinds[("getout", "first")] == "seat"
    assert kinds[("getit", "timer")] == "int"
    assert kinds[("getit", "best")] == "int"
    level = next(o for o in engine.GAMES["getit"].options if o.name == "level")
    assert level.bounds(4) == (1, 6) and level.choices == ("X",)
    cards = next(o for o in engine.GAMES["getit"].options if o.name == "cards")
    assert cards.bounds(5) == (5, 59)
    for spec in engine.GAMES.values():
        for option in spec.options:
            assert option.kind in {"bool", "int", "seat", "choice"}
            if option.kind == "choice":
                assert option.default in option.choices


def test_a_choice_option_takes_only_its_choices() -> None:
    from engine.core import choice_option

    option = choice_option("hints", "off", "how much help", ("off", "count", "board"))
    assert option.check("count", 3) == "count"
    with pytest.raises(ValueError, match="one of 'off', 'count', 'board'"):
        option.check("all", 3)


def test_the_deadline_is_the_next_moment_time_acts() -> None:
    game = engine.new_game("getout", seats=2, seed=1)
    assert game.deadline is None
    getit = engine.new_game("getit", seats=3, seed=1, options={"timer": 30})
    assert getit.deadline is None  # preparation is untimed
    for seat in range(3):
        assert {"type": "arrange"} in getit.legal_actions(seat)
        hand = getit.view(seat)["hand"]
        pile = sorted((c for c in hand if c["kind"] == "number"), key=lambda c: c["value"])
        specials = [c for c in hand if c["kind"] != "number"]
        getit.act(seat, {"type": "arrange", "pile": [c["id"] for c in pile + specials]}, now=5.0)
    assert getit.deadline == 35.0
    getit.advance(35.0)
    assert getit.deadline is None


def test_games_reads_as_a_dict_of_every_game() -> None:
    assert list(engine.GAMES) == ["getit", "getout", "gotfive"] and len(engine.GAMES) == 3
    assert {g: s.id for g, s in engine.GAMES.items()} == {g: g for g in engine.GAMES}
    assert engine.GAMES.get("uno") is None and "uno" not in engine.GAMES
    with pytest.raises(KeyError):
        engine.GAMES["uno"]
    with pytest.raises(ValueError, match="unknown game 'uno'; known games: getit, getout, gotfive"):
        engine.new_game("uno", 2, 1)


def test_a_game_added_to_games_is_there_until_taken_away(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = engine.GAMES["getout"]
    monkeypatch.setitem(engine.GAMES, "extra", spec)
    assert engine.GAMES["extra"] is spec and list(engine.GAMES)[-1] == "extra"
    monkeypatch.undo()
    assert "extra" not in engine.GAMES and len(engine.GAMES) == 3

"""Get It! levels: attempts, level-up, game over, victory, Level X and the perfect team."""

from __future__ import annotations

import pytest

from engine import IllegalAction
from engine.getit import DEAL_SIZES, GetIt
from engine.testing import stack_getit_piles
from tests.getit_support import arrange_all, check_conserved, new, play_perfect_round

PLAY = {"type": "play"}
NEXT = {"type": "next_round"}


def _lose(game: GetIt) -> None:
    """Lose the current round with a wrong card (seat 0 holds a 9 over seat 1's 2)."""
    stack_getit_piles(game, [["9"], ["2"], ["5"]][: game.seats] + [["30"]] * (game.seats - 3))
    game.act(0, PLAY)


def _win(game: GetIt) -> None:
    play_perfect_round(game, game.now)


def test_a_failed_first_attempt_retries_the_same_level() -> None:
    game = new(3, seed=2, level=3)
    _lose(game)
    assert game.view(1)["last_round"]["won"] is False
    events = game.act(2, NEXT)
    assert events == [
        {"type": "dealt", "round": 2, "level": 3, "attempt": 2,
         "hand_sizes": [len(h) for h in game.hands]}
    ]
    view = game.view(0)
    assert (view["level"], view["attempt"], view["phase"]) == (3, 2, "prepare")
    assert sum(view["hand_sizes"]) == DEAL_SIZES[3]
    check_conserved(game)


def test_a_second_failure_ends_the_game() -> None:
    game = new(3, seed=2, level=2)
    _lose(game)
    game.act(0, NEXT)
    assert game.result is None and not game.over
    _lose(game)
    assert game.over and game.phase_name == "over"
    assert game.result == {"won": False, "level": 2, "start_level": 2, "rounds": 2}
    assert game.view(None)["result"] == game.result
    assert all(game.legal_actions(s) == [] for s in range(3))
    before = game.snapshot()
    with pytest.raises(IllegalAction, match="the game is over"):
        game.act(0, NEXT)
    assert game.snapshot() == before


def test_clearing_a_level_moves_up_with_fresh_attempts() -> None:
    game = new(4, seed=2, level=1)
    _lose(game)
    game.act(0, NEXT)
    _win(game)
    assert game.last_round is not None and game.last_round["won"]
    events = game.act(3, NEXT, game.now)
    assert (events[0]["level"], events[0]["attempt"]) == (2, 1)
    assert sum(len(h) for h in game.hands) == DEAL_SIZES[2]
    assert game.legal_actions(0) == [{"type": "arrange"}]


def test_next_round_only_between_rounds() -> None:
    game = new(3, seed=2)
    with pytest.raises(IllegalAction, match="only possible between rounds"):
        game.act(0, NEXT)
    with pytest.raises(IllegalAction, match="unexpected field"):
        game.act(0, {"type": "next_round", "level": 6})


def test_clearing_level_6_wins_the_game() -> None:
    game = new(5, seed=9, level=6)
    _win(game)
    assert game.over
    assert game.result == {"won": True, "level": 6, "start_level": 6, "rounds": 1}


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_perfect_team_clears_levels_1_to_6(seats: int) -> None:
    game = new(seats, seed=100 + seats)
    now = 0.0
    levels = []
    while not game.over:
        levels.append(game.level)
        assert game.phase_name == "prepare"
        now, events = play_perfect_round(game, now)
        assert all(e.get("correct", True) for e in events)
        check_conserved(game)
        if not game.over:
            game.act(0, NEXT, now)
    assert levels == [1, 2, 3, 4, 5, 6]
    assert game.result == {"won": True, "level": 6, "start_level": 1, "rounds": 6}


@pytest.mark.parametrize(
    ("best", "cards", "won", "expected"),
    [
        (None, 30, True, {"score": 30, "best": 30, "new_best": True}),
        (25, 30, True, {"score": 30, "best": 30, "new_best": True}),
        (30, 30, True, {"score": 30, "best": 30, "new_best": False}),
        (40, 30, True, {"score": 30, "best": 40, "new_best": False}),
        (20, 30, False, {"score": 0, "best": 20, "new_best": False}),
        (None, 30, False, {"score": 0, "best": None, "new_best": False}),
    ],
)
def test_level_x_is_one_round_and_reports_the_score(
    best: int | None, cards: int, won: bool, expected: dict[str, object]
) -> None:
    game = new(4, seed=11, level="X", cards=cards, best=best)
    assert game.view(0)["attempts"] == 1 and game.view(0)["cards"] == cards
    assert sum(game.view(None)["hand_sizes"]) == cards
    if won:
        _win(game)
    else:
        arrange_all(game)
        game.advance(61.0)
    assert game.over
    assert game.result == {
        "won": won, "level": "X", "cards": cards, "seats": 4, "previous_best": best,
        "rounds": 1, **expected,
    }


@pytest.mark.parametrize("best", [None, 20])
def test_an_untimed_level_x_round_sets_no_record(best: int | None) -> None:
    game = new(4, seed=11, level="X", cards=30, best=best, timer=0)
    _win(game)
    assert game.result is not None and game.result["won"] and game.result["score"] == 30
    assert game.result["new_best"] is False and game.result["best"] == best


def test_level_x_with_all_59_cards_is_playable() -> None:
    game = new(3, seed=12, level="X", cards=59, timer=0)
    play_perfect_round(game, 0.0)
    assert game.result is not None and game.result["won"] and game.result["cards"] == 59

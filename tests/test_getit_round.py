"""Get It! rounds: the correct card, specials, doubles, the timer and what views show."""

from __future__ import annotations

import pytest

import engine
from engine import IllegalAction
from engine.testing import stack_getit_piles
from tests.getit_support import check_events_secrecy, check_view_secrecy, new
from tests.helpers import roundtrip

PLAY = {"type": "play"}


def test_lowest_visible_number_is_correct_and_next_card_shows_at_once() -> None:
    game = new(3, seed=1)
    ids = stack_getit_piles(game, [["4", "9"], ["2", "30"], ["7"]], now=10.0)
    events = game.act(1, PLAY, now=11.0)
    assert events == [
        {"type": "played", "seat": 1, "card": {"id": ids[1][0], "kind": "number", "value": 2},
         "correct": True}
    ]
    check_events_secrecy(game, events)
    # The 30 shows at once to everyone but its holder; the events did not name it.
    assert game.view(0)["piles"][1] == {"count": 1, "top": game.cards[ids[1][1]].plain()}
    assert game.view(2)["piles"][1]["top"]["value"] == 30
    assert game.view(1)["piles"][1] == {"count": 1, "top": None}
    assert game.view(None)["played"] == [game.cards[ids[1][0]].plain()]
    assert game.phase_name == "play"


def test_wrong_card_loses_the_round() -> None:
    game = new(3, seed=1)
    ids = stack_getit_piles(game, [["4", "9"], ["2", "30"], ["7"]])
    events = game.act(0, PLAY, now=1.0)
    assert events[0]["correct"] is False and events[0]["card"]["id"] == ids[0][0]
    assert events[1] == {
        "type": "round_over", "round": 1, "level": 1, "attempt": 1, "won": False,
        "reason": "wrong", "cards": 10, "played": 1,
    }
    assert game.phase_name == "round_over" and not game.over
    assert game.view(2)["last_round"]["reason"] == "wrong"
    assert game.view(2)["deadline"] is None
    assert all(game.legal_actions(s) == [{"type": "next_round"}] for s in range(3))
    with pytest.raises(IllegalAction, match="only possible while a round is being played"):
        game.act(1, PLAY, now=2.0)


def test_last_card_in_time_wins_the_round() -> None:
    game = new(3, seed=1)
    stack_getit_piles(game, [["4"], ["2"], ["7"]], now=0.0)
    game.act(1, PLAY, now=1.0)
    game.act(0, PLAY, now=2.0)
    events = game.act(2, PLAY, now=59.99)
    assert events[-1]["type"] == "round_over" and events[-1]["won"] is True
    assert events[-1]["reason"] == "cleared"
    assert game.phase_name == "round_over"


def test_visible_special_beats_any_number() -> None:
    game = new(3, seed=1, level=2)
    stack_getit_piles(game, [["5"], ["2", "smile", "20"], ["1", "3"]])
    game.act(2, PLAY)  # the 1
    game.act(1, PLAY)  # the 2; a smile shows now
    before = game.snapshot()
    # Now the 3 is the lowest number, but the visible smile must go first.
    events = game.act(2, PLAY)
    assert events[0]["correct"] is False
    again = engine.restore(before)
    assert again.act(1, PLAY)[0]["correct"] is True


def test_a_pile_whose_next_card_is_a_special() -> None:
    game = new(4, seed=2, level=3)
    ids = stack_getit_piles(game, [["2", "eyes", "9"], ["5"], ["6"], ["8"]])
    game.act(0, PLAY)
    assert game.view(1)["piles"][0]["top"] == game.cards[ids[0][1]].plain()
    assert game.view(0)["piles"][0]["top"] is None
    # The holder of the eyes plays again at once; that is correct.
    assert game.act(0, PLAY)[0]["correct"] is True
    assert game.act(1, PLAY)[0]["correct"] is True
    assert game.act(2, PLAY)[0]["correct"] is True
    assert game.act(3, PLAY)[0]["correct"] is True
    assert game.act(0, PLAY)[-1] == {**game.last_round, "type": "round_over"}
    assert game.last_round is not None and game.last_round["won"] is True


def test_two_specials_visible_go_in_either_order() -> None:
    # Correct play never shows two specials at once (each is played before the next can
    # show), so the rule "any visible special" is checked on stacked piles.
    for first, second in ((0, 1), (1, 0)):
        game = new(3, seed=1, level=3)
        stack_getit_piles(game, [["smile"], ["eyes"], ["10"]])
        assert game.act(first, PLAY)[0]["correct"] is True
        assert game.act(second, PLAY)[0]["correct"] is True
        assert game.act(2, PLAY)[0]["correct"] is True
        assert game.last_round is not None and game.last_round["won"] is True


@pytest.mark.parametrize("first", [0, 2])
def test_doubles_are_both_correct_in_either_order(first: int) -> None:
    game = new(3, seed=1, level=6)
    ids = stack_getit_piles(game, [["6", "7"], ["12"], ["6"]])
    assert {game.cards[ids[0][0]].value, game.cards[ids[2][0]].value} == {6}
    assert ids[0][0] != ids[2][0]
    second = 2 - first
    assert game.act(first, PLAY)[0]["correct"] is True
    assert game.act(second, PLAY)[0]["correct"] is True
    assert game.act(0, PLAY)[0]["correct"] is True


def test_empty_pile_cannot_play_but_can_still_signal() -> None:
    game = new(3, seed=1)
    stack_getit_piles(game, [["2"], ["5"], ["7"]])
    game.act(0, PLAY)
    assert {"type": "play"} not in game.legal_actions(0)
    before = game.snapshot()
    with pytest.raises(IllegalAction, match="pile you hold is empty"):
        game.act(0, PLAY)
    assert game.snapshot() == before
    game.act(0, {"type": "look", "target": 1})
    assert game.view(2)["signals"][0]["look"] == 1


def test_deadline_boundary_fine_just_before_lost_exactly_at() -> None:
    game = new(3, seed=1, timer=60)
    stack_getit_piles(game, [["2", "3"], ["5"], ["7"]], now=100.0)
    deadline = game.view(1)["deadline"]
    assert deadline == 160.0
    assert game.advance(159.999) == []
    assert game.act(0, PLAY, now=159.999)[0]["correct"] is True
    before = game.snapshot()
    # At the deadline, time acts first: the round is lost, so the play is illegal and
    # even the time-out is left for the host's own advance() to report.
    with pytest.raises(IllegalAction, match="only possible while a round is being played"):
        game.act(0, PLAY, now=deadline)
    assert game.snapshot() == before
    events = game.advance(deadline)
    assert events == [
        {"type": "round_over", "round": 1, "level": 1, "attempt": 1, "won": False,
         "reason": "time", "cards": 10, "played": 1}
    ]
    assert game.version == before["version"] + 1
    assert game.advance(deadline + 5) == []


def test_last_card_just_before_the_deadline_wins() -> None:
    game = new(3, seed=1, timer=60)
    stack_getit_piles(game, [["2"], ["5"], ["7"]], now=0.0)
    game.act(0, PLAY, now=10.0)
    game.act(1, PLAY, now=20.0)
    assert game.act(2, PLAY, now=59.999999)[-1]["won"] is True


def test_legal_action_after_the_deadline_gets_the_time_out_events_too() -> None:
    game = new(3, seed=1, timer=30)
    stack_getit_piles(game, [["2"], ["5"], ["7"]], now=0.0)
    events = game.act(1, {"type": "next_round"}, now=31.0)
    assert [e["type"] for e in events] == ["round_over", "dealt"]
    assert events[0]["reason"] == "time"
    assert events[1]["attempt"] == 2 and game.phase_name == "prepare"


def test_time_does_not_run_during_preparation_or_between_rounds() -> None:
    game = new(3, seed=1, timer=5)
    assert game.advance(1000.0) == [] and game.phase_name == "prepare"
    stack_getit_piles(game, [["2"], ["5"], ["7"]], now=1000.0)
    game.act(0, PLAY, now=1001.0)
    game.act(2, PLAY, now=1002.0)  # wrong: round over
    assert game.advance(5000.0) == [] and game.phase_name == "round_over"


def test_round_views_keep_every_secret() -> None:
    game = new(4, seed=5, level=5)
    stack_getit_piles(
        game, [["2", "smile", "30"], ["5", "speech"], ["7", "mirror", "9"], ["8", "eyes"]]
    )
    for holder in [0, 0, 1, 1, 2, 2, 3, 3, 2, 0]:
        for seat in [0, 1, 2, 3, None]:
            check_view_secrecy(game, seat)
        events = game.act(holder, PLAY)
        assert events[0]["correct"] is True, (holder, events)
        check_events_secrecy(game, events)
    assert game.last_round is not None and game.last_round["won"] is True
    spectator = game.view(None)
    assert "hand" not in spectator and "peek" not in spectator


def test_spectator_never_sees_a_top_card() -> None:
    game = new(3, seed=1)
    stack_getit_piles(game, [["2"], ["5"], ["7"]])
    assert [p["top"] for p in game.view(None)["piles"]] == [None, None, None]
    assert [p["count"] for p in game.view(None)["piles"]] == [1, 1, 1]
    assert game.view(0)["piles"][1]["top"]["value"] == 5


def test_a_finished_round_is_laid_open_but_never_the_pile_a_seat_holds() -> None:
    """RULES.md never shows a seat the pile it holds, a round that is over included:
    each seat sees every other pile laid open, the wrong card, and the card that had to
    go first unless it lay on its own pile (then only whose it was); a spectator, who
    sees no top card, sees no pile."""
    game = new(3, seed=1)
    ids = stack_getit_piles(game, [["4", "9"], ["2", "30"], ["7"]])
    assert all(game.view(s)["reveal"] is None for s in (None, 0, 1, 2))
    game.act(0, PLAY, now=1.0)  # the 4 while the 2 shows: wrong
    left = [[9], [2, 30], [7]]
    for seat in (None, 0, 1, 2):
        reveal = game.view(seat)["reveal"]
        shown = seat is not None and seat != 1
        assert reveal["wrong"] == {
            "seat": 0, "card": game.cards[ids[0][0]].plain(),
            "expected": [{"seat": 1, "card": game.cards[ids[1][0]].plain() if shown else None}],
        }
        assert [[c["value"] for c in pile] if pile is not None else None
                for pile in reveal["piles"]] == [
            cards if seat is not None and holder != seat else None
            for holder, cards in enumerate(left)]
        if seat is not None:
            check_view_secrecy(game, seat)
    assert roundtrip(game.view(1)) == game.view(1)
    restored = engine.restore(game.snapshot())
    assert restored.view(2) == game.view(2)
    game.act(0, {"type": "next_round"}, now=2.0)
    assert game.view(0)["reveal"] is None  # a new deal shows nothing of the old one


def test_a_round_lost_on_time_names_no_wrong_card() -> None:
    game = new(3, seed=1)
    stack_getit_piles(game, [["4"], ["2"], ["7"]], now=0.0)
    game.advance(60.0)
    reveal = game.view(0)["reveal"]
    assert reveal["wrong"] is None
    assert [p if p is None else len(p) for p in reveal["piles"]] == [None, 1, 1]

"""Get It! signals: look, smile, look past, the mirror peek and the speech window."""

from __future__ import annotations

from typing import Any

import pytest

from engine import IllegalAction
from engine.getit import SAID_KEPT, SIGNAL_NOUNS, GetIt, about_card
from engine.testing import stack_getit_piles
from tests.getit_support import check_view_secrecy, new, roundtrip

PLAY = {"type": "play"}


def _round(level: int = 5, seats: int = 4, piles: list[list[str]] | None = None) -> GetIt:
    game = new(seats, seed=3, level=level)
    stack_getit_piles(game, piles or [["2", "9"], ["5"], ["7"], ["8"]][:seats])
    return game


def _refused(game: GetIt, seat: int, action: dict[str, Any], message: str) -> None:
    before = game.snapshot()
    with pytest.raises(IllegalAction, match=message):
        game.act(seat, action)
    assert game.snapshot() == before


@pytest.mark.parametrize("kind", ["look", "smile", "look_past"])
def test_signals_at_a_seat_or_nobody_are_seen_by_everyone(kind: str) -> None:
    game = _round()
    events = game.act(1, {"type": kind, "target": 3})
    assert events == [{"type": "signal", "seat": 1, "signal": kind, "target": 3}]
    for seat in [0, 1, 2, 3, None]:
        assert game.view(seat)["signals"][1][kind] == 3
    other = {"look", "smile", "look_past"} - {kind}
    assert all(game.view(0)["signals"][1][k] is None for k in other)
    game.act(1, {"type": kind, "target": None})
    assert game.view(2)["signals"][1][kind] is None


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"type": "look", "target": 1}, "not to yourself"),
        ({"type": "smile", "target": 4}, "no seat 4"),
        ({"type": "look_past", "target": "2"}, "seat number or None"),
        ({"type": "look_past", "target": True}, "seat number or None"),
        ({"type": "look"}, "needs a 'target'"),
        ({"type": "look", "target": 2, "at": 1}, "unexpected field 'at'"),
        ({"type": "look", "target": None}, "you already look at nobody"),
        ({"type": "wink", "target": 2}, "unknown action 'wink'"),
    ],
)
def test_bad_signals_are_refused_and_change_nothing(
    action: dict[str, Any], message: str
) -> None:
    _refused(_round(), 1, action, message)


def test_signal_legal_actions_list_every_target_but_the_current_one() -> None:
    game = _round()
    legal = game.legal_actions(1)
    assert legal[0] == PLAY
    for kind in ("look", "smile", "look_past"):
        assert [a["target"] for a in legal if a["type"] == kind] == [0, 2, 3]
    game.act(1, {"type": "smile", "target": 2})
    targets = [a["target"] for a in game.legal_actions(1) if a["type"] == "smile"]
    assert targets == [None, 0, 3]
    assert not any(a["type"] in ("peek", "say") for a in game.legal_actions(1))


def test_no_signals_outside_a_round() -> None:
    game = new(4, seed=3)
    _refused(game, 0, {"type": "look", "target": 1}, "only possible while a round")
    stack_getit_piles(game, [["2"], ["5"], ["7"], ["8"]])
    game.act(1, {"type": "look", "target": 0})
    game.act(0, PLAY)
    game.act(0, {"type": "smile", "target": 2})
    game.act(3, PLAY)  # wrong: the round is over
    _refused(game, 0, {"type": "look", "target": 1}, "only possible while a round")
    game.act(0, {"type": "next_round"})
    # A new round starts with everyone's signals cleared.
    assert all(
        s == {"look": None, "smile": None, "look_past": None, "peek": False}
        for s in game.view(None)["signals"]
    )


def test_mirror_peek_shows_the_face_of_the_own_top_card_then_ends_with_the_mirror() -> None:
    game = _round(piles=[["2", "mirror", "20"], ["5", "30"], ["7"], ["8"]])
    _refused(game, 1, {"type": "peek", "on": True}, "only while you see a mirror")
    game.act(0, PLAY)  # the 2; the mirror shows to seats 1, 2, 3
    for seat in (1, 2, 3):
        assert {"type": "peek", "on": True} in game.legal_actions(seat)
    # The mirror's holder does not see it, so it may not peek (and is not told it could).
    assert not any(a["type"] == "peek" for a in game.legal_actions(0))
    _refused(game, 0, {"type": "peek", "on": True}, "only while you see a mirror")

    events = game.act(1, {"type": "peek", "on": True})
    assert events == [{"type": "signal", "seat": 1, "signal": "peek", "on": True}]
    assert game.view(1)["peek"] == {"kind": "number", "value": 5}
    assert game.view(2)["peek"] is None
    assert [s["peek"] for s in game.view(None)["signals"]] == [False, True, False, False]
    assert {"type": "peek", "on": False} in game.legal_actions(1)
    _refused(game, 1, {"type": "peek", "on": True}, "already peeking")
    _refused(game, 2, {"type": "peek", "on": False}, "not peeking")
    _refused(game, 2, {"type": "peek", "on": 1}, "true or false")
    for seat in (0, 1, 2, 3, None):
        check_view_secrecy(game, seat)

    game.act(2, {"type": "peek", "on": True})
    game.act(2, {"type": "peek", "on": False})
    game.act(2, {"type": "peek", "on": True})
    events = game.act(0, PLAY)  # the mirror: every peek ends
    assert events[1] == {"type": "peeks_ended", "seats": [1, 2]}
    assert game.view(1)["peek"] is None and game.view(2)["peek"] is None
    assert not any(s["peek"] for s in game.view(3)["signals"])
    _refused(game, 1, {"type": "peek", "on": True}, "only while you see a mirror")


def test_peek_ends_when_the_peeker_plays_its_own_special() -> None:
    # Seat 2 holds a smile under its 7; while the mirror and that smile both show (stacked),
    # seat 2 peeks, then plays the smile: its peek ends with the card it looked at.
    game = new(4, seed=3, level=4)
    stack_getit_piles(game, [["mirror", "20"], ["5"], ["smile", "7"], ["8"]])
    game.act(2, {"type": "peek", "on": True})
    assert game.view(2)["peek"] == {"kind": "smile", "value": None}
    events = game.act(2, PLAY)
    assert events[0]["correct"] is True
    assert game.view(2)["peek"] is None
    assert game.view(0)["signals"][2]["peek"] is False
    # The mirror still shows, so seat 2 may peek again, now at its 7.
    game.act(2, {"type": "peek", "on": True})
    assert game.view(2)["peek"] == {"kind": "number", "value": 7}


def test_speech_window_opens_with_the_bubble_and_closes_when_it_is_played() -> None:
    game = _round(piles=[["2", "speech", "20"], ["5"], ["7"], ["8"]])
    _refused(game, 1, {"type": "say", "text": "hi"}, "only while you see the speech bubble")
    game.act(0, PLAY)  # the 2: the speech bubble shows to seats 1..3
    assert {"type": "say"} in game.legal_actions(1)
    assert {"type": "say"} not in game.legal_actions(0)
    _refused(game, 0, {"type": "say", "text": "hi"}, "only while you see the speech bubble")
    events = game.act(1, {"type": "say", "text": "  I see 7 and 8\x00\n\u200b "})
    assert events == [{"type": "said", "seat": 1, "text": "I see 7 and 8"}]
    for seat in (0, 1, 2, 3, None):
        assert game.view(seat)["said"] == [{"seat": 1, "text": "I see 7 and 8"}]
    # A lone surrogate would not even pack with msgpack; it is dropped like control chars.
    events = game.act(3, {"type": "say", "text": "\ud800ok\u2028é"})
    assert events == [{"type": "said", "seat": 3, "text": "oké"}]
    assert roundtrip(game.view(None)) == game.view(None)
    game.act(2, {"type": "say", "text": "x" * 200})
    _refused(game, 2, {"type": "say", "text": "x" * 201}, "at most 200 characters")
    _refused(game, 2, {"type": "say", "text": 5}, "must be a string")
    _refused(game, 2, {"type": "say", "text": " \x07\t"}, "nothing to say")
    _refused(game, 2, {"type": "say"}, "must be a string")
    events = game.act(0, PLAY)  # the bubble: talk ends
    assert events[1] == {"type": "talk_ended"}
    _refused(game, 1, {"type": "say", "text": "hi"}, "only while you see the speech bubble")
    assert not any(a["type"] == "say" for a in game.legal_actions(1))
    # What was said stays readable.
    assert len(game.view(3)["said"]) == 3


def test_talk_is_kept_to_a_bounded_recent_list() -> None:
    game = _round(piles=[["2", "speech"], ["5"], ["7"], ["8"]])
    game.act(0, PLAY)
    for i in range(SAID_KEPT + 15):
        game.act(1 + i % 3, {"type": "say", "text": f"line {i}"})
    said = game.view(None)["said"]
    assert len(said) == SAID_KEPT
    assert said[-1] == {"seat": 1 + (SAID_KEPT + 14) % 3, "text": f"line {SAID_KEPT + 14}"}
    assert said[0]["text"] == "line 15"
    assert len(game.snapshot()["state"]["said"]) == SAID_KEPT


def test_signals_at_a_seat_end_when_it_plays_and_others_stay() -> None:
    # RULES.md Decision: a signal is about the card its target shows. Seat 0 shows 2, the
    # lowest; seats 1-3 signal at it and at others, then seat 0 plays its 2.
    game = _round()
    game.act(1, {"type": "look", "target": 0})
    game.act(2, {"type": "smile", "target": 0})
    game.act(3, {"type": "look_past", "target": 0})
    game.act(3, {"type": "look", "target": 1})
    game.act(0, {"type": "look", "target": 2})
    events = game.act(0, PLAY)
    assert events[0]["correct"] is True
    assert events[1] == {"type": "signals_ended", "target": 0, "signals": [
        {"seat": 1, "signal": "look"}, {"seat": 2, "signal": "smile"},
        {"seat": 3, "signal": "look_past"}]}
    for seat in [0, 1, 2, 3, None]:
        signals = game.view(seat)["signals"]
        assert signals[1]["look"] is None and signals[2]["smile"] is None
        assert signals[3]["look_past"] is None
        # Signals at other seats, and the player's own, stay.
        assert signals[3]["look"] == 1 and signals[0]["look"] == 2
    # A signaller who means the next card signals again: the look at seat 0 is legal.
    assert {"type": "look", "target": 0} in game.legal_actions(1)
    game.act(1, {"type": "look", "target": 0})
    assert game.view(2)["signals"][1]["look"] == 0


def test_a_play_with_no_signal_at_its_seat_ends_nothing() -> None:
    game = _round()
    game.act(1, {"type": "look", "target": 2})
    events = game.act(0, PLAY)
    assert [e["type"] for e in events] == ["played"]
    assert game.view(0)["signals"][1]["look"] == 2


@pytest.mark.parametrize("kind", ["look", "smile", "look_past"])
def test_a_signal_naming_a_card_its_target_played_since_is_refused(kind: str) -> None:
    """RULES.md: a signal is about the card its target shows. One sent as its target
    played names the card it was about, and is refused rather than landing on the next
    card (which its sender never saw)."""
    game = _round()
    seen = about_card({"type": kind, "target": 0}, game.view(1))
    assert seen == {"type": kind, "target": 0, "card": game.top(0).id}
    game.act(0, PLAY)  # seat 0's 2 goes; its 9 shows
    _refused(game, 1, seen, f"seat 0 played the card your {SIGNAL_NOUNS[kind]} was about")
    # Named as shown now, it lands.
    again = about_card({"type": kind, "target": 0}, game.view(1))
    assert again["card"] == game.top(0).id != seen["card"]
    game.act(1, again)
    assert game.view(3)["signals"][1][kind] == 0


def test_a_signal_at_an_empty_pile_names_no_card() -> None:
    game = _round(piles=[["2"], ["5"], ["7"], ["8"]])
    game.act(0, PLAY)
    seen = about_card({"type": "look", "target": 0}, game.view(2))
    assert seen == {"type": "look", "target": 0, "card": None}
    game.act(2, seen)
    assert game.view(1)["signals"][2]["look"] == 0
    # A card where the pile is empty, or none where a card shows: refused.
    _refused(game, 3, {"type": "look", "target": 0, "card": 5}, "seat 0 played the card")
    _refused(game, 3, {"type": "look", "target": 1, "card": None}, "seat 1 played the card")


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"type": "look", "target": None, "card": 3}, "at nobody is about no card"),
        ({"type": "smile", "target": 0, "card": "2"}, "must be a card id or None"),
        ({"type": "smile", "target": 0, "card": True}, "must be a card id or None"),
    ],
)
def test_a_named_card_must_be_a_card_id_of_a_signal_at_someone(
    action: dict[str, Any], message: str
) -> None:
    _refused(_round(), 1, action, message)


def test_a_signal_names_only_what_its_view_shows() -> None:
    game = _round()
    view = game.view(1)
    # Its own pile's top it does not see; nobody, a peek or a play name nothing.
    for action in ({"type": "look", "target": 1}, {"type": "look", "target": None},
                   {"type": "peek", "on": True}, PLAY):
        assert about_card(action, view) == action
    assert about_card({"type": "smile", "target": 0}, game.view(None)) == {
        "type": "smile", "target": 0}

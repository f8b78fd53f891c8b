"""The Get It! table's parts that are plain data: the signal state, preparation and
which keys work (and why one does nothing), tested without a screen."""

from __future__ import annotations

from typing import Any

import pytest

from tui.games.getit.keys import (
    KEY_ACTIONS,
    KeyContext,
    KeyMemo,
    key_works,
    parse_action,
    why_not,
)
from tui.games.getit.prep import Preparation, fixed_numbers
from tui.games.getit.signals import SignalState
from tui.notices import Namer


def number(value: int, id_: int | None = None) -> dict[str, Any]:
    return {"id": value if id_ is None else id_, "kind": "number", "value": value}


def view_of(signals: list[dict[str, Any]], me: int = 0, phase: str = "play",
            counts: tuple[int, ...] = (3, 3, 3)) -> dict[str, Any]:
    return {"phase": phase, "seat": me, "signals": signals,
            "piles": [{"count": c, "top": None} for c in counts]}


def no_signal() -> dict[str, Any]:
    return {"look": None, "smile": None, "look_past": None, "peek": False}


def test_a_signal_sent_shows_at_once_and_goes_from_pending_once_the_host_has_it() -> None:
    state = SignalState()
    view = view_of([no_signal(), no_signal(), no_signal()])
    state.sent("look", 2)
    assert state.mine(view, 0, "look") == 2 and state.signalling(view, 0)
    assert state.pending == {"look": 2}
    landed = view_of([{**no_signal(), "look": 2}, no_signal(), no_signal()])
    assert state.mine(landed, 0, "look") == 2
    assert state.pending == {}


def test_no_signal_shows_outside_a_round_and_what_was_pending_is_dropped() -> None:
    state = SignalState()
    state.sent("smile", 1)
    prep = view_of([{**no_signal(), "look": 1}, no_signal(), no_signal()], phase="prepare")
    assert state.signals(prep, 0) == [{}, {}, {}]
    state.follow([{"type": "dealt"}], "prepare")
    assert state.pending == {}


def test_a_signal_on_its_way_when_its_target_played_is_dropped_from_pending() -> None:
    """It named the card that was played, so the host refuses it: not shown meanwhile on
    the target's next card; one at another player stays."""
    state = SignalState()
    state.sent("look", 1)
    state.sent("smile", 2)
    events = [{"type": "played", "seat": 1},
              {"type": "signals_ended", "target": 1,
               "signals": [{"seat": 2, "signal": "look"}]}]
    state.follow(events, "play")
    assert state.pending == {"smile": 2}


def test_talk_lines_show_only_while_talk_is_on() -> None:
    state = SignalState()
    view = {**view_of([no_signal()] * 3), "said": [{"seat": 1, "text": "I see 5"}]}
    assert state.said(view) == {}  # said before this bubble showed
    state.follow([{"type": "said", "seat": 1}], "play")
    assert state.said(view) == {1: "I see 5"} and state.to_you(view, 0).talk == 1
    state.follow([{"type": "talk_ended"}], "play")
    assert state.said(view) == {}


def test_our_line_says_our_signals_and_our_pile() -> None:
    state = SignalState()
    namer = Namer(["Ann", "Bob", "Cy"], 0)
    view = view_of([{**no_signal(), "look": 2, "smile": 2}, no_signal(), no_signal()],
                   counts=(0, 2, 1))
    assert state.my_line(view, 0, namer) == (
        "you (1): looking at Cy · smiling at Cy · your pile is empty")


def test_a_look_at_a_higher_card_than_one_in_sight_says_where_the_lower_is() -> None:
    """A look stays until its target plays: one left on a 20 after a 15 showed
    elsewhere voted for the 20, which was played and lost the round."""
    state = SignalState()
    namer = Namer(["Ann", "Bob", "Cy"], 0)
    view = view_of([{**no_signal(), "look": 1}, no_signal(), no_signal()])
    view["piles"][1]["top"] = number(20)
    view["piles"][2]["top"] = number(15)
    assert state.my_line(view, 0, namer) == (
        "you (1): looking at Bob's 20 — the 15 on pile 3 is lower: look there (3) · "
        "3 in your pile")
    view["piles"][2]["top"] = number(20, 99)  # as low: either may go
    assert state.my_line(view, 0, namer) == "you (1): looking at Bob's 20 · 3 in your pile"
    view["piles"][2]["top"] = {"id": 7, "kind": "smile"}  # a special first: its own hint
    assert "lower" not in state.my_line(view, 0, namer)


def test_our_peeked_card_shows_only_while_the_peek_lasts() -> None:
    """RULES.md: when the mirror is played, every peek ends and the value disappears
    from the screen (the screen kept it as "saw 22" until the card was played)."""
    card = number(17)
    assert SignalState.peeked({"peek": card}) == card
    assert SignalState.peeked({"peek": None}) is None


def test_preparation_keeps_numbers_ascending_and_no_special_on_top() -> None:
    prep = Preparation()
    smile = {"id": 9, "kind": "smile"}
    prep.deal({"round": 1, "hand": [number(3), number(8), smile, number(20)]})
    assert prep.selected == 2
    assert not prep.move(-2) and prep.move(-1) and prep.selected == 1
    assert not prep.move(-1)  # never on top
    assert [c.get("value") for c in prep.order] == [3, None, 8, 20]
    assert prep.click(3) and prep.pile() == [3, 8, 20, 9]
    prep.deal({"round": 1, "hand": []})  # the same round: what we arranged stays
    assert prep.pile() == [3, 8, 20, 9]
    assert fixed_numbers([number(8), smile, number(3)]) == [number(3), smile, number(8)]
    assert not Preparation().next_special()


def test_a_key_that_does_nothing_says_why() -> None:
    view = view_of([no_signal()] * 3, me=0)
    ctx = KeyContext(view, [{"type": "play"}], 0)
    assert key_works("look", (5,), ctx) is False
    assert why_not("look", (5,), ctx) == "No player 5 at this table: the others are 2-3."
    assert KEY_ACTIONS["9"] == ("look", (9,)) and key_works("look", (9,), ctx) is False
    assert why_not("look", (1,), ctx) == "Player 1 is you: look at another player (2-3)."
    assert key_works("peek", (), ctx) is False and "mirror" in (why_not("peek", (), ctx) or "")
    assert "speech bubble" in (why_not("talk", (), ctx) or "")
    assert key_works("stop_signals", (), ctx) is None
    assert why_not("stop_signals", (), ctx) == "You signal nothing now."
    prep = KeyContext(view_of([no_signal()] * 3, phase="prepare"), [{"type": "arrange"}], 0)
    assert key_works("next_special", (), prep) is False
    assert why_not("next_special", (), prep) == (
        "No special card in your pile: Enter passes it on as it is.")
    assert why_not("play", (), prep) == (
        "The round starts when everyone has arranged: Enter when you are done.")
    empty = KeyContext(view_of([no_signal()] * 3, counts=(0, 1, 1)), [], 0)
    assert why_not("play", (), empty) == "Your pile is empty: you only signal now."
    assert key_works("play", (), empty) is False  # (not dimmed in the footer all round)
    assert key_works("play", (), KeyContext(ctx.view, [], 0)) is None  # (a play to come)
    # In a round, Tab and the arrows keep their usual use: no word.
    assert why_not("next_special", (), ctx) is None


def test_binding_actions_are_read_as_textual_writes_them() -> None:
    assert parse_action("look(5)") == ("look", (5,))
    assert parse_action("aim('smile')") == ("aim", ("smile",))
    assert parse_action("play") == ("play", ())


def test_a_level_says_what_it_adds_and_a_summary_says_when_that_card_was_not_dealt() -> None:
    from tui.games.getit.levels import new_at_level, new_card_missing

    assert new_at_level(1) is None and new_at_level("X") is None
    assert new_at_level(4) == (
        "+ ◧ mirror — when you see one, peek at your own card (p); everyone peeking: you "
        "hold it, play it")
    assert (new_at_level(6) or "").startswith("+ 10 doubles")
    mirror = {"id": 50, "kind": "mirror", "value": None}
    without = {"last_round": {"level": 4}, "played": [number(3), number(9)],
               "reveal": {"piles": [[number(20)], []]}}
    assert new_card_missing(without) == (
        "No mirror card was dealt this round: it may come next time.")
    assert new_card_missing({**without, "reveal": {"piles": [[mirror], []]}}) is None
    assert new_card_missing({**without, "last_round": {"level": 1}}) is None
    doubles = {"last_round": {"level": 6}, "played": [number(6, 1), number(6, 2)]}
    assert new_card_missing(doubles) is None
    assert new_card_missing({**doubles, "played": [number(6)]}) == (
        "No double (two cards of one number) was dealt this round.")
    from tui.games.getit.summary import round_summary

    lost = {**without, "phase": "round_over", "last_round": {"level": 4, "won": False,
                                                             "reason": "time", "cards": 3}}
    summary = round_summary(lost, ["Ann", "Bob"], 0, can_deal=True, can_lobby=False)
    assert "No mirror card was dealt this round: it may come next time." in [
        str(part) for part in summary.body]


def test_the_top_line_says_it_in_fewer_words_on_a_narrow_terminal() -> None:
    from tui.games.getit.text import status_line

    view = {"level": 5, "attempt": 1, "attempts": 2, "phase": "play", "cards": 22,
            "timer": 60, "piles": [{"count": 8}, {"count": 9}]}
    assert status_line(view, None) == "Level 5 · attempt 1 of 2 · 17 of 22 cards left"
    # (Short, the cards left before the attempt: a narrow line cuts the end with "…".)
    assert status_line(view, None, short=True) == "Level 5 · 17/22 left · try 1/2"
    level_x = {**view, "level": "X", "timer": 0}
    assert status_line(level_x, 12) == "Level X · 17 of 22 cards left · record 12 cards · " \
        "untimed practice"
    assert status_line(level_x, 12, short=True) == "Level X · 17/22 left · record 12 · untimed"
    # Fitted to a room: the total goes, then "untimed", then the record; the attempt
    # stays.
    assert status_line(view, None, short=True, room=30) == "Level 5 · 17/22 left · try 1/2"
    assert status_line(view, None, short=True, room=27) == "Level 5 · 17 left · try 1/2"
    assert status_line(level_x, 12, short=True, room=30) == "Level X · 17 left · record 12"
    assert status_line(level_x, 12, short=True, room=12) == "Level X · 17 left"
    # In preparation, the deck in all ("10 cards dealt" read as ten each).
    assert status_line({**view, "phase": "prepare"}, None).endswith("22 cards dealt in all")


def test_a_signal_pressed_as_its_target_card_changed_is_about_the_card_seen(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A player pressed 3 as Bot 3's 13 was played and 28 showed: the look went to the
    28, which they never saw. A key sooner after a card showed than anyone sees it
    names the card before (the host refuses it); later, the card shown."""
    from tui.games.getit import signals

    PERCEIVE = 0.25
    monkeypatch.setattr(signals, "PERCEIVE", PERCEIVE)
    state = SignalState()

    def tops(second: int) -> dict[str, Any]:
        view = view_of([no_signal()] * 3)
        view["piles"][2]["top"] = {"id": second, "kind": "number", "value": second}
        return view

    look = {"type": "look", "target": 2}
    empty = view_of([no_signal()] * 3, counts=(3, 3, 0))
    state.saw(empty, 9.99)
    state.saw(tops(13), 10.0)  # where no card was: nothing else to mean
    assert state.meant(look, tops(13), 10.01)["card"] == 13  # first seen: as shown
    state.saw(tops(28), 20.0)
    assert state.meant(look, tops(28), 20.0 + PERCEIVE / 2)["card"] == 13
    assert state.meant(look, tops(28), 20.0 + PERCEIVE)["card"] == 28
    state.saw(tops(28), 30.0)  # the same card again: still seen since 20 s
    assert state.meant(look, tops(28), 30.0)["card"] == 28
    # A stop, or a look at a pile the view does not show, names nothing.
    assert state.meant({"type": "look", "target": None}, tops(28), 20.0) == {
        "type": "look", "target": None}
    assert "card" not in state.meant({"type": "look", "target": 0}, tops(28), 20.0)


def test_who_signalled_at_a_played_card_is_said_by_kind_in_seat_order() -> None:
    from tui.games.getit.text import signalled_at

    namer = Namer(["Ann", "Bob", "Cy", "Di"], 0)
    event = {"type": "signals_ended", "target": 1, "signals": [
        {"seat": 2, "signal": "smile"}, {"seat": 0, "signal": "look"},
        {"seat": 3, "signal": "look"}, {"seat": 2, "signal": "look_past"}]}
    assert signalled_at(event, namer) == "you and Di looked at it; Cy smiled at it; " \
        "Cy looked past it"
    three = {"signals": [{"seat": s, "signal": "look"} for s in (0, 2, 3)]}
    assert signalled_at(three, namer) == "you, Cy and Di looked at it"
    # From a host that sent something else: what cannot be read is left out.
    odd = {"signals": [{"seat": 9, "signal": "look"}, {"seat": 2, "signal": "wave"}, "x",
                       None]}
    assert signalled_at(odd, namer) == "someone looked at it"
    assert signalled_at({"signals": []}, namer) is None
    assert signalled_at({"signals": "nope"}, namer) is None


@pytest.mark.parametrize("width", [20, 28, 29, 80])
def test_to_you_s_stars_hold_on_to_their_words_where_the_line_wraps(width: int) -> None:
    """At a phone's 40 columns "★ ALL 5 LOOK AT YOU ★" wrapped its last star onto a line
    of its own."""
    from rich.console import Console

    from tui.games.getit.text import ToYou, to_you_text

    text = to_you_text(ToYou(others=5, look=5, smile=0, look_past=0, peek=0, talk=0), width)
    console = Console(width=width, color_system=None)
    with console.capture() as out:
        console.print(text)
    lines = [line.strip() for line in out.get().splitlines()]
    assert "★" not in lines and all(line for line in lines), lines
    # (The line is 29 cells: at 28, at a phone's 40 columns, it wrapped.)
    assert ("★ ALL 5 LOOK AT YOU ★" in text.plain) == (width >= 29), text.plain
    assert "ALL 5 LOOK AT YOU" in text.plain


def test_the_piles_laid_open_say_unplayed_and_a_lone_wrong_card_has_no_dot() -> None:
    """"left, top first" read as the left neighbour's; a pile whose only card was the
    wrong one read "✗38 played ·", a dot with nothing after it (a fresh-eyed pair)."""
    import io

    from rich.console import Console

    from tui.games.getit.summary import piles_table
    from tui.notices import Namer

    def number(value: int) -> dict[str, object]:
        return {"id": value, "kind": "number", "value": value}

    view = {"reveal": {"piles": [[number(20)], []],
                       "wrong": {"seat": 1, "card": number(38)}}}
    console = Console(width=60, record=True, file=io.StringIO())
    console.print(piles_table(view, Namer(["Ann", "Bob"], 0)))
    text = console.export_text()
    assert "unplayed, top first" in text and "left, top" not in text, text
    bob = next(line for line in text.splitlines() if "Bob" in line)
    assert bob.rstrip().endswith("✗38 played"), bob


def test_a_round_s_summary_offers_its_creator_the_lobby() -> None:
    """The creator had to close the summary to find l, between rounds, where the table's
    options (its timer) can be changed; GET OUT!'s offers "End the match"."""
    from tui.games.getit.summary import round_summary

    view = {"phase": "round_over", "level": 2, "reveal": {"piles": [[], []]},
            "last_round": {"level": 2, "won": True}}
    creator = round_summary(view, ["Ann", "Bob"], 0, can_deal=True, can_lobby=True)
    assert [(c.answer, c.label) for c in creator.choices] == [
        ("next", "Next round"), ("lobby", "End the game")]
    guest = round_summary(view, ["Ann", "Bob"], 1, can_deal=True, can_lobby=False)
    assert [c.answer for c in guest.choices] == ["next"]


def test_a_line_kept_unsaid_at_the_game_s_end_is_not_promised_a_next_round() -> None:
    """The game-over summary said a line the bubble never let out was "kept for the next
    round" (a fresh-eyed pass): there is none; a round's end still keeps it."""
    from tui.games.getit.talk import KEPT, UNSAID_AT_END, kept_note

    assert kept_note({"phase": "round_over"}) == KEPT
    assert "next round" in KEPT
    assert kept_note({"phase": "over"}) == UNSAID_AT_END
    assert "next round" not in UNSAID_AT_END


def test_still_arranging_marks_a_person_away() -> None:
    """"Still arranging: Bob": Bob was away, and only the log said so."""
    from tui.games.getit.prep import still_arranging
    from tui.notices import Namer

    namer = Namer(["Ann", "Bob", "Bot 3"])
    assert still_arranging([False, False, True], 0, namer, {1}) == (
        "Still arranging: you, Bob (away)")
    assert still_arranging([True, False, True], 0, namer) == "Still arranging: Bob"


def test_the_keys_context_is_made_once_an_update_and_again_when_anything_it_reads_changes(
) -> None:
    """The footer asks every key at each update: one context serves them all, and a new
    update, our move's state, our seat or the names make a new one (a stale context
    would light a key that does nothing, or hide one that works)."""
    memo, made = KeyMemo(), []

    def make(update: dict[str, Any], legal: list[dict[str, Any]]) -> Any:
        def new() -> KeyContext:
            made.append(update)
            return KeyContext(update["view"], legal, 0)
        return new

    first = {"view": {"phase": "play", "piles": [{"count": 1}, {"count": 2}]}}
    ctx = memo.context((first, 0, None, 0, ["Ann", "Bob"]), make(first, [{"type": "play"}]))
    assert ctx.can("play") and ctx.lookable() == [1]
    again = memo.context((first, 0, None, 0, ["Ann", "Bob"]), make(first, []))
    assert again is ctx and len(made) == 1
    moving = memo.context((first, 1, None, 0, ["Ann", "Bob"]), make(first, []))
    assert moving is not ctx and not moving.can("play")
    second = {"view": {"phase": "play", "piles": [{"count": 1}, {"count": 0}]}}
    after = memo.context((second, 1, None, 0, ["Ann", "Bob"]), make(second, []))
    assert after.lookable() == [] and len(made) == 3
    renamed = memo.context((second, 1, None, 0, ["Ann", "Cy"]), make(second, []))
    assert renamed is not after
    # An equal update that is another object (the next one from the host) is new too.
    copy = {"view": dict(second["view"])}
    assert memo.context((copy, 1, None, 0, ["Ann", "Cy"]), make(copy, [])) is not renamed

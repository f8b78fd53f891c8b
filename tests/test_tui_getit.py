"""Pilot tests of the Get It! table: a person (the test) at a real in-app host with bots.

The test plays as a person would, from what the screen shows: it looks at the player
whose card is lowest, plays when everyone looks at (or smiles at) it, arranges its pile
with the keys, peeks and talks when the footer offers it. The host runs on a clock the
test moves (``net.clock.ManualClock``): its bots' reactions and a round's timer take no
wall time, and no test depends on the machine's speed. Rounds are untimed (timer 0)
unless a test says otherwise.
"""

from __future__ import annotations

import contextlib
import io
import random
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from textual import events
from textual.app import App, ComposeResult
from textual.color import Color
from textual.containers import Horizontal
from textual.pilot import Pilot
from textual.widgets import Input, Static

from engine.bots.getit_bot import TALK_HOLD
from engine.getit import about_card, arrangement
from engine.testing import stack_getit_piles
from net.clock import ManualClock
from tests.tui_support import (
    Notices,
    config_dir,
    count_layouts,
    footer_labels_in_view,
    screen_text,
    type_ahead,
    until,
    until_on_clock,
)
from tui.app import HiddenHandApp
from tui.games.getit.screen import GetItScreen
from tui.games.getit.seatcard import FACE_ROWS, SeatCard, big_number
from tui.games.getit.talk import TALK_AHEAD, TALK_OPEN, TalkLine
from tui.games.getit.text import number_ranges, to_you
from tui.games.getit.timer import SandTimer
from tui.games.getit.widgets import PrepCard, PrepRow
from tui.screens.summary import SummaryScreen
from tui.settings import Settings

SIZE = (110, 34)


pytestmark = pytest.mark.usefixtures("config_dir")
__all__ = ["config_dir"]  # the fixture, for pytest


def solo_app(seats: int, options: dict[str, Any], seed: int = 5) -> HiddenHandApp:
    rng = random.Random(seed)
    return HiddenHandApp(Settings(name="Ann"), bot_delay=0.01,
                         seed_source=lambda: rng.getrandbits(62), clock=ManualClock(),
                         solo={"game_id": "getit", "seats": seats,
                               "options": {"timer": 0, **options}})


async def open_table(pilot: Pilot[Any]) -> GetItScreen:
    app = pilot.app
    screen: GetItScreen = await until(
        pilot, lambda: isinstance(app.screen, GetItScreen) and app.screen.update and app.screen,
        "the Get It! table")
    return screen


def footer_keys(screen: GetItScreen) -> set[str]:
    """The actions the footer offers now (what a player can see to press)."""
    return {b.binding.action.split("(")[0] for b in screen.active_bindings.values()
            if b.binding.show or b.binding.key_display}


def game_of(app: HiddenHandApp) -> Any:
    assert app.hosting.host is not None
    (table,) = app.hosting.host.tables.values()
    return table


def engine_now(app: HiddenHandApp) -> float:
    """The engine time of the app's table now, on its host's clock."""
    assert app.hosting.host is not None
    return float(game_of(app).elapsed(app.hosting.host.clock()))


async def a_still_table(pilot: Pilot[Any], app: HiddenHandApp) -> tuple[GetItScreen, Any]:
    """The Get It! table in play, arranged as dealt, its bots holding still (only the
    test moves): the screen and the host's table."""
    screen = await open_table(pilot)
    await arrange_as_dealt(pilot, screen)
    table = game_of(app)
    for seat in table.seats:
        seat.bot = None
    return screen, table


def piles_held_still(app: HiddenHandApp, piles: list[list[str]]) -> Any:
    """The app's table with these piles (top last), its bots holding still (only the
    test moves), sent to the screen: the host's table."""
    table = game_of(app)
    for seat in table.seats:
        seat.bot = None
    stack_getit_piles(table.game, piles, now=engine_now(app))
    app.hosting.host.refresh(table)
    return table


async def arrange_as_dealt(pilot: Pilot[Any], screen: GetItScreen) -> None:
    await until(pilot, lambda: "done" in footer_keys(screen), "the Done key")
    await pilot.press("enter")
    # The bots arrange theirs at their pace.
    await until_on_clock(pilot, screen, lambda: screen.view.get("phase") == "play",
                         "the round")


def convention_look(game: Any, seat: int) -> int | None:
    """Whom ``seat`` looks at by the rulebook's convention (the bots keep it): the seat
    showing the lowest number it sees (the lowest seat among equals); nobody while a
    special card shows or no card does."""
    tops = {h: game.top(h) for h in range(game.seats) if h != seat}
    seen = {h: card for h, card in tops.items() if card is not None}
    if not seen or any(card.kind != "number" for card in seen.values()):
        return None
    return min(seen, key=lambda h: (seen[h].value, h))


def table_settled(screen: GetItScreen, table: Any) -> bool:
    """The bots have answered the cards showing now (each looks where the convention
    says), and the screen shows the host's latest state: what a person waits for
    before trusting the signals (right after a play they are about the card gone)."""
    game = table.game
    if screen.view.get("version") != game.view(None)["version"]:
        return False
    return all(game.signals["look"][seat] == convention_look(game, seat)
               for seat, held in enumerate(table.seats) if held.bot is not None)


async def play_like_a_person(pilot: Pilot[Any], screen: GetItScreen, table: Any) -> None:
    """Follow the rulebook's conventions from what the screen shows, to the round's end.

    Like a person, it waits until the table has settled after each change (the bots'
    signals lag behind plays), then looks at the lowest card it sees, smiles at a
    smile, and plays when everyone looks at it or smiles at it.
    """
    while True:
        await until_on_clock(pilot, screen, lambda: screen.view.get("phase") != "play"
                             or table_settled(screen, table), "the table to settle")
        view = screen.view
        if view.get("phase") != "play":
            return
        version = table.game.view(None)["version"]
        await decide(pilot, screen, view, view["seat"])
        # Our key changes the table (a look, a play); after nothing to do, a bot moves.
        await until_on_clock(pilot, screen,
                             lambda was=version: table.game.view(None)["version"] != was,
                             "the table to change")


def shown_signals(screen: GetItScreen, view: dict[str, Any]) -> list[dict[str, Any]]:
    """Every seat's signals as the table shows them: ours with what we sent that the
    host has not answered yet (``pending``)."""
    signals = [dict(s) for s in view["signals"]]
    signals[view["seat"]].update(screen.signals.pending)
    return signals


async def decide(pilot: Pilot[Any], screen: GetItScreen, view: dict[str, Any], me: int) -> None:
    """One decision of the person, from the view alone."""
    signals = shown_signals(screen, view)
    facts = to_you({**view, "signals": signals})
    tops = {s: p["top"] for s, p in enumerate(view["piles"]) if p["top"] is not None}
    special = [s for s, c in tops.items() if c["kind"] != "number"]
    if view["piles"][me]["count"] and facts.others in (facts.look, facts.smile):
        await pilot.press("space")
    elif special:
        target = special[0]
        if signals[me]["look"] != target:
            await pilot.press(str(target + 1))
        elif tops[target]["kind"] == "smile" and signals[me]["smile"] != target:
            await pilot.press("s")
    elif tops:
        low = min(tops, key=lambda s: tops[s]["value"])
        if signals[me]["look"] != low:
            await pilot.press(str(low + 1))


async def test_a_person_and_bots_clear_a_level_one_round_through_the_keys() -> None:
    """A whole round through the keys; then its summary: opened over a table already laid
    out anew (the last play hides the emptied pile's big number, and the summary's first
    frame showed it still), closed with c to look at the table, opened again with v
    until the next round is dealt."""
    app = solo_app(3, {"level": 1})
    hidden_under_summary: list[list[str]] = []
    push = app.push_screen

    def pushed(screen: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(screen, SummaryScreen):
            under = app.screen
            # What the table's last layout draws: every widget under some cell of it.
            drawn = {widget for y in range(under.size.height) for x in range(under.size.width)
                     for widget, _ in under.get_widgets_at(x, y)}
            hidden_under_summary.append(
                [f"{w!r} in {w.parent!r}" for w in drawn
                 if not all(node.display for node in w.ancestors_with_self
                            if node is not under)])
        return push(screen, *args, **kwargs)

    app.push_screen = pushed  # type: ignore[method-assign]
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(pilot)
        assert "summary_again" not in footer_keys(screen)
        assert "done" in footer_keys(screen) and "play" not in footer_keys(screen)
        waiting = str(screen.query_one("#prep-waiting", Static).render())
        assert waiting.startswith("Still arranging: ") and "you" in waiting
        assert "Ann" not in waiting  # we are "you" here, as everywhere at the table
        # The clock is said before it runs (a fresh player lost a round to a timer
        # nothing had mentioned).
        timer = screen.view.get("timer")
        assert waiting.endswith(f" · the {timer} s timer starts when all are done" if timer
                                else " · an untimed round"), waiting
        # Silent from the deal (a line could tell the next seat its pile), open again
        # once the round is over.
        assert screen.query_one("#table-chat", Input).disabled
        await arrange_as_dealt(pilot, screen)
        assert screen.query_one("#table-chat", Input).disabled  # silent in the round
        assert "look" in footer_keys(screen) and "done" not in footer_keys(screen)
        assert not screen.query_one(SandTimer).display  # untimed practice: no timer
        await play_like_a_person(pilot, screen, game_of(app))
        summary = await until(pilot, lambda: isinstance(app.screen, SummaryScreen)
                              and app.screen, "the round summary")
        assert "Level 1 cleared" in str(summary.title_text)
        assert hidden_under_summary == [[]]
        await pilot.press("c")
        await until(pilot, lambda: app.screen is screen, "the table")
        assert "summary_again" in footer_keys(screen)
        assert screen.query_one("#table-chat", Input).disabled is False  # between rounds
        await pilot.press("v")
        again = await until(pilot, lambda: isinstance(app.screen, SummaryScreen)
                            and app.screen, "the summary again")
        assert str(again.title_text) == str(summary.title_text) and again is not summary
        # "End the game (l)", then "Play on": back to the summary, not to the table
        # (where only the footer's n went on).
        from tui.screens.dialogs import ConfirmScreen

        await pilot.press("l")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        await pilot.press("n")
        again = await until(pilot, lambda: isinstance(app.screen, SummaryScreen)
                            and app.screen, "the summary after Play on")
        await pilot.press("n")
        await until(pilot, lambda: screen.view.get("level") == 2, "level 2 dealt")
        assert "summary_again" not in footer_keys(screen)
        await pilot.press("v")
        assert app.screen is screen


async def test_preparation_places_the_special_cards_with_the_keys() -> None:
    app = solo_app(3, {"level": 2}, seed=3)  # this seed deals Ann three numbers, two smiles
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(pilot)
        await until(pilot, lambda: screen.prep.order, "the hand")
        kinds = [c["kind"][0] for c in screen.prep.order]
        assert kinds == list("nnnss"), f"the seed should deal 3 numbers and 2 smiles: {kinds}"
        assert screen.prep.selected == 3  # the first special is picked at once
        assert {"next_special", "done"} <= footer_keys(screen)
        for _ in range(5):  # as far up as it goes: never on top
            await pilot.press("left")
        assert [c["kind"][0] for c in screen.prep.order] == list("nsnns")
        await pilot.press("tab")  # the other smile
        assert screen.prep.selected == 4
        await pilot.press("left")
        order = [c["kind"][0] for c in screen.prep.order]
        assert order == list("nsnsn")
        numbers = [c["value"] for c in screen.prep.order if c["kind"] == "number"]
        assert numbers == sorted(numbers)
        await pilot.press("enter")
        game = game_of(app).game
        await until(pilot, lambda: game.arranged[0] is not None, "the pile arranged")
        assert [game.cards[c].kind[0] for c in game.arranged[0]] == order


async def test_a_new_deal_of_another_size_shows_its_own_cards_and_only_its_special_chosen(
) -> None:
    """After "Next round" the pile showed "☺ SMILE  22  26  31  ☺ SMILE", or a number
    marked chosen, until Tab: the last round's cards, on their way out, were painted
    with the new ones, and the new ones kept the last round's choice."""
    from textual.app import App

    from tui.games.getit.text import card_text

    def numbers(*values: int) -> list[dict[str, Any]]:
        return [{"kind": "number", "value": v, "id": v} for v in values]

    smile = {"kind": "smile", "id": 100}

    class Row(App[None]):
        def compose(self) -> Any:
            yield PrepRow()

    app = Row()
    async with app.run_test(size=(80, 24)) as pilot:
        row = app.query_one(PrepRow)
        for cards, chosen in ((numbers(3, 9, 14, 20), None),
                              ([*numbers(6, 22, 26), smile, *numbers(31)], 3),
                              ([*numbers(12, 15), smile, *numbers(33)], 2),
                              (numbers(6, 14, 33, 40, 41, 50), None)):
            row.cards, row.selected = cards, chosen  # (as the panel shows a deal)
            await pilot.pause()

            def shown() -> list[tuple[str, bool]]:
                return [(str(chip.render()), chip.has_class("selected"))
                        for chip in row.query(PrepCard) if chip.display]

            want = [((f"▶{card_text(c)}◀" if i == chosen else card_text(c)), i == chosen)
                    for i, c in enumerate(cards)]
            await until(pilot, lambda: shown() == want, "the new deal alone")  # noqa: B023


@pytest.mark.parametrize(("hand", "framed"), [
    (["6", "6", "15", "15", "20", "smile"], True),
    # A level-6 hand with three specials: framed, its last cards were out of sight.
    (["2", "9", "14", "22", "26", "33", "smile", "smile", "speech"], False),
])
async def test_a_hand_is_framed_only_when_every_framed_card_fits(
    hand: list[str], framed: bool
) -> None:
    from textual.app import App

    def card(name: str) -> dict[str, Any]:
        return ({"kind": "number", "value": int(name)} if name.isdigit()
                else {"kind": name})

    class Row(App[None]):
        def compose(self) -> Any:
            yield PrepRow()

    app = Row()
    async with app.run_test(size=(80, 24)) as pilot:
        row = app.query_one(PrepRow)
        row.cards = [card(name) for name in hand]
        row.selected = hand.index("smile")
        scroll = row.query_one("#prep-cards")

        def in_sight() -> bool:
            chips = list(row.query(PrepCard))
            return len(chips) == len(hand) and all(
                scroll.region.contains_region(chip.region) and chip.region.height == (
                    3 if framed else 1) for chip in chips)

        await until(pilot, in_sight, "every card in sight")
        assert row.has_class("dense") is not framed
        await pilot.resize_terminal(160, 24)  # room enough: framed again
        await until(pilot, lambda: not row.has_class("dense"), "frames at 160")


async def test_a_long_hand_at_80_columns_keeps_both_ends_and_the_chosen_card_in_sight() -> None:
    app = solo_app(4, {"level": "X", "cards": 59})  # 14 or 15 cards a hand
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot)
        await until(pilot, lambda: screen.prep.order, "the hand")
        assert len(screen.prep.order) >= 14
        row = screen.query_one(PrepRow)
        for _ in range(len(screen.prep.order)):  # every special in turn, and back to the first
            await pilot.press("tab")
            await pilot.pause()
            width = app.size.width
            ends = list(row.query(".end"))
            assert len(ends) == 2  # "top ▸" and "◂ bottom"
            for end in ends:
                region = end.region
                assert region.width and region.x >= 0 and region.right <= width, region
            if screen.prep.selected is not None:
                chip = next(c for c in row.query(PrepCard) if c.index == screen.prep.selected)
                assert row.region.contains_region(chip.region), chip.region
                assert not any(end.region.overlaps(chip.region) for end in ends)


async def test_a_click_on_the_top_with_a_special_chosen_says_why_it_cannot_go_there() -> None:
    """The key (←) said "A special card never goes on top of the pile."; a click on the
    top card did nothing, without a word (a fresh-eyed pass)."""
    app = solo_app(4, {"level": "X", "cards": 59})  # 14 or 15 cards a hand: specials
    async with app.run_test(size=(160, 30)) as pilot:
        screen = await open_table(pilot)
        await until(pilot, lambda: screen.prep.order, "the hand")
        await pilot.press("tab")
        await until(pilot, lambda: screen.prep.selected is not None, "a special chosen")
        order = list(screen.prep.order)
        top = next(c for c in screen.query(PrepCard) if c.index == 0)
        await pilot.click(top)
        why = screen.query_one("#prep-why", Static)
        await until(pilot, lambda: "never goes on top" in str(why.render()), "why not")
        assert screen.prep.order == order


async def test_a_level_x_rematch_deals_its_own_hand_and_plays_against_the_record_set() -> None:
    """A Level X game is one round: its rematch's deal is round 1 again, and the table
    kept the last game's hand on screen (Enter did nothing: its cards were not ours any
    more), and said "no record yet" beside the record just set. The record is said by
    the summary alone (a toast too showed twice, on the summary and the table under it)."""
    app = solo_app(3, {"level": "X", "cards": 3, "timer": 60})
    notes = Notices()
    async with app.run_test(size=(120, 36), message_hook=notes) as pilot:
        screen = await open_table(pilot)
        await until(pilot, lambda: screen.prep.order, "the first hand")
        table = piles_held_still(app, [["1"], ["2"], ["3"]])
        await until(pilot, lambda: screen.view.get("phase") == "play", "the round")
        for holder in (0, 1, 2):  # the 1, the 2, the 3: cleared, a record of 3 cards
            events = table.game.act(holder, {"type": "play"}, now=engine_now(app))
            app.hosting.host.refresh(table, events)
        summary = await until(pilot, lambda: isinstance(app.screen, SummaryScreen)
                              and app.screen, "the summary")
        assert "New record for 3 players: 3 cards" in str(summary.body[0])
        assert not [n for n in notes.messages() if "New record" in n]
        # The line over the table says it too ("no record yet" stood over the summary).
        assert "record 3" in str(screen.query_one("#getit-status", Static).render())
        assert table.options["best"] is None
        await pilot.press("r")
        await until(pilot, lambda: app.screen is screen and screen.view.get("phase") == "prepare"
                    and screen.view.get("hand"), "the rematch's deal")
        await until(pilot, lambda: [c["id"] for c in screen.prep.order]
                    == [c["id"] for c in screen.view["hand"]], "its own hand")
        assert table.game.options["best"] == 3
        assert "record 3" in screen_text(app)
        await pilot.press("enter")  # done: our pile passes on
        await until(pilot, lambda: table.game.arranged[0], "our pile arranged")


async def test_the_ends_of_a_scrolled_hand_say_how_many_cards_lie_beyond() -> None:
    """A long hand scrolls: "top ▸" would then point at a card that is not the top; the
    end says how many cards lie beyond it instead (the arrow points at them), however
    the row was scrolled (to the chosen card, by the wheel)."""
    from textual.containers import HorizontalScroll

    app = solo_app(4, {"level": "X", "cards": 59})  # 14 or 15 cards a hand
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot)
        for seat in game_of(app).seats:
            seat.bot = None  # no update comes to scroll the chosen card back in sight
        await until(pilot, lambda: screen.prep.order, "the hand")
        row = screen.query_one(PrepRow)
        cards = row.query_one("#prep-cards", HorizontalScroll)

        def ends() -> tuple[str, str]:
            return (str(row.query_one("#prep-top", Static).render()),
                    str(row.query_one("#prep-bottom", Static).render()))

        def said(top: int, bottom: int) -> tuple[str, str]:
            return (f"◂ {top} more" if top else "top ▸",
                    f"{bottom} more ▸" if bottom else "◂ bottom")

        await until(pilot, lambda: cards.max_scroll_x > 0, "a row wider than the screen")
        # Scrolled to the chosen card (a special, far from the top) as the hand came.
        await until(pilot, lambda: row.hidden()[0] > 0 and ends() == said(*row.hidden()),
                    "the chosen card in sight")
        def whole_in_sight() -> int:
            left, width = cards.scroll_x, cards.scrollable_content_region.width
            return sum(1 for c in row.query(PrepCard) if c.virtual_region.x >= left
                       and c.virtual_region.right <= left + width)

        for x in (0, cards.max_scroll_x, cards.max_scroll_x // 2, 0, 7, 13):
            cards.scroll_to(x=x, animate=False, immediate=True)
            await until(pilot, lambda x=x: cards.scroll_x == x
                        and ends() == said(*row.hidden()), f"the ends at {x}")
            # A card cut by an edge is counted beyond it: what is in sight, and what
            # the ends count, make the whole hand; and it is not drawn ("[2" of a 24).
            assert whole_in_sight() + sum(row.hidden()) == len(screen.prep.order), x
            await until(pilot, lambda: all(
                (c.styles.text_opacity == 0) == (
                    c.virtual_region.x < cards.scroll_x < c.virtual_region.right
                    or c.virtual_region.x < cards.scroll_x + cards.scrollable_content_region
                    .width < c.virtual_region.right) for c in row.query(PrepCard)),
                f"no card drawn cut at {x}")
            strip = next(line for line in screen_text(app).splitlines() if "more" in line
                         or "top ▸" in line)
            assert strip.count("[") == strip.count("]"), strip
        cards.scroll_to(x=0, animate=False, immediate=True)
        await until(pilot, lambda: cards.scroll_x == 0 and ends() == said(*row.hidden()),
                    "back at the top")
        assert ends() == said(0, row.hidden()[1]) and row.hidden()[1] > 0
        cards.scroll_to(x=cards.max_scroll_x, animate=False, immediate=True)
        await until(pilot, lambda: ends() == said(row.hidden()[0], 0)
                    and row.hidden()[0] > 0, "the far end")
        # A click (a tap) on an end that counts cards beyond brings them in, as Home and
        # End do; a sideways wheel (a swipe) over an end scrolls as over the cards (on a
        # phone both did nothing, and the top was out of reach from the ends).
        await pilot.click("#prep-top")
        await until(pilot, lambda: cards.scroll_x == 0 and ends() == said(0, row.hidden()[1]),
                    "the top, by a click on its end")
        await pilot.click("#prep-bottom")
        await until(pilot, lambda: cards.scroll_x == cards.max_scroll_x, "the bottom, clicked")
        # A wheel turned over the end, as a page's swipe is: the app's own routing (an
        # event posted to the end named it, and a handler that needed that passed here
        # and did nothing in a browser).
        top = row.query_one("#prep-top", Static).region
        app.post_message(events.MouseScrollLeft(None, top.x + 1, top.y + 1, 0, 0, 0, False,
                                                False, False, screen_x=top.x + 1,
                                                screen_y=top.y + 1))
        await until(pilot, lambda: cards.scroll_x < cards.max_scroll_x, "a swipe on the end")


@pytest.mark.parametrize("width", [41, 60])
async def test_a_long_hand_on_a_phone_s_row_says_what_lies_beyond_without_a_scroll(
        width: int) -> None:
    """On a phone (41 columns) a long hand read "top ▸ [3] [6] [7] [8] [ ◂ bottom": a
    card cut in two, and "bottom" sixteen cards short of it, until the row was scrolled
    (a pass on a phone: a browser's page sizes its terminal as the app starts)."""
    app = solo_app(3, {"level": "X", "cards": 59})
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await open_table(pilot)
        for seat in game_of(app).seats:
            seat.bot = None
        await until(pilot, lambda: screen.prep.order, "the hand")
        row = screen.query_one(PrepRow)
        await pilot.pause()
        await pilot.resize_terminal(width, 30)

        def ends() -> tuple[str, str]:
            return (str(row.query_one("#prep-top", Static).render()),
                    str(row.query_one("#prep-bottom", Static).render()))

        await until(pilot, lambda: sum(row.hidden()) > 0, "cards beyond the ends")
        # (The ends give the cards their margins on a phone: 22 of 41 cells were theirs.)
        await until(pilot, lambda: [e.size.width for e in row.query(".end")] == [9, 9],
                    "narrow ends")
        await until(pilot, lambda: ends() == (f"◂ {row.hidden()[0]} more" if row.hidden()[0]
                                              else "top ▸",
                                              f"{row.hidden()[1]} more ▸" if row.hidden()[1]
                                              else "◂ bottom"), "the ends as they are")


async def test_an_update_leaves_a_scrolled_hand_where_the_player_scrolled_it() -> None:
    """The chosen card is brought into sight when it changes, not by every update: the
    wheel's scrolling stays while others arrange their piles."""
    from textual.containers import HorizontalScroll

    app = solo_app(4, {"level": "X", "cards": 59})  # 14 or 15 cards a hand
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot)
        table = game_of(app)
        for seat in table.seats:
            seat.bot = None  # the test's own update comes instead of theirs
        await until(pilot, lambda: screen.prep.order, "the hand")
        row = screen.query_one(PrepRow)
        cards = row.query_one("#prep-cards", HorizontalScroll)
        await until(pilot, lambda: cards.max_scroll_x > 0 and row.hidden()[0] > 0,
                    "the chosen card in sight, far from the top")
        cards.scroll_to(x=0, animate=False, immediate=True)
        await until(pilot, lambda: cards.scroll_x == 0, "scrolled to the top")
        shown = screen.update
        assert table.game is not None
        # A bot that has not arranged yet arranges (every one may have, before it was held
        # still: then the host sends the table again, an update all the same).
        bot = next((i for i, s in enumerate(table.seats) if s.kind == "bot"
                    and {"type": "arrange"} in table.game.legal_actions(i)), None)
        if bot is not None:
            hand = table.game.view(bot)["hand"]
            app.hosting.host.act(table, bot,
                                 {"type": "arrange", "pile": arrangement(hand, random.Random(1))})
        else:
            app.hosting.host.refresh(table)
        await until(pilot, lambda: screen.update is not shown, "the next update")
        await pilot.pause()
        assert cards.scroll_x == 0 and row.hidden()[0] == 0
        # Another card chosen, again and again: each is brought into sight.
        for _ in range(len(screen.prep.order)):
            await pilot.press("tab")

            def chosen_in_sight() -> bool:
                chip = next((c for c in row.query(PrepCard) if c.index == screen.prep.selected),
                            None)
                return chip is None or cards.region.contains_region(chip.region)

            await until(pilot, chosen_in_sight, "the newly chosen card in sight")
        assert cards.scroll_x > 0


async def test_home_and_end_show_the_ends_of_a_long_hand() -> None:
    """A hand too long for the row: Home brings its top card into sight, End its bottom
    one, with the keyboard alone (the help line says so)."""
    from textual.containers import HorizontalScroll

    app = solo_app(3, {"level": "X", "cards": 40})  # 13 or 14 cards a hand
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot)
        for seat in game_of(app).seats:
            seat.bot = None
        await until(pilot, lambda: screen.prep.order, "the hand")
        row = screen.query_one(PrepRow)
        cards = row.query_one("#prep-cards", HorizontalScroll)
        # The chosen special, far from the top, brought into sight as the hand came.
        await until(pilot, lambda: cards.max_scroll_x > 0 and row.hidden()[0] > 0,
                    "a row wider than the screen, scrolled to the chosen card")
        await until(pilot, lambda: "Home/End show the pile's top/bottom" in str(
            screen.query_one("#prep-help", Static).render()), "Home/End in the help")
        await pilot.press("home")
        await until(pilot, lambda: row.hidden() == (0, row.hidden()[1]) and cards.scroll_x == 0,
                    "the top in sight")
        assert row.hidden()[1] > 0
        await pilot.press("end")
        await until(pilot, lambda: cards.scroll_x == cards.max_scroll_x
                    and row.hidden()[1] == 0, "the bottom in sight")
        # No chat line takes them in preparation (the game is silent from the deal).
        await pilot.press("slash", "home")
        await until(pilot, lambda: cards.scroll_x == 0, "the top in sight again")
        assert not screen.query_one("#table-chat", Input).has_focus


async def test_peek_and_talk_keys_come_and_go_with_the_mirror_and_the_speech_bubble() -> None:
    app = solo_app(3, {"level": 5})
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(pilot)
        table = game_of(app)
        # The bots hold still until Ann has talked (on a busy machine they played the
        # bubble before her line was typed), then play the specials.
        bots = {seat: held.bot for seat, held in enumerate(table.seats) if held.bot}
        for seat in bots:
            table.seats[seat].bot = None
        # Seat 1 (a bot) shows a mirror, seat 2 the speech bubble; Ann holds a 30.
        stack_getit_piles(table.game, [["30"], ["mirror", "4"], ["speech", "5"]],
                          now=engine_now(app))
        app.hosting.host.refresh(table)
        await until(pilot, lambda: screen.view.get("phase") == "play", "the round")
        await until(pilot, lambda: {"peek", "talk"} <= footer_keys(screen), "peek and talk")
        await pilot.press("p")
        await until(pilot, lambda: screen.view.get("peek") == {"kind": "number", "value": 30},
                    "our own card while peeking")
        assert "30" in str(screen.query_one("#my-back", Static).render())
        # Typed fast, the line's 1 and 2 are words, not looks at seats 1 and 2.
        await type_ahead(pilot, "t", "1", "2", "enter")
        talk = screen.query_one("#talk", Input)
        await until(pilot, lambda: any(s["text"] == "12" for s in screen.view["said"]),
                    "our line said")
        for seat, bot in bots.items():
            table.seats[seat].bot = bot
        app.hosting.host.refresh(table)
        # The bots play the specials; with the mirror and the bubble gone, so are the keys.
        await until_on_clock(pilot, screen, lambda: not any(
            p["top"] and p["top"]["kind"] != "number" for p in screen.view["piles"]),
            "specials played")
        await until(pilot, lambda: not {"peek", "talk"} & footer_keys(screen),
                    "peek and talk gone")
        assert screen.view.get("peek") is None and not talk.display
        # The peek is over: its value is gone from the screen (RULES.md).
        await until(pilot, lambda: "30" not in str(
            screen.query_one("#my-back", Static).render()), "the peeked value gone")
        assert "GET IT" in str(screen.query_one("#my-back", Static).render())


async def bubble_before_ann(pilot: Pilot[Any]) -> tuple[GetItScreen, Any]:
    """A level-5 round where Ann holds a 30, seat 2 shows the speech bubble, and the
    bots hold still (only the test moves them): the table once Ann may talk."""
    app = pilot.app
    screen = await open_table(pilot)
    table = game_of(app)
    for seat in table.seats:
        seat.bot = None
    stack_getit_piles(table.game, [["30"], ["4"], ["speech", "5"]], now=engine_now(app))
    app.hosting.host.refresh(table)
    await until(pilot, lambda: "talk" in footer_keys(screen), "the talk key")
    return screen, table


async def test_a_line_typed_when_talk_ends_never_reaches_the_table_keys() -> None:
    """The bubble is played while Ann types: the rest of her typing (a space would play
    her card) stays in the line, which Enter then closes without sending — told once
    (a second notice said again what the first had)."""
    app = solo_app(3, {"level": 5})
    notices = Notices()
    async with app.run_test(size=SIZE, message_hook=notices) as pilot:
        screen, table = await bubble_before_ann(pilot)
        await pilot.press("t", "h", "i")
        talk = screen.query_one("#talk", Input)
        assert screen.focused is talk
        events = table.game.act(2, {"type": "play"}, now=engine_now(app))  # the bubble
        app.hosting.host.refresh(table, events)
        await until(pilot, lambda: "talk" not in footer_keys(screen), "talk over")
        await pilot.press("space", "1", "space")
        await pilot.pause()
        assert screen.focused is talk and talk.value == "hi 1 "
        assert len(table.game.piles[0]) == 1 and table.game.signals["look"][0] is None
        await pilot.press("enter")
        await until(pilot, lambda: not talk.display, "the line closed")
        assert not any("hi" in s["text"] for s in screen.view.get("said") or [])
        assert len(table.game.piles[0]) == 1  # still not played
        told = [n for n in notices.raised if "Talk has ended" in str(n.message)]
        assert len(told) == 1, told


async def test_talk_pressed_just_after_it_ended_still_keeps_the_sentence_off_the_table() -> None:
    """Ann presses t a moment after the bubble was played (the key is dimmed by then):
    the line opens anyway, saying talk is over, and what she goes on typing (a space
    plays her card) stays in it until Enter closes it, unsent."""
    app = solo_app(3, {"level": 5})
    notices = Notices()
    async with app.run_test(size=SIZE, message_hook=notices) as pilot:
        screen, table = await bubble_before_ann(pilot)
        events = table.game.act(2, {"type": "play"}, now=engine_now(app))  # the bubble
        app.hosting.host.refresh(table, events)
        await until(pilot, lambda: "talk" not in footer_keys(screen), "talk over")
        await pilot.press("t", "h", "i", "space", "2", "space")
        await pilot.pause()
        talk = screen.query_one("#talk", Input)
        assert screen.focused is talk and talk.value == "hi 2 "
        assert any("Talk has ended" in str(n.message) for n in notices.raised)
        assert len(table.game.piles[0]) == 1 and table.game.signals["look"][0] is None
        await pilot.press("enter")
        await until(pilot, lambda: not talk.display, "the line closed")
        assert not any("hi" in s["text"] for s in screen.view.get("said") or [])
        assert len(table.game.piles[0]) == 1
        # Long after talk ended, t is only the dimmed key it is.
        screen.query_one(TalkLine).seen_until = 0.0
        await pilot.press("t")
        await pilot.pause()
        assert screen.focused is None and not talk.display


async def test_talk_opens_ahead_keeps_the_line_and_sends_it_once_the_bubble_shows() -> None:
    """Level 5, no speech bubble in sight yet: t opens the line all round (the footer
    shows it), Enter before the bubble shows says so and keeps the line, Esc closes it
    keeping it; when the bubble shows the waiting line says so, and t, Enter send it."""
    app = solo_app(3, {"level": 5})
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(pilot)
        table = piles_held_still(app, [["30"], ["40"], ["5", "speech"]])
        await until(pilot, lambda: screen.view.get("phase") == "play"
                    and "talk" in footer_keys(screen), "the talk key before the bubble")
        talk = screen.query_one(TalkLine)
        await pilot.press("t", "m")
        # The footer says what Enter does here: keeps the line for when talk opens.
        await until(pilot, lambda: "Keep for ✎" in footer_labels_in_view(app),
                    "Enter's words")
        assert talk.placeholder == TALK_AHEAD
        await pilot.press("e", "enter")
        await until(pilot, lambda: "Not sent yet, kept" in why_said(screen), "not yet")
        # Kept, and the keys are the table's again: a look key looks.
        await until(pilot, lambda: screen.focused is None and not talk.display, "closed")
        assert talk.value == "me" and not screen.view.get("said")
        events = table.game.act(2, {"type": "play"}, now=engine_now(app))  # the 5
        app.hosting.host.refresh(table, events)
        await until(pilot, lambda: talk.display and talk.has_class("-ready")
                    and "t, then Enter, sends your line" in why_said(screen), "the cue")
        # The kept line goes on where it was left (not replaced by what is typed).
        await pilot.press("t", "space", "2", "enter")
        await until(pilot, lambda: any(s["text"] == "me 2" and s["seat"] == 0
                                       for s in screen.view.get("said") or []), "said")
        assert talk.value == "" and screen.focused is None


async def test_the_talk_is_open_cue_goes_when_the_bubble_is_played(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """"Talk is open: t, then Enter, sends your line" stayed under our line after the
    bubble was played (and the log said talk had ended)."""
    from tui.games.getit.widgets import WhyLine

    monkeypatch.setattr(WhyLine, "LASTS", 600.0)  # (gone for its reason, not its time)
    app = solo_app(3, {"level": 5})
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(pilot)
        table = piles_held_still(app, [["30"], ["40"], ["5", "speech"]])
        await until(pilot, lambda: screen.view.get("phase") == "play"
                    and "talk" in footer_keys(screen), "the talk key before the bubble")
        await pilot.press("t", "m", "e", "escape")
        talk = screen.query_one(TalkLine)
        await until(pilot, lambda: screen.focused is None and not talk.display, "closed")
        events = table.game.act(2, {"type": "play"}, now=engine_now(app))  # the 5
        app.hosting.host.refresh(table, events)
        await until(pilot, lambda: "t, then Enter, sends your line" in why_said(screen),
                    "the cue")
        await pilot.press("t")  # the line has the keys: talk's end is told in a notice
        await until(pilot, lambda: talk.has_focus, "the line")
        events = table.game.act(2, {"type": "play"}, now=engine_now(app))  # the bubble
        app.hosting.host.refresh(table, events)
        await until(pilot, lambda: "Talk is open" not in why_said(screen), "the cue gone")
        await pilot.press("escape")
        await until(pilot, lambda: screen.focused is None, "the keys back")
        await pilot.press("enter")  # (a key that does nothing in a round says why)
        await until(pilot, lambda: "Space plays your top card" in why_said(screen), "Enter")


async def test_a_line_kept_ahead_outlives_a_round_the_bubble_never_showed_in() -> None:
    """Level 5, the bubble not dealt this round: Ann's line typed ahead is not dropped
    when the round ends without it. She is told, where it cannot be missed, that it was
    not said and waits for the next round."""
    app = solo_app(3, {"level": 5})
    notices = Notices()
    async with app.run_test(size=SIZE, message_hook=notices) as pilot:
        screen = await open_table(pilot)
        table = piles_held_still(app, [["30"], ["40"], ["5"]])
        await until(pilot, lambda: screen.view.get("phase") == "play"
                    and "talk" in footer_keys(screen), "the talk key before the bubble")
        talk = screen.query_one(TalkLine)
        await pilot.press("t", "m", "e", "escape")
        await until(pilot, lambda: screen.focused is None and not talk.display, "closed")
        for seat in (2, 0, 1):  # 5, 30, 40: the round is cleared, no bubble in it
            events = table.game.act(seat, {"type": "play"}, now=engine_now(app))
            app.hosting.host.refresh(table, events)
        # Told in the round's summary (a notice over it covered its lower edge).
        summary = await until(pilot, lambda: isinstance(app.screen, SummaryScreen)
                              and app.screen, "the summary")
        assert any("your line was not said" in str(part) for part in summary.body)
        assert not any("your line was not said" in str(n.message) for n in notices.raised)
        assert talk.value == "me" and not talk.display


async def test_the_talk_key_shows_only_while_talk_may_still_open() -> None:
    """Level 1 has no bubble, and once the bubble is played talk is over: t is not
    offered then, and says why."""
    app = solo_app(3, {"level": 5})
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(pilot)
        table = piles_held_still(app, [["30"], ["4"], ["speech", "5"]])
        await until(pilot, lambda: "talk" in footer_keys(screen), "the talk key")
        events = table.game.act(2, {"type": "play"}, now=engine_now(app))  # the bubble
        app.hosting.host.refresh(table, events)
        await until(pilot, lambda: "talk" not in footer_keys(screen), "talk over")
        screen.query_one(TalkLine).seen_until = 0.0  # (not a t pressed a moment late)
        await pilot.press("t")
        await until(pilot, lambda: "Talk is over this round" in why_said(screen), "why")
    app = solo_app(3, {"level": 1})
    async with app.run_test(size=SIZE) as pilot:
        screen, _ = await a_still_table(pilot, app)
        await until(pilot, lambda: screen.view.get("phase") == "play", "the round")
        assert "talk" not in footer_keys(screen)


@pytest.mark.parametrize(("timer", "piles", "hint"), [
    # Untimed: the bots hold the bubble TALK_HOLD seconds for a person's line.
    (0, [["30"], ["4"], ["speech", "5"]], f"the bots wait about {TALK_HOLD:.0f} s for you"),
    # 10 cards in 10 s: the timer leaves the bots no time to wait, and none is promised.
    (10, [["30", "31", "32", "33"], ["4", "6", "7"], ["speech", "5", "8"]],
     "✎ talk is open: t to talk"),
])
async def test_the_talk_line_says_how_long_the_bots_wait_for_a_line(
    timer: int, piles: list[list[str]], hint: str
) -> None:
    app = solo_app(3, {"level": 5, "bots": "relaxed", "timer": timer})
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(pilot)
        piles_held_still(app, piles)
        talk = screen.query_one(TalkLine)
        await until(pilot, lambda: talk.display and screen.can("say"), "the bubble")
        assert hint in talk.placeholder
        assert ("wait" in talk.placeholder) == ("wait" in hint)
        await pilot.press("t")
        await until(pilot, lambda: talk.placeholder == TALK_OPEN, "typing")


async def test_a_talk_line_that_loses_the_keys_holds_the_round_keys_back_a_moment() -> None:
    """The terminal loses the focus while Ann types and talk ends meanwhile: when it
    comes back, the rest of her sentence (a space plays her card) must not reach the
    round's keys; after a moment they work again."""
    from textual import events

    app = solo_app(3, {"level": 5})
    async with app.run_test(size=SIZE) as pilot:
        screen, table = await bubble_before_ann(pilot)
        await pilot.press("t", "h", "i")
        talk = screen.query_one("#talk", Input)
        app.post_message(events.AppBlur())
        await until(pilot, lambda: screen.focused is None, "the focus gone")
        events_ = table.game.act(2, {"type": "play"}, now=engine_now(app))  # the bubble
        app.hosting.host.refresh(table, events_)
        await until(pilot, lambda: not talk.display, "the line closed")
        app.post_message(events.AppFocus())
        await pilot.press("space", "2")
        await pilot.pause()
        assert screen.focused is None  # not the hidden line: nothing typed goes unseen
        assert len(table.game.piles[0]) == 1 and table.game.signals["look"][0] is None
        assert "play" not in footer_keys(screen)
        screen.query_one(TalkLine).keys_wait_until = 0.0  # the moment is over
        screen.refresh_bindings()
        await until(pilot, lambda: "play" in footer_keys(screen), "the play key again")
        await pilot.press("2")
        await until(pilot, lambda: table.game.signals["look"][0] == 1, "the look")


@contextlib.asynccontextmanager
async def lone_sand_timer(monkeypatch: pytest.MonkeyPatch,
                          start: float = 0.0) -> AsyncIterator[tuple[SandTimer, list[float]]]:
    """A sand timer alone in an app, on a clock the test sets (``now[0]``)."""
    now = [start]
    monkeypatch.setattr(SandTimer, "clock", staticmethod(lambda: now[0]))
    app: App[None] = App()
    async with app.run_test() as pilot:
        timer = SandTimer()
        await app.screen.mount(timer)
        yield timer, now
        await pilot.pause()


async def test_the_sand_timer_counts_from_each_reading_and_stands_still_when_paused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A host resumed after a crash sends the seconds it had (the same as its last
    update): the countdown starts from them again, and stands while the game waits."""
    async with lone_sand_timer(monkeypatch, 100.0) as (timer, now):
        timer.remaining = 53.0
        now[0] += 17  # the host is gone; this machine counts on
        assert timer.left() == pytest.approx(36.0)
        timer.paused = True
        timer.remaining = 53.0  # the resumed host, waiting for its players
        now[0] += 30
        assert timer.left() == pytest.approx(53.0)
        assert "paused" in str(timer.render())
        timer.paused = False
        timer.remaining = 53.0  # everyone is back
        now[0] += 3
        assert timer.left() == pytest.approx(50.0)


async def test_the_sand_timer_wakes_only_when_what_it_shows_changes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """It woke four times a second, untimed too: at a box's tables every app did, for
    nothing. It wakes as its seconds or its bar change, and not at all while it stands."""
    async with lone_sand_timer(monkeypatch) as (timer, now):
        assert timer.until_change() is None  # untimed
        timer.total = 60.0
        timer.remaining = 41.5
        assert timer.until_change() == pytest.approx(0.5, abs=0.01)  # 0:42 → 0:41
        shown = timer.render().plain
        now[0] += timer.until_change() or 0
        assert timer.render().plain != shown
        timer.total = 45.0  # a cell of the bar is 3 s: it goes between two seconds
        timer.remaining = 28.9  # 0:29, 10 cells; the 10th goes at 28.5, before 0:28
        assert timer.until_change() == pytest.approx(0.4, abs=0.01)
        before = timer.render().plain
        now[0] += timer.until_change() or 0
        after = timer.render().plain
        assert after.count("█") == before.count("█") - 1 and "0:29" in after
        timer.paused = True
        assert timer.until_change() is None  # held: nothing changes
        timer.paused = False
        timer.remaining = 0.0
        assert timer.until_change() is None  # over


async def test_a_reading_that_shows_the_same_does_not_draw_the_timer_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every update of a timed round brings the host's reading: the timer is drawn again
    when what it shows changes, and not otherwise (each drawing widened the frame's work
    to everything between the top line and the change the update was for)."""
    drawn: list[str] = []
    render = SandTimer.render

    def counted(self: SandTimer) -> Any:
        text = render(self)
        drawn.append(text.plain)
        return text

    monkeypatch.setattr(SandTimer, "render", counted)
    monkeypatch.setattr(SandTimer, "clock", staticmethod(lambda: 100.0))
    app: App[None] = App()
    async with app.run_test() as pilot:
        timer = SandTimer()
        timer.paused = True  # (held: it draws for no tick of its own meanwhile)
        await app.screen.mount(timer)
        timer.remaining = 41.5
        await until(pilot, lambda: drawn and "0:42" in drawn[-1], "the timer at 0:42")
        count = len(drawn)
        for reading in (41.2, 41.3, 41.3):  # still 0:42, the same bar
            timer.remaining = reading
            await pilot.pause()
        assert len(drawn) == count
        timer.remaining = 35.0
        await until(pilot, lambda: "0:35" in drawn[-1], "the timer at 0:35")


async def test_the_sand_timer_says_when_time_runs_out_without_colour(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In the last ten seconds the clock is marked and reversed (not only a colour or a
    last cell of the bar): a player lost a round at 0:05 with the timer looking as at 0:55."""
    async with lone_sand_timer(monkeypatch) as (timer, now):
        timer.remaining = 55.0
        calm = timer.render()
        assert calm.plain.startswith("time 0:55 ") and "▶" not in calm.plain
        assert not any("reverse" in str(span.style) for span in calm.spans)
        now[0] += 50
        low = timer.render()
        assert low.plain.startswith("▶ time 0:05 ◀")
        assert any("reverse" in str(span.style) and low.plain[span.start:span.end]
                   .startswith("▶ time") for span in low.spans)
        assert cell_len(low.plain) <= cell_len(calm.plain) + 4
        now[0] += 10  # over: nothing left to hurry for
        assert "▶" not in timer.render().plain


@pytest.mark.parametrize("size", [(40, 30), (45, 24)])
async def test_on_a_phone_every_other_pile_is_in_sight_and_the_top_line_is_whole(
        size: tuple[int, int]) -> None:
    """Below 42 columns only the first other pile was drawn (the cards' least width
    pushed the rest out of the row), and the top line ran into the timer
    ("Level 1 · trytime 0:52")."""
    from tui.games.getit.seatcard import SeatCard

    app = solo_app(6, {"level": 1, "timer": 60})
    async with app.run_test(size=size) as pilot:
        screen = await open_table(pilot)
        await arrange_as_dealt(pilot, screen)
        cards = await until(pilot, lambda: [c for c in screen.query(SeatCard)
                                            if c.region.width] or None, "the seats")
        assert len(cards) == 5 and all(c.region.right <= size[0] for c in cards)
        status = screen.query_one("#getit-status", Static)
        timer = screen.query_one(SandTimer)
        await until(pilot, lambda: timer.region.width and timer.display, "the timer")
        assert status.region.right < timer.region.x
        # The line is whole: the cards left and the attempt, no "…" (it read
        # "10/10 left…" and "try…").
        words = str(status.render())
        assert "…" not in words and "10 left" in words and "try 1/2" in words, words
        assert "10/10" in words or size[0] < 45  # (the total, where there is room)


async def test_every_key_of_a_round_fits_the_footer_at_80_columns() -> None:
    app = solo_app(3, {"level": 5})
    notices = Notices()
    async with app.run_test(size=(80, 24), message_hook=notices) as pilot:
        screen = await open_table(pilot)
        table = game_of(app)
        for seat in table.seats:
            seat.bot = None
        stack_getit_piles(table.game, [["30"], ["mirror", "4"], ["speech", "5"]],
                          now=engine_now(app))
        app.hosting.host.refresh(table)
        await until(pilot, lambda: {"peek", "talk"} <= footer_keys(screen), "peek and talk")
        # Smile and look past work all round: before we look at someone, they say to.
        def aim_lit() -> bool:
            return any(b.enabled for b in screen.active_bindings.values()
                       if b.binding.action.startswith("aim("))

        assert "aim" in footer_keys(screen) and aim_lit()
        await pilot.press("s")
        await until(pilot, lambda: "Look at someone first" in why_said(screen), "what s needs")
        assert table.game.signals["smile"][0] is None
        await pilot.press("2")  # look at Bot 2
        await until(pilot, lambda: aim_lit() and "stop_signals" in footer_keys(screen),
                    "s and x")
        assert "Look at someone first" not in why_said(screen)  # done: not said on
        await pilot.press("s")
        await until(pilot, lambda: table.game.signals["smile"][0] == 1, "a smile at Bot 2")
        await pilot.pause()
        shown = footer_labels_in_view(app)
        for label in ("Play", "Look at", "Stop all", "Smile", "Look past", "Peek", "Talk"):
            assert label in shown, shown


async def test_to_you_counts_what_the_others_do_to_you() -> None:
    view = {"seat": 2, "signals": [
        {"look": 2, "smile": 2, "look_past": None, "peek": True},
        {"look": 2, "smile": None, "look_past": 0, "peek": True},
        {"look": 0, "smile": 0, "look_past": 1, "peek": False},  # our own: not counted
        {"look": 1, "smile": 2, "look_past": 2, "peek": True},
    ]}
    facts = to_you(view, talkers={1, 2})
    assert (facts.others, facts.look, facts.smile, facts.look_past, facts.peek, facts.talk) == (
        3, 2, 2, 1, 3, 1)
    assert [w for w, _ in facts.parts()] == ["2 of 3 look at you", "2 of 3 smile at you",
                                             "1 of 3 looks past you", "all 3 peek",
                                             "1 of 3 talks"]
    assert [unanimous for _, unanimous in facts.parts()] == [False, False, False, True, False]
    app = solo_app(3, {"level": 1})
    async with app.run_test(size=SIZE) as pilot:
        screen, table = await a_still_table(pilot, app)
        # The footer names the players there are to look at (Ann is player 1 of 3).
        from tui.widgets.footer import TableFooter

        looks = await until(pilot, lambda: [k for k in screen.query_one(TableFooter).entries
                                            if k.action == "look(1)"], "the look key")
        assert [k.display for k in looks] == ["2-3"]
        assert screen.check_action("look", (4,)) is False  # no player 4 here
        assert screen.check_action("look", (1,)) is True
        assert number_ranges([1, 3, 4]) == "1,3-4" and number_ranges([2]) == "2"
        # Both bots look at Ann: the screen says so in words, and marks it as unanimous.
        for seat in (1, 2):
            if table.game.signals["look"][seat] != 0:
                table.game.act(seat, {"type": "look", "target": 0}, now=engine_now(app))
        app.hosting.host.refresh(table)
        await until(pilot, lambda: "ALL 2 LOOK AT YOU" in str(
            screen.query_one("#to-you", Static).render()), "the TO YOU line")
        # A click on a player looks at them; a second click looks at nobody.
        await pilot.click("#seat-2")
        await until(pilot, lambda: table.game.signals["look"][0] == 2, "Ann looks at seat 3")
        await pilot.click("#seat-2")
        await until(pilot, lambda: table.game.signals["look"][0] is None, "Ann looks away")
        # … and says so (a number pressed twice stopped a look without a word).
        assert "You look at nobody now (3 again stops a look)." in why_said(screen)
        # Ann looks at and smiles at a bot whose card is right to play; once it plays,
        # both signals end: they were about the card that is gone.
        holders = [h for h in table.game.correct_holders() if h != 0]
        assert holders, "this seed should give a bot the lowest card"
        bot = holders[0]
        await pilot.press(str(bot + 1), "s")
        await until(pilot, lambda: table.game.signals["smile"][0] == bot, "Ann smiles at it")
        events = table.game.act(bot, {"type": "play"}, now=engine_now(app))
        app.hosting.host.refresh(table, events)
        await until(pilot, lambda: table.game.signals["look"][0] is None
                    and table.game.signals["smile"][0] is None, "Ann's signals ended")
        # 0 stops every signal at once.
        await pilot.press("3", "s", "x")
        await until(pilot, lambda: table.game.signals["look_past"][0] == 2, "Ann looks past")
        await pilot.press("0")
        await until(pilot, lambda: [table.game.signals[k][0] for k in
                                    ("look", "smile", "look_past")] == [None] * 3,
                    "every signal stopped")


async def test_signals_are_not_shown_once_the_round_is_over() -> None:
    app = solo_app(3, {"level": 1})
    async with app.run_test(size=SIZE) as pilot:
        screen, table = await a_still_table(pilot, app)
        game = table.game
        if game.signals["look"][1] != 2:
            game.act(1, {"type": "look", "target": 2}, now=engine_now(app))
        app.hosting.host.refresh(table)

        def seat_text() -> str:  # what seat 2's card (the bot's) says
            return screen.query_one("#seat-1", SeatCard).signal_text.plain

        await until(pilot, lambda: "looks at" in seat_text(), "the look on seat 2's card")
        wrong = next(h for h in range(3) if h not in game.correct_holders()
                     and game.top(h) is not None)
        events = game.act(wrong, {"type": "play"}, now=engine_now(app))  # the round is lost
        app.hosting.host.refresh(table, events)
        await until(pilot, lambda: screen.view.get("phase") == "round_over", "the round's end")
        await pilot.pause()
        assert game.signals["look"][1] == 2  # the engine still has it …
        assert "looks at" not in seat_text()  # … but it is about nothing now
        # The card that lost the round is marked among those played (it read "1 2").
        played = str(screen.query_one("#played").render())
        assert played.split()[-1].startswith("✗"), played


async def seat_2_shows_a_2(pilot: Pilot[Any], app: HiddenHandApp) -> tuple[GetItScreen, Any]:
    """Seat 2 (a bot holding still) shows a 2, with an 8 under it; the screen and table."""
    screen = await open_table(pilot)
    table = piles_held_still(app, [["5", "9"], ["2", "8"], ["6", "7"]])
    await until(pilot, lambda: (screen.view["piles"][1].get("top") or {}).get("value")
                == 2, "seat 2's 2")
    return screen, table


async def seat_2_plays_it(pilot: Pilot[Any], app: HiddenHandApp, screen: GetItScreen,
                          table: Any) -> None:
    """Seat 2 plays its 2; back once the screen shows the 8 under it."""
    events = table.game.act(1, {"type": "play"}, now=engine_now(app))
    app.hosting.host.refresh(table, events)
    await until(pilot, lambda: (screen.view["piles"][1].get("top") or {}).get("value")
                == 8, "seat 2's 8")


async def test_a_look_that_reaches_the_host_after_its_player_played_is_refused() -> None:
    """A look pressed just before its player played reached the host after the play and
    landed on the next card, which the looker never saw (everyone saw it a moment):
    it names the card it was about, the host refuses it, and our line says so."""
    app = solo_app(3, {"level": 1})
    async with app.run_test(size=SIZE) as pilot:
        screen, table = await seat_2_shows_a_2(pilot, app)
        game = table.game
        pressed = about_card({"type": "look", "target": 1}, screen.view)  # about the 2
        await seat_2_plays_it(pilot, app, screen, table)  # … as it is played
        notes: list[Any] = []
        screen.notify = lambda *a, **k: notes.append(a)  # type: ignore[method-assign]
        screen.signals.sent("look", 1)
        screen._redraw()  # shown at once, as the key shows it
        assert "looking at" in screen_text(screen.my_place)
        screen.act(pressed, wait=False)  # the look arrives after the play
        name = screen.names[1]
        await until(pilot, lambda: f"{name} played before your look arrived" in
                    why_said(screen), "why the look did not land")
        assert game.signals["look"][screen.my_seat] is None
        assert screen.signals.mine(screen.view, screen.my_seat, "look") is None
        assert notes == []  # said on our line, not as an error
        # Nor does the screen show it any more: not on our line, not on the card.
        await until(pilot, lambda: "looking at" not in screen_text(screen.my_place)
                    and "you look" not in screen_text(screen.query_one("#seat-1")),
                    "the look gone from the screen")


async def test_a_look_just_after_its_card_was_played_says_it_is_on_the_next(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A look pressed a moment after its player played (for the card just gone) landed
    on their next card without a word (a fresh-eyed pass): our line says where it went.
    A look long after the change says nothing."""
    from tui.games.getit import signals as signals_module

    # (However slow the machine, the key comes "just after": no race with the clock.)
    monkeypatch.setattr(signals_module, "NEWLY", 3600.0)
    app = solo_app(3, {"level": 1})
    async with app.run_test(size=SIZE) as pilot:
        screen, table = await seat_2_shows_a_2(pilot, app)
        game = table.game
        await seat_2_plays_it(pilot, app, screen, table)
        await pilot.press("2")
        name = screen.names[1]
        await until(pilot, lambda: f"{name}'s top card changed a moment ago: your look is on "
                    "their 8 now (0 stops it)." in why_said(screen), "where the look went")
        await until(pilot, lambda: game.signals["look"][screen.my_seat] == 1, "the look")
        # Long after a change (here: any time after it), a look says nothing.
        monkeypatch.setattr(signals_module, "NEWLY", 0.0)
        await pilot.press("3")
        await until(pilot, lambda: game.signals["look"][screen.my_seat] == 2, "the look")
        assert "changed a moment ago" not in why_said(screen)


async def test_a_look_and_smile_at_a_smile_just_shown_are_meant_for_it_without_a_warning(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A ☺ just shown asks for a look and a smile: given at once, our line said "Bot 2's
    top card changed a moment ago: your smile is on their ☺", as if it were a slip."""
    from tui.games.getit import signals as signals_module

    monkeypatch.setattr(signals_module, "NEWLY", 3600.0)  # (every key "just after")
    app = solo_app(3, {"level": 2})
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(pilot)
        table = piles_held_still(app, [["5", "9"], ["2", "smile"], ["6", "7"]])
        await until(pilot, lambda: (screen.view["piles"][1].get("top") or {}).get("value")
                    == 2, "seat 2's 2")
        events = table.game.act(1, {"type": "play"}, now=engine_now(app))
        app.hosting.host.refresh(table, events)
        await until(pilot, lambda: (screen.view["piles"][1].get("top") or {}).get("kind")
                    == "smile", "seat 2's smile")
        await pilot.press("2", "s")
        game = table.game
        await until(pilot, lambda: game.signals["smile"][screen.my_seat] == 1, "the smile")
        assert "changed a moment ago" not in why_said(screen)


async def test_a_smile_at_a_number_is_sent_and_our_line_tells_the_custom_once() -> None:
    """A newcomer's smile at a player showing a number was taken without a word: it is
    still sent (what a signal means is the players' business), and our line says, once
    a table, what the rules' custom keeps a smile (a look past) for."""
    app = solo_app(3, {"level": 2})
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(pilot)
        table = piles_held_still(app, [["5", "9"], ["2", "8"], ["smile", "7"]])
        game = table.game
        await until(pilot, lambda: (screen.view["piles"][2].get("top") or {}).get("kind")
                    == "smile", "seat 3's smile")
        name = screen.names[1]
        await pilot.press("2", "s")
        await until(pilot, lambda: game.signals["smile"][screen.my_seat] == 1, "the smile")
        assert why_said(screen) == (
            f"▸ {name} shows 2: the rules' custom keeps a smile for a ☺ card.")
        await pilot.press("3", "s")  # at a ☺: nothing to tell
        await until(pilot, lambda: game.signals["smile"][screen.my_seat] == 2, "the smile")
        assert why_said(screen) == ""
        await pilot.press("2", "s")  # told once a table
        await until(pilot, lambda: game.signals["smile"][screen.my_seat] == 1, "the smile")
        assert why_said(screen) == ""
        await pilot.press("x")
        await until(pilot, lambda: game.signals["look_past"][screen.my_seat] == 1, "look past")
        assert why_said(screen) == (
            f"▸ {name} shows 2: the rules' custom keeps a look past for a ◉ card.")


async def test_a_level_x_record_is_saved_and_shown_after_a_restart(config_dir: Path) -> None:
    # A timed round (an untimed one sets no record), with an hour: never a race.
    app = solo_app(3, {"level": "X", "cards": 3, "timer": 3600})
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(pilot)
        assert "no record yet" in str(screen.query_one("#getit-status", Static).render())
        await arrange_as_dealt(pilot, screen)
        await play_like_a_person(pilot, screen, game_of(app))
        # Mounted, not only pushed: leaving the app while the summary still mounts its
        # buttons failed its on_mount now and then (it focuses one of them).
        summary = await until(pilot, lambda: isinstance(app.screen, SummaryScreen)
                              and app.screen.is_mounted and app.screen, "the summary")
        assert "New record for 3 players: 3 cards" in str(summary.body[0]), summary.body
    assert (config_dir / "getit_records.json").exists()
    again = solo_app(3, {"level": "X", "cards": 4}, seed=6)
    async with again.run_test(size=SIZE) as pilot:
        screen = await open_table(pilot)
        assert "record 3 cards" in str(screen.query_one("#getit-status", Static).render())
        assert game_of(again).game.options["best"] == 3  # passed in to the engine


def test_the_lobby_summary_leaves_out_what_the_app_fills_in() -> None:
    from tui.screens.lobby import describe_options

    text = describe_options("getit", {"level": "X", "cards": 30, "timer": 60, "best": 41})
    assert "level" in text and "cards 30" in text and "timer" in text
    # The record to beat, as words (it showed only once the round was dealt).
    assert "best" not in text and "cards 30 · record 41 cards · timer" in text, text
    # How many cards Level X deals says nothing at level 1 (it deals 10).
    assert describe_options("getit", {"level": 1, "cards": 30}) == (
        "level 1 · timer 60 s · bots quick · away bot off")
    # "timer 0" said nothing to a player (a fresh-eyed pair).
    assert "timer off (untimed)" in describe_options("getit", {"timer": 0})
    # A lone "X", last in the level's drop-down at 80×24, read as the footer's ^X.
    assert "level X (all 59 cards) · cards 30" in text, text


async def test_an_untimed_level_x_round_is_no_new_record(config_dir: Path) -> None:
    app = solo_app(3, {"level": "X", "cards": 3})  # timer 0: practice
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(pilot)
        await arrange_as_dealt(pilot, screen)
        await play_like_a_person(pilot, screen, game_of(app))
        summary = await until(pilot, lambda: isinstance(app.screen, SummaryScreen)
                              and app.screen.is_mounted and app.screen, "the summary")
        text = " ".join(str(part) for part in summary.body)
        result = game_of(app).game.result
        assert result["won"] and result["cards"] == 3 and not result["new_best"]
        assert "New record" not in text
        assert "No record yet for 3 players. An untimed round sets no record." in text
        assert not (config_dir / "getit_records.json").exists()


def test_a_player_signalling_nothing_is_told_to_look_at_who_should_play() -> None:
    from tui.games.getit.text import my_signals
    from tui.notices import Namer

    none = {"look": None, "smile": None, "look_past": None, "peek": False}
    view: dict[str, Any] = {"seat": 1, "phase": "play",
                            "signals": [dict(none), dict(none), dict(none)]}
    namer = Namer(["Ann", "Bob", "Cy"])
    assert my_signals(view, namer) == (
        "no signal — look (1,3) at who should play")
    assert my_signals({**view, "phase": "over"}, namer) == "no signal"  # nothing to wait for
    # Everyone looks at us: the line says what they wait for.
    looked_at = [{**none, "look": 1}, dict(none), {**none, "look": 1}]
    assert my_signals({**view, "signals": looked_at}, namer) == (
        "all look at you: play your top card (Space)")
    looked_at[2]["look"] = 0
    assert my_signals({**view, "signals": looked_at}, namer) == (
        "no signal — look (1,3) at who should play")
    # Only players with cards left are worth a look; with none left but ours: play.
    view["piles"] = [{"count": 0, "top": None}, {"count": 2, "top": None},
                     {"count": 1, "top": None}]
    assert my_signals(view, namer) == (
        "no signal — look (3) at who should play")
    view["piles"][2]["count"] = 0
    assert my_signals(view, namer) == (
        "every other pile is empty: the rest are yours to play (Space)")
    view["piles"][1]["count"] = 0
    assert my_signals(view, namer) == "no signal"  # nothing left to play
    view["signals"][1]["look"] = 2
    assert my_signals(view, namer) == "looking at Cy"


def test_a_special_card_in_sight_is_named_with_the_keys_it_asks_for() -> None:
    """A newcomer saw a smile on a pile and did not know how to smile at its holder: our
    line names the card, its holder and the keys; once we look at them, the one key
    left; a mirror or the speech bubble, theirs. And whatever we signal, it says play
    when everyone smiles at, looks past, peeks at or looks at us."""
    from tui.games.getit.text import my_signals
    from tui.notices import Namer

    none = {"look": None, "smile": None, "look_past": None, "peek": False}
    namer = Namer(["Ann", "Bob", "Cy"])

    def view(kind: str, mine: dict[str, Any] | None = None) -> dict[str, Any]:
        return {"seat": 1, "phase": "play",
                "signals": [dict(none), {**none, **(mine or {})}, dict(none)],
                "piles": [{"count": 2, "top": {"kind": "number", "value": 9}},
                          {"count": 2, "top": None}, {"count": 2, "top": {"kind": kind}}]}

    assert my_signals(view("smile"), namer) == "no signal — ☺ on 3: look (3), then smile (s)"
    assert my_signals(view("eyes"), namer) == (
        "no signal — ◉ on 3: look (3), then look past (x)")
    assert my_signals(view("smile", {"look": 2}), namer) == (
        "looking at Cy's ☺ — ☺ on 3: smile (s)")
    assert my_signals(view("smile", {"look": 2, "smile": 2}), namer) == (
        "looking at Cy's ☺ · smiling at Cy")
    assert my_signals(view("smile", {"look": 0}), namer) == (
        "looking at Ann's 9 — ☺ on 3: look (3), then smile (s)")
    assert my_signals(view("mirror"), namer) == (
        "no signal — ◧ mirror in sight: peek at your card (p)")
    assert my_signals(view("mirror", {"peek": True}), namer) == "peeking"
    emptied = view("mirror")
    emptied["piles"][1]["count"] = 0  # no card of ours left: nothing to peek at
    assert "peek" not in my_signals(emptied, namer)
    assert my_signals(view("speech"), namer) == "no signal — ✎ speech bubble in sight: talk (t)"
    # Once we talked, the bubble asks nothing more of us (it said "talk (t)" on).
    assert "talk (t)" not in my_signals({**view("speech"), "talkers": [1]}, namer)
    # Everyone talking to us (RULES.md: everyone talks → you hold it) says play, as
    # everyone's smile does; some of them, to wait; talk of a bubble we see, nothing.
    talking = view("smile", {"look": 0})
    talking["piles"][2]["top"] = {"kind": "number", "value": 30}
    assert my_signals({**talking, "talkers": [0, 2]}, namer) == (
        "looking at Ann's 9 — all talk (you hold the speech bubble): play your top card"
        " (Space)")
    assert my_signals({**talking, "talkers": [0]}, namer) == (
        "looking at Ann's 9 — 1 of 2 talks: play when all do")
    assert my_signals({**view("speech", {"look": 0}), "talkers": [0]}, namer) == (
        "looking at Ann's 9 — ✎ speech bubble in sight: talk (t)")
    # Everyone smiling, looking past or peeking at us says play, whatever we signal
    # (a player looking elsewhere was told nothing while the table waited for them).
    for kind, words in (("smile", "all smile at you"), ("look_past", "all look past you"),
                        ("look", "all look at you")):
        unanimous = view("eyes" if kind == "look_past" else "smile", {"look": 0})
        unanimous["signals"][0][kind] = 1
        unanimous["signals"][2][kind] = 1
        assert my_signals(unanimous, namer) == (
            f"looking at Ann's 9 — {words}: play your top card (Space)")
    # Some, not all: the line says to wait for the rest (it said to look elsewhere).
    some = view("eyes", {"look": 0})
    some["signals"][0]["smile"] = 1
    some["piles"][2]["top"] = {"kind": "number", "value": 30}
    assert my_signals(some, namer) == (
        "looking at Ann's 9 — 1 of 2 smiles at you: play when all do")
    # Not at a level without the card: no card of ours answers a smile at level 1 (a
    # look past there read "play when all do"; a fresh-eyed pass).
    assert "play when all do" not in my_signals({**some, "level": 1}, namer)
    assert "play when all do" in my_signals({**some, "level": 2}, namer)
    # Level 6's doubles: two equal numbers lowest in sight, either may go first (the
    # screen never said so), until we look at one of them.
    double = {"seat": 3, "phase": "play", "signals": [dict(none) for _ in range(4)],
              "piles": [{"count": 2, "top": {"kind": "number", "value": 6}},
                        {"count": 2, "top": {"kind": "number", "value": 6}},
                        {"count": 2, "top": {"kind": "number", "value": 9}},
                        {"count": 2, "top": None}]}
    four = Namer(["Ann", "Bob", "Cy", "Di"])
    assert my_signals(double, four) == (
        "no signal — two 6s show (on 1 and 2): either may go first; look at one")
    double["signals"][3]["look"] = 1
    assert my_signals(double, four) == "looking at Bob's 6"
    double["signals"][3]["look"] = 2  # (at the 9: the doubles are lower)
    assert "two 6s show (on 1 and 2)" in my_signals(double, four)
    # Peeks at a mirror we see on another pile say nothing of ours.
    mirror = view("mirror", {"look": 0})
    mirror["signals"][0]["peek"] = True
    assert my_signals(mirror, namer) == (
        "looking at Ann's 9 — ◧ mirror in sight: peek at your card (p)")
    peeked = view("smile", {"look": 0})
    peeked["signals"][0]["peek"] = peeked["signals"][2]["peek"] = True
    assert my_signals(peeked, namer) == (
        "looking at Ann's 9 — all peek (you hold the mirror): play your top card (Space)")
    # Our own line at 80 columns stays on one line.
    from tui.games.getit.signals import SignalState

    names = Namer(["Ann the first", "Bob", "Bot 3 the slow"])
    line = SignalState().my_line(view("smile"), 1, names, 78)
    assert len(line) <= 78, line
    # Where what we signal and what the table asks do not both fit, the ask comes first.
    line = SignalState().my_line(unanimous, 1, names, 78)
    assert line == "you (2): all look at you: play your top card (Space) · 2 in your pile"
    assert len(SignalState().my_line(unanimous, 1, names, 200)) > 78
    # Narrower (the line beside our pile at 80×24 is 68 cells): the count goes too.
    assert SignalState().my_line(unanimous, 1, names, 68) == (
        "you (2): all look at you: play your top card (Space)")


def test_the_played_row_fits_its_line_and_says_when_the_oldest_gave_way() -> None:
    from tui.games.getit.text import played_line

    cards = [{"kind": "number", "value": v} for v in range(1, 41)] + [{"kind": "smile"}]
    assert played_line([], 40) == "played: nothing yet"
    assert played_line(cards[:3], 40) == "played: 1 2 3"
    line = played_line(cards, 40)
    assert len(line) <= 40 and line.startswith("played: … ") and line.endswith("39 40 ☺")
    shown = line.removeprefix("played: … ").split()
    assert shown == [c for c in [str(v) for v in range(1, 41)] + ["☺"]][-len(shown):]
    assert len(played_line(cards, 200)) < 200 and "…" not in played_line(cards, 200)


async def test_the_played_row_shows_more_cards_once_the_terminal_is_wider() -> None:
    """Fitted when drawn, not when the last card came: after a resize to 200 columns the
    whole row shows (a player saw '… 5 6 7' with 120 columns free)."""
    from textual.app import App

    from tui.games.getit.mine import PlayedRow

    cards = [{"kind": "number", "value": v} for v in range(1, 41)]
    app: App[None] = App()
    async with app.run_test(size=(60, 5)) as pilot:
        row = PlayedRow()
        await app.screen.mount(row)
        row.show(cards)
        await pilot.pause()
        assert str(row.render()).startswith("played: … ")
        await pilot.resize_terminal(200, 5)
        await pilot.pause()
        assert str(row.render()) == "played: " + " ".join(str(v) for v in range(1, 41))


def test_the_log_names_a_round_by_what_the_top_line_says_not_the_engines_count() -> None:
    from tui.games.getit.text import describe_event
    from tui.notices import Namer

    # The engine's round 2 is level 2's first attempt here: the log does not say "2".
    line = describe_event({"type": "round_started", "round": 2}, Namer(["Ann", "Bob"]))
    assert line == "The round starts: every top card shows."
    # A player reads where the piles went (it was a notice over the log and chat line).
    line = describe_event({"type": "round_started", "round": 2},
                          Namer(["Ann", "Bob", "Cy"], me=0))
    assert line.endswith("You hold Cy's pile; yours went to Bob.")
    # A deal tells a player to arrange, a spectator that the players do (it told them).
    dealt = {"type": "dealt", "level": 1, "attempt": 1}
    assert describe_event(dealt, Namer(["Ann", "Bob"], me=0)).endswith("arrange your pile")
    assert describe_event(dealt, Namer(["Ann", "Bob"])).endswith("the players arrange")


def test_the_mirror_s_line_says_who_was_peeking() -> None:
    """The line named nobody: on whose peeks the mirror was played went unsaid, where a
    smile's play says who smiled."""
    from tui.games.getit.text import describe_event
    from tui.notices import Namer

    names = Namer(["Ann", "Bob", "Cy"], me=0)
    line = describe_event({"type": "peeks_ended", "seats": [2, 0]}, names)
    assert line == "The mirror was played: every peek ends (Cy and you were peeking)"
    line = describe_event({"type": "peeks_ended", "seats": [1]}, names)
    assert line == "The mirror was played: every peek ends (Bob was peeking)"
    line = describe_event({"type": "peeks_ended", "seats": []}, names)
    assert line == "The mirror was played: every peek ends (nobody was peeking)"


def test_a_cleared_rounds_summary_lays_open_no_empty_piles() -> None:
    from rich.console import Console

    from tui.games.getit.summary import headline, round_summary
    from tui.notices import Namer

    def shown(view: dict[str, Any]) -> str:
        screen = round_summary(view, ["Ann", "Bob"], 0, can_deal=True, can_lobby=True)
        console = Console(width=80, record=True)
        for part in screen.body:
            console.print(part)
        return console.export_text()

    base = {"phase": "round_over", "level": 2, "won": True, "timer": 60}
    cleared = shown({**base, "piles": [{"count": 0}, {"count": 0}],
                     "reveal": {"piles": [None, []]}})
    assert "Every card was played." in cleared and "laid open" not in cleared
    lost = shown({**base, "won": False, "piles": [{"count": 0}, {"count": 1}],
                  "reveal": {"piles": [None, [{"kind": "number", "value": 7}]]}})
    assert "laid open" in lost and "7" in lost and "(all played)" in lost
    # Our own pile is never shown (RULES.md), the round over too: how many it holds is.
    mine = shown({**base, "won": False, "piles": [{"count": 2}, {"count": 0}],
                  "reveal": {"piles": [None, []]}})
    assert "2 cards (the pile you held: never shown to you)" in mine, mine
    wrong = {"seat": 1, "card": {"kind": "number", "value": 9},
             "expected": [{"seat": 0, "card": None}]}
    wrong_mine = {"seat": 0, "card": {"kind": "number", "value": 6}, "expected": []}
    ours = shown({**base, "won": False, "piles": [{"count": 2}, {"count": 0}],
                  "reveal": {"piles": [None, []], "wrong": wrong_mine}})
    assert "✗6 played · 2 cards (the pile you held" in ours, ours
    told = headline({**base, "piles": [{"count": 1}, {"count": 0}],
                     "last_round": {"won": False, "reason": "wrong", "level": 2, "attempt": 1},
                     "reveal": {"piles": [None, []], "wrong": wrong}}, Namer(["Ann", "Bob"], 0))
    assert "Bob played 9 — your top card had to go first." in told.plain, told


async def test_a_hand_that_fits_its_row_is_not_told_about_home_and_end() -> None:
    app = solo_app(3, {"level": 6})  # the longest hands of a level, framed, at 120 columns
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await open_table(pilot)
        await until(pilot, lambda: screen.prep.order, "the hand")
        help_line = screen.query_one("#prep-help", Static)
        await until(pilot, lambda: "Enter: done" in str(help_line.render()), "the help line")
        for _ in range(5):
            await pilot.pause()
        assert "Home/End" not in str(help_line.render())


class SeatCards(App[None]):
    """Seat cards alone: one, or several side by side; each ``width`` wide if given."""

    def __init__(self, *seats: int, width: int | None = None) -> None:
        super().__init__()
        self.seats, self.card_width = seats, width

    def compose(self) -> ComposeResult:
        cards = [SeatCard(seat) for seat in self.seats]
        for card in cards:
            if self.card_width is not None:
                card.styles.width = self.card_width
        if len(cards) == 1:
            yield cards[0]
        else:
            with Horizontal():
                yield from cards


def drawn_whole(text: str, block: str) -> bool:
    """``block``'s rows one under another in ``text``, each starting in the same column
    and whole (its spaces too)."""
    lines, rows = text.splitlines(), block.splitlines()
    for i, line in enumerate(lines[: len(lines) - len(rows) + 1]):
        start = line.find(rows[0])
        while start >= 0:
            if all(lines[i + k][start:start + len(row)] == row for k, row in enumerate(rows)):
                return True
            start = line.find(rows[0], start + 1)
    return False


async def test_a_big_terminal_shows_the_others_numbers_in_the_block_font() -> None:
    """At 200x50 the numbers stayed Textual's three-row digits in wide empty boxes: with
    room for it they are drawn five rows high, and go back to the digits when it shrinks."""
    from tui.games.getit.seatcard import SeatCard, big_number

    assert big_number("40").splitlines()[0] == "██  ██  ██████"
    app = solo_app(4, {"level": 1})
    async with app.run_test(size=(200, 50)) as pilot:
        screen, table = await a_still_table(pilot, app)
        cards = list(screen.query(SeatCard))

        def drawn_big() -> bool:
            return all(c.big and c.is_mounted and c.face[0] == "big"
                       for c in cards if (t := table.game.top(c.seat)) and t.kind == "number")

        await until(pilot, drawn_big, "big numbers")
        await pilot.pause()
        for card in cards:
            top = table.game.top(card.seat)
            if top is not None and top.kind == "number":
                assert card.face == ("big", big_number(str(top.value)))
                assert drawn_whole(screen_text(app), big_number(str(top.value))), top
        # Each digit keeps its shape: a row is never centred alone (a 5 read as a 3).
        for value in ("5", "26", "2"):
            card = cards[0]
            card.show(name="Bot", top={"kind": "number", "value": int(value)}, count=3,
                      lines=[], said=None, looked_at=False, at_me=False)
            await until(pilot, lambda v=value: drawn_whole(screen_text(app), big_number(v)),
                        f"{value} in the block font, its rows in line")
        await pilot.resize_terminal(100, 30)
        await until(pilot, lambda: not any(c.big for c in cards), "the digits again")
        for card in cards:
            assert card.face[0] != "big"


async def test_the_looks_at_us_end_with_our_play_and_do_not_ask_for_another() -> None:
    """A moment after we played, the others still looked at us about the card we had
    played, and '★ ALL 2 LOOK AT YOU ★' asked for a second play (a player lost two
    rounds so). The host ends every signal at a player who plays: TO YOU counts only
    the looks given since, at once."""
    app = solo_app(3, {"level": 5})
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(pilot)
        table = game_of(app)
        for seat in table.seats:
            seat.bot = None
        stack_getit_piles(table.game, [["3", "9"], ["20"], ["30"]], now=engine_now(app))
        for bot in (1, 2):
            table.game.act(bot, {"type": "look", "target": 0}, now=engine_now(app))
        app.hosting.host.refresh(table)
        to_you_line = lambda: str(screen.query_one("#to-you", Static).render())  # noqa: E731
        await until(pilot, lambda: "ALL 2 LOOK AT YOU" in to_you_line(), "both look at us")
        await pilot.press("space")  # we play the 3: our 9 is the lowest again
        await until(pilot, lambda: screen.view["piles"][0]["count"] == 1, "our play")
        await pilot.pause()
        assert "ALL 2" not in to_you_line()
        assert "0 of 2 look at you" in to_you_line()
        events = table.game.act(1, {"type": "look", "target": 0}, now=engine_now(app))
        app.hosting.host.refresh(table, events)  # Bot 2 looks at our next card: a fresh look
        await until(pilot, lambda: "1 of 2 looks at you" in to_you_line(), "the fresh look")
        events = table.game.act(2, {"type": "look", "target": 0}, now=engine_now(app))
        app.hosting.host.refresh(table, events, [])
        await until(pilot, lambda: "ALL 2 LOOK AT YOU" in to_you_line(), "both look again")
        assert "before" not in to_you_line()


async def test_a_tap_on_our_own_pile_plays_its_top_card() -> None:
    """On a phone the pile was the thing a player tapped to play, and nothing came of
    it: only the footer's small Space key played."""
    app = solo_app(3, {"level": 5})
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(pilot)
        piles_held_still(app, [["3", "9"], ["20"], ["30"]])
        await until(pilot, lambda: screen.view["piles"][0]["count"] == 2, "our pile")
        await pilot.click("#my-back")
        await until(pilot, lambda: screen.view["piles"][0]["count"] == 1, "our play")
        assert [c.get("value") for c in screen.view["played"]] == [3]


async def test_the_log_says_on_whose_signals_a_card_was_played() -> None:
    """A player saw a bot play its smile card before they had smiled at it, and nothing
    said why (a bot plays on its teammates' signals, and may not wait for a person's):
    the play's line says who signalled at the card, and a play on no signal says none."""
    from tui.widgets.log import TableLog

    app = solo_app(4, {"level": 5})
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(pilot)
        table = game_of(app)
        for seat in table.seats:
            seat.bot = None
        stack_getit_piles(table.game, [["40"], ["smile", "3"], ["20"], ["30"]],
                          now=engine_now(app))
        names = screen.names
        log = screen.query_one("#log", TableLog)
        log_text = lambda: "\n".join(str(line.text) for line in log.lines)  # noqa: E731
        events = table.game.act(2, {"type": "smile", "target": 1}, now=engine_now(app))
        events += table.game.act(1, {"type": "play"}, now=engine_now(app))
        app.hosting.host.refresh(table, events)
        await until(pilot, lambda: f"{names[1]} played ☺ SMILE ✓" in log_text(), "the play")
        assert f"{names[1]} played ☺ SMILE ✓ · {names[2]} smiled at it" in log_text()
        await pilot.press("2")  # we look at the 3 that shows now, and so do two bots
        await until(pilot, lambda: screen.view["signals"][0]["look"] == 1, "our look")
        events = []
        for bot in (2, 3):
            events += table.game.act(bot, {"type": "look", "target": 1}, now=engine_now(app))
        events += table.game.act(3, {"type": "smile", "target": 2}, now=engine_now(app))
        events += table.game.act(1, {"type": "play"}, now=engine_now(app))
        app.hosting.host.refresh(table, events)
        await until(pilot, lambda: f"{names[1]} played 3 ✓" in log_text(), "the 3")
        assert (f"{names[1]} played 3 ✓ · you, {names[2]} and {names[3]} looked at it"
                in log_text()), log_text()
        events = table.game.act(2, {"type": "play"}, now=engine_now(app))  # on no signal at 2
        app.hosting.host.refresh(table, events)
        await until(pilot, lambda: f"{names[2]} played 20 ✓" in log_text(), "the 20")
        line = next(str(x.text) for x in log.lines if f"{names[2]} played 20" in str(x.text))
        # Bot 4's smile at it ended too: said, though a smile at a number is no reason.
        assert line.endswith(f"· {names[3]} smiled at it"), line


@pytest.mark.parametrize("size", [(80, 24), (110, 32), (90, 18)])
async def test_every_signal_of_a_seat_shows_on_its_card_at_any_size(size: tuple[int, int]
                                                                    ) -> None:
    """At 80 × 24 a seat card holds two lines of signals: a look, a smile and a look past
    at us showed two of them (a fresh-eyed pair). Where they do not fit a line each, they
    come a line per seat signalled at, and every one shows."""
    app = solo_app(4, {"level": 6})
    async with app.run_test(size=size) as pilot:
        screen = await open_table(pilot)
        table = piles_held_still(app, [["20"], ["5"], ["12"], ["mirror", "4"]])
        game = table.game
        for kind, target in (("look", 0), ("smile", 0), ("look_past", 0), ("peek", True)):
            key = "on" if kind == "peek" else "target"
            game.act(1, {"type": kind, key: target}, now=engine_now(app))
        app.hosting.host.refresh(table)

        def said() -> str:
            shown = screen.query("#seat-1").results(SeatCard)
            return " ".join(" ".join(card.signal_text.plain.split()) for card in shown)

        await until(pilot, lambda: "YOU" in said() and "peeking" in said(), "the signals")
        await pilot.pause()
        card = screen.query_one("#seat-1", SeatCard)
        text = said()
        if "YOU:" in text:  # grouped: no room for a line each
            assert "YOU: look, smile, past" in text and "peeking" in text, text
        else:
            for line in ("looks at YOU", "smiles at YOU", "looks past YOU", "peeking"):
                assert line in text, text
        lines = card.signal_text.plain.splitlines()
        room = card.content_size.height - (1 if card.tiny else FACE_ROWS)  # (under the face)
        assert len(lines) <= room, (lines, card.content_size)
        assert all(line in screen_text(app) for line in lines), lines


async def test_a_phone_on_its_side_keeps_lines_of_the_log() -> None:
    """At 90 × 18 (a phone on its side) the seats' three-row numbers left the log one
    line: "│2.", the end of a wrapped line (a web-door pass). Lower than 21 rows, each
    number takes one row."""
    app = solo_app(4, {"level": 1})
    async with app.run_test(size=(90, 18)) as pilot:
        screen = await open_table(pilot)
        piles_held_still(app, [["20"], ["5"], ["12"], ["30"]])
        from tui.widgets.log import TableLog

        def tiny() -> SeatCard | None:
            card = next(iter(screen.query("#seat-1").results(SeatCard)), None)
            return card if card is not None and card.tiny and card.content_size.height \
                and "5" in str(card.render_line(0).text) else None

        card = await until(pilot, tiny, "the number in one row")
        assert card.content_size.height <= 3
        log = screen.query_one("#log", TableLog)
        assert log.content_size.height >= 3, log.content_size


async def test_no_screen_shows_a_signal_at_a_player_who_played() -> None:
    """A signal is about the card its target shows (RULES.md): once that player plays,
    no seat's line shows a look or smile at it, our own line neither (it says why ours
    went), and the pile is not marked as looked at; a signal at another player stays."""
    app = solo_app(3, {"level": 2})
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(pilot)
        table = piles_held_still(app, [["20"], ["5", "30"], ["12"]])
        game = table.game
        for seat, kind, target in ((1, "look", 2), (2, "look", 1), (2, "smile", 1)):
            game.act(seat, {"type": kind, "target": target}, now=engine_now(app))
        app.hosting.host.refresh(table)

        def seat_text(seat: int) -> str:  # what the seat's card says ("" before it shows)
            return " ".join(card.signal_text.plain
                            for card in screen.query(f"#seat-{seat}").results(SeatCard))

        await until(pilot, lambda: "smiles at 2" in seat_text(2), "Bot 3's signals")
        await pilot.press("2")  # Ann looks at Bot 2's 5
        await until(pilot, lambda: game.signals["look"][0] == 1, "Ann's look")
        await until(pilot, lambda: screen.query_one("#seat-1").border_subtitle,
                    "the pile marked as looked at")
        events = game.act(1, {"type": "play"}, now=engine_now(app))  # the 5
        app.hosting.host.refresh(table, events, [])
        await until(pilot, lambda: screen.view["piles"][1]["count"] == 1, "the play")
        await pilot.pause()
        assert "looks at 2" not in seat_text(2) and "smiles at 2" not in seat_text(2)
        assert "looks at 3" in seat_text(1)  # Bot 2's look at Bot 3 stays
        assert str(screen.query_one("#my-line", Static).render()).startswith(
            "you (1): no signal")
        # … and our line says why ours went (it seemed to vanish by itself).
        name = screen.names[1]
        await until(pilot, lambda: f"{name} played: your look ended with that card"
                    in why_said(screen), "why our look went")
        assert not screen.query_one("#seat-1").border_subtitle
        assert [game.signals[k][s] for s in (0, 2) for k in ("look", "smile")] == [None] * 4


async def test_a_look_the_host_ended_in_the_update_that_showed_it_is_not_stopped() -> None:
    """Our look landed before its player played, and one update brought both (a busy
    line joins updates): the host ended it, so no stop is sent (the host would refuse
    it: we look at nobody) and the look is shown ended."""
    app = solo_app(3, {"level": 1})
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(pilot)
        table = piles_held_still(app, [["20"], ["5", "30"], ["12"]])
        game = table.game
        await until(pilot, lambda: screen.view.get("phase") == "play", "the round")
        sent: list[dict[str, Any]] = []
        screen.act = lambda action, wait=True: sent.append(action)  # type: ignore[method-assign]
        screen.signals.sent("look", 1)  # sent: the host has it, no view has shown it yet
        events = game.act(0, {"type": "look", "target": 1}, now=engine_now(app))
        events += game.act(1, {"type": "play"}, now=engine_now(app))
        app.hosting.host.refresh(table, events, [])
        await until(pilot, lambda: screen.view["piles"][1]["count"] == 1, "the play")
        await pilot.pause()
        assert sent == [] and "look" not in screen.signals.pending
        assert str(screen.query_one("#my-line", Static).render()).startswith(
            "you (1): no signal")
        # … and our line says why ours went (it seemed to vanish by itself).
        name = screen.names[1]
        await until(pilot, lambda: f"{name} played: your look ended with that card"
                    in why_said(screen), "why our look went")
        assert not screen.query_one("#seat-1").border_subtitle
        # The next play takes it back (it stayed over later plays, and read as theirs).
        events = game.act(2, {"type": "play"}, now=engine_now(app))  # Bot 3's 12
        app.hosting.host.refresh(table, events, [])
        await until(pilot, lambda: "ended with that card" not in why_said(screen),
                    "taken back by the next play")


async def test_a_stop_that_lands_after_its_player_played_is_not_called_impossible() -> None:
    """Ann stops looking at Bot 2 as Bot 2 plays: the play ends the look first, so the
    host refuses the stop (she looks at nobody), and the screen says nothing: the look
    is off, as she wanted. Another refusal is still said."""
    app = solo_app(3, {"level": 1})
    notices = Notices()
    async with app.run_test(size=SIZE, message_hook=notices) as pilot:
        screen = await open_table(pilot)
        table = piles_held_still(app, [["20"], ["5", "30"], ["12"]])
        game = table.game
        await pilot.press("2")  # Ann looks at Bot 2's 5
        await until(pilot, lambda: game.signals["look"][0] == 1, "Ann's look")
        events = game.act(1, {"type": "play"}, now=engine_now(app))  # the play ends it
        app.hosting.host.refresh(table, events, [])
        await until(pilot, lambda: screen.view["piles"][1]["count"] == 1, "the play")
        version = game.version

        def refusals() -> list[str]:
            return [str(n.message) for n in notices.raised if n.title == "Not possible"]

        screen.act({"type": "look", "target": None}, wait=False)  # the stop, too late
        await until(pilot, lambda: all(w.is_finished for w in screen.workers
                                       if w.group == "moves"), "the host's answer")
        assert refusals() == [] and game.version == version
        screen.act({"type": "look", "target": 7}, wait=False)  # there is no seat 7
        await until(pilot, refusals, "a refusal that is said")


async def test_the_timer_stands_still_while_the_host_is_out_of_reach() -> None:
    """A lost connection: this machine cannot know the round's time (and a host that went
    down holds the round), so the timer stops where it was and says why, instead of
    running on and jumping back once the host is there again."""
    from tui.games.getit.timer import SandTimer
    from tui.messages import ConnectionDropped

    app = solo_app(3, {"level": 1, "timer": 60})
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(pilot)
        table = piles_held_still(app, [["20"], ["5", "30"], ["12"]])
        timer = screen.query_one(SandTimer)
        await until(pilot, lambda: timer.remaining is not None and not timer.paused, "a clock")
        screen.post_message(ConnectionDropped("the line went quiet", final=False))
        await until(pilot, lambda: timer.paused, "the timer held")
        held = timer.left()
        assert "the host is out of reach" in str(timer.render())
        times = [timer.left()]
        await until(pilot, lambda: times.append(timer.left()) or len(times) > 5, "ticks")
        assert set(times) == {held}
        app.hosting.host.refresh(table)  # the host is heard again: its reading counts
        await until(pilot, lambda: not timer.paused, "the timer running again")
        assert "out of reach" not in str(timer.render())


async def test_a_key_while_the_host_is_out_of_reach_says_so() -> None:
    """The host out of reach, a look at a seat whose pile showed a card said "Ann's pile
    is empty" (the game's reason for a hidden key), where the round waits for the host
    (a fresh-eyed pass over the LAN)."""
    from tui.messages import ConnectionDropped

    app = solo_app(3, {"level": 1})
    notices = Notices()
    async with app.run_test(size=SIZE, message_hook=notices) as pilot:
        screen = await open_table(pilot)
        piles_held_still(app, [["20"], ["5", "30"], ["12"]])
        await until(pilot, lambda: screen.view.get("phase") == "play", "the round")
        screen.post_message(ConnectionDropped("the line went quiet", final=False))
        await until(pilot, lambda: screen.cut_off, "the connection lost")
        await pilot.press("2")
        said = await until(pilot, lambda: [str(n.message) for n in notices.raised], "a word")
        assert any("out of reach" in text for text in said), said
        assert not any("empty" in text for text in said), said
        assert screen.signals.signalling(screen.view, screen.my_seat) is False


async def test_leaving_mid_round_says_the_round_goes_on_meanwhile() -> None:
    """The bots played on under the leave question, and a round could be lost while a
    player read it (a fresh-eyed pass); a question before the round does not say so."""
    from tui.screens.dialogs import ConfirmScreen

    app = solo_app(3, {"level": 1})
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(pilot)
        assert "goes on" not in (screen.leave_question() or "")  # (arranging)
        piles_held_still(app, [["20"], ["5", "30"], ["12"]])
        await until(pilot, lambda: screen.view.get("phase") == "play", "the round")
        await pilot.press("escape")
        question = await until(pilot, lambda: isinstance(app.screen, ConfirmScreen)
                               and app.screen, "the question")
        assert question.question.endswith(" The round goes on while you answer.")


async def test_a_resize_leaves_the_sand_timer_running_as_it_was(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Resizing the terminal mid-round set the timer back to the last reading from the
    host: it ran seconds behind the others' for the rest of the round (a player saw
    "time 0:07" as the round ran out)."""
    now = [1000.0]
    monkeypatch.setattr(SandTimer, "clock", staticmethod(lambda: now[0]))
    app = solo_app(3, {"level": 1, "timer": 60})
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(pilot)
        piles_held_still(app, [["20"], ["5", "30"], ["12"]])
        timer = screen.query_one(SandTimer)
        await until(pilot, lambda: timer.remaining is not None and not timer.paused, "a clock")
        now[0] += 5.0
        before = timer.left()
        await pilot.resize_terminal(130, 40)
        await pilot.resize_terminal(SIZE[0], SIZE[1])
        await until(pilot, lambda: screen.size == SIZE, "the size back")
        await pilot.pause()
        assert timer.left() == before


async def test_a_key_that_does_nothing_now_says_why_in_one_line() -> None:
    """`5` with no player 5, `p` with no mirror in sight, `t` with no speech bubble,
    `/` while the game is silent: each said nothing at all."""
    notices = Notices()
    app = solo_app(3, {"level": 1})
    async with app.run_test(size=SIZE, message_hook=notices) as pilot:
        screen, _ = await a_still_table(pilot, app)
        await until(pilot, lambda: screen.view.get("phase") == "play", "the round")
        for key, words in (("5", "No player 5 at this table: the others are 2-3."),
                           ("1", "Player 1 is you: look at another player (2-3)."),
                           ("p", "mirror"), ("t", "speech bubble"),
                           ("slash", "No chat while a round runs")):
            await pilot.press(key)
            await until(pilot, lambda w=words: w in why_said(screen), key)
        # A key that works says nothing of the kind, and what was said no longer holds.
        assert why_said(screen)
        await pilot.press("2")
        await until(pilot, lambda: screen.signals.mine(screen.view, 0, "look") == 1, "a look")
        assert not why_said(screen).strip("▸ ")


async def test_a_level_says_what_is_new_as_its_piles_are_arranged() -> None:
    app = solo_app(3, {"level": 4})
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(pilot)
        await until(pilot, lambda: "New at Level 4: + ◧ mirror" in str(
            screen.query_one("#prep-new", Static).content), "what level 4 adds")
        # A first round at Level 4: the smile and the eyes were never introduced (a
        # fresh-eyed pair started at Level 5 and never read of the eyes or the mirror).
        news = " ".join(str(screen.query_one("#prep-new", Static).content).split())
        assert "Also in the deck: ☺ smile, ◉ eyes (? explains them)." in news, news


def test_the_levels_news_never_breaks_a_line_inside_its_brackets() -> None:
    """At 80 columns a line ended "Also in the deck: ☺ smile (?" and the next began
    "explains them)." (a fresh-eyed pass)."""
    from rich.console import Console

    from tui.widgets.wrapped import OUTSIDE_BRACKETS, Phrases

    words = "New at Level 2: + ☺ smile. Also in the deck: ☺ smile (? explains them)."
    for width in range(30, 76):
        console = Console(width=width, record=True, file=io.StringIO())
        console.print(Phrases(words, breaks=OUTSIDE_BRACKETS))
        lines = console.export_text().splitlines()
        assert any("(? explains them)." in line for line in lines), (width, lines)
        assert " ".join(" ".join(lines).split()) == words


def test_the_specials_of_the_levels_before_are_named_for_a_first_round() -> None:
    from tui.games.getit.levels import earlier_specials

    assert earlier_specials(1) is None and earlier_specials(2) is None
    assert earlier_specials("X") is None
    assert earlier_specials(5) == "☺ smile, ◉ eyes, ◧ mirror"
    assert earlier_specials(6) == "☺ smile, ◉ eyes, ◧ mirror, ✎ speech bubble"


async def test_help_in_a_round_opens_at_its_keys_beside_the_table_with_the_timer() -> None:
    from textual.containers import Vertical, VerticalScroll

    from tui.games.getit.round_help import RoundHelp
    from tui.screens.rules import RulesScreen

    app = solo_app(3, {"level": 1, "timer": 60})
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot)
        await pilot.press("question_mark")  # in preparation: the whole rules
        await until(pilot, lambda: isinstance(app.screen, RulesScreen), "the rules")
        await pilot.press("escape")
        screen, _ = await a_still_table(pilot, app)
        await until(pilot, lambda: screen.view.get("phase") == "play", "the round")
        await pilot.press("question_mark")
        help_screen = await until(pilot, lambda: isinstance(app.screen, RoundHelp)
                                  and app.screen, "the round's help")
        await until(pilot, lambda: "the timer runs while you read" in str(
            help_screen.query_one("#help-timer", Static).render()), "the timer")
        # The keys first, and the table's top line (its timer) still in sight above
        # (drawn under the panel: on a loaded machine a frame may come before it).
        text = await until(pilot, lambda: "Level 1" in screen_text(app).splitlines()[1]
                           and screen_text(app), "the top line under the panel")
        assert "In a round" in text and "A player's number" in text, text
        # Over the log, and only the log: TO YOU and our own line stay in sight (45% of
        # the screen from the bottom covered them at 80×24).
        panel = help_screen.query_one(Vertical).region
        assert panel == screen.query_one("#log").region
        assert "TO YOU" in text and "you (1):" in text, text
        # Longer than its room: the footer says how to read on (only PgDn did, unsaid).
        scroll = help_screen.query_one(VerticalScroll)
        await until(pilot, lambda: "↑↓ Scroll" in screen_text(app).splitlines()[-1],
                    "the scroll key")
        await pilot.press("down")
        await until(pilot, lambda: scroll.scroll_y > 0, "read on")
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, RulesScreen), "all the rules")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "back at the table")


@pytest.mark.parametrize("size", [(80, 24), (60, 18), (200, 50)])
async def test_the_round_fits_every_terminal_size(size: tuple[int, int]) -> None:
    """80×24: our line on one line and the log more than 4 lines; 60×18: no word cut
    with '…'; 200×50: TO YOU and the timer grow with the cards."""
    from tui.widgets.log import TableLog

    app = solo_app(4, {"level": 5, "timer": 600})
    async with app.run_test(size=size) as pilot:
        screen, _ = await a_still_table(pilot, app)
        await until(pilot, lambda: screen.view.get("phase") == "play", "the round")
        await pilot.press("3")
        await until(pilot, lambda: screen.signals.mine(screen.view, 0, "look") == 2, "a look")
        await pilot.pause()
        if size == (80, 24):
            assert screen.query_one("#my-line").size.height == 1
            assert screen.query_one(TableLog).size.height >= 6
        if size == (60, 18):
            rows = screen_text(app).splitlines()
            # The top line and the seats (the footer scrolls keys that do not fit).
            assert not [row for row in rows[1:10] if "…" in row], "\n".join(rows)
        if size == (200, 50):
            assert screen.has_class("-big")
            assert screen.query_one("#to-you").outer_size.height == 3
            assert screen.query_one(SandTimer).outer_size.height == 3


def why_said(screen: GetItScreen) -> str:
    """What the line that says why a key did nothing says now (under our own line)."""
    return str(screen.query_one("#why", Static).render())


async def test_a_seats_signals_changing_repaint_its_lines_alone() -> None:
    """Signals change a seat card's lines at nearly every update of a round: the card
    keeps its size, so its lines are repainted without a layout of the whole screen (a
    layout is most of what an update costs the app, six apps at once at a table)."""
    app = SeatCards(1)
    async with app.run_test(size=(40, 14)) as pilot:
        card = app.query_one(SeatCard)
        state: dict[str, Any] = {"name": "Bob", "top": {"kind": "number", "value": 7},
                                 "count": 3, "said": None, "looked_at": False, "at_me": False}
        card.show(lines=[], **state)
        await pilot.pause()
        layouts = count_layouts(card)
        # Nor a repaint of the whole card (its border, its face): only the lines.
        whole, lines_only = 0, 0
        refresh = card.refresh

        def counted(*regions: Any, **options: Any) -> Any:
            nonlocal whole, lines_only
            if regions:
                lines_only += 1
                # (The lines under the face, nothing above them.)
                assert all(r.y >= FACE_ROWS for r in regions), regions
            else:
                whole += 1
            return refresh(*regions, **options)

        card.refresh = counted  # type: ignore[method-assign]
        card.show(lines=["looks at YOU", "smiles at 3 Cid"], **state)
        await pilot.pause()
        assert "smiles at 3 Cid" in card.signal_text.plain
        assert "smiles at 3 Cid" in screen_text(app)
        assert layouts() == 0 and whole == 0 and lines_only == 1
        # Someone looking at us tints the lines (the card and its face stay as drawn).
        plain = next(iter(card.render_line(FACE_ROWS))).style
        card.show(lines=["looks at YOU"], **{**state, "at_me": True})
        await pilot.pause()
        assert card.tinted and whole == 0 and layouts() == 0 and lines_only == 2
        tinted = next(iter(card.render_line(FACE_ROWS))).style
        assert tinted is not None and plain is not None and tinted.bgcolor != plain.bgcolor
        assert next(iter(card.render_line(0))).style == plain  # (the face is not tinted)
        card_repaints = whole
        # The player we look at wears a double border, drawn without matching the
        # stylesheet again for the card and its parts (a class did, at every look and
        # stop of the presser's).
        styled: list[Any] = []
        apply = app.stylesheet.apply

        def applied_to(node: Any, *args: Any, **kwargs: Any) -> Any:
            styled.append(node)
            return apply(node, *args, **kwargs)

        app.stylesheet.apply = applied_to  # type: ignore[method-assign]
        card.show(lines=["looks at YOU"], **{**state, "looked_at": True})
        await pilot.pause()
        assert card.border_subtitle == "◀ you look here" and whole > card_repaints
        accent = Color.parse(app.theme_variables["accent"])
        assert card.styles.border.top == ("double", accent) and not styled
        app.stylesheet.apply = apply  # type: ignore[method-assign]
        app.theme = "nord"  # (the mark takes the new theme's colour)
        await pilot.pause()
        assert card.styles.border.top == ("double", Color.parse(app.theme_variables["accent"]))
        assert card.styles.border.top != ("double", accent)
        card.show(lines=["looks at YOU"], **state)
        await pilot.pause()
        assert card.styles.border.top[0] == "round"
        card.show(lines=["looks at YOU"], **{**state, "looked_at": True})
        await pilot.pause()
        # What else we signal at them shows with it (a look past read as a plain look).
        card.show(lines=["looks at YOU"], **{**state, "looked_at": True, "also": ["look past"]})
        await pilot.pause()
        assert card.border_subtitle == "◀ you look here · look past"


async def test_a_smile_kept_at_a_player_we_no_longer_look_at_stays_marked() -> None:
    """Looking at Bob, smiling and looking past, then looking at another: the smile and
    the look past stayed with Bob, but showed nowhere on our screen (the card's edge said
    them only where we look; our line gave them up first for room)."""
    app = SeatCards(2)
    async with app.run_test(size=(40, 14)) as pilot:
        card = app.query_one(SeatCard)
        card.show(name="Bob", top={"kind": "number", "value": 7}, count=3, lines=[],
                  said=None, looked_at=False, at_me=False, also=["smile", "look past"])
        await pilot.pause()
        assert card.border_subtitle == "◀ your smile · look past"
        assert "◀ your smile · look past" in screen_text(app)
        card.show(name="Bob", top={"kind": "number", "value": 7}, count=3, lines=[],
                  said=None, looked_at=False, at_me=False)
        await pilot.pause()
        assert not card.border_subtitle


async def test_on_a_big_terminal_every_card_s_lines_start_on_the_same_row() -> None:
    """A special card's word took three rows where a number in the block font takes
    seven: its pile count and signals stood four rows above its neighbours'."""
    app = SeatCards(1, 2, width=40)
    async with app.run_test(size=(80, 20)) as pilot:
        number, special = app.query(SeatCard).results(SeatCard)
        for card, top in ((number, {"kind": "number", "value": 25}),
                          (special, {"kind": "smile"})):
            card.show(name="Bo", top=top, count=3, lines=["looks at YOU"], said=None,
                      looked_at=False, at_me=False)
        await pilot.pause()
        for card in (number, special):
            card.set_fit(big=True, short=False, narrow=False)
        await pilot.pause()
        rows = [i for i, line in enumerate(screen_text(app).splitlines()) if "3 left" in line]
        assert len(rows) == 1 and screen_text(app).splitlines()[rows[0]].count("3 left") == 2
        assert drawn_whole(screen_text(app), big_number("25"))


def test_no_signal_goes_to_an_empty_pile() -> None:
    """A fresh player looked at, then smiled at, a seat whose pile was empty: a signal
    is about the card a pile shows, and an empty pile shows none. Its number is refused
    in one line, and the footer's look key and a click's "next" leave it out."""
    from tui.games.getit.keys import KeyContext, key_works, look_keys, look_target, next_look
    from tui.games.getit.keys import why_not as why

    view = {"phase": "play", "piles": [{"count": 2}, {"count": 3}, {"count": 0},
                                       {"count": 1}, {"count": 0}]}
    ctx = KeyContext(view, [], 0)
    assert look_keys(ctx) == "2,4"
    assert look_target(3, ctx, None) is False and look_target(4, ctx, None) == 3
    assert key_works("look", (3,), ctx) is False and key_works("look", (4,), ctx) is True
    said = why("look", (3,), ctx) or ""
    assert said.startswith("Player 3's pile is empty") and said.endswith("Look at 2,4."), said
    # With the seats' names, as the seat cards name them ("Player 3" read as nobody).
    named = KeyContext(view, [], 0, names=["Ann", "Bo", "Cy", "Di", "Ed"])
    assert (why("look", (3,), named) or "").startswith("3 Cy's pile is empty")
    assert why("look", (9,), ctx) == "No player 9 at this table: the others are 2-5."
    assert next_look(ctx, 1) == 4 and next_look(ctx, 3) == 4  # (again: at nobody)


@pytest.mark.parametrize("seats", [4, 6])
@pytest.mark.parametrize(("key", "word"), [("s", "smile"), ("x", "past")])
async def test_at_80_columns_the_seat_we_signal_at_says_so_on_its_edge(
        seats: int, key: str, word: str) -> None:
    """The edge read "◀ you look here · sm…" (4 seats), or had no room for the smile at
    all (6): what else we signal is kept, the words before it give way; and a look with
    a look past read "◀ you · look past", as if we only looked past them."""
    from rich.cells import cell_len

    app = solo_app(seats, {"level": 3})
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(pilot)
        special = "smile" if key == "s" else "eyes"
        piles_held_still(app, [["3"], [special, "5"], ["6"], ["7"], ["8"], ["9"]][:seats])
        await until(pilot, lambda: screen.view.get("phase") == "play", "the round")
        await pilot.press("2", key)
        card = screen.query_one("#seat-1", SeatCard)

        def edges() -> str:
            return f"{card.border_title} | {card.border_subtitle}"

        await until(pilot, lambda: word in str(card.border_subtitle), word)
        shown = str(card.border_subtitle)
        assert cell_len(shown) <= card.size.width - 4, edges()
        # (A card too narrow for the words ends its title "◀": our look is there.)
        assert "◀ you ·" not in shown, edges()
        assert shown.startswith("◀ you look") or str(card.border_title).endswith("◀"), edges()


async def test_on_a_phone_the_edge_keeps_our_signals_without_a_stray_dot() -> None:
    """At 43 columns the edge of a seat we look at, smile at and look past read
    "◀ · smile · loo…": "you" gave way, and its separator stayed."""
    app = solo_app(3, {})
    async with app.run_test(size=(43, 40)) as pilot:
        screen = await open_table(pilot)
        piles_held_still(app, [["3"], ["4", "5"], ["6"]])
        await until(pilot, lambda: screen.view.get("phase") == "play", "the round")
        await pilot.press("2", "s", "x")
        card = screen.query_one("#seat-1", SeatCard)
        await until(pilot, lambda: "past" in str(card.border_subtitle)
                    or str(card.border_subtitle) == "◀", "the signals on the edge")
        shown = str(card.border_subtitle)
        assert shown.startswith("◀") and not shown.startswith("◀ ·"), shown


async def test_on_a_touch_screen_our_line_says_to_tap_our_pile() -> None:
    """"play your top card (Space)": a phone has no Space; a tap on the pile plays."""
    app = solo_app(3, {"level": 1})
    app.touch = True
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_table(pilot)
        table = piles_held_still(app, [["3", "9"], ["20"], ["30"]])
        for bot in (1, 2):
            table.game.act(bot, {"type": "look", "target": 0}, now=engine_now(app))
        app.hosting.host.refresh(table)
        await until(pilot, lambda: "play your top card (tap your pile)" in str(
            screen.query_one("#my-line", Static).render()), "the line")
        # (The chat line names no ? or / either: "? Rules" is in the footer.)
        chat = screen.query_one("#table-chat", Input).placeholder
        assert chat.startswith("no chat until the round is over") and "?" not in chat
    from tui.games.getit.mine import touch_words

    assert touch_words("you (1): no signal — look (2-3,5) at who should play") == (
        "you (1): no signal — tap the pile of who should play")
    assert touch_words("🪞 mirror in sight: peek at your card (p)") == (
        "🪞 mirror in sight: peek at your card (Peek, in the keys below)")
    # A special card's hint named keys a phone has not.
    assert touch_words("you (1): ☺ on 3: look (3), then smile (s)") == (
        "you (1): ☺ on 3: tap pile 3, then smile (Smile, in the keys below)")
    assert touch_words("◉ on 2: look (2), then look past (x)") == (
        "◉ on 2: tap pile 2, then look past (Look past, in the keys below)")
    assert touch_words("the 11 on pile 4 is lower: look there (4)") == (
        "the 11 on pile 4 is lower: tap pile 4")
    # What a level adds, said in preparation, and why a smile did nothing, named keys
    # too ("look, then x", "(? explains them)", "their number": a web-door pass).
    from tui.games.getit.levels import NEW_AT_LEVEL

    for _, words in NEW_AT_LEVEL.values():
        said = touch_words(f"{words} (? explains them)")
        assert not re.search(r"then [sx]\)|\([sxpt?]\)|\(\? ", said), said
    assert touch_words("Look at someone first (their number), then smile at them.") == (
        "Tap someone's pile first, then smile at them.")
    # So did the help over a pile being arranged ("Tab", "←/→", "Enter: done").
    from tui.games.getit.prep import prep_help

    said = prep_help(True, True, True, "Bob", touch=True)
    # (Its own sentence: "… is on top. tap a special card" began small.)
    assert "on top. Tap a special card, then the place it goes" in said, said
    assert "Done, in the keys" in said
    assert prep_help(True, False, True, "Bob", touch=True).startswith(
        "Your pile is in order, the lowest number on top: nothing to arrange. Swipe along")
    assert not any(key in said for key in ("Tab", "←", "Enter", "Home")), said
    # Nothing to arrange (level 1: no special card) is said so, not "Arrange your pile".
    assert prep_help(True, False, False, "Bob").startswith(
        "Your pile is in order, the lowest number on top: nothing to arrange. Enter: done.")


async def test_a_person_away_is_marked_on_their_pile() -> None:
    """A player's connection dropped mid-round: only a chat line said so, their pile
    looked as everyone else's (a box pass)."""
    app = solo_app(3, {"level": 1})
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_table(pilot)
        table = piles_held_still(app, [["20"], ["5", "30"], ["12"]])
        await until(pilot, lambda: screen.view.get("phase") == "play", "the round")
        seat = table.seats[1]
        seat.kind, seat.name, seat.conn = "human", "Bob", None  # Bob's line went down
        app.hosting.host.refresh(table)
        await until(pilot, lambda: "2 Bob [away]" in screen_text(app), "Bob marked away")


async def test_a_name_is_shown_as_typed_never_read_as_markup() -> None:
    """A pile's title is Textual markup: a name with "[…]" in it was read as tags (and
    "[@click=…]" would be an action in every other player's app)."""
    app = solo_app(3, {"level": 1})
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        screen = await open_table(pilot)
        table = piles_held_still(app, [["20"], ["5", "30"], ["12"]])
        await until(pilot, lambda: screen.view.get("phase") == "play", "the round")
        table.seats[1].name = "[@click=app.quit]Eve[/]"
        app.hosting.host.refresh(table)
        await until(pilot, lambda: "[@click=app.quit]Eve[/]" in screen_text(app), "her name")
        app.notify("[b]bold?[/b] from [@click=app.quit]Eve[/]")  # a notice, as plain text
        await until(pilot, lambda: "[b]bold?[/b]" in screen_text(app), "the notice as typed")


@pytest.mark.parametrize("columns", [40, 45, 60, 80])
async def test_a_pile_s_title_fits_its_edge_whole_or_cut_by_us(columns: int) -> None:
    """At 40-45 columns with six seats every title read "2 …" (Textual cut it, and
    kept the ellipsis where the name would be): it says the seat's number and as much
    of the name as the edge holds, and is never longer than the edge."""
    from rich.cells import cell_len

    app = solo_app(6, {})
    async with app.run_test(size=(columns, 24)) as pilot:
        screen = await open_table(pilot)
        table = piles_held_still(app, [["3"], ["4", "5"], ["6"], ["7"], ["8"], ["9"]])
        for seat in table.seats[1:]:
            seat.name = "Bartholomew"
        app.hosting.host.refresh(table)
        await until(pilot, lambda: screen.view.get("phase") == "play", "the round")
        cards = list(screen.query(SeatCard))

        def renamed() -> bool:
            # (At 60 columns and more a name fits in part: a title of the number alone,
            # fitted to a card still settling its width, is not yet the answer.)
            def fitted(card: SeatCard) -> bool:
                title, room = str(card.border_title), card.outer_size.width - 6
                whole = title.startswith(f"{card.seat + 1} Ba")
                return bool(room > 0 and cell_len(title) <= room and (
                    whole or (columns < 60 and title == str(card.seat + 1))))

            return all(fitted(c) for c in cards)

        await until(pilot, renamed, "the new names in the titles, fitted")
        for card in cards:
            title, room = str(card.border_title), card.outer_size.width - 6
            assert cell_len(title) <= room, (title, room)
            assert title == str(card.seat + 1) or title.startswith(f"{card.seat + 1} Ba")
        if columns >= 60:  # (room for a name cut: "2 Bar…" at 60, "2 Barthol…" at 80)
            assert all(" Ba" in str(c.border_title) for c in cards)


async def test_the_look_key_says_whom_it_looks_at_as_piles_run_out() -> None:
    """Pile 6 ran out and the footer still said "2-6 Look at" (TO YOU said 2-5) until
    some key's state changed; with every other pile empty it said "1-6 Look at" beside
    "the rest are yours to play"."""
    from tui.widgets.footer import TableFooter

    app = solo_app(6, {})
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await open_table(pilot)
        table = piles_held_still(app, [["3", "20"], ["4"], ["5"], ["6"], ["7"], ["8"]])
        await until(pilot, lambda: screen.view.get("phase") == "play", "the round")
        footer = screen.query_one(TableFooter)

        def look() -> str | None:
            return next((e.display for e in footer.entries if e.name == "look"), None)

        await until(pilot, lambda: look() == "2-6", "2-6")
        table.game.piles[5].clear()
        app.hosting.host.refresh(table)
        await until(pilot, lambda: look() == "2-5", "2-5, pile 6 empty")
        for pile in table.game.piles[1:]:
            pile.clear()
        app.hosting.host.refresh(table)
        await until(pilot, lambda: look() is None and "play" in footer_keys(screen),
                    "no look key: nobody to look at, our cards to play")
        # Nor a smile or a look past: each is at a card too.
        assert "aim" not in footer_keys(screen)


@pytest.mark.parametrize(("width", "shown"), [(9, "empty"), (13, "— empty —")])
async def test_an_empty_pile_says_so_on_one_line(width: int, shown: str) -> None:
    """On a card 9 columns wide "— empty —" wrapped its last dash onto a line of its own."""
    app = SeatCards(1, width=width)
    async with app.run_test(size=(40, 14)) as pilot:
        card = app.query_one(SeatCard)
        card.show(name="Bob", top=None, count=0, lines=[], said=None, looked_at=False,
                  at_me=False)
        await until(pilot, lambda: card.face == ("word", shown), shown)
        assert shown in screen_text(app)


async def test_a_signal_is_sent_to_the_host_before_the_screen_redraws_for_it() -> None:
    """A look goes to the host first, then our screen shows it: the other screens have
    it without waiting for our own redraw."""
    app = solo_app(3, {"level": 1})
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(pilot)
        await arrange_as_dealt(pilot, screen)
        order: list[str] = []
        send, redraw = screen.session.send, screen._redraw

        def sending(*args: Any, **kwargs: Any) -> Any:
            order.append("sent")
            return send(*args, **kwargs)

        def redrawing() -> None:
            order.append("redrawn")
            redraw()

        screen.session.send = sending
        screen._redraw = redrawing  # type: ignore[method-assign]
        await pilot.press("2")
        assert order == ["sent", "redrawn"]
        await until(pilot, lambda: "look at" in screen_text(screen.my_place), "our look shown")


async def test_the_last_seconds_keep_the_top_line_whole_on_a_phone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """In the last ten seconds "▶ 0:07 ◀" made the timer wider than it was laid out:
    its bar was cut off, and after a resize the words were squeezed instead ("try…").
    The timer keeps one width, and the words stay whole, through a resize too."""
    monkeypatch.setattr(SandTimer, "clock", staticmethod(lambda: 1000.0))  # (time stands)
    app = solo_app(6, {"level": 1, "timer": 60})
    async with app.run_test(size=(40, 24)) as pilot:
        screen = await open_table(pilot)
        await arrange_as_dealt(pilot, screen)
        status = screen.query_one("#getit-status", Static)
        timer = screen.query_one(SandTimer)
        await until(pilot, lambda: timer.region.width and timer.display, "the timer")
        wide = timer.region.width
        timer.remaining = 5.0

        def whole() -> bool:
            words, shown = str(status.render()), timer.render().plain
            return ("▶" in shown and "…" not in words and "try 1/2" in words
                    and cell_len(shown) <= timer.region.width
                    and status.region.right < timer.region.x)

        await until(pilot, whole, "the last seconds, all of it in sight")
        assert timer.region.width == wide
        for size in ((45, 24), (40, 24)):
            await pilot.resize_terminal(*size)
            timer.remaining = 5.0
            await until(pilot, whole, f"the last seconds at {size}")


def test_a_card_s_title_keeps_a_person_away_said_whole() -> None:
    """"2 Bob [awa… · 3 left": the mark was cut as if part of the name."""
    from tui.games.getit.titles import AWAY, named

    assert named(40, 1, f"Bob{AWAY}", " · 3 left") == "2 Bob \\[away] · 3 left"
    for room in range(12, 40):
        title = named(room, 1, f"Bartholomew{AWAY}", " · 3 left")
        assert "[awa…" not in title and len(title.replace("\\", "")) <= room, (room, title)
    assert named(20, 1, f"Bob{AWAY}", " · 3 left") == "2 Bob away · 3 left"


async def test_a_bot_keeping_a_seat_says_for_whom_on_the_card_as_the_players_panel_does(
) -> None:
    """The card of a seat a bot kept for Bob read "2 Bot 2": only the log said whose
    seat it was (GET OUT!'s panel says "Bot 2 for Bob [bot]")."""
    from tui.games.getit.titles import BOT, named

    wordings = (f"Bot 2 for Bob{BOT}", f"Bob{BOT}")
    assert named(40, 1, wordings, " · 3 left") == "2 Bot 2 for Bob \\[bot] · 3 left"
    assert named(24, 1, wordings, " · 3 left") == "2 Bob \\[bot] · 3 left"
    for room in range(8, 40):
        title = named(room, 1, (f"Bot 2 for Bartholomew{BOT}", f"Bartholomew{BOT}"), "")
        assert "[b…" not in title and len(title.replace("\\", "")) <= room, (room, title)
    app = SeatCards(1, width=30)
    async with app.run_test(size=(40, 14)) as pilot:
        app.query_one(SeatCard).show(name=wordings, top={"kind": "number", "value": 7},
                                     count=3, lines=[], said=None, looked_at=False,
                                     at_me=False)
        await until(pilot, lambda: "2 Bot 2 for Bob [bot]" in screen_text(app), "the title")


def test_to_you_fits_80_columns_with_every_signal_at_us() -> None:
    """"★ALL 3 LOOK AT YOU★ · 1 of 3 smiles at you · 1 of 3 looks / past you" took two
    lines at 80 columns, and the line under it went out of sight."""
    from tui.games.getit.text import ToYou, to_you_text

    facts = ToYou(others=3, look=3, smile=1, look_past=1, peek=0, talk=0)
    text = to_you_text(facts, 66).plain
    assert len(text) <= 66, text
    assert "ALL 3 LOOK AT YOU" in text and "1 of 3 smiles" in text and "looks past" in text
    assert "smiles at you" in to_you_text(facts, 100).plain


def test_the_signals_that_stand_as_we_sit_down_are_said_in_a_sentence() -> None:
    from tui.games.getit.text import standing_signals
    from tui.notices import Namer

    namer = Namer(["Ann", "Bob", "Cy"], 1)
    view = {"seat": 1, "signals": [{}, {"look": 0, "smile": 2}, {}]}
    assert standing_signals(view, namer) == (
        "Back at the table, your look at Ann and smile at Cy still stand (the others see "
        "them): 0 stops them.")
    assert standing_signals({"seat": 1, "signals": [{}, {"peek": True}, {}]}, namer) is None
    assert standing_signals({"seat": 1}, namer) is None


async def test_the_next_round_s_piles_are_counted_afresh_on_every_card() -> None:
    """A watcher read "2 left" on Bob's card for the first 17 s of a round in which he
    held 6: the count drawn at the end of the last round came back when the cards were
    shown again, and the card's own words said 6 (a spectator's pass). A card hidden
    between rounds had no room to mark for drawing again."""
    import re

    from net.host import Host
    from tests.tui_support import make_app, show_lobby
    from tui.session import Session

    host = Host("test host", bot_delay=0.05)
    try:
        bob = Session("Bob", host=host)
        await bob.connect()
        joined = await bob.create("T", "getit", 3, {"timer": 0})
        for seat in (1, 2):
            await bob.request("add_bot", seat)
        await bob.request("start")
        table = host.tables[joined.table]
        game = table.game
        app = make_app("Cy")
        async with app.run_test(size=(100, 30)) as pilot:
            cy = Session("Cy", host=host)
            await cy.connect()
            await cy.join(joined.table, spectate=True)
            await show_lobby(app, pilot, cy)
            screen = await until(pilot, lambda: isinstance(app.screen, GetItScreen)
                                 and app.screen, "the table, watched")

            def drawn() -> list[str]:
                return re.findall(r"(\d+) left", screen_text(app))

            for round_number in (1, 2):
                await until(pilot, lambda: game.view(None)["phase"] == "prepare", "a deal")
                hand = game.view(0)["hand"]
                host.act(table, 0, {"type": "arrange", "pile": [c["id"] for c in hand]})
                await until(pilot, lambda: app.screen is screen and screen.view.get("phase")
                            == "play" and drawn() == [str(len(p)) for p in game.piles]
                            and all(c.region for c in screen.query(SeatCard)),
                            f"round {round_number}'s counts, drawn")
                # Bob plays his top card until the round ends (a wrong card ends it).
                while game.view(None)["phase"] == "play":
                    version = screen.view.get("version")
                    play = next(a for a in game.legal_actions(0) if a["type"] == "play")
                    host.act(table, 0, play)
                    await until(pilot, lambda v=version: screen.view.get("version") != v,
                                "the play shown")
                if round_number == 1:
                    await until(pilot, lambda: app.screen is not screen, "the round's summary")
                    await pilot.press("c")
                    await until(pilot, lambda: app.screen is screen, "the table again")
                    host.act(table, 0, {"type": "next_round"})
            await app.detach()
        await bob.close()
    finally:
        await host.close()


async def test_a_narrow_card_s_signals_name_seats_by_number() -> None:
    """At 80 columns and six seats a watcher read "looks at …" on every card: a line too
    long for its card gives the seat's number alone and the verb in a word."""
    from tui.games.getit.seatcard import compact

    assert compact("looks at 2 Bob the Bold") == "look 2"
    assert compact("looks past YOU") == "past YOU"
    assert compact("smiles at 6 Di") == "smile 6"
    assert compact("2 Bob: look, smile") == "2: look, smile"
    assert compact("peeking") == "peeking"
    app = SeatCards(0, 1, width=13)
    async with app.run_test(size=(40, 14)) as pilot:
        narrow, wide = list(app.query(SeatCard))
        wide.styles.width = 30
        for card in (narrow, wide):
            card.show(name="Ann", top={"id": 1, "kind": "number", "value": 7}, count=3,
                      lines=["looks at 2 Bob"], grouped=["2 Bob: look"], said=None,
                      looked_at=False, at_me=False)
        await until(pilot, lambda: "look 2" in screen_text(narrow)
                    and "looks at 2 Bob" in screen_text(wide), "the lines")


async def test_a_player_back_at_a_round_that_ended_meanwhile_reads_how_it_ended() -> None:
    """Back at the table (its screen made afresh, as after leaving and j) between two
    rounds, a player saw the round frozen as they left it, "no signal · 1 in your pile",
    and no word of how it ended; v did nothing."""
    from tui.screens.summary import SummaryScreen

    app = solo_app(3, {"level": 1})
    async with app.run_test(size=SIZE) as pilot:
        screen, table = await a_still_table(pilot, app)
        session = screen.session
        wrong = next(s for s in range(3) if s not in table.game.correct_holders()
                     and table.game.piles[s])
        assert app.hosting.host is not None
        app.hosting.host.act(table, wrong, {"type": "play"})
        summary = await until(pilot, lambda: isinstance(app.screen, SummaryScreen)
                              and app.screen, "the round's end")
        summary.dismiss(None)
        await until(pilot, lambda: app.screen is screen, "the table")
        # Back as after leaving: a new connection takes the seat with its token.
        from tui.session import Session

        joined = session.joined
        assert joined is not None and joined.token is not None
        app.listener.follow(None)  # (the app leaves the table: its connection closes)
        app.workers.cancel_group(app, "listen")
        await session.close()
        again = Session("Ann", host=app.hosting.host)
        await again.connect()
        await again.join(joined.table, joined.seat, token=joined.token)
        app.attach(again)
        await app.switch_screen(GetItScreen(again))
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen)
                    and "✗" in screen_text(app), "the round's end, read again")

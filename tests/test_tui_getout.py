"""The GET OUT! table's own keys and widgets: marks beside colour, big hands, the scores."""

from __future__ import annotations

from typing import Any

import pytest
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import DataTable

from engine.testing import stack_getout
from tests.tui_support import config_dir, make_app, until
from tui.app import HiddenHandApp
from tui.games.getout.card import CardWidget
from tui.games.getout.hand import HandWidget
from tui.games.getout.scores import ScoreTable
from tui.games.getout.screen import GetOutScreen

__all__ = ["config_dir"]

pytestmark = pytest.mark.usefixtures("config_dir")


async def our_turn(pilot: Pilot[Any], app: HiddenHandApp) -> GetOutScreen:
    screen: GetOutScreen = await until(
        pilot, lambda: isinstance(app.screen, GetOutScreen) and app.screen.legal
        and app.screen, "our first turn")
    return screen


async def test_playable_cards_carry_a_mark_and_keys_reach_beyond_the_ninth_card() -> None:
    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await our_turn(pilot, app)
        assert app.host is not None
        (table,) = app.host.tables.values()
        hand = [f"geoff {v}" for v in (1, 2, 3, 4, 5, 7, 10, 11, 12, 13, 14)] + ["kevin 3"]
        stack_getout(table.game, [hand, ["shirley 1"]], played=["kevin 8"], turn=0)
        table.push()
        widget = screen.query_one(HandWidget)
        await until(pilot, lambda: len(widget.cards) == 12
                    and len(widget.query(CardWidget)) == 12, "twelve cards")
        cards = list(widget.query(CardWidget))
        playable = [c.border_subtitle == "✓" for c in cards]
        assert playable == [False] * 11 + [True]  # only the kevin matches (no geoff 8)
        assert cards[-1].has_class("playable") and not cards[0].has_class("playable")
        await pilot.press("2")
        assert widget.selected == 1
        await pilot.press("2")  # the same key again: ten cards further
        assert widget.selected == 11
        await pilot.pause()
        assert [c.border_title for c in widget.query(CardWidget)].index("▼") == 11
        await pilot.press("2")  # and back round
        assert widget.selected == 1
        await pilot.press("0")  # the tenth card
        assert widget.selected == 9
        await pilot.press("0")  # there is no twentieth: it stays
        assert widget.selected == 9


@pytest.mark.parametrize(("size", "seats"), [((80, 24), 4), ((120, 40), 5)])
async def test_the_score_table_shows_every_player(size: tuple[int, int], seats: int) -> None:
    app = make_app(solo={"game_id": "getout", "seats": seats, "options": {"first": 0}})
    async with app.run_test(size=size) as pilot:
        screen = await our_turn(pilot, app)
        scores = screen.query_one("#scores", ScoreTable)
        await until(pilot, lambda: scores.row_count == seats, "a row per player")
        await pilot.pause()
        assert scores.max_scroll_y == 0, "rows are cut off"
        assert scores.size.height >= seats + 1  # the header and every row are drawn
        names = [str(scores.get_row_at(i)[0]) for i in range(seats)]
        assert names[0] == "Ann" and names[1:] == [f"Bot {i}" for i in range(2, seats + 1)]


def _score_rows(players: int, rounds: int, out: tuple[int, ...] = (),
                me: int = 0) -> tuple[list[Text], list[list[Text]]]:
    """A header and rows as the GET OUT! screen makes them."""
    header = [Text(x) for x in ["player", "total", *[f"r{i}" for i in range(1, rounds + 1)]]]
    rows = []
    for seat in range(players):
        # (Seat 3 has a name with wide characters: two cells each.)
        shown = "Ann" if seat == 0 else "Zoë 山田" if seat == 2 else f"Bot {seat + 1}"
        name = Text(shown, style="bold" if seat == me else "")
        total = f"{seat * 7} ✗" if seat in out else str(seat * 7)
        rows.append([name, Text(total, no_wrap=True, end=""),
                     *[Text(str(r * seat), no_wrap=True, end="") for r in range(rounds)]])
    return header, rows


@pytest.mark.parametrize(("size", "tables", "then"), [
    ((40, 10), [(3, 0, (), 0)], ""),  # the start of a game
    ((40, 12), [(3, 0, (), 0), (4, 3, (2,), 1)], "focus"),  # rounds, one out; focused
    ((30, 12), [(5, 8, (0, 3), 0)], "scroll"),  # wider than its box: scrolled sideways
    ((30, 6), [(6, 2, (), 0)], ""),  # taller than its box
])
async def test_the_score_table_draws_what_a_data_table_drew(
        size: tuple[int, int], tables: list[tuple[Any, ...]], then: str) -> None:
    """``ScoreTable`` replaced ``DataTable(cursor_type="none", zebra_stripes=True)``:
    the same screen, cell for cell and colour for colour, for each of these tables."""
    from textual.app import App, ComposeResult

    class Scores(App[None]):
        CSS = "#scores { width: 1fr; border: round $foreground 30%; }"

        def __init__(self, old: bool) -> None:
            super().__init__()
            self.old = old

        def compose(self) -> ComposeResult:
            if self.old:
                yield DataTable(id="scores", cursor_type="none", zebra_stripes=True)
            else:
                yield ScoreTable(id="scores")

        def show(self, header: list[Text], rows: list[list[Text]]) -> None:
            table = self.query_one("#scores")
            if isinstance(table, DataTable):  # as the screen filled its DataTable
                table.clear(columns=True)
                table.add_columns(*header)
                for row in rows:
                    table.add_row(*row)
            else:
                assert isinstance(table, ScoreTable)
                table.set_table(header, rows)

    async def screenshot(old: bool) -> str:
        app = Scores(old)
        async with app.run_test(size=size) as pilot:
            for players, rounds, out, me in tables:
                app.show(*_score_rows(players, rounds, out, me))
                await pilot.pause()
            table = app.query_one("#scores")
            if then == "focus":
                table.focus()
            elif then == "scroll":
                table.scroll_to(x=6, animate=False)
            await pilot.pause()
            return app.export_screenshot()

    assert await screenshot(old=False) == await screenshot(old=True)


async def test_the_hand_keeps_each_cards_widget_and_always_shows_the_cards_in_order() -> None:
    from textual.app import App, ComposeResult

    class Row(App[None]):
        def compose(self) -> ComposeResult:
            yield HandWidget(id="hand")

    def card(n: int) -> dict[str, Any]:
        return {"id": n, "image": ("geoff", "kevin", "shirley")[n % 3], "value": n}

    app = Row()
    async with app.run_test(size=(120, 10)) as pilot:
        hand = app.query_one(HandWidget)

        async def show(ids: list[int], playable: set[int]) -> dict[int, CardWidget]:
            hand.playable = frozenset(playable)
            hand.cards = [card(n) for n in ids]
            await pilot.pause()
            widgets = [w for w in hand.query(CardWidget) if w.parent is hand]
            assert [w.card["id"] for w in widgets] == ids
            for i, widget in enumerate(widgets):  # dressed as a new widget would be
                fresh = CardWidget(widget.card, playable=widget.card["id"] in playable,
                                   selected=i == hand.selected)
                assert (str(widget.content), widget.border_title, widget.border_subtitle,
                        widget.tooltip) == (str(fresh.content), fresh.border_title,
                                            fresh.border_subtitle, fresh.tooltip)
                assert widget.classes == fresh.classes, widget.card
            return {w.card["id"]: w for w in widgets}

        first = await show([1, 2, 3, 4, 5], {2})
        played = await show([1, 2, 4, 5], {4, 5})  # a card from the middle: its widget goes
        assert all(played[n] is first[n] for n in played)
        drawn = await show([1, 2, 3, 4, 5, 9], set())  # one in the middle, one at the end
        assert all(drawn[n] is played[n] for n in played)
        await show([9, 5, 1], {1})  # another order
        await show([], set())
        await show([7, 8], {8})


async def test_a_long_hand_narrows_its_cards_to_stay_in_sight_at_80_columns() -> None:
    """Six cards at full size; eleven narrower (short names, the ▼ and ✓ marks kept),
    all in sight at 80 columns; more than fit even so scroll, the chosen one in sight."""
    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await our_turn(pilot, app)
        assert app.host is not None
        (table,) = app.host.tables.values()
        widget = screen.query_one(HandWidget)
        values = (1, 2, 3, 4, 5, 7, 10, 11, 12, 13, 14)

        async def deal(hand: list[str]) -> list[CardWidget]:
            stack_getout(table.game, [hand, ["shirley 1"]], played=["kevin 8"], turn=0)
            table.push()
            await until(pilot, lambda: len(widget.cards) == len(hand)
                        and len(widget.query(CardWidget)) == len(hand), "the hand")
            await pilot.pause()
            return list(widget.query(CardWidget))

        def in_sight(card: CardWidget) -> bool:
            return widget.content_region.contains_region(card.region)

        cards = await deal([f"geoff {v}" for v in values[:5]] + ["kevin 3"])
        assert all(c.region.width == 12 and in_sight(c) for c in cards)
        assert "Geoff" in str(cards[0].render()) and not widget.has_class("cards-compact")
        cards = await deal([f"geoff {v}" for v in values[:10]] + ["kevin 3"])
        assert widget.has_class("cards-compact")
        assert all(c.region.width == 7 and in_sight(c) for c in cards)
        assert "Geoff" in str(cards[0].render()) and "◆ 3" in str(cards[-1].render())
        # The marks are drawn in the narrow frames, not only set (a narrower frame
        # would drop them): one ▼, and a ✓ on the one playable card besides the
        # status line's "marked ✓".
        shot = app.export_screenshot()
        assert cards[0].border_title == "▼" and cards[-1].border_subtitle == "✓"
        assert shot.count("▼") == 1 and shot.count("✓") == 2
        cards = await deal([f"geoff {v}" for v in values] + ["kevin 3", "kevin 5", "samantha 7"])
        assert widget.has_class("cards-compact") and not all(in_sight(c) for c in cards)
        for _ in range(13):
            await pilot.press("right")
        await pilot.pause()
        assert widget.selected == 13 and in_sight(cards[13])
        # Wider, where every card fits, and back: the chosen card is still in sight.
        await pilot.resize_terminal(200, 50)
        await until(pilot, lambda: not widget.has_class("cards-compact"), "full-size cards")
        await pilot.pause()
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: widget.has_class("cards-compact"), "narrow cards")
        await until(pilot, lambda: in_sight(cards[13]), "the chosen card in sight")


async def test_the_played_count_follows_a_turned_over_pile() -> None:
    """When the played pile becomes the draw pile only its count changes, not the call
    card nor (when the draw comes after) the draw count: the pile line still follows."""
    from textual.app import App, ComposeResult

    from tui.games.getout.call_pile import CallPile
    from tui.games.getout.screen import describe_event
    from tui.notices import Namer

    class Pile(App[None]):
        def compose(self) -> ComposeResult:
            yield CallPile()

    app = Pile()
    async with app.run_test() as pilot:
        pile = app.query_one(CallPile)
        pile.call = {"id": 1, "image": "geoff", "value": 1, "wild": False}
        pile.draw_count, pile.played_count = 0, 2
        await pilot.pause()
        pile.played_count = 1  # turned over, then a card drawn: draw pile 0 again
        await pilot.pause()
        assert "Draw pile: 0 · played: 1" in str(app.query_one("#piles").render())
    namer = Namer(("Ann", "Bob"), 0)
    assert describe_event({"type": "recycled", "count": 1}, namer) == (
        "The played pile (1 card) was turned over as the draw pile")


async def test_the_call_slot_holds_the_call_card_or_says_there_is_none() -> None:
    """Composed with its first state (no call card: the words say so, mounted once), then
    a call card, the next one in the same widget, none again at a new round, and one."""
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    from tui.games.getout.call_pile import NO_CALL, CallPile

    class Pile(App[None]):
        def compose(self) -> ComposeResult:
            yield CallPile()

    def held(app: App[None]) -> list[Any]:
        return list(app.query_one("#call-slot").children)

    app = Pile()
    async with app.run_test() as pilot:
        pile = app.query_one(CallPile)
        (words,) = held(app)
        assert isinstance(words, Static) and str(words.render()) == NO_CALL
        pile.call = {"id": 1, "image": "geoff", "value": 1, "wild": False}
        await pilot.pause()
        (card,) = held(app)
        assert isinstance(card, CardWidget) and card.card["id"] == 1
        pile.call = {"id": 2, "image": "kevin", "value": 1, "wild": False}
        await pilot.pause()
        assert held(app) == [card] and card.card["id"] == 2
        pile.call = None
        await pilot.pause()
        (words,) = held(app)
        assert isinstance(words, Static) and str(words.render()) == NO_CALL
        pile.call = {"id": 3, "image": "samantha", "value": 4, "wild": False}
        await pilot.pause()
        (card,) = held(app)
        assert isinstance(card, CardWidget) and card.card["id"] == 3


async def test_no_draw_key_while_we_lay_the_first_call_card() -> None:
    from tests.tui_support import footer_keys

    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await our_turn(pilot, app)
        assert app.host is not None
        (table,) = app.host.tables.values()
        stack_getout(table.game, [["geoff 1", "kevin 3"], ["shirley 1"]], played=[], turn=0)
        table.push()
        await until(pilot, lambda: screen.view.get("call") is None and screen.legal, "the lead")
        await pilot.pause()
        keys = footer_keys(app)
        assert "draw" not in keys and keys.get("play") is True

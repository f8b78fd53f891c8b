"""The footer shows exactly the keys that work now: on each screen, under each dialog."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, ClassVar

import pytest
from rich.style import Style
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.geometry import Region
from textual.pilot import Pilot
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Button, DataTable, Footer, Static

from engine.testing import stack_getout
from tests.tui_support import (
    SIZE,
    config_dir,
    footer_drawn,
    footer_keys,
    footer_labels_in_view,
    gotfive_clue_move,
    make_app,
    mounted,
    open_lobby,
    screen_strips,
    screen_text,
    show_lobby,
    still_gotfive_table,
    until,
)
from tui.app import HiddenHandApp
from tui.games.getout.screen import GetOutScreen
from tui.screens.dialogs import ChoiceScreen, ConfirmScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.summary import SummaryScreen
from tui.session import Session
from tui.widgets.footer import TableFooter, in_sight
from tui.widgets.options_form import OptionsForm

__all__ = ["config_dir"]

pytestmark = pytest.mark.usefixtures("config_dir")



async def test_at_80_columns_the_creator_sees_start_in_the_lobby_footer() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await open_lobby(app, pilot)
        labels = await until(pilot, lambda: footer_labels_in_view(app), "the footer drawn")
        assert "Start" in labels and "Leave" in labels, labels
        assert lobby.is_creator and footer_keys(app)["start"]
        # Every key drawn whole: the footer ended in a bare "n" (its words cut off).
        footer = lobby.query_one(TableFooter)
        assert labels == [entry.description for entry in footer.entries], labels
        # The creator starts: no Ready of theirs (it stood beside their "starts").
        assert not any("eady" in label for label in labels), labels
        await pilot.press("n")  # the name line: Enter renames
        await until(pilot, lambda: "Rename" in footer_labels_in_view(app), "Enter renames")


async def test_esc_in_the_lobby_s_options_form_goes_back_to_the_seats_and_the_footer_says_so(
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await open_lobby(app, pilot)
        seats = lobby.query_one("#lobby-seats", DataTable)
        form = await until(pilot, lambda: lobby.query(OptionsForm) and mounted(
            lobby.query_one(OptionsForm)) and lobby.query_one(OptionsForm), "the options form")
        await until(pilot, lambda: "Leave" in footer_labels_in_view(app), "the footer")
        # Tab, as the player did, until the focus is in the options form.
        for _ in range(12):
            if app.focused is not None and form in app.focused.ancestors:
                break
            await pilot.press("tab")
        assert app.focused is not None and form in app.focused.ancestors
        labels = await until(pilot, lambda: "Seats" in footer_labels_in_view(app)
                             and footer_labels_in_view(app), "the footer for the form")
        assert "Leave" not in labels, labels  # Esc does not leave from here
        assert "Choose" in labels or "On/off" in labels, labels  # the form's own key
        await pilot.press("escape")
        assert app.screen is lobby, "Esc in the options form asked to leave"
        assert app.focused is seats
        await pilot.press("down")  # the seat keys are back at once
        assert seats.cursor_row == 1
        labels = await until(pilot, lambda: "Leave" in footer_labels_in_view(app)
                             and footer_labels_in_view(app), "the seats' footer")
        assert "Seats" not in labels and "Options" in labels, labels
        # One key takes the creator to the table's set-up, and Esc back.
        await pilot.press("o")
        assert app.focused is lobby.query_one("#lobby-game")
        await pilot.press("tab", "escape")
        assert app.screen is lobby and app.focused is seats
        await pilot.press("escape")  # on the seats, Esc leaves (here, at once)
        await until(pilot, lambda: app.screen is not lobby, "the lobby left")


async def test_a_spectator_in_the_lobby_has_no_seat_keys() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        host = await app.hosting.start(port=None)
        ann = Session("Ann", host=host)
        await ann.connect()
        joined = await ann.create("T", "getout", 2, {})
        eve = Session("Eve", host=host)
        await eve.connect()
        await eve.join(joined.table, spectate=True)
        await show_lobby(app, pilot, eve)
        keys = footer_keys(app)
        for action in ("start", "toggle_ready", "add_bot", "remove"):
            assert action not in keys, action
        assert keys["chat"] and keys["leave"]
        assert keys["sit"]  # a spectator may sit down in a free seat
        await ann.close()


async def test_dialogs_show_their_own_keys_and_not_the_screens_below() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_lobby(app, pilot)
        app.push_screen(ConfirmScreen("Really?"))
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen)
                    and footer_labels_in_view(app), "the question and its footer")
        assert set(footer_keys(app)) == {"answer"}
        assert {"Yes", "No"} <= set(footer_labels_in_view(app))
        await pilot.press("n")
        app.push_screen(ChoiceScreen("Which?", [("a", "A"), ("b", "B")]))
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen)
                    and footer_labels_in_view(app), "the chooser and its footer")
        assert {"Choose", "Cancel", "Pick"} <= set(footer_labels_in_view(app))
        # The number keys pick too, and the footer says which ("1-2").
        from tui.widgets.footer import TableFooter

        drawn = {e.description: e.display for e in app.screen.query_one(TableFooter).entries}
        assert drawn["Pick"] == "1-2"
        assert "start" not in footer_keys(app)
        await pilot.press("down", "enter")
        assert isinstance(app.screen, LobbyScreen)


def getout_heads_up() -> HiddenHandApp:
    """A solo GET OUT! round of two seats, ours first."""
    return make_app(solo={"game_id": "getout", "seats": 2,
                          "options": {"first": 0, "match": False}})


async def first_turn(pilot: Pilot[Any]) -> GetOutScreen:
    """The GET OUT! table once our first turn is on it."""
    app = pilot.app
    screen: GetOutScreen = await until(
        pilot, lambda: isinstance(app.screen, GetOutScreen) and app.screen.legal
        and app.screen, "our first turn")
    return screen


async def test_the_getout_footer_follows_the_turn_the_round_and_the_summary() -> None:
    app = getout_heads_up()
    async with app.run_test(size=SIZE) as pilot:
        screen = await first_turn(pilot)
        keys = footer_keys(app)
        # We lay the first call card: no drawing before that.
        assert screen.view["call"] is None
        assert keys["play"] and "draw" not in keys and keys["chat"] and keys["leave"]
        for hidden in ("next_round", "bot_for_away", "finish"):
            assert hidden not in keys, hidden
        assert keys["to_lobby"]  # the creator may end the game (asked first)
        assert app.hosting.host is not None
        (table,) = app.hosting.host.tables.values()
        stack_getout(table.game, [["kevin 1"], ["geoff 12"]], played=["kevin 8"], turn=0)
        app.hosting.host.refresh(table)
        await until(pilot, lambda: len(screen.view.get("hand", [])) == 1, "the new hand")
        await pilot.press("enter")  # our last card: the round (and the game) is over
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen)
                    and footer_labels_in_view(app), "the summary and its footer")
        # Under the summary, only its own keys: its answers, the game's review once it
        # is kept (at once or a moment later: it is written from a thread), the chat.
        assert {"answer"} <= set(footer_keys(app)) <= {"answer", "review", "chat"}
        assert "Lobby" in footer_labels_in_view(app)  # worded as its button
        await pilot.press("c")
        assert app.screen is screen
        keys = footer_keys(app)
        assert "play" not in keys and "draw" not in keys  # after the round they cannot work
        assert keys["to_lobby"]


async def test_the_table_footer_dims_keys_with_the_update_and_mounts_nothing() -> None:
    app = getout_heads_up()
    async with app.run_test(size=SIZE) as pilot:
        screen = await first_turn(pilot)
        assert app.hosting.host is not None
        (table,) = app.hosting.host.tables.values()
        table.seats[1].bot = None  # the other seat moves when the test says so
        stack_getout(table.game, [["kevin 1", "geoff 3"], ["geoff 12", "kevin 5"]],
                     played=["kevin 8"], turn=0)
        app.hosting.host.refresh(table)

        def drawn_as_bound() -> bool:
            return footer_drawn(app) == footer_keys(app)

        await until(pilot, lambda: len(screen.view.get("hand", [])) == 2 and screen.legal
                    and drawn_as_bound(), "the footer to draw our turn's keys")
        await pilot.press("1")  # geoff 3: no match for the kevin 8, so Enter cannot play it
        await until(pilot, lambda: drawn_as_bound() and not footer_drawn(app)["play"],
                    f"play dimmed for a card that cannot be played: {screen.view['hand']}, "
                    f"{footer_drawn(app)}, {footer_keys(app)}")
        await pilot.press("2")  # kevin 1 matches: play is lit
        await until(pilot, lambda: drawn_as_bound() and footer_drawn(app)["play"],
                    "play lit for the card that can be played")
        assert footer_drawn(app)["play"] and footer_drawn(app)["draw"]
        footer = screen.query_one(TableFooter)
        widgets = len(list(screen.walk_children()))
        await pilot.press("d")
        await until(pilot, lambda: screen.view.get("turn") == 1 and drawn_as_bound()
                    and not footer_drawn(app)["draw"], "play and draw dimmed")
        assert "play" in footer_drawn(app)  # dimmed, not hidden: our turn comes back
        (draw,) = [a for a in table.game.legal_actions(1) if a["type"] == "draw"]
        # The keys are drawn with the update itself (in its own frame), not once the
        # footer gets round to the screen's refresh_bindings.
        at_show: list[dict[str, bool]] = []
        watch = screen.watch_update

        def watched(msg: Any) -> None:
            watch(msg)
            if (msg or {}).get("view", {}).get("turn") == 0:
                at_show.append(footer_drawn(app))

        screen.watch_update = watched  # type: ignore[method-assign]
        app.hosting.host.act(table, 1, draw)
        await until(pilot, lambda: screen.view.get("turn") == 0 and drawn_as_bound()
                    and footer_drawn(app)["draw"], "our turn's keys lit again")
        assert at_show and at_show[0] == footer_keys(app), at_show
        # The footer is one widget: its keys came and went without a widget mounted.
        assert screen.query_one(TableFooter) is footer and not footer.children
        assert len(list(screen.walk_children())) == widgets
        stack_getout(table.game, [["kevin 1"], ["geoff 12"]], played=["kevin 8"], turn=0)
        app.hosting.host.refresh(table)
        await until(pilot, lambda: len(screen.view.get("hand", [])) == 1, "the new hand")
        await pilot.press("enter")  # our last card: the round (and the game) is over
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen), "the summary")
        await pilot.press("c")
        await until(pilot, lambda: app.screen is screen and drawn_as_bound()
                    and "to_lobby" in footer_drawn(app), "the keys after the game")
        assert "play" not in footer_drawn(app)


async def test_the_getout_footer_says_how_to_choose_a_card_and_its_click_chooses() -> None:
    """Playing is Enter on the chosen card: the footer says how to choose one (at 80
    columns too), and clicking that key chooses the next card."""
    from tui.games.getout.hand import HandWidget

    app = getout_heads_up()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await first_turn(pilot)
        await until(pilot, lambda: footer_drawn(app).get("select"), "the choose key lit")
        footer = screen.query_one(TableFooter)
        (entry,) = [e for e in footer.entries if e.name == "select"]
        assert (entry.display, entry.description) == ("←→", "Choose")
        assert "Choose" in footer_labels_in_view(app)
        hand = screen.query_one(HandWidget)
        assert hand.selected == 0
        start, _end = footer.entry_region(footer.entries.index(entry))
        await pilot.click(TableFooter, offset=(start + 1, 0))
        await until(pilot, lambda: hand.selected == 1, "the next card chosen")


async def test_the_gotfive_board_says_its_keys_while_no_hint_takes_the_room() -> None:
    from tui.games.gotfive.marking import BOARD_KEYS

    app = make_app(solo={"game_id": "gotfive", "seats": 3, "options": {"first": 0}})
    async with app.run_test(size=(80, 24)) as pilot:
        screen, _table = await still_gotfive_table(pilot)
        board = screen.query_one("#gf-board")
        assert screen.view.get("hint") is None  # (hints are off by default)
        # (The cell under the cursor first; auto-cross is on.)
        assert board.border_title == f"Your board (A1) · {BOARD_KEYS} · -=seen"
        assert "←↑↓→" in BOARD_KEYS and "<> ✗ rest of row" in BOARD_KEYS
        await pilot.pause()
        # None of it cut off at 80.
        assert f"Your board (A1) · {BOARD_KEYS} · -=seen" in screen_text(app)


async def test_keys_that_do_not_fit_give_way_to_those_said_nowhere_else() -> None:
    """Got Five! at 80 columns: the chat line says / and ?, so those keys give way and
    Lobby is in sight (it was cut off); narrower, the board's own keys (its title says
    them) give way too, and what still does not fit is marked at the edge."""
    app = make_app(solo={"game_id": "gotfive", "seats": 3, "options": {"first": 0}})
    async with app.run_test(size=(130, 30)) as pilot:
        await still_gotfive_table(pilot)
        footer = app.screen.query_one(TableFooter)
        every = await until(pilot, lambda: "Lobby" in footer_labels_in_view(app)
                            and footer_labels_in_view(app), "the whole footer")
        assert {"Chat", "Rules", "✗/○", "✗ range"} <= set(every)
        assert not footer.render_line(0).text.rstrip().endswith("›")
        await pilot.resize_terminal(80, 24)
        labels = await until(pilot, lambda: "Rules" not in footer_labels_in_view(app)
                             and footer_labels_in_view(app), "the footer at 80 columns")
        assert "Lobby" in labels and "Leave" in labels and "✗/○" in labels, labels
        assert "Chat" not in labels
        assert "/ chat" in screen_text(app) and "? rules" in screen_text(app)
        await pilot.resize_terminal(60, 24)
        labels = await until(pilot, lambda: "✗/○" not in footer_labels_in_view(app)
                             and footer_labels_in_view(app), "the footer at 60 columns")
        assert "Lobby" in labels and "GOT FIVE!" in labels, labels
        await pilot.resize_terminal(45, 24)
        await until(pilot, lambda: footer.render_line(0).text.endswith("›"),
                    "the mark of keys off the edge")
        assert "Lobby" not in footer_labels_in_view(app)
        # Too short for the chat line: then the footer is what says / and ?.
        chat = app.screen.query_one("#table-chat")
        await pilot.resize_terminal(45, 30)
        await until(pilot, lambda: in_sight(app.screen, chat), "the chat line")
        await pilot.resize_terminal(60, 10)
        await until(pilot, lambda: not in_sight(app.screen, chat)
                    and "chat" in {e.name for e in footer.entries}, "/ kept in the footer")


async def test_the_gotfive_footer_draws_the_keys_of_each_turn() -> None:
    app = make_app(solo={"game_id": "gotfive", "seats": 3, "options": {"first": 0}})
    async with app.run_test(size=SIZE) as pilot:
        screen, table = await still_gotfive_table(pilot)
        rng = random.Random(5)
        shown: set[frozenset[str]] = set()
        for _ in range(12):
            move = gotfive_clue_move(table, rng)
            if move is None:
                break
            version = screen.view.get("version")
            app.hosting.host.act(table, *move)
            await until(pilot, lambda before=version: screen.view.get("version") != before
                        and footer_drawn(app) == footer_keys(app), "the footer of the move")
            shown.add(frozenset(footer_drawn(app).items()))
        assert len(shown) >= 3  # keys lit and dimmed with the turn and its phase


# ---- the table's footer draws what Textual's footer drew ------------------------


class KeysScreen(Screen[None]):
    """A few keys of every kind a table has: lit, dimmed, with a tooltip, hidden."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "play", "Play card", tooltip="Play the chosen card"),
        Binding("d", "draw", "Draw"),
        Binding("x", "secret", "Hidden", show=False),
        Binding("c", "chat", "Chat"),
        Binding("escape", "leave", "Leave"),
    ]

    def __init__(self, footer: Widget) -> None:
        super().__init__()
        self.footer = footer
        self.done: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static("table")
        yield self.footer

    #: "Draw" is dimmed (a test may light it).
    draw_dimmed = True

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if action == "draw" and self.draw_dimmed else True

    def action_play(self) -> None:
        self.done.append("play")

    def action_draw(self) -> None:
        self.done.append("draw")

    def action_chat(self) -> None:
        self.done.append("chat")

    def action_leave(self) -> None:
        self.done.append("leave")


class KeysApp(App[None]):
    def __init__(self, footer: Widget, theme: str) -> None:
        super().__init__()
        self.keys_screen = KeysScreen(footer)
        self.theme = theme

    def on_mount(self) -> None:
        self.push_screen(self.keys_screen)


async def bottom_line(footer: Widget, width: int, theme: str,
                      hover: int | None = None) -> list[tuple[str, Style]]:
    """The footer's line as drawn, with the mouse over column ``hover``."""
    app = KeysApp(footer, theme)

    def line() -> list[tuple[str, Style]]:
        return [(char, (segment.style or Style()).clear_meta_and_links())
                for segment in screen_strips(app)[4] for char in segment.text]

    async with app.run_test(size=(width, 5)) as pilot:
        # Textual's footer draws its keys once it has composed them, which a loaded
        # machine may put off past one pause: wait for them, then for a frame at rest.
        await until(pilot, lambda: "".join(c for c, _ in line()).strip(), "the keys")
        if hover is not None:
            await pilot.hover(offset=(hover, 4))
        await pilot.pause()
        return line()


class EveryTableKeys(Screen[None]):
    """What every table has (as ``TableScreen`` declares it)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "chat", "Chat"),
        Binding("escape", "leave", "Leave"),
    ]

    def compose(self) -> ComposeResult:
        yield Static("table")
        yield TableFooter()


class OneGameKeys(EveryTableKeys):
    """A game's own moves (as each game's table screen declares them)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "play", "Play card"),
        Binding("d", "draw", "Draw"),
    ]


async def test_a_tables_own_moves_come_before_the_keys_every_table_has() -> None:
    class OneScreenApp(App[None]):
        def on_mount(self) -> None:
            self.push_screen(OneGameKeys())

    app = OneScreenApp()
    async with app.run_test(size=(80, 5)) as pilot:
        await pilot.pause()
        footer = app.screen.query_one(TableFooter)
        assert [e.description for e in footer.entries] == ["Play card", "Draw", "Chat", "Leave"]


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
@pytest.mark.parametrize("compact", [False, True])
@pytest.mark.parametrize("hover", [None, 13])
async def test_the_table_footer_draws_what_textuals_footer_drew(
        theme: str, compact: bool, hover: int | None) -> None:
    # (Compact, and too narrow for two spaces between keys: one, as Textual's.)
    width = 38 if compact else 60
    footer = TableFooter(compact=compact)
    mine = await bottom_line(footer, width, theme, hover)
    textuals = await bottom_line(Footer(compact=compact, show_command_palette=False), width,
                                 theme, hover)
    assert "".join(c for c, _ in mine) == "".join(c for c, _ in textuals)
    # The same cells, but for one thing: the dimmed key ("Draw") is not bold and its words
    # are in italics, which a monochrome terminal shows (it shows no dimmed colour).
    def look(cells: list[tuple[str, Style]]) -> list[tuple[object, ...]]:
        return [(c, s.color, s.bgcolor, bool(s.bold), bool(s.italic), bool(s.dim))
                for c, s in cells]

    start, end = footer.entry_region(1)  # the footer is not scrolled: its own columns
    key_end = start + len(footer.entries[1].display) + (0 if compact else 2)
    assert not any(style.bold for _, style in mine[start:end])
    assert all(style.italic for _, style in mine[key_end:end])
    expected = look(textuals)
    for x in range(start, end):  # Textual's: a bold key, plain words
        c, color, bgcolor, _, _, dim = expected[x]
        expected[x] = (c, color, bgcolor, False, x >= key_end, dim)
    assert look(mine) == expected


async def test_a_compact_footer_keeps_two_spaces_between_keys_where_they_fit() -> None:
    """At 80 columns the footer packed its keys one space apart though they fitted with
    two: "⏎ Play card d Draw c Chat" read as one run on a monochrome terminal."""
    line = "".join(c for c, _ in await bottom_line(TableFooter(compact=True), 60,
                                                    "textual-dark", None))
    assert line.startswith("⏎ Play card  d Draw  c Chat  esc Leave"), line
    line = "".join(c for c, _ in await bottom_line(TableFooter(compact=True), 38,
                                                    "textual-dark", None))
    assert line.startswith("⏎ Play card d Draw c Chat esc Leave"), line


async def test_the_table_footer_presses_a_key_clicked_and_tells_what_it_does() -> None:
    footer = TableFooter()
    app = KeysApp(footer, "textual-dark")
    async with app.run_test(size=(32, 5)) as pilot:
        await pilot.pause()
        assert [entry.name for entry in footer.entries] == ["play", "draw", "chat", "leave"]
        line = screen_strips(app)[4].text
        play, draw, chat, leave = (footer.entry_region(i) for i in range(4))
        assert line[play[0]:play[1]].strip().endswith("Play card")
        assert line[draw[0]:draw[1]].strip().endswith("Draw")
        await pilot.click(TableFooter, offset=(play[0] + 1, 0))
        await pilot.click(TableFooter, offset=(draw[0] + 1, 0))  # dimmed: nothing
        await pilot.pause()
        assert app.keys_screen.done == ["play"]
        await pilot.hover(TableFooter, offset=(play[0] + 1, 0))
        assert footer.tooltip == "Play the chosen card"
        await pilot.hover(TableFooter, offset=(chat[0] + 1, 0))
        assert footer.tooltip is None
        # "Leave" does not fit in 32 columns: the wheel brings it in, and it is clicked.
        assert leave[1] > 32
        for _ in range(4):
            footer.post_message(events.MouseScrollDown(
                footer, 2, 0, 0, 0, 0, False, False, False, screen_x=2, screen_y=4))
        await pilot.pause()
        start, end = footer.entry_region(3)
        assert start >= 0 and end <= 32, (start, end)
        assert "Leave" in screen_strips(app)[4].text
        await pilot.click(TableFooter, offset=(start + 1, 0))
        await pilot.pause()
        assert app.keys_screen.done == ["play", "leave"]


async def test_on_a_phone_keys_off_the_edge_come_by_a_sideways_swipe_or_a_tap_on_the_arrow(
) -> None:
    """Upright, a phone's footer ran off the edge with Leave out of reach: a swipe sends
    the wheel sideways, which the footer ignored, and a tap on its › pressed a key."""
    footer = TableFooter()
    app = KeysApp(footer, "textual-dark")
    async with app.run_test(size=(32, 5)) as pilot:
        await pilot.pause()
        assert footer.render_line(0).text.endswith("›") and "Leave" not in footer.render_line(
            0).text
        # A tap on the ›: the next page of keys, and a ‹ to go back. The blank before
        # the › counts as it (a finger on a one-cell target at the edge missed it).
        gap = footer.render_line(0).text.rstrip("›")
        assert gap.endswith(" ") and len(gap) - len(gap.rstrip()) >= 2, gap
        await pilot.click(TableFooter, offset=(len(gap.rstrip()) + 1, 0))
        await pilot.pause()
        line = footer.render_line(0).text
        assert "Leave" in line and line.startswith("‹"), line
        assert app.keys_screen.done == []  # no key pressed on the way
        # A second tap where the › was presses nothing (a key had moved under it: the
        # chat opened on a phone, and the summary closed).
        await pilot.click(TableFooter, offset=(31, 0))
        await pilot.pause()
        assert app.keys_screen.done == [] and footer.entry_at(31) is None
        await pilot.click(TableFooter, offset=(0, 0))
        await pilot.pause()
        assert footer.entry_region(0)[0] == 0 and not footer.render_line(0).text.startswith("‹")
        # A sideways swipe (the wheel to the right, then to the left).
        for _ in range(4):
            footer.post_message(events.MouseScrollRight(
                footer, 2, 0, 0, 0, 0, False, False, False, screen_x=2, screen_y=4))
        await pilot.pause()
        assert footer.entry_region(0)[0] < 0
        for _ in range(4):
            footer.post_message(events.MouseScrollLeft(
                footer, 2, 0, 0, 0, 0, False, False, False, screen_x=2, screen_y=4))
        await pilot.pause()
        assert footer.entry_region(0)[0] == 0


async def phone_menu_footer(pilot: Any, app: Any) -> TableFooter:
    """The menu's footer at a phone's width, once it says more keys are past its edge."""
    footer: TableFooter = await until(pilot, lambda: app.screen.query(TableFooter)
                                      and app.screen.query_one(TableFooter), "the footer")
    await until(pilot, lambda: footer.render_line(0).text.rstrip().endswith("›"),
                "a › at the edge")
    return footer


async def test_the_menu_s_footer_on_a_phone_says_more_keys_are_past_its_edge() -> None:
    """The menu, the forms, the rules and Past games had Textual's footer: on a phone
    held upright it ended "p Past gam", cut at the edge with nothing to say there was
    more, and no › to tap."""
    app = make_app("Ann")
    async with app.run_test(size=(43, 40)) as pilot:
        footer = await phone_menu_footer(pilot, app)
        assert "Quit" not in footer.render_line(0).text
        await pilot.click(TableFooter, offset=(42, 0))
        await until(pilot, lambda: "Quit" in footer.render_line(0).text, "the rest of the keys")
        assert footer.render_line(0).text.startswith("‹")


async def test_a_footer_past_its_edge_shows_whole_keys_only() -> None:
    """On a phone the key at the edge was cut: "p Past ga›", "esc Le›" (read as other
    words), and a tap on its half pressed it."""
    app = make_app("Ann")
    async with app.run_test(size=(43, 40)) as pilot:
        footer = await phone_menu_footer(pilot, app)
        for _ in range(3):  # page by page, each edge
            line = footer.render_line(0).text
            body = line.removesuffix("›").rstrip()
            assert any(body.endswith(e.description) for e in footer.entries), line
            if line.startswith("‹"):
                assert any(line[1:].lstrip().startswith(e.display) for e in footer.entries), line
            # The blank where a cut key was presses nothing.
            assert footer.entry_at(len(body) + 1) is None or len(body) + 1 >= len(line) - 1
            await pilot.click(TableFooter, offset=(42, 0))
            await pilot.pause()


async def test_taps_on_the_footer_s_arrows_bring_every_key_in_sight() -> None:
    """Paged by its width, the menu's footer skipped the key cut at its edge ("p Past
    games" was out of reach by taps); and a second tap where the ‹ was pressed the
    first key (the form to open a table came up)."""
    app = make_app("Ann")
    async with app.run_test(size=(43, 40)) as pilot:
        footer = await phone_menu_footer(pilot, app)
        menu = app.screen
        assert footer.render_line(0).text.startswith(" ")  # (a margin, never a key)
        seen: set[str] = set()
        for _ in range(10):
            line = footer.render_line(0).text
            seen |= {e.description for e in footer.entries if e.description in line}
            if not line.rstrip().endswith("›"):
                break
            await pilot.click(TableFooter, offset=(42, 0))
            await pilot.pause()
        assert seen == {e.description for e in footer.entries}, seen
        while footer.render_line(0).text.startswith("‹"):
            await pilot.click(TableFooter, offset=(0, 0))
            await pilot.pause()
        await pilot.click(TableFooter, offset=(0, 0))  # where the ‹ was
        await pilot.pause()
        assert app.screen is menu


async def test_a_form_s_text_line_keeps_the_form_s_keys_in_the_footer() -> None:
    """Settings' name line has the keys from the start: the footer said "⏎ Send esc
    Back", a table's chat line's keys, where Enter saves and nothing is sent."""
    app = make_app("Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        footer = await until(pilot, lambda: type(app.screen).__name__ == "SettingsScreen"
                             and app.screen.query_one(TableFooter), "the settings")
        await until(pilot, lambda: footer.entries, "its keys")
        names = [e.name for e in footer.entries]
        assert "save" in names and "submit" not in names, names


async def test_a_mouse_that_leaves_past_the_edge_leaves_no_key_lit() -> None:
    """What a phone's page sends after a tap or a swipe (nothing hovers on a touch
    screen): a move to a cell past the screen's edge. A move to cell 0;0, which Textual
    drops, left the tapped key lit."""
    footer = TableFooter()
    app = KeysApp(footer, "textual-dark")
    async with app.run_test(size=(32, 5)) as pilot:
        await pilot.pause()
        await pilot.hover(TableFooter, offset=(footer.entry_region(0)[0] + 1, 0))
        assert footer.hovered == 0
        app.post_message(events.MouseMove(None, 9998, 9998, 0, 0, 0, False, False, False,
                                          screen_x=9998, screen_y=9998))
        await until(pilot, lambda: footer.hovered is None, "no key lit")


async def test_the_key_under_a_resting_mouse_stays_lit_as_the_keys_change_and_scroll() -> None:
    footer = TableFooter()
    app = KeysApp(footer, "textual-dark")
    async with app.run_test(size=(32, 5)) as pilot:
        await pilot.pause()
        chat = footer.entry_region(2)
        await pilot.hover(TableFooter, offset=(chat[0] + 1, 0))
        assert footer.hovered == 2
        lit = footer.render_line(0)
        app.keys_screen.draw_dimmed = False  # the keys change (Draw lit), the mouse stays
        app.keys_screen.refresh_bindings()
        await pilot.pause()
        assert footer.entries[1].enabled and footer.hovered == 2
        styles = {seg.style.bgcolor for seg in footer.render_line(0)
                  if seg.text.strip() == "c"}
        assert styles == {seg.style.bgcolor for seg in lit if seg.text.strip() == "c"}
        # The wheel brings other keys under the mouse: the one under it now is lit.
        for _ in range(2):
            footer.post_message(events.MouseScrollDown(
                footer, chat[0] + 1, 0, 0, 0, 0, False, False, False,
                screen_x=chat[0] + 1, screen_y=4))
        await pilot.pause()
        assert footer.entry_region(0)[0] < 0, footer.entry_region(0)  # scrolled
        # The mouse stayed at its column: the key under it there is the one lit.
        assert footer.hovered is not None, "the mouse's column was forgotten"
        assert footer.hovered == footer.entry_at(chat[0] + 1) != 2


async def test_while_the_chat_line_has_the_keys_the_footer_shows_send_and_back() -> None:
    app = getout_heads_up()
    async with app.run_test(size=SIZE) as pilot:
        screen = await first_turn(pilot)
        before = footer_drawn(app)
        await pilot.press("slash", "h", "i")
        await until(pilot, lambda: set(footer_drawn(app)) == {"submit", "back"},
                    "the chat line's keys")
        footer = screen.query_one(TableFooter)
        assert [e.description for e in footer.entries] == ["Send", "Back"]
        await pilot.click(TableFooter, offset=(footer.entry_region(0)[0] + 1, 0))  # Send
        await until(pilot, lambda: footer_drawn(app) == before, "the table's keys again")
        assert any("hi" in line.text for line in screen.query_one("#log").lines)
        await pilot.press("slash")
        await until(pilot, lambda: "back" in footer_drawn(app), "the chat line's keys")
        await pilot.click(TableFooter, offset=(footer.entry_region(1)[0] + 1, 0))  # Back
        await until(pilot, lambda: footer_drawn(app) == before, "the table's keys again")
        assert isinstance(app.screen, GetOutScreen)  # back at the table, not gone


async def test_a_careful_question_starts_on_the_answer_that_can_be_undone() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_lobby(app, pilot)
        answers: list[bool | None] = []
        app.push_screen(ConfirmScreen("Leave?", yes="Leave", no="Stay", careful=True),
                        answers.append)
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen)
                    and footer_labels_in_view(app), "the question and its footer")
        assert app.screen.focused is not None and app.screen.focused.id == "no"
        # The button lit as the choice is the one focused (a solid "Announce" beside a
        # focused Back read as chosen: the second Enter, meant as yes, went back).
        buttons = {b.id: b.variant for b in app.screen.query(Button)}
        assert buttons == {"yes": "default", "no": "primary"}
        # The footer words the keys as the buttons are worded.
        assert footer_labels_in_view(app)[:2] == ["Leave", "Stay"]
        await pilot.press("enter")  # a stray Enter stays
        await until(pilot, lambda: answers, "the answer")
        assert answers == [False]
        app.push_screen(ConfirmScreen("Really?"), answers.append)  # not careful: yes first
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        await pilot.pause()
        await pilot.press("enter")
        await until(pilot, lambda: len(answers) == 2, "the answer")
        assert answers == [False, True]


async def test_a_click_on_get_its_look_at_key_looks_at_the_next_player() -> None:
    from tui.games.getit.screen import GetItScreen

    app = make_app(solo={"game_id": "getit", "seats": 3,
                         "options": {"level": 1, "timer": 0}})
    async with app.run_test(size=SIZE) as pilot:
        screen = await until(pilot, lambda: isinstance(app.screen, GetItScreen)
                             and "done" in footer_keys(app) and app.screen, "preparation")
        await pilot.press("enter")  # arranged as dealt
        await until(pilot, lambda: screen.view.get("phase") == "play"
                    and footer_keys(app).get("look"), "the round")
        assert app.hosting.host is not None
        (table,) = app.hosting.host.tables.values()
        for seat in table.seats:
            seat.bot = None
        footer = screen.query_one(TableFooter)
        look = next(i for i, e in enumerate(footer.entries) if e.name == "look")
        assert footer.entries[look].display == "2-3"
        for target in (1, 2, None):  # Bot 2, Bot 3, then nobody
            await pilot.click(TableFooter, offset=(footer.entry_region(look)[0] + 1, 0))
            await until(pilot, lambda t=target: table.game.signals["look"][0] == t
                        and screen.signals.mine(screen.view, screen.my_seat, "look") == t,
                        f"a look at {target}")


async def test_a_dialog_shows_its_keys_in_its_first_frame(
        monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_lobby(app, pilot)
        dialog = ConfirmScreen("Really?")
        at_first_frame: list[dict[str, bool]] = []
        render_lines = Widget.render_lines

        def drawn(widget: Widget, crop: Region) -> list[Strip]:
            # Only a frame draws widgets: the first drawn with the dialog on top is in its
            # first frame.
            if app.screen is dialog and not at_first_frame:
                at_first_frame.append(footer_drawn(app))
            return render_lines(widget, crop)

        monkeypatch.setattr(Widget, "render_lines", drawn)
        app.push_screen(dialog)
        await until(pilot, lambda: at_first_frame, "the dialog's first frame")
        assert at_first_frame[0] == {"answer": True}


async def test_a_summary_longer_than_the_screen_names_its_scroll_keys() -> None:
    """At 80×24 a long summary (a Got Five! game's clues) does not fit: the footer says
    the arrows scroll it, and they do; a short one does not name them."""
    from textual.app import App
    from textual.containers import VerticalScroll

    from tui.screens.summary import Choice, SummaryScreen

    class Host(App[None]):
        pass

    long_body = [f"{i}. a clue" for i in range(1, 40)]
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        for body, scrolls in ((long_body, True), (["Ann wins."], False)):
            summary = SummaryScreen("Game over", list(body), [Choice("lobby", "Back to lobby")])
            await app.push_screen(summary)
            await pilot.pause()
            await pilot.pause()
            assert summary.scrolls() is scrolls
            assert ("scroll" in footer_drawn(app)) is scrolls  # type: ignore[arg-type]
            if scrolls:
                await pilot.press("down", "down")
                assert summary.query_one(".summary-body", VerticalScroll).scroll_y == 2
            summary.dismiss(None)
            await pilot.pause()


@pytest.mark.parametrize("width", [45, 80])
async def test_every_answer_of_a_summary_is_whole_on_a_narrow_terminal(width: int) -> None:
    """At 45 columns the answers in a row ran off the dialog ('Rematch (r)  Lobby (l)
    Revie'): there they go one under another, each whole."""
    from textual.app import App
    from textual.widgets import Button

    from tui.screens.summary import Choice, SummaryScreen

    class Host(App[None]):
        CSS_PATH = str(Path(__file__).parent.parent / "tui" / "app.tcss")

    app = Host()
    async with app.run_test(size=(width, 30)) as pilot:
        summary = SummaryScreen("Game over", ["Ann wins."],
                                [Choice("rematch", "Rematch"), Choice("lobby", "Lobby")])
        summary.offer_together(lambda: "Review", lambda: None)
        await app.push_screen(summary)
        buttons = await until(pilot, lambda: len(summary.query(Button)) == 4
                              and list(summary.query(Button)), "the answers")
        await pilot.pause()
        dialog = summary.query_one(".dialog").content_region
        for button in buttons:
            assert dialog.contains_region(button.region), (str(button.label), button.region)
        rows = {button.region.y for button in buttons}
        assert len(rows) == (4 if width == 45 else 1)


@pytest.mark.parametrize(("size", "guest"), [((80, 24), True), ((80, 24), False),
                                             ((45, 30), False)])
async def test_a_long_summary_keeps_who_won_and_its_answers_in_sight(
        size: tuple[int, int], guest: bool) -> None:
    """At 80×24 a guest's end of a long Got Five! game (every clue, and the words on what
    the creator may do) was taller than the screen: the dialog scrolled to its focused
    answer and its headline, who won, was out of sight. The body gives up the rows."""
    from textual.app import App
    from textual.containers import VerticalScroll
    from textual.widgets import Button, Label

    from tui.screens.summary import GUEST_AT_END, Choice, SummaryScreen

    class Host(App[None]):
        CSS_PATH = str(Path(__file__).parent.parent / "tui" / "app.tcss")

    app = Host()
    async with app.run_test(size=size) as pilot:
        choices = [] if guest else [Choice("rematch", "Rematch"), Choice("lobby", "Lobby")]
        summary = SummaryScreen("🏆 Bot 2 wins: named all five!",
                                [f"{i}. a clue" for i in range(1, 40)], choices,
                                waiting=GUEST_AT_END if guest else None, id="gotfive-over")
        summary.offer_together(lambda: None if guest else "Review", lambda: None)
        await app.push_screen(summary)
        dialog = summary.query_one(".dialog")
        headline = summary.query_one(".question", Label)

        def in_sight() -> bool:
            shown = dialog.content_region
            return (all(shown.contains_region(w.region)
                        for w in (headline, *summary.query(Button).results(Button)))
                    and summary.scrolls())

        await until(pilot, in_sight, "who won and every answer in sight")
        await pilot.press("down")  # (the body still scrolls, and the rest stays)
        body = summary.query_one(".summary-body", VerticalScroll)
        assert body.scroll_y == 1
        assert in_sight()
        # Page by page, and to either end (24 clues took over 30 presses of ↓).
        shown = body.scrollable_content_region.height
        await pilot.press("pagedown")
        assert body.scroll_y == min(body.max_scroll_y, 1 + max(1, shown - 1))
        await pilot.press("end")
        assert body.scroll_y == body.max_scroll_y > 1
        await pilot.press("home")
        assert body.scroll_y == 0


async def test_a_notice_over_a_summary_leaves_its_answers_in_sight() -> None:
    """A "Bob asks for a rematch" toast at the foot of the screen covered the summary's
    Rematch button at 80×24: over a summary, notices go at the top."""
    from textual.app import App
    from textual.widgets import Button

    from tui.screens.summary import Choice, SummaryScreen

    class Host(App[None]):
        CSS_PATH = str(Path(__file__).parent.parent / "tui" / "app.tcss")

    app = Host()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        summary = SummaryScreen("🏆 Bot 2 wins: named all five!",
                                [f"{i}. a clue" for i in range(1, 40)],
                                [Choice("rematch", "Rematch"), Choice("lobby", "Lobby")])
        await app.push_screen(summary)
        summary.notify("Bob asks for a rematch: press r to play again with everyone.")
        toasts = await until(pilot, lambda: [w for w in summary.query("Toast")
                                             if w.region.height], "the notice")
        buttons = list(summary.query(Button).results(Button))
        assert buttons and not any(t.region.overlaps(b.region) for t in toasts for b in buttons)


async def test_a_key_typed_for_the_table_as_the_game_ends_is_asked_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Got Five!'s r reveals; a summary's r asks for a rematch. A player typing r for the
    next turn as a bot won threw the finished game away: an answer's key within a moment
    of the summary showing is asked again, and so is the same key pressed again at once
    (a second quick r rematched); a press after that is taken."""
    from textual.app import App

    from tui.screens import summary as summary_module
    from tui.screens.summary import REPEAT_GUARD, Choice, SummaryScreen

    monkeypatch.setattr(summary_module, "ANSWER_GUARD", 0.8)  # (tests run without it)
    now = [100.0]
    answers: list[str | None] = []
    notes: list[str] = []
    app: App[None] = App()
    async with app.run_test(size=(80, 24)) as pilot:
        summary = SummaryScreen("Game over", ["Bot 3 wins."],
                                [Choice("rematch", "Rematch"), Choice("lobby", "Lobby")])
        summary.clock = lambda: now[0]
        summary.notify = lambda message, **_: notes.append(message)  # type: ignore[method-assign]
        await app.push_screen(summary, answers.append)
        await until(pilot, lambda: summary.is_mounted, "the summary")
        now[0] += 0.4  # (within the guard)
        await pilot.press("r")
        await pilot.pause()
        assert answers == [] and app.screen is summary
        assert notes == ["The game just ended: press r again for “Rematch”."]
        for _ in range(3):  # r r r, as fast as a person types: still no rematch
            now[0] += REPEAT_GUARD / 2
            await pilot.press("r")
            await pilot.pause()
        assert answers == [] and app.screen is summary
        assert len(notes) == 1  # (one note for the run)
        now[0] += REPEAT_GUARD  # the note read, r again
        await pilot.press("r")
        await until(pilot, lambda: answers == ["rematch"], "the rematch asked for")


async def test_got_five_s_rematch_key_its_reveal_at_the_table_is_asked_again_however_late(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A player thinking over their Got Five! turn typed r (reveal) a second after a bot
    won: past the guard, it asked for a rematch, and the result went off the screen
    unread. The game's end asks again for its first r whenever it comes; the next r,
    after the note, is the rematch; a key that means the same at the table is taken."""
    from textual.app import App

    import engine
    from engine.bots import make_bot
    from tui.games.gotfive.summary import game_over_summary
    from tui.screens import summary as summary_module
    from tui.screens.summary import REPEAT_GUARD

    monkeypatch.setattr(summary_module, "ANSWER_GUARD", 0.8)  # (tests run without it)
    game = engine.new_game("gotfive", seats=2, seed=3)
    bots = [make_bot("gotfive", s, 3) for s in range(2)]
    while not game.over:
        seat, action = next((s, a) for s in range(2) if (a := bots[s].choose(
            game.view(s), game.legal_actions(s))) is not None)
        game.act(seat, action)
    now = [100.0]
    answers: list[str | None] = []
    notes: list[str] = []
    app: App[None] = App()
    async with app.run_test(size=(80, 24)) as pilot:
        for key, answer in (("r", "rematch"), ("l", "lobby")):
            summary = game_over_summary(game.view(0), ["Ann", "Bot 2"], 0, can_lobby=True)
            summary.clock = lambda: now[0]
            summary.notify = (  # type: ignore[method-assign]
                lambda message, **_: notes.append(message))
            await app.push_screen(summary, answers.append)
            await until(pilot, lambda s=summary: s.is_mounted, "the summary")
            now[0] += 5.0  # (long past the guard)
            await pilot.press(key)
            if key == "r":
                await pilot.pause()
                assert answers == [] and app.screen is summary
                assert notes == ["The game just ended: press r again for “Rematch”."]
                now[0] += REPEAT_GUARD
                await pilot.press("r")
            await until(pilot, lambda a=answer: answers[-1:] == [a], f"the {answer}")
        assert len(notes) == 1


async def test_after_the_review_opened_from_a_summary_its_keys_are_meant_for_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Back from the game's review, opened with v from its summary, the first r was
    asked again: "The game just ended: press r again for Rematch"."""
    from textual.app import App

    from tui.screens import summary as summary_module
    from tui.screens.summary import Choice, SummaryScreen

    monkeypatch.setattr(summary_module, "ANSWER_GUARD", 3600.0)
    answers: list[str | None] = []
    app: App[None] = App()
    async with app.run_test(size=(80, 24)) as pilot:
        summary = SummaryScreen("Over", ["body"], [Choice("rematch", "Rematch")],
                                clashes=frozenset("r"))
        await app.push_screen(summary, answers.append)
        await until(pilot, lambda: summary.is_mounted, "the summary")
        summary.action_review()  # (the review, over it and gone again)
        await pilot.press("r")
        await until(pilot, lambda: answers == ["rematch"], "the rematch")


async def test_out_of_a_match_a_key_typed_as_its_summary_showed_says_the_round_ended(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Out of a solo match (no Next round for us), e typed as the summary showed was
    asked again as if "the game just ended": the match went on."""
    from textual.app import App

    from tui.screens import summary as summary_module
    from tui.screens.summary import Choice, SummaryScreen

    monkeypatch.setattr(summary_module, "ANSWER_GUARD", 3600.0)
    notes: list[str] = []
    app: App[None] = App()
    async with app.run_test(size=(80, 24)) as pilot:
        summary = SummaryScreen("Round 2 over", ["You are out of the match."],
                                [Choice("lobby", "End the match", primary=False)])
        summary.offer(Choice("finish", "Bots finish at full speed"),
                      Choice("leave", "Leave with the result", primary=False))
        summary.clock = lambda: 100.0
        summary.notify = lambda message, **_: notes.append(message)  # type: ignore[method-assign]
        await app.push_screen(summary)
        await until(pilot, lambda: summary.is_mounted and app.focused is not None
                    and app.focused.id == "answer-finish", "focus on the offer")
        await pilot.press("e")
        await until(pilot, lambda: notes, "the question again")
        assert notes == ["The round just ended: press e again for “Leave with the result”."]


async def test_enter_on_a_summary_goes_on_but_not_when_typed_as_it_showed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Enter on a round's summary looked at the table: a player expected the next round.
    The first primary answer has the focus; an Enter as the summary shows (meant for the
    last card) is asked again, the next one is taken. With no answer, the table's button."""
    from textual.app import App

    from tui.screens import summary as summary_module
    from tui.screens.summary import REPEAT_GUARD, Choice, SummaryScreen

    monkeypatch.setattr(summary_module, "ANSWER_GUARD", 3600.0)
    now = [100.0]
    answers: list[str | None] = []
    notes: list[str] = []
    app: App[None] = App()
    async with app.run_test(size=(80, 24)) as pilot:
        summary = SummaryScreen("Round 2 over", ["Bot 3 won the round."],
                                [Choice("next", "Next round"),
                                 Choice("lobby", "End the match", primary=False)])
        summary.clock = lambda: now[0]
        summary.notify = lambda message, **_: notes.append(message)  # type: ignore[method-assign]
        await app.push_screen(summary, answers.append)
        await until(pilot, lambda: summary.is_mounted and app.focused is not None
                    and app.focused.id == "answer-next", "focus on Next round")
        await pilot.press("enter")
        await pilot.pause()
        assert answers == [] and notes == [  # (a round's end: not "the game")
            "The round just ended: press Enter again for “Next round”."]
        button = summary.query_one("#answer-next")
        # (A button takes no second press while it shows the first, 0.2 s: a person's
        # second Enter comes after reading the note.)
        await until(pilot, lambda: not button.has_class("-active"), "the press shown")
        now[0] += REPEAT_GUARD
        await pilot.press("enter")
        await until(pilot, lambda: answers == ["next"], "the next round")
        guest = SummaryScreen("Game over", ["Ann wins."], [])
        await app.push_screen(guest, answers.append)
        await until(pilot, lambda: guest.is_mounted and app.focused is not None
                    and app.focused.id == "close", "focus on the table's button")


@pytest.mark.parametrize(("key", "screen"), [("o", "SettingsScreen"), ("h", "SetupScreen"),
                                             ("j", "JoinScreen")])
async def test_a_form_s_footer_names_tab_for_the_next_field(key: str, screen: str) -> None:
    """Textual keeps Tab out of the footer: a fresh-eyed player never found how to reach
    the settings' second field, nor the join screen's list from its address."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(key)
        await until(pilot, lambda: type(app.screen).__name__ == screen, screen)
        assert footer_keys(app).get("app.focus_next") is True
        before = app.focused
        await pilot.press("tab")
        assert app.focused is not before


class PairedKeys(Screen[None]):
    """Keys that stand for two, one direction shown and the other hidden, as the
    review's "←→ Step" and Got Five!'s "<> ✗ range" are."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right", "step(1)", "Step", key_display="←→"),
        Binding("left", "step(-1)", "Back", show=False),
        Binding("less_than_sign", "cross(-1)", "✗ range", key_display="<>"),
        Binding("greater_than_sign", "cross(1)", "✗ higher", show=False),
        Binding("1", "look(1)", "Look at", key_display="1-6"),
        Binding("2", "look(2)", "Look at 2", show=False),
    ]

    def __init__(self, compact: bool = False) -> None:
        super().__init__()
        self.done: list[str] = []
        self.compact = compact

    def compose(self) -> ComposeResult:
        yield TableFooter(compact=self.compact)

    def action_step(self, by: int) -> None:
        self.done.append(f"step {by}")

    def action_cross(self, by: int) -> None:
        self.done.append(f"cross {by}")

    def action_look(self, seat: int) -> None:
        self.done.append(f"look {seat}")


@pytest.mark.parametrize(("touch", "compact"), [(False, False), (True, False), (True, True)])
async def test_on_a_touch_screen_a_key_for_two_directions_is_two_keys(
        touch: bool, compact: bool) -> None:
    """A tap on "<> ✗ range" crossed the lower numbers only, and "←→ Step" stepped only
    forward: the other way was out of a finger's reach (a pass on a phone). On a touch
    screen each direction is its own key; a range of keys stays one. A key alone is a
    finger wide, also packed close on a phone (the "←" first in line took no tap)."""
    screen = PairedKeys(compact)

    class Touch(App[None]):
        def on_mount(self) -> None:
            self.touch = touch
            self.push_screen(screen)

    app = Touch()
    async with app.run_test(size=(60, 3)) as pilot:
        footer = screen.query_one(TableFooter)
        await until(pilot, lambda: footer.entries, "the keys")
        drawn = [(e.display, e.description) for e in footer.entries]
        if not touch:
            assert drawn == [("←→", "Step"), ("<>", "✗ range"), ("1-6", "Look at")]
            return
        assert drawn == [("←", ""), ("→", "Step"), ("<", "✗ range"), (">", ""),
                         ("1-6", "Look at")], drawn
        if compact:  # (each lone key " ← ": none in the first cell, which takes no tap)
            assert footer.entry_region(0) == (0, 3) and footer.entry_at(1) == 0
        for index in range(4):
            await pilot.click(TableFooter, offset=(footer.entry_region(index)[0] + 1, 0))
        await until(pilot, lambda: len(screen.done) == 4, "four taps")
        assert screen.done == ["step -1", "step 1", "cross -1", "cross 1"]


class TurnKeys(Screen[None]):
    """A turn's move first, dimmed until our turn, then keys every turn has."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "sort", "Sort the tile"),
        Binding("g", "got_five", "GOT FIVE!"),
        Binding("slash", "chat", "Chat with the table"),
        Binding("escape", "leave", "Leave the table"),
        Binding("question_mark", "rules", "Rules of the game"),
    ]
    our_turn = False

    def compose(self) -> ComposeResult:
        yield TableFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if action == "sort" and not self.our_turn else True


async def test_a_key_lit_by_our_turn_is_brought_into_sight_from_off_the_edge() -> None:
    """A footer paged to "/ Chat" stayed there when our turn came, and on a phone the
    move it called for (Got Five!'s Sort) was nowhere in sight (a pass on a phone)."""
    screen = TurnKeys()

    class Keys(App[None]):
        def on_mount(self) -> None:
            self.push_screen(screen)

    async with Keys().run_test(size=(40, 3)) as pilot:
        footer = screen.query_one(TableFooter)
        await until(pilot, lambda: footer.entries, "the keys")
        last = len(footer.entries) - 1
        for _ in range(30):  # paged to the far end, as a finger leaves it
            footer.post_message(events.MouseScrollDown(
                footer, 5, 0, 0, 0, 0, False, False, False, screen_x=5, screen_y=2))
        await until(pilot, lambda: footer.entry_region(last)[1] <= 40
                    and footer.entry_region(0)[0] < 0, "paged to the end")
        screen.our_turn = True
        screen.refresh_bindings()
        await until(pilot, lambda: footer.entries[0].enabled, "Sort lit")
        await until(pilot, lambda: footer.entry_region(0)[0] >= 0, "Sort in sight")
        # Nothing newly lit: the footer stays where the player paged it.
        for _ in range(30):
            footer.post_message(events.MouseScrollDown(
                footer, 5, 0, 0, 0, 0, False, False, False, screen_x=5, screen_y=2))
        await until(pilot, lambda: footer.entry_region(0)[0] < 0, "paged again")
        screen.refresh_bindings()
        await pilot.pause()
        assert footer.entry_region(0)[0] < 0

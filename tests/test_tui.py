"""Pilot tests: real screens of the app driven by keys and clicks against a real host.

Hosts listen on 127.0.0.1 only; the solo game needs no network at all.
"""

from __future__ import annotations

import asyncio
import re
import socket
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Button, DataTable, Input, Label, Select, Static, Switch

from net.client import Client
from net.clock import ManualClock
from net.host import Host
from tests.tui_support import (
    DEADLINE,
    SELECT_CURRENT,
    TOAST,
    Notices,
    config_dir,
    footer_keys,
    footer_labels_in_view,
    join_by_address,
    make_app,
    open_lobby,
    screen_strips,
    screen_text,
    typed_address,
    until,
    until_steady,
)
from tui.app import HiddenHandApp
from tui.games.getout.hand import HandWidget
from tui.games.getout.screen import GetOutScreen
from tui.screens.join import JoinScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.menu import MenuScreen
from tui.screens.menu_to_come import MenuToCome
from tui.screens.rules import RulesScreen
from tui.screens.settings import SettingsScreen
from tui.screens.setup import SetupScreen
from tui.screens.summary import SummaryScreen
from tui.settings import Settings
from tui.widgets.log import TableLog
from tui.widgets.options_form import OptionsForms

SIZE = (120, 40)
__all__ = ["config_dir"]  # the fixture, for pytest


pytestmark = pytest.mark.usefixtures("config_dir")


async def choose_game(pilot: Pilot[Any], game_id: str) -> None:
    """In the setup form, pick ``game_id`` and wait for its options to show."""
    screen = pilot.app.screen
    assert isinstance(screen, SetupScreen)
    screen.query_one("#game", Select).value = game_id
    def form() -> Any:
        shown = screen.query_one(OptionsForms).current
        return screen.game_id == game_id and shown.game_id == game_id and shown

    await until_steady(pilot, form, f"the {game_id} options")


async def solo_setup(pilot: Pilot[Any], game_id: str) -> SetupScreen:
    """From the menu, the solo setup form with ``game_id`` chosen."""
    await pilot.press("s")
    screen = pilot.app.screen
    assert isinstance(screen, SetupScreen)
    await choose_game(pilot, game_id)
    return screen


async def test_menu_opens_rules_and_settings_and_comes_back() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("r")
        assert isinstance(app.screen, RulesScreen)
        # The footer says how to read on and how to reach the other games' rules.
        keys = footer_keys(app)
        assert "scroll_text" in keys and "next_tab" in keys and "previous_tab" not in keys
        text = app.screen.query_one("#scroll-getout")
        await pilot.press("down", "down", "down", "up")
        await until(pilot, lambda: text.scroll_y == 2, "the rules scrolled")
        await pilot.press("right")
        assert app.screen.query_one("#rules-tabs").active == "rules-getit"
        await pilot.press("escape")
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("question_mark")  # the help key people try: the rules too
        assert isinstance(app.screen, RulesScreen)
        await pilot.press("escape")
        await pilot.press("o")
        assert isinstance(app.screen, SettingsScreen)


@pytest.mark.parametrize("size", [(60, 20), (60, 18), (90, 18), (41, 16)])
async def test_on_a_short_terminal_every_entry_of_the_menu_stays_in_sight(
        size: tuple[int, int]) -> None:
    """At 60 × 20 (and a phone on its side) Rules, Settings and Quit were below the
    footer, and the arrows moved the focus onto them out of sight."""
    app = make_app()
    async with app.run_test(size=size) as pilot:
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        await until(pilot, lambda: "Play solo" in screen_text(app), "the menu")
        footer = size[1] - 1
        for button in menu.query("#menu-buttons Button"):
            if button.display:
                assert button.region.y > 0 and button.region.bottom <= footer, button.id
        assert "Quit (q)" in screen_text(app)


async def test_a_solo_game_from_the_command_line_opens_first_and_leaves_to_the_menu() -> None:
    from textual.widgets import Button

    app = HiddenHandApp(Settings(name="Ann"), bot_delay=0.01,
                        solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    async with app.run_test(size=SIZE) as pilot:
        screen = await until(pilot, lambda: isinstance(app.screen, GetOutScreen)
                             and app.screen.update and app.screen, "the solo table")
        # Nothing of the menu was built before the table's first frame: its place is kept.
        (below,) = app.screen_stack[:-1]
        assert isinstance(below, MenuToCome) and not below.children
        await pilot.press("escape")
        from tui.screens.dialogs import ConfirmScreen

        asked = await until(pilot, lambda: isinstance(app.screen, ConfirmScreen)
                            and app.screen, "the question")
        assert "back to the menu" in asked.question and "Past games" in asked.question
        await pilot.press("y")  # yes, leave this solo game
        menu = await until(pilot, lambda: isinstance(app.screen, MenuScreen)
                           and app.screen.query("#solo") and app.screen, "the menu")
        assert app.screen_stack == [below, menu]
        await until(pilot, lambda: app.focused is menu.query_one("#solo", Button),
                    "the first entry focused")
        assert screen.leaving
        await until(pilot, lambda: app.hosting.host is None, "the solo host stopped")
        await pilot.press("r")
        assert isinstance(app.screen, RulesScreen)


async def test_every_down_of_a_burst_scrolls_the_rules_a_line() -> None:
    """Twenty quick Downs scrolled the rules about five lines (each scrolled from where
    the text had been before the last one took effect)."""
    from textual import events
    from textual.containers import VerticalScroll

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        rules = await until(pilot, lambda: isinstance(app.screen, RulesScreen) and app.screen,
                            "the rules")
        from textual.widgets import TabbedContent

        game = str(rules.query_one(TabbedContent).active).removeprefix("rules-")
        text = rules.query_one(f"#scroll-{game}", VerticalScroll)
        await until(pilot, lambda: text.max_scroll_y > 20, "the rules laid out")
        for _ in range(20):
            app.post_message(events.Key("down", None))
        await until(pilot, lambda: text.scroll_y == 20, "twenty lines down")


async def test_a_notice_from_the_start_shows_on_the_solo_table() -> None:
    # The screen under the table has no rack for notifications: the table shows them.
    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {}},
                   notice="settings.json is damaged; using defaults")
    async with app.run_test(size=SIZE, notifications=True, tooltips=True) as pilot:
        table = await until(pilot, lambda: isinstance(app.screen, GetOutScreen) and app.screen,
                            "the table")
        await until(pilot, lambda: any("damaged" in str(toast.render())
                                       for toast in table.query(TOAST)), "the notice shown")
        assert not list(app.screen_stack[0].query(TOAST))  # (nothing under the table)


@pytest.mark.parametrize("game", ["getout", "gotfive", "getit", None])
async def test_a_notice_stands_above_the_lines_a_player_types_in(game: str | None) -> None:
    """A "Welcome back" toast covered a table's chat line, and the lobby's chat and name
    lines, while the player typed."""
    app = make_app(solo={"game_id": game, "seats": 3, "options": {}} if game else None)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        if game is None:
            await open_lobby(app, pilot)
        else:
            await until(pilot, lambda: app.screen.query(TableLog), "the table")
        app.notify("Welcome back, Ann: your seat is yours again.")
        toast = await until(pilot, lambda: next(
            (t.region for t in app.screen.query(TOAST) if t.region), None), "the notice")
        lines = [line.region for line in app.screen.query(Input) if line.region]
        assert lines and not [line for line in lines if line.overlaps(toast)], (lines, toast)


async def test_a_notice_shows_once_over_a_summary_not_also_on_the_table_under_it() -> None:
    """A notice raised as a summary opened (a new record, a player back) showed twice: on
    the summary and on the table drawn around it."""
    from engine.testing import stack_getout
    from tui.games.getout.hand import HandWidget

    app = make_app(solo={"game_id": "getout", "seats": 2,
                         "options": {"match": False, "first": 0}})
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        table_screen = await until(pilot, lambda: isinstance(app.screen, GetOutScreen)
                                   and app.screen.legal and app.screen, "our first turn")
        assert app.hosting.host is not None
        (table,) = app.hosting.host.tables.values()
        table.seats[1].bot = None
        stack_getout(table.game, [["kevin 1"], ["geoff 12"]], played=["kevin 8"], turn=0)
        app.hosting.host.refresh(table)
        hand = table_screen.query_one(HandWidget)
        await until(pilot, lambda: len(hand.cards) == 1, "our last card")
        app.notify("Said once, as the round ends")
        await until(pilot, lambda: "Said once" in screen_text(app), "the notice")
        await pilot.press("enter")  # our last card: the round is over
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen)
                    and "Said once" in screen_text(app), "the summary, with the notice")
        assert screen_text(app).count("Said once") == 1, screen_text(app)
        await pilot.press("c")  # to the table: the notice is on it now
        await until(pilot, lambda: app.screen is table_screen
                    and screen_text(app).count("Said once") == 1, "back at the table")


async def test_a_solo_game_that_cannot_start_says_so_over_the_menu() -> None:
    from textual.widgets import Button

    # Nine seats: the host refuses the table (the command line would have said so first).
    app = make_app(solo={"game_id": "getout", "seats": 9, "options": {}})
    notices = Notices()
    async with app.run_test(size=SIZE, message_hook=notices) as pilot:
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        await until(pilot, lambda: any("Could not start the solo game" in str(n.message)
                                       for n in notices.raised), "the notice")
        await until(pilot, lambda: app.focused is not None
                    and app.focused is menu.query_one("#solo", Button), "the built menu")
        assert app.screen is menu


async def test_a_solo_game_with_nowhere_to_keep_it_is_played_and_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A data dir where nothing can be kept (under a file, or one this user may not
    write) said "[Errno 13] Permission denied: '…/journals'" (a command-line pass), then
    "Could not start the solo game": a game not kept for a crash is still a game. It is
    played, and the player is told what is not kept and why."""
    from tui.games.getout.screen import GetOutScreen

    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("HIDDENHAND_DATA_DIR", str(blocker / "data"))
    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {}})
    notices = Notices()
    async with app.run_test(size=SIZE, message_hook=notices) as pilot:
        said = await until(pilot, lambda: next((str(n.message) for n in notices.raised
                                                if "not kept" in str(n.message)), None),
                           "the notice")
        assert said.startswith("This game is not kept to be resumed after a crash: cannot "
                               "write in "), said
        assert "Errno" not in said and said.endswith("a-file is a file, not a folder."), said
        await until(pilot, lambda: isinstance(app.screen, GetOutScreen), "the table")
        assert app.hosting.host is not None and app.hosting.host.journal is None
    # From the menu's form too.
    app = make_app()
    notices = Notices()
    async with app.run_test(size=SIZE, message_hook=notices) as pilot:
        await solo_setup(pilot, "getout")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, GetOutScreen), "the table")
        await until(pilot, lambda: any(str(n.message).startswith("This game is not kept")
                                       for n in notices.raised), "the notice")


async def test_settings_are_checked_and_saved(config_dir: Path) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("o")
        name = app.screen.query_one("#name", Input)
        name.value = "Zoë"
        mdns = app.screen.query_one("#mdns", Input)
        mdns.value = "not-an-ip"
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, SettingsScreen)  # refused, still here
        assert "not an IP address" in str(app.screen.query_one("#settings-error").render())
        mdns.value = "127.0.0.1, 192.0.2.44"  # TEST-NET: surely no address of this machine
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, SettingsScreen)
        assert ("192.0.2.44 is not an address of this computer"
                in str(app.screen.query_one("#settings-error").render()))
        # Put right, the field's error goes at once (it stayed until the next Save).
        mdns.focus()
        await pilot.press("end", "backspace")
        await until(pilot, lambda: not str(app.screen.query_one("#settings-error").render()),
                    "the error gone")
        mdns.value = "127.0.0.1"
        # Got Five!'s auto-cross is each player's own (RULES.md): on until turned off.
        auto = app.screen.query_one("#auto-cross", Switch)
        state = app.screen.query_one("#auto-cross-state", Label)
        assert auto.value is True and str(state.render()) == "on"  # (in words: mono)
        auto.focus()
        await pilot.press("enter")
        await until(pilot, lambda: auto.value is False and str(state.render()) == "off",
                    "auto-cross off")
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, MenuScreen)
    saved, problem = Settings.load()
    assert problem is None
    assert saved.name == "Zoë" and saved.mdns_interfaces == ["127.0.0.1"]
    assert saved.auto_cross is False and app.settings.auto_cross is False


async def test_an_error_of_the_setup_form_goes_when_the_form_changes() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await solo_setup(pilot, "getit")
        error = screen.query_one("#setup-error")
        timer = screen.query_one("#opt-timer", Input)
        timer.value = "abc"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "'timer'" in str(error.render()), "the error")
        # (Said once: "Options: option 'timer' …".)
        assert str(error.render()).strip().startswith("Option 'timer' must be"), error.render()
        timer.value = "90"  # fixed
        await until(pilot, lambda: not str(error.render()).strip(), "the error gone")
        timer.value = "abc"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "'timer'" in str(error.render()), "the error again")
        await choose_game(pilot, "gotfive")  # another game: the timer is gone
        assert not str(error.render()).strip()
        assert isinstance(app.screen, SetupScreen)


async def test_another_game_in_the_setup_form_keeps_the_seats_it_takes() -> None:
    """Three people set up GET OUT!, then chose Get It!: the table opened for four (the
    game's list covered the seats as they changed; a fresh-eyed pass)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await solo_setup(pilot, "getout")
        seats = screen.query_one("#seats", Select)
        seats.value = 3
        await choose_game(pilot, "getit")
        assert seats.value == 3
        seats.value = 6
        await choose_game(pilot, "gotfive")  # (Got Five! takes 2 to 4)
        assert seats.value == 4


async def test_the_setup_form_shows_level_x_s_card_count_only_at_level_x() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await solo_setup(pilot, "getit")
        row = screen.query_one("#opt-row-cards")
        await until(pilot, lambda: not row.display, "no card count at level 1")
        screen.query_one("#opt-level", Select).value = "'X'"
        await until(pilot, lambda: row.display, "the card count at Level X")
        screen.query_one("#opt-level", Select).value = "3"
        await until(pilot, lambda: not row.display, "gone again at level 3")


async def play_turn(pilot: Pilot[Any], screen: GetOutScreen) -> None:
    """Take our turn through the keyboard: the first playable card, else draw."""
    update = screen.update
    assert update is not None
    legal = update["legal"]
    plays = [a for a in legal if a["type"] == "play"]
    version = update["view"]["version"]
    if plays:
        hand = screen.query_one(HandWidget)
        target = [c["id"] for c in hand.cards].index(plays[0]["card"])
        while hand.selected != target:
            await pilot.press("right")
        await pilot.press("enter")
        if "image" in plays[0]:
            await until(pilot, lambda: pilot.app.screen is not screen, "the image chooser")
            await pilot.press("1")
    elif {"type": "draw"} in legal:
        await pilot.press("d")
    elif {"type": "next_round"} in legal:
        await pilot.press("n")
    await until(pilot, lambda: screen.update["view"]["version"] != version, "our move to land")


async def test_the_setup_form_shows_focus_without_colour() -> None:
    """A focused choice is reversed and a focused switch gets a heavy frame, so a
    monochrome terminal shows where the keys go (an Input shows its cursor)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await choose_game(pilot, "getout")
        game = app.screen.query_one("#game", Select)
        game.focus()
        await pilot.pause()
        assert "reverse" in str(game.query_one(SELECT_CURRENT).styles.text_style)
        switch = app.screen.query_one("#opt-match", Switch)
        assert switch.styles.border_top[0] != "heavy"
        switch.focus()
        await pilot.pause()
        assert switch.styles.border_top[0] == "heavy"
        assert "reverse" not in str(game.query_one(SELECT_CURRENT).styles.text_style)


async def test_fields_placeholders_and_tabs_show_their_state_without_colour() -> None:
    """A monochrome terminal (``TERM=xterm-mono``) shows no colours: the focused field is
    underlined (its cursor blinks away half the time), a placeholder is in italics, and
    the rules' active tab is bold and underlined (a play test could not tell them apart)."""
    from textual.widgets import Tab

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("o")
        fields = list(app.screen.query(Input))
        await until(pilot, lambda: app.screen.focused in fields, "a focused field")
        focused = app.screen.focused
        assert isinstance(focused, Input)
        other = next(f for f in fields if f is not focused)
        assert "underline" in str(focused.styles.text_style)
        assert "underline" not in str(other.styles.text_style)
        kept, other.value = other.value, ""
        assert other.placeholder
        assert other.get_component_rich_style("input--placeholder").italic
        other.value = kept  # (a change would be asked about on the way out)
        await pilot.press("escape", "r")
        tabs = list(app.screen.query(Tab))
        await until(pilot, lambda: any(t.has_class("-active") for t in tabs), "the rules")
        for tab in tabs:
            style = str(tab.styles.text_style)
            active = tab.has_class("-active")
            assert ("bold" in style and "underline" in style) is active, (tab.label, style)


async def test_solo_getout_round_played_through_the_ui_to_its_end() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        assert isinstance(app.screen, SetupScreen)
        await choose_game(pilot, "getout")
        switch = app.screen.query_one("#opt-match", Switch)
        await pilot.click(switch)
        assert switch.value is False  # a single round
        await pilot.press("ctrl+s")
        screen = await until(
            pilot,
            lambda: isinstance(app.screen, GetOutScreen) and app.screen.update and app.screen,
            "the GET OUT! table",
        )
        moves = 0
        for _ in range(600):
            update = screen.update
            if update["view"]["phase"] == "over":
                break
            if update["legal"]:
                await play_turn(pilot, screen)
                moves += 1
            else:
                await pilot.pause(0.02)
        view = screen.update["view"]
        assert view["phase"] == "over", "the round did not end"
        assert moves > 0
        status = str(screen.query_one("#status").render())
        assert "wins the round" in status or "You win" in status
        summary = await until(
            pilot, lambda: isinstance(app.screen, SummaryScreen) and app.screen, "the summary"
        )
        text = " ".join(str(w.render()) for w in summary.query("Label"))
        assert "wins the round" in text or "You win the round" in text
        await pilot.press("c")  # back to the table to look at it
        assert app.screen is screen
        log = screen.query_one("#log")
        assert any("played" in str(line.text) for line in log.lines)


@pytest.fixture
async def lan_host() -> Any:
    host = Host("test host", bot_delay=0.01)
    await host.start("127.0.0.1", 0)
    yield host
    await host.close()


async def bob_opens_a_table(host: Host, seats: int) -> Client:
    """Bob, a plain client, opens a GET OUT! table on ``host``."""
    bob = await Client.connect("127.0.0.1", host.port, name="Bob")
    await bob.create_table("Bob's table", "getout", seats)
    return bob


async def ann_joins_the_lobby(pilot: Pilot[Any], host: Host) -> LobbyScreen:
    """The app joins by address and waits for the lobby."""
    app = pilot.app
    await join_by_address(pilot, host.port)
    lobby: LobbyScreen = await until(
        pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen, "the lobby"
    )
    return lobby


async def test_join_by_address_and_lobby_changes_are_seen_by_both(lan_host: Host) -> None:
    bob = await bob_opens_a_table(lan_host, 3)
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        lobby = await ann_joins_the_lobby(pilot, lan_host)
        seats = lobby.query_one("#lobby-seats", DataTable)

        def names() -> list[str]:
            return [str(seats.get_row_at(i)[1]) for i in range(seats.row_count)]

        await until(pilot, lambda: any("Ann (you)" in n for n in names()), "Ann in a seat")
        assert any(n.startswith("Bob") for n in names())
        # Bob's change reaches Ann's screen…
        await bob.rename("Robert")
        await until(pilot, lambda: any(n.startswith("Robert") for n in names()), "the rename")
        # …and Ann's reaches Bob.
        await pilot.press("ctrl+r")
        ann_seat = app.screen.my_seat  # type: ignore[attr-defined]
        msg = await bob.wait_for(
            lambda m: m.get("type") == "update" and m["table"]["seats"][ann_seat]["ready"]
        )
        assert msg["table"]["seats"][ann_seat]["name"] == "Ann"
        # The button says what ^r does now, whole (it used to keep the shorter width).
        ready = lobby.query_one("#ready", Button)
        await until(pilot, lambda: str(ready.label) == "Not ready (^r)", "Not ready")
        await pilot.pause()
        assert ready.content_region.width >= len("Not ready (^r)")
        ready.focus()  # focused, it wears its marks, and a new label keeps them
        await pilot.press("ctrl+r")
        await until(pilot, lambda: str(ready.label) == "▸ Ready (^r) ◂", "marked Ready")
        await pilot.pause()
        assert ready.content_region.width >= len("▸ Ready (^r) ◂")
        await pilot.press("escape")  # from a button back to the seats…
        assert app.focused is seats and app.screen is lobby
        await pilot.press("escape")  # …and from the seats out of the table, asked first
        from tui.screens.dialogs import ConfirmScreen

        question = await until(pilot, lambda: isinstance(app.screen, ConfirmScreen)
                               and app.screen, "Leave this table?")
        assert "your seat is freed" in str(question.query_one(".question", Label).render())
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
    await bob.close()


async def test_unreachable_host_gets_a_clear_message() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        address = await typed_address(pilot, "127.0.0.1:1")
        address.focus()
        await pilot.press("enter")
        error = app.screen.query_one("#join-error")
        await until(pilot, lambda: "Could not reach 127.0.0.1:1" in str(error.render()),
                    "the error")
        address.value = "no port here:"
        await pilot.press("enter")
        await until(pilot, lambda: "port" in str(error.render()), "the address error")
        assert isinstance(app.screen, JoinScreen)


async def test_connection_loss_shows_a_banner_and_reconnects_by_itself(lan_host: Host) -> None:
    bob = await bob_opens_a_table(lan_host, 2)
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        lobby = await ann_joins_the_lobby(pilot, lan_host)
        seat = lobby.my_seat
        banner = lobby.query_one("#banner")
        client = lobby.session.client
        assert client is not None
        client.abort()  # the cable is pulled
        await until(pilot, lambda: banner.has_class("shown"), "the banner")
        assert "reconnecting" in str(banner.render())
        await until(pilot, lambda: not banner.has_class("shown"), "the reconnection")
        assert lobby.session.client is not client
        assert lobby.my_seat == seat
        msg = await bob.wait_for(
            lambda m: m.get("type") == "update" and m["table"]["seats"][seat]["connected"]
        )
        assert msg["table"]["seats"][seat]["name"] == "Ann"
        # What the table told of it names Ann as herself ("Ann is back", to Ann: a
        # fresh-eyed pass read "Bob lost the connection" about himself), as a game's log.
        chat = lobby.query_one("#chat", TableLog)
        await until(pilot, lambda: "· you are back" in [str(line.text) for line in chat.lines],
                    "the notice")
        assert "Ann is back" not in "".join(str(line.text) for line in chat.lines)
    await bob.close()


async def test_a_chat_line_in_the_lobby_is_marked_as_at_the_table(lan_host: Host) -> None:
    """At the table a chat line reads "💬 Bob (seat 1): hello"; in the lobby it had no 💬,
    and read as one of the host's notices (a LAN pass)."""
    bob = await bob_opens_a_table(lan_host, 2)
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        lobby = await ann_joins_the_lobby(pilot, lan_host)
        await bob.chat("hello")
        chat = lobby.query_one("#chat", TableLog)
        await until(pilot, lambda: "💬 Bob (seat 1): hello" in [str(line.text)
                                                                for line in chat.lines],
                    "the line")
    await bob.close()


async def test_leaving_a_lobby_nobody_else_is_at_asks_first(lan_host: Host) -> None:
    """Alone in a lobby, Esc closed the table and its set-up at once (an SSH box pass)."""
    from tui.screens.dialogs import ConfirmScreen

    bob = await bob_opens_a_table(lan_host, 2)
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        lobby = await ann_joins_the_lobby(pilot, lan_host)
        await bob.close()
        await until(pilot, lambda: lobby.is_creator, "Ann runs the table")
        await pilot.press("escape")
        question = await until(pilot, lambda: isinstance(app.screen, ConfirmScreen)
                               and app.screen, "the question")
        # Bob's seat is kept for him a while: the table waits (a re-test found "it
        # closes" beside an away player's kept seat).
        assert "closes half a minute after you leave unless someone comes back" in (
            question.question)
        await pilot.press("n")
        await until(pilot, lambda: app.screen is lobby, "the lobby again")
        update = lobby.update
        assert update is not None
        seats = [dict(s) for s in update["table"]["seats"]]
        other = next(i for i, s in enumerate(seats) if i != lobby.my_seat)
        seats[other].update(kind="empty", name="", connected=False)
        lobby.update = {**update, "table": {**update["table"], "seats": seats}}
        assert "Nobody else is at it: it closes, and its set-up" in (lobby.leave_question()
                                                                     or "")


async def test_on_a_touch_screen_the_lobby_s_buttons_name_no_keys() -> None:
    """A phone's lobby read "Bot (^b)  ▸ Remove (^x) ◂  Start (^s", cut at 41 columns,
    naming keys a phone has not (a web-door pass)."""
    from textual.widgets import Button

    app = make_app("Ann")
    app.touch = True
    async with app.run_test(size=(41, 40)) as pilot:
        lobby = await open_lobby(app, pilot)
        labels = {b.id: str(b.label) for b in lobby.query(Button)}
        assert labels["start"] == "Start" and labels["add-bot"] == "Bot", labels
        assert labels["ready"] in ("Ready", "Not ready"), labels
        await app.hosting.stop()


async def test_a_host_that_closes_its_table_sends_the_players_back_at_once() -> None:
    host = Host("closing host", bot_delay=0.01)
    await host.start("127.0.0.1", 0)
    bob = await bob_opens_a_table(host, 2)
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        lobby = await ann_joins_the_lobby(pilot, host)
        banner = lobby.query_one("#banner")
        await host.close()  # the host quits: no journal, nothing to come back to
        await until(pilot, lambda: banner.has_class("shown"), "the banner")
        assert "the host closed the table" in str(banner.render())
        # What the table waited for goes with it ("Seat 2 is empty …" stayed).
        await until(pilot, lambda: not lobby.query_one("#lobby-options-summary").display,
                    "the table's hint gone")
        assert "Esc" in str(banner.render()) and "reconnecting" not in str(banner.render())
        # Nor is the chat offered: nothing typed there goes anywhere now.
        assert "chat" not in footer_keys(app) and "leave" in footer_keys(app)
    await bob.close()


def match_app() -> HiddenHandApp:
    """A solo GET OUT! match of three, ours the first turn."""
    return HiddenHandApp(Settings(name="Ann"), bot_delay=0.01,
                         solo={"game_id": "getout", "seats": 3, "options": {"first": 0}})


async def at_round_one_s_summary(pilot: Any) -> tuple[Any, SummaryScreen]:
    """Round 1 of :func:`match_app`'s match ended by our last card: the table and the
    round's summary."""
    from engine.testing import stack_getout

    app = pilot.app
    screen = await our_first_turn(pilot, app)
    assert app.hosting.host is not None
    (table,) = app.hosting.host.tables.values()
    # One card left that plays: the round ends with our next move.
    stack_getout(table.game, [["kevin 1"], ["geoff 12", "geoff 2"], ["shirley 5"]],
                 played=["kevin 8"], turn=0)
    app.hosting.host.refresh(table)
    await until(pilot, lambda: len(screen.query_one(HandWidget).cards) == 1, "the new hand")
    await pilot.press("enter")
    summary = await until(
        pilot, lambda: isinstance(app.screen, SummaryScreen) and app.screen, "the summary")
    return screen, summary


async def test_round_summary_deals_the_next_round_of_a_match() -> None:
    app = match_app()
    async with app.run_test(size=SIZE) as pilot:
        screen, summary = await at_round_one_s_summary(pilot)
        assert summary.query_one("#answer-next")  # we may deal
        assert screen.update["view"]["scores"] == [0, 14, 5]
        await pilot.press("n")
        await until(pilot, lambda: screen.update["view"]["round"] == 2, "round 2")
        assert app.screen is screen
        assert screen.update["view"]["phase"] == "play"


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_hosting_from_the_app_is_announced_on_the_lan_and_joinable() -> None:
    from net.discovery import Browser
    from tui.screens.dialogs import ConfirmScreen

    port = free_port()
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        assert isinstance(app.screen, SetupScreen)
        await choose_game(pilot, "getout")
        app.screen.query_one("#port", Input).value = str(port)
        app.screen.query_one("#table-name", Input).value = "Ann's LAN table"
        await pilot.press("ctrl+s")
        lobby = await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen,
                            "the lobby")
        # The host may be seen before its TXT record lists the table: wait for the table.
        names: list[str] = []
        async with Browser(interfaces=["127.0.0.1"]) as browser, asyncio.timeout(DEADLINE):
            while not names:
                event = await browser.next()
                if event.host.port == port:
                    names = [t.name for t in event.host.tables]
        assert names == ["Ann's LAN table"], "the app's table was not announced"
        bob = await Client.connect("127.0.0.1", port, name="Bob")
        (table,) = await bob.list_tables()
        await bob.join(table["id"])
        seats = lobby.query_one("#lobby-seats", DataTable)
        await until(pilot, lambda: any(str(seats.get_row_at(i)[1]).startswith("Bob")
                                       for i in range(seats.row_count)), "Bob in the lobby")
        # ^q with someone at the table asks first (it would end their game).
        await pilot.press("ctrl+q")
        asked = await until(pilot, lambda: isinstance(app.screen, ConfirmScreen)
                            and app.screen, "the question")
        assert "ends the game for everyone" in asked.question
        await pilot.press("n")
        await until(pilot, lambda: app.screen is lobby, "back in the lobby")
        await bob.close()
        await pilot.press("escape")  # hosting: asks first
        await pilot.press("y")
        await until(pilot, lambda: app.hosting.host is None, "the host to stop")


async def host_a_lan_table(pilot: Pilot[Any], game: str) -> LobbyScreen:
    """Host a LAN table of ``game`` from the menu, on a free port: its lobby."""
    app = pilot.app
    await pilot.press("h")
    await choose_game(pilot, game)
    app.screen.query_one("#port", Input).value = str(free_port())
    await pilot.press("ctrl+s")
    # (Its seat list too: the screen is on top a moment before its widgets are in it.)
    lobby: LobbyScreen = await until(
        pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.query("#lobby-seats")
        and app.screen, "the lobby")
    return lobby


async def test_a_host_that_quits_mid_game_tells_its_guest_only_that_the_table_closed(
) -> None:
    """Quitting closed the app's own connection before its host: its guest read "Ann
    lost the connection (away)" and "Bob runs the table now (★)" under "the host closed
    the table". The host stops first now, and says only that."""
    from tui.screens.dialogs import ConfirmScreen

    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        lobby = await host_a_lan_table(pilot, "getout")
        assert app.hosting.host is not None
        bob = await Client.connect("127.0.0.1", app.hosting.host.port, name="Bob")
        (table,) = await bob.list_tables()
        await bob.join(table["id"])
        await bob.ready()
        await until(pilot, lambda: lobby.table.get("seats", [{}, {}])[1].get("ready"),
                    "Bob ready")
        await pilot.press("ctrl+b", "ctrl+b")  # bots in the empty seats
        await until(pilot, lambda: "(empty)" not in screen_text(app), "two bots")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, GetOutScreen), "the game")
        await bob.wait_for(lambda m: m.get("type") == "update" and m.get("view") is not None)
        bob.pending()
        await pilot.press("ctrl+q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        await pilot.press("y")
        async with asyncio.timeout(10):
            told = [m async for m in bob]  # (to the end of the stream)
    notices = [n.get("type") for m in told for n in m.get("notices") or []]
    assert "disconnected" not in notices and "creator" not in notices, notices
    errors_told = [m.get("message") for m in told if m.get("type") == "error"]
    assert errors_told == ["the host closed the table"], told


async def test_a_host_that_leaves_its_lobby_tells_its_guest_only_that_the_table_closed(
) -> None:
    """Leaving the lobby of the table we host asked the host to seat us out first: Bob
    read "Bob runs the table now (★)" beside "the host closed the table". The question
    said the game ends, in a lobby where none had started."""
    from tui.screens.dialogs import ConfirmScreen

    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        await host_a_lan_table(pilot, "getout")
        assert app.hosting.host is not None
        bob = await Client.connect("127.0.0.1", app.hosting.host.port, name="Bob")
        (table,) = await bob.list_tables()
        await bob.join(table["id"])
        await until(pilot, lambda: "Bob" in screen_text(app), "Bob seated")
        bob.pending()
        await pilot.press("escape")
        question = await until(pilot, lambda: isinstance(app.screen, ConfirmScreen)
                               and app.screen, "the question")
        assert "closes the table for everyone" in question.question, question.question
        await pilot.press("y")
        async with asyncio.timeout(10):
            told = [m async for m in bob]  # (to the end of the stream)
        await until(pilot, lambda: app.hosting.host is None, "the host stopped")
    notices = [n.get("type") for m in told for n in m.get("notices") or []]
    assert "creator" not in notices, notices
    errors_told = [m.get("message") for m in told if m.get("type") == "error"]
    assert errors_told == ["the host closed the table"], told


async def test_a_hosted_lobby_shows_whole_names() -> None:
    """The seat list keeps its columns from update to update, so a column grows with its
    names (re-creating the columns each time left the player column cut, as
    "Ann (" on a hosted table)."""
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        lobby = await host_a_lan_table(pilot, "getit")
        await until(pilot, lambda: lobby.live, "the lobby shown")
        seats = lobby.query_one("#lobby-seats", DataTable)
        await until(pilot, lambda: seats.row_count == 4, "the seats")
        await pilot.pause()
        # What the terminal shows: the whole screen as composed.
        screen = screen_text(app)
        assert "Ann (you) ★" in screen and "(empty)" in screen, screen
        await pilot.press("escape")
        await pilot.press("y")
        await until(pilot, lambda: app.hosting.host is None, "the host to stop")


async def test_a_lobby_shows_no_controls_before_its_table_came() -> None:
    """Until the table came, the lobby showed its form's own defaults ("GET OUT!",
    "Seats 1") and every creator's button, for a second or two (a fresh-eyed pass)."""
    from tui.session import Session

    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        host = await app.hosting.start(port=None)
        session = Session("Ann", host=host)
        await session.connect()
        app.attach(session)
        lobby = LobbyScreen(session)
        await app.push_screen(lobby)
        await until(pilot, lambda: lobby.live, "the lobby mounted")
        await pilot.pause()
        text = screen_text(app)
        assert "Start (^s)" not in text and "Seats" not in text and "Ready" not in text, text
        await session.create("Ann's table", "getit", 3, {})
        await until(pilot, lambda: "Start (^s)" in screen_text(app), "the table's controls")
        assert lobby.query_one("#lobby-game", Select).value == "getit"


async def test_sit_here_works_only_with_the_cursor_on_an_empty_seat() -> None:
    """"Sit here (^t)" was offered with the cursor on our own seat, where it did nothing
    (two fresh-eyed passes)."""
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        lobby = await host_a_lan_table(pilot, "getout")
        seats = lobby.query_one("#lobby-seats", DataTable)
        await until(pilot, lambda: seats.row_count == 4 and seats.cursor_row == 0, "seats")
        sit = lobby.query_one("#sit", Button)
        # Off, and saying so in words (in mono a button turned off looks like any other),
        # with how to move ("Your seat" alone read as a thing to do).
        await until(pilot, lambda: sit.disabled and "Yours: ↑↓ to move" in str(sit.label),
                    "ours")
        await pilot.press("down")
        await until(pilot, lambda: not sit.disabled and "Sit here" in str(sit.label),
                    "Sit here on an empty seat")
        await pilot.press("up")
        await until(pilot, lambda: sit.disabled and "Yours: ↑↓ to move" in str(sit.label),
                    "again")
        await pilot.press("escape")
        await pilot.press("y")
        await until(pilot, lambda: app.hosting.host is None, "the host to stop")


async def test_the_lobby_s_options_wrap_between_options() -> None:
    """The options' line wrapped inside one ("… · bots normal · away" / "bot 2m"), at
    120 columns (a fresh-eyed pass of the box)."""
    app = make_app("Ann")
    async with app.run_test(size=(120, 30)) as pilot:
        await open_lobby(app, pilot)
        await until(pilot, lambda: "Options:" in screen_text(app), "the options")
        lines = screen_text(app).splitlines()
        assert any("away bot off" in line for line in lines), "\n".join(lines)


async def test_a_long_name_in_the_lobby_is_cut_so_that_every_column_shows() -> None:
    """A 24-letter name at 80 columns pushed "status" and "ready" off the seat list's
    edge ("player … sta", "onl"; a fresh-eyed pass): the name is cut, the rest stays."""
    app = make_app("Bartholomew the Greatest")
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await host_a_lan_table(pilot, "getout")
        seats = lobby.query_one("#lobby-seats", DataTable)
        await until(pilot, lambda: "… (you) ★" in screen_text(app), "the name cut")
        assert "status" in screen_text(app) and "ready" in screen_text(app)
        assert seats.virtual_size.width <= seats.size.width, (seats.virtual_size, seats.size)
        await pilot.resize_terminal(140, 30)
        await until(pilot, lambda: "Bartholomew the Greatest (you) ★" in screen_text(app),
                    "whole again, with room")
        await pilot.press("escape")
        await pilot.press("y")
        await until(pilot, lambda: app.hosting.host is None, "the host to stop")


async def test_a_second_start_while_the_host_opens_does_not_leave_a_host_behind() -> None:
    """^s twice on "Host a LAN game": the table opens once, on the port asked for (the
    second ^s used to stop the first while it announced itself, leaving its host
    listening with no screen, and every later host on that port failed)."""
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        await choose_game(pilot, "getout")
        port = free_port()
        app.screen.query_one("#port", Input).value = str(port)
        await pilot.press("ctrl+s", "ctrl+s")
        lobby = await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen,
                            "the lobby")
        await until(pilot, lambda: lobby.live, "the lobby shown")
        assert app.hosting.host is not None and app.hosting.host.port == port
        await pilot.press("escape")
        await pilot.press("y")
        await until(pilot, lambda: app.hosting.host is None, "the host to stop")
        with socket.socket() as probe:  # nothing listens on the port any more
            probe.bind(("127.0.0.1", port))


async def test_a_player_who_left_a_game_takes_the_seat_back_by_joining_again(
    lan_host: Host,
) -> None:
    bob = await Client.connect("127.0.0.1", lan_host.port, name="Bob")
    joined = await bob.create_table("Bob's table", "getout", 2, {"first": 0})
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        await join_by_address(pilot, lan_host.port)
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await pilot.press("ctrl+r")
        await bob.wait_for(
            lambda m: m.get("type") == "update" and m["table"]["seats"][1]["ready"]
        )
        await bob.start()
        table = await until(
            pilot,
            lambda: isinstance(app.screen, GetOutScreen) and app.screen.update and app.screen,
            "the table",
        )
        hand = table.update["view"]["hand"]
        await pilot.press("escape")
        await pilot.press("y")  # leave: the seat stays ours
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        away = await bob.wait_for(
            lambda m: m.get("type") == "update" and not m["table"]["seats"][1]["connected"]
        )
        assert away["table"]["phase"] == "play"
        # The menu says the seat is kept, and j goes straight back to it; t finds
        # another game (there was no way to one while a seat was kept).
        await until(pilot, lambda: "Back to your seat (j)" in screen_text(app), "the offer")
        assert "Join another game (t)" in screen_text(app)
        from tui.screens.join import JoinScreen

        await pilot.press("t")
        await until(pilot, lambda: isinstance(app.screen, JoinScreen), "the LAN's games")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu again")
        await pilot.press("j")
        again = await until(pilot, lambda: isinstance(app.screen, GetOutScreen) and app.screen,
                            "the table again")
        await until(pilot, lambda: again.update is not None, "a view")
        assert again.my_seat == 1
        assert again.update["view"]["hand"] == hand
        assert joined.table in str(Path(app_config_dir(), "seats.json").read_text())
    await bob.close()


async def ann_ready_bob_starts(pilot: Pilot[Any], host: Host, bob: Client) -> Any:
    """The app (Ann) joins Bob's table and marks ready; Bob starts it; Ann's table
    screen, once it shows the game."""
    from tui.screens.table import TableScreen

    app = pilot.app
    await join_by_address(pilot, host.port)
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
    await pilot.press("ctrl+r")
    await bob.wait_for(lambda m: m.get("type") == "update" and m["table"]["seats"][1]["ready"])
    await bob.start()
    return await until(pilot, lambda: isinstance(app.screen, TableScreen)
                       and app.screen.update and app.screen, "the table")


async def test_between_rounds_a_player_reads_whom_the_next_deal_waits_for(
        lan_host: Host) -> None:
    """Between two rounds, Ann, out of the match, read "Waiting for a player to deal the
    next round…" and could not tell whose move it was (a fresh-eyed pair over the LAN):
    the people who may deal are named; a bot, who deals only at a table of bots, is not."""
    from engine.testing import stack_getout
    from tui.widgets.seats import SeatsPanel

    bob = await Client.connect("127.0.0.1", lan_host.port, name="Bob")
    await bob.create_table("Bob's table", "getout", 3, {"first": 0, "limit": 30})
    await bob.add_bot(2)
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        screen = await ann_ready_bob_starts(pilot, lan_host, bob)
        (table,) = lan_host.tables.values()
        table.seats[2].bot = None  # (Bot 3 plays only as the test says)
        # Bot 3 goes out; Ann is left holding 33 points, over the limit of 30.
        stack_getout(table.game, [["geoff 1"], ["shirley 10", "shirley 11", "shirley 12"],
                                  ["kevin 3"]], played=["kevin 8"], turn=2)
        lan_host.refresh(table)
        lan_host.act(table, 2, {"type": "play", "card": table.game.hands[2][0]})
        status = screen.query_one("#status", Static)
        await until(pilot, lambda: "Waiting for Bob to start the next round…"
                    in str(status.render()), "whom the next round waits for")
        # The players' list says why Bot 3 is the dealer now, and who is out.
        marks = screen.query_one(SeatsPanel).columns[""]
        assert marks == ["", "over 30", "won · deals"], marks
    await bob.close()


async def test_a_player_who_comes_back_from_a_new_app_reads_the_table_s_past(
    lan_host: Host,
) -> None:
    """Ann's app crashes mid-game (its config, with the seat's token, survives); her new
    app takes the seat back and its log reads as the table's did: Bob's play and his chat
    line, not only "Ann is back"."""
    bob = await Client.connect("127.0.0.1", lan_host.port, name="Bob")
    await bob.create_table("Bob's table", "getout", 2, {"first": 0})
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        await ann_ready_bob_starts(pilot, lan_host, bob)
        await bob.chat("good luck, Ann")
        update = await bob.wait_for(lambda m: m.get("type") == "update" and m.get("legal"))
        await bob.act(update["legal"][0])
        log = app.screen.query_one("#log", TableLog)
        await until(pilot, lambda: any("Bob played" in str(line.text) for line in log.lines),
                    "Bob's play")
    # (The app is gone without leaving: its seat waits for it.)
    again = make_app("Ann")
    async with again.run_test(size=SIZE) as pilot:
        await join_by_address(pilot, lan_host.port)
        table = await until(pilot, lambda: isinstance(again.screen, GetOutScreen)
                            and again.screen.update and again.screen, "the table again")
        log = table.query_one("#log", TableLog)
        lines = await until(pilot, lambda: [str(line.text) for line in log.lines
                                            if "Bob played" in str(line.text)
                                            or "good luck, Ann" in str(line.text)] or None,
                            "the table's past in the log")
        text = "\n".join(str(line.text) for line in log.lines)
        assert len(lines) == 2, text
        assert text.index("good luck, Ann") < text.index("Bob played"), text
        assert "━━ the game starts: GET OUT! ━━" in text, text  # (a rule between games)
    await bob.close()


async def test_a_name_changed_in_the_lobby_is_kept_for_the_next_table(
        lan_host: Host, config_dir: Path) -> None:
    """A player renamed herself Bea, left and came back: she was "Ann (2)" again and the
    others could not tell it was her. The name she gives is her name from then on."""
    from tui.settings import Settings

    bob = await bob_opens_a_table(lan_host, 3)
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        lobby = await ann_joins_the_lobby(pilot, lan_host)
        name = lobby.query_one("#rename", Input)
        await until(pilot, lambda: app.focused is lobby.query_one("#lobby-seats"), "seats")
        await pilot.press("n")  # the footer's key to the name line
        assert app.focused is name
        await pilot.press(*"Bea", "enter")
        await until(pilot, lambda: app.settings.name == "Bea", "the name kept")
        table = next(iter(lan_host.tables.values()))
        assert any(seat.name == "Bea" for seat in table.seats)
        assert Settings.load()[0].name == "Bea"  # on disk: the next start is Bea too
        await pilot.press("escape", "y")  # (Bob is at the table: asked first)
        await until(pilot, lambda: not isinstance(app.screen, LobbyScreen), "left")
        await ann_joins_the_lobby(pilot, lan_host)
        await until(pilot, lambda: any(seat.name == "Bea" and seat.conn is not None
                                       for seat in table.seats), "back as Bea")
    await bob.close()


async def test_a_player_whose_name_is_taken_at_the_table_is_told_theirs(
        lan_host: Host) -> None:
    """Bob's app, named "Ann" too, sat down as "Ann (2)": only a line of the chat said
    so, and he took the other Ann's moves for his."""
    other = await Client.connect("127.0.0.1", lan_host.port, name="Ann")
    await other.create_table("Ann's table", "getout", 3)
    app = make_app("Ann")
    notes = Notices()
    async with app.run_test(size=SIZE, message_hook=notes) as pilot:
        await ann_joins_the_lobby(pilot, lan_host)
        said = "'Ann' is taken at this table: you are 'Ann (2)' here (n renames you"
        await until(pilot, lambda: any(said in n for n in notes.messages()), "told")
        await other.ready()  # (a later update: told once)
        await until(pilot, lambda: app.screen.table["seats"][0]["ready"], "the next update")
        assert sum(said in n for n in notes.messages()) == 1
    await other.close()


async def test_an_empty_name_in_the_lobby_says_why_nothing_changed(lan_host: Host) -> None:
    """n, Backspace, Enter: nothing happened and nothing said why (a fresh-eyed pair)."""
    bob = await bob_opens_a_table(lan_host, 3)
    app = make_app("Ann")
    notes = Notices()
    async with app.run_test(size=SIZE, message_hook=notes) as pilot:
        lobby = await ann_joins_the_lobby(pilot, lan_host)
        name = lobby.query_one("#rename", Input)
        await until(pilot, lambda: app.focused is lobby.query_one("#lobby-seats"), "seats")
        await pilot.press("n", "space", "enter")
        await until(pilot, lambda: any("cannot be empty" in n for n in notes.messages()),
                    "why nothing changed")
        assert app.focused is name  # (still there, to type the name)
        table = next(iter(lan_host.tables.values()))
        assert any(seat.name == "Ann" for seat in table.seats)
    await bob.close()


async def test_the_lobby_s_seat_cursor_starts_on_our_seat(lan_host: Host) -> None:
    bob = await Client.connect("127.0.0.1", lan_host.port, name="Bob")
    await bob.create_table("Bob's table", "getout", 3, {})
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        await join_by_address(pilot, lan_host.port)
        lobby = await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen
                            and app.screen.update is not None and app.screen, "the lobby")
        seats = lobby.query_one("#lobby-seats", DataTable)
        await until(pilot, lambda: seats.row_count == 3, "the seats")
        assert lobby.my_seat == 1 and seats.cursor_row == 1
        assert str(seats.get_row_at(1)[0]) == "▸ 2"
    await bob.close()


async def test_a_seat_left_in_the_lobby_is_not_offered_as_kept(lan_host: Host) -> None:
    """Leaving a lobby frees the seat at the host, but the app kept its token: the
    table list said "your seat is kept" of a seat somebody else could take."""
    from tui.screens.dialogs import ConfirmScreen
    from tui.settings import recall_seat

    bob = await Client.connect("127.0.0.1", lan_host.port, name="Bob")
    joined = await bob.create_table("Bob's table", "getout", 3, {})
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        await join_by_address(pilot, lan_host.port)
        lobby = await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen
                            and app.screen.my_seat is not None and app.screen, "the lobby")
        where = lobby.session.where
        assert recall_seat(where, joined.table) is not None
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        await pilot.press("y")  # Leave
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        await until(pilot, lambda: recall_seat(where, joined.table) is None, "the seat forgot")
    await bob.close()


def app_config_dir() -> Path:
    from tui.settings import config_dir

    return config_dir()


async def test_the_creator_hands_an_away_players_seat_to_a_bot() -> None:
    port = free_port()
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        await choose_game(pilot, "getout")
        app.screen.query_one("#seats", Select).value = 2
        app.screen.query_one("#port", Input).value = str(port)
        await pilot.pause()
        app.screen.query_one("#options-getout #opt-first", Select).value = "0"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        bob = await Client.connect("127.0.0.1", port, name="Bob")
        (table,) = await bob.list_tables()
        await bob.join(table["id"])
        await bob.ready()
        await until(
            pilot, lambda: app.screen.update and app.screen.update["table"]["seats"][1]["ready"],
            "Bob ready",
        )
        await pilot.press("ctrl+s")
        game = await until(
            pilot,
            lambda: isinstance(app.screen, GetOutScreen) and app.screen.update and app.screen,
            "the game",
        )
        await bob.close()  # Bob's laptop goes to sleep
        await until(pilot, lambda: game.away_seats(), "Bob shown away")
        # We lay the first card: Bob's turn, and the line says why nothing happens.
        await until(pilot, lambda: game.can("play"), "our lead")
        await pilot.press("enter")
        status = game.query_one("#status", Static)
        # The app's LAN tables have an away bot (2m): the line says so too (it said only
        # that the seat waited).
        assert (game.table.get("options") or {}).get("away_bot") == "2m"
        # It counts down, a second at a time (it said "after 2m away" all along).
        said = re.compile(r"Waiting for Bob… \(away: a bot plays for them in 1:(5\d); b lets "
                          r"one now\)")
        first = await until(pilot, lambda: said.search(str(status.render())),
                            "Bob's turn, said away")
        await until(pilot, lambda: (m := said.search(str(status.render()))) is not None
                    and m[1] != first[1], "a second less")
        # Too narrow for all that (a long name at 100 columns cut the key off), in short.
        # The short words count down too (at 80 columns a Got Five! line said only "b
        # lets a bot play").
        await pilot.resize_terminal(50, SIZE[1])
        short = re.compile(r"^Waiting for Bob… \(away: a bot in 1:\d\d, b now\)$")
        await until(pilot, lambda: short.match(str(status.render()).strip()),
                    "the short words")
        # Narrower yet (a phone's): the line says away, the footer's b the rest (it cut
        # "(away: b lets a bot").
        await pilot.resize_terminal(36, SIZE[1])
        await until(pilot, lambda: str(status.render()).strip() == "Waiting for Bob… (away)",
                    "the shortest words")
        await pilot.resize_terminal(*SIZE)
        # While our own line to the host is down, the key is not offered.
        from tests.tui_support import footer_keys
        from tui.messages import ConnectionDropped, ConnectionRestored

        assert "bot_for_away" in footer_keys(app)
        game.post_message(ConnectionDropped("a test", final=False))
        await until(pilot, lambda: "bot_for_away" not in footer_keys(app), "no bot key")
        game.post_message(ConnectionRestored())
        await until(pilot, lambda: "bot_for_away" in footer_keys(app), "the bot key again")
        await pilot.press("b")
        await pilot.press("1")
        await until(
            pilot, lambda: game.update["table"]["seats"][1]["kind"] == "bot", "a bot in seat 2"
        )


async def test_after_a_game_the_creator_takes_the_table_back_to_the_lobby_and_deals_again() -> None:
    from engine.testing import stack_getout

    app = HiddenHandApp(Settings(name="Ann"), bot_delay=0.01, solo={
        "game_id": "getout", "seats": 2, "options": {"first": 0, "match": False}})
    async with app.run_test(size=SIZE) as pilot:
        screen = await until(
            pilot,
            lambda: isinstance(app.screen, GetOutScreen) and app.screen.legal and app.screen,
            "our first turn",
        )
        assert app.hosting.host is not None
        (table,) = app.hosting.host.tables.values()
        stack_getout(table.game, [["kevin 1"], ["geoff 12"]], played=["kevin 8"], turn=0)
        app.hosting.host.refresh(table)
        await until(pilot, lambda: len(screen.query_one(HandWidget).cards) == 1, "the new hand")
        await pilot.press("right")  # arrows keep choosing cards, whatever has focus
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen), "the summary")
        await pilot.press("l")
        lobby = await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen,
                            "the lobby")
        await until(pilot, lambda: lobby.live, "the lobby shown")
        chat = lobby.query_one("#chat", TableLog)
        await until(pilot, lambda: any("back in the lobby" in str(line.text)
                                       for line in chat.lines), "the notice")
        await pilot.press("ctrl+s")
        again = await until(
            pilot,
            lambda: isinstance(app.screen, GetOutScreen) and app.screen.legal and app.screen,
            "a new game",
        )
        assert again is not screen
        assert again.update["view"]["hand_counts"] == [6, 6]


async def our_first_turn(pilot: Pilot[Any], app: HiddenHandApp) -> GetOutScreen:
    """The solo GET OUT! table of ``app``, once it is our turn."""
    screen: GetOutScreen = await until(
        pilot, lambda: isinstance(app.screen, GetOutScreen) and app.screen.legal and app.screen,
        "our first turn")
    return screen


async def test_mid_match_the_creator_ends_the_game_and_takes_the_table_back_to_the_lobby(
) -> None:
    from engine.testing import stack_getout
    from tui.screens.dialogs import ConfirmScreen

    app = HiddenHandApp(Settings(name="Ann"), bot_delay=0.01, solo={
        "game_id": "getout", "seats": 3, "options": {"first": 0, "match": True}})
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await our_first_turn(pilot, app)
        # In a round: the key is there for the creator, and asks first.
        assert footer_keys(app)["to_lobby"]
        await pilot.press("l")
        question = await until(pilot, lambda: isinstance(app.screen, ConfirmScreen)
                               and app.screen, "the question")
        # Nobody else to tell at a table of bots.
        assert "everyone" not in question.question
        # (Nobody has moved yet: it said Past games kept what was played, and it kept
        # nothing, a fresh-eyed pass found; leaving said so already.)
        assert "unfinished (you have not moved in it: Past games will not list it)" \
            in question.question, question.question
        await pilot.press("n")
        assert app.screen is screen and screen.table["phase"] == "play"
        # Between rounds: the round's summary offers it, worded as its button.
        assert app.hosting.host is not None
        (table,) = app.hosting.host.tables.values()
        for seat in (1, 2):
            table.seats[seat].bot = None  # the bots deal no next round before we answer
        stack_getout(table.game, [["kevin 1"], ["geoff 12"], ["geoff 13"]],
                     played=["kevin 8"], turn=0)
        app.hosting.host.refresh(table)
        await until(pilot, lambda: len(screen.query_one(HandWidget).cards) == 1, "the new hand")
        await pilot.press("enter")
        summary = await until(pilot, lambda: isinstance(app.screen, SummaryScreen)
                              and app.screen, "the round's summary")
        assert summary.query_one("#answer-lobby", Button)
        assert table.game.view(None)["phase"] != "over"  # the match goes on
        await until(pilot, lambda: "End the match" in footer_labels_in_view(app), "l's words")
        await pilot.press("l")
        question = await until(pilot, lambda: isinstance(app.screen, ConfirmScreen)
                               and app.screen, "the question")
        assert "unfinished (Past games keeps what was played)" in question.question
        await pilot.press("y")
        lobby = await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen,
                            "the lobby")
        await until(pilot, lambda: lobby.live, "the lobby shown")
        chat = lobby.query_one("#chat", TableLog)
        # (The chat wraps its lines at 80 columns.)
        await until(pilot, lambda: "Ann ended the game: back in the lobby" in "".join(
            str(line.text) for line in chat.lines), "the notice")
        assert table.phase == "lobby" and table.game is None


async def test_the_host_form_offers_only_the_bots_that_fit_and_shows_its_errors() -> None:
    app = make_app("Ann")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("h")
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        # ctrl+s opens the table's lobby (its own Start deals): said so, not "Start".
        assert str(screen.query_one("#start", Button).label) == "Open the table (^s)"
        await until(pilot, lambda: "Open the table" in footer_labels_in_view(app), "the key")
        await choose_game(pilot, "getout")
        bots = screen.query_one("#bots", Select)
        screen.query_one("#bots", Select).value = 3
        screen.query_one("#seats", Select).value = 2
        await until(pilot, lambda: bots.value == 1, "the bots cut to what fits")
        from textual.widgets.select import InvalidSelectValueError

        with pytest.raises(InvalidSelectValueError):
            bots.value = 2  # not offered at a table of 2
        screen.query_one("#port", Input).value = "99999"
        await pilot.press("ctrl+s")
        error = screen.query_one("#setup-error")
        await until(pilot, lambda: "port" in str(error.render()), "the error")
        form = screen.query_one("#setup")
        await until(pilot, lambda: form.region.contains_region(error.region),
                    "the error scrolled into sight")
        assert isinstance(app.screen, SetupScreen)  # and nothing opened


async def test_the_focused_button_is_marked_without_colour() -> None:
    """A monochrome terminal shows no reversed colours: the focused entry wears ▸ … ◂."""
    from textual.widgets import Button

    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.focused, Button), "the menu")
        solo = app.screen.query_one("#solo", Button)
        host = app.screen.query_one("#host", Button)
        assert str(solo.label) == "▸ Play solo against bots (s) ◂"
        await pilot.press("down")
        await until(pilot, lambda: app.focused is host, "the next entry")
        assert str(host.label) == "▸ Host a LAN game (h) ◂"
        assert str(solo.label) == "Play solo against bots (s)"
        await pilot.press("up", "up")  # round the list: the last entry
        await until(pilot, lambda: app.focused is app.screen.query_one("#quit"), "Quit")


async def test_a_refusal_repeated_while_it_shows_is_shown_once() -> None:
    """Chat lines sent faster than the host allows: one "too fast" notice on screen, not
    a stack of them; each line the host took is in the log once."""

    # The host's clock stands still: it takes the burst of 6 lines, and no more however
    # long the typing takes on a busy machine.
    app = make_app(clock=ManualClock())
    # A notice stays until the test has looked (on a busy machine ten lines took longer
    # to type than a notice's five seconds).
    app.NOTIFICATION_TIMEOUT = DEADLINE
    notices = Notices()
    async with app.run_test(size=SIZE, message_hook=notices) as pilot:
        lobby = await open_lobby(app, pilot)
        # Each line sent gives the keys back to the seats: / opens the line again.
        chat_line = lobby.query_one("#chat-input", Input)
        for i in range(10):
            app.post_message(events.Key("slash", "/"))
            await until(pilot, lambda: app.focused is chat_line, "the chat line")
            for key in (*f"m{i:02d}", "enter"):
                app.post_message(events.Key(key, key if len(key) == 1 else None))
            await until(pilot, lambda: app.focused is not chat_line, f"line {i} sent")
        log = lobby.query_one("#chat", TableLog)
        await until(pilot, lambda: not [w for w in app.workers
                                        if w.group == "requests" and not w.is_finished],
                    "every line answered")
        await pilot.pause()
        shown = notices.shown()
        too_fast = [n for n in shown if "too fast" in n.message]
        assert len(too_fast) == 1, [n.message for n in shown]
        said = [line.text for line in log.lines if ": m" in line.text]
        assert len(said) == len(set(said)) and 1 < len(said) < 10, said
        app.notify("something else")  # another notice still shows beside it
        await pilot.pause()
        assert len(notices.shown()) == 2


@pytest.mark.parametrize(("term", "mono"), [("xterm-mono", True), ("linux-m", True),
                                            ("xterm-256color", False), ("screen", False),
                                            ("", False)])
def test_a_monochrome_terminal_is_sent_no_colour(monkeypatch: pytest.MonkeyPatch, term: str,
                                                 mono: bool) -> None:
    from rich.segment import Segment
    from rich.style import Style
    from textual.color import Color

    monkeypatch.setenv("TERM", term)
    app = make_app()
    line = [Segment("x", Style(color="red", bgcolor="blue", bold=True, underline=True))]
    for line_filter in app.get_line_filters():
        line = line_filter.apply(line, Color(0, 0, 0))
    (segment,) = line
    style = segment.style
    assert style is not None and style.bold and style.underline  # the cues besides colour
    assert style.color is not None and style.bgcolor is not None
    assert (style.color.is_default and style.bgcolor.is_default) == mono


@pytest.mark.parametrize(("term", "mono"), [("xterm-mono", True), ("xterm-256color", False)])
async def test_a_monochrome_terminal_sees_the_text_cursor_and_the_dialogs_slot(
        monkeypatch: pytest.MonkeyPatch, term: str, mono: bool) -> None:
    """Colours are gone there: the cursor of a text field is reversed, and the Got Five!
    dialog's slot the arrows change is bold and underlined (as in colour)."""
    from textual.widgets import Input

    from tui.games.gotfive.dialogs import AnnounceScreen

    monkeypatch.setenv("TERM", term)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("o")
        field = await until(pilot, lambda: isinstance(app.focused, Input)
                            and app.focused, "the name field")
        cursor = field.get_component_rich_style("input--cursor")
        assert bool(cursor.reverse) == mono
        app.push_screen(AnnounceScreen([0, 1, 2, 3, 4], [11, None, None, 14, 15]))
        slot = await until(pilot, lambda: isinstance(app.focused, Input)
                           and app.focused.id == "gf-n1" and app.focused, "the slot")
        assert slot.styles.text_style.bold and slot.styles.text_style.underline
        other = app.screen.query_one("#gf-n2", Input)
        assert not other.styles.text_style.underline


async def test_lobby_options_apply_as_chosen_and_a_typed_number_goes_with_start() -> None:
    """A switch or choice in the lobby's options applies at once, as the seat count does,
    and a number typed but not applied is sent before the start: neither is lost (a
    player set bots to casual, pressed Start, and got strong bots)."""
    app = make_app()
    notices = Notices()
    async with app.run_test(size=SIZE, message_hook=notices) as pilot:
        lobby = await open_lobby(app, pilot)
        table = lambda: lobby.update["table"]  # noqa: E731
        switch = await until(pilot, lambda: lobby.query("#opt-match") and
                             lobby.query_one("#opt-match", Switch), "the options")
        switch.focus()
        await pilot.pause()
        assert switch.styles.border_top[0] == "heavy"  # focus shows without colour
        await pilot.press("enter")  # the switch turns off: one round, not a match
        await until(pilot, lambda: table()["options"].get("match") is False, "match off")
        await pilot.pause()
        # The host took it: the form is not rebuilt under the player (the focus stays).
        assert lobby.query_one("#opt-match", Switch) is switch and app.focused is switch
        limit = lobby.query_one("#opt-limit", Input)
        limit.value = "250"  # typed, never applied
        limit.value = "x"
        await pilot.press("ctrl+s")  # a wrong number stops the start, and says why
        said = await until(pilot, lambda: [n.message for n in notices.raised
                                           if "limit" in n.message], "the error")
        # (It said only what was wrong with the number: the start looked as if it did
        # nothing, under a line saying everyone was ready to start.)
        assert said[0].startswith("Not started: ") and said[0].endswith(" (o)."), said
        assert lobby.is_current and table()["options"]["limit"] == 100
        limit.value = "250"
        for seat in (1, 2):
            lobby.query_one("#lobby-seats", DataTable).move_cursor(row=seat)
            await pilot.press("ctrl+b")
        await until(pilot, lambda: all(s["kind"] != "empty" for s in table()["seats"]),
                    "bots seated")
        await pilot.press("ctrl+s")
        game = await until(pilot, lambda: isinstance(app.screen, GetOutScreen)
                           and app.screen.update and app.screen, "the game")
        assert game.update["table"]["options"]["limit"] == 250
        assert game.update["table"]["options"]["match"] is False


async def test_the_setup_form_starts_from_the_table_opened_last_time(config_dir: Path) -> None:
    """Leaving a solo game and choosing 'Play solo' again began at GET OUT! with 4 seats
    whatever was played: the form keeps the last table's game, seats and options, across
    restarts (in the settings file), and forgets ones the engine no longer takes."""
    import json

    from tui.games.getit.screen import GetItScreen

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await solo_setup(pilot, "getit")
        screen.query_one("#seats", Select).value = 5
        await until_steady(pilot, lambda: screen.query_one(OptionsForms).current.seats == 5,
                           "5 seats")
        screen.query_one("#opt-level", Select).value = "3"
        screen.query_one("#opt-timer", Input).value = "0"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, GetItScreen), "the table")
    saved = json.loads((config_dir / "settings.json").read_text())["last_table"]
    assert saved == {"game": "getit", "seats": 5, "options": {**saved["options"],
                                                             "level": 3, "timer": 0}}
    again = make_app()
    again.settings = Settings.load()[0]
    async with again.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        form = again.screen
        assert isinstance(form, SetupScreen) and form.game_id == "getit"
        assert form.query_one("#seats", Select).value == 5
        assert form.query_one("#opt-level", Select).value == "3"
        assert form.query_one("#opt-timer", Input).value == "0"
        # Each game's table as it was last opened: back to Get It! after another game,
        # its options were the defaults again (GET OUT!'s match off came back on).
        await choose_game(pilot, "gotfive")
        await choose_game(pilot, "getit")
        await until_steady(pilot, lambda: form.query_one(OptionsForms).current.game_id
                           == "getit" and form.query_one("#seats", Select).value == 5,
                           "Get It! as it was")
        assert form.query_one("#opt-level", Select).value == "3"
        assert form.query_one("#opt-timer", Input).value == "0"
    (config_dir / "settings.json").write_text(json.dumps(
        {"name": "Ann", "last_table": {"game": "getit", "seats": 9, "options": {}}}))
    third = make_app()
    third.settings = Settings.load()[0]
    async with third.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        assert third.screen.game_id == "getout"  # type: ignore[attr-defined]


async def test_a_get_it_table_set_up_for_a_person_starts_with_relaxed_bots() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await solo_setup(pilot, "getit")
        assert screen.query_one("#options-getit #opt-bots", Select).value == repr("relaxed")
        await choose_game(pilot, "gotfive")
        await choose_game(pilot, "getit")  # back again: the preset again
        assert screen.query_one("#options-getit #opt-bots", Select).value == repr("relaxed")


async def test_the_lobbys_buttons_fit_at_80_columns_with_the_focus_marks() -> None:
    """The focused Start button lost its end at 80 columns ('▸ Start (^s'): every
    button of the creator's row fits its column, focused or not."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await open_lobby(app, pilot)
        # The lobby puts the focus on its seats once shown: only then is it ours to move.
        await until(pilot, lambda: isinstance(app.focused, DataTable), "the lobby's focus")
        row = lobby.query_one("#start", Button).parent
        assert row is not None
        for button in row.query(Button):
            button.focus()
            await until(pilot, lambda button=button: app.focused is button, "the focus")
            await pilot.pause()
            assert row.region.contains_region(button.region), button.id
            assert str(button.render()).strip().endswith("◂")


async def test_ctrl_b_on_a_taken_seat_seats_a_bot_in_the_next_empty_one() -> None:
    app = make_app()
    notices = Notices()
    async with app.run_test(size=SIZE, message_hook=notices) as pilot:
        lobby = await open_lobby(app, pilot)  # 3 seats: Ann in seat 1, the cursor on it
        seats = lambda: lobby.update["table"]["seats"]  # noqa: E731
        await pilot.press("ctrl+b")
        await until(pilot, lambda: seats()[1]["kind"] == "bot", "a bot in seat 2")
        await pilot.press("ctrl+b")
        await until(pilot, lambda: seats()[2]["kind"] == "bot", "a bot in seat 3")
        assert seats()[0]["name"] == "Ann"
        assert not [n for n in notices.raised if "not empty" in n.message]


async def test_a_got_five_table_set_up_for_a_person_starts_with_casual_bots() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await solo_setup(pilot, "gotfive")
        assert screen.query_one("#options-gotfive #opt-bots", Select).value == repr("casual")


async def test_the_away_bot_chosen_stays_when_another_game_is_chosen() -> None:
    """Set to 30s, then Get It! chosen instead: it was 2m again, unseen (every game has
    the option, alike; a fresh-eyed pass)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        await choose_game(pilot, "getout")
        app.screen.query_one("#options-getout #opt-away_bot", Select).value = repr("30s")
        await choose_game(pilot, "getit")
        assert app.screen.query_one("#options-getit #opt-away_bot",
                                    Select).value == repr("30s")


@pytest.mark.parametrize("game_id", ["getout", "getit", "gotfive"])
async def test_a_lan_table_starts_with_an_away_bot_and_a_solo_one_offers_none(
        game_id: str) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        assert isinstance(app.screen, SetupScreen)
        await choose_game(pilot, game_id)
        assert app.screen.query_one(f"#options-{game_id} #opt-away_bot",
                                    Select).value == repr("2m")
        await pilot.press("escape")
        screen = await solo_setup(pilot, game_id)
        assert not screen.query("#opt-away_bot")
        assert screen.query_one(f"#options-{game_id} #opt-bots", Select)


@pytest.mark.parametrize("game_id", ["getout", "getit", "gotfive"])
async def test_opening_the_lobby_changes_no_option(game_id: str) -> None:
    """The options form built as the lobby opens applies nothing (the log said 'the
    creator set the table again (nothing changed)' twice after a game)."""

    from tests.tui_support import show_lobby
    from tui.session import Session

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        host = await app.hosting.start(port=None)
        session = Session("Ann", host=host)
        await session.connect()
        await session.create("Ann's table", game_id, 4, {})
        lobby = await show_lobby(app, pilot, session)
        await until(pilot, lambda: lobby.query("OptionsForm Select"), "the options")
        for _ in range(10):
            await pilot.pause(0.02)
        lines = [str(line.text) for line in lobby.query_one("#chat", TableLog).lines]
        assert not [line for line in lines if "set the table" in line], lines


async def test_the_lobby_s_chat_wraps_again_when_the_terminal_is_resized() -> None:
    """Lines wrapped at 80 columns stayed so at 120, in a box twice as wide (a
    fresh-eyed pair): the lobby's chat is the table's log, which wraps again."""
    from tests.tui_support import show_lobby
    from tui.session import Session

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        host = await app.hosting.start(port=None)
        session = Session("Ann", host=host)
        await session.connect()
        await session.create("Ann's table", "getout", 4, {})
        lobby = await show_lobby(app, pilot, session)
        chat = lobby.query_one("#chat", TableLog)
        said = "hello Bob, Alice here, ready when you are and the tea is on"
        await session.request("chat", said)
        await until(pilot, lambda: len(chat.lines) > 2
                    and "ready" not in str(chat.lines[-1].text), "the line, wrapped")
        narrow = len(chat.lines)
        await pilot.resize_terminal(160, 40)
        await until(pilot, lambda: len(chat.lines) < narrow, "wrapped again, wider")
        assert any("ready when you are" in str(line.text) for line in chat.lines)


async def test_settings_say_where_the_interfaces_come_from_and_how_long_a_name_may_be(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the interfaces pinned by the environment, an empty field does not mean "all
    interfaces"; the name's limit is said before a long name is cut to it."""
    monkeypatch.setenv("HIDDENHAND_MDNS_INTERFACES", "127.0.0.1")
    app = HiddenHandApp(Settings(name="Ann"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("o")
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        field = screen.query_one("#mdns", Input)
        assert field.value == "" and field.placeholder == (
            "127.0.0.1 (from HIDDENHAND_MDNS_INTERFACES)")
        labels = " ".join(str(label.render()) for label in screen.query(Label))
        assert "(up to 24 characters, no [ or ])" in labels, labels


async def test_a_pasted_name_too_long_is_cut_and_the_player_is_told() -> None:
    """506 characters pasted: the field keeps the first 24 (or the table name's 32) and
    says that it cut them (it refused the paste, or cut, without a word)."""
    from textual import events

    notices = Notices()
    app = HiddenHandApp(Settings(name="Ann"))
    async with app.run_test(size=SIZE, message_hook=notices) as pilot:
        await pilot.press("o")
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        field = screen.query_one("#name", Input)
        field.focus()
        field.value = ""
        field.post_message(events.Paste("Bartholomew" * 46))  # 506 characters
        await until(pilot, lambda: field.value == ("Bartholomew" * 3)[:24], "the name cut")
        await until(pilot, lambda: "Name cut to 24 characters (the most it may have)."
                    in notices.messages(), "the notice")
        await pilot.press("escape")  # a change: Save or Discard?
        await until(pilot, lambda: not isinstance(app.screen, SettingsScreen)
                    and bool(app.screen.query("#no")), "the question")
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        await pilot.press("h")
        table = await until(pilot, lambda: app.screen.query("#table-name")
                            and app.screen.query_one("#table-name", Input), "the host form")
        table.focus()
        table.value = ""
        table.post_message(events.Paste("T" * 506))
        await until(pilot, lambda: table.value == "T" * 32, "the table name cut")
        assert "Table name cut to 32 characters (the most it may have)." in notices.messages()
    # The command line's --player (an SSH login name) is cut too, and the app says so.
    from tui.settings import name_cut

    assert name_cut("x" * 506, "x" * 24) == (
        f"Your name was cut to 24 characters ({'x' * 24!r}): choose another in Settings (o).")
    assert name_cut("Ann", "Ann") is None and name_cut("x" * 30, "Bob") is None


@pytest.mark.parametrize(("env", "mono"), [({"TERM": "xterm-mono"}, True),
                                           ({"TERM": "xterm-256color", "NO_COLOR": "1"}, True),
                                           ({"TERM": "xterm-256color"}, False)])
async def test_without_colour_a_dropdown_s_highlight_is_underlined_and_a_switch_says_its_state(
        monkeypatch: pytest.MonkeyPatch, env: dict[str, str], mono: bool) -> None:
    """Bold alone marked the highlighted choice of an open dropdown, and only its knob's
    place said whether a switch was on."""
    monkeypatch.delenv("NO_COLOR", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        game = await until(pilot, lambda: app.screen.query("#game")
                           and app.screen.query_one("#game", Select), "the host form")
        game.value = "getout"
        game.focus()
        await pilot.press("enter")
        await until(pilot, lambda: game.expanded, "the dropdown open")
        await pilot.press("down")  # Get It! is highlighted (and shown only in the list)

        def highlighted() -> list[Any]:
            # (Bold: drawn as highlighted. On a loaded machine a frame drawn before the
            # highlight moved showed it plain, and the test read that one.)
            return [segment.style for strip in screen_strips(app) for segment in strip
                    if "Get It!" in segment.text and segment.style is not None
                    and segment.style.bold]

        (style,) = await until(pilot, highlighted, "the highlighted choice drawn")
        assert style.bold and bool(style.underline) == mono, style
        await pilot.press("escape")
        await choose_game(pilot, "getout")
        switch = await until(pilot, lambda: app.screen.query("#opt-match")
                             and app.screen.query_one("#opt-match", Switch), "the match switch")
        state = app.screen.query_one("#opt-state-match", Label)
        assert str(state.render()) == ("on" if switch.value else "off")
        switch.toggle()
        await until(pilot, lambda: str(state.render()) == ("on" if switch.value else "off"),
                    "the state in words")


@pytest.mark.parametrize(("name", "why"), [
    ("Bot 3", "the name 'Bot 3' would pass for a bot"),
    # Saved, these were refused by every host, the app's own solo one too: no game.
    ("\u3164", "it must show something: it is blank or invisible"),
    ("Ze\u0301\u0302\u0303\u0304\u0305\u0306d", "it stacks more than 4 combining marks"),
])
async def test_settings_refuse_a_name_every_host_would_refuse(
        config_dir: Path, name: str, why: str) -> None:
    """"Bot 3" would pass for a bot: said as it is saved, not later by a host (on an
    SSH box, with the host's inside address)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("o")
        # Headed, as the solo form is (it opened straight on the name's label).
        title = await until(pilot, lambda: app.screen.query(".form-title")
                            and app.screen.query_one(".form-title", Static), "the title")
        assert str(title.render()) == "Settings"
        app.screen.query_one("#name", Input).value = name
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, SettingsScreen)  # refused, still here
        said = str(app.screen.query_one("#settings-error").render())
        assert f"Your name: {why}" in said, said
    saved, _ = Settings.load()
    assert saved.name != name


async def test_at_the_end_of_a_solo_game_r_deals_a_rematch_at_the_same_table() -> None:
    from engine.testing import stack_getout

    app = HiddenHandApp(Settings(name="Ann"), bot_delay=0.01, solo={
        "game_id": "getout", "seats": 2, "options": {"first": 0, "match": False}})
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await our_first_turn(pilot, app)
        assert app.hosting.host is not None
        (table,) = app.hosting.host.tables.values()
        stack_getout(table.game, [["kevin 1"], ["geoff 12", "geoff 13"]],
                     played=["kevin 8"], turn=0)
        app.hosting.host.refresh(table)
        await until(pilot, lambda: len(screen.query_one(HandWidget).cards) == 1, "the new hand")
        first = table.game
        await pilot.press("enter")
        summary = await until(pilot, lambda: isinstance(app.screen, SummaryScreen)
                              and app.screen, "the game's summary")
        assert summary.query_one("#answer-rematch", Button)
        await pilot.press("r")
        await until(pilot, lambda: table.game is not first and table.phase == "play",
                    "a new deal")
        await until(pilot, lambda: app.screen is screen and screen.table["phase"] == "play"
                    and len(screen.query_one(HandWidget).cards) == 6, "the new game's hand")
        assert [s.name for s in table.seats] == ["Ann", "Bot 2"]


async def test_the_host_form_shows_every_option_of_the_game_however_tall() -> None:
    """The options take their own height in the scrolling form (a fresh player found
    them squeezed to one row at 100x30, the match switch cut, the rest hidden)."""
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("h")
        screen = await until(pilot, lambda: isinstance(app.screen, SetupScreen) and
                             app.screen, "the host form")
        forms = screen.query_one(OptionsForms)
        await until(pilot, lambda: forms.current.size.height > 0, "the options laid out")
        rows = [row for row in forms.current.query(".option-row") if row.display]
        assert forms.current.size.height >= 2 * len(rows) == 10
        assert forms.size.height >= forms.current.size.height


async def test_on_a_touch_screen_no_tooltip_comes_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """The web door says when the page's pointer is a finger (``net.webdoor``): then no
    tooltip comes up where a tap was — nothing moves the pointer away, so it would stay
    over the table — while a mouse (an SSH login, a desktop browser) still gets them."""
    from net.paths import TOUCH_ENV
    from tui.app import NO_TOOLTIPS

    monkeypatch.delenv(TOUCH_ENV, raising=False)
    assert HiddenHandApp(Settings(name="Ann")).TOOLTIP_DELAY < 1
    monkeypatch.setenv(TOUCH_ENV, "1")
    app = HiddenHandApp(Settings(name="Ann"))
    assert app.TOOLTIP_DELAY == NO_TOOLTIPS >= 3600
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        assert app.TOOLTIP_DELAY == NO_TOOLTIPS


async def test_slash_on_a_round_s_summary_opens_the_chat_line_and_deals_nothing() -> None:
    """Over a round's summary the table says "/ chat", but "/" did nothing there: the
    chat typed after it ran as the summary's keys, and "nice one"'s n dealt the next
    round for everyone. "/" gives the keys to the chat line."""
    from textual.widgets import Input

    app = match_app()
    async with app.run_test(size=SIZE) as pilot:
        screen, summary = await at_round_one_s_summary(pilot)
        await until(pilot, lambda: "/ Chat" in screen_text(app), "the chat key named")
        await pilot.press("slash")
        await until(pilot, lambda: app.screen is screen and isinstance(app.focused, Input),
                    "the chat line")
        await pilot.press(*"nice one", "enter")
        await until(pilot, lambda: "nice one" in screen_text(app), "the line sent")
        assert screen.update["view"]["round"] == 1 and not summary.is_attached


async def test_the_lobby_s_buttons_are_whole_at_a_phone_s_width() -> None:
    """At 40 columns "Start (^s)" was cut at the edge ("Start (^")."""
    from textual.widgets import Button

    app = make_app("Ann")
    async with app.run_test(size=(40, 30)) as pilot:
        lobby = await open_lobby(app, pilot)
        await until(pilot, lambda: lobby.live, "the lobby shown")
        await pilot.pause()
        start = lobby.query_one("#start", Button)
        assert start.region.width and start.region.right <= 40 - 1
        assert "Start (^s)" in screen_text(app)


async def test_the_creator_s_ready_column_says_they_start() -> None:
    """"Everyone is ready" stood beside the creator's empty "ready", which read as the
    one not ready: the creator needs no Ready, they start; and a bare "deals" under
    "ready" left a player unsure whether they were ready (and read as a dealer where
    nobody deals)."""
    app = make_app("Ann")
    async with app.run_test(size=(100, 30)) as pilot:
        lobby = await open_lobby(app, pilot)
        await until(pilot, lambda: lobby.live, "the lobby shown")
        seats = lobby.query_one("#lobby-seats", DataTable)
        await until(pilot, lambda: seats.row_count and str(seats.get_row_at(0)[3]) == "✓ (★)",
                    "the creator's row")


@pytest.mark.parametrize("key", ["s", "h"])
async def test_the_table_form_fits_a_phone_s_width_from_its_title_down(key: str) -> None:
    """Upright, a phone's choices (60 cells wide) ran past the edge, ▼ and all, and the
    form opened scrolled, its title and first label out of sight; "Back (esc)" was cut
    beside "Open the table (ctrl+s)"."""
    from textual.widgets import Button, Select

    app = make_app("Mia")
    async with app.run_test(size=(43, 40)) as pilot:
        await pilot.press(key)
        title = "Play solo against bots" if key == "s" else "Host a LAN game"
        await until(pilot, lambda: title in screen_text(app), "the form")
        form = app.screen.query_one("#setup")
        for choice in app.screen.query(Select):
            assert choice.region.right <= 43, choice
        lines = screen_text(app).splitlines()
        assert lines[2].strip() == title, lines[:3]
        assert any(line.rstrip().endswith("▼") and "GET OUT!" in line for line in lines)
        assert form.scroll_y == 0
        form.scroll_end(animate=False, immediate=True)
        back = app.screen.query_one("#back", Button)
        await until(pilot, lambda: back.region.height, "the buttons in sight")
        assert back.region.right <= 43 - 1, back.region  # (the scroll bar's column)


async def test_the_lobby_opens_its_game_s_rules_and_a_phone_keeps_the_key() -> None:
    """A phone's lobby had no way to the rules, and at its tables "? Rules" gave way
    to the chat line's "? rules", which a finger cannot press."""
    from tui.screens.rules import RulesScreen
    from tui.widgets.footer import TableFooter

    app = make_app("Ann")
    app.touch = True
    async with app.run_test(size=(43, 40)) as pilot:
        lobby = await open_lobby(app, pilot)
        await until(pilot, lambda: lobby.live, "the lobby shown")
        footer = lobby.query_one(TableFooter)
        await until(pilot, lambda: any(e.name == "rules" for e in footer.entries),
                    "Rules kept in the footer, off its edge")
        # (Nor may its empty lines name keys a phone lacks: "/ to chat", "n: your name".)
        assert lobby.query_one("#chat-input", Input).placeholder.startswith("tap here")
        assert lobby.query_one("#rename", Input).placeholder.startswith("tap here")
        await pilot.press("question_mark")
        rules = await until(pilot, lambda: isinstance(app.screen, RulesScreen)
                            and app.screen, "the rules")
        assert rules.first_game == lobby.table["game"]


async def test_ctrl_c_says_how_to_quit_in_plain_words() -> None:
    """Textual's own notice showed its markup: "Press [b]q[/b] to quit the app"."""
    app = make_app()
    notes = Notices()
    async with app.run_test(size=SIZE, message_hook=notes) as pilot:
        await pilot.press("ctrl+c")
        await until(pilot, lambda: notes.messages(), "a notice")
        assert notes.messages() == ["Ctrl+Q quits hiddenhand (at a table, Esc leaves it first)."]
        assert app.is_running


def test_a_rematch_s_lobby_says_it_is_dealt_once_all_are_ready() -> None:
    """After a rematch the creator read "then you (★) start the game (^s)", but the host
    deals it as soon as the others are ready (a fresh-eyed LAN pass)."""
    from tui.widgets.lobby_seats import ready_hint

    table = {"creator": 0, "rematch": True, "seats": [
        {"seat": 0, "name": "Ann", "kind": "human", "ready": True, "connected": True},
        {"seat": 1, "name": "Bob", "kind": "human", "ready": False, "connected": True}]}
    assert ready_hint(table, 0) == (
        "Waiting for Bob (seat 2) to be ready: the rematch is dealt then.")
    assert ready_hint(table, 1) == (
        "Everyone else is ready: the rematch is dealt once you are (Ready, ^r).")


def test_a_watcher_of_a_lobby_its_creator_left_is_told_how_to_run_it() -> None:
    """A lobby whose creator had left stayed open for its watcher, who saw no ★ and no
    way on (a fresh-eyed pass of spectators)."""
    from tui.widgets.lobby_seats import ready_hint

    table = {"creator": None, "seats": [
        {"seat": 0, "name": "", "kind": "empty", "ready": False, "connected": False},
        {"seat": 1, "name": "Bot 2", "kind": "bot", "ready": True, "connected": True}]}
    assert ready_hint(table, None) == "Nobody runs this table now: sit (^t), and you run it (★)."


def test_the_lobby_tells_the_one_player_the_start_waits_for() -> None:
    """Only the creator was told, when Start was refused, who was not ready: the player
    holding it up could not tell, nor what ★ marks (a fresh-eyed pass of the SSH box);
    once all are ready, the creator is told to start and the others who starts."""
    from tui.widgets.lobby_seats import ready_hint

    def seat(i: int, name: str, kind: str = "human", ready: bool = False) -> dict[str, Any]:
        return {"seat": i, "name": name, "kind": kind, "ready": ready, "connected": True}

    table = {"creator": 0, "seats": [seat(0, "Zoe"), seat(1, "Yan"),
                                     seat(2, "Bot 3", "bot", True)]}
    assert ready_hint(table, 1) == ("Everyone else is ready: Zoe (★, who runs the "
                                       "table) starts once you are (Ready, ^r).")
    # Yan is not ready: Start would be refused, and the creator is told whom it waits for.
    assert ready_hint(table, 0) == ("Waiting for Yan (seat 2) to be ready; then you (★) "
                                    "start the game (^s).")
    assert ready_hint(table, None) is None
    table["seats"][1]["ready"] = True
    assert ready_hint(table, None) == (  # a spectator: who deals
        "Everyone is ready: Zoe (★, who runs the table) starts the game.")
    # Ready, Yan is told who deals; the creator, that Start deals now.
    assert ready_hint(table, 1) == ready_hint(table, None)
    assert ready_hint(table, 0) == "Everyone is ready: deal the game with the Start button (^s)."
    table["seats"][1]["ready"] = False
    table["seats"].append(seat(3, "", "empty"))
    # A seat still empty, not only Yan: what ★ is and does (a joiner saw "Zoe ★" unsaid).
    assert ready_hint(table, 1) == ("Zoe (★) runs the table and starts the game once "
                                    "everyone is ready: Ready (^r) when you are.")
    table["seats"][1]["ready"] = True
    assert ready_hint(table, 1) == ("Zoe (★) runs the table and starts the game once "
                                    "everyone is ready.")
    table["seats"][1]["ready"] = False
    # The creator is told what to do about empty seats (nothing was said until Start).
    assert ready_hint(table, 0) == ("Seat 4 is empty: wait for friends or put a bot in "
                                    "(^b); then you (★) start the game (^s).")
    table["seats"][1] = seat(1, "", "empty")
    assert ready_hint(table, 0) is not None and ready_hint(table, 0).startswith(
        "Seats 2 and 4 are empty:")
    table["seats"][1] = seat(1, "Yan")
    table["seats"][3] = seat(3, "Ola")
    assert ready_hint(table, 1).startswith("Zoe (★) runs the table")  # (Ola is not ready)
    assert ready_hint(table, 0) == ("Waiting for Yan (seat 2) and Ola (seat 4) to be "
                                    "ready; then you (★) start the game (^s).")


async def test_dialogs_show_a_name_from_the_host_as_it_is() -> None:
    """A question or a summary may carry a player's name, which comes from the host: our
    host refuses "[" in names, but a host of another make need not, and read as markup
    "[/]" crashed the app and "[@click=app.quit]" was a link to an action in it."""
    from textual.widgets import Label

    from tui.screens.dialogs import ChoiceScreen, ConfirmScreen
    from tui.screens.summary import Choice, SummaryScreen

    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        for screen in (ConfirmScreen("Ask [/] to leave the table?", yes="Remove", no="Keep"),
                       ChoiceScreen("[@click=app.quit]Bob[/] asks", [("a", "A")]),
                       SummaryScreen("[/] wins", ["[b]x[/b] left [/]"], [Choice("next", "Next")],
                                     waiting="[/] deals")):
            app.push_screen(screen)
            await until(pilot, lambda s=screen: app.screen is s, "the dialog")
            await pilot.pause()
            shown = " ".join(str(label.render()) for label in screen.query(Label))
            shown += " ".join(str(s.render()) for s in screen.query(Static))
            assert "[/]" in shown or "[@click=app.quit]Bob[/]" in shown, shown
            app.pop_screen()
        assert app.is_running


def test_a_saved_settings_file_is_named_from_the_home_directory() -> None:
    """The toast named the whole path, broken inside the file's name at 80 columns."""
    from tui.screens.settings import home_relative

    assert home_relative(Path.home() / ".config" / "hiddenhand" / "settings.json") == \
        "~/.config/hiddenhand/settings.json"
    assert home_relative(Path("/etc/hiddenhand/settings.json")) == \
        "/etc/hiddenhand/settings.json"


async def test_the_first_table_on_the_lan_asks_the_player_s_name_once(config_dir: Path) -> None:
    """Two laptops sat down as "root" and "root": nothing asked a name, and the login's
    stood. The first time a player hosts or joins on the LAN, the app asks (from the
    login's); a name refused by every host is said; Esc asks again next time."""
    from tui.screens.name_prompt import NameScreen
    from tui.settings import default_name

    app = HiddenHandApp(Settings(mdns_interfaces=["127.0.0.1"]), bind="127.0.0.1")
    assert not app.settings.named
    with pytest.MonkeyPatch.context() as patch:  # (--player names the player)
        patch.setenv("HIDDENHAND_PLAYER", "Cy")
        assert Settings().named and Settings().name == "Cy"
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        await pilot.press("j")
        prompt = await until(pilot, lambda: isinstance(app.screen, NameScreen) and app.screen,
                             "the question")
        assert prompt.query_one("#name", Input).value == default_name()
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "back at the menu")
        await pilot.press("h")
        prompt = await until(pilot, lambda: isinstance(app.screen, NameScreen) and app.screen,
                             "asked again")
        name = prompt.query_one("#name", Input)
        name.value = "Bot 2"
        await pilot.press("enter")
        await until(pilot, lambda: "would pass for a bot" in screen_text(app), "refused")
        name.value = "Bea"
        await pilot.press("enter")
        form = await until(pilot, lambda: isinstance(app.screen, SetupScreen) and app.screen,
                           "the host's form")
        assert form.query_one("#table-name", Input).value == "Bea's table"
        assert app.settings.name == "Bea" and Settings.load()[0].named
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu again")
        await pilot.press("j")  # (asked once)
        await until(pilot, lambda: isinstance(app.screen, JoinScreen), "the join screen")


async def test_settings_left_with_a_change_ask_whether_to_save_it(config_dir: Path) -> None:
    """A switch flipped and left with Esc was thrown away without a word: leaving with a
    change asks Save or Discard; leaving with none asks nothing."""
    from tui.screens.dialogs import ConfirmScreen

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, SettingsScreen), "Settings")
        await pilot.press("escape")  # nothing changed: straight back
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        for answer, kept in (("n", True), ("y", False)):
            await pilot.press("o")
            await until(pilot, lambda: isinstance(app.screen, SettingsScreen), "Settings")
            app.screen.query_one("#auto-cross", Switch).value = False
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
            await pilot.press(answer)
            await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
            assert app.settings.auto_cross is kept and Settings.load()[0].auto_cross is kept
        # Neither: Esc goes back to the change, to edit on (only Save or Discard were
        # offered).
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, SettingsScreen), "Settings")
        app.screen.query_one("#auto-cross", Switch).value = True
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        assert "Keep editing (esc)" in screen_text(app)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, SettingsScreen), "Settings again")
        assert app.screen.query_one("#auto-cross", Switch).value is True
        assert Settings.load()[0].auto_cross is False


async def test_a_notice_over_the_menu_leaves_its_entries_whole() -> None:
    """"Wrote game-1.hhgame …" at the foot of the screen cut the menu's entries at 80×24
    ("Rule▌", "Qui▌"): on the menu, notices go at the top."""
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        menu = await until(pilot, lambda: isinstance(app.screen, MenuScreen) and app.screen,
                           "the menu")
        app.notify("Wrote game-1.hhgame (2 KB) in /home/ann: 'hiddenhand replay "
                   "game-1.hhgame' opens it anywhere.", timeout=30)
        toasts = await until(pilot, lambda: [w for w in menu.query("Toast")
                                             if w.region.height], "the notice")
        entries = list(menu.query("#menu-buttons Button").results(Button))
        assert entries and not any(t.region.overlaps(b.region)
                                   for t in toasts for b in entries if b.display)


async def test_every_tab_stop_of_the_host_form_and_the_lobby_is_something_to_use() -> None:
    """A Tab after the host form's last button stopped on the form itself (a scrolling
    container), which a monochrome terminal shows no mark of: nothing seemed to have the
    keys (a fresh-eyed pass at 80×24 in xterm-mono). The lobby's left side was one too."""
    from textual.containers import ScrollableContainer
    from textual.widgets import Button, DataTable, Switch

    from tui.widgets.log import TableLog

    useful = (Input, Select, Switch, Button, DataTable, TableLog)
    app = make_app("Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        await until(pilot, lambda: type(app.screen).__name__ == "SetupScreen"
                    and app.screen.focused is not None, "the host form")
        app.screen.query_one("#port", Input).value = str(free_port())
        for screen_name in ("SetupScreen", "LobbyScreen"):
            stops = []
            for _ in range(16):  # (each has fewer stops: round them all)
                focused = app.screen.focused
                stops.append(focused)
                assert focused is None or isinstance(focused, useful) or (
                    not isinstance(focused, ScrollableContainer)
                    and any(isinstance(a, useful) for a in focused.ancestors)), (
                    screen_name, focused)
                if isinstance(focused, TableLog):  # (the lobby's chat: framed heavy)
                    await until(pilot, lambda f=focused: f.styles.border_top[0] == "heavy",
                                "the chat's heavy frame")
                await pilot.press("tab")
            assert len({id(s) for s in stops}) >= 3, stops  # (it went round the stops)
            if screen_name == "SetupScreen":
                await pilot.press("ctrl+s")
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen)
                            and app.screen.query("#lobby-seats") and app.screen.focused,
                            "the lobby")


async def test_on_a_short_terminal_settings_scroll_to_the_field_or_button_in_focus() -> None:
    """At 60 × 20 Save and Back were below the footer, and tabbing onto them showed
    nothing."""
    app = make_app()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.press("o")
        screen = await until(pilot, lambda: isinstance(app.screen, SettingsScreen)
                             and app.screen, "the settings")
        back = screen.query_one("#back", Button)
        while app.focused is not back:
            await pilot.press("tab")
        await until(pilot, lambda: back.region.bottom <= 19 and "Back (esc)" in screen_text(app),
                    "Back in sight")


async def test_a_switch_s_state_in_words_stands_a_cell_off_the_switch() -> None:
    """The host and solo forms wrote "┃off" against the switch (Settings wrote "▎ on")."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        screen = await until(pilot, lambda: isinstance(app.screen, SetupScreen)
                             and app.screen.query(".switch-state") and app.screen, "a switch")
        for state in screen.query(".switch-state"):
            switch = state.parent.query_one(Switch) if state.parent else None
            assert switch is not None
            assert state.content_region.x == switch.region.right + 1, state.id

"""The app's one session: seat bookkeeping, its listener, chat keys and the log's replay.

Unit tests drive :class:`~tui.session.Session` against a real host (in-process, or on
127.0.0.1); Pilot tests drive the lobby and the GET OUT! table in the app.
"""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path
from typing import Any

import pytest
from textual.css.query import NoMatches
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Select

from net.client import Joined
from net.clock import ManualClock
from net.host import Host
from net.journal import SUFFIX
from tests.net_support import running_host
from tests.tui_support import (
    SIZE,
    Notices,
    config_dir,
    footer_drawn,
    footer_keys,
    join_by_address,
    make_app,
    mounted,
    open_lobby,
    screen_text,
    show_lobby,
    type_ahead,
    until,
    until_steady,
)
from tui.app import HiddenHandApp
from tui.games.getout.hand import HandWidget
from tui.games.getout.screen import GetOutScreen
from tui.notices import describe_notice
from tui.screens.lobby import LobbyScreen
from tui.session import Session
from tui.settings import recall_seat
from tui.widgets.lobby_seats import may_ready
from tui.widgets.log import TableLog
from tui.widgets.options_form import OptionsForm

__all__ = ["config_dir"]

pytestmark = pytest.mark.usefixtures("config_dir")


# ---- seat bookkeeping (unit) --------------------------------------------------------------


async def test_after_moving_seat_a_reconnection_takes_the_new_seat_back() -> None:
    host = Host("test host", bot_delay=0)
    try:
        ann = Session("Ann", host=host)
        await ann.connect()
        joined = await ann.create("T", "getout", 3, {})
        await ann.request("pick_seat", 2)
        assert ann.seat == 2 and ann.joined is not None
        assert ann.joined.token == joined.token  # the token moved with her
        table = host.tables[joined.table]
        assert table.seats[2].kind == "human" and table.seats[0].kind == "empty"

        assert ann.client is not None
        ann.client.abort()  # the line drops
        await until_closed(ann)
        await ann.reconnect()
        assert ann.seat == 2
        assert table.seats[2].conn is not None and table.seats[2].name == "Ann"
        assert table.creator == 2
        # The new seat was presented with its token (the old seat would be refused).
        assert ann.joined == Joined(joined.table, 2, joined.token)
        await ann.close()
        assert ann.seat == 2  # kept for the next reconnection
    finally:
        await host.close()


async def test_a_spectator_whose_line_drops_watches_again_and_takes_no_seat() -> None:
    host = Host("test host", bot_delay=0)
    try:
        ann = Session("Ann", host=host)
        await ann.connect()
        joined = await ann.create("T", "getout", 3, {})
        table = host.tables[joined.table]
        cy = Session("Cy", host=host)
        await cy.connect()
        await cy.join(joined.table, spectate=True)
        assert cy.seat is None and len(table.spectators) == 1
        assert cy.client is not None
        cy.client.abort()  # the line drops
        await until_closed(cy)
        await cy.reconnect()
        assert cy.joined == Joined(joined.table, None, None)
        assert len(table.spectators) == 1
        assert [s.kind for s in table.seats] == ["human", "empty", "empty"]  # no seat taken
        await cy.close()
        await ann.close()
    finally:
        await host.close()


async def test_a_spectator_watches_again_once_a_crashed_host_is_back(tmp_path: Path) -> None:
    from tests.test_net_recovery import crash, seeded

    path = tmp_path / f"game{SUFFIX}"
    host = Host("Den", journal=path, **seeded(3))
    await host.start("127.0.0.1", 0)
    port = host.port
    ann = Session("Ann", address=("127.0.0.1", port))
    cy = Session("Cy", address=("127.0.0.1", port))
    await ann.connect()
    joined = await ann.create("T", "getout", 2, {})
    await ann.request("add_bot", 1)
    await ann.request("start")
    await cy.connect()
    await cy.join(joined.table, spectate=True)
    await crash(host)
    await until_closed(cy)
    again = Host.resume(path, **seeded(4))
    await again.start("127.0.0.1", port)
    try:
        await cy.reconnect()
        assert cy.joined == Joined(joined.table, None, None)
        update = await cy.next()
        assert update["type"] == "update" and update["seat"] is None
        assert update["view"] is not None and "hand" not in update["view"]
        assert len(again.tables[joined.table].spectators) == 1
        await cy.close()
        assert ann.client is not None
        await ann.client.close()
    finally:
        await again.close()


async def until_closed(session: Session) -> None:
    """Read until the session's client notices the dropped line."""
    from tui.session import ConnectionLost

    for _ in range(100):
        try:
            await session.next()
        except ConnectionLost:
            return
    raise AssertionError("the dropped connection was never noticed")


async def test_a_moved_seat_is_what_is_remembered_on_disk() -> None:
    async with running_host() as host:
        ann = Session("Ann", address=("127.0.0.1", host.port))
        await ann.connect()
        joined = await ann.create("T", "getout", 3, {})
        assert recall_seat(ann.where, joined.table) == (0, joined.token)
        await ann.request("pick_seat", 1)
        assert recall_seat(ann.where, joined.table) == (1, joined.token)
        await ann.close()


# ---- the lobby follows the seat -------------------------------------------------------------



def seat_names(lobby: LobbyScreen) -> list[str]:
    seats = lobby.query_one("#lobby-seats", DataTable)
    return [str(seats.get_row_at(i)[1]) for i in range(seats.row_count)]


async def test_after_sit_here_the_you_mark_and_the_creators_controls_follow() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        lobby = await open_lobby(app, pilot)
        assert seat_names(lobby)[0] == "Ann (you) ★"
        assert app.focused is lobby.query_one("#lobby-seats")  # the seat keys' cursor
        await pilot.press("down", "down", "ctrl+t")
        await until(pilot, lambda: seat_names(lobby)[2] == "Ann (you) ★", "Ann in seat 3")
        assert seat_names(lobby)[0] == "(empty)"
        assert lobby.my_seat == 2 and lobby.is_creator
        assert all(w.display for w in lobby.query(".creator"))
        keys = footer_keys(app)
        assert keys["start"] and keys["add_bot"]


async def test_the_seat_under_the_cursor_is_marked_without_colour() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        lobby = await open_lobby(app, pilot)
        seats = lobby.query_one("#lobby-seats", DataTable)

        def marks() -> list[str]:
            return [str(seats.get_row_at(i)[0]) for i in range(seats.row_count)]

        assert marks() == ["▸ 1", "  2", "  3"]
        await pilot.press("down")
        await until(pilot, lambda: marks() == ["  1", "▸ 2", "  3"], "the mark moved")
        await lobby.session.request("add_bot", 2)  # an update redraws the rows
        await until(pilot, lambda: "Bot" in str(seats.get_row_at(2)[1]), "the bot")
        assert marks() == ["  1", "▸ 2", "  3"]


async def test_a_spectator_in_the_lobby_sits_down_in_a_free_seat() -> None:
    host = Host("test host", bot_delay=0.01)
    try:
        bob = Session("Bob", host=host)
        await bob.connect()
        joined = await bob.create("Bob's table", "getout", 3, {})
        app = make_app("Ann")
        async with app.run_test(size=SIZE) as pilot:
            ann = Session("Ann", host=host)
            await ann.connect()
            await ann.join(joined.table, spectate=True)
            lobby = await show_lobby(app, pilot, ann)
            assert lobby.my_seat is None and not lobby.query_one("#ready").display
            assert "sit" in footer_keys(app)
            await pilot.press("down", "down", "ctrl+t")  # seat 3
            await until(pilot, lambda: lobby.my_seat == 2, "Ann in seat 3")
            assert host.tables[joined.table].spectators == []
            await until(pilot, lambda: seat_names(lobby)[2] == "Ann (you)", "her name there")
            assert lobby.query_one("#ready").display
            await app.detach()
        await bob.close()
    finally:
        await host.close()


async def test_a_watcher_s_sit_takes_the_free_seat_wherever_the_cursor_is() -> None:
    """With the cursor on a taken seat, a watcher read "Seat taken" and ^t said "seat 1
    is taken" while seat 2 was free; nothing in sight said to move the cursor first (a
    spectator's pass)."""
    from textual.widgets import Button

    host = Host("test host", bot_delay=0.01)
    try:
        bob = Session("Bob", host=host)
        await bob.connect()
        joined = await bob.create("Bob's table", "getout", 3, {})
        await bob.request("add_bot", 2)
        app = make_app("Cy")
        async with app.run_test(size=SIZE) as pilot:
            cy = Session("Cy", host=host)
            await cy.connect()
            await cy.join(joined.table, spectate=True)
            lobby = await show_lobby(app, pilot, cy)
            sit = lobby.query_one("#sit", Button)
            seats = lobby.query_one("#lobby-seats", DataTable)
            await until(pilot, lambda: seats.row_count == 3 and seats.cursor_row == 0
                        and str(sit.label) == "Sit: seat 2 (^t)" and not sit.disabled,
                        "the free seat offered")
            await pilot.press("ctrl+t")
            await until(pilot, lambda: lobby.my_seat == 1, "Cy in seat 2")
            await app.detach()
        await bob.close()
    finally:
        await host.close()


async def test_a_removed_player_s_lobby_drops_the_seats_it_can_no_longer_use() -> None:
    host = Host("test host", bot_delay=0.01)
    try:
        ann = Session("Ann", host=host)
        await ann.connect()
        joined = await ann.create("Ann's table", "getout", 3, {})
        app = make_app("Bob")
        async with app.run_test(size=SIZE) as pilot:
            bob = Session("Bob", host=host)
            await bob.connect()
            await bob.join(joined.table)
            lobby = await show_lobby(app, pilot, bob)
            await until(pilot, lambda: "Bob (you)" in seat_names(lobby), "Bob seated")
            await ann.request("kick", 1)
            banner = lobby.query_one("#banner")
            await until(pilot, lambda: banner.has_class("shown"), "the banner")
            assert "removed" in str(banner.render())
            await until(pilot, lambda: not seat_names(lobby), "the seats gone")
            assert not any(row.display for row in lobby.query(".buttons"))  # Ready, Sit…
            assert set(footer_keys(app)) <= {"chat", "leave"}
            await app.detach()
        await ann.close()
    finally:
        await host.close()


async def test_a_removed_player_s_seat_is_forgotten_and_the_others_read_who() -> None:
    """The menu told a player the creator had removed "Your seat at Ann's table is kept";
    everyone's log said only "seat 2 was asked to leave"."""
    async with running_host() as host:
        ann = Session("Ann", address=("127.0.0.1", host.port))
        await ann.connect()
        joined = await ann.create("Ann's table", "getout", 3, {})
        bob = Session("Bob", address=("127.0.0.1", host.port))
        await bob.connect()
        mine = await bob.join(joined.table)
        assert recall_seat(bob.where, joined.table) == (1, mine.token)
        app = make_app("Bob")
        async with app.run_test(size=SIZE) as pilot:
            lobby = await show_lobby(app, pilot, bob)
            await until(pilot, lambda: "Bob (you)" in seat_names(lobby), "Bob seated")
            await ann.request("kick", 1)
            await until(pilot, lambda: recall_seat(bob.where, joined.table) is None,
                        "the seat forgotten")
            await app.detach()
        said = []
        while not said:
            msg = await asyncio.wait_for(ann.next(), 5)
            said = [n for n in msg.get("notices") or [] if n.get("type") == "kicked"]
        assert describe_notice(said[0], ["Ann", ""]) == "Bob (seat 2) was asked to leave"
        await ann.close()


async def test_a_player_removed_while_away_is_told_so_by_back_to_your_seat() -> None:
    """Bob quit with his seat kept, and the creator removed him meanwhile: "Back to your
    seat" sat him in the emptied seat as a newcomer, or said every seat was taken (a LAN
    pass). It says he was removed, and forgets the seat."""
    async with running_host() as host:
        ann = Session("Ann", address=("127.0.0.1", host.port))
        await ann.connect()
        joined = await ann.create("Five", "getout", 3, {})
        bob = Session("Bob", address=("127.0.0.1", host.port))
        await bob.connect()
        await bob.join(joined.table)
        await bob.close()
        await ann.request("kick", 1)
        app = make_app("Bob")
        async with app.run_test(size=SIZE) as pilot:
            assert await join_by_address(pilot, host.port) is None  # back to the seat
            await until(pilot, lambda: "removed from table 'Five' by its creator while "
                        "you were away" in screen_text(app), "why not")
            assert recall_seat(bob.where, joined.table) is None
            assert host.tables[joined.table].seats[1].kind == "empty"
            await app.detach()
        await ann.close()


async def test_a_seat_at_a_table_closed_meanwhile_is_forgotten_and_said() -> None:
    """Bob's table closed while nobody was at it: back, he found the plain menu and was
    told nothing (an SSH box pass). The menu says so, once, and forgets the seat."""
    async with running_host() as host:
        bob = Session("Bob", address=("127.0.0.1", host.port))
        await bob.connect()
        joined = await bob.create("Five", "getout", 3, {})
        await bob.close()
        del host.tables[joined.table]  # (closed: nobody came back to it in time)
        app = make_app("Bob")
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await until(pilot, lambda: getattr(app.screen, "seats_looked", False), "the look")
            await until(pilot, lambda: f"A table you had a seat at on 127.0.0.1:{host.port} "
                        "has closed" in screen_text(app), "told")
            assert recall_seat(bob.where, joined.table) is None
            await app.detach()


async def test_a_hosted_lobby_shows_the_address_friends_type() -> None:
    app = make_app()  # binds 127.0.0.1; mDNS on loopback only
    async with app.run_test(size=SIZE) as pilot:
        host = await app.hosting.start(port=0)
        session = Session("Ann", host=host)
        await session.connect()
        await session.create("Ann's table", "getout", 3, {})
        app.attach(session)
        lobby = LobbyScreen(session)
        await app.push_screen(lobby)
        title = lobby.query_one("#lobby-title")
        await until(pilot, lambda: "friends join at" in str(title.render()), "the title")
        assert f"friends join at 127.0.0.1:{host.port}" in str(title.render())
        assert "this computer" not in str(title.render())
        await app.detach()


async def test_hosting_on_a_port_in_use_leaves_no_journal(data_dir: Path) -> None:
    app = make_app()
    async with app.run_test(size=SIZE):
        with socket.socket() as busy:
            busy.bind(("127.0.0.1", 0))
            busy.listen()
            with pytest.raises(OSError):
                await app.hosting.start(port=busy.getsockname()[1])
        assert app.hosting.host is None
        assert not list(data_dir.rglob(f"*{SUFFIX}"))


# ---- the one listener -----------------------------------------------------------------------


async def test_a_spectators_rename_does_not_stop_the_players_screen() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        lobby = await open_lobby(app, pilot)
        assert app.hosting.host is not None
        table_id = next(iter(app.hosting.host.tables))
        eve = Session("Eve", host=app.hosting.host)
        await eve.connect()
        await eve.join(table_id, spectate=True)
        await eve.request("rename", "Evelyn")  # the host pushes "renamed" with seat null
        chat = lobby.query_one("#chat", TableLog)
        await until(pilot, lambda: any("a spectator is now called Evelyn" in str(line.text)
                                       for line in chat.lines), "the rename's line")
        bob = Session("Bob", host=app.hosting.host)
        await bob.connect()
        await bob.join(table_id)
        await until(pilot, lambda: seat_names(lobby)[1] == "Bob", "Bob in the lobby")
        await pilot.press("slash", "h", "i", "enter")  # (the screen still takes keys)
        await until(pilot, lambda: any(str(line.text).endswith("hi") for line in chat.lines),
                    "our chat line")
        await eve.close()
        await bob.close()


async def test_the_creator_has_no_ready_key_but_after_a_rematch_may_hold_the_deal() -> None:
    """The creator starts: a Ready button beside their "starts" read as a step they had
    missed. A rematch makes them ready, and then "Not ready" holds the deal back."""
    app = make_app()
    notes = Notices()
    async with app.run_test(size=SIZE, message_hook=notes) as pilot:
        lobby = await open_lobby(app, pilot, seats=2)
        assert lobby.is_creator
        assert not lobby.query_one("#ready").display and "toggle_ready" not in footer_keys(app)
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert not lobby.table["seats"][0]["ready"]
        # ^t on one's own seat did nothing and said nothing.
        await pilot.press("ctrl+t")
        await until(pilot, lambda: "That is your seat: choose an empty one first (↑↓)."
                    in notes.messages(), "why ^t does nothing there")
        table = dict(lobby.table)
        table["seats"] = [dict(table["seats"][0], ready=True), *table["seats"][1:]]
        assert may_ready(table, 0) and not may_ready(table, None)
        assert may_ready({**table, "creator": 1}, 0)  # anyone else: always


async def test_players_see_who_is_watching_in_the_header_and_the_log() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        lobby = await open_lobby(app, pilot)
        assert app.hosting.host is not None and lobby.sub_title == "Lobby"
        table_id = next(iter(app.hosting.host.tables))
        eve = Session("Eve", host=app.hosting.host)
        await eve.connect()
        await eve.join(table_id, spectate=True)
        chat = lobby.query_one("#chat", TableLog)
        await until(pilot, lambda: any("Eve is watching (spectator)" in str(line.text)
                                       for line in chat.lines), "Eve's line")
        await until(pilot, lambda: lobby.sub_title == "Lobby · 1 watching", "the header")
        # The game's table says so too, and the spectator hears it of themselves.
        await lobby.session.request("add_bot", 1)
        await lobby.session.request("add_bot", 2)
        await lobby.session.request("start")
        table = await until(pilot, lambda: isinstance(app.screen, GetOutScreen)
                            and app.screen, "the table")
        await until(pilot, lambda: table.sub_title == "GET OUT! · 1 watching", "the table's")
        await eve.close()
        await until(pilot, lambda: table.sub_title == "GET OUT!", "Eve gone from the header")
        log = table.query_one("#log")
        assert any("Eve stopped watching (spectator)" in str(line.text) for line in log.lines)


async def test_a_failing_listener_is_reported_and_listens_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = make_app()
    notices = Notices()
    async with app.run_test(size=SIZE, message_hook=notices) as pilot:
        lobby = await open_lobby(app, pilot)
        record = Session.record
        failures: list[str] = []

        def record_once_badly(self: Session, msg: dict[str, Any]) -> None:
            if not failures:
                failures.append(str(msg.get("type")))
                raise RuntimeError("a bug in the app")
            record(self, msg)

        monkeypatch.setattr(Session, "record", record_once_badly)
        assert app.hosting.host is not None
        table_id = next(iter(app.hosting.host.tables))
        bob = Session("Bob", host=app.hosting.host)
        await bob.connect()
        await bob.join(table_id)  # this update meets the bug
        await until(pilot, lambda: failures, "the failure")
        await until(pilot, lambda: any("Listening to the table failed" in str(n.message)
                                       for n in notices.raised), "the report")
        await bob.request("rename", "Robert")  # the listener is back: this one arrives
        await until(pilot, lambda: seat_names(lobby)[1] == "Robert", "the rename")
        await bob.close()


async def bob_at_anns_table(app: HiddenHandApp, pilot: Pilot[Any],
                            host: Host) -> tuple[Session, GetOutScreen]:
    """Ann opens a 2-seat GET OUT! table on ``host``; the app's Bob joins it from the lobby
    and the game starts: Ann's session and Bob's table screen."""
    ann = Session("Ann", host=host)
    await ann.connect()
    joined = await ann.create("T", "getout", 2, {})
    bob = Session("Bob", host=host)
    await bob.connect()
    await bob.join(joined.table)
    await show_lobby(app, pilot, bob)
    await bob.request("ready", True)
    await ann.request("start")
    table: GetOutScreen = await until(pilot, lambda: isinstance(app.screen, GetOutScreen)
                                      and app.screen.live and app.screen, "the table")
    return ann, table


async def test_a_player_with_a_dialog_open_follows_the_table_to_its_lobby_and_leaves_to_the_menu(
) -> None:
    """The creator ends the game while another player has a dialog open over the table:
    that player lands in the lobby with nothing of the old table under it, and leaving
    the lobby comes back to the menu (it showed the finished table)."""
    from tui.screens.dialogs import ConfirmScreen
    from tui.screens.menu import MenuScreen

    app = make_app("Bob")
    async with app.run_test(size=SIZE) as pilot:
        ann, table = await bob_at_anns_table(app, pilot, await app.hosting.start(port=None))
        await pilot.press("escape")  # "Leave this game?" is open when the game ends
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        await ann.request("to_lobby")
        lobby = await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen,
                            "the lobby")
        assert table not in app.screen_stack
        assert [type(s) for s in app.screen_stack] == [MenuScreen, LobbyScreen]
        await until(pilot, lambda: lobby.live and app.focused is lobby.query_one(
            "#lobby-seats"), "the lobby's seats")
        await pilot.press("escape", "y")  # (Ann is at the table: asked first)
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
    await ann.close()


async def test_leaving_a_table_whose_host_is_gone_asks_nothing_and_lands_on_the_menu() -> None:
    """A host that stops (or stops answering) takes its table with it: Esc promises no
    seat that stays, and once the table is gone for good it leaves at once, to the menu."""
    from textual.widgets import Label

    from tui.messages import ConnectionDropped
    from tui.screens.dialogs import ConfirmScreen
    from tui.screens.menu import MenuScreen

    host = Host("test host", bot_delay=0.01)
    app = make_app("Bob")
    async with app.run_test(size=SIZE) as pilot:
        ann, table = await bob_at_anns_table(app, pilot, host)
        # Reconnecting: the host may come back with the game, or not.
        table.post_message(ConnectionDropped("the host stopped", final=False))
        await until(pilot, lambda: table.cut_off, "the drop")
        await pilot.press("escape")
        question = await until(pilot, lambda: isinstance(app.screen, ConfirmScreen)
                               and app.screen, "the question")
        words = str(question.query_one(Label).render())
        assert "not answering" in words and "stays yours" not in words, words
        await pilot.press("n")
        # Gone for good: nothing to ask.
        await host.close()
        await until(pilot, lambda: table.gone, "the table lost for good")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        assert len(app.screen_stack) == 1
    await ann.close()


async def test_leaving_a_game_nobody_else_is_at_says_the_table_may_close() -> None:
    """A host closes a game every person left soon (net.idle): the last one leaving is
    not promised a seat that waits for them, as a player leaving others at it is."""
    from textual.widgets import Label

    from tui.screens.dialogs import ConfirmScreen

    host = Host("test host", bot_delay=0.01)
    app = make_app("Bob")
    async with app.run_test(size=SIZE) as pilot:
        ann, table = await bob_at_anns_table(app, pilot, host)

        async def asked() -> str:
            await pilot.press("escape")
            question = await until(pilot, lambda: isinstance(app.screen, ConfirmScreen)
                                   and app.screen, "the question")
            words = str(question.query_one(Label).render())
            await pilot.press("n")
            await until(pilot, lambda: app.screen is table, "the table again")
            return words

        assert (await asked()).endswith("Your seat stays yours: join the table again to "
                                        "take it back.")
        # A round whose clock runs (Get It!'s) stands still while a player is away: said.
        update = table.update
        table.update = {**update, "view": {**update["view"], "deadline": 90.0}}
        assert "The round's clock stops for everyone until you are back" in await asked()
        table.update = update
        await ann.close()
        await until(pilot, lambda: not table.table["seats"][0]["connected"], "Ann gone")
        said = await asked()
        assert "Nobody else is at this table" in said
        # Ann's lost connection keeps the table for her longer (``net.idle``: it closed
        # half a minute after the last person left, her seat with it: a box pass).
        assert "closes the table if nobody comes back in time" in said, said
        # ("soon" undersold the half minute a host waits for a table everyone left.)
        from net.limits import Limits

        assert Limits().empty_table_timeout == 30.0
        update = table.update
        seats = [dict(s) for s in update["table"]["seats"]]
        seats[0].update(kind="bot", name="Bot 1")  # (nobody else who could come back)
        table.update = {**update, "table": {**update["table"], "seats": seats}}
        said = await asked()
        assert "closes the table half a minute after everyone has left" in said, said
        # Its watchers keep it open ("nobody else" beside "1 watching" read as false).
        update = table.update
        table.update = {**update, "table": {**update["table"], "spectators": 1}}
        said = await asked()
        assert ("Nobody else plays here (1 watching): your seat stays yours, but the host "
                "closes the table half a minute after everyone else has left") in said, said
    await host.close()


# ---- chat keys ------------------------------------------------------------------------------


async def test_slash_opens_the_lobby_chat_and_escape_gives_the_keys_back() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        lobby = await open_lobby(app, pilot)
        await pilot.press("slash")
        assert app.focused is lobby.query_one("#chat-input", Input)
        await pilot.press(*"hi all", "enter")
        chat = lobby.query_one("#chat", TableLog)
        await until(pilot, lambda: any("Ann (seat 1): hi all" in str(line.text)
                                       for line in chat.lines), "the chat line")
        # The line sent gives the keys back to the seats, as a table gives them back.
        assert app.focused is lobby.query_one("#lobby-seats")
        await pilot.press("slash", "escape")
        assert app.screen is lobby  # Esc left the chat line, not the table
        assert app.focused is lobby.query_one("#lobby-seats")
        await type_ahead(pilot, "slash", *"ok", "enter")  # typed fast: all of it the line's
        await until(pilot, lambda: any("Ann (seat 1): ok" in str(line.text)
                                       for line in chat.lines), "the line typed fast")
        # In the line "/" is typed, not the key that opens it ("a/b" arrived as "ab").
        typed = ["slash" if c == "/" else "space" if c == " " else c for c in "a/b 1/2"]
        await type_ahead(pilot, "slash", *typed, "enter")
        await until(pilot, lambda: any("Ann (seat 1): a/b 1/2" in str(line.text)
                                       for line in chat.lines), "a line with slashes")


async def solo_table(pilot: Pilot[Any], app: HiddenHandApp) -> GetOutScreen:
    screen: GetOutScreen = await until(
        pilot, lambda: isinstance(app.screen, GetOutScreen) and app.screen.legal
        and app.screen, "our first turn")
    return screen


def log_text(screen: GetOutScreen) -> list[str]:
    return [str(line.text) for line in screen.query_one("#log", TableLog).lines]


async def test_slash_opens_the_table_chat_and_a_line_sent_there_is_in_the_log() -> None:
    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    async with app.run_test(size=SIZE) as pilot:
        screen = await solo_table(pilot, app)
        chat = screen.query_one("#table-chat", Input)
        told = str(chat.placeholder)
        await pilot.press("slash")
        assert app.focused is chat
        # Its words say it listens now (they were the same as before the key).
        await until(pilot, lambda: str(chat.placeholder) != told, "the line's words")
        assert str(chat.placeholder).startswith("type a line")
        await pilot.press(*"good luck", "enter")
        await until(pilot, lambda: any("💬 Ann (seat 1): good luck" in line
                                       for line in log_text(screen)), "the chat line")
        assert app.focused is None and chat.value == ""  # keys back to the table
        await pilot.press("slash", "x", "escape")
        assert app.screen is screen and app.focused is None  # Esc did not leave
        assert chat.value == ""  # it cancelled the line, as the placeholder says
        assert "Esc cancels" in str(chat.placeholder) and "? rules" in str(chat.placeholder)
        await pilot.press("escape")  # now it does ask whether to leave
        assert app.screen is not screen
        await pilot.press("n")
        assert app.screen is screen


async def test_enter_typed_twice_to_send_a_chat_line_plays_no_card(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Enter sends a chat line and gives the keys back to the table: a second Enter typed
    with it played the chosen card (a fresh-eyed pass over the LAN). Just after a line
    is sent, the table's keys wait a moment."""
    from tui.screens import table_summary

    monkeypatch.setattr(table_summary, "KEYS_HELD", 3600.0)  # (however slow the machine)
    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    async with app.run_test(size=SIZE) as pilot:
        screen = await solo_table(pilot, app)
        assert app.hosting.host is not None
        (table,) = app.hosting.host.tables.values()
        await until(pilot, lambda: screen.can("play"), "our first move")
        await pilot.press("slash", *"gg", "enter", "enter")
        await until(pilot, lambda: any("💬 Ann (seat 1): gg" in line
                                       for line in log_text(screen)), "the chat line")
        await pilot.pause()
        assert table.game.played == [] and app.focused is None
        screen.keys_held_until = float("-inf")  # (the moment is over)
        await pilot.press("enter")
        await until(pilot, lambda: table.game.played != [], "the call card laid")
        # Two Enters at once reach the line before the first is handled: it sent the
        # line twice. The second, its line already gone, sends nothing.
        chat = screen.query_one("#table-chat", Input)
        await pilot.press("slash", *"hi")
        for _ in range(2):
            chat.post_message(Input.Submitted(chat, "hi"))
        await until(pilot, lambda: any("): hi" in line for line in log_text(screen)), "hi")
        await pilot.pause()
        assert sum("): hi" in line for line in log_text(screen)) == 1


async def test_a_chat_line_typed_straight_after_the_slash_goes_in_the_chat_line() -> None:
    # A fast typist's "/hi⏎" arrives before the app has handled the "/": the keys after it
    # belong to the chat line, not to the hand (the Enter once played a card).
    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    async with app.run_test(size=SIZE) as pilot:
        screen = await solo_table(pilot, app)
        hand = screen.query_one(HandWidget)
        cards = list(hand.cards)
        await type_ahead(pilot, "slash", "h", "i", "enter")
        await until(pilot, lambda: any("💬 Ann (seat 1): hi" in line
                                       for line in log_text(screen)), "the chat line")
        assert hand.cards == cards  # no card was played, none drawn
        typed = ["slash" if c == "/" else "space" if c == " " else c for c in "w/ a/b"]
        await type_ahead(pilot, "slash", *typed, "enter")  # "/" in the line is typed
        await until(pilot, lambda: any("💬 Ann (seat 1): w/ a/b" in line
                                       for line in log_text(screen)), "a line with slashes")
        # ←/→ move the line's cursor there, not the hand's choice ("ab←x" was "abx").
        chosen = hand.current
        await pilot.press("slash", "a", "b", "left", "x", "enter")
        await until(pilot, lambda: any("💬 Ann (seat 1): axb" in line
                                       for line in log_text(screen)), "the cursor moved")
        assert hand.current == chosen


async def test_the_log_is_replayed_when_the_table_is_opened_again() -> None:
    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    async with app.run_test(size=SIZE) as pilot:
        screen = await solo_table(pilot, app)
        await pilot.press("enter")  # lay the call card; the bot answers
        await until(pilot, lambda: sum("played" in line or "drew" in line
                                       for line in log_text(screen)) >= 2, "two moves")
        await pilot.press("slash", *"hello", "enter")
        await until(pilot, lambda: any("hello" in line for line in log_text(screen)), "chat")
        before = log_text(screen)
        screen.hand_over()  # the table still plays: the app opens a new table screen
        again = await until(pilot, lambda: app.screen is not screen
                            and isinstance(app.screen, GetOutScreen) and app.screen, "again")
        await until(pilot, lambda: again.update is not None
                    and len(log_text(again)) >= len(before), "the new table screen")
        # The hand-over is over once the old screen is gone (an app closed while it goes
        # fails in Textual's Header, its title watched as its parts are removed).
        await until(pilot, lambda: not screen.is_attached, "the old table screen gone")
        assert log_text(again)[: len(before)] == before


# ---- a seat back from a bot -------------------------------------------------------------------


async def test_a_player_takes_the_seat_back_from_the_bot_that_played_it() -> None:
    from net.client import Client
    from tui.screens.menu import MenuScreen

    async with running_host() as host:
        bob = await Client.connect("127.0.0.1", host.port, name="Bob")
        # Bob moves first and waits: the bot in Ann's seat never gets a turn meanwhile.
        await bob.create_table("Bob's table", "getout", 2, {"first": 0, "match": False})
        app = make_app("Ann")
        async with app.run_test(size=SIZE) as pilot:
            await join_by_address(pilot, host.port)
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            await pilot.press("ctrl+r")
            await bob.wait_for(lambda m: m["type"] == "update" and m["table"]["seats"][1]["ready"])
            await bob.start()
            table = await until(pilot, lambda: isinstance(app.screen, GetOutScreen)
                                and app.screen.update and app.screen, "the table")
            hand = table.update["view"]["hand"]
            await pilot.press("escape", "y")  # leave: the seat stays Ann's
            await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
            await bob.wait_for(lambda m: m["type"] == "update"
                               and not m["table"]["seats"][1]["connected"])
            await bob.add_bot(1)
            await bob.wait_for(lambda m: m["type"] == "update"
                               and m["table"]["seats"][1]["kind"] == "bot")
            await join_by_address(pilot, host.port)
            again = await until(pilot, lambda: isinstance(app.screen, GetOutScreen)
                                and app.screen.update and app.screen, "the table again")
            assert again.my_seat == 1 and again.update["view"]["hand"] == hand
            back = await bob.wait_for(lambda m: m["type"] == "update"
                                      and m["table"]["seats"][1]["kind"] == "human")
            assert back["table"]["seats"][1]["name"] == "Ann"
            assert host.tables[back["table"]["id"]].seats[1].bot is None
        await bob.close()


async def getit_round_with_bob(pilot: Pilot[Any], host: Host, bob: Any,
                              clock: ManualClock) -> Any:
    """The app (Ann) at Bob's Get It! table (his bot in seat 3), the round running, every
    pile arranged as dealt: Ann's table screen. The host's bot moves only when the test
    moves ``clock``."""
    from tests.test_tui import ann_ready_bob_starts
    from tui.games.getit.screen import GetItScreen

    app = pilot.app
    await ann_ready_bob_starts(pilot, host, bob)
    dealt = await bob.wait_for(lambda m: m["type"] == "update" and any(
        a["type"] == "arrange" for a in m["legal"]))
    await bob.act({"type": "arrange", "pile": [c["id"] for c in dealt["view"]["hand"]]})
    table = await until(pilot, lambda: isinstance(app.screen, GetItScreen)
                        and "done" in footer_keys(app) and app.screen, "the table")
    await pilot.press("enter")

    def dealt_out() -> bool:
        clock.advance(0.5)  # (the bot arranges its pile in its own time)
        return table.view.get("phase") == "play"

    await until(pilot, dealt_out, "the round")
    return table


async def test_back_at_a_get_it_table_the_signals_that_stand_for_us_are_said() -> None:
    """Bob came back to his seat looking at Ann, a look the bot had given for him: the
    others read it as his, and nothing told him (a fresh-eyed pass of a LAN party). A
    look of our own from before we left stands too, and is said as well."""
    from net.client import Client
    from tui.games.getit.screen import GetItScreen
    from tui.games.getit.widgets import WhyLine
    from tui.screens.menu import MenuScreen

    clock = ManualClock(100.0)  # (the bot moves only when the test moves the clock)
    async with running_host(clock=clock) as host:
        bob = await Client.connect("127.0.0.1", host.port, name="Bob")
        await bob.create_table("Bob's table", "getit", 3, {"level": 1, "timer": 0})
        await bob.add_bot(2)
        app = make_app("Ann")
        async with app.run_test(size=SIZE) as pilot:
            table = await getit_round_with_bob(pilot, host, bob, clock)
            why = table.my_place.query_one(WhyLine)
            assert "still stand" not in str(why.render())  # (nothing stood: nothing said)
            await pilot.press("1")  # Ann looks at Bob, and leaves with it standing
            await bob.wait_for(lambda m: m["type"] == "update" and m["view"] is not None
                               and m["view"]["signals"][1].get("look") == 0)
            await pilot.press("escape", "y")
            await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
            await join_by_address(pilot, host.port)
            again = await until(pilot, lambda: isinstance(app.screen, GetItScreen)
                                and app.screen is not table and app.screen.update
                                and app.screen, "the table again")
            line = again.my_place.query_one(WhyLine)
            await until(pilot, lambda: "Back at the table, your look at Bob still stands "
                        "(the others see it): 0 stops it." in str(line.render()), "said")
        await bob.close()


def test_an_earlier_games_events_keep_their_own_words_after_the_table_switches_game() -> None:
    """A table that played GET OUT! and then plays Get It! replays its log in each
    game's own words (the Get It! screen once described GET OUT!'s plays as wrong
    Get It! cards, and dropped Got Five!'s moves)."""
    from tui.games.getit.screen import GetItScreen
    from tui.games.gotfive.screen import GotFiveScreen

    session = Session("Ann")
    seats = [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bot 2"}]
    card = {"id": 7, "image": "geoff", "value": 10, "wild": False}
    session.record({"type": "update", "table": {"game": "getout", "seats": seats},
                    "events": [{"type": "played", "seat": 1, "card": card}]})
    session.record({"type": "update", "table": {"game": "gotfive", "seats": seats},
                    "events": [{"type": "revealed", "seat": 1, "tile": {"n": 23}}]})
    session.record({"type": "update", "table": {"game": "getit", "seats": seats},
                    "events": [{"type": "played", "seat": 1, "correct": True,
                                "card": {"id": 3, "kind": "number", "value": 12}}]})
    lines = [GetItScreen(session).describe_entry(e) for e in session.history]
    assert lines[0] is not None and "Geoff 10" in lines[0] and "wrong" not in lines[0]
    assert lines[1] is not None and "23" in lines[1]
    assert lines[2] is not None and "12" in lines[2]
    assert [e.game for e in session.history] == ["getout", "gotfive", "getit"]
    # The Got Five! screen's "last move" is one of its own game's.
    assert GotFiveScreen(session).last_move() is not None


def test_our_own_draw_names_the_card_in_our_log_and_nobody_elses() -> None:
    """The public "drew" event names no card; our log names the one our hand gained
    (from our own views), and another seat's draw stays "drew a card"."""
    from tui.games.getout.screen import GetOutScreen

    session = Session("Ann")
    seats = [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bob"}]
    table = {"game": "getout", "seats": seats}
    k3 = {"id": 4, "image": "kevin", "value": 3, "wild": False}
    g7 = {"id": 9, "image": "geoff", "value": 7, "wild": False}

    def update(hand: list[dict[str, Any]], events: list[dict[str, Any]]) -> dict[str, Any]:
        return {"type": "update", "seat": 0, "table": table, "events": events,
                "view": {"game": "getout", "seat": 0, "hand": hand}}

    session.record(update([k3], []))
    session.record(update([k3, g7], [{"type": "drew", "seat": 0}]))
    session.record(update([k3, g7], [{"type": "drew", "seat": 1}]))
    # Right after the played pile was turned over as the draw pile, too.
    session.record(update([k3, g7, k3 | {"id": 5}], [{"type": "recycled", "count": 3},
                                                     {"type": "drew", "seat": 0}]))
    screen = GetOutScreen(session)
    lines = [screen.describe_entry(e) for e in session.history]
    # (No connection here, so the screen does not know our seat: "Ann", not "You".)
    assert lines[:2] == ["Ann drew Geoff 7", "Bob drew a card"]
    assert lines[2:4] == ["The played pile (3 cards) was turned over as the draw pile",
                          "Ann drew Kevin 3"], lines
    assert "mine" not in session.history[0].data  # the host's event as it came


async def test_the_creators_options_outlive_a_change_of_seats_or_game() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        lobby = await open_lobby(app, pilot, seats=3)

        async def choose(selector: str, value: object) -> None:
            # The lobby rebuilds its controls as the table changes: set the one shown
            # once it and its parts are mounted and it is no longer being replaced.
            # An update already on its way may still replace it between the wait and
            # the assignment (its parts then go first): the new one is taken instead.
            while True:
                select = await until_steady(
                    pilot, lambda: (found := lobby.query(selector).results(Select))
                    and (one := next(found, None)) is not None and mounted(one) and one,
                    selector)
                try:
                    select.value = value
                    return
                except NoMatches:
                    assert not mounted(select), "a select that stays failed to take a value"

        await lobby.session.request("configure",
                                    options={"limit": 150, "first": 2, "away_bot": "30s"})
        await until(pilot, lambda: lobby.table["options"]["first"] == 2, "the options")
        # Two seats: seat 3 cannot start any more; the limit stays as chosen.
        await choose("#lobby-seat-count", 2)
        await until(pilot, lambda: len(lobby.table["seats"]) == 2, "two seats")
        assert lobby.table["options"] == {"match": True, "limit": 150, "first": None,
                                          "bots": "normal", "away_bot": "30s"}
        # Another game and back: this lobby remembers what GET OUT! was set to, and the
        # away bot is the table's whatever its game (it was turned off at a change).
        await choose("#lobby-game", "gotfive")
        await until(pilot, lambda: lobby.table["game"] == "gotfive", "Got Five!")
        assert lobby.table["options"]["away_bot"] == "30s"
        await lobby.session.request("configure", options={"away_bot": "2m"})
        await until(pilot, lambda: lobby.table["options"]["away_bot"] == "2m", "away bot")
        await lobby.session.request("configure", options={"hints": "count"})
        await until(pilot, lambda: lobby.table["options"]["hints"] == "count", "hints")
        await choose("#lobby-game", "getout")
        await until(pilot, lambda: lobby.table["game"] == "getout", "GET OUT! again")
        assert lobby.table["options"]["limit"] == 150
        assert lobby.table["options"]["away_bot"] == "2m"
        await choose("#lobby-game", "gotfive")
        await until(pilot, lambda: lobby.table["game"] == "gotfive", "Got Five! again")
        assert lobby.table["options"]["hints"] == "count"
        # A new lobby (as after a game) remembers them too: it forgot the limit.
        lobby = LobbyScreen(lobby.session)
        await app.switch_screen(lobby)
        await until(pilot, lambda: lobby.live and lobby.update is not None, "a new lobby")
        await choose("#lobby-game", "getout")
        await until(pilot, lambda: lobby.table["game"] == "getout", "GET OUT! once more")
        assert lobby.table["options"]["limit"] == 150


async def test_a_refused_change_of_seats_shows_the_table_as_it_is() -> None:
    """Fewer seats than Bob's (he is at the last one): refused, and the box kept the
    refused count, the title the real one; choosing it again, once Bob had gone, did
    nothing (a LAN pass)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        lobby = await open_lobby(app, pilot, seats=3)
        assert app.hosting.host is not None
        bob = Session("Bob", host=app.hosting.host)
        await bob.connect()
        await bob.join(str(lobby.table["id"]), 2)
        await until(pilot, lambda: lobby.table["seats"][2]["name"] == "Bob", "Bob at seat 3")
        count = await until_steady(pilot, lambda: mounted(found := lobby.query_one(
            "#lobby-seat-count", Select)) and found, "the seat count")
        count.value = 2
        await until(pilot, lambda: count.value == 3, "the box back at 3 seats")
        assert len(lobby.table["seats"]) == 3
        await bob.request("leave")
        await until(pilot, lambda: lobby.table["seats"][2]["kind"] == "empty", "Bob gone")
        count.value = 2
        await until(pilot, lambda: len(lobby.table["seats"]) == 2, "two seats at last")
        await bob.close()


async def test_another_game_or_seat_count_in_the_lobby_mounts_no_control() -> None:
    """The lobby shows another game's options in controls built with it: a form mounted
    on the way closed the app when the lobby closed while its selects mounted (Textual's
    Select then found its own parts gone)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        lobby = await open_lobby(app, pilot, seats=3)
        await until(pilot, lambda: lobby.query("#options-getout")
                    and lobby.query_one("#options-getout").display, "GET OUT!'s form")
        built = list(lobby.query(Select))
        for game, seats in (("gotfive", 3), ("getit", 4), ("getout", 2)):
            await lobby.session.request("configure", game=game, seats=seats)
            def shown(game: str = game, seats: int = seats) -> bool:
                form = lobby.query_one(f"#options-{game}", OptionsForm)
                return form.display and form.seats == seats == len(lobby.table["seats"])

            await until(pilot, shown, game)
            assert list(lobby.query(Select)) == built


def test_a_full_history_still_gives_every_new_entry_to_the_screens() -> None:
    """Once the history keeps only its last HISTORY_LIMIT entries, each new one pushes
    out the oldest: a screen that has shown them all must still get the new ones (the
    log stopped after 1,000 lines; counted by position, nothing was ever new again)."""
    from tui.session import HISTORY_LIMIT

    session = Session("Ann")
    for i in range(HISTORY_LIMIT):
        session.record({"type": "chat", "name": "Bob", "text": f"line {i}"})
    entries, shown = session.since(0)
    assert len(entries) == HISTORY_LIMIT and shown == HISTORY_LIMIT
    for i in range(3):
        session.record({"type": "chat", "name": "Bob", "text": f"new {i}"})
    entries, shown = session.since(shown)
    assert [e.data["text"] for e in entries] == ["new 0", "new 1", "new 2"]
    assert session.since(shown) == ([], shown)
    # A screen far behind gets what is still kept, from the oldest kept on.
    entries, _ = session.since(1)
    assert len(entries) == HISTORY_LIMIT and entries[0].data["text"] == "line 3"


async def test_a_renamed_player_comes_back_under_the_new_name() -> None:
    host = Host("test host", bot_delay=0)
    try:
        bob = Session("Bob", host=host)
        await bob.connect()
        joined = await bob.create("T", "getout", 3, {})
        await bob.request("rename", "Bobby")
        table = host.tables[joined.table]
        assert table.seats[0].name == "Bobby"
        assert bob.client is not None
        bob.client.abort()  # the line drops
        await until_closed(bob)
        await bob.reconnect()
        assert table.seats[0].name == "Bobby" and table.seats[0].conn is not None
        await bob.close()
    finally:
        await host.close()


async def test_leaving_a_lan_table_in_play_tells_the_others_so() -> None:
    """Esc, then y: the others read "Bob left the table", not that he lost the connection."""
    async with running_host() as host:
        ann = Session("Ann", address=("127.0.0.1", host.port))
        await ann.connect()
        joined = await ann.create("T", "getout", 3, {"first": 0})
        bob = Session("Bob", address=("127.0.0.1", host.port))
        await bob.connect()
        await bob.join(joined.table)
        await ann.request("add_bot", 2)
        await bob.request("ready")
        await ann.request("start")
        app = make_app("Bob")
        async with app.run_test(size=SIZE) as pilot:
            app.attach(bob)
            screen = GetOutScreen(bob)
            await app.push_screen(screen)
            await until(pilot, lambda: screen.live, "the table")
            await pilot.press("escape")
            await pilot.press("y")
            await until(pilot, lambda: bob.client is None or bob.client.closed, "the leave")
        seen: list[dict[str, Any]] = []
        while not any(n.get("type") == "stepped_away" for n in seen):
            msg = await asyncio.wait_for(ann.next(), 5)
            seen += msg.get("notices") or [] if msg.get("type") == "update" else []
        assert {"type": "stepped_away", "seat": 1} in seen
        assert not any(n.get("type") == "disconnected" for n in seen)
        await ann.close()


async def test_removing_from_an_empty_or_our_own_seat_says_why_not() -> None:
    app = make_app()
    notices = Notices()
    async with app.run_test(size=SIZE, message_hook=notices) as pilot:
        await open_lobby(app, pilot)
        await pilot.press("ctrl+x")  # the cursor starts on our own seat

        def said() -> list[str]:
            return notices.messages()

        await until(pilot, lambda: any("your own seat" in m for m in said()), "our seat")
        await pilot.press("down", "ctrl+x")
        await until(pilot, lambda: any("seat 2 is empty" in m for m in said()), "an empty one")


@pytest.mark.parametrize(("width", "shown"), [
    (80, "/ chat (Enter sends, Esc cancels) · ? rules and keys"),
    (48, "/ chat (Enter sends, Esc cancels) · ? rules"),
    (20, "/ chat · ? rules"),
])
async def test_the_empty_chat_line_says_the_longest_of_its_words_that_fits(
    width: int, shown: str
) -> None:
    """The chat line's words are cut by narrow columns (Got Five!'s wide board left
    '· ? rules and'): it shows the longest wording that fits, whole."""
    from textual.app import App

    from tui.widgets.chat import CHAT_OPEN, ChatLine

    app: App[None] = App()
    async with app.run_test(size=(100, 5)) as pilot:
        line = ChatLine(words=CHAT_OPEN, id="c", max_length=10)
        line.styles.width = width
        await app.screen.mount(line)
        await pilot.pause()
        assert line.placeholder == shown


async def test_a_busy_port_is_said_in_words_in_the_host_form() -> None:
    """Not asyncio's "error while attempting to bind on address ('::', …)"."""
    from tui.screens.setup import SetupScreen

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        with socket.socket() as busy:
            busy.bind(("127.0.0.1", 0))
            busy.listen()
            port = busy.getsockname()[1]
            await pilot.press("h")
            form = app.screen
            assert isinstance(form, SetupScreen)
            form.query_one("#port", Input).value = str(port)
            await pilot.press("ctrl+s")
            error = form.query_one("#setup-error")
            text = await until(pilot, lambda: str(error.render()) or None, "the error")
        assert f"port {port} is already in use on this computer" in text, text
        assert "attempting to bind" not in text and app.hosting.host is None


async def test_a_table_whose_connection_is_gone_offers_only_what_works_without_it() -> None:
    """A second login took the seat: the first one's footer still offered the game's
    keys, and each said "Not connected" (a fresh-eyed pass of the SSH box)."""
    from tests.tui_support import footer_keys
    from tui.messages import ConnectionDropped

    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    async with app.run_test(size=SIZE) as pilot:
        screen = await solo_table(pilot, app)
        assert footer_keys(app).get("play") is True
        screen.post_message(ConnectionDropped("your seat was taken back", final=True))
        await until(pilot, lambda: "play" not in footer_keys(app), "the game's keys gone")
        keys = footer_keys(app)
        assert "leave" in keys and "draw" not in keys and "chat" not in keys, keys


async def test_the_lobby_says_whose_seat_a_bot_keeps_after_the_game() -> None:
    """After a game a bot kept for Cy, the lobby listed "Bot 3  bot": nothing said the
    seat was Cy's, which his menu still offered him (a fresh-eyed pass)."""
    from textual.app import App, ComposeResult

    from tests.tui_support import screen_text
    from tui.widgets.lobby_seats import LobbySeats

    class Seats(App[None]):
        def compose(self) -> ComposeResult:
            yield LobbySeats()

    app = Seats()
    async with app.run_test(size=(80, 10)) as pilot:
        app.query_one(LobbySeats).show({"creator": 0, "seats": [
            {"seat": 0, "kind": "human", "name": "Ann", "connected": True, "ready": False},
            {"seat": 1, "kind": "bot", "name": "Bot 2", "connected": True, "ready": True,
             "for": "Cy"}]}, 0)
        await until(pilot, lambda: "Bot 2 for Cy" in screen_text(app), "whose seat")


async def test_while_the_piles_are_arranged_the_line_counts_down_to_an_away_bot() -> None:
    """Bob gone while the piles were arranged: the round's wait for him counted down to
    his bot, the line of who still arranges said only "Bob (away)" (a fresh-eyed pass)."""
    import re

    from net.client import Client
    from tui.games.getit.screen import GetItScreen

    async with running_host() as host:
        bob = await Client.connect("127.0.0.1", host.port, name="Bob")
        await bob.create_table("Bob's table", "getit", 3,
                               {"level": 1, "timer": 60, "away_bot": "30s"})
        await bob.add_bot(2)
        app = make_app("Ann")
        async with app.run_test(size=(80, 24)) as pilot:
            from tests.test_tui import ann_ready_bob_starts

            await ann_ready_bob_starts(pilot, host, bob)
            table = await until(pilot, lambda: isinstance(app.screen, GetItScreen)
                                and "done" in footer_keys(app) and app.screen, "the table")
            bob.abort()  # Bob's laptop goes to sleep before he arranged
            waiting = table.query_one("#prep-waiting")
            said = re.compile(r"Bob \(away · a bot in (\d+) s\)")
            first = await until(pilot, lambda: said.search(str(waiting.render())), "the wait")
            await until(pilot, lambda: (m := said.search(str(waiting.render()))) is not None
                        and int(m[1]) < int(first[1]), "a second less")


async def test_a_get_it_round_paused_for_a_person_away_counts_down_to_their_bot() -> None:
    """GET OUT!'s line counted down to the away bot; Get It!'s paused timer said only
    "paused" for the whole of the wait (a fresh-eyed pass)."""
    import re

    from net.client import Client
    from tests.tui_support import screen_text
    from tui.games.getit.timer import SandTimer

    clock = ManualClock(100.0)  # (the bot moves only when the test moves the clock)
    async with running_host(clock=clock) as host:
        bob = await Client.connect("127.0.0.1", host.port, name="Bob")
        await bob.create_table("Bob's table", "getit", 3,
                               {"level": 1, "timer": 60, "away_bot": "30s"})
        await bob.add_bot(2)
        app, notices = make_app("Ann"), Notices()
        async with app.run_test(size=(80, 24), message_hook=notices) as pilot:
            table = await getit_round_with_bob(pilot, host, bob, clock)
            timer = table.query_one(SandTimer)
            bob.abort()  # Bob's laptop goes to sleep
            said = re.compile(r"paused · a bot in (\d+) s")
            first = await until(pilot, lambda: timer.paused and said.search(
                str(timer.render())), "the wait said")
            await until(pilot, lambda: (m := said.search(str(timer.render()))) is not None
                        and int(m[1]) < int(first[1]), "a second less")
            assert said.search(screen_text(app)), screen_text(app)  # (in sight at 80 x 24)
            # While paused the host takes no move: the footer offered the round's keys,
            # and each was refused ("Not possible … paused"; a fresh-eyed pass). They go
            # from the footer, and one pressed says why it does nothing.
            await until(pilot, lambda: not {"aim", "look", "play"} & set(footer_drawn(app)),
                        "no move keys")
            assert footer_drawn(app).get("leave"), footer_drawn(app)
            # Nor does our line still ask for a look ("look (2-3) at who should play").
            assert "the round is paused until Bob is back" in screen_text(app)
            await pilot.press("s")
            await until(pilot, lambda: "The game is paused until everyone is back: waiting "
                        "for Bob." in notices.messages(), "why s does nothing")
            assert table.signals.signalling(table.view, table.my_seat) is False

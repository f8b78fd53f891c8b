"""The join screen: tables this app cannot play look so; failures are said in words."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import socket
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from textual.app import App
from textual.widgets import Button, DataTable, Input, Static

import tui.games
from net.client import Client, ConnectionLost, NotAHost
from net.clock import ManualClock
from net.discovery import HostInfo, TableInfo
from net.limits import Limits
from net.wire.framing import PROTOCOL_VERSION
from tests.net_support import running_host
from tests.tui_support import (
    SIZE,
    TOAST,
    Notices,
    config_dir,
    join_by_address,
    make_app,
    open_lobby,
    screen_text,
    typed_address,
    until,
)
from tui.screens.dialogs import ChoiceScreen
from tui.screens.join import JoinScreen, describe_connect_error, describe_not_a_host
from tui.screens.lobby import LobbyScreen
from tui.screens.setup import SetupScreen

__all__ = ["config_dir"]

pytestmark = pytest.mark.usefixtures("config_dir")

RAW = ("Errno", "Connect call failed", "Multiple exceptions", "gaierror", "Name or service")


@pytest.mark.parametrize(
    ("exc", "words"),
    [
        (ConnectionRefusedError(errno.ECONNREFUSED, "Connect call failed ('127.0.0.1', 1)"),
         "nothing is listening there"),
        (socket.gaierror(socket.EAI_NONAME, "Name or service not known"),
         "no computer by that name"),
        (TimeoutError(), "no answer in time"),
        (ConnectionLost("no answer from 10.0.0.9:4455 within 5.0 s"), "no answer in time"),
        (OSError(errno.ENETUNREACH, "Network is unreachable"), "cannot be reached"),
        (OSError(errno.EHOSTUNREACH, "No route to host"), "cannot be reached"),
        (OSError("Multiple exceptions: [Errno 111] Connect call failed ('::1', 1, 0, 0), "
                 "[Errno 111] Connect call failed ('127.0.0.1', 1)"), "nothing answered"),
        (ConnectionResetError(errno.ECONNRESET, "Connection reset by peer"), "closed at once"),
        (ConnectionLost("the host closed the connection"), "closed at once"),
        (OSError(errno.EPERM, "Operation not permitted"), "the connection failed"),
    ],
)
def test_connection_failures_are_said_in_plain_words(exc: BaseException, words: str) -> None:
    text = describe_connect_error(exc)
    assert words in text
    assert not any(raw in text for raw in RAW), text


async def join_error_line(pilot: Any, port: int) -> Static:
    """From the menu: Join, the address 127.0.0.1:``port`` typed and entered; the
    Join screen's error line."""
    return (await join_by_address(pilot, port)).query_one("#join-error", Static)


async def test_a_refused_address_says_nothing_is_listening() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        address = await typed_address(pilot, "127.0.0.1:1")
        address.focus()
        await pilot.press("enter")
        error = app.screen.query_one("#join-error")
        text = await until(pilot, lambda: "Could not reach" in str(error.render())
                           and str(error.render()), "the error")
        assert "nothing is listening there" in text and "Connect call failed" not in text


async def test_an_interface_not_of_this_computer_is_named_so() -> None:
    app = make_app()
    # Saved settings from another network: 192.0.2.0/24 (TEST-NET) is surely none of ours.
    app.settings.mdns_interfaces = ["192.0.2.45"]
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("j")
        state = app.screen.query_one("#discovery-state")
        text = await until(pilot, lambda: "not available" in str(state.render())
                           and str(state.render()), "the discovery state")
        assert "192.0.2.45 is not an address of this computer" in text
        assert "Errno" not in text


HTTP_ANSWER = b"HTTP/1.0 400 Bad Request\r\nContent-Type: text/html\r\n\r\n<h1>no</h1>"
UNDECODABLE = b"\x00\x00\x00\x03abc"  # a frame whose body is no msgpack map


@contextlib.asynccontextmanager
async def not_a_host(answer: bytes) -> AsyncIterator[int]:
    """A server on 127.0.0.1 that takes connections and sends ``answer`` (maybe nothing),
    then keeps them open without a word more; yields its port."""
    done = asyncio.Event()
    writers: list[asyncio.StreamWriter] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writers.append(writer)
        writer.write(answer)
        await writer.drain()
        await done.wait()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    try:
        yield server.sockets[0].getsockname()[1]
    finally:
        done.set()
        for writer in writers:
            writer.close()
        server.close()
        await server.wait_closed()


@pytest.mark.parametrize(
    ("answer", "timeout", "answered"),
    [(HTTP_ANSWER, 5.0, True), (UNDECODABLE, 5.0, True), (b"", 0.2, False)],
)
async def test_a_server_that_is_no_hiddenhand_host_is_told_apart(
    answer: bytes, timeout: float, answered: bool
) -> None:
    async with not_a_host(answer) as port:
        with pytest.raises(NotAHost) as info:
            await Client.connect("127.0.0.1", port, name="Ann", timeout=timeout)
    assert info.value.answered is answered
    assert isinstance(info.value, ConnectionLost)  # what callers already catch


async def test_joining_a_server_that_answers_garbage_says_it_is_no_host() -> None:
    app = make_app()
    async with not_a_host(HTTP_ANSWER) as port, app.run_test(size=SIZE) as pilot:
        error = await join_error_line(pilot, port)
        text = await until(pilot, lambda: "Connecting" not in str(error.render())
                           and str(error.render()), "the error")
        assert text.startswith(f"127.0.0.1:{port} answered, but it is not a hiddenhand host")
        assert "switched on" not in text and "frame" not in text


def test_a_silent_server_is_not_called_switched_off() -> None:
    text = describe_not_a_host("127.0.0.1:8000", NotAHost("no answer", answered=False))
    assert text.startswith("Connected to 127.0.0.1:8000, but it never answered as a "
                           "hiddenhand host")
    assert "switched on" not in text and "firewall" not in text.lower()
    assert "not a hiddenhand host" in describe_connect_error(NotAHost("x", answered=True))


def host_info(name: str, *games: str) -> HostInfo:
    return HostInfo(f"{name}._hiddenhand._tcp.local.", name, ("127.0.0.1",), 1, PROTOCOL_VERSION,
                    tuple(TableInfo(f"t{i}", f"{name}'s {game}", game, 2, 4, "lobby")
                          for i, game in enumerate(games, start=1)))


@pytest.fixture
def without_getit() -> Iterator[None]:
    """An app without a Get It! table, for one test. (``monkeypatch.delitem`` put the
    game back at the end of the list: the forms offered it last in every later test of
    the process, and one that counted on their order failed.)"""
    tables = tui.games.TABLES
    kept = dict(tables)
    del tables["getit"]
    try:
        yield
    finally:
        tables.clear()
        tables.update(kept)


async def test_tables_this_app_cannot_play_are_listed_as_such_and_not_joined(
        without_getit: None) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("j")
        screen = app.screen
        assert isinstance(screen, JoinScreen)
        screen.workers.cancel_group(screen, "browse")  # only the hosts this test shows
        hosts = {"a": host_info("Attic", "getit"), "b": host_info("Barn", "getit", "getout")}
        screen.post_message(JoinScreen.HostsChanged(hosts))
        listing = screen.query_one("#hosts", DataTable)
        await until(pilot, lambda: listing.row_count == 2, "the two hosts")
        attic, barn = (listing.get_row_at(i) for i in range(2))
        assert "Get It!" in str(attic[2]) and "not playable in this app yet" in str(attic[2])
        assert attic[0].style == "dim"  # nothing to join there
        assert "Barn's getout (GET OUT!, 2 free, lobby)" in str(barn[2])
        assert barn[0].style == ""
        listing.focus()
        listing.move_cursor(row=0)
        await pilot.press("enter")
        error = screen.query_one("#join-error")
        await until(pilot, lambda: "cannot play yet" in str(error.render()), "the refusal")
        assert "only has tables of Get It!" in str(error.render())
        assert not screen.workers or all(w.group != "connect" for w in screen.workers)


async def test_a_host_with_no_table_this_app_plays_is_not_joined(without_getit: None) -> None:
    async with running_host() as host:
        bob = await Client.connect("127.0.0.1", host.port, name="Bob")
        await bob.create_table("Bob's table", "getit", 3)
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            error = await join_error_line(pilot, host.port)
            await until(pilot, lambda: "no table this app can play" in str(error.render()),
                        "the refusal")
            assert "(only Get It!)" in str(error.render())
            assert isinstance(app.screen, JoinScreen)
        await bob.close()


async def test_the_address_key_selects_what_was_typed_so_a_new_address_replaces_it() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        address = await typed_address(pilot, "127.0.0.1:1")
        for focused in (None, address):  # from elsewhere, and in the field itself
            app.screen.set_focus(focused)
            await pilot.pause()
            await pilot.press("ctrl+a")
            await pilot.pause()
            await pilot.press(*"box:4455")
            assert address.value == "box:4455"
            address.value = "127.0.0.1:1"


async def test_a_table_where_we_hold_a_seat_says_so_in_the_list() -> None:
    """After a crash the list showed our own table as "0 free", which reads as full:
    a table where we hold a seat (its token kept) says the seat is ours."""
    from tui.settings import remember_seat

    remember_seat("127.0.0.1:1", "t1", 1, "a-token")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("j")
        screen = app.screen
        assert isinstance(screen, JoinScreen)
        screen.workers.cancel_group(screen, "browse")  # only the hosts this test shows
        screen.post_message(JoinScreen.HostsChanged({"b": host_info("Barn", "getout", "gotfive")}))
        listing = screen.query_one("#hosts", DataTable)
        # (A host another test announces on loopback may show for a moment, found
        # before the browsing stopped: the list this test sent replaces it.)
        await until(pilot, lambda: listing.row_count == 1
                    and "Barn's" in str(listing.get_row_at(0)[2]), "the host")
        text = str(listing.get_row_at(0)[2])
        assert "Barn's getout (GET OUT!, your seat is kept, lobby)" in text, text
        assert "Barn's gotfive (Got Five!, 2 free, lobby)" in text, text


async def test_on_a_box_a_refusal_names_the_box_never_its_host_s_address() -> None:
    """An SSH box's app reaches the box's host at 127.0.0.1 and a port of its own: what
    the player reads of a refused name speaks of "this box", not of that address."""
    async with running_host() as host:
        app = make_app(name="Bot 3", box=("127.0.0.1", host.port))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("j")
            screen = await until(pilot, lambda: isinstance(app.screen, JoinScreen)
                                 and app.screen, "the box's tables")
            error = screen.query_one("#join-error")
            await until(pilot, lambda: "refused" in str(error.render()), "the refusal")
            said = str(error.render())
            assert said.startswith("This box refused: the name 'Bot 3' would pass for a bot")
            assert str(host.port) not in said and "127.0.0.1" not in said


async def test_on_a_box_a_host_that_does_not_answer_is_said_without_its_address() -> None:
    """Opening a table while the box's game host is down: the player reads that it does
    not answer, not the socket error's inside address and port."""
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = make_app(box=("127.0.0.1", port))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        await until(pilot, lambda: isinstance(app.screen, SetupScreen), "the form")
        await pilot.press("ctrl+s")
        said = await until(pilot, lambda: next(
            (text for w in app.screen.query(Static)
             if "does not answer" in (text := str(w.render()))), None), "the failure")
        assert "This box's game host does not answer; try again soon." in said
        assert str(port) not in said and "127.0.0.1" not in said


def countdowns(app: App[Any]) -> int:
    """The host's countdowns on the screen (toasts saying when it closes the connection)."""
    return sum("closes the connection" in str(toast.render())
               for toast in app.screen.query(TOAST))


async def test_on_a_box_the_list_says_when_it_closes_then_that_it_did_and_looks_again() -> None:
    """A connection at no table is closed after a while (net.idle): the person looking
    at the list of tables is told beforehand how long is left, then why it is gone,
    and looks again with one key."""
    clock = ManualClock()
    # (A countdown longer than until() waits: a toast left up would not go by itself.)
    limits = Limits(shared_addresses=frozenset({"127.0.0.1"}), lobby_idle=1200,
                    lobby_warning=600)
    async with running_host(clock=clock, limits=limits) as host:
        for name in ("Porch", "Attic"):
            host.create_table(name, "getout", 2, permanent=True)
        app = make_app(box=("127.0.0.1", host.port))
        notices = Notices()
        async with app.run_test(size=(80, 24), message_hook=notices,
                                notifications=True) as pilot:
            await pilot.press("j")
            await until(pilot, lambda: isinstance(app.screen, ChoiceScreen), "the tables")
            clock.advance(600)
            said = await until(pilot, lambda: [m for m in notices.messages()
                                               if "closes the connection" in m], "the warning")
            assert said == ["You have been on this list for 10 minutes without joining a "
                            "table: this box closes the connection in 10 minutes. Pick a "
                            "table to stay."]
            clock.advance(600)
            screen = await until(pilot, lambda: isinstance(app.screen, JoinScreen)
                                 and app.screen, "the list closed")
            error = screen.query_one("#join-error")
            text = await until(pilot, lambda: "closed" in str(error.render())
                               and str(error.render()), "why")
            assert text == ("This box closed the connection after 20 minutes without a table "
                            "joined. Look again to see its tables.")
            # (Clicked once laid out under the words: on a loaded machine the click came
            # before the layout, where the words had just come, and pressed nothing.)
            again = screen.query_one("#again")
            await until(pilot, lambda: again.region.y >= error.region.bottom > 0,
                        "the button under the words")
            await pilot.click("#again")
            await until(pilot, lambda: isinstance(app.screen, ChoiceScreen), "the tables again")
            await pilot.press("escape")  # and by its key (a player pressed j again: nothing)
            await until(pilot, lambda: app.screen is screen, "the join screen")
            await pilot.press("r")
            await until(pilot, lambda: isinstance(app.screen, ChoiceScreen), "the tables by r")
            clock.advance(600)
            await until(pilot, lambda: len([m for m in notices.messages()
                                            if "closes the connection" in m]) == 2,
                        "the warning again")
            await until(pilot, lambda: countdowns(app) == 1, "the warning shown")
            await pilot.press("1")  # picked in time: the countdown is gone with the list
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            await until(pilot, lambda: countdowns(app) == 0, "no countdown")
            clock.advance(1200)
            await pilot.press("ctrl+b")  # and the seat is kept: her request goes through
            await until(pilot, lambda: host.tables["t1"].seats[1].kind == "bot", "Ann's bot")


async def test_an_address_typed_with_the_list_in_focus_goes_into_the_address_field(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A player typed 127.0.0.1:9555 as the screen opened, and nothing happened: the
    keys went to the list of hosts. They go to the address field, Enter joins, and the
    field starts with that address next time. The screen says when no host was found."""
    from tui.screens import join
    from tui.settings import Settings

    class NothingOnTheNetwork:
        """A browser that finds no host: the other tests' hosts, running beside this one,
        announce themselves on loopback's mDNS too."""

        def __init__(self, **_kwargs: Any) -> None:
            self.hosts: dict[str, Any] = {}
            self.closed = asyncio.Event()

        async def start(self) -> None:
            pass

        def __aiter__(self) -> NothingOnTheNetwork:
            return self

        async def __anext__(self) -> Any:
            await self.closed.wait()
            raise StopAsyncIteration

        async def close(self) -> None:
            self.closed.set()

    monkeypatch.setattr(join, "Browser", NothingOnTheNetwork)
    monkeypatch.setattr(join, "NONE_FOUND_AFTER", 0.05)
    async with running_host() as host:
        bob = await Client.connect("127.0.0.1", host.port, name="Bob")
        await bob.create_table("Bob's table", "getout", 3, {})
        app = make_app("Ann")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("j")
            screen = app.screen
            assert isinstance(screen, JoinScreen)
            address = screen.query_one("#address", Input)
            assert address.value == "" and not address.has_focus
            state = screen.query_one("#discovery-state", Static)
            await until(pilot, lambda: "No hosts found" in str(state.render()), "none found")
            typed = f"127.0.0.1:{host.port}"
            # All at once, as a paste or a terminal's burst: the keys after the first
            # come before the focus has moved (the field held only the last key).
            from textual import events

            for char in typed:
                app.post_message(events.Key(char, char))
            await until(pilot, lambda: address.has_focus and address.value == typed,
                        "the address typed")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            assert app.settings.last_address == typed
            assert Settings.load()[0].last_address == typed
            await pilot.press("escape", "y")  # (Bob is at the table: asked first)
            await until(pilot, lambda: not isinstance(app.screen, LobbyScreen), "left")
            await pilot.press("j")
            again = await until(pilot, lambda: isinstance(app.screen, JoinScreen)
                                and app.screen is not screen and app.screen, "Join again")
            assert again.query_one("#address", Input).value == typed
            # A typed key replaces what it held: a new address.
            await pilot.press("1")
            assert again.query_one("#address", Input).value == "1"
        await bob.close()


def test_a_kept_address_from_a_damaged_file_is_forgotten(config_dir: Any) -> None:
    import json

    from tui.settings import Settings

    config_dir.mkdir(parents=True, exist_ok=True)
    for bad in (7, "", "x" * 301, "a\x1bb", ["127.0.0.1:1"]):
        (config_dir / "settings.json").write_text(json.dumps({"last_address": bad}))
        settings, problem = Settings.load()
        assert settings.last_address is None and problem is None


async def test_on_a_box_a_list_closed_without_a_table_says_what_next() -> None:
    """Back from the box's tables without choosing one left "Tables on this box" with no
    words at all under it."""
    async with running_host() as host:
        for name in ("Porch", "Attic"):
            host.create_table(name, "getout", 2, permanent=True)
        app = make_app(box=("127.0.0.1", host.port))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("j")
            await until(pilot, lambda: isinstance(app.screen, ChoiceScreen), "the tables")
            await pilot.press("escape")
            screen = await until(pilot, lambda: isinstance(app.screen, JoinScreen)
                                 and app.screen, "back on the join screen")
            error = screen.query_one("#join-error")
            text = await until(pilot, lambda: str(error.render()), "what next")
            assert text.startswith("You joined no table. Look again"), text


@pytest.mark.parametrize("width", [80, 120])
async def test_a_box_s_tables_are_listed_a_line_each_at_80_columns(width: int) -> None:
    """The chooser of a box's tables was 60 columns wide: at 80 a table with a name of
    some length wrapped its "(lobby) ◂" onto a line of its own, centred."""
    from tui.screens.join_words import describe_table

    tables = [{"name": "Bartholomew's table", "game": "getit", "free": 5, "seats": 6,
               "phase": "lobby"},
              {"name": "Ann", "game": "gotfive", "free": 0, "seats": 3, "phase": "play"}]
    choices = [(str(i), describe_table(t, kept=i == 1)) for i, t in enumerate(tables)]
    app = make_app("Ann")
    async with app.run_test(size=(width, 24)) as pilot:
        await app.push_screen(ChoiceScreen("Which table?", choices, wide=True))
        lines = await until(pilot, lambda: "▸" in screen_text(app) and [
            line for line in screen_text(app).splitlines() if "█" in line and "—" in line],
            "the tables")
        assert len(lines) == 2, lines
        assert "▸ 1  Bartholomew's table — Get It!, 5 of 6 seats free (lobby) ◂" in lines[0]
        assert "2  Ann — Got Five!, your seat is kept (in play)" in lines[1]


def test_a_kept_seat_is_the_table_s_it_was_made_at_not_a_new_one_with_its_id() -> None:
    """The list said "your seat is kept" of a table just opened: it had the id of one the
    player sat at before the host restarted."""
    from tui.screens.join_words import describe_table
    from tui.settings import kept_at, remember_seat

    remember_seat("127.0.0.1:4455", "t1", 1, "aaaaaaaa.secret")
    assert kept_at("127.0.0.1:4455", "t1", "aaaaaaaa")
    assert not kept_at("127.0.0.1:4455", "t1", "bbbbbbbb")
    assert kept_at("127.0.0.1:4455", "t1")  # (a host that does not say which table)
    assert not kept_at("127.0.0.1:4455", "t2", "aaaaaaaa")
    table = {"id": "t1", "name": "Ann's table", "game": "getit", "free": 1, "seats": 2,
             "phase": "lobby", "uid": "bbbbbbbb"}
    kept = kept_at("127.0.0.1:4455", "t1", table["uid"])
    assert "1 of 2 seats free" in describe_table(table, kept)


async def seat_kept_at_porch(port: int) -> Any:
    """Ann opened "Ann's porch" on the host at ``port`` and her login dropped: her seat
    is kept for this app (its settings hold the token)."""
    from tui.settings import remember_seat

    ann = await Client.connect("127.0.0.1", port, name="Ann")
    joined = await ann.create_table("Ann's porch", "getout", 3)
    assert joined.token is not None
    remember_seat(f"127.0.0.1:{port}", joined.table, 0, joined.token)
    await ann.close()
    return joined


async def porch_offered(pilot: Any, notes: Any) -> None:
    """The menu says Ann's seat at Ann's porch is kept, and its entry goes back to it."""
    await until(pilot, lambda: any("Your seat at Ann's porch is kept" in n
                                   for n in notes.messages()), "the hint")
    assert "Back to your seat (j)" in screen_text(pilot.app)


async def test_a_box_s_menu_says_where_a_seat_is_kept() -> None:
    """Back after a dropped login (or the box's restart), a player came to the plain
    menu and learned of their seat only in Join (a fresh-eyed pass of the SSH box)."""
    from tests.tui_support import Notices
    from tui.settings import forget_seat

    async with running_host() as host:
        joined = await seat_kept_at_porch(host.port)  # (the login dropped)
        app = make_app(box=("127.0.0.1", host.port))
        notes = Notices()
        async with app.run_test(size=(80, 24), message_hook=notes,
                                notifications=True) as pilot:
            await porch_offered(pilot, notes)
            # Enter goes back too (it was on "Play solo", and started a solo game).
            assert app.focused is not None and app.focused.id == "join"
            # The one entry lit as the way on, and the footer's j says it.
            assert app.screen.query_one("#solo", Button).variant == "default"
            assert app.screen.query_one("#join", Button).variant == "primary"
            await until(pilot, lambda: "j Back to seat" in screen_text(app).splitlines()[-1],
                        "the footer's j")
            # Every other table is still in reach (Join only went back to the seat), and
            # the entries close up so that Quit stays in sight at 24 rows.
            assert "Other tables on this box (t)" in screen_text(app)
            assert "Quit (q)" in screen_text(app)
            # Straight back to it: no chooser of that one table (a tap for nothing).
            await pilot.press("j")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the seat")
            assert not any(isinstance(s, ChoiceScreen) for s in app.screen_stack)
            # The word that sent us here goes (it stayed over the table, saying "(j)").
            await until(pilot, lambda: "Ann (you)" in screen_text(app), "the seats")
            await pilot.pause(0.5)
            assert "is kept" not in screen_text(app)
        forget_seat(f"127.0.0.1:{host.port}", joined.table)  # (another player's data)
        other = make_app("Bo", box=("127.0.0.1", host.port))  # no seat kept: no word
        notes = Notices()
        async with other.run_test(size=(80, 24), message_hook=notes) as pilot:
            await until(pilot, lambda: not [w for w in other.workers
                                            if w.group == "kept" and not w.is_finished],
                        "the look for seats")
            await pilot.pause()
            assert not notes.messages() and "Back to your seat" not in screen_text(other)
            assert "Other tables" not in screen_text(other)
            await pilot.press("t")  # (nothing: no seat kept, Join lists the tables)
            await pilot.pause()
            assert type(other.screen).__name__ == "BoxMenuScreen"


def named_lan_app() -> Any:
    """Ann's app on the LAN, her name chosen (Join asks for one first otherwise)."""
    from tui.app import HiddenHandApp
    from tui.settings import Settings

    return HiddenHandApp(Settings(name="Ann", named=True, mdns_interfaces=["127.0.0.1"]),
                         bind="127.0.0.1")


async def test_back_after_a_crash_the_lan_menu_takes_a_player_to_the_seat_kept() -> None:
    """A LAN player whose app was killed mid-game started it again at the plain menu,
    with no word of the seat kept for them: only Join's list said it (a fresh-eyed
    pass of a LAN party)."""
    from tests.tui_support import Notices
    from tui.settings import remember_seat

    async with running_host() as host:
        await seat_kept_at_porch(host.port)
        # A seat at a host long gone, sat at since: asked first, it answers nothing.
        with socket.socket() as gone:
            gone.bind(("127.0.0.1", 0))
            remember_seat(f"127.0.0.1:{gone.getsockname()[1]}", "t1", 0, "gone")
        app = named_lan_app()
        notes = Notices()
        async with app.run_test(size=(80, 24), message_hook=notes,
                                notifications=True) as pilot:
            await porch_offered(pilot, notes)
            assert "Other tables" not in screen_text(app)  # (a box's entry)
            assert app.focused is not None and app.focused.id == "join"
            await pilot.press("j")  # straight there: no looking for it on the network
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the seat")
            await until(pilot, lambda: "Ann (you)" in screen_text(app), "the seats")
            assert host.tables  # (the same table: Ann's porch)
            assert "Ann's porch" in screen_text(app)


async def test_a_seat_kept_at_a_host_that_stopped_since_says_so_in_words() -> None:
    """The menu offered the seat, the host stopped before j was pressed: Join said
    "Could not reach 127.0.0.1:4455: nothing is listening there; is a game hosted…", as
    if the player had typed a wrong address (a fresh-eyed pass)."""
    from net.host import Host

    host = Host("Ann's host", bot_delay=0)
    await host.start("127.0.0.1", 0)
    await seat_kept_at_porch(host.port)
    app = named_lan_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: "Back to your seat (j)" in screen_text(app), "offer")
        port = host.port
        await host.close()
        await pilot.press("j")
        await until(pilot, lambda: f"Your seat was kept at 127.0.0.1:{port}, which "
                    "no longer answers" in screen_text(app), "the words")
        assert "nothing is listening" not in screen_text(app)


async def test_with_a_seat_kept_on_a_box_the_menu_still_reaches_every_table() -> None:
    """A player who left a game in play found only "Back to your seat (j)" in the box's
    menu, and no way to a friend's new table (a fresh-eyed pass of the web door)."""
    from net.client import Client

    async with running_host() as host:
        await seat_kept_at_porch(host.port)
        bo = await Client.connect("127.0.0.1", host.port, name="Bo")
        await bo.create_table("Bo's table", "getit", 3)
        app = make_app(box=("127.0.0.1", host.port))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "Other tables on this box (t)" in screen_text(app),
                        "the other tables' entry")
            await pilot.click("#tables")
            await until(pilot, lambda: isinstance(app.screen, ChoiceScreen)
                                  and app.screen, "the tables")
            # (Drawn a moment after the dialog is pushed: on a loaded machine the first
            # look at the screen found it blank.)
            await until(pilot, lambda: "Bo's table" in screen_text(app)
                        and "Ann's porch" in screen_text(app), "both tables listed")
        await bo.close()


async def test_a_box_s_menu_stops_offering_a_seat_whose_table_closed() -> None:
    """"Back to your seat (j)" stayed after the table closed, and led to "No table is
    open on this box yet" (a fresh-eyed pass of the box)."""
    from tui.screens.menu import JOIN_ON_BOX

    async with box_menu_whose_table_closed((80, 24)) as (_host, app, pilot):
        await pilot.press("r")  # the rules, and back: the menu looks again
        await until(pilot, lambda: "Back to your seat" not in screen_text(app), "the rules")
        await pilot.press("escape")
        await until(pilot, lambda: JOIN_ON_BOX in screen_text(app), "the plain entry")


@contextlib.asynccontextmanager
async def box_menu_whose_table_closed(size: tuple[int, int]) -> AsyncIterator[Any]:
    """A box's menu offers Ann's seat at her porch, and the porch closes under it
    (nobody came back): the host, the app and its pilot."""
    async with running_host() as host:
        joined = await seat_kept_at_porch(host.port)
        app = make_app(box=("127.0.0.1", host.port))
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: "Back to your seat (j)" in screen_text(app), "offer")
            host._remove_if_idle(host.tables[joined.table])
            yield host, app, pilot


async def test_back_to_a_seat_whose_table_closed_meanwhile_says_it_closed() -> None:
    """The menu offered the seat; the table closed while the menu was up (everyone had
    left it); j opened "Which table?" with only a stranger's table, unexplained, and
    on a box with no table left "No table is open on this box yet" (a box pass)."""
    from net.client import Client
    from tui.screens.menu import MenuScreen

    async with box_menu_whose_table_closed((100, 30)) as (host, app, pilot):
        await pilot.press("j")
        await until(pilot, lambda: "The table that kept your seat has closed; no table "
                    "is open on this box now" in screen_text(app), "the words")
        bo = await Client.connect("127.0.0.1", host.port, name="Bo")
        await bo.create_table("Bo's table", "getit", 3)
        await pilot.press("escape")
        menu = await until(pilot, lambda: isinstance(app.screen, MenuScreen)
                           and app.screen.seats_looked and app.screen, "the menu")
        menu.seat_kept = True  # (as if the menu had not looked again yet)
        await pilot.press("j")
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen), "the tables")
        await until(pilot, lambda: "The table that kept your seat has closed: choose "
                    "another table" in screen_text(app), "the words")
        await bo.close()


async def test_back_to_your_seat_lists_a_game_in_play_before_one_that_is_over() -> None:
    """With two seats kept, "Back to your seat" chose the game that was over first (an
    SSH box pass): the kept seats come first, those at a game still to play before."""
    from tui.settings import remember_seat

    async with running_host() as host:
        ann = await Client.connect("127.0.0.1", host.port, name="Ann")
        over = await ann.create_table("Dan's game", "getout", 3)
        assert over.token is not None
        remember_seat(f"127.0.0.1:{host.port}", over.table, 0, over.token)
        await ann.close()
        host.tables[over.table].phase = "over"  # (as if played to its end)
        await seat_kept_at_porch(host.port)
        app = make_app(box=("127.0.0.1", host.port))
        async with app.run_test(size=(100, 24)) as pilot:
            await until(pilot, lambda: "Back to your seat (j)" in screen_text(app), "offer")
            await pilot.press("j")
            chooser = await until(pilot, lambda: isinstance(app.screen, ChoiceScreen)
                                  and app.screen, "the tables")
            assert [label.split(" —")[0] for _, label in chooser.choices] == [
                "Ann's porch", "Dan's game"]


async def test_a_kept_seat_played_on_another_login_says_joining_moves_it() -> None:
    """A second login under the same name saw "your seat is kept", took the seat, and
    the first one lost it without a word of warning (a fresh-eyed pass of the box)."""
    from tui.settings import remember_seat

    async with running_host() as host:
        ann = await Client.connect("127.0.0.1", host.port, name="Ann")
        joined = await ann.create_table("Ann's porch", "getout", 3)
        assert joined.token is not None
        remember_seat(f"127.0.0.1:{host.port}", joined.table, 0, joined.token)
        app = make_app(box=("127.0.0.1", host.port))
        async with app.run_test(size=(100, 24)) as pilot:
            await pilot.press("j")
            await until(pilot, lambda: isinstance(app.screen, ChoiceScreen), "the tables")
            await until(pilot, lambda: "Ann's porch — GET OUT!, your seat, in use on another "
                        "login (lobby)" in screen_text(app), "the warning, on one line")
        await ann.close()
        app = make_app(box=("127.0.0.1", host.port))  # the other login gone: only kept
        async with app.run_test(size=(100, 24)) as pilot:
            await pilot.press("j")
            await until(pilot, lambda: "your seat is kept" in screen_text(app), "kept")
            assert "another login" not in screen_text(app)


async def test_on_a_box_settings_ask_only_for_the_name_and_keep_the_box_s_paths() -> None:
    """A browser visitor was asked for the network interfaces that find LAN games (none
    are found from a box), and told the path on the box its settings went to."""
    from tui.screens.settings import SettingsScreen

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = make_app(box=("127.0.0.1", port))
    notes = Notices()
    async with app.run_test(size=(80, 24), message_hook=notes) as pilot:
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, SettingsScreen), "the settings")
        assert not app.screen.query("#mdns")
        assert "Network interfaces" not in screen_text(app)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: notes.messages(), "a notice")
        assert notes.messages() == ["Settings saved."]


async def test_a_host_whose_table_this_app_cannot_read_is_not_joined_and_says_why() -> None:
    """The table came with an option this app cannot take: the app refused the host's
    message, and the Join screen stayed on "Connecting…", saying nothing."""
    async with running_host() as host:
        bob = await Client.connect("127.0.0.1", host.port, name="Bob")
        await bob.create_table("Bob's table", "getout", 3)
        (table,) = host.tables.values()
        table.options = {**table.options, "limit": "lots"}  # (no host of ours sends that)
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            error = await join_error_line(pilot, host.port)
            await until(pilot, lambda: "cannot read" in str(error.render()), "the refusal")
            assert "limit" in str(error.render())
            assert isinstance(app.screen, JoinScreen) and app.is_running
        await bob.close()


async def test_a_host_that_gives_a_seat_and_never_the_table_is_given_up_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import tui.screens.join as join

    monkeypatch.setattr(join, "FIRST_UPDATE", 0.5)
    async with running_host() as host:
        bob = await Client.connect("127.0.0.1", host.port, name="Bob")
        await bob.create_table("Bob's table", "getout", 3)
        (table,) = host.tables.values()
        monkeypatch.setattr(table, "push", lambda *args, **kwargs: None)  # (sends nothing)
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            error = await join_error_line(pilot, host.port)
            await until(pilot, lambda: "never showed the table" in str(error.render()),
                        "the words")
            assert isinstance(app.screen, JoinScreen) and app.is_running
        await bob.close()


async def test_on_a_phone_the_lobby_s_invitation_opens_by_a_tap_and_shows_the_whole_link(
) -> None:
    """"friends join with: a web link (i)" looked like a button and did nothing to a
    tap, and the invitation cut the link at a phone's width ("…:8080/pla")."""
    from tui.screens.invite import InviteScreen

    link = "http://192.168.1.20:8080/play/" + "Tk3x" * 11
    app = make_app(box_doors=["ssh -p 2222 box", link])
    async with app.run_test(size=(43, 40)) as pilot:
        lobby = await open_lobby(app, pilot)
        title = lobby.query_one("#lobby-title", Static)
        await until(pilot, lambda: "a web link (i)" in str(title.render()), "the invitation")
        await pilot.click("#lobby-title")
        await until(pilot, lambda: isinstance(app.screen, InviteScreen), "the doors")
        await until(pilot, lambda: "in a browser" in screen_text(app), "drawn")
        text = "".join(line.strip(" │") for line in screen_text(app).splitlines())
        assert link in text, screen_text(app)


async def test_at_80_by_24_the_invitation_s_qr_code_is_whole() -> None:
    """At 80 x 24 the code's last rows were under the screen's edge, and a camera reads
    no part of one (a fresh-eyed pass of the box): the words around the doors give way."""
    from tui.screens.invite import InviteScreen
    from tui.widgets.qr import QRCode

    link = "http://192.168.1.20:8080/play/" + "Tk3x" * 8
    app = make_app(box_doors=["ssh -p 2222 box", link])
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await open_lobby(app, pilot)
        await until(pilot, lambda: "a web link (i)" in str(
            lobby.query_one("#lobby-title", Static).render()), "the invitation")
        await pilot.press("i")
        screen = await until(pilot, lambda: isinstance(app.screen, InviteScreen)
                             and app.screen, "the doors")
        code = await until(pilot, lambda: screen.query_one(QRCode).region.height
                           and screen.query_one(QRCode), "drawn")
        assert code.region.height == len(str(code.render()).splitlines())  # (not cut)
        assert code.region.bottom <= app.size.height - 1  # (the footer's line below)
        assert link in "".join(screen_text(app).split())


async def test_a_game_under_way_offers_to_watch_and_says_where_a_seat_of_ours_is_kept(
) -> None:
    """A player back from a new browser read only "No seat for you there (that is not
    possible once the game has started)": their seat is kept for the browser (or the
    terminal) they played from, by its token (a fresh-eyed pass of the web door)."""
    async with running_host() as host:
        bob = await Client.connect("127.0.0.1", host.port, name="Bob")
        await bob.create_table("Bob's table", "getout", 2)
        await bob.add_bot(1)
        await bob.start()
        app = make_app()
        async with app.run_test(size=(100, 30)) as pilot:
            (await typed_address(pilot, f"127.0.0.1:{host.port}")).focus()
            await pilot.press("enter")
            asked = await until(pilot, lambda: isinstance(app.screen, ChoiceScreen)
                                and app.screen, "the offer to watch")
            text = " ".join(screen_text(app).replace("█", " ").replace("│", " ").split())
            assert ("No seat for you there: its game has started. Watch the game instead? "
                    "(Played there from another browser or terminal? Your seat is kept for "
                    "that one: come back from it.)") in text, text
            assert asked is app.screen
        await bob.close()



async def test_a_click_anywhere_on_the_highlighted_host_joins_it(without_getit: None) -> None:
    """"Enter or click to join": a click on the highlighted host did nothing unless it
    landed in the very column the list's cursor was on (a pass clicked its name)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("j")
        screen = app.screen
        assert isinstance(screen, JoinScreen)
        screen.workers.cancel_group(screen, "browse")  # only the hosts this test shows
        screen.post_message(JoinScreen.HostsChanged({"a": host_info("Attic", "getit")}))
        listing = screen.query_one("#hosts", DataTable)
        await until(pilot, lambda: listing.row_count == 1
                    and "Attic" in str(listing.get_row_at(0)[0]), "the host")
        assert listing.cursor_row == 0
        top = listing.content_region.y - listing.region.y + (1 if listing.show_header else 0)
        await pilot.click(listing, offset=(20, top))  # its address, not its name
        error = screen.query_one("#join-error")
        # (Chosen: this app has no Get It! table, so the choice is refused in words.)
        await until(pilot, lambda: "cannot play yet" in str(error.render()), "the choice")

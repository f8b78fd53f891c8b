"""Join a game: hosts found on the LAN appear live; any host:port can be typed by hand.

Picking a host connects, lists its tables and sits at one (asking which when there
are several). On an SSH box (``box``) there is no LAN to look at: the screen goes
straight to the box's tables. Tables of a game this app has no table screen for are
listed as such, and a host that has only those is not joined. Every failure —
unreachable, wrong version, table full — is said in plain words on the screen
(:func:`describe_connect_error`).
"""

from __future__ import annotations

import contextlib
import errno
import math
import socket
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import getters, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, DataTable, Footer, Header, Input, Label, Static

import engine
from net.address import parse_address, show_address
from net.client import NotAHost
from net.discovery import Browser, HostInfo, TableInfo
from net.idle import in_words
from net.wire import errors
from tui.games import playable
from tui.games.screens import screen_for
from tui.screens.dialogs import ChoiceScreen
from tui.session import ConnectionLost, ServerError, Session
from tui.settings import forget_seat, recall_seat

if TYPE_CHECKING:
    from tui.app import HiddenHandApp

DEFAULT_PORT = 4455


class JoinScreen(Screen[None]):
    """Find a host and sit at one of its tables."""

    if TYPE_CHECKING:  # typed only: a screen never imports the app (no import circle)
        app = getters.app(HiddenHandApp)

    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        # (priority: in the address field its own ^a went to the start of the line, and
        # what was typed then went in front of the old address)
        Binding("ctrl+a", "focus_address", "Type an address", priority=True),
    ]

    class HostsChanged(Message):
        """Discovery saw a host appear, change or vanish."""

        def __init__(self, hosts: dict[str, HostInfo]) -> None:
            super().__init__()
            self.hosts = hosts

    class DiscoveryFailed(Message):
        """LAN discovery could not run (no multicast here, say)."""

        def __init__(self, reason: str) -> None:
            super().__init__()
            self.reason = reason

    class IdleWarned(Message):
        """The host closes our connection, at no table yet, in ``closes_in`` seconds."""

        def __init__(self, idle: float, closes_in: float) -> None:
            super().__init__()
            self.idle = idle
            self.closes_in = closes_in

    class IdleClosed(Message):
        """The host closed our connection: it was at no table for too long."""

    def __init__(self, box: tuple[str, int] | None = None) -> None:
        super().__init__()
        self.hosts: dict[str, HostInfo] = {}
        #: On an SSH box: its host's address; no LAN discovery then.
        self.box = box
        #: The table chooser open while we are connected at no table, if it is.
        self._asking: ChoiceScreen | None = None
        #: The host closed our connection at no table (``net.idle``), after how long.
        self._idle_closed = False
        self._idle_for: float | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        if self.box is not None:
            with Vertical(id="join", classes="form"):
                yield Static("Tables on this box", classes="form-title")
                yield Static("", id="join-error", markup=False)
                with Horizontal(classes="buttons"):
                    yield Button("Look again", id="again", variant="primary")
                    yield Button("Back (esc)", id="back")
            yield Footer()
            return
        with Vertical(id="join", classes="form"):
            yield Static("Games on your network (Enter or click to join)", classes="form-title")
            yield DataTable(id="hosts", cursor_type="row", zebra_stripes=True)
            yield Static("Looking for hosts…", id="discovery-state", markup=False)
            yield Label("Or type the host's address (host:port)")
            with Horizontal(classes="buttons"):
                yield Input(placeholder=f"192.168.1.20:{DEFAULT_PORT}", id="address", compact=True)
                yield Button("Connect", id="connect", variant="primary")
            yield Static("", id="join-error", markup=False, classes="error")
        yield Footer()

    def on_mount(self) -> None:
        """Set the list up and start browsing (on a box: go to its tables at once)."""
        if self.box is not None:
            self.connect(*self.box)
            return
        hosts = self.query_one("#hosts", DataTable)
        hosts.add_columns("host", "address", "tables")
        self.browse()

    @work(exclusive=True, group="browse", exit_on_error=False)
    async def browse(self) -> None:
        """Watch mDNS for hosts for as long as the screen is open."""
        interfaces = self.app.settings.mdns_interfaces or None
        browser = Browser(interfaces=interfaces)
        try:
            await browser.start()
        except (OSError, ValueError) as exc:
            self.post_message(self.DiscoveryFailed(str(exc)))
            return
        try:
            async for _event in browser:
                self.post_message(self.HostsChanged(dict(browser.hosts)))
        finally:
            await browser.close()

    @on(HostsChanged)
    def show_hosts(self, message: HostsChanged) -> None:
        """Redraw the list of hosts."""
        self.hosts = message.hosts
        table = self.query_one("#hosts", DataTable)
        table.clear()
        for key, info in sorted(message.hosts.items(), key=lambda kv: kv[1].name.lower()):
            if not info.compatible:
                tables = Text(f"needs another version of hiddenhand (protocol {info.version})",
                              style="dim")
            elif not info.tables:
                tables = Text("no tables", style="dim")
            else:
                where = f"{info.address}:{info.port}"
                tables = Text(", ").join(describe_listed(t, recall_seat(where, t.id) is not None)
                                         for t in info.tables)
            joinable = info.compatible and any(playable(t.game) for t in info.tables)
            table.add_row(Text(info.name, style="" if joinable else "dim"),
                          Text(f"{info.address}:{info.port}", style="" if joinable else "dim"),
                          tables, key=key)
        state = self.query_one("#discovery-state", Static)
        count = len(message.hosts)
        state.update(f"{count} host{'s' if count != 1 else ''} found; still looking…")

    @on(DiscoveryFailed)
    def discovery_failed(self, message: DiscoveryFailed) -> None:
        """Say why the list stays empty."""
        self.query_one("#discovery-state", Static).update(
            f"LAN discovery is not available here ({message.reason}); type an address below."
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No address to type on a box."""
        return not (action == "focus_address" and self.box is not None)

    def action_focus_address(self) -> None:
        """Jump to the address field, its text selected: what is typed replaces it."""
        address = self.query_one("#address", Input)
        address.focus()
        address.select_all()

    @on(Button.Pressed, "#again")
    def look_again(self) -> None:
        """(Box) list the box's tables again."""
        if self.box is not None:
            self.connect(*self.box)

    @on(Button.Pressed, "#back")
    def back(self) -> None:
        """(Box) back to the menu."""
        self.app.pop_screen()

    @on(DataTable.RowSelected, "#hosts")
    def host_chosen(self, event: DataTable.RowSelected) -> None:
        """Join the host picked in the list."""
        info = self.hosts.get(str(event.row_key.value))
        if info is None:
            return
        if not info.compatible:
            self._error(
                f"{info.name} runs another version of hiddenhand "
                f"(protocol {info.version}); it cannot be joined from this one."
            )
            return
        if info.tables and not any(playable(t.game) for t in info.tables):
            games = sorted({game_name(t.game) for t in info.tables})
            self._error(f"{info.name} only has tables of {', '.join(games)}, which this app "
                        "cannot play yet.")
            return
        self.connect(info.address, info.port)

    @on(Button.Pressed, "#connect")
    @on(Input.Submitted, "#address")
    def address_entered(self) -> None:
        """Join the host typed by hand."""
        text = self.query_one("#address", Input).value
        try:
            host, port = parse_address(text, DEFAULT_PORT)
        except ValueError as exc:
            self._error(str(exc))
            return
        self.connect(host, port)

    def _error(self, text: str) -> None:
        self.query_one("#join-error", Static).update(text)

    def _heard(self, msg: dict[str, Any]) -> None:
        """What the host pushes while we are connected at no table (a client listener):
        its warning that it will close the connection, and the close."""
        if msg.get("code") != errors.IDLE:
            return
        if msg.get("type") == "warning":
            idle, left = _seconds(msg.get("idle_for")), _seconds(msg.get("closes_in"))
            self._idle_for = idle + left
            self.post_message(self.IdleWarned(idle, left))
        elif msg.get("type") == "error":
            self._idle_closed = True  # (before the stream ends: a join then says why)
            self.post_message(self.IdleClosed())

    @on(IdleWarned)
    def idle_warned(self, message: IdleWarned) -> None:
        """Say how long the connection has left, and how to keep it."""
        who = "this box" if self.box is not None else "the host"
        how_long = f" for {in_words(message.idle)}" if message.idle > 0 else ""
        self.app.notify(
            f"You have been on this list{how_long} without joining a table: {who} closes "
            f"the connection in {in_words(message.closes_in)}. Pick a table to stay.",
            title="Still there?", severity="warning", timeout=max(message.closes_in, 1.0),
            markup=False)

    @on(IdleClosed)
    def idle_closed(self) -> None:
        """The table chooser goes (its list is of a connection that is gone); the
        screen says why (:meth:`_idle_words`)."""
        self.app.clear_notifications()  # (the warning's countdown is over)
        if self._asking is not None and self.app.screen is self._asking:
            self._asking.dismiss(None)

    def _idle_words(self, where: str) -> str:
        """Why the connection is gone, and how to come back."""
        after = f" after {in_words(self._idle_for)}" if self._idle_for else ""
        again = ("Look again to see its tables." if self.box is not None
                 else "Connect again to see its tables.")
        return (f"{where[0].upper()}{where[1:]} closed the connection{after} without a "
                f"table joined. {again}")

    @work(exclusive=True, group="connect", exit_on_error=False)
    async def connect(self, host: str, port: int) -> None:
        """Connect, pick a table and sit down.

        On a box its host is only reached from inside (127.0.0.1 and a port of its own):
        the player is told of "this box", never of that address."""
        where = "this box" if self.box is not None else show_address(host, port)
        self._error(f"Connecting to {where}…")
        self._idle_closed, self._idle_for = False, None
        session = Session(self.app.settings.name, address=(host, port))
        try:
            client = await session.connect()
            client.listeners.append(self._heard)
            listed = await client.list_tables()
        except ServerError as exc:
            self._error(f"{where[0].upper()}{where[1:]} refused: {exc.message}")
            await session.close()
            return
        except NotAHost as exc:
            self._error(describe_not_a_host(where, exc))
            await session.close()
            return
        except (OSError, ConnectionLost, TimeoutError) as exc:
            self._error(f"Could not reach {where}: {describe_connect_error(exc)}")
            await session.close()
            return
        tables = [t for t in listed if playable(t.get("game"))]
        if not tables:
            if self.box and not listed:
                self._error("No table is open on this box yet: open one from the menu (h).")
            else:
                others = sorted({game_name(t.get("game")) for t in listed})
                self._error(f"{where[0].upper()}{where[1:]} has no table this app can play yet"
                            + (f" (only {', '.join(others)})." if others else " (no tables)."))
            await session.close()
            return
        table_id = tables[0]["id"]
        if len(tables) > 1:
            choices = [(t["id"], describe_table(
                t, recall_seat(session.where, t["id"]) is not None)) for t in tables]
            self._asking = ChoiceScreen("Which table?", choices)
            try:
                picked = await self.app.push_screen_wait(self._asking)
            finally:
                self._asking = None
            if picked is None:
                await session.close()
                self._error(self._idle_words(where) if self._idle_closed else "")
                return
            table_id = picked
            if self._idle_for is not None and not self._idle_closed:
                self.app.clear_notifications()  # picked in time: the warning is void
        try:
            await self._sit(session, table_id, where)
        finally:
            with contextlib.suppress(ValueError):
                client.listeners.remove(self._heard)

    async def _sit(self, session: Session, table_id: str, where: str) -> None:
        kept = recall_seat(session.where, table_id)
        try:
            if kept is not None:
                try:
                    await session.join(table_id, kept[0], token=kept[1])
                except ServerError:
                    forget_seat(session.where, table_id)  # the host forgot it: sit anew
                    kept = None
                else:
                    self.app.notify("Welcome back: you have your seat again.")
            if kept is None:
                await self._new_seat(session, table_id)
        except ServerError as exc:
            self._error(f"Could not join: {exc.message}")
            await session.close()
            return
        except (OSError, ConnectionLost) as exc:
            self._error(self._idle_words(where) if self._idle_closed else (
                "Connection lost while joining: " + (
                    describe_connect_error(exc) if self.box is not None else str(exc))))
            return
        if session.joined is None:
            await session.close()
            self._error(self._idle_words(where) if self._idle_closed else "")
            return
        msg = await session.next()
        while msg.get("type") != "update":
            msg = await session.next()
        self.app.attach(session)
        self.app.switch_screen(screen_for(session))


    async def _new_seat(self, session: Session, table_id: str) -> None:
        """Take a free seat, or offer to watch when there is none."""
        try:
            await session.join(table_id)
        except ServerError as exc:
            if exc.code not in (errors.TABLE_FULL, errors.WRONG_PHASE):
                raise
            self._asking = ChoiceScreen(
                f"No seat for you there ({exc.message}). Watch the game instead?",
                [("yes", "Watch as a spectator"), ("no", "Back")],
            )
            try:
                watch = await self.app.push_screen_wait(self._asking)
            finally:
                self._asking = None
            if watch != "yes":
                return  # not seated: the caller closes the connection
            await session.join(table_id, spectate=True)


def _seconds(value: Any) -> float:
    """A number of seconds the host sent (anything else: none)."""
    ok = (isinstance(value, int | float) and not isinstance(value, bool)
          and math.isfinite(value) and value >= 0)
    return float(value) if ok else 0.0


def game_name(game_id: Any) -> str:
    """A game's name for people ("Get It!"), or its id if this app does not know it."""
    spec = engine.GAMES.get(game_id) if isinstance(game_id, str) else None
    return spec.name if spec is not None else str(game_id)


def describe_listed(table: TableInfo, kept: bool = False) -> Text:
    """A table in the list of hosts: dimmed, and said so, if this app cannot play it;
    ``kept``: we hold a seat there (a full table is still ours to go back to)."""
    free = "your seat is kept" if kept else f"{table.free} free"
    text = f"{table.name} ({game_name(table.game)}, {free}, {table.phase})"
    if playable(table.game):
        return Text(text)
    return Text(f"{text} — not playable in this app yet", style="dim")


def describe_table(table: dict[str, Any], kept: bool = False) -> str:
    """A table in a few words, for the table chooser (``kept``: we hold a seat there)."""
    free = ("your seat is kept" if kept else f"{table['free']} of {table['seats']} seats free")
    return f"{table['name']} — {game_name(table['game'])}, {free} ({table['phase']})"


def describe_not_a_host(where: str, exc: NotAHost) -> str:
    """The connection to ``where`` was made but no hiddenhand host is there, in plain words."""
    if exc.answered:
        return (f"{where} answered, but it is not a hiddenhand host; is the port the one "
                "the host shows?")
    return (f"Connected to {where}, but it never answered as a hiddenhand host; is the port "
            "the one the host shows? (A host that is very busy may answer later.)")


def describe_connect_error(exc: BaseException) -> str:
    """Why a connection failed, in plain words (never the OS's raw message)."""
    if isinstance(exc, NotAHost):
        if exc.answered:
            return "it answered, but it is not a hiddenhand host"
        return "the connection was made, but it never answered as a hiddenhand host"
    if isinstance(exc, socket.gaierror):
        return ("no computer by that name was found; check the spelling, or type its IP "
                "address (like 192.168.1.20)")
    if isinstance(exc, ConnectionRefusedError):
        return ("nothing is listening there; is a game hosted on that computer, and is the "
                "port the one the host shows?")
    # The client says "no answer from … within N s" when the TCP connect times out.
    if isinstance(exc, TimeoutError) or (isinstance(exc, ConnectionLost)
                                         and "no answer" in str(exc)):
        return ("no answer in time; is that computer on this network and switched on? "
                "A firewall may be blocking the port")
    if isinstance(exc, ConnectionResetError | ConnectionAbortedError | ConnectionLost):
        return "the connection was closed at once; is that a hiddenhand host?"
    if isinstance(exc, OSError) and exc.errno in (errno.ENETUNREACH, errno.EHOSTUNREACH,
                                                  errno.EADDRNOTAVAIL, errno.ENETDOWN):
        return "that address cannot be reached from this computer (is it on this network?)"
    if isinstance(exc, OSError) and "Multiple exceptions" in str(exc):
        return ("nothing answered at any of that name's addresses; is a game hosted there, "
                "and is the port right?")
    return "the connection failed; check the address and that the game is hosted there"

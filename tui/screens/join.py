"""Join a game: hosts found on the LAN appear live; any host:port can be typed by hand.

Picking a host connects, lists its tables and sits at one (asking which when there
are several). On an SSH box (``box``) there is no LAN to look at: the screen goes
straight to the box's tables. Tables of a game this app has no table screen for are
listed as such, and a host that has only those is not joined. Every failure —
unreachable, wrong version, table full — is said in plain words on the screen
(:func:`describe_connect_error`).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events, getters, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, DataTable, Input, Label, Static

from net.address import parse_address, show_address
from net.client import NotAHost
from net.discovery import Browser, HostInfo
from net.limits import in_words
from net.wire import errors
from tui.games import playable
from tui.games.screens import screen_for
from tui.screens.dialogs import ChoiceScreen
from tui.screens.join_words import (
    describe_connect_error,
    describe_listed,
    describe_not_a_host,
    describe_table,
    game_name,
    played_elsewhere,
    seconds,
)
from tui.screens.styled import StyledOnce
from tui.session import FINAL_CODES, ConnectionLost, ServerError, Session
from tui.settings import MAX_ADDRESS, forget_seat, kept_at, recall_seat
from tui.widgets.footer import TableFooter
from tui.widgets.row_table import RowTable
from tui.widgets.text_line import TextLine
from tui.widgets.titlebar import TitleBar

if TYPE_CHECKING:
    from tui.app import HiddenHandApp

DEFAULT_PORT = 4455
LOOKING = "Looking for hosts…"
#: Seconds with no host seen before the screen says none was found yet.
NONE_FOUND_AFTER = 3.0
#: Seconds a host may take after giving a seat to send the table.
FIRST_UPDATE = 15.0
#: What an address is typed with: a key of these, typed with the list in focus, starts
#: one in the address field (letters for a host's name, ``[`` for an IPv6 address).
ADDRESS_CHARS = re.compile(r"[0-9A-Za-z.:\[\]-]")


class JoinScreen(StyledOnce, Screen[None]):
    """Find a host and sit at one of its tables."""

    if TYPE_CHECKING:  # typed only: a screen never imports the app (no import circle)
        app = getters.app(HiddenHandApp)

    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        # (priority: in the address field its own ^a went to the start of the line, and
        # what was typed then went in front of the old address)
        Binding("ctrl+a", "focus_address", "Type an address", priority=True),
        # (Textual keeps Tab out of the footer: a fresh-eyed player never found it.)
        Binding("tab", "app.focus_next", "Next field"),
        # (Box) the list again by a key: a player pressed j again, and nothing happened.
        Binding("r", "look_again", "Look again"),
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

    def __init__(self, box: tuple[str, int] | None = None, *,
                 back_to_seat: bool = False, at: tuple[str, int] | None = None) -> None:
        super().__init__()
        self.hosts: dict[str, HostInfo] = {}
        #: On an SSH box: its host's address; no LAN discovery then.
        self.box = box
        #: Opened as "Back to your seat": the one table where our seat is kept is taken
        #: at once (a chooser of that one table cost a phone player a tap for nothing).
        self.back_to_seat = back_to_seat
        #: The LAN host that keeps our seat (the menu found it): connected to at once.
        self.at = at
        #: The table chooser open while we are connected at no table, if it is.
        self._asking: ChoiceScreen | None = None
        #: The host closed our connection at no table (``net.idle``), after how long.
        self._idle_closed = False
        self._idle_for: float | None = None
        #: A key typed with the list in focus moved the focus to the address field.
        self._typed_in = False

    def compose(self) -> ComposeResult:
        yield TitleBar()
        if self.box is not None:
            with Vertical(id="join", classes="form"):
                yield Static("Tables on this box", classes="form-title")
                yield Static("", id="join-error", markup=False)
                with Horizontal(classes="buttons"):
                    yield Button("Look again (r)", id="again", variant="primary")
                    yield Button("Back (esc)", id="back")
            yield TableFooter()
            return
        with Vertical(id="join", classes="form"):
            yield Static("Games on your network (Enter or click to join)", classes="form-title")
            yield RowTable(id="hosts", cursor_type="row", zebra_stripes=True)
            yield Static(LOOKING, id="discovery-state", markup=False)
            yield Label("Or type the host's address (host:port)")
            with Horizontal(classes="buttons"):
                # (Selected as it takes the focus by ``address_focused``, not by itself.)
                yield TextLine(self.app.settings.last_address or "",
                            placeholder=f"192.168.1.20:{DEFAULT_PORT}", id="address",
                            compact=True, select_on_focus=False)
                yield Button("Connect", id="connect", variant="primary")
            yield Static("", id="join-error", markup=False, classes="error")
        yield TableFooter()

    def on_mount(self) -> None:
        """Set the list up and start browsing (on a box: go to its tables at once)."""
        if self.box is not None:
            self.connect(*self.box)
            return
        self.query_one("#hosts", DataTable).add_columns("host", "address", "tables")
        self.browse()
        if self.at is not None:
            self.connect(*self.at)
        self.set_timer(NONE_FOUND_AFTER, self._none_found_yet)

    def _none_found_yet(self) -> None:
        """Still no host: say so, and where to go instead (not "Looking for hosts…")."""
        state = self.query_one("#discovery-state", Static)
        if not self.hosts and str(state.render()) == LOOKING:
            state.update("No hosts found on your network yet (still looking): type the "
                         "host's address below (^a).")

    def on_key(self, event: events.Key) -> None:
        """Typing an address anywhere on the screen types it into the address field: a
        player typed 127.0.0.1:9555 with the list in focus, and nothing happened."""
        if self.box is not None or isinstance(self.focused, Input) \
                or not event.is_printable or not event.character \
                or not ADDRESS_CHARS.fullmatch(event.character):
            return
        address = self.query_one("#address", Input)
        if self._typed_in:
            # Keys typed faster than the focus moves (a paste, a quick typist) still
            # reach the screen: they follow the first.
            address.insert_text_at_cursor(event.character)
        else:
            self._typed_in = True
            address.focus()
            address.value = event.character  # (a new address: what the field held goes)
            address.cursor_position = 1
        event.stop()
        event.prevent_default()

    @on(events.DescendantFocus, "#address")
    def address_focused(self) -> None:
        """The address field takes the focus with what it holds selected (what is typed
        replaces it), but for the key that brought it there, already in it."""
        if self._typed_in:
            self._typed_in = False
        else:
            self.query_one("#address", Input).select_all()

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
                tables = Text(", ").join(describe_listed(t, kept_at(where, t.id, t.uid))
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
        """No address to type on a box; no box's list to look at again elsewhere."""
        if action == "look_again":
            return self.box is not None
        return not (action == "focus_address" and self.box is not None)

    def action_focus_address(self) -> None:
        """Jump to the address field, its text selected: what is typed replaces it."""
        address = self.query_one("#address", Input)
        address.focus()
        address.select_all()

    @on(Button.Pressed, "#again")
    def action_look_again(self) -> None:
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
        self.connect(host, port, typed=text.strip())

    def _error(self, text: str) -> None:
        self.query_one("#join-error", Static).update(text)

    def _heard(self, msg: dict[str, Any]) -> None:
        """What the host pushes while we are connected at no table (a client listener):
        its warning that it will close the connection, and the close."""
        if msg.get("code") != errors.IDLE:
            return
        if msg.get("type") == "warning":
            idle, left = seconds(msg.get("idle_for")), seconds(msg.get("closes_in"))
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
        """The table chooser goes (its connection is gone); the screen says why."""
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
    async def connect(self, host: str, port: int, typed: str | None = None) -> None:
        """Connect, pick a table and sit down; an address ``typed`` by hand that reached
        a host is kept for next time. (A box's host, reached from inside, is "this box".)"""
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
            self._error(f"Your seat was kept at {where}, which no longer answers: its host "
                        "has stopped (if it comes back, Join takes you to your seat)."
                        if (host, port) == self.at else
                        f"Could not reach {where}: {describe_connect_error(exc)}")
            await session.close()
            return
        if typed:
            self._keep_address(typed)
        tables = [t for t in listed if playable(t.get("game"))]
        # (Its offer stayed on the menu after the table closed, unsaid: a box pass.)
        lost = "The table that kept your seat has closed"
        if not tables:
            if self.box and not listed:
                self._error(f"{lost}; no table is open on this box now: open one from the menu "
                            "(h)." if self.back_to_seat else
                            "No table is open on this box yet: open one from the menu (h).")
            else:
                others = sorted({game_name(t.get("game")) for t in listed})
                self._error(f"{where[0].upper()}{where[1:]} has no table this app can play yet"
                            + (f" (only {', '.join(others)})." if others else " (no tables)."))
            await session.close()
            return
        table_id = tables[0]["id"]
        ours = [t["id"] for t in tables if self.back_to_seat and kept_at(
            session.where, t["id"], str(t.get("uid") or "")) and not played_elsewhere(
            session.where, t)]
        gone = self.back_to_seat and not any(
            kept_at(session.where, t["id"], str(t.get("uid") or "")) for t in tables)
        # A LAN host is one table, the one the player came for; a box's tables are
        # strangers' too: the player sees what the table is before sitting at it.
        if len(ours) == 1:
            table_id = ours[0]
        elif len(tables) > 1 or self.box is not None or gone:
            tables.sort(key=lambda t: (  # (first came a seat kept at a game over: a box pass)
                not kept_at(session.where, t["id"], str(t.get("uid") or "")),
                t.get("phase") == "over"))
            choices = [(t["id"], describe_table(
                t, kept := kept_at(session.where, t["id"], str(t.get("uid") or "")),
                elsewhere=kept and played_elsewhere(session.where, t))) for t in tables]
            self._error(f"{lost}: choose another table (Esc: none)." if gone
                        else f"Connected to {where}: choose a table.")  # (not "Connecting…")
            self._asking = ChoiceScreen("Which table?", choices, wide=True)
            try:
                picked = await self.app.push_screen_wait(self._asking)
            finally:
                self._asking = None
            if picked is None:
                await session.close()
                self._error(self._idle_words(where) if self._idle_closed
                            else self._not_joined())
                return
            table_id = picked
            if self._idle_for is not None and not self._idle_closed:
                self.app.clear_notifications()  # picked in time: the warning is void
        try:
            await self._sit(session, table_id, where)
        finally:
            with contextlib.suppress(ValueError):
                client.listeners.remove(self._heard)

    def _not_joined(self) -> str:
        """What the screen says when the player chose no table (on a box it was empty)."""
        if self.box is None:
            return ""
        return ("You joined no table. Look again to see this box's tables, or go back "
                "(Esc) and open one of your own (h).")

    def _keep_address(self, typed: str) -> None:
        if self.app.settings.last_address != typed and len(typed) <= MAX_ADDRESS:
            self.app.keep_settings("the address", last_address=typed)

    async def _sit(self, session: Session, table_id: str, where: str) -> None:
        kept = recall_seat(session.where, table_id)
        try:
            if kept is not None:
                try:
                    await session.join(table_id, kept[0], token=kept[1])
                except ServerError as exc:
                    forget_seat(session.where, table_id)  # the host forgot it: sit anew,
                    if exc.code == errors.KICKED:  # unless the creator removed us
                        raise
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
            self._error(self._idle_words(where) if self._idle_closed else self._not_joined())
            return
        try:  # (the table comes in the first update after the seat)
            async with asyncio.timeout(FIRST_UPDATE):
                while (msg := await session.next()).get("type") != "update":
                    if msg.get("type") == "error" and msg.get("code") in FINAL_CODES:
                        raise ConnectionLost(str(msg.get("message")))
        except (TimeoutError, ConnectionLost) as exc:
            # (It stayed on "Connecting…": a host that sent what this app cannot read, or
            # nothing after the seat.)
            await session.close()
            self._error(f"Could not join: {exc}" if isinstance(exc, ConnectionLost) else
                        "Could not join: the host gave a seat but never showed the table.")
            return
        self.app.attach(session)
        self.app.switch_screen(screen_for(session))

    async def _new_seat(self, session: Session, table_id: str) -> None:
        """Take a free seat, or offer to watch when there is none."""
        try:
            await session.join(table_id)
        except ServerError as exc:
            if exc.code not in (errors.TABLE_FULL, errors.WRONG_PHASE):
                raise
            # (In a bracket after the question: a watcher who never played read it as so.)
            started = exc.code == errors.WRONG_PHASE
            kept = (" (Played there from another browser or terminal? Your seat is kept "
                    "for that one: come back from it.)" if started else "")
            self._asking = ChoiceScreen(
                f"No seat for you there: {'its game has started' if started else exc.message}"
                f". Watch the game instead?{kept}",
                [("yes", "Watch as a spectator"), ("no", "Back")],
            )
            try:
                watch = await self.app.push_screen_wait(self._asking)
            finally:
                self._asking = None
            if watch != "yes":
                return  # not seated: the caller closes the connection
            await session.join(table_id, spectate=True)


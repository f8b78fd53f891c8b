"""Join a game: hosts found on the LAN appear live; any host:port can be typed by hand.

Picking a host connects, lists its tables and sits at one (asking which when there
are several). On an SSH box (``box``) there is no LAN to look at: the screen goes
straight to the box's tables. Every failure — unreachable, wrong version, table full — is said in
plain words on the screen.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import getters, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, DataTable, Footer, Header, Input, Label, Static

import engine
from net.client import parse_address
from net.discovery import Browser, HostInfo
from tui.app import HiddenHandApp
from tui.games import playable, table_screen
from tui.screens.dialogs import ChoiceScreen
from tui.session import ConnectionLost, ServerError, Session
from tui.settings import forget_seat, recall_seat

DEFAULT_PORT = 4455


class JoinScreen(Screen[None]):
    """Find a host and sit at one of its tables."""

    app = getters.app(HiddenHandApp)

    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("ctrl+a", "focus_address", "Type an address"),
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

    def __init__(self, box: tuple[str, int] | None = None) -> None:
        super().__init__()
        self.hosts: dict[str, HostInfo] = {}
        #: On an SSH box: its host's address; no LAN discovery then.
        self.box = box

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
            tables = (
                ", ".join(
                    f"{t.name} ({engine.GAMES[t.game].name if t.game in engine.GAMES else t.game}, "
                    f"{t.free} free, {t.phase})"
                    for t in info.tables
                )
                or "no tables"
            )
            if not info.compatible:
                tables = f"needs another version of hiddenhand (protocol {info.version})"
            table.add_row(Text(info.name), f"{info.address}:{info.port}", Text(tables), key=key)
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
        """Jump to the address field."""
        self.query_one("#address", Input).focus()

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

    @work(exclusive=True, group="connect", exit_on_error=False)
    async def connect(self, host: str, port: int) -> None:
        """Connect, pick a table and sit down."""
        self._error(f"Connecting to {host}:{port}…")
        session = Session(self.app.settings.name, address=(host, port))
        try:
            client = await session.connect()
            tables = [t for t in await client.list_tables() if playable(t["game"])]
        except ServerError as exc:
            self._error(f"{host}:{port} refused: {exc.message}")
            await session.close()
            return
        except (OSError, ConnectionLost, TimeoutError) as exc:
            reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
            self._error(f"Could not reach {host}:{port}: {reason}")
            await session.close()
            return
        if not tables:
            self._error("No table is open on this box yet: open one from the menu (h)."
                        if self.box else f"{host}:{port} has no table this app can play yet.")
            await session.close()
            return
        table_id = tables[0]["id"]
        if len(tables) > 1:
            choices = [(t["id"], describe_table(t)) for t in tables]
            picked = await self.app.push_screen_wait(ChoiceScreen("Which table?", choices))
            if picked is None:
                await session.close()
                self._error("")
                return
            table_id = picked
        await self._sit(session, table_id)

    async def _sit(self, session: Session, table_id: str) -> None:
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
            self._error(f"Connection lost while joining: {exc}")
            return
        if session.joined is None:
            await session.close()
            self._error("")
            return
        msg = await session.next()
        while msg.get("type") != "update":
            msg = await session.next()
        self.app.attach(session)
        if msg["table"]["phase"] == "lobby":
            from tui.screens.lobby import LobbyScreen

            self.app.switch_screen(LobbyScreen(session))
        else:
            self.app.switch_screen(table_screen(session))


    async def _new_seat(self, session: Session, table_id: str) -> None:
        """Take a free seat, or offer to watch when there is none."""
        try:
            await session.join(table_id)
        except ServerError as exc:
            if exc.code not in ("table_full", "wrong_phase"):
                raise
            watch = await self.app.push_screen_wait(ChoiceScreen(
                f"No seat for you there ({exc.message}). Watch the game instead?",
                [("yes", "Watch as a spectator"), ("no", "Back")],
            ))
            if watch != "yes":
                return  # not seated: the caller closes the connection
            await session.join(table_id, spectate=True)


def describe_table(table: dict[str, Any]) -> str:
    """A table in a few words, for the table chooser."""
    game = engine.GAMES[table["game"]].name if table["game"] in engine.GAMES else table["game"]
    free = f"{table['free']} of {table['seats']} seats free"
    return f"{table['name']} — {game}, {free} ({table['phase']})"

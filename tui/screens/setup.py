"""The form before a game: which game, how many seats, bots, options — solo or hosted.

Solo play runs a host inside the app with no network at all, fills every other seat
with a bot and deals at once. Hosting listens on a TCP port (announced on the LAN by
mDNS) and opens the lobby, where friends join and the creator starts the game. On an
SSH box the table opens on the box's host instead, where the other logins find it.
"""

from __future__ import annotations

import errno
from typing import TYPE_CHECKING, Any

from textual import getters, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Input, Label, Select, Static, Switch

import engine
from net.wire.schemas import TABLE_NAME_LEN
from tui.games import TABLES, preset_options, table_options
from tui.games.screens import table_screen
from tui.screens.styled import StyledOnce
from tui.session import ConnectionLost, ServerError, Session
from tui.widgets.footer import TableFooter
from tui.widgets.limited_input import LimitedInput
from tui.widgets.options_form import OptionsForms
from tui.widgets.text_line import TextLine
from tui.widgets.titlebar import TitleBar

if TYPE_CHECKING:
    from tui.app import HiddenHandApp

DEFAULT_PORT = 4455


class SetupScreen(StyledOnce, Screen[None]):
    """Choose a game and its table; ``mode`` is ``"solo"``, ``"host"`` (a LAN game run by
    this app) or ``"box"`` (a table on the SSH box's host)."""

    if TYPE_CHECKING:  # typed only: a screen never imports the app (no import circle)
        app = getters.app(HiddenHandApp)

    #: None: ``on_mount`` focuses the first field. Textual's default would focus the
    #: form's scrolling column first, then lose it to the field, restyling the whole form
    #: (a hundred widgets) at each change before the first frame; and focused as the
    #: screen is pushed (``AUTO_FOCUS = "#game"``), the field scrolls into a view not yet
    #: laid out, and a phone's form opened scrolled past its title.
    AUTO_FOCUS = ""

    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("ctrl+s", "start", "Start"),
        # (Textual keeps Tab out of the footer: a fresh-eyed player never found it.)
        Binding("tab", "app.focus_next", "Next field"),
    ]

    def __init__(self, mode: str) -> None:
        super().__init__()
        self.mode = mode
        self.game_id = next(iter(TABLES))
        #: The seat count and options the form starts with: the table opened last time
        #: (kept in the settings), when the engine still takes them.
        self.start_seats: int | None = None
        self.start_options: dict[str, Any] = preset_options(self.game_id,
                                                            hosted=mode != "solo")
        self._start_from(self.app.settings.last_table)

    def _start_from(self, last: dict[str, Any] | None) -> None:
        kept = kept_table(last)
        if kept is not None:
            self.game_id, self.start_seats, self.start_options = kept

    def _seats_at_start(self) -> int:
        spec = engine.GAMES[self.game_id]
        return self.start_seats if self.start_seats is not None else min(4, spec.max_seats)

    def compose(self) -> ComposeResult:
        yield TitleBar()
        # (Not a stop of its own for Tab: every field is one and is scrolled to, and a
        # focused container shows nothing on a monochrome terminal.)
        with VerticalScroll(id="setup", classes="form", can_focus=False):
            title = {"solo": "Play solo against bots", "box": "Open a table on this box"}.get(
                self.mode, "Host a LAN game")
            yield Static(title, classes="form-title")
            yield Label("Game")
            yield Select(
                [(engine.GAMES[g].name, g) for g in TABLES],
                value=self.game_id,
                allow_blank=False,
                id="game",
                compact=True,
            )
            yield Label("Seats (you and the others)")
            yield Select(
                self._seat_choices(),
                value=self._seats_at_start(),
                allow_blank=False,
                id="seats",
                compact=True,
            )
            if self.mode in ("host", "box"):
                where = "the LAN" if self.mode == "host" else "this box"
                yield Label(f"Bots (the other seats wait for players from {where})")
                yield Select(
                    self._bot_choices(self._seats_at_start()),
                    value=0,
                    allow_blank=False,
                    id="bots",
                    compact=True,
                )
                yield Label("Table name")
                name = self.app.settings.name
                yield LimitedInput(f"{name}'s table", limit=TABLE_NAME_LEN, what="Table name",
                                   id="table-name", compact=True)
            if self.mode == "host":
                yield Label("TCP port")
                yield TextLine(str(DEFAULT_PORT), id="port", type="integer", compact=True)
            yield Static("Options", classes="form-title")
            yield OptionsForms(list(TABLES), self.game_id, self._seats_at_start(),
                               self.start_options, id="options", hosted=self.mode != "solo")
            yield Static("", id="setup-error", markup=False, classes="error")
            with Horizontal(classes="buttons"):
                # ("^s" as the footer says it: "(ctrl+s)" cut "Back (esc)" on a phone.)
                yield Button(f"{self.start_words()} (^s)", id="start", variant="primary")
                yield Button("Back (esc)", id="back")
        yield TableFooter()

    def start_words(self) -> str:
        """What ctrl+s does: a solo game starts; a hosted table opens its lobby, where
        friends sit down and its own Start deals (the form said Start for both)."""
        return "Start" if self.mode == "solo" else "Open the table"

    def key_description(self, binding: Binding) -> str | None:
        """The footer words ctrl+s as its button does."""
        return self.start_words() if binding.action == "start" else None

    @staticmethod
    def _bot_choices(seats: int) -> list[tuple[str, int]]:
        """0 up to one less than the seats: a seat stays ours."""
        return [(str(n), n) for n in range(seats)]

    def _seat_choices(self) -> list[tuple[str, int]]:
        spec = engine.GAMES[self.game_id]
        return [(str(n), n) for n in range(spec.min_seats, spec.max_seats + 1)]

    def on_mount(self) -> None:
        """Start at the top of the form (ctrl+s starts from anywhere)."""
        self.query_one("#game", Select).focus()

    @on(Select.Changed, "#game")
    def game_changed(self, event: Select.Changed) -> None:
        """Another game: other seat counts and other options."""
        if event.value == self.game_id or not isinstance(event.value, str):
            return
        self.game_id = event.value
        spec = engine.GAMES[self.game_id]
        # As this game's table was last opened, if it was (its options came back as
        # their defaults after a game of another).
        kept = kept_table({"game": self.game_id,
                           **(self.app.settings.tables.get(self.game_id) or {})})
        seats = self.query_one("#seats", Select)
        # Else the seats chosen, if this game takes them (3 people set up, another game
        # chosen, and the table opened for 4: the list had closed over the change).
        now = seats.value if isinstance(seats.value, int) else None
        seats.set_options(self._seat_choices())
        seats.value = kept[1] if kept is not None else (
            now if now is not None and spec.min_seats <= now <= spec.max_seats
            else min(4, spec.max_seats))
        self._show_options(kept[2] if kept is not None else None)

    @on(Select.Changed, "#seats")
    def seats_changed(self) -> None:
        """Seat options, and how many bots fit, depend on the seat count."""
        seats_value = self.query_one("#seats", Select).value
        seats = int(seats_value) if isinstance(seats_value, int) else 2
        for bots in self.query("#bots").results(Select):
            kept = bots.value if isinstance(bots.value, int) else 0
            bots.set_options(self._bot_choices(seats))
            bots.value = min(kept, seats - 1)
        self._show_options()

    @on(Input.Changed)
    @on(Select.Changed)
    @on(Switch.Changed)
    def form_edited(self) -> None:
        """What was wrong with the form as it was is gone once it changes (another
        game, other seats, a field edited): an old error would speak of options no
        longer on the screen. (A change event that arrives late, of a value as it
        was when the error was shown, is no change.)"""
        if self._failed_with is not None and self._form_values() != self._failed_with:
            self._failed_with = None
            self.query_one("#setup-error", Static).update("")

    #: The form's values when its error was shown (``None``: no error shown).
    _failed_with: dict[int, object] | None = None

    def _form_values(self) -> dict[int, object]:
        return {id(w): w.value for w in self.query(Input)} | {
            id(w): w.value for w in self.query(Select)} | {
            id(w): w.value for w in self.query(Switch)}

    def fail(self, text: str) -> None:
        """Say what stops the table from opening, where the player looks: the form
        scrolls to it (it sits below the options, often out of sight)."""
        error = self.query_one("#setup-error", Static)
        error.update(text)
        self._failed_with = self._form_values()
        # Once the error's new height is laid out (before, its place is not known).
        self.call_after_refresh(error.scroll_visible, animate=False)

    def _show_options(self, start: dict[str, Any] | None = None) -> None:
        """The options form for the game and seat count chosen now, keeping what was
        entered for the same game (a seat count changed); another game's from ``start``
        (as it was last opened) or its presets."""
        forms = self.query_one(OptionsForms)
        old = forms.current
        seats = self.query_one("#seats", Select).value
        kept = old.values() if old.game_id == self.game_id else start or preset_options(
            self.game_id, hosted=self.mode != "solo")
        if old.game_id != self.game_id and start is None and "away_bot" in kept:
            # (Every game has it, alike: set to 30s, then another game chosen, it was 2m.)
            kept = {**kept, "away_bot": old.values().get("away_bot", kept["away_bot"])}
        forms.show(self.game_id, int(seats) if isinstance(seats, int) else 2, kept)

    @on(Button.Pressed, "#back")
    def back(self) -> None:
        """Back to the menu."""
        self.app.pop_screen()

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        """Check the form and open the table (once: a second ^s while it opens waits)."""
        if any(w.group == "open" and w.is_running for w in self.workers):
            self.notify("Opening the table…", timeout=2)
            return
        seats_value = self.query_one("#seats", Select).value
        seats = int(seats_value) if isinstance(seats_value, int) else 2
        try:
            options = self.query_one(OptionsForms).current.checked()
        except ValueError as exc:
            said = str(exc)  # ("Options: option 'limit' must be …" said it twice)
            self.fail(said[:1].upper() + said[1:])
            return
        self._remember(seats, options)
        if self.mode == "solo":
            self.open_solo(self.game_id, seats, options)
            return
        bots_value = self.query_one("#bots", Select).value
        bots = int(bots_value) if isinstance(bots_value, int) else 0
        if bots > seats - 1:
            fit = seats - 1
            self.fail(f"At most {fit} bot{'' if fit == 1 else 's'} fit at a table of {seats}.")
            return
        if self.mode == "box":
            name = self.query_one("#table-name", Input).value.strip() or "table"
            self.open_on_box(self.game_id, seats, options, bots, name)
            return
        port_text = self.query_one("#port", Input).value.strip()
        if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
            self.fail(f"The port must be a number from 1 to 65535, not {port_text!r}.")
            return
        name = self.query_one("#table-name", Input).value.strip() or "table"
        self.open_hosted(self.game_id, seats, options, bots, int(port_text), name)

    def _remember(self, seats: int, options: dict[str, object]) -> None:
        """Keep this table's game, seats and options for the form's next opening."""
        # (A convenience only: the game opens all the same.)
        self.app.keep_settings(
            "this table's settings",
            last_table={"game": self.game_id, "seats": seats, "options": dict(options)},
            tables={**self.app.settings.tables,
                    self.game_id: {"seats": seats, "options": dict(options)}})

    @work(exclusive=True, group="open", exit_on_error=False)
    async def open_solo(self, game_id: str, seats: int, options: dict[str, object]) -> None:
        """Run a host in the app, seat bots everywhere else, deal, and sit down. On an
        SSH box the box's host deals it: it keeps the game through a closed tab or a
        dropped login (the seat waits, as at any table of the box), through the box's
        restart, and among the box's past games (an app of its own kept none of that)."""
        if self.app.box is not None:
            session = await self._deal_on_box(game_id, seats, options)
            if session is None:
                return
        else:
            try:
                session = await self.app.hosting.deal_solo(game_id, seats, options)
            except (ServerError, ConnectionLost, OSError) as exc:
                self.fail(f"Could not start: {exc}")
                return
        self.app.attach(session)
        self.app.switch_screen(table_screen(session))
        self._unjournaled()

    def _unjournaled(self) -> None:
        """Said once play begins: the game could not be journaled (a data dir that may
        not be written)."""
        if self.app.box is None and (why := self.app.hosting.unjournaled):
            self.app.notify(why, severity="warning", timeout=10, markup=False)

    @work(exclusive=True, group="open", exit_on_error=False)
    async def open_hosted(
        self, game_id: str, seats: int, options: dict[str, object], bots: int, port: int, name: str
    ) -> None:
        """Listen on the LAN, open the table, seat the bots and go to the lobby."""
        app = self.app
        try:
            host = await app.hosting.start(port=port)
            session = Session(app.settings.name, host=host)
            await session.connect()
            await session.create(name, game_id, seats, table_options(game_id, seats, options))
            for seat in range(seats - bots, seats):
                await session.request("add_bot", seat)
        except OSError as exc:
            await app.hosting.stop()
            self.fail(f"Could not listen on port {port}: {why_not_listening(exc, port)}. "
                      "Try another port.")
            return
        except (ServerError, ConnectionLost) as exc:
            await app.hosting.stop()
            self.fail(f"Could not open the table: {exc}")
            return
        # Loaded once a table is open in a lobby: a solo game goes straight to its table.
        from tui.screens.lobby import LobbyScreen

        app.attach(session)
        app.switch_screen(LobbyScreen(session))
        self._unjournaled()

    async def _deal_on_box(self, game_id: str, seats: int,
                           options: dict[str, object]) -> Session | None:
        """A solo game dealt on the box's host (``None``: it could not be; said)."""
        from tui.hosting import deal_at

        session = Session(self.app.settings.name, address=self.app.box)
        try:
            await session.connect()
            # Named for its player: the box's list showed every one as "solo".
            await deal_at(session, game_id, seats, options,
                          f"{self.app.settings.name}'s solo"[:TABLE_NAME_LEN])
        except (OSError, ConnectionLost, TimeoutError):
            await session.close()
            self.fail(BOX_SILENT)
            return None
        except ServerError as exc:
            await session.close()
            self.fail(f"Could not start: {exc.message}")
            return None
        return session

    @work(exclusive=True, group="open", exit_on_error=False)
    async def open_on_box(
        self, game_id: str, seats: int, options: dict[str, object], bots: int, name: str
    ) -> None:
        """Open the table on the SSH box's host, seat the bots and go to the lobby."""
        app = self.app
        session = Session(app.settings.name, address=app.box)
        try:
            await session.connect()
            await session.create(name, game_id, seats, table_options(game_id, seats, options))
            for seat in range(seats - bots, seats):
                await session.request("add_bot", seat)
        except (OSError, ConnectionLost, TimeoutError):
            await session.close()
            self.fail(BOX_SILENT)
            return
        except ServerError as exc:
            await session.close()
            self.fail(f"Could not open the table: {exc.message}")
            return
        # Loaded once a table is open in a lobby: a solo game goes straight to its table.
        from tui.screens.lobby import LobbyScreen

        app.attach(session)
        app.switch_screen(LobbyScreen(session))
        self._unjournaled()


def kept_table(last: dict[str, Any] | None) -> tuple[str, int, dict[str, Any]] | None:
    """A table kept in the settings (``game``, ``seats``, ``options``), if this app has
    that game and the engine still takes those seats and options."""
    if not last or last.get("game") not in TABLES:
        return None
    game_id, seats, options = last["game"], last.get("seats"), last.get("options")
    spec = engine.GAMES[game_id]
    if type(seats) is not int or not spec.min_seats <= seats <= spec.max_seats \
            or not isinstance(options, dict):
        return None
    try:
        spec.check_options(options, seats)
    except (ValueError, TypeError):
        return None
    return game_id, seats, dict(options)


#: Not the error's own words: they would name the host's inside address.
BOX_SILENT = "This box's game host does not answer; try again soon."


def why_not_listening(exc: OSError, port: int) -> str:
    """Why a port could not be listened on, in a player's words (asyncio's own text
    names the socket address it tried, as "('::', 4455, 0, 0)")."""
    if exc.errno == errno.EADDRINUSE:
        return f"port {port} is already in use on this computer (another host or program)"
    if exc.errno == errno.EACCES:
        return f"port {port} needs administrator rights here (pick one above 1023)"
    return exc.strerror or str(exc)

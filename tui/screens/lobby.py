"""The lobby of a table: seats, ready marks, chat — and the creator's controls.

Everyone picks an empty seat, renames, marks ready and chats (``/`` from anywhere); the
creator also sets the game, seats and options, adds and removes bots, kicks and starts.
The seats have the focus as the lobby opens (the seat keys act on a seat all can see);
from anywhere else Esc brings it back ("esc Seats"), and on the seats Esc leaves.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, DataTable, Input, Label, Select, Static, Switch

import engine
from tui.games import TABLES, playable, preset_options, table_options
from tui.messages import ChatReceived, ConnectionDropped
from tui.notices import describe_chat, describe_notice, our_seat_then, seat_names
from tui.screens.base import Banner, SessionScreen
from tui.screens.invite import InviteScreen, invitation_line
from tui.session import ConnectionLost, ServerError
from tui.settings import MAX_NAME, clean_name
from tui.widgets.buttons import show_label
from tui.widgets.chat import LOBBY_CHAT, RENAME, for_touch, keyed
from tui.widgets.footer import COMPACT_FOOTER_BELOW, SparingFooter, TableFooter
from tui.widgets.limited_input import LimitedInput
from tui.widgets.lobby_seats import SIT_HERE, LobbySeats, may_ready, ready_hint, sit_label
from tui.widgets.log import TableLog
from tui.widgets.options_form import (
    ChoiceSelect,
    OptionsForm,
    OptionsForms,
    describe_options,
    fitting_options,
    same_options,
)
from tui.widgets.text_line import TextLine
from tui.widgets.titlebar import TitleBar
from tui.widgets.wrapped import Phrases

#: Below this many columns the lobby is one column (seats, then chat).
NARROW = 60


class LobbyScreen(SparingFooter, SessionScreen):
    """Wait for players, set the table up, and start."""

    SUB_TITLE = "Lobby"
    # Focus the seats whenever the screen is shown (Textual would pick the first
    # focusable widget, the scrolling pane, where the seat cursor cannot be seen).
    AUTO_FOCUS = "#lobby-seats"
    # The most important keys first: at 80 columns the footer shows them all.
    BINDINGS = [
        Binding("ctrl+s", "start", "Start"),
        Binding("ctrl+r", "toggle_ready", "Ready"),
        Binding("ctrl+t", "sit", "Sit"),
        Binding("ctrl+b", "add_bot", "Bot"),
        Binding("ctrl+x", "remove", "Remove"),
        # Priority: handled as it arrives, so the keys typed straight after it reach the line.
        Binding("slash", "chat", "Chat", priority=True),
        Binding("o", "options", "Options"),
        Binding("i", "invite", "Invite"),
        # One key, two meanings, one shown at a time (``check_action``): away from the
        # seats Esc goes back to them; on the seats it leaves.
        Binding("escape", "seats", "Seats"),
        Binding("escape", "leave", "Leave"),
        Binding("n", "name", "Name"),
        Binding("question_mark", "rules", "Rules"),  # (none on a phone's lobby)
    ]
    #: Given way where the footer has no room (the chat and name lines say their keys).
    FOOTER_SPARE: ClassVar[dict[str, tuple[str, ...]]] = {
        "#chat-input": ("chat",), "#rename": ("name",), "#lobby-seats": ("rules",)}

    def compose(self) -> ComposeResult:
        # Its buttons and options wait for the table (they showed the form's defaults:
        # "GET OUT!", "Seats 1"), hidden but keeping their room (a scroll bar coming with
        # them cut the seat list); inline: a screen's class restyles all its widgets.
        self.hidden_till_table = [Horizontal(classes="buttons"), Horizontal(
            classes="buttons creator"), Vertical(id="lobby-config", classes="creator")]
        for widget in self.hidden_till_table:
            widget.styles.visibility = "hidden"
        yield TitleBar()
        yield Banner(id="banner", markup=False)
        yield Static("", id="lobby-title", markup=False, classes="form-title")
        with Horizontal(id="lobby"):
            with VerticalScroll(id="lobby-left", can_focus=False):  # (as the setup's)
                yield LobbySeats(id="lobby-seats")
                yield Static("", id="lobby-options-summary", markup=False)
                with self.hidden_till_table[0]:
                    yield Button(keyed(self.app, "Ready", "^r"), id="ready", variant="success",
                                 compact=True)
                    yield Button(SIT_HERE, id="sit", compact=True)
                with self.hidden_till_table[1]:
                    yield Button(keyed(self.app, "Bot", "^b"), id="add-bot", compact=True)
                    yield Button(keyed(self.app, "Remove", "^x"), id="remove", compact=True)
                    yield Button(keyed(self.app, "Start", "^s"), id="start", variant="primary",
                                 compact=True)
                with self.hidden_till_table[2]:
                    yield Label("Game")
                    yield ChoiceSelect([(engine.GAMES[g].name, g) for g in TABLES],
                                       id="lobby-game", allow_blank=False, compact=True)
                    yield Label("Seats")
                    yield ChoiceSelect([(str(n), n) for n in range(1, 17)],
                                       id="lobby-seat-count", allow_blank=False, compact=True)
                    first = next(iter(TABLES))
                    yield OptionsForms(list(TABLES), first, engine.GAMES[first].min_seats,
                                       preset_options(first), id="lobby-options")
                    yield Button("Apply options", id="apply", compact=True)
            with Vertical(id="lobby-right"):
                yield Label("Chat")
                # (The table's log: its lines wrap again to a new width.)
                yield TableLog(id="chat", wrap=True, markup=False, max_lines=300, min_width=20)
                yield TextLine(placeholder=for_touch(self.app, LOBBY_CHAT)[0],
                               id="chat-input", max_length=200, compact=True)
                rename = LimitedInput(placeholder=for_touch(self.app, RENAME)[0],
                                      id="rename", limit=MAX_NAME, what="Name", compact=True)
                rename.footer_send = ("Rename", True)  # (Enter's words in the footer)
                yield rename
        yield TableFooter(compact=self.app.size.width < COMPACT_FOOTER_BELOW)

    def mounted(self) -> None:
        """Show what we know, with the seat list focused (its cursor is the seat keys')."""
        self._config: tuple[str, int, dict[str, Any]] | None = None
        self.shown = 0
        self.query_one("#lobby-seats", DataTable).focus()
        # The first show waits for every widget: the screen's Mount can come while its
        # nested rows of buttons still mount theirs (#ready was missing, 1 in 10 starts).
        self.call_after_refresh(self._first_show)

    def _first_show(self) -> None:
        if not self.is_attached or self.leaving:
            return
        if not self.query("#ready") or not self.query("#apply"):
            self.call_after_refresh(self._first_show)
            return
        self._catch_up()
        super().mounted()

    # ---- showing ---------------------------------------------------------------

    def watch_update(self, msg: dict[str, Any] | None) -> None:
        """Show the table; go to the game when it starts."""
        if msg is None or not self.live or self.leaving:
            return
        self._catch_up()
        table = msg["table"]
        while self.hidden_till_table:
            self.hidden_till_table.pop().styles.visibility = "visible"
        if table["phase"] != "lobby" and msg.get("view") is not None:
            if playable(table["game"]):
                self.hand_over()
            return
        game = engine.GAMES[table["game"]]
        self.query_one("#lobby-title", Static).update(
            f"{table['name']} — {game.name}, {len(table['seats'])} seats — {self._where()}"
        )
        self.query_one(LobbySeats).show(table, self.my_seat)
        mine = next((s for s in table["seats"] if s["seat"] == self.my_seat), None)
        ready = self.query_one("#ready", Button)
        show_label(ready, keyed(self.app, "Not ready" if mine and mine["ready"] else "Ready",
                                "^r"))
        ready.display = may_ready(self.table, self.my_seat)
        self._offer_sit()
        for widget in self.query(".creator"):
            widget.display = self.is_creator
        waits = ready_hint(table, self.my_seat)  # (wrapped between options: "away" / "bot 2m")
        said = "Options: " + describe_options(table["game"], table["options"])
        self.query_one("#lobby-options-summary", Static).update(
            Phrases(said + (f"\n▸ {waits}" if waits else "")))
        if self.is_creator:
            self._show_config(table)
            self._refresh_app_options(table)
        self.refresh_bindings()

    def key_description(self, binding: Binding) -> str | None:
        """^r says what it does now, as its button does (the footer said Ready after)."""
        if binding.action == "toggle_ready" and self.query("#ready") and str(
                self.query_one("#ready", Button).label).startswith("Not"):
            return "Not ready"
        return None

    def on_resize(self, event: events.Resize) -> None:
        """Narrower than ``NARROW`` columns, the chat goes under the seats."""
        self.set_class(event.size.width < NARROW, "-narrow")
        self.fit_footer()

    def _refresh_app_options(self, table: dict[str, Any]) -> None:
        """(Creator) what the app fills in itself follows this app's state: a Level X
        record set at this table since it opened is passed in for the next game."""
        options = dict(table.get("options") or {})
        wanted = table_options(str(table.get("game")), len(table.get("seats") or []), options)
        if wanted != options and wanted != getattr(self, "_sent_options", None):
            self._sent_options = wanted
            self.send("configure", options=wanted)

    def _where(self) -> str:
        """How friends reach this table, or where it runs."""
        if (doors := invitation_line(self.app.box_doors)) is not None:
            return doors  # (on a box: how friends come, every door and a QR code: i)
        if self.app.hosting.hosts(self.session):
            address = self.app.hosting.join_address()
            return f"friends join at {address}" if address else "solo, on this computer"
        return f"host: {self.session.where}"

    @on(ConnectionDropped)
    def table_lost(self, message: ConnectionDropped) -> None:
        """For good (removed, the table closed): its seats and controls go, the chat stays."""
        if not message.final:
            return
        self.query_one("#lobby-seats", DataTable).clear()
        # (What the table waits for went too: "Seat 2 is empty" stayed, a table gone.)
        self.query_one("#lobby-left").query(
            ".buttons, #lobby-config, #lobby-options-summary").set(display=False)
        self.action_seats()  # so Esc goes to the menu, as the banner says
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The creator's keys for the creator only, a seated player's if seated, none once
        the table is lost for good; Esc goes back to the seats from elsewhere, and leaves."""
        on_seats = self._on_seats()
        if action == "seats":
            return not on_seats
        if action == "leave":
            return on_seats
        if self.cut_off and (action != "chat" or self.gone):  # (gone: "/" said "Not connected")
            return False
        if action == "options":
            return self.is_creator and on_seats and self._config is not None
        if action in ("name", "chat"):  # (in a text line n and / are typed: "a/b" was "ab")
            return on_seats if action == "name" else not isinstance(self.focused, Input)
        if action == "invite":  # on a box: the doors, and the web link's QR code
            return bool(self.app.box_doors) and on_seats
        if action in ("add_bot", "remove", "start"):
            return self.is_creator
        if action == "toggle_ready":
            return may_ready(self.table, self.my_seat)
        if action == "sit":  # a spectator may sit down in a free seat, too
            return self.my_seat is not None or self.table.get("phase") == "lobby"
        return True

    def _on_seats(self) -> bool:
        """True when the keys are the seat list's (or nobody's: Esc then leaves)."""
        return self.focused is None or self.focused.id == "lobby-seats"

    def action_invite(self) -> None:
        """Every way friends join this box, with the web link's QR code."""
        self.app.push_screen(InviteScreen(self.app.box_doors))

    @on(events.Click, "#lobby-title")
    def title_clicked(self) -> None:
        """A tap on "friends join with: … a web link (i)" shows it (it looked like one)."""
        if self.check_action("invite", ()):
            self.action_invite()

    def action_chat(self) -> None:
        """Put the cursor in the chat line."""
        self.set_focus(self.query_one("#chat-input", Input))  # now: keys may follow at once

    def action_seats(self) -> None:
        """The keys back to the seat list, from anywhere (not a row of Shift+Tabs)."""
        self.set_focus(self.query_one("#lobby-seats", DataTable))

    def action_name(self) -> None:
        """To the name line (it was reached only by Tab, through every control)."""
        self.set_focus(self.query_one("#rename", Input))

    def action_options(self) -> None:
        """(Creator) go to the table's set-up: the game, then the seats and options."""
        self.set_focus(self.query_one("#lobby-game", Select))

    def _show_config(self, table: dict[str, Any]) -> None:
        config = (table["game"], len(table["seats"]), dict(table["options"]))
        if config == self._config:
            return
        before, self._config = self._config, config
        game_id, seat_count, options = config
        spec = engine.GAMES[game_id]
        if before is not None and before[:2] == config[:2] and self._form_says(options):
            # The host took what this form says (a choice applies at once): rebuilding
            # the form would take the focus from the control just changed.
            return
        with self.prevent(Select.Changed):
            self.query_one("#lobby-game", Select).value = game_id
            count = self.query_one("#lobby-seat-count", Select)
            count.set_options([(str(n), n) for n in range(spec.min_seats, spec.max_seats + 1)])
            count.value = seat_count
        self.query_one(OptionsForms).show(game_id, seat_count, options)

    def refused(self, method: str) -> None:
        """A change refused: the set-up shows the table as it is (it kept the change)."""
        if method == "configure" and self.is_creator:
            self._config = None
            self._show_config(self.table)

    def _form_says(self, options: dict[str, Any]) -> bool:
        """True when the options form shows exactly ``options`` (as the engine fills them)."""
        form = self.query_one(OptionsForms).current
        shown = form.values()
        return same_options(form.game_id, form.seats, shown,
                            {k: v for k, v in options.items() if k not in form.hidden})

    def _catch_up(self) -> None:
        """Write the table's lines (chat and notices) not shown here yet."""
        log = self.query_one("#chat", TableLog)
        entries, self.shown = self.session.since(self.shown)
        now = seat_names(self.table)  # (our own leaving read "Bob left", to Bob)
        for entry in entries:
            if entry.kind == "chat":
                log.write("💬 " + describe_chat(entry.data), scroll_end=True)  # (as at a table)
            elif entry.kind == "notice" and (text := describe_notice(
                    entry.data, entry.names, our_seat_then(self.my_seat, entry.names, now))):
                log.write(f"· {text}", scroll_end=True)

    @on(ChatReceived)
    def chat_received(self) -> None:
        """A chat line arrived."""
        self._catch_up()

    # ---- doing -----------------------------------------------------------------

    def _selected_seat(self) -> int:
        return int(self.query_one("#lobby-seats", DataTable).cursor_row)

    @on(DataTable.RowHighlighted, "#lobby-seats")
    def _offer_sit(self) -> None:
        """Sit here works on an empty seat only; elsewhere it says whose the seat is."""
        label = sit_label(self.table, self._selected_seat(), self.my_seat)
        show_label(sit := self.query_one("#sit", Button), label)
        sit.disabled = not label.startswith("Sit")

    @on(Button.Pressed, "#ready")
    def action_toggle_ready(self) -> None:
        """Say you are ready (or not)."""
        table = (self.update or {}).get("table") or {}
        mine = next((s for s in table.get("seats", []) if s["seat"] == self.my_seat), None)
        self.send("ready", not (mine and mine["ready"]))

    @on(Button.Pressed, "#sit")
    def action_sit(self) -> None:
        """Move to the selected empty seat (a spectator sits down in it)."""
        if self.my_seat is None:
            self.sit_down(LobbySeats.to_sit(self.table, self._selected_seat()))
        elif self._selected_seat() == self.my_seat:  # (it did nothing, and said nothing)
            self.notify("That is your seat: choose an empty one first (↑↓).", markup=False)
        else:
            self.send("pick_seat", self._selected_seat())

    @work(group="requests", exit_on_error=False)
    async def sit_down(self, seat: int) -> None:
        """(A spectator) take the free seat ``seat`` in one step; a refusal leaves us watching."""
        try:
            await self.session.join(str(self.table.get("id")), seat)
        except ServerError as exc:
            self.notify(exc.message, title="Not possible", severity="error", markup=False)
        except ConnectionLost as exc:
            self.notify(f"Not connected: {exc}", severity="error", markup=False)

    @on(Button.Pressed, "#add-bot")
    def action_add_bot(self) -> None:
        """(Creator) put a bot in the selected seat, or, when that one is taken, in the
        first empty seat after it (a player on their own seat pressed ^b and was told
        'seat 1 is not empty')."""
        seats = ((self.update or {}).get("table") or {}).get("seats") or []
        chosen = self._selected_seat()
        empty = [i for i, s in enumerate(seats) if s.get("kind") == "empty"]
        if chosen < len(seats) and seats[chosen].get("kind") != "empty" and empty:
            chosen = next((i for i in empty if i > chosen), empty[0])
        self.send("add_bot", chosen)

    @on(Button.Pressed, "#remove")
    def action_remove(self) -> None:
        """(Creator) remove the bot or the player in the selected seat."""
        table = (self.update or {}).get("table") or {}
        seat = self._selected_seat()
        kind = table["seats"][seat]["kind"] if seat < len(table.get("seats", [])) else "empty"
        if kind == "bot":
            self.send("remove_bot", seat)
        elif kind == "human" and seat != self.my_seat:
            # Loaded when a dialog first opens, not before the lobby's first frame.
            from tui.screens.dialogs import ConfirmScreen

            name = table["seats"][seat]["name"]

            def answered(yes: bool | None) -> None:
                if yes:
                    self.send("kick", seat)

            self.app.push_screen(ConfirmScreen(f"Ask {name} to leave the table?", yes="Remove",
                                               no="Keep", careful=True), answered)
        else:  # as the host says no to a bot in a taken seat: in words
            why = "that is your own seat (Esc leaves the table)" if seat == self.my_seat \
                else f"seat {seat + 1} is empty"
            self.notify(f"Nobody to remove: {why}.", title="Not possible", severity="warning",
                        markup=False)

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        """(Creator) deal the game, with the options as the form shows them: a number
        typed but not yet applied goes to the host first (or, wrong, stops the start)."""
        if self.is_creator and self._config and not self.apply_options("Not started: ", " (o)"):
            return
        self.send("start")

    @on(Select.Changed, "#lobby-game")
    @on(Select.Changed, "#lobby-seat-count")
    def config_changed(self, event: Select.Changed) -> None:
        """(Creator) another game or seat count: ask the host."""
        if not self.is_creator or self._config is None:
            return
        game = self.query_one("#lobby-game", Select).value
        count = self.query_one("#lobby-seat-count", Select).value
        if not isinstance(game, str) or not isinstance(count, int):
            return
        spec = engine.GAMES[game]
        count = min(max(count, spec.min_seats), spec.max_seats)
        old_game, _, old_options = self._config
        if (game, count) == self._config[:2]:
            return
        self.session.options_by_game[old_game] = old_options
        options = self.session.options_by_game.get(game, preset_options(game))
        # The away bot is the table's, not the game's (every game has it): it stays as set.
        options = fitting_options(game, count,
                                  {**options, "away_bot": old_options.get("away_bot", "off")})
        self.send("configure", game=game, seats=count,
                  options=table_options(game, count, options))

    @on(Button.Pressed, "#apply")
    def apply_pressed(self) -> None:
        """(Creator) the Apply button: send the options as entered."""
        self.apply_options()

    @on(Select.Changed)
    @on(Switch.Changed)
    @on(Input.Submitted)
    def option_chosen(self, event: Select.Changed | Switch.Changed | Input.Submitted) -> None:
        """(Creator) a choice in the options form applies at once, as the game and seat
        count do (it was lost unless Apply was pressed before Start); a number field
        applies on Enter (or with Apply, or at Start)."""
        form = next((n for n in event.control.ancestors if isinstance(n, OptionsForm)), None)
        if form is None or not self.is_creator or self._config is None:
            return
        event.stop()
        if not isinstance(event, Input.Submitted) and not form.is_choice(event.control,
                                                                        event.value):
            return
        self.apply_options()

    def apply_options(self, doing: str = "", where: str = "") -> bool:
        """(Creator) send the options as entered, if they differ from the table's; the host
        checks them. False, and a notice (``doing`` why ``where``), if the engine refuses."""
        try:
            options = self.query_one(OptionsForms).current.checked()
        except ValueError as exc:
            self.notify(f"{doing}{exc}{where}.", title="Options", severity="error", markup=False)
            return False
        table = self.table
        game_id, seats = str(table.get("game")), len(table.get("seats") or [])
        wanted = table_options(game_id, seats, options)
        # A form rebuilt as the lobby opens is not a change (the log said "the creator
        # set the table again (nothing changed)").
        if not same_options(game_id, seats, wanted, dict(table.get("options") or {})):
            self.send("configure", options=wanted)
        return True

    @on(Input.Submitted, "#chat-input")
    def say(self, event: Input.Submitted) -> None:
        """Send a chat line (once: a second Enter queued sent it again), then give the keys
        back to the seats."""
        if event.value != event.input.value:
            return
        if text := event.value.strip():
            self.send("chat", text)
        event.input.value = ""
        self.action_seats()

    @on(Input.Submitted, "#rename")
    def rename(self, event: Input.Submitted) -> None:
        """Change the name the others see."""
        name = event.value.strip()
        if not name:  # (it did nothing and said nothing)
            self.notify("A name cannot be empty: type the name the others should see "
                        "(Esc leaves the line).", severity="warning", markup=False)
            return
        self._rename(name)
        event.input.value = ""
        self.action_seats()

    @work(group="requests", exit_on_error=False)
    async def _rename(self, name: str) -> None:
        """Rename at this table, and keep the name for the next (the settings' name): a
        player who left and came back was their old name again, and the others could
        not tell it was the same person."""
        if not await self.request("rename", name):
            return
        if (kept := clean_name(name)) and kept != self.app.settings.name:
            self.app.keep_settings("your name", name=kept, named=True)

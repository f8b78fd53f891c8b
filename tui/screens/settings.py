"""Settings: the player's name and the network interfaces used for LAN discovery."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from textual import getters, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Input, Label, Static, Switch

from tui.screens.dialogs import ConfirmOrStay
from tui.screens.styled import StyledOnce
from tui.settings import MAX_NAME, Settings, check_interfaces, clean_name
from tui.widgets.footer import TableFooter
from tui.widgets.limited_input import LimitedInput
from tui.widgets.options_form import ToggleSwitch, switch_words
from tui.widgets.text_line import TextLine
from tui.widgets.titlebar import TitleBar

if TYPE_CHECKING:
    from tui.app import HiddenHandApp


class SettingsScreen(StyledOnce, Screen[None]):
    """Edit and save the settings; they are kept per user."""

    if TYPE_CHECKING:  # typed only: a screen never imports the app (no import circle)
        app = getters.app(HiddenHandApp)

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("ctrl+s", "save", "Save"),
        # (Textual keeps Tab out of the footer: a fresh-eyed player never found it.)
        Binding("tab", "app.focus_next", "Next field"),
    ]

    def compose(self) -> ComposeResult:
        settings: Settings = self.app.settings
        yield TitleBar()
        with VerticalScroll(id="settings", classes="form", can_focus=False):
            # (Headed as the solo form is: it opened straight on the name's label.)
            yield Static("Settings", classes="form-title")
            yield Label(f"Your name, as other players see it (up to {MAX_NAME} characters, "
                        "no [ or ])", markup=False)
            yield LimitedInput(settings.name, limit=MAX_NAME, what="Name", id="name",
                               compact=True)
            if self.app.box is None:  # (a box's visitor finds no LAN games)
                yield Label("Network interfaces for finding LAN games (IP addresses, "
                            "comma separated; empty = all)")
                yield TextLine(", ".join(settings.mdns_interfaces), id="mdns",
                               placeholder=interfaces_unset(), compact=True)
            yield Label("Got Five!: cross off every number you can see on your board "
                        "(auto-cross; - at the table turns it off or on)", id="auto-cross-label")
            with Horizontal(classes="switch-row"):
                yield ToggleSwitch(settings.auto_cross, id="auto-cross")
                # (In words too: a monochrome terminal shows the switch's state in no colour.)
                yield Label(switch_words(settings.auto_cross), id="auto-cross-state",
                            classes="switch-state")
            yield Static("", id="settings-error", markup=False, classes="error")
            with Horizontal(classes="buttons"):
                yield Button("Save (^s)", id="save", variant="primary")
                yield Button("Back (esc)", id="back")
        yield TableFooter()

    @on(Input.Changed)
    def edited(self) -> None:
        """A field edited: the error the last Save found is about what was there then
        (it stayed on after the field was put right)."""
        self.query_one("#settings-error", Static).update("")

    @on(Switch.Changed, "#auto-cross")
    def auto_cross_changed(self, event: Switch.Changed) -> None:
        """The switch's state in words beside it."""
        self.query_one("#auto-cross-state", Label).update(switch_words(event.value))

    @on(Button.Pressed, "#back")
    def action_back(self) -> None:
        """Back to the menu; a change not saved yet is asked about first (a switch
        flipped and left with Esc was thrown away without a word)."""
        if not self.changed():
            self.app.pop_screen()
            return

        def answered(save: bool | None) -> None:
            if save:
                self.action_save()
            elif save is not None:
                self.app.pop_screen()

        self.app.push_screen(ConfirmOrStay("Save your changes to the settings?",
                                           yes="Save", no="Discard", stay="Keep editing"),
                             answered)

    def changed(self) -> bool:
        """Whether a field differs from the saved settings."""
        settings: Settings = self.app.settings
        fields = [(self.query_one("#name", Input).value.strip(), settings.name),
                  (self.query_one("#auto-cross", Switch).value, settings.auto_cross)]
        for mdns in self.query("#mdns").results(Input):
            fields.append((mdns.value.strip(), ", ".join(settings.mdns_interfaces)))
        return any(now != saved for now, saved in fields)

    @on(Button.Pressed, "#save")
    @on(Input.Submitted)
    def action_save(self) -> None:
        """Check, save and go back; a bad value is shown and nothing is saved."""
        error = self.query_one("#settings-error", Static)
        name = clean_name(self.query_one("#name", Input).value)
        if not name:
            error.update("Your name cannot be empty.")
            return
        # (Late, as discovery below: the host's name rules come with its seats.)
        from net.seats import name_problem

        # What every host would refuse at hello, said here (a name saved that every
        # host refused left its player no game at all, not even a solo one).
        if (problem := name_problem(name)) is not None:
            error.update(f"Your name: {problem}.")
            return
        settings: Settings = self.app.settings
        interfaces = settings.mdns_interfaces
        if self.query("#mdns"):
            from net.discovery import check_local_interfaces

            try:
                interfaces = check_interfaces(self.query_one("#mdns", Input).value)
                # zeroconf would only say "No such device", and on the Join screen at that.
                check_local_interfaces(interfaces)
            except ValueError as exc:
                error.update(f"Network interfaces: {exc}.")
                return
        settings.name, settings.named = name, True
        settings.mdns_interfaces = interfaces
        settings.auto_cross = self.query_one("#auto-cross", Switch).value
        try:
            path = settings.save()
        except OSError as exc:
            error.update(f"Could not save the settings: {exc}")
            return
        # (A box's visitor is not told where on the box its files are.)
        self.app.notify("Settings saved." if self.app.box is not None
                        else f"Settings saved in\n{home_relative(path)}", markup=False)
        self.app.pop_screen()


def home_relative(path: Path) -> str:
    """``path`` as a person writes it, ``~/…`` under their home: on a line of its own in
    a toast it then fits 80 columns (the whole path broke inside the file's name)."""
    try:
        return f"~/{path.relative_to(Path.home())}"
    except ValueError:
        return str(path)


def interfaces_unset() -> str:
    """What an empty interfaces field means: every interface, unless the environment
    pins them (``HIDDENHAND_MDNS_INTERFACES``, which then applies)."""
    # (Late: discovery loads zeroconf, which the menu's start-up does without.)
    from net.discovery import ENV_INTERFACES

    pinned = os.environ.get(ENV_INTERFACES, "").strip()
    return f"{pinned} (from {ENV_INTERFACES})" if pinned else "all interfaces"

"""The name a player is shown by, asked once, the first time they host or join a table
on the LAN: until then it is their login's ("root", "ubuntu"), and a LAN party of
laptops sat down as two "root"s. Solo play asks nothing (bots do not read names), nor
does a box (its doors ask the name)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from tui.screens.styled import StyledOnce
from tui.settings import MAX_NAME, clean_name
from tui.widgets.footer import TableFooter


class NameScreen(StyledOnce, ModalScreen[str | None]):
    """Ask for the player's name (starting from ``name``); the name, or ``None`` (Esc)."""

    BINDINGS = [Binding("escape", "cancel", "Back")]

    def __init__(self, name: str) -> None:
        super().__init__()
        self.start = name

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Your name at the table: the others see it. Change it any time "
                        "in Settings (o).", classes="question")
            yield Input(self.start, max_length=MAX_NAME, id="name", compact=True)
            yield Static("", id="name-error", markup=False, classes="error")
            with Horizontal(classes="buttons"):
                yield Button("OK (⏎)", id="ok", variant="primary")
                yield Button("Back (esc)", id="back")
        yield TableFooter()

    @on(Input.Submitted)
    @on(Button.Pressed, "#ok")
    def chosen(self) -> None:
        """The name, if a host would take it; else why not, and the question stays."""
        from net.seats import name_problem

        name = clean_name(self.query_one("#name", Input).value)
        problem = "it cannot be empty" if not name else name_problem(name)
        if problem is not None:
            self.query_one("#name-error", Static).update(f"Your name: {problem}.")
            return
        self.dismiss(name)

    @on(Button.Pressed, "#back")
    def action_cancel(self) -> None:
        self.dismiss(None)

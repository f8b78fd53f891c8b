"""Where a game file for a friend goes: Past games' ``x`` asks for the folder.

It starts at the folder the app was started in (where a terminal's user looks for what a
command wrote), or the home folder if that one cannot be written (the app started from
``/``). A game file went there without a word, into a project's source tree as often as
not, and a folder that could not be written left no way to choose another.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from tui.screens.styled import StyledOnce
from tui.widgets.footer import TableFooter
from tui.widgets.text_line import TextLine


def first_folder() -> Path:
    """The folder the dialog offers first."""
    here = Path.cwd()
    return here if os.access(here, os.W_OK | os.X_OK) else Path.home()


def free_name(folder: Path, number: int) -> Path:
    """A new file for game ``number`` in ``folder``: never over another file (a second
    export of a game overwrote the first without a word); "game-6-2", not "game-6 (2)",
    as a name pasted into a command needs no quotes."""
    return next(path for n in range(1, 10_000) if not (path := folder / (
        f"game-{number}.hhgame" if n == 1 else f"game-{number}-{n}.hhgame")).exists())


class ExportScreen(StyledOnce, ModalScreen[Path | None]):
    """Ask for the folder, write game ``number`` there by ``write`` (which raises
    ``ValueError`` in words if it cannot), and answer the file written (``None``: not
    written). A folder refused is said in the dialog, which stays for another."""

    BINDINGS = [Binding("enter", "write", "Write", priority=True),
                Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, number: int, write: Callable[[Path], None]) -> None:
        super().__init__()
        self.number = number
        self.write = write

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(f"Write game {self.number} to a file for a friend, in the folder:",
                        classes="question", markup=False)
            yield TextLine(str(first_folder()), id="export-folder", compact=True)
            yield Static("", id="export-error", classes="error", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Write (enter)", id="write", variant="primary")
                yield Button("Cancel (esc)", id="cancel")
        yield TableFooter()

    def on_mount(self) -> None:
        self.query_one("#export-folder", Input).focus()

    @on(Button.Pressed, "#cancel")
    def cancelled(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#write")
    def action_write(self) -> None:
        """Write the file in the folder typed, or say why not (Enter on Cancel cancels:
        the footer's "enter Write" is the field's and Write's)."""
        if self.focused is not None and self.focused.id == "cancel":
            self.dismiss(None)
            return
        typed = self.query_one("#export-folder", Input).value.strip()
        error = self.query_one("#export-error", Static)
        folder = Path(typed).expanduser() if typed else None
        if folder is None or not folder.is_dir():
            error.update(f"{typed or 'An empty name'} is not a folder here: type one that is.")
            return
        target = free_name(folder.absolute(), self.number)
        try:
            self.write(target)
        except ValueError as exc:
            error.update(str(exc))
            return
        self.dismiss(target)


__all__ = ["ExportScreen", "first_folder", "free_name"]

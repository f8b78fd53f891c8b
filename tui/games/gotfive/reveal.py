"""Got Five!'s dialog: which colour to reveal a face-down tile of.

:class:`RevealScreen` answers a colour index (keys A–E or 1–5, arrows and Enter, or a
click); a key that chooses nothing says why in the dialog.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label

from tui.games.gotfive.text import LETTERS
from tui.screens.styled import StyledOnce
from tui.widgets.footer import TableFooter


class RevealScreen(StyledOnce, ModalScreen[int | None]):
    """Choose the colour of the face-down tile to reveal."""

    BINDINGS = [
        # The letters choose at once (``on_key``); named in the footer, so the dialog's
        # keys say what it waits for.
        Binding("a", "choose(0)", "Colour", key_display="A–E"),
        Binding("escape", "dismiss(None)", "Cancel"),
        Binding("down,right", "app.focus_next", "Next", show=False),
        Binding("up,left", "app.focus_previous", "Previous", show=False),
    ]

    def __init__(self, supply: Sequence[int]) -> None:
        super().__init__(id="gotfive-reveal")
        self.supply = list(supply)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Reveal a face-down tile of which colour? (A–E)", classes="question")
            for colour, count in enumerate(self.supply):
                label = Text()
                label.append(f"{LETTERS[colour]}  ", style="bold")
                label.append(f"{count} face down" if count else "none left")
                yield Button(label, id=f"colour-{colour}", classes="choice",
                             disabled=not count, compact=True)
            why = Label("", classes="error", markup=False)
            why.display = False
            yield why
        # This dialog's keys, not the table's under it (drawn as a table's are: on a
        # phone a key for two directions is two, and keys off the edge page in).
        yield TableFooter()

    def on_mount(self) -> None:
        """Focus the first colour that has tiles left."""
        for button in self.query(Button):
            if not button.disabled:
                button.focus()
                break

    def action_choose(self, colour: int) -> None:
        """Reveal a tile of ``colour``, if any is left (a click on the footer's key)."""
        if 0 <= colour < len(self.supply) and self.supply[colour]:
            self.dismiss(colour)

    def on_key(self, event: events.Key) -> None:
        """A–E (or 1–5) choose a colour directly."""
        key = event.key.upper()
        colour = LETTERS.find(key) if len(key) == 1 and key.isalpha() else (
            int(key) - 1 if key.isdigit() else -1)
        if 0 <= colour < len(self.supply):
            event.stop()
            if self.supply[colour]:
                self.dismiss(colour)
            else:
                self.say(f"No face-down tiles of colour {LETTERS[colour]} are left.")
        elif (event.character or "").isalpha():  # (another letter: ignored unsaid)
            event.stop()
            self.say(f"A colour is a letter, A to {LETTERS[len(self.supply) - 1]} (Esc: back).")

    def say(self, why: str) -> None:
        """Why a key chose nothing, in the dialog (a toast over it stayed on, over the
        log, once the dialog had closed)."""
        label = self.query_one(".error", Label)
        label.update(f"✗ {why}")
        label.display = True

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        """The clicked (or Entered) colour."""
        self.dismiss(int((event.button.id or "colour-0").removeprefix("colour-")))

"""Small modal dialogs: a yes/no question, and a chooser of one among a few options.

Each has its own footer: under a dialog only the dialog's keys work, so only they show.
"""

from __future__ import annotations

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label

from tui.screens.styled import StyledOnce
from tui.widgets.footer import TableFooter


class ConfirmScreen(StyledOnce, ModalScreen[bool | None]):
    """Ask a yes/no question; y says yes, Escape/n says no, Enter presses the focused
    button (yes, or no for a ``careful`` question). With ``stay`` (see
    :class:`ConfirmOrStay`), a third button answers ``None``: neither."""

    BINDINGS = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str, *, yes: str = "Yes", no: str = "No",
                 careful: bool = False, stay: str | None = None) -> None:
        super().__init__()
        self.question, self.yes, self.no, self.stay = question, yes, no, stay
        #: The answer that cannot be undone (leave, remove, announce) is not the one a
        #: stray Enter gives: the focus starts on the other button.
        self.careful = careful

    def on_mount(self) -> None:
        if self.careful:
            self.query_one("#no", Button).focus()

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            # (Plain, as every text here: a question may carry a name from the host.)
            yield Label(self.question, classes="question", markup=False)
            with Horizontal(classes="buttons"):
                # (Of a careful question the lit button is the one Enter presses: a
                # solid "Announce" beside the focused Back read as the choice, and a
                # second Enter, meant as yes, went back.)
                yield Button(f"{self.yes} (y)", id="yes",
                             variant="default" if self.careful else "primary")
                yield Button(f"{self.no} (n)", id="no",
                             variant="primary" if self.careful else "default")
                if self.stay is not None:
                    yield Button(f"{self.stay} (esc)", id="stay")
        yield TableFooter()

    def key_description(self, binding: Binding) -> str | None:
        """The footer words the keys as the buttons are worded ("y Leave", "n Stay")."""
        return {"answer(True)": self.yes, "answer(False)": self.no,
                "stay": self.stay}.get(binding.action)

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        """Answer with the button pressed."""
        self.dismiss(None if event.button.id == "stay" else event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        """Answer from the keyboard."""
        self.dismiss(yes)



class ConfirmOrStay(ConfirmScreen):
    """A yes/no question with a way back to what asked it: Escape (and the ``stay``
    button) answers ``None`` (Settings asked "Save or Discard?" and nothing else, where
    the player wanted to go on editing)."""

    BINDINGS = [Binding("escape", "stay", "Stay")]

    def __init__(self, question: str, *, yes: str, no: str, stay: str) -> None:
        super().__init__(question, yes=yes, no=no, stay=stay)

    def action_stay(self) -> None:
        self.dismiss(None)


class ChoiceScreen(StyledOnce, ModalScreen[str | None]):
    """Pick one of a few labelled choices, by number key, arrows and Enter, or mouse."""

    BINDINGS = [
        # Over the focused button's own Enter, so the footer shows it: it presses that button.
        Binding("enter", "choose", "Choose", priority=True),
        Binding("down", "app.focus_next", "Next", key_display="↓"),
        Binding("up", "app.focus_previous", "Previous", key_display="↑"),
        Binding("escape", "dismiss(None)", "Cancel"),
        # The number keys (``on_key``), named in the footer as "1-5" (the image picker's
        # footer did not say them).
        Binding("1", "pick(1)", "Pick"),
    ]

    def __init__(self, title: str, choices: list[tuple[str, str]], *,
                 wide: bool = False, first: int = 0) -> None:
        """``wide``: choices of a line's length (a box's tables), given the screen's width
        up to a wide dialog's rather than wrapped in a narrow one's. ``first``: the choice
        focused at first (Enter takes it), by place from 0."""
        super().__init__()
        self.title_text = title
        self.choices = choices
        self.wide = wide
        self.first = first

    def key_display(self, binding: Binding) -> str | None:
        """The number keys as the choices run: "1-5"."""
        if binding.action == "pick(1)" and len(self.choices) > 1:
            return f"1-{len(self.choices)}"
        return None

    def action_pick(self, number: int) -> None:
        """Take choice ``number`` (counted from 1)."""
        if 1 <= number <= len(self.choices):
            self.dismiss(self.choices[number - 1][0])

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog -wide" if self.wide else "dialog"):
            yield Label(self.title_text, classes="question", markup=False)
            for i, (_value, label) in enumerate(self.choices, start=1):
                # (Ids by place: a value may be a table's id from a host, which need not
                # be a valid widget id.)
                yield Button(Text(f"{i}  {label}"), id=f"choice-{i}", classes="choice")
        yield TableFooter()

    def on_mount(self) -> None:
        """Focus the first choice (or the one asked for)."""
        buttons = list(self.query(Button).results(Button))
        if buttons:
            buttons[self.first if 0 <= self.first < len(buttons) else 0].focus()

    def on_key(self, event: events.Key) -> None:
        """Number keys pick a choice directly."""
        if event.key.isdigit() and 1 <= int(event.key) <= len(self.choices):
            event.stop()
            self.dismiss(self.choices[int(event.key) - 1][0])

    def action_choose(self) -> None:
        """Take the focused choice (a focused button takes Enter itself)."""
        focused = self.focused
        if isinstance(focused, Button):
            focused.press()

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        """The clicked (or Entered) choice."""
        place = (event.button.id or "").removeprefix("choice-")
        if place.isdigit() and 1 <= int(place) <= len(self.choices):
            self.dismiss(self.choices[int(place) - 1][0])

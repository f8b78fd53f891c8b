"""The Got Five! dialogs: which colour to reveal, and "GOT FIVE!" (name your five).

:class:`RevealScreen` answers a colour index (keys A–E or 1–5, arrows and Enter, or a
click). :class:`AnnounceScreen` answers five numbers, after checking that they are one
per colour in your rack's order and ascending, and after asking for confirmation: a
wrong announcement puts you out.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, Label

from engine.gotfive import TILES, colour_of, numbers_of_colour
from tui.games.gotfive.text import LETTERS, letter
from tui.screens.dialogs import ConfirmScreen


class RevealScreen(ModalScreen[int | None]):
    """Choose the colour of the face-down tile to reveal."""

    BINDINGS = [
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
        yield Footer()  # this dialog's keys, not the table's under it

    def on_mount(self) -> None:
        """Focus the first colour that has tiles left."""
        for button in self.query(Button):
            if not button.disabled:
                button.focus()
                break

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
                self.notify(f"No face-down tiles of colour {LETTERS[colour]} are left.",
                            severity="warning")

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        """The clicked (or Entered) colour."""
        self.dismiss(int((event.button.id or "colour-0").removeprefix("colour-")))


def check_numbers(texts: Sequence[str], colours: Sequence[int]) -> tuple[list[int] | None, str]:
    """Five typed numbers checked against the rack's colours: (numbers, "") or (None, why)."""
    numbers: list[int] = []
    for i, (value, colour) in enumerate(zip(texts, colours, strict=True), start=1):
        value = value.strip()
        if not value:
            return None, f"Fill in position {i} ({letter(colour)})."
        if not value.isdigit() or not 1 <= int(value) <= TILES:
            return None, f"Position {i}: {value!r} is not a number from 1 to {TILES}."
        n = int(value)
        if colour_of(n) != colour:
            return None, (f"Position {i} is colour {letter(colour)}, but {n} is colour "
                          f"{letter(colour_of(n))}.")
        if numbers and n <= numbers[-1]:
            return None, (f"Position {i}: {n} must be higher than {numbers[-1]} "
                          "(a rack is in ascending order).")
        numbers.append(n)
    return numbers, ""


class SlotInput(Input):
    """One number's slot: typing into a full slot starts it over (a click puts the
    cursor in without selecting, and two digits fill a slot: the keys would be lost)."""

    def insert_text_at_cursor(self, text: str) -> None:
        """Insert ``text`` at the cursor, or replace everything when the slot is full."""
        if self.max_length and len(self.value) >= self.max_length:
            self.value = text[: self.max_length]
            self.cursor_position = len(self.value)
            return
        super().insert_text_at_cursor(text)


class AnnounceScreen(ModalScreen[list[int] | None]):
    """"GOT FIVE!": five numbers, one per rack position, checked, then confirmed."""

    BINDINGS = [
        # Shown in the footer as the button is worded (a slot has the keys all the
        # time, and its own Enter would hide this one): Enter does what it did.
        Binding("enter", "enter", "Announce", priority=True),
        Binding("escape", "dismiss(None)", "Cancel"),
        # Priority: a slot (an Input) binds the arrows to scrolling, which would hide
        # these from the footer.
        Binding("up", "step(1)", "Number", key_display="↑↓", priority=True),
        Binding("down", "step(-1)", "Lower", show=False, priority=True),
        Binding("tab", "app.focus_next", "Next slot"),
    ]

    def __init__(self, colours: Sequence[int], prefill: Sequence[int | None],
                 crossed: Collection[int] = (), seen: Collection[int] = ()) -> None:
        super().__init__(id="gotfive-announce")
        #: Numbers the arrows pass over: seen elsewhere or crossed off (not ours).
        self.crossed = frozenset(crossed) | frozenset(seen)
        #: Numbers in sight elsewhere (the public row, the clues, the others' racks):
        #: never ours, which the confirmation says.
        self.seen = frozenset(seen)
        #: The slot and number the arrows last put there (typing two digits moves on).
        self.stepped: tuple[str | None, str] | None = None
        self.colours = list(colours)
        self.prefill = list(prefill)
        #: Slots whose text changed since the dialog opened.
        self.typed = [False] * len(self.prefill)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("GOT FIVE! Name your five numbers, rack position 1 (−) to 5 (+). "
                        "Right: you win at once. Wrong: you are out.", classes="question")
            note = "↑/↓: next number not crossed off; Tab: next slot."
            if any(n is not None for n in self.prefill):
                note = "Filled in from the cells you circled. " + note
            yield Label(note, classes="gf-note")
            with Horizontal(id="gf-numbers"):
                for i, (colour, n) in enumerate(zip(self.colours, self.prefill, strict=True)):
                    with Vertical(classes="gf-slot"):
                        yield Label(f"{i + 1}: {letter(colour)}", classes="gf-slot-label")
                        yield SlotInput(str(n) if n is not None else "", id=f"gf-n{i}",
                                    type="integer", max_length=2, compact=True,
                                    placeholder="?")
            yield Label("", id="gf-announce-error", classes="error")
            with Horizontal(classes="buttons"):
                yield Button("Announce (Enter)", id="announce", variant="error", compact=True)
                yield Button("Cancel (Esc)", id="cancel", compact=True)
        yield Footer()  # this dialog's keys, not the table's under it

    def on_mount(self) -> None:
        """Focus the first empty slot (the first one if all are filled)."""
        inputs = list(self.query(Input))
        empty = [i for i in inputs if not i.value]
        (empty or inputs)[0].focus()
        self.check()

    def action_step(self, step: int) -> None:
        """Put the next higher (or lower) number of the focused slot's colour in it,
        passing over the numbers crossed off (seen elsewhere, or crossed by the player)."""
        focused = self.focused
        if not isinstance(focused, Input) or not (focused.id or "").startswith("gf-n"):
            return
        colour = self.colours[int((focused.id or "gf-n0").removeprefix("gf-n"))]
        numbers = [n for n in numbers_of_colour(colour) if n not in self.crossed]
        if not numbers:
            return
        value = focused.value.strip()
        if not value.isdigit():
            n = numbers[0] if step > 0 else numbers[-1]
        else:
            later = [m for m in numbers if (m > int(value) if step > 0 else m < int(value))]
            if not later:
                return
            n = later[0] if step > 0 else later[-1]
        self.stepped = (focused.id, str(n))  # a stepped number does not move on
        focused.value = str(n)
        focused.cursor_position = len(focused.value)

    def texts(self) -> list[str]:
        """What is typed in the five slots."""
        return [self.query_one(f"#gf-n{i}", Input).value for i in range(len(self.colours))]

    @on(Input.Changed)
    def check(self, event: Input.Changed | None = None) -> None:
        """Say what is wrong as the player types (nothing is sent until confirmed); two
        digits that make a number of the slot's colour move on to the next slot (a typo
        stays where it is, to be mended with Backspace)."""
        _, why = check_numbers(self.texts(), self.colours)
        self.query_one("#gf-announce-error", Label).update(why)
        if event is None:
            return
        inputs = list(self.query(Input))
        at = inputs.index(event.input)
        prefilled = self.prefill[at]
        if event.value != ("" if prefilled is None else str(prefilled)):
            self.typed[at] = True  # (not the slot being filled in as the dialog opens)
        if self.typed[at] and len(event.value) == 2 and event.input.has_focus \
                and self.stepped != (event.input.id, event.value):
            value = event.value
            fits = (value.isdigit() and 1 <= int(value) <= 60
                    and (int(value) - 1) % 5 == self.colours[at])
            if fits and at + 1 < len(inputs):
                inputs[at + 1].focus()

    def action_enter(self) -> None:
        """Enter: a focused button is pressed; in a slot, as the slot's own Enter."""
        if isinstance(self.focused, Button):
            self.focused.press()
        else:
            self.submitted()

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted | None = None) -> None:
        """Enter: on to the next empty slot, or announce when all five are good."""
        numbers, _ = check_numbers(self.texts(), self.colours)
        if numbers is not None:
            self.confirm(numbers)
            return
        inputs = list(self.query(Input))
        empty = [i for i in inputs if not i.value.strip()]
        if empty:
            empty[0].focus()

    @on(Button.Pressed, "#announce")
    def announce_pressed(self) -> None:
        """The Announce button."""
        numbers, why = check_numbers(self.texts(), self.colours)
        if numbers is None:
            self.notify(why, severity="warning")
        else:
            self.confirm(numbers)

    @on(Button.Pressed, "#cancel")
    def cancel_pressed(self) -> None:
        """The Cancel button."""
        self.dismiss(None)

    def confirm(self, numbers: list[int]) -> None:
        """Ask once more: a wrong announcement puts the player out."""
        said = " ".join(str(n) for n in numbers)

        def answered(yes: bool | None) -> None:
            if yes:
                self.dismiss(numbers)

        self.app.push_screen(ConfirmScreen(
            f"Announce {said}?{self.doubts(numbers)} If any number is wrong you are out "
            "of the game.", yes="Announce", no="Back", careful=True), answered)

    def doubts(self, numbers: list[int]) -> str:
        """What the confirmation warns of: numbers in sight elsewhere (never yours), and
        numbers you crossed off yourself."""
        seen = [n for n in numbers if n in self.seen]
        crossed = [n for n in numbers if n in self.crossed and n not in self.seen]
        out = ""
        if seen:
            out += (f" You can see {_listed(seen)} elsewhere at the table: "
                    f"{'it is' if len(seen) == 1 else 'they are'} not yours.")
        if crossed:
            out += f" You crossed off {_listed(crossed)} on your board."
        return out


def _listed(numbers: list[int]) -> str:
    """3, 3 and 16, 3, 16 and 22."""
    words = [str(n) for n in numbers]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]

"""The Got Five! dialog "GOT FIVE!" (name your five; which colour to reveal is
:mod:`tui.games.gotfive.reveal`'s).

:class:`AnnounceScreen` answers five numbers, after checking that they are one
per colour in your rack's order and ascending, and after asking for confirmation: a
wrong announcement puts you out.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import Any

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Input, Label

from engine.gotfive import TILES, colour_of, numbers_of_colour
from tui.games.gotfive.slots import slot_range
from tui.games.gotfive.text import letter
from tui.notices import listed
from tui.screens.dialogs import ConfirmScreen
from tui.screens.styled import StyledOnce
from tui.widgets.footer import TableFooter
from tui.widgets.text_line import TextLine


def check_numbers(texts: Sequence[str], colours: Sequence[int],
                  typing: int | None = None) -> tuple[list[int] | None, str]:
    """Five typed numbers checked against the rack's colours: (numbers, "") or (None, why).
    Every slot is checked: the first mistake is said in full, and any other slot that is
    wrong too by its position (mended one at a time, each mistake came as a surprise).
    A single digit in slot ``typing`` (0-based: the one being typed in) that starts a
    number of its colour is no mistake yet, but a number still being typed ("4" of 44
    read "4 must be higher than 25")."""
    numbers: list[int] = []
    wrong: list[tuple[int, str]] = []
    empty: int | None = None
    before: int | None = None  # the number of the colour right in the slot before
    for i, (value, colour) in enumerate(zip(texts, colours, strict=True), start=1):
        value = value.strip()
        if i - 1 == typing and len(value) == 1 and value.isdigit() and any(
                colour_of(n) == colour for n in range(int(value) * 10,
                                                      min(int(value) * 10 + 10, TILES + 1))):
            value = ""  # (the second digit is on its way)
        if not value:
            empty = empty or i
        elif not value.isdigit() or not 1 <= int(value) <= TILES:
            wrong.append((i, f"Position {i}: {value!r} is not a number from 1 to {TILES}."))
        elif colour_of(n := int(value)) != colour:
            wrong.append((i, f"Position {i} is colour {letter(colour)}, but {n} is colour "
                             f"{letter(colour_of(n))}."))
        elif before is not None and n <= before:
            # (Against the slot before alone: one number too high is one mistake, not
            # one for every slot after it.)
            wrong.append((i, f"Position {i}: {n} must be higher than {before} "
                             "(a rack is in ascending order)."))
        else:
            numbers.append(n)
        ok = value.isdigit() and 1 <= int(value) <= TILES and colour_of(int(value)) == colour
        before = int(value) if ok else None
    if wrong:
        why = wrong[0][1]
        more = [str(i) for i, _ in wrong[1:]]
        if len(more) == 1:
            why += f" Position {more[0]} is wrong too."
        elif more:
            why += f" Positions {', '.join(more[:-1])} and {more[-1]} are wrong too."
        return None, why
    if empty is not None:
        return None, f"Fill in position {empty} ({letter(colours[empty - 1])})."
    return numbers, ""


def prefill_for(colours: Sequence[int], circled: Collection[int], certain: Collection[int],
                draft: Sequence[str] | None) -> tuple[list[int | str | None], str]:
    """Per rack position what the GOT FIVE! dialog starts with, and where it came from
    in words: the hint's ★ number of that colour, else what was typed when it last
    closed (``draft``), else the one circled number of that colour (if exactly one)."""
    out: list[int | str | None] = []
    sources: list[str] = []
    for i, colour in enumerate(colours):
        starred = [n for n in certain if colour_of(n) == colour]
        mine = [n for n in circled if colour_of(n) == colour]
        if len(starred) == 1:  # surely yours: anything else typed there would be wrong
            out.append(starred[0])
            sources.append("★ cells")
        elif draft and i < len(draft) and draft[i].strip():
            out.append(draft[i])
            sources.append("what you typed")
        elif len(mine) == 1:
            out.append(mine[0])
            sources.append("your ○ cells")
        else:
            out.append(None)
    said = list(dict.fromkeys(sources))
    if not said:
        return out, ""
    return out, f"Filled in from {listed(said)}"


class SlotInput(TextLine):
    """One number's slot: typing into a full slot starts it over (a click puts the
    cursor in without selecting, and two digits fill a slot: the keys would be lost).

    Two digits typed that make a number of the slot's ``colour`` move on to the next
    slot at once, as they are typed (a typo stays, to be mended with Backspace; a
    number put in by the arrows or filled in as the dialog opens does not move on).
    Keys typed faster than that reached this slot before the focus moved on: they go
    on to the slot it moved on to, as the player meant. Backspace in an empty slot backs
    up into the slot before.
    """

    def __init__(self, value: str, colour: int, **kwargs: Any) -> None:
        super().__init__(value, **kwargs)
        self.colour = colour
        #: The slot two digits moved on to, while the focus has not come back here.
        self.passed_on: SlotInput | None = None
        #: Backspace in the slot after backed up into this one.
        self.backed_into = False

    def on_focus(self) -> None:
        """Back in this slot: what is typed here stays here (after what it holds, when
        Backspace backed up into it; else it starts the slot over)."""
        self.passed_on = None
        if self.backed_into:
            self.backed_into = False
            self.cursor_position = len(self.value)
            # (Input's own focus handling runs after this one; selecting is back after.)
            self.call_later(setattr, self, "select_on_focus", True)

    def action_delete_left(self) -> None:
        """Backspace; in an empty slot, back to the slot before, deleting its last
        digit (two digits had moved on from there: a player mending them backs up)."""
        if not self.value and isinstance(self.screen, AnnounceScreen):
            slots = list(self.screen.query(SlotInput))
            at = slots.index(self)
            if at > 0:
                before = slots[at - 1]
                before.value = before.value[:-1]
                # What is typed next goes after what it holds: not selected as it
                # takes the focus (then typing would start it over).
                before.select_on_focus = False
                before.backed_into = True
                self.screen.set_focus(before)
            return
        super().action_delete_left()

    def insert_text_at_cursor(self, text: str) -> None:
        """Insert ``text`` at the cursor, or replace everything when the slot is full."""
        if self.passed_on is not None and self.screen.focused is not self:
            self.passed_on.insert_text_at_cursor(text)
            return
        if self.max_length and len(self.value) >= self.max_length:
            self.value = text[: self.max_length]
            self.cursor_position = len(self.value)
        else:
            super().insert_text_at_cursor(text)
        value = self.value
        if len(value) == 2 and value.isdigit() and 1 <= int(value) <= TILES \
                and colour_of(int(value)) == self.colour \
                and isinstance(self.screen, AnnounceScreen):
            self.screen.move_on(self)


#: Narrower than this (cells), the GOT FIVE! bar puts its buttons under its slots.
NARROW = 60


class AnnounceScreen(StyledOnce, ModalScreen[list[int] | None]):
    """"GOT FIVE!": five numbers, one per rack position, checked, then confirmed.

    A bar along the bottom of the screen, over the log (beside it on a wide terminal):
    the board and the racks above stay in sight while the player types. Esc closes it
    and :meth:`texts` keeps what was typed, for the table to offer again next time.
    """

    BINDINGS = [
        # Shown in the footer as the button is worded (a slot has the keys all the
        # time, and its own Enter would hide this one): Enter does what it did.
        Binding("enter", "enter", "Announce", priority=True),
        Binding("enter", "close_kept", "Close (kept)", priority=True),
        Binding("escape", "dismiss(None)", "Close (kept)"),
        # Priority: a slot (an Input) binds the arrows to scrolling, which would hide
        # these from the footer.
        Binding("up", "step(1)", "Next unseen", key_display="↑↓", priority=True),
        Binding("down", "step(-1)", "Lower", show=False, priority=True),
        # Priority: the focus moves as Tab arrives, so that the digits typed after it
        # go to the next slot even when they arrive before the slot handled Tab.
        Binding("tab", "next_slot(1)", "Next slot", priority=True),
        Binding("shift+tab", "next_slot(-1)", "Previous slot", show=False, priority=True),
    ]

    def __init__(self, colours: Sequence[int], prefill: Sequence[int | str | None],
                 crossed: Collection[int] = (), seen: Collection[int] = (),
                 impossible: Collection[int] = (), *, filled: str = "",
                 wide: bool = False) -> None:
        super().__init__(id="gotfive-announce", classes="-wide" if wide else "")
        #: Numbers the hint says no rack that fits holds (board mode): never ours.
        self.impossible = frozenset(impossible)
        #: Numbers the arrows pass over: seen elsewhere, crossed off (not ours), or
        #: greyed by the hint.
        self.crossed = frozenset(crossed) | frozenset(seen)
        #: Numbers in sight elsewhere (the public row, the clues, the others' racks):
        #: never ours, which the confirmation says.
        self.seen = frozenset(seen)
        #: The slot two digits moved on to and what it held then: a Tab straight after
        #: stays there (the player typing "24 Tab 30" means two slots, not three).
        self.moved_on: tuple[str | None, str] | None = None
        self.colours = list(colours)
        self.prefill = ["" if n is None else str(n) for n in prefill]
        #: Where the prefilled numbers came from, in words ("" when none is).
        self.filled = filled

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog") as bar:
            bar.border_title = "GOT FIVE! Right: you win, wrong: you are out"
            with Horizontal(id="gf-row"):
                with Horizontal(id="gf-numbers"):
                    for i, (colour, text) in enumerate(zip(self.colours, self.prefill,
                                                           strict=True)):
                        with Horizontal(classes="gf-slot"):
                            yield Label(self.slot_label(i, focused=False),
                                        classes="gf-slot-label")
                            yield SlotInput(text, colour, id=f"gf-n{i}", type="integer",
                                            max_length=2, compact=True, placeholder="?")
                with Horizontal(classes="buttons"):
                    yield Button("Announce", id="announce", variant="error", compact=True)
                    yield Button("Close", id="cancel", compact=True)
            yield Label(self.note(), classes="gf-note")
            yield Label("", id="gf-announce-error", classes="error")
        # This dialog's keys, not the table's under it (drawn as a table's are: on a
        # phone a key for two directions is two, and keys off the edge page in).
        yield TableFooter()

    def note(self) -> str:
        """How the slots are typed in (and where the numbers in them came from)."""
        # ("Two digits move on by themselves (then Tab stays)": a fresh player made it out
        # only from the rules.)
        note = ("After two digits the next slot takes the keys by itself (a Tab typed then "
                "does not skip one). Esc closes and keeps what you typed.") if not getattr(
            self.app, "touch", False) else "Close keeps what you typed."  # (no Tab, no Esc)
        return f"{self.filled}. {note}" if self.filled else note

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter on the Close button closes (the footer said "⏎ Announce" there)."""
        closing = isinstance(self.focused, Button) and self.focused.id == "cancel"
        if action == "enter":
            return not closing
        if action == "close_kept":
            return closing
        return True

    def action_close_kept(self) -> None:
        """Close, keeping what was typed (Enter on the Close button, as Esc)."""
        self.dismiss(None)

    def on_mount(self) -> None:
        """Focus the first empty slot (the first one if all are filled)."""
        inputs = list(self.query(Input))
        empty = [i for i in inputs if not i.value]
        (empty or inputs)[0].focus()
        self.check()

    def on_resize(self, event: events.Resize) -> None:
        """A narrow terminal: the buttons go under the slots (beside them they were off
        the edge at 45 columns), and the title is worded shorter, as it is in the log's
        column of a wide one (the long title ran past the bar's edge)."""
        narrow = event.size.width < NARROW
        self.set_class(narrow, "-narrow")
        # (Five slots of 9 columns: the fifth was off a phone's 40-column edge.)
        self.set_class(event.size.width < 5 * 9, "-tiny")
        self.query_one(".dialog").border_title = (
            "GOT FIVE! Right: win · wrong: out" if narrow or self.has_class("-wide")
            else "GOT FIVE! Right: you win, wrong: you are out")

    def slot_label(self, at: int, *, focused: bool) -> str:
        """A slot's label: its position and colour, and "▸" at the slot typed into (its
        tint and underline alone did not tell a player where the digits would go)."""
        return f"{at + 1} {letter(self.colours[at])}{'▸' if focused else ' '}"

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """Another slot (or button) taken by the player: a Tab there moves on again."""
        if self.moved_on is not None and event.widget.id != self.moved_on[0]:
            self.moved_on = None
        # (From the focus as it is now: keys typed fast bring the slots' focus events
        # after the next one's, and the mark stayed on a slot left behind.)
        focused = self.focused.id if self.focused is not None else None
        for at, label in enumerate(self.query(".gf-slot-label").results(Label)):
            label.update(self.slot_label(at, focused=focused == f"gf-n{at}"))
        self.refresh_bindings()  # (Enter says what it does where the focus is)

    def action_next_slot(self, step: int) -> None:
        """Tab (Shift+Tab): the next (previous) slot, except straight after two digits
        moved on by themselves: then Tab stays, as if it had moved on."""
        moved_on, self.moved_on = self.moved_on, None
        focused = self.focused
        if step > 0 and isinstance(focused, Input) and moved_on == (focused.id, focused.value):
            return
        widgets = [w for w in self.query("SlotInput, Button") if w.focusable]
        if isinstance(focused, Widget) and focused in widgets:
            self.set_focus(widgets[(widgets.index(focused) + step) % len(widgets)])
        elif widgets:
            self.set_focus(widgets[0])

    def action_step(self, step: int) -> None:
        """Put the next higher (or lower) number of the focused slot's colour in it,
        passing over the numbers that cannot be ours (seen elsewhere, crossed by the
        player, or greyed by the hint) or be there (not above what the slots before it
        can hold and below what those after can: a rack ascends, ``slots``)."""
        focused = self.focused
        if not isinstance(focused, Input) or not (focused.id or "").startswith("gf-n"):
            return
        at = int((focused.id or "gf-n0").removeprefix("gf-n"))
        colour = self.colours[at]
        passed = self.crossed | self.impossible
        # A rack ascends: above what the slots before can hold, below what those after can.
        typed = [int(t) if t.strip().isdigit() else None for t in self.texts()]
        lower, upper = slot_range(self.colours, at, typed, passed)
        numbers = [n for n in numbers_of_colour(colour)
                   if n not in passed and lower < n < upper]
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
        focused.value = str(n)
        focused.cursor_position = len(focused.value)

    def texts(self) -> list[str]:
        """What is typed in the five slots."""
        return [self.query_one(f"#gf-n{i}", Input).value for i in range(len(self.colours))]

    @on(Input.Changed)
    def check(self, event: Input.Changed | None = None) -> None:
        """Say what is wrong as the player types (nothing is sent until confirmed; a slot
        still empty is no mistake yet: its "?" says so)."""
        typing = self.focused.id if isinstance(self.focused, SlotInput) else None
        at = int(typing.removeprefix("gf-n")) if typing and typing.startswith("gf-n") else None
        _, why = check_numbers(self.texts(), self.colours, typing=at)
        self.say(why)

    def say(self, why: str, asked: bool = False) -> None:
        """Show what is wrong (a slot to fill in is no mistake while typing: its "?" says
        so; ``asked``: Enter asked to announce, and is told why not)."""
        shown = "" if why.startswith("Fill in") and not asked else why
        error = self.query_one("#gf-announce-error", Label)
        note = self.query_one(".gf-note", Label)
        # The line under the slots keeps the most rows it has had, so that the slots
        # stay where they are (the bar rests on the screen's foot: a 4-row note followed
        # by a 1-row mistake moved them 3 rows down under a finger about to tap one).
        was = error if error.display else note
        self._rows = max(self._rows, was.size.height)
        for label in (error, note):
            label.styles.min_height = self._rows or None
        error.update(shown)
        error.display = bool(shown)
        note.display = not shown

    #: The most rows the line under the slots (the note, or a mistake) has had.
    _rows = 0

    def move_on(self, slot: SlotInput) -> None:
        """Two digits made a number of ``slot``'s colour: on to the next slot (now, not
        once the keys queued behind them are handled: see :class:`SlotInput`)."""
        inputs = list(self.query(SlotInput))
        at = inputs.index(slot)
        if self.focused is slot and at + 1 < len(inputs):
            following = inputs[at + 1]
            self.moved_on = (following.id, following.value)
            slot.passed_on = following
            self.set_focus(following)

    def action_enter(self) -> None:
        """Enter: a focused button is pressed; in a slot, as the slot's own Enter."""
        if isinstance(self.focused, Button):
            self.focused.press()
        else:
            self.submitted()

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted | None = None) -> None:
        """Enter: on to the next empty slot, or announce when all five are good."""
        numbers, why = check_numbers(self.texts(), self.colours)
        if numbers is not None:
            self.confirm(numbers)
            return
        if not any(text.strip() for text in self.texts()):  # (it said nothing at all)
            why = "Type your five numbers first, one a slot: ↑↓ offer the unseen ones."
        self.say(why, asked=True)  # (with a slot empty, Enter did nothing, said nothing)
        inputs = list(self.query(SlotInput))
        empty = [i for i in inputs if not i.value.strip()]
        named = re.match(r"Position (\d)", why)
        if named and 1 <= int(named[1]) <= len(inputs):
            # The slot the line names takes the keys, before any empty one (they went
            # elsewhere, and the next digits landed in a slot that was right or empty).
            inputs[int(named[1]) - 1].focus()
        elif empty:
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
        """The Close button (what was typed is kept, as with Esc)."""
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
        """What the confirmation warns of: numbers in sight elsewhere (never yours),
        numbers the hint greys (no rack that fits holds them) and numbers you crossed off
        yourself."""
        seen = [n for n in numbers if n in self.seen]
        greyed = [n for n in numbers if n in self.impossible and n not in self.seen]
        crossed = [n for n in numbers if n in self.crossed and n not in self.seen
                   and n not in self.impossible]
        out = ""
        if seen:
            out += (f" You can see {listed(seen)} elsewhere at the table: "
                    f"{'it is' if len(seen) == 1 else 'they are'} not yours.")
        if greyed:
            out += f" The hint says no rack that fits you holds {listed(greyed)}."
        if crossed:
            out += f" You crossed off {listed(crossed)} on your board."
        return out

"""A button's label, kept whole and marked while the button has the focus.

A focused button is drawn reversed, in colours a monochrome terminal does not show, so
it also wears marks around its label (▸ … ◂). Textual does not lay a button out again
when its label changes: one as wide as its label would show a longer one cut (a lobby's
"Not ready (^r)" read "Not ready" once it replaced "Ready (^r)"). Everything that sets a
label goes through here.
"""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget
from textual.widgets import Button

#: What a focused button wears around its label.
FOCUS_MARKS = ("▸ ", " ◂")


def bare_label(button: Button) -> str:
    """The button's label without its focus marks."""
    label = str(button.label)
    before, after = FOCUS_MARKS
    if label.startswith(before) and label.endswith(after):
        return label[len(before):len(label) - len(after)]
    return label


def show_label(button: Button, text: str | None = None, *, marked: bool | None = None) -> None:
    """Set the label to ``text`` (or keep it), marked if ``marked`` (or if the button
    has the focus), and lay the button out again if that changed it."""
    text = bare_label(button) if text is None else text
    if marked is None:
        marked = button.has_focus
    label = f"{FOCUS_MARKS[0]}{text}{FOCUS_MARKS[1]}" if marked else text
    if str(button.label) != label:
        # (As plain text: a label may carry a table's name from a host, and a string is
        # read as markup: "[/]" in it crashed the app.)
        button.label = Text(label)
        button.refresh(layout=True)


def mark_focus(widget: Widget, focused: bool) -> None:
    """``widget`` took the focus (``focused``) or lost it: a button puts its marks on, or
    takes them off; any other widget is left as it is."""
    if isinstance(widget, Button):
        show_label(widget, marked=focused)

"""A GET OUT! card drawn as a small framed tile: shape, value and name, in its colour."""

from __future__ import annotations

from typing import Any

from textual.dom import DOMNode
from textual.message import Message
from textual.widgets import Static

from engine.getout import SHAPES
from tui.widgets.text import set_text

SYMBOLS = {
    "geoff": "■",
    "samantha": "⬟",
    "kevin": "◆",
    "shirley": "✹",
    "tea_picker": "●",  # (⬮, an oval, is in few fonts: a blank on the web page and in DejaVu)
}
NAMES = {
    "geoff": "Geoff",
    "samantha": "Samantha",
    "kevin": "Kevin",
    "shirley": "Shirley",
    "tea_picker": "Tea Picker",
}


#: Shorter names for narrower cards (a hand too long for the row at full size).
SHORT_NAMES = {
    "geoff": "Geoff",
    "samantha": "Sam",
    "kevin": "Kevin",
    "shirley": "Shirl",
    "tea_picker": "Tea",
}
#: A card's width (frame included) at each size: the hand takes the largest that fits.
#: (7 is the narrowest whose frame still holds the ▼ and ✓ marks.)
WIDTHS = {"full": 12, "compact": 7}


def card_label(card: dict[str, Any]) -> str:
    """A card in words for logs and messages, e.g. "Kevin 7" or "GET OUT!"."""
    if card.get("wild"):
        return "GET OUT!"
    return f"{NAMES[card['image']]} {card['value']}"


def image_label(image: str) -> str:
    """An image with its symbol, e.g. "◆ Kevin"."""
    return f"{SYMBOLS[image]} {NAMES[image]}"


class CardWidget(Static):
    """One face-up card: the call card. (The hand draws its cards itself, with the same
    look: :class:`~tui.games.getout.hand.HandWidget`; a click there posts
    :class:`CardWidget.Chosen`.)"""

    DEFAULT_CSS = """
    CardWidget {
        width: 12;
        height: 4;
        border: round $foreground 40%;
        content-align: center middle;
        text-align: center;
        border-title-align: center;
        border-subtitle-align: center;
    }
    """

    class Chosen(Message):
        """The player clicked this card (in the hand)."""

        def __init__(self, card: dict[str, Any]) -> None:
            super().__init__()
            self.card = card

    #: (playable, selected) as last shown.
    _dressed: tuple[bool, bool] = (False, False)

    def __init__(self, card: dict[str, Any], *, playable: bool = False,
                 selected: bool = False, size: str = "full", id: str | None = None) -> None:
        # Made with its classes: each class added later restyles the widget, mounted or
        # not (a hand of cards dealt, ~1 ms before the table's first frame).
        image = "wild" if card.get("wild") else card["image"]
        classes = ([f"image-{image}"] + (["playable"] if playable else [])
                   + (["selected"] if selected else []))
        super().__init__(self.face(card, size), id=id, classes=" ".join(classes))
        self.card = card
        #: "full" or "compact" (``WIDTHS``): what the face is written for.
        self.size_name = size
        self._dress(card, playable, selected)

    def show(self, card: dict[str, Any], *, playable: bool = False,
             selected: bool = False, size: str = "full") -> None:
        """Show ``card`` in this widget: the call pile re-dresses its card widget from
        update to update instead of removing and mounting one each time."""
        if card == self.card and (playable, selected) == self._dressed \
                and size == self.size_name:
            return
        if card != self.card or size != self.size_name:
            # A fixed box (its width set by the hand's size class): no relayout.
            set_text(self, self.face(card, size))
            self.remove_class(*(c for c in self.classes if c.startswith("image-")))
        self.card = card
        self.size_name = size
        self._dress(card, playable, selected)

    def _dress(self, card: dict[str, Any], playable: bool, selected: bool) -> None:
        self._dressed = (playable, selected)
        image = "wild" if card.get("wild") else card["image"]
        self.add_class(f"image-{image}")
        self.set_class(playable, "playable")
        # Marks that need no colour: ✓ on a card that can be played, ▼ over the chosen one.
        self.border_subtitle = "✓" if playable else ""
        self.select(selected)
        self.tooltip = self.describe(card, playable)

    def select(self, selected: bool) -> None:
        """Mark (or unmark) this card as the chosen one."""
        self._dressed = (self._dressed[0], selected)
        self.set_class(selected, "selected")
        self.border_title = "▼" if selected else ""

    @staticmethod
    def face(card: dict[str, Any], size: str = "full") -> str:
        """What is printed on the card, at its size (``WIDTHS``)."""
        if card.get("wild"):
            return "★ ★ ★\nGET OUT!" if size == "full" else "GET\nOUT!"
        symbol, value, image = SYMBOLS[card["image"]], card["value"], card["image"]
        if size == "compact":
            return f"{symbol} {value}\n{SHORT_NAMES[image]}"
        return f"{symbol}  {value}\n{NAMES[image]}"

    @staticmethod
    def describe(card: dict[str, Any], playable: bool) -> str:
        """A tooltip: the card in words and whether it can be played."""
        if card.get("wild"):
            text = "GET OUT! card: wild, names the next image; 20 points if held"
        else:
            text = f"{card_label(card)} ({SHAPES[card['image']]})"
        return text + (" — playable" if playable else "")

    def on_click(self) -> None:
        """Clicking a card asks to play it."""
        self.post_message(self.Chosen(self.card))


#: The images a card can show (a GET OUT! card is ``wild``), as its CSS classes name them.
IMAGES = ("geoff", "samantha", "kevin", "shirley", "tea_picker", "wild")
def state_classes(image: str, playable: bool, selected: bool) -> str:
    """The CSS classes of a card in the hand, as a ``CardWidget`` in that state has them."""
    return " ".join(["card", f"image-{image}"] + (["playable"] if playable else [])
                    + (["selected"] if selected else []))


def card_classes(card: dict[str, Any], playable: bool, selected: bool) -> str:
    """:func:`state_classes` of ``card``."""
    return state_classes("wild" if card.get("wild") else card["image"], playable, selected)


class HandCard(DOMNode):
    """A card of the hand in one state (its CSS classes), for the stylesheet to style:
    never mounted, so only rules for ``HandCard`` itself (no ancestors) apply."""


#: Every state a card can be drawn in (its classes).
CARD_STATES = frozenset(
    state_classes(image, playable, selected)
    for image in IMAGES for playable in (False, True) for selected in (False, True))

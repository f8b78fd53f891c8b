"""The table's chat line: one line of text to send, whose empty words fit its width."""

from __future__ import annotations

from rich.cells import cell_len
from textual.reactive import reactive

from tui.widgets.text_line import TextLine

#: The chat line's words while it is empty. Enter sends and gives the keys back to the
#: table, Esc gives them back unsent; ``?`` (not in the footer: no room at 80 columns)
#: opens the rules and the keys. Longest first: the line shows the longest that fits.
CHAT_OPEN = ("/ chat (Enter sends, Esc cancels) · ? rules and keys",
             "/ chat (Enter sends, Esc cancels) · ? rules", "/ chat · ? rules")
CHAT_OFF = ("no chat until the round is over: the game is silent · ? rules and keys",
            "no chat until the round is over · ? rules and keys", "no chat · ? rules")
#: Its words while it has the keys and nothing is typed yet: it says it is listening.
CHAT_TYPING = ("type a line to the table: Enter sends it, Esc gives the keys back",
               "type a line: Enter sends, Esc cancels", "Enter sends, Esc cancels")

#: The same words on a touch screen (a phone has no / or ? or Esc: it taps the line, and
#: the footer keeps "? Rules" there).
TOUCH_WORDS: dict[tuple[str, ...], tuple[str, ...]] = {
    CHAT_OPEN: ("tap here to chat (Enter sends)", "tap to chat"),
    CHAT_OFF: ("no chat until the round is over: the game is silent",
               "no chat until the round is over", "no chat"),
    CHAT_TYPING: ("type a line to the table: Enter sends it", "type a line: Enter sends",
                  "Enter sends"),
}
#: The lobby's chat and name lines while empty.
LOBBY_CHAT = ("/ to chat (Enter sends)",)
RENAME = ("n: your name (Enter renames)",)
TOUCH_WORDS[LOBBY_CHAT] = ("tap here to chat (Enter sends)",)
TOUCH_WORDS[RENAME] = ("tap here to rename (Enter renames)",)


def keyed(app: object, label: str, key: str) -> str:
    """A button's ``label`` with its ``key`` ("Start (^s)"), but on a touch screen,
    which has no such key (and at a phone's 41 columns "Start (^s" was cut)."""
    return label if getattr(app, "touch", False) else f"{label} ({key})"


def for_touch(app: object, words: tuple[str, ...]) -> tuple[str, ...]:
    """``words``, or on a touch screen (``app.touch``) what a finger can do instead."""
    return TOUCH_WORDS.get(words, words) if getattr(app, "touch", False) else words


class ChatLine(TextLine):
    """The table's chat line: a compact ``Input``, compact from the start.

    ``Input``'s ``compact`` toggles Textual's class for it, and each toggle restyles
    the line at once, mounted or not: made compact, it would be styled twice before it
    is mounted (its default, then ``compact=True``). Made with the class, and compact by
    default, it is styled once.
    """

    compact = reactive(True, toggle_class="-textual-compact")

    def __init__(self, *, words: tuple[str, ...], id: str, max_length: int) -> None:
        super().__init__(placeholder=words[0], id=id, max_length=max_length,
                         compact=True, classes="-textual-compact")
        self._words = words
        #: Whether it has the keys (its words then say it listens).
        self._typing = False

    @property
    def words(self) -> tuple[str, ...]:
        """What the empty line says, longest first: it shows the longest that fits."""
        return self._words

    @words.setter
    def words(self, words: tuple[str, ...]) -> None:
        self._words = words
        self._fit()

    def on_resize(self) -> None:
        self._fit()

    def on_focus(self) -> None:
        self._typing = True  # (``has_focus`` says so only once the event is handled)
        self._fit()

    def on_blur(self) -> None:
        self._typing = False
        self._fit()

    def _fit(self) -> None:
        words = for_touch(self.app, CHAT_TYPING if self._typing else self._words)
        width = self.content_size.width
        self.placeholder = next((w for w in words if cell_len(w) <= width),
                                words[-1]) if width else words[0]

"""Lines that wrap under themselves, never inside a name or a piece.

Rich wraps a line at any space (a no-break space too), so a card's name ran over two
lines ("Ann drew Tea Picker" / "8"), and a wrapped line went on under whatever came
before its words (a move's number). :class:`HangingLine` wraps at the width it is drawn
at: a number stays with the word before it ("Picker 8", "Bot 2") and with the numbers
listed with it ("Geoff 2, 5 and 10"), the names in
:data:`KEPT_WHOLE` stay whole, and the lines after the first start under the first's
words. :func:`wrap_pieces` does the same for pieces of styled text (a rack's tiles).
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text

#: Names of more than one word that never break.
KEPT_WHOLE = ("Tea Picker", "GET OUT!")
#: Holds a name's words together while wrapping (``textwrap`` breaks only at ASCII
#: whitespace); drawn as a space.
_JOIN = "\u00a0"
_BEFORE_NUMBER = re.compile(r" (?=\d)")
#: Between two numbers of a list ("2, 5 and 10"): a card's image keeps its numbers.
_IN_NUMBER_LIST = re.compile(r"(?<=\d)(, | and )(?=\d)")


def keep_together(words: str, names: Iterable[str] = KEPT_WHOLE) -> str:
    """``words`` with the spaces that must not break joined (see the module)."""
    for name in names:
        words = words.replace(name, name.replace(" ", _JOIN))
    words = _IN_NUMBER_LIST.sub(lambda match: match[1].replace(" ", _JOIN), words)
    return _BEFORE_NUMBER.sub(_JOIN, words)


def wrap_words(words: str, width: int) -> list[str]:
    """``words`` on lines of at most ``width`` cells where the names allow (a name longer
    than a line is cut by the widget, not broken)."""
    lines = textwrap.wrap(keep_together(words), width=max(1, width),
                          break_long_words=False, break_on_hyphens=False)
    return [line.replace(_JOIN, " ") for line in lines] or [""]


def wrap_pieces(pieces: Iterable[Text], width: int, indent: int, *,
                first: Text | None = None) -> list[Text]:
    """``pieces`` on lines of at most ``width`` cells where they fit, a space between two
    on a line, never one cut (a tile cut at ``D44•`` would read as another tile). The
    first line starts with ``first`` (a name), the others with ``indent`` spaces."""
    lines: list[Text] = []
    line = first.copy() if first is not None else Text(" " * indent)
    filled = False  # a piece on the line yet
    for piece in pieces:
        if filled and line.cell_len + 1 + piece.cell_len > width:
            lines.append(line)
            line, filled = Text(" " * indent), False
        if filled:
            line.append(" ")
        line.append_text(piece)
        filled = True
    lines.append(line)
    return lines


class HangingLine:
    """``head`` (a move's number), then ``words`` wrapped under themselves."""

    def __init__(self, head: str, words: str, *, gap: int = 2) -> None:
        self.head = head
        self.words = words
        self.gap = gap

    def __str__(self) -> str:
        """The line unwrapped, as plain text."""
        return f"{self.head}{' ' * self.gap}{self.words}"

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        whole = len(self.head) + self.gap + len(self.words)
        return Measurement(min(whole, len(self.head) + self.gap + 8), whole)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        indent = len(self.head) + self.gap
        lines = wrap_words(self.words, options.max_width - indent)
        for i, line in enumerate(lines):
            lead = self.head + " " * self.gap if i == 0 else " " * indent
            # A word longer than the line (a long name) is cut with "…": cut bare, two
            # names sharing their start read as one.
            yield Text(lead + line, no_wrap=True, overflow="ellipsis", end="\n")

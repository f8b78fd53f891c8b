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
from collections.abc import Iterable, Iterator

from rich.cells import cell_len
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


#: Where :class:`Phrases` may break a line: after a " ·", a "," or a ";" (the separator
#: stays at the end of the line, the space goes).
BETWEEN_PHRASES = re.compile(r"(?<= ·) |(?<=[,;]) ")
#: At any space but one inside brackets ("(? explains them)" is one phrase: a line
#: ended "(?" and the next began "explains them).").
OUTSIDE_BRACKETS = re.compile(r" (?![^(]*\))")
#: Between the entries of a row spaced by two ("Ann 5  Bob 39").
BETWEEN_ENTRIES = re.compile(r"(?<=\S)  (?=\S)")
_SPACE = re.compile(r" ")


class Phrases:
    """A line of phrases ("move 12 of 40 · round 2 of 3 · everything open") that wraps
    between them, never inside one that fits on a line: Rich wrapped at any space, so a
    review read "round 6 of 6 (] next) · everything" / "open", and "Bot" / "4 38".

    ``text`` keeps its styles (``Text``) or is plain; a line ``\\n`` starts a paragraph of
    its own; ``breaks`` says where a line may break; a phrase longer than a line breaks at
    its spaces, a word longer than a line is cut with "…". Lines after a paragraph's first
    start ``indent`` cells in.
    """

    def __init__(self, text: str | Text, *, indent: int = 0,
                 breaks: re.Pattern[str] = BETWEEN_PHRASES) -> None:
        self.text = text if isinstance(text, Text) else Text(text)
        self.indent = indent
        self.breaks = breaks

    def __str__(self) -> str:
        return self.text.plain

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        paragraphs = self.text.plain.split("\n")
        longest_phrase = max((cell_len(p) for para in paragraphs
                              for p in self.breaks.split(para)), default=0)
        return Measurement(min(longest_phrase, options.max_width),
                           max((cell_len(p) for p in paragraphs), default=0))

    def spans(self, width: int) -> list[tuple[int, int]]:
        """Each line's start and end in the text, ``width`` cells wide."""
        plain, lines, start = self.text.plain, [], 0
        for para in plain.split("\n"):
            lines += self._para_spans(plain, start, start + len(para), width)
            start += len(para) + 1
        return lines

    def _para_spans(self, plain: str, start: int, end: int,
                    width: int) -> list[tuple[int, int]]:
        lines: list[tuple[int, int]] = []
        line_start: int | None = None
        line_end = start

        def room() -> int:
            return max(1, width - (self.indent if lines else 0))

        for piece_start, piece_end in _pieces(self.breaks, plain, start, end):
            if line_start is not None and cell_len(plain[line_start:piece_end]) <= room():
                line_end = piece_end
                continue
            if cell_len(plain[piece_start:piece_end]) <= room():
                if line_start is not None:
                    lines.append((line_start, line_end))
                line_start, line_end = piece_start, piece_end
                continue
            # Longer than a line: its words go on from where the line is (a short phrase
            # before it stood alone: "▸ Seats 2," over "3 and 4 are empty: wait for …").
            for word_start, word_end in _pieces(_SPACE, plain, piece_start, piece_end):
                if line_start is None:
                    line_start, line_end = word_start, word_end
                    continue
                if cell_len(plain[line_start:word_end]) > room():
                    if line_end > line_start:
                        lines.append((line_start, line_end))
                    line_start = word_start
                line_end = word_end
        lines.append((line_start if line_start is not None else start, line_end))
        return lines

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for i, (start, end) in enumerate(self.spans(options.max_width)):
            lead = " " * self.indent if i and not self._starts_paragraph(start) else ""
            line = Text(lead, no_wrap=True, overflow="ellipsis", end="\n")
            line.append_text(self.text[start:end])
            yield line

    def _starts_paragraph(self, start: int) -> bool:
        return start == 0 or self.text.plain[start - 1] == "\n"


def _pieces(breaks: re.Pattern[str], plain: str, start: int,
            end: int) -> Iterator[tuple[int, int]]:
    """The spans of ``plain[start:end]`` between the matches of ``breaks``."""
    at = start
    for match in breaks.finditer(plain, start, end):
        yield at, match.start()
        at = match.end()
    yield at, end

"""A Get It! seat card's edges in words: its title (the seat's number and player's
name, cut to fit, a person away said whole) and the first wording of several that fits."""

from __future__ import annotations

from rich.cells import cell_len
from textual.markup import escape


def fitted(room: int, *choices: str) -> str:
    """The first of ``choices`` that fits in ``room`` cells (else the last)."""
    return next((choice for choice in choices if cell_len(choice) <= room), choices[-1])


def named(room: int, seat: int, name: str | tuple[str, ...], then: str) -> str:
    """A card's title in ``room`` cells: its seat's number and player's name, then
    ``then``; the name cut ("Bartho…") or left out where there is no room for it (a
    phone's width: the number is what the keys say, and "2 …" read as cut). ``name``
    may be several wordings, the first that fits whole taken, the last cut to fit (a
    bot standing in: "Bot 2 for Bob [bot]", then "Bob [bot]")."""
    number = str(seat + 1)
    names = (name,) if isinstance(name, str) else name
    whole = next((f"{number} {n}{then}" for n in names[:-1]
                  if cell_len(f"{number} {n}{then}") <= room), None)
    if whole is not None:
        return escape(whole)
    name = names[-1]
    # The mark of a person away (or of a bot) stays whole, shorter before it goes: the
    # name gives way first (it was cut as one with the name: "2 Bob [awa…").
    marks = next((m for m in MARKS if name.endswith(m[0])), ("",))
    base = name[:-len(marks[0])] if marks[0] else name
    shown = next((f"{number} {cut}{mark}{then}"
                  for mark in marks for cut in cuts(base)
                  if cell_len(f"{number} {cut}{mark}{then}") <= room), None)
    if shown is None:
        shown = fitted(room, f"{number}{then}", number)
    # (A border's title is markup: a name's "[" would be read as a tag, and a
    # "[@click=…]" in it as an action in this app.)
    return escape(shown)


#: What a seat's name ends with while its person is away (``tui.games.getit.seats``),
#: or while a bot keeps it for them.
AWAY = " [away]"
BOT = " [bot]"
#: Those marks, each with its shorter words where the title has no room for it.
MARKS = ((AWAY, " away", ""), (BOT, " bot", ""))


def cuts(name: str) -> list[str]:
    """``name`` whole, then shorter and shorter with "…", down to two letters of it."""
    return [name, *(f"{name[:k].rstrip()}…" for k in range(len(name) - 1, 1, -1))]

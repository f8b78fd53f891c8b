"""A Get It! seat card's edges in words: its title (the seat's number and player's
name, cut to fit, a person away said whole) and the first wording of several that fits."""

from __future__ import annotations

from rich.cells import cell_len
from textual.markup import escape


def fitted(room: int, *choices: str) -> str:
    """The first of ``choices`` that fits in ``room`` cells (else the last)."""
    return next((choice for choice in choices if cell_len(choice) <= room), choices[-1])


def named(room: int, seat: int, name: str, then: str) -> str:
    """A card's title in ``room`` cells: its seat's number and player's name, then
    ``then``; the name cut ("Bartho…") or left out where there is no room for it (a
    phone's width: the number is what the keys say, and "2 …" read as cut)."""
    number = str(seat + 1)
    # The mark of a person away stays whole, shorter before it goes: the name gives way
    # first (it was cut as one with the name: "2 Bob [awa…").
    away = name.endswith(AWAY)
    base = name[:-len(AWAY)] if away else name
    shown = next((f"{number} {cut}{mark}{then}"
                  for mark in ((AWAY, " away", "") if away else ("",)) for cut in cuts(base)
                  if cell_len(f"{number} {cut}{mark}{then}") <= room), None)
    if shown is None:
        shown = fitted(room, f"{number}{then}", number)
    # (A border's title is markup: a name's "[" would be read as a tag, and a
    # "[@click=…]" in it as an action in this app.)
    return escape(shown)


#: What a seat's name ends with while its person is away (``tui.games.getit.seats``).
AWAY = " [away]"


def cuts(name: str) -> list[str]:
    """``name`` whole, then shorter and shorter with "…", down to two letters of it."""
    return [name, *(f"{name[:k].rstrip()}…" for k in range(len(name) - 1, 1, -1))]

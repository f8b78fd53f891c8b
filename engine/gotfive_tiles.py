"""Got Five!'s sixty tiles as numbers: colours, dots and the faces a view shows.

Tile ``n`` (1..60) has colour ``(n - 1) % 5`` and ``((n - 1) // 5) % 3 + 1`` dots. The
game (:mod:`engine.gotfive`), its solver (:mod:`engine.gotfive_solver`) and its hints
(:mod:`engine.gotfive_hint`) all count with these, so they live here, below all three:
the game imports the hints, the hints the solver, and neither imports the game back.
:mod:`engine.gotfive` re-exports every name, where the rest of the code looks them up.
"""

from __future__ import annotations

from engine.core import Plain

COLOURS = 5
TILES = 60
PER_COLOUR = TILES // COLOURS  # 12
RACK = 5


def colour_of(n: int) -> int:
    """The colour index (0..4) of tile ``n``."""
    return (n - 1) % COLOURS


def dots_of(n: int) -> int:
    """The number of dots (1..3) on tile ``n``."""
    return ((n - 1) // COLOURS) % 3 + 1


def tile(n: int) -> dict[str, Plain]:
    """Tile ``n`` face up, as the contract's plain dict."""
    return {"n": n, "colour": colour_of(n), "dots": dots_of(n)}


def hidden(n: int) -> dict[str, Plain]:
    """Tile ``n`` seen from behind: its colour only."""
    return {"colour": colour_of(n)}


def numbers_of_colour(colour: int) -> list[int]:
    """The twelve numbers of one colour, ascending."""
    return list(range(colour + 1, TILES + 1, COLOURS))

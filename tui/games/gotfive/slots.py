"""Which numbers a slot of a GOT FIVE! call can hold, as a rack's order says.

A rack ascends, each position a tile of its own colour. So a number fits a slot only if
the slots before it can still hold lower numbers of their colours, and those after it
higher ones: the lowest of five tiles is never a 56 when the next position's colour has
nothing above it. (A pure function of what the player sees: their rack's colours, what
they typed, and the numbers that cannot be theirs.)
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from engine.gotfive import TILES, numbers_of_colour


def slot_range(colours: Sequence[Any], at: int, typed: Sequence[int | None],
               passed: Collection[int]) -> tuple[int, int]:
    """The numbers slot ``at`` may hold lie strictly between the two returned: the least
    the slot before it can hold, its own before it ascending from the first (a typed
    number as it is), and the most the slot after it can hold, counted down from the
    last. ``passed``: numbers that cannot be in the rack (seen elsewhere, crossed)."""
    low = 0
    for k in range(at):
        if (value := typed[k]) is not None:
            low = max(low, value)
            continue
        above = [n for n in numbers_of_colour(colours[k]) if n > low and n not in passed]
        if not above:
            break  # (what is typed cannot all be right: the call's check says so)
        low = above[0]
    high = TILES + 1
    for k in range(len(colours) - 1, at, -1):
        if (value := typed[k]) is not None:
            high = min(high, value)
            continue
        below = [n for n in numbers_of_colour(colours[k]) if n < high and n not in passed]
        if not below:
            break
        high = below[-1]
    return low, high


__all__ = ["slot_range"]

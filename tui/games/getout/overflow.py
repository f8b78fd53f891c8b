"""Which cards of a hand too long for its row are in sight, and what the line under the
cards says about the others: pure arithmetic on the row's scroll offset and width."""

from __future__ import annotations


def whole_cards_in_sight(scroll_x: int, view_width: int, card_width: int,
                         count: int) -> range:
    """The cards (of ``count``, ``card_width`` each) wholly inside the columns
    ``scroll_x`` to ``scroll_x + view_width``: the others are off the row's edges. Empty
    only when the row is narrower than a card."""
    first = min(-(-scroll_x // card_width), count)
    end = min(count, (scroll_x + view_width) // card_width)
    return range(first, max(first, end))


def off_the_edges(scroll_x: int, view_width: int, card_width: int,
                  count: int) -> tuple[int, int]:
    """How many cards are off the row's left and right edges (a row narrower than a
    card shows part of one: that one is neither)."""
    shown = whole_cards_in_sight(scroll_x, view_width, card_width, count)
    if not shown:
        before = min(count, scroll_x // card_width)
        return before, max(0, count - before - 1)
    return shown.start, count - shown.stop


def more_marks(before: int, after: int, width: int) -> tuple[str, str]:
    """What the line under the cards says at its left and right ends: how many cards are
    off that edge and the key that reaches them, "◀ 2 more (←)" and "3 more (→) ▶" (the
    counts alone if ``width`` is too narrow for both in full)."""
    left = f"◀ {before} more (←)" if before else ""
    right = f"{after} more (→) ▶" if after else ""
    if len(left) + len(right) + 1 > width:
        left, right = (f"◀ {before}" if before else ""), (f"{after} ▶" if after else "")
    return left, right

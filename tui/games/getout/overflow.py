"""Which cards of a hand too long for its row are in sight, and what the line under the
cards says about the others: pure arithmetic on the row's scroll offset and width."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any


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


def more_marks(before: int, after: int, width: int, plays_before: int = 0,
               plays_after: int = 0, *, keys: bool = True) -> tuple[str, str]:
    """What the line under the cards says at its left and right ends: how many cards are
    off that edge, how many of them play now (marked ✓ as the cards are), and the key
    that reaches them: "◀ 2 more (←)", "3 more, 1 ✓ (→) ▶" (the counts alone if
    ``width`` is too narrow for both in full: "◀ 2", "3 1✓ ▶"). Without ``keys`` (a
    phone: a swipe reaches them), no key is named."""
    left_plays = f", {plays_before} ✓" if plays_before else ""
    right_plays = f", {plays_after} ✓" if plays_after else ""
    left_key, right_key = (" (←)", " (→)") if keys else ("", "")
    left = f"◀ {before} more{left_plays}{left_key}" if before else ""
    right = f"{after} more{right_plays}{right_key} ▶" if after else ""
    if len(left) + len(right) + 1 > width:
        left = f"◀ {before}" + (f" {plays_before}✓" if plays_before else "") if before else ""
        right = f"{after}" + (f" {plays_after}✓" if plays_after else "") + " ▶" if after else ""
    return left, right


def hand_marks(cards: Sequence[dict[str, Any]], playable: Collection[int], before: int,
               after: int, width: int, *, keys: bool = True) -> tuple[str, str]:
    """:func:`more_marks` for a hand: ``before`` and ``after`` of ``cards`` are off the
    edges, and those whose ids are in ``playable`` play now."""
    plays = [card["id"] in playable for card in cards]
    return more_marks(before, after, width, sum(plays[:before]),
                      sum(plays[len(plays) - after:]), keys=keys)

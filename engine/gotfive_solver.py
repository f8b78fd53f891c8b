"""What a Got Five! seat can deduce about its own rack, from its view alone.

Given one seat's view (the plain data ``game.view(seat)``, e.g. as received over the
wire), :func:`consistent_assignments` lists every assignment of numbers to that seat's
five hidden tiles that agrees with everything the seat knows:

* the numbers it can see are not its own: the public row, every clue tile, every other
  rack (opponents' racks face it);
* the colour of each of its hidden tiles;
* the rack is in ascending order;
* every sort clue about its own rack (notch ``k``: exactly ``k`` hidden numbers are
  lower than the tile, so — the rack being ascending — positions ``0..k-1`` are lower
  and positions ``k..4`` are higher);
* every compare clue about its own rack (same number of dots, or not).

Nothing else in the view carries information about the seat's own numbers: the
face-down supply is a count per colour, and each colour's unseen tiles are always its
own one plus that colour's supply count. So the list is exact.

Every constraint but the order is a filter on one position, so the search filters each
position's candidates, prunes them by the order in both directions (after which every
candidate left is part of at least one assignment), and then builds the assignments
from the right, joining each candidate to the sorted suffixes that start above it. The
work is proportional to the size of the answer.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any

from engine.gotfive_tiles import colour_of, dots_of, numbers_of_colour


def _seen_numbers(view: Mapping[str, Any], seat: int) -> set[int]:
    seen = {t["n"] for t in view["public"]}
    seen.update(clue["tile"] for clue in view["clues"])
    for owner, rack in enumerate(view["racks"]):
        if owner != seat:
            seen.update(t["n"] for t in rack if "n" in t)
    return seen


def position_candidates(view: Mapping[str, Any]) -> list[list[int]]:
    """For each of the viewing seat's rack positions, the numbers it may still hold.

    Exact: each number listed is part of at least one consistent assignment, and every
    consistent assignment takes its numbers from these lists. All lists are empty when
    nothing is consistent (which a real view never is).
    """
    seat = view.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise ValueError("a spectator's view has no rack of its own to deduce")
    own: Sequence[Mapping[str, Any]] = view["racks"][seat]
    seen = _seen_numbers(view, seat)
    cands: list[list[int]] = []
    for t in own:
        if "n" in t:
            cands.append([t["n"]])
        else:
            cands.append([n for n in numbers_of_colour(t["colour"]) if n not in seen])
    size = len(own)
    for clue in view["clues"]:
        if clue["seat"] != seat:
            continue
        n = clue["tile"]
        if clue["clue"] == "sort":
            notch = clue["notch"]
            for p in range(size):
                if p < notch:
                    cands[p] = [x for x in cands[p] if x < n]
                else:
                    cands[p] = [x for x in cands[p] if x > n]
        else:
            p = clue["position"]
            want = dots_of(n)
            same = clue["same"]
            cands[p] = [x for x in cands[p] if (dots_of(x) == want) == same]
    # Order pruning: left to right every number must top some number before it, right
    # to left it must stay under some number after it. Two sweeps make it exact.
    for p in range(1, size):
        if not cands[p - 1]:
            return [[] for _ in range(size)]
        low = cands[p - 1][0]
        cands[p] = [x for x in cands[p] if x > low]
    for p in range(size - 2, -1, -1):
        if not cands[p + 1]:
            return [[] for _ in range(size)]
        high = cands[p + 1][-1]
        cands[p] = [x for x in cands[p] if x < high]
    if any(not c for c in cands):
        return [[] for _ in range(size)]
    return cands


def consistent_assignments(view: Mapping[str, Any]) -> list[tuple[int, ...]]:
    """Every assignment of numbers to the viewing seat's rack that fits what it knows.

    ``view`` is ``game.view(seat)`` for a Got Five! seat (plain data; lists or tuples
    alike). Returns tuples in rack order (so each is ascending), sorted. Once the seat
    is out or the game is over its numbers are in its view and the answer is just them.
    """
    cands = position_candidates(view)
    if not cands or not cands[0]:
        return []
    suffixes: list[tuple[int, ...]] = [(x,) for x in cands[-1]]
    for p in range(len(cands) - 2, -1, -1):
        firsts = [s[0] for s in suffixes]
        joined: list[tuple[int, ...]] = []
        for x in cands[p]:
            start = bisect_right(firsts, x)
            joined.extend([(x, *s) for s in suffixes[start:]])
        suffixes = joined
    return suffixes


def is_consistent(view: Mapping[str, Any], numbers: Sequence[int]) -> bool:
    """Whether ``numbers`` (in rack order) fits everything the viewing seat knows.

    A direct check of one assignment, independent of the search: useful to test it.
    """
    seat = view["seat"]
    own = view["racks"][seat]
    if len(numbers) != len(own):
        return False
    if any(a >= b for a, b in pairwise(numbers)):
        return False
    seen = _seen_numbers(view, seat)
    for t, x in zip(own, numbers, strict=True):
        if x in seen or colour_of(x) != t["colour"] or ("n" in t and t["n"] != x):
            return False
    for clue in view["clues"]:
        if clue["seat"] != seat:
            continue
        n = clue["tile"]
        if clue["clue"] == "sort":
            if sum(1 for x in numbers if x < n) != clue["notch"] or n in numbers:
                return False
        elif (dots_of(numbers[clue["position"]]) == dots_of(n)) != clue["same"]:
            return False
    return True

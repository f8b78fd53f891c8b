"""The Got Five! table option ``hints``: an exact aid computed from a seat's view alone.

:func:`hint_for` takes one seat's view — exactly what :meth:`GotFive.view` returns
for that seat before the hint is added, or the same data after a msgpack round trip —
and a mode, and returns the hint as plain data:

* ``"off"`` (the default, as on paper): ``None``; the view carries no ``hint`` key.
* ``"count"``: ``{"count": N}``, the number of assignments of numbers to the seat's
  five tiles still consistent with what it knows (its tiles' colours, every sort and
  compare clue about its rack, every number it can see, the rack's ascending order;
  see :mod:`engine.gotfive_solver`). The seat's true rack is always one of them, so
  ``N >= 1`` in a real game; ``N == 1`` means it can announce.
* ``"board"``: ``{"count": N, "possible": {"0": [...], ..., "4": [...]}, "certain":
  [...]}``. ``possible`` is keyed by **colour** (``"0"``..``"4"``, str keys as plain
  data wants; the rows of the board): the numbers of that colour, ascending, that at
  least one consistent rack holds. Every other number of the row is held by no
  consistent rack, so a board may grey it. ``certain`` lists, ascending, the numbers
  every consistent rack holds; a rack holds one tile per colour, so these are exactly
  the rows whose ``possible`` has a single number.

Spectators get no hint (``None``: there is no rack of theirs to deduce). A seat that is
out, or any seat once the game is over, sees its own rack face up; its hint is then
the trivial ``{"count": 1, ...}`` naming the rack it already sees, so it reveals
nothing new, and the UI may keep showing it or hide it.

Everything comes from :func:`engine.gotfive_solver.position_candidates`, which is
exact per position (each candidate is part of some consistent rack). The count is not
an enumeration: a right-to-left pass counts, for each candidate, the ascending
suffixes that start with it, so a hint costs about as much as building the view,
whatever the number of racks.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import Plain
from engine.gotfive_solver import position_candidates
from engine.gotfive_tiles import COLOURS

#: The values of the ``hints`` table option, in the order a form offers them.
MODES = ("off", "count", "board")


def count_consistent(cands: Sequence[Sequence[int]]) -> int:
    """How many ascending racks take position ``p``'s number from ``cands[p]``.

    ``cands`` lists, per rack position, the numbers it may hold, ascending (as
    :func:`engine.gotfive_solver.position_candidates` returns them). Counts without
    listing: ``ways[i]`` is the number of ascending suffixes starting with the ``i``-th
    candidate of the current position.
    """
    if not cands or any(not c for c in cands):
        return 0
    nums: list[int] = list(cands[-1])
    ways: list[int] = [1] * len(nums)
    for p in range(len(cands) - 2, -1, -1):
        tail = _tails(ways)
        here = list(cands[p])
        ways = [tail[bisect_right(nums, x)] for x in here]
        nums = here
    return sum(ways)


def _tails(ways: Sequence[int]) -> list[int]:
    """``out[i] = sum(ways[i:])`` for ``i`` in ``0..len(ways)`` (so ``out[-1] == 0``)."""
    out = [0] * (len(ways) + 1)
    for i in range(len(ways) - 1, -1, -1):
        out[i] = out[i + 1] + ways[i]
    return out


def hint_for(view: Mapping[str, Any], mode: str) -> dict[str, Plain] | None:
    """The hint for the seat whose view ``view`` is, in ``mode``; see the module docstring.

    ``view`` must not need anything but itself: the answer depends only on its
    ``seat``, ``racks``, ``public`` and ``clues``. Returns ``None`` when ``mode`` is
    ``"off"`` or the view is a spectator's; raises ``ValueError`` for an unknown mode.
    """
    if mode not in MODES:
        allowed = ", ".join(repr(m) for m in MODES)
        raise ValueError(f"hints must be one of {allowed}, not {mode!r}")
    seat = view.get("seat")
    if mode == "off" or not isinstance(seat, int) or isinstance(seat, bool):
        return None
    cands = position_candidates(view)
    hint: dict[str, Plain] = {"count": count_consistent(cands)}
    if mode == "board":
        colours = [t["colour"] for t in view["racks"][seat]]
        possible: dict[str, list[int]] = {str(c): [] for c in range(COLOURS)}
        for colour, numbers in zip(colours, cands, strict=True):
            possible[str(colour)] = list(numbers)
        hint["possible"] = possible
        hint["certain"] = sorted(c[0] for c in cands if len(c) == 1)
    return hint

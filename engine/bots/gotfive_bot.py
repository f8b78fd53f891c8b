"""A Got Five! player that deduces its own rack from its view alone.

The bot sees exactly what a human seat sees: its view (plain data, as received over the
wire) and its legal actions. All its knowledge comes from
:func:`engine.gotfive_solver.consistent_assignments`, the list of every assignment of
numbers to its five hidden tiles that fits what the view shows. Each of those is
equally likely — every seat's tiles were dealt at random, and every clue and reveal
since is a deterministic function of the tiles (or, for a reveal, equally likely for
every assignment that leaves the revealed tile free) — so the bot simply counts.

What it does, in order:

* **Announce** the moment exactly one assignment remains, whatever the phase and whose
  turn it is (announcing is allowed at any moment). It never announces otherwise, with
  one exception forced by the rules: in the no-tiles-left ``announce`` phase the only
  move is to announce. Then, should several assignments remain, it names one of them
  (all are equally likely, so it takes the one its seeded generator picks). In a real
  game this cannot happen: with the supply and the public row empty, every tile that is
  not on the seat's own rack is on another rack or beside a rack as a clue, all in
  sight, so exactly five numbers are unaccounted for and one assignment remains.
* **Reveal** the colour whose reveal is expected to leave the fewest assignments. The
  revealed tile is the top of that colour's face-down stack: for an assignment ``a``
  it is equally likely to be any unseen tile of the colour other than ``a``'s own, and
  it rules out every assignment that holds it. Colours the bot is already sure of
  score no gain; ties go to the seeded generator.
* **Clue**: of every listed sort and compare, the one expected to leave the fewest
  assignments: ``Σ over answers of (assignments giving that answer)² / total``. The
  answer counts come from per-position tallies, so scoring every clue costs about as
  much as one pass over the assignments. Ties (within a rounding margin) go to the
  seeded generator, so games replay exactly.

It never marks its board (marks are private and change nothing) and waits (``None``)
when it has nothing to do.

**Levels.** The table option ``bots`` (in every view when it is not the default) says
how the bots play: ``strong`` as above; ``casual``, a player who keeps only about
two clues in three in mind (each clue is remembered or not once and for all, by the
bot's seed) and takes the best-looking clue or reveal only half the time, another at
random otherwise; ``normal`` between them (about six clues in seven kept, one move in
five at random). A casual or normal bot still never announces a wrong rack unless the
rules force it to: the truth fits every subset of the clues, so when only one rack fits the
clues it remembers, that rack is right. It just needs more clues to get there.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.core import Action, View
from engine.gotfive import dots_of, numbers_of_colour
from engine.gotfive_solver import consistent_assignments

Assignment = tuple[int, ...]

# Expected counts closer than this are a tie (float sums of the same squares).
EPSILON = 1e-9
#: The levels a table's ``bots`` option names.
LEVELS = ("casual", "normal", "strong")
#: Per level: the share of clues a bot keeps in mind, and of moves chosen at random.
FORGETS = {"casual": (0.65, 0.5), "normal": (0.85, 0.2), "strong": (1.0, 0.0)}
CASUAL_REMEMBERS, CASUAL_RANDOM = FORGETS["casual"]


class Tallies:
    """Per-position tallies of a list of assignments, to score every clue quickly.

    ``values[p]`` is the sorted list of numbers position ``p`` takes over all the
    assignments (with repeats), so the count of assignments whose position ``p`` is
    below ``x`` is one bisection; ``dots[p]`` counts the assignments by the dots of
    position ``p``.
    """

    def __init__(self, assignments: Sequence[Assignment]) -> None:
        self.total = len(assignments)
        size = len(assignments[0]) if assignments else 0
        self.values: list[list[int]] = [sorted(a[p] for a in assignments) for p in range(size)]
        self.dots: list[Counter[int]] = [
            Counter(dots_of(a[p]) for a in assignments) for p in range(size)
        ]

    def below(self, position: int, n: int) -> int:
        """How many assignments hold a number lower than ``n`` at ``position``."""
        return bisect_left(self.values[position], n)

    def sort_counts(self, n: int) -> list[int]:
        """How many assignments give each notch (0..5) when tile ``n`` is sorted.

        The rack is ascending, so notch ``k`` means position ``k-1`` is below ``n`` and
        position ``k`` is not: the count is ``below(k-1) - below(k)``.
        """
        size = len(self.values)
        under = [self.total, *(self.below(p, n) for p in range(size)), 0]
        return [under[k] - under[k + 1] for k in range(size + 1)]

    def compare_counts(self, n: int, position: int) -> list[int]:
        """How many assignments answer yes and no when tile ``n`` is compared at ``position``."""
        same = self.dots[position][dots_of(n)]
        return [same, self.total - same]


def expected_left(counts: Sequence[int]) -> float:
    """The expected number of assignments left after a clue whose answers split them so.

    Each answer is as likely as the share of assignments that give it, and leaves just
    those: ``Σ c² / total``.
    """
    total = sum(counts)
    return sum(c * c for c in counts) / total if total else 0.0


def clue_score(tallies: Tallies, action: Mapping[str, Any]) -> float:
    """The expected number of assignments left after the sort or compare ``action``."""
    n = action["tile"]
    if action["type"] == "sort":
        return expected_left(tallies.sort_counts(n))
    return expected_left(tallies.compare_counts(n, action["position"]))


def reveal_score(
    assignments: Sequence[Assignment], view: Mapping[str, Any], colour: int
) -> float:
    """The expected number of assignments left after revealing a tile of ``colour``.

    The colour's unseen tiles are the seat's own one of that colour plus its face-down
    stack. Given an assignment ``a``, the revealed tile is equally likely to be any of
    them but ``a``'s own; revealing ``t`` leaves the assignments not holding ``t``.
    With ``cnt[t]`` assignments holding ``t`` out of ``N`` and ``U`` unseen tiles, the
    chance of ``t`` is ``(N - cnt[t]) / (N (U - 1))`` and the expectation is
    ``Σ_t (N - cnt[t])² / (N (U - 1))``.
    """
    seat = view["seat"]
    total = len(assignments)
    position = next(
        p for p, t in enumerate(view["racks"][seat]) if t["colour"] == colour
    )
    unseen = view["supply"][colour] + 1
    if unseen <= 1 or not total:
        return float(total)
    held = Counter(a[position] for a in assignments)
    # Every number of the colour the seat cannot rule out is a possible own tile or a
    # face-down one; those no assignment holds are face-down for certain.
    possible = _unseen_of_colour(view, colour)
    return sum((total - held[t]) ** 2 for t in possible) / (total * (unseen - 1))


def _unseen_of_colour(view: Mapping[str, Any], colour: int) -> list[int]:
    """The numbers of ``colour`` that appear nowhere in the view but on the seat's own rack."""
    seat = view["seat"]
    seen = {t["n"] for t in view["public"]}
    seen.update(clue["tile"] for clue in view["clues"])
    for owner, rack in enumerate(view["racks"]):
        if owner != seat:
            seen.update(t["n"] for t in rack if "n" in t)
    return [n for n in numbers_of_colour(colour) if n not in seen]


class GotFiveBot:
    """Plays Got Five! from its view alone; ties are broken by its own seeded generator."""

    def __init__(self, seed: int = 0, level: str | None = None) -> None:
        if level is not None and level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
        self.seed = seed
        self.rng = random.Random(seed)
        #: A fixed level, or ``None`` to play at the level the view names.
        self.level = level

    def remembers(self, clue_index: int, share: float = CASUAL_REMEMBERS) -> bool:
        """Whether a bot that keeps ``share`` of the clues in mind keeps clue number
        ``clue_index`` (for good)."""
        return random.Random(f"{self.seed}:{clue_index}").random() < share

    def choose(self, view: View, legal: Sequence[Action]) -> Action | None:
        """The action to take now, or ``None`` to wait.

        An announcement is returned whenever announcing is listed and exactly one
        assignment remains — on this seat's turn or anyone else's.
        """
        kinds = {a["type"] for a in legal}
        if "announce" not in kinds:
            return None
        keeps, wanders = FORGETS.get(self.level or view.get("bots", "strong"), FORGETS["strong"])
        if keeps < 1:
            clues = view.get("clues") or []
            view = {**view,
                    "clues": [c for i, c in enumerate(clues) if self.remembers(i, keeps)]}
        assignments = consistent_assignments(view)
        if len(assignments) == 1:
            return {"type": "announce", "numbers": list(assignments[0])}
        reveals = [a for a in legal if a["type"] == "reveal"]
        clues = [a for a in legal if a["type"] in ("sort", "compare")]
        if wanders and (reveals or clues) and self.rng.random() < wanders:
            return dict(self.rng.choice(reveals or clues))
        if reveals:
            return dict(self._best(
                reveals, lambda a: reveal_score(assignments, view, a["colour"])
            ))
        if clues:
            tallies = Tallies(assignments)
            return dict(self._best(clues, lambda a: clue_score(tallies, a)))
        if view.get("phase") == "announce" and view.get("turn") == view.get("seat"):
            # Forced by the no-tiles-left rule. Every assignment is equally likely;
            # in a real game only one can remain here (see the module docstring).
            if not assignments:
                return None
            return {"type": "announce", "numbers": list(self.rng.choice(assignments))}
        return None

    def _best(self, actions: Sequence[Action], score: Callable[[Action], float]) -> Action:
        """The action with the lowest score; ties broken by the seeded generator."""
        scored = [(score(a), a) for a in actions]
        low = min(s for s, _ in scored)
        best = [a for s, a in scored if s <= low + EPSILON]
        return best[0] if len(best) == 1 else self.rng.choice(best)

"""The random-legal player: a baseline opponent and a driver for property tests."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.core import Action, View


class RandomBot:
    """Picks uniformly among the listed legal actions, from its own seeded generator."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View, legal: Sequence[Action]) -> Action | None:
        """One of ``legal`` at random, or ``None`` when there is nothing to do."""
        concrete = [a for a in legal if len(a) > 1 or a["type"] in {"draw", "play", "next_round"}]
        return dict(self.rng.choice(concrete)) if concrete else None

"""A heuristic GET OUT! player that sees only its own view and legal actions.

What it weighs, in the order a careful player would:
- shed the cards that cost most when a round ends (Tea Pickers count double);
- prefer a play after which it can still follow (it holds more of that image or number);
- keep GET OUT! cards (20 points, but the only card that always plays) for when they
  matter: when it has nothing else, or when someone is close to going out, or when
  playing one wins the round; then name the image it holds most of;
- draw on purpose rather than spend a wild card early.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from engine.core import Action, View
from engine.getout import IMAGES, WILD_POINTS

# An opponent holding this many cards or fewer is "close to going out".
DANGER = 2


def card_points(card: dict[str, Any]) -> int:
    """What a card costs its holder when a round ends."""
    if card["wild"]:
        return WILD_POINTS
    return int(card["value"]) * (2 if card["image"] == "tea_picker" else 1)


class GetOutBot:
    """Plays GET OUT! from its view alone; ties are broken by its own seeded generator."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View, legal: Sequence[Action]) -> Action | None:
        """The action to take now, or ``None`` when nothing is legal."""
        if not legal:
            return None
        if {"type": "next_round"} in legal:
            return {"type": "next_round"}
        hand = {card["id"]: card for card in view.get("hand", [])}
        plays = [a for a in legal if a["type"] == "play"]
        plain = [a for a in plays if not hand[a["card"]]["wild"]]
        wilds = [a for a in plays if hand[a["card"]]["wild"]]
        can_draw = {"type": "draw"} in legal
        if plain:
            return max(plain, key=lambda a: (self._score(hand, hand[a["card"]]), self.rng.random()))
        if wilds and (not can_draw or self._wild_now(view, hand)):
            return self._best_wild(hand, wilds)
        if can_draw:
            return {"type": "draw"}
        return dict(self.rng.choice(list(legal)))

    def _score(self, hand: dict[int, dict[str, Any]], card: dict[str, Any]) -> float:
        rest = [c for c in hand.values() if c["id"] != card["id"] and not c["wild"]]
        follow_image = sum(1 for c in rest if c["image"] == card["image"])
        follow_number = sum(1 for c in rest if c["value"] == card["value"])
        return card_points(card) + 3.0 * follow_image + 2.0 * follow_number

    def _wild_now(self, view: View, hand: dict[int, dict[str, Any]]) -> bool:
        seat = view["seat"]
        counts = view["hand_counts"]
        out = view.get("out", [False] * len(counts))
        danger = any(
            counts[s] <= DANGER for s in range(len(counts)) if s != seat and not out[s]
        )
        # Going out, or about to: a wild card in hand is 20 points at risk.
        return danger or len(hand) <= 2 or view["draw_count"] == 0

    def _best_wild(self, hand: dict[int, dict[str, Any]], wilds: list[Action]) -> Action:
        held = Counter(c["image"] for c in hand.values() if not c["wild"])
        # Name the image held most; on a tie, the one whose cards cost most to keep.
        weight = {
            image: (held[image], sum(card_points(c) for c in hand.values()
                                     if c["image"] == image))
            for image in IMAGES
        }
        best = max(IMAGES, key=lambda image: (weight[image], self.rng.random()))
        return next(a for a in wilds if a["image"] == best)

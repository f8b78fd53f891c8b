"""GET OUT! players that see only their own view and legal actions, by strength.

- :class:`CasualBot` (``bots=casual``) plays any card that follows, at random, and a
  GET OUT! card as soon as it may; it draws only when nothing plays.
- :class:`GreedyBot` sheds its costliest card that follows and keeps GET OUT! cards for
  when nothing else plays: the simple opponent the search bot is measured against.
- :class:`GetOutBot` (``bots=normal``) is the heuristic player below.
- ``engine.bots.getout_search.GetOutSearchBot`` (``bots=strong``) searches.
- :class:`GetOutTableBot` plays at the level its table's ``bots`` option names.

What :class:`GetOutBot` weighs, in the order a careful player would:
- shed the cards that cost most when a round ends (Tea Pickers count double);
- prefer a play after which it can still follow (it holds more of that image or number);
- keep GET OUT! cards (20 points, but the only card that always plays) for when they
  matter: when it has nothing else, or when someone is close to going out, or when
  playing one wins the round; then name the image it holds most of;
- draw on purpose rather than spend a wild card early.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
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


class SeededBot(ABC):
    """What every GET OUT! bot here does first, from its view alone: nothing when nothing
    is legal, the next round when it may deal; then its own :meth:`pick`, ties broken by
    its own seeded generator."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View, legal: Sequence[Action]) -> Action | None:
        """The action to take now, or ``None`` when nothing is legal."""
        if not legal:
            return None
        if {"type": "next_round"} in legal:
            return {"type": "next_round"}
        hand = {card["id"]: card for card in view.get("hand", [])}
        return self.pick(view, legal, hand, [a for a in legal if a["type"] == "play"])

    @abstractmethod
    def pick(self, view: View, legal: Sequence[Action], hand: dict[int, dict[str, Any]],
             plays: list[Action]) -> Action:
        """The move among ``legal`` (``plays``: the cards that follow)."""


class GetOutBot(SeededBot):
    """Sheds the cards that cost most, keeps GET OUT! cards for when they matter."""

    def pick(self, view: View, legal: Sequence[Action], hand: dict[int, dict[str, Any]],
             plays: list[Action]) -> Action:
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


def _held_most(hand: Sequence[dict[str, Any]], rng: random.Random) -> str:
    """The image ``hand`` holds most of (ties at random; any image for a hand of wilds)."""
    held = Counter(c["image"] for c in hand if not c["wild"])
    return max(IMAGES, key=lambda image: (held[image], rng.random()))


class GreedyBot(SeededBot):
    """Sheds the costliest card that follows; a GET OUT! card only when nothing else
    plays, naming the image it holds most; draws only when nothing plays."""

    def pick(self, view: View, legal: Sequence[Action], hand: dict[int, dict[str, Any]],
             plays: list[Action]) -> Action:
        plain = [a for a in plays if not hand[a["card"]]["wild"]]
        if plain:
            return dict(max(plain, key=lambda a: (card_points(hand[a["card"]]),
                                                  self.rng.random())))
        if plays:
            rest = [c for c in hand.values() if c["id"] != plays[0]["card"]]
            image = _held_most(rest, self.rng)
            return dict(next(a for a in plays if a["image"] == image))
        return dict(legal[0])


class CasualBot(SeededBot):
    """Plays like someone new to the game: any card that follows, at random (a GET OUT!
    card as readily as any, naming the image it holds most), drawing only when nothing
    plays."""

    def pick(self, view: View, legal: Sequence[Action], hand: dict[int, dict[str, Any]],
             plays: list[Action]) -> Action:
        if not plays:
            return dict(legal[0])
        cards = sorted({a["card"] for a in plays})
        chosen = self.rng.choice(cards)
        options = [a for a in plays if a["card"] == chosen]
        if len(options) == 1:
            return dict(options[0])
        rest = [c for c in view.get("hand", []) if c["id"] != chosen]
        image = _held_most(rest, self.rng)
        return dict(next(a for a in options if a["image"] == image))


#: The table's ``bots`` option: how the bots play.
LEVELS = ("casual", "normal", "strong")


def level_bot(level: str, seed: int) -> Any:
    """A bot of ``level`` (one of :data:`LEVELS`)."""
    if level == "casual":
        return CasualBot(seed)
    if level == "strong":
        from engine.bots.getout_search import GetOutSearchBot

        return GetOutSearchBot(seed)
    return GetOutBot(seed)


class GetOutTableBot:
    """Plays at the level the table's ``bots`` option names (in every view that is not
    ``normal``), or at ``level`` if given; one bot per level, made when first needed."""

    def __init__(self, seed: int = 0, level: str | None = None) -> None:
        if level is not None and level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
        self.seed = seed
        self.level = level
        self._bots: dict[str, Any] = {}

    def choose(self, view: View, legal: Sequence[Action]) -> Action | None:
        """The action the level's bot takes now, or ``None`` when nothing is legal."""
        level = self.level or view.get("bots", "normal")
        bot = self._bots.get(level)
        if bot is None:
            bot = self._bots[level] = level_bot(level, self.seed)
        action: Action | None = bot.choose(view, legal)
        return action

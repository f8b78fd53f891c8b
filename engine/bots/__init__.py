"""Bots: players that see only what a human seat sees — its view and its legal actions.

Every bot has one method, ``choose(view, legal) -> action | None``; ``make_bot`` picks
the best bot there is for a game.
"""

from __future__ import annotations

from typing import Protocol

from engine.bots.getout_bot import GetOutBot
from engine.bots.gotfive_bot import GotFiveBot
from engine.bots.random_bot import RandomBot
from engine.core import Action, View

__all__ = ["Bot", "GetOutBot", "GotFiveBot", "RandomBot", "make_bot"]


class Bot(Protocol):
    """What the host and the simulator need of a bot."""

    def choose(self, view: View, legal: list[Action]) -> Action | None:
        """The action to take now, or ``None`` to wait."""
        ...


def make_bot(game_id: str, seat: int, seed: int) -> Bot:
    """The strongest bot for ``game_id``, seeded per seat so games replay exactly."""
    mixed = seed * 1_000_003 + seat
    if game_id == "getout":
        return GetOutBot(mixed)
    if game_id == "gotfive":
        return GotFiveBot(mixed)
    return RandomBot(mixed)

"""Bots: players that see only what a human seat sees — its view and its legal actions.

Every bot has one method, ``choose(view, legal) -> action | None``; ``make_bot`` makes
a game's bot, which plays at the level the table's ``bots`` option names. The Get It!
bot plays in real time and also has ``step(view, legal, now) -> (action | None,
wake_at | None)``; ``engine.bots.simulate`` runs bot-only games headless.

Each game's bot module is imported when it is first needed (``make_bot``, or its name
from this package): a solo game of one game does not wait for the others' bots before
its first frame.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Protocol

from engine.bots.random_bot import RandomBot
from engine.core import Action, View

if TYPE_CHECKING:
    from engine.bots.getit_bot import GetItBot
    from engine.bots.getout_bot import GetOutBot
    from engine.bots.gotfive_bot import GotFiveBot

__all__ = ["Bot", "GetItBot", "GetOutBot", "GotFiveBot", "RandomBot", "make_bot"]

#: The game bots by name, and the module each lives in.
_GAME_BOTS = {
    "GetItBot": "engine.bots.getit_bot",
    "GetOutBot": "engine.bots.getout_bot",
    "GotFiveBot": "engine.bots.gotfive_bot",
}


def __getattr__(name: str) -> Any:
    """A game's bot class, its module imported on first use."""
    module = _GAME_BOTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


class Bot(Protocol):
    """What the host and the simulator need of a bot."""

    def choose(self, view: View, legal: list[Action]) -> Action | None:
        """The action to take now, or ``None`` to wait."""
        ...


def make_bot(game_id: str, seat: int, seed: int) -> Bot:
    """The bot for ``game_id``, seeded per seat so games replay exactly; it plays at the
    level its table's ``bots`` option names (read from its view)."""
    mixed = seed * 1_000_003 + seat
    if game_id == "getout":
        from engine.bots.getout_bot import GetOutTableBot

        return GetOutTableBot(mixed)
    if game_id == "getit":
        from engine.bots.getit_bot import GetItBot

        return GetItBot(mixed)
    if game_id == "gotfive":
        from engine.bots.gotfive_bot import GotFiveBot

        return GotFiveBot(mixed)
    return RandomBot(mixed)

"""hiddenhand's rules engine: pure, seeded, clock-free game logic.

The public interface is fixed by ``CONTRACT.md``::

    game = engine.new_game("getout", seats=4, seed=7, options={})
    game = engine.restore(game.snapshot())
    engine.GAMES            # id -> GameSpec (min/max seats, option defaults)
    engine.IllegalAction    # ValueError subclass with a plain-words message
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import SEED_LIMIT, Game, GameSpec, IllegalAction
from engine.getit import GetIt
from engine.getout import GetOut
from engine.gotfive import GotFive

GAMES: dict[str, GameSpec] = {cls.spec.id: cls.spec for cls in (GetIt, GetOut, GotFive)}

__all__ = ["GAMES", "Game", "GameSpec", "IllegalAction", "new_game", "restore"]


def _spec(game_id: Any) -> GameSpec:
    if not isinstance(game_id, str) or game_id not in GAMES:
        allowed = ", ".join(sorted(GAMES))
        raise ValueError(f"unknown game {game_id!r}; known games: {allowed}")
    return GAMES[game_id]


def new_game(
    game_id: str, seats: int, seed: int, options: Mapping[str, Any] | None = None
) -> Game:
    """Start a new game of ``game_id`` for ``seats`` seats from ``seed``.

    Raises ``ValueError`` saying what is wrong for an unknown game, a seat count out of
    the game's range, a bad seed, or an unknown or out-of-range option.
    """
    spec = _spec(game_id)
    spec.check_seats(seats)
    if isinstance(seed, bool) or not isinstance(seed, int) or not -SEED_LIMIT < seed < SEED_LIMIT:
        raise ValueError(f"seed must be a whole number below 2**63 in size, not {seed!r}")
    checked = spec.check_options(options, seats)
    return spec.factory(seats, seed, checked)


def restore(snapshot: Mapping[str, Any]) -> Game:
    """Rebuild a game from ``game.snapshot()``; it continues identically."""
    if not isinstance(snapshot, Mapping) or "game" not in snapshot:
        raise ValueError("not a game snapshot: it has no 'game' key")
    return _spec(snapshot["game"]).factory._restore(snapshot)

"""hiddenhand's rules engine: pure, seeded, clock-free game logic.

The public interface is fixed by ``CONTRACT.md``::

    game = engine.new_game("getout", seats=4, seed=7, options={})
    game = engine.restore(game.snapshot())
    engine.GAMES            # id -> GameSpec (min/max seats, option defaults)
    engine.IllegalAction    # ValueError subclass with a plain-words message
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping, MutableMapping
from typing import Any

from engine.core import SEED_LIMIT, Game, GameSpec, IllegalAction

#: Each game's module and class, by id, in the order the games are listed.
_MODULES = {"getit": ("engine.getit", "GetIt"), "getout": ("engine.getout", "GetOut"),
            "gotfive": ("engine.gotfive", "GotFive")}


class _Games(MutableMapping[str, GameSpec]):
    """``GAMES``: id -> ``GameSpec``, as a dict behaves. A game's module is imported the
    first time its spec is looked up: a process that plays one game (a solo table, a
    host of one table) does not load the other two, whose classes its first frame would
    otherwise wait for."""

    def __init__(self, modules: Mapping[str, tuple[str, str]]) -> None:
        self._modules = dict(modules)
        self._specs: dict[str, GameSpec] = {}

    def __getitem__(self, game_id: str) -> GameSpec:
        spec = self._specs.get(game_id)
        if spec is None:
            module, name = self._modules[game_id]  # (an unknown id: KeyError, as a dict)
            spec = self._specs[game_id] = getattr(importlib.import_module(module), name).spec
        return spec

    def __setitem__(self, game_id: str, spec: GameSpec) -> None:
        self._modules.setdefault(game_id, ("", ""))
        self._specs[game_id] = spec

    def __delitem__(self, game_id: str) -> None:
        del self._modules[game_id]
        self._specs.pop(game_id, None)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._modules

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __len__(self) -> int:
        return len(self._modules)

    def __repr__(self) -> str:
        return f"GAMES({', '.join(self._modules)})"


GAMES: MutableMapping[str, GameSpec] = _Games(_MODULES)

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

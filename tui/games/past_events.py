"""An earlier game's events in words, for the log of a table that now plays another.

A table's history keeps every game played at it; its log shows an earlier game's events
in that game's own words. Each game's words are in its text module (pure functions of an
event, no screen); this module loads the one asked for by name, when first needed: a
table's first frame does not wait for the other games' modules.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from tui.notices import Namer

#: Game id → "module:function" putting one of its events in words, knowing nothing of
#: the game's state (``function(event, namer) -> line | None``).
PAST_EVENTS: dict[str, str] = {
    "getout": "tui.games.getout.text:describe_event",
    "getit": "tui.games.getit.text:describe_past_event",
    "gotfive": "tui.games.gotfive.text:describe_past_event",
}


def describe_past_event(game_id: Any, event: dict[str, Any], namer: Namer) -> str | None:
    """One log line for an event of an earlier ``game_id`` game at the table (``None``:
    a game this app cannot describe, or no line for that event)."""
    if not isinstance(game_id, str) or game_id not in PAST_EVENTS:
        return None
    module, _, name = PAST_EVENTS[game_id].partition(":")
    describe: Callable[[dict[str, Any], Namer], str | None] = getattr(
        importlib.import_module(module), name)
    return describe(event, namer)

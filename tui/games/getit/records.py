"""Level X records: the most cards a team of each size has cleared, kept per user.

Stored as JSON (``{"4": 31}``) beside the settings in the user's config directory
(``platformdirs``; ``HIDDENHAND_CONFIG_DIR`` overrides it). A damaged or unreadable
file counts as no record; a record that cannot be written is said, not raised.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tui.settings import config_dir


def _path() -> Path:
    return config_dir() / "getit_records.json"


def _load() -> dict[str, int]:
    try:
        data = json.loads(_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): v for k, v in data.items()
            if isinstance(v, int) and not isinstance(v, bool) and v > 0}


def best(seats: int) -> int | None:
    """The record for ``seats`` players, or ``None`` if there is none yet."""
    return _load().get(str(seats))


def save(seats: int, cards: int) -> bool:
    """Keep ``cards`` as the record for ``seats`` players if it beats the old one.

    Returns True if it is a new record. ``OSError`` if the file cannot be written.
    """
    data = _load()
    if data.get(str(seats), 0) >= cards:
        return False
    data[str(seats)] = cards
    path = _path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(path)
    return True


def with_record(game_id: str, seats: int, options: dict[str, Any]) -> dict[str, Any]:
    """``options`` for a new table, with our Level X record passed in as ``best``.

    The engine judges "new record!" against it; only a Get It! Level X table has one.
    """
    if game_id != "getit" or options.get("level") != "X":
        return dict(options)
    return {**options, "best": best(seats)}


def keep(result: dict[str, Any], options: dict[str, Any]) -> str | None:
    """Save a cleared, timed Level X round that beats the record for its team size; what
    to tell the player, or ``None`` (an untimed round is practice: it sets no record).
    ``OSError`` if the record cannot be written."""
    if result.get("level") != "X" or not result.get("won") or not options.get("timer"):
        return None
    seats, cards = result.get("seats"), result.get("cards")
    if not isinstance(seats, int) or not isinstance(cards, int):
        return None
    return f"New record for {seats} players: {cards} cards!" if save(seats, cards) else None

"""Who sits where: names, bots, connection state, whose turn, and per-game columns."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static


class SeatsPanel(Static):
    """Attributes: ``seats`` (the table's public seats), ``me``, ``turn`` and ``columns``.

    ``columns`` maps a column title to one cell per seat, e.g. ``{"cards": [6, 5]}``.
    """

    DEFAULT_CSS = """
    SeatsPanel { height: auto; }
    """

    seats: reactive[list[dict[str, Any]]] = reactive(list, always_update=True)
    me: reactive[int | None] = reactive(None)
    turn: reactive[int | None] = reactive(None)
    columns: reactive[dict[str, list[Any]]] = reactive(dict, always_update=True)

    def render(self) -> Table:
        """The seats as a table."""
        table = Table(box=None, expand=True, pad_edge=False, show_edge=False)
        table.add_column("", width=2)
        table.add_column("seat", no_wrap=True)
        table.add_column("player", ratio=1, no_wrap=True)
        for title in self.columns:
            table.add_column(title, justify="right", no_wrap=True)
        for seat in self.seats:
            index = seat["seat"]
            marker = Text("▶", style="bold yellow") if index == self.turn else Text("")
            name = Text(seat["name"] or "(empty)", style="bold" if index == self.me else "")
            if index == self.me:
                name.append(" (you)", style="italic")
            if seat["kind"] == "bot":
                name.append(" [bot]", style="cyan")
            elif seat["kind"] == "human" and not seat["connected"]:
                name.append(" [away]", style="red")
            elif seat["kind"] == "empty":
                name.stylize("dim")
            cells = [str(self.columns[t][index]) if index < len(self.columns[t]) else ""
                     for t in self.columns]
            table.add_row(marker, str(index + 1), name, *cells)
        return table

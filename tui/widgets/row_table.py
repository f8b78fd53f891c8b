"""A table whose rows are chosen whole: a click (a tap) anywhere on the highlighted row
selects it.

Textual's ``DataTable`` with a row cursor selects only on a click at the very cell its
cursor is on: a click elsewhere along the highlighted row moves the cursor to that
column and selects nothing, and on a phone a finger seldom lands on the same column
twice (Past games' list took a tap on the chosen row for nothing: a pass on a phone).
"""

from __future__ import annotations

from textual import events
from textual.coordinate import Coordinate
from textual.widgets import DataTable


class RowTable(DataTable[object]):
    """A ``DataTable`` of ``cursor_type="row"`` whose highlighted row a click selects,
    in whichever column it lands."""

    def on_click(self, event: events.Click) -> None:
        # (Called before the table's own handling of the click moves its cursor: what
        # the click did is read once it is handled.)
        self.call_later(self._clicked, self.cursor_coordinate)

    def _clicked(self, before: Coordinate) -> None:
        now = self.cursor_coordinate
        if self.cursor_type == "row" and now.row == before.row and now != before:
            key = self.coordinate_to_cell_key(now).row_key
            self.post_message(self.RowSelected(self, now.row, key))

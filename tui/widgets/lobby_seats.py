"""The lobby's seat list: one row a seat (who sits there, how, whether ready), its
cursor the seat the seat keys act on."""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual.coordinate import Coordinate
from textual.widgets import DataTable


def seat_mark(index: int, cursor: int) -> str:
    """The seat column's cell: the number players count, ▸ before the cursor's."""
    return f"{'▸' if index == cursor else ' '} {index + 1}"


def may_ready(table: dict[str, Any], my_seat: int | None) -> bool:
    """Whether Ready is ours to press: not a spectator's (no seat), nor the creator's,
    who deals (a Ready beside "deals" read as a step they had missed) unless a rematch
    made them ready: "Not ready" then holds the deal back."""
    mine = next((s for s in table.get("seats") or [] if s.get("seat") == my_seat), None)
    creator = table.get("creator")
    return mine is not None and (my_seat != creator or bool(mine.get("ready")))


#: The lobby's button that sits us (or a spectator) down in the seat under the cursor.
SIT_HERE = "Sit here (^t)"


def sit_label(table: dict[str, Any], row: int, my_seat: int | None) -> str:
    """The sit button's words for the seat under the cursor: it sits down in an empty
    one, a watcher in the first empty one, and elsewhere says whose the seat is (on a
    monochrome terminal a button turned off looks like any other)."""
    seats = table.get("seats") or []
    if 0 <= row < len(seats) and seats[row].get("kind") == "empty":
        return SIT_HERE
    free = [int(s.get("seat", 0)) + 1 for s in seats if s.get("kind") == "empty"]
    if my_seat is None and free:  # (a watcher read "Seat taken", and ^t said so too)
        return f"Sit: seat {free[0]} (^t)"
    if row != my_seat:
        return "Seat taken"
    # (Plain "Your seat" on a button read as a thing to do, and what it did was
    # nowhere: a fresh-eyed pass.)
    return "Yours: ↑↓ to move" if free else "Your seat"


def ready_hint(table: dict[str, Any], my_seat: int | None) -> str | None:
    """What the lobby tells a player once every seat is filled and every other person
    is ready: the one the start waits for, that it does (only the creator was told, when
    Start was refused; the others could not tell who held it up, nor what ★ marks); the
    creator, that Start deals now; everyone else, who deals (a ready player saw no
    sign that the game was waiting for anyone)."""
    seats = table.get("seats") or []
    creator = table.get("creator")
    mine = next((s for s in seats if s.get("seat") == my_seat), None)
    others = [s for s in seats if s.get("seat") != my_seat]
    empty = [int(s.get("seat", 0)) + 1 for s in others if s.get("kind") == "empty"]
    if creator is None and empty and mine is None:
        # (Its creator gone, a watcher saw a lobby nobody could start, and no way on.)
        return "Nobody runs this table now: sit (^t), and you run it (★)."
    if empty and mine is not None and my_seat == creator:
        # (Until every seat was taken the creator was told nothing, and learnt what to
        # do from Start's refusal.)
        which = (f"Seat {empty[0]} is" if len(empty) == 1
                 else f"Seats {', '.join(map(str, empty[:-1]))} and {empty[-1]} are")
        return (f"{which} empty: wait for friends or put a bot in (^b); then you (★) "
                f"start the game (^s).")
    unready = [s for s in others if s.get("kind") == "human" and not s.get("ready")
               and s.get("seat") != creator]
    if not empty and unready and mine is not None and my_seat == creator:
        # (Once the last seat was filled the creator was told nothing more, until Start
        # was refused.)
        names = [f"{s.get('name') or 'someone'} (seat {int(s.get('seat', 0)) + 1})"
                 for s in unready]
        them = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
        if table.get("rematch"):  # (dealt by the host once all are ready: no ^s)
            return f"Waiting for {them} to be ready: the rematch is dealt then."
        return f"Waiting for {them} to be ready; then you (★) start the game (^s)."
    if (empty or unready) and mine is not None and my_seat != creator \
            and (who := next((s.get("name") for s in seats if s.get("seat") == creator), None)):
        # (A joiner saw "Ann ★" and no word of what ★ is, until everyone was ready.)
        ready = "" if mine.get("ready") else ": Ready (^r) when you are"
        return f"{who} (★) runs the table and starts the game once everyone is ready{ready}."
    if empty or unready:
        return None
    if table.get("rematch") and mine is not None and not mine.get("ready"):
        return "Everyone else is ready: the rematch is dealt once you are (Ready, ^r)."
    if mine is not None and my_seat == creator:
        # (Not "Start (^s)": it read as the button, and a tap on it did nothing.)
        return "Everyone is ready: deal the game with the Start button (^s)."
    who = next((s.get("name") for s in seats if s.get("seat") == creator), None)
    starter = f"{who} (★, who runs the table)" if who else "the table's creator"
    if mine is not None and not mine.get("ready"):
        return f"Everyone else is ready: {starter} starts once you are (Ready, ^r)."
    return f"Everyone is ready: {starter} starts the game."


class LobbySeats(DataTable[Any]):
    """The seats of a table in its lobby; :meth:`show` draws them."""

    #: The cursor was put on our seat once (after that, it stays where moved).
    cursor_placed = False

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)

    @staticmethod
    def to_sit(table: dict[str, Any], row: int) -> int:
        """The seat a watcher's sit button (``^t``) takes with the cursor on ``row``:
        that one if it is empty, else the first empty one (``^t`` said "seat 1 is
        taken" with seat 2 free, and nothing said how to choose it)."""
        seats = table.get("seats") or []
        if 0 <= row < len(seats) and seats[row].get("kind") == "empty":
            return row
        return next((int(s.get("seat", 0)) for s in seats if s.get("kind") == "empty"), row)

    def show(self, table: dict[str, Any], my_seat: int | None) -> None:
        """Draw the table's seats, the cursor where it was (on our seat the first time)."""
        row = self.cursor_row
        if not self.cursor_placed and my_seat is not None:
            row = my_seat  # the seat keys start from where we sit
        self.cursor_placed = True
        self.clear()
        if not self.columns:
            # (Named: under an empty heading "online" read as part of "ready".)
            self.add_columns("seat", "player", "status", "ready")
        # A name cut where the row has no room for it ("Bartholomew the Gr… (you) ★"):
        # whole, a 24-letter name pushed "status" and "ready" off the lobby's edge at 80
        # columns (seat, status and ready take 26 cells with the cells' padding).
        self._shown = (table, my_seat)
        room = max(8, self.size.width - 26) if self.size.width else 0
        for seat in table["seats"]:
            name = seat["name"] or "(empty)"
            if seat.get("for"):  # (after a game, the bot still keeps Cy's seat for Cy)
                name = f"{name} for {seat['for']}"
            after = (" (you)" if seat["seat"] == my_seat else "") + (
                " ★" if seat["seat"] == table.get("creator") else "")
            if room and cell_len(name + after) > room:
                name = set_cell_size(name, max(1, room - cell_len(after) - 1)) + "…"
            state = {"bot": "bot", "empty": ""}.get(
                seat["kind"], "online" if seat["connected"] else "away"
            )
            # The creator needs no Ready: ★ starts the game (as the lobby's line says;
            # "starts" read as "plays first", "deals" as a dealer where nobody deals). (An
            # empty "ready" beside "Everyone is ready" read as the one not ready, and a
            # bare word under "ready" left them unsure whether they were.)
            starts = seat["seat"] == table.get("creator") and seat["kind"] == "human"
            self.add_row(seat_mark(seat["seat"], row), Text(name + after), state,
                         "✓" if seat["ready"] else "✓ (★)" if starts else "")
        if self.row_count:
            self.move_cursor(row=min(row, self.row_count - 1))
        self.show_cursor = True

    #: What :meth:`show` drew last (drawn again for a new width).
    _shown: tuple[dict[str, Any], int | None] | None = None

    def on_resize(self) -> None:
        """The names are cut to the width: drawn again for a new one."""
        if self._shown is not None and self.row_count:
            self.show(*self._shown)

    def on_data_table_row_highlighted(self) -> None:
        """The seat under the cursor wears ▸ (the cursor's colours alone do not show
        on a monochrome terminal). The mark follows the cursor as it is now: a redraw of
        the rows moves the cursor to row 0 and back, and the event of that first move can
        arrive after the rows are drawn (the mark would jump to seat 1 for a frame)."""
        for index in range(self.row_count):
            mark = seat_mark(index, self.cursor_row)
            if self.get_cell_at(Coordinate(index, 0)) != mark:
                self.update_cell_at(Coordinate(index, 0), mark)


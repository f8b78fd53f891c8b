"""The board half of the Got Five! table: your marks, and the keys that make them.

:class:`BoardTable` is the base of :class:`~tui.games.gotfive.screen.GotFiveScreen`
(which binds the keys): arrows move the board's cursor and stop at the edges; space
cycles a cell in place; x and o cross or circle it and step on to the next cell; < and >
cross the rest of the row lower or higher than the cursor (circled cells kept); a click
cycles a cell. Marks go to the host as ``mark`` actions without blocking the turn's
keys: the board shows them at once and then follows the view, so they survive a
reconnection.
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from textual import on

from engine.gotfive import COLOURS, PER_COLOUR
from tui.games.gotfive.board import CYCLE, BoardWidget, beyond, cell_of, number_at, seen_in
from tui.games.gotfive.text import LETTERS
from tui.notices import listed
from tui.screens.table import TableScreen
from tui.widgets.log import TableLog

#: What the board's title says of its keys (while no hint takes the room).
BOARD_KEYS = "←↑↓→ · space ✗/○ · x/o mark → · <> ✗ rest of row"
#: How to mark a number in sight by hand, said when auto-cross keeps it crossed.
AUTO_OFF = "- turns auto-cross off"


class BoardTable(TableScreen):
    """A Got Five! table's board: the marks shown, and the keys and clicks on it."""

    def __init__(self, session: Any) -> None:
        super().__init__(session)
        #: Marks sent and not yet seen in a view: number → mark (None: cleared).
        self.pending: dict[int, str | None] = {}
        #: The board's cursor: (row = colour, column).
        self.cursor = (0, 0)
        #: What the last range crossed, said in the board's title until the cursor moves.
        #: What the last range crossed, said in the board's title until the cursor
        #: moves: the same words, longest first, the title taking the first that fits.
        self.board_note: tuple[str, ...] | None = None
        #: Our auto-cross as asked of the host and not yet seen in a view (``None``:
        #: none on its way); and whether this game's seat was set as Settings say.
        self.auto_cross_asked: bool | None = None
        self.auto_cross_set = False

    @property
    def marks(self) -> dict[int, str]:
        """The board as we show it: the view's marks with our pending ones over them."""
        marks = {int(n): m for n, m in (self.view.get("marks") or {}).items()
                 if str(n).isdigit() and m in CYCLE}
        for n, mark in self.pending.items():
            if mark is None:
                marks.pop(n, None)
            else:
                marks[n] = mark
        return marks

    def seen(self) -> frozenset[int]:
        """Numbers this seat can see (auto-cross keeps them crossed): from the view."""
        return seen_in(self.view, self.my_seat)

    def auto_cross(self) -> bool:
        """Whether auto-cross is on for us (as last asked, until the view says so)."""
        asked = self.auto_cross_asked
        return bool(self.view.get("auto_cross")) if asked is None else asked

    def can_auto_cross(self) -> bool:
        """Our seat may turn its auto-cross on or off (the host lists it)."""
        legal = (self.update or {}).get("legal") or []
        return self.my_seat is not None and any(a.get("type") == "auto_cross" for a in legal)

    def follow_auto_cross(self) -> None:
        """A new view: our seat's auto-cross as this player set it (RULES.md: a player
        setting; the table starts every seat from its own option), once a game."""
        if self.auto_cross_asked is not None \
                and bool(self.view.get("auto_cross")) == self.auto_cross_asked:
            self.auto_cross_asked = None
        if not self.auto_cross_set and self.can_auto_cross():
            self.auto_cross_set = True
            wanted = self.app.settings.auto_cross
            if self.auto_cross() != wanted:
                self.ask_auto_cross(wanted)
            # Said once a game in the log: at 80 columns the footer has no room for -.
            # (A phone has no -: its footer's Auto-cross, if wide enough for it.)
            key = "The key -" if not getattr(self.app, "touch", False) else \
                "Settings, in the menu," if self.has_class("-narrow") else \
                "Auto-cross, in the keys below,"
            self.query_one("#log", TableLog).write(
                "· Auto-cross is on: numbers you can see are crossed for you (-). "
                f"{key} turns it off." if wanted else "· Auto-cross is off (your setting): "
                f"you cross what you see by hand. {key} turns it on.")

    def ask_auto_cross(self, on: bool) -> None:
        self.auto_cross_asked = on
        self.act({"type": "auto_cross", "on": on}, wait=False)

    def action_auto_cross(self) -> None:
        """-: auto-cross off (cross by hand, as on paper) or on again, for us alone; kept
        in Settings for the next game."""
        on = not self.auto_cross()
        self.ask_auto_cross(on)
        settings = self.app.settings
        settings.auto_cross = on
        try:
            settings.save()
        except OSError as exc:
            self.notify(f"Not kept for the next game: {exc}", severity="warning", markup=False)
        # Said in the board's title, as a range crossed is: a notice covered the board's
        # bottom row, two of them when - was pressed twice.
        self.board_note = (
            ("Auto-cross on: every number you can see is crossed (- turns it off).",
             "Auto-cross on: what you see is crossed (- turns it off).",
             "Auto-cross on (-: off).") if on else
            ("Auto-cross off: you cross what you see by hand, as on paper (- turns it on).",
             "Auto-cross off: you cross by hand (- turns it on).",
             "Auto-cross off (-: on)."))
        self.title_board()

    def action_auto_cross_key(self) -> None:
        """- on a wide terminal (the same as :meth:`action_auto_cross`)."""
        self.action_auto_cross()

    def locked(self) -> frozenset[int]:
        """Numbers whose cell the player may not change (auto-cross on)."""
        return self.seen() if self.auto_cross() else frozenset()

    def _hint(self) -> Any:
        """The view's hint, if it tells anything (not once our rack is face up: "1 rack
        fits" would tell nothing)."""
        me, out = self.my_seat, self.view.get("out") or []
        if self.view.get("phase") == "over" or (me is not None and me < len(out) and out[me]):
            return None
        return self.view.get("hint")

    def title_board(self) -> None:
        """The board's title: the cell under the cursor (drawn in reverse video alone, a
        player marked from a cell they did not mean), then what the last range crossed,
        until the cursor moves on; else how to work the board, unless a hint needs the
        room (the footer has no room for the arrows at 80 columns; the rules say it all)."""
        board = self.query_one(BoardWidget)
        hint = self._hint()
        row, col = self.cursor
        mine = f"Your board ({LETTERS[row]}{number_at(row, col)})"
        title = f"{mine} · {BOARD_KEYS}"
        if self.board_note:
            room = board.size.width - 4  # (the border's corners and a cell either side)
            title = next((t for note in self.board_note
                          if cell_len(t := f"{mine} · {note}") <= room),
                         f"{mine} · {self.board_note[-1]}")
        elif isinstance(hint, dict) and isinstance(hint.get("count"), int):
            count = hint["count"]
            title = mine
            title += (" · hint: only 1 rack fits — GOT FIVE! (g)" if count == 1
                      else f" · hint: {count} racks fit")
            if "possible" in hint:
                title += " · ·=no rack holds it ★=yours"
        if self.auto_cross() and not self.board_note:
            title += (" " if title.endswith("yours") else " · ") + "-=seen"
        if board.border_title != title:
            board.border_title = title

    def can_mark(self) -> bool:
        """Marks are open (the host lists ``mark``), even while a move is on its way."""
        legal = (self.update or {}).get("legal") or []
        return self.my_seat is not None and any(a.get("type") == "mark" for a in legal)

    def action_move(self, rows: int, cols: int) -> None:
        """Move the board's cursor; at an edge it stays (it never wraps round to the far
        side, where the next key would mark a cell the player did not mean)."""
        row, col = self.cursor
        self.cursor = (min(max(row + rows, 0), COLOURS - 1),
                       min(max(col + cols, 0), PER_COLOUR - 1))
        board = self.query_one(BoardWidget)
        board.cursor = self.cursor
        board.show_cursor()  # (stacked on a short screen, it may be out of sight)
        self.board_note = None  # (read: the keys again)
        self.title_board()

    def action_cycle(self) -> None:
        """Cycle the cell under the cursor: blank → crossed → circled → blank (in place:
        the next space cycles the same cell)."""
        n = number_at(*self.cursor)
        if self.can_mark() and n in self.locked():
            # (Space on a "-" cell did nothing and said nothing.)
            self.warn(f"You can see {n}: auto-cross keeps it crossed ({AUTO_OFF}).")
            return
        self.mark(n, CYCLE[self.marks.get(n)])

    def action_set_mark(self, mark: str) -> None:
        """x or o: cross or circle the cell under the cursor, then step on to the next
        cell of the row (a run of cells is x x x); Delete clears it in place."""
        n = number_at(*self.cursor)
        done = self.mark(n, None if mark == "clear" else mark)
        if done and mark != "clear":
            self.action_move(0, 1)

    def action_mark_key(self, mark: str) -> None:
        """x or o on a wide terminal (the same as :meth:`action_set_mark`)."""
        self.action_set_mark(mark)

    def action_cross_range(self, step: int) -> None:
        """Cross every number of the cursor's row lower than the cursor's (``step`` -1)
        or higher (1), the cell itself and the circled ones left as they are; say what it
        did."""
        if not self.can_mark():
            return
        row, col = self.cursor
        marks, locked = self.marks, self.locked()
        numbers = beyond(row, col, step)
        todo = [n for n in numbers if n not in locked and marks.get(n) is None]
        kept = [n for n in numbers if marks.get(n) == "circle"]
        for n in todo:
            self.mark(n, "cross")
        side = "lower" if step < 0 else "higher"
        where = f"row {LETTERS[row]}, {side} than {number_at(row, col)}"
        short = f"{LETTERS[row]} {'<' if step < 0 else '>'} {number_at(row, col)}"
        if todo:
            notes = [f"Crossed {listed(todo)} ({where}).", f"Crossed {', '.join(map(str, todo))}"
                     f" ({short}).", f"Crossed {len(todo)} ({short})."]
        else:
            notes = [f"Nothing left to cross in {where}.", f"Nothing to cross ({short})."]
        if kept:
            notes = [notes[0] + f" Kept your ○ on {listed(kept)}.",
                     *(n + f" ○ kept: {', '.join(map(str, kept))}." for n in notes[1:]),
                     notes[-1] + f" {len(kept)} ○ kept."]
        # Said in the board's title until the cursor moves, not in a notice over the
        # board: rows crossed one after another stacked notices over the cells crossed.
        # The longest that fits the board's width (at 80 columns the first was cut).
        self.board_note = tuple(notes)
        self.title_board()

    @on(BoardWidget.CellClicked)
    def cell_clicked(self, event: BoardWidget.CellClicked) -> None:
        """A click on a cell moves the cursor there and cycles it."""
        self.cursor = cell_of(event.n)
        self.query_one(BoardWidget).cursor = self.cursor
        self.board_note = None
        self.title_board()
        if self.can_mark():
            self.mark(event.n, CYCLE[self.marks.get(event.n)])

    def mark(self, n: int, mark: str | None) -> bool:
        """Mark ``n`` on the board now and tell the host (without blocking any key);
        whether the cell shows that mark now."""
        if not self.can_mark():
            return False
        if n in self.locked():
            if mark != "cross":
                self.warn(f"You can see {n}: auto-cross keeps it crossed ({AUTO_OFF}).")
            return mark == "cross"
        if self.marks.get(n) == mark:
            return True
        self.pending[n] = mark
        self.query_one(BoardWidget).marks = self.marks
        self.act({"type": "mark", "n": n, "mark": mark}, wait=False)
        return True

    def refused(self, method: str) -> None:
        """A refusal: forget the marks on their way, the next view has the truth."""
        super().refused(method)
        if method == "act":
            self.auto_cross_asked = None
        if method == "act" and self.pending:
            self.pending.clear()
            if self.my_seat is not None:
                self.query_one(BoardWidget).marks = self.marks

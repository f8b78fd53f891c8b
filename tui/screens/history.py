"""Past games: every game kept here (``net.records``), newest first, with the player's
figures per game and player count above; Enter reviews the game under the cursor.

``g`` cycles the game shown (all, then each game), ``t`` the period (all time, the last
year, month, week, day), ``m`` shows only games the player played (``net.whose.Reader``:
a seat whose id is theirs, and elsewhere than on a box one with their name) or
everyone's; ``x`` writes the chosen game to a file in the data directory to give a friend.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.text import Text
from textual import getters, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Sparkline, Static

from net.gamefiles import StoreError, export_game
from net.records import GameInfo, GameStore, default_path, is_kept
from net.whose import Reader, reader
from tui.history import (
    FIGURE_HEADERS,
    HEADERS,
    NARROW_FIGURE_HEADERS,
    NARROW_FIRST,
    NARROW_HEADERS,
    PERIODS,
    Figures,
    figures,
    figures_rows,
    narrow_figures_rows,
    narrow_row,
    player_entries,
    row,
    since,
    trend,
    wrapped_entries,
)
from tui.review import GAME_NAMES
from tui.screens.export_dialog import ExportScreen
from tui.screens.styled import StyledOnce
from tui.widgets.footer import TableFooter
from tui.widgets.row_table import RowTable
from tui.widgets.titlebar import TitleBar

if TYPE_CHECKING:
    from tui.app import HiddenHandApp

GAME_CYCLE: list[str | None] = [None, *GAME_NAMES]
#: The columns of ``tui.history.HEADERS`` the list shows (what fits 80 columns), the
#: result before the players: their names are the longest cell, and at 80 columns the
#: result was cut ("Bot 3 wo", "not fini") behind them.
COLUMNS = (0, 1, 2, 4, 3)
PERIOD_CYCLE = list(PERIODS)
#: Fewer columns than this left for the players, each game's cells are stacked in
#: lines instead (:func:`narrow_row`).
NARROW_PLAYERS = 18
#: The newest games listed (the figures count every game).
SHOWN = 500


class HistoryScreen(StyledOnce, Screen[None]):
    """The games kept here, and how the player has done."""

    if TYPE_CHECKING:  # typed only: a screen never imports the app (no import circle)
        app = getters.app(HiddenHandApp)

    DEFAULT_CSS = """
    HistoryScreen #history-filters { height: auto; padding: 0 1; }
    HistoryScreen #history-figures { height: auto; max-height: 40%; }
    HistoryScreen #history-trend-label { height: auto; padding: 0 1; }
    HistoryScreen #history-trend { height: 2; margin: 0 1; }
    /* (Shown with two games or more to plot: empty, a bare line of ▁ showed.) */
    HistoryScreen #history-trend, HistoryScreen #history-trend-label { display: none; }
    HistoryScreen #history-games { height: 1fr; }
    HistoryScreen .empty { padding: 1 2; }
    """

    BINDINGS = [
        Binding("enter", "review", "Review", priority=True),
        Binding("g", "cycle_game", "Game"),
        Binding("t", "cycle_period", "Period"),
        Binding("m", "mine", "Mine/all"),
        Binding("x", "export", "Export"),
        Binding("escape", "app.pop_screen", "Back"),
    ]

    def __init__(self, path: Any = None) -> None:
        super().__init__()
        self.path = path or default_path()
        self.game: str | None = None
        self.period = "all"
        self.mine = True
        self.infos: list[GameInfo] = []
        self.figures: list[Figures] = []
        self.narrow: bool | None = None  # (set with the columns, at the first size)

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield Static("", id="history-filters", markup=False)
        yield DataTable(id="history-figures", cursor_type="none", zebra_stripes=True)
        yield Static("", id="history-trend-label", markup=False)
        yield Sparkline([], id="history-trend")
        yield RowTable(id="history-games", cursor_type="row", zebra_stripes=True)
        yield Static("", id="history-empty", classes="empty", markup=False)
        yield TableFooter()

    def on_mount(self) -> None:
        self.load()
        self.query_one("#history-games").focus()

    def on_resize(self) -> None:
        if self.infos:
            self._show()

    def _player(self) -> Reader | None:
        return reader(self.app.settings.name) if self.mine else None

    def load(self) -> None:
        """Read the games again with the filters as they are now."""
        games = self.query_one("#history-games", DataTable)
        shown = GAME_NAMES.get(self.game or "", "every game")
        # (Everyone's figures count a game won by its first person, whoever they were:
        # "everyone's figures" beside one player's read as that player's.)
        who = (f"{self.app.settings.name}'s games and figures" if self.mine
               else "everyone's games · the figures count each game as its first person "
               "played it")
        self.query_one("#history-filters", Static).update(
            f"{shown} · {'all time' if self.period == 'all' else 'the last ' + self.period}"
            f" · {who}")
        empty = self.query_one("#history-empty", Static)
        try:
            if not is_kept(self.path):
                raise StoreError(
                    "No games are kept here yet: every game finished on this box is kept."
                    if self.app.box is not None else "No games are kept here yet: every "
                    "game you host (solo too) is kept once it is over. A game at another's "
                    "table is kept by its host.")
            with GameStore(self.path) as store:
                found = store.games(game=self.game, player=self._player(),
                                    since=since(self.period), limit=1_000_000)
        except StoreError as exc:
            self.infos = []
            empty.update(str(exc))
            empty.display = True
            games.display = False
            self.query_one("#history-figures", DataTable).display = False
            self.refresh_bindings()
            return
        self.infos = found
        self.figures = figures(found, self._player())
        self._trend(found)
        self._show(keep_row=False)
        empty.display = not found
        games.display = bool(found)  # (empty, it took the room the words needed)
        empty.update("" if found else "No kept game matches (g, t and m change what is "
                     "shown).")
        self.refresh_bindings()  # (Review and Export: with a game to act on)

    def _show(self, *, keep_row: bool = True) -> None:
        """The figures and the games in their tables, as the screen's width lets them
        be: a line a game, its players (and a figure's how) wrapped in what the other
        columns leave; where that is too little (a phone's browser, about 45 columns,
        cut the list at "won, leve"), each game's cells stacked in lines."""
        width = self.size.width or self.app.size.width
        table = self.query_one("#history-figures", DataTable)
        games = self.query_one("#history-games", DataTable)
        lines = [row(info) for info in self.infos[:SHOWN]]
        # (Each column's widest cell and its padding, the mark's column, a scrollbar.)
        before = 3 + 4 + sum(2 + max([cell_len(HEADERS[c]), *(cell_len(r[c]) for r in lines)])
                             for c in COLUMNS[:-1])
        narrow = width - before < NARROW_PLAYERS
        if narrow != self.narrow:
            self.narrow = narrow
            table.clear(columns=True)
            games.clear(columns=True)
            table.add_columns(*(NARROW_FIGURE_HEADERS if narrow else FIGURE_HEADERS))
            # A ▸ on the row under the cursor: its colours alone marked it, which a
            # monochrome terminal shows as bold, the header's weight.
            games.add_column("", key="mark")
            games.add_columns(*(NARROW_HEADERS if narrow else (HEADERS[i] for i in COLUMNS)))
        row_at = games.cursor_row if keep_row else 0
        table.clear()
        games.clear()
        # (The figures' columns before their how: "Got Five!", "3 seats" and "1 of 10",
        # "100%", with padding, narrow; wide, their headers.)
        rows = (narrow_figures_rows(self.figures, max(12, width - 24)) if narrow else
                figures_rows(self.figures, max(12, width - 4 - sum(
                    2 + cell_len(h) for h in FIGURE_HEADERS[:-1]) - 2)))
        # (Cells as Text: a string cell is read as markup, and a player named "[/]"
        # broke the screen, and the app with it.)
        for values in rows:
            table.add_row(*(Text(str(v)) for v in values), height=None)
        table.display = bool(rows)
        for i, (info, values) in enumerate(zip(self.infos, lines, strict=False)):
            mark = Text("▸" if i == row_at else " ")
            cells: tuple[str, ...]
            if narrow:
                cells = narrow_row(info, max(12, width - 3 - 4 - NARROW_FIRST - 2))
            else:
                cells = (*(values[c] for c in COLUMNS[:-1]), wrapped_entries(
                    player_entries(info), max(12, width - before)))
            games.add_row(mark, *map(Text, cells), key=str(info.id), height=None)
        if row_at:
            games.move_cursor(row=min(row_at, len(lines) - 1))

    def _trend(self, found: list[GameInfo]) -> None:
        """A small plot of one game's measure, game by game (``g`` picks the game)."""
        label = self.query_one("#history-trend-label", Static)
        plot = self.query_one("#history-trend", Sparkline)
        what, values = trend(found, self.game, self._player()) if self.game else ("", [])
        shown = len(values) > 1
        label.display = plot.display = shown
        if shown:
            low, high = min(values), max(values)
            label.update(f"{what}: from {_figure(low)} to {_figure(high)}, "
                         f"last {_figure(values[-1])}")
            plot.data = values

    def _chosen(self) -> int | None:
        games = self.query_one("#history-games", DataTable)
        if not self.infos or games.cursor_row >= len(self.infos):
            return None
        return self.infos[games.cursor_row].id

    @on(DataTable.RowHighlighted, "#history-games")
    def _mark(self, event: DataTable.RowHighlighted) -> None:
        """The ▸ follows the cursor."""
        for key in event.data_table.rows:
            mark = "▸" if key == event.row_key else " "
            if str(event.data_table.get_cell(key, "mark")) != mark:
                event.data_table.update_cell(key, "mark", Text(mark))

    @on(DataTable.RowSelected, "#history-games")
    def _selected(self) -> None:
        self.action_review()

    def action_review(self) -> None:
        """Review the game under the cursor."""
        from tui.screens.review import open_review

        chosen = self._chosen()
        if chosen is None:
            return
        review = open_review(self.path, chosen)
        if isinstance(review, str):
            self.notify(review, severity="error", markup=False)
        else:
            self.app.push_screen(review)

    def action_cycle_game(self) -> None:
        self.game = GAME_CYCLE[(GAME_CYCLE.index(self.game) + 1) % len(GAME_CYCLE)]
        self.load()

    def action_cycle_period(self) -> None:
        self.period = PERIOD_CYCLE[(PERIOD_CYCLE.index(self.period) + 1) % len(PERIOD_CYCLE)]
        self.load()

    def action_mine(self) -> None:
        self.mine = not self.mine
        self.load()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Review and export only with a game listed to act on; on a box, no export:
        its players have no shell to find the file with, and the box's folder is not
        theirs."""
        if action in ("review", "export") and not self.infos:
            return False
        return not (action == "export" and self.app.box is not None)

    def action_export(self) -> None:
        """Write the chosen game as a game file in a folder the player chooses
        (:class:`~tui.screens.export_dialog.ExportScreen`; a file for a friend went into
        the hidden data folder, later into whatever folder the app was started in)."""
        chosen = self._chosen()
        if chosen is None:
            return

        def write(target: Path) -> None:
            try:
                with GameStore(self.path) as store:
                    export_game(store.get(chosen), target)
            except StoreError as exc:
                raise ValueError(str(exc)) from None

        def written(target: Path | None) -> None:
            if target is not None:
                # (The folder on a line of its own: a notice broke the whole path mid-word.)
                self.notify(f"Wrote {target.name} ('hiddenhand replay {target.name}' opens "
                            f"it) in\n{target.parent}", markup=False, timeout=10)

        self.app.push_screen(ExportScreen(chosen, write), written)

def _figure(value: float) -> str:
    """A plotted figure as the average beside it is written: one decimal at most (it
    read "from 6.83333")."""
    return f"{value:.1f}".removesuffix(".0")

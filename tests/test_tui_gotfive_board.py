"""Pilot tests of marking the Got Five! board by keys at 80×24: the arrows stop at the
edges, x and o step on to the next cell, and < / > cross the rest of a row at once
(named in the footer and on the board)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tui.games.gotfive.board import BoardWidget, number_at

from .test_tui import until
from .test_tui_gotfive import goto, my_turn, solo_app
from .tui_support import Notices, footer_drawn, footer_labels_in_view, screen_text


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Keep settings out of the real home directory; keep mDNS on loopback."""
    monkeypatch.setenv("HIDDENHAND_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("HIDDENHAND_MDNS_INTERFACES", "127.0.0.1")
    return tmp_path / "config"


async def test_the_arrows_stop_at_the_edges_of_the_board() -> None:
    """An arrow past an edge leaves the cursor where it is: it used to wrap round to
    the far side silently, where the next key marked a cell nobody meant."""
    app = solo_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await my_turn(pilot)
        assert screen.cursor == (0, 0)
        await pilot.press("up", "left")
        assert screen.cursor == (0, 0)
        for _ in range(15):
            await pilot.press("right", "down")
        assert screen.cursor == (4, 11)
        await pilot.press("down", "right")
        assert screen.cursor == (4, 11) == screen.query_one(BoardWidget).cursor


async def test_x_and_o_mark_the_cell_and_step_on_and_space_cycles_in_place() -> None:
    """x x x crosses three cells in a row (the cursor steps on after each); o circles
    and steps on; space cycles the cell it is on; at the row's end the cursor stays."""
    app = solo_app(auto_cross=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await my_turn(pilot)
        await goto(pilot, screen, number_at(1, 3))
        await pilot.press("x", "x", "x", "o")
        assert screen.cursor == (1, 7)
        assert [screen.marks.get(number_at(1, c)) for c in range(3, 8)] == [
            "cross", "cross", "cross", "circle", None]
        await pilot.press("space", "space")  # circled, in place
        assert screen.cursor == (1, 7) and screen.marks[number_at(1, 7)] == "circle"
        await goto(pilot, screen, number_at(2, 11))
        await pilot.press("x", "x")
        assert screen.cursor == (2, 11) and screen.marks[number_at(2, 11)] == "cross"
        await pilot.press("delete")  # clears in place
        assert screen.cursor == (2, 11) and number_at(2, 11) not in screen.marks
        game = app.hosting.host.tables.popitem()[1].game  # type: ignore[union-attr]
        await until(pilot, lambda: game.marks[0] == screen.marks, "the marks at the host")


async def test_less_and_greater_cross_the_rest_of_the_row_keeping_circles() -> None:
    """After a sort a player crosses a whole run of a row: < crosses every number of
    the row below the cursor, > every one above it; a circled cell and the cell under
    the cursor are left as they are, and a note says what was crossed. The footer at
    80 columns names the key."""
    notices = Notices()
    app = solo_app(auto_cross=False)
    async with app.run_test(size=(80, 24), message_hook=notices) as pilot:
        screen = await my_turn(pilot)
        assert footer_drawn(app).get("cross_range") is True
        assert "✗ range" in footer_labels_in_view(app)
        row = 3
        await goto(pilot, screen, number_at(row, 2))
        await pilot.press("o")  # 14 circled (the cursor steps on to 19)
        await goto(pilot, screen, number_at(row, 5))  # 29
        await pilot.press("less_than_sign")
        assert {c: screen.marks.get(number_at(row, c)) for c in range(12)} == {
            0: "cross", 1: "cross", 2: "circle", 3: "cross", 4: "cross", 5: None,
            6: None, 7: None, 8: None, 9: None, 10: None, 11: None}
        # Said in the board's title (a notice covered the board) until the cursor moves.
        board = screen.query_one("#gf-board")
        # (Whole: at 80 columns "… (row D, lower than 29). Kept your ○ on 14." was cut.)
        title = "Your board (D29) · Crossed 4, 9, 19, 24 (D < 29). ○ kept: 14."
        assert board.border_title == title
        assert not any("Crossed" in m for m in notices.messages())
        await pilot.pause()
        assert title in screen_text(app)
        await pilot.press("right")
        # The title names the cell under the cursor: the reverse video alone marked it,
        # and a player crossed a range from a cell they did not mean.
        assert str(board.border_title).startswith("Your board (D34) · ←↑↓→")
        await pilot.press("left")
        assert str(board.border_title).startswith("Your board (D29) · ←↑↓→")
        await pilot.press("greater_than_sign")
        assert all(screen.marks.get(number_at(row, c)) == "cross" for c in range(6, 12))
        assert number_at(row, 5) not in screen.marks
        title = "Your board (D29) · Crossed 34, 39, 44, 49, 54, 59 (D > 29)."
        assert board.border_title == title
        await pilot.pause()
        assert title in screen_text(app)
        assert all(not screen.marks.get(number_at(r, c)) for r in (0, 1, 2, 4)
                   for c in range(12))
        game = app.hosting.host.tables.popitem()[1].game  # type: ignore[union-attr]
        await until(pilot, lambda: game.marks[0] == screen.marks, "the marks at the host")


async def test_at_80_by_24_the_log_keeps_more_lines_and_each_opponents_last_clue_is_marked(
        ) -> None:
    """Five rounds into a game of four at 80×24 the log had three lines: an opponent's
    move scrolled away between your turns. Your rack gives up its header line (the
    positions' numbers go on the tiles: 1[A?]) so the log keeps four; and in the
    others' racks each opponent's latest clue stays underlined (the table's newest is
    reversed as before), whatever has scrolled away."""
    from rich.console import Console

    from tui.games.gotfive.rack import MyRack, OthersPanel
    from tui.games.gotfive.text import tile_text

    from .test_tui_gotfive import late_game

    app = solo_app(4, hints="board")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await late_game(pilot, 5)
        await pilot.pause()
        log = screen.query_one("#log")
        assert log.content_region.height >= 4, log.content_region
        rack = str(screen.query_one(MyRack).render()).splitlines()
        assert "n0" not in rack[0] and [f"{k}[" in rack[0] for k in range(1, 6)] == [True] * 5
        panel = screen.query_one(OthersPanel)
        lines = panel.lines(panel.size.width)
        console = Console()
        clues = screen.view["clues"]
        for seat in (1, 2, 3):
            latest = [c["tile"] for c in clues if c["seat"] == seat][-1]
            label = tile_text(latest).plain  # as drawn: "A 1•"
            (line,) = [line for line in lines if label in line.plain]
            style = line.get_style_at_offset(console, line.plain.index(label) + 1)
            assert style.underline, (seat, label)
            earlier = next(c["tile"] for c in clues if c["seat"] == seat)
            label = tile_text(earlier).plain
            line = next(line for line in lines if label in line.plain)
            style = line.get_style_at_offset(console, line.plain.index(label) + 1)
            assert not style.underline


@pytest.mark.parametrize(("width", "height"), [(45, 30), (78, 12)])
async def test_a_mark_never_runs_on_from_the_dots_before_it(width: int, height: int) -> None:
    """At 80 columns a cell is as wide as a number with three dots and its mark:
    '42•••-47•' read as one. A column of three dots takes a cell more where the row
    has room; a click still finds the cell under it."""
    from textual.app import App

    clicked: list[int] = []

    class Board(App[None]):
        def compose(self) -> Any:
            yield BoardWidget()

        def on_board_widget_cell_clicked(self, event: BoardWidget.CellClicked) -> None:
            clicked.append(event.n)

    app = Board()
    async with app.run_test(size=(width, height)) as pilot:
        board = app.query_one(BoardWidget)
        board.styles.height = "auto"  # (as the table's stylesheet has it)
        board.marks = {n: "cross" for n in range(1, 61)}
        await pilot.pause()
        lines = board.render().plain.splitlines()
        assert all(not re.search(r"•[✗○\-·]", line) for line in lines), lines
        # Every number is where a click finds it.
        for n in (16, 17, 46, 47, 60):
            row, col = (n - 1) % 5, (n - 1) // 5
            line = next(i for i, text in enumerate(lines)
                        if re.search(rf"(?<!\d){n}•", text) and text.startswith("ABCDE"[row]))
            x = board.LABEL + lines[line].index(f"{n}•") - board.LABEL
            await pilot.click(BoardWidget, offset=(x, line))
            await until(pilot, lambda n=n: clicked[-1:] == [n], f"the click on {n}")
            assert number_at(row, col) == n

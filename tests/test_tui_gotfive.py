"""Pilot tests of the Got Five! table, against a real local host (solo, or over TCP).

A person plays reveal + sort and reveal + compare through the keys; marks cells by
keys and by click and finds them again after leaving and rejoining; calls GOT FIVE!
wrongly (out) and rightly (from circled cells: wins, and the game-over summary);
each hint mode shows what the view carries. The tests read the host's engine state
only where a player would know the answer (their own rack, to call it).
"""

from __future__ import annotations

import io
import random
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input, Label, Static

from engine.gotfive import colour_of, numbers_of_colour
from net.client import Client
from net.host import Host
from tui.app import HiddenHandApp
from tui.games.gotfive.board import BoardWidget, cell_of
from tui.games.gotfive.dialogs import AnnounceScreen
from tui.games.gotfive.public import PublicRow
from tui.games.gotfive.rack import MyRack
from tui.games.gotfive.reveal import RevealScreen
from tui.games.gotfive.screen import GotFiveScreen
from tui.games.gotfive.slots import slot_range
from tui.games.gotfive.text import tile_label
from tui.screens.dialogs import ConfirmScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.menu import MenuScreen
from tui.screens.summary import SummaryScreen
from tui.settings import Settings
from tui.widgets.log import TableLog
from tui.widgets.status_line import StatusLine

from .test_tui import join_by_address, until
from .tui_support import (
    count_layouts,
    footer_drawn,
    footer_keys,
    gotfive_clue_move,
    make_app,
    screen_strips,
    screen_text,
    still_gotfive_table,
    type_ahead,
)

SIZE = (100, 34)


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Keep settings out of the real home directory; keep mDNS on loopback."""
    monkeypatch.setenv("HIDDENHAND_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("HIDDENHAND_MDNS_INTERFACES", "127.0.0.1")
    return tmp_path / "config"


def solo_app(seats: int = 3, *, auto_cross: bool = True, **options: Any) -> HiddenHandApp:
    """A solo table of ``seats``, Ann first; ``auto_cross`` is Ann's own setting."""
    rng = random.Random(11)
    return HiddenHandApp(Settings(name="Ann", auto_cross=auto_cross), bot_delay=0.01,
                         seed_source=lambda: rng.getrandbits(62),
                         solo={"game_id": "gotfive", "seats": seats,
                               "options": {"first": 0, **options}})


def announce_app(colours: list[int], prefill: list[int | None],
                 **kwargs: Any) -> App[None]:
    """An app with the app's stylesheet showing only the GOT FIVE! bar."""

    class Dialog(App[None]):
        CSS_PATH = str(Path(__file__).parent.parent / "tui" / "app.tcss")  # the app's

        def on_mount(self) -> None:
            self.push_screen(AnnounceScreen(colours, prefill, **kwargs))

    return Dialog()


async def my_turn(pilot: Pilot[Any], phase: str = "reveal") -> GotFiveScreen:
    """Wait for the table, our turn and its ``phase``."""
    app = pilot.app

    def ready() -> GotFiveScreen | None:
        screen = app.screen
        if not isinstance(screen, GotFiveScreen) or not screen.legal:
            return None
        view = screen.view
        return screen if view.get("phase") == phase and view.get("turn") == 0 else None

    screen: GotFiveScreen = await until(pilot, ready, f"our turn to {phase}")
    return screen


def content_origin(widget: Any) -> tuple[int, int]:
    """Where a widget's content starts, relative to the widget (past border and padding)."""
    return (widget.content_region.x - widget.region.x, widget.content_region.y - widget.region.y)


def board_text(screen: GotFiveScreen) -> str:
    return str(screen.query_one(BoardWidget).render())


async def goto(pilot: Pilot[Any], screen: GotFiveScreen, n: int) -> None:
    """Move the board's cursor to ``n`` with the arrow keys (they stop at the edges)."""
    row, col = cell_of(n)
    while screen.cursor[0] != row:
        await pilot.press("down" if screen.cursor[0] < row else "up")
    while screen.cursor[1] != col:
        await pilot.press("right" if screen.cursor[1] < col else "left")


async def test_a_person_reveals_then_sorts_and_later_reveals_then_compares() -> None:
    app = solo_app(hints="board")
    async with app.run_test(size=SIZE) as pilot:
        screen = await my_turn(pilot)
        view = screen.view
        # Board mode: a number no rack holds is greyed out with '·', and the count is shown.
        hint = view["hint"]
        title = str(screen.query_one(BoardWidget).border_title)
        assert f"{hint['count']} racks fit" in title
        impossible = [n for c in range(5) for n in numbers_of_colour(c)
                      if n not in hint["possible"][str(c)]]
        assert impossible and all(n not in hint["possible"][str(colour_of(n))]
                                  for n in impossible)
        board = screen.query_one(BoardWidget)
        assert board.impossible() == set(impossible)
        unmarked = [n for n in impossible if str(n) not in view["marks"]]
        assert f"·{unmarked[0]:>2}" in board_text(screen)
        # Reveal: r, then a colour letter.
        await pilot.press("r")
        assert isinstance(app.screen, RevealScreen)
        await pilot.pause()
        # The dialog's keys, not the table's: what it waits for, and how to cancel.
        assert footer_drawn(app) == {"choose": True, "dismiss": True}
        # Under the board, which stays in sight while the colour is chosen (it hid it).
        dialog = app.screen.query_one(".dialog")
        assert dialog.region.y >= board.region.bottom, (dialog.region, board.region)
        await pilot.press("escape")
        assert app.screen is screen
        # Typed at once, as a quick player does: the letter reaches the dialog.
        await type_ahead(pilot, "r", "a")
        screen = await my_turn(pilot, "clue")
        public = screen.view["public"]
        picked = public[screen.selected]
        assert colour_of(picked["n"]) == 0, "the tile just revealed is picked"
        await pilot.press("s")
        await until(pilot, lambda: any(c["seat"] == 0 for c in screen.view["clues"]),
                    "our sort")
        (clue,) = [c for c in screen.view["clues"] if c["seat"] == 0]
        assert clue["clue"] == "sort" and clue["tile"] == picked["n"]
        rack_lines = str(screen.query_one(MyRack).render()).splitlines()
        # The sorted tile sits in its notch: after `notch` of our five tiles on the line
        # (the first: below 140 columns the positions' numbers are on it, "1[A?]").
        tiles_line = rack_lines[0]
        assert tiles_line.count("[") == 5
        where = tiles_line.index(f"A{picked['n']}")
        assert tiles_line[:where].count("[") == clue["notch"]
        # Later: reveal a B tile by clicking B in the supply, pick a tile, compare with 2.
        screen = await my_turn(pilot)
        row = screen.query_one(PublicRow)
        _, spans = row.spans()
        (start,) = [sp.start for sp in spans if sp.kind == "colour" and sp.value == 1]
        x, y = content_origin(row)
        await pilot.click(PublicRow, offset=(x + start, y))
        screen = await my_turn(pilot, "clue")
        assert colour_of(screen.chosen_tile() or 0) == 1  # the B tile just revealed
        x, y = content_origin(row)
        _, spans = row.spans()
        (start,) = [sp.start for sp in spans if sp.kind == "tile" and sp.value == 0]
        await pilot.click(PublicRow, offset=(x + start + 1, y))  # a click picks a tile…
        assert screen.selected == 0 and row.selected == 0
        await pilot.press("tab")  # …and so does Tab
        assert screen.selected == 1
        tile = screen.chosen_tile()
        await pilot.press("2")
        await until(pilot, lambda: len([c for c in screen.view["clues"] if c["seat"] == 0]) == 2,
                    "our compare")
        compare = [c for c in screen.view["clues"] if c["seat"] == 0][1]
        assert compare["clue"] == "compare" and compare["position"] == 1
        assert compare["tile"] == tile
        mark = "=" if compare["same"] else "≠"
        assert f"{mark}{'ABCDE'[colour_of(tile)]}{tile}" in str(screen.query_one(MyRack).render())
        log = screen.query_one("#log")
        assert any("You compared" in str(line.text) for line in log.lines)


@pytest.mark.parametrize("columns", [45, 40])
async def test_on_a_phone_held_upright_the_board_comes_in_two_halves_and_clicks_mark(
        columns: int) -> None:
    """At 45 columns (a phone's browser held upright) twelve numbers a row do not fit:
    the board shows 1-30 over 31-60, every number in sight with all its dots (at 40
    the last column's dots were cut), and a click on one in the second half marks it."""
    from rich.cells import cell_len

    from engine.gotfive_tiles import dots_of
    from tui.games.gotfive.board import number_at

    app = solo_app()
    async with app.run_test(size=(columns, 40)) as pilot:
        screen = await my_turn(pilot)
        board = screen.query_one(BoardWidget)
        await until(pilot, lambda: board.split and board.has_class("-split"), "split")
        text = board_text(screen)
        assert all(f"{n:>2}" in text for n in (1, 30, 31, 60))
        lines = [line for line in text.splitlines() if line.strip()]
        assert all(cell_len(line.rstrip()) <= board.size.width for line in lines)
        for row, line in enumerate(lines[:5]):
            last = number_at(row, 5)
            assert line.rstrip().endswith(f"{last}{'•' * dots_of(last)}"), line
        free = [n for n in range(31, 61) if str(n) not in screen.view["marks"]]
        n = free[-1]
        width, _, _ = board.geometry()
        row, col = cell_of(n)
        x, y = content_origin(board)
        await pilot.click(BoardWidget, offset=(x + board.label + (col - 6) * width + width // 2,
                                               y + 6 + row))
        await until(pilot, lambda: screen.view["marks"].get(str(n)) == "cross", "marked")


async def test_on_a_phone_held_upright_the_rack_comes_in_two_rows_and_a_click_compares() -> None:
    """At 45 columns one row of five tiles and six notches does not fit: the rack comes
    in two rows (notch 0 to tile 3, then notch 3 to notch 5), every position in sight,
    and a click on tile 5 in the second row compares the picked tile with it."""
    app = solo_app()
    async with app.run_test(size=(45, 40)) as pilot:
        screen = await my_turn(pilot)
        rack = screen.query_one(MyRack)
        lines = str(rack.render()).splitlines()
        assert all(len(line.rstrip()) <= rack.content_region.width for line in lines)
        first = next(i for i, line in enumerate(lines) if "1[" in line)
        second = next(i for i, line in enumerate(lines) if "4[" in line)
        assert all(f"{k}[" in lines[first] for k in (1, 2, 3))
        assert all(f"{k}[" in lines[second] for k in (4, 5)) and second > first
        assert lines[first].startswith("−") and lines[second].rstrip().endswith("+")
        await type_ahead(pilot, "r", "a")
        screen = await my_turn(pilot, "clue")
        tile = screen.chosen_tile()
        # A click on the footer's "1-5 Compare" says where to click (it compared with
        # position 1 at once, the turn gone).
        from tui.widgets.footer import TableFooter

        footer = screen.query_one(TableFooter)
        compare = next(e for e in footer.entries if e.action == "compare(0)")
        assert footer.entry_region(footer.entries.index(compare))[1] <= footer.size.width
        assert screen.footer_clicked(compare)
        await pilot.pause()
        assert not any(c["seat"] == 0 for c in screen.view["clues"])
        lines = str(rack.render()).splitlines()
        row = next(i for i, line in enumerate(lines) if "5[" in line)
        x, y = content_origin(rack)
        await pilot.click(MyRack, offset=(x + lines[row].index("5[") + 2, y + row))
        await until(pilot, lambda: any(c["seat"] == 0 for c in screen.view["clues"]),
                    "our compare")
        (clue,) = [c for c in screen.view["clues"] if c["seat"] == 0]
        assert clue == {**clue, "clue": "compare", "position": 4, "tile": tile}


async def test_at_40_columns_by_24_with_a_scrollbar_the_rack_is_whole() -> None:
    """At 40 × 24 the table scrolls, its scrollbar leaves 39 columns, and the rack's two
    rows lost their last cell ("3[E?"): there it comes in three rows, every tile whole."""
    app = solo_app()
    async with app.run_test(size=(40, 24)) as pilot:
        screen = await my_turn(pilot)
        rack = screen.query_one(MyRack)
        await pilot.pause()
        lines = str(rack.render()).splitlines()
        assert all(len(line.rstrip()) <= rack.content_region.width for line in lines), lines
        assert all(any(f"{k}[" in line for line in lines) for k in range(1, 6))
        assert all(line.count("]") == line.count("[") for line in lines)


async def test_marks_by_key_and_click_survive_leaving_and_rejoining() -> None:
    host = Host("test host", bot_delay=0.01)
    await host.start("127.0.0.1", 0)
    bob = await Client.connect("127.0.0.1", host.port, name="Bob")
    await bob.create_table("Bob's table", "gotfive", 2, {"first": 1, "hints": "count"})
    app = HiddenHandApp(Settings(name="Ann", mdns_interfaces=["127.0.0.1"]), bind="127.0.0.1",
                        bot_delay=0.01)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await join_by_address(pilot, host.port)
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            await pilot.press("ctrl+r")
            await bob.wait_for(lambda m: m.get("type") == "update"
                               and m["table"]["seats"][1]["ready"])
            await bob.start()
            screen: GotFiveScreen = await until(
                pilot, lambda: isinstance(app.screen, GotFiveScreen) and app.screen.legal
                and app.screen, "the table")
            (table,) = host.tables.values()
            game = table.game
            # Hints "count": the count, and no greyed cells.
            assert f"{screen.view['hint']['count']} racks fit" in str(
                screen.query_one(BoardWidget).border_title)
            assert screen.query_one(BoardWidget).hint is None
            free = [n for n in range(1, 61) if str(n) not in screen.view["marks"]]
            by_key, by_click = free[0], free[-1]
            await goto(pilot, screen, by_key)
            await pilot.press("space")  # crossed
            await pilot.press("space")  # circled: shown at once, before the host answers
            assert screen.query_one(BoardWidget).marks[by_key] == "circle"
            board = screen.query_one(BoardWidget)
            width, lines, _ = board.geometry()
            row, col = cell_of(by_click)
            x, y = content_origin(board)
            await pilot.click(BoardWidget, offset=(x + board.LABEL + col * width + width // 2,
                                                   y + row * lines))
            await until(pilot, lambda: game.marks[1] == {by_key: "circle", by_click: "cross"},
                        "the marks at the host")
            # A number Ann can see stays crossed (auto-cross): the key does nothing.
            seen = int(screen.view["public"][0]["n"])
            await goto(pilot, screen, seen)
            await pilot.press("space")
            assert screen.view["marks"][str(seen)] == "cross"
            # …and it is drawn as auto-cross's ×, not as a ✗ of Ann's own; the title says so.
            text = board_text(screen)
            assert f"-{seen:>2}" in text and f"✗{by_click:>2}" in text
            assert "-=seen" in str(board.border_title)
            # The cable is pulled: the app reconnects by itself, the marks come back.
            client = screen.session.client
            assert client is not None
            before = screen.update
            client.abort()
            banner = screen.query_one("#banner")
            await until(pilot, lambda: banner.has_class("shown"), "the banner")
            await until(pilot, lambda: not banner.has_class("shown"), "the reconnection")
            assert screen.session.client is not client
            await until(pilot, lambda: screen.update is not before, "a view after it")
            assert screen.view["marks"][str(by_key)] == "circle"
            assert screen.query_one(BoardWidget).marks[by_key] == "circle"
            await pilot.press("escape")
            await pilot.press("y")  # leave: the seat stays ours
            await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
            await join_by_address(pilot, host.port)
            again: GotFiveScreen = await until(
                pilot, lambda: isinstance(app.screen, GotFiveScreen) and app.screen.update
                and app.screen, "the table again")
            assert again is not screen
            marks = again.query_one(BoardWidget).marks
            assert marks[by_key] == "circle" and marks[by_click] == "cross"
            assert f"○{by_key:>2}" in board_text(again)
    finally:
        await bob.close()
        await host.close()


async def test_a_wrong_got_five_puts_you_out() -> None:
    app = solo_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await my_turn(pilot)
        assert "hint" not in screen.view  # hints off: nothing on the board's title
        assert "hint" not in str(screen.query_one(BoardWidget).border_title)
        assert screen.query_one(BoardWidget).hint is None
        (table,) = app.hosting.host.tables.values()  # type: ignore[union-attr]
        truth = table.game.racks[0]
        # Five ascending numbers of the rack's colours, not all right: the lowest of each.
        colours = [t["colour"] for t in screen.view["racks"][0]]
        wrong: list[int] = []
        for colour in colours:
            wrong.append(next(n for n in numbers_of_colour(colour)
                              if not wrong or n > wrong[-1]))
        if wrong == truth:
            wrong[-1] = next(n for n in numbers_of_colour(colours[-1]) if n > truth[-1])
        # "g" and a number typed at once, as a quick player does: the digits reach a slot.
        await type_ahead(pilot, "g", *str(wrong[0] + 1))
        dialog = await until(pilot, lambda: isinstance(app.screen, AnnounceScreen)
                             and app.screen, "the dialog")
        await pilot.pause()
        assert dialog.query_one("#gf-n0").value == str(wrong[0] + 1)  # type: ignore[attr-defined]
        # Announce and Close, as the buttons say; the arrows and Tab too.
        assert footer_drawn(app) == {"enter": True, "dismiss": True, "step": True,
                                     "next_slot": True}
        # A number of the wrong colour is refused in words, and nothing is sent.
        await pilot.press("enter")
        assert "colour" in str(dialog.query_one("#gf-announce-error").render())
        for i, n in enumerate(wrong):
            await pilot.click(f"#gf-n{i}")
            dialog.query_one(f"#gf-n{i}").value = ""  # type: ignore[attr-defined]
            if i == 0:
                await pilot.press("up")  # ↑ on an empty slot: its colour's lowest number
            else:
                await pilot.press(*str(n))
        assert dialog.query_one("#gf-n0").value == str(wrong[0])  # type: ignore[attr-defined]
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the confirmation")
        await pilot.press("y")
        await until(pilot, lambda: screen.view["out"][0], "us out")
        assert screen.view["racks"][0] == [{"n": n, "colour": colour_of(n), "dots": t["dots"]}
                                           for n, t in zip(truth, screen.view["racks"][0],
                                                           strict=True)]
        # (The bots may finish the game at once: the log keeps what happened.)
        log = screen.query_one("#log")
        await until(pilot, lambda: any("You are out; rack:" in str(line.text)
                                       for line in log.lines), "the log line")
        assert not screen.check_game_action("got_five", ())


async def test_a_prefilled_got_five_dialog_takes_what_the_player_types() -> None:
    """Opening on circled cells, the dialog focuses the first empty slot (filling in
    the others is not typing: it must not move the focus on); a slot that is full
    takes new digits however the player got into it, a click included."""

    app = announce_app([0, 1, 2, 3, 4], [11, 12, None, 14, 15])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, AnnounceScreen)
        assert app.focused is dialog.query_one("#gf-n2")
        await pilot.press("1", "3")  # fits slot 3's colour: on to slot 4
        assert app.focused is dialog.query_one("#gf-n3")
        await pilot.click("#gf-n1")  # a click: the cursor is in, nothing selected
        await pilot.press("2")
        await pilot.press("2")
        assert dialog.texts() == ["11", "22", "13", "14", "15"]
        assert app.focused is dialog.query_one("#gf-n2")  # 22 fits: moved on
        await pilot.press("4", "3")  # 43 before 14: out of order, said in full
        await pilot.pause()
        error = dialog.query_one("#gf-announce-error")
        said = str(error.render())
        assert "must be higher than 43" in said and said.endswith("ascending order).")
        box = dialog.query_one(".dialog").content_region
        assert box.contains_region(error.region)  # wrapped inside the dialog, not cut
        assert error.region.width * error.region.height >= len(said)


@pytest.mark.parametrize("columns", [40, 45, 80])
async def test_every_slot_of_the_got_five_bar_is_in_sight(columns: int) -> None:
    """At a phone's 40 columns the fifth slot was off the edge, typed into blind."""

    app = announce_app([0, 1, 2, 3, 4], [11, 12, None, 14, 15])
    async with app.run_test(size=(columns, 30)) as pilot:
        await pilot.pause()
        slots = [app.screen.query_one(f"#gf-n{i}") for i in range(5)]
        assert all(slot.region.width and slot.region.right <= columns for slot in slots)


async def test_enter_on_a_wrong_got_five_bar_gives_the_keys_to_the_slot_it_names() -> None:
    """"Position 4: 4 must be higher than 13", and the keys stayed elsewhere: a
    Backspace then cleared a number that was right."""

    app = announce_app([0, 1, 2, 3, 4], [11, 12, 13, 4, 15])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, AnnounceScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert str(dialog.query_one("#gf-announce-error").render()).startswith("Position 4")
        assert app.focused is dialog.query_one("#gf-n3")
        dialog.query_one("#gf-n4", Input).value = ""  # an empty slot after it: still 4
        dialog.query_one("#gf-n0", Input).focus()
        await pilot.press("enter")
        await pilot.pause()
        assert app.focused is dialog.query_one("#gf-n3")


async def test_got_five_from_circled_cells_wins_and_the_summary_shows_the_game() -> None:
    """A right GOT FIVE! wins; the summary shows every rack, and offers the game's review."""
    app = solo_app(hints="count")
    async with app.run_test(size=SIZE) as pilot:
        screen = await my_turn(pilot)
        (table,) = app.hosting.host.tables.values()  # type: ignore[union-attr]
        truth = table.game.racks[0]  # the test knows what a good player would deduce
        for n in truth:
            await goto(pilot, screen, n)
            await pilot.press("o")
        await until(pilot, lambda: all(table.game.marks[0].get(n) == "circle" for n in truth),
                    "the circles")
        await pilot.press("g")
        dialog = await until(pilot, lambda: isinstance(app.screen, AnnounceScreen)
                             and app.screen, "the dialog")
        assert [dialog.query_one(f"#gf-n{i}").value for i in range(5)] == [  # type: ignore[attr-defined]
            str(n) for n in truth]
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the confirmation")
        await pilot.press("y")
        summary = await until(pilot, lambda: isinstance(app.screen, SummaryScreen)
                              and app.screen, "the summary")
        console = Console(width=100, record=True, file=io.StringIO())
        console.print(summary.title_text, *summary.body)
        text = console.export_text()
        assert "You win" in text
        assert "Every rack" in text and "✓ right" in text
        for seat_rack in table.game.racks:
            assert all(f"{n}" in text for n in seat_rack)
        # Kept at our own host, the game may be reviewed from here at once.
        await until(pilot, lambda: summary.query("#review"), "the review button")
        await pilot.press("v")
        from tui.screens.review import ReviewScreen

        review = await until(pilot, lambda: isinstance(app.screen, ReviewScreen)
                             and app.screen, "the review")
        assert review.record["game"] == "gotfive" and review.record["moves"]
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is summary, "back to the summary")
        await pilot.press("c")
        assert app.screen is screen
        assert "You win" in str(screen.query_one("#gf-status").render())
        # A rematch: the last game's "You win" is no summary of the new one (a fresh
        # player's ``v`` opened it in the new game).
        assert footer_keys(app).get("summary_again")
        assert screen.cursor != (0, 0)  # (where the circles were made)
        first = table.game
        # Opened again (v) and answered r: the first r asked again "the game just ended"
        # (r is the table's reveal), though asked for long after it ended (a fresh-eyed
        # pass pressed it twice).
        await pilot.press("v")
        again = await until(pilot, lambda: isinstance(app.screen, SummaryScreen)
                            and app.screen is not summary and app.screen.shown_at < 1e18
                            and app.screen, "the summary again")
        later = again.shown_at + 5  # (past the guard for keys typed as a summary shows)
        again.clock = lambda: later
        await pilot.press("r")
        await until(pilot, lambda: table.game is not first and screen.table["phase"] == "play"
                    and screen.view.get("phase") != "over", "the rematch")
        assert "summary_again" not in footer_keys(app)
        # The new game's board starts at A1, as the first game's did.
        assert screen.cursor == (0, 0) and screen.query_one(BoardWidget).cursor == (0, 0)
        await pilot.press("v")
        assert app.screen is screen


async def test_every_opponents_rack_stays_in_sight_as_clues_lengthen_it() -> None:
    """At 80×24 the others' racks wrap as clues gather; the panel grows with them, so
    the last opponent's rack is never cut off (it was, once racks stopped being set anew
    on every update)."""
    from tui.games.gotfive.rack import OthersPanel

    app = solo_app(4, bots="casual")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await my_turn(pilot)
        host = app.hosting.host
        assert host is not None
        (table,) = host.tables.values()
        for seat in table.seats:
            seat.bot = None  # the test plays every seat
        game = table.game
        rng = random.Random(3)
        panel = screen.query_one(OthersPanel)
        for _ in range(60):  # many clues a seat: compares make the longest lines
            turn = game.view(None)["turn"]
            legal = game.legal_actions(turn)
            compares = [a for a in legal if a["type"] == "compare"]
            action = rng.choice(compares or [a for a in legal
                                             if a["type"] in ("reveal", "sort")])
            host.refresh(table, game.act(turn, action, now=table.elapsed(host.clock())))
            await pilot.pause()
        await until(pilot, lambda: panel.size.height == len(panel.lines(panel.size.width)),
                    "the panel as tall as its lines")
        assert panel.size.height > 3  # some rack wrapped onto a second line
        shown = screen_text(app)
        for seat in (1, 2, 3):
            assert f"{seat + 1} Bot {seat + 1}" in shown, shown


async def test_a_rack_wrapped_over_two_lines_still_ends_with_its_plus() -> None:
    """Late in a game at 80 columns one opponent's wrapped rack had lost its "+" (left
    out where it would have stood alone) while the other's kept it."""
    from textual.app import App, ComposeResult

    from tui.games.gotfive.rack import OthersPanel

    class Racks(App[None]):
        def compose(self) -> ComposeResult:
            yield OthersPanel()

    seen = [{"n": n, "colour": colour_of(n)} for n in (11, 24, 35, 42, 53)]
    clues = [{"seat": 1, "clue": "compare", "position": p, "tile": n, "same": False}
             for p, n in ((0, 12), (1, 25), (2, 36), (3, 43))]
    app = Racks()
    for width in range(30, 61, 3):
        async with app.run_test(size=(width, 20)) as pilot:
            others = app.query_one(OthersPanel)
            others.set_attributes(me=0, names=["You", "Bo"], racks=[seen, seen], clues=clues)
            await pilot.pause()
            text = screen_text(app).rstrip()
            assert text.endswith("+"), (width, text)
        app = Racks()


async def test_racks_ask_for_a_layout_only_when_their_height_changes() -> None:
    """Your rack and the others' racks take their attributes in one go
    (``set_attributes``): a repaint, and a layout only when their height changes."""
    from textual.app import App, ComposeResult

    from tui.games.gotfive.rack import MyRack, OthersPanel

    class Racks(App[None]):
        def compose(self) -> ComposeResult:
            yield OthersPanel()
            yield MyRack()

    tiles = [{"colour": colour_of(n)} for n in (11, 24, 35, 42, 53)]
    seen = [{"n": n, "colour": colour_of(n)} for n in (11, 24, 35, 42, 53)]
    app = Racks()
    async with app.run_test(size=(60, 20)) as pilot:
        others, rack = app.query_one(OthersPanel), app.query_one(MyRack)
        others.set_attributes(me=0, names=["You", "Bo", "Cy"], racks=[tiles, seen, seen])
        rack.set_attributes(seat=0, tiles=tiles)
        await pilot.pause()
        heights = others.size.height, rack.size.height
        others_layouts, rack_layouts = count_layouts(others), count_layouts(rack)
        layouts = others_layouts(), rack_layouts()
        # Whose turn it is, and a face-up rack: drawn anew, same heights.
        others.set_attributes(turn=1, racks=[tiles, tiles, seen])
        rack.set_attributes(comparing=True, tiles=seen)
        assert (others_layouts(), rack_layouts()) == layouts
        await pilot.pause()
        assert (others.size.height, rack.size.height) == heights
        # Two compares stacked under your first tile: your rack grows.
        clues = [{"seat": 0, "clue": "compare", "position": 0, "tile": n, "same": False}
                 for n in (12, 13)]
        rack.set_attributes(clues=clues)
        others.set_attributes(clues=clues)  # not about them: the same lines
        assert rack_layouts() == layouts[1] + 1
        assert others_layouts() == layouts[0]
        await pilot.pause()
        assert rack.size.height > heights[1]
        assert others.size.height == heights[0]


async def test_the_others_racks_are_drawn_once_an_update_and_anew_when_they_change() -> None:
    """The panel's lines are asked for by its height, its layout and its repaint: drawn
    once for the same attributes and width, and drawn anew for new ones."""
    from textual.app import App, ComposeResult

    from tui.games.gotfive.rack import OthersPanel

    class Others(App[None]):
        def compose(self) -> ComposeResult:
            yield OthersPanel()

    tiles = [{"colour": colour_of(n)} for n in (11, 24, 35, 42, 53)]
    app = Others()
    async with app.run_test(size=(60, 10)) as pilot:
        panel = app.query_one(OthersPanel)
        drawn: list[int] = []
        draw = panel._lines

        def counted(width: int) -> list[Any]:
            drawn.append(width)
            return draw(width)

        panel._lines = counted  # type: ignore[method-assign]
        panel.set_attributes(me=0, names=["You", "Bo"], racks=[tiles, tiles])
        await pilot.pause()
        first = [line.plain for line in panel.lines(60)]
        assert len(drawn) == 1, drawn  # height, layout and repaint: one drawing
        assert panel.lines(60)[0] is not panel.lines(60)[0]  # a copy each time
        clue = {"seat": 1, "clue": "compare", "position": 0, "tile": 12, "same": False}
        panel.set_attributes(clues=[clue])
        await pilot.pause()
        assert [line.plain for line in panel.lines(60)] != first
        assert "12" in "".join(line.plain for line in panel.lines(60))
        assert len(drawn) == 2, drawn
        panel.lines(30)  # another width: drawn for it
        assert drawn == [60, 60, 30]


async def test_another_seats_clue_leaves_your_rack_undrawn() -> None:
    """Your rack draws only your own clues (the newest reversed): another seat's clue
    repaints it only when it takes the "newest" mark off one of yours."""
    from textual.app import App, ComposeResult

    class Rack(App[None]):
        def compose(self) -> ComposeResult:
            yield MyRack()

    def clue(seat: int, tile: int) -> dict[str, Any]:
        return {"seat": seat, "clue": "sort", "notch": 2, "tile": tile}

    tiles = [{"colour": colour_of(n)} for n in (11, 24, 35, 42, 53)]
    app = Rack()
    async with app.run_test(size=(60, 10)) as pilot:
        rack = app.query_one(MyRack)
        rack.set_attributes(seat=0, tiles=tiles, clues=[clue(1, 7)])
        await pilot.pause()
        repaints: list[object] = []
        refresh = rack.refresh

        def counted(*args: Any, **kwargs: Any) -> Any:
            repaints.append(args)
            return refresh(*args, **kwargs)

        rack.refresh = counted  # type: ignore[method-assign]
        drawn = str(rack.render())
        rack.set_attributes(clues=[clue(1, 7), clue(2, 8)])  # theirs: nothing new here
        assert not repaints and str(rack.render()) == drawn
        rack.set_attributes(clues=[clue(1, 7), clue(2, 8), clue(0, 9)])  # ours
        assert len(repaints) == 1
        mine = rack.render()
        rack.set_attributes(clues=[clue(1, 7), clue(2, 8), clue(0, 9), clue(1, 10)])
        assert len(repaints) == 2  # our 9 is no longer the newest: drawn plain again
        assert str(rack.render()) == str(mine) and rack.render().spans != mine.spans


@pytest.mark.parametrize("size", [(80, 12), (120, 20)])
async def test_the_board_draws_line_by_line_what_its_text_draws(size: tuple[int, int]) -> None:
    """The board's line API draws, cell for cell and style for style, what Textual drew
    of its text; a changed mark turns only its own row into strips again."""
    from rich.style import Style
    from textual.app import App, ComposeResult
    from textual.widget import Widget

    from tui.games.gotfive.board import BoardWidget

    class TextBoard(BoardWidget):
        render_line = Widget.render_line  # Textual's own: the board's text, rendered

    class Boards(App[None]):
        CSS = "BoardWidget { height: 1fr; }"

        def compose(self) -> ComposeResult:
            yield BoardWidget()
            yield TextBoard()

    def cells(app: App[None], widget: Widget) -> list[list[tuple[str, Style | None]]]:
        strips = screen_strips(app)
        region = widget.region
        return [[(char, segment.style and segment.style.clear_meta_and_links())
                 for segment in strips[y].crop(region.x, region.right)
                 for char in segment.text] for y in range(region.y, region.bottom)]

    hint = {"count": 4, "possible": {str(c): [1, 2, 3, 31] for c in range(5)},
            "certain": [1]}
    app = Boards()
    async with app.run_test(size=size) as pilot:
        board, text = app.query_one(BoardWidget), app.query_one(TextBoard)
        for widget in (board, text):
            widget.marks = {7: "cross", 12: "circle", 31: "circle"}
            widget.hint = hint
            widget.cursor = (1, 2)
        await pilot.pause()
        assert board.size == text.size
        mine, textuals = cells(app, board), cells(app, text)
        for y, (a, b) in enumerate(zip(mine, textuals, strict=True)):
            assert a == b, (y, {s for _, s in a} ^ {s for _, s in b})
        per_row = board.geometry()[1]

        def strips() -> dict[int, list[object]]:  # each board row's strips, as drawn
            lines = [board.render_line(y) for y in range(5 * per_row)]
            return {row: lines[row * per_row:(row + 1) * per_row] for row in range(5)}

        rows = strips()
        board.marks = {**board.marks, 9: "cross"}  # row D
        await pilot.pause()
        after = strips()
        kept = [row for row in rows
                if all(a is b for a, b in zip(after[row], rows[row], strict=True))]
        assert kept == [0, 1, 2, 4], kept


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
async def test_the_racks_and_the_public_row_draw_line_by_line_what_textual_drew(
        size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    """After a dozen clues, your rack, the others' racks and the public row, drawn line
    by line (``TextLines``), are cell for cell and style for style what Textual drew of
    their text."""
    from textual.widget import Widget

    from tui.games.gotfive.public import PublicRow
    from tui.games.gotfive.rack import MyRack, OthersPanel
    from tui.widgets.lines import TextLines

    def cells(widget: Widget) -> list[list[tuple[str, Any]]]:
        strips = screen_strips(widget.app)
        region = widget.region
        return [[(char, segment.style and segment.style.clear_meta_and_links())
                 for segment in strips[y].crop(region.x, region.right)
                 for char in segment.text] for y in range(region.y, region.bottom)]

    app = solo_app(3)
    async with app.run_test(size=size) as pilot:
        screen, table = await still_gotfive_table(pilot)
        rng = random.Random(8)
        for _ in range(14):
            move = gotfive_clue_move(table, rng)
            if move is None:
                break
            version = screen.view.get("version")
            app.hosting.host.act(table, *move)
            await until(pilot, lambda before=version: screen.view.get("version") != before,
                        "the move shown")
        await pilot.pause()
        widgets = [screen.query_one(cls) for cls in (MyRack, OthersPanel, PublicRow)]
        drawn = "".join(str(w.render()) for w in widgets[:2])
        assert any(mark in drawn for mark in "(‹≠="), drawn  # clues in place

        async def compared() -> None:
            mine = [cells(w) for w in widgets]
            with monkeypatch.context() as patch:
                patch.setattr(TextLines, "render_line", Widget.render_line)
                for widget in widgets:
                    widget.refresh()
                await pilot.pause()
                for widget, before in zip(widgets, mine, strict=True):
                    for y, (a, b) in enumerate(zip(cells(widget), before, strict=True)):
                        assert a == b, (type(widget).__name__, y, "".join(c for c, _ in a),
                                        "".join(c for c, _ in b))
            for widget in widgets:
                widget.refresh()
            await pilot.pause()

        await compared()
        # A new width (no refresh of their own: only a repaint) wraps them anew.
        await pilot.resize_terminal(size[0] + 17 if size[0] < 100 else size[0] - 17, size[1])
        await pilot.pause()
        await compared()


async def test_enter_on_the_got_five_dialogs_cancel_button_cancels() -> None:
    """The dialog's Enter (shown as its Announce key) still presses a focused button."""
    app = solo_app()
    async with app.run_test(size=SIZE) as pilot:
        await my_turn(pilot)
        await pilot.press("g")
        dialog = await until(pilot, lambda: isinstance(app.screen, AnnounceScreen)
                             and app.screen, "the dialog")
        await pilot.pause()
        dialog.query_one("#cancel").focus()
        await pilot.press("enter")
        await until(pilot, lambda: not isinstance(app.screen, AnnounceScreen), "the table")
        assert not any(isinstance(s, ConfirmScreen) for s in app.screen_stack)


async def late_game(pilot: Pilot[Any], rounds: int) -> GotFiveScreen:
    """A table some ``rounds`` on (a reveal and a clue a seat a round, every seat moved
    by the test at random), back at our turn to reveal."""
    app: HiddenHandApp = pilot.app  # type: ignore[assignment]
    screen, table = await still_gotfive_table(pilot)
    assert app.hosting.host is not None
    rng = random.Random(3)
    for _ in range(rounds * 2 * len(table.seats)):
        turn = table.game.view(None)["turn"]
        legal = [a for a in table.game.legal_actions(turn)
                 if a["type"] in ("reveal", "sort", "compare")]
        version = screen.view.get("version")
        app.hosting.host.act(table, turn, rng.choice(legal))
        await until(pilot, lambda v=version: screen.view.get("version") != v, "the move shown")
    return await my_turn(pilot)


async def test_our_turn_to_reveal_brings_the_supply_into_sight_on_a_short_screen() -> None:
    """Stacked on a short screen (a phone on its side), our turn said "tap its colour in
    the supply" with the supply scrolled out of sight above (a pass on a phone)."""
    app = solo_app(4, hints="board")
    async with app.run_test(size=(45, 24)) as pilot:
        screen = await late_game(pilot, 3)
        (table,) = app.hosting.host.tables.values()
        left, row = screen.query_one("#gf-left"), screen.query_one(PublicRow)
        rng = random.Random(5)

        async def moves_until(done: Any) -> None:
            while not done(table.game.view(None)["turn"]):
                version, turn = screen.view.get("version"), table.game.view(None)["turn"]
                legal = [a for a in table.game.legal_actions(turn)
                         if a["type"] in ("reveal", "sort", "compare")]
                app.hosting.host.act(table, turn, rng.choice(legal))
                await until(pilot, lambda v=version: screen.view.get("version") != v,
                            "the move shown")

        await moves_until(lambda turn: turn != 0)  # our reveal and clue
        left.scroll_end(animate=False, immediate=True)  # down at the board, as after marks
        await until(pilot, lambda: row.region.bottom <= left.region.y, "the supply away")
        await moves_until(lambda turn: turn == 0)  # the others' round
        await my_turn(pilot)
        await until(pilot, lambda: row.region and row.region.y >= left.region.y,
                    "the supply in sight for our reveal")


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (160, 50)])
async def test_the_got_five_bar_leaves_the_board_and_the_racks_in_sight_late_in_a_game(
        size: tuple[int, int]) -> None:
    """Naming five numbers is done from the board and the clues: five rounds into a game
    of four (racks long with clues, the log short) the dialog, a bar along the bottom,
    covers the log and the chat line, never the board's rows, and dims nothing; its
    slots and buttons are all in it, for the keys and the mouse."""
    app = solo_app(4, hints="board")
    async with app.run_test(size=size) as pilot:
        screen = await late_game(pilot, 5)
        await pilot.press("g")
        dialog = await until(pilot, lambda: isinstance(app.screen, AnnounceScreen)
                             and app.screen, "the dialog")
        await pilot.pause()
        box = dialog.query_one(".dialog").region
        for part in ("#gf-public", "#gf-others", "#gf-rack", "#gf-board"):
            region = screen.query_one(part).region
            assert region.height and not region.overlaps(box), (part, region, box)
        for widget in (*dialog.query(Input), dialog.query_one("#announce"),
                       dialog.query_one("#cancel"), dialog.query_one(".gf-note")):
            assert widget.region.height and box.contains_region(widget.region), widget
        assert dialog.styles.background.a == 0
        board = screen.query_one(BoardWidget).content_region
        shown = screen_text(app).splitlines()
        assert [shown[y][board.x] for y in range(board.y, board.bottom)
                if shown[y][board.x] != " "] == list("ABCDE")
        await pilot.click("#gf-n2")  # the mouse: a slot, then Close
        assert app.focused is dialog.query_one("#gf-n2")
        await pilot.click("#cancel")
        await until(pilot, lambda: app.screen is screen, "the table")


async def test_on_a_short_phone_late_in_a_game_the_log_stays_and_the_board_scrolls_to() -> None:
    """At 45 × 24, as the others' racks grew with clues, the board's second half went
    below the screen, out of reach of the cursor; and the log with it."""
    from engine.gotfive_tiles import COLOURS
    from tui.widgets.chat import ChatLine

    app = solo_app(4, hints="board")
    async with app.run_test(size=(45, 24)) as pilot:
        screen = await late_game(pilot, 5)
        chat = screen.query_one(ChatLine)
        assert chat.region.height == 1 and chat.region.bottom <= 23
        board = screen.query_one(BoardWidget)
        for _ in range(4):
            await pilot.press("down")
        for _ in range(11):
            await pilot.press("right")
        await pilot.pause()
        left = screen.query_one("#gf-left").region
        assert screen.cursor == (4, 11)
        # The cursor's row in the second half (E, 31-60), in sight.
        y = board.content_region.y + (COLOURS + 1) + 4 if board.split else 0
        assert left.y <= y < left.bottom, (y, left)

        # A new size kept the racks and board scrolled to the top, the cursor out of sight.
        def cursor_in_sight() -> bool:
            left = screen.query_one("#gf-left").region
            y = board.content_region.y + (COLOURS + 1) + 4
            return board.split and left.y <= y < left.bottom

        for size in ((44, 25), (45, 24)):
            await pilot.resize_terminal(*size)
            await until(pilot, lambda size=size: app.size == size and cursor_in_sight(),
                        f"the cursor in sight at {size}")


async def test_on_a_wide_short_screen_late_in_a_game_the_board_scrolls_to_its_cursor() -> None:
    """At 142 × 38 (a browser's window), the others' clues pushed the board's rows D and
    E below the screen: the arrows moved the cursor there out of sight, and the wheel
    did nothing."""
    from engine.gotfive_tiles import COLOURS

    app = solo_app(3, hints="board")
    async with app.run_test(size=(142, 30)) as pilot:
        screen = await late_game(pilot, 8)
        board = screen.query_one(BoardWidget)
        assert not board.split and not screen.has_class("-narrow")
        for _ in range(COLOURS - 1):
            await pilot.press("down")
        await pilot.pause()
        left = screen.query_one("#gf-left").region
        # Row E's numbers, and the line of dots under them, in sight.
        y = board.content_region.y + 3 * (COLOURS - 1)
        assert left.y <= y and y + 1 < left.bottom, (y, left)


async def test_on_a_small_screen_the_board_scrolls_to_its_cursor_s_row_not_away_from_the_top(
) -> None:
    """At 60 × 20 a move of the board's cursor scrolled to the whole board: the public row
    and the racks above it went out of sight for good (a fresh-eyed pass). The column
    scrolls only as far as the cursor's row needs, and to its very top at row A."""
    from tui.games.gotfive.public import PublicRow

    app = solo_app(3, hints="board")
    async with app.run_test(size=(60, 20)) as pilot:
        screen = await my_turn(pilot)  # (early: late in a game they cannot both fit)
        board = screen.query_one(BoardWidget)
        left, public = screen.query_one("#gf-left"), screen.query_one(PublicRow)

        def in_sight(y: int) -> bool:
            return left.region.y <= y < left.region.bottom

        def cursor_y() -> int:
            row, col = screen.cursor
            line = row if col < 6 else 5 + 1 + row
            return board.content_region.y + line

        for _ in range(4):
            await pilot.press("down")
        await until(pilot, lambda: screen.cursor == (4, 0) and in_sight(cursor_y())
                    and in_sight(public.region.y), "row E and the public row in sight")
        for _ in range(6):
            await pilot.press("right")
        await until(pilot, lambda: screen.cursor == (4, 6) and in_sight(cursor_y()),
                    "E35 in sight")
        for _ in range(4):
            await pilot.press("up")
        for _ in range(6):
            await pilot.press("left")
        await until(pilot, lambda: screen.cursor == (0, 0) and left.scroll_y == 0
                    and in_sight(public.region.y), "the top again at A1")


async def test_the_colour_picker_goes_when_the_turn_it_was_for_ends() -> None:
    """Left open as the game ended, the picker came back over the rematch's table with
    the last game's counts ("B none left" where six were)."""
    app = solo_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await my_turn(pilot)
        await pilot.press("r")
        picker = await until(pilot, lambda: isinstance(app.screen, RevealScreen)
                             and app.screen, "the picker")
        (table,) = app.hosting.host.tables.values()
        reveal = next(a for a in table.game.legal_actions(0) if a["type"] == "reveal")
        app.hosting.host.act(table, 0, reveal)  # the turn moves on without the picker
        await until(pilot, lambda: app.screen is screen and not picker.is_attached,
                    "the picker gone")


async def test_question_mark_opens_this_games_rules_and_escape_comes_back() -> None:
    from textual.widgets import TabbedContent

    from tui.screens.rules import RulesScreen

    app = solo_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await my_turn(pilot)
        await pilot.press("question_mark")
        rules = await until(pilot, lambda: isinstance(app.screen, RulesScreen)
                            and app.screen, "the rules")
        await pilot.pause()
        assert rules.query_one(TabbedContent).active == "rules-gotfive"
        # At the table's keys (they were at the bottom, a few screens down), the rules
        # above them.
        scroll = rules.query_one("#scroll-gotfive")
        keys = rules.query_one("#keys-gotfive")
        await until(pilot, lambda: scroll.scroll_y > 0
                    and scroll.region.y <= keys.region.y <= scroll.region.y + 1
                    and "At the table" in screen_text(app), "the keys in sight")
        at = scroll.scroll_y
        await pilot.press("up")
        await until(pilot, lambda: scroll.scroll_y == at - 1, "the rules above")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "back at the table")


async def test_the_arrows_of_a_slot_pass_over_the_numbers_crossed_off() -> None:
    """↑/↓ in a slot: the colour's numbers that are not crossed off (a number seen on
    another rack cannot be ours)."""
    app = solo_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await my_turn(pilot)
        colour = int(screen.view["racks"][0][0]["colour"])
        crossed = screen.seen() | {n for n, m in screen.marks.items() if m == "cross"}
        left = [n for n in numbers_of_colour(colour) if n not in crossed]
        assert crossed & set(numbers_of_colour(colour)) and len(left) >= 2
        await pilot.press("g")
        dialog = await until(pilot, lambda: isinstance(app.screen, AnnounceScreen)
                             and app.screen, "the dialog")
        slot = dialog.query_one("#gf-n0", Input)
        slot.focus()
        # (The first of five ascending tiles: only numbers the others can climb above.)
        colours = [int(t["colour"]) for t in screen.view["racks"][0]]
        _, upper = slot_range(colours, 0, [None] * 5, dialog.crossed | dialog.impossible)
        left = [n for n in left if n < upper]
        stepped = []
        for _ in left:
            await pilot.press("up")
            await pilot.pause()
            stepped.append(int(slot.value))
        assert stepped == left


@pytest.mark.parametrize("width", [45, 72, 80, 200])
async def test_the_public_row_keeps_every_colours_supply_in_sight(width: int) -> None:
    """Six public tiles of three dots left the supply's last colour cut off at 80 columns
    ('… D4 E'): the row words itself shorter until it fits, and its clicks follow. At 45
    columns no wording fits one line: the supply takes a line of its own (it was cut
    to '│ down A8'). At 80 columns 'face down' fits (the blank after E10 needs no room).
    """
    from engine.gotfive import tile as tile_face

    clicked: list[int] = []

    class RowApp(App[None]):
        def on_public_row_colour_clicked(self, event: PublicRow.ColourClicked) -> None:
            clicked.append(event.colour)

    app = RowApp()
    async with app.run_test(size=(width, 4)) as pilot:
        row = PublicRow()
        await app.screen.mount(row)
        row.public = [tile_face(n) for n in (12, 14, 39, 42, 51, 58)]
        row.supply = [6, 3, 5, 4, 10]
        await pilot.pause()
        lines = str(row.render()).split("\n")
        # (At 72 "face down" no longer fits beside the tiles: its own line.)
        assert len(lines) == (2 if width in (45, 72) else 1) == row.size.height, lines
        assert all(len(line.rstrip()) <= width for line in lines), lines
        line = lines[-1]
        assert line.rstrip().endswith("10E")
        # "Face down" at every width: never '│ down A6', which read as a direction.
        assert "face down" in line.lower(), line
        assert tile_label(58) in lines[0]
        spans = row.spans()[1]
        colour = next(sp for sp in spans if sp.kind == "colour" and sp.value == 4)
        assert colour.line == len(lines) - 1 and line[colour.start:colour.start + 3] == "10E"
        await pilot.click(PublicRow, offset=(colour.start + 1, colour.line))
        await until(pilot, lambda: clicked == [4], "the click on E")
        # Fewer tiles: back on one line.
        row.public = row.public[:2]
        await until(pilot, lambda: row.size.height == 1 or width not in (45, 72),
                    "one line again")


def test_the_face_down_piles_are_face_down_at_every_width() -> None:
    """At 80 columns six public tiles shortened '│ face down A7 B4 …' to '│ down A7 B4
    …', which reads as a direction; then to '│ supply A7 …', which a player read as
    something else than the 'face down' of the turn before: the row says 'face down'
    at any width, and gives up its 'Public' label first. The table's row is 78 columns
    wide at 80."""
    from engine.gotfive import tile as tile_face

    row = PublicRow()
    row.public = [tile_face(n) for n in (11, 12, 13, 14, 15, 26)]
    row.supply = [7, 4, 8, 8, 8]
    for width in range(30, 121):
        text = row.spans(width)[0].plain
        assert "face down" in text.lower() and "supply" not in text, (width, text)
        assert all(len(line.rstrip()) <= width for line in text.split("\n")), text
    at_80 = row.spans(78)[0].plain
    # (A count first: "A7" read as the tile A with the number 7.)
    assert "│ face down 7A 4B 8C 8D 8E" in at_80 and "\n" not in at_80, at_80


def test_on_a_phone_the_public_tiles_go_on_to_another_line_whole() -> None:
    """At 40 columns the public row was cut mid-tile: B57••• showed two dots, "B5" none.
    The tiles go on to the next line, each whole, and a click still finds each one."""
    from engine.gotfive import tile as tile_face
    from tui.games.gotfive.text import tile_text

    row = PublicRow()
    numbers = (3, 15, 21, 25, 46, 57, 11, 22, 40)
    row.public = [tile_face(n) for n in numbers]
    row.supply = [6, 2, 5, 2, 0]
    text, spans = row.spans(40)
    lines = text.plain.split("\n")
    assert len(lines) == 3 and all(len(line.rstrip()) <= 40 for line in lines), lines
    tiles = [span for span in spans if span.kind == "tile"]
    for n, span in zip(numbers, tiles, strict=True):
        shown = lines[span.line][span.start:span.end]
        assert tile_text(tile_face(n)).plain in shown, (n, shown)


async def test_the_got_five_confirmation_warns_of_numbers_in_sight_or_crossed_off() -> None:
    """A player announced 3 with C3 in the public row and was told only 'Announce …?':
    the confirmation now says that 3 is in sight elsewhere, and names a number the
    player crossed off; the answer still defaults to Back."""

    app = announce_app([2, 4, 0, 1, 3], [3, 5, 16, 22, 39], crossed={16}, seen={3, 40})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, AnnounceScreen)
        await pilot.press("enter")
        confirm = await until(pilot, lambda: isinstance(app.screen, ConfirmScreen)
                              and app.screen, "the confirmation")
        assert "You can see 3 elsewhere at the table: it is not yours." in confirm.question
        assert "You crossed off 16 on your board." in confirm.question
        assert confirm.careful
        assert dialog.doubts([5, 22, 39, 1, 2]) == ""
        assert "see 3 and 40 elsewhere" in dialog.doubts([3, 40])


async def test_a_dimmed_move_key_says_why_it_does_nothing_now() -> None:
    """Before revealing, s, 3 and Tab did nothing and said nothing (the footer shows
    them dimmed); after revealing, r."""

    from .tui_support import TOAST, warning

    app = solo_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await my_turn(pilot)
        line = screen.query_one(StatusLine)
        for key in ("s", "3", "tab"):
            line.drop_warning()
            await pilot.press(key)
            said = await until(pilot, lambda: warning(screen), f"why {key}")
            assert said.startswith("✗ First reveal a tile (r, then its colour)"), key
        # On the turn's line, not a toast over the log's newest lines (the clues).
        assert not app.screen.query(TOAST)
        assert screen.view.get("phase") == "reveal"
        colour = next(a["colour"] for a in screen.legal if a["type"] == "reveal")
        screen.reveal(colour)
        await my_turn(pilot, "clue")
        # The step moved on: what was said of the last one went with it.
        assert not warning(screen)
        await pilot.press("r")
        said = await until(pilot, lambda: warning(screen), "why r")
        assert "now sort it (s) or compare it (1–5)" in said


async def test_at_a_phone_s_40_columns_the_turn_line_is_said_whole() -> None:
    """At 40 columns the shortest wording of the turn line was still too long: "▶ Your
    turn: reveal a tile — r, then" lost the colour keys it was there to say."""
    from rich.cells import cell_len

    app = solo_app()
    async with app.run_test(size=(40, 30)) as pilot:
        screen = await my_turn(pilot)
        status = screen.query_one("#gf-status", Static)

        def whole(*words: str) -> bool:
            text = str(status.render())
            return all(w in text for w in words) and cell_len(text) <= status.size.width

        await until(pilot, lambda: whole("r, then A–E."), "the reveal line, whole")
        await type_ahead(pilot, "r", "a")
        await my_turn(pilot, "clue")
        await until(pilot, lambda: whole("s sort", "1–5 compare"), "the clue line, whole")


async def test_on_a_phone_the_turn_line_names_taps_not_keys() -> None:
    """A phone was told "r, then A–E" and "1–5 compare": keys it does not have. It taps a
    colour of the supply to reveal, and a tile of its rack to compare."""
    from rich.cells import cell_len

    from tui.games.gotfive.public import PublicRow

    app = solo_app()
    app.touch = True
    async with app.run_test(size=(40, 30)) as pilot:
        screen = await my_turn(pilot)
        status = screen.query_one("#gf-status", Static)

        def whole(*words: str) -> bool:
            text = str(status.render())
            return (all(w in text for w in words) and cell_len(text) <= status.size.width
                    and "r, then" not in text and "1–5" not in text)

        await until(pilot, lambda: whole("tap a colour of the supply"), "the reveal line")
        # (Nor does the log's word on auto-cross name the key -: a web-door pass.)
        log = screen.query_one("#log", TableLog)

        def logged() -> str:
            return " ".join("".join(seg.text for seg in line) for line in log.lines)

        await until(pilot, lambda: "Auto-cross is on" in logged(), "auto-cross said")
        said = " ".join(logged().split())
        assert "Settings, in the menu, turns it off" in said and "The key -" not in said, said
        row = screen.query_one(PublicRow)
        _, spans = row.spans()
        colour = next(s for s in spans if s.kind != "tile")
        await pilot.click(PublicRow, offset=(colour.start, colour.line))
        await my_turn(pilot, "clue")
        await until(pilot, lambda: whole("Sort", "tap yours to compare"), "the clue line")
        # "Sort" in it reads as a button: a tap there sorts (it did nothing).
        line = screen.query_one(StatusLine)
        at = cell_len(line.shown[:line.shown.index("Sort")]) + content_origin(line)[0]
        await pilot.click("#gf-status", offset=(at + 1, content_origin(line)[1]))
        await until(pilot, lambda: any(c["seat"] == 0 and c["clue"] == "sort"
                                       for c in screen.view["clues"]), "our sort")
    app = solo_app()
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await my_turn(pilot)
        assert "r, then its colour (A–E)" in str(screen.query_one("#gf-status", Static).render())


async def test_a_person_away_is_marked_on_their_rack_and_in_the_turn_line() -> None:
    """Bob's connection dropped on his turn: his rack and the turn line went on as if he
    were there ("Bob's turn to reveal a tile…"), only a log line, soon scrolled away,
    said why the game stood still."""
    app = solo_app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await my_turn(pilot)
        (table,) = app.hosting.host.tables.values()
        seat = table.seats[1]
        seat.kind, seat.name, seat.conn, seat.bot = "human", "Bob", None, None
        table.options["away_bot"] = "2m"  # (as the app's LAN tables have)
        reveal = next(a for a in table.game.legal_actions(0) if a["type"] == "reveal")
        app.hosting.host.act(table, 0, reveal)
        sort = next(a for a in table.game.legal_actions(0) if a["type"] == "sort")
        app.hosting.host.act(table, 0, sort)  # Bob's turn now
        await until(pilot, lambda: "Bob [away]" in screen_text(app), "Bob marked away")
        status = screen.query_one("#gf-status", Static)
        await until(pilot, lambda: "Bob's turn" in str(status.render())
                    and "(away" in str(status.render()), "the turn line says so")
        # At 80 columns, in its short words, it still counts down to the away bot (it
        # said only "b lets a bot play", and how long Bob had was nowhere).
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: re.search(r"Bob's turn to reveal a tile… \(away: a bot in "
                                             r"1:\d\d, b now\)", str(status.render())),
                    "the countdown in the short words")


async def test_a_rematch_s_turn_line_says_nothing_of_the_last_game() -> None:
    """A rematch's first turn read "Ann's turn to reveal a tile… · Ann called GOT FIVE!:
    right": the last move named was the last game's."""
    from tui.session import Entry

    app = solo_app()
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await my_turn(pilot)
        await type_ahead(pilot, "r", "a")
        await my_turn(pilot, "clue")
        await pilot.press("s")
        await until(pilot, lambda: screen.last_move() is not None, "a clue, the last move")
        screen.session.history.append(Entry("notice", {"type": "started"}))
        assert screen.last_move() is None


async def test_our_racks_clues_fold_only_where_the_terminal_has_no_room_for_them() -> None:
    """At 120 × 35 the stacks of clues under our rack folded ("…+2") over 25 empty rows
    (a fresh-eyed pass): each row past 24 is a line more for them."""
    app = solo_app()
    async with app.run_test(size=(120, 35)) as pilot:
        screen = await my_turn(pilot)
        rack = screen.query_one(MyRack)
        assert rack.max_lines == 3 + (35 - 24)
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: rack.max_lines == 3, "folded at 80 x 24")
        await pilot.resize_terminal(160, 50)
        await until(pilot, lambda: rack.max_lines == 0, "never folded beside the log")


async def test_keys_that_do_nothing_in_the_got_five_dialogs_say_why() -> None:
    """A letter that is no colour while choosing one, and Enter in a GOT FIVE! bar with
    nothing typed, did nothing without a word (a fresh-eyed pass)."""
    from .tui_support import Notices

    app = solo_app()
    notices = Notices()
    async with app.run_test(size=SIZE, message_hook=notices) as pilot:
        screen = await my_turn(pilot)
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, RevealScreen), "the colours")
        await pilot.press("x")
        why = app.screen.query_one(".error", Label)
        await until(pilot, lambda: "A colour is a letter, A to E" in str(why.render()),
                    "why x did nothing, in the dialog")
        assert isinstance(app.screen, RevealScreen)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "the table")
        await pilot.press("g")
        bar = await until(pilot, lambda: isinstance(app.screen, AnnounceScreen)
                          and app.screen, "the bar")
        for slot in bar.query(Input).results(Input):
            slot.value = ""
        await pilot.press("enter")
        error = bar.query_one("#gf-announce-error", Label)
        await until(pilot, lambda: "Type your five numbers first" in str(error.render()),
                    "why Enter did nothing")
        # Some typed, one still empty: Enter says which (it said nothing).
        slots = list(bar.query(Input).results(Input))
        for slot, text in zip(slots, bar.texts(), strict=True):
            slot.value = text
        slots[0].value = str(bar.colours[0] + 1)  # (a number of the first slot's colour)
        slots[0].focus()
        await pilot.pause()  # (the slots' changes checked, before the key)
        await pilot.press("enter")
        await until(pilot, lambda: "Fill in position 2" in str(error.render()),
                    "why Enter did not announce")
        await pilot.press("1")  # typing again: the "?" says what is missing
        await until(pilot, lambda: "Fill in" not in str(error.render()), "the line cleared")


async def test_space_on_a_number_in_sight_says_it_stays_crossed() -> None:
    """Space on a cell crossed for us ("-": a number we can see) did nothing and said
    nothing; x and o there say why."""
    from .tui_support import warning

    app = solo_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await my_turn(pilot)
        n = min(screen.locked())
        await goto(pilot, screen, n)
        marks = dict(screen.marks)
        await pilot.press("space")
        said = await until(pilot, lambda: warning(screen), "a word on the cell")
        assert said == f"✗ You can see {n}: auto-cross keeps it crossed (- turns auto-cross off)."
        assert screen.marks == marks and n in screen.locked()


def test_auto_cross_from_a_damaged_settings_file_is_on(config_dir: Path) -> None:
    import json

    config_dir.mkdir(parents=True, exist_ok=True)
    for bad, kept in ((0, True), ("no", True), (None, True), ([], True), (False, False)):
        (config_dir / "settings.json").write_text(json.dumps({"auto_cross": bad}))
        settings, problem = Settings.load()
        assert settings.auto_cross is kept and problem is None


async def test_auto_cross_is_the_players_own_setting_and_minus_turns_it_off(
        config_dir: Path) -> None:
    """RULES.md: auto-crossing is a player setting, on by default (it was the table
    creator's option). The seat starts as Settings say; - turns it off for us alone, says
    so, lets us circle a number in sight, and is kept for the next game."""
    from .tui_support import Notices

    app = HiddenHandApp(Settings(name="Ann", auto_cross=False), bot_delay=0.01,
                        seed_source=lambda: 11,
                        solo={"game_id": "gotfive", "seats": 3, "options": {"first": 0}})
    notices = Notices()
    async with app.run_test(size=SIZE, message_hook=notices) as pilot:
        screen = await my_turn(pilot)
        assert app.hosting.host is not None
        (table,) = app.hosting.host.tables.values()
        await until(pilot, lambda: table.game.auto_cross == [False, True, True]
                    and screen.view.get("auto_cross") is False, "our seat as Settings say")
        await until(pilot, lambda: not screen.locked() and not screen.view.get("marks"),
                    "an empty board")
        # The log says so once (at 80 columns the footer has no room for -).
        log = screen.query_one("#log")
        def said() -> str:  # (its lines wrapped as the log is wide)
            return " ".join(str(line.text).strip() for line in log.lines)

        await until(pilot, lambda: "Auto-cross is off (your setting)" in said()
                    and "The key - turns it on." in said(), "the log's word on it")
        await pilot.press("minus")
        await until(pilot, lambda: table.game.auto_cross[0] and screen.locked(),
                    "auto-cross on")
        # Said in the board's title (a notice covered the board's bottom row).
        board = screen.query_one("#gf-board")
        assert "· Auto-cross on" in str(board.border_title)
        assert not any(m.startswith("Auto-cross") for m in notices.messages())
        assert Settings.load()[0].auto_cross is True
        n = min(screen.locked())
        await pilot.press("minus")
        await until(pilot, lambda: not screen.locked() and table.game.auto_cross[0] is False,
                    "auto-cross off again")
        assert "· Auto-cross off" in str(board.border_title)
        await goto(pilot, screen, n)
        await pilot.press("o")  # a number in sight, circled by hand
        await until(pilot, lambda: screen.view["marks"].get(str(n)) == "circle", "the circle")
        assert Settings.load()[0].auto_cross is False and app.settings.auto_cross is False


async def test_a_table_gone_for_good_stops_asking_for_a_reveal() -> None:
    from tui.messages import ConnectionDropped
    from tui.screens.table import GONE

    app = solo_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await my_turn(pilot)
        status = screen.query_one("#gf-status", Static)
        screen.post_message(ConnectionDropped("the host closed the table", final=True))
        await until(pilot, lambda: str(status.render()) == GONE, "the turn line")


async def test_a_spectator_reads_whose_turn_it_is_to_do_what_as_the_players_do() -> None:
    """A spectator read only "Watching: Bob to play", where the players read "Bob's turn
    to reveal a tile…" (a fresh-eyed pass with a spectator)."""
    from tests.tui_support import make_app, show_lobby
    from tui.session import Session

    host = Host("test host", bot_delay=0.01)
    try:
        bob = Session("Bob", host=host)
        await bob.connect()
        joined = await bob.create("Bob's table", "gotfive", 2, {"first": 0})
        await bob.request("add_bot", 1)
        await bob.request("start")
        app = make_app("Cy")
        async with app.run_test(size=SIZE) as pilot:
            cy = Session("Cy", host=host)
            await cy.connect()
            await cy.join(joined.table, spectate=True)
            await show_lobby(app, pilot, cy)
            screen = await until(pilot, lambda: isinstance(app.screen, GotFiveScreen)
                                 and app.screen.view and app.screen, "the table")
            status = screen.query_one("#gf-status", Static)
            await until(pilot, lambda: "Watching: Bob's turn to reveal a tile…"
                        in str(status.render()), "the turn in words")
            # (The header takes the screen's new subtitle after a refresh: left before
            # that, the app's exit met it half torn down, once on a loaded machine.)
            await until(pilot, lambda: "watching" in screen.sub_title, "the subtitle")
            await pilot.pause()
            await app.detach()
            await pilot.pause()
        await bob.close()
    finally:
        await host.close()


@pytest.mark.parametrize("width", range(40, 100, 3))
def test_the_end_s_racks_keep_each_name_whole(width: int) -> None:
    """At 80 columns "Bob (you)" wrapped: "Bob" beside his rack, "(you)" on a line of
    its own. A name is whole beside its rack, or the racks go under the names."""
    from rich.console import Console

    from engine.gotfive_tiles import tile
    from tui.games.gotfive.summary import RacksTable

    racks = [[tile(n) for n in (3, 15, 27, 39, 51)], [tile(n) for n in (8, 21, 33, 41, 60)]]
    view = {"racks": racks, "winners": [1], "out": [False, False],
            "clues": [{"seat": 1, "clue": "sort", "notch": 1, "tile": 5}] * 6}
    console = Console(width=width, color_system=None, file=io.StringIO(), record=True)
    console.print(RacksTable(view, ["Bartholomew", "Bob"], 1))
    text = console.export_text()
    assert "Bob (you)" in text and "Bartholomew" in text, text


async def test_back_at_a_seat_the_tile_just_revealed_is_the_one_chosen() -> None:
    """A box restarted between a reveal and its clue: the new app chose the row's first
    tile, and s would have sorted it, not the tile just revealed (a box pass)."""
    from tests.net_support import running_host
    from tui.settings import remember_seat

    async with running_host() as host:
        ann = await Client.connect("127.0.0.1", host.port, name="Ann")
        joined = await ann.create_table("Ann's game", "gotfive", 2, {"first": 0})
        assert joined.token is not None
        await ann.add_bot(1)
        await ann.start()
        game = host.tables[joined.table].game
        # The colour whose top tile falls furthest into the (sorted) public row.
        colour = max((c for c in range(5) if game.supply[c]),
                     key=lambda c: sorted([*game.public, game.supply[c][-1]]).index(
                         game.supply[c][-1]))
        revealed = game.supply[colour][-1]
        await ann.act({"type": "reveal", "colour": colour})
        index = game.public.index(revealed)
        assert index > 0
        remember_seat(f"127.0.0.1:{host.port}", joined.table, 0, joined.token)
        await ann.close()
        app = make_app(box=("127.0.0.1", host.port))
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "Back to your seat (j)" in screen_text(app), "offer")
            await pilot.press("j")
            screen = await until(pilot, lambda: isinstance(app.screen, GotFiveScreen)
                                 and app.screen.can("sort") and app.screen, "the table")
            await until(pilot, lambda: screen.query_one(PublicRow).selected == index,
                        "the tile just revealed")
            assert screen.selected == index


async def test_an_enter_for_our_call_as_a_bot_won_asks_before_a_rematch(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A player typing GOT FIVE! pressed Enter to call as a bot named its five: the game
    ended under the bar, and the Enter, past the summary's guard, answered its focused
    Rematch; the result went unread. Over a dialog of ours, the first Enter asks again."""
    from tui.screens import summary as summary_module
    from tui.screens.summary import SummaryScreen

    monkeypatch.setattr(summary_module, "ANSWER_GUARD", 0.0)  # (however late it comes)
    from tests.tui_support import Notices

    app = solo_app(2)
    notices = Notices()
    async with app.run_test(size=(80, 24), message_hook=notices) as pilot:
        _, table = await still_gotfive_table(pilot)
        await pilot.press("g")
        await until(pilot, lambda: isinstance(app.screen, AnnounceScreen), "the bar")
        assert app.hosting.host is not None
        app.hosting.host.act(table, 1, {"type": "announce",
                                        "numbers": sorted(table.game.racks[1])})
        summary = await until(pilot, lambda: isinstance(app.screen, SummaryScreen)
                              and app.screen, "the game's end")
        await pilot.press("enter")
        await until(pilot, lambda: "The game just ended: press Enter again for “Rematch”."
                    in notices.messages(), "asked again")
        assert app.screen is summary and table.game.over

"""Snapshot tests of the Got Five! table: compact (80×24), wide (160×50, the board big)
and game over. Refresh with ``--snapshot-update`` and look at the pictures first."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.tui_support import settle
from tui.app import HiddenHandApp
from tui.games.gotfive.board import cell_of
from tui.games.gotfive.screen import GotFiveScreen
from tui.screens.summary import SummaryScreen
from tui.settings import Settings


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep settings out of the real home directory."""
    monkeypatch.setenv("HIDDENHAND_CONFIG_DIR", str(tmp_path / "config"))


def make_app(**options: Any) -> HiddenHandApp:
    # The human plays first, so the bots wait: the picture is the same every run.
    rng = random.Random(4)
    return HiddenHandApp(Settings(name="Ann"), bot_delay=0.01,
                         seed_source=lambda: rng.getrandbits(62),
                         solo={"game_id": "gotfive", "seats": 3,
                               "options": {"first": 0, **options}})


def turn(app: HiddenHandApp, phase: str) -> GotFiveScreen | None:
    screen = app.screen
    if isinstance(screen, GotFiveScreen) and screen.legal and screen.view["phase"] == phase:
        return screen
    return None


async def reveal_and_mark(pilot: Pilot[Any]) -> None:
    """Reveal an A tile, then cross one cell and circle another by keys."""
    app: HiddenHandApp = pilot.app  # type: ignore[assignment]
    screen = await settle(pilot, lambda: turn(app, "reveal"))
    await pilot.press("r", "a")
    await settle(pilot, lambda: turn(app, "clue"))
    free = [n for n in range(1, 61) if str(n) not in screen.view["marks"]]
    await goto(pilot, screen, free[1])
    await pilot.press("space")
    await goto(pilot, screen, free[-3])
    await pilot.press("o")
    await settle(pilot, lambda: not screen.pending and len(screen.view["marks"]) >= 2)


async def goto(pilot: Pilot[Any], screen: GotFiveScreen, n: int) -> None:
    """Move the board's cursor to ``n`` with the arrow keys (they stop at the edges)."""
    row, col = cell_of(n)
    while screen.cursor[0] != row:
        await pilot.press("down" if screen.cursor[0] < row else "up")
    while screen.cursor[1] != col:
        await pilot.press("right" if screen.cursor[1] < col else "left")


def test_gotfive_table_compact(snap_compare: Any) -> None:
    assert snap_compare(make_app(hints="board"), terminal_size=(80, 24),
                        run_before=reveal_and_mark)


def test_gotfive_board_wide(snap_compare: Any) -> None:
    assert snap_compare(make_app(hints="board"), terminal_size=(160, 50),
                        run_before=reveal_and_mark)


def test_gotfive_game_over(snap_compare: Any) -> None:
    app = make_app()

    async def announce(pilot: Pilot[Any]) -> None:
        screen = await settle(pilot, lambda: turn(app, "reveal"))
        await pilot.press("r", "a")
        await settle(pilot, lambda: turn(app, "clue"))
        await pilot.press("s")  # a clue, and the bots each take a turn
        screen = await settle(pilot, lambda: turn(app, "reveal"))
        assert app.hosting.host is not None
        (table,) = app.hosting.host.tables.values()
        for n in table.game.racks[0]:  # circle our own five (as if deduced)…
            await goto(pilot, screen, n)
            await pilot.press("o")
        await pilot.press("g", "enter", "y")  # …and call them
        # The game is kept a moment later, and the summary then offers its review.
        await settle(pilot, lambda: isinstance(app.screen, SummaryScreen)
                     and bool(app.screen.query("#review")))

    assert snap_compare(app, terminal_size=(100, 30), run_before=announce)

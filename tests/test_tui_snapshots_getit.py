"""Snapshot tests of the Get It! table: preparation, a round with signals, the summary.

The bots are stopped once the picture's state is set (a real-time bot would move on),
and the sand timer is held at 41 s, so each picture is the same every run. Refresh with
``pytest tests/test_tui_snapshots_getit.py --snapshot-update`` and look at the SVGs.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from engine.testing import stack_getit_piles
from tests.tui_support import settle
from tui.app import HiddenHandApp
from tui.games.getit.screen import GetItScreen
from tui.games.getit.timer import SandTimer
from tui.screens.summary import SummaryScreen
from tui.settings import Settings

SIZE = (100, 30)


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Settings and records out of the real home directory; the timer held still."""
    monkeypatch.setenv("HIDDENHAND_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setattr(SandTimer, "left", lambda self: 41.0)


def make_app(options: dict[str, Any], seats: int = 4, seed: int = 3) -> HiddenHandApp:
    rng = random.Random(seed)
    return HiddenHandApp(Settings(name="Ann"), bot_delay=0.01,
                         seed_source=lambda: rng.getrandbits(62),
                         solo={"game_id": "getit", "seats": seats, "options": options})


def table_of(app: HiddenHandApp) -> Any:
    assert app.hosting.host is not None
    (table,) = app.hosting.host.tables.values()
    return table


async def a_round_with_signals(pilot: Pilot[Any]) -> GetItScreen:
    """Ann (seat 1) holds a 30; Bot 2 shows a smile, Bot 3 a 12, Bot 4 the mirror."""
    app = pilot.app
    assert isinstance(app, HiddenHandApp)
    await settle(pilot, lambda: isinstance(app.screen, GetItScreen) and app.screen.update)
    screen = app.screen
    assert isinstance(screen, GetItScreen)
    table = table_of(app)
    for seat in table.seats:
        seat.bot = None  # the picture holds still
    game = table.game
    now = table.elapsed(app.hosting.host.clock())
    stack_getit_piles(game, [["30", "31"], ["smile", "14"], ["12", "20", "33"], ["mirror"]],
                      now=now)
    for seat, action in [(1, {"type": "look", "target": 2}), (2, {"type": "smile", "target": 1}),
                         (2, {"type": "look", "target": 0}), (3, {"type": "look", "target": 0}),
                         (2, {"type": "peek", "on": True}), (1, {"type": "peek", "on": True})]:
        game.act(seat, action, now=now)
    app.hosting.host.refresh(table)
    await settle(pilot, lambda: screen.view.get("phase") == "play")
    await pilot.press("2")  # Ann looks at Bot 2 …
    await pilot.press("s")  # … and smiles at it
    await pilot.press("p")  # and peeks: she sees her own 30
    await settle(pilot, lambda: screen.view["signals"][0]["smile"] == 1
                 and screen.view.get("peek") is not None)
    return screen


def test_getit_preparation(snap_compare: Any) -> None:
    app = make_app({"level": 2, "timer": 60}, seats=3)  # Ann is dealt two smiles

    async def preparing(pilot: Pilot[Any]) -> None:
        def ready() -> bool:
            screen = app.screen
            return (isinstance(screen, GetItScreen) and bool(screen.prep.order)
                    and screen.view["arranged"][1:] == [True, True])

        await settle(pilot, ready)
        await pilot.press("left")  # the first smile one place up

    assert snap_compare(app, terminal_size=SIZE, run_before=preparing)


def test_getit_round_with_signals(snap_compare: Any) -> None:
    app = make_app({"level": 5, "timer": 60})

    async def playing(pilot: Pilot[Any]) -> None:
        await a_round_with_signals(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=playing)


def test_getit_round_over(snap_compare: Any) -> None:
    app = make_app({"level": 5, "timer": 60})

    async def lost(pilot: Pilot[Any]) -> None:
        await a_round_with_signals(pilot)
        table = table_of(app)
        # Bot 3 plays its 12 while the smile and the mirror still show: wrong.
        events = table.game.act(2, {"type": "play"}, now=table.elapsed(app.hosting.host.clock()))
        app.hosting.host.refresh(table, events)
        await settle(pilot, lambda: isinstance(app.screen, SummaryScreen))

    assert snap_compare(app, terminal_size=SIZE, run_before=lost)


def test_getit_talk_line_waiting_when_the_bubble_shows(snap_compare: Any) -> None:
    """Ann typed "me" ahead and closed the line; Bot 3 plays its 5 and the speech bubble
    under it shows: her waiting line lights up, and the line under hers says t, Enter."""
    app = make_app({"level": 5, "timer": 60})

    async def waiting(pilot: Pilot[Any]) -> None:
        await settle(pilot, lambda: isinstance(app.screen, GetItScreen) and app.screen.update)
        screen = app.screen
        assert isinstance(screen, GetItScreen)
        table = table_of(app)
        for seat in table.seats:
            seat.bot = None  # the picture holds still
        now = table.elapsed(app.hosting.host.clock())
        stack_getit_piles(table.game, [["30", "31"], ["12", "20"], ["5", "speech", "33"],
                                       ["14"]], now=now)
        app.hosting.host.refresh(table)
        await settle(pilot, lambda: screen.view.get("phase") == "play")
        await pilot.press("t", "m", "e", "escape")
        await settle(pilot, lambda: screen.focused is None)
        events = table.game.act(2, {"type": "play"}, now=now)  # the 5
        app.hosting.host.refresh(table, events)
        await settle(pilot, lambda: screen.talk_line.has_class("-ready"))

    assert snap_compare(app, terminal_size=SIZE, run_before=waiting)

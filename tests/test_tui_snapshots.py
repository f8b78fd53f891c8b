"""Snapshot tests: pictures (SVG) of the main screens at a fixed size, compared run to run.

Refresh them after an intended change with ``pytest tests/test_tui_snapshots.py
--snapshot-update`` and look at the pictures before committing.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.tui_support import settle
from tui.app import HiddenHandApp
from tui.games.getout.screen import GetOutScreen
from tui.screens.lobby import LobbyScreen
from tui.session import Session
from tui.settings import Settings

SIZE = (100, 30)


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep settings out of the real home directory."""
    monkeypatch.setenv("HIDDENHAND_CONFIG_DIR", str(tmp_path / "config"))


def make_app(**kwargs: Any) -> HiddenHandApp:
    rng = random.Random(4)
    return HiddenHandApp(Settings(name="Ann"), bot_delay=0.01,
                         seed_source=lambda: rng.getrandbits(62), **kwargs)


def test_menu(snap_compare: Any) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE)


def test_lobby(snap_compare: Any) -> None:
    app = make_app()

    async def open_lobby(pilot: Pilot[Any]) -> None:
        host = await app.hosting.start(port=None)
        session = Session("Ann", host=host)
        await session.connect()
        await session.create("Ann's table", "getout", 4, {})
        await session.request("add_bot", 3)
        app.attach(session)
        await app.push_screen(LobbyScreen(session))
        await settle(pilot, lambda: app.screen.live and "Bot 4" in str(
            app.screen.query_one("#lobby-seats").get_row_at(3)))

    assert snap_compare(app, terminal_size=SIZE, run_before=open_lobby)


def test_getout_table(snap_compare: Any) -> None:
    # The human plays first, so the bots wait: the picture is the same every run.
    app = make_app(solo={"game_id": "getout", "seats": 3, "options": {"first": 0}})

    def ready() -> bool:
        screen = app.screen
        return isinstance(screen, GetOutScreen) and bool(screen.legal)

    async def wait_for_table(pilot: Pilot[Any]) -> None:
        await settle(pilot, ready)

    assert snap_compare(app, terminal_size=SIZE, run_before=wait_for_table)

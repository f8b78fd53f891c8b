"""Helpers shared by the Pilot tests: an app on loopback, and waiting on a condition."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from tui.app import HiddenHandApp
from tui.screens.lobby import LobbyScreen
from tui.session import Session
from tui.settings import Settings

SIZE = (120, 40)


@pytest.fixture
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Keep settings out of the real home directory; keep mDNS on loopback."""
    monkeypatch.setenv("HIDDENHAND_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("HIDDENHAND_MDNS_INTERFACES", "127.0.0.1")
    return tmp_path / "config"


def make_app(name: str = "Ann", **kwargs: Any) -> HiddenHandApp:
    """The app as a player on this machine runs it, on loopback, with quick bots."""
    kwargs.setdefault("bot_delay", 0.01)
    return HiddenHandApp(Settings(name=name, mdns_interfaces=["127.0.0.1"]), bind="127.0.0.1",
                         **kwargs)


async def until(pilot: Pilot[Any], condition: Callable[[], Any], what: str,
                steps: int = 400) -> Any:
    """Let the app run until ``condition()`` is truthy (bounded in steps, not in time)."""
    for _ in range(steps):
        value = condition()
        if value:
            return value
        await pilot.pause(0.02)
    raise AssertionError(f"timed out waiting for {what}")


async def typed_address(pilot: Pilot[Any], text: str) -> Input:
    """From the menu: open Join and put ``text`` in its address field."""
    await pilot.press("j")
    address = pilot.app.screen.query_one("#address", Input)
    address.value = text
    return address


async def open_lobby(app: HiddenHandApp, pilot: Pilot[Any], seats: int = 3) -> LobbyScreen:
    """Open a table on the app's own host (no network) and show its lobby."""
    host = await app.start_host(port=None)
    session = Session("Ann", host=host)
    await session.connect()
    await session.create("Ann's table", "getout", seats, {})
    return await show_lobby(app, pilot, session)


async def show_lobby(app: HiddenHandApp, pilot: Pilot[Any], session: Session) -> LobbyScreen:
    """Make ``session`` (already at a table) the app's, and show its lobby."""
    app.attach(session)
    lobby = LobbyScreen(session)
    await app.push_screen(lobby)
    await until(pilot, lambda: lobby.live and lobby.update is not None, "the lobby")
    return lobby


async def settle(pilot: Pilot[Any], ready: Callable[[], Any]) -> Any:
    """Wait until ``ready()`` is truthy, then a moment more so the picture has drawn
    (for snapshots); returns what ``ready()`` gave."""
    value = await until(pilot, ready, "the screen to get ready", steps=300)
    await pilot.pause(0.1)
    return value


def footer_keys(app: HiddenHandApp) -> dict[str, bool]:
    """The actions the active screen's footer offers now, each with whether it is enabled
    (a disabled one is shown dimmed; a hidden one is not in the map)."""
    shown: dict[str, bool] = {}
    for active in app.screen.active_bindings.values():
        if active.binding.show:
            name = active.binding.action.partition("(")[0]
            shown[name] = shown.get(name, False) or active.enabled
    return shown


def footer_drawn(app: HiddenHandApp) -> dict[str, bool]:
    """The actions the active screen's footer draws, each with whether it is lit (not
    dimmed): what a player sees, to compare with :func:`footer_keys`."""
    from textual.widgets import Footer
    from textual.widgets._footer import FooterKey

    from tui.widgets.footer import TableFooter

    drawn: dict[str, bool] = {}
    tables = app.screen.query(TableFooter)
    if tables:
        for entry in tables.first().entries:
            drawn[entry.name] = drawn.get(entry.name, False) or entry.enabled
        return drawn
    for key in app.screen.query_one(Footer).query(FooterKey):
        if not key.has_class("-command-palette"):
            name = key.action.partition("(")[0]
            drawn[name] = drawn.get(name, False) or not key.has_class("-disabled")
    return drawn


def footer_labels_in_view(app: HiddenHandApp) -> list[str]:
    """The descriptions of the footer's keys that are drawn inside the terminal's width."""
    from textual.widgets import Footer
    from textual.widgets._footer import FooterKey

    from tui.widgets.footer import TableFooter

    width = app.size.width
    tables = app.screen.query(TableFooter)
    if tables:
        table = tables.first()
        return [entry.description for index, entry in enumerate(table.entries)
                if table.entry_region(index)[0] >= 0 and table.entry_region(index)[1]
                <= min(width, table.size.width)]
    footer = app.screen.query_one(Footer)
    return [key.description for key in footer.query(FooterKey)
            if key.region.width > 0 and key.region.right <= width]


def gotfive_clue_move(table: Any, rng: random.Random) -> tuple[int, dict[str, Any]] | None:
    """A random reveal, sort or compare some seat of a host's Got Five! ``table`` may make
    now (``None`` when there is none): to drive a game whose seats move when told."""
    moves = [(seat, action) for seat in range(len(table.seats))
             for action in table.game.legal_actions(seat)
             if action["type"] in ("reveal", "sort", "compare")]
    return rng.choice(moves) if moves else None


async def still_gotfive_table(pilot: Pilot[Any]) -> tuple[Any, Any]:
    """A solo Got Five! table once shown, its bots holding still (every seat moves when
    the test says so): the screen and the host's table."""
    from tui.games.gotfive.screen import GotFiveScreen

    app: HiddenHandApp = pilot.app  # type: ignore[assignment]
    screen = await until(pilot, lambda: isinstance(app.screen, GotFiveScreen)
                         and app.screen.update and app.screen, "the table")
    assert app.host is not None
    (table,) = app.host.tables.values()
    for seat in table.seats:
        seat.bot = None
    return screen, table


async def type_ahead(pilot: Pilot[Any], *keys: str) -> None:
    """Send ``keys`` as a fast typist does: all queued before the app handles the first
    (``pilot.press`` lets the app settle after each key)."""
    from textual import events

    app = pilot.app
    assert app._driver is not None
    for key in keys:
        char = {"slash": "/", "space": " "}.get(key, key if len(key) == 1 else None)
        event = events.Key(key, char)
        event.set_sender(app)
        app._driver.send_message(event)
    await pilot.pause()

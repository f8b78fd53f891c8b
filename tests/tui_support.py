"""Helpers shared by the Pilot tests: an app on loopback, waiting on a condition, and what
the screen shows (its composed text, the notifications raised)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.message import Message
from textual.notifications import Notification, Notify
from textual.pilot import Pilot
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Input

from net.clock import ManualClock
from tui.app import HiddenHandApp
from tui.screens.lobby import LobbyScreen
from tui.screens.table import TableScreen
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


#: The safety net of :func:`until`: far above any wait a passing run needs, so a pass
#: never depends on it; it only turns a hang into a failure that names what never came.
DEADLINE = 60.0
#: How long :func:`until` lets the loop run between two checks: short, so that nothing
#: waits long for it.
TICK = 0.02
#: :func:`until_on_clock`'s tick: while the clock stands still only the app has work.
CLOCK_TICK = 0.002


async def until(pilot: Pilot[Any], condition: Callable[[], Any], what: str) -> Any:
    """Let the app run until ``condition()`` is truthy; return its value.

    Between checks the loop runs the app, the host, the network and the timers for a
    tick (:data:`TICK`); so a condition is seen as soon as it holds. Once it holds, the
    app first handles everything queued for its screen, runs a tick more (what a
    refresh put off to after it, such as a scroll to the end, is done) and draws, and
    the value is the one ``condition()`` gives then: what a test does next meets a
    screen that has caught up, as a person's next key would. :data:`DEADLINE` is only a
    safety net against a hang.

    The screen is not drained at every tick: that walks every widget of the screen
    (about 12 ms of processor on a form of a hundred), and a test waiting on a host or
    on bots would spend most of its processor on the walks. Nor without a delay:
    ``pilot.pause()`` waits for the whole process to go idle, which a table of bots
    playing at full speed never does.
    """
    loop = asyncio.get_running_loop()
    give_up = loop.time() + DEADLINE
    while True:
        if condition():
            await pilot.pause(TICK)
            value = condition()
            if value:
                return value
        if loop.time() > give_up:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(TICK)


async def until_on_clock(pilot: Pilot[Any], screen: TableScreen,
                         condition: Callable[[], Any], what: str) -> Any:
    """:func:`until`, for a table of the app's own host whose clock the test moves
    (``HiddenHandApp(clock=ManualClock())``): whenever ``screen`` has caught up with the
    host and nothing is under way, the clock moves on to the next moment anything is
    due there.

    Caught up: no move of ours is on its way (the ``moves`` workers of
    ``tui.screens.table``), the screen shows the host's latest version, and a ping
    through the screen's connection brings no news (everything the app sent was
    handled, everything the host sent arrived). The host's bots act only when the clock
    says, so each of their moves waits until the person has seen the one before.
    """
    app = pilot.app
    host, clock = app.hosting.host, app.hosting.clock
    assert host is not None and screen.session.client is not None
    assert isinstance(clock, ManualClock), "the app's host runs on the event loop's clock"
    client = screen.session.client

    def caught_up() -> bool:
        if any(w.group == "moves" and not w.is_finished for w in app.workers):
            return False
        joined = screen.session.joined
        table = host.tables.get(joined.table) if joined is not None else None
        game = table.game if table is not None else None
        return game is None or screen.view.get("version") == game.view(None)["version"]

    loop = asyncio.get_running_loop()
    give_up = loop.time() + DEADLINE
    while True:
        value = condition()
        if value:
            return value
        if loop.time() > give_up:
            raise AssertionError(f"timed out waiting for {what}")
        if not caught_up():
            # Only the app's own messages are left to handle (the host does nothing
            # until the clock moves): a short tick keeps a step of the clock cheap.
            await pilot.pause(CLOCK_TICK)
            continue
        latest = client.latest
        await client.ping()
        if client.latest is latest and caught_up():
            due = clock.next_due()
            assert due is not None, f"nothing is under way and nothing is due: no {what}"
            clock.advance_to(max(due, clock.now()))


async def until_steady(pilot: Pilot[Any], get: Callable[[], Any], what: str) -> Any:
    """Wait until ``get()`` gives a truthy value that is still the same object once the
    app has handled everything that was under way and gone idle: for a part of a screen
    that may be replaced more than once in a row (a setup form rebuilt for a new game,
    then again for the seat count that game starts at, a message later)."""
    while True:
        value = await until(pilot, get, what)
        await pilot.pause()  # no delay: until the app has nothing more to do
        if get() is value:
            return value


def count_layouts(widget: Widget) -> Callable[[], int]:
    """From now on, count the layouts of the screen ``widget`` asks for (each
    ``refresh(layout=True)``); the count, when the returned function is called.

    Started with the app idle (after ``pilot.pause()``), a count still at 0 also says no
    layout is pending.
    """
    asked = 0
    refresh = widget.refresh

    def counted(*regions: Any, **options: Any) -> Any:
        nonlocal asked
        asked += bool(options.get("layout"))
        return refresh(*regions, **options)

    widget.refresh = counted  # type: ignore[method-assign]
    return lambda: asked


def mounted(widget: Widget) -> bool:
    """``widget`` and everything in it are mounted (a form just built may have a select
    whose own parts are not there yet: setting its value then fails)."""
    return widget.is_mounted and all(child.is_mounted for child in widget.walk_children())


async def typed_address(pilot: Pilot[Any], text: str) -> Input:
    """From the menu: open Join and put ``text`` in its address field."""
    await pilot.press("j")
    address = pilot.app.screen.query_one("#address", Input)
    address.value = text
    return address


async def join_by_address(pilot: Pilot[Any], port: int) -> Any:
    """From the menu: Join, 127.0.0.1:``port`` typed, Enter; the Join screen. Where the
    menu found a seat of ours kept (its "Back to your seat"), Join goes back to it by
    itself: nothing is typed then (and ``None`` is returned). The menu has looked for
    one first, so that j does one or the other, never both at once."""
    from tui.screens.join import JoinScreen

    app = pilot.app
    menu = await until(pilot, lambda: getattr(app.screen, "seats_looked", False)
                       and app.screen, "the menu's look for a seat kept")
    back = menu.kept_address == ("127.0.0.1", port)
    await pilot.press("j")
    if back:  # (straight back: the Join screen may be gone already)
        return None
    screen = app.screen
    assert isinstance(screen, JoinScreen)
    address = screen.query_one("#address", Input)
    address.value = f"127.0.0.1:{port}"
    address.focus()
    await pilot.press("enter")
    return screen


async def open_lobby(app: HiddenHandApp, pilot: Pilot[Any], seats: int = 3) -> LobbyScreen:
    """Open a table on the app's own host (no network) and show its lobby."""
    host = await app.hosting.start(port=None)
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
    """Wait until ``ready()`` is truthy and the picture has drawn what it shows (every
    pending message handled, animations finished): for snapshots. Returns what
    ``ready()`` gave."""
    value = await until(pilot, ready, "the screen to get ready")
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()
    return value


def screen_strips(app: App[Any]) -> list[Strip]:
    """The active screen as the terminal shows it, composed: one strip a line.

    Textual has no public route to the composed screen (``export_screenshot`` gives SVG),
    so this is the tests' one reach into a private name of a library;
    ``tests/test_public_apis.py`` allows it here and nowhere else.
    """
    return app.screen._compositor.render_strips()


def screen_text(app: App[Any]) -> str:
    """The text of the active screen as the terminal shows it, a line a row."""
    return "\n".join(strip.text for strip in screen_strips(app))


class Notices:
    """The notifications an app raises, as Textual hands them to it.

    Pass one as ``app.run_test(message_hook=notices)``: Textual calls it with every
    message the app's parts handle, a notification's ``Notify`` among them.
    """

    def __init__(self) -> None:
        #: Every notification raised so far, oldest first.
        self.raised: list[Notification] = []

    def __call__(self, message: Message) -> None:
        if isinstance(message, Notify):
            self.raised.append(message.notification)

    def messages(self) -> list[str]:
        """What each notification raised so far says."""
        return [str(notification.message) for notification in self.raised]

    def shown(self) -> list[Notification]:
        """The notifications raised that have not expired: those still on the screen."""
        return [notification for notification in self.raised if not notification.has_expired]


#: The types of parts of Textual's widgets the tests look at, selected by name: Textual
#: does not export these classes. The keys its footer draws; a notification's toast; the
#: part of a select that shows its value.
FOOTER_KEY = "FooterKey"
TOAST = "Toast"
SELECT_CURRENT = "SelectCurrent"


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

    from tui.widgets.footer import TableFooter

    drawn: dict[str, bool] = {}
    tables = app.screen.query(TableFooter)
    if tables:
        for entry in tables.first().entries:
            drawn[entry.name] = drawn.get(entry.name, False) or entry.enabled
        return drawn
    # A screen just pushed may not have composed its footer yet: nothing drawn.
    for key in app.screen.query(f"Footer {FOOTER_KEY}"):
        if not key.has_class("-command-palette"):
            name = key.action.partition("(")[0]
            drawn[name] = drawn.get(name, False) or not key.has_class("-disabled")
    return drawn


def footer_labels_in_view(app: HiddenHandApp) -> list[str]:
    """The descriptions of the footer's keys that are drawn inside the terminal's width."""

    from tui.widgets.footer import TableFooter

    width = app.size.width
    tables = app.screen.query(TableFooter)
    if tables:
        table = tables.first()
        return [entry.description for index, entry in enumerate(table.entries)
                if table.entry_region(index)[0] >= 0 and table.entry_region(index)[1]
                <= min(width, table.size.width)]
    # None yet on a screen just pushed: nothing drawn.
    return [key.description for key in app.screen.query(f"Footer {FOOTER_KEY}")
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
    the test says so): the screen and the host's table.

    Deal it with the option ``first: 0``: bots whose turn came first could play on
    until one of them named its five (once in a few thousand deals) before they were
    stilled here."""
    from tui.games.gotfive.screen import GotFiveScreen

    app: HiddenHandApp = pilot.app  # type: ignore[assignment]
    screen = await until(pilot, lambda: isinstance(app.screen, GotFiveScreen)
                         and app.screen.update and app.screen, "the table")
    assert app.hosting.host is not None
    (table,) = app.hosting.host.tables.values()
    for seat in table.seats:
        seat.bot = None
    assert table.game.options["first"] == 0, "deal it with first=0"
    return screen, table


async def type_ahead(pilot: Pilot[Any], *keys: str) -> None:
    """Send ``keys`` as a fast typist does: all queued before the app handles the first
    (``pilot.press`` lets the app settle after each key)."""
    from textual import events

    app = pilot.app
    for key in keys:
        char = {"slash": "/", "space": " "}.get(key, key if len(key) == 1 else None)
        app.post_message(events.Key(key, char))
    await pilot.pause()


def warning(screen: TableScreen) -> str:
    """What a table's turn line warns of now (why a key did nothing; "" while it does
    not)."""
    from tui.widgets.status_line import StatusLine

    line = screen.query_one(StatusLine)
    return str(line.content) if line.has_class("warned") else ""

"""Solo play on an SSH box or the web door: dealt by the box's host, not the app's own.

A browser visitor's solo game ran on a host inside their app: a closed tab ended the app
and the game with it (no word of it on the next visit), and Past games, which reads the
box's games, never listed it (a fresh-eyed pass of the web door).
"""

from __future__ import annotations

from tests.net_support import running_host
from tests.tui_support import make_app, screen_text, until
from tui.screens.table import TableScreen


async def test_a_solo_game_on_a_box_is_the_box_s_and_its_seat_waits_for_the_player() -> None:
    async with running_host(bot_delay=0.01) as host:
        app = make_app(box=("127.0.0.1", host.port))
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: "Play solo against bots" in screen_text(app), "menu")
            await pilot.press("s")
            await until(pilot, lambda: "Start" in screen_text(app), "the solo form")
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table")
            # Dealt by the box's host: the app runs none of its own.
            assert app.hosting.host is None
            tables = [t for t in host.tables.values() if t.phase == "play"]
            assert len(tables) == 1 and tables[0].seats[0].name == "Ann"
            # Named for its player (the box's list showed every one as "solo").
            assert tables[0].name == "Ann's solo"
            assert all(s.kind == "bot" for s in tables[0].seats[1:])
            token = tables[0].seats[0].token
            session = app.listener.session
        # The app is gone (a closed tab, a dropped login: its socket closes with its
        # process, which a test's app does not end): the box keeps the seat.
        assert session is not None
        await session.close()
        table = tables[0]
        await until_true(lambda: table.seats[0].token == token and 0 in table.away())
        assert table.phase == "play" and table.id in host.tables
        again = make_app(box=("127.0.0.1", host.port))
        async with again.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: "Back to your seat (j)" in screen_text(again),
                        "the kept seat, offered")


async def until_true(condition: object) -> None:
    """Let the host's loop run until ``condition()`` holds (bounded)."""
    import asyncio

    assert callable(condition)
    for _ in range(2000):
        if condition():
            return
        await asyncio.sleep(0.005)
    raise AssertionError("never came")

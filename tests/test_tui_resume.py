"""Pilot test: the app's own host journals its game, and the menu brings it back after a
crash of the app — every acknowledged move, our seat, our hand."""

from __future__ import annotations

import os
import random
import time
from typing import Any

import pytest
from textual.widgets import Button

from tests.tui_support import config_dir, screen_text, until
from tui.app import HiddenHandApp
from tui.games.getout.screen import GetOutScreen
from tui.screens.menu import MenuScreen, moment
from tui.settings import Settings

pytestmark = pytest.mark.usefixtures("config_dir")
__all__ = ["config_dir"]  # the fixture, for pytest

SIZE = (110, 34)


def solo(seed: int) -> HiddenHandApp:
    rng = random.Random(seed)
    return HiddenHandApp(Settings(name="Ann"), bot_delay=0.01,
                         seed_source=lambda: rng.getrandbits(62),
                         solo={"game_id": "getout", "seats": 3,
                               "options": {"first": 0, "match": False}})


async def test_a_crashed_solo_game_is_resumed_from_the_menu_where_it_stopped() -> None:
    app = solo(7)
    async with app.run_test(size=SIZE) as pilot:
        screen: Any = await until(pilot, lambda: isinstance(app.screen, GetOutScreen)
                                  and app.screen.legal and app.screen, "our turn")
        await pilot.press("enter")  # Ann lays her first card as the call card
        await until(pilot, lambda: screen.view["call"] is not None, "the call card")
        host = app.hosting.host
        assert host is not None
        (table,) = host.tables.values()
        before = table.game.snapshot()
        # The app dies here: nothing is closed in order, its host simply stops.
        for t in host.tables.values():
            t.close()
        assert host.journal is not None
        host.journal.close(remove=False)
        app.hosting.host = None
    again = HiddenHandApp(Settings(name="Ann"), bot_delay=0.01)
    async with again.run_test(size=SIZE) as pilot:
        menu = again.screen
        assert isinstance(menu, MenuScreen)
        resume = menu.query_one("#resume", Button)
        # The journals are read once the menu is on the screen, not before.
        await until(pilot, lambda: resume.display, "the resume entry")
        assert "Ann" in (resume.tooltip or "")
        # Whose game, which, from when (▸ … ◂: focused).
        assert "Resume your GET OUT! from " in str(resume.label)
        # At 80 × 24 every entry is still in sight (Quit was pushed off the bottom).
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: "Quit (q)" in screen_text(again)
                    and "Resume your" in screen_text(again), "every entry at 80 × 24")
        await pilot.resize_terminal(*SIZE)
        await until(pilot, lambda: not menu.has_class("-short"), "the roomy menu again")
        await pilot.press("u")
        screen = await until(pilot, lambda: isinstance(again.screen, GetOutScreen)
                             and again.screen.update and again.screen, "the resumed table")
        assert again.hosting.host is not None
        (table,) = again.hosting.host.tables.values()
        # Every acknowledged move is back (the bots may go on from there).
        assert table.game.snapshot()["version"] >= before["version"]
        assert screen.my_seat == 0 and screen.view["call"] is not None
        await pilot.press("escape")
        await pilot.press("y")
        await until(pilot, lambda: isinstance(again.screen, MenuScreen), "the menu")
        # Left on purpose: the game is over for good, nothing left to resume.
        await until(pilot, lambda: not again.screen.query_one("#resume", Button).display,
                    "no resume offered")


async def test_the_menu_offers_only_a_game_in_play_and_says_whose_it_is() -> None:
    """A match over and taken back to its lobby is not offered (it reopened the lobby);
    a game another player name hosted from this account says it is theirs."""
    from net import journal as j
    from net.paths import journal_dir

    def journal(name: str, phase: str, game: str, creator: str, when: float) -> None:
        path = journal_dir() / f"{name}{j.SUFFIX}"
        path.parent.mkdir(parents=True, exist_ok=True)
        made = j.Journal.create(path, {"name": "Den", "created": 0})
        made.append({"k": "table", "t": "t1", "name": name, "game": game, "phase": phase,
                     "creator": 0, "seats": [{"kind": "human", "name": creator},
                                             {"kind": "bot", "name": "Bot 2"}]})
        made.close()
        os.utime(path, (when, when))

    journal("over", "lobby", "getout", "Ann", time.time())  # a finished match, back in its lobby
    app = HiddenHandApp(Settings(name="Ann"))
    async with app.run_test(size=SIZE) as pilot:
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        await until(pilot, lambda: menu.is_attached and menu.query("#resume"), "the menu")
        menu.offer_resume()  # (as the menu does once it is on the screen)
        assert not menu.query_one("#resume", Button).display  # nothing to resume
        journal("theirs", "play", "getit", "Bob", time.time() - 60)
        menu.offer_resume()
        resume = menu.query_one("#resume", Button)
        await until(pilot, lambda: resume.display, "the resume entry")
        assert "Resume Bob's Get It! from " in str(resume.label)


async def test_an_app_ended_from_outside_keeps_its_game_for_the_menu_to_resume() -> None:
    """``kill`` (SIGTERM) left the app's last screen in the terminal: the app now ends as
    a quit does, the terminal given back, but keeps the game it hosts, as after a crash
    (the handler is installed only in a terminal, so this test calls what it runs)."""
    app = solo(7)
    async with app.run_test(size=SIZE) as pilot:
        screen: Any = await until(pilot, lambda: isinstance(app.screen, GetOutScreen)
                                  and app.screen.legal and app.screen, "our turn")
        await pilot.press("enter")
        await until(pilot, lambda: screen.view["call"] is not None, "the call card")
        await app._end_kept()
    assert app.return_code in (0, None)
    again = HiddenHandApp(Settings(name="Ann"), bot_delay=0.01)
    async with again.run_test(size=(80, 24)) as pilot:
        resume = again.screen.query_one("#resume", Button)
        await until(pilot, lambda: resume.display, "the resume entry")
        await until(pilot, lambda: "▸ Resume your GET OUT!" in screen_text(again), "focused")
        # (On one line at 80 columns: its "◂" wrapped onto a line of its own.)
        line = next(line for line in screen_text(again).splitlines() if "Resume your" in line)
        assert line.rstrip().endswith("◂"), line


def test_the_resume_entry_says_the_day_of_a_game_left_before_today() -> None:
    """A time alone reads as today's: a game left on another day names the day."""
    now = time.mktime((2026, 12, 5, 18, 0, 0, 0, 0, -1))
    def at(day: int, hour: int, minute: int, year: int = 2026, month: int = 12) -> float:
        return time.mktime((year, month, day, hour, minute, 0, 0, 0, -1))
    assert moment(at(5, 9, 7), now) == "09:07"
    assert moment(at(4, 23, 59), now) == "Fri 23:59"
    assert moment(at(29, 12, 0, month=11), now) == "Sun 12:00"
    assert moment(at(28, 12, 0, month=11), now) == "28 Nov"
    assert moment(at(3, 12, 0, year=2025), now) == "3 Dec 2025"


async def test_a_damaged_journal_is_told_of_not_passed_over_in_silence() -> None:
    """A kept game whose journal was damaged (bytes overwritten in its middle) was simply
    gone from the menu, and ``hiddenhand host --resume`` said "there is no game to
    resume": the menu tells of it once, the command says why, and the file is left."""
    from net import journal as j
    from net.paths import journal_dir
    from net.serve import find_resumable

    path = journal_dir() / f"hurt{j.SUFFIX}"
    path.parent.mkdir(parents=True, exist_ok=True)
    made = j.Journal.create(path, {"name": "Den", "created": 0})
    for n in range(3):
        made.append({"k": "table", "t": "t1", "name": f"Den {n}", "game": "getout",
                     "phase": "play", "creator": 0,
                     "seats": [{"kind": "human", "name": "Ann"},
                               {"kind": "bot", "name": "Bot 2"}]})
    made.close()
    data = bytearray(path.read_bytes())
    data[len(data) // 2:len(data) // 2 + 8] = b"\xff" * 8
    path.write_bytes(bytes(data))
    with pytest.raises(j.JournalError, match=f"{path} is damaged at byte"):
        find_resumable("latest")
    app = HiddenHandApp(Settings(name="Ann"))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        told = "A kept game cannot be resumed: "
        await until(pilot, lambda: told in screen_text(app)
                    and "is damaged at byte" in screen_text(app), "the word of it")
        assert not menu.query_one("#resume", Button).display
        menu.offer_resume()  # (back in the menu: told once while the app runs)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen_text(app).count(told) == 1
    assert path.read_bytes() == bytes(data)

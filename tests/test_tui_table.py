"""Pilot tests of what every table shares (``TableScreen``), played on the GET OUT! table.

Solo games run on the app's own in-process host: no network at all.
"""

from __future__ import annotations

import gc
import traceback
from typing import Any

import pytest
from textual.pilot import Pilot

from engine.testing import stack_getout
from tests.tui_support import (
    SIZE,
    Notices,
    config_dir,
    footer_keys,
    footer_labels_in_view,
    make_app,
    until,
)
from tui.app import HiddenHandApp
from tui.games.getout.call_pile import CallPile
from tui.games.getout.screen import GetOutScreen
from tui.screens.dialogs import ChoiceScreen
from tui.screens.menu import MenuScreen
from tui.screens.summary import SummaryScreen
from tui.widgets.seats import SeatsPanel

__all__ = ["config_dir"]  # the fixture, used by name

pytestmark = pytest.mark.usefixtures("config_dir")


async def out_after_the_first_round(pilot: Pilot[Any], app: HiddenHandApp) -> GetOutScreen:
    """A solo match where a bot ends round 1 at once and leaves us over the limit."""
    screen: GetOutScreen = await until(
        pilot, lambda: isinstance(app.screen, GetOutScreen) and app.screen.legal and app.screen,
        "our first turn")
    assert app.hosting.host is not None
    (table,) = app.hosting.host.tables.values()
    # Seat 1 (a bot) goes out with its one card; we keep 14 points (> 10: out of the
    # match), seat 2 keeps 1 point and plays on against seat 1.
    stack_getout(table.game, [["geoff 12", "geoff 2"], ["kevin 1"], ["geoff 1"]],
                 played=["kevin 8"], turn=1)
    app.hosting.host.refresh(table)
    return screen


async def test_out_of_a_solo_match_the_bots_finish_at_full_speed() -> None:
    # The bots' pace (0.5 s a move) leaves the question seconds before the match ends.
    app = make_app(bot_delay=0.5, solo={"game_id": "getout", "seats": 3,
                                        "options": {"first": 0, "limit": 10}})
    async with app.run_test(size=SIZE) as pilot:
        screen = await out_after_the_first_round(pilot, app)
        summary = await until(pilot, lambda: isinstance(app.screen, SummaryScreen)
                              and app.screen, "the round's summary")
        buttons = await until(pilot, lambda: [b.id for b in summary.query("Button")],
                              "the summary's buttons")
        assert "answer-next" not in buttons  # we are out
        # How the bots finish is asked here ("Look at the table" opened a second
        # dialog, over the table, to ask it).
        assert {"answer-finish", "answer-leave"} <= set(buttons)
        # At 80 columns the footer keeps every way out in sight: three long labels
        # pushed "c Look at the table" past its edge.
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: {"Full speed", "Leave", "End the match",
                                    "Look at the table"} <= set(footer_labels_in_view(app)),
                    "every answer in the footer")
        await pilot.resize_terminal(*SIZE)
        await until(pilot, lambda: screen.table["phase"] == "play", "the next round")
        assert app.screen is summary  # the round we went out in: it stays until closed
        assert screen.out_of_game() and screen.can_finish()
        await pilot.press("c")  # keep watching: the table, and nothing asked again
        await until(pilot, lambda: app.screen is screen, "the table")
        await pilot.pause()
        assert app.screen is screen and not screen.finishing
        # We are out: the bots start the next round ("Waiting for a player" was none).
        assert screen.waiting_to_deal(screen.view["out"]) == "The bots start the next round…"
        # Opened again (v), the summary asks again (it lost f and e, and nothing else
        # offered "Leave with the result").
        await pilot.press("v")
        again = await until(pilot, lambda: isinstance(app.screen, SummaryScreen)
                            and app.screen.query("Button") and app.screen, "the summary again")
        assert {"answer-finish", "answer-leave"} <= {b.id for b in again.query("Button")}
        await pilot.press("c")
        await until(pilot, lambda: app.screen is screen, "the table again")
        assert app.hosting.host is not None and app.hosting.host.bot_delay == 0.5
        assert footer_keys(app).get("finish") is True  # f lets them finish later
        await pilot.press("f")
        assert app.hosting.host.bot_delay == 0
        assert screen.finishing and not screen.can_finish()
        assert "finish" not in footer_keys(app)
        final = await until(pilot, lambda: isinstance(app.screen, SummaryScreen)
                            and screen.table["phase"] == "over" and app.screen.is_mounted
                            and app.screen.query("Label") and app.screen, "the match's end")
        # No round summary stopped the race: the one shown is the match's.
        title = " ".join(str(label.render()) for label in final.query("Label"))
        assert "wins the match" in title
        # Under it, the table says the match is over and who won it (it said "Round
        # over", and "dealer" beside the winner; a fresh-eyed pass).
        assert screen.query_one(CallPile).over == "Match over"
        winner = screen.view["winners"][0]
        assert screen.query_one(SeatsPanel).columns[""][winner] == "won"
        assert not isinstance(app.screen, ChoiceScreen)
        # A rematch: the bots at their pace again, and its rounds have their summaries
        # (full speed raced on through it, and its end was the only summary).
        await pilot.press("r")
        await until(pilot, lambda: app.screen is screen and screen.table["phase"] == "play"
                    and screen.view.get("round") == 1, "the rematch")
        assert app.hosting.host is not None and app.hosting.host.bot_delay == 0.5
        assert not screen.finishing and not screen.offered_finish
        await out_after_the_first_round(pilot, app)
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen)
                    and "Round 1" in " ".join(str(label.render())
                                              for label in app.screen.query("Label")),
                    "the rematch's first round's summary")


async def test_an_unanswered_question_goes_away_when_the_match_ends() -> None:
    """Out of a game with no summary to ask in (a round summary asks it), the question
    opens over the table; unanswered, it goes when the game ends."""
    app = make_app(bot_delay=0.5, solo={"game_id": "getout", "seats": 3,
                                        "options": {"first": 0, "limit": 10}})
    async with app.run_test(size=SIZE) as pilot:
        screen = await out_after_the_first_round(pilot, app)
        summary = await until(pilot, lambda: isinstance(app.screen, SummaryScreen)
                              and app.screen, "the summary")
        screen.offered_finish = False  # (as if it had not asked)
        summary.dismiss(None)
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen), "the question")
        assert app.hosting.bots_full_speed(screen.session)  # the bots finish; nobody answers
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen)
                    and screen.table["phase"] == "over", "the end")
        # The match's summary, and no stale question under it.
        assert not any(isinstance(s, ChoiceScreen) for s in app.screen_stack), app.screen_stack


async def test_out_of_a_solo_match_a_player_leaves_with_the_result() -> None:
    app = make_app(bot_delay=0.5, solo={"game_id": "getout", "seats": 3,
                                        "options": {"first": 0, "limit": 10}})
    notices = Notices()
    async with app.run_test(size=SIZE, message_hook=notices) as pilot:
        await out_after_the_first_round(pilot, app)
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen), "the summary")
        await pilot.press("e")  # leave with the result: the bots finish at once
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        await until(pilot, lambda: app.hosting.host is None, "the solo host to stop")
        result: str = await until(pilot, lambda: next(
            (str(n.message) for n in notices.raised if "won the match" in str(n.message)),
            None), "the result")
        assert "Match totals: " in result and "You 14 (out)" in result


async def test_while_a_table_is_shown_full_collections_skip_what_outlived_them() -> None:
    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {}})
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GetOutScreen)
                    and app.screen.update, "the table")
        frozen = gc.get_freeze_count()
        assert frozen > 0  # the heap the table started with
        kept = [[] for _ in range(1000)]
        gc.collect()
        assert gc.get_freeze_count() >= frozen + len(kept)  # survivors of a full one
    # The table is gone: everything is the collector's again.
    assert gc.get_freeze_count() == 0
    assert not [hook for hook in gc.callbacks if getattr(hook, "__module__", "")
                == "tui.gc_tuning"]


async def test_at_a_table_full_collections_wait_for_an_update_to_be_drawn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Python's own full collections are off while a table is shown (they ran inside an
    update's repaint); one runs after the frame of every COLLECT_EVERY-th update."""
    from textual.geometry import Region
    from textual.strip import Strip
    from textual.widget import Widget

    from tui import gc_tuning
    from tui.gc_tuning import TABLE_COLLECT_EVERY as COLLECT_EVERY

    before = gc.get_threshold()
    full: list[bool] = []
    # Widgets drawn (only a frame draws them), and how many when the last update went out.
    frames = [0, 0]

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info.get("generation") == 2:
            # Once the frame is drawn: the table's own collection, after the update's frame.
            full.append("table_collect" in [f.name for f in traceback.extract_stack()]
                        and frames[0] > frames[1])

    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {}})
    async with app.run_test(size=SIZE) as pilot:
        screen = await until(pilot, lambda: isinstance(app.screen, GetOutScreen)
                             and app.screen.update and app.screen, "the table")
        young, middle, old = gc.get_threshold()
        assert (young, middle) == before[:2] and old > 10**6
        assert app.hosting.host is not None
        (table,) = app.hosting.host.tables.values()
        for seat in table.seats:
            seat.bot = None  # only the test's updates
        await pilot.pause()
        render_lines = Widget.render_lines

        def drawn(widget: Widget, crop: Region) -> list[Strip]:
            frames[0] += 1
            return render_lines(widget, crop)

        monkeypatch.setattr(Widget, "render_lines", drawn)
        gc.callbacks.append(count)
        try:
            # The count of updates from a known start: counting to one, the next update
            # collects and starts the count again.
            monkeypatch.setattr(gc_tuning, "TABLE_COLLECT_EVERY", 1)
            app.hosting.host.refresh(table)
            await until(pilot, lambda: full, "the count started again")
            monkeypatch.setattr(gc_tuning, "TABLE_COLLECT_EVERY", COLLECT_EVERY)
            full.clear()
            for _ in range(2):  # (the second time: the count started again at the first)
                for _ in range(1, COLLECT_EVERY):
                    shown = screen.update
                    app.hosting.host.refresh(table)
                    await until(pilot, lambda shown=shown: screen.update is not shown,
                                "the update shown")
                await pilot.pause()
                assert not full  # none yet, and none of the collector's own
                frames[1] = frames[0]
                app.hosting.host.refresh(table)
                await until(pilot, lambda: full, "a full collection after the update's frame")
                assert full == [True]
                full.clear()
        finally:
            gc.callbacks.remove(count)
    assert gc.get_threshold() == before


async def test_a_log_scrolled_back_stays_where_the_player_reads() -> None:
    app = make_app(bot_delay=60, solo={"game_id": "getout", "seats": 2, "options": {}})
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await until(pilot, lambda: isinstance(app.screen, GetOutScreen)
                             and app.screen.update and app.screen, "the table")
        log = screen.query_one("#log")
        session = screen.session

        def say(text: str) -> None:
            session.record({"type": "chat", "name": "Bob", "seat": 1, "text": text})
            screen.catch_up()

        for i in range(40):
            say(f"line {i}")
            await pilot.pause()
        await until(pilot, lambda: log.max_scroll_y > 0 and log.is_vertical_scroll_end,
                    "a log that scrolls, at its end")
        log.scroll_to(y=0, animate=False)
        await pilot.pause()
        say("a new line")
        await pilot.pause()
        assert log.scroll_offset.y == 0  # still where the player reads
        log.scroll_end(animate=False)
        await until(pilot, lambda: log.is_vertical_scroll_end, "back at the end")
        say("another")
        await until(pilot, lambda: log.is_vertical_scroll_end
                    and "another" in str(log.lines[-1].text), "following again")


async def test_a_table_is_set_up_once_when_it_opens(monkeypatch: pytest.MonkeyPatch) -> None:
    """Textual calls every class's own ``on_mount``: a table replays its history and shows
    its first view once (a ``super().on_mount()`` chain did it two and three times)."""
    from tui.screens.base import SessionScreen
    from tui.screens.table import TableScreen

    calls: list[str] = []
    replay, first = TableScreen.catch_up, SessionScreen.mounted

    def catch_up(self: TableScreen) -> None:
        calls.append("replay")
        replay(self)

    def mounted(self: SessionScreen) -> None:
        calls.append("first view")
        first(self)

    monkeypatch.setattr(TableScreen, "catch_up", catch_up)
    monkeypatch.setattr(SessionScreen, "mounted", mounted)
    app = make_app(bot_delay=30.0, solo={"game_id": "getout", "seats": 3, "options": {}})
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GetOutScreen) and app.screen.live,
                    "the table")
        await pilot.pause()
        # (Each update replays the new lines too: what counts is the start.)
        assert calls[:2] == ["replay", "first view"] and calls.count("first view") == 1

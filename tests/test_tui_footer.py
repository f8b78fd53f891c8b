"""The footer shows exactly the keys that work now: on each screen, under each dialog."""

from __future__ import annotations

import gc
import random
import weakref
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from engine.testing import stack_getout
from tests.tui_support import (
    SIZE,
    config_dir,
    footer_drawn,
    footer_keys,
    footer_labels_in_view,
    make_app,
    open_lobby,
    show_lobby,
    until,
)
from tui.app import HiddenHandApp
from tui.games.getout.screen import GetOutScreen
from tui.games.gotfive.screen import GotFiveScreen
from tui.screens.dialogs import ChoiceScreen, ConfirmScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.summary import SummaryScreen
from tui.session import Session

__all__ = ["config_dir"]

pytestmark = pytest.mark.usefixtures("config_dir")



async def test_at_80_columns_the_creator_sees_start_in_the_lobby_footer() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await open_lobby(app, pilot)
        await pilot.pause()
        labels = footer_labels_in_view(app)
        assert "Start" in labels and "Leave" in labels, labels
        assert lobby.is_creator and footer_keys(app)["start"]


async def test_a_spectator_in_the_lobby_has_no_seat_keys() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        host = await app.start_host(port=None)
        ann = Session("Ann", host=host)
        await ann.connect()
        joined = await ann.create("T", "getout", 2, {})
        eve = Session("Eve", host=host)
        await eve.connect()
        await eve.join(joined.table, spectate=True)
        await show_lobby(app, pilot, eve)
        keys = footer_keys(app)
        for action in ("start", "toggle_ready", "add_bot", "remove"):
            assert action not in keys, action
        assert keys["chat"] and keys["leave"]
        assert keys["sit"]  # a spectator may sit down in a free seat
        await ann.close()


async def test_dialogs_show_their_own_keys_and_not_the_screens_below() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_lobby(app, pilot)
        app.push_screen(ConfirmScreen("Really?"))
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        await pilot.pause()
        assert set(footer_keys(app)) == {"answer"}
        assert {"Yes", "No"} <= set(footer_labels_in_view(app))
        await pilot.press("n")
        app.push_screen(ChoiceScreen("Which?", [("a", "A"), ("b", "B")]))
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen), "the chooser")
        await pilot.pause()
        assert {"Choose", "Cancel"} <= set(footer_labels_in_view(app))
        assert "start" not in footer_keys(app)
        await pilot.press("down", "enter")
        assert isinstance(app.screen, LobbyScreen)


def getout_heads_up() -> HiddenHandApp:
    """A solo GET OUT! round of two seats, ours first."""
    return make_app(solo={"game_id": "getout", "seats": 2,
                          "options": {"first": 0, "match": False}})


async def first_turn(pilot: Pilot[Any]) -> GetOutScreen:
    """The GET OUT! table once our first turn is on it."""
    app = pilot.app
    screen: GetOutScreen = await until(
        pilot, lambda: isinstance(app.screen, GetOutScreen) and app.screen.legal
        and app.screen, "our first turn")
    return screen


async def test_the_getout_footer_follows_the_turn_the_round_and_the_summary() -> None:
    app = getout_heads_up()
    async with app.run_test(size=SIZE) as pilot:
        screen = await first_turn(pilot)
        keys = footer_keys(app)
        # We lay the first call card: no drawing before that.
        assert screen.view["call"] is None
        assert keys["play"] and "draw" not in keys and keys["chat"] and keys["leave"]
        for hidden in ("next_round", "to_lobby", "bot_for_away", "finish"):
            assert hidden not in keys, hidden
        assert app.host is not None
        (table,) = app.host.tables.values()
        stack_getout(table.game, [["kevin 1"], ["geoff 12"]], played=["kevin 8"], turn=0)
        table.push()
        await until(pilot, lambda: len(screen.view.get("hand", [])) == 1, "the new hand")
        await pilot.press("enter")  # our last card: the round (and the game) is over
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen), "the summary")
        await pilot.pause()
        # Under the summary, only its own answers.
        assert set(footer_keys(app)) == {"answer"}
        assert "Back to lobby" in footer_labels_in_view(app)
        await pilot.press("c")
        assert app.screen is screen
        keys = footer_keys(app)
        assert "play" not in keys and "draw" not in keys  # after the round they cannot work
        assert keys["to_lobby"]


async def test_the_table_footer_dims_keys_in_place_and_lets_rebuilt_keys_go() -> None:
    app = getout_heads_up()
    async with app.run_test(size=SIZE) as pilot:
        screen = await first_turn(pilot)
        assert app.host is not None
        (table,) = app.host.tables.values()
        table.seats[1].bot = None  # the other seat moves when the test says so
        stack_getout(table.game, [["kevin 1", "geoff 3"], ["geoff 12", "kevin 5"]],
                     played=["kevin 8"], turn=0)
        table.push()

        def drawn_as_bound() -> bool:
            return footer_drawn(app) == footer_keys(app)

        await until(pilot, lambda: len(screen.view.get("hand", [])) == 2 and screen.legal
                    and drawn_as_bound(), "the footer to draw our turn's keys")
        assert footer_drawn(app)["play"] and footer_drawn(app)["draw"]
        footer = screen.query_one(Footer)
        built = list(footer.query(FooterKey))
        await pilot.press("d")
        await until(pilot, lambda: screen.view.get("turn") == 1 and drawn_as_bound()
                    and not footer_drawn(app)["draw"], "play and draw dimmed")
        assert "play" in footer_drawn(app)  # dimmed, not hidden: our turn comes back
        (draw,) = [a for a in table.game.legal_actions(1) if a["type"] == "draw"]
        # The keys are restyled with the update itself (drawn in its own frame), not
        # once the footer gets round to the screen's refresh_bindings.
        at_show: list[dict[str, bool]] = []
        watch = screen.watch_update

        def watched(msg: Any) -> None:
            watch(msg)
            if (msg or {}).get("view", {}).get("turn") == 0:
                at_show.append(footer_drawn(app))

        screen.watch_update = watched  # type: ignore[method-assign]
        table.act(1, draw)
        await until(pilot, lambda: screen.view.get("turn") == 0 and drawn_as_bound()
                    and footer_drawn(app)["draw"], "our turn's keys lit again")
        assert at_show and at_show[0] == footer_keys(app), at_show
        assert list(footer.query(FooterKey)) == built  # the same keys, restyled
        gone = weakref.ref(next(key for key in built if key.action == "play"))
        del built
        stack_getout(table.game, [["kevin 1"], ["geoff 12"]], played=["kevin 8"], turn=0)
        table.push()
        await until(pilot, lambda: len(screen.view.get("hand", [])) == 1, "the new hand")
        await pilot.press("enter")  # our last card: the round (and the game) is over
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen), "the summary")
        await pilot.press("c")
        await until(pilot, lambda: app.screen is screen and drawn_as_bound()
                    and "to_lobby" in footer_drawn(app), "the keys after the game")
        assert "play" not in footer_drawn(app)
        # The table freezes what outlives a full collection (tui/screens/table.py): a
        # collection of the whole heap is what frees such a key.
        gc.unfreeze()
        gc.collect()
        assert gone() is None, "a key the footer rebuilt away is still alive"


async def test_the_gotfive_footer_draws_the_keys_of_each_turn() -> None:
    app = make_app(solo={"game_id": "gotfive", "seats": 3, "options": {}})
    async with app.run_test(size=SIZE) as pilot:
        screen = await until(pilot, lambda: isinstance(app.screen, GotFiveScreen)
                             and app.screen.update and app.screen, "the table")
        assert app.host is not None
        (table,) = app.host.tables.values()
        for seat in table.seats:
            seat.bot = None  # every seat moves when the test says so
        rng = random.Random(5)
        shown: set[frozenset[str]] = set()
        for _ in range(12):
            moves = [(seat, action) for seat in range(3)
                     for action in table.game.legal_actions(seat)
                     if action["type"] in ("reveal", "sort", "compare")]
            if not moves:
                break
            version = screen.view.get("version")
            table.act(*rng.choice(moves))
            await until(pilot, lambda before=version: screen.view.get("version") != before
                        and footer_drawn(app) == footer_keys(app), "the footer of the move")
            shown.add(frozenset(footer_drawn(app)))
        assert len(shown) >= 3  # keys came and went with the turn and its phase

"""A host that sends what the app cannot read: the app leaves it, saying so, and runs on.

A host of another make, or a hostile one, crashed the app with a view it could not show
(``net.host_views`` says what the app reads; tests/test_net_host_check.py has the
shapes). Here a real host is made to send such a view, and the app at its table is
watched.
"""

from __future__ import annotations

import random
from typing import Any

from tests.tui_support import screen_text, still_gotfive_table, until
from tui.app import HiddenHandApp
from tui.screens.menu import MenuScreen
from tui.settings import Settings


def solo_app() -> HiddenHandApp:
    rng = random.Random(11)
    return HiddenHandApp(Settings(name="Ann"), bot_delay=0.01,
                         seed_source=lambda: rng.getrandbits(62),
                         solo={"game_id": "gotfive", "seats": 3, "options": {"first": 0}})


async def test_a_view_the_app_cannot_show_ends_the_visit_with_words_not_a_crash() -> None:
    app = solo_app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen, table = await still_gotfive_table(pilot)
        view = table.game.view

        def hostile(seat: Any) -> dict[str, Any]:
            # A tile of thirty million dots: the app drew them for minutes.
            shown = view(seat)
            return {**shown, "public": [{**shown["public"][0], "dots": 30_000_000}]}

        table.game.view = hostile
        assert app.hosting.host is not None
        app.hosting.host.refresh(table)
        await until(pilot, lambda: "cannot read (view" in screen_text(app)
                    and "public[0].dots" in screen_text(app), "the words on the banner")
        assert app.is_running and app.screen is screen
        assert "•" * 10 not in screen_text(app)
        # Nothing more comes from that host (no reconnection that would read it again),
        # and Esc goes back to the menu.
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")

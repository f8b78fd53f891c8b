"""Start-up: what ``hiddenhand`` pauses to paint its first screen sooner comes back after.

The figures are ``scripts/bench_startup.py``'s; these tests check behaviour only.
"""

from __future__ import annotations

import gc
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import Label

from tests.tui_support import SIZE, make_app, until
from tui.app import HiddenHandApp
from tui.games.getout.screen import GetOutScreen
from tui.screens.menu import MenuScreen
from tui.screens.setup import SetupScreen


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep settings and journals out of the real home directory."""
    monkeypatch.setenv("HIDDENHAND_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("HIDDENHAND_DATA_DIR", str(tmp_path / "data"))


@pytest.fixture
def paused_collector() -> Iterator[None]:
    """The collector off, as ``hiddenhand`` starts the app; on again after the test."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def watch_resume(app: HiddenHandApp, monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The screen on top each time the app turns the collector back on (or is asked to)."""
    seen: list[object] = []
    real = app.first_screen_shown

    def spy() -> None:
        seen.append(app.screen)
        real()

    monkeypatch.setattr(app, "first_screen_shown", spy)
    return seen


async def test_the_collector_runs_again_once_the_menu_is_painted(
        paused_collector: None, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(collector_paused=True)
    seen = watch_resume(app, monkeypatch)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, gc.isenabled, "the collector on again")
        assert isinstance(seen[0], MenuScreen) and seen[0].query("#solo")


async def test_the_collector_stays_off_until_the_solo_table_is_painted(
        paused_collector: None, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(collector_paused=True,
                   solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    seen = watch_resume(app, monkeypatch)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, gc.isenabled, "the collector on again")
        # Not under the (empty, deferred) menu painted first: once the table is.
        assert isinstance(seen[0], GetOutScreen)


async def test_an_app_that_paused_nothing_leaves_the_collector_alone(
        paused_collector: None) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MenuScreen)
                    and app.screen.query("#solo"), "the menu")
        await pilot.pause()
        assert not gc.isenabled()


async def test_a_screen_is_styled_once_as_it_opens(monkeypatch: pytest.MonkeyPatch) -> None:
    """Textual restyles a screen and every widget on it each time the screen is resumed,
    the first time too, a moment after every widget was styled as it mounted: the setup
    form's hundred widgets (three games' options, with their selects) were styled twice
    before its first frame (``tui.screens.styled``)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        # (Counted by the node itself, not its id: a node styled and gone lent its id to
        # a label mounted after it, which then read as styled twice.)
        styled: Counter[object] = Counter()
        apply = app.stylesheet.apply

        def counting(node: object, *args: object, **kwargs: object) -> object:
            styled[node] += 1
            return apply(node, *args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(app.stylesheet, "apply", counting)
        await pilot.press("s")
        form = await until(pilot, lambda: isinstance(app.screen, SetupScreen) and app.screen,
                           "the setup form")
        await pilot.pause()
        labels = list(form.query(Label))
        assert len(labels) > 10
        assert [styled[label] for label in labels] == [1] * len(labels)


def test_hiddenhand_runs_the_app_with_the_collector_paused_and_a_short_switch_interval(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from tui import cli

    seen: list[tuple[bool, float, bool]] = []

    def run(app: HiddenHandApp) -> None:
        paused = gc.isenabled(), sys.getswitchinterval()
        app.first_screen_shown()  # an app told the collector is paused turns it on
        seen.append((*paused, gc.isenabled()))

    interval = sys.getswitchinterval()
    monkeypatch.setattr(HiddenHandApp, "run", run)
    monkeypatch.setattr(cli.check, "terminal_problem", lambda *_, **__: None)  # (no tty here)
    try:
        assert cli.main([]) == 0
    finally:
        gc.unfreeze()  # run_app froze this test process's heap, as it does the app's
    # While it runs: no collection until the first screen (the app turns it on then), a
    # thread waiting for the GIL (the terminal's writer) gets it within 1 ms.
    assert seen == [(False, cli.SWITCH_INTERVAL, True)]
    # Once it ends, both are as they were.
    assert gc.isenabled() and sys.getswitchinterval() == interval


def probe(code: str) -> str:
    """What ``code`` prints, run by a fresh interpreter (nothing imported before)."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)
    return done.stdout


def test_a_game_bot_does_not_import_the_other_games_bots() -> None:
    said = probe(
        "import sys\n"
        "from engine.bots import make_bot\n"
        "make_bot('getout', 1, 7)\n"
        "print(sorted(m for m in sys.modules if m.startswith('engine.bots.')))\n"
    )
    assert said.split() == ["['engine.bots.getout_bot',", "'engine.bots.random_bot']"]


def test_the_getout_table_screen_imports_its_dialogs_only_when_they_open() -> None:
    said = probe(
        "import sys\n"
        "import tui.games.getout.screen\n"
        "print(sorted(m for m in sys.modules if m in ('tui.screens.dialogs',\n"
        "             'tui.screens.summary', 'tui.games.getout.summary')))\n"
    )
    assert said.strip() == "[]", said


def test_a_table_screen_does_not_import_the_other_games() -> None:
    # Their words for an earlier game's log are loaded when such a line is first written.
    said = probe(
        "import sys\n"
        "import tui.games.getout.screen\n"
        "print(sorted({m.split('.')[2] for m in sys.modules if m.startswith('tui.games.')}))\n"
    )
    assert said.strip() == "['getout', 'past_events']", said


def test_no_table_screen_imports_rich_pretty_printing() -> None:
    # RichLog imports rich.pretty, which a table's first frame waited for; the log is ours.
    said = probe(
        "import sys\n"
        "import tui.games.getout.screen, tui.games.getit.screen, tui.games.gotfive.screen\n"
        "print(sorted(m for m in sys.modules if m in ('rich.pretty',\n"
        "             'textual.widgets._rich_log')))\n"
    )
    assert said.strip() == "[]", said


def test_a_game_does_not_import_the_other_games() -> None:
    said = probe(
        "import sys\n"
        "import engine\n"
        "assert list(engine.GAMES) == ['getit', 'getout', 'gotfive'] and 'getit' in engine.GAMES\n"
        "engine.new_game('getout', 3, 7)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'engine'))\n"
    )
    assert said.split() == ["['engine',", "'engine.core',", "'engine.getout']"]


def test_the_command_line_of_a_solo_table_imports_no_other_game() -> None:
    """The help's list of every game's options is made only when help is shown: made
    for every run, it imported all three games and the options form before a solo
    table's first frame."""
    said = probe(
        "import sys\n"
        "from tui.cli import build_parser\n"
        "args = build_parser(arguments={'solo'}).parse_args(['solo'])\n"
        "print(sorted(m for m in sys.modules if m in ('engine.getit', 'engine.gotfive',\n"
        "             'tui.widgets.options_form')))\n"
    )
    assert said.strip() == "[]", said

"""Benchmark opening a screen: a player's key (or the app's push) → that screen's first frame.

The real app runs headless (``App.run_test``, ``--size``), a fresh app for every run, as
a player meets each screen the first time in a session:

* **setup** — in the menu, the key ``s``: the form of a solo table (three games'
  options forms, their selects) until its first frame;
* **lobby** — a table opened on the app's own host (in-process, no socket), its lobby
  pushed until its first frame (the seats, the options, the chat);
* **baseline** — a trivial Textual app (Header, Static, Footer) pushing a screen of the
  same three widgets on a key, timed the same way.

The clock starts as the key is posted (the push, for the lobby) and stops when the frame
that shows the new screen is handed to the terminal (headless Textual skips writing it:
the benchmark renders the frame's segments itself, as the terminal driver would). It
measures the CPU time of the app's thread (``time.thread_time``: whatever else the
machine runs) and the wall clock, with the garbage collector run just before each
(a collection falling inside one run or not would make the spread). Prints the median
and p90 of each, in ms.

    .venv/bin/python scripts/bench_screens.py [--runs 15] [--size 120x40]

A before/after pair: check the older revision out in a worktree and run this same
script with that tree first on ``PYTHONPATH``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import BindingType
from textual.screen import Screen
from textual.widgets import Footer, Header, Static


class Clock:
    """When the opening began, and the first frame of the screen it waits for."""

    def __init__(self) -> None:
        self.target: type[Screen[Any]] | None = None
        self.started = self.cpu_started = 0.0
        self.wall = self.cpu = 0.0
        self.framed = asyncio.Event()

    def start(self, target: type[Screen[Any]]) -> None:
        gc.collect()
        self.target, self.wall, self.cpu = target, 0.0, 0.0
        self.framed.clear()
        self.started, self.cpu_started = time.perf_counter(), time.thread_time()


def hook_frames(app: App[Any], clock: Clock) -> None:
    """Stop the clock at the first frame of the screen it waits for, rendered to text."""
    display = app._display

    def timed_display(screen: Any, renderable: Any) -> None:
        display(screen, renderable)
        if (renderable is not None and clock.target is not None
                and isinstance(screen, clock.target) and not clock.framed.is_set()):
            render = getattr(renderable, "render_segments", None)
            if render is not None:
                render(app.console)
            clock.cpu = time.thread_time() - clock.cpu_started
            clock.wall = time.perf_counter() - clock.started
            clock.framed.set()

    app._display = timed_display  # type: ignore[method-assign]


class TrivialScreen(Screen[None]):
    """The baseline's screen: a header, one line of text and a footer."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("a trivial screen")
        yield Footer()


class TrivialApp(App[None]):
    """The baseline: the same three widgets, and a key that pushes a screen of them."""

    BINDINGS: ClassVar[list[BindingType]] = [("s", "open", "Open")]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("a trivial app")
        yield Footer()

    def action_open(self) -> None:
        self.push_screen(TrivialScreen())


async def timed(app: App[Any], size: tuple[int, int], clock: Clock,
                target: type[Screen[Any]],
                open_it: Callable[[Any], Awaitable[None]]) -> tuple[float, float]:
    """Run ``app``; once idle, open the screen and time it to its first frame."""
    async with app.run_test(size=size) as pilot:
        hook_frames(app, clock)
        await pilot.pause()
        await open_it(pilot)
        await asyncio.wait_for(clock.framed.wait(), 30)
        return clock.cpu * 1000, clock.wall * 1000


def local_app() -> Any:
    """The app as a player runs it, its host and its announcements on loopback only."""
    from tui.app import HiddenHandApp
    from tui.settings import Settings

    return HiddenHandApp(Settings(name="Ann", mdns_interfaces=["127.0.0.1"]), bind="127.0.0.1")


async def run_key(app: App[Any], target: type[Screen[Any]],
                  size: tuple[int, int]) -> tuple[float, float]:
    """Time the key ``s`` of ``app`` to the first frame of ``target``."""
    clock = Clock()

    async def open_it(pilot: Any) -> None:
        clock.start(target)
        await pilot.press("s")

    return await timed(app, size, clock, target, open_it)


async def run_setup(size: tuple[int, int]) -> tuple[float, float]:
    from tui.screens.setup import SetupScreen

    return await run_key(local_app(), SetupScreen, size)


async def run_lobby(size: tuple[int, int]) -> tuple[float, float]:
    from tui.screens.lobby import LobbyScreen
    from tui.session import Session

    clock = Clock()
    app = local_app()

    async def open_it(pilot: Any) -> None:
        host = await app.hosting.start(port=None)
        session = Session("Ann", host=host)
        await session.connect()
        await session.create("Ann's table", "getout", 4, {})
        app.attach(session)
        clock.start(LobbyScreen)
        await app.push_screen(LobbyScreen(session))

    return await timed(app, size, clock, LobbyScreen, open_it)


async def run_baseline(size: tuple[int, int]) -> tuple[float, float]:
    return await run_key(TrivialApp(), TrivialScreen, size)


TARGETS: dict[str, Callable[[tuple[int, int]], Awaitable[tuple[float, float]]]] = {
    "setup": run_setup, "lobby": run_lobby, "baseline": run_baseline}


def parse_size(text: str) -> tuple[int, int]:
    try:
        cols, rows = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not COLSxROWS: {text!r}") from None
    if cols < 20 or rows < 10:
        raise argparse.ArgumentTypeError(f"too small a terminal: {text!r}")
    return cols, rows


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"at least 1: {text!r}")
    return value


def p90(values: list[float]) -> float:
    return sorted(values)[max(0, round(0.9 * len(values)) - 1)]


async def run(args: argparse.Namespace) -> None:
    results: dict[str, list[tuple[float, float]]] = {name: [] for name in TARGETS}
    for _ in range(args.runs + 1):  # the first round warms the imports up: not counted
        for name, target in TARGETS.items():
            results[name].append(await target(args.size))
    print(f"{args.runs} runs each at {args.size[0]}x{args.size[1]}: open → first frame, ms")
    print(f"  {'':10} {'CPU p50':>8} {'p90':>7} {'wall p50':>9} {'p90':>7}")
    for name, pairs in results.items():
        cpu, wall = [c for c, _ in pairs[1:]], [w for _, w in pairs[1:]]
        print(f"  {name:10} {statistics.median(cpu):8.1f} {p90(cpu):7.1f} "
              f"{statistics.median(wall):9.1f} {p90(wall):7.1f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=positive, default=15)
    parser.add_argument("--size", type=parse_size, default=(120, 40), help="COLSxROWS")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as home:
        # No settings or journals of the user's: every run is a first start.
        os.environ["HIDDENHAND_CONFIG_DIR"] = os.path.join(home, "config")
        os.environ["HIDDENHAND_DATA_DIR"] = os.path.join(home, "data")
        asyncio.run(run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())

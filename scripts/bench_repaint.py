"""Benchmark repaint: a view update reaching a table screen → that screen repainted.

For every game in ``tui.games.TABLES`` the real app runs headless (``App.run_test``,
``--size``) with a solo table of ``--seats`` seats, exactly as ``hiddenhand solo``
opens it. Once the table screen shows its first view the bots are stopped (their seats
keep their places; ``bot`` is cleared) and the benchmark plays every seat itself
through the in-process host: ``Table.act(seat, action)``, the path a bot's or a
player's move takes, which pushes each seat its update. Actions are random-legal,
seeded, and chosen so the round goes on (an action that would end the round is tried
on a restored copy of the game first and skipped): the screen sees a long stream of
ordinary updates, not a summary dialog. Get It! is played untimed unless ``--timer``
says otherwise.

Per update it measures, on the app's own event loop:

* **show** — the table screen's ``watch_update`` (the update passed down to the
  widgets), from the moment the screen receives the update;
* **to frame** — from the screen receiving the update to the end of the next frame:
  layout, compositor and the frame rendered to terminal text (headless Textual skips
  writing to a terminal; the benchmark renders the frame's segments itself, as the
  terminal driver would, so that cost is in), *including* Textual's frame pacing: a
  screen repaints at most ``MAX_FPS`` (60) times a second, so up to 1/60 s of the wait
  is Textual waiting for its next frame, not work;
* **work** — "to frame" less the time the event loop sat idle in ``select`` meanwhile
  (the frame pacing, mostly): what the update costs the app, in wall-clock time (so it
  also holds the time other processes had the CPU: on a busy machine its tail grows);
* **cpu** — the CPU time the app's thread spent from receiving the update to the frame
  (``time.thread_time``): the same cost, whatever else the machine runs.

Each game runs twice, with the same seeded moves:

* **back to back** — the next move is made as soon as the last update's frame is out.
  That meets Textual's frame pacing on nearly every update (the frame timer is still
  asleep until its next 1/60 s tick), so even the trivial app's p99 "to frame" is close
  to 1/60 s: a stress figure, not what a player meets.
* **paced as in play** — moves come no sooner than the game's least spacing between
  moves in the code (:data:`SPACING`), plus a random phase of up to one frame (1/60 s)
  against the frame timer's grid: each move is made ``spacing + U(0, 1/60)`` seconds
  after the one before. A player meets the frame pacing only when something else drew a
  frame just before.

``--keys N`` times, for Get It!, N pairs of keys of the app's own player too: a look at a seat
(its number), then a stop (``0``), each posted to the app as the terminal's key and
timed from there to the end of its frame. That is a player's own key reaching their own
screen: the signal is drawn before the host answers, and a look changes the footer's
keys, the line under our pile and the card looked at (at opposite ends of the screen,
so the frame draws again every widget between). Other seats' looks come between (an
update each), and the round stays in play.

The baseline in the same run is a trivial Textual app (Header, Static, Footer) whose
Static gets a new text for every update, timed the same way (paced at the least spacing
of the games run). Prints p50 and p99 in ms per game and for the baseline. A game whose
table cannot be set up is reported and skipped.

``--gc off`` runs the tables without the garbage-collector tuning of ``tui.gc_tuning``;
``--gc both`` runs each table with it and then without it, in the same run, to tell
whether the tuning earns its place.

    .venv/bin/python scripts/bench_repaint.py [--updates 300] [--paced N] [--seats 4]
                                              [--seed 1] [--size 120x40]
                                              [--games getout,getit] [--spacing S]
                                              [--gc on|off|both] [--keys 100]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any, cast

OPTIONS: dict[str, dict[str, Any]] = {"getit": {"timer": 0}}
#: The least time between two moves of a real game, seconds, as the code paces them.
#: GET OUT! and Got Five! are turn-based: a bot waits ``bot_delay`` after each of its
#: moves (``net/table.py`` ``Table.move_bots``); the least default of any command is
#: ``hiddenhand host --bot-delay`` 0.6 s (``hiddenhand solo`` and SSH tables: 0.7 s).
#: Get It!'s bots pace themselves: ``GetItBot.motor`` (0.1 s) is the least time between
#: two actions of one bot (after a reaction time of 0.35 +- 0.15 s to what they saw).
#: Not modelled: two updates inside one frame (a person's move and the next bot's
#: answer, which comes at once; two Get It! bots acting together) share that frame.
SPACING = {"getout": 0.6, "gotfive": 0.6, "getit": 0.1}
#: Spacing for a game not in :data:`SPACING`.
DEFAULT_SPACING = 0.6
#: Actions with free content the benchmark fills in; others with free content are skipped.
FREE = {"arrange", "say", "announce", "mark"}


class Clock:
    """Timestamps of one update's way through the app, filled in by the hooks."""

    def __init__(self) -> None:
        self.received: float | None = None
        self.shown: float | None = None
        self.framed: float | None = None
        #: The app thread's CPU time (``time.thread_time``) at ``received`` and ``framed``.
        self.cpu_received = self.cpu_framed = 0.0
        #: Seconds the event loop sat waiting (in ``select``) since ``received``.
        self.idle = 0.0
        #: Set at the frame: waited on while an update is timed, where the pilot's
        #: ``pause`` would post a message to every widget of the screen on every turn of
        #: the wait and count that work in the update's.
        self.frame = asyncio.Event()

    def reset(self) -> None:
        """Forget the last update's timestamps."""
        self.received = self.shown = self.framed = None
        self.idle = 0.0
        self.frame.clear()

    async def framed_within(self, seconds: float = 10.0) -> bool:
        """Wait for the frame (at most ``seconds``)."""
        try:
            await asyncio.wait_for(self.frame.wait(), seconds)
        except TimeoutError:
            return False
        return True

    def work(self) -> float:
        """From receiving the update to its frame, less the time the loop sat idle."""
        assert self.received is not None and self.framed is not None
        return self.framed - self.received - self.idle


def hook_idle(clock: Clock) -> None:
    """Count the time the running loop waits in ``select`` while an update is on its way."""
    selector = asyncio.get_running_loop()._selector  # type: ignore[attr-defined]
    select = selector.select

    def timed_select(timeout: float | None = None) -> Any:
        start = time.perf_counter()
        try:
            return select(timeout)
        finally:
            if clock.received is not None and clock.framed is None:
                clock.idle += time.perf_counter() - max(start, clock.received)

    selector.select = timed_select


def hook_frames(app: Any, clock: Clock) -> None:
    """Time the screen's frame timer and render every frame to terminal text."""
    display = app._display

    def timed_display(screen: Any, renderable: Any) -> None:
        display(screen, renderable)
        if renderable is not None and clock.received is not None and clock.framed is None:
            render = getattr(renderable, "render_segments", None)
            if render is not None:
                render(app.console)
            clock.framed = time.perf_counter()
            clock.cpu_framed = time.thread_time()
            clock.frame.set()

    app._display = timed_display


def hook_screen(screen: Any, clock: Clock) -> None:
    """Time ``watch_update`` of ``screen``."""
    watch = screen.watch_update

    def timed_watch(msg: Any) -> None:
        clock.received = time.perf_counter()
        clock.cpu_received = time.thread_time()
        watch(msg)
        clock.shown = time.perf_counter()

    screen.watch_update = timed_watch


def pick(game: Any, rng: random.Random, me: int | None = None
         ) -> tuple[int, dict[str, Any]] | None:
    """A random-legal action of some seat that keeps the round going and changes what
    the app's seat sees, or ``None``. For
    the app's own seat ``me``, only what its keys can do: a Get It! smile or look past
    goes to the seat it looks at (sent elsewhere, nothing on a small screen shows it)."""
    import engine
    from engine.getit import GetIt, arrangement

    moves = []
    for seat in range(game.seats):
        looks_at, mine = None, {}
        if seat == me and isinstance(game, GetIt):
            mine = game.view(seat)["signals"][seat]
            looks_at = mine["look"]
        for action in game.legal_actions(seat):
            kind = action["type"]
            if kind == "arrange":
                hand = game.view(seat)["hand"]
                moves.append((seat, {"type": "arrange", "pile": arrangement(hand, rng)}))
            elif seat == me and kind in ("smile", "look_past") and (
                    action.get("target") not in (None, looks_at)
                    # (Ending one aimed at a seat we no longer look at shows nowhere.)
                    or (action.get("target") is None and mine.get(kind) != looks_at)):
                continue
            elif action["type"] not in FREE:
                moves.append((seat, dict(action)))
    rng.shuffle(moves)
    phase = game.view(None)["phase"]
    for seat, action in moves:
        probe = engine.restore(game.snapshot())
        probe.act(seat, dict(action), now=game.now)
        after = probe.view(None)["phase"]
        if me is not None and probe.view(me) == game.view(me):
            continue  # (nothing for the screen to draw: it draws no frame, rightly)
        # Keep the round going: any move but one that ends it (Got Five!'s turn goes
        # from "reveal" to "clue" and back within a round).
        if after == phase or phase == "prepare" or after not in ("round_over", "over"):
            return seat, action
    return None


def summary(values: list[float]) -> str:
    """p50 and p99 of ``values`` (seconds) in ms."""
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return f"{statistics.median(ordered) * 1000:>7.2f} {p99 * 1000:>7.2f}"


async def settle(pilot: Any, done: Callable[[], bool], steps: int = 500) -> bool:
    """Let the app run until ``done()`` (bounded in steps)."""
    for _ in range(steps):
        if done():
            return True
        await pilot.pause()
    return done()


class Pacer:
    """Holds each move back until ``spacing`` plus a random phase (up to one frame) after
    the one before; ``spacing`` ``None``: no wait (back to back)."""

    def __init__(self, spacing: float | None, seed: int) -> None:
        self.spacing = spacing
        self.rng = random.Random(seed)
        self.last: float | None = None

    async def wait(self) -> None:
        """Return once the next move is due."""
        if self.spacing is None:
            return
        now = time.perf_counter()
        if self.last is not None:
            due = self.last + self.spacing + self.rng.uniform(0, 1 / FPS)
            if due > now:
                await asyncio.sleep(due - now)
        self.last = time.perf_counter()


#: Textual's frame rate cap (``TEXTUAL_FPS``, default 60).
FPS = int(os.environ.get("TEXTUAL_FPS", "60") or 60)


async def bench_table(game_id: str, args: argparse.Namespace, updates: int,
                      spacing: float | None, gc_tuning: bool = True) -> dict[str, list[float]]:
    """Drive one solo table through ``updates`` updates (moves ``spacing`` seconds apart
    plus a random phase, or back to back for ``None``), with or without the table's
    garbage-collector tuning; the three timings."""
    from tui import gc_tuning as tuning
    from tui.app import HiddenHandApp
    from tui.games.screens import screen_class
    from tui.screens.table import TableScreen
    from tui.settings import Settings

    tuning.set_table_tuning(gc_tuning)

    cls = screen_class(game_id)
    app = HiddenHandApp(Settings(name="Bench", mdns_interfaces=["127.0.0.1"]),
                        bind="127.0.0.1", bot_delay=0.05,
                        solo={"game_id": game_id, "seats": args.seats,
                              "options": OPTIONS.get(game_id, {})})
    clock = Clock()
    out: dict[str, list[float]] = {"show": [], "to frame": [], "work": [], "cpu": []}
    rng = random.Random(args.seed)
    async with app.run_test(size=args.size) as pilot:
        if not await settle(pilot, lambda: isinstance(app.screen, cls)
                            and app.screen.update is not None and app.hosting.host is not None):
            raise RuntimeError("the table screen never showed a view")
        screen = app.screen
        assert isinstance(screen, TableScreen) and app.hosting.host is not None
        (table,) = app.hosting.host.tables.values()
        for seat in table.seats:
            if seat.kind == "bot":
                seat.bot = None
        await pilot.pause()
        hook_idle(clock)
        hook_frames(app, clock)
        hook_screen(screen, clock)
        pacer = Pacer(spacing, args.seed)
        me = screen.my_seat
        for _ in range(updates):
            if app.screen is not screen:
                break
            move = pick(table.game, rng, me)
            if move is None:
                break
            await pacer.wait()
            clock.reset()
            app.hosting.host.act(table, *move)
            if not await clock.framed_within():
                raise RuntimeError(f"an update was never painted: {move}")
            assert clock.received and clock.shown and clock.framed
            out["show"].append(clock.shown - clock.received)
            out["to frame"].append(clock.framed - clock.received)
            out["work"].append(clock.work())
            out["cpu"].append(clock.cpu_framed - clock.cpu_received)
    return out


async def bench_keys(args: argparse.Namespace, keys: int) -> dict[str, list[float]]:
    """Get It!: the app's own look and stop keys → own frame (see ``--keys``)."""
    from textual import events

    from tui.app import HiddenHandApp
    from tui.games.screens import screen_class
    from tui.settings import Settings

    cls = screen_class("getit")
    app = HiddenHandApp(Settings(name="Bench", mdns_interfaces=["127.0.0.1"]),
                        bind="127.0.0.1", bot_delay=0.05,
                        solo={"game_id": "getit", "seats": args.seats,
                              "options": OPTIONS["getit"]})
    clock = Clock()
    out: dict[str, list[float]] = {"to frame": [], "work": [], "cpu": []}
    rng = random.Random(args.seed)
    async with app.run_test(size=args.size) as pilot:
        if not await settle(pilot, lambda: isinstance(app.screen, cls)
                            and app.screen.update is not None and app.hosting.host is not None):
            raise RuntimeError("the table screen never showed a view")
        screen, host = app.screen, app.hosting.host
        assert host is not None
        (table,) = host.tables.values()
        for seat in table.seats:
            if seat.kind == "bot":
                seat.bot = None
        me = screen.my_seat
        # Preparation: every seat arranges (ours through the host too).
        while table.game.view(None)["phase"] == "prepare":
            move = pick(table.game, rng)
            if move is None:
                raise RuntimeError("preparation never ended")
            host.act(table, *move)
            await pilot.pause()
        if not await settle(pilot, lambda: screen.view.get("phase") == "play"):
            raise RuntimeError("the round never showed")
        hook_idle(clock)
        hook_frames(app, clock)
        others = [s for s in range(args.seats) if s != me]
        for _ in range(keys):
            for key in (str(rng.choice(others) + 1), "0"):
                await asyncio.sleep(SPACING["getit"] + rng.uniform(0, 1 / FPS))
                clock.reset()
                clock.received = time.perf_counter()
                clock.cpu_received = time.thread_time()
                app.post_message(events.Key(key, key))
                if not await clock.framed_within():
                    raise RuntimeError(f"key {key} was never painted")
                out["to frame"].append(cast(float, clock.framed) - clock.received)
                out["work"].append(clock.work())
                out["cpu"].append(clock.cpu_framed - clock.cpu_received)
            # Another seat looks at someone, then stops: the round's traffic between.
            seat = rng.choice(others)
            for target in (rng.choice([s for s in range(args.seats) if s != seat]), None):
                await asyncio.sleep(SPACING["getit"])
                host.act(table, seat, {"type": "look", "target": target})
                await pilot.pause()
    return out


async def bench_baseline(args: argparse.Namespace, updates: int,
                         spacing: float | None) -> dict[str, list[float]]:
    """The trivial app: a Static's new text → frame, timed like a table."""
    from textual.app import App, ComposeResult
    from textual.widgets import Footer, Header, Static

    class Trivial(App[None]):
        def compose(self) -> ComposeResult:
            yield Header()
            yield Static("", id="text")
            yield Footer()

    app = Trivial()
    clock = Clock()
    out: dict[str, list[float]] = {"show": [], "to frame": [], "work": [], "cpu": []}
    async with app.run_test(size=args.size) as pilot:
        await pilot.pause()
        hook_idle(clock)
        hook_frames(app, clock)
        static = app.query_one("#text", Static)
        pacer = Pacer(spacing, args.seed)
        for i in range(updates):
            await pacer.wait()
            clock.reset()
            clock.received = time.perf_counter()
            clock.cpu_received = time.thread_time()
            static.update(f"update {i}: " + "x" * (i % 50))
            clock.shown = time.perf_counter()
            if not await clock.framed_within():
                raise RuntimeError("the trivial app never painted")
            assert clock.framed is not None
            out["show"].append(clock.shown - clock.received)
            out["to frame"].append(clock.framed - clock.received)
            out["work"].append(clock.work())
            out["cpu"].append(clock.cpu_framed - clock.cpu_received)
    return out


async def run(args: argparse.Namespace) -> int:
    """Every table back to back and paced, then the baseline; print the figures."""
    from tui.games import TABLES

    games = [g for g in (args.games.split(",") if args.games else TABLES) if g]
    modes: list[tuple[str, int, Callable[[str], float | None]]] = [
        ("back to back", args.updates, lambda game: None)]
    if args.paced:
        modes.append(("paced as in play", args.paced,
                      lambda game: args.spacing if args.spacing is not None
                      else SPACING.get(game, DEFAULT_SPACING)))
    results: dict[str, dict[str, list[float]]] = {}
    for mode, updates, spacing_of in modes:
        counts = []
        for game_id in games:
            if game_id not in TABLES:
                if mode == modes[0][0]:
                    print(f"{game_id}: the app has no table screen for it; skipped")
                continue
            spacing = spacing_of(game_id)
            name = game_id if spacing is None else f"{game_id}, {spacing:g} s apart"
            for tuned in {"on": [True], "off": [False], "both": [True, False]}[args.gc]:
                label = name if args.gc == "on" else f"{name}, gc tuning {'on' if tuned else 'off'}"
                try:
                    results[f"{mode}|{label}"] = r = await bench_table(game_id, args, updates,
                                                                       spacing, tuned)
                    counts.append(len(r["show"]))
                except Exception as exc:  # a table that cannot be set up is reported
                    print(f"{game_id}: could not be benchmarked ({type(exc).__name__}: "
                          f"{exc}); skipped")
        spacings = [s for s in (spacing_of(g) for g in games if g in TABLES) if s is not None]
        spacing = min(spacings) if spacings else None
        name = "baseline: trivial app" + ("" if spacing is None else f", {spacing:g} s apart")
        results[f"{mode}|{name}"] = await bench_baseline(args, max(counts or [updates]),
                                                         spacing)
    if args.keys and "getit" in games and "getit" in TABLES:
        mode = "the app's own keys (Get It! look, stop), key -> own frame"
        try:
            results[f"{mode}|getit, {args.seats} seats"] = r = await bench_keys(args, args.keys)
            results[f"{mode}|baseline: trivial app"] = await bench_baseline(
                args, len(r["cpu"]), SPACING["getit"])
        except Exception as exc:  # reported, as a table that cannot be set up
            print(f"getit keys: could not be benchmarked ({type(exc).__name__}: {exc})")
    print(f"{'':<52} {'n':>5}  {'show p50':>8} {'p99':>7}  {'to frame p50':>12} {'p99':>7}"
          f"  {'work p50':>8} {'p99':>7}  {'cpu p50':>8} {'p99':>7}   (ms)")
    shown_mode = None
    for key, r in results.items():
        mode, name = key.split("|", 1)
        if mode != shown_mode:
            print(f"{mode}:")
            shown_mode = mode
        if not r["cpu"]:
            print(f"  {name:<50} no update reached the screen; skipped")
            continue
        shown = summary(r["show"]) if "show" in r else f"{'-':>7} {'-':>7}"
        print(f"  {name:<50} {len(r['cpu']):>5}  {shown}  "
              f"     {summary(r['to frame'])}  {summary(r['work'])}  {summary(r['cpu'])}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments and run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--updates", type=int, default=300,
                        help="updates per table back to back (default 300)")
    parser.add_argument("--paced", type=int, default=None,
                        help="updates per table paced as in play (default: --updates; 0: none)")
    parser.add_argument("--spacing", type=float, default=None,
                        help="seconds between paced moves (default: each game's least, "
                             "see SPACING)")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", default="120x40", help="terminal COLSxROWS")
    parser.add_argument("--games", default="", help="comma-separated (default: every table)")
    parser.add_argument("--keys", type=int, default=100,
                        help="Get It!: pairs of the app's own look and stop keys to time "
                             "(default 100; 0: none)")
    parser.add_argument("--timer", type=int, default=0, metavar="SECONDS",
                        help="Get It!'s round timer (default 0: untimed); a timed round "
                             "must outlast the run: every update brings its reading")
    parser.add_argument("--gc", choices=("on", "off", "both"), default="on",
                        help="the tables' garbage-collector tuning: on (default), off, or "
                             "both in turn, in the same run")
    args = parser.parse_args(argv)
    if args.paced is None:
        args.paced = args.updates
    if args.updates < 0 or args.paced < 0 or args.keys < 0:
        parser.error("--updates, --paced and --keys must not be negative")
    if not 0 <= args.timer <= 3600:
        parser.error(f"--timer must be 0 to 3600 seconds, not {args.timer}")
    OPTIONS["getit"]["timer"] = args.timer
    if args.spacing is not None and not 0 <= args.spacing <= 60:
        parser.error(f"--spacing must be 0 to 60 seconds, not {args.spacing}")
    try:
        cols, rows = (int(x) for x in args.size.lower().split("x"))
    except ValueError:
        parser.error(f"--size must look like 120x40, not {args.size!r}")
    args.size = (cols, rows)
    # A scratch dir, removed when the run ends (unless the caller named one).
    scratch = tempfile.TemporaryDirectory(prefix="hh-repaint-")
    os.environ.setdefault("HIDDENHAND_CONFIG_DIR", scratch.name)
    # The app's host journals every game: into the scratch dir, not the player's data dir.
    os.environ.setdefault("HIDDENHAND_DATA_DIR", os.environ["HIDDENHAND_CONFIG_DIR"])
    os.environ.setdefault("HIDDENHAND_MDNS_INTERFACES", "127.0.0.1")
    print("command:", " ".join([os.path.relpath(sys.argv[0]), *(argv or sys.argv[1:])]))
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"terminal {cols}x{rows}; {args.seats} seats")
    with scratch:
        return asyncio.run(run(args))


if __name__ == "__main__":
    raise SystemExit(main())

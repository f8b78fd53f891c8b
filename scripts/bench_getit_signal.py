"""How fast a Get It! signal reaches the other players' screens.

Four headless app instances, each in its own process as on four laptops, sit at one
Get It! table on a host listening on 127.0.0.1 (TCP, as at a LAN party). One player
presses a look key (the digit of another player); the time is taken until every other
player's screen has drawn that look on the player's seat card. Beside it, in the same
run, the baseline: the same signal sent by a plain ``net.client.Client`` and received as
an ``update`` by three other plain clients (the host and the wire, no screen), so the
screens' share can be read off directly. Times come from the machine's monotonic clock,
which every process here shares.

Run: ``.venv/bin/python scripts/bench_getit_signal.py [--signals 200]``
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchstats import percentile  # noqa: E402  (scripts/ is on the path)

from net.client import Client  # noqa: E402
from net.host import Host  # noqa: E402

#: The run's scratch directory, kept alive until the run ends.
SCRATCH: list[tempfile.TemporaryDirectory[str]] = []
PLAYERS = 4
#: Seconds between two key presses of the signalling player.
GAP = 0.15


def report(name: str, samples: list[float]) -> None:
    ms = [s * 1000 for s in samples]
    print(f"{name:<48} n={len(ms):4d}  p50 {statistics.median(ms):7.2f} ms  "
          f"p99 {percentile(ms, 0.99):7.2f} ms  max {max(ms):7.2f} ms")


def target_of(me: int, i: int) -> int:
    """The seat the signalling player looks at with its ``i``-th key press."""
    return (me + 1 + i % (PLAYERS - 1)) % PLAYERS


# --------------------------------------------------------------------------- baseline


async def arrange(client: Client) -> None:
    """Confirm the dealt hand as it is (numbers ascending, specials after them)."""
    msg = await client.wait_for(lambda m: m.get("type") == "update" and m.get("view")
                                and {"type": "arrange"} in m["legal"])
    await client.act({"type": "arrange", "pile": [c["id"] for c in msg["view"]["hand"]]})


async def baseline(port: int, signals: int) -> list[float]:
    """Signal by a plain client → the update held by three plain clients."""
    creator = await Client.connect("127.0.0.1", port, name="P1")
    joined = await creator.create_table("baseline", "getit", PLAYERS, {"timer": 0})
    others = [await Client.connect("127.0.0.1", port, name=f"P{i}")
              for i in range(2, PLAYERS + 1)]
    for other in others:
        await other.join(joined.table)
        await other.ready()
    await creator.start()
    everyone = [creator, *others]
    await asyncio.gather(*(arrange(c) for c in everyone))
    for c in everyone:
        await c.wait_for(lambda m: m.get("type") == "update" and bool(m.get("view"))
                         and m["view"]["phase"] == "play")
    samples = []
    for i in range(signals):
        target = target_of(0, i)
        for c in others:
            c.pending()
        await asyncio.sleep(GAP)  # (a person's pace, as the apps' keys: the host holds
        # signals to one, 10 a second)
        t0 = time.monotonic()
        await creator.act({"type": "look", "target": target})

        async def seen(c: Client, target: int = target) -> float:
            await c.wait_for(lambda m: m.get("type") == "update" and bool(m.get("view"))
                             and m["view"]["signals"][0]["look"] == target)
            return time.monotonic()

        samples.append(max(await asyncio.gather(*(seen(c) for c in others))) - t0)
    for c in everyone:
        await c.close()
    return samples


# --------------------------------------------------------------------------- one app


async def worker(port: int, table: str, index: int, token: str | None, signals: int) -> None:
    """One player's app: join, play the round's start, then press keys or watch.

    Prints ``READY seat names`` once in the round, ``PRESS target t`` for each key press
    (player 0) and ``DRAWN seat t whom`` each time a seat card is drawn with a look on it.
    """
    from tui.app import HiddenHandApp
    from tui.games.getit.screen import GetItScreen
    from tui.games.getit.seatcard import SeatCard
    from tui.screens.lobby import LobbyScreen
    from tui.session import Session
    from tui.settings import Settings

    original = SeatCard._paint

    def paint(self: SeatCard, **state: Any) -> None:
        original(self, **state)
        for line in state["lines"]:
            if line.startswith("looks at "):
                print(f"DRAWN {self.seat} {time.monotonic()} {line.removeprefix('looks at ')}",
                      flush=True)

    SeatCard._paint = paint  # type: ignore[method-assign]
    app = HiddenHandApp(Settings(name=f"A{index}"))

    async def until(condition: Any, what: str) -> None:
        for _ in range(3000):
            if condition():
                return
            await asyncio.sleep(0.005)
        raise TimeoutError(f"app {index}: never {what}")

    async with app.run_test(size=(110, 34)) as pilot:
        session = Session(f"A{index}", address=("127.0.0.1", port))
        await session.connect()
        await session.join(table, 0 if token else None, token=token)
        app.attach(session)
        await app.push_screen(LobbyScreen(session))
        if index:
            await session.request("ready", True)
        else:
            def full() -> bool:
                seats = (session.latest or {}).get("table", {}).get("seats", [])
                return len(seats) == PLAYERS and all(
                    s["kind"] == "human" and s["connected"] and (s["ready"] or s["seat"] == 0)
                    for s in seats)

            await until(full, "saw a full table")
            await session.request("start")
        await until(lambda: isinstance(app.screen, GetItScreen) and app.screen.can("arrange"),
                    "was dealt")
        screen = app.screen
        assert isinstance(screen, GetItScreen)
        screen.action_done()
        await until(lambda: screen.view.get("phase") == "play", "saw the round")
        print(f"READY {screen.my_seat} {json.dumps(screen.names)}", flush=True)
        if index == 0:
            await asyncio.sleep(1.0)  # every screen settled
            me = screen.my_seat
            assert me is not None
            for i in range(signals):
                print(f"PRESS {target_of(me, i)} {time.monotonic()}", flush=True)
                await pilot.press(str(target_of(me, i) + 1))
                await asyncio.sleep(GAP)
            print("DONE", flush=True)
        else:
            await asyncio.sleep(3600)  # the controller ends us


async def with_screens(port: int, signals: int) -> list[float]:
    """Four app processes; player 0 presses; the others' draw times are matched up."""
    creator = await Client.connect("127.0.0.1", port, name="A0")
    joined = await creator.create_table("screens", "getit", PLAYERS, {"timer": 0})
    token = joined.token
    await creator.close()  # the seat stays; app 0 takes it back with the token
    procs = []
    for index in range(PLAYERS):
        args = [sys.executable, __file__, "--worker", str(index), "--port", str(port),
                "--table", joined.table, "--signals", str(signals)]
        if index == 0 and token:
            args += ["--token", token]
        procs.append(await asyncio.create_subprocess_exec(
            *args, stdout=asyncio.subprocess.PIPE, cwd=ROOT))
    presses: list[tuple[int, float]] = []
    drawn: dict[int, list[tuple[str, float]]] = {i: [] for i in range(1, PLAYERS)}
    seats: dict[int, int] = {}
    names: dict[int, list[str]] = {}
    done = asyncio.Event()

    async def read(index: int) -> None:
        stream = procs[index].stdout
        assert stream is not None
        async for raw in stream:
            line = raw.decode().strip()
            kind, _, rest = line.partition(" ")
            if kind == "READY":
                seat, _, who = rest.partition(" ")
                seats[index], names[index] = int(seat), json.loads(who)
            elif kind == "PRESS":
                target, t = rest.split(" ")
                presses.append((int(target), float(t)))
            elif kind == "DRAWN" and index:
                seat, t, whom = rest.split(" ", 2)
                if int(seat) == seats.get(0):
                    drawn[index].append((whom, float(t)))
            elif kind == "DONE":
                done.set()

    readers = [asyncio.create_task(read(i)) for i in range(PLAYERS)]
    await asyncio.wait_for(done.wait(), timeout=60 + signals * (GAP + 1))
    await asyncio.sleep(0.5)  # the last draws
    for proc in procs:
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.terminate()
    await asyncio.gather(*(p.wait() for p in procs))
    for reader in readers:
        reader.cancel()
    me = seats[0]
    samples = []
    for target, t0 in presses:
        worst = 0.0
        for index in range(1, PLAYERS):
            whom = "YOU" if seats[index] == target else f"{target + 1} {names[index][target]}"
            later = [t for text, t in drawn[index] if t >= t0 and text == whom]
            if not later:
                raise RuntimeError(f"app {index} never drew seat {me + 1} looking at {whom}")
            worst = max(worst, min(later) - t0)
        samples.append(worst)
    return samples


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--signals", type=int, default=200, help="signals to time (200)")
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--table", help=argparse.SUPPRESS)
    parser.add_argument("--token", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.signals < 1:
        parser.error("--signals must be at least 1")
    if "HIDDENHAND_CONFIG_DIR" not in os.environ:  # (a worker has its parent's)
        # Removed as the run ends (its finalizer runs at exit).
        scratch = tempfile.TemporaryDirectory(prefix="hh-bench-")
        SCRATCH.append(scratch)
        os.environ["HIDDENHAND_CONFIG_DIR"] = scratch.name
    # Journals of the host's games go there too, not into the player's data dir.
    os.environ.setdefault("HIDDENHAND_DATA_DIR", os.environ["HIDDENHAND_CONFIG_DIR"])
    if args.worker is not None:
        await worker(args.port, args.table, args.worker, args.token, args.signals)
        return
    print(f"Get It! signal latency, {PLAYERS} players on 127.0.0.1, each app in its own "
          f"process (python {sys.version.split()[0]}, {os.cpu_count()} cores)")
    print(f"command: .venv/bin/python scripts/bench_getit_signal.py --signals {args.signals}")
    async with Host("bench host") as host:
        await host.start("127.0.0.1", 0)
        base = await baseline(host.port, args.signals)
        screens = await with_screens(host.port, args.signals)
    report("baseline: client act -> 3 clients hold update", base)
    report("key in one app -> 3 other apps drew it", screens)
    print(f"screens' cost at p50: {statistics.median(screens) / statistics.median(base):.1f}x "
          "the baseline")


if __name__ == "__main__":
    asyncio.run(main())

"""Benchmark a box with both doors full of players: visitors at once, each at a live table.

Runs a real box in its own process, as an operator does (``hiddenhand ssh-serve --open
--web-port 0`` on 127.0.0.1), then seats visitors in groups of six — three browser tabs
(the web door's websocket, as textual-serve's page script speaks it) and three SSH
logins — at Get It! tables of six, no bots, untimed rounds (``timer=0``) so that every
round keeps running. Each group's first visitor opens its table through the app's own
keys; the other five join it (a click on it in the list), everyone says ready, the
creator starts, everyone passes the pile on, and the round runs.

Visitors come in steps (``--steps 1,4,8`` groups: 6, 24 and 48 visitors). At each step
every seated visitor signals at a person's pace (a look at a seat, then stop, ``--pace``
seconds a pair on average) for ``--seconds``, and for every key the time until its own
screen shows the new signal is recorded. A visitor waits for its key to show, then thinks
for a random time before the next (exponential, mean ``--pace / 2``), as people do not
press keys on a beat: with a fixed time (``--think steady``) the visitors fall into step —
a key held up by a busy moment sets its visitor's next key at the end of that moment, with
everyone else's held up there — and the box meets every key of the room at once. Per step it prints:

- connect → first frame (the menu drawn) for the visitors that came in at that step;
- keystroke → own screen, p50 and p99, per door;
- keystroke → each table-mate's screen (their card of the visitor shows the look, or
  no longer shows it), p50 and p99: the signal reaching the others, as they see it;
- memory per visitor app (PSS, from /proc) and CPU per visitor (apps' CPU time over the
  step's wall time), and the box process's own CPU;
- how late this script's own event loop wakes (its terminals': a key's screen is seen
  only once the loop reads it, so this is in every latency above).

The baseline, in the same run: the first step (one table alone) is what a visitor feels
on an empty box; the later steps are read against it. Everything here — the box, its
apps and this script's terminals (pyte, one per visitor) — shares this machine's cores.
The terminals live in ``--terminals`` processes of this script (a group of six in each in
turn): a player's terminal is their own, and one event loop holding all 48 was late by
tens of milliseconds at the 99th percentile, which was in every latency.

    .venv/bin/python scripts/bench_box.py [--steps 1,4,8] [--seconds 20] [--pace 2.0]
                                          [--think random|steady] [--terminals 4]
                                          [--terminals-nice 0]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import statistics
import sys
import tempfile
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import aiohttp
import asyncssh
import pyte
from wcwidth import wcwidth

from net.sshlogin import player_dir_name
from net.webdoor import BROWSER_COOKIE, WebDoor

COLS, ROWS = 110, 32
GROUP = 6
WAIT = 120.0


class Where:
    """Where a worker's visitors find the box (what ``Visitor.enter`` reads of it)."""

    def __init__(self, data: Path, port: int, link: str) -> None:
        self.data, self.port, self.link = data, port, link


def mouse_click(column: int, row: int) -> str:
    """A left click on a cell, as a terminal reports it (SGR, 1-based)."""
    return f"\x1b[<0;{column + 1};{row + 1}M\x1b[<0;{column + 1};{row + 1}m"


class Visitor(ABC):
    """One player: a door, a terminal emulator fed with what their app draws."""

    door = ""

    def __init__(self, name: str) -> None:
        self.name = name
        self.screen = pyte.Screen(COLS, ROWS)
        self.stream = pyte.ByteStream(self.screen)
        self.news = asyncio.Event()
        self.latencies: list[float] = []
        self.first_frame = 0.0
        self._lines: list[str] | None = None
        self._kept: dict[int, str] = {}
        #: Waits for a table-mate's key to show here: (whose key, shown, sent at, into).
        self.watching: list[tuple[str, Callable[[], bool], float, list[float]]] = []

    def feed(self, data: bytes) -> None:
        self.stream.feed(data)
        self._lines = None
        self.news.set()
        if self.watching:  # (checked at every write: no frame slips by unseen)
            now = time.perf_counter()
            for watch in [w for w in self.watching if w[1]()]:
                self.watching.remove(watch)
                watch[3].append((now - watch[2]) * 1000)

    def watch(self, whose: str, shown: Callable[[], bool], sent: float,
              into: list[float]) -> int:
        """Time ``whose`` key (sent at ``sent``) until this screen shows it; returns how
        many of their earlier keys never showed here before this one (superseded)."""
        before = len(self.watching)
        self.watching = [w for w in self.watching if w[0] != whose]
        dropped = before - len(self.watching)
        if shown():
            # (Already so: timed only if it showed their last key; if not, this one
            # undoes a key that never showed here, and there is nothing to see.)
            if not dropped:
                into.append((time.perf_counter() - sent) * 1000)
        else:
            self.watching.append((whose, shown, sent, into))
        return dropped

    def card(self, name: str) -> str:
        """The lines inside the seat card titled with ``name`` ("" if not in sight)."""
        lines = self.lines()
        for row, line in enumerate(lines):
            at = line.find(f" {name} ")
            # (The card we look at has a double border: ╔═ … ═╗, ║.)
            left = max(line.rfind("╭", 0, at), line.rfind("╔", 0, at))
            if at < 0 or left < 0:
                continue
            right = min(i for i in (line.find("╮", at), line.find("╗", at), len(line))
                        if i >= 0)
            inside = []
            for below in lines[row + 1:]:
                if below[left:left + 1] not in ("│", "║"):
                    break
                inside.append(below[left + 1:right])
            return "\n".join(inside)
        return ""

    def lines(self) -> list[str]:
        """The screen's lines, as ``pyte.Screen.display`` gives them; only the lines a
        write changed (pyte's ``dirty``) are read again: ``display`` reads every cell,
        and the table-mates' screens are read at every write."""
        if self._lines is None:
            screen = self.screen
            rows = range(screen.lines) if not self._kept else sorted(screen.dirty)
            for y in rows:
                if y < screen.lines:
                    self._kept[y] = _line(screen, y)
            screen.dirty.clear()
            self._lines = [self._kept.get(y, "") for y in range(screen.lines)]
        return self._lines

    def text(self) -> str:
        return "\n".join(self.lines())

    async def until(self, predicate: Callable[[], bool], timeout: float = WAIT) -> None:
        async def wait() -> None:
            while not predicate():
                self.news.clear()
                await self.news.wait()

        try:
            await asyncio.wait_for(wait(), timeout)
        except TimeoutError:
            raise SystemExit(f"{self.name} never showed it; screen:\n{self.text()}") from None

    async def shows(self, *texts: str) -> None:
        await self.until(lambda: all(t in self.text() for t in texts))

    @abstractmethod
    async def enter(self, box: Where, settings: dict[str, Any]) -> None:
        """Come in by this door with these settings, until the menu is drawn."""

    @abstractmethod
    async def press(self, keys: str) -> None:
        """Send keys (or a mouse report) to the app."""

    async def click(self, text: str) -> None:
        for row, line in enumerate(self.lines()):
            if text in line:
                await self.press(mouse_click(line.index(text) + 1, row))
                return
        raise SystemExit(f"{self.name}: {text!r} is not on the screen:\n{self.text()}")

    def own_line(self) -> str:
        return next((line for line in self.lines() if "you (" in line), "")

    @abstractmethod
    async def close(self) -> None:
        """Leave (the app ends with the visit)."""


class WebVisitor(Visitor):
    door = "web"

    async def enter(self, box: Where, settings: dict[str, Any]) -> None:
        self.browser = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        link = box.link
        async with self.browser.post(link, data={"name": self.name}) as response:
            assert response.status == 200
        browser = next(c.value for c in self.browser.cookie_jar if c.key == BROWSER_COOKIE)
        write_settings(box, WebDoor.player_dir(browser), settings)
        start = time.perf_counter()
        self.ws = await self.browser.ws_connect(f"{link}/ws?width={COLS}&height={ROWS}")
        self.pump = asyncio.create_task(self._read())
        await self.until(lambda: "Quit (q)" in self.text())
        self.first_frame = time.perf_counter() - start

    async def _read(self) -> None:
        async for message in self.ws:
            if message.type == aiohttp.WSMsgType.BINARY:
                self.feed(message.data)

    async def press(self, keys: str) -> None:
        await self.ws.send_str(json.dumps(["stdin", keys]))

    async def close(self) -> None:
        await self.ws.close()
        await self.browser.close()


class SshVisitor(Visitor):
    door = "ssh"

    async def enter(self, box: Where, settings: dict[str, Any]) -> None:
        write_settings(box, player_dir_name(self.name, None), settings)
        visitor = self

        class Session(asyncssh.SSHClientSession[bytes]):
            def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
                visitor.feed(data)

        start = time.perf_counter()
        self.conn = await asyncssh.connect(
            "127.0.0.1", box.port, username=self.name, known_hosts=None, client_keys=None,
            agent_path=None, config=[], preferred_auth="none")
        self.chan, _ = await self.conn.create_session(
            Session, term_type="xterm-256color", term_size=(COLS, ROWS), encoding=None)
        await self.until(lambda: "Quit (q)" in self.text())
        self.first_frame = time.perf_counter() - start

    async def press(self, keys: str) -> None:
        self.chan.write(keys.encode())

    async def close(self) -> None:
        self.conn.close()


def _line(screen: pyte.Screen, y: int) -> str:
    """Line ``y`` of ``screen`` as ``pyte.Screen.display`` has it (a wide character's
    second cell left out)."""
    row = screen.buffer[y]
    chars = []
    wide = False
    for x in range(screen.columns):
        if wide:
            wide = False
            continue
        char = row[x].data
        wide = wcwidth(char[0]) == 2
        chars.append(char)
    return "".join(chars)


def write_settings(box: Where, player_dir: str, settings: dict[str, Any]) -> None:
    """A player's settings as the app keeps them (its last table: the form starts there)."""
    path = box.data / "players" / player_dir
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    (path / "settings.json").write_text(json.dumps(settings))


def lists(visitor: Visitor, text: str) -> bool:
    return text in visitor.text()


def preparing(visitor: Visitor) -> bool:
    """The table is dealt: this visitor's screen is the game's, in preparation or past it
    (the lobby's own words for its creator, "then you (★) start the game", are not)."""
    text = visitor.text()
    return "hiddenhand — Get It!" in text and (
        "pass the pile" in text.lower() or "you (" in text)


def playing(visitor: Visitor) -> bool:
    return "pile" in visitor.own_line()


async def seat_group(box: Where, number: int) -> list[Visitor]:
    """Six visitors at a Get It! table of their own, its round running."""
    visitors: list[Visitor] = []
    for i in range(GROUP):
        kind = WebVisitor if i % 2 == 0 else SshVisitor
        visitors.append(kind(f"{'w' if kind is WebVisitor else 's'}{number}x{i}"))
    table = {"game": "getit", "seats": GROUP,
             "options": {"timer": 0, "bots": "relaxed", "level": 1}}
    await asyncio.gather(*(v.enter(box, {"name": v.name, "last_table": table})
                           for v in visitors))
    creator, *others = visitors
    await creator.press("h")
    await creator.shows("Open a table on this box")
    await creator.press("\x13")  # ctrl+s: open it
    await creator.shows("(you)")
    for other in others:
        await other.press("j")
        await other.until(partial(lists, other, f"{creator.name}'s table"))
        if "(you)" not in other.text():
            await other.click(f"{creator.name}'s table")  # picked from the list
        await other.shows("(you)")
    await creator.until(lambda: all(v.name in creator.text() for v in visitors))
    for visitor in others:  # (the creator has no Ready: their Start deals)
        await visitor.press("\x12")  # ctrl+r: ready
    # (Not the count of "✓": the creator's own row says "✓ deals" before the others are.)
    await creator.shows("Everyone is ready")
    await creator.press("\x13")  # ctrl+s: start
    for visitor in visitors:
        await visitor.until(partial(preparing, visitor))
        await visitor.press("\r")  # done: the pile goes on
    for visitor in visitors:
        await visitor.until(partial(playing, visitor))
    return visitors


async def signal_loop(visitor: Visitor, mates: list[Visitor], until: float, pace: float,
                      others: list[float], steady: bool = False) -> int:
    """Look at a seat, then stop, at a person's pace; time each key to its own screen,
    and to each table-mate's (``others``: until their card of this visitor shows the
    look, or shows it no more). Between keys the visitor thinks ``pace / 2`` seconds: on
    average (exponential), or exactly if ``steady``. Returns how many keys never showed
    on a table-mate's screen before the visitor's next key there."""
    me = int(visitor.own_line().split("you (", 1)[1].split(")", 1)[0])
    superseded = 0
    await asyncio.sleep(random.uniform(0, pace))
    while time.perf_counter() < until:
        target = random.choice([s for s in range(1, len(mates) + 2) if s != me])
        for key, shown in ((str(target), lambda: "looking at" in visitor.own_line()),
                           ("0", lambda: "looking at" not in visitor.own_line())):
            start = time.perf_counter()
            await visitor.press(key)
            looking = key != "0"
            for mate in mates:
                superseded += mate.watch(
                    visitor.name, partial(looks, mate, visitor.name, looking), start, others)
            await visitor.until(shown, 30)
            visitor.latencies.append((time.perf_counter() - start) * 1000)
            await asyncio.sleep(pace / 2 if steady else random.expovariate(2 / pace))
    return superseded


def looks(mate: Visitor, name: str, looking: bool) -> bool:
    """Whether ``mate``'s card of ``name`` shows them looking (as ``looking`` asks)."""
    return ("looks at" in mate.card(name)) == looking


async def loop_lag(until: float, lags: list[float], every: float = 0.005) -> None:
    """How late this script's own event loop wakes (ms): a key's screen is seen only
    when the loop gets to the terminal's bytes, so its lateness is in every latency
    here (it is this script's, not the box's: a player's terminal is their own)."""
    loop = asyncio.get_running_loop()
    while loop.time() < until:
        asked = loop.time()
        await asyncio.sleep(every)
        lags.append((loop.time() - asked - every) * 1000)


def pss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


class Box(Where):
    """``hiddenhand ssh-serve --open --web-port 0`` running in its own process."""

    def __init__(self, data: Path, visitors: int) -> None:
        super().__init__(data, 0, "")
        self.visitors = visitors

    async def start(self) -> None:
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tui.cli", "ssh-serve", "--open", "--port=0",
            "--bind=127.0.0.1", "--web-port=0", f"--data-dir={self.data}",
            f"--max-sessions={self.visitors}", f"--max-per-address={self.visitors}",
            "--idle-timeout=0", "--bot-delay=0", "--hostname=box",
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
        assert self.process.stdout is not None
        while not (self.port and self.link):
            line = (await asyncio.wait_for(self.process.stdout.readline(), 60)).decode()
            if not line:
                raise SystemExit("the box ended before it listened")
            if (port := re.search(r"ssh-serve: listening on .*, port (\d+)", line)):
                self.port = int(port.group(1))
            if (link := re.search(r"secret link: (\S+)", line)):
                self.link = link.group(1)
        # Its log goes on: read, so that it never blocks on a full pipe.
        self.drain = asyncio.create_task(self._drain())

    async def _drain(self) -> None:
        assert self.process.stdout is not None
        while await self.process.stdout.readline():
            pass

    def apps(self) -> list[int]:
        """The visitors' apps: the box's children."""
        found = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                if int(fields[1]) == self.process.pid:
                    found.append(int(entry.name))
        return found

    async def stop(self) -> None:
        self.process.send_signal(signal.SIGINT)
        await asyncio.wait_for(self.process.wait(), 60)


async def worker(where: Where) -> None:
    """One process of this script's terminals: it seats the groups it is given and
    signals with them, one JSON line in (a command) and one out (its answer) each."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    seated: list[Visitor] = []

    def answer(value: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(value) + "\n")
        sys.stdout.flush()

    while line := await reader.readline():
        command = json.loads(line)
        if "seat" in command:
            group = await seat_group(where, command["seat"])
            seated += group
            answer({"firsts": [v.first_frame * 1000 for v in group]})
        elif "run" in command:
            seconds, pace, steady = command["run"]
            for visitor in seated:
                visitor.latencies.clear()
            lags: list[float] = []
            others: list[float] = []
            cpu = time.process_time()
            start = time.perf_counter()
            lag = asyncio.create_task(loop_lag(loop.time() + seconds, lags))
            tables = [seated[i:i + GROUP] for i in range(0, len(seated), GROUP)]
            superseded = await asyncio.gather(*(
                signal_loop(v, [m for m in table if m is not v], start + seconds, pace,
                            others, steady)
                for table in tables for v in table))
            await lag
            for visitor in seated:
                visitor.watching.clear()
            answer({"latencies": {door: [x for v in seated if v.door == door
                                         for x in v.latencies] for door in ("web", "ssh")},
                    "others": others, "superseded": sum(superseded),
                    "lags": lags, "cpu": time.process_time() - cpu})
        elif "close" in command:
            for visitor in seated:
                await visitor.close()
            answer({"closed": True})
            return


class Terminals:
    """A worker process of terminals (:func:`worker`), as the main process drives it."""

    async def start(self, box: Box, nice: int) -> None:
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--worker", str(box.data), str(box.port), box.link,
            str(nice),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            limit=1 << 24)  # (a step's answer: every latency and lag, one line)

    async def ask(self, command: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write((json.dumps(command) + "\n").encode())
        await self.process.stdin.drain()
        line = await self.process.stdout.readline()
        if not line:
            raise SystemExit("a process of terminals ended (its error is above)")
        answer: dict[str, Any] = json.loads(line)
        return answer


async def main(steps: list[int], seconds: float, pace: float, steady: bool,
               processes: int, nice: int) -> None:
    with tempfile.TemporaryDirectory() as data:
        box = Box(Path(data), GROUP * max(steps) + GROUP)
        await box.start()
        terminals = [Terminals() for _ in range(processes)]
        try:
            for t in terminals:
                await t.start(box, nice)
            groups_seated = 0
            print(f"box: Get It! tables of {GROUP} (3 web, 3 SSH), untimed rounds, a key "
                  f"every {pace / 2:g} s per visitor "
                  f"({'steady' if steady else 'on average, thinking times at random'}), "
                  f"{seconds:g} s a step, {os.cpu_count()} cores shared by the box, its "
                  f"apps and this script's terminals ({processes} processes at "
                  f"niceness {nice})")
            for groups in steps:
                firsts: list[float] = []
                while groups_seated < groups:
                    # A group's six come in at once, each group on a process in turn.
                    told = await terminals[groups_seated % processes].ask(
                        {"seat": groups_seated})
                    firsts += told["firsts"]
                    groups_seated += 1
                pids = box.apps()
                cpu_before = {pid: cpu_seconds(pid) for pid in pids}
                box_before = cpu_seconds(box.process.pid)
                start = time.perf_counter()
                told_all = await asyncio.gather(*(t.ask({"run": [seconds, pace, steady]})
                                                  for t in terminals))
                wall = time.perf_counter() - start
                apps_cpu = sum(cpu_seconds(pid) - cpu_before[pid] for pid in pids
                               if Path(f"/proc/{pid}").exists())
                box_cpu = cpu_seconds(box.process.pid) - box_before
                mine = sum(t["cpu"] for t in told_all)
                lags = [x for t in told_all for x in t["lags"]]
                pss = [pss_kib(pid) for pid in pids if Path(f"/proc/{pid}").exists()]
                visitors = groups * GROUP
                print(f"\n{visitors} visitors at {groups} table(s)")
                print(f"  connect -> menu drawn ({len(firsts)} new, {GROUP} at a time): "
                      f"median {statistics.median(firsts):.0f} ms, max {max(firsts):.0f} ms")
                sent = 0
                for door in ("web", "ssh"):
                    lat = [x for t in told_all for x in t["latencies"][door]]
                    sent += len(lat)
                    print(f"  key -> own screen ({door}): p50 {pct(lat, 0.5):6.1f} ms   "
                          f"p99 {pct(lat, 0.99):6.1f} ms   max {max(lat):6.1f} ms   "
                          f"(n={len(lat)})")
                seen = [x for t in told_all for x in t["others"]]
                missed = sum(t["superseded"] for t in told_all)
                print(f"  key -> each table-mate's screen: p50 {pct(seen, 0.5):6.1f} ms   "
                      f"p99 {pct(seen, 0.99):6.1f} ms   max {max(seen):6.1f} ms   "
                      f"(n={len(seen)}; {missed} shown there only after that visitor's "
                      f"next key)")
                # A visitor waits for each key to show: when the box is slow, fewer keys
                # are sent than asked, and that is said beside the latencies.
                print(f"  keys: {sent / wall:.0f} a second in all "
                      f"({visitors * 2 / pace:.0f} if every key showed at once)")
                print(f"  memory per visitor app: PSS median {statistics.median(pss) / 1024:.1f}"
                      f" MiB (in all {sum(pss) / 1024:.0f} MiB)")
                print(f"  CPU: apps {apps_cpu / wall / len(pids) * 100:.1f}% of a core each "
                      f"({apps_cpu / wall * 100:.0f}% in all); the box "
                      f"{box_cpu / wall * 100:.0f}%; this script's terminals "
                      f"{mine / wall * 100:.0f}%")
                print(f"  this script's event loops (the terminals'), late by: p50 "
                      f"{pct(lags, 0.5):.1f} ms, p99 {pct(lags, 0.99):.1f} ms")
            for t in terminals:
                await t.ask({"close": True})
        finally:
            await box.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", default="1,4,8",
                        help="tables of six at each step, growing (default 1,4,8)")
    parser.add_argument("--seconds", type=float, default=20.0, help="signalling per step")
    parser.add_argument("--pace", type=float, default=2.0,
                        help="seconds between one visitor's looks (default 2)")
    parser.add_argument("--think", choices=("random", "steady"), default="random",
                        help="time between a visitor's keys: exponential with mean pace/2 "
                             "(default), or exactly pace/2")
    parser.add_argument("--terminals", type=int, default=4,
                        help="processes of this script that hold the visitors' terminals "
                             "(default 4): a player's terminal is their own, and one "
                             "process's event loop, late by tens of milliseconds at 48, "
                             "was in every latency")
    parser.add_argument("--terminals-nice", type=int, default=0, metavar="N",
                        help="the terminals' processes run at this niceness (default 0, "
                             "as the box; below 0 if this user may raise a priority): a "
                             "player's terminal is their own machine's, and need not "
                             "wait behind the box's apps for a core")
    parser.add_argument("--worker", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        data_dir, port, link, nice = args.worker
        try:
            os.setpriority(os.PRIO_PROCESS, 0, int(nice))
        except PermissionError:
            print(f"(the terminals run at the box's priority: this user may not set "
                  f"niceness {nice})", file=sys.stderr)
        asyncio.run(worker(Where(Path(data_dir), int(port), link)))
        raise SystemExit(0)
    if args.terminals < 1:
        parser.error("--terminals must be at least 1")
    try:
        steps = [int(s) for s in args.steps.split(",")]
    except ValueError:
        parser.error(f"--steps takes numbers of tables, comma-separated, not {args.steps!r}")
    if not steps or min(steps) < 1 or steps != sorted(steps):
        parser.error("--steps takes growing numbers of tables, each at least 1")
    if args.pace <= 0 or args.seconds <= 0:
        parser.error("--pace and --seconds must be more than 0")
    asyncio.run(main(steps, args.seconds, args.pace, args.think == "steady", args.terminals,
                     args.terminals_nice))

"""Benchmark ``hiddenhand ssh-serve``: sessions one box holds, memory, start and key latency.

Runs a real SSH box (``net.sshserve.BoxServer``, ``--open``) on 127.0.0.1, then logs in
``--sessions`` times with asyncssh, one after another, and keeps every login open. For
each login: the time from starting ``ssh`` (TCP connect, key exchange, auth, PTY, app
start) to the menu drawn on the client's screen (a pyte terminal), and the app's memory
once drawn: RSS, PSS (shared pages split between the processes sharing them) and USS
(its private pages). With every session open it measures the CPU the idle apps use, the
server's own memory growth per session, and how many sessions the box's available
memory would hold at that PSS.

Then the relay itself: ``--keys`` round trips on one login, each a key that opens a
dialog until the dialog is drawn, and a key that closes it until it is gone; and as many
window changes until the app has redrawn at the new size. Last, as many logins all at
once (they compete for the cores): time to menu for each.

The baseline, measured in the same run and interleaved with the SSH figures: the same
app command started directly on a local PTY (no SSH): ``--baseline`` times for the
time to menu and the memory, once more for the round trips, taken in turns with the
SSH login's.

    .venv/bin/python scripts/bench_ssh.py [--sessions 12] [--baseline 3] [--keys 20]

To compare two trees, run this script from one of them against the other with
``PYTHONPATH=/path/to/other/tree`` (every app it starts inherits that path), and
alternate the runs.
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import os
import statistics
import struct
import tempfile
import termios
import time
from collections.abc import Callable
from pathlib import Path

import asyncssh
import pyte

from net.sshserve import BoxConfig, BoxServer

COLS, ROWS = 100, 30
DIALOG = "No table is open on this box yet"
TITLE = "hiddenhand"


class Screen:
    """A terminal emulator fed with what the app draws; says when the menu is up."""

    def __init__(self) -> None:
        self.screen = pyte.Screen(COLS, ROWS)
        self.stream = pyte.ByteStream(self.screen)
        self.news = asyncio.Event()

    def feed(self, data: bytes) -> None:
        self.stream.feed(data)
        self.news.set()

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def menu_drawn(self) -> bool:
        return "Quit (q)" in self.text() and "Solo" in self.screen.display[-1]

    async def until(self, predicate: Callable[[], bool], timeout: float = 60.0) -> None:
        async def wait() -> None:
            while not predicate():
                self.news.clear()
                await self.news.wait()

        await asyncio.wait_for(wait(), timeout)

    async def wait_menu(self, timeout: float = 60.0) -> None:
        await self.until(self.menu_drawn, timeout)


class Terminal:
    """Where keys and window changes go: a local PTY or an SSH channel."""

    def __init__(self, screen: Screen, send: Callable[[bytes], None],
                 resize: Callable[[int, int], None]) -> None:
        self.screen = screen
        self.send = send
        self.resize = resize


async def round_trips(term: Terminal, keys: int) -> tuple[list[float], list[float]]:
    """Seconds from a key to its effect drawn, and from a window change to the redraw."""
    screen = term.screen
    typed: list[float] = []
    for _ in range(keys):
        # "j" opens the box's join dialog (no table is open); escape closes it.
        start = time.perf_counter()
        term.send(b"j")
        await screen.until(lambda: DIALOG in screen.text())
        typed.append(time.perf_counter() - start)
        start = time.perf_counter()
        term.send(b"\x1b")
        await screen.until(lambda: DIALOG not in screen.text() and screen.menu_drawn())
        typed.append(time.perf_counter() - start)
    resized: list[float] = []
    for _ in range(keys):
        big = screen.screen.columns == COLS
        cols, rows = (COLS + 20, ROWS + 4) if big else (COLS, ROWS)
        # The emulator keeps what was drawn where it was; only the app's redraw moves the
        # centred title and puts the footer on the new last line.
        title = screen.screen.display[0].find(TITLE)
        screen.screen.resize(rows, cols)
        start = time.perf_counter()
        term.resize(cols, rows)

        def redrawn(title: int = title, rows: int = rows) -> bool:
            display = screen.screen.display
            return display[0].find(TITLE) not in (-1, title) and "Solo" in display[rows - 1]

        await screen.until(redrawn)
        resized.append(time.perf_counter() - start)
    return typed, resized


class Client(asyncssh.SSHClientSession[bytes]):
    """An SSH session drawing into a :class:`Screen`."""

    def __init__(self, screen: Screen) -> None:
        self.screen = screen

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self.screen.feed(data)


def memory(pid: int) -> tuple[int, int, int]:
    """RSS, PSS and USS of a process, in KiB (from /proc/PID/smaps_rollup)."""
    fields: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, _, rest = line.partition(":")
        parts = rest.split()
        if parts and parts[0].isdigit():
            fields[name] = int(parts[0])
    uss = fields.get("Private_Clean", 0) + fields.get("Private_Dirty", 0)
    return fields.get("Rss", 0), fields.get("Pss", 0), uss


def cpu_ticks(pid: int) -> int:
    """User plus system clock ticks a process has used."""
    after_name = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(after_name[11]) + int(after_name[12])


def available_kib() -> int:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1])
    return 0


async def local_app(
    argv: list[str], extra_env: dict[str, str] | None = None,
) -> tuple[float, tuple[int, int, int], Terminal, Callable[[], None]]:
    """Start the app on a local PTY: time to menu, memory, its terminal, and its end."""
    screen = Screen()
    start = time.perf_counter()
    master, slave = os.openpty()
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env["TERM"] = "xterm-256color"
    env.update(extra_env or {})
    pid = os.posix_spawnp(argv[0], argv, env, setsid=True, file_actions=[
        (os.POSIX_SPAWN_OPEN, 0, os.ttyname(slave), os.O_RDWR, 0),
        (os.POSIX_SPAWN_DUP2, 0, 1), (os.POSIX_SPAWN_DUP2, 0, 2),
    ])
    os.close(slave)
    os.set_blocking(master, False)
    loop = asyncio.get_running_loop()

    def readable() -> None:
        try:
            screen.feed(os.read(master, 65536))
        except BlockingIOError:
            pass
        except OSError:
            loop.remove_reader(master)

    loop.add_reader(master, readable)
    await screen.wait_menu()
    elapsed = time.perf_counter() - start
    mem = memory(pid)

    def send(data: bytes) -> None:
        os.write(master, data)

    def resize(cols: int, rows: int) -> None:
        # As the SSH side does: set the size; the kernel signals the app (SIGWINCH).
        fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

    def end() -> None:
        loop.remove_reader(master)
        os.killpg(pid, 9)
        os.waitpid(pid, 0)
        os.close(master)

    return elapsed, mem, Terminal(screen, send, resize), end


def row(label: str, values: list[float], unit: str, digits: int = 2) -> str:
    if not values:
        return f"{label:<34} (none)"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (f"{label:<34} median {statistics.median(values):8.{digits}f} {unit}   "
            f"p95 {p95:8.{digits}f}   max {max(values):8.{digits}f}   (n={len(values)})")


async def main(sessions: int, baseline: int, keys: int) -> None:
    scratch = tempfile.TemporaryDirectory(prefix="bench-ssh-")  # removed as the run ends
    data = Path(scratch.name)
    config = BoxConfig(port=0, bind="127.0.0.1", open_login=True, data_dir=data,
                       hostname="box", max_sessions=sessions + 1,
                       max_per_address=sessions + 1, idle_timeout=0)
    async with BoxServer(config) as box:
        assert box.host is not None
        where, port = box.box.host_address
        print(f"box on 127.0.0.1:{box.port}, game host on {where}{f':{port}' if port else ''}; "
              f"{os.cpu_count()} cores; {available_kib() // 1024} MiB available")

        # Baseline: the same command and environment as the box gives a login's app
        # (``Box.app_argv``), straight on a local PTY.
        argv, _ = box.box.app_argv("base", "base")
        env = box.box.app_env("base")
        base_times: list[float] = []
        base_mem: list[tuple[int, int, int]] = []
        server_before = memory(os.getpid())
        times: list[float] = []
        held: list[asyncssh.SSHClientConnection] = []
        terms: list[Terminal] = []
        for n in range(max(sessions, baseline)):
            # Interleaved, so both see the same caches and the same load on the machine.
            if n < baseline:
                elapsed, mem, _, end = await local_app(argv, env)
                base_times.append(elapsed)
                base_mem.append(mem)
                end()
            if n < sessions:
                elapsed, conn, term = await ssh_login(box.port, f"p{n}")
                times.append(elapsed)
                held.append(conn)
                terms.append(term)
        pids = list(box.apps)
        mems = [memory(pid) for pid in pids]
        server_after = memory(os.getpid())

        ticks_before = {pid: cpu_ticks(pid) for pid in pids}
        window = 3.0
        await asyncio.sleep(window)  # a benchmark, not a test: measure idle CPU
        hz = os.sysconf("SC_CLK_TCK")
        idle_cpu = [(cpu_ticks(pid) - ticks_before[pid]) / hz / window * 100 for pid in pids]

        print()
        print(f"{'time from ssh connect to menu':<34}")
        print(row("  baseline: app on a local PTY", base_times, "s"))
        print(row("  over SSH (sequential logins)", times, "s"))
        print()
        print("memory of one app (KiB)")
        for label, values in (("  baseline", base_mem), ("  over SSH", mems)):
            print(row(f"{label} RSS", [float(m[0]) for m in values], "KiB", 0))
            print(row(f"{label} PSS", [float(m[1]) for m in values], "KiB", 0))
            print(row(f"{label} USS (private)", [float(m[2]) for m in values], "KiB", 0))
        growth = (server_after[0] - server_before[0]) / max(1, sessions)
        print(f"{'  server RSS growth per session':<34} {growth:8.0f} KiB "
              f"(server RSS {server_after[0]} KiB with {sessions} sessions)")
        print()
        print(row(f"idle CPU per app over {window:g} s", idle_cpu, "%"))
        pss = statistics.median(m[1] for m in mems) + max(growth, 0)
        print(f"sessions held at once: {len(pids)} (each its own process)")
        print(f"sessions the available memory would hold at that PSS: "
              f"{int(available_kib() / pss) if pss else 0}")

        # The relay: keys and window changes on one login, beside a local PTY, in turns.
        keys_argv, _ = box.box.app_argv("keys", "keys")
        _, _, local, end = await local_app(keys_argv, box.box.app_env("keys"))
        typed: dict[str, list[float]] = {"baseline": [], "ssh": []}
        resized: dict[str, list[float]] = {"baseline": [], "ssh": []}
        blocks = 4
        for block in range(blocks):
            count = keys // blocks + (1 if block < keys % blocks else 0)
            for name, term in (("baseline", local), ("ssh", terms[0])):
                key_times, size_times = await round_trips(term, count)
                typed[name] += key_times
                resized[name] += size_times
        end()
        print()
        print("a key to its effect drawn (open a dialog, close it)")
        print(row("  baseline: app on a local PTY", typed["baseline"], "s", 3))
        print(row("  over SSH", typed["ssh"], "s", 3))
        print("a window change to the app redrawn at the new size")
        print(row("  baseline: app on a local PTY", resized["baseline"], "s", 3))
        print(row("  over SSH", resized["ssh"], "s", 3))

        for conn in held:
            conn.close()
        await box.wait_until(lambda: not box.apps)

        # Everyone at once: the logins compete for the cores.
        burst = await asyncio.gather(*(ssh_login(box.port, f"b{n}") for n in range(sessions)))
        print()
        print(row(f"{sessions} logins at once: to menu", [t for t, _, _ in burst], "s"))
        for _, conn, _ in burst:
            conn.close()
        await box.wait_until(lambda: not box.apps)


async def ssh_login(port: int,
                    user: str) -> tuple[float, asyncssh.SSHClientConnection, Terminal]:
    """Log in with a PTY: the seconds from connecting to the menu drawn, the login, and
    its terminal."""
    screen = Screen()
    start = time.perf_counter()
    conn = await asyncssh.connect(
        "127.0.0.1", port, username=user, known_hosts=None, client_keys=None,
        agent_path=None, config=[], preferred_auth="none")
    chan, _ = await conn.create_session(lambda: Client(screen), term_type="xterm-256color",
                                        term_size=(COLS, ROWS), encoding=None)
    await screen.wait_menu()
    elapsed = time.perf_counter() - start
    return elapsed, conn, Terminal(screen, chan.write,
                                   lambda cols, rows: chan.change_terminal_size(cols, rows))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=12, help="SSH logins to hold")
    parser.add_argument("--baseline", type=int, default=3, help="local PTY starts")
    parser.add_argument("--keys", type=int, default=20,
                        help="key and window-change round trips on each side")
    args = parser.parse_args()
    asyncio.run(main(max(1, args.sessions), args.baseline, args.keys))

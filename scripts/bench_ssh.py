"""Benchmark ``hiddenhand ssh-serve``: sessions one box holds, memory per session, time to menu.

Runs a real SSH box (``net.sshserve.BoxServer``, ``--open``) on 127.0.0.1, then logs in
``--sessions`` times with asyncssh, one after another, and keeps every login open. For
each login: the time from starting ``ssh`` (TCP connect, key exchange, auth, PTY, app
start) to the menu drawn on the client's screen (a pyte terminal), and the app's memory
once drawn: RSS, PSS (shared pages split between the processes sharing them) and USS
(its private pages). With every session open it measures the CPU the idle apps use, the
server's own memory growth per session, and how many sessions the box's available
memory would hold at that PSS. Last, as many logins all at once (they compete for the
cores): time to menu for each.

The baseline, measured in the same run and interleaved with the first logins: the same
app command started directly on a local PTY (no SSH), ``--baseline`` times, with the
same time-to-menu and memory figures.

    .venv/bin/python scripts/bench_ssh.py [--sessions 12] [--baseline 3]
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


class Screen:
    """A terminal emulator fed with what the app draws; says when the menu is up."""

    def __init__(self) -> None:
        self.screen = pyte.Screen(COLS, ROWS)
        self.stream = pyte.ByteStream(self.screen)
        self.news = asyncio.Event()

    def feed(self, data: bytes) -> None:
        self.stream.feed(data)
        self.news.set()

    def menu_drawn(self) -> bool:
        text = "\n".join(self.screen.display)
        return "Quit (q)" in text and "Solo" in self.screen.display[ROWS - 1]

    async def wait_menu(self, timeout: float = 60.0) -> None:
        async def wait() -> None:
            while not self.menu_drawn():
                self.news.clear()
                await self.news.wait()

        await asyncio.wait_for(wait(), timeout)


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


async def local_app(argv: list[str]) -> tuple[float, tuple[int, int, int], Callable[[], None]]:
    """Start the app on a local PTY: time to menu, memory, and a function that ends it."""
    screen = Screen()
    start = time.perf_counter()
    master, slave = os.openpty()
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env["TERM"] = "xterm-256color"
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

    def end() -> None:
        loop.remove_reader(master)
        os.killpg(pid, 9)
        os.waitpid(pid, 0)
        os.close(master)

    return elapsed, mem, end


def row(label: str, values: list[float], unit: str, digits: int = 2) -> str:
    if not values:
        return f"{label:<34} (none)"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (f"{label:<34} median {statistics.median(values):8.{digits}f} {unit}   "
            f"p95 {p95:8.{digits}f}   max {max(values):8.{digits}f}   (n={len(values)})")


async def main(sessions: int, baseline: int) -> None:
    data = Path(tempfile.mkdtemp(prefix="bench-ssh-"))
    config = BoxConfig(port=0, bind="127.0.0.1", open_login=True, data_dir=data,
                       hostname="box", max_sessions=sessions + 1,
                       max_per_address=sessions + 1, idle_timeout=0)
    async with BoxServer(config) as box:
        assert box.host is not None
        print(f"box on 127.0.0.1:{box.port}, game host on 127.0.0.1:{box.host.port}; "
              f"{os.cpu_count()} cores; {available_kib() // 1024} MiB available")

        # Baseline: the same command, straight on a local PTY.
        argv = [*config.command, f"--box=127.0.0.1:{box.host.port}", "--player=base",
                f"--data-dir={data / 'base'}", f"--box-invite={box.invitation}"]
        base_times: list[float] = []
        base_mem: list[tuple[int, int, int]] = []
        server_before = memory(os.getpid())
        times: list[float] = []
        held: list[asyncssh.SSHClientConnection] = []
        for n in range(max(sessions, baseline)):
            # Interleaved, so both see the same caches and the same load on the machine.
            if n < baseline:
                elapsed, mem, end = await local_app(argv)
                base_times.append(elapsed)
                base_mem.append(mem)
                end()
            if n < sessions:
                elapsed, conn = await ssh_login(box.port, f"p{n}")
                times.append(elapsed)
                held.append(conn)
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

        for conn in held:
            conn.close()
        await box.wait_until(lambda: not box.apps)

        # Everyone at once: the logins compete for the cores.
        burst = await asyncio.gather(*(ssh_login(box.port, f"b{n}") for n in range(sessions)))
        print(row(f"{sessions} logins at once: to menu", [t for t, _ in burst], "s"))
        for _, conn in burst:
            conn.close()
        await box.wait_until(lambda: not box.apps)


async def ssh_login(port: int, user: str) -> tuple[float, asyncssh.SSHClientConnection]:
    """Log in with a PTY; the seconds from connecting to the menu drawn, and the login."""
    screen = Screen()
    start = time.perf_counter()
    conn = await asyncssh.connect(
        "127.0.0.1", port, username=user, known_hosts=None, client_keys=None,
        agent_path=None, config=[], preferred_auth="none")
    await conn.create_session(lambda: Client(screen), term_type="xterm-256color",
                              term_size=(COLS, ROWS), encoding=None)
    await screen.wait_menu()
    return time.perf_counter() - start, conn


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=12, help="SSH logins to hold")
    parser.add_argument("--baseline", type=int, default=3, help="local PTY starts")
    args = parser.parse_args()
    asyncio.run(main(args.sessions, args.baseline))

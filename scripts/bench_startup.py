"""Benchmark start-up: process start → first frame on a terminal, beside a trivial Textual app.

Each target is started as a fresh process on a pseudo-terminal (``os.openpty``, set to
``--size``, ``TERM=xterm-256color``), exactly as a person starts it: the console script
``hiddenhand`` (the menu), ``hiddenhand solo`` (the menu, then straight to a solo GET
OUT! table against bots) and ``scripts/startup_trivial_app.py`` (Header, Static and
Footer, nothing else) as the baseline. The benchmark reads what the process writes to
the terminal and stops the clock when the screen it waits for has been painted: the
text written so far, escape sequences stripped, contains that screen's marker (the
menu's "Play solo against bots", the GET OUT! table's "Players" caption, the trivial
app's one line). The process is then terminated. Nothing in the app is changed or
hooked for the measurement, so the time holds the whole real cost: interpreter start,
every import, building the app and its stylesheet, composing the screen (for solo: also
starting the in-process host, seating the bots and receiving the first view) and
writing the first frame.

Targets run round-robin (one warm-up round first, not counted, so bytecode caches are
warm: ``PYTHONDONTWRITEBYTECODE`` is dropped from the targets' environment, or the
project's own modules would be compiled afresh on every start, as no installed copy
is), ``--runs`` times each; the median and the minimum are printed, and each median
as a ratio to the trivial app's from the same run. Each process gets its own empty
``HIDDENHAND_CONFIG_DIR`` and ``HIDDENHAND_DATA_DIR``: no settings, and no crash
journals (every solo run is stopped mid-game, so each would leave one, and the menu
would read them all, on a machine's history rather than the app's cost): every start
is a first start, as nothing the app keeps changes its start-up.
The app opens no socket for the menu or a solo table; to be sure nothing reaches a
network, run the benchmark in a network namespace of its own:

    unshare -rn sh -c 'ip link set lo up && exec .venv/bin/python scripts/bench_startup.py'
        [--runs 7] [--size 100x30] [--timeout 20] [--before REVISION] [--cpu]

``--before REVISION`` also times the menu and the solo table of an older commit (its
``engine``, ``net`` and ``tui`` exported with ``git archive`` and put first on
``PYTHONPATH``, run by the same console script), in the same round-robin: a before/after
pair measured in one run.

``--cpu`` measures something else, that the machine's load moves less: each target is
run in-process by ``startup_probe.py`` (same pty, same environment), which reports the
main thread's CPU time (``time.thread_time``, from the interpreter's start) at the moment
the frame holding the marker is queued for the terminal, and ends the process there.
The wall-clock column is then not measured; the table shows CPU milliseconds.
"""

from __future__ import annotations

import argparse
import os
import re
import select
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: CSI and OSC escape sequences, and lone ESC-letter pairs, as a terminal reads them.
ESCAPES = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")


#: A target: its command, the marker of its screen, and what its environment adds.
Target = tuple[list[str], bytes, dict[str, str]]


def targets(before: Path | None = None) -> dict[str, Target]:
    """Name → target of every target, the baseline first; with ``before`` (a directory
    holding an older ``engine``, ``net`` and ``tui``), the menu and the solo table of
    that code too, run by the same console script with the directory on PYTHONPATH."""
    bindir = Path(sys.executable).parent
    app = shutil.which("hiddenhand", path=str(bindir)) or str(bindir / "hiddenhand")
    found: dict[str, Target] = {
        "trivial Textual app": ([sys.executable, str(HERE / "startup_trivial_app.py")],
                                b"trivial app ready", {}),
    }
    runs = [("", {})] if before is None else [(" before", {"PYTHONPATH": str(before)}),
                                              ("", {})]
    for label, env in runs:
        found[f"hiddenhand (menu){label}"] = ([app], b"Play solo against bots", env)
        found[f"hiddenhand solo (table){label}"] = ([app, "solo"], b"Players", env)
    return found


def export(revision: str, into: Path) -> Path:
    """The ``engine``, ``net`` and ``tui`` packages of a git ``revision``, under ``into``."""
    root = HERE.parent
    archive = subprocess.run(["git", "-C", str(root), "archive", revision, "engine", "net",
                              "tui"], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def first_frame(command: list[str], marker: bytes, size: tuple[int, int], timeout: float,
                extra_env: dict[str, str] | None = None) -> float:
    """Seconds from starting ``command`` on a fresh pty to ``marker`` painted on it."""
    import fcntl
    import termios

    master, slave = os.openpty()
    cols, rows = size
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    with tempfile.TemporaryDirectory(prefix="hh-startup-") as config:
        env = dict(os.environ, TERM="xterm-256color", HIDDENHAND_CONFIG_DIR=config,
                   HIDDENHAND_DATA_DIR=config, COLUMNS=str(cols), LINES=str(rows))
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env.update(extra_env or {})
        start = time.perf_counter()
        proc = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, env=env,
                                start_new_session=True, close_fds=True)
        os.close(slave)
        seen = b""
        try:
            while True:
                left = start + timeout - time.perf_counter()
                if left <= 0:
                    raise TimeoutError(f"{command}: no {marker!r} after {timeout} s; "
                                       f"screen so far: {ESCAPES.sub(b'', seen)[-300:]!r}")
                ready, _, _ = select.select([master], [], [], left)
                if not ready:
                    continue
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # the child closed the terminal
                    chunk = b""
                if not chunk:
                    raise RuntimeError(f"{command} ended before {marker!r} showed: "
                                       f"{ESCAPES.sub(b'', seen)[-500:]!r}")
                seen += chunk
                if marker in ESCAPES.sub(b"", seen):
                    return time.perf_counter() - start
        finally:
            _stop(proc, master)


def _stop(proc: subprocess.Popen[bytes], master: int) -> None:
    """End a run: SIGTERM (then a kill, if it does not go in 5 s), and close its pty."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    os.close(master)


def cpu_at_frame(command: list[str], marker: bytes, size: tuple[int, int], timeout: float,
                 extra_env: dict[str, str] | None = None) -> float:
    """Main-thread CPU seconds of ``command`` (run by ``startup_probe.py``) when the
    frame holding ``marker`` is queued, on a fresh pty."""
    import fcntl
    import termios

    bindir = Path(sys.executable).parent
    target = "hiddenhand" if Path(command[0]).parent == bindir and \
        Path(command[0]).name == "hiddenhand" else command[1]
    args = command[1:] if target == "hiddenhand" else command[2:]
    master, slave = os.openpty()
    cols, rows = size
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    with tempfile.TemporaryDirectory(prefix="hh-startup-") as config:
        out = Path(config) / "probe.out"
        env = dict(os.environ, TERM="xterm-256color", HIDDENHAND_CONFIG_DIR=config,
                   HIDDENHAND_DATA_DIR=config, COLUMNS=str(cols), LINES=str(rows))
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env.update(extra_env or {})
        probe = [sys.executable, str(HERE / "startup_probe.py"), str(out), marker.decode(),
                 "--", target, *args]
        proc = subprocess.Popen(probe, stdin=slave, stdout=slave, stderr=slave, env=env,
                                start_new_session=True, close_fds=True)
        os.close(slave)
        seen = b""
        deadline = time.perf_counter() + timeout
        try:
            while proc.poll() is None or not out.exists():
                left = deadline - time.perf_counter()
                if left <= 0:
                    raise TimeoutError(f"{command}: no {marker!r} after {timeout} s")
                ready, _, _ = select.select([master], [], [], min(left, 0.05))
                if ready:
                    try:
                        chunk = os.read(master, 65536)
                    except OSError:  # the child closed the terminal
                        chunk = b""
                    seen += chunk
                    if not chunk and not out.exists():
                        proc.wait(timeout=5)
                        raise RuntimeError(f"{command} ended before {marker!r} showed: "
                                           f"{ESCAPES.sub(b'', seen)[-500:]!r}")
                    if not chunk:
                        break
            return float(out.read_text().split()[0]) / 1000
        finally:
            _stop(proc, master)


def main(argv: list[str] | None = None) -> int:
    """Run every target ``--runs`` times round-robin and print medians and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--size", default="100x30", help="terminal COLSxROWS")
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("--before", default=None, metavar="REVISION",
                        help="also time the menu and the solo table of this git revision "
                        "(its engine, net and tui), in the same round-robin")
    parser.add_argument("--cpu", action="store_true",
                        help="report each target's main-thread CPU time at its first frame "
                        "(in-process, startup_probe.py) instead of the wall clock")
    args = parser.parse_args(argv)
    try:
        cols, rows = (int(x) for x in args.size.lower().split("x"))
    except ValueError:
        parser.error(f"--size must look like 100x30, not {args.size!r}")
    size = (cols, rows)
    with tempfile.TemporaryDirectory(prefix="hh-before-") as older:
        before = None
        if args.before is not None:
            try:
                before = export(args.before, Path(older))
            except subprocess.CalledProcessError as exc:
                parser.error(f"cannot export {args.before!r}: {exc.stderr.decode().strip()}")
        return run(targets(before), size, args.runs, args.timeout, argv, cpu=args.cpu)


def run(todo: dict[str, Target], size: tuple[int, int], runs: int, timeout: float,
        argv: list[str] | None, *, cpu: bool = False) -> int:
    """Time every target ``runs`` times round-robin after a warm-up round; print them
    (``cpu``: the main thread's CPU time at the first frame, not the wall clock)."""
    cols, rows = size
    measure = cpu_at_frame if cpu else first_frame
    print("command:", " ".join([os.path.relpath(sys.argv[0]), *(argv or sys.argv[1:])]))
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"terminal {cols}x{rows}; {runs} runs each, round-robin, after a warm-up")
    for command, marker, env in todo.values():
        first_frame(command, marker, size, timeout, env)
    times: dict[str, list[float]] = {name: [] for name in todo}
    for _ in range(runs):
        for name, (command, marker, env) in todo.items():
            times[name].append(measure(command, marker, size, timeout, env))
    base = statistics.median(times["trivial Textual app"])
    if cpu:
        print("main-thread CPU time at the first frame (in-process, startup_probe.py)")
    wide = max(map(len, times))
    print(f"{'':<{wide}} {'median ms':>10} {'min ms':>8} {'x trivial':>10}")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"{name:<{wide}} {median * 1000:>10.0f} {min(values) * 1000:>8.0f} "
              f"{median / base:>10.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

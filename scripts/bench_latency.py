"""Benchmark latency: one action → every one of 6 clients holds its new view.

The host runs in its own process, started as a person starts it: ``hiddenhand host
--game getout --seats 6 --bind 127.0.0.1 --port 0 --no-mdns`` (the port it picked is
read from its log). Six ``net.client.Client`` connections in this process take the
six seats over TCP on 127.0.0.1, the first starts the game, and then the seat on turn
(or, between rounds, the first seat that may deal) sends a random-legal action, seeded.
Each client reads its socket all the time and notes when an ``update`` with a newer view
version arrives; the latency of an action is from just before it is sent (stamped in
the task that sends it, right before ``Client.act`` writes the frame, as the baseline
stamps right before its ``write``) until the sixth client holds the view it caused.
Actions go one after another (the next once all six hold the last), ``--actions`` of
them or ``--seconds`` at most.

The baseline in the same run: a raw asyncio server in a process of its own (this
script with ``--raw-server``) that, for every frame a client sends, answers the sender
with a small reply and broadcasts one msgpack frame of the same size as the host's
average ``update`` frame in this run to the same six connections, length-prefixed like
the host's frames; the clients decode every frame with msgpack. It is the floor: the
same processes, sockets, event loops and serialisation, with no game and no host.
That frame is one long string, far cheaper to decode than a view; so a second raw run
broadcasts the update frames the first client received from the host, byte for byte
("the host's own frames"): the floor for frames of this shape.

``--profile FILE`` runs the host under pyinstrument (``pip install -e '.[bench]'``)
and writes its text report to FILE when the host stops: what the host spends its time
on while serving the actions. ``--timeline`` runs the host with a few clock readings
added (when it starts handling each action, and after each frame it writes) and prints
where an action's time goes, from the moment it is sent to the last client's consumer:
both processes read the same monotonic clock (``time.perf_counter``). ``--spin host``
(or ``both``: the raw servers too) runs the server's event loop so that after each event
it polls for ``--spin-ms`` more before it sleeps: an experiment, to tell what the sleeps
between actions cost from the work of an action, never how the host runs. Bounded in
time and count; 127.0.0.1 only.

    .venv/bin/python scripts/bench_latency.py [--actions 2000] [--seconds 60] [--seed 1]
                                              [--profile host-profile.txt] [--timeline]
                                              [--spin host|both] [--spin-ms 2]
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import os
import random
import re
import shutil
import signal
import statistics
import struct
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import msgpack
from benchstats import percentile

from net.limits import ACT_COST

CLIENTS = 6
LOOPBACK = "127.0.0.1"
HEADER = struct.Struct(">I")


def line(name: str, samples: list[float]) -> str:
    """One printed line: count, p50, p99 and max in ms."""
    ms = [s * 1000 for s in samples]
    return (f"{name:<34} n={len(ms):5d}  p50 {statistics.median(ms):6.3f} ms  "
            f"p99 {percentile(ms, 0.99):6.3f} ms  max {max(ms):7.3f} ms")


def hiddenhand_command() -> list[str]:
    """The console script next to this interpreter."""
    return [str(Path(sys.executable).parent / "hiddenhand")]


async def start_process(command: list[str], pattern: str, timeout: float = 30.0
                        ) -> tuple[asyncio.subprocess.Process, int]:
    """Start ``command``; read its output until ``pattern`` gives the port it listens on.

    A host keeps its journal in a scratch data directory of its own (removed by
    :func:`stop_process`), never in the user's: the app would offer a bench's tables to
    resume."""
    scratch = tempfile.mkdtemp(prefix="hiddenhand-bench-")
    proc = await asyncio.create_subprocess_exec(
        *command, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
        env=dict(os.environ, HIDDENHAND_MDNS_INTERFACES=LOOPBACK,
                 HIDDENHAND_DATA_DIR=scratch))
    _SCRATCH[proc.pid] = scratch
    assert proc.stdout is not None
    seen = []
    async with asyncio.timeout(timeout):
        while True:
            raw = await proc.stdout.readline()
            if not raw:
                raise RuntimeError(f"{command[0]} ended before listening: {''.join(seen)}")
            text = raw.decode(errors="replace")
            seen.append(text)
            match = re.search(pattern, text)
            if match:
                break

    async def drain() -> None:  # keep reading its log so it never blocks on a full pipe
        assert proc.stdout is not None
        while await proc.stdout.readline():
            pass

    asyncio.get_running_loop().create_task(drain())
    return proc, int(match.group(1))


async def stop_process(proc: asyncio.subprocess.Process) -> None:
    """SIGTERM (the host stops cleanly and pyinstrument writes its report), then wait."""
    if proc.returncode is None:
        proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(proc.wait(), 30)
        except TimeoutError:
            proc.kill()
            await proc.wait()
    scratch = _SCRATCH.pop(proc.pid, None)
    if scratch is not None:
        shutil.rmtree(scratch, ignore_errors=True)


#: The scratch data directory of each process :func:`start_process` started, by pid.
_SCRATCH: dict[int, str] = {}


# --------------------------------------------------------------------------- hiddenhand


async def stamped_act(client: Any, action: dict[str, Any], started: list[float]) -> None:
    """``client.act(action)``, noting the time just before the frame is written (as the
    raw baseline notes it just before its ``write``): ``act`` writes before it first
    waits."""
    started.append(time.perf_counter())
    await client.act(action)


def timed_host(out: str, argv: list[str]) -> int:
    """``hiddenhand`` with ``argv``, noting for each action it handles when it began
    (the ``act`` handler of ``net.handlers``) and when each frame went to the socket
    after it (the six updates and the ``ok``); written to ``out`` as msgpack when the
    host stops."""
    import atexit

    from net import handlers
    from net.connection import Connection
    from tui.cli import main as hiddenhand

    clock = time.perf_counter
    acts: list[list[float]] = []
    sends: list[float] = []
    write, on_act = Connection.send_frame, handlers.HANDLERS["act"]

    def send_frame(self: Any, frame: bytes) -> None:
        write(self, frame)
        sends.append(clock())

    def handle(host: Any, conn: Any, msg: dict[str, Any]) -> None:
        began = clock()
        sends.clear()
        on_act(host, conn, msg)
        acts.append([began, *sends])

    def save() -> None:
        with open(out, "wb") as f:
            f.write(msgpack.packb(acts))

    Connection.send_frame = send_frame  # type: ignore[method-assign]
    handlers.HANDLERS["act"] = handle
    atexit.register(save)
    return hiddenhand(argv)


def install_spin(ms: float) -> None:
    """Make every event loop made after this poll for ``ms`` after each event before it
    sleeps in ``epoll`` (``--spin``): a process that keeps its CPU (and caches) warm
    while the next message is on its way, at the price of a busy core."""
    import selectors

    spin = ms / 1000
    clock = time.perf_counter
    last = [0.0]

    class Spinning(selectors.DefaultSelector):
        def select(self, timeout: float | None = None) -> Any:
            if timeout is None or timeout > 0:
                until = last[0] + spin
                while clock() < until:
                    ready = super().select(0)
                    if ready:
                        last[0] = clock()
                        return ready
            ready = super().select(timeout)
            if ready:
                last[0] = clock()
            return ready

    selectors.DefaultSelector = Spinning  # type: ignore[misc]


def spun_host(ms: float, argv: list[str]) -> int:
    """``hiddenhand`` with ``argv``, its event loop spinning (:func:`install_spin`)."""
    from tui.cli import main as hiddenhand

    install_spin(ms)
    return hiddenhand(argv)


def print_timeline(host_file: str, marks: list[list[float]], who: str = "hiddenhand host"
                   ) -> None:
    """Where the time of an action goes: the host's readings matched to the bench's (the
    host's handling that began first after the action was sent), p50 and p99 in µs."""
    with open(host_file, "rb") as f:
        acts = msgpack.unpackb(f.read())
    began = [a[0] for a in acts]
    stages: dict[str, list[float]] = {name: [] for name in (
        "the host starts handling it", "its first update is written",
        "its last update is written", "its ok is written", "the first Client holds it",
        "the last Client holds it", "the last consumer has it")}
    for mark in marks:
        start, held, got = mark[0], mark[1:1 + CLIENTS], mark[1 + CLIENTS:]
        i = bisect.bisect_left(began, start)
        if i >= len(acts) or began[i] - start > 0.01 or len(acts[i]) != CLIENTS + 2:
            continue
        act = acts[i]
        for name, at in zip(stages, [act[0], act[1], act[-2], act[-1], min(held),
                                     max(held), max(got)], strict=True):
            stages[name].append((at - start) * 1e6)
    print(f"{who}: timeline of {len(stages['the host starts handling it'])} actions, "
          "µs after the action is sent (p50 / p99):")
    for name, values in stages.items():
        if values:
            print(f"  {name:<30} {statistics.median(values):7.1f} / "
                  f"{percentile(values, 0.99):7.1f}")


class HostBench:
    """``hiddenhand host`` in its own process and six ``Client``s on it, kept open
    between rounds (:meth:`run`), so that the baselines' rounds can come in between."""

    def __init__(self, args: argparse.Namespace, timeline: str | None = None) -> None:
        self.args = args
        self.timeline = timeline
        self.proc: asyncio.subprocess.Process | None = None
        self.clients: list[Any] = []
        self.readers: list[asyncio.Task[None]] = []
        #: Per action: when it was sent, when each Client held it, when each consumer had it.
        self.marks: list[list[float]] = []
        self.rng = random.Random(args.seed)
        self.over = False

    async def start(self) -> None:
        """Start the host, seat the six clients and start the game."""
        from net.client import Client

        args = self.args
        # (Its six players share 127.0.0.1 as a box's do: an address's limits, made for
        # a few people each at a laptop, would hold six players acting back to back.)
        command = [*hiddenhand_command(), "host", "--game", "getout", "--seats", str(CLIENTS),
                   "--bind", LOOPBACK, "--port", "0", "--no-mdns", "--name", "bench",
                   "--shared-address", LOOPBACK, *args.host_arg]
        if args.profile:
            command = [sys.executable, "-m", "pyinstrument", "--renderer", "text",
                       "--outfile", args.profile, *command]
        elif self.timeline is not None:
            command = [sys.executable, __file__, "--timed-host", self.timeline, *command[1:]]
        elif args.spin:
            command = [sys.executable, __file__, "--spun-host", str(args.spin_ms), *command[1:]]
        self.proc, port = await start_process(command, r"port (\d+)")
        clients = self.clients
        for i in range(CLIENTS):
            # The first keeps its raw frames: the baselines' frames come from them.
            clients.append(await Client.connect(LOOPBACK, port, name=f"p{i + 1}",
                                                record_frames=i == 0))
        (table,) = await clients[0].list_tables()
        for c in clients:
            await c.join(table["id"])
        for c in clients[1:]:
            await c.ready()
        self.got: list[dict[int, float]] = [{} for _ in clients]
        self.held: list[dict[int, float]] = [{} for _ in clients]
        self.latest: list[dict[str, Any] | None] = [None] * CLIENTS
        self.arrived = asyncio.Event()

        def holder(i: int) -> Any:
            def hold(msg: dict[str, Any]) -> None:  # the client has read and decoded it
                if msg.get("type") == "update" and msg.get("view") is not None:
                    self.held[i][msg["view"]["version"]] = time.perf_counter()
            return hold

        async def read(i: int, client: Client) -> None:
            async for msg in client:  # handed on to a consumer, one loop turn later
                if msg.get("type") != "update" or msg.get("view") is None:
                    continue
                self.got[i][msg["view"]["version"]] = time.perf_counter()
                self.latest[i] = msg
                self.arrived.set()

        for i, c in enumerate(clients):
            c.listeners.append(holder(i))
        self.readers = [asyncio.create_task(read(i, c)) for i, c in enumerate(clients)]
        await clients[0].start()
        await asyncio.wait_for(self._all_hold(0), 10)

    async def _all_hold(self, version: int) -> None:
        while not all(version in g for g in self.got):
            self.arrived.clear()
            await self.arrived.wait()

    async def run(self, count: int, end: float) -> tuple[list[float], list[float]]:
        """``count`` actions one after another (fewer if the match ends or the clock
        passes ``end``): each action's latency until every consumer had its view, and
        until every Client held it."""
        samples: list[float] = []
        samples_held: list[float] = []
        latest, got, held = self.latest, self.got, self.held
        while len(samples) < count and time.perf_counter() < end:
            movers = [i for i, m in enumerate(latest) if m is not None and m["legal"]]
            if not movers:
                self.over = True  # the match is over
                break
            i = movers[0]
            msg = latest[i]
            assert msg is not None
            version = msg["view"]["version"]
            action = self.rng.choice(msg["legal"])
            started: list[float] = []
            reply = asyncio.create_task(stamped_act(self.clients[i], action, started))
            await asyncio.wait_for(self._all_hold(version + 1), 10)
            start = started[0]
            samples.append(max(g[version + 1] for g in got) - start)
            samples_held.append(max(h[version + 1] for h in held) - start)
            self.marks.append([start, *(h[version + 1] for h in held),
                               *(g[version + 1] for g in got)])
            await reply
        return samples, samples_held

    def bodies(self) -> list[bytes]:
        """The update frame bodies the first client received so far (an update carries
        the table only when it changed)."""
        return [body for body in self.clients[0].raw_frames
                if msgpack.unpackb(body).get("type") == "update"]

    async def close(self) -> None:
        for t in self.readers:
            t.cancel()
        for c in self.clients:
            with contextlib.suppress(Exception):
                await c.close()
        if self.proc is not None:
            await stop_process(self.proc)
        if self.timeline is not None and os.path.exists(self.timeline):
            print_timeline(self.timeline, self.marks)


# --------------------------------------------------------------------------- raw asyncio


async def raw_server(size: int, frames_file: str | None, timeline: str | None = None
                     ) -> None:
    """The baseline server: for each frame in, a reply to its sender and a broadcast —
    of a padded frame of ``size`` bytes, or (``frames_file``) of the host's own update
    frames in turn, byte for byte. With ``timeline``, the same clock readings as the
    timed host's (:func:`timed_host`), written there when it stops."""
    writers: list[asyncio.StreamWriter] = []
    acts: list[list[float]] = []
    clock = time.perf_counter
    seq = 0

    def frame(obj: Any) -> bytes:
        data = msgpack.packb(obj)
        return HEADER.pack(len(data)) + data

    base = len(msgpack.packb({"type": "update", "seq": 2**31, "pad": ""}))
    pad = "x" * max(0, size - base)
    recorded: list[bytes] = []
    if frames_file is not None:
        with open(frames_file, "rb") as f:
            recorded = [HEADER.pack(len(b)) + b for b in msgpack.unpack(f)]

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal seq
        writers.append(writer)
        try:
            while True:
                (n,) = HEADER.unpack(await reader.readexactly(HEADER.size))
                if msgpack.unpackb(await reader.readexactly(n)).get("type") == "hello":
                    writer.write(frame({"type": "welcome"}))  # registered: no broadcast
                    continue
                began = clock()
                seq += 1
                writer.write(frame({"type": "ok"}))
                ok = clock()
                if recorded:
                    data = recorded[(seq - 1) % len(recorded)]
                else:
                    data = frame({"type": "update", "seq": seq, "pad": pad})
                sends = []
                for w in writers:
                    w.write(data)
                    sends.append(clock())
                if timeline is not None:
                    acts.append([began, *sends, ok])  # in the timed host's order
        except (asyncio.IncompleteReadError, ConnectionError):
            pass

    server = await asyncio.start_server(handle, LOOPBACK, 0)
    print(f"raw server listening on port {server.sockets[0].getsockname()[1]}", flush=True)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    async with server:
        await stop.wait()
    if timeline is not None:
        with open(timeline, "wb") as f:
            f.write(msgpack.packb(acts))


class RawBench:
    """The raw server (:func:`raw_server`) in its own process and six plain asyncio
    connections on it, each decoding every frame with msgpack; kept open between
    rounds (:meth:`run`). With ``timeline`` (a file), its timeline is printed as the
    host's is."""

    def __init__(self, size: float, frames_file: str | None = None,
                 timeline: str | None = None, spin_ms: float | None = None) -> None:
        self.size = size
        self.spin_ms = spin_ms
        self.frames_file = frames_file
        self.timeline = timeline
        self.marks: list[list[float]] = []
        self.seq = 0
        self.proc: asyncio.subprocess.Process | None = None
        self.conns: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
        self.readers: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        command = [sys.executable, __file__, "--raw-server", str(round(self.size))]
        if self.frames_file is not None:
            command += ["--raw-frames", self.frames_file]
        if self.timeline is not None:
            command += ["--raw-timeline", self.timeline]
        if self.spin_ms is not None:
            command += ["--raw-spin", str(self.spin_ms)]
        self.proc, port = await start_process(command, r"port (\d+)")
        self.conns = [await asyncio.open_connection(LOOPBACK, port) for _ in range(CLIENTS)]
        hello = msgpack.packb({"type": "hello"})
        for reader, writer in self.conns:  # each one registered before the first broadcast
            writer.write(HEADER.pack(len(hello)) + hello)
            (n,) = HEADER.unpack(await asyncio.wait_for(reader.readexactly(HEADER.size), 10))
            await reader.readexactly(n)
        self.got: list[dict[int, float]] = [{} for _ in self.conns]
        self.arrived = asyncio.Event()

        async def read(i: int, reader: asyncio.StreamReader) -> None:
            updates = 0
            while True:
                (n,) = HEADER.unpack(await reader.readexactly(HEADER.size))
                msg = msgpack.unpackb(await reader.readexactly(n))
                if msg["type"] == "update":
                    updates += 1
                    self.got[i][updates] = time.perf_counter()
                    self.arrived.set()

        self.readers = [asyncio.create_task(read(i, r)) for i, (r, _w) in enumerate(self.conns)]

    async def run(self, count: int) -> list[float]:
        """``count`` broadcasts, one after another (the n-th update is the n-th action's)."""
        samples: list[float] = []
        got = self.got
        request = msgpack.packb({"type": "act", "action": {"type": "draw"}, "ref": 1})
        for _ in range(count):
            self.seq += 1
            seq = self.seq
            start = time.perf_counter()
            self.conns[seq % CLIENTS][1].write(HEADER.pack(len(request)) + request)
            while not all(seq in g for g in got):
                self.arrived.clear()
                await asyncio.wait_for(self.arrived.wait(), 10)
            samples.append(max(g[seq] for g in got) - start)
            # The raw client decodes where it reads: it holds the frame as its reader has.
            self.marks.append([start, *(g[seq] for g in got), *(g[seq] for g in got)])
        return samples

    async def close(self) -> None:
        for t in self.readers:
            t.cancel()
        for _r, w in self.conns:
            w.close()
        if self.proc is not None:
            await stop_process(self.proc)
        if self.timeline is not None and os.path.exists(self.timeline):
            print_timeline(self.timeline, self.marks,
                           "raw asyncio broadcast of the host's own frames")


#: Actions the host serves before anything is counted: its frames make the baselines'.
WARM_UP = 200
#: A connection's message allowance refilled a second (``net.host.Host``'s ``rate``).
MESSAGE_RATE = 500.0


async def run(args: argparse.Namespace) -> int:
    """The host, then the two baselines with the host's frames, in interleaved rounds
    (the machine's pace drifts: each round of the host has its baselines' beside it);
    print all three."""
    host_all: list[float] = []
    held_all: list[float] = []
    raw_all: list[float] = []
    replay_all: list[float] = []
    end = time.perf_counter() + args.seconds
    with tempfile.TemporaryDirectory() as scratch:
        host = HostBench(args, os.path.join(scratch, "host") if args.timeline else None)
        raws: list[RawBench] = []
        try:
            await host.start()
            await host.run(WARM_UP, end)
            host.marks.clear()
            bodies = host.bodies()
            size = statistics.mean(len(b) for b in bodies)
            frames = os.path.join(scratch, "frames.msgpack")
            with open(frames, "wb") as f:
                f.write(msgpack.packb(bodies[-WARM_UP:]))
            spin = args.spin_ms if args.spin == "both" else None
            raws = [RawBench(size, spin_ms=spin),
                    RawBench(size, frames, os.path.join(scratch, "raw") if args.timeline
                             else None, spin_ms=spin)]
            for raw in raws:
                await raw.start()
            per_round = max(1, args.actions // args.rounds)
            while len(host_all) < args.actions and not host.over:
                count = min(per_round, args.actions - len(host_all))
                samples, held = await host.run(count, end)
                if not samples:
                    break
                host_all += samples
                held_all += held
                # A player's moves cost the host's message allowance (ACT_COST): back to
                # back, round after round, ours outran it. A rest after each round gives
                # each player back what it spent (twice its share of the moves), before
                # the baselines' rounds, so that the host's next round comes after theirs
                # as before.
                await asyncio.sleep(2 * len(samples) / CLIENTS * ACT_COST / MESSAGE_RATE)
                raw_all += await raws[0].run(len(samples))
                replay_all += await raws[1].run(len(samples))
        finally:
            await host.close()
            for raw in raws:
                await raw.close()
    print(f"6 clients on {LOOPBACK}; mean update frame {size:.0f} bytes; "
          f"{len(host_all)} actions in rounds of {per_round}, each round beside its baselines'")
    print(line("hiddenhand host (GET OUT!, 6 seats)", host_all))
    print(line("  … held by every Client (decoded)", held_all))
    print(line("raw asyncio broadcast (baseline)", raw_all))
    print(line("raw, the host's own frames", replay_all))
    own = statistics.median(host_all) / statistics.median(replay_all)
    print(f"ratio p50 {statistics.median(host_all) / statistics.median(raw_all):.2f}x, "
          f"p99 {percentile(host_all, 0.99) / percentile(raw_all, 0.99):.2f}x "
          f"(to the host's own frames: p50 {own:.2f}x); held by every Client: "
          f"p50 {statistics.median(held_all) / statistics.median(raw_all):.2f}x")
    if args.profile:
        print(f"host profile (pyinstrument) written to {args.profile}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments; run the benchmark (or, with --raw-server, the baseline server)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=10,
                        help="rounds the actions are split into, the baselines' beside each")
    parser.add_argument("--profile", default=None, metavar="FILE")
    parser.add_argument("--host-arg", action="append", default=[], metavar="ARG",
                        help="one more argument for hiddenhand host (repeatable), e.g. "
                        "--host-arg=--no-journal to see what the crash journal costs")
    parser.add_argument("--timeline", action="store_true",
                        help="print where each action's time goes, host and clients")
    parser.add_argument("--spin", choices=("host", "both"), default=None,
                        help="an experiment: the host's event loop (both: the raw "
                        "servers' too) polls for --spin-ms after each event before it "
                        "sleeps, to tell the cost of the sleeps between actions from "
                        "the work of one")
    parser.add_argument("--spin-ms", type=float, default=2.0,
                        help="how long a spinning loop polls after an event (default 2)")
    parser.add_argument("--timed-host", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--spun-host", type=float, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--raw-spin", type=float, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--raw-server", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--raw-frames", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--raw-timeline", default=None, help=argparse.SUPPRESS)
    args, rest = parser.parse_known_args(argv)
    if args.timed_host is not None:
        return timed_host(args.timed_host, rest)
    if args.spun_host is not None:
        return spun_host(args.spun_host, rest)
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    if sum(map(bool, (args.profile, args.timeline, args.spin))) > 1:
        parser.error("--profile, --timeline and --spin each run the host their own way: "
                     "pick one")
    if not 0 < args.spin_ms <= 100:
        parser.error("--spin-ms: between 0 and 100 ms")
    if args.raw_server is not None:
        if args.raw_spin is not None:
            install_spin(args.raw_spin)
        asyncio.run(raw_server(args.raw_server, args.raw_frames, args.raw_timeline))
        return 0
    if args.profile:
        import importlib.util

        if importlib.util.find_spec("pyinstrument") is None:
            parser.error("--profile needs pyinstrument: pip install -e '.[bench]'")
    print("command:", " ".join([os.path.relpath(sys.argv[0]), *(argv or sys.argv[1:])]))
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return asyncio.run(run(args))


if __name__ == "__main__":
    raise SystemExit(main())

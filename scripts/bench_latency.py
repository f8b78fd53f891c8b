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
on while serving the actions. Bounded in time and count; 127.0.0.1 only.

    .venv/bin/python scripts/bench_latency.py [--actions 2000] [--seconds 60] [--seed 1]
                                              [--profile host-profile.txt]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
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
    """Start ``command``; read its output until ``pattern`` gives the port it listens on."""
    proc = await asyncio.create_subprocess_exec(
        *command, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
        env=dict(os.environ, HIDDENHAND_MDNS_INTERFACES=LOOPBACK))
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


# --------------------------------------------------------------------------- hiddenhand


async def stamped_act(client: Any, action: dict[str, Any], started: list[float]) -> None:
    """``client.act(action)``, noting the time just before the frame is written (as the
    raw baseline notes it just before its ``write``): ``act`` writes before it first
    waits."""
    started.append(time.perf_counter())
    await client.act(action)


async def bench_host(
    args: argparse.Namespace,
) -> tuple[list[float], list[float], list[bytes]]:
    """Latencies of actions through ``hiddenhand host`` — until every client's consumer
    (``async for``) has the new view, and until every ``Client`` holds it (read and
    decoded: its listeners are called) — and the update frame bodies the first client
    received (their size and bytes make the baselines)."""
    from net.client import Client

    command = [*hiddenhand_command(), "host", "--game", "getout", "--seats", str(CLIENTS),
               "--bind", LOOPBACK, "--port", "0", "--no-mdns", "--name", "bench",
               *args.host_arg]
    if args.profile:
        command = [sys.executable, "-m", "pyinstrument", "--renderer", "text",
                   "--outfile", args.profile, *command]
    proc, port = await start_process(command, r"port (\d+)")
    clients: list[Client] = []
    readers: list[asyncio.Task[None]] = []
    try:
        for i in range(CLIENTS):
            # The first keeps its raw frames: the baseline's frame is their mean size.
            clients.append(await Client.connect(LOOPBACK, port, name=f"p{i + 1}",
                                                record_frames=i == 0))
        (table,) = await clients[0].list_tables()
        for c in clients:
            await c.join(table["id"])
        for c in clients[1:]:
            await c.ready()
        got: list[dict[int, float]] = [{} for _ in clients]
        held: list[dict[int, float]] = [{} for _ in clients]
        latest: list[dict[str, Any] | None] = [None] * CLIENTS
        arrived = asyncio.Event()

        def holder(i: int) -> Any:
            def hold(msg: dict[str, Any]) -> None:  # the client has read and decoded it
                if msg.get("type") == "update" and msg.get("view") is not None:
                    held[i][msg["view"]["version"]] = time.perf_counter()
            return hold

        async def read(i: int, client: Client) -> None:
            async for msg in client:  # handed on to a consumer, one loop turn later
                if msg.get("type") != "update" or msg.get("view") is None:
                    continue
                got[i][msg["view"]["version"]] = time.perf_counter()
                latest[i] = msg
                arrived.set()

        for i, c in enumerate(clients):
            c.listeners.append(holder(i))
        readers = [asyncio.create_task(read(i, c)) for i, c in enumerate(clients)]
        await clients[0].start()

        async def all_hold(version: int) -> None:
            while not all(version in g for g in got):
                arrived.clear()
                await arrived.wait()

        await asyncio.wait_for(all_hold(0), 10)
        rng = random.Random(args.seed)
        samples: list[float] = []
        samples_held: list[float] = []
        end = time.perf_counter() + args.seconds
        while len(samples) < args.actions and time.perf_counter() < end:
            movers = [i for i, m in enumerate(latest) if m is not None and m["legal"]]
            if not movers:
                break  # the match is over
            i = movers[0]
            msg = latest[i]
            assert msg is not None
            version = msg["view"]["version"]
            action = rng.choice(msg["legal"])
            started: list[float] = []
            reply = asyncio.create_task(stamped_act(clients[i], action, started))
            await asyncio.wait_for(all_hold(version + 1), 10)
            start = started[0]
            samples.append(max(g[version + 1] for g in got) - start)
            samples_held.append(max(h[version + 1] for h in held) - start)
            await reply
        # What went over the wire (an update carries the table only when it changed).
        bodies = [body for body in clients[0].raw_frames
                  if msgpack.unpackb(body).get("type") == "update"]
        return samples, samples_held, bodies
    finally:
        for t in readers:
            t.cancel()
        for c in clients:
            with contextlib.suppress(Exception):
                await c.close()
        await stop_process(proc)


# --------------------------------------------------------------------------- raw asyncio


async def raw_server(size: int, frames_file: str | None) -> None:
    """The baseline server: for each frame in, a reply to its sender and a broadcast —
    of a padded frame of ``size`` bytes, or (``frames_file``) of the host's own update
    frames in turn, byte for byte."""
    writers: list[asyncio.StreamWriter] = []
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
                seq += 1
                writer.write(frame({"type": "ok"}))
                if recorded:
                    data = recorded[(seq - 1) % len(recorded)]
                else:
                    data = frame({"type": "update", "seq": seq, "pad": pad})
                for w in writers:
                    w.write(data)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass

    server = await asyncio.start_server(handle, LOOPBACK, 0)
    print(f"raw server listening on port {server.sockets[0].getsockname()[1]}", flush=True)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    async with server:
        await stop.wait()


async def bench_raw(args: argparse.Namespace, size: float, count: int,
                    frames_file: str | None = None) -> list[float]:
    """Latencies of the raw broadcast, ``count`` of them, six clients like the host's
    (each decodes every frame with msgpack; the n-th update is the n-th action's)."""
    command = [sys.executable, __file__, "--raw-server", str(round(size))]
    if frames_file is not None:
        command += ["--raw-frames", frames_file]
    proc, port = await start_process(command, r"port (\d+)")
    conns = [await asyncio.open_connection(LOOPBACK, port) for _ in range(CLIENTS)]
    hello = msgpack.packb({"type": "hello"})
    for reader, writer in conns:  # each one registered before the first broadcast
        writer.write(HEADER.pack(len(hello)) + hello)
        (n,) = HEADER.unpack(await asyncio.wait_for(reader.readexactly(HEADER.size), 10))
        await reader.readexactly(n)
    got: list[dict[int, float]] = [{} for _ in conns]
    arrived = asyncio.Event()

    async def read(i: int, reader: asyncio.StreamReader) -> None:
        updates = 0
        while True:
            (n,) = HEADER.unpack(await reader.readexactly(HEADER.size))
            msg = msgpack.unpackb(await reader.readexactly(n))
            if msg["type"] == "update":
                updates += 1
                got[i][updates] = time.perf_counter()
                arrived.set()

    readers = [asyncio.create_task(read(i, r)) for i, (r, _w) in enumerate(conns)]
    samples: list[float] = []
    try:
        request = msgpack.packb({"type": "act", "action": {"type": "draw"}, "ref": 1})
        for seq in range(1, count + 1):
            start = time.perf_counter()
            conns[seq % CLIENTS][1].write(HEADER.pack(len(request)) + request)
            while not all(seq in g for g in got):
                arrived.clear()
                await asyncio.wait_for(arrived.wait(), 10)
            samples.append(max(g[seq] for g in got) - start)
        return samples
    finally:
        for t in readers:
            t.cancel()
        for _r, w in conns:
            w.close()
        await stop_process(proc)


async def run(args: argparse.Namespace) -> int:
    """The host, then the baseline with the host's frame size; print both."""
    host, host_held, bodies = await bench_host(args)
    size = statistics.mean(len(b) for b in bodies)
    raw = await bench_raw(args, size, len(host))
    with tempfile.NamedTemporaryFile(suffix=".msgpack") as frames:
        frames.write(msgpack.packb(bodies[-len(host):]))
        frames.flush()
        replay = await bench_raw(args, size, len(host), frames.name)
    print(f"6 clients on {LOOPBACK}; mean update frame {size:.0f} bytes")
    print(line("hiddenhand host (GET OUT!, 6 seats)", host))
    print(line("  … held by every Client (decoded)", host_held))
    print(line("raw asyncio broadcast (baseline)", raw))
    print(line("raw, the host's own frames", replay))
    own = statistics.median(host) / statistics.median(replay)
    print(f"ratio p50 {statistics.median(host) / statistics.median(raw):.2f}x, "
          f"p99 {percentile(host, 0.99) / percentile(raw, 0.99):.2f}x "
          f"(to the host's own frames: p50 {own:.2f}x); held by every Client: "
          f"p50 {statistics.median(host_held) / statistics.median(raw):.2f}x")
    if args.profile:
        print(f"host profile (pyinstrument) written to {args.profile}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments; run the benchmark (or, with --raw-server, the baseline server)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", default=None, metavar="FILE")
    parser.add_argument("--host-arg", action="append", default=[], metavar="ARG",
                        help="one more argument for hiddenhand host (repeatable), e.g. "
                        "--host-arg=--no-journal to see what the crash journal costs")
    parser.add_argument("--raw-server", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--raw-frames", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.raw_server is not None:
        asyncio.run(raw_server(args.raw_server, args.raw_frames))
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

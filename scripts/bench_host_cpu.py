"""Benchmark the host's own work per action, in-process: what ``bench_latency.py`` cannot
tell apart from the sockets, the kernel and the clients.

A ``net.host.Host`` (with its journal, as ``hiddenhand host`` keeps one) serves one
GET OUT! table of 6 seats; six ``net.client.Client`` connections over TCP on 127.0.0.1
take the seats and start the game. Then the connections' transports are swapped for
stand-ins that keep nothing, and each action (the seat on turn plays a seeded random
legal action; a new match after the last) is handed to the host as a frame body, as
its read callback hands one on (``net.handlers.receive``): the time is from that call to its
return: the engine, the journal and all seven frames made and handed to the transports
(the six updates and the ``ok``), without any socket write.

The actions come after a pause (``--gaps``, in ms; 0 is back to back): a process that
sleeps between actions, as the host does while it waits for the next one, finds its
caches cold, and the same Python takes longer. Each gap is run beside a baseline in the
same run, rounds interleaved: the raw broadcast's own work for one action (decode the
request, pack a reply, hand seven frames of the host's to the same stand-ins), with the
same pause. Bounded in time; 127.0.0.1 only.

    .venv/bin/python scripts/bench_host_cpu.py [--actions 2000] [--gaps 0,0.3,2] [--seed 1]
                                               [--no-journal]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import struct
import sys
import tempfile
import time
from typing import Any

import msgpack
from benchstats import percentile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))

SEATS = 6
LOOPBACK = "127.0.0.1"
HEADER = struct.Struct(">I")


class StandIn:
    """A transport that takes frames and keeps only the last few (for the baseline)."""

    def __init__(self) -> None:
        self.frames: list[bytes] = []

    def write(self, data: bytes) -> None:
        if len(self.frames) < 64:
            self.frames.append(bytes(data))

    def get_write_buffer_size(self) -> int:
        return 0

    def is_closing(self) -> bool:
        return False

    def abort(self) -> None:
        pass


async def pause(gap: float) -> None:
    """Let the loop sleep for ``gap`` seconds (none at all for 0: back to back)."""
    if gap > 0:
        await asyncio.sleep(gap)


async def run(args: argparse.Namespace) -> int:
    from net.client import Client
    from net.connection import Connection
    from net.handlers import receive
    from net.host import Host

    refused: list[str] = []
    fail = Connection.fail

    def counted_fail(self: Connection, code: str, message: str, ref: Any = None) -> None:
        refused.append(f"{code}: {message}")
        fail(self, code, message, ref)

    Connection.fail = counted_fail  # type: ignore[method-assign]

    gaps: list[float] = args.pauses  # seconds, checked by main()
    with tempfile.TemporaryDirectory() as scratch:
        journal = None if args.no_journal else os.path.join(scratch, "bench.journal")
        seeds = random.Random(args.seed)
        # No rate limit: the actions come faster than a person's (each is checked to
        # have been served, below). No pings within the run: the clients hear nothing
        # once their transports are swapped, and would hang up on a host gone silent.
        host = Host("bench", journal=journal, seed_source=lambda: seeds.getrandbits(32),
                    rate=1e9, burst=10**9, heartbeat=3600.0)
        await host.start(LOOPBACK, 0)
        host.create_table("bench", "getout", SEATS, {}, permanent=True)
        clients = [await Client.connect(LOOPBACK, host.port, name=f"p{i + 1}")
                   for i in range(SEATS)]
        (listed,) = await clients[0].list_tables()
        for c in clients:
            await c.join(listed["id"])
        for c in clients[1:]:
            await c.ready()
        await clients[0].start()
        table = host.tables[listed["id"]]
        conns = {}
        stand_ins = []
        for i, s in enumerate(table.seats):
            assert s.conn is not None
            conns[i] = s.conn
            stand = StandIn()
            s.conn.transport = stand  # type: ignore[assignment]
            stand_ins.append(stand)
        rng = random.Random(args.seed)
        packer = msgpack.Packer(use_bin_type=True)
        clock = time.perf_counter
        ref = 1000

        def request(seat: int, message: dict[str, Any]) -> None:
            nonlocal ref
            ref += 1
            receive(host, conns[seat], packer.pack({**message, "ref": ref}))

        def next_body() -> tuple[Any, bytes]:
            """The next action's connection and frame body (a new match after the last)."""
            nonlocal ref
            game = table.game
            assert game is not None
            seat = next((i for i in range(SEATS) if game.legal_actions(i)), None)
            if seat is None:
                creator = table.creator
                assert game.over and creator is not None
                request(creator, {"type": "to_lobby"})
                for i in range(SEATS):
                    if i != creator:
                        request(i, {"type": "ready", "ready": True})
                request(creator, {"type": "start"})
                return next_body()
            ref += 1
            action = rng.choice(game.legal_actions(seat))
            return conns[seat], packer.pack({"type": "act", "action": action, "ref": ref})

        # A warm-up, whose frames are the baseline's.
        for _ in range(100):
            receive(host, *next_body())
        frames = [s.frames[-1] for s in stand_ins]  # one update of each seat's
        sinks = [StandIn() for _ in range(SEATS)]
        raw_request = packer.pack({"type": "act", "action": {"type": "draw"}, "ref": 1})
        reply = {"type": "ok", "ref": 1}

        def raw_action() -> None:
            msgpack.unpackb(raw_request)
            data = packer.pack(reply)
            sinks[0].write(HEADER.pack(len(data)) + data)
            for sink, frame in zip(sinks, frames, strict=True):
                sink.write(frame)

        results: dict[float, tuple[list[float], list[float]]] = {g: ([], []) for g in gaps}
        per_round = 100
        done = 0
        end = clock() + args.seconds
        while done < args.actions and clock() < end:
            for gap in gaps:
                host_times, raw_times = results[gap]
                for _ in range(per_round):
                    item = next_body()
                    await pause(gap)
                    t0 = clock()
                    receive(host, *item)
                    host_times.append(clock() - t0)
                for _ in range(per_round):
                    await pause(gap)
                    t0 = clock()
                    raw_action()
                    raw_times.append(clock() - t0)
            done += per_round
        refused_in_run = list(refused)
        refused_in_run += [f"connection {c.id} closed during the run"
                           for c in conns.values() if c.closed]
        for c in clients:
            await c.close()
        await host.close(keep_journal=False)

    if refused_in_run:
        print(f"the host refused {len(refused_in_run)} requests (the figures would be "
              f"wrong), the first: {refused_in_run[0]}", file=sys.stderr)
        return 1
    print(f"GET OUT!, {SEATS} seats, one table; µs per action "
          f"(p50 / p99), rounds of {per_round} interleaved:")
    for gap in gaps:
        host_times, raw_times = results[gap]
        if not host_times:
            continue
        h = statistics.median(host_times) * 1e6
        r = statistics.median(raw_times) * 1e6
        hp = percentile(host_times, .99) * 1e6
        print(f"  pause {gap * 1000:4.1f} ms: host {h:7.1f} / {hp:7.1f}"
              f"   raw broadcast's work {r:5.1f} / {percentile(raw_times, .99) * 1e6:5.1f}"
              f"   (n={len(host_times)})")
    base = statistics.median(results[gaps[0]][0])
    for gap in gaps[1:]:
        if results[gap][0]:
            print(f"  host after a {gap * 1000:.1f} ms pause / after {gaps[0] * 1000:.1f} ms: "
                  f"{statistics.median(results[gap][0]) / base:.2f}x")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Parse and check the arguments, then run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=2000,
                        help="actions per pause length (default 2000)")
    parser.add_argument("--gaps", default="0,0.3,2",
                        help="pauses before each action, in ms, comma-separated "
                             "(default 0,0.3,2; the first is the others' reference)")
    parser.add_argument("--seconds", type=float, default=60, help="stop after this long")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-journal", action="store_true",
                        help="the host keeps no journal (as `hiddenhand host --no-journal`)")
    args = parser.parse_args(argv)
    try:
        gaps = [float(g) for g in args.gaps.split(",")]
    except ValueError:
        parser.error(f"--gaps takes numbers of ms separated by commas, not {args.gaps!r}")
    if any(g < 0 or g > 100 for g in gaps):
        parser.error("--gaps: each pause is between 0 and 100 ms")
    args.pauses = [g / 1000 for g in gaps]
    if args.actions < 1:
        parser.error("--actions must be at least 1")
    print("command: scripts/bench_host_cpu.py " + " ".join(argv or sys.argv[1:]))
    print("load average: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())

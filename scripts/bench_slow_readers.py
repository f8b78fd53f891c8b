"""Benchmark what peers that never read cost a table of bots, and the bomb's check cost.

One bots-only GET OUT! match (4 bots, no pacing) watched by one reading spectator is the
baseline; the same match is then played with one spectator that never reads (it still
answers the host's pings, so it looks alive), and with 40 such spectators plus a
connection pumping renames without reading the answers. Prints the bots' moves per
second, how many non-readers the host dropped, and this process's RSS growth (host and
clients share the process). Then times decoding and checking the issue's pre-hello
"CPU bomb" (``{"type":"act","action":{"type":"x","k":[[[]]*4096]*60}}``) with the
host's limits and, as the old baseline, with plain msgpack and the validator.

    .venv/bin/python scripts/bench_slow_readers.py [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import resource
import socket
import sys
import time
from pathlib import Path

import msgpack

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from net.client import Client
from net.host import Host
from net.limits import Bucket, Limits
from net.wire import codec, errors, framing, schemas

LOCAL = "127.0.0.1"


def rss_mb() -> float:
    """Current resident memory of this process in MB (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def lazy_peer(port: int, table: str, name: str) -> socket.socket:
    """A spectator that never reads (tiny receive buffer) but sends a pong now and then."""
    loop = asyncio.get_running_loop()
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    sock.setblocking(False)
    await loop.sock_connect(sock, (LOCAL, port))
    hello = {"type": "hello", "version": framing.PROTOCOL_VERSION, "name": name}
    await loop.sock_sendall(sock, codec.pack(hello))
    await loop.sock_sendall(sock, codec.pack({"type": "join", "table": table, "spectate": True}))
    return sock


async def match(seed: int, lazy: int, pump: bool) -> tuple[float, int, int, int, float]:
    """(moves/s, moves, non-readers dropped, coalescing, RSS growth MB) for one match."""
    rng = random.Random(seed)
    host = Host("bench", bot_delay=0, heartbeat=1.0, seed_source=lambda: rng.getrandbits(62),
                limits=Limits(max_per_address=1000, max_unjoined_per_address=1000,
                              max_spectators=1000, max_spectators_per_address=1000,
                              connect_burst=1000))
    await host.start(LOCAL, 0)
    table = host.create_table("Bots", "getout", 4, bots=4)
    # (Its spectators come all at once, faster than a table takes them: not what is
    # measured here.)
    table.watchers = Bucket(1000.0, 1000, 0.0)
    reader = await Client.connect(LOCAL, host.port, name="Reader")
    await reader.join(table.id, spectate=True)
    socks = [await lazy_peer(host.port, table.id, f"L{i}") for i in range(lazy)]
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()

    async def keep_alive() -> None:
        while not stop.is_set():
            for s in socks:
                with contextlib.suppress(OSError):
                    s.send(codec.pack({"type": "pong"}))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 0.5)

    async def renames() -> None:
        sock = await lazy_peer(host.port, table.id, "Pump")
        i = 0
        while not stop.is_set():
            with contextlib.suppress(OSError):
                await loop.sock_sendall(sock, codec.pack({"type": "rename", "name": f"P{i}"}))
            i += 1
            await asyncio.sleep(0.002)
        sock.close()

    tasks = [asyncio.create_task(keep_alive())]
    if pump:
        tasks.append(asyncio.create_task(renames()))
    await reader.wait_for(lambda m: m["type"] == "update"
                          and m["table"]["spectators"] == 1 + lazy + pump, 30)
    before = rss_mb()
    started = time.perf_counter()
    host.deliver(table, table.start(host.clock()))
    final = await reader.wait_for(
        lambda m: m["type"] == "update" and m["table"]["phase"] == "over", 600)
    seconds = time.perf_counter() - started
    growth = rss_mb() - before
    moves = final["view"]["version"]
    dropped = lazy + pump - (final["table"]["spectators"] - 1)
    coalescing = sum(1 for c in host.connections if c.congested)
    stop.set()
    await asyncio.gather(*tasks)
    for s in socks:
        s.close()
    await reader.close()
    await host.close()
    return moves / seconds, moves, dropped, coalescing, growth


def bomb_costs() -> tuple[float, float]:
    """Seconds to refuse the bomb now, and to decode and check it the old way."""
    body = msgpack.packb({"type": "act", "action": {"type": "x", "k": [[[]] * 4096] * 60}})
    start = time.perf_counter()
    for _ in range(10):
        with contextlib.suppress(errors.ProtocolError):
            schemas.validate_client_message(codec.unpack_client_body(body))
    now = (time.perf_counter() - start) / 10
    start = time.perf_counter()
    for _ in range(3):
        with contextlib.suppress(errors.ProtocolError):
            schemas.validate_client_message(codec.unpack_body(body))
    old = (time.perf_counter() - start) / 3
    return now, old


async def main_async(seed: int) -> None:
    for label, lazy, pump in [("baseline: one reading spectator", 0, False),
                              ("+ 1 spectator that never reads", 1, False),
                              ("+ 40 that never read and a rename pump", 40, True)]:
        rate, moves, dropped, coalescing, growth = await match(seed, lazy, pump)
        print(f"{label:42} {rate:7.1f} moves/s ({moves} versions); of {lazy + pump} "
              f"non-readers {dropped} dropped, {coalescing} coalescing; RSS {growth:+.1f} MB")
    now, old = bomb_costs()
    print(f"CPU bomb (246 KB, 245,000 lists): refused in {now * 1000:.2f} ms; "
          f"plain msgpack + validator took {old * 1000:.1f} ms (baseline)")
    print("before hello the host reads no frame over "
          f"{framing.MAX_HELLO_FRAME} bytes: the bomb is refused from its 4-byte length")


def main() -> int:
    """Parse the arguments and run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(main_async(args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""One connection's burst delays nobody else: another player's ping round trip while a
connection at the same host sends ``--burst`` requests in one go (``--kind``: pings,
table lists, chats, renames, tables opened, joins refused).

The host runs in its own process (``hiddenhand host --bind 127.0.0.1 --port 0 --no-mdns``,
127.0.0.1 shared as the box shares it, so the burst's address limits do not close it
first). A victim ``net.client.Client`` pings the host every ``--every`` ms and notes each
round trip. The baseline in the same run is the victim alone for as many pings; then
the attacker connects, says hello and writes ``--burst`` ping frames at once (one
``write``), ``--bursts`` times, while the victim goes on. Prints the victim's p50, p99
and max in each phase.

With ``--addresses N`` the attack is many addresses instead, each within its own
allowance: the host keeps its limits per address (no shared address), and from each of
127.0.0.2 … 127.0.0.(N+1) (loopback, bound as the connection's own end; the host is
reached on 127.0.0.1) ``--connections`` connections say hello and send ``--rate``
requests a second each for the attack's ``--seconds``, a steady stream rather than one
write. The victim connects from 127.0.0.1.

    .venv/bin/python scripts/bench_burst.py [--burst 20000] [--bursts 5] [--every 5]
    .venv/bin/python scripts/bench_burst.py --addresses 39 [--connections 3] [--rate 490]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import sys
import tempfile
import time

import msgpack

from net.client import Client
from net.wire import framing


async def start_host(scratch: str, shared: bool = True
                     ) -> tuple[asyncio.subprocess.Process, int]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui.cli", "host", "--bind", "127.0.0.1", "--port", "0",
        "--no-mdns", "--no-journal", "--no-record",
        *(["--shared-address", "127.0.0.1"] if shared else []),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
        env={**os.environ, "HIDDENHAND_DATA_DIR": scratch, "HIDDENHAND_CONFIG_DIR": scratch})
    assert proc.stdout is not None
    while True:
        line = (await asyncio.wait_for(proc.stdout.readline(), 20)).decode()
        if not line:
            raise SystemExit("the host ended before it listened")
        found = re.search(r"listening on .* port (\d+)", line)
        if found:
            return proc, int(found.group(1))


async def victim(port: int, count: int, every: float) -> list[float]:
    client = await Client.connect("127.0.0.1", port, name="Victim")
    times = []
    for _ in range(count):
        start = time.perf_counter()
        await client.ping()
        times.append((time.perf_counter() - start) * 1000)
        await asyncio.sleep(every)
    await client.close()
    return times


#: What a burst is made of: each kind of request a connection at no table may send
#: (a lobby browser's list, a chat or a rename with no table to reach, a table opened
#: again and again, a request the host refuses at once).
KINDS = {
    "ping": lambda i: {"type": "ping", "ref": 10_000 + i},
    "list_tables": lambda i: {"type": "list_tables", "ref": 10_000 + i},
    "chat": lambda i: {"type": "chat", "text": f"spam {i}", "ref": 10_000 + i},
    "rename": lambda i: {"type": "rename", "name": f"Flood{i % 100}", "ref": 10_000 + i},
    "create_table": lambda i: {"type": "create_table", "name": f"T{i}", "game": "getout",
                               "seats": 2, "ref": 10_000 + i},
    "join": lambda i: {"type": "join", "table": "nosuchtable", "ref": 10_000 + i},
}


async def attacker(port: int, burst: int, bursts: int, gap: float, kind: str) -> None:
    """A raw connection: hello, then the bursts; it never reads what the host answers
    (reading 100,000 replies in this process would slow the victim's client here, not
    at the host)."""
    _reader, writer = await asyncio.open_connection("127.0.0.1", port)
    hello = {"type": "hello", "version": framing.PROTOCOL_VERSION, "name": "Flood"}
    writer.write(framing.frame(msgpack.packb(hello)))
    frames = b"".join(framing.frame(msgpack.packb(KINDS[kind](i))) for i in range(burst))
    for _ in range(bursts):
        writer.write(frames)
        await asyncio.sleep(gap)
    writer.close()


async def stream_from(address: str, port: int, rate: float, seconds: float,
                      kind: str) -> None:
    """One connection from ``address``: hello, then ``rate`` requests a second, a few
    every 10 ms, for ``seconds``; it never reads (see :func:`attacker`). A connection
    the host closes ends it."""
    _reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                   local_addr=(address, 0))
    hello = {"type": "hello", "version": framing.PROTOCOL_VERSION, "name": "Flood"}
    writer.write(framing.frame(msgpack.packb(hello)))
    tick, sent, start = 0.01, 0, time.perf_counter()
    try:
        while (now := time.perf_counter() - start) < seconds:
            due = int(now * rate) + 1
            writer.write(b"".join(framing.frame(msgpack.packb(KINDS[kind](i)))
                                  for i in range(sent, due)))
            sent = due
            await writer.drain()
            await asyncio.sleep(tick)
    except (ConnectionError, OSError):
        pass
    writer.close()


async def many(port: int, args: argparse.Namespace) -> None:
    """``--addresses`` addresses, ``--connections`` connections each, all streaming."""
    await asyncio.gather(*(
        stream_from(f"127.0.0.{2 + a}", port, args.rate, args.seconds, args.kind)
        for a in range(args.addresses) for _ in range(args.connections)))


def line(label: str, times: list[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    slow = sum(1 for t in times if t > 10)
    return (f"{label:34} n={len(times):5}  p50 {statistics.median(times):7.2f} ms  "
            f"p99 {p99:7.2f} ms  max {ordered[-1]:7.2f} ms  over 10 ms: {slow}")


async def main(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory() as scratch:
        proc, port = await start_host(scratch, shared=not args.addresses)
        try:
            count = int(args.seconds * 1000 / max(args.every, 1))
            alone = await victim(port, count, args.every / 1000)
            attack = asyncio.create_task(
                many(port, args) if args.addresses else
                attacker(port, args.burst, args.bursts, args.seconds / args.bursts, args.kind))
            during = await victim(port, count, args.every / 1000)
            await attack
        finally:
            proc.terminate()
            await proc.wait()
    print(f"command: {' '.join(sys.argv)}")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(line("victim's ping, alone (baseline)", alone))
    what = (f"{args.addresses} addresses x {args.connections} x {args.rate:g}/s {args.kind}"
            if args.addresses else f"{args.bursts} x {args.burst} {args.kind}")
    print(line(f"victim's ping, {what}", during))
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--burst", type=int, default=20000)
    parser.add_argument("--bursts", type=int, default=5)
    parser.add_argument("--every", type=float, default=5.0, help="ms between victim pings")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--kind", choices=sorted(KINDS), default="ping",
                        help="what the burst asks for (default ping)")
    parser.add_argument("--addresses", type=int, default=0,
                        help="attack from this many addresses instead (at most 250)")
    parser.add_argument("--connections", type=int, default=3,
                        help="connections an address (with --addresses)")
    parser.add_argument("--rate", type=float, default=490.0,
                        help="requests a second a connection (with --addresses)")
    raise SystemExit(asyncio.run(main(parser.parse_args())))

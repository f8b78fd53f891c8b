"""Benchmark capacity: tables of 4 bot seats on one host process, stepped up.

One host process (``hiddenhand host --bind 127.0.0.1 --port 0 --no-mdns``, with its
limits raised to hold ``--max`` tables of players who all come from 127.0.0.1 —
``--shared-address 127.0.0.1``, ``--max-tables``, ``--max-connections`` — plus any
``--host-arg`` given) serves every table. The players are clients in other processes (``--workers``
of them, this script with ``--worker``): each table is opened by one client with
``create_table`` (GET OUT!, 4 seats), joined by three more, readied and started, and
every seat is then played by the real bot (``engine.bots.make_bot``) over TCP on
127.0.0.1, seeing only what its connection receives. A bot thinks ``--think`` seconds
(as the host's own bots pause between moves) and acts; the *action latency* is from
sending the action until its own connection holds the view that action caused. A bot
whose match is over stops (a bounded step seldom sees one end).

The number of tables goes 1, 2, 4, 8, ... (``--max``). After each step has warmed up
for a second, latencies are collected for ``--step-seconds``; the step prints its p50 and
p99 latency, the actions per second served, the host's resident memory (VmRSS) and the
memory per table above the host's RSS with no tables. It stops at the first step whose
p99 passes ``--limit-ms`` (50), when the host refuses a table or a connection (its
limits), or after ``--budget`` seconds in all. The baseline in the same run is step 1:
one table alone on the host, against which every step's latency is a ratio.

    .venv/bin/python scripts/bench_capacity.py [--max 256] [--think 0.3]
        [--step-seconds 5] [--workers 2] [--limit-ms 50] [--budget 300] [--host-arg=...]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from benchstats import percentile

LOOPBACK = "127.0.0.1"
SEATS = 4


def rss_kib(pid: int) -> int:
    """The resident memory of process ``pid`` in KiB (Linux ``/proc``)."""
    for text in Path(f"/proc/{pid}/status").read_text().splitlines():
        if text.startswith("VmRSS:"):
            return int(text.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}")


# --------------------------------------------------------------------------- worker


class Worker:
    """Tables of bot clients in this process, told what to do on stdin."""

    def __init__(self, port: int, think: float) -> None:
        self.port = port
        self.think = think
        self.samples: list[float] = []
        self.tasks: list[asyncio.Task[None]] = []
        self.clients: list[Any] = []

    async def add_table(self, seed: int) -> None:
        """Open one table, seat four bot clients, start it and let them play."""
        from engine.bots import make_bot
        from net.client import Client

        clients = [await Client.connect(LOOPBACK, self.port, name=f"b{seed}-{i}")
                   for i in range(SEATS)]
        self.clients += clients
        joined = await clients[0].create_table(f"t{seed}", "getout", SEATS)
        for c in clients[1:]:
            await c.join(joined.table)
            await c.ready()
        await clients[0].start()
        for i, c in enumerate(clients):
            self.tasks.append(asyncio.create_task(self.play(c, make_bot("getout", i, seed))))

    async def play(self, client: Any, bot: Any) -> None:
        """Think, act, and time until our own connection holds the view it caused."""
        from net.client import ServerError

        while True:
            msg = client.latest
            while msg is None or msg.get("view") is None:
                await client.next()
                msg = client.latest
            if msg["table"]["phase"] == "over":
                return
            if not msg["legal"]:
                await client.next()
                continue
            version = msg["view"]["version"]
            await asyncio.sleep(self.think)
            msg = client.latest
            if msg["view"]["version"] != version or not msg["legal"]:
                continue  # someone moved meanwhile: think again on the new view
            action = bot.choose(msg["view"], msg["legal"])
            start = time.perf_counter()
            try:
                await client.act(action)
            except ServerError:
                continue
            while (client.latest or {}).get("view", {}).get("version", -1) <= version:
                await client.next()
            self.samples.append(time.perf_counter() - start)

    async def serve(self) -> None:
        """Answer the commands of the benchmark, one JSON line each."""
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        while True:
            raw = await reader.readline()
            if not raw:
                return
            words = raw.decode().split()
            try:
                if words[0] == "add":
                    count, seed = int(words[1]), int(words[2])
                    for k in range(count):
                        await self.add_table(seed + k)
                    answer: dict[str, Any] = {"ok": True}
                elif words[0] == "measure":
                    self.samples = []
                    await asyncio.sleep(float(words[1]))
                    answer = {"ok": True, "samples": self.samples}
                else:
                    return
            except Exception as exc:  # a refusal by the host ends the stepping
                answer = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
            print(json.dumps(answer), flush=True)


async def worker_main(port: int, think: float) -> None:
    """Run one worker until its stdin closes."""
    worker = Worker(port, think)
    try:
        await worker.serve()
    finally:
        for t in worker.tasks:
            t.cancel()
        for c in worker.clients:
            with contextlib.suppress(Exception):
                await c.close()


# --------------------------------------------------------------------------- benchmark


async def ask(proc: asyncio.subprocess.Process, command: str, timeout: float) -> dict[str, Any]:
    """Send one command line to a worker; its JSON answer."""
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(command.encode() + b"\n")
    await proc.stdin.drain()
    line = await asyncio.wait_for(proc.stdout.readline(), timeout)
    if not line:
        raise RuntimeError(f"a worker ended on {command!r}")
    answer: dict[str, Any] = json.loads(line)
    return answer


async def run(args: argparse.Namespace) -> int:
    """Start the host and the workers; step the tables up; print a row per step."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_latency import hiddenhand_command, start_process, stop_process

    began = time.perf_counter()
    host_cmd = [*hiddenhand_command(), "host", "--game", "getout", "--seats", str(SEATS),
                "--bind", LOOPBACK, "--port", "0", "--no-mdns", "--name", "capacity",
                # Every player here comes from one address and the point is to find where
                # latency gives, not where the host's limits for strangers refuse:
                "--shared-address", LOOPBACK, "--max-tables", str(args.max + 1),
                "--max-connections", str(SEATS * (args.max + 1) + 16),
                *args.host_arg]
    host, port = await start_process(host_cmd, r"port (\d+)")
    idle_rss = rss_kib(host.pid)
    workers = [await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--worker", str(port), "--think", str(args.think),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        for _ in range(args.workers)]
    print(f"host pid {host.pid}, RSS with its one idle table {idle_rss / 1024:.1f} MiB; "
          f"bots think {args.think} s; {args.workers} worker processes")
    print(f"{'tables':>6} {'actions/s':>9} {'p50 ms':>7} {'p99 ms':>7} {'x step 1':>8} "
          f"{'RSS MiB':>8} {'KiB/table':>9}")
    tables = 0
    base_p99: float | None = None
    seed = args.seed
    stop = ""
    try:
        target = 1
        while target <= args.max:
            if time.perf_counter() - began > args.budget:
                stop = f"the {args.budget:g} s budget is spent"
                break
            add = target - tables
            shares = [add // len(workers) + (1 if i < add % len(workers) else 0)
                      for i in range(len(workers))]
            answers = await asyncio.gather(*(
                ask(w, f"add {n} {seed + i * 100_000}", 120) for i, (w, n) in
                enumerate(zip(workers, shares, strict=True)) if n))
            seed += add
            failed = [a["error"] for a in answers if not a["ok"]]
            if failed:
                stop = f"the host refused at {target} tables: {failed[0]}"
                break
            tables = target
            await asyncio.sleep(1.0)
            answers = await asyncio.gather(*(
                ask(w, f"measure {args.step_seconds}", args.step_seconds + 60)
                for w in workers))
            samples = [s for a in answers for s in a["samples"]]
            if not samples:
                stop = f"no action was timed at {tables} tables"
                break
            rss = rss_kib(host.pid)
            p99 = percentile(samples, 0.99) * 1000
            base_p99 = base_p99 or p99
            print(f"{tables:>6} {len(samples) / args.step_seconds:>9.0f} "
                  f"{statistics.median(samples) * 1000:>7.2f} {p99:>7.2f} "
                  f"{p99 / base_p99:>8.2f} {rss / 1024:>8.1f} "
                  f"{(rss - idle_rss) / tables:>9.0f}", flush=True)
            if p99 > args.limit_ms:
                stop = f"p99 passed {args.limit_ms:g} ms at {tables} tables"
                break
            target *= 2
        else:
            stop = f"reached --max {args.max}"
    finally:
        for w in workers:
            if w.stdin is not None:
                w.stdin.close()
        for w in workers:
            try:
                await asyncio.wait_for(w.wait(), 20)
            except TimeoutError:
                w.kill()
                await w.wait()
        await stop_process(host)
    print(f"stopped: {stop}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments; run the benchmark (or, with --worker, one worker)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max", type=int, default=256)
    parser.add_argument("--think", type=float, default=0.3)
    parser.add_argument("--step-seconds", type=float, default=5.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--limit-ms", type=float, default=50.0)
    parser.add_argument("--budget", type=float, default=300.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--host-arg", action="append", default=[],
                        help="an extra argument for 'hiddenhand host' (repeatable)")
    parser.add_argument("--worker", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker is not None:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(worker_main(args.worker, args.think))
        return 0
    signal.signal(signal.SIGINT, signal.default_int_handler)
    random.seed(args.seed)
    print("command:", " ".join([os.path.relpath(sys.argv[0]), *(argv or sys.argv[1:])]))
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return asyncio.run(run(args))


if __name__ == "__main__":
    raise SystemExit(main())

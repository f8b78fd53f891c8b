"""Soak a journaling host: many tables of bots, random disconnects, slow readers, kill -9.

A host runs as a child process on 127.0.0.1 (``--child``), journaling to a temporary
directory. ``--tables`` tables play game after game (GET OUT! and Got Five!, two client
seats each driven by a bot through the wire, one bot seat inside the host, and one
spectator that never reads). Every few seconds a random client's connection is cut and
comes back with its token; every ``--kill-every`` seconds the host is killed with
SIGKILL and restarted with ``Host.resume`` on the same port, and every client comes
back by itself.

An *action lost* is a game version a client had seen (so the host had acknowledged
it) that the host no longer has when the client is back in: it must be 0. Prints
games, moves, reconnects, kills, errors, losses, and the host's RSS at the start and
end of each life (from 10 s after its start) with its growth per hour. Bounded in time
(``--seconds``, default 120) and count; 127.0.0.1 only.

    .venv/bin/python scripts/soak.py [--seconds 120] [--tables 6] [--kill-every 40]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import socket
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.bots import make_bot  # noqa: E402
from net.autoplay import drive  # noqa: E402
from net.client import Client, ConnectionLost, ServerError  # noqa: E402
from net.host import Host  # noqa: E402
from net.limits import Limits  # noqa: E402

LOCAL = "127.0.0.1"
#: Everyone here connects from 127.0.0.1, an address shared as a box's is (its clients
#: together send faster than one address may), and the other limits are raised.
SOAK_LIMITS = Limits(shared_addresses=frozenset({LOCAL}),
                     max_per_address=10_000, max_unjoined_per_address=10_000,
                     max_tables=1000, max_tables_per_address=10_000,
                     lobby_rate=1000.0, lobby_burst=10_000)


async def child(port: int, journal: Path, resume: bool) -> None:
    """The host under test (a child process, so that it can be killed for real)."""
    settings: dict[str, Any] = {"bot_delay": 0.02, "limits": SOAK_LIMITS}
    host = Host.resume(journal, **settings) if resume else Host("soak", journal=journal,
                                                                 **settings)
    await host.start(LOCAL, port)
    print("ready", flush=True)
    await asyncio.Event().wait()


def rss_kb(pid: int) -> int:
    """Resident memory of ``pid`` in KiB (Linux)."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


@dataclass
class Stats:
    """What the run counts."""

    games: int = 0
    moves: int = 0
    reconnects: int = 0
    kills: int = 0
    lost: int = 0
    errors: list[str] = field(default_factory=list)
    lives: list[tuple[float, int, int]] = field(default_factory=list)  # seconds, rss0, rss1
    samples: list[tuple[float, int]] = field(default_factory=list)  # seconds, host RSS KiB


class HostProcess:
    """Start, kill -9 and resume the child host."""

    def __init__(self, port: int, journal: Path) -> None:
        self.port = port
        self.journal = journal
        self.proc: asyncio.subprocess.Process | None = None
        self.born = 0.0
        self.rss0 = 0
        self.warm: float | None = None

    async def start(self, resume: bool) -> None:
        args = [sys.executable, __file__, "--child", str(self.port), str(self.journal)]
        if resume:
            args.append("--resume")
        self.proc = await asyncio.create_subprocess_exec(
            *args, stdout=asyncio.subprocess.PIPE, cwd=ROOT)
        assert self.proc.stdout is not None
        line = await asyncio.wait_for(self.proc.stdout.readline(), 30)
        if line.strip() != b"ready":
            raise RuntimeError(f"the host did not start: {line!r}")
        self.born, self.rss0, self.warm = time.monotonic(), rss_kb(self.proc.pid), None

    def warm_up(self) -> None:
        """Growth is measured from 10 s after the start (imports and first games done)."""
        if self.warm is None and self.proc is not None and time.monotonic() - self.born > 10:
            self.warm, self.rss0 = time.monotonic(), rss_kb(self.proc.pid)

    def life(self) -> tuple[float, int, int]:
        """Seconds since warm-up (or start), RSS then and now."""
        assert self.proc is not None
        since = self.warm if self.warm is not None else self.born
        return time.monotonic() - since, self.rss0, rss_kb(self.proc.pid)

    async def kill(self) -> tuple[float, int, int]:
        life = self.life()
        assert self.proc is not None
        self.proc.kill()
        await self.proc.wait()
        return life


@dataclass
class Player:
    """One client seat: its connection and what it takes to get back in."""

    name: str
    seat: int
    table: str
    token: str
    client: Client


class Soak:
    """The parent: tables of clients, chaos, accounting."""

    def __init__(self, args: argparse.Namespace, host: HostProcess) -> None:
        self.args = args
        self.host = host
        self.rng = random.Random(args.seed)
        self.stats = Stats()
        self.players: list[Player] = []
        self.seen: dict[str, int] = {}  # table -> highest version any client saw
        self.end = time.monotonic() + args.seconds

    async def connect(self, name: str) -> Client:
        return await Client.connect(LOCAL, self.host.port, name=name, timeout=5)

    def note(self, player: Player) -> None:
        latest = player.client.latest
        if latest and latest.get("view"):
            version = latest["view"]["version"]
            self.seen[player.table] = max(self.seen.get(player.table, 0), version)

    async def come_back(self, player: Player) -> None:
        """Reconnect with the token (retrying while the host restarts); count losses."""
        self.note(player)
        with contextlib.suppress(Exception):
            await player.client.close()
        give_up = time.monotonic() + 60
        while True:
            try:
                client = await self.connect(player.name)
                try:
                    await client.join(player.table, player.seat, token=player.token)
                except BaseException:
                    await client.close()
                    raise
                break
            except (OSError, ConnectionLost, TimeoutError):
                if time.monotonic() > give_up:
                    raise
                await asyncio.sleep(0.2)
        player.client = client
        self.stats.reconnects += 1
        first = await client.wait_for(lambda m: m["type"] == "update" and m["view"], 30)
        lost = self.seen.get(player.table, 0) - first["view"]["version"]
        if lost > 0:
            self.stats.lost += lost
            self.stats.errors.append(f"table {player.table}: {lost} version(s) lost")

    async def play_seat(self, player: Player, game_id: str, seed: int) -> None:
        """Drive one seat to the end of its game, coming back after every drop."""
        while True:
            try:
                await drive(player.client, make_bot(game_id, player.seat, seed), timeout=600)
                self.note(player)
                return
            except ConnectionLost:
                await self.come_back(player)

    async def game(self, worker: int, number: int) -> None:
        """One game at a fresh table: two client seats, a bot, a non-reading spectator."""
        game_id = ["getout", "gotfive"][(worker + number) % 2]
        options = {"limit": 40} if game_id == "getout" else {}
        ann = await self.connect(f"A{worker}")
        bob = await self.connect(f"B{worker}")
        lazy = None
        try:
            joined = await ann.create_table(f"W{worker}", game_id, 3, options)
            bob_seat = await bob.join(joined.table)
            await ann.add_bot(2)
            await bob.ready()
            if self.rng.random() < 0.5:
                lazy = await self.connect(f"L{worker}")
                await lazy.join(joined.table, spectate=True)
                lazy._writer.transport.pause_reading()  # type: ignore[attr-defined]  # never read again
            await ann.start()
        except (ServerError, ConnectionLost, OSError, TimeoutError):
            for c in (ann, bob, lazy):
                if c is not None:
                    await c.close()
            await asyncio.sleep(0.5)  # the host was being killed; try a new game
            return
        assert joined.token and bob_seat.token
        players = [Player(f"A{worker}", 0, joined.table, joined.token, ann),
                   Player(f"B{worker}", 1, joined.table, bob_seat.token, bob)]
        self.players.extend(players)
        try:
            seed = self.rng.randrange(2**31)
            await asyncio.gather(*(self.play_seat(pl, game_id, seed) for pl in players))
            self.stats.games += 1
            self.stats.moves += self.seen.get(joined.table, 0)
        finally:
            for pl in players:
                self.players.remove(pl)
                await pl.client.close()
            if lazy is not None:
                await lazy.close()

    async def worker(self, worker: int) -> None:
        number = 0
        while time.monotonic() < self.end:
            try:
                await self.game(worker, number)
            except Exception as exc:
                self.stats.errors.append(f"worker {worker}: {type(exc).__name__}: {exc}")
                await asyncio.sleep(1)
            number += 1

    async def chaos(self) -> None:
        """Cut random connections; kill -9 and resume the host now and then."""
        next_kill = time.monotonic() + self.args.kill_every
        started = next_sample = time.monotonic()
        while time.monotonic() < self.end:
            await asyncio.sleep(self.rng.uniform(0.5, 2.0))
            self.host.warm_up()
            if time.monotonic() >= next_sample and self.host.proc is not None:
                self.stats.samples.append(
                    (time.monotonic() - started, rss_kb(self.host.proc.pid)))
                next_sample += 30
            if self.players and self.rng.random() < 0.7:
                victim = self.rng.choice(self.players)
                with contextlib.suppress(Exception):
                    victim.client.abort()
            if self.args.kill_every and time.monotonic() >= next_kill:
                self.stats.lives.append(await self.host.kill())
                self.stats.kills += 1
                await self.host.start(resume=True)
                next_kill = time.monotonic() + self.args.kill_every

    async def run(self) -> None:
        workers = [asyncio.create_task(self.worker(i)) for i in range(self.args.tables)]
        await self.chaos()
        # Let the games in progress finish (bounded), then stop.
        _, pending = await asyncio.wait(workers, timeout=120)
        for task in pending:
            task.cancel()
            self.stats.errors.append("a game did not finish within 120 s of the end")
        self.stats.lives.append(self.host.life())


def free_port() -> int:
    with socket.socket() as s:
        s.bind((LOCAL, 0))
        port: int = s.getsockname()[1]
        return port


async def parent(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="hiddenhand-soak-") as tmp:
        os.environ["HIDDENHAND_DATA_DIR"] = tmp
        host = HostProcess(free_port(), Path(tmp) / "soak.hhjournal")
        await host.start(resume=False)
        soak = Soak(args, host)
        started = time.monotonic()
        try:
            await soak.run()
        finally:
            if host.proc is not None and host.proc.returncode is None:
                host.proc.kill()
                await host.proc.wait()
        s = soak.stats
        print(f"soak: {time.monotonic() - started:.0f} s, {args.tables} tables, "
              f"seed {args.seed}")
        print(f"games finished: {s.games}; versions played (≈ moves): {s.moves}")
        print(f"reconnects with a token: {s.reconnects}; host kill -9 + resume: {s.kills}")
        print(f"actions lost: {s.lost}")
        print(f"errors: {len(s.errors)}")
        for line in s.errors[:10]:
            print("  " + line)
        if s.samples:
            print("host RSS every 30 s (MB): " + ", ".join(
                f"{t:.0f} s {kb / 1024:.1f}" for t, kb in s.samples))
        half = [x for x in s.samples if x[0] >= args.seconds / 2]
        if args.kill_every == 0 and len(half) >= 2:
            (t0, r0), (t1, r1) = half[0], half[-1]
            print(f"RSS growth over the second half: {(r1 - r0) / 1024 / (t1 - t0) * 3600:+.1f} "
                  "MB/hour")
        for i, (seconds, rss0, rss1) in enumerate(s.lives):
            per_hour = (rss1 - rss0) / 1024 / seconds * 3600 if seconds > 0 else 0.0
            print(f"host life {i + 1}: {seconds:.0f} s, RSS {rss0 / 1024:.1f} → "
                  f"{rss1 / 1024:.1f} MB ({per_hour:+.1f} MB/hour)")
        return 1 if s.lost or s.errors else 0


def main() -> int:
    """Parse the arguments and run the parent or the child."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=120.0,
                        help="how long to soak (default 120; e.g. 3600 for an hour)")
    parser.add_argument("--tables", type=int, default=6, help="tables at once (default 6)")
    parser.add_argument("--kill-every", type=float, default=40.0,
                        help="seconds between kill -9 of the host (0: never; default 40)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--child", nargs=2, metavar=("PORT", "JOURNAL"), help=argparse.SUPPRESS)
    parser.add_argument("--resume", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(child(int(args.child[0]), Path(args.child[1]), args.resume))
        return 0
    if not 1 <= args.tables <= 64:
        parser.error("--tables must be 1 to 64")
    return asyncio.run(parent(args))


if __name__ == "__main__":
    sys.exit(main())

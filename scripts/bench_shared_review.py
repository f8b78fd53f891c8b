"""What a review the whole table follows costs its host (``net.shared_review``): opening
it for six players after the longest game of each kind (the game played again, each
seat's list of moves, the first position, every frame packed), opening it again after
the creator closed it (the same replay: only the frames), and one step of the
leader (the game at that move, six views, six frames) — beside, in the same run, what
the host does for every move of a game in play: one GET OUT! action at a table of six,
its update packed for each of them.

    .venv/bin/python scripts/bench_shared_review.py [--steps 300]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from engine.bots.simulate import simulate
from net import fanout, lobby, shared_review
from net.fanout import Sent
from net.seats import HouseRules, random_bot_factory
from net.table import Table
from net.wire import codec

#: The longest game of each kind a table plays: the most seats.
GAMES = {"getout": 6, "getit": 6, "gotfive": 4}


class Player:
    """A member that packs what it is sent, as a connection does, and keeps the bytes."""

    def __init__(self, name: str) -> None:
        self.name, self.player = name, name
        self.table: Any = None
        self.seat: int | None = None
        self.sent = Sent()
        self.closed = self.congested = False
        self.bytes = 0

    def send_frame(self, frame: bytes) -> None:
        self.bytes += len(frame)

    def send(self, message: dict[str, Any]) -> None:
        self.send_frame(codec.pack(message))

    def hold(self, events: list[dict[str, Any]], notices: list[dict[str, Any]]) -> None:
        raise AssertionError("a bench player always reads")

    def close(self) -> None:
        self.closed = True


def deliver(out: fanout.Outbox) -> None:
    for member, message in out.messages:
        member.send(message)
    for push in out.pushes:
        fanout.deliver(push)


def seated(game_id: str, seats: int) -> tuple[Table, list[Player]]:
    rng = random.Random(1)
    table = lobby.open_table("t1", "Bench", game_id, seats, {},
                             HouseRules(random_bot_factory, lambda: rng.getrandbits(62), 0.5))
    players = [Player(f"P{i + 1}") for i in range(seats)]
    for p in players:
        deliver(lobby.join(table, p, None, 0.0)[1])
    for p in players[1:]:
        deliver(lobby.ready(table, p, True, 0.0))
    return table, players


def ms(samples: list[float], q: float) -> float:
    return sorted(samples)[min(len(samples) - 1, int(q * len(samples)))] * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300)
    args = parser.parse_args()
    # Baseline: the host's work for each move of a game in play, at a table of six.
    table, players = seated("getout", 6)
    deliver(lobby.start(table, players[0], 1.0))
    game = table.game
    assert game is not None
    rng, now, moves = random.Random(2), 1.0, []
    while len(moves) < args.steps:
        if game.over:
            table, players = seated("getout", 6)
            deliver(lobby.start(table, players[0], 1.0))
            game = table.game
            assert game is not None
        seat = next(s for s in range(6) if game.legal_actions(s))
        now += 0.5
        start = time.perf_counter()
        deliver(table.act(seat, rng.choice(game.legal_actions(seat)), now))
        moves.append(time.perf_counter() - start)
    print(f"baseline, a GET OUT! move at a table of 6 (its update to each): "
          f"p50 {ms(moves, 0.5):.2f} ms, p99 {ms(moves, 0.99):.2f} ms")
    print(f"{'game':8} {'seats':>5} {'moves':>6} {'open ms':>8} {'again ms':>8} "
          f"{'open KB/seat':>12} {'step p50 ms':>11} {'step p99 ms':>11}")
    for game_id, seats in GAMES.items():
        # A finished game of this kind, its review opened for everyone at a table.
        record = simulate(game_id, seats, 1, {}, record=True)["record"]
        table, players = seated(game_id, seats)
        table.phase = "over"
        start = time.perf_counter()
        table.review = table.reviewed = shared_review.SharedReview(record)
        out = fanout.Outbox()
        for p in players:
            table.review.opened(p, table.creator, out)
        deliver(out)
        opened = time.perf_counter() - start
        sent = sum(p.bytes for p in players) / seats / 1024
        deliver(shared_review.close(table, players[0], 2.0))
        start = time.perf_counter()
        deliver(shared_review.open_review(table, players[0], 3.0))
        again = time.perf_counter() - start
        steps = []
        length = len(table.review)
        for _ in range(args.steps):
            at = rng.randrange(length + 1)
            start = time.perf_counter()
            deliver(shared_review.go(table, players[0], at))
            steps.append(time.perf_counter() - start)
        print(f"{game_id:8} {seats:>5} {length:>6} {opened * 1000:>8.1f} {again * 1000:>8.1f} "
              f"{sent:>12.1f} "
              f"{ms(steps, 0.5):>11.2f} {ms(steps, 0.99):>11.2f}")
    print(f"(a step: the leader jumps to a random move, {args.steps} times)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

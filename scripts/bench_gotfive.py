"""Benchmark the Got Five! consistent-assignment solver over seeded random games.

Plays 4-player games between random players (a player announces as soon as its own
view leaves one assignment — with ``--late`` never before the no-tiles-left rule makes
it, so every game runs to its last tile — and in the no-tiles-left phase announces its
first candidate) and times ``consistent_assignments`` on every seat's view before every
action. Prints the median, 95th percentile and maximum time per call in ms, the number
of calls and the answer sizes. Target: median under 20 ms.

    .venv/bin/python scripts/bench_gotfive.py [--games 20] [--seed 1] [--seats 4] [--late]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import engine
from engine.gotfive_solver import consistent_assignments


def play(seed: int, seats: int, late: bool, times: list[float], sizes: list[int]) -> int:
    """Play one seeded game, timing the solver for every seat still in at every point."""
    rng = random.Random(seed)
    game = engine.new_game("gotfive", seats=seats, seed=seed)
    moves = 0
    while not game.over:
        answers: dict[int, list[tuple[int, ...]]] = {}
        for seat in range(seats):
            view = game.view(seat)
            if view["out"][seat]:
                continue
            start = time.perf_counter()
            answers[seat] = consistent_assignments(view)
            times.append((time.perf_counter() - start) * 1000)
            sizes.append(len(answers[seat]))
        sure = [] if late else [s for s, a in answers.items() if len(a) == 1]
        if sure:
            seat = sure[0]
            action = {"type": "announce", "numbers": list(answers[seat][0])}
        else:
            seat = game.view(None)["turn"]
            concrete = [a for a in game.legal_actions(seat) if len(a) > 1]
            if concrete:
                action = rng.choice(concrete)
            else:
                action = {"type": "announce", "numbers": list(answers[seat][0])}
        game.act(seat, action)
        moves += 1
    return moves


def main() -> None:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--late", action="store_true", help="no announcing before the end")
    args = parser.parse_args()
    times: list[float] = []
    sizes: list[int] = []
    moves = 0
    for g in range(args.games):
        moves += play(args.seed + g, args.seats, args.late, times, sizes)
    times.sort()
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    late = ", played to the last tile" if args.late else ""
    print(f"{args.games} games of {args.seats} players{late}, {moves} actions")
    print(f"calls {len(times)}  median {statistics.median(times):.3f} ms  "
          f"p95 {p95:.3f} ms  max {times[-1]:.3f} ms")
    print(f"assignments per call: median {statistics.median(sizes):.0f}, max {max(sizes)}")


if __name__ == "__main__":
    main()

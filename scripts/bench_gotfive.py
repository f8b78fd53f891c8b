"""Benchmark the Got Five! consistent-assignment solver and the ``hints`` table option.

Plays 4-player games between random players (a player announces as soon as its own
view leaves one assignment — with ``--late`` never before the no-tiles-left rule makes
it, so every game runs to its last tile — and in the no-tiles-left phase announces its
first candidate) and times ``consistent_assignments`` on every seat's view before every
action. Prints the median, 95th percentile and maximum time per call in ms, the number
of calls and the answer sizes. Target: median under 20 ms.

Then the hint (:func:`engine.gotfive_hint.hint_for`, table option ``hints``): seeded
games of random legal play with nobody announcing are stopped at several stages (by
the number of clues given so far), and at each stage, for every seat, it times in the
same run: the plain view with ``hints`` off (the baseline), the solver's full list of
consistent racks (what counting by listing would cost), ``hint_for`` in ``count`` and
``board`` mode on that view, and the whole view with ``hints`` on ``board`` (what the
host pays per seat per change). Prints the median and 99th percentile per stage and
overall. Target: median hint under 20 ms on a 4-player game.

    .venv/bin/python scripts/bench_gotfive.py [--games 20] [--seed 1] [--seats 4] [--late]
                                              [--hint-games 30] [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence
from functools import partial

import engine
from engine.core import Game
from engine.gotfive_hint import hint_for
from engine.gotfive_solver import consistent_assignments

#: Where the hint is timed: after this many clues (a 4-player game has about 40).
STAGES = (0, 8, 16, 24, 32, 40)
#: What is timed at each stage, in print order.
MEASURES = ("view, hints off", "solver list", "hint count", "hint board", "view, hints board")


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


def with_hints(game: Game, mode: str) -> Game:
    """A copy of ``game`` whose ``hints`` option is ``mode`` (same state, same views)."""
    snap = game.snapshot()
    snap["options"]["hints"] = mode
    return engine.restore(snap)


def timed(call: Callable[[], object], repeat: int) -> float:
    """The fastest of ``repeat`` runs of ``call``, in ms (one call takes microseconds)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def hint_stages(
    seed: int, seats: int, repeat: int, times: dict[int, dict[str, list[float]]],
    counts: dict[int, list[int]],
) -> None:
    """Play one seeded game without announcing; time views and hints at every stage."""
    rng = random.Random(seed)
    game = engine.new_game("gotfive", seats=seats, seed=seed)
    stages = list(STAGES)
    while stages and not game.over:
        clues = len(game.view(None)["clues"])
        if clues >= stages[0]:
            stage = stages.pop(0)
            board = with_hints(game, "board")
            for seat in range(seats):
                view = game.view(seat)
                got = times[stage]
                got["view, hints off"].append(timed(partial(game.view, seat), repeat))
                got["solver list"].append(
                    timed(partial(consistent_assignments, view), repeat))
                got["hint count"].append(timed(partial(hint_for, view, "count"), repeat))
                got["hint board"].append(timed(partial(hint_for, view, "board"), repeat))
                got["view, hints board"].append(timed(partial(board.view, seat), repeat))
                counts[stage].append(board.view(seat)["hint"]["count"])
            continue
        seat = game.view(None)["turn"]
        concrete = [a for a in game.legal_actions(seat) if len(a) > 1]
        if not concrete:
            break
        game.act(seat, rng.choice(concrete))


def quantile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_hints(games: int, seed: int, seats: int, repeat: int) -> None:
    """Time the hint at every stage of ``games`` seeded games and print the figures."""
    times: dict[int, dict[str, list[float]]] = {s: {m: [] for m in MEASURES} for s in STAGES}
    counts: dict[int, list[int]] = {s: [] for s in STAGES}
    for g in range(games):
        hint_stages(seed + g, seats, repeat, times, counts)
    print(f"\nhints: {games} games of {seats} players, no announcing; ms per call "
          f"(best of {repeat} runs), median / p99")
    print(f"{'clues':>6} {'seats':>5} {'racks left':>10}  "
          + "  ".join(f"{m:>19}" for m in MEASURES))
    everything: dict[str, list[float]] = {m: [] for m in MEASURES}
    for stage in STAGES:
        if not counts[stage]:
            continue
        cells = []
        for m in MEASURES:
            values = times[stage][m]
            everything[m] += values
            cells.append(f"{statistics.median(values):8.4f} / {quantile(values, 0.99):8.4f}")
        print(f"{stage:>6} {len(counts[stage]):>5} {statistics.median(counts[stage]):>10.0f}  "
              + "  ".join(f"{c:>19}" for c in cells))
    cells = [f"{statistics.median(v):8.4f} / {quantile(v, 0.99):8.4f}"
             for v in everything.values()]
    print(f"{'all':>6} {sum(len(c) for c in counts.values()):>5} {'':>10}  "
          + "  ".join(f"{c:>19}" for c in cells))
    hint = statistics.median(everything["hint board"])
    print(f"median board hint {hint:.4f} ms (target under 20 ms); "
          f"baseline plain view {statistics.median(everything['view, hints off']):.4f} ms")


def main() -> None:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--late", action="store_true", help="no announcing before the end")
    parser.add_argument("--hint-games", type=int, default=30,
                        help="games for the hint timing (0: skip it)")
    parser.add_argument("--repeat", type=int, default=5,
                        help="runs per timed hint call (the fastest counts)")
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
    if args.hint_games > 0:
        bench_hints(args.hint_games, args.seed, args.seats, max(1, args.repeat))


if __name__ == "__main__":
    main()

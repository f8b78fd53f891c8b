"""Benchmark the engines: decisions per second of random-legal play through the contract.

A *decision* is one ``game.legal_actions(seat)`` for the seat that acts, one uniform
choice among the concrete actions listed (``random.Random``, seeded) and one
``game.act(seat, action)``: what a host does for every move, without the network. The
seat that acts is found through the contract too: the seats are asked in turn, starting
left of the last one that acted, and the first with a concrete action acts (in GET OUT!
and Got Five! that is the seat on turn, or at a round's end the first seat still in; in
Get It!, which has no turns, the seats simply take turns asking). Free-content actions
are filled in the way a player would: Get It!'s ``arrange`` with the engine's own
``arrangement`` of the seat's hand (one ``view`` per seat per round) and ``say`` with a
word; Got Five!'s ``announce`` and ``mark`` are not chosen while anything else is
listed (random announcements only end games early); once no tiles are left, announcing
is the only move, and the first seat able to makes a random one. Get It! is played
untimed (``timer`` 0), so ``now`` stays 0.

A second line per game adds the acting seat's ``view`` to every decision (what a client
or bot receives with the legal actions, and what a host builds for every seat after
every change), since views, not legal actions, are most of what a real table costs.

Every game runs seeded games back to back for ``--seconds`` of wall time, ``--repeat``
times; the median rate of the repeats is printed beside the best. Games per second
mislead (a random GET OUT! round is hundreds of decisions because random play draws
voluntarily); decisions per game are printed so the two can be compared.

The baseline in the same run is RLCard's UNO with its random agents
(``rlcard.make("uno")`` + ``RandomAgent``, ``env.run(is_training=True)``; every action
in the trajectories is one decision), when ``rlcard`` is importable: install it with
``pip install -e '.[bench]'``. It is never a dependency of hiddenhand; without it the
script says so and prints the hiddenhand figures alone.

    .venv/bin/python scripts/bench_engine.py [--seconds 2] [--repeat 3] [--seats 4]
                                             [--seed 1] [--games getout,getit,gotfive]
                                             [--uno-players 2] [--no-uno]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import engine
from engine.core import Action, Game
from engine.getit import arrangement

#: The actions random-legal play may choose although their content is free.
FILLED = {"arrange", "say"}
#: Free-content actions random-legal play leaves alone.
SKIPPED = {"announce", "mark", "auto_cross"}

OPTIONS: dict[str, dict[str, Any]] = {
    "getout": {},
    "getit": {"timer": 0},
    "gotfive": {},
}


def concrete(legal: list[Action]) -> list[Action]:
    """The actions random play may pick: listed ones, plus the ones it fills in."""
    return [a for a in legal if a["type"] not in SKIPPED]


def fill(game: Game, seat: int, action: Action, rng: random.Random) -> Action:
    """A chosen action ready for ``act``: free content filled in, a fresh dict."""
    kind = action["type"]
    if kind == "arrange":
        return {"type": "arrange", "pile": arrangement(game.view(seat)["hand"], rng)}
    if kind == "say":
        return {"type": "say", "text": "now"}
    return dict(action)


def play_game(game_id: str, seats: int, seed: int, deadline: float, with_view: bool = False
              ) -> tuple[int, bool]:
    """Play one seeded game by random-legal decisions; return (decisions, finished).

    ``with_view`` also builds the acting seat's ``view`` before each decision, as a
    client or bot receives it with the legal actions.

    Stops early (unfinished) when ``deadline`` (``perf_counter``) has passed, checked
    every 256 decisions so the clock costs next to nothing.
    """
    game = engine.new_game(game_id, seats=seats, seed=seed, options=OPTIONS[game_id])
    rng = random.Random(seed)
    seat = seats - 1
    decisions = 0
    while not game.over:
        announcer = None
        for step in range(1, seats + 1):
            candidate = (seat + step) % seats
            legal = game.legal_actions(candidate)
            if legal:
                choices = concrete(legal)
                if choices:
                    seat = candidate
                    break
                if announcer is None and any(a["type"] == "announce" for a in legal):
                    announcer = candidate
        else:
            if announcer is None:
                raise RuntimeError(f"{game_id} seed {seed}: nobody can act and it is not over")
            # Got Five! with no tiles left: announcing is the only move; a random one.
            seat = announcer
            choices = [{"type": "announce", "numbers": sorted(rng.sample(range(1, 61), 5))}]
        if with_view:
            game.view(seat)
        action = rng.choice(choices)
        action = fill(game, seat, action, rng) if action["type"] in FILLED else dict(action)
        game.act(seat, action)
        decisions += 1
        if not decisions & 255 and time.perf_counter() > deadline:
            return decisions, False
    return decisions, True


def run_for(seconds: float, one: Callable[[int, float], tuple[int, bool]], seed: int
            ) -> tuple[float, float]:
    """Play games with seeds ``seed, seed+1, ...`` for ``seconds``; (decisions/s, per game)."""
    start = time.perf_counter()
    deadline = start + seconds
    total = 0
    finished = 0
    finished_decisions = 0
    while time.perf_counter() < deadline:
        decisions, done = one(seed, deadline)
        total += decisions
        if done:
            finished += 1
            finished_decisions += decisions
        seed += 1
    elapsed = time.perf_counter() - start
    per_game = finished_decisions / finished if finished else float("nan")
    return total / elapsed, per_game


def uno_runner(players: int) -> Callable[[int, float], tuple[int, bool]] | None:
    """RLCard's UNO with random agents as a ``one(seed, deadline)`` function, or ``None``."""
    try:
        import numpy as np
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("uno", config={"seed": 0, "game_num_players": players})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(players)])

    def one(seed: int, deadline: float) -> tuple[int, bool]:
        # RandomAgent draws from numpy's global generator; seed it per game.
        np.random.seed(seed)
        env.seed(seed)
        trajectories, _payoffs = env.run(is_training=True)
        return sum(1 for t in trajectories for item in t if not isinstance(item, dict)), True

    return one


def measure(name: str, one: Callable[[int, float], tuple[int, bool]], args: argparse.Namespace
            ) -> tuple[float, float]:
    """Repeat ``run_for`` and print one line; returns (median rate, decisions per game)."""
    rates: list[float] = []
    per_games: list[float] = []
    for r in range(args.repeat):
        rate, per_game = run_for(args.seconds, one, args.seed + 100_000 * r)
        rates.append(rate)
        per_games.append(per_game)
    median = statistics.median(rates)
    per_game = statistics.median(per_games)
    print(f"{name:<28} {median:>12,.0f} {max(rates):>12,.0f} {per_game:>12,.0f}")
    return median, per_game


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; print a table of decisions per second."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="wall time per repeat")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default="getout,getit,gotfive")
    parser.add_argument("--uno-players", type=int, default=2,
                        help="UNO players (RLCard's default is 2)")
    parser.add_argument("--no-uno", action="store_true", help="skip the RLCard baseline")
    args = parser.parse_args(argv)
    games = [g for g in args.games.split(",") if g]
    for g in games:
        if g not in engine.GAMES:
            parser.error(f"unknown game {g!r}; known games: {', '.join(sorted(engine.GAMES))}")
    print("command:", " ".join([os.path.relpath(sys.argv[0]), *(argv or sys.argv[1:])]))
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"python {sys.version.split()[0]}; {args.repeat} x {args.seconds:g} s per line")
    print(f"{'':<28} {'decisions/s':>12} {'best':>12} {'per game':>12}")
    rates: dict[str, float] = {}
    for game_id in games:
        def one(seed: int, deadline: float, game_id: str = game_id) -> tuple[int, bool]:
            return play_game(game_id, args.seats, seed, deadline)
        label = f"{engine.GAMES[game_id].name} ({args.seats} seats)"
        rates[game_id], _ = measure(label, one, args)
    for game_id in games:
        def viewed(seed: int, deadline: float, game_id: str = game_id) -> tuple[int, bool]:
            return play_game(game_id, args.seats, seed, deadline, with_view=True)
        measure(f"{engine.GAMES[game_id].name} + view", viewed, args)
    if args.no_uno:
        return 0
    uno = uno_runner(args.uno_players)
    if uno is None:
        print("RLCard is not installed, so there is no UNO baseline in this run "
              "(pip install -e '.[bench]' adds it).")
        return 0
    uno_rate, _ = measure(f"RLCard UNO ({args.uno_players} random)", uno, args)
    for game_id, rate in rates.items():
        print(f"{engine.GAMES[game_id].name} / RLCard UNO: {rate / uno_rate:.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Sweep how well the Get It! bots play beside simulated people, on simulated time.

For each table (seat count, how many simulated people) and each kind of person
(reaction time, spread 0.3 times it, "slips": share of signals to a wrong player) it plays
``--games`` seeded games of levels 1..6 (``engine.bots.simulate.simulate``, the games
``hiddenhand sim getit --people N`` plays) and prints the share that cleared all six
levels with its 95% Wilson interval, the rounds lost to a wrong card and to time, and
the median simulated seconds per round. The first rows, without people, are the
bot-only baseline of the same run.

    .venv/bin/python scripts/sweep_getit_people.py [--games 200] [--seed 1]

Nothing waits for real: a game takes a few tens of milliseconds.
"""

from __future__ import annotations

import argparse
import statistics

from engine.bots.simulate import simulate
from tui.sim import wilson

#: (seats, people, reaction seconds, wrong-player share) per row.
ROWS = [
    (4, 0, 1.0, 0.0),
    (3, 0, 1.0, 0.0),
    (4, 1, 1.0, 0.1),
    (4, 1, 1.5, 0.1),
    (4, 1, 1.0, 0.3),
    (3, 1, 1.0, 0.1),
    (5, 1, 1.0, 0.1),
    (6, 1, 1.0, 0.1),
    (4, 2, 1.0, 0.1),
]


def main() -> None:
    """Play the sweep and print one line per row."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per row (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    args = parser.parse_args()
    print(f"{args.games} games per row, seeds {args.seed}..{args.seed + args.games - 1}")
    print(f"{'seats':>5} {'people':>6} {'react':>5} {'slips':>5}  {'cleared':>8}  "
          f"{'95% interval':>15}  {'lost: wrong':>11} {'time':>5}  {'s/round':>7}")
    for seats, people, reaction, error in ROWS:
        person = {"reaction": reaction, "spread": 0.3 * reaction, "error": error}
        won = wrong = late = 0
        per_round = []
        for seed in range(args.seed, args.seed + args.games):
            record = simulate("getit", seats, seed, people=people, person=person)
            won += bool(record["won"])
            wrong += record["losses"].get("wrong", 0)
            late += record["losses"].get("time", 0)
            per_round.append(record["sim_time"] / record["rounds"])
        low, high = wilson(won, args.games)
        print(f"{seats:>5} {people:>6} {reaction:>5.1f} {error:>5.0%}  "
              f"{won / args.games:>8.1%}  {low:>6.1%} .. {high:>6.1%}  "
              f"{wrong:>11} {late:>5}  {statistics.median(per_round):>7.1f}")


if __name__ == "__main__":
    main()

"""Benchmark the Got Five! bot: seeded bot-only games straight through the engine.

Every seat is a :class:`engine.bots.GotFiveBot` made by ``make_bot``. Each bot gets
only what a client gets — its view and its legal actions, both after a msgpack round
trip. After every change of state every seat still in is offered its move, in seat
order starting from the seat on turn (the tie rule when two seats become sure at the
same moment): an off-turn seat may only announce, since announcing is allowed at any
moment; when nobody announced, the seat on turn plays the move it chose.

Prints the games played, wins per seat, wrong announcements (and how many of those the
no-tiles-left rule forced), the median and 95th percentile of turns to a win (a turn
ends with its clue) and of the bot's decision time (every ``choose`` call, and those
on its own turn alone).

    .venv/bin/python scripts/bench_gotfive_bot.py [--games 1000] [--seats 4] [--seed 1]

``--seats 0`` cycles 2, 3 and 4 seats.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

import msgpack

import engine
from engine.bots import make_bot


def roundtrip(data: Any) -> Any:
    """``data`` packed and unpacked as the wire does it."""
    return msgpack.unpackb(msgpack.packb(data), strict_map_key=True, raw=False)


@dataclass
class Tally:
    """Figures gathered over the games."""

    wins: dict[int, int] = field(default_factory=dict)
    wrong: int = 0
    forced_wrong: int = 0
    forced: int = 0
    turns: list[int] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    turn_times: list[float] = field(default_factory=list)


def play(seed: int, seats: int, tally: Tally) -> None:
    """Play one seeded bot-only game to its end, adding its figures to ``tally``."""
    game = engine.new_game("gotfive", seats=seats, seed=seed)
    bots = [make_bot("gotfive", s, seed) for s in range(seats)]
    turns = 0
    for _ in range(10_000):
        if game.over:
            break
        turn = game.view(None)["turn"]
        order = [(turn + k) % seats for k in range(seats)]
        move: dict[str, Any] | None = None
        acted = False
        for seat in order:
            view = roundtrip(game.view(seat))
            if view["out"][seat]:
                continue
            legal = game.legal_actions(seat)
            start = time.perf_counter()
            action = bots[seat].choose(view, roundtrip(legal))
            elapsed = (time.perf_counter() - start) * 1000
            tally.times.append(elapsed)
            if seat == turn:
                tally.turn_times.append(elapsed)
            if action is None:
                continue
            if action["type"] == "announce":
                forced = view["phase"] == "announce" and seat == turn
                tally.forced += forced
                events = game.act(seat, action)
                if not events[0]["right"]:
                    tally.wrong += 1
                    tally.forced_wrong += forced
                acted = True
                break
            if seat != turn or action not in legal:
                raise AssertionError(f"seat {seat} chose {action} off its legal list")
            move = action
        if acted:
            continue
        if move is None:
            phase = game.view(turn)["phase"]
            raise AssertionError(f"seat {turn} had nothing to do in phase {phase}")
        game.act(turn, move)
        turns += move["type"] != "reveal"
    else:
        raise AssertionError(f"game {seed} did not end")
    result = game.result
    assert result is not None
    for winner in result["winners"]:
        tally.wins[winner] = tally.wins.get(winner, 0) + 1
    tally.turns.append(turns)


def p95(values: list[float] | list[int]) -> float:
    """The 95th percentile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))])


def main() -> None:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seats", type=int, default=4, help="2..4, or 0 to cycle them")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    tally = Tally()
    for g in range(args.games):
        seats = args.seats or 2 + g % 3
        play(args.seed + g, seats, tally)
    label = f"{args.seats} players" if args.seats else "2-4 players"
    print(f"games {args.games} ({label}, seeds {args.seed}..{args.seed + args.games - 1})")
    print("wins per seat " + "  ".join(f"{s}: {n}" for s, n in sorted(tally.wins.items())))
    print(f"wrong announcements {tally.wrong} (forced by the no-tiles-left rule: "
          f"{tally.forced_wrong}; forced announcements in all: {tally.forced})")
    print(f"turns to a win: median {statistics.median(tally.turns):.1f}  "
          f"p95 {p95(tally.turns):.0f}  max {max(tally.turns)}")
    print(f"decision time, all {len(tally.times)} calls: median "
          f"{statistics.median(tally.times):.3f} ms  p95 {p95(tally.times):.3f} ms  "
          f"max {max(tally.times):.3f} ms")
    print(f"decision time, own turn ({len(tally.turn_times)} calls): median "
          f"{statistics.median(tally.turn_times):.3f} ms  p95 {p95(tally.turn_times):.3f} ms  "
          f"max {max(tally.turn_times):.3f} ms")


if __name__ == "__main__":
    main()

"""Benchmark "let the bots finish at full speed" once a player is out of a solo match.

A 4-seat GET OUT! solo match (limit 100) is stacked so that the player (seat 1) is out
after the first round (113 points) while three bots play on; from then on the bots
move without pauses. Timed, for each seed, from the stacking to the match's end:

- the baseline: the same match on a bare in-process host with no app and no reader
  (the engine, the bots and the host's pushes only);
- the app, drawn ("let the bots finish at full speed"): the same match in the Textual
  app (headless), which draws every update on the GET OUT! table as it arrives;
- the app, undrawn ("leave with the result"): the same, drawing nothing until the end.

Both runs take the same seeds, so they play the same moves (the script checks it).
Prints the moves and the milliseconds per move of each, and what the bots' normal pace
(the app's 0.7 s a move) would have made the player wait.

    .venv/bin/python scripts/bench_finish.py [--seeds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
if "HIDDENHAND_CONFIG_DIR" not in os.environ:
    # Removed as the run ends (its finalizer runs at exit).
    _SCRATCH = tempfile.TemporaryDirectory(prefix="hh-finish-")
    os.environ["HIDDENHAND_CONFIG_DIR"] = _SCRATCH.name
# The app's host journals its games: into a scratch directory, not the player's.
os.environ.setdefault("HIDDENHAND_DATA_DIR", os.environ["HIDDENHAND_CONFIG_DIR"])

from engine.bots import make_bot
from engine.testing import stack_getout
from net.client import Client
from net.host import Host
from net.table import Table

OPTIONS = {"first": 0, "limit": 100, "match": True}
#: Our hand is worth 113 points (out at once); seat 2 goes out with its one card.
HANDS = [["geoff 14", "geoff 13", "geoff 12", "geoff 11", "geoff 10", "kevin 14", "kevin 13",
          "kevin 12", "samantha 14"], ["kevin 1"], ["geoff 1"], ["samantha 1"]]
NORMAL_PACE = 0.7


def stack(host: Host, table: Table) -> int:
    """Stack the first round and let the bots go; the game's version before it."""
    assert table.game is not None
    version = int(table.game.view(None)["version"])
    stack_getout(table.game, HANDS, played=["kevin 8"], turn=1)
    host.refresh(table)
    return version


async def until_over(table: Table) -> None:
    while table.phase != "over":
        await asyncio.sleep(0.005)


async def baseline(seed: int) -> tuple[int, float]:
    """The match on a bare host: (moves, seconds)."""
    rng = random.Random(seed)
    host = Host("bench", bot_factory=make_bot, bot_delay=0.0,
                seed_source=lambda: rng.getrandbits(62))
    ann = await Client.local(host, name="Ann")
    joined = await ann.create_table("bench", "getout", 4, OPTIONS)
    for seat in (1, 2, 3):
        await ann.add_bot(seat)
    await ann.start()
    await ann.close()  # nobody reads: the seat stays, away
    table = host.tables[joined.table]
    t0 = time.perf_counter()
    before = stack(host, table)
    await until_over(table)
    seconds = time.perf_counter() - t0
    assert table.game is not None
    moves = int(table.game.view(None)["version"]) - before
    await host.close()
    return moves, seconds


async def in_the_app(seed: int, drawn: bool) -> tuple[int, float]:
    """The match in the app, every update drawn or none: (moves, seconds)."""
    from tui.app import HiddenHandApp
    from tui.games.getout.screen import GetOutScreen
    from tui.settings import Settings

    rng = random.Random(seed)
    app = HiddenHandApp(Settings(name="Ann"), bot_delay=NORMAL_PACE,
                        seed_source=lambda: rng.getrandbits(62),
                        solo={"game_id": "getout", "seats": 4, "options": OPTIONS})
    async with app.run_test(size=(120, 40)) as pilot:
        while not (isinstance(app.screen, GetOutScreen) and app.screen.legal):
            await pilot.pause(0.02)
        screen = app.screen
        assert app.hosting.host is not None
        (table,) = app.hosting.host.tables.values()
        screen.finishing = True  # as after "f": no round summaries on the way
        screen.leave_at_end = not drawn  # as after "leave with the result"
        app.hosting.bots_full_speed(screen.session)
        t0 = time.perf_counter()
        before = stack(app.hosting.host, table)
        while (screen.update or {}).get("table", {}).get("phase") != "over":
            await pilot.pause(0.005)
        seconds = time.perf_counter() - t0
        assert table.game is not None
        moves = int(table.game.view(None)["version"]) - before
        await app.detach()
    return moves, seconds


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3, help="matches to time (default 3)")
    args = parser.parse_args()
    per_move: dict[str, list[float]] = {"host alone": [], "app, drawn": [],
                                        "app, undrawn": []}
    for seed in range(1, args.seeds + 1):
        moves, base_s = await baseline(seed)
        drawn_moves, drawn_s = await in_the_app(seed, drawn=True)
        undrawn_moves, undrawn_s = await in_the_app(seed, drawn=False)
        assert moves == drawn_moves == undrawn_moves, f"seed {seed}: different matches"
        for key, seconds in (("host alone", base_s), ("app, drawn", drawn_s),
                             ("app, undrawn", undrawn_s)):
            per_move[key].append(1000 * seconds / moves)
        print(f"seed {seed}: {moves} moves; host alone {base_s:.2f} s, app drawn "
              f"{drawn_s:.2f} s, app undrawn {undrawn_s:.2f} s; at the normal pace "
              f"{moves * NORMAL_PACE:.0f} s")
    print("median ms a move: " + ", ".join(
        f"{key} {statistics.median(values):.2f}" for key, values in per_move.items()))


if __name__ == "__main__":
    asyncio.run(main())

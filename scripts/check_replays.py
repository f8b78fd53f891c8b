"""Check that recorded games replay exactly: ``hiddenhand sim --record``'s records, for
many seeded bot games of each game, through a game file's round trip (JSON), the
checks a record from elsewhere meets, and a replay to the end that must reach the
recorded final state (``engine.record``). Prints, per game, the games checked, the
ones that did not replay (there must be none), the moves replayed, the record's size
and the time to check and replay one.

    .venv/bin/python scripts/check_replays.py [--games 1000] [--seed 1]
                                              [--only getout,getit,gotfive]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from engine.bots.simulate import simulate
from engine.record import RecordError, Replay, check_record, fingerprint

SEATS = {"getout": 4, "getit": 4, "gotfive": 3}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default=",".join(SEATS))
    args = parser.parse_args()
    failed_any = False
    print(f"{'game':8} {'games':>6} {'failed':>6} {'moves':>8} {'median KB':>9} "
          f"{'median replay ms':>16}")
    for game_id in args.only.split(","):
        failed, moves, sizes, times = 0, 0, [], []
        for i in range(args.games):
            out = simulate(game_id, SEATS[game_id], args.seed + i, {}, record=True)
            text = json.dumps(out["record"])
            start = time.perf_counter()
            try:
                record = check_record(json.loads(text))
                replay = Replay(record)
                same = (fingerprint(replay.final) == out["record"]["check"]
                        and replay.final.result == out["result"])
            except RecordError as exc:
                print(f"  {game_id} seed {args.seed + i}: {exc}", file=sys.stderr)
                same = False
            times.append(time.perf_counter() - start)
            failed += not same
            moves += len(out["record"]["moves"])
            sizes.append(len(text))
        failed_any |= bool(failed)
        print(f"{game_id:8} {args.games:>6} {failed:>6} {moves:>8} "
              f"{statistics.median(sizes) / 1024:>9.1f} "
              f"{statistics.median(times) * 1000:>16.2f}")
    return 1 if failed_any else 0


if __name__ == "__main__":
    sys.exit(main())

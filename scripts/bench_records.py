"""How long keeping and opening a finished game takes: the write of one record after a
game of each kind (what a host's keeper thread does once the game is over), into an empty
games database and into one that already holds ``--kept`` games; and the time to open
its review (check the record, play it through, put every move in words).

The baseline in the same run is one ``INSERT`` of a row as small as a record's summary
into the same database, with the same commit: what any keeping at all costs there.

    .venv/bin/python scripts/bench_records.py [--repeat 20] [--kept 1000]
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from engine.bots.simulate import simulate
from engine.record import Replay, check_record
from net.records import GameStore
from tui.review import steps

#: The longest game of each kind a table plays: the most seats.
GAMES = {"getout": 6, "getit": 6, "gotfive": 4}


def timed(action, repeat: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--kept", type=int, default=1000)
    args = parser.parse_args()
    records = {g: simulate(g, n, 1, {}, record=True)["record"] for g, n in GAMES.items()}
    with tempfile.TemporaryDirectory() as scratch:
        empty, full = Path(scratch) / "empty.sqlite3", Path(scratch) / "full.sqlite3"
        with GameStore(full) as store:
            for i in range(args.kept):
                store.add(records[list(GAMES)[i % 3]])
        GameStore(empty).close()
        with sqlite3.connect(full) as db:
            db.execute("CREATE TABLE baseline (id INTEGER PRIMARY KEY, facts TEXT)")

        def baseline() -> None:
            with sqlite3.connect(full) as db:
                db.execute("INSERT INTO baseline (facts) VALUES (?)", ('{"clues": 9}',))
            db.close()

        print(f"baseline: one small row, its own connection and commit: "
              f"{timed(baseline, args.repeat):.2f} ms (median of {args.repeat})")
        print(f"{'game':8} {'seats':>5} {'moves':>6} {'KB':>6} {'write, empty ms':>15} "
              f"{f'write, {args.kept} kept ms':>20} {'open review ms':>14}")
        for game_id, record in records.items():
            def write(path: Path, record: dict = record) -> None:  # type: ignore[type-arg]
                with GameStore(path) as store:
                    store.add(record)

            text = json.dumps(record)

            def open_review(text: str = text) -> None:
                checked = check_record(json.loads(text))
                steps(checked, Replay(checked))

            print(f"{game_id:8} {record['seats']:>5} {len(record['moves']):>6} "
                  f"{len(text) / 1024:>6.1f} {timed(lambda: write(empty), args.repeat):>15.2f} "
                  f"{timed(lambda: write(full), args.repeat):>20.2f} "
                  f"{timed(open_review, max(3, args.repeat // 4)):>14.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

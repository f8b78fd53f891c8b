"""``hiddenhand sim``: play many bot-only games headless and print a table of outcomes.

The games run on simulated time (``engine.bots.simulate``), so nothing waits for real.
A progress bar goes to stderr while it runs (only when stderr is a terminal); the table
goes to stdout. Bot decision times are measured here, with the real clock the engine
layer may not read.
"""

from __future__ import annotations

import math
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from engine.bots.simulate import simulate


def run_sim(
    game_id: str,
    games: int,
    seats: int,
    seed: int,
    options: Mapping[str, Any],
    *,
    reaction: float | None,
    jitter: float | None,
    versus: str | None,
    progress: bool | None = None,
    people: int = 0,
    person: Mapping[str, float] | None = None,
    record: bool = False,
) -> list[dict[str, Any]]:
    """Play ``games`` games with seeds ``seed``, ``seed + 1``, ...; return their records.

    ``people`` and ``person`` seat simulated people in Get It! (see
    ``engine.bots.simulate.simulate``). ``progress`` shows a bar on stderr (default: only
    when stderr is a terminal).
    ``record`` keeps every game in the games database (``net.records``), each with its
    ``kept`` id in its result.
    Raises ``SimulationError`` if a bot misbehaves.
    """
    records = []
    with _bar(games, f"{game_id} x{games}", progress) as advance, _store(record) as store:
        for i in range(games):
            out = simulate(
                game_id, seats, seed + i, options, reaction=reaction, jitter=jitter,
                versus=versus, timer=time.perf_counter, people=people, person=person,
                record=record,
            )
            if store is not None:
                # Its length is the game's own (the engine's clock), as a host keeps it:
                # played on simulated time, a game took no time at all ("00:00").
                kept = out.pop("record")
                ended = time.time()
                took = kept["moves"][-1][2] if kept["moves"] else 0.0
                out["kept"] = store.add({**kept, "started": ended - took, "ended": ended})
            records.append(out)
            advance()
    return records


@contextmanager
def _store(record: bool) -> Iterator[Any]:
    """The games database while the games are played (``None``: nothing kept)."""
    if not record:
        yield None
        return
    from net.records import GameStore

    with GameStore() as store:
        yield store


@contextmanager
def _bar(total: int, label: str, show: bool | None) -> Iterator[Any]:
    if show is None:
        show = sys.stderr.isatty()
    if not show:
        yield lambda: None
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda: bar.advance(task)


def report(game_id: str, records: list[dict[str, Any]], versus: str | None) -> Table:
    """The table of outcomes for ``records`` of one game (its title: :func:`title`)."""
    games = len(records)
    table = Table(show_header=True, min_width=50)
    table.add_column("measure")
    table.add_column("value", justify="right")
    if game_id == "getit":
        _getit_rows(table, records)
    else:
        seats = records[0]["seats"] if records else 0
        wins = Counter(w for r in records for w in r["winners"])
        if versus:
            won = sum(1 for r in records if r.get("bot", 0) in r["winners"])
            table.add_row("wins, the bot", _share(won, games))
            low, high = wilson(won, games)
            table.add_row("  95% confidence interval", f"{100 * low:.1f}% .. {100 * high:.1f}%")
            table.add_row(f"  a fair share ({seats} seats)", f"{100 / max(seats, 1):.1f}%")
        for s in range(seats):
            # Seats as players count them, from 1 (as the app does).
            table.add_row(f"wins, seat {s + 1}", _share(wins[s], games))
        if game_id == "gotfive":
            table.add_row("wrong announcements", str(sum(r["wrong"] for r in records)))
            table.add_row("median turns to a win", _median([r["turns"] for r in records]))
        else:
            table.add_row("median rounds", _median([r["rounds"] for r in records]))
    table.add_row("median moves per game", _median([r["moves"] for r in records]))
    decisions = [d for r in records for d in r["decisions"]]
    table.add_row("median bot decision time", _ms(decisions, 50))
    table.add_row("95th percentile decision time", _ms(decisions, 95))
    table.add_row("99th percentile decision time", _ms(decisions, 99))
    acting = [d for r in records for d in r["acting"]]
    table.add_row("median time of a decision to act", _ms(acting, 50))
    return table


def title(
    game_id: str, records: list[dict[str, Any]], versus: str | None,
    person: Mapping[str, float] | None = None,
) -> str:
    """A line saying what was played, and one on how the simulated people play."""
    seats = records[0]["seats"] if records else 0
    first = records[0]["seed"] if records else 0
    level = _level(game_id, records)
    against = ""
    if versus:
        others = {"random": "random-legal players", "greedy": "greedy players"}.get(
            versus, f"{versus} bots")
        where = "its seat going round" if game_id == "getout" else "in seat 1"
        against = f", the bot ({level}, {where}) vs {others}"
    people = records[0].get("people", 0) if records else 0
    if people:
        how = person or {}
        seats_of = "seat 1" if people == 1 else f"seats 1..{people}"
        against += (
            f"\n{people} simulated {'person' if people == 1 else 'people'} ({seats_of}):"
            f" reacting in {how.get('reaction', 1.0):g} s ± {how.get('spread', 0.3):g} s,"
            f" {100 * how.get('error', 0.1):g}% of signals to a wrong player, "
            + (f"typing {typing:g} characters a second" if (typing := how.get("typing"))
               else "never typing")
        )
    last = first + len(records) - 1
    games = f"{len(records)} game{'' if len(records) == 1 else 's'}"
    seeds = f"seed {first}" if len(records) == 1 else f"seeds {first}..{last}"
    return f"{game_id}: {games}, {seats} seats, {seeds}{against}"


def _level(game_id: str, records: list[dict[str, Any]]) -> str:
    """The bots' level the games were played at (the table's ``bots`` option)."""
    import engine

    default = engine.GAMES[game_id].defaults.get("bots", "")
    options = records[0].get("options", {}) if records else {}
    return str(options.get("bots", default))


def _getit_rows(table: Table, records: list[dict[str, Any]]) -> None:
    games = len(records)
    won = sum(1 for r in records if r["won"])
    levels_x = any(r["level"] == "X" for r in records)
    table.add_row("won (Level X round cleared)" if levels_x else "cleared all six levels",
                  _share(won, games))
    low, high = wilson(won, games)
    table.add_row("  95% confidence interval", f"{100 * low:.1f}% .. {100 * high:.1f}%")
    reached = Counter(str(r["level"]) for r in records if not r["won"])
    for level in sorted(reached):
        table.add_row(f"lost at level {level}", _share(reached[level], games))
    failed = Counter(sum(r["losses"].values()) for r in records)
    for count in sorted(failed):
        table.add_row(f"games with {count} failed attempt(s)", _share(failed[count], games))
    reasons: Counter[str] = Counter()
    for r in records:
        reasons.update(r["losses"])
    for reason in sorted(reasons):
        table.add_row(f"rounds lost: {reason}", str(reasons[reason]))
    if any(r.get("people") for r in records):
        table.add_row("people's signals to a wrong player per game",
                      _median([r.get("wrong", 0) for r in records], 1))
    bubbles = sum(r.get("bubbles", 0) for r in records)
    if bubbles:
        lines = sum(r.get("lines", 0) for r in records)
        table.add_row("speech bubbles a typing person got a line in on", _share(lines, bubbles))
        low, high = wilson(lines, bubbles)
        table.add_row("  95% confidence interval", f"{100 * low:.1f}% .. {100 * high:.1f}%")
    table.add_row("median rounds per game", _median([r["rounds"] for r in records]))
    per_round = [r["sim_time"] / r["rounds"] for r in records if r["rounds"]]
    table.add_row("median simulated seconds per round", _median(per_round, 1))


def wilson(count: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% for ``z=1.96``) of the fraction ``count / total``."""
    if not total:
        return 0.0, 1.0
    p = count / total
    centre = p + z * z / (2 * total)
    margin = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total))
    scale = 1 + z * z / total
    return max(0.0, (centre - margin) / scale), min(1.0, (centre + margin) / scale)


def _share(count: int, total: int) -> str:
    return f"{count} ({100 * count / total:.1f}%)" if total else "0"


def _median(values: list[float], digits: int = 0) -> str:
    if not values:
        return "-"
    middle = statistics.median(values)
    return f"{middle:.{digits}f}" if digits else f"{middle:g}"


def _ms(seconds: list[float], percentile: int) -> str:
    if not seconds:
        return "-"
    ordered = sorted(seconds)
    index = min(len(ordered) - 1, round(percentile / 100 * (len(ordered) - 1)))
    return f"{ordered[index] * 1000:.3f} ms"


def print_report(
    game_id: str, records: list[dict[str, Any]], versus: str | None,
    person: Mapping[str, float] | None = None,
) -> None:
    """Print the table of outcomes to stdout."""
    console = Console(file=sys.stdout, width=100, highlight=False)
    console.print(title(game_id, records, versus, person), markup=False, soft_wrap=True)
    console.print(report(game_id, records, versus))

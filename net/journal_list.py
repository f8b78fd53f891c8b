"""The journals a player can resume, in words: which host, which tables, whose, when.

The menu offers the newest (``tui.screens.menu``), ``hiddenhand host --resume`` without a
file lists them (``net.serve``). Reading them is ``net.journal``'s; this module only
describes what it read.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from itertools import islice
from pathlib import Path
from typing import Any, NamedTuple

from net.journal import SUFFIX, JournalError, in_use, read_journal
from net.paths import journal_dir


def last_tables(records: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The last ``table`` record of every table still open at the end of ``records``."""
    tables: dict[str, dict[str, Any]] = {}
    for record in records:
        kind, table = record.get("k"), record.get("t")
        if kind == "table" and isinstance(table, str):
            tables[table] = record
        elif kind == "drop" and isinstance(table, str):
            tables.pop(table, None)
    return tables


class JournalInfo(NamedTuple):
    """A journal that can be resumed, described for a menu or a command line."""

    path: Path
    host: str
    port: int | None
    modified: float
    #: One entry per table: ``{"id", "name", "game", "phase", "players": [names],
    #: "creator": name or None}`` (the creator: the player whose app opened it, mostly).
    tables: list[dict[str, Any]]

    def describe(self) -> str:
        """One line in words, e.g. ``Den: Kitchen (getout, play: Ann, Bob)``."""
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.modified))
        parts = [
            f"{t['name']} ({t['game']}, {t['phase']}: {', '.join(t['players']) or 'nobody'})"
            for t in self.tables
        ]
        return f"{self.host}, {when}: " + ("; ".join(parts) or "no tables")


def creator_name(record: dict[str, Any]) -> str | None:
    """The name in a ``table`` record's creator seat, if a person sits there."""
    seats, creator = record.get("seats"), record.get("creator")
    if not isinstance(seats, list) or not isinstance(creator, int) or isinstance(
            creator, bool) or not 0 <= creator < len(seats):
        return None
    seat = seats[creator]
    if not isinstance(seat, dict) or seat.get("kind") != "human":
        return None
    name = seat.get("name")
    return name if isinstance(name, str) and name else None


def describe_journal(path: Path) -> JournalInfo:
    """What :func:`list_journals` says about one journal; ``JournalError`` if unreadable."""
    header, records = read_journal(path)
    port = None
    for record in records:
        if record.get("k") == "listen" and isinstance(record.get("port"), int):
            port = record["port"]
    tables = [
        {
            "id": t["t"],
            "name": t.get("name", "?"),
            "game": t.get("game", "?"),
            "phase": t.get("phase", "?"),
            "players": [s["name"] for s in t.get("seats", []) if s.get("kind") == "human"],
            "creator": creator_name(t),
        }
        for t in last_tables(records).values()
    ]
    return JournalInfo(Path(path), str(header.get("name", "?")), port,
                       Path(path).stat().st_mtime, tables)


def list_journals(directory: Path | None = None, most: int | None = None,
                  damaged: list[str] | None = None) -> list[JournalInfo]:
    """Journals that can be resumed (a game in play, or a lobby with players), newest
    first; with ``most``, only that many. ``damaged`` collects why each one met on the
    way cannot be read (see :func:`iter_journals`)."""
    return list(islice(iter_journals(directory, damaged), most))


def iter_journals(directory: Path | None = None,
                  damaged: list[str] | None = None) -> Iterator[JournalInfo]:
    """:func:`list_journals` one at a time, newest first, each read only when asked
    for: who wants the newest reads one, not all (the menu read every journal at each
    visit, half a second for 950 of them, the screen frozen meanwhile). A journal that
    cannot be read is passed over, and why is added to ``damaged`` (a kept game lost to
    a damaged file went without a word: the menu's Resume was simply gone)."""
    directory = directory or journal_dir()
    dated = []
    for path in directory.glob(f"*{SUFFIX}"):
        try:
            dated.append((path.stat().st_mtime, path))
        except OSError:
            continue  # (gone meanwhile)
    for _modified, path in sorted(dated, reverse=True):
        if in_use(path):  # its game still runs, in another app (or this one)
            continue
        try:
            info = describe_journal(path)
        except JournalError as exc:
            if damaged is not None:
                damaged.append(str(exc))
            continue
        except OSError as exc:
            if damaged is not None:
                damaged.append(f"cannot read the journal {path}: {exc.strerror or exc}")
            continue
        # (A finished game is not one to resume: there is nothing left to play.)
        if any(t["phase"] == "play" or (t["phase"] == "lobby" and t["players"])
               for t in info.tables):
            yield info

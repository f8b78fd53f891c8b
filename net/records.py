"""Finished games kept: an SQLite database of game records, and who keeps them.

Whoever hosts a game keeps its record (``engine.record``) once it is over: the app's own
host (solo or LAN), ``hiddenhand host``, the SSH box, ``hiddenhand sim --record``. The
database is ``games.sqlite3`` in the user's data directory (``net.paths.data_dir``),
through the standard library's ``sqlite3``; ``PRAGMA user_version`` holds its schema
version and :data:`MIGRATIONS` bring an older file up to date, one step at a time, each
in one transaction. A record is written after its game, from a thread: a host never waits
for the disk, and a write that fails (disk full, a read-only directory) is said once in
the log and stops nothing.

A record keeps whose each person's seat was (``who``: a digest of the host's id for them),
so a review shows a reader only their own seats' private moves (Got Five!'s marks, which
RULES.md sends to nobody else): ``net.whose``.

A game file (``.hhgame``) is one record as JSON, for a friend: ``net.gamefiles``.
"""

from __future__ import annotations

import json
import logging
import os
import shlex
import sqlite3
import threading
import time
import zlib
from collections.abc import Callable, Collection
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

import engine
from engine.record import (
    RecordError,
    check_record,
    mine,
    private,
    without_private,
)
from net.gamefiles import MAX_FILE, StoreError, parse_json
from net.paths import data_dir
from net.whose import Reader

log = logging.getLogger("hiddenhand.records")

DB_NAME = "games.sqlite3"

#: ``MIGRATIONS[i]`` takes a database from schema version ``i`` to ``i + 1``: SQL, or a
#: function of the open database where SQL alone cannot say it.
Migration = str | Callable[[sqlite3.Connection], None]


def _for_each_kept(db: sqlite3.Connection, fill: Callable[[int, dict[str, Any]], Any],
                   game: str | None = None) -> None:
    """A migration's step for every kept game (of ``game``): ``fill(id, record)``. A
    damaged row stays as it is: reading it says so."""
    rows = db.execute("SELECT id, record FROM games" + (" WHERE game = ?" if game else ""),
                      (game,) if game else ()).fetchall()
    for game_id, blob in rows:
        try:
            fill(game_id, json.loads(zlib.decompress(blob)))
        except (zlib.error, ValueError, KeyError, TypeError, AttributeError, IndexError):
            continue


def _facts_and_keys(db: sqlite3.Connection) -> None:
    """Version 2: what statistics count (``facts``), what makes two records the same game
    (``fingerprint``, so an import is not kept twice) and whether a game was imported,
    filled in for the games kept before."""
    have = {row[1] for row in db.execute("PRAGMA table_info(games)")}
    for column, kind in (("facts", "TEXT"), ("fingerprint", "TEXT NOT NULL DEFAULT ''"),
                         ("imported", "INTEGER NOT NULL DEFAULT 0")):
        if column not in have:  # (a build between the two releases had some of them)
            db.execute(f"ALTER TABLE games ADD COLUMN {column} {kind}")
    _for_each_kept(db, lambda game_id, record: db.execute(
        "UPDATE games SET facts = ?, fingerprint = ? WHERE id = ?",
        (json.dumps(facts(record)), _key(record), game_id)))
    db.execute("CREATE INDEX IF NOT EXISTS games_by_fingerprint ON games (fingerprint)")


def _whose(db: sqlite3.Connection) -> None:
    """Version 3: whose each person's seat was (a record's ``who``), filled in for the
    games kept before (those kept before records said it have none)."""
    if "who" not in {row[1] for row in db.execute("PRAGMA table_info(players)")}:
        db.execute("ALTER TABLE players ADD COLUMN who TEXT")
    _for_each_kept(db, lambda game_id, record: db.executemany(
        "UPDATE players SET who = ? WHERE game_id = ? AND seat = ?",
        [(p.get("who"), game_id, i) for i, p in enumerate(record["players"])
         if isinstance(p.get("who"), str)]))
    db.execute("CREATE INDEX IF NOT EXISTS players_by_who ON players (who)")


def _own_clues(db: sqlite3.Connection) -> None:
    """Version 4: a right GOT FIVE!'s clues are its caller's own (the table's were
    counted, which the end of the game never said), counted again for the games kept."""
    _for_each_kept(db, lambda game_id, record: db.execute(
        "UPDATE games SET facts = ? WHERE id = ?", (json.dumps(facts(record)), game_id)),
        "gotfive")


def moves_of(record: dict[str, Any]) -> int:
    """The moves a history counts of ``record``: its own moves, not a Got Five! mark
    (a private note on one's board; the review counts them so too)."""
    return sum(1 for move in record["moves"] if not private(record["game"], move))


def _moves_not_marks(db: sqlite3.Connection) -> None:
    """Version 5: a Got Five! game's moves counted without its marks (the history said
    49 moves of a game its review counted 41)."""
    _for_each_kept(db, lambda game_id, record: db.execute(
        "UPDATE games SET moves = ? WHERE id = ?", (moves_of(record), game_id)), "gotfive")


MIGRATIONS: list[Migration] = [
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        game TEXT NOT NULL,
        seats INTEGER NOT NULL,
        started REAL,
        ended REAL,
        moves INTEGER NOT NULL,
        result TEXT,
        record BLOB NOT NULL
    );
    CREATE INDEX games_by_end ON games (ended);
    CREATE TABLE players (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        kind TEXT NOT NULL,
        won INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX players_by_name ON players (name);
    """,
    _facts_and_keys,
    _whose,
    _own_clues,
    _moves_not_marks,
]
SCHEMA_VERSION = len(MIGRATIONS)


class GameInfo(NamedTuple):
    """One kept game, as a history lists it."""

    id: int
    game: str
    seats: int
    started: float | None
    ended: float | None
    moves: int
    players: list[str]
    kinds: list[str]
    winners: list[int]
    result: Any
    #: What a history's statistics count (:func:`facts`).
    facts: dict[str, Any]
    #: A friend's game, imported: in nobody's figures here.
    imported: bool = False
    #: Whose each seat was (``engine.record.who``; ``None``: not known).
    whos: tuple[str | None, ...] = ()

    def seat_of(self, player: Reader) -> int | None:
        """``player``'s seat in this game."""
        return player.seat(self.players, self.whos or (None,) * len(self.players))


def default_path() -> Path:
    """Where the app, ``hiddenhand host`` and the box keep their games."""
    return data_dir() / DB_NAME


def is_kept(path: Path) -> bool:
    """Whether a games database is at ``path``; :class:`StoreError` in words when that
    cannot be told (a data dir nobody may read: ``Path.exists`` raised, and ``history``
    and Past games ended in a traceback)."""
    try:
        return path.exists()
    except OSError as exc:
        raise StoreError(f"cannot read the games database {path}: "
                         f"{exc.strerror or exc}") from None


def winners(record: dict[str, Any]) -> list[int]:
    """The seats that won ``record``'s game (every seat of a Get It! team that won)."""
    result = record.get("result") or {}
    if record["game"] == "getit":
        return list(range(record["seats"])) if result.get("won") else []
    found = result.get("winners")
    return [s for s in found if isinstance(s, int)] if isinstance(found, list) else []


def facts(record: dict[str, Any]) -> dict[str, Any]:
    """What statistics count of a game beyond its result: for a Got Five! won by a right
    GOT FIVE!, how many clues its caller had asked before it (``right_after``: their own,
    as the end of the game counts them; the others' clues are about the others' racks)."""
    result = record.get("result") or {}
    if record["game"] != "gotfive" or result.get("reason") != "announced":
        return {}
    winner, clues, before = (result.get("winners") or [None])[0], 0, None
    for seat, action, _ in record["moves"]:
        if seat is None:
            continue
        if action.get("type") in ("sort", "compare") and seat == winner:
            clues += 1
        elif action.get("type") == "announce" and seat == winner:
            before = clues
    return {} if before is None else {"right_after": before}


def _key(record: dict[str, Any]) -> str:
    """What makes two records the same game: its end state, its seed and its moves."""
    return f"{record['check']}:{record['seed']}:{len(record['moves'])}"


def _time(value: Any) -> float | None:
    """A time as the database keeps it (``None``: none, or none there can be)."""
    ok = isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value < 1e11
    return float(value) if ok else None


def _whole(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _kept_json(text: Any) -> Any:
    """What a JSON column holds (``None``: nothing, or nothing that reads)."""
    try:
        return json.loads(text) if text else None
    except (TypeError, ValueError, RecursionError):
        return None


def _said(method: Callable[..., Any]) -> Callable[..., Any]:
    """A store's method whose database errors are said as a :class:`StoreError`."""
    def said(self: GameStore, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as exc:
            raise StoreError(f"the games database {self.path} cannot be used: {exc}") from None

    said.__doc__ = method.__doc__
    return said


def _private_file(path: Path) -> None:
    """Make ``path`` (created if missing) readable by its owner alone: it holds every
    player's name and game. SQLite gives its journal files the same mode."""
    fd = os.open(path, os.O_RDONLY | os.O_CREAT, 0o600)
    try:
        mode = os.fstat(fd).st_mode
        if mode & 0o077 and os.fstat(fd).st_uid == os.getuid():
            os.fchmod(fd, mode & 0o700)
    finally:
        os.close(fd)


class GameStore:
    """The games database (opened and brought to :data:`SCHEMA_VERSION` on creation)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            _private_file(self.path)
            self.db = sqlite3.connect(self.path, timeout=5)
            self.db.execute("PRAGMA foreign_keys = ON")
            self._migrate()
        except sqlite3.DatabaseError as exc:
            # (What to do was unsaid: a damaged file stays as it is, for the player.)
            damaged = "malformed" in str(exc) or "not a database" in str(exc)
            raise StoreError(f"cannot open the games database {self.path}: {exc}" + (
                " (if it is moved aside, a new one is made)"
                if damaged else "")) from None
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the games database {self.path}: {exc}") from None
        except FileExistsError:  # ("File exists": a file where its folder would be)
            raise StoreError(f"cannot open the games database {self.path}: "
                             f"{self.path.parent} is a file, not a folder") from None
        except OSError as exc:
            raise StoreError(f"cannot open the games database {self.path}: "
                             f"{exc.strerror or exc}") from None

    def _migrate(self) -> None:
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version < 0:
            raise StoreError(f"the games database {self.path} is damaged: it says its "
                             f"schema is {version}")
        if version > SCHEMA_VERSION:
            raise StoreError(f"the games database {self.path} was made by a newer "
                             f"hiddenhand (schema {version}; this one knows "
                             f"{SCHEMA_VERSION}): update hiddenhand")
        for step in range(version, SCHEMA_VERSION):
            # One transaction per step: a failed migration leaves the file as it was.
            with self.db:
                self.db.execute("BEGIN")
                migration = MIGRATIONS[step]
                if callable(migration):
                    migration(self.db)
                else:
                    for statement in migration.split(";"):
                        if statement.strip():
                            self.db.execute(statement)
                self.db.execute(f"PRAGMA user_version = {step + 1}")

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @_said
    def add(self, record: dict[str, Any], *, imported: bool = False) -> int:
        """Keep ``record``; its id. An ``imported`` game (a friend's file) is listed with
        the others but counts in nobody's figures here."""
        blob = zlib.compress(json.dumps(record, separators=(",", ":")).encode())
        won = set(winners(record))
        with self.db:
            cursor = self.db.execute(
                "INSERT INTO games (game, seats, started, ended, moves, result, facts, "
                "fingerprint, imported, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (record["game"], record["seats"], record.get("started"), record.get("ended"),
                 moves_of(record), json.dumps(record.get("result")),
                 json.dumps(facts(record)), _key(record), int(imported), blob))
            game_id = cursor.lastrowid
            assert game_id is not None
            self.db.executemany(
                "INSERT INTO players (game_id, seat, name, kind, won, who) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(game_id, i, p["name"], p["kind"], int(i in won),
                  None if imported else p.get("who"))
                 for i, p in enumerate(record["players"])])
        return game_id

    @_said
    def games(self, *, game: str | None = None, seats: int | None = None,
              player: Reader | None = None, since: float | None = None,
              limit: int = 1000) -> list[GameInfo]:
        """The kept games, newest first, of ``game``, at ``seats``, that ``player``
        played (:class:`Reader`), ended after ``since``."""
        where: list[str] = []
        args: list[Any] = []
        if game is not None:
            where.append("g.game = ?")
            args.append(game)
        if seats is not None:
            where.append("g.seats = ?")
            args.append(seats)
        if since is not None:
            where.append("g.ended >= ?")
            args.append(since)
        if player is not None:
            keys = sorted(player.keys)
            whose = [f"q.who IN ({', '.join('?' * len(keys))})"] if keys else []
            if not player.strict:
                whose.append("q.name = ? COLLATE NOCASE")
            where.append("EXISTS (SELECT 1 FROM players q WHERE q.game_id = g.id AND ("
                         + (" OR ".join(whose) or "0") + "))")
            args += [*keys, *([] if player.strict else [player.name])]
        sql = ("SELECT g.id, g.game, g.seats, g.started, g.ended, g.moves, g.result, g.facts, "
               "g.imported "
               "FROM games g" + (" WHERE " + " AND ".join(where) if where else "")
               + " ORDER BY g.ended DESC, g.id DESC LIMIT ?")
        rows = self.db.execute(sql, (*args, limit)).fetchall()
        out = []
        for game_id, kind, count, started, ended, moves, result, known, imported in rows:
            players = self.db.execute(
                "SELECT name, kind, won, who FROM players WHERE game_id = ? ORDER BY seat",
                (game_id,)).fetchall()
            # (A damaged entry is listed as far as it reads: a time of 1e20 or a result
            # that is no JSON raised a traceback in every history.)
            facts = _kept_json(known)
            out.append(GameInfo(game_id, str(kind), _whole(count), _time(started),
                                _time(ended), _whole(moves),
                                [str(p[0]) for p in players], [str(p[1]) for p in players],
                                [i for i, p in enumerate(players) if p[2]],
                                _kept_json(result), facts if isinstance(facts, dict) else {},
                                bool(imported), tuple(p[3] for p in players)))
        return out

    @_said
    def find(self, record: dict[str, Any]) -> int | None:
        """The id of the same game if it is kept already (same seed, moves and end)."""
        row = self.db.execute("SELECT id FROM games WHERE fingerprint = ? LIMIT 1",
                              (_key(record),)).fetchone()
        return None if row is None else int(row[0])

    @_said
    def last(self) -> int | None:
        """The id of the game that ended last, or ``None``."""
        row = self.db.execute("SELECT id FROM games ORDER BY ended DESC, id DESC "
                              "LIMIT 1").fetchone()
        return None if row is None else int(row[0])

    @_said
    def get(self, game_id: int) -> dict[str, Any]:
        """The record of game ``game_id``, checked; :class:`StoreError` if there is none
        or it cannot be read."""
        row = self.db.execute("SELECT record FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"no game {game_id} is kept here (hiddenhand history lists "
                             "them)")
        inflate = zlib.decompressobj()
        try:
            text = inflate.decompress(row[0], MAX_FILE)
            if inflate.unconsumed_tail:
                raise StoreError(f"game {game_id}'s record is larger than a record can be")
            return check_record(parse_json(text, f"game {game_id}"))
        except zlib.error:  # (it said "Error -3 while decompressing data: …")
            raise StoreError(f"game {game_id}'s record is damaged: it cannot be read "
                             "(the other games are not)") from None
        except RecordError as exc:
            raise StoreError(f"game {game_id}'s record cannot be read: {exc}") from None


class Keeper:
    """Keeps finished games in a store from a thread of its own: called on a host's
    event loop with each record (``Host.keepers``), it returns at once. The first
    failure is logged; later ones quietly (a full disk fails every time)."""

    def __init__(self, path: Path | None = None, *,
                 private_of: Collection[str] | None = None) -> None:
        """``private_of``: the players (host ids) whose private moves (Got Five!'s marks)
        are kept; ``None``: everyone's, for each reader to see their own (a box, whose
        logins share its games). Anyone else's never reach the disk: an app's own host
        keeps its person's marks, not its guests'."""
        self.path = path or default_path()
        self.private_of = private_of
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="records")
        self._failed = False
        #: Why the last game was not kept, if it was not (for a player to be told).
        self.failure: str | None = None
        self._lock = threading.Lock()

    def __call__(self, record: dict[str, Any]) -> Future[int | None]:
        ended = time.time()
        duration = record["moves"][-1][2] if record["moves"] else 0.0
        record = {**record, "ended": ended, "started": ended - duration}
        return self._pool.submit(self._write, record)

    def _write(self, record: dict[str, Any]) -> int | None:
        try:
            if self.private_of is not None:
                record = without_private(record, mine(record, self.private_of))
            with GameStore(self.path) as store:
                kept = store.add(record)
            # (An operator saw no game end in the host's log.) A box keeps its games in
            # its own folder: the command names it, or it found "no game 1 is kept here".
            where = ("" if self.path == default_path()
                     else f"--data-dir {shlex.quote(str(self.path.parent))} ")
            log.info("a game of %s is over (%s): kept as game %d, 'hiddenhand %sreplay %d' "
                     "shows it", engine.GAMES[record["game"]].name,
                     ", ".join(p["name"] for p in record["players"]), kept, where, kept)
            self.failure = None
            return kept
        except (StoreError, RecordError, sqlite3.Error, OSError) as exc:
            with self._lock:
                first, self._failed = not self._failed, True
                self.failure = str(exc)
            if first:
                log.warning("this game is not kept for replay (%s); play goes on", exc)
            return None

    def close(self) -> None:
        """Finish the writes under way."""
        self._pool.shutdown(wait=True)

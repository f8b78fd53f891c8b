"""One finished game as a file (``.hhgame``): one record as JSON, for a friend to open
with ``hiddenhand replay FILE`` or keep with ``hiddenhand import FILE``.

A file from elsewhere is hostile input: its size is bounded, its text must be JSON of
bounded depth, every field is checked (``engine.record.check_record``), the moves are
played through the rules to the recorded end, and nothing is written while reading it.
A file written here (:func:`export_game`) carries nobody's private moves (Got Five!'s
marks) nor whose a seat was.
"""

from __future__ import annotations

import json
import os
import time
from contextlib import suppress
from pathlib import Path
from typing import Any

from engine.record import RecordError, Replay, check_record, without_private
from net.paths import FileRefused, read_regular
from net.seats import RequestError, check_name, name_key
from net.wire.errors import ProtocolError
from net.wire.schemas import visible_text

SUFFIX = ".hhgame"
#: A game file larger than this is refused unread (a long Get It! game is ~200 KB).
MAX_FILE = 4 * 1024 * 1024
#: JSON nested deeper than this is refused before it is parsed.
MAX_NESTING = 12


class StoreError(Exception):
    """The games database or a game file cannot be used: the message says why."""


def _nesting(text: str) -> int:
    """How deeply ``text``'s brackets nest (strings skipped), before parsing it."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def parse_json(data: bytes, what: str) -> Any:
    """``data`` (a file, a database row) as JSON, its size checked by the caller: its
    text UTF-8, nested at most :data:`MAX_NESTING` deep; ``RecordError`` in one line."""
    try:
        text = data.decode("utf-8-sig")  # (a byte-order mark, as some editors save)
    except UnicodeDecodeError:
        raise RecordError(f"{what} is not text (UTF-8)") from None
    if _nesting(text) > MAX_NESTING:
        raise RecordError(f"{what} is nested too deeply to be a game record")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        # (A file that ends before its record does read only "Expecting value at line 1,
        # column 1024": said as what it likely is, a file cut short.)
        short = " — it ends too soon: cut short?" if not text[exc.pos:].strip() or (
            exc.msg.startswith("Unterminated")) else ""
        # (json's "Unterminated string starting at" read "starting at at line 1".)
        raise RecordError(f"{what} is not a game record (not JSON: "
                          f"{exc.msg.removesuffix(' at')} at line {exc.lineno}, column "
                          f"{exc.colno}{short})") from None
    except (ValueError, RecursionError):
        # (Python refuses to read a number of thousands of digits.)
        raise RecordError(f"{what} is not a game record (a number in it is far too "
                          "long)") from None


def read_game_file(path: Path) -> dict[str, Any]:
    """The checked record in game file ``path``; :class:`StoreError` in one line if it
    cannot be read or is not a record this release can play."""
    try:
        data = read_regular(path, MAX_FILE)
    except FileRefused as exc:
        raise StoreError(f"{path} is not a game file: {exc}") from None
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        return check_record(parse_json(data, "this file"))
    except RecordError as exc:
        raise StoreError(f"{path}: {exc}") from None


def _check_name(name: str, where: str, person: bool) -> None:
    """A name as a host shows it (a name of spaces or of a Hangul filler showed a seat
    with no name), and a ``person``'s as a host takes it ("Bot 3" was kept a person);
    ``RecordError`` naming ``where`` ("player 2", "seated 1") if not."""
    try:
        visible_text("name", name)
        if person:
            check_name(name)
    except ProtocolError as exc:
        raise RecordError(f"{where}'s {exc.message.replace(repr('name'), 'name')}") from None
    except RequestError as exc:
        raise RecordError(f"{where}: {exc.message.removesuffix('; choose another')}") from None


def _check_seated(record: dict[str, Any]) -> None:
    """Who came to move for a seat (``seated``) as a host names them: a person's name as
    a player's is checked, a bot for the seat's person of then ("Bot 9 plays for x", a
    blank name, were reviewed as they stood)."""
    person = [p["name"] for p in record["players"]]
    for k, (_moves, seat, name, for_name) in enumerate(record.get("seated") or [], 1):
        _check_name(name, f"seated {k}", for_name is None)
        if for_name is None:
            person[seat] = name
        elif name_key(for_name) != name_key(person[seat]):
            raise RecordError(f"seated {k}: a bot plays for {for_name!r}, who is not "
                              f"seat {seat + 1}'s player then ({person[seat]!r})")


def played(path: Path, record: dict[str, Any] | None = None) -> dict[str, Any]:
    """The record in game file ``path`` (``record``: as :func:`read_game_file` read it
    already), played through the rules to its end: its result is the one the moves give
    (a file's own word for it is not taken), and its times are kept only if they make
    sense. ``StoreError`` or ``RecordError`` in one line."""
    record = read_game_file(path) if record is None else record
    seen: dict[str, int] = {}
    for i, player in enumerate(record["players"]):
        name = player["name"]
        _check_name(name, f"player {i + 1}", player["kind"] == "human")
        if (twin := seen.setdefault(name_key(name), i)) != i:
            # (A host tells two of one name apart: "Ann" and "Ann (2)".)
            raise RecordError(f"players {twin + 1} and {i + 1} have one name, {name!r}: no "
                              "host names two players alike")
    _check_seated(record)
    final = Replay(record).final
    started, ended = record.get("started"), record.get("ended")
    if started is None or ended is None or not 0 <= started <= ended <= time.time() + 86400:
        started = ended = None
    # (Nor is its word for whose a seat was: a review here shows its marks to nobody.)
    players = [{k: v for k, v in p.items() if k != "who"} for p in record["players"]]
    return {**record, "players": players, "result": final.result, "started": started,
            "ended": ended}


def _public(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` as anyone may read it: nobody's private moves, nor whose a seat was."""
    try:
        Replay(record)
        out = without_private(record)
    except RecordError as exc:
        raise StoreError(f"this game cannot be written to a file: {exc}") from None
    out["players"] = [{k: v for k, v in p.items() if k != "who"} for p in out["players"]]
    return out


def export_game(record: dict[str, Any], path: Path) -> None:
    """Write ``record`` to ``path`` as a game file (whole or not at all), for anyone to
    read: nobody's private moves go with it."""
    record = _public(record)
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temp.write_text(json.dumps(record, separators=(",", ":")), encoding="utf-8")
        temp.replace(path)
    except OSError as exc:
        with suppress(OSError):
            temp.unlink()
        raise StoreError(f"cannot write {path}: {exc.strerror or exc}") from None

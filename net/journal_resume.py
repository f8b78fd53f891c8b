"""Resuming from a journal (``net.journal``): each open table's last record, checked as
the hostile input a file is, and its game played on to where it was acknowledged."""

from __future__ import annotations

import ipaddress
import logging
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from net.journal import JournalError, in_use, read_journal
from net.past import PAST_LIMIT

#: (The host's log: a resume is the host's to say.)
log = logging.getLogger("hiddenhand.host")

if TYPE_CHECKING:
    import engine
    from engine.record import Tape


class Recovered(NamedTuple):
    """What a journal says to resume from (:func:`recover`)."""

    header: dict[str, Any]
    #: Each open table's last ``table`` record and the ``act``/``adv`` records after it.
    tables: dict[str, tuple[dict[str, Any], list[dict[str, Any]]]]
    #: Each open table's past (``net.past``): its last entries, oldest first.
    pasts: dict[str, list[dict[str, Any]]]
    #: The port the host listened on, if it did.
    port: int | None
    #: The address it listened on (``None``: every address; a path: a Unix socket).
    bind: str | None
    #: The last ``listen`` record, checked (kept in the file by a resume that fails).
    listen: dict[str, Any] | None
    #: When the journal's game began (the header's, if it is a time).
    created: float | None
    #: Records in the file, the header included (where appending goes on).
    records: int
    #: Bytes after the last whole record: one a crash cut short, never acknowledged.
    torn: int = 0


def recover(path: Path) -> Recovered:
    """Read the journal at ``path`` to resume it; ``JournalError`` (in plain words) if
    it cannot be read or its game still runs in another hiddenhand."""
    if in_use(path):
        raise JournalError(
            f"{path.name} is in use: its game is still running in another hiddenhand"
        )
    torn: list[int] = []
    header, records = read_journal(path, torn)
    tables: dict[str, tuple[dict[str, Any], list[dict[str, Any]]]] = {}
    pasts: dict[str, deque[dict[str, Any]]] = {}
    port, bind = None, None
    for record in records:
        kind, tid = record.get("k"), record.get("t")
        if kind == "table":
            if not isinstance(tid, str):  # (its table was dropped without a word)
                raise JournalError(f"{path} cannot be resumed: a table in it has no id "
                                   f"({str(tid)[:20]!r})")
            tables[tid] = (record, [])
        elif kind in ("act", "adv") and tid in tables:
            at = record.get("n")
            # (NaN, inf or 1e300 resumed, and the game's next snapshot then made the file
            # one no resume takes: the same bounds as a snapshot's time.)
            if isinstance(at, bool) or not isinstance(at, float | int) or not 0 <= at < 1e12:
                raise JournalError(f"{path} cannot be resumed: its table {tid[:20]!r} has a "
                                   f"move at no time it can be at ({str(at)[:20]})")
            tables[tid][1].append(record)
        elif kind == "past" and isinstance(tid, str) and isinstance(record.get("e"), dict):
            # (Kept across the table's snapshots; a file from elsewhere cannot make it
            # longer than a table keeps.)
            pasts.setdefault(tid, deque(maxlen=PAST_LIMIT)).append(record["e"])
        elif kind == "drop":
            tables.pop(str(tid), None)
            pasts.pop(str(tid), None)
        elif kind == "listen":
            try:
                port, bind = check_listen(record)
            except JournalError as exc:
                raise JournalError(f"{path} cannot be resumed: {exc}") from None
    for record, _ in tables.values():
        try:
            check_table(record)
        except JournalError as exc:
            raise JournalError(f"{path} cannot be resumed: {exc}") from None
    check_host_name(header, path)
    created = header.get("created")
    if not isinstance(created, float | int) or isinstance(created, bool) or not (
            0 <= created < 1e11):
        created = None
    listen = None if port is None else {"k": "listen", "port": port, "bind": bind}
    return Recovered(header, tables, {t: list(p) for t, p in pasts.items() if t in tables},
                     port, bind, listen, created, len(records) + 1, torn[0])


def said_resumed(tables: int, path: Path, torn: int) -> None:
    """Log a resume, once its host listens (what a crash cut short at the journal's end,
    ``torn`` bytes, is said: a journal cut in half was resumed without a word)."""
    log.info("resumed %d table(s) from %s", tables, path)
    if torn:
        # (Not "never acknowledged": a disk that lost the last writes leaves zeros there.)
        log.warning("the journal ended in %d bytes that hold no whole record (one cut "
                    "short as its host stopped, or writes the disk did not keep): left "
                    "out", torn)


def check_host_name(header: dict[str, Any], path: Path) -> None:
    """Refuse, in words, a host's name no ``--name`` may be (it was advertised on the
    LAN as it stood: "[red]X", a number)."""
    from net.wire.errors import ProtocolError
    from net.wire.schemas import TABLE_NAME_LEN, name_text

    if "name" not in header:
        return
    try:
        name_text(TABLE_NAME_LEN)("the host's name", header["name"])
    except ProtocolError as exc:
        raise JournalError(f"{path} cannot be resumed: {exc}") from None


#: The longest Unix socket path a listen record may name.
SOCKET_PATH_MOST = 4096


def check_listen(record: dict[str, Any]) -> tuple[int, str | None]:
    """The port and address of a ``listen`` record, or ``JournalError`` in words: a
    resumed host listens where the crashed one did (a port of 99999 wrapped round to
    34463, and an address given as ``--bind 127.0.0.1`` came back as every address)."""
    port, bind = record.get("port"), record.get("bind")
    if not isinstance(port, int) or isinstance(port, bool) or not 0 <= port <= 65535:
        raise JournalError(f"it says the host listened on no port there is ({port!r:.20})")
    if bind is None:
        return port, None
    if isinstance(bind, str) and bind.startswith("/") and "\0" not in bind and (
            len(bind) <= SOCKET_PATH_MOST):
        return port, bind  # (a box's host, on its Unix socket)
    try:
        ipaddress.ip_address(bind if isinstance(bind, str) else "")
    except ValueError:
        raise JournalError(f"it says the host listened on no address there is "
                           f"({bind!r:.60})") from None
    return port, bind


#: The phases a table can be journaled in.
PHASES = ("lobby", "play", "over")


def check_table(record: dict[str, Any]) -> None:
    """Refuse, in words, a ``table`` record no host writes: a journal is a file, and a
    file from elsewhere is hostile input (an unknown game, a phase, hundreds of seats,
    names a host refuses were resumed as they stood; some broke the host later)."""
    import engine
    from net.seats import RequestError, check_name, fit_name
    from net.wire import errors
    from net.wire.schemas import ID_LEN, TABLE_NAME_LEN, TOKEN_LEN, integer, name_text, text

    def bad(why: str) -> JournalError:
        return JournalError(f"its table {str(record.get('t'))[:ID_LEN]!r} {why}")

    try:
        text(ID_LEN, min_len=1)("t", record.get("t"))
        name_text(TABLE_NAME_LEN)("name", record.get("name"))
        spec = engine.GAMES.get(record.get("game"))  # type: ignore[arg-type]
        if spec is None:
            raise bad(f"is of a game this release does not know ({record.get('game')!r})")
        if record.get("phase") not in PHASES:
            raise bad(f"is in no phase a table has ({record.get('phase')!r})")
        seats = record.get("seats")
        if not isinstance(seats, list) or not spec.min_seats <= len(seats) <= spec.max_seats:
            raise bad(f"must have {spec.min_seats} to {spec.max_seats} seats")
        for seat in seats:
            if not isinstance(seat, dict) or seat.get("kind") not in ("human", "bot", "empty"):
                raise bad("has a seat that is neither a person's, a bot's nor empty")
            if seat["kind"] != "empty":
                name_text(TABLE_NAME_LEN)("a seat's name", seat.get("name"))
                if seat["kind"] == "human":
                    try:  # ("Bot 9" resumed as a person, whom every screen took for a bot)
                        check_name(seat["name"])
                    except RequestError as exc:
                        raise bad(f"seats a person by a name no host takes: {exc}") from None
                # (Numbered past the longest a name may be by an older release: every
                # app refused the table. Cut to fit, as the host now numbers names.)
                seat["name"] = fit_name(seat["name"])
                if isinstance(seat.get("for"), str):
                    seat["for"] = fit_name(seat["for"])
            if seat.get("token") is not None:
                text(TOKEN_LEN, min_len=1)("a seat's token", seat["token"])
        creator = record.get("creator")
        if creator is not None and (not isinstance(creator, int) or isinstance(creator, bool)
                                    or not 0 <= creator < len(seats)):
            raise bad("names a creator who has no seat")
        home = record.get("creator_home")
        if home is not None and (not isinstance(home, int) or isinstance(home, bool)
                                 or not 0 <= home < len(seats)):
            raise bad("names an absent creator who has no seat")
        if not isinstance(record.get("options"), dict):
            raise bad("has no options")
        try:  # (a limit of -5, an option "zzz": what an imported game file is refused for)
            spec.check_options(record["options"], len(seats))
        except ValueError as exc:
            raise bad(f"has options no host takes: {exc}") from None
        snapshot, phase = record.get("snapshot"), record["phase"]
        # (A lobby holds no game, and a game over is still there: a table in its lobby
        # with a game in play resumed offering the game's moves beside "start".)
        if snapshot is None:
            if phase != "lobby":
                raise bad(f"is {'in play' if phase == 'play' else 'over'} without its game")
            return
        if phase == "lobby":
            raise bad("is in its lobby with a game in it")
        if not isinstance(snapshot, dict) or snapshot.get("game") != record["game"] or (
                snapshot.get("seats") != len(seats)):
            raise bad("holds a game that is not its own")
        # (Counted up by every move, and written back: one past what the journal can
        # hold broke the host at the next move.)
        integer(0, 2**53)("the game's version", snapshot.get("version"))
        now = snapshot.get("now")
        if not isinstance(now, float | int) or not 0 <= now < 1e12:
            raise bad("holds a game at no time it can be at")
        if not check_game(record, bad).over and phase == "over":
            raise bad("says its game is over, and it is not")
    except errors.ProtocolError as exc:
        raise bad(f"is not whole: {exc}") from None


def check_game(record: dict[str, Any], bad: Callable[[str], JournalError]) -> engine.Game:
    """Refuse a ``table`` record whose game is not the one its own moves play to from
    their seed: a game's state read from a file was trusted (a hand holding cards
    numbered 999 and -1 resumed, and the seat's player could never join it again;
    scores as words broke the first move half-way through)."""
    import msgpack

    from engine.record import RecordError, tape_game

    tape = record.get("tape")
    if not isinstance(tape, dict):
        raise bad("holds a game without the moves that made it")
    if tape.get("game") != record["game"] or tape.get("seats") != len(record["seats"]):
        raise bad("holds moves of another game")
    try:
        played = tape_game(tape)
    except RecordError as exc:
        raise bad(f"holds moves no game plays: {exc}") from None
    # (As the journal wrote it: its msgpack makes lists of tuples.)
    made = msgpack.unpackb(msgpack.packb(played.snapshot()), raw=False)
    kept = record["snapshot"]
    if isinstance(kept, dict) and isinstance(kept.get("state"), dict) \
            and "private" not in kept["state"]:
        # A journal written before Got Five!'s moves known to one seat were counted
        # (a box stopped, upgraded and started again): the rest must be the same.
        made["state"].pop("private", None)
    if made != kept:
        raise bad("holds a game its own moves do not play to")
    return played


def replay_game(snapshot: dict[str, Any], ops: list[dict[str, Any]],
                tape: dict[str, Any] | None = None) -> tuple[engine.Game, Tape | None]:
    """The game of a ``table`` record's ``snapshot`` with the ``act`` and ``adv``
    records after it played again, at the engine times they were acknowledged at; and
    its moves from the start (``engine.record.Tape``) if the record kept its ``tape``."""
    # Imported here: the menu lists journals (this module) long before any game is on.
    import engine
    from engine.record import Tape

    game = engine.restore(snapshot)
    moves = Tape.from_data(tape) if tape else None
    for op in ops:
        if op["k"] == "act":
            game.act(op["s"], op["a"], now=op["n"])
            if moves is not None:
                moves.act(op["s"], op["a"], op["n"])
        else:
            game.advance(op["n"])
            if moves is not None:
                moves.advance(op["n"])
    return game, moves

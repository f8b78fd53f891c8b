"""Crash recovery: an append-only journal of everything a host has acknowledged.

A host that journals writes, *before* it acknowledges anything, one record per change:

- ``host`` (first record): the journal's version, the host's name, when it began;
- ``listen``: the port it listens on (clients reconnect to the same address);
- ``table``: a table's whole state — seats, names, tokens, options, creator, phase, and
  the engine's ``snapshot()`` (seed, RNG state, every secret) when a game is on;
  written when the table opens or its lobby changes, at the start of a game, and every
  :data:`SNAPSHOT_EVERY` actions (the periodic snapshot);
- ``act``: one accepted action (table, seat, action, engine time);
- ``adv``: time acted on a table (its deadline passed) at an engine time;
- ``drop``: the table closed.

Each record is a length-prefixed msgpack map written with one ``write`` before the host
goes on: once ``write`` returns the record is in the kernel, so a crash or ``kill -9`` of
the host loses nothing it acknowledged. Making it durable on the disk too (``fsync``) is
the :data:`SYNC_MODES` choice: ``background`` (the default) has a thread ``fsync`` the
file :data:`SYNC_DELAY` seconds after records begin to wait — the host never waits for
the disk, and a power cut can lose only the records of those moments (20 ms plus the
``fsync`` in flight: a few milliseconds on an SSD, tens on a slow card); ``each`` calls
``fsync`` before every acknowledgement, so not even a power cut loses one, at the disk's
pace for every action. A crash can tear only the last record, which was never
acknowledged; :func:`read_journal` stops there (damage before the end is refused: the
records after it would be lost). After :data:`COMPACT_AFTER` records, and as many as
the file held after its last rewrite (so a host with many tables does not rewrite them
all on every record), the file is rewritten (atomically: temporary file, fsync, rename)
as the last state of each table. The file holds secrets (seeds, tokens): it is created
with mode 0600 in a 0700 directory, and never leaves the machine.

``net.journal_list`` finds the journals that can be resumed; ``net.journal_resume``
reads one back as each table's last record (checked) and the moves after it, and plays
those moves again; ``Host.resume(path)`` (``net.host``) brings the tables back from them.
"""

from __future__ import annotations

import contextlib
import logging
import os
import struct
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgpack

from net.paths import FileRefused, journal_dir, read_regular

if TYPE_CHECKING:
    pass

try:
    import fcntl
except ImportError:  # not on POSIX: no lock, as before
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

#: How records reach the disk: ``background`` fsyncs from a thread as soon as records
#: wait (the default), ``each`` fsyncs every record before the host goes on.
SYNC_MODES = ("background", "each")
#: In ``background`` mode, how long the thread gathers records before one ``fsync``
#: (fewer syncs, none in the middle of a burst of moves; a power cut loses at most this
#: and the ``fsync`` in flight).
SYNC_DELAY = 0.02
#: Bumped when a journal written by one release cannot be read by another.
JOURNAL_VERSION = 1
SUFFIX = ".hhjournal"
#: A full ``table`` record after this many ``act``/``adv`` records of one table, or
#: after an eighth of its game's moves if that is more (:func:`snapshot_due`).
SNAPSHOT_EVERY = 100
#: The file is rewritten as one record per table after at least this many records
#: (and at least as many as the last rewrite wrote: see :attr:`Journal.compaction_due`).
COMPACT_AFTER = 2000
#: …or after at least this many bytes (and as many as the last rewrite wrote).
COMPACT_BYTES = 8 * 1024 * 1024
_HEADER = struct.Struct(">I")
#: No record is larger than this (a game snapshot is a few kilobytes).
_MAX_RECORD = 16 * 1024 * 1024


def snapshot_due(since: int, moves: int) -> bool:
    """Whether a table that wrote ``since`` moves since its last ``table`` record, in a
    game of ``moves`` in all, writes its whole state again. That record holds every move
    of the game: at a fixed interval a long game's writes grew with its square (one
    person passing a GET OUT! game's turns back and forth between two seats for ever
    held the host's loop 100 ms a record at 100,000 moves); at an eighth of the game's
    length, what a game writes stays in proportion to its length, and a resume plays
    at most that eighth again."""
    return since >= max(SNAPSHOT_EVERY, moves // 8)


def check_sync(sync: str) -> None:
    """Refuse a sync mode that is not one of :data:`SYNC_MODES`, in words."""
    if sync not in SYNC_MODES:
        raise ValueError(f"sync must be one of {', '.join(SYNC_MODES)}, not {sync!r}")


class JournalError(Exception):
    """A journal that cannot be read or resumed; the message says why in plain words."""


def new_journal_path(directory: Path | None = None) -> Path:
    """A fresh journal file name (nothing is created yet)."""
    directory = directory or journal_dir()
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return directory / f"{stamp}-{os.urandom(4).hex()}{SUFFIX}"


def _frame(record: dict[str, Any], pack: Callable[[Any], bytes] | None = None) -> bytes:
    """One record as written: its length, then its msgpack body (``pack``: a packer's
    ``pack``, or a new one's)."""
    body = pack(record) if pack is not None else msgpack.packb(record, use_bin_type=True)
    return _HEADER.pack(len(body)) + body


def packed_prefix(record: dict[str, Any], key: str) -> bytes:
    """The msgpack body of ``record`` with ``key`` added, all but ``key``'s value: with
    a value that is already msgpack after it, it is the whole record's body (a record
    built around a packed value without unpacking it)."""
    size = len(record) + 1
    head = bytes([0x80 | size]) if size < 16 else b"\xde" + size.to_bytes(2, "big")
    parts = [head]
    for name, value in record.items():
        parts += (msgpack.packb(name), msgpack.packb(value, use_bin_type=True))
    parts.append(msgpack.packb(key))
    return b"".join(parts)


def _private_dir(directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    with contextlib.suppress(OSError):
        os.chmod(directory, 0o700)


def _hold(fd: int, path: Path) -> None:
    """Lock the journal for the host writing it (``flock``, released when the file is
    closed or the process dies): another app must not resume, and so rewrite, a game
    that is still running. Closes ``fd`` and raises ``JournalError`` if it is held."""
    if fcntl is None:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise JournalError(
            f"{path.name} is in use: its game is still running in another hiddenhand"
        ) from None


def in_use(path: Path) -> bool:
    """True while a running host holds the journal at ``path`` (this process's too)."""
    if fcntl is None:
        return False
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # (a pipe: no wait for a writer)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)  # (and with it the shared lock, if it was had)
    return False


def _fsync_dir(directory: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


class Tails:
    """What a rewrite keeps of each table, as it was written: its last ``table`` record
    and the moves (``act``, ``adv``) after it, packed (at most :data:`SNAPSHOT_EVERY`
    moves, or an eighth of a long game's: a table writes its whole state again after
    that many, :func:`snapshot_due`).

    A rewrite built from these packs nothing: with 256 tables, taking each table's
    state afresh and packing it held the host's loop 100 ms per rewrite.
    """

    def __init__(self, pack: Callable[[Any], bytes]) -> None:
        self._pack = pack
        self._tables: dict[str, list[bytes]] = {}

    def wrote(self, record: dict[str, Any], body: bytes) -> None:
        """``record`` was appended, packed as ``body``."""
        kind, tid = record.get("k"), record.get("t")
        if not isinstance(tid, str) or not body:
            return
        if kind == "table":
            self._tables[tid] = [body]
        elif kind in ("act", "adv"):
            tail = self._tables.get(tid)
            if tail is not None:  # (none yet: the next rewrite takes the table afresh)
                tail.append(body)
        elif kind == "drop":
            self._tables.pop(tid, None)

    def of(self, tid: str, whole: Callable[[], dict[str, Any]]) -> list[bytes]:
        """Table ``tid``'s last whole state and its moves since, packed; ``whole()``
        gives its state afresh if none was written (a journal just resumed)."""
        tail = self._tables.get(tid)
        if tail is None:
            tail = self._tables[tid] = [self._pack(whole())]
        return tail

    def keep_only(self, tids: Iterable[str]) -> None:
        """Forget every table but ``tids`` (those the host still has)."""
        kept = set(tids)
        for tid in [t for t in self._tables if t not in kept]:
            del self._tables[tid]


class Journal:
    """One open journal file: every record written at once, fsync'd per :data:`SYNC_MODES`.

    Only the host's event loop thread appends, rewrites and closes; in ``background``
    mode one daemon thread does nothing but ``fsync`` the file while records wait.
    """

    def __init__(self, path: Path, fd: int, records: int, *, sync: str = "background") -> None:
        check_sync(sync)
        self.path = path
        self._fd: int | None = fd
        #: Records in the file, and in it after it was opened or last rewritten (for
        #: compaction).
        self.records = records
        self.base = records
        #: Bytes in the file, and in it after it was opened or last rewritten.
        self.size = self.base_size = os.fstat(fd).st_size
        self.sync = sync
        #: Records appended so far / known to be on the disk (this process's count).
        self.written = 0
        self.durable = 0
        #: Held while the file descriptor is fsync'd, replaced or closed.
        self._fd_lock = threading.Lock()
        #: Notified whenever ``durable`` moves (``wait_durable``).
        self._synced = threading.Condition()
        #: Set by ``append`` when records wait for the background thread.
        self._pending = threading.Event()
        self._stop = threading.Event()
        self._failed = False
        #: A new file's directory entry is still to be made durable (with the next fsync).
        self._new_entry = False
        self._thread: threading.Thread | None = None
        #: ``msgpack.packb`` without a new ``Packer`` for every record (only the
        #: host's loop thread appends).
        self._pack: Callable[[Any], bytes] = msgpack.Packer(use_bin_type=True).pack
        #: What :meth:`rewrite` is to keep of each table, as appended.
        self.tails = Tails(self._pack)
        if sync == "background":
            self._thread = threading.Thread(
                target=self._sync_loop, name="hiddenhand-journal-sync", daemon=True
            )
            self._thread.start()

    @classmethod
    def create(cls, path: Path, header: dict[str, Any], *, sync: str = "background") -> Journal:
        """Start a new journal at ``path`` (mode 0600) with its ``host`` record."""
        check_sync(sync)
        _private_dir(path.parent)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o600)
        _hold(fd, path)
        journal = cls(path, fd, 0, sync=sync)
        # The first record and the file's directory entry reach the disk with the first
        # fsync, as every record does: at once with ``each``, from the thread with
        # ``background`` (so the host does not wait for the disk as it opens either: a
        # solo table's first frame would wait for those two fsyncs).
        journal._new_entry = True
        journal.append({"k": "host", "v": JOURNAL_VERSION, **header})
        return journal

    def append(self, record: dict[str, Any]) -> None:
        """Write one record: in the kernel on return (and on the disk, with ``each``)."""
        if self._fd is None:
            return
        body = self._pack(record)
        self.tails.wrote(record, body)
        data = _HEADER.pack(len(body)) + body
        written = os.write(self._fd, data)
        if written != len(data):  # a full disk: write the rest, or fail loudly
            os.write(self._fd, data[written:])
        self.records += 1
        self.size += len(data)
        self.written += 1
        if self.sync == "each":
            self.flush()
        elif not self._pending.is_set():
            self._pending.set()

    def flush(self) -> None:
        """``fsync`` now, on the caller's thread: every record written so far is durable."""
        with self._fd_lock:
            target = self.written
            if self._fd is not None:
                os.fsync(self._fd)
                if self._new_entry:
                    self._new_entry = False
                    _fsync_dir(self.path.parent)
        self._mark_durable(target)

    def _mark_durable(self, target: int) -> None:
        with self._synced:
            self.durable = max(self.durable, target)
            self._synced.notify_all()

    def wait_durable(self, timeout: float | None = None) -> bool:
        """Block until every record written so far is on the disk (or ``timeout``)."""
        target = self.written
        with self._synced:
            return self._synced.wait_for(lambda: self.durable >= target, timeout)

    def _sync_loop(self) -> None:
        """The ``background`` thread: once records wait, gather more for
        :data:`SYNC_DELAY` seconds, then fsync them all at once; until closed."""
        while True:
            self._pending.wait()
            if self._stop.wait(SYNC_DELAY):
                return  # ``close`` syncs what is left itself
            self._pending.clear()
            try:
                self.flush()
            except OSError as exc:  # the records are still in the kernel; say so once
                if not self._failed:
                    log.error("journal %s: fsync failed: %s", self.path, exc)
                self._failed = True
                self._mark_durable(self.written)

    @property
    def compaction_due(self) -> bool:
        """Time to rewrite: :data:`COMPACT_AFTER` records written since the last rewrite,
        and as many as that rewrite wrote; or as many bytes, and :data:`COMPACT_BYTES`.
        Rewriting costs what the file then holds, so a rewrite comes only after as much
        as it costs: with enough tables their rewrite alone is past
        :data:`COMPACT_AFTER`, and every record rewrote them all (24 busy tables: 66 ms
        of the host's loop, 10 times a second). Bytes count too: a table writes its
        whole state, every move of its game, every :data:`SNAPSHOT_EVERY` moves, and a
        file of a few thousand records could pass :data:`MAX_JOURNAL`."""
        return self.records - self.base > max(COMPACT_AFTER, self.base) or (
            self.size - self.base_size > max(COMPACT_BYTES, self.base_size))

    def rewrite(self, records: list[dict[str, Any] | bytes]) -> None:
        """Replace the whole file by ``records`` atomically (compaction); a record
        given as ``bytes`` is its msgpack body, already packed."""
        if self._fd is None:
            return
        tmp = self.path.with_name(self.path.name + ".tmp")
        # The new file is held before it takes the journal's name: there is no moment
        # at which another app could find the journal free.
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o600)
        _hold(fd, tmp)  # (closes it if it cannot)
        try:
            data = b"".join(_HEADER.pack(len(r)) + r if isinstance(r, bytes) else _frame(r)
                            for r in records)
            os.write(fd, data)
            os.fsync(fd)
        except BaseException:
            with contextlib.suppress(OSError):
                os.close(fd)
            raise
        with self._fd_lock:
            os.replace(tmp, self.path)
            _fsync_dir(self.path.parent)
            os.close(self._fd)
            self._fd = fd
        self._mark_durable(self.written)
        self.records = self.base = len(records)
        self.size = self.base_size = len(data)

    def close(self, *, remove: bool = False) -> None:
        """Stop journaling (after a last ``fsync``); ``remove`` deletes the file."""
        self._stop.set()
        self._pending.set()
        if self._fd is not None:
            with contextlib.suppress(OSError):
                self.flush()
            with self._fd_lock:
                os.close(self._fd)
                self._fd = None
        self._mark_durable(self.written)
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        if remove:
            with contextlib.suppress(OSError):
                self.path.unlink()

    @classmethod
    def reopen(cls, path: Path, records: int, *, sync: str = "background") -> Journal:
        """Append to an existing journal (after a resume)."""
        fd = os.open(path, os.O_WRONLY | os.O_APPEND)
        _hold(fd, path)
        return cls(path, fd, records, sync=sync)


#: No journal is larger: a rewrite keeps each table's whole state (its game's moves: a
#: seat's moves that take no turn are bounded, ``net.seats.MOVES_PER_GAME``, to a few
#: hundred kilobytes a game) and its past, and comes again before the file is twice
#: that and 8 MB (:attr:`Journal.compaction_due`). A file that is larger is none of ours.
MAX_JOURNAL = 64 * 1024 * 1024


def _records(data: bytes, stop: list[int] | None = None) -> Iterator[dict[str, Any]]:
    """The complete records in ``data``; the first that is not one ends the list, and
    where it begins is put in ``stop`` (``len(data)`` when every record was whole)."""
    at = 0
    try:
        while at + _HEADER.size <= len(data):
            (length,) = _HEADER.unpack_from(data, at)
            if length > _MAX_RECORD or at + _HEADER.size + length > len(data):
                return
            body = data[at + _HEADER.size : at + _HEADER.size + length]
            try:
                record = msgpack.unpackb(body, raw=False, strict_map_key=True)
            except Exception:
                return
            if not isinstance(record, dict):
                return
            yield record
            at += _HEADER.size + length
    finally:
        if stop is not None:
            stop.append(at)


def _torn_tail(data: bytes, at: int) -> bool:
    """Whether what follows the last whole record at ``at`` is what a crash leaves: a
    record cut short (each is written with one ``write``, so only the last can be), or
    zeros (a file the power cut grew before its data reached the disk). Anything else
    is damage, with records after it that resuming would lose."""
    rest = data[at:]
    if len(rest) < _HEADER.size or not rest.strip(b"\0"):
        return True
    (length,) = _HEADER.unpack_from(rest)
    return length <= _MAX_RECORD and _HEADER.size + length >= len(rest)


def _read_file(path: Path) -> bytes:
    """The bytes of a journal file; ``JournalError`` for anything that is not a regular
    file of a journal's size (a device or a pipe would be read for ever)."""
    try:
        return read_regular(path, MAX_JOURNAL)
    except FileRefused as exc:
        raise JournalError(f"{path} is not a journal: {exc}") from None
    except OSError as exc:
        raise JournalError(f"cannot read the journal {path}: {exc.strerror or exc}") from None


def read_journal(path: Path, torn: list[int] | None = None
                 ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and the records of a journal; ``JournalError`` if it is not one, or
    if it is damaged before its end (resuming would lose the records after the damage:
    the file is left as it is). How many bytes follow its last whole record (a record
    a crash cut short) is put in ``torn``."""
    data = _read_file(Path(path))
    stop: list[int] = []
    records = list(_records(data, stop))
    if torn is not None:
        torn.append(len(data) - stop[0])
    if records and records[0].get("k") == "host" and not _torn_tail(data, stop[0]):
        raise JournalError(
            f"{path} is damaged at byte {stop[0]} of {len(data)}: the records after it "
            "cannot be read, so it is not resumed (the file is left as it is)")
    if not records or records[0].get("k") != "host":
        raise JournalError(f"{path} is not a hiddenhand journal")
    header = records[0]
    if header.get("v") != JOURNAL_VERSION:
        raise JournalError(
            f"{path} was written by another hiddenhand release (journal version "
            f"{header.get('v')!r}, this one reads {JOURNAL_VERSION})"
        )
    return header, records[1:]

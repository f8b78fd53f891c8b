"""The authoritative host: one asyncio server holding one or more tables.

A table (``net.table``; the lobby's rules in ``net.lobby``) is the authority over its game
and never touches a socket or a timer. The host owns those: it admits connections (limits
per client address and human-scale allowances, ``net.limits``), hands each validated
request to its handler (``net.handlers``) and delivers what a table returns: journal
records first (``net.journal``: every acknowledged change durable first), then each
member's own update (``net.fanout``) through its connection (``net.connection``), and
arms one timer per table on its clock. Each connection is sent only its seat's view,
legal actions and the public events: never a snapshot, the seed or another seat's view;
an action's seat is never read from the message.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from net import fanout, idle, lobby
from net import journal as j
from net.clock import Clock, LoopClock, Timer
from net.connection import LOCAL_PLAYER, Connection, LoopWatch, room_to_return, socket_time
from net.fanout import Outbox
from net.handlers import receive
from net.journal_resume import recover, said_resumed
from net.limits import Gate, Limits
from net.seats import Bot, BotFactory, HouseRules, RequestError, random_seed, real_bot_factory
from net.table import Table
from net.wire import errors, stream

__all__ = ["Bot", "Host"]
log = logging.getLogger("hiddenhand.host")


class Host:
    """The authoritative server: connections, tables, heartbeats.

    ``heartbeat`` is the ping interval in seconds and ``timeout`` how long a silent
    peer is kept (default three intervals). ``bot_delay`` paces bot moves. Each
    connection may send ``rate`` messages a second on average, ``burst`` at once; a
    game a player dropped from waits ``idle_timeout`` seconds for them (``net.idle``).
    Game and bot seeds come from ``seed_source`` (default: the system's secure
    generator; tests pass a seeded one to replay games). Seeds never leave the host.
    ``limits`` (``net.limits.Limits``) bound what one peer or address may cost. With
    ``journal`` (e.g. ``net.journal.new_journal_path()``) every acknowledged change is
    journaled there first (``fsync``: how, ``net.journal.SYNC_MODES``) and
    :meth:`resume` brings the tables back after a crash.

    ``clock`` (``net.clock``; the event loop's by default) is the host's time: the
    tables' time and wake-ups (deadlines, bots' pace), closing idle tables and idle
    connections at no table, the human-scale allowances (chat, rename, lobby); a test
    passes a ``ManualClock`` to move it. What is about real sockets stays on the
    loop's clock: the heartbeat and its timeouts, the flood limit (``rate``,
    ``burst``), a closing connection's grace.
    """

    def __init__(
        self,
        name: str = "hiddenhand",
        *,
        heartbeat: float = 1.5,
        timeout: float | None = None,
        bot_factory: BotFactory = real_bot_factory,
        bot_delay: float = 0.4,
        rate: float = 500.0,
        burst: int = 1000,
        max_connections: int | None = None,
        max_tables: int | None = None,
        idle_timeout: float = 600.0,
        seed_source: Callable[[], int] | None = None,
        limits: Limits | None = None,
        journal: Path | str | None = None,
        fsync: str = "background",
        clock: Clock | None = None,
    ) -> None:
        self.name = name
        self._clock: Clock = clock or LoopClock()
        self.heartbeat = heartbeat
        self.timeout = timeout if timeout is not None else 3 * heartbeat
        #: How every table here makes seeds and bots, and paces them.
        self.house = HouseRules(bot_factory, seed_source or random_seed, bot_delay)
        self.rate = rate
        self.burst = burst
        self.limits = limits or Limits()
        self.max_connections = (
            max_connections if max_connections is not None else self.limits.max_connections
        )
        self.max_tables = max_tables if max_tables is not None else self.limits.max_tables
        self.idle_timeout = idle_timeout
        self.tables: dict[str, Table] = {}
        self.connections: set[Connection] = set()
        #: Called when something visible may have changed (discovery), and with the
        #: record of each game that ends here, finished or not (``net.records``).
        self.listeners: list[Callable[[], None]] = []
        self.keepers: list[Callable[[dict[str, Any]], object]] = []
        self.server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._next_table = 1
        #: Tables came from a journal and wait for the loop to run (``_run_resumed``).
        self._resumed = False
        self._torn = 0  # (bytes of a record cut short at the end of a journal resumed)
        #: Limits per client address and human-scale allowances.
        self.gate = Gate(self.limits)
        #: The crash-recovery journal (``net.journal``), if this host keeps one.
        self.journal: j.Journal | None = None
        self.created = time.time()
        #: Where a resumed host listened before, port and address (clients come back).
        self.resumed_port: int | None = None
        self.resumed_bind: str | None = None
        self._listen: dict[str, Any] | None = None
        if fsync not in j.SYNC_MODES:
            raise ValueError(f"fsync must be one of {', '.join(j.SYNC_MODES)}, not {fsync!r}")
        self.fsync = fsync  # (how the journal reaches the disk: ``j.SYNC_MODES``)
        if journal is not None:
            self.journal = j.Journal.create(Path(journal), self._journal_header(), sync=fsync)
        #: Stopping: nobody comes in, and a peer leaving leaves its table as it was.
        self.closing = False
        #: How long the event loop was too busy to hear anyone (``net.connection``).
        self.watch = LoopWatch()
        self._watcher: asyncio.Task[None] | None = None
        #: Each table's one timer (its next wake-up, and when); the idle tables' closers.
        self._wakes: dict[Table, tuple[float, Timer]] = {}
        self.idle_timers: dict[str, Timer] = {}
        #: Closes connections that stay at no table (``net.idle``).
        self.lobby_idle = idle.LobbyIdle(self._clock, self.limits)

    @property
    def bot_delay(self) -> float:
        """Seconds between two moves of turn-based bots (may change at any time)."""
        return self.house.bot_delay

    @bot_delay.setter
    def bot_delay(self, value: float) -> None:
        self.house.bot_delay = value

    # ---- lifecycle --------------------------------------------------------------------

    def clock(self) -> float:
        """The host's monotonic clock (its ``clock``'s reading); never sent over the wire."""
        return self._clock.now()

    async def start(self, host: str | None = "127.0.0.1", port: int = 0) -> None:
        """Listen for TCP connections on ``host:port`` (port 0 picks a free one), or on
        the Unix socket at ``host`` if it is an absolute path (``port`` then unused)."""
        loop, serve = asyncio.get_running_loop(), stream.frame_protocol(self.handle_connection)
        if host is not None and host.startswith("/"):
            self.server = await loop.create_unix_server(serve, host)
        else:
            self.server = await loop.create_server(serve, host, port, family=socket.AF_UNSPEC,
                                                   reuse_address=True)
        self._listen = {"k": "listen", "port": self.port, "bind": host}
        if self._resumed and self.journal is not None:
            self.compact()  # (only once it listens: a resume that cannot changes nothing)
            said_resumed(len(self.tables), self.journal.path, self._torn)
        else:
            self._write([self._listen])
        self._run_resumed()

    @property
    def port(self) -> int:
        """The TCP port the host listens on (0 on a Unix socket)."""
        assert self.server is not None and self.server.sockets, "the host is not listening"
        name = self.server.sockets[0].getsockname()
        return int(name[1]) if isinstance(name, tuple) else 0

    async def close(self, *, keep_journal: bool | None = None) -> None:
        """Tell every client the host is stopping, then close everything; the journal is
        kept (to resume from) if a game is in play or ``keep_journal`` says so."""
        self.closing, keep = True, False
        if self.journal is not None:
            keep = (any(t.phase == "play" for t in self.tables.values())
                    if keep_journal is None else keep_journal)
            self.journal.close(remove=not keep)
        if self.server is not None:
            self.server.close()
        self.lobby_idle.close()
        for table in self.tables.values():
            self._stop_table(table, ended=not keep)
        for conn in list(self.connections):
            # (A game to come back to: its player waits for it; else to the menu at once.)
            if keep and conn.table is not None and conn.table.phase == "play":
                conn.fail(errors.SHUTTING_DOWN, "the host stopped; it can resume this game "
                          "later, and your seat stays yours")
            elif conn.table is not None:
                conn.fail(errors.TABLE_CLOSED, "the host closed the table")
            else:
                conn.fail(errors.SHUTTING_DOWN, "the host is shutting down")
            conn.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self.server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.server.wait_closed(), 2)

    async def __aenter__(self) -> Host:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def changed(self) -> None:
        """Tell listeners (discovery) that something visible may have changed."""
        for listener in list(self.listeners):
            try:
                listener()
            except Exception:
                log.exception("host listener failed")

    def summary(self) -> list[dict[str, Any]]:
        return [t.summary() for t in self.tables.values()]  # every table in short

    # ---- tables -----------------------------------------------------------------------

    def create_table(self, name: str, game_id: str, seats: int,
                     options: dict[str, Any] | None = None, *, bots: int = 0,
                     permanent: bool = False) -> Table:
        """Open a table (``net.lobby.open_table``: ``bots`` fills the last seats with
        bots; ``ValueError`` in plain words for a bad game, seat count or option)."""
        if len(self.tables) >= self.max_tables:
            raise ValueError(f"this host already holds {self.max_tables} tables")
        name = lobby.distinct_name(name, (t.name for t in self.tables.values()))
        table = lobby.open_table(f"t{self._next_table}", name, game_id, seats, options,
                                 self.house, bots=bots)
        self._next_table += 1
        table.permanent = permanent
        self.tables[table.id] = table
        if self.journal is not None:
            table.journaling = True
            self._write([table.checkpoint()])
        self.changed()
        return table

    def deliver(self, table: Table, out: Outbox,
                answer: tuple[Connection, dict[str, Any]] | None = None) -> None:
        """Do what ``table`` returned: journal its records (before anyone hears of the
        change), send its messages, then ``answer`` (a connection and the reply to its
        request), then the updates and chat lines; then set the table's timer anew."""
        if out.records:
            self._write(out.records)
        for member, message in out.messages:
            member.send(message)
        for member in out.closing:
            member.close()
        if answer is not None:
            answer[0].send(answer[1])
        for push in out.pushes:
            fanout.deliver(push)
        for member, line in out.lines:
            member.send(line)
        for record in out.finished:
            for keep in self.keepers:
                keep(record)
        if out.changed:
            self.changed()
        self._arm(table)

    def refresh(self, table: Table, events: Iterable[dict[str, Any]] = (),
                notices: Iterable[dict[str, Any]] = ()) -> None:
        """Push ``table`` to everyone at it after its game was changed from outside a
        request (a tool or a test set it up), and let its deadline and bots look again."""
        self.deliver(table, table.changed(list(events), list(notices), self.clock()))

    def act(self, table: Table, seat: int, action: dict[str, Any]) -> None:
        """Apply ``seat``'s action at ``table`` as if its player had sent it (tools and
        tests that play a seat themselves); ``RequestError`` if it is refused."""
        self.deliver(table, table.act(seat, action, self.clock()))

    def _arm(self, table: Table) -> None:
        """Keep ``table``'s one timer at its next wake-up (no polling)."""
        when = table.next_wake()
        if (armed := self._wakes.get(table)) is not None:
            if armed[0] == when:
                return
            armed[1].cancel()
            del self._wakes[table]
        if when is not None:
            # The table's times are readings of the host's clock, so they map onto it.
            self._wakes[table] = (when, self._clock.call_at(when, self._wake, table, when))

    def _wake(self, table: Table, when: float) -> None:
        self._wakes.pop(table, None)
        try:
            # asyncio may fire a timer up to its clock resolution early.
            self.deliver(table, table.wake(max(self.clock(), when)))
        except Exception:
            log.exception("table %s failed to wake", table.id)

    def _catch_up(self, conn: Connection, events: list[dict[str, Any]],
                  notices: list[dict[str, Any]]) -> bytes | None:
        """The update that brings ``conn`` up to date once it reads again."""
        table = conn.table
        if table is None:
            return None
        push = table.update_for(conn, conn.seat, events, notices, self.clock())
        return fanout.frame_for(push, conn.seat, conn.sent)

    def check_idle(self, table: Table) -> None:
        """Close a player-opened table nobody is connected to once nobody came back
        (``net.idle.closing_wait``: at once, after a lobby's wait, or a dropped
        player's ``idle_timeout``); disconnected players keep their seats till then."""
        if (timer := self.idle_timers.pop(table.id, None)) is not None:
            timer.cancel()
        wait = idle.closing_wait(table, self.limits, self.idle_timeout)
        if wait is None or table.id not in self.tables:
            return
        if wait == 0:
            self._remove_if_idle(table)  # (at once: a new table may want its slot now)
            return
        self.idle_timers[table.id] = self._clock.call_at(
            self.clock() + wait, self._remove_if_idle, table)

    def _remove_if_idle(self, table: Table) -> None:
        self.idle_timers.pop(table.id, None)
        if table.connections() or self.tables.get(table.id) is not table:
            return
        log.info("table %s has nobody at it; closing it", table.id)
        self._stop_table(table)
        del self.tables[table.id]
        table.journaling = False
        self._write([{"k": "drop", "t": table.id}])
        self.changed()

    def _stop_table(self, table: Table, *, ended: bool = True) -> None:
        """Stop ``table``; a game in play that ``ended`` (nothing resumes it) is kept."""
        if ended and table.phase == "play" and (record := table.unfinished_record()):
            for keep in self.keepers:
                keep(record)
        table.close()
        armed = self._wakes.pop(table, None)
        for timer in (armed and armed[1], self.idle_timers.pop(table.id, None)):
            if timer is not None:
                timer.cancel()

    # ---- crash recovery ---------------------------------------------------------------

    def _journal_header(self) -> dict[str, Any]:
        return {"name": self.name, "created": self.created}

    def _write(self, records: list[dict[str, Any]]) -> None:
        journal = self.journal
        if journal is None:
            return
        for record in records:
            journal.append(record)
        if journal.compaction_due:
            self.compact()

    def compact(self) -> None:
        """Rewrite the journal as the host's current state (one record per table)."""
        if self.journal is None:
            return
        records: list[dict[str, Any] | bytes] = [{
            "k": "host", "v": j.JOURNAL_VERSION, **self._journal_header(),
            "next_table": self._peek_table_id()}]
        if self._listen is not None:
            records.append(self._listen)
        for table in self.tables.values():
            records.extend(self.journal.tails.of(table.id, table.checkpoint))
            past = j.packed_prefix({"k": "past", "t": table.id}, "e")
            records.extend(past + entry for entry in table.past.packed())
        self.journal.tails.keep_only(self.tables)
        self.journal.rewrite(records)

    def _peek_table_id(self) -> int:
        ids = [int(t[1:]) for t in self.tables if t[1:].isdigit()]
        return max([*ids, self._next_table - 1]) + 1

    @classmethod
    def resume(cls, path: Path | str, **settings: Any) -> Host:
        """A host with the tables of the journal at ``path``, as they were last acknowledged.

        Seats, names and tokens come back; every person is shown disconnected until
        their client reconnects with its token. A game in play stays frozen: an untimed
        one runs again as soon as the host starts, a Get It! round once every person is
        back (``docs/reliability.md``). ``settings`` are :class:`Host`'s; it goes on
        journaling to ``path``. ``net.journal.JournalError``, in words, if it cannot."""
        found = recover(path := Path(path))
        settings.pop("journal", None)
        name = settings.pop("name", None) or str(found.header.get("name", "hiddenhand"))
        host = cls(name, **settings)
        for tid, (record, ops) in found.tables.items():
            try:
                table = Table.restore(record, ops, host.house, found.pasts.get(tid, []))
                j._frame(table.persisted())  # (what it journals next can be written)
                host.tables[tid], table.resumed = table, True
            except Exception as exc:
                raise j.JournalError(f"table {tid} in {path} cannot be restored: {exc}") from None
        host.resumed_port, host.resumed_bind = found.port, found.bind
        # (As they were until it listens again: a resume that cannot listen changes none.)
        host._listen, host.created = found.listen, found.created or host.created
        host._next_table = max(host._peek_table_id(), int(found.header.get("next_table") or 1))
        host._resumed, host._torn = True, found.torn
        host.journal = j.Journal.reopen(path, found.records, sync=host.fsync)
        for table in host.tables.values():
            table.journaling = True
        return host

    def _run_resumed(self) -> None:
        """Once the loop runs: resumed games without a running clock go on at once, and
        resumed tables nobody comes back to close as any other would."""
        if not self._resumed:
            return
        self._resumed = False
        for table in list(self.tables.values()):
            if table.frozen is not None and not table.paused:
                table.thaw(self.clock())
                self._arm(table)
            self.check_idle(table)

    # ---- connections ------------------------------------------------------------------

    async def open_local(self) -> tuple[stream.FrameReader, stream.FrameWriter]:
        """A connection to this host through a socket pair, no network: the client's end,
        the host serving the other as the person who runs it (``LOCAL_PLAYER``)."""
        self._run_resumed()
        mine, theirs = socket.socketpair()
        host_reader, host_writer = await stream.open_connection(sock=theirs)
        task = asyncio.get_running_loop().create_task(
            self.handle_connection(host_reader, host_writer, LOCAL_PLAYER))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return await stream.open_connection(sock=mine)

    async def handle_connection(self, reader: stream.FrameReader, writer: stream.FrameWriter,
                                player: str | None = None) -> None:
        """Serve one client (``player``: who it is, if the host knows) until it leaves,
        breaks the framing or goes silent."""
        conn = Connection(reader, writer, socket_time(), self.burst, self.limits,
                          self._catch_up)
        conn.player = player or conn.player
        conn.stalled_seen = self.watch.stalled
        loop = asyncio.get_running_loop()
        if self._watcher is None or self._watcher.done():
            self._watcher = loop.create_task(self.watch.run(min(0.1, self.heartbeat / 4)))
            self._tasks.add(self._watcher)
        full = len(self.connections) >= self.max_connections
        refusal = ("this host takes no more connections now" if self.closing else
                   self.gate.returning(conn.address, [c.address for c in self.connections
                                                      if c.returning]) if full
                   else None) or self.gate.admit(
                       conn.address, [(c.address, c.table is not None)
                                      for c in self.connections], conn.opened)
        conn.returning = full
        if refusal is not None:
            log.info("connection from %s refused: %s", conn.peer, refusal)
            conn.fail(errors.HOST_FULL, refusal)
            conn.close()
            return
        self.connections.add(conn)
        if full:
            room_to_return(self.connections, self.limits.returning_reserve)
        log.info("connection %d from %s", conn.id, conn.peer)
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        beat = loop.create_task(conn.heartbeat(self.heartbeat, self.timeout, self.watch))
        self._tasks.add(beat)
        try:
            await conn.serve(lambda body: receive(self, conn, body))
        except asyncio.CancelledError:  # the host is closing
            pass
        finally:
            beat.cancel()
            self._tasks.discard(beat)
            if task is not None:
                self._tasks.discard(task)
            self._drop(conn)

    def take(self, conn: Connection, kind: str) -> None:
        """Spend one of ``conn``'s (and its address's) human-scale allowances for ``kind``."""
        refusal = self.gate.take(conn.buckets, conn.address, kind, self.clock())
        if refusal is not None:
            raise RequestError(errors.RATE_LIMITED, refusal)

    def counts_address(self, conn: Connection) -> bool:
        """True if limits per client address apply to ``conn`` (not to the app's own
        in-process player, nor to an address many people share)."""
        return self.gate.counts(conn.address)

    def _drop(self, conn: Connection) -> None:
        self.connections.discard(conn)
        self.lobby_idle.forget(conn)
        if not any(c.address == conn.address for c in self.connections):
            self.gate.forget(conn.address, self.clock())
            self.gate.forget_frames(conn.address, socket_time())
        table = conn.table
        if table is not None and not self.closing:
            self.deliver(table, table.disconnect(conn, self.clock()))
            self.check_idle(table)
        # Gracefully: a last error frame (version mismatch, bad framing) still goes out.
        conn.close()
        log.info("connection %d (%s, %s) closed", conn.id, conn.name or "no name yet",
                 f"at table {table.id}" if table is not None else "at no table")

"""What a host stops keeping when nobody uses it: connections at no table, tables nobody is at.

**A connection at no table** (it said hello and browses the list, or only answers
pings) is closed after ``limits.lobby_idle`` seconds without a request of its own
(:class:`LobbyIdle`). ``limits.lobby_warning`` seconds before, it is told so: a
``warning`` push with ``closes_in``, the seconds left, so the person sees it coming and
stays by doing something. What counts is what a person does (list the tables, open or
join one, rename); pings and pongs are the software's own and do not. A connection at a
table, seated or watching, is never closed for this; its lobby time starts again when it
leaves the table (or is removed from it). Without it, a script's connections that only
answer pings filled the host for good wherever the limits per address are waived (an
SSH box, where every app connects from one address).

**A player-opened table nobody is at** waits for someone to come back, then closes
(:func:`closing_wait`): at once if no person holds a seat there; a game in play that a
person *dropped* from (a lost connection, a host restarted; a bot may play for them
meanwhile) waits ``idle_timeout``, the window a dropped player has to take their seat
back with its token, and so does any table a restarted host brought back, until
someone is at it again; a lobby, a finished
game, or a game every person *left* on purpose waits as long as a lobby does
(``limits.empty_table_timeout``): nobody said they would come back.

**Who opened a table** is a connection's ``player``, not its address (many people
share one on a box): a new key for every connection, and the key of the seat a
connection takes back with its token (it is the same person, coming back). One player
may have at most ``limits.max_tables_per_address`` tables nobody is at
(:func:`abandoned_by`); opening another is refused until they come back to one or one
closes.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING

from net.limits import Limits, in_words
from net.wire import errors

if TYPE_CHECKING:
    from net.clock import Clock, Timer
    from net.connection import Connection
    from net.table import Table

log = logging.getLogger("hiddenhand.host")

#: Requests a client's software sends by itself: they show nobody is there.
AUTOMATIC = frozenset({"ping", "pong"})


class LobbyIdle:
    """Closes each connection that stays at no table too long, warning it first (see
    the module). One timer per such connection, on the host's clock."""

    def __init__(self, clock: Clock, limits: Limits) -> None:
        self._clock = clock
        self.limits = limits
        self._timers: dict[Connection, Timer] = {}

    def note(self, conn: Connection) -> None:
        """``conn`` did something of its own, or its table let it go: if it is at no
        table, its lobby time starts again now; at a table it has none."""
        self.forget(conn)
        lim = self.limits
        if conn.closed or conn.table is not None or lim.lobby_idle <= 0:
            return
        now = self._clock.now()
        close_at = now + lim.lobby_idle
        warn_at = max(now, close_at - lim.lobby_warning)
        self._timers[conn] = self._clock.call_at(warn_at, self._warn, conn, close_at)

    def forget(self, conn: Connection) -> None:
        """Stop counting ``conn``'s lobby time (it sat down, or it is gone)."""
        timer = self._timers.pop(conn, None)
        if timer is not None:
            timer.cancel()

    def close(self) -> None:
        """Stop every timer (the host is closing)."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()

    def _warn(self, conn: Connection, close_at: float) -> None:
        if conn.closed or conn.table is not None:
            self._timers.pop(conn, None)
            return
        left = close_at - self._clock.now()
        if left <= 0:
            self._close(conn)
            return
        idle = self.limits.lobby_idle - left
        conn.send({
            "type": "warning", "code": errors.IDLE, "closes_in": round(left, 3),
            "idle_for": round(idle, 3),
            "message": (f"you have been at no table for {in_words(idle)}: this "
                        f"connection closes in {in_words(left)} unless you open, join "
                        "or list the tables"),
        })
        self._timers[conn] = self._clock.call_at(close_at, self._close, conn)

    def _close(self, conn: Connection) -> None:
        self._timers.pop(conn, None)
        if conn.closed or conn.table is not None:
            return
        log.info("connection %d was at no table for %g s; closing it", conn.id,
                 self.limits.lobby_idle)
        conn.fail(errors.IDLE, f"closed after {in_words(self.limits.lobby_idle)} at no "
                  "table; connect again to see the tables")
        conn.close()


def closing_wait(table: Table, limits: Limits, idle_timeout: float) -> float | None:
    """How long ``table`` waits for someone to come back before it closes: ``None``
    while it stays (the host's own, or someone is connected to it), ``0`` for at once
    (see the module)."""
    if table.permanent or table.connections():
        return None
    # (A bot playing for someone away keeps their place: they may take it back.)
    people = [s for s in table.seats if s.kind == "human" or s.stand_in_for is not None]
    if not people:
        return 0.0  # nobody could come back to it: it frees its slot at once
    if table.resumed or (table.phase == "play" and not all(s.left for s in people)):
        # A dropped player's window; so for a table back after its host's restart,
        # lobby or not, nobody back yet: nobody left it (a lobby closed 30 s after a
        # restart its players had been told kept their seats).
        return idle_timeout
    return min(idle_timeout, limits.empty_table_timeout)


def abandoned_by(tables: Iterable[Table], player: str) -> list[Table]:
    """The tables ``player`` opened that nobody is connected to (they wait to close)."""
    return [t for t in tables
            if t.opener == player and not t.permanent and not t.connections()]


def refuse_another(tables: Iterable[Table], player: str, limits: Limits) -> str | None:
    """Why ``player`` may not open another table now, or ``None``."""
    left = abandoned_by(tables, player)
    cap = limits.max_tables_per_address
    if len(left) < cap:
        return None
    return (f"you already have {len(left)} tables nobody is at (at most {cap}): go back "
            "to one of them, or wait until they close")


__all__ = ["AUTOMATIC", "LobbyIdle", "abandoned_by", "closing_wait",
           "refuse_another"]

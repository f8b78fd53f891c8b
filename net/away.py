"""People away from a table in play: a bot that keeps their seat warm, and a paused game.

**A bot stands in** (the table option ``away_bot``).
When a person's connection has been gone for the option's delay during play, a bot
takes their seat, as the creator's ``add_bot`` hand-over does by hand: the seat keeps
its token, so the person takes it back the moment they return (``net.lobby.rejoin``)
and the bot leaves at once. Everyone is told (``stand_in``), and while the bot plays
the seat's public record says for whom (``"for"``).

**A game with a running clock waits.** A game resumed after the host restarted, or
one whose person went away while its clock ran (a Get It! round), is paused until
every person has their seat back (or a bot plays it): its time stands still.

Like :mod:`net.table` this touches no socket and no timer: the table asks :func:`due`
when it must wake, and calls :func:`hand_over` then. (It knows a table by what it uses
of one, :class:`AwayTable`, so that the table may import it.)
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

import engine
from engine.record import Tape
from net.fanout import Outbox
from net.seats import HouseRules, RequestError, Seat
from net.wire import errors

log = logging.getLogger("hiddenhand.host")


class AwayTable(Protocol):
    """What this module reads and calls of a ``net.table.Table``."""

    id: str
    game_id: str
    options: dict[str, Any]
    phase: str
    game: engine.Game | None
    seats: list[Seat]
    house: HouseRules
    paused: bool
    frozen: float | None
    away_since: dict[int, float]

    tape: Tape | None

    def away(self) -> list[int]: ...
    def elapsed(self, now: float) -> float: ...
    def push(self, out: Outbox, now: float, events: Any = (), notices: Any = ()) -> None: ...
    def thaw(self, now: float) -> None: ...
    def wake_bots(self, now: float) -> None: ...


#: The option's values: how long a person is away before a bot plays for them.
DELAYS: dict[str, float | None] = {"off": None, "30s": 30.0, "2m": 120.0}


def delay(table: AwayTable) -> float | None:
    """Seconds a person may be away before a bot plays their seat (``None``: never)."""
    return DELAYS.get(str(table.options.get("away_bot", "off")))


def went_away(table: AwayTable, seat: int, now: float) -> None:
    """Note that the person in ``seat`` is gone from host-clock time ``now``."""
    table.seats[seat].gone_at = now  # (in any phase: ``net.lobby.kick`` reads it)
    if table.phase == "play" and delay(table) is not None:
        table.away_since[seat] = now


def hold(table: AwayTable, now: float) -> list[dict[str, Any]]:
    """A round whose clock runs stands still while a person is away (gone as it ran, or
    already gone as it was dealt), until they are back or a bot plays their seat: the
    notices that say so (at every update the table pushes, before it is journaled)."""
    game = table.game
    if (table.paused or table.phase != "play" or game is None or game.over
            or game.deadline is None or not (waiting := table.away())):
        return []
    # A Get It! round ran on without them: their cards could not be played, and a
    # dropped laptop lost the round for everyone. Their seat's time stands still too.
    table.frozen, table.paused = table.elapsed(now), True
    log.info("table %s: %s away; the round's clock stops", table.id,
             f"seat {waiting[0] + 1} is" if len(waiting) == 1
             else f"seats {', '.join(str(s + 1) for s in waiting)} are")
    notice: dict[str, Any] = {"type": "paused", "waiting": waiting, "away": True}
    if (wait := delay(table)) is not None:
        notice["bot_after"] = wait  # (when a bot plays for them, as the option says)
    return [notice]


def _waiting(table: AwayTable) -> dict[int, float]:
    """The seats still held by an absent person, with when they went (others are
    forgotten: the person came back, or the seat changed hands)."""
    for seat in list(table.away_since):
        s = table.seats[seat]
        if s.kind != "human" or s.conn is not None:
            del table.away_since[seat]
    return table.away_since


def due(table: AwayTable) -> float | None:
    """The host-clock time at which the next away seat goes to a bot, or ``None``."""
    wait = delay(table)
    if wait is None or table.phase != "play" or table.game is None or table.game.over:
        return None
    since = _waiting(table)
    return min(since.values()) + wait if since else None


def hand_over(table: AwayTable, out: Outbox, now: float) -> None:
    """Seat a bot for every person away for the whole delay; tell everyone."""
    wait = delay(table)
    if wait is None or table.phase != "play":
        return
    notices: list[dict[str, Any]] = []
    for seat, since in sorted(_waiting(table).items()):
        if now < since + wait:
            continue
        del table.away_since[seat]
        stand_in(table, seat)
        notices.append({"type": "stand_in", "seat": seat, "bot": table.seats[seat].name,
                        "name": table.seats[seat].stand_in_for})
    if notices:
        table.push(out, now, notices=notices)
        resume_if_everyone_is_back(table, out, now)
        table.wake_bots(now)


def stand_in(table: AwayTable, seat: int) -> None:
    """A bot takes the absent person's ``seat``, keeping its token (the person may take
    the seat back) and saying for whom it plays."""
    s = table.seats[seat]
    name, token, player, left = s.name, s.token, s.player, s.left
    s.clear()
    s.kind, s.name, s.token, s.stand_in_for = "bot", f"Bot {seat + 1}", token, name
    s.player, s.left = player, left  # (``net.idle``: a dropped person may come back)
    house = table.house
    s.bot = house.bot_factory(table.game_id, seat, house.seed_source())


def seat_movers(table: AwayTable) -> None:
    """Write down on the game's tape whoever moves for each seat from now on (a bot
    standing in, the person back, a new name): its record names their moves so. The
    table calls it at every push: every such change reaches the players by one."""
    tape, game = table.tape, table.game
    if table.phase == "play" and tape is not None and game is not None and not game.over:
        tape.seat_names([s.name for s in table.seats], [s.stand_in_for for s in table.seats])


def check_paused(table: AwayTable) -> None:
    """Refuse while a game waits for its players (resumed, or a person away)."""
    if table.paused:
        names = ", ".join(f"{table.seats[i].name} (seat {i + 1})" for i in table.away())
        raise RequestError(
            errors.WRONG_PHASE, f"the game is paused until everyone is back; waiting for {names}")


def resume_if_everyone_is_back(table: AwayTable, out: Outbox, now: float) -> None:
    """A paused resumed game goes on once every person has their seat back."""
    if table.paused and not table.away():
        table.paused = False
        log.info("table %s: every seat is played again (its person back, or a bot for "
                 "them); the game goes on", table.id)
        table.thaw(now)
        table.push(out, now, notices=[{"type": "resumed"}])

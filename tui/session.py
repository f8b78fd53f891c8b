"""One seat at one table, as the app holds it: the one owner of the connection's state.

The app never touches engine state: everything it shows comes from the ``update``
messages the host pushes, and everything it does goes out as a request. Where we sit
(table, seat, token) is the :class:`~net.client.Client`'s ``joined``, asked for through
:attr:`Session.joined` and never copied, so a move to another seat, a kick or a
reconnection can never leave two records that disagree. A dropped TCP connection is
re-opened and the seat reclaimed with its token.

What happened at the table (chat lines, notices, game events) is kept in
:attr:`Session.history`, so a screen opened later — the lobby after a game, the table
after a rejoin — can replay it.
"""

from __future__ import annotations

import os
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, NamedTuple

from net.client import Client, ConnectionLost, Joined, ServerError
from net.paths import VISITOR_ENV
from net.wire import errors
from tui.notices import seat_players
from tui.settings import forget_seat, remember_seat

if TYPE_CHECKING:
    # Only a solo or hosting app has a host; the menu starts without importing it.
    from net.host import Host

Message = dict[str, Any]

# Host refusals after which retrying is pointless: the seat is gone for good.
FINAL_CODES = {errors.BAD_HOST, errors.BAD_TOKEN, errors.NO_TABLE, errors.KICKED, errors.REPLACED,
               errors.VERSION_MISMATCH, errors.TABLE_CLOSED}
#: History entries kept per table (older ones are dropped first).
HISTORY_LIMIT = 1000


class Entry(NamedTuple):
    """One thing that happened at the table: ``kind`` is "chat", "notice" or "event".

    ``data`` is the chat message, the notice or the event as the host sent it; ``names``
    are the seats' names at that moment (a later rename does not rewrite the past), and
    ``game`` the table's game then (a table may play another game next: its events are
    described in their own game's words).
    """

    kind: str
    data: dict[str, Any]
    names: tuple[str, ...] = ()
    game: str | None = None
    #: What only this seat saw of it, from its own views: the card a draw of ours
    #: brought into our hand (the public event names none). Never sent anywhere.
    mine: dict[str, Any] | None = None


class Session:
    """A player's connection to one table: in-process (``host``) or over TCP (``address``)."""

    def __init__(
        self, name: str, host: Host | None = None, address: tuple[str, int] | None = None
    ) -> None:
        self.name = name
        #: The player was told their name at the table, if it is not ``name``.
        self.name_told = False
        self.host = host
        self.address = address
        self.client: Client | None = None
        self.latest: Message | None = None
        #: (Creator) the options each game had at this table when another game was
        #: chosen: they come back with that game, in this lobby and the next (a lobby
        #: after a game forgot them).
        self.options_by_game: dict[str, dict[str, Any]] = {}
        self.history: list[Entry] = []
        #: Entries ever added to ``history`` (it keeps the last ``HISTORY_LIMIT``).
        self.added = 0
        #: Where we sat when the last client closed, so a new client can take it back.
        self._kept: Joined | None = None

    def __repr__(self) -> str:
        return f"Session({self.name!r}, at {self.where})"

    @property
    def where(self) -> str:
        """The host in words, for messages."""
        if self.address is not None:
            return f"{self.address[0]}:{self.address[1]}"
        return "this computer"

    @property
    def joined(self) -> Joined | None:
        """Where we sit now (``None``: not at a table), as the connection knows it."""
        if self.client is not None:
            return self.client.joined
        return self._kept

    @property
    def seat(self) -> int | None:
        """Our seat number, or ``None`` when watching or not at a table."""
        joined = self.joined
        return joined.seat if joined is not None else None

    async def connect(self) -> Client:
        """Open the connection and say hello."""
        if self.host is not None:
            self.client = await Client.local(self.host, name=self.name)
        else:
            assert self.address is not None
            # (On a box, the box names the player: HIDDENHAND_VISITOR, net.box.)
            self.client = await Client.connect(*self.address, name=self.name,
                                               visitor=os.environ.get(VISITOR_ENV))
        return self.client

    async def create(self, table_name: str, game: str, seats: int,
                     options: dict[str, Any]) -> Joined:
        """Open a table and sit at it as its creator."""
        assert self.client is not None
        joined = await self.client.create_table(table_name, game, seats, options)
        self._remember()
        return joined

    async def join(self, table: str, seat: int | None = None, *,
                   token: str | None = None, spectate: bool = False) -> Joined:
        """Sit at a table (the first free seat unless ``seat`` is given), take a kept
        seat back with its ``token``, or watch."""
        assert self.client is not None
        joined = await self.client.join(table, seat, token=token, spectate=spectate)
        self._remember()
        if self.added == 0:
            self._recall(self.client.past)
        return joined

    def _recall(self, past: list[Message]) -> None:
        """Start the history with the table's past as the host sent it (who comes back
        after a crash of this app, or after leaving, reads the log and the chat as the
        others did): its public events, notices and chat lines, under the names of then."""
        for entry in past:
            kind = entry.get("type")
            if kind == "chat":
                self._add(Entry("chat", entry))
            elif kind == "update":
                raw = entry.get("names")
                names = tuple(
                    name if isinstance(name, str) and name else f"seat {i + 1}"
                    for i, name in enumerate(raw if isinstance(raw, list) else []))
                game = entry.get("game") if isinstance(entry.get("game"), str) else None
                for notice in _dicts(entry.get("notices")):
                    self._add(Entry("notice", notice, names, game))
                for event in _dicts(entry.get("events")):
                    self._add(Entry("event", event, names, game))

    def _remember(self) -> None:
        """Keep a TCP seat's token on disk, so the seat survives a crash of this app."""
        joined = self.joined
        if self.address is not None and joined and joined.seat is not None and joined.token:
            remember_seat(self.where, joined.table, joined.seat, joined.token)

    def forget_seat(self, table: str) -> None:
        """Our seat at ``table`` is given up (left in the lobby, where the host frees it):
        its token is no use, and a table list must not say it is kept."""
        if self.address is not None:
            forget_seat(self.where, table)

    async def reconnect(self) -> None:
        """Open a new connection and take our seat back with its token (a spectator
        watches again: nothing is kept for one, so a restarted host takes it back too)."""
        # A failed attempt leaves a client that never joined: the seat is still ``_kept``.
        kept = (self.client.joined if self.client is not None else None) or self._kept
        if kept is None:
            raise ConnectionLost("not at a table: nothing to reconnect to")
        self._kept = kept
        if self.client is not None:
            await self.client.close()
        client = await self.connect()
        await client.join(kept.table, kept.seat, token=kept.token, spectate=kept.seat is None)
        self._remember()

    def record(self, msg: Message) -> None:
        """Keep what a pushed message tells: the latest update, and its history lines."""
        kind = msg.get("type")
        if kind == "update":
            before, self.latest = self.latest, msg
            table = msg.get("table")
            table = table if isinstance(table, dict) else {}
            names = tuple(seat_players(table))  # ("Bot 2 for Bob": the seat its stand-in plays)
            game = table.get("game") if isinstance(table.get("game"), str) else None
            for notice in _dicts(msg.get("notices")):
                self._add(Entry("notice", notice, names, game))
            events = _dicts(msg.get("events"))
            drawn = _drawn_card(before, msg, events)
            for event in events:
                mine = drawn if event.get("type") == "drew" else None
                self._add(Entry("event", event, names, game, mine))
        elif kind == "chat":
            self._add(Entry("chat", msg))

    def _add(self, entry: Entry) -> None:
        self.history.append(entry)
        self.added += 1
        if len(self.history) > HISTORY_LIMIT:
            del self.history[: len(self.history) - HISTORY_LIMIT]

    def since(self, shown: int) -> tuple[list[Entry], int]:
        """The history entries after the first ``shown`` ever added (those still kept),
        and how many have been added in all: a screen that showed ``shown`` entries
        shows these and remembers the count. (Counted from the start, not by position:
        once the history is full, every new entry pushes out the oldest.)"""
        kept_from = self.added - len(self.history)  # the first kept entry's number
        if shown > self.added:  # counted against another history
            shown = 0
        return self.history[max(0, shown - kept_from):], self.added

    async def next(self) -> Message:
        """The next message the host pushes; ``ConnectionLost`` when the line is down."""
        if self.client is None:
            raise ConnectionLost("not connected")
        msg = await self.client.next()
        self.record(msg)
        return msg

    async def request(self, method: str, *args: Any, **kwargs: Any) -> Any:
        """Call one of the client's requests by name (``act``, ``ready``, ``start`` …)."""
        if self.client is None or self.client.closed:
            raise ConnectionLost("the connection to the host is closed")
        result = await getattr(self.client, method)(*args, **kwargs)
        if method == "pick_seat":
            self._remember()  # the token now belongs to the new seat
        elif method == "rename" and args:
            self.name = str(args[0])  # a reconnection says hello with the new name
        return result

    def send(self, kind: str, **fields: Any) -> Coroutine[Any, Any, Message]:
        """Write a request to the host now; await the result for its reply
        (``Client.send_request``). ``ConnectionLost`` at once when the line is down."""
        if self.client is None or self.client.closed:
            raise ConnectionLost("the connection to the host is closed")
        return self.client.send_request(kind, **fields)

    async def close(self) -> None:
        """Leave: close the connection (the seat stays reclaimable while the game runs)."""
        if self.client is not None:
            self._kept = self.client.joined
            await self.client.close()


def _drawn_card(before: Message | None, msg: Message,
                events: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The one card our single draw in ``msg`` brought into our hand, found by
    comparing our hand with the one before (``None`` if that is not clear)."""
    seat = msg.get("seat")
    # Only draws in this update (the played pile may have been turned over first), and
    # one of them ours: then the new card is its.
    if seat is None or before is None or any(
            e.get("type") not in ("drew", "recycled") for e in events):
        return None
    if sum(e.get("seat") == seat for e in events) != 1:
        return None

    def hand(update: Message) -> list[dict[str, Any]]:
        view = update.get("view")
        cards = view.get("hand") if isinstance(view, dict) else None
        return [c for c in cards if isinstance(c, dict)] if isinstance(cards, list) else []

    held = {c.get("id") for c in hand(before)}
    new = [c for c in hand(msg) if c.get("id") not in held]
    return new[0] if len(new) == 1 and len(hand(msg)) == len(held) + 1 else None


def _dicts(value: Any) -> list[dict[str, Any]]:
    """The mappings in a list the host sent (anything else is ignored, never fatal)."""
    if not isinstance(value, list):
        return []
    return [item for item in value if isinstance(item, dict)]


__all__ = ["FINAL_CODES", "ConnectionLost", "Entry", "Message", "ServerError", "Session"]

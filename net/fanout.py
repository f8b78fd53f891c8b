"""What one change at a table sends each seat: per-seat views, then deltas, then frames.

Modelled on boardgame.io's filter-player-view: the authority holds the whole state and
every recipient gets only ``view(its seat)`` (the spectator view for spectators), with
that seat's legal actions and the public events. A :class:`Push` is made once per change
for everyone at the table; the part of the views every seat shares
(``Game.view_parts``) is built, compared and packed once, not once a seat. Each
recipient keeps a :class:`Sent` (what it was last sent), so an update carries the
table's public part only when it changed and, after the first, only what changed in
the view (``docs/protocol.md``).

No clock and no socket here: engine time comes in as ``elapsed`` seconds, and a frame
goes out through the recipient's ``send_frame``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol

import msgpack

import engine
from net.wire import codec, errors

log = logging.getLogger("hiddenhand.host")

_NIL = msgpack.packb(None)
_EMPTY = msgpack.packb([])
_NO_ENTRIES = (0, b"")


class Sent:
    """What one recipient was last sent: the table's public part (packed), and the
    game, seat and view (its shared and its own part) of its last update."""

    __slots__ = ("table", "view")

    def __init__(self) -> None:
        self.table: bytes | None = None
        self.view: tuple[engine.Game, int | None, dict[str, Any], dict[str, Any]] | None = None


class Recipient(Protocol):
    """What a push needs of whoever it reaches (the host's connections are these)."""

    closed: bool
    #: True while the peer is not reading: its updates are held, not framed.
    congested: bool
    sent: Sent

    def send_frame(self, frame: bytes) -> None:
        """Write one packed frame."""
        ...

    def hold(self, events: list[dict[str, Any]], notices: list[dict[str, Any]]) -> None:
        """Keep an update's events and notices for one catch-up update later."""
        ...

    def send(self, message: dict[str, Any]) -> None:
        """Send one message that is not an update (a chat line, a refusal)."""
        ...

    def close(self) -> None:
        """Close once what was sent is out."""
        ...


def wire_time(data: dict[str, Any], elapsed: float) -> dict[str, Any]:
    """``data`` with its engine-time ``deadline`` turned into ``remaining`` seconds
    (at engine time ``elapsed``): engine time means nothing to a client, the seconds
    left do, on any clock."""
    if "deadline" not in data:
        return data
    data = dict(data)
    deadline = data.pop("deadline")
    if isinstance(deadline, int | float) and not isinstance(deadline, bool):
        data["remaining"] = round(max(0.0, deadline - elapsed), 3)
    else:
        data["remaining"] = None
    return data


class Push:
    """One update for everyone in ``to`` (pairs of recipient and seat; ``None`` is a
    spectator), made once for all of them: the table's public part (packed), the
    events and notices (packed once as the frames' tail), and the views, built on the
    first frame and shared by the rest. A push is delivered before its table changes
    again."""

    __slots__ = ("_changes", "_own", "_seats", "_shared", "_shared_entries", "elapsed",
                 "events", "game", "notices", "pack", "table", "tail", "to")

    def __init__(
        self,
        game: engine.Game | None,
        table: bytes,
        events: list[dict[str, Any]],
        notices: list[dict[str, Any]],
        to: list[tuple[Recipient, int | None]],
        *,
        elapsed: float,
        pack: Callable[[Any], bytes],
        seats: list[int | None] | None = None,
    ) -> None:
        self.game = game
        self.table = table
        self.events = events
        self.notices = notices
        self.to = to
        self.elapsed = elapsed
        self.pack = pack
        self.tail = codec.update_tail(events, notices)
        #: The seats whose views this push holds (by default those in ``to``).
        self._seats = seats
        self._shared: dict[str, Any] | None = None
        self._own: dict[int | None, dict[str, Any]] = {}
        self._shared_entries: tuple[int, bytes] | None = None
        #: What changed in the shared part since one sent before, by that part's id
        #: (most recipients were sent the same one): the part itself and the result.
        self._changes: dict[int, tuple[dict[str, Any], tuple[int, bytes] | None]] = {}

    def view_of(self, seat: int | None) -> tuple[dict[str, Any], dict[str, Any]]:
        """The shared part and ``seat``'s own part of its view, fit for the wire."""
        if self._shared is None or seat not in self._own:
            assert self.game is not None
            seats = self._seats
            if seats is None:
                seats = self._seats = list(dict.fromkeys(s for _, s in self.to))
            if seat not in seats:
                seats = self._seats = [*seats, seat]
            shared, own = self.game.view_parts(seats)
            elapsed = self.elapsed
            self._shared = wire_time(shared, elapsed)
            self._own = {s: wire_time(o, elapsed) for s, o in zip(seats, own, strict=True)}
            self._shared_entries = None
            self._changes.clear()
        return self._shared, self._own[seat]

    def shared_entries(self) -> tuple[int, bytes]:
        """The shared part, packed as map entries (see ``protocol.map_entries``)."""
        if self._shared_entries is None:
            self._shared_entries = codec.map_entries(self.pack(self._shared))
        return self._shared_entries

    def shared_changes(self, before: dict[str, Any]) -> tuple[int, bytes] | None:
        """What changed in the shared part since ``before``, packed as map entries, or
        ``None`` if only the whole view can say it (``protocol.view_changes``)."""
        known = self._changes.get(id(before))
        if known is not None and known[0] is before:
            return known[1]
        assert self._shared is not None
        delta = codec.view_changes(before, self._shared)
        result = None if delta is None else codec.map_entries(self.pack(delta))
        self._changes[id(before)] = (before, result)
        return result


def frame_for(push: Push, seat: int | None, sent: Sent) -> bytes:
    """The ``update`` frame of ``push`` for the recipient at ``seat`` that was last
    sent ``sent`` (which this updates), ready to write.

    The table's public part goes in only if it is not what was sent last; the view
    goes in whole the first time the recipient sees this game from this seat, and
    after that only what changed since the last one sent to it.
    """
    changes = False
    game = push.game
    if game is None:
        view, legal = _NIL, _EMPTY
        seen = None
    else:
        pack = push.pack
        shared, own = push.view_of(seat)
        actions = game.legal_actions(seat) if seat is not None else None
        legal = pack(actions) if actions else _EMPTY
        before = sent.view
        parts = None
        if before is not None and before[0] is game and before[1] == seat:
            common = push.shared_changes(before[2])
            mine = codec.view_changes(before[3], own)
            if common is not None and mine is not None:
                parts = (common, codec.map_entries(pack(mine)) if mine else _NO_ENTRIES)
                changes = True
        if parts is None:
            parts = (push.shared_entries(), codec.map_entries(pack(own)))
        view = codec.joined_map(*parts)
        seen = (game, seat, shared, own)
    table = None if sent.table == push.table else push.table
    try:
        frame = codec.update_frame(table, seat, view, legal, push.tail, changes=changes)
    except ValueError:
        # Only a bug can make an update too big; say so rather than send half of it.
        log.error("an update for seat %s is too large", seat)
        return codec.pack(errors.error(errors.INTERNAL, "the host could not send an update"))
    if table is not None:
        sent.table = table
    sent.view = seen
    return frame


class Outbox:
    """What one call into a table asks its host to do, in this order: write the journal
    ``records`` (before anyone hears of the change); send ``messages`` (recipient and
    message) and close the recipients in ``closing``; then (after the host's own answer
    to the request, if it goes first) deliver the ``pushes``; last, send the ``lines``
    (chat). ``changed``: what the host says of its tables may have changed. ``finished``:
    the records of games that ended (``engine.record``), for whoever keeps them."""

    __slots__ = ("changed", "closing", "finished", "lines", "messages", "pushes", "records")

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []
        self.messages: list[tuple[Recipient, dict[str, Any]]] = []
        self.closing: list[Recipient] = []
        self.pushes: list[Push] = []
        self.lines: list[tuple[Recipient, dict[str, Any]]] = []
        self.finished: list[dict[str, Any]] = []
        self.changed = False


def deliver(push: Push) -> None:
    """Hand every recipient of ``push`` its frame; one that is not reading holds the
    events and notices for a catch-up update instead, and costs the others nothing."""
    for member, seat in push.to:
        if member.closed:
            continue
        if member.congested:
            member.hold(push.events, push.notices)
        else:
            member.send_frame(frame_for(push, seat, member.sent))

"""Whose a kept game's seats were, as the person using this app: which seats of a record
are theirs (``who``, digests of the ids hosts knew them by, ``engine.record.who``), what
a review shows them (their own private moves, nobody else's: RULES.md sends a Got Five!
player's marks to nobody else), and whose figures a history counts."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, NamedTuple

from engine.record import Replay, has_private, mine, who, without_private
from net.connection import LOCAL_PLAYER
from net.paths import VISITOR_ENV, visitor_player


def reviewer() -> list[str]:
    """Who reads the games this app keeps or reads, as a host knew them: on a box, the
    player the box's host knows this app by (its Past games are the box's); elsewhere
    the person who ran the app's own host."""
    visitor = os.environ.get(VISITOR_ENV)
    return [visitor_player(visitor)] if visitor else [LOCAL_PLAYER]


def for_review(record: dict[str, Any]) -> tuple[dict[str, Any], Replay]:
    """``record`` (checked) as :func:`reviewer` may see it, and its replay: played whole
    first (``RecordError`` if it is not the game it says), then with every private move
    of a seat that was not theirs left out (those seats: the replay's ``private``)."""
    replay = Replay(record)
    if not has_private(record["game"]):
        return record, replay
    keep = mine(record, reviewer())
    seen = without_private(record, keep)
    return seen, Replay(seen, private=set(range(record["seats"])) - keep)


class Reader(NamedTuple):
    """Whose games and figures a history shows: a player's ``name``, and ``keys``, the
    digests of the ids hosts knew them by (``engine.record.who``). A seat with one of
    those ids is theirs; where names are anyone's (``strict``: a box, whose logins may
    share a name) only such a seat is, elsewhere a seat with their name is too (games
    kept before records said whose a seat was, and ``hiddenhand host``'s, where every
    seat's id is the connection's own)."""

    name: str
    keys: frozenset[str] = frozenset()
    strict: bool = False

    def seat(self, names: Sequence[str], whos: Sequence[str | None]) -> int | None:
        """Their seat at a table of ``names`` whose seats were ``whos``."""
        for i, key in enumerate(whos):
            if key is not None and key in self.keys:
                return i
        if self.strict:
            return None
        return next((i for i, name in enumerate(names)
                     if name.casefold() == self.name.casefold()), None)


def reader(name: str) -> Reader:
    """The person using this app, as :class:`Reader` (by :func:`reviewer`)."""
    return Reader(name, frozenset(who(p) for p in reviewer()),
                  strict=bool(os.environ.get(VISITOR_ENV)))


__all__ = ["Reader", "for_review", "reader", "reviewer"]

"""A game that would never end is ended: the rules let one go on for ever (GET OUT!:
draw when you could play, pass when nothing is left to draw), and one person holding
two seats of a table did, with a record past what one may hold and a review no reader
could take in."""

from __future__ import annotations

from net.fanout import Outbox
from net.lobby import back_to_lobby
from net.table import Table

#: The most moves one game takes: past them, the host ends it (kept unfinished). A long
#: match makes a few thousand.
LONGEST_GAME = 30_000


def end_if_endless(table: Table, now: float) -> Outbox:
    """End the game in play once it has made :data:`LONGEST_GAME` moves, as
    ``net.lobby.to_lobby`` does, everyone told why (nothing to send otherwise)."""
    if table.phase != "play" or table.tape is None or len(table.tape.moves) < LONGEST_GAME:
        return Outbox()
    return back_to_lobby(table, now, {"type": "back_to_lobby", "ended": True,
                                      "longest": LONGEST_GAME})

"""The Join screen's words: tables and hosts as people read them, and why a connection
failed, in plain words (never the OS's raw message)."""

from __future__ import annotations

import errno
import math
import socket
from typing import Any

from rich.text import Text

import engine
from net.client import NotAHost
from net.discovery import TableInfo
from tui.games import playable
from tui.session import ConnectionLost
from tui.settings import recall_seat


def seconds(value: Any) -> float:
    """A number of seconds the host sent (anything else: none)."""
    ok = (isinstance(value, int | float) and not isinstance(value, bool)
          and math.isfinite(value) and value >= 0)
    return float(value) if ok else 0.0


def game_name(game_id: Any) -> str:
    """A game's name for people ("Get It!"), or its id if this app does not know it."""
    spec = engine.GAMES.get(game_id) if isinstance(game_id, str) else None
    return spec.name if spec is not None else str(game_id)


#: A table's phase as the lists say it ("play" alone read as an order to play).
PHASE_WORDS = {"play": "in play", "over": "game over"}


def phase_words(phase: Any) -> str:
    """A table's phase in words for a list of tables."""
    return PHASE_WORDS.get(phase, str(phase)) if isinstance(phase, str) else "?"


def describe_listed(table: TableInfo, kept: bool = False) -> Text:
    """A table in the list of hosts: dimmed, and said so, if this app cannot play it;
    ``kept``: we hold a seat there (a full table is still ours to go back to)."""
    free = "your seat is kept" if kept else f"{table.free} free"
    text = f"{table.name} ({game_name(table.game)}, {free}, {phase_words(table.phase)})"
    if playable(table.game):
        return Text(text)
    return Text(f"{text} — not playable in this app yet", style="dim")


def describe_table(table: dict[str, Any], kept: bool = False, *,
                   elsewhere: bool = False) -> str:
    """A table in a few words, for the table chooser (``kept``: we hold a seat there;
    ``elsewhere``: a login plays it now, which joining takes it from)."""
    free = ("your seat, in use on another login" if elsewhere
            else "your seat is kept" if kept
            else f"{table['free']} of {table['seats']} seats free")
    return (f"{table['name']} — {game_name(table['game'])}, {free} "
            f"({phase_words(table['phase'])})")


def played_elsewhere(where: str, table: dict[str, Any]) -> bool:
    """Whether the seat we keep at ``table`` on ``where`` is played from a live
    connection now (another login of ours: joining takes it from there)."""
    kept = recall_seat(where, str(table.get("id")))
    online = table.get("online")
    return kept is not None and isinstance(online, list) and kept[0] in online


def describe_not_a_host(where: str, exc: NotAHost) -> str:
    """The connection to ``where`` was made but no hiddenhand host is there, in plain words."""
    if exc.answered:
        return (f"{where} answered, but it is not a hiddenhand host; is the port the one "
                "the host shows?")
    return (f"Connected to {where}, but it never answered as a hiddenhand host; is the port "
            "the one the host shows? (A host that is very busy may answer later.)")


def describe_connect_error(exc: BaseException) -> str:
    """Why a connection failed, in plain words (never the OS's raw message)."""
    if isinstance(exc, NotAHost):
        if exc.answered:
            return "it answered, but it is not a hiddenhand host"
        return "the connection was made, but it never answered as a hiddenhand host"
    if isinstance(exc, socket.gaierror):
        return ("no computer by that name was found; check the spelling, or type its IP "
                "address (like 192.168.1.20)")
    if isinstance(exc, ConnectionRefusedError):
        return ("nothing is listening there; is a game hosted on that computer, and is the "
                "port the one the host shows?")
    # The client says "no answer from … within N s" when the TCP connect times out.
    if isinstance(exc, TimeoutError) or (isinstance(exc, ConnectionLost)
                                         and "no answer" in str(exc)):
        return ("no answer in time; is that computer on this network and switched on? "
                "A firewall may be blocking the port")
    if isinstance(exc, ConnectionResetError | ConnectionAbortedError | ConnectionLost):
        return "the connection was closed at once; is that a hiddenhand host?"
    if isinstance(exc, OSError) and exc.errno in (errno.ENETUNREACH, errno.EHOSTUNREACH,
                                                  errno.EADDRNOTAVAIL, errno.ENETDOWN):
        return "that address cannot be reached from this computer (is it on this network?)"
    if isinstance(exc, OSError) and "Multiple exceptions" in str(exc):
        return ("nothing answered at any of that name's addresses; is a game hosted there, "
                "and is the port right?")
    return "the connection failed; check the address and that the game is hosted there"

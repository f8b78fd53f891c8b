"""What one peer (or one address) may cost a host: every limit, as settings.

A LAN party shares one host; a prankster with a script must not be able to fill it,
flood the others or slow them down. Each limit here is a setting because the right
value depends on the room: on an SSH box every player connects from 127.0.0.1, and so
do benchmarks. ``hiddenhand host`` exposes them as command-line flags.
"""

from __future__ import annotations

from typing import NamedTuple


class Limits(NamedTuple):
    """The host's limits. Defaults suit a LAN party of a few tables.

    An immutable record (a ``NamedTuple``: building a frozen dataclass of this many
    fields costs about 0.6 ms of every start, scripts/bench_startup.py).
    """

    #: Connections the host holds at once.
    max_connections: int = 256
    #: Connections from one client address.
    max_per_address: int = 32
    #: Connections from one address that are not at a table (browsing, or silent).
    max_unjoined_per_address: int = 8
    #: Tables the host holds.
    max_tables: int = 32
    #: Addresses many people share (an SSH box's 127.0.0.1, where ``ssh-serve`` limits
    #: each real client itself): no per-address limit counts them together.
    shared_addresses: frozenset[str] = frozenset()
    #: Player-opened tables from one address still open.
    max_tables_per_address: int = 3
    #: A player-opened table in its lobby with nobody connected closes after this long.
    empty_table_timeout: float = 30.0
    #: Chat lines one connection may send: ``chat_burst`` at once, ``chat_rate`` a second.
    chat_rate: float = 1.0
    chat_burst: int = 6
    #: Renames one connection may make.
    rename_rate: float = 0.2
    rename_burst: int = 3
    #: Requests that change a lobby (join, leave, ready, seats, bots, configure…).
    lobby_rate: float = 3.0
    lobby_burst: int = 30
    #: Bytes waiting in a connection's transport above which its updates are coalesced.
    out_high: int = 64 * 1024
    #: Bytes of other frames (replies, chat) queued behind a congested connection.
    out_limit: int = 512 * 1024
    #: Updates coalesced for a connection that is not reading before it is dropped.
    max_skipped: int = 256
    #: The kernel send buffer of each connection's socket (0 keeps the system's).
    send_buffer: int = 64 * 1024


class Bucket:
    """A token bucket: ``burst`` at once, refilled at ``rate`` a second."""

    __slots__ = ("burst", "level", "rate", "stamp")

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.level = float(burst)
        self.stamp = now

    def take(self, now: float) -> bool:
        """Spend one token if there is one; ``False`` (and nothing spent) if not."""
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.level < 1:
            return False
        self.level -= 1
        return True

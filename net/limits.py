"""What one peer (or one address) may cost a host: every limit, as settings.

A LAN party shares one host; a prankster with a script must not be able to fill it,
flood the others or slow them down. Each limit here is a setting because the right
value depends on the room: on an SSH box every player connects from 127.0.0.1, and so
do benchmarks. ``hiddenhand host`` exposes them as command-line flags.
"""

from __future__ import annotations

import math
from typing import NamedTuple

#: Requests that reach other people, by the human-scale allowance they spend.
SOCIAL = {
    "chat": "chat",
    "rename": "rename",
    **{
        kind: "lobby"
        for kind in ("create_table", "join", "leave", "pick_seat", "ready", "configure",
                     "add_bot", "remove_bot", "kick", "start", "to_lobby",
                     "rematch", "review_open", "review_follow", "review_close")
    },
    # A step of the table's review makes the host replay up to 64 moves and send a view
    # to everyone following: held to a player's pace (the app sends one at a time).
    "review_go": "review",
    # The list's answer is every table's description (3 KB with 32 tables): cheap to
    # ask, dear to answer (an app asks once as it connects, and after a table closed).
    "list_tables": "list",
    # Not a request of its own: a move that takes no turn and is told to everyone at the
    # table (a Get It! signal or word; ``net.handlers.act``). One person's key costs a
    # push to every member: at the message rate, with a table full of spectators, tens
    # of thousands a second.
    "signal": "signal",
    # Not a request either: the answer to a request refused because its address sends
    # more than its share of a busy host. It is decoded and answered so that no client
    # waits for ever, but from many addresses small requests would make the host answer
    # each (40 addresses: 15,000 answers a second, 3.7 times the bytes they sent): past
    # this allowance they are refused unread.
    "refused": "refused",
}
#: What a peer is told when it spends an allowance too fast.
SLOW_DOWN = {
    "chat": "you are sending chat lines too fast; wait a moment",
    "rename": "you are changing your name too often; wait a moment",
    "lobby": "you are joining, leaving or changing the table too fast; wait a moment",
    "review": "you are stepping through the review too fast; wait a moment",
    "list": "you are asking for the list of tables too often; wait a moment",
    "signal": "you are signalling too fast; wait a moment",
    "refused": "",  # (never said: what is over it is not answered at all)
}
#: One address may spend this many times one connection's allowances.
ADDRESS_FACTOR = 3
#: Seconds over which what an address sends is averaged (``Gate.heavy``).
RATE_SPAN = 1.0
#: Addresses whose rates are kept before those quiet for a while are forgotten.
RATES_KEPT = 1024
#: A frame costs one of the message allowance, and one more for every this many bytes
#: it holds: decoding and checking a frame is work in proportion to what it holds (a
#: frame of 2,048 small numbers cost the host as much as a hundred pings), and a frame
#: over the allowance is not decoded at all, unless it is this small (a request, to be
#: answered).
FRAME_BYTES = 64
#: What an action (``act``) costs of the message allowance, however small its frame: a
#: move is the game's work, a journal record and a view for everyone at the table (four
#: addresses marking a Got Five! board at their allowance held another player's ping
#: half a second behind).
ACT_COST = 8
#: What a request refused for its pace (chat, a review's step, the list of tables…)
#: costs: asking on and on past an allowance is sending too fast (80 connections asking
#: a review's steps 100 times a second, each answered "wait a moment", held another
#: player 345 ms behind), and is then closed as a flood is.
REFUSED_COST = 8


class Limits(NamedTuple):
    """The host's limits. Defaults suit a LAN party of a few tables.

    An immutable record (a ``NamedTuple``: cheaper to build at every start than a
    frozen dataclass of this many fields).
    """

    #: Connections the host holds at once.
    max_connections: int = 256
    #: Connections from one client address.
    max_per_address: int = 32
    #: Connections from one address that are not at a table (browsing, or silent).
    max_unjoined_per_address: int = 8
    #: New connections from one address: ``connect_burst`` at once, ``connect_rate`` a
    #: second (refused, a closed connection came straight back: 40 addresses opened
    #: 700 a second, each answered before it was closed).
    connect_rate: float = 3.0
    connect_burst: int = 30
    #: Connections the host takes beyond ``max_connections`` for players taking their
    #: seat back (a host filled by strangers locked its own players out): such a
    #: connection may only say hello and join with its seat's token; one an address at
    #: once (where limits per address apply).
    returning_reserve: int = 16
    #: Tables the host holds.
    max_tables: int = 32
    #: Addresses many people share (an SSH box's 127.0.0.1, where ``ssh-serve`` limits
    #: each real client itself): no per-address limit counts them together.
    shared_addresses: frozenset[str] = frozenset()
    #: Whether a hello's ``visitor`` names the player (a box, whose own apps alone
    #: reach its host, each told its player's id by the box): then tables nobody is at
    #: are counted per visitor, however many connections they open. Elsewhere anyone
    #: could claim anyone's id, so it is ignored.
    trusted_visitors: bool = False
    #: Player-opened tables from one address still open; and, whatever the address,
    #: tables one player opened that nobody is at (``net.idle``).
    max_tables_per_address: int = 3
    #: A player-opened table nobody is connected to closes after this long in its lobby,
    #: after a game, or when every person at its game left on purpose (``net.idle``).
    empty_table_timeout: float = 30.0
    #: A connection at no table is closed after this long without a request of its own
    #: (0: never), and told so ``lobby_warning`` seconds before (``net.idle``).
    lobby_idle: float = 600.0
    lobby_warning: float = 60.0
    #: Chat lines one connection may send: ``chat_burst`` at once, ``chat_rate`` a second.
    chat_rate: float = 1.0
    chat_burst: int = 6
    #: Renames one connection may make.
    rename_rate: float = 0.2
    rename_burst: int = 3
    #: Requests that change a lobby (join, leave, ready, seats, bots, configure…).
    lobby_rate: float = 3.0
    lobby_burst: int = 30
    #: Steps through the table's review (``review_go``).
    review_rate: float = 10.0
    review_burst: int = 20
    #: Lists of the host's tables (``list_tables``).
    list_rate: float = 2.0
    list_burst: int = 10
    #: Moves that take no turn and are told to everyone (a Get It! signal or word).
    signal_rate: float = 10.0
    signal_burst: int = 30
    #: Requests refused past an address's share of a busy host that are still answered
    #: (see ``SOCIAL``).
    refused_rate: float = 10.0
    refused_burst: int = 20
    #: Spectators of one table at once, and of them from one address (one machine
    #: filled a table's 32 and kept everyone else from watching).
    max_spectators: int = 32
    max_spectators_per_address: int = 4
    #: Frames that are no message at all (not msgpack, binary values…) a connection may
    #: send before it is closed: our own apps send none.
    max_bad_frames: int = 8
    #: Seconds a connection may keep sending faster than the host's message rate before
    #: it is closed (a key held down is over in one; a flood that answers pings is not).
    flood_close: float = 10.0
    #: What the host takes from all client addresses together (frames a second, each
    #: costing as in ``FRAME_BYTES``) before it holds each address to an even share of
    #: it: an address sending more than its share then has its frames refused.
    host_rate: float = 8000.0
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
        return self.spend(1, now)

    def spend(self, cost: float, now: float) -> bool:
        """Spend ``cost`` tokens if at least one is left (a costly request runs the
        bucket into debt, paid back as it refills); ``False`` (and nothing spent) if
        none is."""
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.level < 1:
            return False
        self.level -= cost
        return True

    def charge(self, cost: float) -> None:
        """Spend ``cost`` more of what was already let through (into debt, if so)."""
        self.level -= cost

    def full(self, now: float) -> bool:
        """True if the bucket has refilled to at least half its burst."""
        return self.level + (now - self.stamp) * self.rate >= self.burst / 2


class Gate:
    """Limits per client address: how many connections one address may open and keep
    away from a table, and the human-scale allowances (chat, rename, lobby) that all
    of an address's connections spend together. The app's own in-process player
    (address ``local``) and addresses many people share are not counted."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._buckets: dict[tuple[str, str], Bucket] = {}
        #: Each address's message allowance, on real seconds (``net.connection``).
        self._frames: dict[str, Bucket] = {}
        #: What each address and all of them send (frames' cost a second, decaying over
        #: :data:`RATE_SPAN`), as [rate, when]; and each address's share of the host's
        #: rate, worked out again every :data:`RATE_SPAN` / 10.
        self._rates: dict[str, list[float]] = {}
        self._total = [0.0, 0.0]
        self._share = (float("inf"), float("-inf"))
        #: Each address's allowance of new connections.
        self._connects: dict[str, Bucket] = {}

    def counts(self, address: str) -> bool:
        """True if limits per address apply to ``address``."""
        return address != "local" and address not in self.limits.shared_addresses

    def admit(self, address: str, others: list[tuple[str, bool]], now: float) -> str | None:
        """Why a new connection from ``address`` may not come in, or ``None``;
        ``others`` are the open connections' addresses, each with whether it is at a
        table; ``now`` on the sockets' clock."""
        if not self.counts(address):
            return None
        lim = self.limits
        if len(self._connects) > RATES_KEPT:  # (those long quiet are forgotten)
            for other in [a for a, b in self._connects.items() if b.full(now)]:
                del self._connects[other]
        pace = self._connects.get(address)
        if pace is None:
            pace = self._connects[address] = Bucket(lim.connect_rate, lim.connect_burst, now)
        if not pace.take(now):
            return f"connections from your address ({address}) come too fast; wait a moment"
        same = [at_table for other, at_table in others if other == address]
        if len(same) >= lim.max_per_address:
            return (f"this host takes at most {lim.max_per_address} connections from "
                    f"one address ({address})")
        idle = same.count(False)
        if idle >= lim.max_unjoined_per_address:
            return (f"{idle} connections from your address ({address}) are not at a table; "
                    "close one or join a table with it first")
        return None

    def returning(self, address: str, waiting: list[str]) -> str | None:
        """A host at its connection limit: why a connection from ``address`` may not
        come in even to take a seat back (``None``: it may, and may do nothing else
        until it has); ``waiting`` are the addresses of those let in so already (one an
        address; with no reserve at all, none)."""
        if not self.limits.returning_reserve or (self.counts(address) and address in waiting):
            return "this host takes no more connections now"
        return None

    def rate_of(self, kind: str) -> tuple[float, int]:
        """The rate and burst of one kind of allowance (for one connection)."""
        lim = self.limits
        return {
            "chat": (lim.chat_rate, lim.chat_burst),
            "rename": (lim.rename_rate, lim.rename_burst),
            "lobby": (lim.lobby_rate, lim.lobby_burst),
            "review": (lim.review_rate, lim.review_burst),
            "list": (lim.list_rate, lim.list_burst),
            "signal": (lim.signal_rate, lim.signal_burst),
            "refused": (lim.refused_rate, lim.refused_burst),
        }[kind]

    def take(self, mine: dict[str, Bucket], address: str, request: str,
             now: float) -> str | None:
        """Spend what ``request`` costs from one connection's allowances (``mine``) and
        from its address's. Returns what to tell the peer if it is spending too fast,
        else ``None``."""
        kind = SOCIAL.get(request)
        if kind is None:
            return None
        rate, burst = self.rate_of(kind)
        bucket = mine.get(kind)
        if bucket is None:
            bucket = mine[kind] = Bucket(rate, burst, now)
        shared = None
        if self.counts(address):
            shared = self._buckets.get((address, kind))
            if shared is None:
                shared = self._buckets[(address, kind)] = Bucket(
                    rate * ADDRESS_FACTOR, burst * ADDRESS_FACTOR, now)
        if not bucket.take(now) or (shared is not None and not shared.take(now)):
            return SLOW_DOWN[kind]
        return None

    def frames(self, address: str, rate: float, burst: int, now: float) -> Bucket | None:
        """The message allowance every connection of ``address`` spends together
        (:data:`ADDRESS_FACTOR` times one connection's ``rate`` and ``burst``), or
        ``None`` where limits per address do not apply. ``now`` is the sockets' clock."""
        if not self.counts(address):
            return None
        bucket = self._frames.get(address)
        if bucket is None:
            bucket = self._frames[address] = Bucket(rate * ADDRESS_FACTOR,
                                                    burst * ADDRESS_FACTOR, now)
        return bucket

    def heavy(self, address: str, cost: int, now: float) -> bool:
        """Count a frame of ``cost`` from ``address`` (``now`` on the sockets' clock);
        True if the host is taking more than ``limits.host_rate`` from all addresses and
        ``address`` sends more than its even share of that."""
        if not self.counts(address):
            return False
        if len(self._rates) > RATES_KEPT:
            # (Not only when the host is busy: an address that came and went once
            # would be kept for good, one a new address.)
            self._forget_quiet(now)
        total = self._total
        total[0] = total[0] * math.exp((total[1] - now) / RATE_SPAN) + cost / RATE_SPAN
        total[1] = now
        mine = self._rates.setdefault(address, [0.0, now])
        mine[0] = mine[0] * math.exp((mine[1] - now) / RATE_SPAN) + cost / RATE_SPAN
        mine[1] = now
        host_rate = self.limits.host_rate
        if total[0] <= host_rate:
            return False
        share, when = self._share
        if now - when > RATE_SPAN / 10:
            self._forget_quiet(now)
            active = sum(1 for r, t in self._rates.values()
                         if r * math.exp((t - now) / RATE_SPAN) > 1.0)
            share = host_rate / max(1, active)
            self._share = (share, now)
        return mine[0] > share

    def _forget_quiet(self, now: float) -> None:
        """Forget the rates of addresses quiet for a while (decayed to nothing)."""
        for other in [a for a, (_r, t) in self._rates.items() if now - t > 5 * RATE_SPAN]:
            del self._rates[other]

    def forget_frames(self, address: str, now: float) -> None:
        """The last connection from ``address`` is gone: forget its message allowance
        once it is full again (``now`` on the sockets' clock)."""
        bucket = self._frames.get(address)
        if bucket is not None and bucket.level + (now - bucket.stamp) * bucket.rate >= bucket.burst:
            del self._frames[address]

    def forget(self, address: str, now: float) -> None:
        """The last connection from ``address`` is gone: forget its allowances once they
        are full again (not before, or reconnecting would be a way to refill them)."""
        for key in [k for k in self._buckets if k[0] == address]:
            bucket = self._buckets[key]
            if bucket.level + (now - bucket.stamp) * bucket.rate >= bucket.burst:
                del self._buckets[key]


def in_words(seconds: float) -> str:
    """A span of time as a person reads it: ``10 minutes``, ``1 minute``, ``45 seconds``."""
    if seconds >= 60 and round(seconds) % 60 == 0:
        minutes = round(seconds) // 60
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    whole = round(seconds)
    return f"{whole} second{'s' if whole != 1 else ''}"

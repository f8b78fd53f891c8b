"""Shared helpers for the network tests: hosts on 127.0.0.1, raw frames, secrecy checks."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Iterable, Iterator
from contextlib import asynccontextmanager
from typing import Any

import msgpack

from net.autoplay import drive
from net.client import Client, Joined
from net.clock import ManualClock
from net.host import Host
from net.wire import codec, framing, stream
from net.wire.errors import ConnectionClosed, ProtocolError

LOCAL = "127.0.0.1"
#: Keys that only the host's own state may hold.
FORBIDDEN_KEYS = {"snapshot", "seed", "rng", "draw_pile", "hands", "state", "deadline", "tape",
                  "check"}


@asynccontextmanager
async def running_host(**kwargs: Any) -> AsyncIterator[Host]:
    """A host listening on 127.0.0.1 at a free port; closed afterwards."""
    kwargs.setdefault("bot_delay", 0)
    # Seeded games keep the tests' length steady; the seeds stay inside the host.
    rng = random.Random(kwargs.pop("seed", 1))
    kwargs.setdefault("seed_source", lambda: rng.getrandbits(62))
    host = Host("test host", **kwargs)
    await host.start(LOCAL, 0)
    try:
        yield host
    finally:
        await host.close()


class Watched:
    """A bot as :func:`net.autoplay.drive` plays it, noting the view it last answered and
    whether it answered with a move: so a test knows when it only waits (for news, or
    for the time it asked to be woken at)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.view: dict[str, Any] | None = None
        self.moved = False
        if hasattr(bot, "step"):
            self.step = self._step

    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> Any:
        # drive asks a turn-based bot once a view and sends its move at once, before
        # anything else can be sent on that connection: a move it is still waiting to
        # hear about is ahead of the next ping.
        self.view, self.moved = view, False
        return self.bot.choose(view, legal)

    def _step(self, view: dict[str, Any], legal: list[dict[str, Any]],
              now: float) -> tuple[Any, float | None]:
        # A real-time bot is asked again after each of its moves is answered, and may
        # move again then: it waits only once it has answered the latest view with none.
        action, wake = self.bot.step(view, legal, now)
        self.view, self.moved = view, action is not None
        return action, wake

    def waiting(self, client: Client) -> bool:
        """True if the bot has answered what ``client`` holds and only waits."""
        msg = client.latest
        if msg is None or msg.get("view") is None or not msg["legal"]:
            return True
        return msg["view"] is self.view and not self.moved


async def settled(players: Iterable[tuple[Client, Watched]],
                  watchers: Iterable[Client] = ()) -> None:
    """Return once nothing is under way between a host and the clients at its table: a
    round of pings through every client brought none of them news, and each bot has
    answered its client's latest view and only waits.

    A ping's answer comes after everything its client sent before it was handled, and
    after everything the host sent that client before: a round without news, with
    every bot waiting, leaves nothing in flight.
    """
    players = list(players)
    clients = [c for c, _ in players] + list(watchers)
    while True:
        seen = [c.latest for c in clients]
        for client in clients:
            await client.ping()
        if all(c.latest is was for c, was in zip(clients, seen, strict=True)) and all(
                bot.waiting(c) for c, bot in players):
            return


async def drive_on_clock(clock: ManualClock, players: Iterable[tuple[Client, Any]], *,
                         watchers: Iterable[Client] = (),
                         timeout: float = 60.0) -> list[dict[str, Any] | None]:
    """Play each client's seat with its bot (:func:`net.autoplay.drive`) to the end of
    the game on ``clock``, the host's: each time everything has :func:`settled`, the
    clock moves on to the next moment anything is due. Returns each one's result.

    Time passes only where something happens, and what the host and the bots do at one
    moment is all done before the next: a round of Get It! takes no wall time to speak
    of, and goes the same way every time. ``watchers`` are other clients at the table.
    """
    players = [(client, Watched(bot)) for client, bot in players]
    watchers = list(watchers)
    done = asyncio.gather(
        *(drive(client, bot, timeout=timeout, clock=clock) for client, bot in players))
    try:
        while not done.done():
            await settled(players, watchers)
            if done.done():
                break
            due = clock.next_due()
            assert due is not None, "nothing is under way and nothing is due"
            clock.advance_to(max(due, clock.now()))
        return done.result()
    finally:
        done.cancel()


class Clients:
    """Connect clients to a host and close them all at the end."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.all: list[Client] = []

    async def new(self, name: str, *, record: bool = False,
                  visitor: str | None = None) -> Client:
        """A connected, welcomed client (``visitor``: the id a box gives its player)."""
        client = await Client.connect(LOCAL, self.host.port, name=name, record_frames=record,
                                      visitor=visitor)
        self.all.append(client)
        return client

    async def playing(self, options: dict[str, Any] | None = None
                      ) -> tuple[Client, Client, Joined]:
        """Ann opens a two-seat GET OUT! table (``options``), Bob sits down and is ready,
        and Ann deals: both clients, and Ann's seat."""
        ann, bob = await self.new("Ann"), await self.new("Bob")
        joined = await ann.create_table("T", "getout", 2, options or {})
        await bob.join(joined.table)
        await bob.ready()
        await ann.start()
        return ann, bob, joined

    async def getit_dealt(self, options: dict[str, Any]
                          ) -> tuple[Client, Client, Joined, Joined]:
        """Ann opens a three-seat Get It! table (``options``), Bob sits down, a bot takes
        seat 3, and Ann deals: both clients, Ann's seat and Bob's (its token)."""
        ann, bob = await self.new("Ann"), await self.new("Bob")
        joined = await ann.create_table("T", "getit", 3, options)
        bob_seat = await bob.join(joined.table)
        await ann.add_bot(2)
        await bob.ready()
        await ann.start()
        return ann, bob, joined, bob_seat

    async def close(self) -> None:
        """Close every client made here."""
        for client in self.all:
            await client.close()


@asynccontextmanager
async def clients(host: Host) -> AsyncIterator[Clients]:
    """A :class:`Clients` whose connections are closed when the block ends."""
    made = Clients(host)
    try:
        yield made
    finally:
        await made.close()


class RawPeer:
    """A bare TCP connection speaking frames by hand (to misbehave on purpose)."""

    def __init__(self, reader: stream.FrameReader, writer: stream.FrameWriter) -> None:
        self.reader = reader
        self.writer = writer
        #: The table as last sent: like any client, the peer keeps it, since an
        #: ``update`` carries it only when it changed. So with the view: an update
        #: may carry only what changed in it.
        self.table: dict[str, Any] | None = None
        self.view: dict[str, Any] | None = None

    @classmethod
    async def open(cls, host: Host) -> RawPeer:
        """Connect to ``host`` without saying hello."""
        reader, writer = await stream.open_connection(LOCAL, host.port)
        return cls(reader, writer)

    async def send(self, message: dict[str, Any]) -> None:
        """Send one well-formed frame."""
        self.writer.write(codec.pack(message))
        await self.writer.drain()

    async def send_bytes(self, data: bytes) -> None:
        """Send bytes as they are."""
        self.writer.write(data)
        await self.writer.drain()

    async def recv(self, timeout: float = 5.0, *, skip_pings: bool = True) -> dict[str, Any]:
        """The next frame (pings skipped), read as the client reads its frames;
        ``ConnectionClosed`` at end of stream."""
        while True:
            body = await asyncio.wait_for(self.reader.next_frame(), timeout)
            msg = codec.unpack_body(body)
            if msg.get("type") == "update":
                self.table = msg.setdefault("table", self.table)
            self.view = whole_view(msg, self.view)
            if not (skip_pings and msg.get("type") == "ping"):
                return msg

    async def closed_by_host(self, timeout: float = 5.0) -> bool:
        """True once the host ends the stream (frames before the end are skipped)."""
        async with asyncio.timeout(timeout):
            while True:
                try:
                    await self.reader.next_frame()
                except (ConnectionClosed, ProtocolError, ConnectionError):
                    self.close()
                    return True

    def close(self) -> None:
        """Drop the connection."""
        self.writer.abort()


def frame(body: bytes) -> bytes:
    """A length-prefixed frame around ``body``."""
    return framing.HEADER.pack(len(body)) + body


def decode(body: bytes) -> dict[str, Any]:
    """Decode a recorded frame body independently of the client library."""
    msg = msgpack.unpackb(body, raw=False, strict_map_key=True)
    assert isinstance(msg, dict)
    return msg


def whole_view(msg: dict[str, Any], view: dict[str, Any] | None) -> dict[str, Any] | None:
    """Put the whole view into an ``update`` that carries only ``view_changes`` (applied
    to ``view``, the connection's view before it), independently of the client library;
    return the view to keep for the next one (``view`` for other messages)."""
    if msg.get("type") != "update":
        return view
    if "view_changes" in msg:
        assert view is not None, "view_changes before any view"
        assert "view" not in msg, msg
        msg["view"] = {**view, **msg.pop("view_changes")}
    new: dict[str, Any] | None = msg["view"]
    return new


def replay(bodies: Iterable[bytes]) -> Iterator[dict[str, Any]]:
    """Decode recorded frame bodies of one connection in order, each ``update``'s
    ``view_changes`` applied to the view before it (:func:`whole_view`), so every
    update has its whole ``view``."""
    view: dict[str, Any] | None = None
    for body in bodies:
        msg = decode(body)
        view = whole_view(msg, view)
        yield msg


def walk(value: Any) -> Iterator[Any]:
    """Every value nested in ``value`` (itself included)."""
    yield value
    if isinstance(value, dict):
        for v in value.values():
            yield from walk(v)
    elif isinstance(value, list):
        for v in value:
            yield from walk(v)


def keys_in(value: Any) -> set[str]:
    """Every map key anywhere in ``value``."""
    return {k for v in walk(value) if isinstance(v, dict) for k in v}


def getout_card_ids(value: Any) -> set[int]:
    """Ids of every GET OUT! card dict anywhere in ``value``."""
    return {
        v["id"]
        for v in walk(value)
        if isinstance(v, dict) and {"id", "image", "value", "wild"} <= set(v)
    }


def check_getout_secrecy(
    seat_frames: dict[int, list[bytes]], spectator_frames: list[bytes]
) -> int:
    """Assert that no seat ever received what it may not know; return updates checked.

    A card id may reach a seat only in its own hand (the view in the same frame) or if
    the spectator — who sees only public information — got it at the same version.
    """
    public: dict[int, set[int]] = {}
    for msg in replay(spectator_frames):
        assert not keys_in(msg) & (FORBIDDEN_KEYS | {"hand"}), msg
        if msg.get("type") == "update" and msg.get("view") is not None:
            public.setdefault(msg["view"]["version"], set()).update(getout_card_ids(msg))
            assert msg["legal"] == []
    checked = 0
    for seat, frames in seat_frames.items():
        for msg in replay(frames):
            assert not keys_in(msg) & FORBIDDEN_KEYS, msg
            if msg.get("type") != "update" or msg.get("view") is None:
                assert not getout_card_ids(msg), msg
                continue
            view = msg["view"]
            assert view["seat"] == seat == msg["seat"]
            own = {c["id"] for c in view.get("hand", [])}
            allowed = own | public.get(view["version"], set())
            leaked = getout_card_ids(msg) - allowed
            assert not leaked, f"seat {seat} saw cards {leaked} at version {view['version']}"
            legal_cards = {a["card"] for a in msg["legal"] if "card" in a}
            assert legal_cards <= own
            checked += 1
    return checked

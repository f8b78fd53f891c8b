"""What a host stops keeping when nobody uses it (``net.idle``), where every connection
comes from one shared address as on an SSH box: a connection at no table is warned, then
closed; tables everyone left close as lobbies do, and count against the player who
opened them."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from net.client import Client, ConnectionLost, ServerError
from net.clock import ManualClock
from net.host import Host
from net.limits import Limits
from net.seats import HouseRules, random_bot_factory
from net.table import Table
from net.wire import errors
from net.wire.framing import PROTOCOL_VERSION
from tests.net_support import LOCAL, RawPeer, clients, running_host

#: The box's limits: 127.0.0.1 is shared, so no limit per address counts anyone.
SHARED = Limits(shared_addresses=frozenset({LOCAL}), lobby_idle=600.0, lobby_warning=60.0)


async def told(client: Client) -> list[dict[str, Any]]:
    """The warnings and errors the host pushed to ``client`` so far (a ping's answer
    comes after everything sent before it). The ping itself is the client software's:
    it must not count as someone being there."""
    await client.ping()
    return [m for m in client.pending() if m["type"] in ("warning", "error")]


async def closed_by_host(client: Client) -> dict[str, Any]:
    """The last error the host sent ``client`` before it closed the connection."""
    last: dict[str, Any] = {}
    async with asyncio.timeout(5):
        while True:
            try:
                msg = await client.next()
            except ConnectionLost:
                return last
            if msg["type"] == "error":
                last = msg


async def gone(host: Host, count: int = 0) -> None:
    """Until the host holds ``count`` connections."""
    async with asyncio.timeout(5):
        while len(host.connections) > count:
            await asyncio.sleep(0)


async def test_a_connection_at_no_table_is_told_then_closed_and_a_request_keeps_it() -> None:
    clock = ManualClock()
    async with running_host(clock=clock, limits=SHARED) as host, clients(host) as made:
        ann = await made.new("Ann")
        clock.advance(539)
        assert await told(ann) == []
        clock.advance(1)
        [warning] = await told(ann)
        assert warning["type"] == "warning" and warning["code"] == errors.IDLE
        assert warning["closes_in"] == 60 and warning["idle_for"] == 540
        assert "closes in 1 minute" in warning["message"]
        # Looking at the tables is someone there: the count starts again.
        await ann.list_tables()
        clock.advance(539)
        assert await told(ann) == []
        clock.advance(1)
        assert [m["type"] for m in await told(ann)] == ["warning"]
        clock.advance(60)
        last = await closed_by_host(ann)
        assert last["code"] == errors.IDLE and "10 minutes at no table" in last["message"]
        assert ann.close_reason is not None and "at no table" in ann.close_reason
        await gone(host)


async def test_a_person_at_a_table_is_never_closed_and_leaving_starts_the_count() -> None:
    clock = ManualClock()
    async with running_host(clock=clock, limits=SHARED) as host, clients(host) as made:
        ann = await made.new("Ann")
        bob = await made.new("Bob")
        eve = await made.new("Eve")
        joined = await ann.create_table("T", "getout", 3)
        await bob.join(joined.table)
        await eve.join(joined.table, spectate=True)
        clock.advance(6000)
        for client in (ann, bob, eve):
            assert await told(client) == []
        await ann.kick(1)  # Bob is at no table from the kick on
        await eve.leave()
        clock.advance(540)
        assert [m["type"] for m in await told(bob)] == ["error", "warning"]  # kicked, warned
        assert [m["type"] for m in await told(eve)] == ["warning"]
        assert await told(ann) == []
        clock.advance(60)
        assert (await closed_by_host(eve))["code"] == errors.IDLE
        assert (await closed_by_host(bob))["code"] == errors.IDLE
        await gone(host, 1)
        assert await told(ann) == []


async def test_connections_that_only_answer_pings_no_longer_lock_out_a_new_player() -> None:
    """The attack measured on a box: connections that say hello and answer pings, never
    at a table, held every connection the host takes, for good."""
    clock = ManualClock()
    async with running_host(clock=clock, limits=SHARED, max_connections=40) as host, \
            clients(host) as made:
        idle = [await made.new(f"Idle{i}") for i in range(40)]
        refused = await RawPeer.open(host)
        await refused.send({"type": "hello", "version": PROTOCOL_VERSION, "name": "Ann"})
        await refused.recv()  # (let in past the limit only to take a seat back)
        await refused.send({"type": "create_table", "name": "Kitchen", "game": "getout",
                            "seats": 2, "ref": 1})
        said = await refused.recv()
        assert said["code"] == errors.HOST_FULL and "no more connections" in said["message"]
        refused.close()
        clock.advance(SHARED.lobby_idle)
        for client in idle:
            assert (await closed_by_host(client))["code"] == errors.IDLE
        await gone(host)
        ann = await made.new("Ann")
        await ann.create_table("Kitchen", "getout", 2)


async def abandon(client: Client, name: str) -> str:
    """Open a table, seat a bot, start the game and leave it: the seat stays the
    player's, and nobody is at the table."""
    joined = await client.create_table(name, "getout", 2)
    await client.add_bot(1)
    await client.start()
    await client.leave()
    return joined.token or ""


async def test_one_connection_opening_and_abandoning_tables_cannot_take_the_slots() -> None:
    """The attack measured on a box: one connection started and left 31 tables, which
    held every table slot of the host for ten minutes."""
    clock = ManualClock()
    limits = SHARED._replace(max_tables=8)
    async with running_host(clock=clock, limits=limits) as host, clients(host) as made:
        spam = await made.new("Spam")
        left = []
        with pytest.raises(ServerError) as refused:
            for i in range(limits.max_tables):
                left.append(await abandon(spam, f"T{i}"))
        assert len(left) == limits.max_tables_per_address
        assert refused.value.code == errors.BAD_REQUEST
        assert "3 tables nobody is at (at most 3)" in refused.value.message
        # Somebody else still opens a table.
        ann = await made.new("Ann")
        mine = await ann.create_table("Kitchen", "getout", 2)
        # Everyone left those games: they close as a lobby nobody is at does.
        clock.advance(limits.empty_table_timeout)
        assert set(host.tables) == {mine.table}
        await spam.create_table("Again", "getout", 2)


@pytest.mark.parametrize("trusted", [True, False])
async def test_on_a_box_a_player_opening_a_connection_per_table_is_still_one_player(
        trusted: bool) -> None:
    """A box's apps open a connection for each table and say whose they are: a box's
    host counts the tables nobody is at per player, however many connections opened
    them. Elsewhere the id is anyone's to claim, so it counts for nothing."""
    limits = SHARED._replace(trusted_visitors=trusted)
    async with running_host(clock=ManualClock(), limits=limits) as host, \
            clients(host) as made:
        for i in range(limits.max_tables_per_address):
            await abandon(await made.new("Spam", visitor="spammer-1"), f"T{i}")
        again = await made.new("Spam", visitor="spammer-1")
        if trusted:
            with pytest.raises(ServerError, match="nobody is at"):
                await again.create_table("One more", "getout", 2)
        else:
            await again.create_table("One more", "getout", 2)
        # Another player is another player.
        ann = await made.new("Ann", visitor="ann-00001")
        await ann.create_table("Kitchen", "getout", 2)


async def test_a_player_coming_back_by_token_is_the_same_opener() -> None:
    clock = ManualClock()
    async with running_host(clock=clock, limits=SHARED) as host, clients(host) as made:
        spam = await made.new("Spam")
        tokens = [await abandon(spam, f"T{i}") for i in range(3)]
        first = next(iter(host.tables))
        # A new connection is somebody new to the host, until a token says who it is.
        again = await made.new("Spam")
        await again.join(first, 0, token=tokens[0])
        await again.leave()
        with pytest.raises(ServerError, match="nobody is at"):
            await again.create_table("T3", "getout", 2)
        assert len(host.tables) == 3


async def test_a_game_everyone_left_closes_as_a_lobby_does_and_a_dropped_one_waits() -> None:
    """Leaving on purpose says nobody is coming back; a lost connection keeps the seat
    for a dropped player's whole window (``idle_timeout``)."""
    clock = ManualClock()
    async with running_host(clock=clock, limits=SHARED) as host, clients(host) as made:
        ann, bob = await made.new("Ann"), await made.new("Bob")
        both_left = await ann.create_table("Left", "getout", 2)
        await bob.join(both_left.table)
        await bob.ready()
        await ann.start()
        await bob.leave()
        await ann.leave()
        cara, dan = await made.new("Cara"), await made.new("Dan")
        dropped = await cara.create_table("Dropped", "getout", 2)
        await dan.join(dropped.table)
        await dan.ready()
        await cara.start()
        await dan.leave()  # one left on purpose, one's connection is lost
        cara.abort()
        await gone(host, 3)
        clock.advance(SHARED.empty_table_timeout)
        assert set(host.tables) == {dropped.table}
        clock.advance(host.idle_timeout - SHARED.empty_table_timeout - 1)
        back = await made.new("Cara")
        await back.join(dropped.table, 0, token=dropped.token)
        await back.leave()
        clock.advance(SHARED.empty_table_timeout)
        assert not host.tables


@pytest.mark.parametrize("dan_left", [False, True])
async def test_a_bot_playing_for_a_dropped_player_keeps_their_window(dan_left: bool) -> None:
    """Dan's connection was lost and a bot played his seat (the creator's hand-over, or
    the away bot): when Cara then left, the table closed half a minute later, his seat
    and the game with it (an SSH box pass). He is still a person who may come back,
    unless he left on purpose."""
    clock = ManualClock()
    async with running_host(clock=clock, limits=SHARED) as host, clients(host) as made:
        cara, dan = await made.new("Cara"), await made.new("Dan")
        table = await cara.create_table("T", "getout", 2)
        joined = await dan.join(table.table)
        await dan.ready()
        await cara.start()
        if dan_left:
            await dan.leave()
        dan.abort()
        await gone(host, 1)
        await cara.add_bot(1)  # a bot plays for Dan until he is back
        assert host.tables[table.table].seats[1].stand_in_for == "Dan"
        await cara.leave()
        clock.advance(SHARED.empty_table_timeout)
        assert (table.table in host.tables) != dan_left
        if dan_left:
            return
        clock.advance(host.idle_timeout - SHARED.empty_table_timeout - 1)
        back = await made.new("Dan")
        await back.join(table.table, 1, token=joined.token)
        assert host.tables[table.table].seats[1].kind == "human"


def test_the_opener_and_each_seat_s_player_outlive_a_restart() -> None:
    table = Table("t1", "T", "getout", 2, {}, HouseRules(random_bot_factory, lambda: 1, 0))
    table.opener = table.seats[0].player = "a1b2"
    table.seats[0].kind, table.seats[0].name, table.seats[0].token = "human", "Ann", "x.y"
    back = Table.restore(table.checkpoint(), [], table.house)
    assert back.opener == "a1b2" and back.seats[0].player == "a1b2"

"""The lobby over real sockets: seats, names, readiness, chat, the creator's powers, heartbeats."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from net.client import ServerError
from net.clock import ManualClock
from net.wire import errors, framing, schemas
from tests.net_support import RawPeer, clients, running_host


def update(msg: dict[str, Any]) -> bool:
    return msg["type"] == "update"


def seats_of(msg: dict[str, Any]) -> list[tuple[str, str]]:
    return [(s["kind"], s["name"]) for s in msg["table"]["seats"]]


def test_every_request_kind_has_one_handler_in_one_table() -> None:
    from net.handlers import BEFORE_HELLO, HANDLERS

    assert set(HANDLERS) == set(schemas.CLIENT_MESSAGES)  # keyed like the schemas
    assert set(HANDLERS) > BEFORE_HELLO
    assert all(callable(handler) for handler in HANDLERS.values())


async def test_lobby_flow_from_join_to_start() -> None:
    async with running_host() as host, clients(host) as made:
        ann = await made.new("Ann")
        joined = await ann.create_table("Kitchen", "getout", 3)
        bob = await made.new("Bob")
        tables = await bob.list_tables()
        assert tables == [{"id": joined.table, "name": "Kitchen", "game": "getout", "seats": 3,
                           "free": 2, "phase": "lobby",
                           "uid": host.tables[joined.table].uid, "online": [0]}]
        assert bob.welcome["tables"] == tables

        assert (await bob.join(joined.table, seat=2)).seat == 2
        msg = await ann.wait_for(lambda m: update(m) and m["notices"] == [
            {"type": "joined", "seat": 2, "name": "Bob"}])
        assert seats_of(msg) == [("human", "Ann"), ("empty", ""), ("human", "Bob")]
        assert msg["table"]["creator"] == 0 and msg["view"] is None

        await bob.pick_seat(1)
        assert bob.joined is not None and bob.joined.seat == 1
        msg = await ann.wait_for(lambda m: update(m) and m["notices"][:1] == [
            {"type": "moved", "from": 2, "to": 1}])
        assert seats_of(msg) == [("human", "Ann"), ("human", "Bob"), ("empty", "")]
        with pytest.raises(ServerError) as info:
            await bob.pick_seat(0)
        assert info.value.code == errors.SEAT_TAKEN

        await bob.rename("Robert")
        msg = await ann.wait_for(lambda m: update(m) and m["table"]["seats"][1]["name"] == "Robert")
        assert msg["notices"] == [{"type": "renamed", "seat": 1, "name": "Robert"}]

        await bob.chat("hello all")
        for c in (ann, bob):
            line = await c.wait_for(lambda m: m["type"] == "chat")
            assert line == {"type": "chat", "table": joined.table, "seat": 1, "name": "Robert",
                            "text": "hello all"}

        # Starting needs every seat filled and every other player ready.
        with pytest.raises(ServerError, match="seat 3 is empty"):
            await ann.start()
        await ann.add_bot(2)
        msg = await bob.wait_for(lambda m: update(m) and m["notices"] == [
            {"type": "bot_added", "seat": 2}])
        assert msg["table"]["seats"][2] == {"seat": 2, "kind": "bot", "name": "Bot 3",
                                            "connected": True, "ready": True}
        with pytest.raises(ServerError, match=r"Robert \(seat 2\) is not ready"):
            await ann.start()
        await bob.ready(True)
        await ann.wait_for(lambda m: update(m) and m["table"]["seats"][1]["ready"])
        await ann.start()
        msg = await bob.wait_for(lambda m: update(m) and m["view"] is not None)
        assert msg["table"]["phase"] == "play"
        assert msg["notices"] == [{"type": "started"}]
        assert msg["view"]["seat"] == 1 and len(msg["view"]["hand"]) == 6

        # Once in play: no more joining a seat, but watching is fine.
        cat = await made.new("Cat")
        with pytest.raises(ServerError) as info:
            await cat.join(joined.table)
        assert info.value.code == errors.WRONG_PHASE
        # In a player's words ("in its play phase" was the engine's).
        assert info.value.message == "that is not possible once the game has started"
        assert (await cat.join(joined.table, spectate=True)).seat is None
        seen = await cat.wait_for(update)
        assert seen["seat"] is None and "hand" not in seen["view"] and seen["legal"] == []
        with pytest.raises(ServerError) as info:
            await cat.act({"type": "draw"})
        assert info.value.code == errors.NO_SEAT
        with pytest.raises(ServerError) as info:
            await ann.ready(False)
        assert info.value.code == errors.WRONG_PHASE


async def test_a_newcomer_refused_by_a_bot_s_seat_is_told_the_creator_can_free_it() -> None:
    """"every seat at this table is taken", with a bot in one: nothing said a person
    could have it (a fresh-eyed pass of a LAN party)."""
    async with running_host() as host, clients(host) as made:
        ann, cy = await made.new("Ann"), await made.new("Cy")
        joined = await ann.create_table("T", "getout", 2)
        await ann.add_bot(1)
        with pytest.raises(ServerError, match="every seat at this table is taken; a bot "
                           "holds seat 2, which the table's creator can free for you"):
            await cy.join(joined.table)
        with pytest.raises(ServerError, match="seat 2 is taken by a bot: the table's creator "
                           "can free it for you"):
            await cy.join(joined.table, 1)


async def test_a_second_table_of_the_same_name_is_told_apart_by_a_number() -> None:
    """On a box two friends both opened "Pia's table": the list told them apart only by
    their game."""
    async with running_host() as host, clients(host) as made:
        pia, lou, zed = await made.new("Pia"), await made.new("Lou"), await made.new("Zed")
        await pia.create_table("Pia's table", "getout", 2)
        await lou.create_table("Pia's table", "getit", 3)
        await zed.create_table("Pia's table", "gotfive", 2)
        names = [t["name"] for t in await zed.list_tables()]
        assert names == ["Pia's table", "Pia's table (2)", "Pia's table (3)"]
    # A name as long as a name may be stays as long, its number in place of its end.
    from net.lobby import distinct_name

    longest = "x" * schemas.TABLE_NAME_LEN
    assert distinct_name(longest, [longest]) == "x" * (schemas.TABLE_NAME_LEN - 4) + " (2)"


async def test_creator_only_operations_are_refused_for_others() -> None:
    async with running_host() as host, clients(host) as made:
        ann = await made.new("Ann")
        bob = await made.new("Bob")
        joined = await ann.create_table("T", "getout", 3)
        await bob.join(joined.table)
        before = host.tables[joined.table].public()
        for request, fields in [
            ("configure", {"seats": 4}),
            ("add_bot", {"seat": 2}),
            ("remove_bot", {"seat": 2}),
            ("kick", {"seat": 0}),
            ("start", {}),
        ]:
            with pytest.raises(ServerError) as info:
                await bob.request(request, **fields)
            assert info.value.code == errors.NOT_CREATOR, request
            assert "creator" in info.value.message
        assert host.tables[joined.table].public() == before


async def test_creator_configures_adds_and_removes_bots_and_kicks() -> None:
    async with running_host() as host, clients(host) as made:
        ann = await made.new("Ann")
        bob = await made.new("Bob")
        joined = await ann.create_table("T", "getout", 2)
        await bob.join(joined.table)

        await ann.configure(seats=4, options={"limit": 50})
        msg = await bob.wait_for(lambda m: update(m) and m["notices"] == [
            {"type": "configured", "changed": {"seats": 4, "options": {"limit": 50}}}])
        assert len(msg["table"]["seats"]) == 4 and msg["table"]["options"]["limit"] == 50
        with pytest.raises(ServerError, match="unknown option 'speed'"):
            await ann.configure(options={"speed": 3})
        with pytest.raises(ServerError, match="2 to 6 seats"):
            await ann.configure(seats=9)
        with pytest.raises(ServerError, match="unknown game"):
            await ann.configure(game="chess")
        await bob.pick_seat(3)
        with pytest.raises(ServerError, match="seat 4 is taken by Bob"):
            await ann.configure(seats=2)
        await bob.pick_seat(1)

        await ann.add_bot(3)
        with pytest.raises(ServerError) as info:
            await ann.add_bot(1)
        assert info.value.code == errors.SEAT_TAKEN
        await ann.remove_bot(3)
        msg = await bob.wait_for(lambda m: update(m) and m["notices"] == [
            {"type": "bot_removed", "seat": 3}])
        assert msg["table"]["seats"][3]["kind"] == "empty"
        with pytest.raises(ServerError, match="holds no bot"):
            await ann.remove_bot(3)
        with pytest.raises(ServerError, match="there is no seat 8"):
            await ann.add_bot(7)

        bob_token = bob.joined.token if bob.joined else None
        await ann.kick(1)
        err = await bob.wait_for(lambda m: m["type"] == "error")
        assert err["code"] == errors.KICKED and bob.joined is None
        msg = await ann.wait_for(lambda m: update(m) and m["notices"] == [
            {"type": "kicked", "seat": 1, "name": "Bob"}])
        assert msg["table"]["seats"][1]["kind"] == "empty"
        with pytest.raises(ServerError) as info:  # the kicked seat's token is dead
            await bob.join(joined.table, seat=1, token=bob_token)
        assert info.value.code == errors.KICKED
        with pytest.raises(ServerError, match="cannot kick yourself"):
            await ann.kick(0)
        assert (await bob.join(joined.table)).seat == 1  # still connected, may come back


async def test_a_player_removed_while_away_is_told_so_on_coming_back() -> None:
    """Bob quit with his seat kept; back at the lobby, the creator removed him. His
    token then sat him in the emptied seat as a newcomer, or said only that every seat
    was taken: his menu had said the seat was kept (a LAN pass)."""
    async with running_host() as host, clients(host) as made:
        ann, bob = await made.new("Ann"), await made.new("Bob")
        joined = await ann.create_table("Five", "getout", 2)
        bob_joined = await bob.join(joined.table)
        await bob.close()
        await ann.wait_for(lambda m: update(m) and not m["table"]["seats"][1]["connected"])
        await ann.kick(1)
        back = await made.new("Bob")
        with pytest.raises(ServerError) as info:
            await back.join(joined.table, seat=1, token=bob_joined.token)
        assert info.value.code == errors.KICKED
        assert info.value.message == ("you were removed from table 'Five' by its creator "
                                      "while you were away")
        assert host.tables[joined.table].seats[1].kind == "empty"


async def test_creator_role_passes_on_when_the_creator_leaves_the_lobby() -> None:
    async with running_host() as host, clients(host) as made:
        ann = await made.new("Ann")
        bob = await made.new("Bob")
        joined = await ann.create_table("T", "getout", 2)
        await bob.join(joined.table)
        await ann.leave()
        msg = await bob.wait_for(lambda m: update(m) and m["notices"] == [
            {"type": "left", "seat": 0, "name": "Ann"}, {"type": "creator", "seat": 1}])
        assert msg["table"]["creator"] == 1
        await bob.add_bot(0)
        with pytest.raises(ServerError) as info:
            await ann.chat("hi")
        assert info.value.code == errors.NO_TABLE


async def test_bad_requests_in_the_lobby_say_what_is_wrong() -> None:
    async with running_host(max_tables=1) as host, clients(host) as made:
        ann = await made.new("Ann")
        with pytest.raises(ServerError, match="unknown game 'chess'"):
            await ann.create_table("T", "chess", 2)
        with pytest.raises(ServerError, match="2 to 6 seats"):
            await ann.create_table("T", "getout", 1)
        with pytest.raises(ServerError, match="option 'limit'"):
            await ann.create_table("T", "getout", 2, {"limit": "lots"})
        with pytest.raises(ServerError) as info:
            await ann.join("t99")
        assert info.value.code == errors.NO_TABLE
        joined = await ann.create_table("T", "getout", 2)
        with pytest.raises(ServerError, match="already at a table"):
            await ann.join(joined.table)
        bob = await made.new("Bob")
        with pytest.raises(ServerError, match="holds 1 tables"):
            await bob.create_table("U", "getout", 2)
        with pytest.raises(ServerError) as info:
            await bob.join(joined.table, seat=0)
        assert info.value.code == errors.SEAT_TAKEN
        with pytest.raises(ServerError) as info:
            await bob.ready()
        assert info.value.code == errors.NO_TABLE


async def test_heartbeat_notices_a_dead_peer_and_spares_a_live_one() -> None:
    async with running_host(heartbeat=0.1, timeout=0.4) as host, clients(host) as made:
        ann = await made.new("Ann")
        joined = await ann.create_table("T", "getout", 2)
        silent = await RawPeer.open(host)
        await silent.send({"type": "hello", "version": framing.PROTOCOL_VERSION, "name": "Zed"})
        assert (await silent.recv())["type"] == "welcome"
        await silent.send({"type": "join", "table": joined.table})
        assert (await silent.recv())["type"] == "joined"
        # The silent peer never answers a ping: the host drops it and tells the table.
        msg = await ann.wait_for(
            lambda m: update(m) and m["notices"] == [{"type": "disconnected", "seat": 1}],
            timeout=3,
        )
        assert msg["table"]["seats"][1]["connected"] is False
        frames = []
        async with asyncio.timeout(3):
            while True:
                try:
                    frames.append(await silent.recv(skip_pings=False))
                except (errors.ConnectionClosed, ConnectionError):
                    silent.close()
                    break
        assert any(f.get("type") == "ping" for f in frames)
        assert frames[-1]["code"] == errors.TIMEOUT
        # Ann answered every ping (the client does it itself) and is still served.
        await ann.chat("still here")
        assert host.tables[joined.table].seats[0].conn is not None


async def test_a_table_nobody_is_at_closes_after_the_idle_timeout() -> None:
    async with running_host(idle_timeout=0.05) as host, clients(host) as made:
        gone = asyncio.Event()
        host.listeners.append(gone.set)
        kept = host.create_table("House table", "getout", 2)
        kept.permanent = True
        ann = await made.new("Ann")
        joined = await ann.create_table("T", "getout", 2)
        assert set(host.tables) == {kept.id, joined.table}
        ann.abort()  # Ann's seat waits for her a while, then the table goes
        async with asyncio.timeout(3):
            while joined.table in host.tables:
                gone.clear()
                await gone.wait()
        assert set(host.tables) == {kept.id}


async def test_a_table_left_by_its_last_player_closes_at_once() -> None:
    async with running_host() as host, clients(host) as made:
        ann = await made.new("Ann")
        bob = await made.new("Bob")
        joined = await ann.create_table("T", "getout", 2)
        await bob.join(joined.table, spectate=True)
        await ann.leave()
        assert joined.table in host.tables  # Bob still watches
        await bob.leave()
        assert joined.table not in host.tables
        assert await ann.list_tables() == []


async def test_a_connection_that_never_says_hello_is_closed() -> None:
    async with running_host(heartbeat=0.05, timeout=0.2) as host:
        peer = await RawPeer.open(host)
        async with asyncio.timeout(3):
            while True:
                msg = await peer.recv(skip_pings=False)
                if msg["type"] == "error":
                    break
                await peer.send({"type": "pong"})  # alive, but never says hello
        assert msg["code"] == errors.TIMEOUT and "hello" in msg["message"]
        assert await peer.closed_by_host()


async def test_creator_role_passes_on_when_the_creator_drops() -> None:
    """The player standing in may free the creator's seat once they have been gone a
    while, not at once (a stand-in removed a creator whose connection had dropped a
    moment, and the creator was refused their own seat on coming back)."""
    from net.lobby import CREATOR_KEPT

    clock = ManualClock(100.0)
    async with running_host(clock=clock) as host, clients(host) as made:
        ann = await made.new("Ann")
        bob = await made.new("Bob")
        joined = await ann.create_table("T", "getout", 2)
        await bob.join(joined.table)
        ann.abort()
        msg = await bob.wait_for(lambda m: update(m) and m["notices"] == [
            {"type": "disconnected", "seat": 0}, {"type": "creator", "seat": 1}])
        assert msg["table"]["creator"] == 1
        clock.advance(CREATOR_KEPT - 30)
        with pytest.raises(ServerError, match="seat 1 is the table's creator's, kept for them "
                                              "for 30 seconds more"):
            await bob.kick(0)
        assert host.tables[joined.table].seats[0].kind == "human"
        clock.advance(30)
        await bob.kick(0)  # the absent player's seat can now be freed
        assert host.tables[joined.table].seats[0].kind == "empty"
        assert host.tables[joined.table].creator_home is None  # (nobody to give it back to)


async def test_a_creator_back_at_the_table_runs_it_again_and_everyone_is_told() -> None:
    """The creator's role went to another player while its holder was away, without a
    word, and stayed there once they were back (a fresh-eyed pass of the SSH box): the
    stand-in is told, the creator has it back on their return, through a restart too."""
    from net.table import Table

    async with running_host() as host, clients(host) as made:
        ann, bob, joined = await made.playing({"first": 0})
        await ann.leave()  # a game in play: the seat waits for her
        msg = await bob.wait_for(lambda m: update(m) and m["notices"] == [
            {"type": "stepped_away", "seat": 0}, {"type": "creator", "seat": 1}])
        assert msg["table"]["creator"] == 1
        table = host.tables[joined.table]
        again = Table.restore(table.persisted(), [], table.house)  # (as a journal keeps it)
        assert (again.creator, again.creator_home) == (1, 0)
        back = await made.new("Ann")
        await back.join(joined.table, seat=0, token=joined.token)
        msg = await bob.wait_for(lambda m: update(m) and {"type": "creator", "seat": 0}
                                 in m["notices"])
        assert msg["table"]["creator"] == 0 and table.creator_home is None


async def test_two_players_with_one_name_are_told_apart() -> None:
    async with running_host() as host, clients(host) as made:
        first = await made.new("root")
        second = await made.new("root")
        joined = await first.create_table("T", "getout", 3)
        await second.join(joined.table)
        msg = await first.wait_for(
            lambda m: m.get("type") == "update" and m["table"]["seats"][1]["kind"] == "human"
        )
        assert [s["name"] for s in msg["table"]["seats"][:2]] == ["root", "root (2)"]
        await second.rename("root")  # renaming into a taken name is told apart too
        await second.rename("Bob")
        await first.wait_for(
            lambda m: m.get("type") == "update" and m["table"]["seats"][1]["name"] == "Bob"
        )


async def test_two_players_with_one_long_name_are_told_apart_within_a_name_s_length() -> None:
    """Two of one name of 22 characters: the second was "… (2)", longer than a name may
    be, and every app at the table refused every update (a fresh-eyed pass of the box).
    A journal an older release wrote with such a name resumes with it cut to fit."""
    from net.journal_resume import check_table
    from net.seats import fit_name

    name = "abcdefghijklmnopqrstuv"
    async with running_host() as host, clients(host) as made:
        first, second = await made.new(name), await made.new(name)
        joined = await first.create_table("T", "getout", 3)
        await second.join(joined.table)
        msg = await first.wait_for(
            lambda m: m.get("type") == "update" and m["table"]["seats"][1]["kind"] == "human"
        )
        names = [s["name"] for s in msg["table"]["seats"][:2]]
        assert names == [name, "abcdefghijklmnopqrst (2)"], names
        assert all(len(n) <= schemas.NAME_LEN for n in names)
    record = {"t": "t1", "name": "T", "game": "getout", "phase": "lobby", "creator": 0,
              "options": {},
              "seats": [{"kind": "human", "name": name + " (2)", "token": None},
                        {"kind": "bot", "name": "Bot 2", "for": "y" * 30, "token": None}]}
    check_table(record)
    assert [s["name"] for s in record["seats"]] == ["abcdefghijklmnopqrst (2)", "Bot 2"]
    assert record["seats"][1]["for"] == "y" * schemas.NAME_LEN
    assert fit_name("Ann") == "Ann"


async def test_the_table_hears_who_comes_to_watch_and_who_goes() -> None:
    async with running_host() as host, clients(host) as made:
        ann = await made.new("Ann")
        joined = await ann.create_table("Kitchen", "getout", 3)
        cat = await made.new("Cat")
        await cat.join(joined.table, spectate=True)
        msg = await ann.wait_for(lambda m: update(m) and m["notices"] == [
            {"type": "watching", "name": "Cat"}])
        assert msg["table"]["spectators"] == 1
        await cat.leave()
        msg = await ann.wait_for(lambda m: update(m) and m["notices"] == [
            {"type": "stopped_watching", "name": "Cat"}])
        assert msg["table"]["spectators"] == 0
        # A spectator whose connection drops goes the same way.
        dan = await made.new("Dan")
        await dan.join(joined.table, spectate=True)
        await ann.wait_for(lambda m: update(m) and m["table"]["spectators"] == 1)
        await dan.close()
        msg = await ann.wait_for(lambda m: update(m) and m["notices"] == [
            {"type": "stopped_watching", "name": "Dan"}])
        assert msg["table"]["spectators"] == 0


async def test_a_spectator_takes_a_seat_of_the_table_it_watches_in_one_step() -> None:
    """A watcher's "Sit here" was a leave, then a join: alone at a lobby its creator had
    left, the leave closed the table in between ("there is no table 't5'"). A join from
    the table's own spectator sits it there at once; one that is refused leaves it
    watching; another table still wants it to leave first."""
    async with running_host() as host, clients(host) as made:
        ann, cy = await made.new("Ann"), await made.new("Cy")
        joined = await ann.create_table("T", "gotfive", 2)
        await ann.add_bot(1)
        assert (await cy.join(joined.table, spectate=True)).seat is None
        await ann.leave()
        await cy.wait_for(lambda m: update(m) and m["table"]["seats"][0]["kind"] == "empty")
        with pytest.raises(ServerError) as info:
            await cy.join(joined.table, 1)  # the bot's
        assert info.value.code == errors.SEAT_TAKEN
        assert joined.table in host.tables
        sat = await cy.join(joined.table, 0)
        assert sat.seat == 0 and sat.token
        seen = await cy.wait_for(lambda m: update(m) and m["seat"] == 0)
        assert seen["table"]["creator"] == 0 and seen["table"]["spectators"] == 0
        table = host.tables[joined.table]
        assert table.spectators == [] and table.seats[0].name == "Cy"
        other = await ann.create_table("U", "getout", 2)
        with pytest.raises(ServerError) as info:
            await cy.join(other.table)
        assert "already at a table" in info.value.message

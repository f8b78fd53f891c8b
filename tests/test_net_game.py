"""Whole games over real sockets: play to the end, secrecy, reconnection, seat binding."""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

import msgpack
import pytest

import engine
from engine.bots import RandomBot
from engine.core import Game, GameSpec, IllegalAction
from net.autoplay import drive
from net.client import Client, Joined, ServerError
from net.clock import ManualClock
from net.wire import codec, errors, framing
from tests.net_support import (
    FORBIDDEN_KEYS,
    LOCAL,
    Clients,
    check_getout_secrecy,
    clients,
    decode,
    drive_on_clock,
    keys_in,
    replay,
    running_host,
)


def is_update(msg: dict[str, Any]) -> bool:
    return msg["type"] == "update"


def in_play(msg: dict[str, Any]) -> bool:
    return msg["type"] == "update" and msg["view"] is not None


async def test_whole_getout_match_between_clients_and_a_bot_with_a_spectator() -> None:
    async with running_host() as host, clients(host) as made:
        ann = await made.new("Ann", record=True)
        bob = await made.new("Bob", record=True)
        cat = await made.new("Cat", record=True)
        eve = await made.new("Eve", record=True)
        joined = await ann.create_table("Kitchen", "getout", 4, {"limit": 40})
        assert joined.seat == 0 and joined.token
        assert (await bob.join(joined.table)).seat == 1
        assert (await cat.join(joined.table)).seat == 2
        watch = await eve.join(joined.table, spectate=True)
        assert watch.seat is None and watch.token is None
        await ann.add_bot(3)
        await bob.ready()
        await cat.ready()
        await ann.start()
        results = await asyncio.gather(
            drive(ann, RandomBot(1)), drive(bob, RandomBot(2)), drive(cat, RandomBot(3))
        )
        final = await eve.wait_for(lambda m: is_update(m) and m["table"]["phase"] == "over")
        assert results[0] is not None and results[0] == results[1] == results[2]
        assert results[0]["winners"] == final["view"]["winners"]
        assert host.tables[joined.table].game is not None
        assert host.tables[joined.table].game.result == results[0]
        assert final["legal"] == []

        # A seat's token reaches only the connection that holds the seat.
        tokens = {0: joined.token, 1: bob.joined.token if bob.joined else None}
        assert all(tokens.values())
        for seat, frames in [(0, ann.raw_frames), (1, bob.raw_frames), (2, cat.raw_frames),
                             (None, eve.raw_frames)]:
            blob = b"".join(frames)
            for owner, token in tokens.items():
                assert token is not None
                assert (token.encode() in blob) == (owner == seat)
        checked = check_getout_secrecy(
            {0: ann.raw_frames, 1: bob.raw_frames, 2: cat.raw_frames}, eve.raw_frames
        )
        assert checked > 30

        # Back to the lobby for another game.
        await ann.to_lobby()
        lobby = await bob.wait_for(lambda m: is_update(m) and m["table"]["phase"] == "lobby")
        assert lobby["view"] is None and lobby["table"]["seats"][1]["ready"] is False


def test_the_secrecy_check_catches_a_leak() -> None:
    """The check above fails when a frame carries another seat's card."""
    import msgpack

    card = {"id": 7, "image": "kevin", "value": 3, "wild": False}
    spectator = msgpack.packb({"type": "update", "seat": None, "legal": [], "view": {
        "seat": None, "version": 1}})
    mine = {"seat": 0, "version": 1, "hand": [{"id": 1, "image": "geoff", "value": 2,
                                                "wild": False}]}
    honest = msgpack.packb({"type": "update", "seat": 0, "legal": [], "view": mine})
    assert check_getout_secrecy({0: [honest]}, [spectator]) == 1
    leaky = msgpack.packb({"type": "update", "seat": 0, "legal": [], "view": mine,
                           "events": [{"type": "peek", "card": card}]})
    with pytest.raises(AssertionError, match="saw cards"):
        check_getout_secrecy({0: [leaky]}, [spectator])
    with pytest.raises(AssertionError):
        check_getout_secrecy({}, [msgpack.packb({"type": "update", "view": mine})])
    with pytest.raises(AssertionError):
        check_getout_secrecy({0: [msgpack.packb({"type": "x", "seed": 4})]}, [])


async def test_whole_game_all_humans_single_round() -> None:
    async with running_host() as host, clients(host) as made:
        players = [await made.new(f"P{i}") for i in range(3)]
        joined = await players[0].create_table("T", "getout", 3, {"match": False})
        for c in players[1:]:
            await c.join(joined.table)
            await c.ready()
        await players[0].start()
        results = await asyncio.gather(
            *(drive(c, RandomBot(10 + i)) for i, c in enumerate(players))
        )
        assert results[0] is not None and results[0]["rounds"] == 1
        assert all(r == results[0] for r in results)


async def ann_and_bob_in_play(made: Clients) -> tuple[Client, Client, Joined, Joined]:
    """Ann's table of three (Ann first, one round), Bob at seat 1, a bot at seat 2, started."""
    ann = await made.new("Ann")
    bob = await made.new("Bob")
    joined = await ann.create_table("T", "getout", 3, {"first": 0, "match": False})
    bob_seat = await bob.join(joined.table)
    await ann.add_bot(2)
    await bob.ready()
    await ann.start()
    return ann, bob, joined, bob_seat


async def test_a_player_who_leaves_a_game_in_play_is_told_apart_from_a_lost_connection(
) -> None:
    """Leaving on purpose says so ("left the table"), and the seat waits all the same."""
    async with running_host() as host, clients(host) as made:
        ann, bob, joined, bob_seat = await ann_and_bob_in_play(made)
        await ann.wait_for(lambda m: is_update(m) and m["legal"])
        await bob.leave()
        gone = await ann.wait_for(lambda m: is_update(m) and m["notices"])
        assert gone["notices"] == [{"type": "stepped_away", "seat": 1}]
        assert gone["table"]["seats"][1]["kind"] == "human"
        assert gone["table"]["seats"][1]["connected"] is False
        back = await made.new("Bob again")
        again = await back.join(joined.table, seat=1, token=bob_seat.token)
        assert again == Joined(joined.table, 1, bob_seat.token)


async def test_a_dropped_client_reconnects_by_token_mid_game_and_continues() -> None:
    async with running_host() as host, clients(host) as made:
        ann, bob, joined, bob_seat = await ann_and_bob_in_play(made)
        first = await ann.wait_for(lambda m: is_update(m) and m["legal"])
        await ann.act(first["legal"][0])
        mid = await bob.wait_for(lambda m: in_play(m) and m["view"]["turn"] == 1)
        assert mid["legal"], "it is Bob's turn"
        hand_before = mid["view"]["hand"]

        bob.abort()  # the cable is pulled
        gone = await ann.wait_for(lambda m: is_update(m) and m["notices"])
        assert gone["notices"] == [{"type": "disconnected", "seat": 1}]
        assert gone["table"]["seats"][1]["connected"] is False
        assert gone["table"]["seats"][1]["kind"] == "human"

        back = await made.new("Bob again")
        again = await back.join(joined.table, seat=1, token=bob_seat.token)
        assert again == Joined(joined.table, 1, bob_seat.token)
        now = await back.wait_for(is_update)
        assert now["seat"] == 1 and now["view"]["hand"] == hand_before
        assert now["view"]["version"] == mid["view"]["version"] and now["legal"]
        seen = await ann.wait_for(lambda m: is_update(m) and m["notices"])
        # Back under another name: the others are told the one they knew.
        assert seen["notices"][0] == {"type": "reconnected", "seat": 1, "name": "Bob again",
                                      "was": "Bob"}
        assert seen["table"]["seats"][1]["connected"] is True

        results = await asyncio.gather(drive(ann, RandomBot(4)), drive(back, RandomBot(5)))
        assert results[0] is not None and results[0] == results[1]


async def test_wrong_or_another_seats_token_is_refused_and_changes_nothing() -> None:
    async with running_host() as host, clients(host) as made:
        ann = await made.new("Ann")
        bob = await made.new("Bob")
        joined = await ann.create_table("T", "getout", 3)
        bob_seat = await bob.join(joined.table)
        await ann.add_bot(2)
        await bob.ready()
        await ann.start()
        await bob.wait_for(in_play)
        before = host.tables[joined.table].public()

        mallory = await made.new("Mallory")
        for seat, token in [
            (1, "not-a-token"),
            (1, joined.token),  # Ann's token for Bob's seat
            (0, bob_seat.token),  # Bob's token for Ann's seat
            (2, bob_seat.token),  # the bot's seat
            (1, None),
        ]:
            with pytest.raises(ServerError) as info:
                if token is None:
                    await mallory.join(joined.table, seat=1)
                else:
                    await mallory.join(joined.table, seat=seat, token=token)
            assert info.value.code in {errors.BAD_TOKEN, errors.WRONG_PHASE}
        with pytest.raises(ServerError) as info:
            await mallory.request("join", table=joined.table, token=bob_seat.token)
        assert info.value.code == errors.BAD_TOKEN
        with pytest.raises(ServerError) as info:
            await mallory.act({"type": "draw"})
        assert info.value.code == errors.NO_TABLE
        assert host.tables[joined.table].public() == before
        # Ann and Bob are still connected and in their seats.
        await ann.ping()
        await bob.ping()
        assert host.tables[joined.table].seats[1].conn is not None


async def test_reconnecting_while_the_old_connection_lingers_replaces_it() -> None:
    async with running_host() as host, clients(host) as made:
        ann = await made.new("Ann")
        joined = await ann.create_table("T", "getout", 2)
        ann2 = await made.new("Ann")
        assert await ann2.join(joined.table, seat=0, token=joined.token) == joined
        err = await ann.wait_for(lambda m: m["type"] == "error")
        assert err["code"] == errors.REPLACED
        assert host.tables[joined.table].seats[0].conn is not None
        await ann2.chat("it is me")


async def test_a_client_cannot_act_for_another_seat() -> None:
    async with running_host() as host, clients(host) as made:
        ann, bob, joined = await made.playing({"first": 0})
        anns = await ann.wait_for(lambda m: is_update(m) and m["legal"])
        bobs = await bob.wait_for(in_play)
        assert bobs["legal"] == []
        version = anns["view"]["version"]
        game = host.tables[joined.table].game
        assert game is not None

        # Bob sends Ann's legal move: it is judged as Bob's, so it is refused.
        with pytest.raises(ServerError) as info:
            await bob.act(anns["legal"][0])
        assert info.value.code == errors.ILLEGAL_ACTION and "turn" in info.value.message
        # Naming a seat is not part of the protocol at all.
        with pytest.raises(ServerError) as info:
            await bob.request("act", action=anns["legal"][0], seat=0)
        assert info.value.code == errors.BAD_MESSAGE
        with pytest.raises(ServerError) as info:
            await bob.act({**anns["legal"][0], "seat": 0})
        assert info.value.code == errors.ILLEGAL_ACTION
        assert game.version == version
        # Bob cannot play a card he does not hold even on his turn.
        await ann.act(anns["legal"][0])
        mine = await bob.wait_for(lambda m: is_update(m) and m["legal"])
        own = {c["id"] for c in mine["view"]["hand"]}
        foreign = next(c for c in anns["view"]["hand"] if c["id"] not in own)
        with pytest.raises(ServerError) as info:
            await bob.act({"type": "play", "card": foreign["id"]})
        assert info.value.code == errors.ILLEGAL_ACTION
        assert "not in your hand" in info.value.message
        assert game.version == version + 1


async def test_an_actions_ok_comes_after_the_actors_new_view() -> None:
    # The protocol: by the time a client sees its ok, the new state has arrived.
    async with running_host() as host, clients(host) as made:
        ann = await made.new("Ann")
        bob = await made.new("Bob", record=True)
        joined = await ann.create_table("T", "getout", 2, {"first": 1})
        await bob.join(joined.table)
        await bob.ready()
        await ann.start()
        bobs = await bob.wait_for(lambda m: is_update(m) and m["legal"])
        version = bobs["view"]["version"]
        await bob.act(bobs["legal"][0])
        assert bob.latest is not None and bob.latest["view"]["version"] == version + 1
        kinds = [decode(body)["type"] for body in bob.raw_frames]
        assert kinds[-2:] == ["update", "ok"]


async def test_local_in_process_host_needs_no_network() -> None:
    from net.host import Host

    async with Host("solo", bot_delay=0) as host:
        assert host.server is None
        me = await Client.local(host, name="Me", record_frames=True)
        joined = await me.create_table("Solo", "getout", 3, {"match": False})
        await me.add_bot(1)
        await me.add_bot(2)
        await me.start()
        result = await drive(me, RandomBot(9))
        assert result is not None and result["rounds"] == 1
        assert all(decode(b)["type"] != "error" for b in me.raw_frames)
        assert joined.seat == 0
        await me.close()


# --------------------------------------------------------------------------- timed games


class Timed(Game):
    """A tiny timed game: it ends on its own once 0.3 s of engine time have passed."""

    LIMIT = 0.3

    def __init__(self, seats: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(seats, seed, options)
        self.finished = False

    def _phase(self) -> str:
        return "over" if self.finished else "waiting"

    def _turn(self) -> int | None:
        return None

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {} if self.finished else {"deadline": self.LIMIT}

    def _legal(self, seat: int) -> list[dict[str, Any]]:
        return [] if self.finished else [{"type": "wait"}]

    def _act(self, seat: int, action: dict[str, Any], now: float) -> list[dict[str, Any]]:
        raise IllegalAction("nothing to do but wait")

    @property
    def deadline(self) -> float | None:  # type: ignore[override]
        return None if self.finished else self.LIMIT

    def _advance(self, now: float) -> list[dict[str, Any]]:
        if not self.finished and now >= self.LIMIT:
            self.finished = True
            return [{"type": "time_up"}]
        return []

    def _dump(self) -> Any:
        return {"finished": self.finished}

    def _load(self, state: Any) -> None:
        self.finished = state["finished"]

    @property
    def over(self) -> bool:
        return self.finished

    @property
    def result(self) -> dict[str, Any] | None:
        return {"won": False} if self.finished else None


Timed.spec = GameSpec("timed", "Timed", 1, 4, (), Timed)


async def test_timed_game_sends_remaining_seconds_and_wakes_at_the_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(engine.GAMES, "timed", Timed.spec)
    clock = ManualClock()
    async with running_host(clock=clock) as host, clients(host) as made:
        ann = await made.new("Ann", record=True)
        await ann.create_table("T", "timed", 1)
        await ann.start()
        started = await ann.wait_for(in_play)
        assert "deadline" not in started["view"]
        assert 0 < started["view"]["remaining"] <= Timed.LIMIT
        # Nobody acts: the host's timer alone ends the game (the clock moves to it).
        deadline = clock.next_due()
        assert deadline is not None
        clock.advance_to(deadline)
        done = await ann.wait_for(lambda m: is_update(m) and m["events"], timeout=5)
        assert done["events"] == [{"type": "time_up"}]
        assert done["table"]["phase"] == "over" and ann.result == {"won": False}
        assert "remaining" not in done["view"]
        for body in ann.raw_frames:  # no reading of the host's clock crosses the wire
            assert "deadline" not in str(decode(body))
        for msg in replay(ann.raw_frames):
            assert "now" not in (msg.get("view") or {})


async def test_connect_by_address_string() -> None:
    from net.address import parse_address

    async with running_host() as host:
        h, port = parse_address(f"{LOCAL}:{host.port}")
        client = await Client.connect(h, port, name="A")
        assert client.welcome["host"] == "test host"
        await client.close()
    assert parse_address("[::1]:80") == ("::1", 80)
    assert parse_address("box", 4455) == ("box", 4455)
    assert parse_address("::1", 4455) == ("::1", 4455)  # a bare IPv6 address: no port
    assert parse_address("[fe80::1]", 4455) == ("fe80::1", 4455)
    for bad in ["box", "box:http", "box:0", ":80"]:
        with pytest.raises(ValueError):
            parse_address(bad)
    # Said in words, not passed on as a host name nobody has (a play test typed these).
    for bad, words in [("[::1", "does not close"), ("box:1:2", "brackets"),
                       ("[::1]x", "after its ]"), ("a]:3", "stray bracket"),
                       ("", "type an address"),
                       ("http://127.0.0.1:4455", "http:// link: type only host:port")]:
        with pytest.raises(ValueError, match=words):
            parse_address(bad, 4455)
    from net.address import show_address

    assert show_address("::1", 4455) == "[::1]:4455"
    assert show_address("box", 4455) == "box:4455"


async def test_an_engine_failure_is_reported_and_the_host_keeps_serving(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from engine.getout import GetOut

    def broken(self: GetOut, seat: int, action: dict[str, Any], now: float = 0.0) -> list[Any]:
        raise RuntimeError("engine bug")

    async with running_host() as host, clients(host) as made:
        ann = await made.new("Ann")
        joined = await ann.create_table("T", "getout", 2, {"first": 0})
        await ann.add_bot(1)
        await ann.start()
        first = await ann.wait_for(lambda m: in_play(m) and m["legal"])
        monkeypatch.setattr(GetOut, "act", broken)
        with pytest.raises(ServerError) as info:
            await ann.act(first["legal"][0])
        assert info.value.code == errors.INTERNAL
        await ann.ping()
        assert host.tables[joined.table].seats[0].conn is not None


#: Options that keep a game short in tests (games not listed play with their defaults).
SHORT: dict[str, dict[str, Any]] = {
    "getout": {"match": False},
    "getit": {"level": "X", "cards": 6, "timer": 2},
}


@pytest.mark.parametrize("game_id", sorted(engine.GAMES))
async def test_every_registered_game_plays_to_the_end_over_the_wire(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.bots import make_bot
    from net import fanout

    # Every view the host means each connection to hold, in order: what the client
    # rebuilds from the view changes on the wire must be exactly these.
    meant: dict[int, list[dict[str, Any]]] = {}
    frame_for = fanout.frame_for

    def recording(push: fanout.Push, seat: int | None, sent: fanout.Sent) -> bytes:
        frame = frame_for(push, seat, sent)
        if sent.view is not None:
            _game, _seat, shared, own = sent.view
            meant.setdefault(id(sent), []).append({**shared, **own})
        return frame

    monkeypatch.setattr(fanout, "frame_for", recording)

    if game_id != "getout" and isinstance(make_bot(game_id, 0, 0), RandomBot):
        pytest.skip(f"no bot plays {game_id} yet (a random player cannot finish it)")
    spec = engine.GAMES[game_id]
    seats = spec.min_seats
    humans = min(2, seats)
    # The host and the players' bots on one clock the test moves (Get It! is real-time).
    clock = ManualClock()
    async with running_host(seed=7, bot_factory=make_bot, clock=clock) as host, \
            clients(host) as made:
        players = [await made.new(f"P{i}", record=True) for i in range(humans)]
        watcher = await made.new("W", record=True)
        joined = await players[0].create_table("T", game_id, seats, SHORT.get(game_id))
        for c in players[1:]:
            await c.join(joined.table)
            await c.ready()
        for seat in range(humans, seats):
            await players[0].add_bot(seat)
        await watcher.join(joined.table, spectate=True)
        await players[0].start()
        results = await drive_on_clock(
            clock, [(c, make_bot(game_id, i, 20)) for i, c in enumerate(players)],
            watchers=[watcher])
        assert results[0] is not None and all(r == results[0] for r in results)
        final = await watcher.wait_for(lambda m: in_play(m) and m["table"]["phase"] == "over")
        assert final["view"]["seat"] is None and final["legal"] == []
        rebuilt: list[list[dict[str, Any]]] = []
        for seat, client in [*enumerate(players), (None, watcher)]:
            views = []
            for msg in replay(client.raw_frames):
                assert not keys_in(msg) & FORBIDDEN_KEYS, msg
                if msg["type"] == "update" and msg["view"] is not None:
                    assert msg["seat"] == msg["view"]["seat"] == seat
                    views.append(msg["view"])
                    if seat is None:
                        assert msg["legal"] == []
            rebuilt.append(views)
        # Each connection's views, rebuilt from the wire, are the host's, one for one
        # (values and types: packed alike); most came as changes only.
        assert sorted(map(len, rebuilt)) == sorted(map(len, meant.values()))
        for views in rebuilt:
            sent = next(m for m in meant.values() if len(m) == len(views)
                        and m[0]["seat"] == views[0]["seat"])
            assert [msgpack.packb(v) for v in views] == [msgpack.packb(v) for v in sent]
        changes = sum("view_changes" in decode(b) for c in (*players, watcher)
                      for b in c.raw_frames)
        assert changes > sum(map(len, rebuilt)) // 2


def arranged(hand: list[dict[str, Any]]) -> list[int]:
    """A legal Get It! pile order: numbers ascending on top, special cards below."""
    numbers = sorted((c for c in hand if c["kind"] == "number"), key=lambda c: c["value"])
    return [c["id"] for c in numbers] + [c["id"] for c in hand if c["kind"] != "number"]


async def test_get_it_round_is_ended_by_the_hosts_timer_with_time_as_seconds_left() -> None:
    if "getit" not in engine.GAMES:
        pytest.skip("the Get It! engine is not merged here")
    clock = ManualClock()
    async with running_host(clock=clock) as host, clients(host) as made:
        players = [await made.new(f"P{i}", record=True) for i in range(3)]
        joined = await players[0].create_table(
            "T", "getit", 3, {"level": "X", "cards": 6, "timer": 1}
        )
        for c in players[1:]:
            await c.join(joined.table)
            await c.ready()
        await players[0].start()
        for c in players:
            prep = await c.wait_for(lambda m: in_play(m) and m["legal"])
            assert prep["view"]["remaining"] is None  # no clock runs while preparing
            await c.act({"type": "arrange", "pile": arranged(prep["view"]["hand"])})
        running = await players[0].wait_for(
            lambda m: in_play(m) and m["view"]["remaining"] is not None
        )
        assert 0 < running["view"]["remaining"] <= 1
        started = [e for e in running["events"] if e["type"] == "round_started"]
        assert started and 0 < started[0]["remaining"] <= 1
        # Nobody plays: the host wakes at the deadline by itself and ends the round (its
        # one timer is the round's; the clock moves straight to it).
        deadline = clock.next_due()
        assert deadline is not None
        clock.advance_to(deadline)
        for c in players:
            over = await c.wait_for(lambda m: in_play(m) and m["table"]["phase"] == "over")
            assert any(e.get("reason") == "time" for e in over["events"])
            assert over["legal"] == [] and c.result is not None and c.result["won"] is False
            for body in c.raw_frames:
                assert "deadline" not in keys_in(decode(body))


async def test_bot_clients_finish_even_when_the_host_throttles_them(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="hiddenhand.host")
    async with running_host() as host, clients(host) as made:
        ann = await made.new("Ann")
        bob = await made.new("Bob")
        joined = await ann.create_table("T", "getout", 2, {"match": False})
        await bob.join(joined.table)
        await bob.ready()
        host.rate, host.burst = 2000, 2  # far below the pace of two bots on one machine
        await ann.start()
        results = await asyncio.gather(drive(ann, RandomBot(1)), drive(bob, RandomBot(2)))
        assert results[0] is not None and results[0] == results[1]
    assert "sends too fast" in caplog.text


async def test_bots_leave_the_next_round_to_the_people_at_the_table() -> None:
    from engine.bots import make_bot
    from engine.testing import stack_getout

    async with running_host(bot_factory=make_bot) as host, clients(host) as made:
        ann = await made.new("Ann")
        joined = await ann.create_table("T", "getout", 2, {"first": 0})
        await ann.add_bot(1)
        await ann.start()
        await ann.wait_for(lambda m: in_play(m) and m["legal"])
        table = host.tables[joined.table]
        assert table.game is not None
        stack_getout(table.game, [["kevin 1"], ["geoff 12"]], played=["kevin 8"], turn=0)
        card = next(c for c in table.game.hands[0])
        await ann.act({"type": "play", "card": card})
        over = await ann.wait_for(lambda m: in_play(m) and m["view"]["phase"] == "round_over")
        assert over["legal"] == [{"type": "next_round"}]
        host.deliver(table, table.move_bots(host.clock()))  # it may move, but must not deal
        assert table.game.view(None)["phase"] == "round_over"
        await ann.act({"type": "next_round"})
        again = await ann.wait_for(lambda m: in_play(m) and m["view"]["phase"] == "play")
        assert again["view"]["round"] == 2


async def test_get_it_bots_run_by_the_host_and_by_a_client_clear_a_round_together() -> None:
    """Real-time bots: two in the host (asked on every change and when they ask), one
    playing a client's seat through ``drive``; together they clear a Level X round."""
    from engine.bots import GetItBot

    def fast_bot(game_id: str, seat: int, seed: int) -> GetItBot:
        return GetItBot(seed, reaction=0.05, jitter=0.02)

    # The host and the client's bot on one clock the test moves: the round's time
    # passes where something is due, in no wall time.
    clock = ManualClock()
    async with running_host(bot_factory=fast_bot, clock=clock) as host, \
            clients(host) as made:
        ann = await made.new("Ann")
        joined = await ann.create_table(
            "T", "getit", 3, {"level": "X", "cards": 9, "timer": 60}
        )
        await ann.add_bot(1)
        await ann.add_bot(2)
        await ann.start()
        (result,) = await drive_on_clock(clock, [(ann, fast_bot("getit", 0, 5))])
        assert result is not None
        assert result["won"] is True and result["cards"] == 9
        assert host.tables[joined.table].phase == "over"


class _Transport:
    """A transport that keeps what is written (a connection with no socket)."""

    def __init__(self) -> None:
        self.frames: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.frames.append(data)

    def get_write_buffer_size(self) -> int:
        return 0

    def is_closing(self) -> bool:
        return False

    def set_write_buffer_limits(self, high: int | None = None) -> None:
        pass


class _Writer:
    def __init__(self) -> None:
        self.transport = _Transport()

    def get_extra_info(self, key: str) -> None:
        return None


async def test_each_connection_gets_the_changes_since_its_own_last_view() -> None:
    """A push compares the part of the views every seat shares once for all the
    connections that were sent the same view before; one that skipped pushes, and one
    that watches from the start, still get exactly what rebuilds their own views."""
    from net import lobby
    from net.connection import Connection
    from net.fanout import Outbox, frame_for

    async with running_host(seed=3) as host:
        table = host.create_table("T", "getout", 3)
        conns = []
        for i in range(3):
            conn = Connection(None, _Writer(), host.clock(), 1000)  # type: ignore[arg-type]
            conn.name = f"P{i}"
            host.deliver(table, lobby.sit(table, conn, i, host.clock())[1])
            table.seats[i].ready = True
            conns.append(conn)
        watcher = Connection(None, _Writer(), host.clock(), 1000)  # type: ignore[arg-type]
        host.deliver(table, lobby.watch(table, watcher, host.clock()))
        host.deliver(table, table.start(host.clock()))
        game = table.game
        assert game is not None
        audience: list[tuple[Connection, int | None]] = [*zip(conns, range(3), strict=True),
                                                         (watcher, None)]
        # Each was sent its whole first view as the game started.
        held = {conn.id: codec.unpack_body(conn.transport.frames[-1][framing.HEADER.size:])["view"]
                for conn, _seat in audience}
        kinds: list[str] = []
        rng = random.Random(4)
        for step in range(80):
            out = Outbox()
            table.push(out, host.clock())
            (push,) = out.pushes
            for conn, seat in audience:
                if seat == 1 and step % 3:
                    continue  # this one was congested: it skips two pushes in three
                msg = codec.unpack_body(frame_for(push, seat, conn.sent)[framing.HEADER.size:])
                if "view_changes" in msg:
                    kinds.append("changes")
                    view = codec.apply_view_changes(held[conn.id], msg["view_changes"])
                else:
                    kinds.append("whole")
                    view = msg["view"]
                meant = game.view(seat)
                assert view == meant
                assert msgpack.packb({k: view[k] for k in meant}) == msgpack.packb(meant)
                held[conn.id] = view
            if game.over:
                break
            mover = next(s for s in range(3) if game.legal_actions(s))
            game.act(mover, rng.choice(game.legal_actions(mover)), game.now)
        assert kinds.count("whole") == 0  # changes only, after the first
        assert len(kinds) > 200

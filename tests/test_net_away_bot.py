"""A bot keeps an away player's seat warm (table option ``away_bot``), on the host's clock."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.record import Replay, check_record
from net.client import ServerError
from net.clock import ManualClock
from tests.net_support import clients, running_host
from tui.review import steps


def notice(kind: str) -> Any:
    """A predicate: an update carrying a notice of type ``kind``."""
    return lambda m: m["type"] == "update" and any(n["type"] == kind for n in m["notices"])


def moved(seat: int) -> Any:
    """A predicate: an update with an event of ``seat`` playing or drawing."""
    return lambda m: m["type"] == "update" and any(
        e.get("seat") == seat and e["type"] in ("played", "drew", "passed") for e in m["events"])


async def test_a_bot_plays_for_a_player_away_too_long_and_leaves_when_they_are_back() -> None:
    clock = ManualClock(100.0)
    async with running_host(clock=clock) as host, clients(host) as made:
        ann = await made.new("Ann")
        bob = await made.new("Bob")
        joined = await ann.create_table("T", "getout", 2,
                                        {"first": 1, "match": False, "away_bot": "30s"})
        bob_seat = await bob.join(joined.table)
        await bob.ready()
        await ann.start()
        first = await bob.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
        assert first["view"]["turn"] == 1  # Bob's move
        table = host.tables[joined.table]

        bob.abort()  # Bob's laptop goes to sleep mid-round, on his turn
        await ann.wait_for(notice("disconnected"))
        clock.advance(29.0)
        await ann.ping()
        assert table.seats[1].kind == "human" and table.game.turn == 1  # still waiting

        clock.advance(1.0)  # away for 30 s: a bot plays for him
        told = await ann.wait_for(notice("stand_in"))
        assert {"type": "stand_in", "seat": 1, "bot": "Bot 2", "name": "Bob"} in told["notices"]
        assert told["table"]["seats"][1] == {"seat": 1, "kind": "bot", "name": "Bot 2",
                                             "connected": True, "ready": True, "for": "Bob"}
        # The game goes on: the bot moves for Bob, then Ann, then the bot again.
        turn = await ann.wait_for(lambda m: moved(1)(m) and m["legal"])
        await ann.act(turn["legal"][0])
        await ann.wait_for(moved(1))

        back = await made.new("Bob")
        await back.join(joined.table, seat=1, token=bob_seat.token)
        seen = await ann.wait_for(notice("reconnected"))
        assert seen["table"]["seats"][1] == {"seat": 1, "kind": "human", "name": "Bob",
                                             "connected": True, "ready": False}
        assert table.seats[1].bot is None  # the bot left at once
        # What Bob finds in the table's log: the bot standing in, and its moves for him.
        past = [n for entry in back.past for n in entry.get("notices", [])]
        assert {"type": "stand_in", "seat": 1, "bot": "Bot 2", "name": "Bob"} in past
        bot_moves = [e for entry in back.past for e in entry.get("events", [])
                     if e.get("seat") == 1 and e["type"] in ("played", "drew", "passed")]
        assert len(bot_moves) >= 2

        # Bob has his seat: it is his to move now, and no bot moves for him.
        if table.game.turn == 0:
            await ann.act(table.game.legal_actions(0)[0])
        if not table.game.over:
            own = await back.wait_for(lambda m: m["type"] == "update" and m["legal"])
            assert own["view"]["turn"] == 1
            await back.act(own["legal"][0])
            await back.wait_for(moved(1))

            # The game's record names the bot's moves as the bot's, and Bob's as his
            # (Past games said "Bob played …" of every one).
            record = check_record(json.loads(json.dumps(table.record())))
            lines = [s for s in steps(record, Replay(record)) if s.seat == 1]
            first_bot = next(i for i, s in enumerate(lines) if "Bot 2" in s.text)
            assert lines[first_bot].text.startswith(
                "Bot 2 plays for Bob until they are back · Bot 2 ")
            assert all(s.text.startswith("Bob ") for s in lines[:first_bot])
            back_at = next(i for i, s in enumerate(lines) if s.text.startswith("Bob is back"))
            assert back_at - first_bot >= 2  # (two moves at least, as above)
            assert all(s.text.startswith("Bot 2 ") for s in lines[first_bot + 1:back_at])
            assert lines[back_at].text.startswith("Bob is back · Bob ")
            assert table.tape.person_moved()
            # A file of it, from a friend, is taken (who moved for the seat is checked).
            from pathlib import Path

            from net.gamefiles import played

            assert played(Path("game.hhgame"), record)["seated"] == record["seated"]


async def test_no_bot_stands_in_while_the_option_is_off() -> None:
    clock = ManualClock(100.0)
    async with running_host(clock=clock) as host, clients(host) as made:
        ann = await made.new("Ann")
        bob = await made.new("Bob")
        joined = await ann.create_table("T", "getout", 2, {"first": 1, "match": False})
        await bob.join(joined.table)
        await bob.ready()
        await ann.start()
        await bob.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
        bob.abort()
        await ann.wait_for(notice("disconnected"))
        clock.advance(3600.0)
        await ann.ping()
        table = host.tables[joined.table]
        assert table.seats[1].kind == "human" and table.game.turn == 1


async def _getit_round(host: Any, made: Any, clock: ManualClock,
                       options: dict[str, Any]) -> tuple[Any, ...]:
    """Ann and Bob (and a bot) in a running Get It! round (their piles arranged as
    dealt)."""
    ann, bob, joined, bob_seat = await made.getit_dealt({"timer": 60, **options})
    for client in (ann, bob):
        dealt = await client.wait_for(lambda m: m["type"] == "update" and m["legal"])
        await client.act({"type": "arrange", "pile": [c["id"] for c in dealt["view"]["hand"]]})
    game = host.tables[joined.table].game
    for _ in range(100):  # (the bot arranges in its own time)
        if game.deadline is not None:
            break
        clock.advance(0.5)
        await ann.ping()
    assert game.deadline is not None, "the round never started"
    return ann, bob, joined, bob_seat


async def test_a_get_it_round_s_clock_stands_still_while_a_player_is_away() -> None:
    """Bob's laptop slept mid-round and the sand ran on: his cards could not be played,
    and the round was lost for everyone (a fresh-eyed pass of a LAN table)."""
    clock = ManualClock(100.0)
    async with running_host(clock=clock) as host, clients(host) as made:
        ann, bob, joined, bob_seat = await _getit_round(host, made, clock, {"away_bot": "2m"})
        table = host.tables[joined.table]
        clock.advance(10.0)
        left = table.game.deadline - table.elapsed(clock.now())

        bob.abort()
        told = await ann.wait_for(notice("paused"))
        assert {"type": "paused", "waiting": [1], "away": True, "bot_after": 120.0} in (
            told["notices"])
        assert told["table"]["paused"] is True
        clock.advance(100.0)  # past the round's end, had its clock run on
        await ann.ping()
        assert not table.game.over and table.game.deadline - table.elapsed(clock.now()) == left
        with pytest.raises(ServerError, match="paused until everyone is back; waiting "
                           "for Bob"):
            await ann.act({"type": "look", "target": 1})

        back = await made.new("Bob")
        await back.join(joined.table, seat=1, token=bob_seat.token)
        await ann.wait_for(notice("resumed"))
        assert not table.paused and table.game.deadline - table.elapsed(clock.now()) == left
        clock.advance(1.0)
        assert table.game.deadline - table.elapsed(clock.now()) == left - 1.0


async def test_a_bot_standing_in_lets_a_paused_round_run_on() -> None:
    clock = ManualClock(100.0)
    async with running_host(clock=clock) as host, clients(host) as made:
        ann, bob, joined, _ = await _getit_round(host, made, clock, {"away_bot": "30s"})
        table = host.tables[joined.table]
        bob.abort()
        await ann.wait_for(notice("paused"))
        clock.advance(30.0)
        await ann.wait_for(notice("resumed"))
        assert table.seats[1].kind == "bot" and not table.paused


async def test_a_get_it_round_dealt_while_a_player_is_away_starts_paused() -> None:
    """Bob left as the piles were arranged: the round started with its clock running
    and ran 29 s before the away bot came (a fresh-eyed pass)."""
    clock = ManualClock(100.0)
    async with running_host(clock=clock) as host, clients(host) as made:
        ann, bob, joined, _ = await made.getit_dealt({"timer": 60, "away_bot": "30s"})
        table = host.tables[joined.table]
        for client in (bob, ann):
            dealt = await client.wait_for(lambda m: m["type"] == "update" and m["legal"])
            await client.act({"type": "arrange",
                              "pile": [c["id"] for c in dealt["view"]["hand"]]})
        await bob.leave()  # done arranging, then away
        for _ in range(100):  # (the bot arranges in its own time)
            if table.game.deadline is not None:
                break
            clock.advance(0.5)
            await ann.ping()
        told = await ann.wait_for(notice("paused"))
        assert {"type": "paused", "waiting": [1], "away": True, "bot_after": 30.0} in (
            told["notices"])
        left = table.game.deadline - table.elapsed(clock.now())
        assert left == 60.0 and table.paused

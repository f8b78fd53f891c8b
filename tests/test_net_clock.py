"""The host's clock (``net.clock``): a manual one runs what falls due in time order, and a
host on it ends a Get It! round exactly when its time passes the deadline."""

from __future__ import annotations

import asyncio
import itertools
import time
from typing import Any

import pytest

from net.client import Client
from net.clock import LoopClock, ManualClock
from net.host import Host


def test_callbacks_run_in_time_order_each_at_its_own_time() -> None:
    clock = ManualClock(10.0)
    ran: list[tuple[str, float]] = []
    for name, when in [("c", 13.0), ("a", 11.0), ("b1", 12.0), ("b2", 12.0)]:
        clock.call_at(when, lambda n: ran.append((n, clock.now())), name)
    assert clock.next_due() == 11.0
    clock.advance(1.5)
    assert ran == [("a", 11.0)] and clock.now() == 11.5
    clock.advance_to(20.0)
    # The same time: in the order they were set.
    assert ran == [("a", 11.0), ("b1", 12.0), ("b2", 12.0), ("c", 13.0)]
    assert clock.now() == 20.0 and clock.next_due() is None


def test_a_cancelled_callback_never_runs() -> None:
    clock = ManualClock()
    ran: list[str] = []
    first = clock.call_at(1.0, ran.append, "first")
    clock.call_at(2.0, ran.append, "second")
    first.cancel()
    assert first.cancelled() and clock.next_due() == 2.0
    clock.advance(5)
    assert ran == ["second"]
    first.cancel()  # harmless once its time is gone
    assert clock.next_due() is None


def test_a_step_runs_what_callbacks_set_within_it_and_nothing_beyond() -> None:
    clock = ManualClock()
    ran: list[tuple[str, float]] = []

    def chain(n: int) -> None:
        ran.append((f"link {n}", clock.now()))
        clock.call_at(clock.now() + 1.0, chain, n + 1)

    def at_once() -> None:
        ran.append(("due at once", clock.now()))

    def setter() -> None:
        ran.append(("setter", clock.now()))
        clock.call_at(clock.now(), at_once)  # due now: runs in this step, at this time

    clock.call_at(0.5, chain, 1)
    clock.call_at(1.2, setter)
    clock.advance(3.0)
    assert ran == [("link 1", 0.5), ("setter", 1.2), ("due at once", 1.2),
                   ("link 2", 1.5), ("link 3", 2.5)]
    assert clock.next_due() == 3.5


def test_time_never_goes_backwards() -> None:
    clock = ManualClock(5.0)
    with pytest.raises(ValueError, match="backwards"):
        clock.advance_to(4.0)
    with pytest.raises(ValueError, match="backwards"):
        clock.advance(-1)
    assert clock.now() == 5.0


def test_without_an_event_loop_a_callback_due_now_waits_for_the_next_step() -> None:
    clock = ManualClock(3.0)
    ran: list[float] = []
    clock.call_at(2.0, lambda: ran.append(clock.now()))
    assert ran == [] and clock.next_due() == 2.0
    clock.advance(0)
    assert ran == [3.0]


async def test_with_an_event_loop_a_callback_due_now_runs_without_a_step() -> None:
    clock = ManualClock(3.0)
    done = asyncio.Event()
    seen: list[float] = []

    def due() -> None:
        seen.append(clock.now())
        done.set()

    clock.call_at(3.0, due)
    clock.call_at(4.0, seen.append, -1.0)  # in the future: only a step runs it
    await asyncio.wait_for(done.wait(), 5)
    assert seen == [3.0] and clock.now() == 3.0 and clock.next_due() == 4.0


async def test_the_loop_clock_is_the_event_loops() -> None:
    loop = asyncio.get_running_loop()
    clock = LoopClock()
    before = loop.time()
    assert before <= clock.now() <= loop.time()
    fired: asyncio.Future[float] = loop.create_future()
    when = clock.now() + 0.01
    clock.call_at(when, lambda: fired.set_result(loop.time()))
    cancelled = clock.call_at(clock.now() - 1, fired.set_result, -1.0)
    cancelled.cancel()
    # asyncio may fire a timer up to its clock's resolution early.
    assert await asyncio.wait_for(fired, 5) >= when - time.get_clock_info("monotonic").resolution


def in_play(msg: dict[str, Any]) -> bool:
    return msg["type"] == "update" and msg["view"] is not None


def arranged(hand: list[dict[str, Any]]) -> list[int]:
    """A legal Get It! pile order: numbers ascending on top, special cards below."""
    numbers = sorted((c for c in hand if c["kind"] == "number"), key=lambda c: c["value"])
    return [c["id"] for c in numbers] + [c["id"] for c in hand if c["kind"] != "number"]


async def test_a_get_it_round_times_out_exactly_when_the_clock_passes_its_deadline() -> None:
    clock = ManualClock(1000.0)
    async with Host("clocked", bot_delay=0, clock=clock) as host:
        players = [await Client.local(host, name=f"P{i}") for i in range(3)]
        joined = await players[0].create_table(
            "T", "getit", 3, {"level": "X", "cards": 6, "timer": 5})
        for c in players[1:]:
            await c.join(joined.table)
            await c.ready()
        await players[0].start()
        for c in players:
            prep = await c.wait_for(lambda m: in_play(m) and m["legal"])
            await c.act({"type": "arrange", "pile": arranged(prep["view"]["hand"])})
        running = await players[0].wait_for(
            lambda m: in_play(m) and m["view"]["remaining"] is not None)
        # Time stood still since the deal: the whole timer is left, and the host's one
        # timer is set at the deadline.
        assert running["view"]["remaining"] == 5
        deadline = clock.now() + 5
        assert clock.next_due() == deadline
        table = host.tables[joined.table]
        clock.advance_to(deadline - 1e-6)
        for c in players:
            await c.ping()  # every update the host sent so far has arrived
        assert table.phase == "play" and table.game is not None and not table.game.over
        assert all(c.latest is not None and c.latest["table"]["phase"] == "play"
                   for c in players)
        clock.advance_to(deadline)
        assert table.phase == "over"
        for c in players:
            over = await c.wait_for(lambda m: in_play(m) and m["table"]["phase"] == "over")
            assert any(e.get("reason") == "time" for e in over["events"])
            assert c.result is not None and c.result["won"] is False
            await c.close()


async def test_a_table_nobody_is_at_closes_when_the_clock_says_so() -> None:
    clock = ManualClock()
    async with Host("clocked", clock=clock) as host:
        ann = await Client.local(host, name="Ann")
        joined = await ann.create_table("T", "getout", 2)
        await ann.close()
        # The host hears the connection end (no clock moves for that).
        async with asyncio.timeout(5):
            while host.connections:
                await asyncio.sleep(0)
        assert joined.table in host.tables
        wait = host.limits.empty_table_timeout
        assert clock.next_due() == wait
        clock.advance(wait - 1e-6)
        assert joined.table in host.tables
        clock.advance(1e-6)
        assert joined.table not in host.tables


class Waiter:
    """A real-time bot that never moves and asks to be woken ``every`` seconds on."""

    def __init__(self, every: float) -> None:
        self.every = every
        self.asked: list[float] = []
        self.changed = asyncio.Event()

    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> None:
        return None

    def step(self, view: dict[str, Any], legal: list[dict[str, Any]],
             now: float) -> tuple[None, float]:
        self.asked.append(now)
        self.changed.set()
        return None, now + self.every

    async def asked_times(self, n: int) -> list[float]:
        """Once it was asked ``n`` times: when."""
        async with asyncio.timeout(5):
            while len(self.asked) < n:
                self.changed.clear()
                await self.changed.wait()
        return self.asked


@pytest.mark.parametrize("manual", [False, True], ids=["loop clock", "manual clock"])
async def test_drive_asks_a_real_time_bot_again_at_the_time_it_names(manual: bool) -> None:
    from net.autoplay import drive

    clock = ManualClock(50.0) if manual else None
    async with Host("clocked", clock=clock) as host:
        people = [await Client.local(host, name=f"P{i}") for i in range(3)]
        joined = await people[0].create_table("T", "getit", 3,
                                              {"level": "X", "cards": 6, "timer": 0})
        for c in people[1:]:
            await c.join(joined.table)
            await c.ready()
        await people[0].start()
        await people[0].wait_for(lambda m: in_play(m) and m["legal"])
        bot = Waiter(0.25 if manual else 0.05)  # (0.25 s adds exactly on a float)
        # Nobody else moves: after the first view the bot is asked only when it said.
        playing = asyncio.ensure_future(drive(people[0], bot, clock=clock))
        try:
            if clock is None:
                asked = await bot.asked_times(3)
                resolution = time.get_clock_info("monotonic").resolution
                assert all(b - a >= 0.05 - resolution for a, b in itertools.pairwise(asked))
            else:
                assert await bot.asked_times(1) == [50.0]
                assert clock.next_due() == 50.25
                clock.advance_to(50.25)
                assert await bot.asked_times(2) == [50.0, 50.25]
                clock.advance(0.25)
                assert await bot.asked_times(3) == [50.0, 50.25, 50.5]
        finally:
            playing.cancel()
        for c in people:
            await c.close()

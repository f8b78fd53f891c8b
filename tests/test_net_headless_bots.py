"""Defect 1 of issue 13: a headless host (``hiddenhand host``) plays every game to the end
with its bots — the real ones, which can arrange a Get It! pile and announce in Got Five!."""

from __future__ import annotations

from typing import Any

import pytest

from engine.bots import GetItBot, RandomBot, make_bot
from net.client import Client
from net.clock import ManualClock
from net.host import Host
from net.serve import build_host
from tests.net_support import LOCAL, drive_on_clock


def fast_getit(game_id: str, seat: int, seed: int) -> GetItBot:
    """A Get It! bot with quick reactions (the client's side of the table)."""
    return GetItBot(seed, reaction=0.05, jitter=0.02)


CASES: list[tuple[str, int, int, dict[str, Any]]] = [
    # Get It! with a bot seat: the bot must arrange its pile, then play.
    ("getit", 3, 1, {"level": "X", "cards": 8, "timer": 0}),
    # Got Five! with bots: when no tiles are left someone must announce.
    ("gotfive", 3, 2, {}),
]


@pytest.mark.parametrize(("game_id", "seats", "bots", "options"), CASES)
async def test_a_headless_host_plays_to_the_end_with_its_bots(
    game_id: str, seats: int, bots: int, options: dict[str, Any]
) -> None:
    # The host and the players' bots on one clock the test moves (Get It! is real-time).
    clock = ManualClock()
    host = build_host(
        game=game_id, seats=seats, bots=bots, options=options, name="headless",
        table="T", bot_delay=0, clock=clock,
    )
    assert not isinstance(host.house.bot_factory(game_id, 0, 1), RandomBot)
    await host.start(LOCAL, 0)
    people: list[Client] = []
    try:
        for i in range(seats - bots):
            client = await Client.connect(LOCAL, host.port, name=f"P{i}")
            people.append(client)
            await client.join("t1")
            if i:
                await client.ready()
        await people[0].start()
        players = [
            fast_getit(game_id, i, 3) if game_id == "getit" else make_bot(game_id, i, 3)
            for i in range(len(people))
        ]
        results = await drive_on_clock(clock, zip(people, players, strict=True))
        assert results[0] is not None and all(r == results[0] for r in results)
        table = host.tables["t1"]
        assert table.phase == "over" and table.game is not None and table.game.over
    finally:
        for client in people:
            await client.close()
        await host.close()


def test_every_host_defaults_to_the_real_bots() -> None:
    host = Host()
    for game_id in ("getit", "getout", "gotfive"):
        bot = host.house.bot_factory(game_id, 0, 1)
        assert type(bot) is type(make_bot(game_id, 0, 1))

"""A seat handed to a bot during play can be taken back by its player's token."""

from __future__ import annotations

from typing import Any

import pytest

from net.client import Joined, ServerError
from net.wire import errors
from tests.net_support import clients, running_host


def notice(kind: str) -> Any:
    """A predicate: an update carrying a notice of type ``kind``."""
    return lambda m: m["type"] == "update" and any(n["type"] == kind for n in m["notices"])


async def test_a_player_takes_the_seat_back_from_the_bot_with_the_token() -> None:
    async with running_host() as host, clients(host) as made:
        ann = await made.new("Ann")
        bob = await made.new("Bob")
        joined = await ann.create_table("T", "getout", 2, {"first": 0, "match": False})
        bob_seat = await bob.join(joined.table)
        await bob.ready()
        await ann.start()
        first = await bob.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
        hand = first["view"]["hand"]

        bob.abort()  # Bob's laptop goes to sleep
        await ann.wait_for(notice("disconnected"))
        await ann.add_bot(1)  # it is Ann's turn: the bot waits for her move
        handed = await ann.wait_for(notice("stand_in"))
        assert handed["table"]["seats"][1]["kind"] == "bot"
        # Told as the away bot is: which bot plays for whom.
        assert {"type": "stand_in", "seat": 1, "bot": "Bot 2",
                "name": "Bob"} in handed["notices"]
        table = host.tables[joined.table]

        # Someone else's token does not buy the bot's seat.
        mallory = await made.new("Mallory")
        for token in (joined.token, "not-a-token"):
            with pytest.raises(ServerError) as info:
                await mallory.join(joined.table, seat=1, token=token)
            assert info.value.code == errors.BAD_TOKEN
        assert table.seats[1].kind == "bot"

        back = await made.new("Bob")
        again = await back.join(joined.table, seat=1, token=bob_seat.token)
        assert again == Joined(joined.table, 1, bob_seat.token)
        seen = await ann.wait_for(notice("reconnected"))
        assert seen["table"]["seats"][1] == {"seat": 1, "kind": "human", "name": "Bob",
                                             "connected": True, "ready": False}
        # Back under the name the others knew (not the bot's): said as no new name.
        assert seen["notices"][0] == {"type": "reconnected", "seat": 1, "name": "Bob"}
        assert table.seats[1].bot is None  # the bot left at once
        view = await back.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
        assert view["view"]["hand"] == hand

        # The game goes on with Bob playing his own seat.
        assert seen["legal"], "it is still Ann's turn"
        await ann.act(seen["legal"][0])
        turn = await back.wait_for(lambda m: m["type"] == "update" and m["legal"])
        assert turn["view"]["turn"] == 1
        await back.act(turn["legal"][0])  # the bot did not move for him

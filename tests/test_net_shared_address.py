"""An address many players share (an SSH box's 127.0.0.1) is not one client to the
host's per-address limits; any other address still is."""

from __future__ import annotations

import pytest

from net.client import Client, ServerError
from net.limits import Limits
from tests.net_support import LOCAL, running_host


async def open_tables(port: int, count: int) -> list[Client]:
    clients = []
    for i in range(count):
        client = await Client.connect(LOCAL, port, name=f"P{i}")
        clients.append(client)
        await client.create_table(f"table {i}", "getout", 2)
    return clients


async def test_players_sharing_an_address_each_open_their_table() -> None:
    limits = Limits(max_tables_per_address=3, shared_addresses=frozenset({LOCAL}))
    async with running_host(limits=limits) as host:
        clients = await open_tables(host.port, 5)  # more than 3 from one address
        assert len(host.tables) == 5
        for client in clients:
            await client.close()


async def test_an_address_not_shared_keeps_its_limit() -> None:
    async with running_host(limits=Limits(max_tables_per_address=3)) as host:
        clients = await open_tables(host.port, 3)
        extra = await Client.connect(LOCAL, host.port, name="P4")
        with pytest.raises(ServerError, match="at most 3"):
            await extra.create_table("one too many", "getout", 2)
        assert len(host.tables) == 3
        for client in [*clients, extra]:
            await client.close()

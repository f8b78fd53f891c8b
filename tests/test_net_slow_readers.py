"""Issue 13, defects 2 and 3: a peer that stops reading costs the others nothing; nor
does a bot that thinks long at another table.

A spectator that never reads sits at a bots-only GET OUT! table: the bots keep their
pace, the reading spectator gets every update, and the non-reader's output stays
bounded until it is dropped. Raw sockets on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from typing import Any

import pytest

from net.limits import Limits
from net.wire import codec, framing
from tests.net_support import LOCAL, RawPeer, clients, replay, running_host, whole_view

#: Small buffers, so that "not reading" shows after a few dozen updates, not megabytes.
TIGHT = Limits(send_buffer=4096, out_high=8192, max_skipped=16, out_limit=64 * 1024)


class NonReader:
    """A bare socket with a tiny receive buffer that reads only when told to.

    (An asyncio protocol would read ahead into its own buffer: this one reads only in
    :meth:`recv`, through the frame splitter every connection uses.)
    """

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.loop = asyncio.get_running_loop()
        self.frames = framing.FrameSplitter()
        #: The table and view as last sent (an ``update`` carries the table only when
        #: it changed, and may carry only what changed in the view).
        self.table: dict[str, Any] | None = None
        self.view: dict[str, Any] | None = None

    @classmethod
    async def open(cls, port: int) -> NonReader:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, (LOCAL, port))
        return cls(sock)

    async def send(self, message: dict[str, Any]) -> None:
        await self.loop.sock_sendall(self.sock, codec.pack(message))

    async def _frame(self) -> bytes:
        while (body := self.frames.take()) is None:
            chunk = await asyncio.wait_for(self.loop.sock_recv(self.sock, 4096), 10)
            if not chunk:
                raise ConnectionResetError("closed by the host")
            self.frames.feed(chunk)
        return body

    async def recv(self) -> dict[str, Any]:
        """The next frame other than a ping."""
        while True:
            msg = codec.unpack_body(await self._frame())
            if msg.get("type") == "update":
                self.table = msg.setdefault("table", self.table)
            self.view = whole_view(msg, self.view)
            if msg.get("type") != "ping":
                return msg

    async def closed_by_host(self) -> bool:
        """True once the host has ended the stream (what came before is skipped)."""
        try:
            while True:
                await self.recv()
        except (ConnectionResetError, ConnectionError):
            return True

    def close(self) -> None:
        self.sock.close()


async def non_reader(port: int) -> NonReader:
    """A connection that will not read."""
    return await NonReader.open(port)


async def test_a_spectator_that_never_reads_does_not_slow_a_bots_only_table(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="hiddenhand.host")
    async with running_host(bot_delay=0.005, heartbeat=30, limits=TIGHT) as host, \
            clients(host) as made:
        table = host.create_table("Bots", "getout", 4, bots=4)
        watcher = await made.new("Reader", record=True)
        await watcher.join(table.id, spectate=True)
        lazy = await non_reader(host.port)
        await lazy.send({"type": "hello", "version": framing.PROTOCOL_VERSION, "name": "Lazy"})
        await lazy.send({"type": "join", "table": table.id, "spectate": True})
        await watcher.wait_for(lambda m: m["type"] == "update" and m["table"]["spectators"] == 2)
        host.deliver(table, table.start(host.clock()))
        # Under the old drain-and-wait, every move waited out a 4.5 s timeout here.
        final = await watcher.wait_for(
            lambda m: m["type"] == "update" and m["table"]["phase"] == "over", timeout=60
        )
        assert final["view"]["seat"] is None
        versions = [
            msg["view"]["version"]
            for msg in replay(watcher.raw_frames)
            if msg["type"] == "update" and msg["view"] is not None
        ]
        # The reader got every single update: no version skipped (a version repeats
        # when only the table changed, as when the non-reader was dropped).
        assert versions == sorted(versions)
        assert sorted(set(versions)) == list(range(versions[0], versions[-1] + 1))
        assert len(versions) > 100
        assert await lazy.closed_by_host()
    assert "reads too slowly" in caplog.text


async def test_a_congested_connection_gets_the_latest_view_once_it_reads() -> None:
    """Coalescing, not dropping, for a peer that falls behind for a while."""
    async with running_host(bot_delay=0, heartbeat=30,
                            limits=Limits(send_buffer=4096, out_high=8192,
                                          max_skipped=10_000)) as host:
        table = host.create_table("Bots", "getout", 3, bots=3)
        lazy = await non_reader(host.port)
        await lazy.send({"type": "hello", "version": framing.PROTOCOL_VERSION, "name": "Lazy"})
        assert (await lazy.recv())["type"] == "welcome"
        await lazy.send({"type": "join", "table": table.id, "spectate": True, "ref": 1})
        assert (await lazy.recv())["type"] == "joined"
        [conn] = table.spectators
        # From here on it reads nothing until the game is over.
        host.deliver(table, table.start(host.clock()))
        while table.phase != "over":
            await asyncio.sleep(0)
            assert conn.queued_bytes() <= TIGHT.out_high + framing.MAX_FRAME
        assert conn.congested and conn.skipped > 0 and not conn.closed
        # Now it reads: it gets the last view (with the skipped events), game over.
        seen = []
        while True:
            msg = await lazy.recv()
            if msg["type"] == "update":
                seen.append(msg)
                if msg["table"]["phase"] == "over":
                    break
        versions = [m["view"]["version"] for m in seen if m["view"] is not None]
        assert versions[-1] == table.game.view(None)["version"]  # type: ignore[union-attr]
        assert len(versions) < versions[-1]  # some were skipped, never sent
        assert any(e["type"] == "round_over" for e in seen[-1]["events"])
        lazy.close()


async def test_a_bot_thinking_at_one_table_keeps_nobody_else_waiting() -> None:
    """A search bot thinks in slices: a peer's ping is answered while it thinks."""
    from engine.bots.getout_search import GetOutSearchBot

    def deep(game_id: str, seat: int, seed: int) -> GetOutSearchBot:
        return GetOutSearchBot(seed, iterations=20_000)  # (about a second a move)

    async with running_host(bot_delay=0, heartbeat=30, bot_factory=deep) as host:
        table = host.create_table("Bots", "getout", 2, bots=2)
        peer = await RawPeer.open(host)
        await peer.send({"type": "hello", "version": framing.PROTOCOL_VERSION, "name": "Pat"})
        assert (await peer.recv())["type"] == "welcome"
        host.deliver(table, table.start(host.clock()))
        answered_mid_thought = 0
        for ref in range(200):
            async with asyncio.timeout(10):
                while (thought := table.bots.thought) is None:
                    await asyncio.sleep(0)
            await peer.send({"type": "ping", "ref": ref})
            while (reply := await peer.recv())["type"] != "pong":
                pass
            assert reply["ref"] == ref
            # Answered while the same bot still thought about the same move.
            answered_mid_thought += table.bots.thought is thought
            if answered_mid_thought >= 3:
                break
        assert answered_mid_thought >= 3

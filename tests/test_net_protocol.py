"""The wire protocol: framing, decoding limits, schemas, and a host facing bad input."""

from __future__ import annotations

import asyncio
import socket

import msgpack
import pytest

from engine.bots import RandomBot
from net.autoplay import drive
from net.limits import Limits
from net.wire import codec, errors, framing, schemas, stream
from tests.net_support import RawPeer, clients, frame, running_host

# --------------------------------------------------------------------------- pure checks


def test_pack_round_trips_and_prefixes_length() -> None:
    msg = {"type": "chat", "text": "hi", "ref": 3}
    data = codec.pack(msg)
    (length,) = framing.HEADER.unpack(data[:4])
    assert length == len(data) - 4
    assert codec.unpack_body(data[4:]) == msg


def test_pack_refuses_an_oversized_message() -> None:
    with pytest.raises(ValueError, match="frame limit"):
        codec.pack({"type": "chat", "text": "x" * (framing.MAX_FRAME + 1)})


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b"\xc1", errors.BAD_FRAME),  # a byte msgpack never uses
        (msgpack.packb([1, 2, 3]), errors.BAD_MESSAGE),  # not a map
        (msgpack.packb({1: "x"}), errors.BAD_FRAME),  # strict_map_key: int keys refused
        (msgpack.packb({"type": "x"}) + b"\x01", errors.BAD_FRAME),  # trailing bytes
        (msgpack.packb({"b": b"bytes"}, use_bin_type=True), errors.BAD_FRAME),  # no binary
        (msgpack.packb({"e": msgpack.ExtType(1, b"x")}), errors.BAD_FRAME),  # no extensions
        (msgpack.packb({"a": list(range(codec.MAX_ARRAY_LEN + 1))}), errors.BAD_FRAME),
        (msgpack.packb({"s": "x" * (codec.MAX_STR_LEN + 1)}), errors.BAD_FRAME),
    ],
)
def test_unpack_body_refuses_garbage(body: bytes, code: str) -> None:
    with pytest.raises(errors.ProtocolError) as info:
        codec.unpack_body(body)
    assert info.value.code == code
    assert not info.value.fatal


@pytest.mark.parametrize(
    ("message", "code", "words"),
    [
        ({}, errors.BAD_MESSAGE, "'type'"),
        ({"type": "fly"}, errors.UNKNOWN_TYPE, "unknown message type 'fly'"),
        ({"type": "hello", "version": 1}, errors.BAD_MESSAGE, "needs the field 'name'"),
        ({"type": "hello", "version": "1", "name": "A"}, errors.BAD_MESSAGE, "whole number"),
        ({"type": "hello", "version": 1, "name": "  "}, errors.BAD_MESSAGE, "blank"),
        ({"type": "hello", "version": 1, "name": "x" * 25}, errors.BAD_MESSAGE, "1 to 24"),
        ({"type": "rename", "name": "evil\x1b[2J"}, errors.BAD_MESSAGE, "control"),
        ({"type": "chat", "text": "a\u202eb"}, errors.BAD_MESSAGE, "control"),
        ({"type": "ready", "ready": 1}, errors.BAD_MESSAGE, "true or false"),
        ({"type": "act", "action": {"card": 3}}, errors.BAD_MESSAGE, "'type' string"),
        ({"type": "act", "action": {"type": "draw"}, "seat": 0}, errors.BAD_MESSAGE, "'seat'"),
        ({"type": "act", "action": {"type": "x", "v": float("nan")}}, errors.BAD_MESSAGE, "finite"),
        ({"type": "act", "action": {"type": "x", "n": [[[[[[[1]]]]]]]}}, errors.BAD_MESSAGE,
         "deeper"),
        ({"type": "join", "table": "t1", "seat": -1}, errors.BAD_MESSAGE, "from 0"),
        ({"type": "ping", "ref": -4}, errors.BAD_MESSAGE, "'ref'"),
        ({"type": "create_table", "name": "T", "game": "getout", "seats": True}, errors.BAD_MESSAGE,
         "whole number"),
    ],
)
def test_validation_names_the_problem(message: dict, code: str, words: str) -> None:
    with pytest.raises(errors.ProtocolError) as info:
        schemas.validate_client_message(message)
    assert info.value.code == code
    assert words in info.value.message


def test_validation_accepts_and_cleans() -> None:
    msg = schemas.validate_client_message({"type": "rename", "name": "  Ann ", "ref": 9})
    assert msg == {"type": "rename", "name": "Ann", "ref": 9}
    act = {"type": "act", "action": {"type": "play", "card": 4, "image": "kevin"}}
    assert schemas.validate_client_message(act) == act


# --------------------------------------------------------------------------- on the wire


async def test_version_mismatch_gets_a_clear_error_then_close() -> None:
    async with running_host() as host:
        peer = await RawPeer.open(host)
        await peer.send({"type": "hello", "version": framing.PROTOCOL_VERSION + 1, "name": "Old"})
        reply = await peer.recv()
        assert reply["type"] == "error" and reply["code"] == errors.VERSION_MISMATCH
        assert str(framing.PROTOCOL_VERSION) in reply["message"]
        assert str(framing.PROTOCOL_VERSION + 1) in reply["message"]
        assert await peer.closed_by_host()


async def test_requests_before_hello_are_refused() -> None:
    async with running_host() as host:
        peer = await RawPeer.open(host)
        await peer.send({"type": "list_tables", "ref": 1})
        reply = await peer.recv()
        assert reply == {"type": "error", "code": errors.NOT_WELCOMED, "ref": 1,
                         "message": reply["message"]}
        await peer.send(
            {"type": "hello", "version": framing.PROTOCOL_VERSION, "name": "A", "ref": 2})
        welcome = await peer.recv()
        assert welcome["type"] == "welcome" and welcome["ref"] == 2
        assert welcome["version"] == framing.PROTOCOL_VERSION
        peer.close()


async def _table_with_two(host, made):  # type: ignore[no-untyped-def]
    ann = await made.new("Ann")
    bob = await made.new("Bob")
    joined = await ann.create_table("Kitchen", "getout", 2)
    await bob.join(joined.table)
    return ann, bob, joined


async def _still_serving(host, ann, bob) -> None:  # type: ignore[no-untyped-def]
    """The others at the table are served as before."""
    await ann.chat("still there?")
    line = await bob.wait_for(lambda m: m["type"] == "chat")
    assert line["text"] == "still there?" and line["seat"] == 0
    assert [t["free"] for t in await bob.list_tables()] == [0]


async def test_malformed_frames_get_an_error_and_the_connection_survives() -> None:
    async with running_host() as host, clients(host) as made:
        ann, bob, _ = await _table_with_two(host, made)
        peer = await RawPeer.open(host)
        for body, code in [
            (b"\xc1\xc1", errors.BAD_FRAME),
            (msgpack.packb("just a string"), errors.BAD_MESSAGE),
            (msgpack.packb({"type": "teleport", "ref": 5}), errors.UNKNOWN_TYPE),
            (msgpack.packb({"type": "hello", "version": 1}), errors.BAD_MESSAGE),
        ]:
            await peer.send_bytes(frame(body))
            reply = await peer.recv()
            assert reply["type"] == "error" and reply["code"] == code, reply
            assert reply["message"]
        # The same connection still works after all that.
        await peer.send(
            {"type": "hello", "version": framing.PROTOCOL_VERSION, "name": "Eve", "ref": 1})
        assert (await peer.recv())["type"] == "welcome"
        await peer.send({"type": "join", "table": "t1", "ref": 2})
        reply = await peer.recv()
        assert reply["code"] == errors.TABLE_FULL and reply["ref"] == 2
        await _still_serving(host, ann, bob)
        peer.close()


async def test_oversized_frame_gets_an_error_and_a_close() -> None:
    async with running_host() as host, clients(host) as made:
        ann, bob, _ = await _table_with_two(host, made)
        peer = await RawPeer.open(host)
        await peer.send({"type": "hello", "version": framing.PROTOCOL_VERSION, "name": "Eve"})
        assert (await peer.recv())["type"] == "welcome"
        await peer.send_bytes(framing.HEADER.pack(framing.MAX_FRAME + 1) + b"\x00" * 64)
        reply = await peer.recv()
        assert reply["code"] == errors.FRAME_TOO_LARGE
        assert str(framing.MAX_FRAME) in reply["message"]
        assert await peer.closed_by_host()
        await _still_serving(host, ann, bob)


async def test_truncated_frame_gets_an_error_and_a_close() -> None:
    async with running_host() as host, clients(host) as made:
        ann, bob, _ = await _table_with_two(host, made)
        peer = await RawPeer.open(host)
        await peer.send_bytes(framing.HEADER.pack(100) + b"\x81\xa4type")
        peer.writer.write_eof()  # the rest of the frame never comes
        reply = await peer.recv()
        assert reply["code"] == errors.TRUNCATED and "100 bytes" in reply["message"]
        assert await peer.closed_by_host()
        # A header cut short is just as clear.
        peer2 = await RawPeer.open(host)
        await peer2.send_bytes(b"\x00\x00")
        peer2.writer.write_eof()
        assert (await peer2.recv())["code"] == errors.TRUNCATED
        assert await peer2.closed_by_host()
        await _still_serving(host, ann, bob)


async def test_a_seated_client_sending_garbage_keeps_its_seat_and_nothing_changes() -> None:
    async with running_host() as host, clients(host) as made:
        ann, bob, joined = await _table_with_two(host, made)
        before = host.tables[joined.table].public()
        await bob.send_raw(frame(msgpack.packb({"type": "act", "action": "draw", "ref": 77})))
        err = await bob.wait_for(lambda m: m["type"] == "error")
        assert err["code"] == errors.BAD_MESSAGE and err["ref"] == 77
        assert host.tables[joined.table].public() == before
        await bob.ready()
        await _still_serving(host, ann, bob)


async def test_host_refuses_connections_beyond_its_limit() -> None:
    """Past its limit a host takes a connection only to take a seat back (see
    test_a_host_full_of_strangers_still_gives_a_player_their_seat_back); past that
    reserve too, none."""
    async with running_host(max_connections=1) as host, clients(host) as made:
        await made.new("Ann")
        peer = await RawPeer.open(host)
        await peer.send({"type": "hello", "version": framing.PROTOCOL_VERSION, "name": "B"})
        assert (await peer.recv())["type"] == "welcome"
        await peer.send({"type": "list_tables", "ref": 1})
        reply = await peer.recv()
        assert reply["code"] == errors.HOST_FULL and "seat back" in reply["message"]
        assert await peer.closed_by_host()
    async with running_host(max_connections=1, limits=Limits(returning_reserve=0)) as host, \
            clients(host) as made:
        await made.new("Ann")
        peer = await RawPeer.open(host)
        reply = await peer.recv()
        assert reply["code"] == errors.HOST_FULL
        assert await peer.closed_by_host()


async def test_client_connect_to_nothing_fails_plainly() -> None:
    async with running_host() as host:
        port = host.port
    from net.client import Client

    with pytest.raises(OSError):
        await asyncio.wait_for(Client.connect("127.0.0.1", port, name="A"), 5)


async def test_a_flood_is_rate_limited_without_hurting_others() -> None:
    async with running_host(rate=0.01, burst=3) as host, clients(host) as made:
        ann, bob, _ = await _table_with_two(host, made)
        peer = await RawPeer.open(host)
        await peer.send(
            {"type": "hello", "version": framing.PROTOCOL_VERSION, "name": "F", "ref": 0})
        for ref in range(1, 8):
            await peer.send({"type": "ping", "ref": ref})
        replies = [await peer.recv() for _ in range(8)]
        assert [r["type"] for r in replies] == ["welcome", "pong", "pong"] + ["error"] * 5
        assert all(r["code"] == errors.RATE_LIMITED for r in replies[3:])
        assert [r["ref"] for r in replies] == list(range(8))
        await peer.send({"type": "pong"})  # no ref, so it is dropped without a word
        await ann.chat("unaffected")  # a separate connection has its own allowance
        assert (await bob.wait_for(lambda m: m["type"] == "chat"))["text"] == "unaffected"
        peer.close()


async def test_the_client_notices_a_host_that_goes_silent() -> None:
    from net.client import Client, ConnectionLost

    async def mute_host(reader: stream.FrameReader, writer: stream.FrameWriter) -> None:
        hello = codec.unpack_body(await reader.next_frame())
        writer.write(codec.pack({"type": "welcome", "version": framing.PROTOCOL_VERSION,
                                 "host": "mute", "heartbeat": 0.05, "tables": [],
                                 "ref": hello["ref"]}))
        reader.deliver(lambda body: None)
        await reader.ended  # then never a word, not even a ping
        writer.close()

    server = await asyncio.get_running_loop().create_server(
        stream.frame_protocol(mute_host), "127.0.0.1", 0)
    async with server:
        port = server.sockets[0].getsockname()[1]
        client = await Client.connect("127.0.0.1", port, name="Ann")
        with pytest.raises(ConnectionLost, match="stopped answering"):
            await client.next(timeout=3)
        with pytest.raises(ConnectionLost):
            await client.chat("anyone?")
        await client.close()


# --------------------------------------------------------------------------- the frame reader


def _bodies(*messages: dict) -> tuple[bytes, list[bytes]]:
    frames = [codec.pack(m) for m in messages]
    return b"".join(frames), [f[framing.HEADER.size:] for f in frames]


async def test_the_frame_reader_hands_on_each_frame_once_however_the_bytes_arrive() -> None:
    data, bodies = _bodies({"type": "a"}, {"type": "b", "n": list(range(40))}, {"type": "c"})
    for pieces in ([data], [data[i:i + 1] for i in range(len(data))],
                   [data[:3], data[3:30], data[30:]]):
        reader = stream.FrameReader()
        got: list[bytes] = []
        reader.deliver(got.append)
        for piece in pieces:
            reader.data_received(piece)
        assert got == bodies
        reader.eof_received()
        assert reader.ended.done() and reader.ended.result() is None


async def test_the_frame_reader_refuses_a_long_frame_on_its_header_alone() -> None:
    reader = stream.FrameReader()
    got: list[bytes] = []
    limit = [16]
    reader.deliver(got.append, lambda: limit[0])
    reader.data_received(codec.pack({"type": "x"}))  # 10 bytes: under the limit
    limit[0] = 64  # the limit is asked for each frame (a host raises it after hello)
    reader.data_received(codec.pack({"type": "y" * 40}))
    reader.data_received(framing.HEADER.pack(65))  # only a header: refused before any body
    end = reader.ended.result()
    assert isinstance(end, errors.ProtocolError) and end.fatal
    assert end.code == errors.FRAME_TOO_LARGE and "65 bytes" in end.message
    reader.data_received(codec.pack({"type": "z"}))  # nothing after the end
    assert [msgpack.unpackb(b)["type"] for b in got] == ["x", "y" * 40]


@pytest.mark.parametrize(("tail", "words"), [
    (b"\x00\x00", "middle of a frame header"),
    (framing.HEADER.pack(100) + b"\x81\xa4type", "6 bytes into a frame of 100 bytes"),
])
async def test_the_frame_reader_says_where_a_stream_was_cut(tail: bytes, words: str) -> None:
    reader = stream.FrameReader()
    got: list[bytes] = []
    reader.deliver(got.append)
    reader.data_received(codec.pack({"type": "whole"}) + tail)
    reader.eof_received()
    end = reader.ended.result()
    assert isinstance(end, errors.ProtocolError) and end.code == errors.TRUNCATED and end.fatal
    assert words in end.message and len(got) == 1


async def test_the_frame_reader_keeps_what_came_before_anyone_took_frames() -> None:
    data, bodies = _bodies({"type": "early"}, {"type": "also early"})
    reader = stream.FrameReader()
    reader.data_received(data)
    reader.eof_received()
    assert not reader.ended.done()
    got: list[bytes] = []
    reader.deliver(got.append)
    assert got == bodies and reader.ended.result() is None


async def test_the_frame_reader_ends_the_stream_when_its_taker_fails() -> None:
    reader = stream.FrameReader()
    seen: list[bytes] = []

    def take(body: bytes) -> None:
        seen.append(body)
        raise RuntimeError("a bug")

    reader.deliver(take)
    reader.data_received(codec.pack({"type": "one"}) + codec.pack({"type": "two"}))
    assert len(seen) == 1 and isinstance(reader.ended.result(), RuntimeError)
    broken = ConnectionResetError("reset")
    other = stream.FrameReader()
    other.deliver(seen.append)
    other.connection_lost(broken)
    assert other.ended.result() is broken


async def test_a_reader_that_asks_for_frames_gets_each_then_the_end() -> None:
    data, bodies = _bodies({"type": "a"}, {"type": "b"})
    reader = stream.FrameReader()
    reader.data_received(data[:-3])
    assert await reader.next_frame() == bodies[0]
    waiting = asyncio.ensure_future(reader.next_frame())
    await asyncio.sleep(0)
    assert not waiting.done()  # the second frame is not whole yet
    reader.data_received(data[-3:])
    assert await waiting == bodies[1]
    reader.eof_received()
    with pytest.raises(errors.ConnectionClosed):
        await reader.next_frame()
    assert reader.ended.result() is None
    with pytest.raises(RuntimeError):  # frames go one way or the other, not both
        other = stream.FrameReader()
        other.deliver(bodies.append)
        await other.next_frame()


@pytest.mark.parametrize(("data", "limit", "code", "words"), [
    (framing.HEADER.pack(100) + b"abc", framing.MAX_FRAME, errors.TRUNCATED,
     "3 bytes into a frame of 100 bytes"),
    (framing.HEADER.pack(2000), framing.MAX_HELLO_FRAME, errors.FRAME_TOO_LARGE,
     "2000 bytes exceeds the limit of 1024 bytes before hello"),
])
async def test_a_reader_that_asks_for_frames_is_told_what_broke_the_stream(
    data: bytes, limit: int, code: str, words: str
) -> None:
    reader = stream.FrameReader()
    reader.data_received(data)
    reader.eof_received()
    with pytest.raises(errors.ProtocolError) as info:
        await reader.next_frame(limit)
    assert info.value.code == code and info.value.fatal and words in info.value.message
    assert reader.ended.result() is info.value


async def test_the_frame_reader_holds_one_frame_until_frames_are_taken() -> None:
    """A peer that sends and sends gets no further than one frame in until the reader
    takes frames: reading pauses, and the rest waits in the peer's socket."""
    mine, theirs = socket.socketpair()
    reader, writer = await stream.open_connection(sock=mine)
    _, peer_writer = await stream.open_connection(sock=theirs)
    body = b"\xa1x" * (framing.MAX_FRAME // 3)
    peer_writer.write(framing.frame(body) * 8)
    async with asyncio.timeout(10):
        while writer.transport.is_reading():  # until the reader has paused
            await asyncio.sleep(0)
    got: list[bytes] = []
    all_in: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def take(frame_body: bytes) -> None:
        got.append(frame_body)
        if len(got) == 8:
            all_in.set_result(None)

    reader.deliver(take)
    assert writer.transport.is_reading() and got  # what was held went first
    await asyncio.wait_for(all_in, 10)
    assert got == [body] * 8
    for w in (writer, peer_writer):
        w.abort()


async def test_a_writer_says_when_its_connection_is_gone() -> None:
    mine, theirs = socket.socketpair()
    _, writer = await stream.open_connection(sock=mine)
    assert writer.get_extra_info("socket") is not None and not writer.is_closing()
    writer.write(codec.pack({"type": "ping"}))
    await writer.drain()
    writer.abort()
    assert writer.is_closing()
    with pytest.raises(ConnectionResetError):
        await writer.drain()
    theirs.close()


async def test_frames_written_at_once_reach_a_client_each_in_order() -> None:
    data, _ = _bodies(*({"type": "chat", "seat": 0, "name": "Ann", "text": str(i)}
                        for i in range(50)))

    async def host(reader: stream.FrameReader, writer: stream.FrameWriter) -> None:
        hello = codec.unpack_body(await reader.next_frame())
        writer.write(codec.pack({"type": "welcome", "version": framing.PROTOCOL_VERSION,
                                 "host": "h", "heartbeat": 30, "tables": [],
                                 "ref": hello["ref"]}) + data)
        reader.deliver(lambda body: None)
        await reader.ended
        writer.close()

    from net.client import Client

    server = await asyncio.get_running_loop().create_server(
        stream.frame_protocol(host), "127.0.0.1", 0)
    async with server:
        client = await Client.connect("127.0.0.1", server.sockets[0].getsockname()[1],
                                      name="Ann")
        texts = [(await client.next(timeout=5))["text"] for _ in range(50)]
        assert texts == [str(i) for i in range(50)]
        await client.close()


# --------------------------------------------------------------------------- update frames


@pytest.mark.parametrize("with_table", [True, False])
@pytest.mark.parametrize("seat", [None, 0, 5])
def test_an_update_assembled_from_parts_is_the_same_bytes_as_packing_it_whole(
    with_table: bool, seat: int | None
) -> None:
    table = {"id": "t1", "name": "Kitchen", "seats": [{"seat": 0, "name": "Ann"}]}
    view = {"game": "getout", "hand": [{"id": 3, "image": "geoff", "value": 1}], "x": None}
    legal = [{"type": "play", "card": 3}, {"type": "draw"}]
    events = [{"type": "played", "seat": 1, "card": {"id": 12}}]
    notices = [{"type": "renamed", "seat": 0, "name": "Änn"}]
    whole = {"type": "update", **({"table": table} if with_table else {}), "seat": seat,
             "view": view, "legal": legal, "events": events, "notices": notices}
    frame = codec.update_frame(msgpack.packb(table) if with_table else None, seat,
                           msgpack.packb(view), msgpack.packb(legal),
                           codec.update_tail(events, notices))
    assert frame == codec.pack(whole)
    assert codec.unpack_body(frame[4:]) == whole


def test_an_oversized_update_is_refused_like_any_message() -> None:
    with pytest.raises(ValueError, match="frame limit"):
        codec.update_frame(None, 0, msgpack.packb("x" * framing.MAX_FRAME), b"\x90",
                           codec.update_tail([], []))


async def test_an_update_carries_the_table_only_when_it_changed() -> None:
    """On the wire the table comes when it changed (and first on every connection);
    the client puts the last one into every update it hands on."""
    async with running_host() as host, clients(host) as made:
        ann = await made.new("Ann", record=True)
        bob = await made.new("Bob", record=True)
        await ann.create_table("Kitchen", "getout", 2)
        await bob.join("t1")
        await bob.ready()
        await ann.start()

        def wire() -> list[dict]:
            return [m for m in map(msgpack.unpackb, ann.raw_frames) if m["type"] == "update"]

        first = len(wire())
        for _ in range(3):  # moves: the table's public part stays the same
            mover = next(c for c in (ann, bob)
                         if c.latest is not None and c.latest["legal"]
                         and c.latest["view"]["version"] == host.tables["t1"].game.version)
            await mover.act(mover.latest["legal"][0])  # type: ignore[index]
        moves = wire()[first:]
        assert len(moves) >= 3 and not any("table" in m for m in moves)
        assert ann.latest is not None and ann.latest["table"]["name"] == "Kitchen"
        assert ann.latest["table"]["phase"] == "play"
        await bob.rename("Robert")  # a change others see: the table comes again
        update = await ann.wait_for(lambda m: m["type"] == "update" and any(
            n["type"] == "renamed" for n in m["notices"]))
        assert "table" in wire()[-1]
        assert update["table"]["seats"][1]["name"] == "Robert"
        # A new connection (a reconnection) gets the table in its first update.
        watcher = await made.new("Cy", record=True)
        await watcher.join("t1", spectate=True)
        seen = await watcher.wait_for(lambda m: m["type"] == "update")
        first_wire = next(m for m in map(msgpack.unpackb, watcher.raw_frames)
                          if m["type"] == "update")
        assert first_wire["table"] == seen["table"] and seen["table"]["spectators"] == 1


async def test_the_packed_public_part_follows_every_change_of_the_table() -> None:
    """The host packs a table's public part again only when it changed: after each
    kind of change it is exactly what packing ``public()`` anew gives."""
    async with running_host() as host, clients(host) as made:
        ann = await made.new("Ann")
        bob = await made.new("Bob")
        cy = await made.new("Cy")
        await ann.create_table("Kitchen", "getout", 4)
        table = host.tables["t1"]

        def fresh() -> bool:
            return msgpack.unpackb(table.public_packed()) == table.public()

        async def settle() -> None:  # every client has the update of the last change
            await ann.ping()
            await bob.ping()

        steps = [
            lambda: bob.join("t1"),
            lambda: bob.ready(),
            lambda: bob.rename("Robert"),
            lambda: cy.join("t1", spectate=True),
            lambda: ann.add_bot(2),
            lambda: ann.configure(options={"limit": 150}),
            lambda: ann.remove_bot(2),
            lambda: bob.pick_seat(3),
            lambda: ann.configure(game="gotfive", options={}),
            lambda: cy.leave(),
            lambda: ann.add_bot(1),
            lambda: ann.add_bot(2),
            lambda: bob.ready(),
            lambda: ann.start(),
        ]
        seen = [table.public_packed()]
        for step in steps:
            await step()
            await settle()
            assert fresh()
            seen.append(table.public_packed())
        await bob.close()  # a seat's connection drops
        await ann.wait_for(lambda m: m["type"] == "update"
                           and not m["table"]["seats"][3]["connected"])
        assert fresh()
        assert ann.latest is not None and ann.latest["table"] == table.public()
        assert len(set(seen)) == len(seen)  # every step changed what others see


async def test_a_client_calls_its_listeners_as_each_message_is_read(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async with running_host() as host, clients(host) as made:
        ann = await made.new("Ann")
        bob = await made.new("Bob")
        heard: list[dict] = []

        def note(msg: dict) -> None:
            heard.append(msg)

        def broken(msg: dict) -> None:
            raise RuntimeError("a listener's own bug")

        ann.listeners += [broken, note]
        await ann.create_table("Kitchen", "getout", 2)
        await bob.join("t1")
        await bob.chat("hello")
        handed_on: list[dict] = []
        while not handed_on or handed_on[-1]["type"] != "chat":
            handed_on.append(await ann.next(timeout=5))
        # Every pushed message, in order, the same objects, each heard before handed on.
        assert all(a is b for a, b in zip(handed_on, heard, strict=False))
        assert len(heard) >= len(handed_on) and handed_on[-1]["text"] == "hello"
        assert "a listener of a hiddenhand client failed" in caplog.text
        assert not ann.closed  # the broken listener cut nothing


# --------------------------------------------------------------------------- view changes


def test_view_changes_hold_exactly_what_changed_and_rebuild_the_view() -> None:
    old = {"game": "getout", "turn": 1, "version": 4, "hand": [{"id": 3}], "out": [False]}
    new = {"game": "getout", "turn": 2, "version": 5, "hand": [{"id": 3}], "out": [False],
           "winners": None}
    changes = codec.view_changes(old, new)
    assert changes == {"turn": 2, "version": 5, "winners": None}
    rebuilt = codec.apply_view_changes(old, changes)
    assert rebuilt == new and old["turn"] == 1  # the old view is left as it was
    # A type change is a change even where the values compare equal (1 == True).
    assert codec.view_changes({"n": 1, "l": [0]}, {"n": True, "l": [0]}) == {"n": True}
    assert codec.view_changes({"n": 1.0}, {"n": 1}) == {"n": 1}
    # A key that went cannot be said by changes: the whole view must go.
    assert codec.view_changes({"a": 1, "b": 2}, {"a": 1}) is None
    assert codec.view_changes({"a": 1, "b": 2}, {"a": 1, "c": 2}) is None
    assert codec.view_changes(new, new) == {}


def test_an_update_with_view_changes_is_the_same_bytes_as_packing_it_whole() -> None:
    changes = {"turn": 3, "version": 9}
    whole = {"type": "update", "seat": 2, "view_changes": changes, "legal": [],
             "events": [], "notices": []}
    frame = codec.update_frame(None, 2, msgpack.packb(changes), msgpack.packb([]),
                           codec.update_tail([], []), changes=True)
    assert frame == codec.pack(whole)


@pytest.mark.parametrize(("first", "second"), [(0, 0), (1, 0), (0, 3), (7, 8), (15, 1),
                                               (40, 0), (70_000, 5)])
def test_packed_maps_join_into_the_packed_merged_map(first: int, second: int) -> None:
    a = {f"a{i}": i for i in range(first)}
    b = {f"b{i}": [i] for i in range(second)}
    parts = [codec.map_entries(msgpack.packb(a)), codec.map_entries(msgpack.packb(b))]
    assert [n for n, _ in parts] == [first, second]
    assert codec.joined_map(*parts) == msgpack.packb({**a, **b})
    with pytest.raises(ValueError, match="not a packed map"):
        codec.map_entries(msgpack.packb([1]))


async def test_an_update_carries_only_what_changed_in_the_view() -> None:
    """After a connection's first view of a game, its updates carry what changed; the
    client rebuilds every view exactly as the engine gives it, seat and spectator."""
    async with running_host() as host, clients(host) as made:
        ann = await made.new("Ann", record=True)
        bob = await made.new("Bob", record=True)
        cy = await made.new("Cy", record=True)
        await ann.create_table("Kitchen", "getout", 2)
        await bob.join("t1")
        await cy.join("t1", spectate=True)
        await bob.ready()
        await ann.start()
        table = host.tables["t1"]
        game = table.game
        assert game is not None

        async def settled() -> None:  # every client holds the latest version
            while not all(c.latest is not None and c.latest["view"] is not None
                          and c.latest["view"]["version"] == game.version
                          for c in (ann, bob, cy)):
                await asyncio.sleep(0)

        for _ in range(40):
            await settled()
            for client, seat in ((ann, 0), (bob, 1), (cy, None)):
                assert client.latest is not None
                held, meant = client.latest["view"], game.view(seat)
                assert held == meant
                # The same types too, as packing both (keys in one order) shows.
                assert msgpack.packb({k: held[k] for k in meant}, use_bin_type=True) == (
                    msgpack.packb(meant, use_bin_type=True))
            mover = next(c for c in (ann, bob) if c.latest and c.latest["legal"])
            assert mover.latest is not None
            await mover.act(mover.latest["legal"][-1])
        for client in (ann, bob, cy):
            wire = [m for m in map(msgpack.unpackb, client.raw_frames)
                    if m["type"] == "update" and (m.get("view") or m.get("view_changes"))]
            assert "view" in wire[0] and "view_changes" not in wire[0]
            assert all("view_changes" in m and "view" not in m for m in wire[1:])
            assert len(wire) > 30
            # What did not change stays off the wire: the match's limit, for one.
            assert not any("limit" in m["view_changes"] for m in wire[1:])


async def test_a_new_game_or_seat_gets_its_whole_view_again() -> None:
    async with running_host() as host, clients(host) as made:
        ann = await made.new("Ann", record=True)
        bob = await made.new("Bob")
        await ann.create_table("Kitchen", "getout", 3, {"match": False})
        await bob.join("t1")
        await ann.add_bot(2)
        await bob.ready()
        await ann.start()
        await asyncio.gather(drive(ann, RandomBot(1)), drive(bob, RandomBot(2)))
        await ann.to_lobby()
        await ann.wait_for(lambda m: m["type"] == "update" and m["view"] is None)
        await ann.remove_bot(2)
        await ann.pick_seat(2)
        await ann.add_bot(0)
        await bob.ready()
        before = len(ann.raw_frames)
        await ann.start()
        again = await ann.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
        assert again["view"] == host.tables["t1"].game.view(2)  # type: ignore[union-attr]
        first = next(m for m in map(msgpack.unpackb, ann.raw_frames[before:])
                     if m["type"] == "update" and m.get("view") is not None)
        assert "view_changes" not in first and first["view"]["seat"] == 2


async def test_a_burst_of_frames_is_handed_on_a_turn_at_a_time() -> None:
    """A peer's burst of thousands of frames in one read does not hold the event loop:
    one turn hands on at most FRAMES_PER_TURN, pauses reading, and the rest follow in
    later turns, in order, after everyone else's callbacks."""
    import asyncio

    from net.wire import framing as wire_framing
    from net.wire import stream as wire_stream

    class Transport:
        def __init__(self) -> None:
            self.paused = False
            self.pauses = 0

        def pause_reading(self) -> None:
            self.paused, self.pauses = True, self.pauses + 1

        def resume_reading(self) -> None:
            self.paused = False

        def get_extra_info(self, name: str, default: object = None) -> object:
            return default

    reader = wire_stream.FrameReader()
    transport = Transport()
    reader.connection_made(transport)  # type: ignore[arg-type]
    got: list[bytes] = []
    reader.deliver(got.append)
    bodies = [f"frame {i}".encode() for i in range(100)]
    reader.data_received(b"".join(wire_framing.frame(b) for b in bodies))
    per_turn = wire_stream.FRAMES_PER_TURN
    assert len(got) == per_turn and transport.paused
    others: list[int] = []
    asyncio.get_running_loop().call_soon(others.append, len(got))
    for _ in range(10):
        await asyncio.sleep(0)
    assert got == bodies and not transport.paused
    assert others == [per_turn]  # another callback ran before the burst's next turn


async def test_a_request_is_on_its_way_before_its_reply_is_awaited() -> None:
    """``send_request`` writes at once (a key's move reaches the host before the screen
    redraws for it); awaiting it gives the reply, and a closed line says so at once."""
    from net.client import ConnectionLost

    async with running_host() as host, clients(host) as made:
        ann, bob, _ = await _table_with_two(host, made)
        reply = ann.send_request("chat", text="sent before awaited")
        # Bob has it while Ann's reply is still not awaited.
        chat = await bob.wait_for(lambda m: m["type"] == "chat")
        assert chat["text"] == "sent before awaited"
        assert (await reply)["type"] == "ok"
        await ann.close()
        with pytest.raises(ConnectionLost):
            ann.send_request("chat", text="too late")

"""Issue 13: what a hostile peer working from ``docs/protocol.md`` can throw at a host.

Every attack gets a clear error or a close, changes nothing, writes at most a short line
to the log, and a legitimate player at the same host keeps playing. Raw sockets on
127.0.0.1 only.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import struct
import time
from collections.abc import Coroutine
from typing import Any

import msgpack
import pytest

from net.client import Client, ServerError
from net.connection import LOGGED_REFUSALS
from net.host import Host
from net.limits import ACT_COST, FRAME_BYTES, Limits
from net.seats import RequestError, check_name
from net.wire import codec, errors, framing, schemas, stream
from tests.net_support import Clients, RawPeer, clients, frame, running_host

BOMB = {"type": "act", "action": {"type": "x", "k": [[[]] * 4096] * 60}}
#: A message allowance that big frames do not run out of: for the tests of what the
#: host answers to each such frame, not of how many it reads.
ROOMY = {"rate": 1e9, "burst": 10**9, "limits": Limits(host_rate=1e12)}


def _deep(levels: int) -> bytes:
    """An ``act`` whose action holds a list nested ``levels`` deep (built by hand)."""
    return (
        b"\x82\xa4type\xa3act\xa6action\x82\xa4type\xa1x\xa1k" + b"\x91" * levels + b"\xc0"
    )


async def _pair(made: Clients) -> tuple[Client, Client]:
    ann = await made.new("Ann")
    bob = await made.new("Bob")
    joined = await ann.create_table("Kitchen", "getout", 2)
    await bob.join(joined.table)
    return ann, bob


async def _still_serving(ann: Client, bob: Client) -> None:
    """The players at the table are served as before."""
    await ann.chat("still there?")
    line = await bob.wait_for(lambda m: m["type"] == "chat")
    assert line["text"] == "still there?" and line["seat"] == 0


async def _welcomed(host: Host, name: str = "Eve") -> RawPeer:
    peer = await RawPeer.open(host)
    await peer.send({"type": "hello", "version": framing.PROTOCOL_VERSION, "name": name})
    assert (await peer.recv())["type"] == "welcome"
    return peer


def _no_tracebacks(caplog: pytest.LogCaptureFixture) -> None:
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert "Traceback" not in caplog.text


# --------------------------------------------------------------------------- decoding


def test_the_cpu_bomb_is_refused_while_it_is_decoded() -> None:
    body = msgpack.packb(BOMB)
    assert len(body) > 200_000
    with pytest.raises(errors.ProtocolError) as info:
        codec.unpack_client_body(body)
    assert info.value.code == errors.BAD_MESSAGE
    assert f"more than {codec.MAX_MESSAGE_ITEMS} values" in info.value.message


def test_depth_is_refused_before_anything_recurses() -> None:
    with pytest.raises(errors.ProtocolError) as info:
        codec.unpack_client_body(_deep(990))
    assert info.value.code == errors.BAD_MESSAGE and "nests deeper" in info.value.message
    # Just inside the limit the message decodes (and the validator names the field).
    message = codec.unpack_client_body(_deep(codec.MAX_DEPTH))
    with pytest.raises(errors.ProtocolError, match="'action' nests deeper"):
        schemas.validate_client_message(message)


@pytest.mark.parametrize(
    ("body", "code", "words"),
    [
        (b"\x82\xa4type\xa4ping\xa4type\xabl" + b"ist_tables", errors.BAD_MESSAGE,
         "repeats the key"),
        (b"\x81\xa1a\xc4\x00", errors.BAD_FRAME, "binary"),  # zero-length bin
        (b"\x81\xa1a\xc7\x00\x05", errors.BAD_FRAME, "extension"),  # zero-length ext
        (b"\xc4\x00", errors.BAD_FRAME, "binary"),
        (msgpack.packb({"type": "ping"}) + b"\x92" * 300_000, errors.BAD_FRAME, "msgpack"),
    ],
)
def test_frames_the_protocol_does_not_allow(body: bytes, code: str, words: str) -> None:
    with pytest.raises(errors.ProtocolError) as info:
        codec.unpack_client_body(body)
    assert info.value.code == code and words in info.value.message
    assert len(info.value.message) <= 160


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ({"type": "join", "table": "t1", "seat": None}, "whole number"),
        ({"type": "ping", "ref": [[[[1]]]]}, "'ref'"),
        ({"type": "rename", "name": "a\u2028b"}, "unprintable"),
        ({"type": "chat", "text": "line\u2029break"}, "unprintable"),
        ({"type": "rename", "name": "\u3164\u3164"}, "invisible"),
        ({"type": "rename", "name": "\u2800"}, "invisible"),
        ({"type": "rename", "name": "\u115f\u1160"}, "invisible"),
        ({"type": "rename", "name": "e" + "\u0301" * 23}, "combining"),
        ({"type": "chat", "text": "\u00a0\u3000"}, "blank"),
        ({"type": "chat", "text": "\u2800\u3164"}, "invisible"),
        # A screen reads "[" as a style: "[/]" broke others' screens (and their apps),
        # "[@click=…]" would be a link to an action in their apps.
        ({"type": "rename", "name": "[/]"}, "may not hold [ or ]"),
        ({"type": "hello", "version": 1, "name": "[@click=app.quit]Bob"}, "[ or ]"),
        ({"type": "create_table", "name": "Ann's [b]table", "game": "getout", "seats": 2},
         "[ or ]"),
    ],
)
def test_messages_the_protocol_does_not_allow(message: dict[str, Any], words: str) -> None:
    with pytest.raises(errors.ProtocolError) as info:
        schemas.validate_client_message(message)
    assert info.value.code == errors.BAD_MESSAGE and words in info.value.message


def test_ordinary_accents_and_scripts_are_still_names() -> None:
    for name in ["Zoë", "José", "Nguyễn", "김민준", "Дарья", "e\u0301"]:
        assert schemas.validate_client_message({"type": "rename", "name": name})["name"] == name
    # A chat line may hold brackets ("[1/2]"): the log shows it as it was typed.
    assert schemas.validate_client_message({"type": "chat", "text": "[1/2] [/]"})["text"] == (
        "[1/2] [/]")
    # The host's own check says it too (the app's settings, a box's front doors).
    with pytest.raises(RequestError, match=r"may not hold \[ or \]"):
        check_name("Zoë]")


# --------------------------------------------------------------------------- on the wire


async def test_before_hello_only_a_small_frame_is_read(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="hiddenhand.host")
    async with running_host() as host, clients(host) as made:
        ann, bob = await _pair(made)
        peers = [await RawPeer.open(host) for _ in range(8)]
        for peer in peers:
            peer.writer.write(frame(msgpack.packb(BOMB)))
        for peer in peers:
            try:
                reply = await peer.recv()
            except ConnectionResetError:
                # The host closed with our unread bytes in its buffer: the kernel resets.
                continue
            assert reply["code"] == errors.FRAME_TOO_LARGE and "before hello" in reply["message"]
            assert await peer.closed_by_host()
        assert not [c for c in host.connections if not c.welcomed]
        await _still_serving(ann, bob)
    _no_tracebacks(caplog)


async def test_after_hello_the_bomb_and_deep_nesting_get_bad_message(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="hiddenhand.host")
    # (A frame costs the message allowance by its size: at the usual rate a second bomb
    # would be refused unread, see test_a_frame_costs_the_allowance_by_its_size.)
    async with running_host(**ROOMY) as host, clients(host) as made:
        ann, bob = await _pair(made)
        peer = await _welcomed(host)
        for body in [msgpack.packb({**BOMB, "ref": 1}), _deep(990), _deep(codec.MAX_DEPTH + 3)]:
            for _ in range(2):
                await peer.send_bytes(frame(body))
                reply = await peer.recv()
                assert reply["type"] == "error" and reply["code"] == errors.BAD_MESSAGE, reply
        await peer.send({"type": "ping", "ref": 9})
        assert await peer.recv() == {"type": "pong", "ref": 9}  # the connection lives on
        await _still_serving(ann, bob)
        peer.close()
    _no_tracebacks(caplog)


async def test_big_invalid_frames_make_short_log_lines(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="hiddenhand")
    async with running_host(**ROOMY) as host, clients(host) as made:
        ann, bob = await _pair(made)
        peer = await _welcomed(host)
        garbage = msgpack.packb({"type": "ping"}) + b"\x92\x91" * 128_000  # ≈ 257 KB
        invalid = msgpack.packb({"type": "chat", "text": "x" * 4000})
        for body in [garbage] * 5 + [invalid] * 5:
            await peer.send_bytes(frame(body))
            reply = await peer.recv()
            assert reply["code"] in {errors.BAD_FRAME, errors.BAD_MESSAGE}
            assert len(reply["message"]) <= 400
        await _still_serving(ann, bob)
        peer.close()
    lines = [r for r in caplog.records if "connection" in r.getMessage()]
    assert len(caplog.text) < 10 * 1024, len(caplog.text)
    assert all(len(r.getMessage()) < 300 for r in lines)
    _no_tracebacks(caplog)


async def test_a_garbage_stream_then_a_reset_writes_a_few_lines_to_the_log(
        caplog: pytest.LogCaptureFixture) -> None:
    """Frames that do not decode, as fast as a socket takes them, then a reset: each got
    a line in the host's log, and every error the host wrote after the reset one more
    line from asyncio ("socket.send() raised exception.")."""
    caplog.set_level(logging.INFO)
    async with running_host() as host, clients(host) as made:
        ann, bob = await _pair(made)
        peer = await _welcomed(host)
        port = peer.writer.get_extra_info("sockname")[1]
        (eve,) = [r.getMessage().split()[1] for r in caplog.records
                  if r.getMessage().endswith(f" from 127.0.0.1:{port}")]
        garbage = frame(b"garbage")  # (whole frames: not one valid msgpack object)
        peer.writer.write(garbage * 2000)
        sock = peer.writer.get_extra_info("socket")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        peer.writer.abort()  # a reset, not a close
        await _still_serving(ann, bob)
        for _ in range(500):
            if any(line.startswith(f"connection {eve} (") and line.endswith(" closed")
                   for line in caplog.messages):
                break
            await asyncio.sleep(0.01)
        else:
            pytest.fail("the host never saw the peer go")
    lines = [r.getMessage() for r in caplog.records
             if r.getMessage().startswith(f"connection {eve}")]
    assert len(lines) <= LOGGED_REFUSALS + 5, lines
    assert f"connection {eve}: more refused frames; not logging them" in lines
    assert f"connection {eve}: too many frames that are no message; closing it" in lines
    assert not [r for r in caplog.records if r.name == "asyncio"], caplog.text
    _no_tracebacks(caplog)


async def test_frames_that_do_not_decode_count_against_the_rate() -> None:
    """Only frames that decoded were counted: garbage went through at any rate, each
    costing a decode, an error frame and a log line."""
    async with running_host(rate=1.0, burst=5) as host:
        peer = await _welcomed(host)
        await peer.send_bytes(frame(b"garbage") * Limits().max_bad_frames)
        await peer.send({"type": "ping", "ref": 1})
        codes = []
        while True:
            reply = await peer.recv()
            if reply.get("ref") == 1:
                break
            codes.append(reply["code"])
        assert reply["code"] == errors.RATE_LIMITED
        assert len(codes) < 6 and set(codes) == {errors.BAD_FRAME}


async def test_a_peer_sending_frames_that_are_no_message_is_closed(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Each undecodable frame got its error and the connection stayed open for ever, a
    decode each; our apps send none, so a few are answered and then it is closed."""
    caplog.set_level(logging.INFO, logger="hiddenhand.host")
    most = Limits().max_bad_frames
    async with running_host() as host, clients(host) as made:
        ann, bob = await _pair(made)
        peer = await _welcomed(host)
        await peer.send_bytes(frame(b"\xc1") * most)
        for _ in range(most):
            reply = await peer.recv()
            assert reply["code"] == errors.BAD_FRAME
            assert reply["message"].endswith("a byte no msgpack value starts with")
        await peer.send({"type": "ping", "ref": 1})
        assert (await peer.recv())["type"] == "pong"
        await peer.send_bytes(frame(b"\xc1"))
        last = await peer.recv()
        assert last["code"] == errors.BAD_FRAME
        assert last["message"] == "too many frames that are no message; closing the connection"
        assert await peer.closed_by_host()
        await _still_serving(ann, bob)
    _no_tracebacks(caplog)


async def _answered_after_a_burst(peer: RawPeer, ref: int) -> None:
    """Send a burst over the allowance, then a ping now and then until one is answered
    (the first ones are refused: rate limited)."""
    await peer.send_bytes(codec.pack({"type": "ping"}) * 40)
    while True:
        await peer.send({"type": "ping", "ref": ref})
        reply = await peer.recv()
        while reply.get("ref") != ref:
            reply = await peer.recv()
        if reply["type"] == "pong":
            return
        await asyncio.sleep(0.05)


async def test_a_flood_that_answers_pings_is_closed_and_a_burst_is_not() -> None:
    """A flood was refused but the peer stayed as long as it answered pings, costing a
    decode per frame; one over the rate for longer than ``flood_close`` is closed. A
    burst that stops in time stays."""
    limits = Limits(flood_close=1.0)
    async with running_host(rate=100.0, burst=20, limits=limits) as host, \
            clients(host) as made:
        ann, bob = await _pair(made)
        burst = await _welcomed(host, "Bea")
        (bea,) = [c for c in host.connections if c.name == "Bea"]
        await _answered_after_a_burst(burst, 1)
        # Once it had half its allowance back, the burst is forgotten (a ping now and
        # then meanwhile, as any client sends): a second one is no flood either.
        while bea.flooding_since is not None:
            await burst.send({"type": "ping", "ref": 2})
            while (await burst.recv()).get("ref") != 2:
                pass
            await asyncio.sleep(0.05)
        await _answered_after_a_burst(burst, 3)

        eve = await _welcomed(host)
        flood = codec.pack({"type": "ping"}) * 50
        closing = asyncio.ensure_future(eve.closed_by_host(timeout=30))
        async with asyncio.timeout(30):
            while not closing.done():
                with contextlib.suppress(ConnectionError):
                    await eve.send_bytes(flood)
                await asyncio.sleep(0.01)
        assert closing.result()
        await burst.send({"type": "ping", "ref": 4})
        assert (await burst.recv())["type"] == "pong"
        await _still_serving(ann, bob)


async def test_a_flood_that_gets_a_frame_through_now_and_then_writes_a_few_log_lines(
        caplog: pytest.LogCaptureFixture) -> None:
    """"sends too fast" was logged again each time a frame got through: 10,000 lines in
    10 s from one flood. It counts with the connection's other refusals."""
    caplog.set_level(logging.INFO, logger="hiddenhand.host")
    async with running_host(rate=50.0, burst=10) as host:
        peer = await _welcomed(host)
        for _ in range(20):  # over the allowance, then a pause that refills a little
            await peer.send_bytes(codec.pack({"type": "pong"}) * 30)
            await asyncio.sleep(0.1)
        await peer.send({"type": "ping", "ref": 1})
        while (await peer.recv()).get("ref") != 1:
            pass
        lines = [r for r in caplog.records if "too fast" in r.getMessage()]
        assert 1 <= len(lines) <= LOGGED_REFUSALS, len(lines)
        peer.close()


async def test_a_frame_costs_the_allowance_by_its_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every frame cost one of the message allowance, whatever it held, and one beyond
    the allowance was still decoded: frames of thousands of numbers kept a host busy
    within the rate. A frame now costs one more for every ``FRAME_BYTES`` bytes, and
    one beyond the allowance is decoded only if it is small (a request, answered)."""
    decoded: list[int] = []
    real = codec.unpack_client_body

    def counting(body: bytes) -> dict[str, Any]:
        decoded.append(len(body))
        return real(body)

    monkeypatch.setattr(codec, "unpack_client_body", counting)
    # (A slow refill: the allowance spent stays spent while the test sends.)
    async with running_host(rate=2.0, burst=100) as host:
        peer = await _welcomed(host)
        decoded.clear()

        def wide(ref: int) -> bytes:
            return codec.pack({"type": "ping", "ref": ref, "pad": [list(range(100))] * 30})

        cost = 1 + len(wide(1)) // FRAME_BYTES
        assert 30 < cost < 50  # (three of them run the allowance of 100 into debt)
        await peer.send_bytes(wide(1) + wide(2) + wide(3) + wide(4))
        await peer.send({"type": "ping", "ref": 5})
        replies = [await peer.recv() for _ in range(4)]
        assert [r["code"] for r in replies] == [errors.BAD_MESSAGE] * 3 + [errors.RATE_LIMITED]
        assert replies[-1]["ref"] == 5
        # The fourth wide frame was not even decoded; the small ping was, to answer it.
        assert len([n for n in decoded if n > FRAME_BYTES]) == 3
        assert decoded[-1] <= FRAME_BYTES


async def test_an_action_costs_the_allowance_more_than_its_few_bytes() -> None:
    """An action is a move's work (the game, the journal, a view for everyone), and
    cost one of the allowance like a ping: four addresses marking Got Five! boards at
    their allowance held another player half a second behind (a hostile pass)."""
    async with running_host(rate=2.0, burst=100) as host:  # (a slow refill)
        acting, pinging = await _welcomed(host), await _welcomed(host, "Pat")
        await acting.send_bytes(b"".join(
            codec.pack({"type": "act", "action": {"type": "draw"}, "ref": ref})
            for ref in range(1, 31)))
        await pinging.send_bytes(b"".join(
            codec.pack({"type": "ping", "ref": ref}) for ref in range(1, 31)))
        acts = [(await acting.recv())["code"] for _ in range(30)]
        pings = [(await pinging.recv())["type"] for _ in range(30)]
        # 100 of allowance: 13 actions at ACT_COST (the 13th into debt), 30 pings.
        assert acts.count(errors.RATE_LIMITED) == 30 - (100 // ACT_COST + 1), acts
        assert errors.RATE_LIMITED not in acts[:100 // ACT_COST], acts
        assert pings == ["pong"] * 30, pings


async def test_a_seat_makes_its_share_of_a_game_s_moves_and_no_more(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every move is kept to replay the game, and a Got Five! board's marks cost no turn:
    one seat's marks grew the host's memory without end and, past what a record holds,
    made its journal one no resume takes (a hostile pass). A seat now makes its share
    of ``MOVES_PER_GAME`` and is then told so; the game goes on."""
    import net.seats
    from engine.record import MAX_MOVES

    assert net.seats.MOVES_PER_GAME < MAX_MOVES  # (every game's record can be read back)
    monkeypatch.setattr(net.seats, "MOVES_PER_GAME", 40)  # (20 a seat of two)
    async with running_host() as host, clients(host) as made:
        ann = await made.new("Ann")
        joined = await ann.create_table("T", "gotfive", 2, {"auto_cross": False, "first": 1})
        await ann.add_bot(1)
        await ann.start()
        await ann.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
        (table,) = host.tables.values()
        assert table.tape is not None
        for n in range(1, 21):
            await ann.act({"type": "mark", "n": n, "mark": "cross"})
        with pytest.raises(ServerError, match="as many as a seat may") as refused:
            await ann.act({"type": "mark", "n": 30, "mark": "cross"})
        assert refused.value.code == errors.ILLEGAL_ACTION
        assert table.tape.free_by(0) == 20 and "30" not in table.game.view(0)["marks"]
        # A turn is never refused: the game must be able to end.
        await ann.act(next(a for a in table.game.legal_actions(0) if a["type"] == "reveal"))
        assert joined.table in host.tables  # (the table plays on)


async def test_many_connections_of_one_address_share_one_message_allowance() -> None:
    """Each connection had its own message rate and nothing more: 32 connections from
    one address, each within its rate, kept a host busy for everyone. They now spend
    one allowance (three connections' worth) together, and those that keep sending over
    it are closed, as a flood of one connection is, until the rest keep within it;
    another address is served meanwhile."""
    limits = Limits(flood_close=1.0, max_unjoined_per_address=16)
    async with running_host(rate=50.0, burst=50, limits=limits) as host, \
            clients(host) as made:
        ann, bob = await _pair(made)
        peers = [await _hello_from(host, OTHER, f"Spam{i}") for i in range(8)]
        # Each sends 40 frames a second, within its own rate of 50; together 320, over
        # the address's 150. Closed until what is left sends within the address's
        # allowance: at most three of them (3 × 40 ≤ 150) stay.
        await _closed_while_streaming(peers, 0.1, 5, _still_serving(ann, bob))


async def test_many_addresses_each_within_its_allowance_are_held_to_a_share_of_the_host(
) -> None:
    """39 addresses, each well within its own allowance, held a host's other players a
    third of a second behind. Past the host's own rate each address is held to an even
    share of it: those that keep sending more are closed, as a flood is, until the
    rest fit; the players, who send little, are served meanwhile."""
    limits = Limits(flood_close=1.0, host_rate=200.0)
    async with running_host(rate=100.0, burst=100, limits=limits) as host, \
            clients(host) as made:
        ann, bob = await _pair(made)
        peers = [await _hello_from(host, f"127.0.0.{10 + i}", f"Spam{i}") for i in range(8)]
        # Each sends 80 frames a second, within its own 100 (and its address's 300):
        # 640 together, over the host's 200.
        await _closed_while_streaming(peers, 0.05, 3, _still_serving(ann, bob))


async def test_a_request_past_an_address_s_share_of_a_busy_host_is_answered() -> None:
    """Past its share of a busy host an address's frames are refused unread, and a
    request among them was left unanswered: with enough addresses diluting the share,
    a player's moves vanished without a word (a hostile pass). A small frame that
    holds a ``ref`` is answered (decoding the rest, pongs, cost as much as serving),
    within the ``refused`` allowance: answering every one made 40 addresses' tiny
    requests cost the host 15,000 answers a second (the next hostile pass)."""
    limits = Limits(flood_close=3.0, host_rate=200.0, refused_rate=1.0, refused_burst=4)
    async with running_host(rate=100.0, burst=100, limits=limits) as host:
        peers = [await _hello_from(host, f"127.0.0.{10 + i}", f"Spam{i}") for i in range(8)]
        fast = await _hello_from(host, "127.0.0.40", "Fast")

        async def asks() -> None:
            # (The host is busy: one of the 8 was closed for sending past its share.)
            start = time.monotonic()
            # 60 pings in 0.3 s: within its own allowance of 100, past its share of 200.
            for ref in range(1, 61):
                await fast.send({"type": "ping", "ref": ref})
                await asyncio.sleep(0.005)
            # Its allowance of answers comes back at one a second: a ping then is
            # answered, and every answer to the 60 came before it.
            answers: list[dict[str, Any]] = []
            ref = 1000
            while not any(a["ref"] >= 1000 for a in answers):
                ref += 1
                await fast.send({"type": "ping", "ref": ref})
                with contextlib.suppress(TimeoutError):
                    while True:
                        answers.append(await fast.recv(timeout=0.1))
            elapsed = time.monotonic() - start
            first = [a for a in answers if a["ref"] <= 60]
            refused = [a for a in first if a["type"] == "error"]
            assert refused and all(a["code"] == errors.RATE_LIMITED for a in refused)
            assert len(refused) <= 4 + elapsed + 1  # its allowance of answers
            assert len(first) < 60  # the rest refused unread

        await _closed_while_streaming(peers, 0.05, 1, asks())
        fast.close()


async def _hello_from(host: Host, address: str, name: str) -> RawPeer:
    """A raw connection from ``address`` that has said hello."""
    peer = await _from(host, address)
    await peer.send({"type": "hello", "version": framing.PROTOCOL_VERSION, "name": name})
    assert (await peer.recv())["type"] == "welcome"
    return peer


async def _closed_while_streaming(peers: list[RawPeer], every: float, enough: int,
                                  meanwhile: Coroutine[Any, Any, None]) -> None:
    """Each of ``peers`` sends four frames every ``every`` seconds (pongs: nothing is
    answered, nothing piles up unread) until the host has closed ``enough`` of them;
    then ``meanwhile`` runs, the rest still sending, and all are dropped."""
    four = codec.pack({"type": "pong"}) * 4

    async def keep_sending(peer: RawPeer) -> None:
        with contextlib.suppress(ConnectionError):
            while True:
                await peer.send_bytes(four)
                await asyncio.sleep(every)

    senders = [asyncio.ensure_future(keep_sending(p)) for p in peers]
    ends = [asyncio.ensure_future(p.closed_by_host(timeout=30)) for p in peers]
    try:
        async with asyncio.timeout(30):
            while sum(end.done() for end in ends) < enough:
                await asyncio.wait(ends, return_when=asyncio.FIRST_COMPLETED)
        await meanwhile
    finally:
        meanwhile.close()  # (not awaited if the wait failed)
        for task in senders + ends:
            task.cancel()
        for peer in peers:
            peer.close()


async def test_duplicate_keys_and_empty_binary_on_the_wire() -> None:
    async with running_host() as host:
        peer = await _welcomed(host)
        await peer.send_bytes(frame(b"\x82\xa4type\xa4ping\xa4type\xablist_tables"))
        assert (await peer.recv())["code"] == errors.BAD_MESSAGE
        await peer.send_bytes(frame(b"\x82\xa4type\xa4ping\xa3ref\xc4\x00"))
        assert (await peer.recv())["code"] == errors.BAD_FRAME
        await peer.send_bytes(frame(b"\x82\xa4type\xa4ping\xa3ref\xd4\x01\x00"))
        assert (await peer.recv())["code"] == errors.BAD_FRAME
        await peer.send({"type": "join", "table": "t1", "seat": None, "ref": 3})
        reply = await peer.recv()
        assert reply["code"] == errors.BAD_MESSAGE and reply["ref"] == 3
        peer.close()


async def test_a_got_five_mark_is_pushed_to_its_own_seat_only() -> None:
    async with running_host() as host, clients(host) as made:
        ann = await made.new("Ann")
        bob = await made.new("Bob")
        eve = await made.new("Eve")
        joined = await ann.create_table("T", "gotfive", 2, {"auto_cross": False})
        await bob.join(joined.table)
        await bob.ready()
        await eve.join(joined.table, spectate=True)
        await ann.start()
        first = await ann.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
        await bob.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
        await eve.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
        await bob.ping()
        await eve.ping()
        bob.pending(), eve.pending()
        await ann.act({"type": "mark", "n": 17, "mark": "circle"})
        mine = await ann.wait_for(lambda m: m["type"] == "update")
        assert mine["view"]["version"] > first["view"]["version"]
        assert mine["events"] == [] and "17" in str(mine["view"])
        # Anything pushed to the others would arrive before the answer to a later ping.
        await bob.ping()
        await eve.ping()
        assert [m for m in bob.pending() if m["type"] == "update"] == []
        assert [m for m in eve.pending() if m["type"] == "update"] == []


async def test_a_busy_host_does_not_drop_quiet_peers_for_its_own_stall() -> None:
    """The host's loop blocked for far longer than the timeout: peers that answer every
    ping it actually sent are kept."""
    import time

    async with running_host(heartbeat=0.05, timeout=0.2) as host:
        peer = await _welcomed(host)

        async def pong_pings(count: int) -> None:
            for _ in range(count):
                msg = await peer.recv(skip_pings=False)
                assert msg["type"] == "ping", msg
                await peer.send({"type": "pong"})

        await pong_pings(3)
        await peer.send({"type": "ping", "ref": 1})  # the host has read all we sent
        assert (await peer.recv()) == {"type": "pong", "ref": 1}
        # Work that holds the one event loop (as a CPU-heavy request would), 5 timeouts long.
        end = time.monotonic() + 1.0
        while time.monotonic() < end:
            pass
        await pong_pings(10)
        assert any(c.welcomed for c in host.connections)
        peer.close()


# --------------------------------------------------------------------------- exhaustion

#: A second loopback address, so that "another machine" stays on this one (lo only).
OTHER = "127.0.0.2"


async def _from(host: Host, address: str) -> RawPeer:
    reader, writer = await stream.open_connection(
        "127.0.0.1", host.port, local_addr=(address, 0)
    )
    return RawPeer(reader, writer)


async def test_an_address_that_reconnects_as_fast_as_it_is_closed_is_held_to_a_pace() -> None:
    """Closed after its bad frames, a connection came straight back: 40 addresses opened
    700 connections a second, each answered before it was closed (a hostile pass). An
    address opens ``connect_burst`` at once, then ``connect_rate`` a second."""
    limits = Limits(connect_rate=0.01, connect_burst=5)
    async with running_host(limits=limits) as host, clients(host) as made:
        for _ in range(5):
            peer = await _from(host, OTHER)
            await peer.send_bytes(frame(b"\xc1"))  # no message: answered, then closed
            assert (await peer.recv())["code"] == errors.BAD_FRAME
            peer.close()
        peer = await _from(host, OTHER)
        reply = await peer.recv()
        assert reply["code"] == errors.HOST_FULL and "come too fast" in reply["message"]
        assert await peer.closed_by_host()
        # Nobody else is held to that address's pace.
        await made.new("Ann")  # (welcomed, or this fails)
        other = await _from(host, "127.0.0.9")
        await other.send({"type": "ping", "ref": 1})
        assert (await other.recv())["type"] == "pong"
        other.close()


async def test_one_address_cannot_take_every_connection() -> None:
    limits = Limits(max_per_address=6, max_unjoined_per_address=3)
    async with running_host(limits=limits, max_connections=10) as host, clients(host) as made:
        kept: list[RawPeer] = []
        refused = 0
        for _ in range(12):
            peer = await _from(host, OTHER)
            await peer.send({"type": "hello", "version": framing.PROTOCOL_VERSION, "name": "Spam"})
            reply = await peer.recv()
            if reply["type"] == "welcome":
                kept.append(peer)
                if len(kept) > 3:
                    pytest.fail("a fourth idle connection from one address got in")
                continue
            assert reply["code"] == errors.HOST_FULL and "not at a table" in reply["message"]
            assert await peer.closed_by_host()
            refused += 1
        assert len(kept) == 3 and refused == 9
        # The idle ones watch a table: they are no longer idle, but one address is capped.
        ann = await made.new("Ann")
        joined = await ann.create_table("T", "getout", 2)
        for peer in kept:
            await peer.send({"type": "join", "table": joined.table, "spectate": True})
        for _ in range(3):
            peer = await _from(host, OTHER)
            await peer.send({"type": "hello", "version": framing.PROTOCOL_VERSION, "name": "Spam"})
            reply = await peer.recv()
            if reply["type"] == "welcome":
                kept.append(peer)
                await peer.send({"type": "join", "table": joined.table, "spectate": True})
            else:
                assert "at most 6 connections from one address" in reply["message"]
        assert len(kept) == 6
        # A real player from another address still gets in and plays.
        bob = await made.new("Bob")
        await bob.join(joined.table)
        await _still_serving(ann, bob)
        for peer in kept:
            peer.close()


async def test_a_host_full_of_strangers_still_gives_a_player_their_seat_back() -> None:
    """Eight addresses of 32 watchers each filled a host's 256 connections, and a
    player who had dropped could not take their seat back. Past the limit the host
    takes a few connections more, one an address at once, for that alone: anything
    else there is refused and closed."""
    from net.client import Client
    from tests.test_net_game import ann_and_bob_in_play

    async with running_host(max_connections=4) as host, clients(host) as made:
        ann, bob, joined, bob_seat = await ann_and_bob_in_play(made)
        await bob.close()
        strangers = []
        while len(host.connections) < 4:  # (Bob's seat waits; strangers fill the host)
            peer = await _from(host, OTHER)
            await peer.send({"type": "hello", "version": framing.PROTOCOL_VERSION,
                             "name": f"Eve{len(strangers)}"})
            assert (await peer.recv())["type"] == "welcome"
            await peer.send({"type": "join", "table": joined.table, "spectate": True,
                             "ref": 1})
            while (await peer.recv()).get("ref") != 1:
                pass
            strangers.append(peer)
        # A stranger more gets in only to be told the host is full when it asks
        # anything but a seat back: a table list, to watch, a seat with a wrong token.
        for ask in ({"type": "list_tables", "ref": 2},
                    {"type": "join", "table": joined.table, "spectate": True, "ref": 2},
                    {"type": "join", "table": joined.table, "seat": 1, "token": "x" * 20,
                     "ref": 2}):
            peer = await _from(host, "127.0.0.3")
            await peer.send({"type": "hello", "version": framing.PROTOCOL_VERSION,
                             "name": "Mallory"})
            assert (await peer.recv())["type"] == "welcome"
            # (Meanwhile a second one of that address is not let in at all.)
            second = await _from(host, "127.0.0.3")
            assert (await second.recv())["code"] == errors.HOST_FULL
            assert await second.closed_by_host()
            await peer.send(ask)
            reply = await peer.recv()
            assert reply["type"] == "error", reply
            assert await peer.closed_by_host()
        assert len(host.connections) == 4
        back = await Client.connect("127.0.0.1", host.port, name="Bob")
        again = await back.join(joined.table, seat=1, token=bob_seat.token)
        assert again.seat == 1
        update = await ann.wait_for(lambda m: m["type"] == "update" and
                                    m["table"]["seats"][1]["connected"])
        assert update["table"]["seats"][1]["name"] == "Bob"
        await back.chat("back")
        line = await ann.wait_for(lambda m: m["type"] == "chat")
        assert line["seat"] == 1
        await back.close()
        for peer in strangers:
            peer.close()


async def test_a_connection_refused_is_not_held_after_its_answer_is_sent() -> None:
    """Each closed connection was held for its grace of a few seconds, answer sent or
    not: strangers refused a few thousand times a second kept tens of MB of connections
    alive (a hostile pass)."""
    import gc

    limits = Limits(max_connections=1, returning_reserve=0)
    async with running_host(limits=limits) as host:
        kept = await _welcomed(host)
        gc.collect()
        before = sum(isinstance(o, asyncio.Transport) for o in gc.get_objects())
        for _ in range(40):
            peer = await RawPeer.open(host)
            assert (await peer.recv())["code"] == errors.HOST_FULL
            assert await peer.closed_by_host()
            peer.close()
        await kept.send({"type": "ping", "ref": 1})
        assert (await kept.recv())["type"] == "pong"  # (the host has run its closes)
        gc.collect()
        held = sum(isinstance(o, asyncio.Transport) for o in gc.get_objects()) - before
        assert held < 10, held


async def test_strangers_holding_the_room_to_return_give_way_to_the_next_one() -> None:
    """Sixteen addresses each held a connection in the room a full host keeps for
    players taking their seat back, reopening it as soon as it was closed: a dropped
    player was refused 25 times out of 25. The one waiting longest gives way."""
    from net.client import Client
    from tests.test_net_game import ann_and_bob_in_play

    limits = Limits(returning_reserve=2)
    async with running_host(max_connections=2, limits=limits) as host, \
            clients(host) as made:
        _ann, bob, joined, bob_seat = await ann_and_bob_in_play(made)
        await bob.close()
        filler = await _from(host, OTHER)
        await filler.send({"type": "hello", "version": framing.PROTOCOL_VERSION,
                           "name": "Eve"})
        assert (await filler.recv())["type"] == "welcome"
        hogs = []
        for address in ("127.0.0.4", "127.0.0.5"):
            hog = await _from(host, address)
            await hog.send({"type": "hello", "version": framing.PROTOCOL_VERSION,
                            "name": "Hog"})
            assert (await hog.recv())["type"] == "welcome"
            hogs.append(hog)
        assert len(host.connections) == 4  # (Ann and Eve; two let in past the limit)
        back = await Client.connect("127.0.0.1", host.port, name="Bob")
        again = await back.join(joined.table, seat=1, token=bob_seat.token)
        assert again.seat == 1
        gone = await hogs[0].recv()  # the one waiting longest
        assert gone["code"] == errors.HOST_FULL and "others came" in gone["message"]
        assert await hogs[0].closed_by_host()
        await back.close()
        for peer in (filler, *hogs):
            peer.close()


async def test_a_connection_let_in_to_take_a_seat_back_that_takes_none_is_closed() -> None:
    """Let in past a full host's limit, a connection that only answered pings held
    that room for as long as it liked: it has as long as a hello has."""
    async with running_host(max_connections=1, heartbeat=0.2) as host, \
            clients(host) as made:
        await made.new("Ann")
        peer = await RawPeer.open(host)
        await peer.send({"type": "hello", "version": framing.PROTOCOL_VERSION, "name": "B"})
        assert (await peer.recv())["type"] == "welcome"
        said = None
        async with asyncio.timeout(30):
            while said is None:
                msg = await peer.recv(skip_pings=False)
                if msg["type"] == "ping":
                    await peer.send({"type": "pong"})
                elif msg["type"] == "error":
                    said = msg
        assert said["code"] == errors.HOST_FULL and "in time" in said["message"], said
        assert await peer.closed_by_host()


async def test_one_address_cannot_fill_the_host_with_tables() -> None:
    gone = asyncio.Event()
    async with running_host(limits=Limits(empty_table_timeout=0.05)) as host, \
            clients(host) as made:
        host.listeners.append(lambda: gone.set() if not host.tables else None)
        spam = await made.new("Spam")
        for i in range(3):
            await spam.create_table(f"T{i}", "getout", 2)
            await spam.add_bot(1)
            await spam.leave()  # the creator's seat goes, the table with it
        assert not host.tables
        opened = []
        for i in range(3):
            c = await made.new(f"S{i}")
            opened.append((await c.create_table(f"U{i}", "getout", 2)).table)
        extra = await made.new("S4")
        with pytest.raises(ServerError) as info:
            await extra.create_table("One too many", "getout", 2)
        assert info.value.code == errors.BAD_REQUEST and "3 tables open" in info.value.message
        # Their players drop: the lobbies nobody is at close soon, not in ten minutes.
        gone.clear()
        for c in made.all[1:4]:
            await c.close()
        await asyncio.wait_for(gone.wait(), 10)
        await extra.create_table("Now there is room", "getout", 2)


# --------------------------------------------------------------------------- floods


async def test_the_list_of_tables_is_held_to_a_person_s_pace() -> None:
    """A list of tables cost a frame to ask and 3 KB with 32 tables to answer: eleven
    addresses asking 150 times a second held everyone half a second behind."""
    async with running_host() as host, clients(host) as made:
        ann, bob = await _pair(made)
        eve = await made.new("Eve")
        said = []
        for _ in range(Limits().list_burst + 5):
            try:
                await eve.list_tables()
            except ServerError as exc:
                said.append(exc)
        assert said and all(e.code == errors.RATE_LIMITED and "list of tables" in e.message
                            for e in said)
        await _still_serving(ann, bob)


async def test_asking_on_past_an_allowance_is_sending_too_fast() -> None:
    """80 connections asking a review's steps 100 times a second, each answered "wait
    a moment" within the message rate, held another player 345 ms behind, for as long
    as they kept at it (a hostile pass). A request refused for its pace costs
    ``REFUSED_COST`` of the message allowance: one that keeps asking is closed as a
    flood is; the same frames that ask nothing are not."""
    limits = Limits(flood_close=1.0)
    async with running_host(rate=100.0, burst=100, limits=limits) as host, \
            clients(host) as made:
        ann, bob = await _pair(made)
        eve, pat = await _welcomed(host), await _welcomed(host, "Pat")
        asking = codec.pack({"type": "list_tables", "ref": 1}) * 4
        quiet = codec.pack({"type": "pong"}) * 4  # (the same frame rate, nothing asked)
        closing = asyncio.ensure_future(eve.closed_by_host(timeout=30))
        async with asyncio.timeout(30):
            while not closing.done():  # (80 frames a second each: within 100)
                with contextlib.suppress(ConnectionError):
                    await eve.send_bytes(asking)
                await pat.send_bytes(quiet)
                await asyncio.sleep(0.05)
        assert closing.result()
        await pat.send({"type": "ping", "ref": 2})
        while (answer := await pat.recv()).get("ref") != 2:
            pass
        assert answer["type"] == "pong"
        await _still_serving(ann, bob)


async def test_a_chat_flood_does_not_reach_the_others() -> None:
    async with running_host() as host, clients(host) as made:
        ann, bob = await _pair(made)
        limited = 0
        for i in range(60):
            try:
                await ann.chat(f"spam {i}")
            except ServerError as exc:
                assert exc.code == errors.RATE_LIMITED and "too fast" in exc.message
                limited += 1
        await bob.ping()
        lines = [m for m in bob.pending() if m["type"] == "chat"]
        assert limited >= 60 - Limits().chat_burst - 2
        assert len(lines) == 60 - limited <= Limits().chat_burst + 2


async def test_spectate_and_leave_churn_does_not_flood_the_table() -> None:
    async with running_host() as host, clients(host) as made:
        ann, bob = await _pair(made)
        eve = await made.new("Eve")
        await bob.ping()
        bob.pending()
        refused = 0
        for _ in range(100):
            try:
                await eve.join("t1", spectate=True)
                await eve.leave()
            except ServerError as exc:
                assert exc.code == errors.RATE_LIMITED
                refused += 1
                if eve.joined is not None:
                    with contextlib.suppress(ServerError):
                        await eve.leave()
        await bob.ping()
        updates = [m for m in bob.pending() if m["type"] == "update"]
        assert refused > 50
        assert len(updates) <= Limits().lobby_burst + 5
        await _still_serving(ann, bob)


async def test_spectators_of_many_addresses_come_to_a_table_at_a_few_a_second() -> None:
    """Each coming and going of a spectator is told to everyone at the table: 16
    connections of 8 addresses, each within its own allowance, kept 16,000 updates a
    second going to a table's members (a hostile pass). A table takes a few at once,
    then one a second, whoever they are."""
    from net.seats import WATCH_BURST

    async def answered(peer: RawPeer, ref: int) -> dict[str, Any]:
        while (message := await peer.recv()).get("ref") != ref:
            pass  # (the table's updates to a spectator come between)
        return message

    async with running_host() as host, clients(host) as made:
        ann, bob = await _pair(made)
        await bob.ping()
        bob.pending()
        peers = [await _hello_from(host, f"127.0.0.{10 + i}", f"Eve{i}") for i in range(8)]
        answers: list[str] = []
        for _round in range(3):
            for i, peer in enumerate(peers):
                await peer.send({"type": "join", "table": "t1", "spectate": True, "ref": 1})
                answer = await answered(peer, 1)
                answers.append(answer["type"] if answer["type"] != "error" else answer["code"])
                if answer["type"] != "error":
                    await peer.send({"type": "leave", "ref": 2})
                    assert (await answered(peer, 2))["type"] != "error", i
        came = answers.count("joined")
        assert answers.count(errors.RATE_LIMITED) == len(answers) - came, answers
        assert WATCH_BURST <= came <= WATCH_BURST + 3, answers  # (a second or two went by)
        await bob.ping()
        updates = [m for m in bob.pending() if m["type"] == "update"]
        assert len(updates) <= 2 * came, len(updates)
        await _still_serving(ann, bob)


async def test_signals_told_to_everyone_are_held_to_a_person_s_pace() -> None:
    """A Get It! signal takes no turn and is pushed to everyone at the table: at the
    message rate, with a table full of spectators, one seat's keys made tens of
    thousands of pushes a second. Past a person's pace they are refused, and nobody is
    told of them."""
    from net.clock import ManualClock
    from tests.test_net_away_bot import _getit_round

    clock = ManualClock(100.0)  # (stands still: no allowance refills meanwhile)
    async with running_host(clock=clock) as host, clients(host) as made:
        ann, bob, _, _ = await _getit_round(host, made, clock, {})
        await bob.ping()
        bob.pending()
        codes = []
        for i in range(50):
            try:
                await ann.act({"type": "look", "target": 1 + i % 2})
                codes.append("ok")
            except ServerError as exc:
                codes.append(exc.code)
                assert "signalling too fast" in exc.message
        burst = Limits().signal_burst
        assert codes == ["ok"] * burst + [errors.RATE_LIMITED] * (50 - burst), codes
        await bob.ping()
        assert len([m for m in bob.pending() if m["type"] == "update"]) <= burst


async def test_a_table_takes_so_many_spectators_and_no_more() -> None:
    async with running_host(limits=Limits(max_spectators=3)) as host, \
            clients(host) as made:
        ann, bob = await _pair(made)
        for i in range(3):
            await (await made.new(f"Eve{i}")).join("t1", spectate=True)
        with pytest.raises(ServerError, match="3 spectators already") as refused:
            await (await made.new("Zed")).join("t1", spectate=True)
        assert refused.value.code == errors.TABLE_FULL
        await _still_serving(ann, bob)


async def test_one_machine_cannot_take_every_place_to_watch_a_table() -> None:
    """One address filled a table's 32 spectators and kept everyone else from watching
    it (a hostile pass): an address has so many of them, and another still gets in."""
    limits = Limits(max_spectators_per_address=2)
    async with running_host(limits=limits) as host, clients(host) as made:
        ann, bob = await _pair(made)
        peers = [await _hello_from(host, OTHER, f"Eve{i}") for i in range(3)]
        said = []
        for peer in peers:
            await peer.send({"type": "join", "table": "t1", "spectate": True, "ref": 1})
            while (answer := await peer.recv()).get("ref") != 1:
                pass
            said.append(answer.get("code") or answer["type"])
        assert said == ["joined", "joined", errors.TABLE_FULL], said
        friend = await made.new("Pat")
        await friend.join("t1", spectate=True)
        await _still_serving(ann, bob)


async def test_a_rename_pump_is_limited_and_names_cannot_imitate() -> None:
    async with running_host() as host, clients(host) as made:
        ann, bob = await _pair(made)
        with pytest.raises(ServerError) as info:
            await bob.rename("Bot 3")
        assert info.value.code == errors.BAD_REQUEST and "pass for a bot" in info.value.message
        with pytest.raises(ServerError):
            await bob.rename("Ann (spectator)")
        await bob.rename("ANN")
        update = await ann.wait_for(lambda m: m["type"] == "update" and any(
            n["type"] == "renamed" for n in m["notices"]))
        assert [s["name"] for s in update["table"]["seats"]] == ["Ann", "ANN (2)"]
        renamed = refused = 0
        for i in range(30):
            try:
                await bob.rename(f"Bob{i}")
                renamed += 1
            except ServerError as exc:
                assert exc.code == errors.RATE_LIMITED
                refused += 1
        assert renamed <= Limits().rename_burst and refused >= 30 - Limits().rename_burst - 1


async def test_letters_of_other_scripts_that_look_latin_make_no_new_name() -> None:
    async with running_host() as host, clients(host) as made:
        ann, bob = await _pair(made)
        with pytest.raises(ServerError) as info:
            await bob.rename("Вот 2")  # Cyrillic В, о, т
        assert "pass for a bot" in info.value.message
        with pytest.raises(ServerError) as info:
            await Client.connect("127.0.0.1", host.port, name="Βοt 1")  # Greek Β, ο
        assert "pass for a bot" in info.value.message
        with pytest.raises(ServerError):
            await bob.rename("Αnn (ѕpectator)")  # Greek Α, Cyrillic ѕ
        await bob.rename("Аnn")  # a Cyrillic А: the same name to the eye as Ann's
        update = await ann.wait_for(lambda m: m["type"] == "update" and any(
            n["type"] == "renamed" for n in m["notices"]))
        assert [s["name"] for s in update["table"]["seats"]] == ["Ann", "Аnn (2)"]


async def test_invisible_characters_make_no_new_name() -> None:
    """"Bot 2" with a combining grapheme joiner or a variation selector in it sat as a
    person that looked like the bot, and "Ann" with one beside Ann had no "(2)": a name
    is compared without the characters that draw nothing."""
    async with running_host(limits=Limits(rename_burst=20)) as host, clients(host) as made:
        ann, bob = await _pair(made)
        for name in ("Bot\u034f 2", "Bot 2\ufe0f", "Seat\ufe00 1", "Ann (spectator\u034f)",
                     "Bot\u3164 2"):
            with pytest.raises(ServerError) as info:
                await bob.rename(name)
            assert "pass for a bot" in info.value.message, name
        await bob.rename("Ann\u034f")
        update = await ann.wait_for(lambda m: m["type"] == "update" and any(
            n["type"] == "renamed" for n in m["notices"]))
        assert [s["name"] for s in update["table"]["seats"]] == ["Ann", "Ann\u034f (2)"]


@pytest.mark.parametrize("name", [
    "Bot 2\U0001d159", "ꓐot 2", "Ᏼot 2", "Bot ꝛ", "Bot ᒿ", "Bօt 2", "Ann ❨spectator❩",
    "Bot 2\u0489", "Bot 2.", "Bot 2_", "Bot 2-", "Bot.2.", "Ann (spectator)."])
def test_other_look_alikes_and_a_trailing_dot_pass_for_no_bot(name: str) -> None:
    """A second pass found these passing for a bot or a spectator: a null notehead (it
    draws nothing), Lisu, Cherokee and Armenian letters, a 2 of another alphabet,
    ornamental brackets, an enclosing mark, and a dot or dash after the name."""
    with pytest.raises(RequestError, match="pass for a bot"):
        check_name(name)


@pytest.mark.parametrize("name", [
    "Pia (you) ★", "Pia (you)", "Pia(YOU)", "Ｐｉａ （ｙｏｕ）", "Pia ★", "Pia ✓", "▶ Pia",
    "▸ Pia", "Bot 2 for Bob", "bot2 for Bob"])
def test_a_name_may_not_hold_the_marks_the_screens_put_beside_names(name: str) -> None:
    """"Pia (you) ★" sat on Pia's own screen as a second Pia, her own seat's marks and
    all (a pass through the web door); "Bot 2 for Bob" passed for the bot standing in
    for Bob."""
    with pytest.raises(RequestError, match="would pass for"):
        check_name(name)


@pytest.mark.parametrize("name", ["You", "Youssef", "Bob for Bot 2", "Ann (2)", "Bo ☆"])
def test_names_near_a_mark_are_names(name: str) -> None:
    assert check_name(name) == name


def test_look_alikes_of_a_name_are_that_name() -> None:
    from net.seats import name_key

    assert {name_key(n) for n in ("Ann", "Ann\U0001d159", "ꓮnn", "Anո")} == {"ann"}
    assert name_key("Zoë") != name_key("Zoe") and name_key("Bob") == "bob"


async def test_a_spectator_cannot_chat_under_a_players_name() -> None:
    async with running_host() as host, clients(host) as made:
        ann, bob = await _pair(made)
        fake = await made.new("Ann")
        await fake.join("t1", spectate=True)
        await fake.chat("I resign, Bob wins")
        line = await bob.wait_for(lambda m: m["type"] == "chat")
        assert line["name"] == "Ann (spectator)" and line["seat"] is None
        await ann.chat("no I don't")
        line = await bob.wait_for(lambda m: m["type"] == "chat")
        assert line["name"] == "Ann" and line["seat"] == 0
        with pytest.raises(ServerError) as info:
            await Client.connect("127.0.0.1", host.port, name="Bot 2")
        assert "pass for a bot" in info.value.message


async def test_frames_split_into_single_bytes_are_read_whole() -> None:
    async with running_host() as host, clients(host) as made:
        ann, bob = await _pair(made)
        peer = await RawPeer.open(host)
        data = codec.pack(
            {"type": "hello", "version": framing.PROTOCOL_VERSION, "name": "Slow", "ref": 1})
        data += codec.pack({"type": "list_tables", "ref": 2})
        for i in range(len(data)):
            await peer.send_bytes(data[i : i + 1])
        assert (await peer.recv())["type"] == "welcome"
        tables = await peer.recv()
        assert tables["type"] == "tables" and tables["ref"] == 2
        await _still_serving(ann, bob)
        peer.close()


def test_the_rates_of_addresses_that_came_and_went_are_forgotten() -> None:
    """Each address's rate was kept for good unless the host was busy: an address a
    connection made a new entry, never dropped."""
    from net.limits import RATES_KEPT, Gate

    gate = Gate(Limits())
    for i in range(3 * RATES_KEPT):
        assert not gate.heavy(f"10.0.{i // 250}.{i % 250}", 1, float(i))
    assert len(gate._rates) <= RATES_KEPT + 1


async def test_a_game_made_endless_is_ended_and_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """GET OUT!'s rules let a game go on for ever (draw when you could play, pass when
    nothing is left): one person at both seats of a table did, and the game's record
    grew past what one may hold, its review past what a reader could take in."""
    from net import endless

    monkeypatch.setattr(endless, "LONGEST_GAME", 60)
    kept: list[dict[str, Any]] = []
    async with running_host() as host, clients(host) as made:
        host.keepers.append(kept.append)
        ann, bob, joined = await made.playing({"match": False, "first": 0})
        table = host.tables[joined.table]
        game = table.game
        assert game is not None
        seats = {0: ann, 1: bob}
        while table.phase == "play":
            turn = game.view(None)["turn"]
            legal = game.legal_actions(turn)
            action = next((a for a in legal if a["type"] in ("draw", "pass")), legal[0])
            await seats[turn].act(action)
        assert table.phase == "lobby" and not game.over
        told = await ann.wait_for(lambda m: m.get("type") == "update" and any(
            n.get("longest") == 60 for n in m["notices"]))
        assert {"type": "back_to_lobby", "ended": True, "longest": 60} in told["notices"]
        (record,) = kept
        assert record["result"] is None and len(record["moves"]) == 60


async def test_get_it_is_silent_while_a_round_is_dealt_or_runs() -> None:
    """The app offers no chat then, but a client made to send a line was heard: a word
    about the next seat's pile in preparation, where the rules allow none. A spectator,
    who sees no card, may still talk; so may everyone between rounds."""
    async with running_host() as host, clients(host) as made:
        ann, bob, joined, _ = await made.getit_dealt({"timer": 60})
        table = host.tables[joined.table]
        assert table.game is not None and table.game.view(None)["phase"] == "prepare"
        with pytest.raises(ServerError, match="the game is silent now") as refused:
            await bob.chat("your top card is 12")
        assert refused.value.code == errors.WRONG_PHASE
        eve = await made.new("Eve")
        await eve.join(joined.table, spectate=True)
        await eve.chat("good luck")
        heard = await ann.wait_for(lambda m: m.get("type") == "chat")
        assert heard["text"] == "good luck"

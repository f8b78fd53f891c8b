"""Fuzzing the frame decoder and the message validator (hypothesis), and a live host.

Whatever a peer sends, decoding and checking either give a clean message or raise
``ProtocolError`` — never anything else — and a host fed garbage keeps serving the
players at its tables. ``scripts/fuzz_protocol.py`` runs the same for longer.
"""

from __future__ import annotations

import random
from typing import Any

import msgpack
from hypothesis import given
from hypothesis import strategies as st

from net.limits import Limits
from net.wire import codec, errors, framing, schemas
from tests.net_support import RawPeer, clients, frame, running_host

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**63), 2**64 - 1),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=40),
    st.binary(max_size=8),
)
plain = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=6),
    max_leaves=40,
)
kinds = st.sampled_from([*schemas.CLIENT_MESSAGES, "nope", ""])
fields = st.sampled_from(sorted({f for s in schemas.CLIENT_MESSAGES.values() for f in s} |
                                {"ref", "seat", "x"}))
messages = st.builds(
    lambda kind, extra: {"type": kind, **extra},
    kinds, st.dictionaries(fields, plain, max_size=5),
)


def check(body: bytes) -> dict[str, Any] | None:
    """Decode and validate one body; ``None`` if refused (only ever ProtocolError)."""
    try:
        return schemas.validate_client_message(codec.unpack_client_body(body))
    except errors.ProtocolError as exc:
        assert exc.code in {errors.BAD_FRAME, errors.BAD_MESSAGE, errors.UNKNOWN_TYPE}
        assert 0 < len(exc.message) <= 400
        return None


@given(st.binary(max_size=512))
def test_random_bytes_are_refused_or_clean(body: bytes) -> None:
    check(body)


@given(plain)
def test_random_plain_data_is_refused_or_clean(value: Any) -> None:
    check(msgpack.packb(value, use_bin_type=True))


@given(messages)
def test_random_messages_are_refused_or_clean_and_cleaning_is_stable(msg: dict[str, Any]) -> None:
    try:
        body = msgpack.packb(msg, use_bin_type=True)
    except (OverflowError, ValueError):
        return
    cleaned = check(body)
    if cleaned is not None:
        assert schemas.validate_client_message(cleaned) == cleaned
        assert cleaned["type"] in schemas.CLIENT_MESSAGES


@given(messages, st.integers(0, 200), st.binary(min_size=1, max_size=4))
def test_damaged_messages_are_refused_or_clean(
    msg: dict[str, Any], at: int, junk: bytes
) -> None:
    try:
        body = msgpack.packb(msg, use_bin_type=True)
    except (OverflowError, ValueError):
        return
    at = at % (len(body) + 1)
    check(body[:at] + junk + body[at:])
    check(body[:at])


@given(st.lists(st.binary(max_size=300), max_size=8), st.data())
def test_the_frame_splitter_gives_back_every_frame_however_the_stream_is_cut(
    bodies: list[bytes], data: st.DataObject
) -> None:
    stream = b"".join(framing.frame(body) for body in bodies)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=10)))
    splitter = framing.FrameSplitter()
    got: list[bytes] = []
    taken = 0
    for start, end in zip([0, *cuts], [*cuts, len(stream)], strict=True):
        piece = data.draw(st.sampled_from([bytes, bytearray]))(stream[start:end])
        splitter.feed(piece)
        if isinstance(piece, bytearray):
            piece[:] = b"x" * len(piece)  # a caller may reuse its buffer
        while (body := splitter.take()) is not None:
            got.append(body)
            taken += framing.HEADER.size + len(body)
        assert len(splitter) == end - taken
    assert got == bodies and all(type(body) is bytes for body in got)
    assert splitter.cut_short() is None


async def test_a_host_fed_random_frames_keeps_serving_its_players() -> None:
    rng = random.Random(13)
    # Every frame is read (a connection sending many frames that are no message is
    # closed: tests/test_net_hostile.py).
    async with running_host(limits=Limits(max_bad_frames=10**6)) as host, \
            clients(host) as made:
        ann = await made.new("Ann")
        bob = await made.new("Bob")
        joined = await ann.create_table("T", "getout", 2)
        await bob.join(joined.table)
        peer = await RawPeer.open(host)
        await peer.send({"type": "hello", "version": framing.PROTOCOL_VERSION, "name": "Fuzz"})
        assert (await peer.recv())["type"] == "welcome"
        sent = 0
        for _ in range(300):
            kind = rng.choice([*schemas.CLIENT_MESSAGES, "x"])
            msg: dict[str, Any] = {"type": kind, "ref": sent}
            for _ in range(rng.randrange(3)):
                msg[rng.choice(["seat", "name", "text", "action", "table", "z"])] = rng.choice(
                    [None, -1, 2**40, "", "\x1b[2J", [1, [2]], {"type": "play"}, 1.5, True]
                )
            if kind in {"leave", "create_table", "join", "kick", "start", "configure"}:
                continue  # they would only move the fuzzer in and out of tables
            body = msgpack.packb(msg)
            if rng.random() < 0.3:
                cut = rng.randrange(len(body))
                body = body[:cut] + bytes([rng.randrange(256)]) + body[cut + 1 :]
            await peer.send_bytes(frame(body))
            sent += 1
        await peer.send({"type": "ping", "ref": "last"})
        while (reply := await peer.recv())["type"] != "pong" or reply.get("ref") != "last":
            assert reply["type"] in {"error", "ok", "tables", "pong"}, reply
        await ann.chat("still there?")
        line = await bob.wait_for(lambda m: m["type"] == "chat")
        assert line["text"] == "still there?"
        peer.close()

"""Fuzz the host's frame decoder and message validator for a set time, then a live host.

Three kinds of frames, chosen at random: random bytes, random msgpack values, and valid
client messages damaged at one byte or given wrong fields. Each goes through
``unpack_client_body`` and ``validate_client_message``; anything other than a
``ProtocolError`` is a failure. Prints the frames tried, the refusals by code, the
slowest frame, and (with ``--live``) how a host on 127.0.0.1 fared with the same frames
while two players kept chatting.

    .venv/bin/python scripts/fuzz_protocol.py [--seconds 60] [--seed 1] [--live]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import random
import sys
import time
from pathlib import Path
from typing import Any

import msgpack

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from net.wire import codec, errors, framing, schemas, stream

FIELDS = sorted({f for s in schemas.CLIENT_MESSAGES.values() for f in s} | {"ref", "x", "seat"})


def value(rng: random.Random, depth: int = 0) -> Any:
    """A random msgpack-able value, sometimes deep, sometimes wide."""
    roll = rng.random()
    if depth > 12 or roll < 0.45:
        return rng.choice([None, True, False, 0, -1, 2**63 - 1, -(2**63), 1.5, float("nan"),
                           "", "x" * rng.randrange(64), "\x1b[2J", "\u2028", "\u3164", b"",
                           b"\x00" * rng.randrange(4)])
    if roll < 0.75:
        return [value(rng, depth + 1) for _ in range(rng.randrange(8))]
    return {rng.choice([*FIELDS, "type", "k"]): value(rng, depth + 1)
            for _ in range(rng.randrange(6))}


def message(rng: random.Random) -> dict[str, Any]:
    """A message of a known type with random (often wrong) fields."""
    msg: dict[str, Any] = {"type": rng.choice([*schemas.CLIENT_MESSAGES, "nope"])}
    for _ in range(rng.randrange(4)):
        msg[rng.choice(FIELDS)] = value(rng)
    return msg


def body(rng: random.Random) -> bytes:
    """One frame body of a random kind."""
    kind = rng.random()
    if kind < 0.2:
        return rng.randbytes(rng.randrange(300))
    try:
        data = msgpack.packb(value(rng) if kind < 0.5 else message(rng), use_bin_type=True)
    except (OverflowError, ValueError):
        return b"\xc1"
    if data and rng.random() < 0.4:
        at = rng.randrange(len(data))
        data = data[:at] + bytes([rng.randrange(256)]) + data[at + 1 :]
    return data


def fuzz(seconds: float, seed: int) -> tuple[int, collections.Counter[str], float, list[str]]:
    """Run the decoder and validator until ``seconds`` have passed."""
    rng = random.Random(seed)
    codes: collections.Counter[str] = collections.Counter()
    failures: list[str] = []
    slowest = 0.0
    tried = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for _ in range(200):
            data = body(rng)
            start = time.perf_counter()
            try:
                schemas.validate_client_message(codec.unpack_client_body(data))
                codes["accepted"] += 1
            except errors.ProtocolError as exc:
                codes[exc.code] += 1
            except Exception as exc:  # the one thing that must never happen
                failures.append(f"{type(exc).__name__}: {exc} on {data[:60]!r}")
            slowest = max(slowest, time.perf_counter() - start)
            tried += 1
    return tried, codes, slowest, failures


async def live(seconds: float, seed: int) -> tuple[int, int, int, bool]:
    """Send random frames to a host on 127.0.0.1 while two players chat; return
    (frames sent, chat lines the players exchanged, frames the host failed on, whether
    the host closed the fuzzing connection before the time was up)."""
    from net.client import Client
    from net.host import Host
    from net.limits import Limits

    rng = random.Random(seed)
    # Every frame is read: with the usual limits the host closes a connection after a
    # few frames that are no message, or after 10 s of sending faster than its message
    # rate, and the rest would never be decoded.
    host = Host("fuzz", limits=Limits(max_bad_frames=10**9, flood_close=1e9))
    await host.start("127.0.0.1", 0)
    ann = await Client.connect("127.0.0.1", host.port, name="Ann")
    bob = await Client.connect("127.0.0.1", host.port, name="Bob")
    joined = await ann.create_table("T", "getout", 2)
    await bob.join(joined.table)
    # From a source address of its own (still loopback): the host shares an address's
    # allowance among its connections, and a flood from the players' own address took
    # theirs ("too many messages; slow down" to Ann's chat).
    reader, writer = await stream.open_connection("127.0.0.1", host.port,
                                                  local_addr=("127.0.0.2", 0))
    writer.write(codec.pack(
        {"type": "hello", "version": framing.PROTOCOL_VERSION, "name": "Fuzz"}))
    sent = lines = internal = 0
    closed = False

    async def drain_replies() -> None:
        nonlocal internal
        while True:
            try:
                msg = codec.unpack_body(await reader.next_frame())
            except Exception:
                return
            if msg.get("code") == errors.INTERNAL:
                internal += 1

    replies = asyncio.create_task(drain_replies())
    end = time.monotonic() + seconds
    chat_at = 0.0
    while time.monotonic() < end and not writer.is_closing():
        for _ in range(20):
            data = body(rng)
            writer.write(framing.HEADER.pack(len(data)) + data)
            sent += 1
        try:
            await writer.drain()
        except ConnectionError:
            closed = True  # the host closed the fuzzing connection (its limits)
            break
        if time.monotonic() >= chat_at:  # one line a second: within the chat allowance
            chat_at = time.monotonic() + 1.05
            await ann.chat(f"line {lines}")
            await bob.wait_for(lambda m: m["type"] == "chat")
            lines += 1
        await asyncio.sleep(0.01)  # stay under the per-connection message rate
    closed = closed or writer.is_closing()
    writer.close()
    replies.cancel()
    await ann.close()
    await bob.close()
    await host.close()
    return sent, lines, internal, closed


def main() -> int:
    """Parse the arguments, fuzz, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long (default 60)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--live", action="store_true", help="also fuzz a live host")
    args = parser.parse_args()
    tried, codes, slowest, failures = fuzz(args.seconds, args.seed)
    print(f"frames tried: {tried}")
    print("outcomes: " + ", ".join(f"{k} {v}" for k, v in codes.most_common()))
    print(f"slowest frame: {slowest * 1000:.2f} ms")
    print(f"unexpected exceptions: {len(failures)}")
    for line in failures[:10]:
        print("  " + line)
    if args.live:
        sent, lines, internal, closed = asyncio.run(live(min(args.seconds, 30.0), args.seed))
        print(f"live host: {sent} random frames sent, {lines} chat lines still delivered "
              f"between two players, {internal} internal errors"
              + ("; the host closed the fuzzing connection before the time was up"
                 if closed else ""))
        failures += ["internal"] * internal
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

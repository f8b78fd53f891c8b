"""A bot playing one seat through a client, on nothing but what that client receives.

Tests, scripts and headless players seat bots this way: :func:`drive` sees exactly
what a person at that seat would, and plays through the host's ordinary requests.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from net.client import Client, ServerError
from net.clock import Clock, LoopClock
from net.wire import errors

if TYPE_CHECKING:
    from net.host import Bot


async def drive(client: Client, bot: Bot, *, timeout: float = 30.0,
                clock: Clock | None = None) -> dict[str, Any] | None:
    """Play our seat with ``bot`` until the game is over; return the result.

    The bot sees only what the host pushed to this connection: the freshest view and
    its legal actions (older queued messages are skipped). A move made stale by
    someone else's move is retried on the next view; a move refused for coming too
    fast is retried after a pause. A real-time bot (one with ``step(view, legal,
    now)``, as for Get It!) is asked on every update and again when it wants to be,
    on ``clock`` (``net.clock``: the event loop's by default; a test whose host runs on
    a ``ManualClock`` passes the same one). ``timeout`` is in real seconds, whatever
    the clock: it only keeps a game that never ends from hanging its caller.
    """
    clock = clock or LoopClock()
    step = getattr(bot, "step", None)
    wake: float | None
    tried: Any = object()
    pause = 0.01
    async with asyncio.timeout(timeout):
        while True:
            client.pending()  # ``client.latest`` already holds the freshest update
            msg = client.latest
            action, wake = None, None  # a bot with nothing legal waits for news
            if msg is not None and msg.get("view") is not None:
                if msg["table"]["phase"] == "over":
                    return client.result
                version = msg["view"].get("version")
                if msg["legal"] and step is not None:
                    action, wake = step(msg["view"], msg["legal"], clock.now())
                elif msg["legal"] and version != tried:
                    tried = version
                    action = bot.choose(msg["view"], msg["legal"])
            if action is not None:
                try:
                    await client.act(action)
                    pause = 0.01
                except ServerError as exc:
                    if exc.code == errors.RATE_LIMITED:
                        # Too fast for the host: back off, then try this view again.
                        tried = object()
                        await asyncio.sleep(pause)
                        pause = min(2 * pause, 1.0)
                continue
            if wake is None or step is None:
                await client.next()
            elif wake > clock.now():
                await _next_or_time(client, clock, wake)
            else:
                await asyncio.sleep(0)  # asked again at once, once the loop had its turn


async def _next_or_time(client: Client, clock: Clock, when: float) -> None:
    """Wait until ``client`` is pushed a message or ``clock`` reaches ``when``;
    ``ConnectionLost`` if the stream ends first."""
    loop = asyncio.get_running_loop()
    due: asyncio.Future[None] = loop.create_future()

    def time_up() -> None:
        if not due.done():
            due.set_result(None)

    timer = clock.call_at(when, time_up)
    pushed = loop.create_task(client.next())
    try:
        await asyncio.wait((pushed, due), return_when=asyncio.FIRST_COMPLETED)
    finally:
        timer.cancel()
        pushed.cancel()
    if pushed.done() and not pushed.cancelled():
        pushed.result()

"""The queue between a client's read callback and whoever awaits its messages."""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from typing import Any

Message = dict[str, Any]


class Inbox:
    """Pushed messages in order, for ``async for`` and ``Client.next``: what
    ``asyncio.Queue`` gave here, without its sizes and task counts (every update
    passes through it). ``None`` marks the end of the stream."""

    __slots__ = ("_items", "_waiters")

    def __init__(self) -> None:
        self._items: deque[Message | None] = deque()
        self._waiters: deque[asyncio.Future[None]] = deque()

    def put(self, item: Message | None) -> None:
        """Add one message (or the end) and wake one waiting reader."""
        self._items.append(item)
        self._wake()

    def _wake(self) -> None:
        waiters = self._waiters
        while waiters:
            waiter = waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return

    async def get(self) -> Message | None:
        """The first message, once there is one."""
        items = self._items
        while not items:
            waiter = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            try:
                await waiter
            except BaseException:
                # Cancelled (a timeout): a wake meant for this one goes to the next.
                waiter.cancel()
                with contextlib.suppress(ValueError):
                    self._waiters.remove(waiter)
                if items:
                    self._wake()
                raise
        return items.popleft()

    def take_all(self) -> list[Message | None]:
        """Everything waiting now, taken."""
        out = list(self._items)
        self._items.clear()
        return out

"""A remote app's screen as a test reads it: every byte drawn into a terminal emulator
(pyte), and waits for what it shows — shared by the SSH login and the browser tab."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Self

import pyte

WAIT = 30.0  # a bound on every wait, so a broken server fails instead of hanging


class Drawn:
    """A terminal emulator fed with what the app draws, and the end of its stream."""

    def __init__(self, cols: int, rows: int) -> None:
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        self.closed = asyncio.Event()
        self._news = asyncio.Event()

    def drawn(self, data: bytes) -> None:
        """Bytes the app drew."""
        self.raw += data
        self.stream.feed(data)
        self._news.set()

    def ended(self) -> None:
        """The stream closed."""
        self.closed.set()
        self._news.set()

    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def until(self, predicate: Callable[[Self], bool]) -> None:
        """Wait for output after which ``predicate`` holds (the screen shows it)."""

        async def wait() -> None:
            while not predicate(self):
                if self.closed.is_set():
                    raise AssertionError(f"the stream closed; screen:\n{self.text()}")
                self._news.clear()
                await self._news.wait()

        try:
            await asyncio.wait_for(wait(), WAIT)
        except TimeoutError:
            raise AssertionError(f"never drawn; screen:\n{self.text()}") from None

    async def shows(self, *texts: str) -> None:
        await self.until(lambda drawn: all(t in drawn.text() for t in texts))

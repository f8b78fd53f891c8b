"""The host's clock: what it reads the time from and sets its timers on.

A table (``net.table``) never reads a clock: it is called with a reading and says when
it wants to wake. The host (``net.host``) takes both from one :class:`Clock`: by
default :class:`LoopClock`, the event loop's own monotonic clock; in tests and tools a
:class:`ManualClock`, whose time moves only when told, so a Get It! round's timer or a
bot's reaction time passes in no wall time at all and always the same way.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Callable
from typing import Any, Protocol

__all__ = ["Clock", "LoopClock", "ManualClock", "ManualTimer", "Timer"]


class Timer(Protocol):
    """A callback set for a time; ``cancel`` stops it (harmless once it has run)."""

    def cancel(self) -> None:
        """Do not run the callback (if it has not run yet)."""
        ...


class Clock(Protocol):
    """A monotonic clock in seconds, and callbacks at times on it."""

    def now(self) -> float:
        """The time now."""
        ...

    def call_at(self, when: float, callback: Callable[..., object], *args: Any) -> Timer:
        """Run ``callback(*args)`` once the time is ``when`` (as soon as it can, if
        ``when`` has passed already)."""
        ...


class LoopClock:
    """The running event loop's clock (``loop.time()``) and its timers.

    The loop is looked up at each call, so a host may be built before its loop runs.
    """

    def now(self) -> float:
        """The loop's time now."""
        return asyncio.get_running_loop().time()

    def call_at(self, when: float, callback: Callable[..., object], *args: Any) -> Timer:
        """A loop timer at ``when``; a callback already due skips the timer queue."""
        loop = asyncio.get_running_loop()
        if when <= loop.time():
            return loop.call_soon(callback, *args)
        return loop.call_at(when, callback, *args)


class ManualTimer:
    """One callback set on a :class:`ManualClock`."""

    __slots__ = ("_cancelled", "_when", "args", "callback")

    def __init__(self, when: float, callback: Callable[..., object],
                 args: tuple[Any, ...]) -> None:
        self._when = when
        self.callback = callback
        self.args = args
        self._cancelled = False

    def when(self) -> float:
        """The time it is set for."""
        return self._when

    def cancel(self) -> None:
        """Do not run the callback (if it has not run yet)."""
        self._cancelled = True

    def cancelled(self) -> bool:
        """True once cancelled."""
        return self._cancelled


class ManualClock:
    """A clock whose time moves only when told: for tests and tools.

    :meth:`advance` and :meth:`advance_to` move the time forward and run, in time order
    (callbacks set for the same time in the order they were set), every callback due by
    then, each with :meth:`now` at its own time; a callback set by another for a time
    within the step runs in the same step. A callback set for a time that has come
    already does not wait for the next step: the running event loop (if there is one)
    runs it on its next turn, as asyncio would, at the time as it stands. ``start`` is
    the first reading.
    """

    def __init__(self, start: float = 0.0) -> None:
        self._now = float(start)
        self._queue: list[tuple[float, int, ManualTimer]] = []
        self._order = itertools.count()
        #: The event loop already asked to run the callbacks due now, if any.
        self._soon: asyncio.AbstractEventLoop | None = None

    def now(self) -> float:
        """The time now."""
        return self._now

    def call_at(self, when: float, callback: Callable[..., object], *args: Any) -> ManualTimer:
        """Run ``callback(*args)`` once the time reaches ``when``."""
        timer = ManualTimer(float(when), callback, args)
        heapq.heappush(self._queue, (timer.when(), next(self._order), timer))
        if timer.when() <= self._now:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return timer  # no loop: it runs at the next advance
            if self._soon is not loop:
                self._soon = loop
                loop.call_soon(self._run_due)
        return timer

    def next_due(self) -> float | None:
        """When the next callback is due (it may be now), or ``None`` if none is set."""
        self._drop_cancelled()
        return self._queue[0][0] if self._queue else None

    def advance(self, seconds: float) -> None:
        """Move the time ``seconds`` forward, running what falls due on the way."""
        if seconds < 0:
            raise ValueError("time never goes backwards")
        self.advance_to(self._now + seconds)

    def advance_to(self, when: float) -> None:
        """Move the time forward to ``when``, running what falls due on the way."""
        if when < self._now:
            raise ValueError(f"time never goes backwards (it is {self._now}, not {when})")
        while True:
            self._drop_cancelled()
            if not self._queue or self._queue[0][0] > when:
                break
            due, _, timer = heapq.heappop(self._queue)
            self._now = max(self._now, due)
            timer.callback(*timer.args)
        self._now = when

    def _run_due(self) -> None:
        self._soon = None
        self.advance_to(self._now)

    def _drop_cancelled(self) -> None:
        queue = self._queue
        while queue and queue[0][2].cancelled():
            heapq.heappop(queue)

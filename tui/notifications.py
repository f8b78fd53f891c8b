"""The notifications on screen, so that the very same one is never stacked.

A refusal repeated (chat lines sent too fast, a key held down) shows once, not a stack of
the same toast: the app's ``notify`` asks :class:`OnScreen` before it shows one.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable


class OnScreen:
    """The notifications shown, each remembered until its timeout runs out.

    ``clock`` is a monotonic clock in seconds (Textual times the toasts on one).
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        #: Each notification shown (what identifies it), with when it goes.
        self._shown: list[tuple[Hashable, float]] = []

    def shown_again(self, key: Hashable, lasts: float) -> bool:
        """True if the notification ``key`` is still on screen (not to be shown again);
        otherwise it counts as shown now, for ``lasts`` seconds, and this is False."""
        now = self._clock()
        self._shown = [(k, end) for k, end in self._shown if end > now]
        if any(shown == key for shown, _ in self._shown):
            return True
        self._shown.append((key, now + lasts))
        return False

    def clear(self) -> None:
        """Every notification was taken off the screen."""
        self._shown.clear()

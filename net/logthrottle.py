"""A log that a flood of connections cannot fill.

Every connection the host takes, refuses or drops writes a line, which is what an operator
wants to read of a LAN party's few players. Strangers reconnecting as fast as they are
refused wrote 75,000 lines in 25 s (a hostile pass): a disk filled at 250 KB a second.
:class:`Throttle` lets through the first :data:`LINES` lines of each kind (the same
format string) in every :data:`WINDOW` seconds, and the first line of a kind after a
quieter window says how many were left out.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

#: Lines of one kind written in one window; the rest of the window's are counted.
LINES = 50
#: Seconds of a window.
WINDOW = 10.0


class Throttle(logging.Filter):
    """Drops a kind of line past :data:`LINES` a :data:`WINDOW` (see the module)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.clock = clock
        #: Each kind's window: when it began, lines written, lines left out.
        self._kinds: dict[str, list[float]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        now = self.clock()
        kind = str(record.msg)
        window = self._kinds.get(kind)
        if window is None or now - window[0] >= WINDOW:
            if len(self._kinds) > 4 * LINES:  # (kinds are format strings: a few)
                self._kinds.clear()
            left_out = int(window[2]) if window is not None else 0
            self._kinds[kind] = [now, 1, 0]
            if left_out:
                record.msg = f"{record.msg} (and {left_out:,} more lines like it not logged " \
                             f"in {WINDOW:.0f} s)"
            return True
        if window[1] < LINES:
            window[1] += 1
            return True
        window[2] += 1
        return False

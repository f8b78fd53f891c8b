"""The host's log keeps its pace under a flood of connections (``net.logthrottle``)."""

from __future__ import annotations

import logging

from net.logthrottle import LINES, WINDOW, Throttle


def _record(template: str, *args: object) -> logging.LogRecord:
    return logging.LogRecord("net.host", logging.INFO, __file__, 1, template, args, None)


def test_a_kind_of_line_past_its_pace_is_counted_and_said_once_it_is_quieter() -> None:
    """Strangers reconnecting as fast as they were refused wrote 75,000 lines in 25 s."""
    now = [0.0]
    throttle = Throttle(clock=lambda: now[0])
    refused = "connection from %s refused: %s"
    written = [throttle.filter(_record(refused, f"127.0.0.{i % 250}:1", "full"))
               for i in range(1000)]
    assert written.count(True) == LINES and written[:LINES] == [True] * LINES
    # Another kind of line has a pace of its own.
    assert throttle.filter(_record("connection %d closed", 7))
    now[0] += WINDOW
    later = _record(refused, "127.0.0.9:1", "full")
    assert throttle.filter(later)
    assert later.getMessage() == (f"connection from 127.0.0.9:1 refused: full (and "
                                  f"{1000 - LINES:,} more lines like it not logged in "
                                  f"{WINDOW:.0f} s)")
    again = _record(refused, "127.0.0.9:1", "full")
    assert throttle.filter(again) and "not logged" not in again.getMessage()

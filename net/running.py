"""What every long-running command (``host``, ``ssh-serve``, ``web``) does the same way:
log to stdout with the time (each kind of line at a pace: ``net.logthrottle``), and stop
on Ctrl-C or SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys

from net.logthrottle import Throttle


def log_to_stdout(*quiet: str) -> None:
    """Log at INFO to stdout, each line with its time; the loggers ``quiet`` name only
    warnings (a library's chatter)."""
    logging.basicConfig(stream=sys.stdout, level=logging.INFO,
                        format="%(asctime)s %(message)s", datefmt="%H:%M:%S", force=True)
    for handler in logging.getLogger().handlers:  # (a flood of strangers fills no disk)
        handler.addFilter(Throttle())
    for name in quiet:
        logging.getLogger(name).setLevel(logging.WARNING)


def stop_on_signals() -> asyncio.Event:
    """An event set by Ctrl-C or SIGTERM (call with the loop running)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    return stop


__all__ = ["log_to_stdout", "stop_on_signals"]

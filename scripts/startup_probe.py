"""Run a start-up target in this process and report its main thread's CPU time at its first frame.

Used by ``bench_startup.py --cpu``: a view of start-up that the machine's load moves
less than the wall clock does. ``startup_probe.py OUT MARKER -- TARGET [ARGS...]``
runs ``TARGET`` (a script path, or ``hiddenhand`` for the app's console entry point)
with ``ARGS`` on the terminal it was given, with Textual's Linux driver's ``write``
watched: once the text queued for the terminal so far (escape sequences stripped)
holds ``MARKER``, the main thread's CPU time (``time.thread_time``, counted from the
interpreter's start) and the process's are written to the file ``OUT`` in
milliseconds, and the process ends at once (``os._exit``: nothing else runs). The
watch adds one import (the Linux driver, which the app imports anyway before its first
frame) and a regular expression over each written chunk.
"""

from __future__ import annotations

import os
import re
import runpy
import sys
import time

#: CSI and OSC escape sequences, and lone ESC-letter pairs (as in ``bench_startup.py``).
ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")


def watch(out: str, marker: str) -> None:
    """Patch the Linux driver's ``write`` to report and exit once ``marker`` is queued."""
    from textual.drivers.linux_driver import LinuxDriver

    original = LinuxDriver.write
    seen: list[str] = []

    def write(self: LinuxDriver, data: str) -> None:
        original(self, data)
        seen.append(data)
        if marker in ESCAPES.sub("", "".join(seen)):
            cpu, process = time.thread_time(), time.process_time()
            with open(out, "w", encoding="utf-8") as file:
                file.write(f"{cpu * 1000:.3f} {process * 1000:.3f}\n")
            os._exit(0)

    LinuxDriver.write = write  # type: ignore[method-assign]


def main(argv: list[str]) -> int:
    """``OUT MARKER -- TARGET [ARGS...]``: run the target, watched."""
    if len(argv) < 4 or argv[2] != "--":
        print("usage: startup_probe.py OUT MARKER -- TARGET [ARGS...]", file=sys.stderr)
        return 2
    out, marker, target, args = argv[0], argv[1], argv[3], argv[4:]
    watch(out, marker)
    if target == "hiddenhand":
        from tui.cli import main as app_main

        sys.argv = ["hiddenhand", *args]
        return app_main(args)
    sys.argv = [target, *args]
    runpy.run_path(target, run_name="__main__")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

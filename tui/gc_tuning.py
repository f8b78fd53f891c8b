"""How the app tunes Python's garbage collector (the public ``gc`` module), in one place.

Why: starting the app allocates hundreds of thousands of objects (Textual, the app's
classes, the first screen's widgets and styles) that nearly all live as long as the
app. Cyclic collections set off while they are made would walk them over and over
before anything is on the screen, for nothing: they are not garbage. So ``hiddenhand``
(``tui/cli.py``) starts the app with the collector paused and freezes what it has
imported by then, and the app turns the collector back on once its first screen is
painted (:func:`resume_after_start_up`). ``scripts/bench_startup.py`` measures the
start-up this shortens.
"""

from __future__ import annotations

import gc


def resume_after_start_up() -> None:
    """The first screen is painted: the cyclic garbage collector runs again."""
    gc.enable()

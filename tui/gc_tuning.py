"""How the app tunes Python's garbage collector, in one place, with the public ``gc`` module.

At start-up: starting the app allocates hundreds of thousands of objects (Textual, the
app's classes, the first screen's widgets and styles) that nearly all live as long as the
app. Cyclic collections set off while they are made would walk them over and over before
anything is on the screen, for nothing. So ``hiddenhand`` (``tui/cli.py``) starts the app
with the collector paused and freezes what it has imported by then, and the app turns the
collector back on once its first screen is painted (:func:`resume_after_start_up`).

While a table is shown, Python's full (generation 2) collections would start on their own
inside whatever update is being drawn, walking the whole heap in one go: the tail of the
repaint times (``scripts/bench_repaint.py --gc both`` compares). So, while a table is shown:

- everything alive when it opens (the app, its host, Textual, the screens) is frozen
  (``gc.freeze``), and so is whatever survives each full collection;
- generation 2's threshold is never reached: the table asks for a full collection itself
  (:func:`table_collect`) once every :data:`TABLE_COLLECT_EVERY` updates, a moment after
  the update is drawn, when the next move is still some way off;
- at the end of a round (:func:`table_sweep`) the whole heap, frozen objects too, is
  collected once, freeing what the round left behind in frozen cycles.

When the last table goes the thresholds are restored and the heap is unfrozen.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass, field


def resume_after_start_up() -> None:
    """The first screen is painted: the cyclic garbage collector runs again."""
    gc.enable()


#: A table asks for a full collection after every this many updates.
TABLE_COLLECT_EVERY = 10
#: Generation 2's threshold while a table is shown: never reached.
_NEVER = 1 << 30


@dataclass
class _TableTuning:
    """The tuning's state: whether it is on, and the thresholds it replaced."""

    enabled: bool = True
    thresholds: list[tuple[int, int, int]] = field(default_factory=list)


_TUNING = _TableTuning()


def set_table_tuning(enabled: bool) -> None:
    """Turn the table's tuning on or off for tables opened from now on (a benchmark
    compares the two)."""
    _TUNING.enabled = enabled


def table_tuning_active() -> bool:
    """True while a table's tuning is in force (its hook installed)."""
    return _table_freeze_survivors in gc.callbacks


def table_opened() -> None:
    """A table is shown: freeze the heap, and keep full collections for the table."""
    if not _TUNING.enabled:
        return
    gc.freeze()
    if not table_tuning_active():
        gc.callbacks.append(_table_freeze_survivors)
        _TUNING.thresholds[:] = [gc.get_threshold()]
        young, middle, _ = _TUNING.thresholds[0]
        gc.set_threshold(young, middle, _NEVER)


def table_closed() -> None:
    """The table is gone: the collector's thresholds and the unfrozen heap come back."""
    if table_tuning_active():
        gc.callbacks.remove(_table_freeze_survivors)
        if _TUNING.thresholds:
            gc.set_threshold(*_TUNING.thresholds.pop())
    gc.unfreeze()


def table_collect() -> None:
    """A full collection (of what is not frozen), while a table's tuning is in force."""
    if table_tuning_active():
        gc.collect(2)


def table_sweep() -> None:
    """Collect the whole heap once (frozen objects too), then freeze what is left; not
    once the table is gone: then the heap stays unfrozen."""
    if not table_tuning_active():
        return
    gc.unfreeze()
    gc.collect()
    gc.freeze()


def _table_freeze_survivors(phase: str, info: dict[str, int]) -> None:
    """(A ``gc.callbacks`` hook while a table is shown) freeze what a full collection kept."""
    if phase == "stop" and info.get("generation") == 2:
        gc.freeze()

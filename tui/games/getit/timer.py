"""The Get It! round's sand timer: seconds left and a bar that drains, ticking on its own."""

from __future__ import annotations

import math
import time

from rich.text import Text
from textual.geometry import Size
from textual.reactive import reactive
from textual.timer import Timer
from textual.widgets import Static

#: Cells of the sand timer's bar (:data:`SHORT_BAR` on a phone's width).
BAR = 15
SHORT_BAR = 4  # (a cell a quarter of a minute: the words beside it need the room)
#: Seconds left from which the timer says that time is running out.
LOW = 10


class SandTimer(Static):
    """The round's sand timer: seconds left and a bar that drains, ticking on its own.

    ``remaining`` is what the host said was left when the view arrived; the widget counts
    down from there on this machine's clock — from each new reading, even one that says
    what the last one said (a host resumed after a crash gives the same seconds again,
    and this machine's countdown ran on while it was gone). ``None`` hides it (untimed,
    or no round). While ``paused`` (a resumed game waits for its players) it stands still.
    """

    DEFAULT_CSS = """
    SandTimer { width: auto; height: 1; text-align: right; }
    """

    # (Every update of a timed round brings a reading; the timer is drawn again only when
    # what it shows changes: a repaint of the top line widened every frame's work to the
    # whole of the table between it and the change the update was for.)
    remaining: reactive[float | None] = reactive(None, always_update=True, repaint=False)
    # (Each may change the timer's width: see ``get_content_width``.)
    total: reactive[float] = reactive(60.0, layout=True)
    paused: reactive[bool] = reactive(False, layout=True)
    #: What the timer says while paused (why it stands still).
    why_paused: reactive[str] = reactive("paused", layout=True)
    #: Cells of the bar.
    cells: reactive[int] = reactive(BAR, layout=True)  # (its width is its text's)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self._since = self.clock()
        self._tick: Timer | None = None
        #: What the timer showed when it was last drawn (:meth:`_reading`).
        self._drawn: tuple[int, int, bool] | None = None

    def on_mount(self) -> None:
        self._schedule()

    def _schedule(self) -> None:
        """Wake when what the timer shows changes next (a second, a cell of the bar),
        and not at all while nothing counts down: every app at a box's untimed tables
        woke four times a second for nothing."""
        if self._tick is not None:
            self._tick.stop()
            self._tick = None
        if self.is_mounted and (delay := self.until_change()) is not None:
            self._tick = self.set_timer(delay, self._tock)

    def _tock(self) -> None:
        self._tick = None
        self.refresh()
        self._schedule()

    def until_change(self) -> float | None:
        """Seconds until the timer reads differently (a little after, so that it has);
        ``None`` while it stands still."""
        if self.remaining is None or self.paused or (left := self.left()) <= 0:
            return None
        whole = math.floor(left)
        # The clock shows whole seconds rounded up: it changes as ``left`` reaches one.
        changes = [left - whole if left > whole else 1.0]
        if self.total > 0 and (full := round(self.cells * left / self.total)) > 0:
            changes.append(left - (full - 0.5) * self.total / self.cells)
        return min(c for c in changes if c > 0) + 0.005

    def watch_paused(self) -> None:
        self._schedule()

    def watch_total(self) -> None:
        self._schedule()

    def watch_cells(self) -> None:
        self._schedule()

    @staticmethod
    def clock() -> float:
        """This machine's clock the countdown runs on (tests set their own)."""
        return time.monotonic()

    def watch_remaining(self) -> None:
        """A new reading from the host: count down from now."""
        self._since = self.clock()
        self.display = self.remaining is not None
        self._schedule()
        if self._reading() != self._drawn:
            self.refresh()

    def time_left(self) -> float | None:
        """Seconds left now; ``None`` in an untimed round."""
        return None if self.remaining is None else self.left()

    def left(self) -> float:
        """Seconds left now."""
        if self.remaining is None:
            return 0.0
        if self.paused:
            return max(0.0, self.remaining)
        return max(0.0, self.remaining - (self.clock() - self._since))

    def get_content_width(self, container: Size, viewport: Size) -> int:
        """As wide as the timer ever reads with these settings, its last seconds
        included: the words beside it keep one width (the "▶ ◀" of the last ten
        seconds cut the bar off, and after a resize squeezed the words instead)."""
        if self.remaining is None:
            return 0
        minutes = len(str(int(max(self.total, 0)) // 60))
        clock = len(self._word()) + minutes + 3
        widest = max(clock + 1 + self.cells, len(self._low(clock)))
        if self.paused:
            widest = clock + 1 + self.cells + 1 + len(self.why_paused)
        return widest

    def _word(self) -> str:
        # (On a phone's width the short bar beside it says what it is: the words over
        # the table need the room more than "time" does.)
        return "" if self.cells <= SHORT_BAR else "time "

    def _low(self, clock: int) -> str:
        """The last seconds' line, as wide as it is drawn: "▶ 0:07 ◀", and on a wide
        screen the bar after it (a phone's short bar gives way: its last cell said
        nothing the clock does not)."""
        return f"▶ {'0' * clock} ◀" + ("" if self.cells <= SHORT_BAR else " " + "░" * self.cells)

    def render(self) -> Text:
        """time 0:41 ██████████░░░░░ — and in the last seconds, ``▶ time 0:07 ◀`` in
        reverse video, so the end shows on a monochrome terminal and from the corner of
        an eye (the bar alone, one cell of it left, said nothing)."""
        self._drawn = reading = self._reading()
        if reading is None:
            return Text("")
        seconds, full, low = reading
        clock = f"{self._word()}{seconds // 60}:{seconds % 60:02d}"
        text = Text(style="bold")
        if low:
            text.append(f"▶ {clock} ◀", style="reverse")
            if self.cells <= SHORT_BAR:
                return text
            text.append(" ")
        else:
            text.append(f"{clock} ")
        text.append("█" * full)
        text.append("░" * (self.cells - full))
        if self.paused:
            text.append(f" {self.why_paused}", style="italic")
        return text

    def _reading(self) -> tuple[int, int, bool] | None:
        """What the timer shows now: the seconds, the full cells of the bar, and whether
        these are the last seconds (``None``: nothing)."""
        if self.remaining is None:
            return None
        left = self.left()
        full = round(self.cells * left / self.total) if self.total > 0 else 0
        return int(left + 0.999), full, 0 < left <= LOW and not self.paused

    def hold(self, why: str) -> None:
        """Stand still where the countdown is now, saying ``why``: with the host out of
        reach this machine cannot know the round's time, and a host that went down
        holds the round until its players are back."""
        if self.remaining is None or self.paused:
            return
        self.remaining = self.left()
        self.why_paused = why
        self.paused = True

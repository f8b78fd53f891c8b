"""Review a finished game move by move: seen from any seat, or with everything open.

:class:`ReviewScreen` plays a game kept here again from its record (``engine.record.
Replay``), so what shows at a move is the game as it stood then. The moves are listed in
words on the right (a click or Enter on one goes there); the position on the left is
drawn for the seat chosen (``1``–``6``: what that player knew then; ``0``: every card
face up). ``space`` plays the game on at the pace it was played (Get It!'s real time; a
turn-based game's moves a second apart).

The review a table follows together is ``tui.screens.shared_review``'s. Both step
through :class:`Stepper`, which knows the moves and where the review is, not where a
position comes from.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from rich.console import RenderableType
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from engine.record import Replay, mine
from net.whose import reviewer
from tui.review import (
    GAME_NAMES,
    Step,
    clock,
    move_times,
    names_at,
    part_starts,
    result_words,
    steps,
)
from tui.review_position import position
from tui.screens.styled import StyledOnce
from tui.widgets.footer import TableFooter
from tui.widgets.footer_keys import FooterEntry
from tui.widgets.titlebar import TitleBar
from tui.widgets.wrapped import HangingLine, Phrases

#: A turn-based game plays on at this many seconds a move; no pause is longer than
#: :data:`LONGEST` (a Get It! player who thought for a minute).
TURN_PACE = 1.0
LONGEST = 3.0
PARTS = {"getout": "round", "getit": "deal", "gotfive": "clue"}


class Stepper(StyledOnce, Screen[None]):
    """A finished game stepped through: its moves in words, where the review is, and the
    keys; a subclass says where a position comes from (:meth:`draw_position`) and what
    a step does (:meth:`go`)."""

    DEFAULT_CSS = """
    Stepper #review-top { height: auto; padding: 0 1; text-style: bold; }
    Stepper #review-where { height: auto; padding: 0 1; }
    Stepper #review-body { height: 1fr; }
    Stepper #review-position { width: 3fr; padding: 0 1; }
    Stepper #review-moves { width: 2fr; min-width: 24; }
    /* The move shown now stands out without colour too (a monochrome terminal; a
       list's highlight is drawn in colours, and a reverse there was dropped). */
    Stepper #review-moves > .option-list--option-highlighted { text-style: bold underline; }
    /* Too narrow for the position beside the moves: the moves go under it. */
    Stepper.stacked #review-body { layout: vertical; }
    Stepper.stacked #review-position { width: 1fr; height: 2fr; }
    Stepper.stacked #review-moves { width: 1fr; height: 1fr; min-height: 4; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # (Over the move list's own keys: it scrolls sideways with them. One entry in
        # the footer for both: as two, at 80 columns they left no room for the scroll.)
        # (The entry shown is the step forward: a click or a tap on it from the start
        # did nothing, as a step back.)
        Binding("right", "step(1)", "Step", key_display="←→", priority=True,
                tooltip="The next move: →; the one before: ←"),
        Binding("left", "step(-1)", "Back", key_display="←", show=False, priority=True),
        Binding("home", "go(0)", "Start", show=False, priority=True),
        Binding("end", "go(-1)", "End", show=False, priority=True),
        # (One entry for both, as for ←→: "]" alone left "[" unsaid.)
        Binding("right_square_bracket", "part(1)", "Part", key_display="[]",
                tooltip="The next part of the game (a round, a level): ]; the one before: ["),
        Binding("left_square_bracket", "part(-1)", "Part", key_display="[", show=False),
        Binding("space", "play", "Play"),
        # The position may be taller than its room (the moves keep ↑↓).
        Binding("shift+down", "scroll_position(3)", "Scroll", key_display="⇧↑↓"),
        Binding("shift+up", "scroll_position(-3)", "Scroll", show=False),
    ]

    #: Columns the position needs beside the move list (Got Five!'s racks and board; a
    #: hand of cards, a row of piles: at a phone's width, beside the list, "Geoff 11"
    #: was cut to "Geoff 1", another card).
    BESIDE = {"gotfive": 120}
    BESIDE_ANY = 70
    #: Below this many columns the footer packs its keys closer (a phone's).
    COMPACT_BELOW = 60
    #: The footer's keys: the stepping keys first, then a review's own (Esc last)...
    FOOTER_BASE_FIRST = True

    def footer_spare(self) -> tuple[str, ...]:
        """...and where they do not all fit (a phone's 40 columns), these give way so
        that Esc stays in sight (Textual's footer cut it off unsaid)."""
        return ("scroll_position", "play", "part", "seat")

    def __init__(self, game_id: str, names: list[str], steps: list[Step], parts: list[int],
                 times: list[tuple[int, float]], length: int, *, title: str = "") -> None:
        super().__init__()
        self.game_id = game_id
        self.names = names
        self.steps = steps
        self.parts = parts
        #: Every move's number and engine time: the moves counted, and the pace of play
        #: (a Got Five! mark is no move: the list shows it, play goes past it).
        self.times = times
        self.length = length
        self.title_text = title
        #: How many moves are played (0: as dealt).
        self.at = 0
        #: The seat the position is seen from (``None``: everything open).
        self.seat: int | None = None
        self._playing: Timer | None = None

    def compose(self) -> ComposeResult:
        yield TitleBar()
        # (Wrapped between its phrases: "3" / "Bot 3" read as two players.)
        yield Static(Phrases(self._top(), indent=len("Review: ")), id="review-top",
                     markup=False)
        yield Static("", id="review-where", markup=False)
        with Horizontal(id="review-body"):
            with VerticalScroll(id="review-position"):
                yield Static("", id="review-board")
            yield OptionList(*(Option(self._line(s), id=str(s.number)) for s in self.steps),
                             id="review-moves")
        yield TableFooter()

    def on_mount(self) -> None:
        self.show()

    def _line(self, step: Step) -> HangingLine:
        """A move in the list, as the seat the review is seen from knew it (wrapped under
        its words, never inside a card's name); a board mark is not numbered as one."""
        if self._timed():
            where = clock(step.time)
        else:
            where = f"{self.moves_by(step.number):>4}" if step.move else "   ·"
        return HangingLine(where, step.seen_by(self.seat))

    def moves_by(self, at: int) -> int:
        """How many moves are played once the record's first ``at`` entries are (its
        board marks are not moves)."""
        return sum(1 for n, _ in self.times if n <= at)

    def _timed(self) -> bool:
        return self.game_id == "getit"

    def result_text(self) -> str:
        """The game's result in a few words (override)."""
        return ""

    def _top(self) -> str:
        who = ", ".join(f"{i + 1} {n}" for i, n in enumerate(self.names))
        result = self.result_text()
        return (f"Review: {GAME_NAMES.get(self.game_id, self.game_id)} · {who}"
                + (f" · {result}" if result else "")
                + (f" · {self.title_text}" if self.title_text else ""))

    def seen_words(self) -> str:
        """Whose eyes the position is seen with."""
        return "everything open" if self.seat is None else (
            f"seen by {self.seat + 1} {self.names[self.seat]}")

    def time_at(self, at: int) -> float | None:
        """The engine time of move ``at`` (``None``: not known here)."""
        for n, t in self.times:
            if n == at:
                return t
        return None

    def where_words(self) -> str:
        """Which move, part and seat the review is at, in words."""
        part = PARTS.get(self.game_id, "part")
        # A round or attempt is dealt with the game, before any move; clues are moves.
        dealt = int(self.game_id != "gotfive")
        count = sum(1 for k in self.parts if k <= self.at) + dealt
        where = f"move {self.moves_by(self.at)} of {len(self.times)}"
        mark = next((s for s in self.steps if s.number == self.at and not s.move), None)
        if mark is not None and mark.seat is not None and mark.seat < len(self.names):
            # (Which mark: stepping from one to the next said the same words each time.)
            where += f", then {mark.brief or mark.text}"
        when = self.time_at(self.at) if self.at else None
        if self._timed() and when is not None:
            where += f" · {clock(when)}"
        # (Keys the footer has no room for, on a narrow screen, are named here.)
        if self.parts:
            where += f" · {part} {count} of {len(self.parts) + dealt}"
            where += " (] next)" if self.not_in_footer("part") else ""
        playing = (" · playing (space pauses)" if self._playing
                   else " · space plays" if self.not_in_footer("play") else "")
        more = (" · ⇧↓ more below" if self.not_in_footer("scroll_position")
                and self.check_action("scroll_position", ()) else "")
        return f"{where} · {self.seen_words()}{playing}{more}"

    #: The keys the footer drew last (``None``: not drawn yet).
    _in_footer: frozenset[str] | None = None

    def _say_where(self) -> None:
        """The line that says where the review is, wrapped between its phrases ("round 6
        of 6 (] next) · everything" / "open" read as two things)."""
        self.query_one("#review-where", Static).update(Phrases(self.where_words()))

    def footer_drawn(self, names: frozenset[str]) -> None:
        """The footer drew these keys (``TableFooter``): the ones it had no room for
        are named in the line that says where the review is."""
        if names != self._in_footer:
            self._in_footer = names
            self._say_where()

    def not_in_footer(self, name: str) -> bool:
        """Whether the footer left out the key ``name`` (it had no room)."""
        return self._in_footer is not None and name not in self._in_footer

    def draw_position(self) -> RenderableType | None:
        """The position after :attr:`at` moves (``None``: not here yet; override)."""
        return None

    def key_description(self, binding: Binding) -> str | None:
        """Space's words say what it does now: it pauses while the review plays."""
        if binding.action == "play":
            return "Pause" if self._footer_pauses else "Play"
        if binding.action == "part(1)":  # ("[] Part" told nothing: "[] Round", "[] Clue")
            return PARTS.get(self.game_id, "part").capitalize()
        return None

    #: Whether the footer last said "Pause" (it is drawn again when that changes).
    _footer_pauses = False

    def show(self) -> None:
        """Draw the position after :attr:`at` moves and mark that move in the list."""
        self._say_where()
        if (pauses := self._playing is not None or self._ticking) != self._footer_pauses:
            self._footer_pauses = pauses
            self.refresh_bindings()
        board = self.draw_position()
        if board is not None:
            self.query_one("#review-board", Static).update(board)
        moves = self.query_one(OptionList)
        index = self._step_index()
        with self.prevent(OptionList.OptionHighlighted):
            moves.highlighted = index
        if index is None:
            moves.scroll_home(animate=False)  # as dealt: the list from its start
        self.call_after_refresh(self._laid_out)

    def _laid_out(self) -> None:
        """The position may scroll now, or no longer: the keys say so."""
        self.refresh_bindings()
        self._say_where()

    def on_resize(self) -> None:
        """A new size keeps the move shown in sight in the list; below the width the
        position needs beside the moves, the moves go under it."""
        self.set_class(self.size.width < self.BESIDE.get(self.game_id, self.BESIDE_ANY),
                       "stacked")
        self.query_one(TableFooter).compact = self.size.width < self.COMPACT_BELOW
        self.call_after_refresh(self.query_one(OptionList).scroll_to_highlight)
        self.call_after_refresh(self._laid_out)

    def action_scroll_position(self, lines: int) -> None:
        self.query_one("#review-position", VerticalScroll).scroll_relative(
            y=lines, animate=False, immediate=True)  # (a burst of keys: every one counts)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "scroll_position":
            return self.query_one("#review-position", VerticalScroll).max_scroll_y > 0
        return True

    def _step_index(self) -> int | None:
        """The list entry of the last move played (``None`` before the first)."""
        found = None
        for i, step in enumerate(self.steps):
            if step.number > self.at:
                break
            found = i
        return found

    def go(self, at: int) -> None:
        self.at = max(0, min(at, self.length))
        self.show()

    def action_step(self, delta: int) -> None:
        """To the next (or previous) move that has a line in the list."""
        numbers = [s.number for s in self.steps]
        if delta > 0:
            later = [n for n in numbers if n > self.at]
            self.go(later[0] if later else self.length)
        else:
            earlier = [n for n in numbers if n < self.at]
            self.go(earlier[-1] if earlier else 0)

    def action_go(self, at: int) -> None:
        self.go(self.length if at < 0 else at)

    def action_part(self, delta: int) -> None:
        """To the start of the next (or previous) round, attempt or clue."""
        if delta > 0:
            later = [k for k in self.parts if k > self.at]
            self.go(later[0] if later else self.length)
        else:
            earlier = [k for k in self.parts if k < self.at]
            self.go(earlier[-1] if earlier else 0)

    def action_play(self) -> None:
        """Play on at the game's own pace, or pause."""
        if self._playing is not None:
            self.pause()
            return
        if self.at >= self.length:
            self.go(0)
        self._schedule()
        self.show()

    def pause(self) -> None:
        if self._playing is not None:
            self._playing.stop()
            self._playing = None
            self.show()

    #: The shortest wait between two steps of play (``0``: each move in turn).
    SHORTEST = 0.0

    def _next(self) -> tuple[int, float] | None:
        """The move play goes to next, and the wait before it."""
        later = [(n, t) for n, t in self.times if n > self.at]
        if not later:
            return None
        if not self._timed():
            return later[0][0], TURN_PACE
        now = self.time_at(self.at) if self.at else 0.0
        now = 0.0 if now is None else now
        n, t = later[0]
        wait = min(LONGEST, max(0.0, t - now))
        if wait < self.SHORTEST:
            # Moves closer together than a step of play are taken together.
            wait = self.SHORTEST
            n = max(k for k, when in later if when - now <= wait or k == n)
        return n, wait

    def _schedule(self) -> None:
        upcoming = self._next()
        if upcoming is None:
            self._playing = None
            self.show()
            return
        self._playing = self.set_timer(upcoming[1], lambda: self._tick(upcoming[0]))

    def _tick(self, at: int) -> None:
        if self._playing is None:
            return
        self._playing = None
        self._ticking = True  # (still playing: the footer's "Pause" stays)
        try:
            self.go(at)
        finally:
            self._ticking = False
        self._schedule()
        self.show()

    _ticking = False

    @on(OptionList.OptionSelected, "#review-moves")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.go(int(event.option.id))

    def action_close(self) -> None:
        """Back where the review was opened from (``hiddenhand replay``: quit)."""
        if self._playing is not None:
            self._playing.stop()
        if len(self.app.screen_stack) > 1:
            self.dismiss(None)
        else:
            self.app.exit()


class ReviewScreen(Stepper):
    """One finished game kept here, stepped through from any seat or all open."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("0", "seat(-1)", "All open"),
        # (Named in the footer by the first, "1-3 Seat": hidden, they were guessed.)
        Binding("1", "seat(0)", "Seat", key_display="1-6"),
        *(Binding(str(n), f"seat({n - 1})", f"Seat {n}", show=False) for n in range(2, 7)),
        Binding("escape", "close", "Close"),
    ]

    def __init__(self, record: dict[str, Any], replay: Replay, *, title: str = "") -> None:
        super().__init__(record["game"], [p["name"] for p in record["players"]],
                         steps(record, replay), part_starts(record, replay),
                         move_times(record["game"], ((k, m[1], m[2]) for k, m in
                                                     enumerate(record["moves"], 1))),
                         len(replay),
                         title=title)
        self.record = record
        self.replay = replay
        #: The reader's own seats, by whose they were (``net.whose``).
        self.yours = frozenset(mine(record, reviewer()))

    def key_display(self, binding: Binding) -> str | None:
        """The seat keys as this game's seats run: "1-3"."""
        if binding.action == "seat(0)":
            return f"1-{len(self.names)}"
        return None

    def seen_words(self) -> str:
        """Whose eyes, and where the footer has no room for them (a narrow screen), the
        keys that change them."""
        words = super().seen_words()
        if self.not_in_footer("seat"):
            words += f" (0 all, 1-{len(self.names)} a seat)"
        return words

    def result_text(self) -> str:
        return result_words(self.game_id, self.replay.final.result, self.names)

    def draw_position(self) -> RenderableType:
        # (Who sat where then: a bot standing in for someone away is named there too.)
        names = names_at(self.names, self.record.get("seated", []), self.at)
        return position(self.replay.game_at(self.at), self.seat, names,
                        self.replay.private, self.yours)

    def footer_clicked(self, entry: FooterEntry) -> bool:
        """A click on the footer's "1-4 Seat" (one key for every seat): the next seat's
        eyes, round again after the last (it always chose seat 1: by mouse no other seat
        could be chosen)."""
        if entry.action != "seat(0)":
            return False
        self.action_seat(0 if self.seat is None else (self.seat + 1) % len(self.names))
        return True

    def action_seat(self, seat: int) -> None:
        if seat >= len(self.names):
            self.notify(f"this game had {len(self.names)} seats", severity="warning")
            return
        self.seat = None if seat < 0 else seat
        moves = self.query_one(OptionList)
        for i, step in enumerate(self.steps):
            if step.others is not None:
                moves.replace_option_prompt_at_index(i, self._line(step))
        self.show()
        # The lines changed their heights (another seat's words): the move shown is
        # brought back in sight (it was scrolled off, the list six moves on).
        self.call_after_refresh(moves.scroll_to_highlight)


def open_review(path: Path, game: int) -> ReviewScreen | str:
    """The review of kept game ``game`` in the store at ``path``, or why it cannot open."""
    from engine.record import RecordError
    from net.records import GameStore, StoreError
    from net.whose import for_review

    try:
        with GameStore(path) as store:
            record, replay = for_review(store.get(game))
    except (StoreError, RecordError) as exc:
        return str(exc)
    return ReviewScreen(record, replay, title=f"game {game}")


"""The end-of-round (or end-of-game) dialog every table uses: a title, a body, choices.

A game builds the body (who won, points, piles laid open …) and says which answers are
possible now; the dialog always offers "look at the table". It focuses the first primary
answer (Enter goes on, as players expect), and an answer given within
:data:`ANSWER_GUARD` of the dialog showing, by its key or by Enter, is asked again: it
was most likely meant for the table (an Enter for the last move), not the dialog.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

from rich.cells import cell_len
from rich.console import RenderableType
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widget import MountError
from textual.widgets import Button, Label, Static

from tui.screens.styled import StyledOnce
from tui.widgets.buttons import FOCUS_MARKS, bare_label, show_label
from tui.widgets.footer import TableFooter

#: What a player who is not the table's creator reads at the end of a game.
GUEST_AT_END = ("The table's creator may ask for a rematch, review the game with "
                "everyone or take the table back to the lobby. To leave: close this (c or "
                "Esc), then Esc.")
#: The answers a summary can give, each with its key: the table acts on the answer.
KEYS = {"next": "n", "rematch": "r", "lobby": "l", "finish": "f", "leave": "e"}
#: Seconds after a summary shows in which a key that answers is asked again: it was
#: most likely typed for the table as the game ended (a person reacts in about 0.3 s).
ANSWER_GUARD = 0.8
#: Seconds after a key that was asked again in which the same key is asked again too: a
#: key held down, or typed twice for the table (Got Five!'s r r), is no answer. A person
#: who read "press r again" presses it later than that.
REPEAT_GUARD = 0.4


@dataclass(frozen=True)
class Choice:
    """One answer of the summary ("next" or "lobby", see ``KEYS``) and its label."""

    answer: str
    label: str
    primary: bool = True
    #: The footer's words for it, where the button's are long (at 80 columns three long
    #: labels pushed "c Look at the table" out of the footer).
    short: str | None = None

    @property
    def key(self) -> str:
        """The key that gives this answer."""
        return KEYS[self.answer]


class SummaryScreen(StyledOnce, ModalScreen[str | None]):
    """Shown when a round (or the whole game) ends; answers one of ``choices`` or None."""

    BINDINGS = [
        Binding("n", "answer('next')", "Next round"),
        Binding("r", "answer('rematch')", "Rematch"),
        # (Out of a solo game: its end is the bots' to play, fast or at once.)
        Binding("f", "answer('finish')", "Bots finish at full speed"),
        Binding("e", "answer('leave')", "Leave with the result"),
        Binding("l", "answer('lobby')", "Back to lobby"),
        Binding("c,escape", "answer(None)", "Look at the table"),
        Binding("v", "review", "Review this game"),
        # The table's chat key works here too: the summary gives way to the chat line
        # (typed over it, "/nice one" dealt the next round with its n).
        Binding("slash", "chat", "Chat", key_display="/"),
        # The body may be longer than a small terminal: the keys scroll it (named in the
        # footer only then).
        Binding("down", "scroll(1)", "Scroll", key_display="↑↓"),
        Binding("up", "scroll(-1)", "Scroll", show=False),
        # (A Got Five! game's 24 clues took over 30 presses of ↓ at 80×24.)
        Binding("pageup", "scroll_page(-1)", "Scroll", show=False),
        Binding("pagedown", "scroll_page(1)", "Scroll", show=False),
        Binding("home", "scroll_edge(0)", "Scroll", show=False),
        Binding("end", "scroll_edge(1)", "Scroll", show=False),
    ]

    def __init__(self, title: RenderableType, body: list[RenderableType],
                 choices: list[Choice], *, waiting: str | None = None,
                 clashes: frozenset[str] = frozenset(), id: str | None = None) -> None:
        super().__init__(id=id)
        #: Keys of the answers that the game's table uses for a move (Got Five!'s r
        #: reveals): the first press of one is asked again, however long after the
        #: summary showed (a player thinking over their next move typed r a second
        #: after a bot won, and the rematch took the result off the screen unread).
        self.clashes = clashes
        self.title_text = title
        self.body = body
        self.choices = choices
        self.waiting = waiting
        self.answers = {c.answer for c in choices}
        #: When the summary showed (``time.monotonic``; see :data:`ANSWER_GUARD`).
        self.shown_at = float("inf")
        #: When a key that answers was last asked again (see :data:`REPEAT_GUARD`).
        self.asked_at = float("-inf")
        #: The clock the guards read (a test sets its own).
        self.clock: Callable[[], float] = time.monotonic
        #: Where the game just over is kept, once written (``offer_review``).
        self.kept: tuple[Path, int] | None = None
        self._kept_soon: tuple[Path, Future[int | None], Callable[[], str | None]] | None = None
        #: Whether the table's chat line takes a line now (its table says; ``None``:
        #: no chat from this summary).
        self.chat_open: Callable[[], bool] | None = None
        #: The review the table follows together (``offer_together``): what its button
        #: says now (``None``: not possible now), and what opens it.
        self._together: tuple[Callable[[], str | None], Callable[[], None]] | None = None

    def offer(self, *choices: Choice) -> None:
        """Offer more answers, first (before the summary is shown)."""
        self.choices = [*choices, *self.choices]
        self.answers |= {c.answer for c in choices}

    def offer_review(self, path: Path, kept: Future[int | None],
                     failure: Callable[[], str | None] = lambda: None) -> None:
        """(The game is over, at this app's own host.) Offer to review it (``v``) once
        it is kept as game ``kept``'s result in the store at ``path`` (if it is not,
        ``failure`` says why)."""
        self._kept_soon = (path, kept, failure)

    def offer_together(self, label: Callable[[], str | None],
                       open_it: Callable[[], None]) -> None:
        """(The game is over, at a table others may share.) Offer the review the table
        follows together (``v``) whenever ``label`` says it is possible (its button's
        words); ``open_it`` opens it (or follows it)."""
        self._together = (label, open_it)

    def together_label(self) -> str | None:
        """What the shared review's button says now (``None``: not offered now)."""
        return self._together[0]() if self._together is not None else None

    def key_description(self, binding: Binding) -> str | None:
        """The footer words a key that answers as its button is worded ("l End the
        match", not a second name for the same key), or as its short form."""
        for choice in self.choices:
            if binding.action == f"answer({choice.answer!r})":
                return choice.short or choice.label
        return None

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog summary"):
            # (Plain text: what it says may carry names from the host.)
            yield Label(self.title_text, classes="question", markup=False)
            with VerticalScroll(classes="summary-body"):
                for part in self.body:
                    yield Static(part, markup=False)
            if self.waiting:
                yield Label(self.waiting, classes="waiting", markup=False)
            with Horizontal(classes="buttons"):
                for choice in self.choices:
                    yield Button(f"{choice.label} ({choice.key})", id=f"answer-{choice.answer}",
                                 variant="primary" if choice.primary else "default",
                                 compact=True)
                label = self.together_label()
                if label is not None:
                    yield Button(f"{label} (v)", id="review", compact=True)
                yield Button("Look at the table (c)", id="close", compact=True)
        yield TableFooter()

    def on_mount(self) -> None:
        """Focus the first primary answer, else "look at the table" (unless the summary
        is already going: when the bots race to the end, a round's summary can be
        dismissed before it is mounted)."""
        self.shown_at = self.clock()
        primary = [f"#answer-{c.answer}" for c in self.choices if c.primary]
        for button in self.query(primary[0] if primary else "#close").results(Button):
            button.focus()
        self.call_after_refresh(self.refresh_bindings)  # once the body knows its size
        if self._kept_soon is not None:
            self._wait_for_record(*self._kept_soon)

    @work(group="kept")
    async def _wait_for_record(self, path: Path, kept: Future[int | None],
                               failure: Callable[[], str | None]) -> None:
        """The game is written from a thread in a moment: then it may be reviewed."""
        # Shielded: the summary going away must never cancel the write itself.
        game = await asyncio.shield(asyncio.wrap_future(kept))
        if game is None:
            # (Said: Review was simply missing, and the reason only in a log.)
            self.app.notify(f"This game is not kept in Past games: {failure() or 'see the log'}",
                            severity="warning", timeout=10, markup=False)
            return
        self.kept = (path, game)
        # The summary may be going by now (the next round dealt, the bots racing to the
        # match's end): then there is nothing to add the button to.
        for buttons in self.query(".buttons").results(Horizontal):
            if buttons.is_attached and self.query("#close"):
                with contextlib.suppress(MountError):  # (gone between the two lines)
                    await buttons.mount(Button("Review (v)", id="review", compact=True),
                                        before="#close")
                self.call_after_refresh(self._fit_answers)
                self.refresh_bindings()

    def moved_on(self, words: str) -> None:
        """The game went on under this summary (another player dealt the next round):
        it stays until its reader closes it, says so in ``words``, and its "next" answer
        only closes it now (the round it would deal is dealt)."""
        self.choices = [Choice(c.answer, "To the table", c.primary) if c.answer == "next"
                        else c for c in self.choices]
        if words == self.waiting:
            return
        self.waiting = words
        for button in self.query("#answer-next").results(Button):
            show_label(button, "To the table (n)")  # (its focus marks kept)
            # "Look at the table (c)" beside it now did the same in other words: it goes
            # (c and Esc still close the summary).
            for close in self.query("#close").results(Button):
                if close.has_focus:
                    button.focus()
                close.display = False
        shown = next(iter(self.query(".waiting").results(Label)), None)
        if shown is not None:
            shown.update(words)
        elif self.query(".buttons"):
            with contextlib.suppress(MountError):
                self.query_one(".dialog").mount(Label(words, classes="waiting", markup=False),
                                                before=".buttons")
        self.call_after_refresh(self._fit_answers)
        self.refresh_bindings()

    def review_offer_changed(self) -> None:
        """The table changed: the shared review's button comes, goes or says otherwise."""
        label = self.together_label()
        found = self.query("#review").results(Button)
        button = next(iter(found), None)
        if label is None and button is not None:
            button.remove()
        elif label is not None and button is not None:
            button.label = f"{label} (v)"
        elif label is not None and self.query("#close"):
            for buttons in self.query(".buttons").results(Horizontal):
                with contextlib.suppress(MountError):
                    buttons.mount(Button(f"{label} (v)", id="review", compact=True),
                                  before="#close")
        self.refresh_bindings()

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        """Back from the review: whether it can be opened or followed again may differ."""
        if self._together is not None:
            self.review_offer_changed()

    def action_review(self) -> None:
        """Step through the game just over (the summary stays under the review)."""
        from tui.screens.review import open_review

        # Answered already (v): keys after the review are meant for it (the first r
        # once the review ended said "The game just ended: press r again").
        self.clashes, self.shown_at = frozenset(), float("-inf")

        if self._together is not None:
            if self.together_label() is not None:
                self._together[1]()
            return
        if self.kept is None:
            return
        review = open_review(*self.kept)
        if isinstance(review, str):
            self.notify(review, severity="error", markup=False)
        else:
            self.app.push_screen(review)

    def on_resize(self, event: events.Resize) -> None:
        """A new size may make the body fit, or not; on a narrow terminal the answers
        go one under another (in a row they ran off the dialog's edge)."""
        for body in self.query(".summary-body").results(VerticalScroll):
            body.styles.max_height = None  # (its stylesheet's room, then fitted again)
        self.call_after_refresh(self._fit_answers)
        self.call_after_refresh(self.refresh_bindings)

    def _fit_body(self) -> None:
        """The body gives up the rows the dialog lacks: on a short terminal the dialog
        scrolled to its focused answer, and the headline (who won) went out of sight."""
        for dialog in self.query(".dialog").results(Vertical):
            over = dialog.max_scroll_y
            for body in dialog.query(".summary-body").results(VerticalScroll):
                if over > 0:
                    body.styles.max_height = max(3, body.outer_size.height - over)
                    dialog.scroll_home(animate=False)

    def _fit_answers(self) -> None:
        """The answers in a row where the row holds them (the focused one's marks ▸ ◂
        too), else one under another."""
        for row in self.query(".buttons").results(Horizontal):
            labels = [cell_len(bare_label(b)) for b in row.query(Button).results(Button)]
            # Each answer: its label and a cell either side, a cell between two; the
            # focus marks, on whichever has the focus.
            needed = (sum(width + 2 for width in labels) + len(labels) - 1
                      + cell_len("".join(FOCUS_MARKS)))
            self.set_class(needed > row.content_region.width, "-narrow")
        self.call_after_refresh(self._fit_body)  # (once laid out with the answers so)

    def scrolls(self) -> bool:
        """True if the body is longer than its room (the keys scroll it)."""
        bodies = self.query(".summary-body").results(VerticalScroll)
        return any(body.max_scroll_y > 0 for body in bodies)

    def action_scroll(self, lines: int) -> None:
        """Scroll the summary's body (what happened may not fit the screen)."""
        body = self.query_one(".summary-body", VerticalScroll)
        body.scroll_relative(y=lines, animate=False, immediate=True)  # (every key of a burst)

    def action_scroll_page(self, pages: int) -> None:
        """Scroll the body by what it shows, less a line kept in sight."""
        body = self.query_one(".summary-body", VerticalScroll)
        self.action_scroll(pages * max(1, body.scrollable_content_region.height - 1))

    def action_scroll_edge(self, end: int) -> None:
        """To the body's start (0) or its end (1)."""
        body = self.query_one(".summary-body", VerticalScroll)
        if end:
            body.scroll_end(animate=False, immediate=True)
        else:
            body.scroll_home(animate=False, immediate=True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only the answers possible now have keys (and show in the footer)."""
        if action == "answer" and parameters and parameters[0] is not None:
            return parameters[0] in self.answers
        if action in ("scroll", "scroll_page", "scroll_edge"):
            return self.scrolls()
        if action == "review":
            return self.kept is not None or self.together_label() is not None
        if action == "chat":
            return self.chat_open is not None and self.chat_open()
        return True

    def action_chat(self) -> None:
        """Give way to the table's chat line (the table puts the cursor in it)."""
        self.dismiss("chat")

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        """Answer with the button pressed."""
        button = event.button.id or ""
        if button == "review":
            self.action_review()
            return
        if button.startswith("answer-"):
            self._answer(button.removeprefix("answer-"), "Enter")
            return
        self.dismiss(None)

    def action_answer(self, answer: str | None) -> None:
        """Answer from the keyboard (only with what is possible). A key that answers,
        pressed within :data:`ANSWER_GUARD` of the summary showing, was typed for the
        table (Got Five!'s r reveals; here it asks for a rematch): it is asked again."""
        if answer is None or answer not in self.answers:
            if answer is None:
                self.dismiss(answer)
            return
        self._answer(answer, KEYS[answer])

    def _answer(self, answer: str, key: str) -> None:
        """Give ``answer`` (by ``key``), unless the dialog has only just shown or the key
        is one of the table's own (``clashes``): then ask again (see
        :data:`ANSWER_GUARD`), and so is a key pressed again at once after one that was
        (:data:`REPEAT_GUARD`)."""
        now = self.clock()
        repeated = now - self.asked_at < REPEAT_GUARD
        clash = key in self.clashes
        if now - self.shown_at < ANSWER_GUARD or repeated or clash:
            self.clashes = self.clashes - {key}  # (asked once)
            self.asked_at = now
            self.shown_at = float("-inf")  # (a later key is meant)
            if not repeated:  # (one note for a run of keys)
                label = next((c.label for c in self.choices if c.answer == answer), answer)
                # (A round's end in a match is no game's: "the game just ended" alarmed.)
                # (Out of a match the bots play on: no "next", and its round ended.)
                ended = "round" if {"next", "finish"} & self.answers else "game"
                self.notify(f"The {ended} just ended: press {key} again for “{label}”.",
                            timeout=3, markup=False)
            return
        self.dismiss(answer)

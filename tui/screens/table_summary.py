"""The end of a round or of the game at a table: its summary dialog, and the review
of the finished game (the one the table follows together: ``tui.screens.shared_review``).

:class:`TableSummaryScreen` sits between :class:`~tui.screens.table_creator.
TableCreatorScreen` and :class:`~tui.screens.table.TableScreen`: it opens a game's
summary when an update ends a round (``summary``/``summary_over`` are the game's), opens
it again on ``v``, opens it for a game that was over before we came (back) to the table,
offers the review, and hands the host's review frames to :class:`~tui.screens.
shared_review.TableReview`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from textual import on
from textual.screen import ModalScreen

from tui import gc_tuning
from tui.messages import ConnectionDropped, ConnectionRestored, ReviewReceived
from tui.screens.table_creator import TableCreatorScreen

if TYPE_CHECKING:
    from tui.screens.shared_review import TableReview
    from tui.screens.summary import SummaryScreen
    from tui.session import Session


#: What a summary says once the next round was dealt under it.
MOVED_ON = "The next round has been dealt: it goes on at the table."  # (arranged or played)
#: Seconds after a summary's answer that deals (the next round, a rematch), or after a
#: chat line is sent, in which the table's keys do nothing: a key typed twice ("Enter
#: Enter", Got Five!'s "r r") was meant for the summary or the chat line, and its second
#: press played a card (passed a Get It! pile, opened Reveal) in a deal never seen.
KEYS_HELD = 0.6


class TableSummaryScreen(TableCreatorScreen):
    """A table screen's part for the ends of rounds and games (see the module)."""

    #: The events that end a game of this kind, as an update that ended it carried
    #: them (the summary of a game over before we came is made with them; override).
    GAME_ENDED: ClassVar[list[dict[str, Any]]] = [{"type": "round_over"}]
    #: The update (and the names) the last summary was made of, until the next round
    #: begins: ``v`` opens it again once it was closed to look at the table.
    _last_summary: tuple[dict[str, Any], list[str]] | None = None
    #: The game's end was shown (a summary opened on an update of the game over).
    _end_shown = False
    #: An update with a view has come to this screen (the first may find a round over).
    _view_seen = False
    #: A summary to show once the review above the table closes, and its answer's
    #: handler.
    _summary_waiting: tuple[SummaryScreen, Callable[[str | None], None]] | None = None
    #: Until when the table's keys do nothing (``time.monotonic``; :data:`KEYS_HELD`).
    keys_held_until = float("-inf")

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        #: The review the table follows together, once the host first spoke of one.
        self.review: TableReview | None = None

    def hold_keys(self) -> None:
        """The table's keys do nothing for a moment (:data:`KEYS_HELD`)."""
        self.keys_held_until = time.monotonic() + KEYS_HELD

    def summary(self, msg: dict[str, Any], names: list[str]) -> SummaryScreen | None:
        """The summary to open for this update, when it ends a round (override)."""
        return None

    def summary_over(self, msg: dict[str, Any]) -> bool:
        """True when an open summary should close: the next round began (override)."""
        return False

    def chat_open(self) -> bool:
        """Whether the table's chat takes a line now (the table screen says)."""
        return False

    def action_chat(self) -> None:
        """Put the cursor in the chat line (the table screen does)."""

    def action_next_round(self) -> None:
        """Deal the next round of a game of rounds (the table screen does)."""

    def summary_opened(self) -> None:
        """A summary is on its way onto the table (``summary_screen`` is set): what the
        table says of its keys may change (override)."""

    def summary_answered(self, answer: str | None) -> None:
        """The player answered the summary."""
        if answer == "chat":
            self.action_chat()
        elif answer == "next":
            self.action_next_round()
        elif answer == "lobby":
            self.action_to_lobby(from_summary=True)
        elif answer == "rematch":
            self.action_rematch()
        elif answer == "finish":
            self.action_finish()
        elif answer == "leave":
            self.leave_with_result()

    def rematch_seen(self) -> None:
        """Before an update is shown: a game whose end was shown is being played again
        (a rematch), so its end is no summary of this one (``v`` opened "You win" in the
        new game) and the game starts its screen afresh (:meth:`game_restarted`)."""
        if self._end_shown and self.table.get("phase") != "over":
            self._end_shown = False
            self._last_summary = None
            self.finish_forgotten()
            self.game_restarted()

    def game_restarted(self) -> None:
        """A rematch began: what the screen kept of the last game goes (override)."""

    def _summary(self, msg: dict[str, Any], names: list[str]) -> None:
        over = self.table.get("phase") == "over"
        if self._last_summary is not None and self.summary_over(msg):
            self._last_summary = None
        if self.summary_screen is not None:
            if self.summary_screen.waiting == MOVED_ON:
                # Left open into the next round: it gives way to that round's end.
                ended = any(isinstance(e, dict) and e.get("type") == "round_over"
                            for e in msg.get("events") or [])
                if not (over or self.finishing or ended):
                    return
            elif not self.summary_over(msg):
                self._later_round(msg)
                return
            elif not over and not self.finishing and self._summary_waiting is None:
                # Another player dealt the next round: this one's summary stays until
                # they close it (it vanished while they read it, into the new round).
                self.summary_screen.moved_on(MOVED_ON)
                return
            # It gives way; this update may bring the next one (a match's end).
            if self._summary_waiting is not None:
                self._summary_waiting = None  # (never shown: it waited under a review)
            else:
                self.summary_screen.dismiss(None)
            self.summary_screen = None
        if self.finishing and not over:
            return  # the bots race to the end: only the final summary is worth a stop
        screen = self.summary(msg, names)
        first, self._view_seen = not self._view_seen, True
        phase = (msg.get("view") or {}).get("phase")
        if screen is None and ((over and not self._end_shown)
                               or (first and phase == "round_over")):
            # A game (or a round) already over when we came (back) to its table: its
            # end, as the others read it when it came (back between two Get It! rounds,
            # a player saw the round frozen and no word of how it ended).
            msg = {**msg, "events": [*(msg.get("events") or []), *self.GAME_ENDED]}
            screen = self.summary(msg, names)
        if screen is None:
            return
        self._end_shown = self._end_shown or over
        self._last_summary = (msg, names)
        self._open_summary(screen)

    #: Whether the last view was our turn (a turn-based game's view has ``turn``).
    _our_turn = False

    def _turn_came(self, view: dict[str, Any]) -> None:
        """Our turn came while another screen hides the table (the rules): said there,
        or the others waited on a player who did not know. Not over a dialog, where the
        table shows around it (a notice covered Got Five!'s call as it was typed)."""
        ours = view.get("turn") == self.my_seat and self.my_seat is not None
        came, self._our_turn = ours and not self._our_turn, ours
        on_top = self.app.screen
        if came and self.summary_screen is None and on_top is not self \
                and not isinstance(on_top, ModalScreen):
            self.notify("It is your turn at the table.", timeout=4)

    def _later_round(self, msg: dict[str, Any]) -> None:
        """A round ended under a summary left open (GET OUT!'s, of the round we went out
        in): it says so, or it read as the latest round's through the rounds after it."""
        ended = [e for e in msg.get("events") or []
                 if isinstance(e, dict) and e.get("type") == "round_over"]
        number = ended[-1].get("round") if ended else None
        if self.summary_screen is not None and isinstance(number, int):
            self.summary_screen.moved_on(f"Round {number} is over too: the others play on "
                                         "without you.")

    def action_summary_again(self) -> None:
        """Open the last summary again (it was closed to look at the table)."""
        if self._last_summary is None or self.summary_screen is not None:
            return
        screen = self.summary(*self._last_summary)
        if screen is not None:
            # Asked for, its keys are meant for it: no key of the table's to guard against
            # (Got Five!'s r, the table's reveal, asked again "the game just ended").
            screen.clashes = frozenset()
            self._open_summary(screen)

    def _open_summary(self, screen: SummaryScreen) -> None:
        from tui.screens import shared_review as shared

        self.summary_screen = screen
        screen.chat_open = self.chat_open
        if isinstance(self.app.screen, ModalScreen) and self.app.screen is not screen:
            # Over a dialog of ours (Got Five!'s call as it was typed): its Enter, however
            # late, was meant for that dialog, and it answered Rematch (a fresh-eyed pass).
            screen.clashes = screen.clashes | {"Enter"}
        hosting = self.app.hosting
        if self.table.get("phase") != "over":
            if self.can_finish():
                # Out of a solo game: how its end is played is asked here ("Look at the
                # table" opened a second dialog over the table, asking it), and again
                # when it is opened again (v).
                from tui.screens.summary import Choice

                self.offered_finish = True
                screen.offer(Choice("finish", "Bots finish at full speed", short="Full speed"),
                             Choice("leave", "Leave with the result", primary=False,
                                    short="Leave"))
        elif (hosting.hosts(self.session) and hosting.keeper is not None
                and hosting.last_kept is not None and not self.others_here()):
            # Our own host keeps the game, and nobody else is here: it may be reviewed
            # at once, every card laid open.
            keeper = hosting.keeper
            screen.offer_review(keeper.path, hosting.last_kept, lambda: keeper.failure)
        else:
            # Another's host (it keeps the game), or others at our table: a review the
            # table follows, each seeing their own seat.
            screen.offer_together(lambda: shared.review_offer(self),
                                  lambda: shared.open_review(self))

        def answered(answer: str | None) -> None:
            # (Only if it is still this one: one given way to the next had its answer
            # come after the next was open, and the table lost track of that one.)
            if self.summary_screen is screen:
                self.summary_screen = None
            if answer in ("next", "rematch"):
                self.hold_keys()
            self.summary_answered(answer)
            self._offer_finish()

        # The update that ends a round hides and shows widgets (an emptied pile's big
        # number), and a screen is laid out only while it is the current one: opened at
        # once, the summary's first frame would draw the table under it as it was, the
        # last card still showing. The table's layout is asked for now, and the summary
        # opens once it is done (the screen runs what waits for its refresh after it).
        # Laid out without its notices: the summary shows them, and they showed twice,
        # on it and on the table drawn around it. (Back on top, the table shows them
        # again: Textual's rack shows the notices on screen as a screen resumes.)
        for rack in self.query("ToastRack"):
            rack.display = False
        self.refresh(layout=True)
        self.call_after_refresh(self._push_summary, screen, answered)
        self.summary_opened()
        # A round's end is a pause in the game: a full collection of everything, once
        # the summary is drawn, frees what the round left behind in frozen cycles.
        self.call_after_refresh(gc_tuning.table_sweep)

    def summary_changed(self) -> None:
        """The table changed under an open summary: the review's button may come or go."""
        if self.summary_screen is not None:
            self.summary_screen.review_offer_changed()

    def _push_summary(self, screen: SummaryScreen,
                      answered: Callable[[str | None], None]) -> None:
        """Show the summary; under the review the table follows, if that is open (back
        at a finished game's table, both come at once): then once the review closes."""
        review = self.review.screen if self.review is not None else None
        if review is not None and review in self.app.screen_stack:
            self._summary_waiting = (screen, answered)
        else:
            self.app.push_screen(screen, answered)

    def review_closed(self) -> None:
        """The review is gone: a summary that waited under it shows now."""
        waiting, self._summary_waiting = self._summary_waiting, None
        if waiting is not None and waiting[0] is self.summary_screen and not self.leaving:
            self.app.push_screen(*waiting)
        else:
            self.call_after_refresh(self.summary_changed)  # (the review may be gone)

    # ---- the review the table follows -----------------------------------------

    @on(ReviewReceived)
    def review_received(self, message: ReviewReceived) -> None:
        """The host spoke of the review the table follows (``net.shared_review``)."""
        self._table_review().received(message.msg)

    @on(ConnectionDropped)
    def review_cut_off(self, message: ConnectionDropped) -> None:
        if self.review is not None:
            self.review.cut_off(message.final)
        if message.final and self.summary_screen is not None \
                and self.app.screen is self.summary_screen:
            # The table is gone (its host closed): the summary's answers need it, and
            # it hid the banner that says so until it was closed by hand.
            self.summary_screen.dismiss(None)
        # (Once the base's handlers have marked the connection down.)
        self.call_after_refresh(self.redraw_status)

    @on(ConnectionRestored)
    def reconnected(self) -> None:
        self.call_after_refresh(self.redraw_status)

    def ending_keys(self, *, short: bool = False) -> str:
        """The keys a finished game's status line names: the creator's summary (with
        its rematch and lobby) while the host is there to act on them; ``short``, for a
        narrow line (a phone's cut it mid-phrase: "v: summary (rematch,")."""
        if getattr(self.app, "touch", False):  # (the footer's keys, as a finger finds them)
            if self.is_creator and not self.cut_off:
                return "Summary in the keys below" if short else (
                    "Summary (rematch, lobby) and Leave in the keys below")
            return "Leave in the keys below"
        if self.is_creator and not self.cut_off:
            return "v: summary · Esc: leave" if short else (
                "v: summary (rematch, lobby) · Esc: leave")
        return "Esc: leave"

    def _table_review(self) -> TableReview:
        if self.review is None:
            from tui.screens.shared_review import TableReview  # (with the first review)

            self.review = TableReview(self)
        return self.review

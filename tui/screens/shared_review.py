"""The review of the game just over that a table follows together (``net.shared_review``).

The host sends each player only their own seat's view at each move, so the review is
seen from one's own seat alone (:class:`SharedReviewScreen`); the table's creator leads,
anyone steps alone with the same keys and follows again with ``f``. A table screen's
part in it is :class:`TableReview` (it gathers what the host sends and opens, feeds and
closes the screen), and :func:`review_offer` / :func:`open_review` are what the end
summary offers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType

from tui.review import (
    move_times,
    names_at,
    result_words,
    shared_steps,
    wire_part_starts,
)
from tui.review_position import Position, draw
from tui.screens.review import Stepper


def review_offer(screen: Any) -> str | None:
    """What the summary's review button says now at ``screen``'s table (``None``: none
    now): the creator opens a review the table follows; anyone follows one that is open.
    (One short word: the creator's summary has four more buttons at 80 columns.)"""
    if screen.cut_off or screen.table.get("phase") != "over":
        return None
    if screen.is_creator or screen.table.get("review"):
        return "Review"
    return None


def open_review(screen: Any) -> None:
    """Open the table's review (the creator) or follow the one open."""
    screen.send("review", "open" if screen.is_creator else "follow")


class SharedReviewScreen(Stepper):
    """The review of the game just over that the table follows together
    (``net.shared_review``): seen from one's own seat, led by the table's creator."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f", "follow", "Follow the leader"),
        Binding("escape", "close", "Close"),
    ]

    #: Play sends a step to the host: moves closer together than this go as one step.
    SHORTEST = 0.2

    def __init__(self, opened: dict[str, Any], moves: list[Any],
                 send: Callable[..., Any]) -> None:
        game_id, names = str(opened["game"]), [str(n) for n in opened["names"]]
        times = move_times(game_id, ((m["n"], m.get("action"), float(m["time"]))
                                     for m in moves
                                     if isinstance(m, dict) and isinstance(m.get("n"), int)
                                     and isinstance(m.get("time"), int | float)))
        seated = opened.get("seated") if isinstance(opened.get("seated"), list) else []
        super().__init__(game_id, names, shared_steps(game_id, names, moves, seated),
                         wire_part_starts(game_id, moves), times, int(opened["length"]),
                         title="shared with the table")
        self._send = send
        #: Who came to move for a seat later (``names_at``), as the host said it.
        self.seated = seated
        self.result = opened.get("result")
        #: Our seat in the game (``None``: we watched it): the only eyes we have here.
        self.seat = opened["seat"]
        self.view: dict[str, Any] | None = None
        self.view_at = 0
        self.view_time: float | None = None
        self.following = True
        self.leader: int | None = None
        self.leader_at = 0
        #: Set when the review ended while another screen was above this one.
        self.ended = False
        #: (For the leader) how many others follow, and how many step alone.
        self.others: tuple[int, int] | None = None
        #: Set when we left the review ourselves (Esc): it is not joined again unasked.
        self.left = False
        #: Our step on its way to the host, and the one to ask for once it is answered.
        self._asked: int | None = None
        self._wanted: int | None = None
        self.arrived(opened)

    # ---- what the host sends -----------------------------------------------------------

    def arrived(self, msg: dict[str, Any]) -> None:
        """A position from the host (``review``: the whole review, again after ``f``;
        ``review_at``: a step, ours or the leader's)."""
        at, view = msg.get("at"), msg.get("view")
        if not isinstance(at, int) or not isinstance(view, dict):
            return
        leader, leader_at = msg.get("leader"), msg.get("leader_at")
        self._new_leader(leader if isinstance(leader, int) else None)
        self.leader_at = leader_at if isinstance(leader_at, int) else self.leader_at
        if msg.get("type") == "review":
            self._asked = self._wanted = None
        ours = self._asked is not None and at == self._asked
        if self._asked is not None and not ours:
            # The leader's step, crossing ours on its way: ours is answered next.
            self._refresh()
            return
        self.view, self.view_at = view, at
        when = msg.get("time")
        self.view_time = float(when) if isinstance(when, int | float) else None
        self.following = bool(msg.get("following", True))
        self._asked = None
        if self._wanted is not None:
            # Keys pressed while the host answered: only the last one is asked for.
            wanted, self._wanted = self._wanted, None
            if wanted != at:
                self._ask(wanted)
        elif self.following or ours or at == self.at:
            self.at = at
        self._refresh()

    def state(self, msg: dict[str, Any]) -> None:
        """Where the leader is, and (for the leader) how many follow."""
        leader, leader_at = msg.get("leader"), msg.get("leader_at")
        self._new_leader(leader if isinstance(leader, int) else self.leader)
        self.leader_at = leader_at if isinstance(leader_at, int) else self.leader_at
        following, alone = msg.get("following"), msg.get("alone")
        if isinstance(following, int) and isinstance(alone, int):
            self.others = (following, alone)
        self._refresh()

    def _new_leader(self, leader: int | None) -> None:
        """The table's creator leads: it may change (the creator left the table)."""
        if leader == self.leader:
            return
        known = self.leader is not None
        self.leader = leader
        if known:  # (not as it opens; told even before it is first drawn)
            self.app.notify("You lead the review now: your steps move everyone following."
                        if self.leads else f"{self.leader_name()} leads the review now.",
                        markup=False)

    def _refresh(self) -> None:
        if self.is_mounted:
            self.show()
            self.refresh_bindings()

    def refused(self) -> None:
        """The host refused our step (too fast, or the review is gone): none is on its
        way any more."""
        self._asked = self._wanted = None
        self.at = self.view_at
        self._refresh()

    @property
    def leads(self) -> bool:
        """True if our steps take everyone following along (we created the table)."""
        return self.seat is not None and self.seat == self.leader

    def leader_name(self) -> str:
        leader = self.leader
        return self.names[leader] if leader is not None and 0 <= leader < len(self.names) \
            else "the table's creator"

    def result_text(self) -> str:
        return result_words(self.game_id, self.result, self.names)

    def seen_words(self) -> str:
        if self.seat is None or not 0 <= self.seat < len(self.names):
            return "as a watcher saw it"
        return f"as you ({self.seat + 1} {self.names[self.seat]}) saw it"

    def where_words(self) -> str:
        words = super().where_words()
        if self.leads:
            return f"{words} · you lead: {self._followers()}; Esc ends it for everyone"
        if self.following:
            return f"{words} · following {self.leader_name()}"
        return (f"{words} · on your own ({self.leader_name()} is at move "
                f"{self.moves_by(self.leader_at)}; "
                "f follows)")

    def _followers(self) -> str:
        if self.others is None:
            return "everyone following sees this move"
        following, alone = self.others
        said = [f"{following} following" if following else "nobody else following"]
        if alone:
            said.append(f"{alone} on their own")
        return ", ".join(said)

    def time_at(self, at: int) -> float | None:
        if at == self.view_at and self.view_time is not None:
            return self.view_time
        return super().time_at(at)

    def draw_position(self) -> RenderableType | None:
        if self.view is None or self.view_at != self.at:
            return None  # (the host's answer is on its way: the last position stays)
        try:
            return draw(Position(self.game_id, self.view, self.seat,
                                 names_at(self.names, self.seated, self.at)))
        except (KeyError, TypeError, ValueError, IndexError):
            return Text("this position cannot be drawn (the host sent something else)")

    # ---- what we do --------------------------------------------------------------------

    def go(self, at: int) -> None:
        at = max(0, min(at, self.length))
        if at == self.at and at == self.view_at:
            return
        self.at = at
        if not self.leads:
            self.following = False  # (the host says so too in its answer)
        if self._asked is None:
            self._ask(at)
        else:
            self._wanted = at  # one step on its way at a time (a key held down)
        self._refresh()

    def _ask(self, at: int) -> None:
        self._asked = at
        self._send("review", "go", at=at)

    def action_follow(self) -> None:
        """Back with the leader, at their move."""
        self.pause()
        self._send("review", "follow")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "follow":
            return not self.following and not self.leads
        return super().check_action(action, parameters)

    def action_close(self) -> None:
        """Leave the review (ours ends it for everyone when we lead)."""
        self.left = True
        self.pause()
        self._send("review", "close")
        self.dismiss(None)

    def end(self) -> None:
        """The review is over: this screen goes as soon as it is the one shown and
        whole (one ended as it opens is mounted first: Textual's header must not lose
        its parts before its first frame)."""
        self.pause()
        self.ended = True
        if self.is_current and self.is_mounted:
            self._go_away()

    def on_mount(self) -> None:
        if self.ended:
            self.call_after_refresh(self._go_away)

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        if self.ended and self.is_mounted:
            self.call_after_refresh(self._go_away)

    def _go_away(self) -> None:
        if self.is_current and self.is_attached:
            self.dismiss(None)


class TableReview:
    """A table screen's part in the review its table follows: it gathers the moves the
    host sends, opens the review when the host says it is open (over whatever shows),
    hands it each position and closes it when the review or the finished game ends."""

    def __init__(self, owner: Any) -> None:
        #: The screen at the table (it sends requests and shows toasts).
        self.owner = owner
        self.moves: list[Any] = []
        self.screen: SharedReviewScreen | None = None
        #: We left the open review ourselves (the host remembers it too, for an app
        #: coming back); we asked to follow it (the answer is on its way).
        self.declined = self.asked = False
        #: The app's memory of the reviews whose toast was read (kept across leaving
        #: the table).
        self._told, self._key = owner.app.reviews_told, (
            f"{owner.session.where}/{owner.table.get('id')}")

    def received(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "review_moves":
            start, part = msg.get("from"), msg.get("moves")
            if not isinstance(start, int) or not isinstance(part, list):
                return
            if start == 0:
                self.moves = []
            if start == len(self.moves):
                self.moves += part
        elif kind == "review":
            self._opened(msg)
        elif kind == "review_at" and self.screen is not None:
            self.screen.arrived(msg)
        elif kind == "review_state" and self.screen is not None:
            self.screen.state(msg)
        elif kind == "review_closed" and self.screen is not None:
            seat = msg.get("seat")
            who = self.screen.names[seat] if isinstance(seat, int) and 0 <= seat < len(
                self.screen.names) and seat != self.screen.seat else None
            if who is not None:
                self.owner.notify(f"{who} closed the review.", markup=False)
            self.end()

    def _opened(self, msg: dict[str, Any]) -> None:
        if (not isinstance(msg.get("game"), str) or not isinstance(msg.get("names"), list)
                or not isinstance(msg.get("length"), int)
                or not (msg.get("seat") is None or isinstance(msg.get("seat"), int))):
            return
        moves, self.moves = self.moves, []
        self.asked = self.declined = False
        if self.screen is not None and not self.screen.ended:
            self.screen.arrived(msg)  # following again (the same game, the same moves)
            return
        screen = SharedReviewScreen(msg, moves, self.owner.send)
        self.screen = screen
        if not screen.leads and self._key not in self._told:
            self._told.add(self._key)
            self.owner.notify(
                f"{screen.leader_name()} leads a review of the game, each of you seeing "
                "your own seat: ← → step on your own, f follows again, Esc leaves.",
                title="Review together", markup=False, timeout=5)

        def closed(_: None) -> None:
            if self.screen is screen:
                self.screen = None
            if screen.left:
                self.declined = True
            self.owner.review_closed()

        self.owner.app.push_screen(screen, closed)

    def table_changed(self, table: dict[str, Any]) -> None:
        """A new state of the table: the finished game gone (a rematch, the lobby) ends
        the review; a review open that we are not in (we came back to the table, or
        our connection did) is followed, unless we left it ourselves."""
        if table.get("phase") != "over":
            self.end()
            self.declined = self.asked = False
            self._told.discard(self._key)
        elif not table.get("review"):
            self.declined = self.asked = False
            self._told.discard(self._key)
        elif self.screen is None and not self.declined and not self.asked:
            self.asked = True
            self.owner.send("review", "follow", auto=True)

    def cut_off(self, final: bool) -> None:
        """The connection to the host dropped (``final``: for good)."""
        if self.screen is None:
            return
        self.owner.notify(
            "The host is gone: the review ended." if final else
            "The connection to the host dropped: the review comes back once it does.",
            severity="warning", markup=False)
        self.end()
        self.asked = False

    def end(self) -> None:
        """The review is over (closed by its leader, or the table moved on)."""
        screen = self.screen
        if screen is None:
            return
        self.screen = None
        screen.end()

"""Get It!'s preparation as one seat arranges its pile, as plain data.

RULES.md: the number cards go in ascending order, lowest on top; a special card may go
anywhere in the pile except on top. The player picks a special card (Tab, or a click)
and moves it (←/→, or a click on another place); the numbers stay ascending around it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from tui.games.getit.levels import earlier_specials, new_at_level
from tui.games.getit.mine import touch_words
from tui.games.getit.text import level_text
from tui.games.getit.widgets import PrepRow, WhyLine
from tui.notices import Namer
from tui.widgets.wrapped import OUTSIDE_BRACKETS, Phrases


class Preparation:
    """Our pile as we arrange it (top first), and the special card chosen to move."""

    def __init__(self) -> None:
        self.order: list[dict[str, Any]] = []
        self.selected: int | None = None
        self._dealt_round: Any = None

    def deal(self, view: dict[str, Any]) -> None:
        """A new round's hand (once per round: what we arranged so far stays)."""
        if self._dealt_round == view.get("round"):
            return
        self._dealt_round = view.get("round")
        self.order = [c for c in view.get("hand") or [] if isinstance(c, dict)]
        specials = self.specials()
        self.selected = specials[0] if specials else None

    def specials(self) -> list[int]:
        """Where the special cards are in the pile."""
        return [i for i, c in enumerate(self.order) if c.get("kind") != "number"]

    def next_special(self) -> bool:
        """Choose the next special card (after the last: the first); False if none."""
        specials = self.specials()
        if not specials:
            return False
        later = [i for i in specials if self.selected is None or i > self.selected]
        self.selected = later[0] if later else specials[0]
        return True

    def move(self, delta: int) -> bool:
        """Move the chosen special card one place up (-1) or down (+1), never on top;
        False if it cannot go there."""
        i = self.selected
        if i is None or not 1 <= i + delta < len(self.order):
            return False
        self.order[i], self.order[i + delta] = self.order[i + delta], self.order[i]
        self.order = fixed_numbers(self.order)
        self.selected = i + delta
        return True

    def click(self, index: int) -> bool:
        """A click on a special card chooses it; on another place (not the top) moves the
        chosen card there. False when nothing changed."""
        if index < len(self.order) and self.order[index].get("kind") != "number":
            self.selected = index
            return True
        if self.selected is None or index == 0:
            return False
        card = self.order.pop(self.selected)
        self.order.insert(index, card)
        self.order = fixed_numbers(self.order)
        self.selected = index
        return True

    def pile(self) -> list[Any]:
        """The pile as the host takes it: card ids, top first."""
        return [c["id"] for c in self.order]


def fixed_numbers(order: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Keep the number cards ascending in their places; the specials stay put."""
    numbers = iter(sorted((c for c in order if c.get("kind") == "number"),
                          key=lambda c: (c.get("value"), c.get("id"))))
    return [c if c.get("kind") != "number" else next(numbers) for c in order]


def prep_help(arranging: bool, has_specials: bool, scrolls: bool, next_name: str, *,
              touch: bool = False) -> str:
    """The help line over the pile being arranged (or done); ``touch``: as a phone does
    it, by taps (it said "Tab", "←/→" and "Enter")."""
    if not arranging:
        return f"Done: your pile goes to {next_name} when everyone is ready."
    if touch:
        specials = ("tap a special card, then the place it goes (never the top); "
                    if has_specials else "")
        ends = "swipe along it, or tap its end, to see all; " if scrolls else ""
        done = "Done, in the keys below"
    else:
        specials = ("Tab picks a special card, ←/→ move it (never on top); " if has_specials
                    else "")
        # (Only while the hand is too long for the row: its ends are a key away.)
        ends, done = ("Home/End show the pile's top/bottom; " if scrolls else ""), "Enter: done"
    # (At level 1, with no special card, "Arrange your pile" asked for what was done.)
    what = ("Arrange your pile — the lowest number is on top." if has_specials else
            "Your pile is in order, the lowest number on top: nothing to arrange.")
    how = f"{specials}{ends}{done}"  # (a sentence: "… on top. tap a special card" read so)
    return f"{what} {how[:1].upper()}{how[1:]}. Then your pile goes to {next_name}."


def still_arranging(arranged: list[Any], me: int | None, namer: Namer,
                    away: Mapping[int, str] | Collection[int] = ()) -> str:
    """Who is still arranging ("you", as the rest of the table says it; a person
    away marked so: the log alone said it, and the table seemed to wait on a slow one),
    with when a bot comes for them where ``away`` says ("a bot in 1:47")."""
    def marked(seat: int) -> str:
        bot = away.get(seat) if isinstance(away, Mapping) else None
        return f" (away · {bot})" if bot else " (away)" if seat in away else ""

    waiting = [namer.name(s) + marked(s) if s != me else "you"
               for s, done in enumerate(arranged) if not done]
    return "Still arranging: " + ", ".join(waiting) if waiting else "Everyone is ready."


class PrepPanel(Vertical):
    """Preparation on screen: the help line, our pile as we arrange it, who is still
    arranging. The table screen's keys call its methods."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.state = Preparation()
        #: The hand is too long for the row (Home/End show its ends).
        self.hand_scrolls = False
        self._shown: tuple[dict[str, Any], int | None, Namer,
                           Mapping[int, str] | Collection[int]] | None = None
        #: What the waiting line says of the round's timer.
        self._clock = ""
        #: The level of the first preparation shown here.
        self._first_level: Any = None

    def compose(self) -> ComposeResult:
        yield Static("", id="prep-new", markup=False)
        yield Static("", id="prep-help", markup=False)
        yield PrepRow(id="prep-row")
        yield Static("", id="prep-waiting", markup=False)
        yield WhyLine(id="prep-why")

    def show(self, view: dict[str, Any], me: int | None, namer: Namer,
             away: Mapping[int, str] | Collection[int] = ()) -> None:
        """Show preparation as ``view`` has it, for seat ``me`` (``None``: watching;
        ``away``: the seats whose person is away, with when a bot comes for them)."""
        self._shown = (view, me, namer, away)
        arranged = list(view.get("arranged") or [])
        help_line = self.query_one("#prep-help", Static)
        row = self.query_one(PrepRow)
        arranging = me is not None and not arranged[me]
        level = view.get("level")
        if self._first_level is None:
            self._first_level = level
        new = new_at_level(level)
        # A first round above level 2 (a game started there, or joined): the specials of
        # the levels before were never introduced on screen.
        earlier = earlier_specials(level) if level == self._first_level else None
        words = " ".join(
            ([f"New at {level_text(level)}: {new}."] if new else [])
            + ([f"Also in the deck: {earlier} (? explains them)."] if earlier else []))
        if getattr(self.app, "touch", False):  # (a phone has no x, p or ?)
            words = touch_words(words)
        news = self.query_one("#prep-new", Static)
        news.display = bool(words)
        news.update(Phrases(words, breaks=OUTSIDE_BRACKETS))
        if me is None:
            help_line.update("The players are arranging their piles.")
        else:
            if arranging:
                self.state.deal(view)
                self._show_pile()
            help_line.update(prep_help(arranging, bool(self.state.specials()),
                                       self.hand_scrolls, namer.name((me + 1) % len(arranged)),
                                       touch=getattr(self.app, "touch", False)))
        row.display = arranging
        timer = view.get("timer")
        self._clock = (f" · the {timer} s timer starts when all are done"
                       if isinstance(timer, int) and timer > 0 else " · an untimed round")
        self.show_waiting(away)

    def show_waiting(self, away: Mapping[int, str] | Collection[int]) -> None:
        """Who is still arranging, ``away`` as :func:`still_arranging` takes it (drawn
        again each second while a bot is coming for one of them)."""
        if self._shown is not None:
            view, me, namer, _ = self._shown
            self._shown = (view, me, namer, away)
            self.query_one("#prep-waiting", Static).update(still_arranging(
                list(view.get("arranged") or []), me, namer, away) + self._clock)

    def _show_pile(self) -> None:
        row = self.query_one(PrepRow)
        row.cards = list(self.state.order)
        row.selected = self.state.selected

    def next_special(self) -> None:
        """Pick the next special card of the hand."""
        if self.state.next_special():
            row = self.query_one(PrepRow)
            row.selected = self.state.selected
            row.show_chosen()

    def move(self, delta: int) -> None:
        """Move the chosen special card one place up (-1) or down (+1), never on top."""
        if self.state.move(delta):
            self._show_pile()
        elif self.state.selected is not None:
            self.query_one(WhyLine).say("A special card never goes on top of the pile."
                                        if delta < 0 else "It is at the bottom already.")

    def hand_end(self, top: bool) -> None:
        """Scroll a long hand to its top or its bottom."""
        self.query_one(PrepRow).show_end(top=top)

    @on(PrepRow.CardClicked)
    def clicked(self, event: PrepRow.CardClicked) -> None:
        """Click a special card to pick it; click another place to move it there (the top:
        said why not, as its key does; the click did nothing, without a word)."""
        if self.state.click(event.index):
            self._show_pile()
        elif self.state.selected is not None and event.index == 0:
            self.query_one(WhyLine).say("A special card never goes on top of the pile.")

    @on(PrepRow.Scrolls)
    def scrolls(self, event: PrepRow.Scrolls) -> None:
        """The hand became too long for the row, or fits again: say Home/End or not."""
        self.hand_scrolls = event.scrolls
        if self._shown is not None and self._shown[0].get("phase") == "prepare":
            self.show(*self._shown)

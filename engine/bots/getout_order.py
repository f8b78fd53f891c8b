"""What a GET OUT! seat remembers of the order the cards were played in.

RULES.md: when the draw pile is empty, the played pile less the call card is turned
over *without shuffling*, the card played earliest on top. So whoever watched the cards
being played knows the new draw pile's order: which card each player draws from it,
and which card comes next. A view never holds that order (it gives the played pile's
faces sorted, so a seat that joins late does not learn it); a seat that watched, as a
person with a good memory does, knows it from what it saw.

A bot sees its view on its own turns only. Between two of them it sees which cards were
played (the pile's faces and the call card), not always in what order: with one card
played since (heads-up, always) the order is known, and with two (the last is the call
card) as well; with more, the cards between the first and the last are a *group* whose
order it does not know, unless only one order follows the rules (each card matching the
one before it). An order here is a list of groups, earliest first; a group is a tuple of
card words (``"kevin 7"``, ``"wild"``) whose order is unknown (one word: known).

What it cannot follow (it took over a seat mid-round, or the counts do not add up) it
keeps as one group, which is all a seat that did not watch knows.
"""

from __future__ import annotations

from collections import Counter
from itertools import pairwise, permutations
from typing import Any

from engine.core import Action, View

#: Cards in order: a list of groups, earliest first, each group's order unknown.
Group = tuple[str, ...]
#: The most cards of a group whose orders are tried one by one for the one that follows
#: the rules (four seats: at most two between the first and last of one's turns).
RESOLVE_UP_TO = 4


class PlayOrder:
    """The order of the played pile and of the cards last turned over, as one seat saw
    them: :meth:`observe` on each of its views, :meth:`moved` after its own move."""

    def __init__(self) -> None:
        self.key: tuple[Any, ...] | None = None
        #: The played pile, bottom first (the call card last).
        self.played: list[Group] = []
        #: The cards last turned over into the draw pile, top first (earliest played).
        self.turned: list[Group] = []
        #: The view's ``turned`` when last seen: a change is a new turn-over.
        self.turned_seen: tuple[str, ...] = ()
        #: Per opponent, the cards it was seen to draw from a draw pile whose order was
        #: known, and has not played since (GET OUT! cards aside: they are alike).
        self.held: dict[int, list[str]] = {}
        #: The hand counts and the cards left to draw as this seat left the table.
        self._left: tuple[list[int], int] | None = None

    def observe(self, view: View) -> None:
        """Bring the order up to ``view`` (this seat's view on its turn)."""
        key = (view.get("round"), len(view["hand_counts"]))
        pile = list(view.get("pile") or ())
        call = view.get("call")
        now = pile + ([card_words(call)] if call is not None else [])
        turned = tuple(view.get("turned") or ())
        if key != self.key:
            self.key = key
            self.played, self.turned, self.turned_seen = [], [], ()
            self.held, self._left = {}, None
            if turned:
                self._lost(now, turned)
                return
        if turned == self.turned_seen:
            self._drawn(view)
        self._left = None
        if not self._follow(now, turned):
            self._lost(now, turned)
        seen = set(now) | {card_words(c) for c in view.get("hand", [])}
        for cards in self.held.values():
            cards[:] = [w for w in cards if w not in seen]

    def moved(self, view: View, action: Action) -> None:
        """This seat's own move on ``view``: a card played goes on the pile."""
        counts = list(view["hand_counts"])
        draw_count = int(view["draw_count"])
        me = view["seat"]
        if action["type"] == "play":
            card = next((c for c in view.get("hand", []) if c["id"] == action.get("card")),
                        None)
            if card is not None:
                self.played.append((card_words(card),))
            counts[me] -= 1
        elif draw_count:
            counts[me] += 1
            draw_count -= 1
        else:
            return  # (a turn-over: whoever draws next draws from the new pile)
        self._left = (counts, draw_count)

    def _drawn(self, view: View) -> None:
        """Who drew which card since this seat left the table, when the draw pile's order
        was known: the opponents whose hands grew, in the order they moved, took the
        cards from the top in turn."""
        if self._left is None or not self.turned:
            return
        counts_then, draw_then = self._left
        counts = view["hand_counts"]
        me = view["seat"]
        seats = len(counts)
        drawers = [s for s in ((me + k) % seats for k in range(1, seats))
                   if counts[s] == counts_then[s] + 1]
        if not drawers or draw_then - int(view["draw_count"]) != len(drawers):
            return
        at = sum(len(g) for g in self.turned) - draw_then
        place = 0
        for group in self.turned:
            for words in group:
                if at <= place < at + len(drawers) and len(group) == 1 and words != "wild":
                    self.held.setdefault(drawers[place - at], []).append(words)
                place += 1

    def draw_pile(self, draw_count: int) -> list[tuple[Group, int]] | None:
        """What is left of the cards last turned over, top first: ``(group, left)``, the
        ``left`` cards of ``group`` still to draw (which ones is unknown if fewer than the
        group's). ``None`` if nothing was turned over or the counts do not add up."""
        if not self.turned:
            return None
        drawn = sum(len(g) for g in self.turned) - draw_count
        if drawn < 0:
            return None
        left: list[tuple[Group, int]] = []
        at = 0
        for group in self.turned:
            end = at + len(group)
            if end > drawn:
                left.append((group, min(len(group), end - drawn)))
            at = end
        return left

    def _follow(self, now: list[str], turned: tuple[str, ...]) -> bool:
        """Bring the order from the last view to this one; False if it cannot be."""
        before = [w for g in self.played for w in g]
        if not now:
            return not before and not turned
        call = now[-1]
        if turned == self.turned_seen and len(now) >= len(before):
            new = Counter(now)
            new.subtract(before)
            if any(n < 0 for n in new.values()):
                return False
            if len(now) > len(before):
                new[call] -= 1
                self.played += _groups(self.played, list(new.elements()), call)
            return True
        # Turned over since (once): the played pile then, less its call card, is
        # ``turned``. It was the pile of the last view with whatever was played between
        # that view and the turn-over: known up to a group.
        if len(turned) == len(before) - 1:
            if Counter(before[:-1]) != Counter(turned):
                return False
            # Turned over on the pile as it was: its call card stayed, the first of the
            # new played pile.
            self.turned = self.played[:-1]
            self.turned_seen = turned
            stayed = before[-1]
            if len(now) == 1:
                self.played = [(call,)]
                return call == stayed
            rest = Counter(now[:-1])
            rest[stayed] -= 1
            if rest[stayed] < 0:
                return False
            self.played = [(stayed,)]
            self.played += _groups(self.played, list(rest.elements()), call)
            return True
        elif len(turned) >= len(before):
            extra = Counter(turned)
            extra.subtract(before)
            if any(n < 0 for n in extra.values()):
                return False
            self.turned = self.played + _groups(self.played, list(extra.elements()), None)
        else:
            return False
        self.turned_seen = turned
        # The played pile since: the call card that stayed, the cards played on it, the
        # call card now.
        self.played = _groups(self.turned, now[:-1], call)
        return True

    def _lost(self, now: list[str], turned: tuple[str, ...]) -> None:
        """What a seat that did not watch knows: the faces, in no order."""
        self.turned = [tuple(sorted(turned))] if turned else []
        self.turned_seen = turned
        self.played = _groups([], now[:-1], now[-1]) if now else []


def _groups(before: list[Group], middle: list[str], last: str | None) -> list[Group]:
    """The groups for cards played after ``before``: ``middle`` in an order unknown, then
    ``last`` (if any). The middle's order is known if it has one card, or if only one
    of its orders has each card match the one before it."""
    out: list[Group] = []
    if len(middle) == 1:
        out.append((middle[0],))
    elif middle:
        prev = before[-1][0] if before and len(before[-1]) == 1 else None
        fits = {order for order in permutations(sorted(middle))
                if _chain(prev, order, last)} if len(middle) <= RESOLVE_UP_TO else set()
        if len(fits) == 1:
            out += [(w,) for w in next(iter(fits))]
        else:
            out.append(tuple(sorted(middle)))
    if last is not None:
        out.append((last,))
    return out


def _chain(prev: str | None, order: tuple[str, ...], last: str | None) -> bool:
    """Whether ``order`` could be played on ``prev`` with ``last`` played on it, each
    card matching the one before (unknown ends match anything)."""
    cards = ([prev] if prev else []) + list(order) + ([last] if last else [])
    return all(_matches(a, b) for a, b in pairwise(cards))


def _matches(below: str, card: str) -> bool:
    """Whether ``card`` may be played on ``below`` (a GET OUT! card below may have named
    any image)."""
    if below == "wild" or card == "wild":
        return True
    image, number = below.split()
    c_image, c_number = card.split()
    return image == c_image or number == c_number


def card_words(card: dict[str, Any]) -> str:
    """A view's card (a dict) in the words of a view's ``pile``: ``"kevin 7"``, ``"wild"``."""
    return "wild" if card["wild"] else f"{card['image']} {card['value']}"

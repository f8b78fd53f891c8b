"""What a GET OUT! seat can infer of its opponents' hands from watching them play.

A soft opponent model, for weighting the deals a search imagines (Bayesian opponent
modelling for determinized search): a careful player sheds its costly cards, plays
rather than draws, and keeps its GET OUT! cards for when nothing else plays. So, facing
a call,

- a player who drew most likely held no card that follows it;
- a player who played a card most likely held no costlier card that follows;
- a player who played a GET OUT! card most likely held no other card that follows, and
  named the image it holds most of.

Each of these is a *likelihood*, never a rule: a card that breaks one is dealt less
often, not never (people play as they like, and so do the other bots). It is one factor
per card (:func:`face_weight`), so a deal draws an opponent's cards by weight.

Only the cards held at the time count: a card drawn later may be anything. So an
opponent's hand is kept as blocks, oldest first, each with what was seen while it was
held (:data:`Block`). The :class:`Tracker` builds them from this seat's views alone —
hand counts, the call card, the faces played — between its own turns.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any

from engine.bots.getout_order import card_words
from engine.core import Action, View
from engine.getout import HAND_SIZE, IMAGES
from engine.getout_fast import FACE_COUNT, IMAGE, NUMBER, POINTS, WILD, face_of

#: What a player was seen to do facing a call: (kind, image, number, extra). ``kind`` is
#: :data:`DREW`, :data:`PLAYED` (``extra``: the points of the card played) or
#: :data:`WILD_PLAYED` (``extra``: the image named); ``image``/``number`` are the call's
#: (``number`` -1 for a wild call, ``image`` -1 for the first card of a round: anything).
Seen = tuple[int, int, int, int]
DREW, PLAYED, WILD_PLAYED = 0, 1, 2
#: Part of an opponent's hand: what was seen while it held these cards, and how many.
Block = tuple[tuple[Seen, ...], int]

#: How likely a card that follows the call is still in the hand of a player who drew
#: against it (a careful player draws with a card that follows only by mistake or
#: plan).
DREW_FOLLOWER = 0.02
#: The same for a GET OUT! card: greedy players never draw holding one, careful ones
#: often do (it is worth keeping).
DREW_WILD = 0.5
#: How likely a costlier card that also follows is in the hand of a player who played a
#: cheaper one (careful players keep one for what it follows up).
PLAYED_COSTLIER = 0.1
#: How likely a card that follows is in the hand of a player who spent a GET OUT! card.
WILD_FOLLOWER = 0.05
#: How much likelier a card of the image a GET OUT! card named is in its player's hand.
NAMED_IMAGE = 1.5


def face_weight(face: int, seen: tuple[Seen, ...]) -> float:
    """How likely ``face`` is among cards held through everything in ``seen``, relative
    to a card nothing was seen of (1.0)."""
    image = IMAGE[face]
    number = NUMBER[face]
    points = POINTS[face]
    weight = 1.0
    for kind, c_image, c_number, extra in seen:
        if image == WILD:
            if kind == DREW:
                weight *= DREW_WILD
            continue
        follows = c_image < 0 or image == c_image or number == c_number
        if kind == DREW:
            if follows:
                weight *= DREW_FOLLOWER
        elif kind == PLAYED:
            if follows and points > extra:
                weight *= PLAYED_COSTLIER
        else:
            if follows:
                weight *= WILD_FOLLOWER
            if image == extra:
                weight *= NAMED_IMAGE
    return weight


@lru_cache(maxsize=4096)
def face_weights(seen: tuple[Seen, ...]) -> tuple[float, ...]:
    """:func:`face_weight` of every face, over the likeliest's: the chance to keep each
    card met in a shuffled deck for a hand (the likeliest always kept)."""
    weights = [face_weight(f, seen) for f in range(FACE_COUNT)]
    top = max(weights)
    return tuple(w / top for w in weights)


def hand_weight(hand: list[int], blocks: list[Block]) -> float:
    """How likely ``hand`` (its cards in the order of ``blocks``, oldest first) is under
    what was seen: the product of its cards' weights."""
    weight = 1.0
    at = 0
    for seen, size in blocks:
        for f in hand[at:at + size]:
            weight *= face_weight(f, seen)
        at += size
    return weight


class Tracker:
    """What a seat infers from watching its opponents between its own turns.

    :meth:`observe` brings an opponent's blocks up to the view on this seat's turn:
    a draw against a known call marks every card held then (a new block holds the one
    drawn); a known card played against a known call marks the cards still held. When
    what it sees does not add up (a card played that it "lacked" when it drew, a
    recount), it forgets what it inferred of that opponent.
    """

    def __init__(self) -> None:
        self.blocks: dict[int, list[Block]] = {}
        self._then: tuple[Any, ...] | None = None

    def observe(self, view: View) -> dict[int, list[Block]]:
        """Bring the blocks up to this view (this seat on turn); returns them."""
        me = view["seat"]
        counts = list(view["hand_counts"])
        seats = len(counts)
        key = (view.get("round"), seats, tuple(view.get("out") or ()))
        pile = Counter(view.get("pile") or ())
        call = view.get("call")
        if call is not None:
            pile[card_words(call)] += 1
        then = self._then
        if then is None or then[0] != key or then[4] != tuple(view.get("turned") or ()):
            if then is None or then[0] != key:
                self.blocks = {s: [((), counts[s])] for s in range(seats) if s != me}
                self._opener(view, me, counts)
            then = None
        if then is not None:
            _key, old_counts, old_pile, follow, _turned = then
            played = [w for w, n in (pile - old_pile).items() for _ in range(n)]
            order = [(me + k) % seats for k in range(1, seats)]
            players = [s for s in order if counts[s] < old_counts[s]]
            for s in order:
                delta = counts[s] - old_counts[s]
                blocks = self.blocks.get(s, [])
                last = s == (players[-1] if players else None)
                if delta > 0:
                    if follow is not None:
                        blocks = _mark(blocks, (DREW, follow[0], follow[1], 0))
                    blocks.append(((), delta))
                elif delta < 0:
                    card = played[0] if len(played) == 1 and len(players) == 1 else None
                    if last and call is not None:
                        card = card_words(call)
                    blocks = _remove(blocks, -delta, card)
                    if card is not None and follow is not None and -delta == 1:
                        blocks = _mark(blocks, _played(follow, card, view if last else None))
                    follow = _follow(view) if last else None
                self.blocks[s] = [b for b in blocks if b[1]]
        for s in range(seats):
            if s != me and sum(size for _v, size in self.blocks.get(s, [])) != counts[s]:
                self.blocks[s] = [((), counts[s])]
        return self.blocks

    def _opener(self, view: View, me: int, counts: list[int]) -> None:
        """A round that began with one opponent's card, seen alone: any card went, so
        it chose that one over the rest of its hand."""
        call = view.get("call")
        if call is None or view.get("played_count") != 1:
            return
        short = [s for s in range(len(counts)) if s != me and counts[s] < HAND_SIZE]
        if len(short) == 1 and counts[short[0]] == HAND_SIZE - 1:
            seen = _played((-1, -1), card_words(call), view)
            self.blocks[short[0]] = [((seen,), counts[short[0]])]

    def moved(self, view: View, action: Action) -> None:
        """Remember the table as this seat leaves it after ``action``."""
        counts = list(view["hand_counts"])
        me = view["seat"]
        pile = Counter(view.get("pile") or ())
        call = view.get("call")
        follow: tuple[int, int] | None = None
        if action["type"] == "play":
            card = next(c for c in view["hand"] if c["id"] == action["card"])
            if call is not None:
                pile[card_words(call)] += 1
            pile[card_words(card)] += 1
            counts[me] -= 1
            follow = ((IMAGES.index(action["image"]), -1) if card["wild"]
                      else (IMAGES.index(card["image"]), int(card["value"])))
        else:
            if call is not None:
                pile[card_words(call)] += 1
            counts[me] += 1
            follow = _follow(view)
        key = (view.get("round"), len(counts), tuple(view.get("out") or ()))
        self._then = (key, counts, pile, follow, tuple(view.get("turned") or ()))


def _played(follow: tuple[int, int], card: str, view: View | None) -> Seen:
    """What playing ``card`` (words) against ``follow`` says; a wild card's named image
    is known from ``view`` when its call is still the call card there."""
    if card == "wild":
        image = view.get("image") if view is not None else None
        named = IMAGES.index(image) if image else -1
        return (WILD_PLAYED, follow[0], follow[1], named)
    return (PLAYED, follow[0], follow[1], POINTS[face_of(card)])


def _mark(blocks: list[Block], seen: Seen) -> list[Block]:
    """``blocks`` with ``seen`` added to every block's record (once: the same thing
    seen again, as a player drawing twice against one call, tells no more of its
    style)."""
    return [(record if seen in record else (*record, seen), size) for record, size in blocks]


def _follow(view: View) -> tuple[int, int] | None:
    """(image, number) the view's call card asks for (number -1 for a wild call)."""
    call = view.get("call")
    if call is None:
        return None
    if call["wild"]:
        image = view.get("image")
        return (IMAGES.index(image), -1) if image else None
    return IMAGES.index(call["image"]), int(call["value"])


def _drew_against(face: int, seen: tuple[Seen, ...]) -> bool:
    """Whether ``face`` follows a call its holder was seen to draw against."""
    if IMAGE[face] == WILD:
        return False
    return any(kind == DREW and (IMAGE[face] == c_image or NUMBER[face] == c_number)
               for kind, c_image, c_number, _extra in seen)


def _remove(blocks: list[Block], count: int, card: str | None) -> list[Block]:
    """``blocks`` less ``count`` cards played from them: a known card from the oldest
    block it could have been held through without drawing against it (taking it from
    the most marked one never marks a card that was free); if none: what was inferred
    was wrong, forget it. An unknown card from the oldest block (so, too)."""
    blocks = list(blocks)
    for _ in range(count):
        if not blocks:
            break
        at = 0
        if card is not None and card != "wild":
            f = face_of(card)
            fitting = [i for i, (seen, size) in enumerate(blocks)
                       if size and not _drew_against(f, seen)]
            if not fitting:
                total = sum(size for _v, size in blocks)
                return [((), total - 1)]
            at = fitting[0]
        while at < len(blocks) - 1 and not blocks[at][1]:
            at += 1
        seen, size = blocks[at]
        blocks[at] = (seen, size - 1)
    return blocks

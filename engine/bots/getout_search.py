"""A GET OUT! bot that searches: it imagines the hands it cannot see and plays them out.

Determinized Monte Carlo search over the information set (after Whitehouse, Powley and
Cowling's information-set MCTS, flat: every legal move still in the running is tried
on every deal). For every imagined deal it

1. deals the cards it cannot see at random, consistently with what it has seen: its own
   hand, the call card, the faces of the played pile and of the cards last turned over
   (``pile`` and ``turned``: all seen face up), how many cards each player holds and how
   many are left to draw. A card turned over and not seen since is in the draw pile or
   in an opponent's hand; a card never seen is in an opponent's hand or, before anything
   was turned over, in the draw pile. An opponent's cards are dealt by how likely each
   is under what that player was seen to do while holding it (``getout_infer``: one
   who drew against a call seldom held a card that follows it, one who played a card
   seldom a costlier one that also followed);
2. plays each of its moves on that deal and the round out from there with every seat
   greedy (``FastRound.playout``: the engine's rules on bare numbers, no views or
   dicts), now and then a random card, with the same luck after every move;
3. scores the end: in a single round, a round won is 1 and a round lost 0; in a match,
   its share of the room left under the limit among the players still in, once the
   round's points are added (:func:`match_share`): points that push an opponent out
   count as well as our own kept low.

The moves go in rounds of deals, the worse half dropping out after each (successive
halving), and it plays the move with the best total. It reads nothing but its views and
legal actions; what it remembers between its turns is what those views showed (a bot
that takes over a seat mid-round only knows less about the opponents' play).
"""

from __future__ import annotations

import random
from collections.abc import Generator, Sequence
from typing import Any, TypeVar

from engine.bots.getout_infer import Block, Tracker, face_weights
from engine.bots.getout_order import Group, PlayOrder
from engine.core import Action, View
from engine.getout import IMAGES
from engine.getout_fast import (
    DRAW,
    FACE_COUNT,
    FACE_OF,
    IMAGE,
    WILD,
    WILD_FACES,
    FastRound,
    Move,
    face_of,
    hand_points,
)

T = TypeVar("T")

#: Playouts per move of a strong bot, shared among its moves: it wins more rounds with
#: more of them up to about this many, and no more beyond (docs/bots.md); tens of
#: milliseconds a move (``hiddenhand sim`` prints the times), which a host spends in slices.
STRONG_ITERATIONS = 2000
#: How often a seat in a playout plays a random card that follows instead of the greedy
#: one: opponents are not all greedy, and a little noise keeps the search from trusting
#: a line only perfect greed would play.
SLIP = 0.1
#: The moves a playout makes on average (heads-up, about 33): a search stops after
#: ``iterations`` times this many, however long its playouts run.
STEPS_PER_PLAYOUT = 40


class Knowledge:
    """What a view tells of the cards: the faces this seat holds and those it has seen,
    the unknown faces, and which of them may be in the draw pile."""

    __slots__ = ("counts", "draw_count", "draw_left", "hand", "held", "limit", "may_draw",
                 "me", "named", "out", "pile", "scores", "turn", "unseen")

    def __init__(self, view: View, order: PlayOrder | None = None) -> None:
        """``order``: what this seat remembers of the order the cards were played in,
        brought up to ``view``: what is left to draw of the cards last turned over, in
        order, and which of them each opponent drew."""
        wilds = iter(WILD_FACES)

        def face(card: dict[str, Any]) -> int:
            if card["wild"]:
                return next(wilds, WILD_FACES[-1])
            return FACE_OF[(card["image"], int(card["value"]))]

        self.me: int = view["seat"]
        self.hand = [face(c) for c in view.get("hand", [])]
        pile = [face_of_words(w, wilds) for w in view.get("pile", [])]
        call = view.get("call")
        if call is not None:
            pile.append(face(call))
        self.pile = pile
        image = view.get("image")
        self.named = IMAGES.index(image) if call is not None and call["wild"] and image else -1
        seen = set(self.hand) | set(pile)
        self.unseen = [f for f in range(FACE_COUNT) if f not in seen]
        self.counts: list[int] = list(view["hand_counts"])
        self.out: list[bool] = list(view.get("out") or [False] * len(self.counts))
        self.draw_count: int = view["draw_count"]
        #: The match's totals before this round, and the limit a total may not pass.
        self.scores: list[int] = [int(x) for x in view.get("scores") or [0] * len(self.counts)]
        self.limit: int = int(view.get("limit") or 100)
        self.turn: int = view["turn"] if view.get("turn") is not None else self.me
        # Cards turned over into the draw pile and not seen since: the draw pile is made of
        # them alone. Wild cards are alike, so those seen are counted as turned ones first.
        turned = view.get("turned") or []
        self.may_draw: list[int] | None = None
        if turned:
            plain = {FACE_OF[_pair(w)] for w in turned if w != "wild"}
            wild_left = max(0, sum(1 for w in turned if w == "wild")
                            - sum(1 for f in seen if IMAGE[f] == WILD))
            unseen_wilds = [f for f in self.unseen if IMAGE[f] == WILD]
            may = [f for f in self.unseen if f in plain] + unseen_wilds[:wild_left]
            if len(may) >= self.draw_count:
                self.may_draw = may
        #: The draw pile top first, when the order the cards were played in is known:
        #: per group, the faces it may be and how many of them are left (``None``: the
        #: faces in their order, every one left).
        draw_left = order.draw_pile(self.draw_count) if order is not None else None
        self.draw_left = _draw_faces(draw_left, self.unseen) if draw_left else None
        #: Per opponent, the cards it is known to hold (drawn from a pile in known order).
        self.held: dict[int, list[int]] = {}
        if self.draw_left is not None and order is not None:
            unseen = set(self.unseen)
            for seat, cards in order.held.items():
                faces = [face_of(w) for w in cards]
                if seat != self.me and faces and len(faces) <= self.counts[seat]:
                    self.held[seat] = [f for f in faces if f in unseen]

    def deal(self, rng: random.Random,
             blocks: dict[int, list[Block]] | None = None) -> FastRound:
        """One way the unseen cards may lie, at random: opponents' hands and the draw
        pile, as a round ready to play on. A draw pile turned over while this seat
        watched is dealt in the order it was played (a group it did not see the order of
        in any order), and an opponent gets the cards it drew from it. ``blocks`` (from a
        :class:`Tracker`) says what each opponent was seen to do while it held which of
        its cards; those cards are dealt first, each card met in the shuffled deck kept
        with its likelihood (``getout_infer.face_weights``)."""
        fixed: list[int] | None = None
        drawn: set[int] = set()
        if self.draw_left is not None:
            # The draw pile as it was played, top last: a group's faces in a random order.
            fixed = []
            for faces, left in reversed(self.draw_left):
                fixed += faces[::-1] if left is None else rng.sample(faces, left)
            drawn = set(fixed)
            pool = [f for f in self.unseen if f not in drawn]
        else:
            pool = list(self.unseen)
        rng.shuffle(pool)
        hands: list[list[int]] = [[] for _ in self.counts]
        hands[self.me] = list(self.hand)
        taken: set[int] = set()
        if fixed is not None:
            for seat, faces in self.held.items():
                hands[seat] = [f for f in faces if f not in drawn and f not in taken]
                taken.update(hands[seat])
        if blocks:
            random_ = rng.random
            for seat, seat_blocks in blocks.items():
                # The cards it is known to hold came in its newest blocks.
                for seen, size in _less_newest(seat_blocks, len(hands[seat])):
                    if not seen or not size:
                        continue
                    # The shuffled cards in turn, each kept with its likelihood (the
                    # likeliest always), until the block is full; if too few were kept,
                    # the first of the others.
                    weights = face_weights(seen)
                    chosen = []
                    for f in pool:
                        if f not in taken and random_() < weights[f]:
                            chosen.append(f)
                            if len(chosen) == size:
                                break
                    else:
                        kept = set(chosen)
                        chosen += [f for f in pool if f not in taken and f not in kept
                                   ][:size - len(chosen)]
                    hands[seat] += chosen
                    taken.update(chosen)
        if taken:
            pool = [f for f in pool if f not in taken]
        draw_count = self.draw_count
        if fixed is not None:
            draw, rest = fixed, pool
        elif self.may_draw is not None:
            may = set(self.may_draw)
            draw = [f for f in pool if f in may][:draw_count]
            if len(draw) < draw_count:
                drawn = set(draw)
                draw += [f for f in pool if f not in drawn][:draw_count - len(draw)]
            drawn = set(draw)
            rest = [f for f in pool if f not in drawn]
        else:
            draw = pool[:draw_count]
            rest = pool[draw_count:]
        at = 0
        for seat, count in enumerate(self.counts):
            if seat != self.me:
                need = count - len(hands[seat])
                if need > 0:
                    hands[seat] += rest[at:at + need]
                    at += need
        # (More cards unseen than the counts hold: only if a view was inconsistent; they
        # go under the draw pile rather than vanish.)
        draw = rest[at:] + draw
        return FastRound(hands, draw, list(self.pile), self.named, self.turn, self.out)


def _less_newest(blocks: list[Block], count: int) -> list[Block]:
    """``blocks`` less ``count`` cards from the newest."""
    if not count:
        return blocks
    out = list(blocks)
    at = len(out) - 1
    while count and at >= 0:
        seen, size = out[at]
        cut = min(size, count)
        out[at] = (seen, size - cut)
        count -= cut
        at -= 1
    return out


def _draw_faces(groups: list[tuple[Group, int]], unseen: list[int]
                ) -> list[tuple[list[int], int | None]] | None:
    """``PlayOrder.draw_pile`` in faces: per group (top first), the faces of its cards
    nobody has seen since, and how many of them are left to draw, the cards whose place
    is known together in their order (``None`` for how many); ``None`` if what this seat
    sees does not fit (a card it holds or saw played is not in the draw pile)."""
    free = set(unseen)
    wilds = [f for f in unseen if IMAGE[f] == WILD]
    out: list[tuple[list[int], int | None]] = []
    # The last groups first: they are whole, and take the GET OUT! cards they hold before
    # the first group, part of which may be drawn already.
    for group, left in reversed(groups):
        faces = []
        for words in group:
            if words == "wild":
                if wilds:
                    faces.append(wilds.pop())
            elif face_of(words) in free:
                faces.append(face_of(words))
        if len(faces) < left:
            return None
        if len(group) > 1:
            out.append((faces, left))
        elif out and out[-1][1] is None:
            out[-1][0].append(faces[0])
        else:
            out.append((faces, None))
    out.reverse()
    for run, count in out:
        if count is None:
            run.reverse()
    return out


def _pair(words: str) -> tuple[str, int]:
    image, value = words.split()
    return image, int(value)


def face_of_words(words: str, wilds: Any) -> int:
    """A face from a view's words, each wild card a wild face not used yet."""
    if words == "wild":
        return next(wilds, WILD_FACES[-1])
    return face_of(words)


class GetOutSearchBot:
    """Plays GET OUT! by determinized search from its view alone (see the module).

    ``iterations`` (playouts a move, shared among its moves) bounds the work of a move:
    the engine reads no clock, so the bot replays exactly from its seed.
    """

    def __init__(self, seed: int = 0, iterations: int = STRONG_ITERATIONS, *,
                 slip: float = SLIP) -> None:
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.slip = slip
        self.tracker = Tracker()
        self.order = PlayOrder()

    def choose(self, view: View, legal: Sequence[Action]) -> Action | None:
        """The action to take now, or ``None`` when nothing is legal."""
        return finish(self.think(view, legal))

    def think(self, view: View, legal: Sequence[Action]) -> Generator[int, None, Action | None]:
        """:meth:`choose` a little at a time: a generator that yields after every deal it
        played out (a fraction of a millisecond) how many playout moves that took, and
        returns the action. A host runs it in slices between its other work, so a bot thinking
        holds up no one; it makes the same choice as :meth:`choose` however it is
        sliced."""
        if not legal:
            return None
        if {"type": "next_round"} in legal:
            return {"type": "next_round"}
        blocks = self.tracker.observe(view)
        self.order.observe(view)
        moves = _moves(view, legal)
        if len(moves) == 1:
            action = dict(next(iter(moves.values())))
        else:
            known = Knowledge(view, self.order)
            best = yield from self.searching(known, list(moves),
                                             bool(view.get("match", True)), blocks)
            action = dict(moves[best])
        self.tracker.moved(view, action)
        self.order.moved(view, action)
        return action

    def search(self, known: Knowledge, moves: list[Move], match: bool,
               blocks: dict[int, list[Block]] | None = None) -> Move:
        """The move that did best over about ``self.iterations`` playouts (see
        :meth:`searching`)."""
        return finish(self.searching(known, moves, match, blocks))

    def searching(self, known: Knowledge, moves: list[Move], match: bool,
                  blocks: dict[int, list[Block]] | None = None
                  ) -> Generator[int, None, Move]:
        """The move that did best over about ``self.iterations`` playouts. Every move is
        played out on the same imagined deals with the same luck after it (common random
        numbers): what differs between two moves' scores is then the moves, not the
        deals, and a few hundred deals tell moves apart that thousands would not.

        The playouts go in rounds (successive halving): after each, the worse half of
        the moves still in it drops out, so the moves that are close get the most
        deals. The moves the playouts make are counted too: a move whose playouts run
        long (big hands, a long round ahead) stops at :data:`STEPS_PER_PLAYOUT` times
        its playouts, which bounds its time without a clock. It yields after each deal
        played out, how many playout moves that took (:meth:`think`)."""
        rng = self.rng
        me = known.me
        slip = self.slip
        totals = [0.0] * len(moves)
        alive = list(range(len(moves)))
        rounds = max(1, (len(moves) - 1).bit_length())
        steps_left = self.iterations * STEPS_PER_PLAYOUT
        for left in range(rounds, 0, -1):
            deals = max(1, self.iterations // rounds // len(alive))
            for _ in range(deals):
                before = steps_left
                base = known.deal(rng, blocks)
                luck = rng.getstate()
                for k in alive:
                    round_ = base.copy()
                    round_.apply(moves[k])
                    winner = round_.winner
                    if winner < 0:
                        rng.setstate(luck)
                        winner = round_.playout(rng, slip)
                        steps_left -= round_.steps
                    if match:
                        totals[k] += match_share(known, round_.hands, winner)
                    elif winner == me:
                        totals[k] += 1.0
                if steps_left <= 0:
                    break
                yield max(1, before - steps_left)
            if steps_left <= 0:
                break
            if left > 1:
                alive.sort(key=lambda i: -totals[i])
                alive = alive[:(len(alive) + 1) // 2]
        return moves[max(alive, key=lambda i: totals[i])]


def match_share(known: Knowledge, hands: Sequence[Sequence[int]], winner: int) -> float:
    """What a round's end is worth to ``known.me`` in a match: its share of the room left
    under the limit among the players still in, the round's points added (the winner,
    if any, adds none; a total over the limit is out, with no room). The match is won by
    the last player in: an opponent's points bring that nearer as our own keep it off,
    which scoring our round alone did not see (docs/bots.md has the figures)."""
    me, limit = known.me, known.limit
    mine = whole = 0.0
    for seat, hand in enumerate(hands):
        if known.out[seat]:
            continue
        total = known.scores[seat] + (0 if seat == winner else hand_points(hand))
        room = 0.0 if total > limit else float(limit - total + 1)
        whole += room
        if seat == me:
            mine = room
    return mine / whole if whole else 0.0


def finish(thought: Generator[Any, None, T]) -> T:
    """What a generator that thinks a little at a time returns, thought through at once."""
    while True:
        try:
            next(thought)
        except StopIteration as done:
            value: T = done.value
            return value


def _moves(view: View, legal: Sequence[Action]) -> dict[Move, Action]:
    """The legal actions by move; alike cards (wild cards) make one move."""
    hand = {c["id"]: c for c in view.get("hand", [])}
    moves: dict[Move, Action] = {}
    for action in legal:
        if action["type"] == "draw":
            moves.setdefault(DRAW, action)
        elif action["type"] == "play":
            card = hand[action["card"]]
            if card["wild"]:
                move = (WILD_FACES[0], IMAGES.index(action["image"]))
            else:
                move = (FACE_OF[(card["image"], int(card["value"]))], -1)
            moves.setdefault(move, action)
    return moves

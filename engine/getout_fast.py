"""GET OUT!'s rules for one round on bare numbers: the path a search bot's rollouts take.

A search bot plays thousands of imagined rounds a move; through the contract each move
would build dicts of actions and events. Here a card is its *face*, an index into
``engine.getout.card_faces()`` (0..47 the four people, 48..54 Tea Pickers, 55..57 the
three GET OUT! cards), an image is an index into ``IMAGES`` (``WILD`` for a GET OUT!
card), and a round is a few lists of faces. The rules are RULES.md §2's, as
``engine.getout.GetOut`` plays them (``tests/test_getout_fast.py`` plays both side by
side): match the image or the number, a wild card on anything naming the image to
follow, drawing ends the turn, an empty draw pile is the played pile turned over without
shuffling (the call card stays), nothing to draw passes, the first empty hand wins.

Nothing here is reachable from the wire or knows a card's id: a bot builds a
:class:`FastRound` from faces it has seen and faces it imagines.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.getout import IMAGES, WILD_POINTS, card_faces

#: The image index of a GET OUT! card (the five real images are 0..4).
WILD = len(IMAGES)
_FACES = card_faces()
#: Per face: image index, number (-1 for a wild card), points in a losing hand.
IMAGE: tuple[int, ...] = tuple(WILD if i is None else IMAGES.index(i) for i, _ in _FACES)
NUMBER: tuple[int, ...] = tuple(-1 if v is None else v for _, v in _FACES)
POINTS: tuple[int, ...] = tuple(
    WILD_POINTS if i is None or v is None else (2 * v if i == "tea_picker" else v)
    for i, v in _FACES
)
#: The faces of the three GET OUT! cards.
WILD_FACES: tuple[int, ...] = tuple(f for f, image in enumerate(IMAGE) if image == WILD)
FACE_COUNT = len(_FACES)
#: A non-wild face by (image, number).
FACE_OF: dict[tuple[str, int], int] = {
    (i, v): f for f, (i, v) in enumerate(_FACES) if i is not None and v is not None
}
#: A move: (face, named image) to play, named image ``-1`` unless the face is wild.
Move = tuple[int, int]
#: The move that draws a card (or passes, with nothing to draw).
DRAW: Move = (-1, -1)


def face_of(words: str) -> int:
    """A face from its words as views give them (``"kevin 7"``); ``"wild"`` is the first
    GET OUT! card's face (they are alike: count them, do not tell them apart)."""
    if words == "wild":
        return WILD_FACES[0]
    image, value = words.split()
    return FACE_OF[(image, int(value))]


class FastRound:
    """One round in play, all hands known: ``hands`` (faces per seat), ``draw`` (top
    last), ``pile`` (bottom first; the last is the call card), ``named`` (the image a
    wild call card names, else -1), ``turn`` and ``out`` (seats not in this round);
    ``steps``, the moves the last :meth:`playout` made (what it cost)."""

    __slots__ = ("draw", "hands", "named", "out", "pile", "steps", "turn", "winner")

    def __init__(self, hands: list[list[int]], draw: list[int], pile: list[int], named: int,
                 turn: int, out: Sequence[bool]) -> None:
        self.hands = hands
        self.draw = draw
        self.pile = pile
        self.named = named
        self.turn = turn
        self.out = list(out)
        self.winner = -1
        self.steps = 0

    def copy(self) -> FastRound:
        """An independent copy (hands, piles and all)."""
        return FastRound([list(h) for h in self.hands], list(self.draw), list(self.pile),
                         self.named, self.turn, self.out)

    def follow(self) -> tuple[int, int]:
        """(image, number) a card must match; number -1 when only the image counts,
        image -1 before the first card (anything goes)."""
        if not self.pile:
            return -1, -1
        call = self.pile[-1]
        if IMAGE[call] == WILD:
            return self.named, -1
        return IMAGE[call], NUMBER[call]

    def moves(self, seat: int) -> list[Move]:
        """Every move of ``seat`` on turn: each card that plays (a wild card once per
        image), then drawing (not for the first card of a round)."""
        image, number = self.follow()
        moves: list[Move] = []
        for f in self.hands[seat]:
            own = IMAGE[f]
            if own == WILD:
                moves += [(f, i) for i in range(WILD)]
            elif image < 0 or own == image or NUMBER[f] == number:
                moves.append((f, -1))
        if self.pile:
            moves.append(DRAW)
        return moves

    def apply(self, move: Move) -> None:
        """The seat on turn makes ``move`` (assumed legal, as :meth:`moves` lists)."""
        seat = self.turn
        f, named = move
        if f < 0:
            self._draw(seat)
        else:
            hand = self.hands[seat]
            hand.remove(f)
            self.pile.append(f)
            self.named = named
            if not hand:
                self.winner = seat
                return
        self._pass_turn(seat)

    def _draw(self, seat: int) -> None:
        draw = self.draw
        if not draw and len(self.pile) > 1:
            pile = self.pile
            self.draw = draw = pile[-2::-1]  # turned over: the earliest played on top
            self.pile = pile[-1:]
        if draw:
            self.hands[seat].append(draw.pop())

    def _pass_turn(self, seat: int) -> None:
        out = self.out
        seats = len(out)
        nxt = seat + 1 if seat + 1 < seats else 0
        while out[nxt]:
            nxt = nxt + 1 if nxt + 1 < seats else 0
        self.turn = nxt

    def playout(self, rng: random.Random, slip: float = 0.0, limit: int = 400) -> int:
        """Play the round out with every seat greedy, as a quick opponent plays: the
        costliest card that follows, a wild card only when nothing else plays (naming the
        image held most), else draw; with chance ``slip`` a random card that follows
        instead. Returns the winner, or -1 if ``limit`` moves did not end the round."""
        hands = self.hands
        out = self.out
        seats = len(out)
        turn = self.turn
        for step in range(1, limit + 1):
            hand = hands[turn]
            pile = self.pile
            call = pile[-1]
            image = IMAGE[call]
            if image == WILD:
                image, number = self.named, -1
            else:
                number = NUMBER[call]
            best = -1
            top = -1
            wild = -1
            if slip and rng.random() < slip:
                playable = [f for f in hand
                            if IMAGE[f] == image or NUMBER[f] == number or IMAGE[f] == WILD]
                if playable:
                    best = playable[rng.randrange(len(playable))]
                    if IMAGE[best] == WILD:
                        wild, best = best, -1
            else:
                for f in hand:
                    own = IMAGE[f]
                    if own == WILD:
                        wild = f
                    elif (own == image or NUMBER[f] == number) and POINTS[f] > top:
                        best, top = f, POINTS[f]
            if best >= 0:
                hand.remove(best)
                pile.append(best)
                self.named = -1
            elif wild >= 0:
                hand.remove(wild)
                pile.append(wild)
                self.named = _most_held(hand)
            else:
                self._draw(turn)
                nxt = turn + 1 if turn + 1 < seats else 0
                while out[nxt]:
                    nxt = nxt + 1 if nxt + 1 < seats else 0
                turn = nxt
                continue
            if not hand:
                self.turn = turn
                self.winner = turn
                self.steps = step
                return turn
            nxt = turn + 1 if turn + 1 < seats else 0
            while out[nxt]:
                nxt = nxt + 1 if nxt + 1 < seats else 0
            turn = nxt
        self.turn = turn
        self.steps = limit
        return -1


def _most_held(hand: list[int]) -> int:
    """The image most of ``hand`` shows (the first image on a tie, Geoff if none)."""
    counts = [0] * (WILD + 1)
    for f in hand:
        counts[IMAGE[f]] += 1
    counts[WILD] = -1
    return counts.index(max(counts))


def hand_points(hand: Sequence[int]) -> int:
    """What ``hand`` costs its holder when the round ends."""
    return sum(POINTS[f] for f in hand)

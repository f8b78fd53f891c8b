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
        instead. Returns the winner, or -1 if ``limit`` moves did not end the round.

        A search makes hundreds of these a move, so the hands are bit sets here (a bit a
        card, the costlier cards the higher bits): the cards that follow a call are one
        ``&``, the costliest of them its highest bit. The hands are lists again after.
        """
        bit = _BIT
        at_rank = _FACE_AT
        out = self.out
        seats = len(out)
        masks = [_mask(hand) for hand in self.hands]
        draw = self.draw
        pile = self.pile
        named = self.named
        call = pile[-1]
        follow = _FOLLOW_NAMED[named] if IMAGE[call] == WILD else _FOLLOW[call]
        turn = self.turn
        winner = -1
        step = 0
        while step < limit:
            step += 1
            hand = masks[turn]
            plain = hand & follow
            wild = hand & _WILDS
            if slip and rng.random() < slip and (plain or wild):
                playable = plain | wild
                pick = rng.randrange(playable.bit_count())
                while pick:
                    playable &= playable - 1
                    pick -= 1
                low = playable & -playable
                if low & _WILDS:
                    plain, wild = 0, low
                else:
                    plain = low
            if plain:
                rank = plain.bit_length() - 1
                hand ^= 1 << rank
                face = at_rank[rank]
                pile.append(face)
                named = -1
                follow = _FOLLOW[face]
            elif wild:
                rank = wild.bit_length() - 1
                hand ^= 1 << rank
                pile.append(at_rank[rank])
                named = _most_held_mask(hand)
                follow = _FOLLOW_NAMED[named]
            else:
                if not draw and len(pile) > 1:
                    draw = pile[-2::-1]  # turned over: the earliest played on top
                    pile = pile[-1:]
                if draw:
                    masks[turn] = hand | bit[draw.pop()]
                turn = turn + 1 if turn + 1 < seats else 0
                while out[turn]:
                    turn = turn + 1 if turn + 1 < seats else 0
                continue
            masks[turn] = hand
            if not hand:
                winner = turn
                break
            turn = turn + 1 if turn + 1 < seats else 0
            while out[turn]:
                turn = turn + 1 if turn + 1 < seats else 0
        self.hands = [_faces(m) for m in masks]
        self.draw = draw
        self.pile = pile
        self.named = named
        self.turn = turn
        self.winner = winner
        self.steps = step
        return winner


#: The faces in the order of what they cost (Tea Pickers double, wild cards 20): a
#: hand's bit set has face ``_FACE_AT[r]`` at bit ``r``, so its highest bit is its
#: costliest card.
_FACE_AT: tuple[int, ...] = tuple(sorted(range(FACE_COUNT), key=lambda f: (POINTS[f], f)))
#: A face's bit in a hand's bit set.
_BIT: tuple[int, ...] = tuple(1 << _FACE_AT.index(f) for f in range(FACE_COUNT))
_WILDS = sum(_BIT[f] for f in WILD_FACES)
#: The cards (wild cards aside) that follow a call card, by its face.
_FOLLOW: tuple[int, ...] = tuple(
    0 if IMAGE[c] == WILD else sum(
        _BIT[f] for f in range(FACE_COUNT)
        if IMAGE[f] != WILD and (IMAGE[f] == IMAGE[c] or NUMBER[f] == NUMBER[c]))
    for c in range(FACE_COUNT)
)
#: The cards (wild cards aside) of each image, which follow a wild call naming it.
_FOLLOW_NAMED: tuple[int, ...] = tuple(
    sum(_BIT[f] for f in range(FACE_COUNT) if IMAGE[f] == image) for image in range(WILD)
)


def _mask(hand: list[int]) -> int:
    """A hand's bit set."""
    mask = 0
    for f in hand:
        mask |= _BIT[f]
    return mask


def _faces(mask: int) -> list[int]:
    """A bit set's hand, costliest first."""
    faces = []
    while mask:
        rank = mask.bit_length() - 1
        faces.append(_FACE_AT[rank])
        mask ^= 1 << rank
    return faces


def _most_held_mask(hand: int) -> int:
    """The image most of the bit set ``hand`` shows (the first image on a tie)."""
    best, most = 0, -1
    for image, cards in enumerate(_FOLLOW_NAMED):
        held = (hand & cards).bit_count()
        if held > most:
            best, most = image, held
    return best


def hand_points(hand: Sequence[int]) -> int:
    """What ``hand`` costs its holder when the round ends."""
    return sum(POINTS[f] for f in hand)

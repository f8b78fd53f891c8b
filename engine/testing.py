"""Test-only helpers that put a game into a hand-set state.

Nothing here is reachable from the wire: the host only ever calls ``act`` with actions
it has checked. Tests use these to build scenarios straight from RULES.md.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.getout import IMAGES, GetOut


def getout_card(game: GetOut, spec: str, taken: set[int]) -> int:
    """The id of a free card matching ``spec`` ("kevin 7", "tea_picker 3", "wild")."""
    words = spec.split()
    if words == ["wild"]:
        image, value = None, None
    else:
        image, value = words[0], int(words[1])
        if image not in IMAGES:
            raise ValueError(f"no image {image!r}")
    for cid in sorted(game.cards):
        card = game.cards[cid]
        if cid not in taken and card.image == image and card.value == value:
            taken.add(cid)
            return cid
    raise ValueError(f"no free card {spec!r} left in the deck")


def stack_getout(
    game: GetOut,
    hands: Sequence[Sequence[str]],
    *,
    draw: Sequence[str] = (),
    played: Sequence[str] = (),
    call_image: str | None = None,
    turn: int = 0,
    leftover: str = "draw",
) -> None:
    """Set the current round of ``game`` by hand.

    ``draw`` lists the draw pile top first; ``played`` lists the played pile bottom
    first (its last card is the call card). Cards not named go to the bottom of the
    draw pile (``leftover="draw"``) or of the played pile (``leftover="played"``), so
    all 58 cards stay in the game.
    """
    taken: set[int] = set()
    game.hands = [[getout_card(game, c, taken) for c in hand] for hand in hands]
    game.hands += [[] for _ in range(game.seats - len(game.hands))]
    draw_ids = [getout_card(game, c, taken) for c in draw]
    played_ids = [getout_card(game, c, taken) for c in played]
    rest = [cid for cid in sorted(game.cards) if cid not in taken]
    if leftover == "draw":
        draw_ids += rest
    else:
        played_ids = rest + played_ids
    game.draw_pile = list(reversed(draw_ids))
    game.played = played_ids
    game.call_image = call_image
    game.turn = turn
    game._phase_name = "play"

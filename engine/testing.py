"""Test-only helpers that put a game into a hand-set state.

Nothing here is reachable from the wire: the host only ever calls ``act`` with actions
it has checked. Tests use these to build scenarios straight from RULES.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.getit import SPECIAL_KINDS, GetIt
from engine.getout import IMAGES, GetOut
from engine.gotfive import COLOURS, TILES, GotFive, colour_of, numbers_of_colour


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
    game.hands = [sorted(getout_card(game, c, taken) for c in hand) for hand in hands]
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
    game.turned = []
    game._epoch += 1  # the views' faces of the piles are built again
    game.call_image = call_image
    game.turn = turn
    game._phase_name = "play"


def stack_gotfive(
    game: GotFive,
    racks: Sequence[Sequence[int]],
    *,
    public: Sequence[int] = (),
    supply: Mapping[int, Sequence[int]] | None = None,
    turn: int = 0,
) -> None:
    """Set a fresh Got Five! game's tiles by hand.

    ``racks`` gives every seat's five numbers (one per colour; sorted here as the rack
    holds them). ``public`` is the public row. ``supply`` maps a colour to the numbers
    on top of its face-down stack, top first. Numbers not named go under the named
    ones of their colour's stack, ascending from the top, so all 60 tiles stay in the
    game. Clues, announcements and marks are cleared; ``turn`` starts its turn.
    """
    if len(racks) != game.seats:
        raise ValueError(f"give a rack for each of the {game.seats} seats")
    named: list[int] = [n for rack in racks for n in rack] + list(public)
    tops = {c: list(supply.get(c, ())) if supply else [] for c in range(COLOURS)}
    named += [n for c in range(COLOURS) for n in tops[c]]
    if len(set(named)) != len(named) or not all(1 <= n <= TILES for n in named):
        raise ValueError("every number must be from 1 to 60 and named at most once")
    for rack in racks:
        if sorted(colour_of(n) for n in rack) != list(range(COLOURS)):
            raise ValueError(f"rack {list(rack)} must hold one tile of each colour")
    for c, top in tops.items():
        if any(colour_of(n) != c for n in top):
            raise ValueError(f"supply {c} may only hold tiles of colour {c}")
    game.racks = [sorted(rack) for rack in racks]
    game.public = sorted(public)
    stacks: list[list[int]] = []
    for c in range(COLOURS):
        rest = [n for n in numbers_of_colour(c) if n not in named]
        # A stack's top is the end of its list.
        stacks.append(list(reversed(tops[c] + rest)))
    game.supply = stacks
    game.clues = []
    game.announcements = []
    game.out = [False] * game.seats
    game.marks = [{} for _ in range(game.seats)]
    game.winners = None
    game.reason = None
    game._start_turn(turn)


# --------------------------------------------------------------------------- Get It!


def getit_card(game: GetIt, spec: str, taken: set[int]) -> int:
    """The id of a free card matching ``spec`` ("17", "smile", "eyes", "mirror", "speech").

    A number names either copy of a doubled value; the lower id is taken first.
    """
    if spec in SPECIAL_KINDS:
        kind, value = spec, None
    else:
        kind, value = "number", int(spec)
    for cid in sorted(game.cards):
        card = game.cards[cid]
        if cid not in taken and card.kind == kind and card.value == value:
            taken.add(cid)
            return cid
    raise ValueError(f"no free card {spec!r} left in the deck")


def stack_getit_hands(game: GetIt, hands: Sequence[Sequence[str]]) -> list[list[int]]:
    """Replace the hands of the round being prepared; returns their ids per seat.

    Any card may be named, whatever the level; the game must be preparing a round and no
    seat may have arranged yet.
    """
    if game._phase_name != "prepare" or any(a is not None for a in game.arranged):
        raise ValueError("hands can only be stacked before anyone has arranged")
    if len(hands) != game.seats:
        raise ValueError(f"give one hand per seat ({game.seats})")
    taken: set[int] = set()
    game.hands = [[getit_card(game, c, taken) for c in hand] for hand in hands]
    return [list(h) for h in game.hands]


def stack_getit_piles(
    game: GetIt, piles: Sequence[Sequence[str]], *, now: float = 0.0
) -> list[list[int]]:
    """Skip preparation: seat ``i`` holds ``piles[i]`` (top card first); the round starts
    at ``now`` (the timer's start). Returns the ids per holder, top first.
    """
    if game._phase_name != "prepare":
        raise ValueError("piles can only be stacked in place of a preparation")
    if len(piles) != game.seats:
        raise ValueError(f"give one pile per seat ({game.seats})")
    if now < game.now:
        raise ValueError("the round cannot start before the game's current time")
    taken: set[int] = set()
    ids = [[getit_card(game, c, taken) for c in pile] for pile in piles]
    game.hands = [[] for _ in range(game.seats)]
    game.arranged = [[] for _ in range(game.seats)]
    game.piles = [list(reversed(pile)) for pile in ids]
    timer = game.options["timer"]
    game.started = now
    game.deadline = now + float(timer) if timer else None
    game._phase_name = "play"
    return ids

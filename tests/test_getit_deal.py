"""Get It! deck, options, deal, all-specials redeal and preparation (RULES.md §1)."""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest

import engine
from engine import IllegalAction, getit
from engine.getit import DEAL_SIZES, DOUBLES, Card, GetIt, arrangement, hand_order
from engine.testing import stack_getit_hands
from tests.getit_support import arrange_all, new

# --------------------------------------------------------------------------- deck, options


def test_registered_with_seat_range_and_defaults() -> None:
    spec = engine.GAMES["getit"]
    assert (spec.min_seats, spec.max_seats) == (3, 6)
    assert spec.defaults == {"level": 1, "cards": 25, "timer": 60, "bots": "quick",
                             "best": None, "away_bot": "off"}


def test_deck_has_59_cards_of_the_right_faces() -> None:
    game = new()
    cards = list(game.cards.values())
    assert sorted(game.cards) == list(range(59))
    kinds = Counter(c.kind for c in cards)
    assert kinds == {"number": 50, "smile": 5, "eyes": 2, "mirror": 1, "speech": 1}
    values = Counter(c.value for c in cards if c.kind == "number")
    assert values == Counter([*range(1, 41), *DOUBLES])
    assert all(c.value is None for c in cards if c.kind != "number")


def test_card_ids_are_shuffled_per_seed() -> None:
    faces = [
        [(c.kind, c.value) for _, c in sorted(new(seed=seed).cards.items())] for seed in range(4)
    ]
    assert len({tuple(f) for f in faces}) == 4
    assert faces[0] == [(c.kind, c.value) for _, c in sorted(new(seed=0).cards.items())]


@pytest.mark.parametrize(
    ("seats", "options", "message"),
    [
        (2, {}, "3 to 6 seats"),
        (7, {}, "3 to 6 seats"),
        (4, {"level": 7}, "'level'"),
        (4, {"level": 0}, "'level'"),
        (4, {"level": "Y"}, "'level'"),
        (4, {"cards": 3}, "'cards'"),
        (4, {"cards": 60}, "'cards'"),
        (4, {"timer": -1}, "'timer'"),
        (4, {"timer": 1.5}, "'timer'"),
        (4, {"best": 2}, "'best'"),
        (4, {"speed": 2}, "unknown option"),
    ],
)
def test_bad_seats_and_options_are_refused(
    seats: int, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        engine.new_game("getit", seats=seats, seed=1, options=options)


def test_level_x_and_best_options_are_accepted() -> None:
    game = new(4, level="X", cards=4, best=30)
    assert game.level == "X" and game.deck_size() == 4
    assert new(6, level="X", cards=59).deck_size() == 59


# --------------------------------------------------------------------------- deal


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_each_level_deals_its_total_from_its_deck(level: int, seats: int) -> None:
    game = new(seats, seed=level * 10 + seats, level=level)
    total = DEAL_SIZES[level]
    sizes = [len(h) for h in game.hands]
    # Round-robin from seat 0: the first seats get the extra cards.
    assert sizes == [total // seats + (1 if s < total % seats else 0) for s in range(seats)]
    assert game.view(None)["hand_sizes"] == sizes
    dealt = [game.cards[c] for h in game.hands for c in h]
    allowed_tiers = set(range(1, level + 1))
    assert {c.tier for c in dealt} <= allowed_tiers
    deck = game.level_deck()
    assert len(deck) == {1: 40, 2: 45, 3: 47, 4: 48, 5: 49, 6: 59}[level]
    assert all(any(game.cards[c].kind == "number" for c in h) for h in game.hands)


def test_level_x_deals_the_chosen_count_from_all_59() -> None:
    game = new(5, level="X", cards=33)
    assert sum(len(h) for h in game.hands) == 33
    assert len(game.level_deck()) == 59
    assert [len(h) for h in game.hands] == [7, 7, 7, 6, 6]


def test_same_seed_same_deal_other_seed_other_deal() -> None:
    assert new(4, seed=5).hands == new(4, seed=5).hands
    assert new(4, seed=5).hands != new(4, seed=6).hands


def _all_special(cards: Mapping[int, Card], hand: list[int]) -> bool:
    return all(cards[c].special for c in hand)


def test_all_special_hand_is_redrawn_from_the_undealt_rest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Seeds whose shuffle gives a hand of only specials end with a number in every hand;
    other hands and the hand's size are kept, and the redrawn cards came from the rest."""
    seen: list[tuple[list[list[int]], list[int]]] = []
    original = getit.fix_special_hands

    def spy(hands: list[list[int]], rest: list[int], cards: Mapping[int, Card],
            rng: random.Random) -> bool:
        before = ([list(h) for h in hands], list(rest))
        ok = original(hands, rest, cards, rng)
        if ok and any(_all_special(cards, h) for h in before[0]):
            seen.append(before)
            for old, new_hand in zip(before[0], hands, strict=True):
                assert len(old) == len(new_hand)
                if not _all_special(cards, old):
                    assert old == new_hand
                else:
                    assert not _all_special(cards, new_hand)
                    assert set(new_hand) <= set(old) | set(before[1])
            after = [c for h in hands for c in h] + rest
            assert sorted(after) == sorted([c for h in before[0] for c in h] + before[1])
        return ok

    monkeypatch.setattr(getit, "fix_special_hands", spy)
    for seed in range(400):
        game = new(6, seed=seed, level=2)
        assert not any(_all_special(game.cards, h) for h in game.hands)
        if len(seen) >= 3:
            break
    assert len(seen) >= 3, "no seed dealt an all-special hand; the test proves nothing"


def test_too_few_undealt_cards_redeal_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    """With nothing useful left undealt, the whole deal is shuffled and dealt again."""
    game = new(3, seed=3)
    numbers = [c for c in sorted(game.cards) if game.cards[c].kind == "number"][:3]
    smiles = [c for c in sorted(game.cards) if game.cards[c].kind == "smile"][:3]
    deck = sorted(numbers + smiles)
    failures = 0
    original = getit.fix_special_hands

    def spy(hands: list[list[int]], rest: list[int], cards: Mapping[int, Card],
            rng: random.Random) -> bool:
        nonlocal failures
        ok = original(hands, rest, cards, rng)
        failures += not ok
        return ok

    monkeypatch.setattr(getit, "fix_special_hands", spy)
    for _ in range(40):
        hands = getit.deal_hands(deck, game.seats, 4, game.cards, game.rng)
        assert [len(h) for h in hands] == [2, 1, 1]
        assert all(any(game.cards[c].kind == "number" for c in h) for h in hands)
    assert failures > 0, "the whole-redeal path was never taken"


def test_fix_reports_too_few_cards_left() -> None:
    game = new(3, seed=3)
    smiles = [c for c in sorted(game.cards) if game.cards[c].kind == "smile"]
    number = next(c for c in sorted(game.cards) if game.cards[c].kind == "number")
    fix = functools.partial(getit.fix_special_hands, cards=game.cards, rng=game.rng)
    assert fix([[smiles[0], smiles[1]]], [number]) is False
    assert fix([[smiles[0]]], [smiles[2]]) is False
    hands = [[smiles[0]]]
    assert fix(hands, [number, smiles[2]]) is True
    assert hands == [[number]]


# --------------------------------------------------------------------------- preparation


def test_preparation_view_shows_only_the_own_hand_sorted() -> None:
    game = new(4, seed=2, level=3)
    assert game.phase_name == "prepare"
    for seat in range(4):
        view = game.view(seat)
        assert view["phase"] == "prepare" and view["turn"] is None
        ids = [c["id"] for c in view["hand"]]
        assert sorted(ids) == sorted(game.hands[seat])
        assert ids == sorted(ids, key=lambda c: hand_order(game.cards[c]))
        assert all(p == {"count": 0, "top": None} for p in view["piles"])
    assert "hand" not in game.view(None)
    assert game.legal_actions(0) == [{"type": "arrange"}]


def _hands(game: GetIt, specs: list[list[str]]) -> list[list[int]]:
    return stack_getit_hands(game, specs)


ILLEGAL_ARRANGES = [
    (lambda h: [h[0], h[1]], "missing"),
    (lambda h: [*h, h[0]], "more than once"),
    (lambda h: [*h, 999], "not in your hand"),
    (lambda h: [h[2], h[0], h[1], h[3]], "lowest on top: 3 cannot come after 7"),
    (lambda h: [h[1], h[0], h[2], h[3]], "special card \\(smile\\) cannot go on top"),
    (lambda h: "nope", "list of card ids"),
    (lambda h: [True, *h[1:]], "list of card ids"),
]


@pytest.mark.parametrize(("build", "message"), ILLEGAL_ARRANGES)
def test_illegal_arrange_is_refused_and_changes_nothing(build: Any, message: str) -> None:
    game = new(3, seed=4, level=2)
    # seat 0's hand: 3, smile, 7 in that order of the list, and 5 after it.
    hands = _hands(game, [["3", "smile", "7", "5"], ["10", "11"], ["20"]])
    h = hands[0]
    pile = build([h[0], h[1], h[2], h[3]])
    before = game.snapshot()
    with pytest.raises(IllegalAction, match=message):
        game.act(0, {"type": "arrange", "pile": pile})
    assert game.snapshot() == before


def test_arrange_validates_fields_phase_and_repeats() -> None:
    game = new(3, seed=4)
    hands = _hands(game, [["3", "7"], ["10"], ["20"]])
    with pytest.raises(IllegalAction, match="unexpected field 'x'"):
        game.act(0, {"type": "arrange", "pile": hands[0], "x": 1})
    game.act(0, {"type": "arrange", "pile": hands[0]})
    assert game.legal_actions(0) == []
    assert game.view(1)["arranged"] == [True, False, False]
    before = game.snapshot()
    with pytest.raises(IllegalAction, match="already arranged"):
        game.act(0, {"type": "arrange", "pile": hands[0]})
    assert game.snapshot() == before
    game.act(1, {"type": "arrange", "pile": hands[1]})
    game.act(2, {"type": "arrange", "pile": hands[2]})
    with pytest.raises(IllegalAction, match="only possible while the piles are being prepared"):
        game.act(0, {"type": "arrange", "pile": hands[0]})


def test_specials_may_go_anywhere_but_top_and_equal_values_in_any_order() -> None:
    game = new(3, seed=4, level=6)
    hands = _hands(game, [["6", "smile", "6", "eyes", "9", "mirror"], ["10"], ["20"]])
    a, smile, b, eyes, nine, mirror = hands[0]
    game.act(0, {"type": "arrange", "pile": [b, smile, a, eyes, nine, mirror]})
    assert [c["id"] for c in game.view(0)["hand"]] == [b, smile, a, eyes, nine, mirror]


def test_piles_pass_left_and_the_timer_starts_at_the_last_arrange() -> None:
    game = new(4, seed=8, level=1)
    orders = {}
    rng = random.Random(0)
    for seat, now in zip(range(4), (1.0, 2.0, 3.0, 7.5), strict=True):
        orders[seat] = arrangement(game.view(seat)["hand"], rng)
        events = game.act(seat, {"type": "arrange", "pile": orders[seat]}, now)
    assert events[0] == {"type": "arranged", "seat": 3}
    assert events[1]["type"] == "round_started" and events[1]["deadline"] == 67.5
    assert game.phase_name == "play"
    for sorter in range(4):
        holder = (sorter + 1) % 4
        assert game.piles[holder] == list(reversed(orders[sorter]))
        # The sorter sees the top of the pile it sorted, now in its left neighbour's hands.
        assert game.view(sorter)["piles"][holder]["top"]["id"] == orders[sorter][0]
        assert game.view(holder)["piles"][holder] == {"count": len(orders[sorter]), "top": None}
    view = game.view(0)
    assert view["deadline"] == 67.5 and view["hand"] == []
    # Only the deadline crosses into views (the host turns it into seconds left).
    assert "started" not in view


def test_arrangement_helper_places_specials_below_the_top() -> None:
    game = new(3, seed=4, level=5)
    hands = _hands(game, [["9", "smile", "eyes", "mirror", "speech", "2"], ["10"], ["20"]])
    plain = [game.cards[c].plain() for c in hands[0]]
    for seed in range(30):
        pile = arrangement(plain, random.Random(seed))
        assert game.cards[pile[0]].value == 2
        assert [game.cards[c].value for c in pile if game.cards[c].kind == "number"] == [2, 9]
    with pytest.raises(ValueError):
        arrangement([game.cards[hands[0][1]].plain()], random.Random(0))


def test_untimed_round_has_no_deadline() -> None:
    game = new(3, seed=1, timer=0)
    arrange_all(game, now=5.0)
    assert game.view(0)["deadline"] is None
    assert game.advance(10_000.0) == []
    assert game.phase_name == "play"

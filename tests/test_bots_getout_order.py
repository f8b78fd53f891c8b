"""What a GET OUT! seat remembers of the order cards were played in: the order of the
draw pile once the played pile is turned over (RULES.md: without shuffling)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import engine
from engine.bots.getout_bot import GreedyBot
from engine.bots.getout_infer import Tracker
from engine.bots.getout_order import Group, PlayOrder
from engine.bots.getout_search import Knowledge
from engine.getout import face
from engine.getout_fast import IMAGE, NUMBER, face_of
from tests.helpers import roundtrip


def _words(game: Any, cid: int) -> str:
    return face(game.cards[cid])


def _fits(groups: list[Group], truth: list[str]) -> bool:
    """Whether ``groups`` are ``truth`` in order, each group's cards in some order."""
    at = 0
    for group in groups:
        if sorted(group) != sorted(truth[at:at + len(group)]):
            return False
        at += len(group)
    return at == len(truth)


def _watched(seats: int, seed: int) -> Iterator[tuple[Any, PlayOrder, dict[str, Any]]]:
    """A round of greedy players; at each of seat 0's turns: the game, what seat 0
    remembers (brought up to its view, off the wire) and the view."""
    game = engine.new_game("getout", seats=seats, seed=seed, options={"match": False})
    bots = [GreedyBot(seed * 10 + s) for s in range(seats)]
    order = PlayOrder()
    while not game.over:
        turn = game.view(None)["turn"]
        view = roundtrip(game.view(turn))
        if turn == 0:
            order.observe(view)
            yield game, order, view
        action = bots[turn].choose(view, game.legal_actions(turn))
        assert action is not None
        if turn == 0:
            order.moved(view, action)
        game.act(turn, action)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_seat_that_watched_knows_the_order_of_the_turned_over_draw_pile(seats: int) -> None:
    """Over seeded rounds, what seat 0 remembers from its own views agrees with the
    engine's played pile and turned-over cards, what it says is left to draw is the
    draw pile, top first, and every card it says an opponent drew from there is in that
    opponent's hand. Heads-up it knows every card's place; with more seats, where
    several cards are played between two of its turns, most."""
    turned_over = known = cards = held = 0
    for seed in range(150 if seats == 2 else 60):
        for game, order, view in _watched(seats, seed):
            assert _fits(order.played, [_words(game, c) for c in game.played])
            for seat, words in order.held.items():
                hand = [_words(game, c) for c in game.hands[seat]]
                assert all(w in hand for w in words), (seat, words, hand)
                held += len(words)
            if not game.turned:
                assert order.draw_pile(view["draw_count"]) is None
                continue
            turned_over += 1
            truth = [_words(game, c) for c in game.turned]
            assert _fits(order.turned, truth)
            cards += len(truth)
            known += sum(len(g) for g in order.turned if len(g) == 1)
            left = order.draw_pile(view["draw_count"])
            assert left is not None
            pile = [_words(game, c) for c in reversed(game.draw_pile)]
            at = 0
            for group, count in left:
                assert set(pile[at:at + count]) <= set(group)
                at += count
            assert at == len(pile)
    assert turned_over >= 10
    assert known / cards == 1.0 if seats == 2 else known / cards > 0.8
    # It knows which cards its opponents drew from there.
    assert held >= 10


def test_after_a_turn_over_heads_up_the_search_deals_the_real_draw_pile_and_hand() -> None:
    """Heads-up, once the pile is turned over, every card the strong bot cannot see is
    placed: the draw pile in its order, the rest in the opponent's hand. Its deals are
    all the same deal, the real one. With four seats, each opponent is dealt the cards
    it was seen to draw from there."""
    def sig(faces: list[int]) -> list[tuple[int, int]]:
        return [(IMAGE[f], NUMBER[f]) for f in faces]

    checked = 0
    for seed in range(150):
        for game, order, view in _watched(2, seed):
            if not game.turned or view["draw_count"] < 2:
                continue
            known = Knowledge(view, order)
            draw = sig([face_of(_words(game, c)) for c in game.draw_pile])
            hand = sorted(sig([face_of(_words(game, c)) for c in game.hands[1]]))
            rng = random.Random(seed)
            for _ in range(5):
                deal = known.deal(rng)
                assert sig(deal.draw) == draw
                assert sorted(sig(deal.hands[1])) == hand
            checked += 1
    assert checked >= 10
    dealt = 0
    for seed in range(60):
        for game, order, view in _watched(4, seed):
            if not order.held or not game.turned:
                continue
            known = Knowledge(view, order)
            deal = known.deal(random.Random(seed), Tracker().observe(view))
            for seat, words in order.held.items():
                for w in words:
                    assert (IMAGE[face_of(w)], NUMBER[face_of(w)]) in sig(deal.hands[seat])
                    dealt += 1
    assert dealt >= 10


def test_a_seat_that_did_not_watch_knows_the_turned_over_cards_in_no_order() -> None:
    """A bot that takes over a seat after the pile was turned over saw none of it
    played: it knows which cards are in the draw pile, as the view says, not their
    order."""
    for seed in range(150):
        for game, _order, view in _watched(2, seed):
            if game.turned and view["draw_count"] >= 3:
                fresh = PlayOrder()
                fresh.observe(view)
                assert fresh.turned == [tuple(sorted(_words(game, c) for c in game.turned))]
                assert fresh.draw_pile(view["draw_count"]) == [
                    (fresh.turned[0], view["draw_count"])]
                return
    raise AssertionError("no seeded round turned its pile over")

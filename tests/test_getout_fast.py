"""The rollout path (``engine.getout_fast``) plays GET OUT! exactly as the engine does."""

from __future__ import annotations

import random

import engine
from engine.getout import GetOut
from engine.getout_fast import (
    DRAW,
    FACE_OF,
    IMAGE,
    NUMBER,
    POINTS,
    WILD,
    WILD_FACES,
    FastRound,
    face_of,
)


def faces_of(game: GetOut) -> dict[int, int]:
    """Each card id's face (the three wild cards get the three wild faces)."""
    wilds = iter(WILD_FACES)
    return {cid: next(wilds) if card.wild else FACE_OF[(card.image, card.value)]
            for cid, card in sorted(game.cards.items())}


def fast_copy(game: GetOut, face: dict[int, int]) -> FastRound:
    named = IMAGE_INDEX[game.call_image] if game.call_image else -1
    return FastRound([[face[c] for c in hand] for hand in game.hands],
                     [face[c] for c in game.draw_pile], [face[c] for c in game.played],
                     named, game.turn or 0, game.out)


IMAGE_INDEX = {"geoff": 0, "samantha": 1, "kevin": 2, "shirley": 3, "tea_picker": 4}


def test_moves_and_their_effects_are_the_engines() -> None:
    """Random play in both, side by side: the same moves are legal, and every move
    leaves the same hands, draw pile (turned over included), call and turn."""
    assert sum(play_side_by_side(seed) for seed in range(12)) >= 3


def play_side_by_side(seed: int) -> bool:
    """One round in both; whether the played pile was turned over in it."""
    game = engine.new_game("getout", seats=2 + seed % 5, seed=seed, options={"match": False})
    assert isinstance(game, GetOut)
    face = faces_of(game)
    fast = fast_copy(game, face)
    rng = random.Random(seed)
    recycled = 0
    while not game.over:
        seat = game.turn
        assert seat is not None and fast.turn == seat
        legal = game.legal_actions(seat)
        want = sorted(DRAW if a["type"] == "draw"
                      else (face[a["card"]], IMAGE_INDEX[a["image"]] if "image" in a else -1)
                      for a in legal)
        moves = fast.moves(seat)
        assert sorted(m for m in moves if m[0] < 0 or IMAGE[m[0]] != WILD) == sorted(
            m for m in want if m[0] < 0 or IMAGE[m[0]] != WILD)
        assert {m[1] for m in moves if m[0] >= 0 and IMAGE[m[0]] == WILD} == {
            m[1] for m in want if m[0] >= 0 and IMAGE[m[0]] == WILD}
        # Often draws, so the draw pile runs dry and is turned over; plays the first card
        # that follows otherwise, so the round ends.
        action = legal[-1] if rng.random() < 0.35 else legal[0]
        events = game.act(seat, action)
        recycled += any(e["type"] == "recycled" for e in events)
        fast.apply(DRAW if action["type"] == "draw"
                   else (face[action["card"]], IMAGE_INDEX.get(action.get("image", ""), -1)))
        assert [sorted(h) for h in fast.hands] == [
            sorted(face[c] for c in hand) for hand in game.hands]
        assert fast.draw == [face[c] for c in game.draw_pile]
        assert fast.pile == [face[c] for c in game.played]
        if not game.over:
            assert fast.turn == game.turn
            assert fast.follow()[0] == IMAGE_INDEX[game.image_to_follow()]
    assert game.result is not None and fast.winner == game.result["winners"][0]
    return recycled > 0


def test_a_playout_ends_the_round_with_a_winner_whose_hand_is_empty() -> None:
    game = engine.new_game("getout", seats=4, seed=3, options={"match": False})
    assert isinstance(game, GetOut)
    face = faces_of(game)
    game.act(game.turn, game.legal_actions(game.turn)[0])
    for seed in range(20):
        fast = fast_copy(game, face)
        winner = fast.playout(random.Random(seed), slip=0.2)
        assert winner == fast.winner and not fast.hands[winner]
        held = sum(len(h) for h in fast.hands) + len(fast.draw) + len(fast.pile)
        assert held == 58
        # It counts the moves it made (what a search spends): the winner alone played
        # every card it held, and the others had a turn between any two of them.
        start = len(game.hands[winner])
        assert 4 * (start - 1) + 1 <= fast.steps <= 400


def play_greedily(fast: FastRound, limit: int = 400) -> int:
    """The greedy player as the rules read, a move at a time through ``apply``: the
    costliest card that follows (the last face of the costliest), else a wild card
    naming the image the rest of the hand holds most (the first on a tie), else draw;
    -1 if ``limit`` moves did not end the round."""
    for _ in range(limit):
        if fast.winner >= 0:
            break
        hand = fast.hands[fast.turn]
        image, number = fast.follow()
        plain = [f for f in hand if IMAGE[f] != WILD and (IMAGE[f] == image or NUMBER[f] == number)]
        wilds = [f for f in hand if IMAGE[f] == WILD]
        if plain:
            fast.apply((max(plain, key=lambda f: (POINTS[f], f)), -1))
        elif wilds:
            rest = list(hand)
            rest.remove(max(wilds))
            held = [sum(1 for f in rest if IMAGE[f] == i) for i in range(WILD)]
            fast.apply((max(wilds), held.index(max(held))))
        else:
            fast.apply(DRAW)
    return fast.winner


def test_a_greedy_playout_makes_the_moves_a_greedy_player_makes() -> None:
    """The playout's bit sets play as the rules read, turned-over piles and all."""
    turned = ended = 0
    for seed in range(60):
        game = engine.new_game("getout", seats=2 + seed % 5, seed=seed, options={"match": False})
        assert isinstance(game, GetOut)
        face = faces_of(game)
        game.act(game.turn, game.legal_actions(game.turn)[seed % 3])
        fast, slow = fast_copy(game, face), fast_copy(game, face)
        # Thin draw piles, so some rounds turn the played pile over.
        if seed % 2:
            fast.draw, slow.draw = fast.draw[:3], slow.draw[:3]
        winner = fast.playout(random.Random(seed))
        assert winner == play_greedily(slow)
        assert [sorted(h) for h in fast.hands] == [sorted(h) for h in slow.hands]
        assert (fast.draw, fast.pile, fast.named, fast.turn) == (
            slow.draw, slow.pile, slow.named, slow.turn)
        turned += fast.pile[0] != face[game.played[0]]  # (the first card went under)
        ended += winner >= 0
    assert turned >= 5 and ended >= 40


def test_a_playout_cut_short_counts_its_limit() -> None:
    game = engine.new_game("getout", seats=4, seed=3, options={"match": False})
    assert isinstance(game, GetOut)
    game.act(game.turn, game.legal_actions(game.turn)[0])
    fast = fast_copy(game, faces_of(game))
    assert fast.playout(random.Random(0), limit=5) == -1
    assert fast.steps == 5 and fast.winner == -1


def test_faces_in_words_are_the_views_words() -> None:
    assert face_of("kevin 7") == FACE_OF[("kevin", 7)]
    assert face_of("tea_picker 3") == FACE_OF[("tea_picker", 3)]
    assert IMAGE[face_of("wild")] == WILD

"""The GET OUT! bot: always legal, decides from its view alone, and plays sensibly."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine.bots import GetOutBot, make_bot
from engine.bots.getout_bot import LEVELS, GetOutTableBot, GreedyBot
from engine.bots.getout_infer import (
    DREW,
    PLAYED,
    PLAYED_COSTLIER,
    Tracker,
    face_weight,
    hand_weight,
)
from engine.bots.getout_search import GetOutSearchBot, Knowledge
from engine.getout_fast import FACE_OF, IMAGE, NUMBER
from engine.testing import stack_getout
from tests.helpers import roundtrip


def test_bot_never_acts_illegally_over_many_matches() -> None:
    for seed in range(12):
        game = engine.new_game("getout", seats=2 + seed % 5, seed=seed, options={"limit": 60})
        bots = [make_bot("getout", s, seed) for s in range(game.seats)]
        for _ in range(20_000):
            if game.over:
                break
            view = game.view(None)
            seat = view["turn"] if view["turn"] is not None else view["out"].index(False)
            legal = game.legal_actions(seat)
            # The bot gets what a client gets: its view and legal actions off the wire.
            action = bots[seat].choose(roundtrip(game.view(seat)), roundtrip(legal))
            assert action in legal
            game.act(seat, action)
        assert game.over


def test_bot_sheds_the_costliest_card_and_names_the_image_it_holds_most() -> None:
    game = engine.new_game("getout", seats=2, seed=3)
    stack_getout(game, [["kevin 2", "kevin 13", "tea_picker 7", "geoff 1"], ["geoff 2"]],
                 played=["kevin 7"], turn=0)
    bot = GetOutBot(0)
    action = bot.choose(game.view(0), game.legal_actions(0))
    # Tea Picker 7 scores 14 and follows nothing; Kevin 13 costs 13 and leaves Kevin 2 to follow.
    chosen = game.cards[action["card"]]
    assert (chosen.image, chosen.value) in {("tea_picker", 7), ("kevin", 13)}


def test_bot_keeps_its_wild_card_and_draws_while_nobody_is_close() -> None:
    game = engine.new_game("getout", seats=2, seed=3)
    stack_getout(game, [["wild", "geoff 2", "geoff 3", "shirley 4"],
                        ["samantha 2", "samantha 3", "samantha 4", "samantha 5", "samantha 7"]],
                 played=["kevin 7"], turn=0)
    assert GetOutBot(0).choose(game.view(0), game.legal_actions(0)) == {"type": "draw"}


def test_bot_plays_its_wild_card_when_an_opponent_is_close_to_going_out() -> None:
    game = engine.new_game("getout", seats=2, seed=3)
    stack_getout(game, [["wild", "geoff 2", "geoff 3", "shirley 4"], ["samantha 2"]],
                 played=["kevin 7"], turn=0)
    action = GetOutBot(0).choose(game.view(0), game.legal_actions(0))
    assert action is not None and game.cards[action["card"]].wild
    assert action["image"] == "geoff"


# ---------------------------------------------------------------------------- levels


def play_round(game: engine.Game, bots: list[Any], *, wire: bool = True) -> None:
    """Play ``game`` to its end, every bot asked with its own view and legal actions
    (through a msgpack round trip, as a client receives them)."""
    while not game.over:
        view = game.view(None)
        seat = view["turn"] if view["turn"] is not None else view["out"].index(False)
        legal = game.legal_actions(seat)
        seen = (roundtrip(game.view(seat)), roundtrip(legal)) if wire else (
            game.view(seat), legal)
        action = bots[seat].choose(*seen)
        assert action in legal
        game.act(seat, action)


def test_every_level_plays_legally_from_its_view_alone() -> None:
    for level in LEVELS:
        game = engine.new_game("getout", seats=3, seed=4,
                               options={"limit": 30, "bots": level})
        # A strong bot thinks less here than at a table, to keep the test quick.
        bots = [GetOutTableBot(s) for s in range(3)]
        if level == "strong":
            bots = [GetOutSearchBot(s, iterations=30) for s in range(3)]
        play_round(game, bots)
        assert game.result is not None


def test_the_table_bot_plays_at_the_level_the_view_names() -> None:
    """With nothing but a GET OUT! card to play and nobody close to going out, a normal
    bot draws (it keeps the wild card); a casual one plays it at once."""
    hands = [["wild", "geoff 2", "geoff 3", "shirley 4"],
             ["samantha 2", "samantha 3", "samantha 4", "samantha 5", "samantha 7"]]
    for level, wild in (("normal", False), ("casual", True)):
        game = engine.new_game("getout", seats=2, seed=3, options={"bots": level})
        stack_getout(game, hands, played=["kevin 7"], turn=0)
        view = game.view(0)
        assert view.get("bots", "normal") == level
        action = make_bot("getout", 0, 1).choose(roundtrip(view), game.legal_actions(0))
        assert action is not None
        assert (action["type"] == "play") == wild
    with pytest.raises(ValueError, match="level must be one of casual, normal, strong"):
        GetOutTableBot(0, level="genius")


def test_the_greedy_player_sheds_its_costliest_card_and_keeps_wild_cards_for_last() -> None:
    game = engine.new_game("getout", seats=2, seed=3)
    stack_getout(game, [["kevin 2", "kevin 13", "wild"], ["geoff 2"]], played=["kevin 7"],
                 turn=0)
    action = GreedyBot(0).choose(game.view(0), game.legal_actions(0))
    assert action is not None and game.cards[action["card"]].value == 13
    stack_getout(game, [["wild", "geoff 2", "geoff 3"], ["geoff 4"]], played=["kevin 7"],
                 turn=0)
    action = GreedyBot(0).choose(game.view(0), game.legal_actions(0))
    assert action is not None and action["image"] == "geoff"


# ---------------------------------------------------------------------------- search


def test_the_search_bot_replays_exactly_from_its_seed() -> None:
    game = engine.new_game("getout", seats=3, seed=8, options={"match": False})
    game.act(game.view(None)["turn"], game.legal_actions(game.view(None)["turn"])[0])
    seat = game.view(None)["turn"]
    view, legal = roundtrip(game.view(seat)), roundtrip(game.legal_actions(seat))
    first = GetOutSearchBot(5, iterations=60).choose(view, legal)
    assert first == GetOutSearchBot(5, iterations=60).choose(view, legal)


def test_the_search_bot_goes_out_when_it_can() -> None:
    game = engine.new_game("getout", seats=2, seed=3, options={"match": False})
    stack_getout(game, [["kevin 2", "tea_picker 8"], ["geoff 2"]], played=["kevin 7"],
                 turn=0)
    # Kevin 2 now; then Tea Picker 8 follows any 8 or Tea Picker, a wild card naming it,
    # or nothing: a draw. Drawing now instead can only be worse.
    action = GetOutSearchBot(1, iterations=200).choose(game.view(0), game.legal_actions(0))
    assert action is not None and action["type"] == "play"
    stack_getout(game, [["kevin 2"], ["geoff 2", "geoff 3"]], played=["kevin 7"], turn=0)
    action = GetOutSearchBot(1, iterations=200).choose(game.view(0), game.legal_actions(0))
    assert action is not None and action["type"] == "play"


def _plays_kevin_7(game: Any) -> Tracker:
    """Seat 0 plays its Kevin 7, as its tracker sees it: the tracker, after the play."""
    tracker = Tracker()
    view = roundtrip(game.view(0))
    action = next(a for a in game.legal_actions(0) if a["type"] == "play"
                  and game.cards[a["card"]].value == 7)
    tracker.observe(view)
    tracker.moved(view, action)
    game.act(0, action)
    return tracker


def test_an_opponent_seen_to_draw_is_seldom_dealt_a_card_that_follows_that_call() -> None:
    """Heads-up, the bot plays Kevin 7 and the opponent draws: the deals the bot then
    imagines seldom hold a Kevin or a 7 among the opponent's older cards (one card, the
    one drawn, may be anything)."""
    game = engine.new_game("getout", seats=2, seed=11, options={"match": False})
    stack_getout(game, [["kevin 7", "geoff 1", "geoff 2"],
                        ["samantha 2", "samantha 3", "shirley 4", "tea_picker 5"]],
                 draw=["kevin 1"], played=["kevin 10"], turn=0)
    tracker = _plays_kevin_7(game)
    game.act(1, {"type": "draw"})
    view = roundtrip(game.view(0))
    blocks = tracker.observe(view)
    assert blocks[1] == [(((DREW, 2, 7, 0),), 4), ((), 1)]
    known = Knowledge(view)
    rng = random.Random(0)
    hands = [known.deal(rng, blocks).hands[1] for _ in range(200)]
    assert all(len(hand) == 5 for hand in hands)
    # A likelihood, not a rule (people draw on purpose): now and then, not never.
    assert sum(sum(IMAGE[f] == 2 or NUMBER[f] == 7 for f in hand) > 1 for hand in hands) < 20
    # Without what it saw, the same deals often give the opponent a Kevin or a 7.
    assert any(sum(IMAGE[f] == 2 or NUMBER[f] == 7 for f in known.deal(rng).hands[1]) > 1
               for _ in range(200))


def test_a_hand_that_held_a_costlier_card_that_followed_is_less_likely() -> None:
    """Facing Kevin 7 the opponent played Kevin 3: a hand holding Kevin 12 (it would
    have followed, and cost more) is less likely than one holding Geoff 12 (it did not
    follow) or Kevin 2 (cheaper), and more likely than one holding both Kevin 12 and
    Samantha 7."""
    played = ((PLAYED, 2, 7, 3),)
    kevin_12, geoff_12, kevin_2, samantha_7 = (
        FACE_OF[c] for c in (("kevin", 12), ("geoff", 12), ("kevin", 2), ("samantha", 7)))
    assert face_weight(kevin_12, played) == PLAYED_COSTLIER
    assert face_weight(geoff_12, played) == face_weight(kevin_2, played) == 1.0
    blocks = [(played, 2)]
    plain = hand_weight([geoff_12, kevin_2], blocks)
    costlier = hand_weight([kevin_12, kevin_2], blocks)
    both = hand_weight([kevin_12, samantha_7], blocks)
    assert 0 < both < costlier < plain
    # A card drawn after the play (a later block) is not held to it.
    assert hand_weight([kevin_2, kevin_12], [(played, 1), ((), 1)]) == plain


def test_an_opponents_play_is_remembered_and_weighs_the_deals() -> None:
    """Heads-up, the bot plays Kevin 7 and the opponent answers with Kevin 3 while it
    could have shed a costlier Kevin: the bot remembers the play against its cards, and
    its deals then give the opponent a costlier Kevin or 7 less often than before."""
    game = engine.new_game("getout", seats=2, seed=11, options={"match": False})
    stack_getout(game, [["kevin 7", "geoff 1", "geoff 2"],
                        ["kevin 3", "samantha 2", "shirley 4", "tea_picker 5"]],
                 draw=["kevin 1"], played=["kevin 10"], turn=0)
    tracker = _plays_kevin_7(game)
    game.act(1, next(a for a in game.legal_actions(1) if a["type"] == "play"))
    view = roundtrip(game.view(0))
    blocks = tracker.observe(view)
    assert blocks[1] == [(((PLAYED, 2, 7, 3),), 3)]
    known = Knowledge(view)
    rng = random.Random(0)

    def costlier(hand: list[int]) -> bool:
        return any((IMAGE[f] == 2 or NUMBER[f] == 7) and NUMBER[f] > 3 for f in hand)

    seen = sum(costlier(known.deal(rng, blocks).hands[1]) for _ in range(400))
    blind = sum(costlier(known.deal(rng).hands[1]) for _ in range(400))
    assert seen < blind / 2


def test_a_match_s_playout_is_scored_by_the_room_left_under_the_limit() -> None:
    """In a match the strong bot scores a playout's end by its share of the room left
    under the limit among the players still in: an opponent pushed over the limit is
    worth as much to it as points of its own kept low."""
    from types import SimpleNamespace

    from engine.bots.getout_search import match_share
    from engine.getout_fast import face_of

    known: Any = SimpleNamespace(me=0, limit=100, out=[False, False, False, True],
                                 scores=[10, 85, 0, 120])
    five, ten = face_of("geoff 5"), face_of("kevin 10")
    pushed_out = match_share(known, [[five], [ten, face_of("shirley 10")], [], []], 2)
    kept_in = match_share(known, [[five], [ten], [], []], 2)
    assert pushed_out == pytest.approx(86 / (86 + 0 + 101))
    assert kept_in == pytest.approx(86 / (86 + 6 + 101))
    assert pushed_out > kept_in
    assert match_share(known, [[], [ten], [five], []], 0) == pytest.approx(91 / (91 + 6 + 96))
    # Over the limit ourselves: nothing.
    assert match_share(SimpleNamespace(**{**vars(known), "scores": [99, 0, 0, 0]}),
                       [[ten], [], [], []], 1) == 0.0

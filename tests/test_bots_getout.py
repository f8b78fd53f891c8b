"""The GET OUT! bot: always legal, decides from its view alone, and plays sensibly."""

from __future__ import annotations

import engine
from engine.bots import GetOutBot, make_bot
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

"""Property tests for GET OUT! over random legal play to the end of matches."""

from __future__ import annotations

from collections import deque
from itertools import islice
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine
from engine.bots import RandomBot
from engine.getout import DECK_SIZE, IMAGES, GetOut, face
from tests.helpers import ids_in, roundtrip

games = st.fixed_dictionaries(
    {
        "seats": st.integers(2, 6),
        "seed": st.integers(0, 2**32),
        "match": st.booleans(),
        "limit": st.integers(1, 60),
    }
)


def start(params: dict[str, Any]) -> GetOut:
    game = engine.new_game(
        "getout",
        seats=params["seats"],
        seed=params["seed"],
        options={"match": params["match"], "limit": params["limit"]},
    )
    assert isinstance(game, GetOut)
    return game


def mover(game: GetOut) -> int:
    view = game.view(None)
    if view["turn"] is not None:
        return int(view["turn"])
    return next(s for s in range(game.seats) if not view["out"][s])


def play_out(params: dict[str, Any], max_steps: int = 3000):
    """Yield (game, seat, action, events) for random legal play until the game is over."""
    game = start(params)
    bot = RandomBot(params["seed"])
    for _ in range(max_steps):
        if game.over:
            return
        seat = mover(game)
        action = bot.choose(game.view(seat), game.legal_actions(seat))
        assert action is not None
        events = game.act(seat, action)
        yield game, seat, action, events


def check_conservation(game: GetOut) -> None:
    held = [c for hand in game.hands for c in hand] + game.draw_pile + game.played
    assert sorted(held) == list(range(DECK_SIZE))


def check_views(game: GetOut) -> None:
    # (What every seat sees face up, worked out once: per seat it was a third of the run.)
    pile, turned = faces(game, game.played[:-1]), faces(game, game.turned)
    for seat in [*range(game.seats), None]:
        view = game.view(seat)
        assert roundtrip(view) == view
        seen = ids_in(view)
        own = set(game.hands[seat]) if seat is not None else set()
        public = set(game.played[-1:])
        assert seen <= own | public, f"seat {seat} sees ids {seen - own - public}"
        for other in range(game.seats):
            if other != seat:
                assert not seen & set(game.hands[other])
        assert not seen & set(game.draw_pile)
        # The draw pile is a count, never a list of anything.
        assert isinstance(view["draw_count"], int)
        # What was seen face up, as faces in the order of a hand.
        assert view["pile"] == pile
        assert view["turned"] == turned
        assert set(game.turned) <= set(game.draw_pile) | {c for h in game.hands for c in h} \
            | set(game.played)


def faces(game: GetOut, cids: list[int]) -> list[str]:
    cards = sorted((game.cards[c] for c in cids),
                   key=lambda c: (IMAGES.index(c.image) if c.image else 5, c.value or 0))
    return [face(card) for card in cards]


@given(games)
def test_cards_conserved_and_views_hold_no_secret(params: dict[str, Any]) -> None:
    for game, _seat, _action, events in play_out(params):
        check_conservation(game)
        check_views(game)
        assert roundtrip(events) == events
        for event in events:
            if event["type"] == "played":
                assert ids_in(event) == {event["card"]["id"]}
            else:
                assert ids_in(event) == set()


@given(games, st.data())
def test_illegal_actions_raise_and_change_nothing(params: dict[str, Any], data: Any) -> None:
    steps = data.draw(st.integers(0, 60))
    last = deque(islice(play_out(params), steps), maxlen=1)
    game = last[0][0] if last else start(params)
    if game.over:
        return
    seat = data.draw(st.integers(0, game.seats - 1))
    legal = game.legal_actions(seat)
    candidates = [
        {"type": "play", "card": data.draw(st.integers(-2, DECK_SIZE + 2))},
        {"type": "play", "card": data.draw(st.sampled_from(sorted(game.cards)))},
        {"type": "play", "card": data.draw(st.sampled_from(sorted(game.cards))), "image": "x"},
        {"type": "draw"},
        {"type": "next_round"},
        {"type": data.draw(st.text(max_size=8))},
    ]
    for action in candidates:
        if action in legal:
            continue
        before = game.snapshot()
        with pytest.raises(engine.IllegalAction):
            game.act(seat, action)
        assert game.snapshot() == before


@given(games)
def test_same_seed_and_actions_give_the_same_game(params: dict[str, Any]) -> None:
    first = [(seat, action, events, game.view(seat)) for game, seat, action, events in
             play_out(params, max_steps=400)]
    replay = start(params)
    for seat, action, events, view in first:
        assert replay.act(seat, action) == events
        assert replay.view(seat) == view


@given(games, st.integers(0, 300))
def test_restore_of_a_snapshot_continues_identically(params: dict[str, Any], cut: int) -> None:
    original = start(params)
    bot = RandomBot(params["seed"])
    copy = None
    for step in range(cut + 300):
        if original.over:
            break
        if step == cut:
            snap = original.snapshot()
            assert roundtrip(snap) == snap
            copy = engine.restore(roundtrip(snap))
            assert copy.snapshot() == snap
        seat = mover(original)
        action = bot.choose(original.view(seat), original.legal_actions(seat))
        assert action is not None
        events = original.act(seat, action)
        if copy is not None:
            assert copy.act(seat, action) == events
            assert copy.view(seat) == original.view(seat)
    if copy is not None:
        assert copy.snapshot() == original.snapshot()
        assert copy.result == original.result


def test_random_matches_finish() -> None:
    """Whole matches between random players end with one winner and sane totals."""
    for seed in range(6):
        params = {"seats": 2 + seed % 5, "seed": seed, "match": True, "limit": 100}
        (game, *_rest), = deque(play_out(params, max_steps=50_000), maxlen=1)
        assert game.over
        result = game.result
        assert result is not None and len(result["winners"]) == 1
        winner = result["winners"][0]
        assert result["scores"][winner] <= 100
        others = [s for s in range(game.seats) if s != winner]
        assert all(result["scores"][s] > 100 for s in others)

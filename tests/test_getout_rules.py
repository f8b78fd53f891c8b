"""Scenario tests for GET OUT!, one or more per rule of RULES.md §2, from hand-set states."""

from __future__ import annotations

from collections import Counter

import pytest

import engine
from engine.getout import GetOut, describe
from engine.testing import getout_card, stack_getout
from tests.helpers import ids_in


def new(seats: int = 2, seed: int = 1, **options: object) -> GetOut:
    game = engine.new_game("getout", seats=seats, seed=seed, options=options)
    assert isinstance(game, GetOut)
    return game


def card_id(game: GetOut, spec: str, seat: int | None = None) -> int:
    """The id of the card ``spec`` ("kevin 7", "wild"), looked up in a seat's hand if given."""
    pool = game.hands[seat] if seat is not None else list(game.cards)
    for cid in pool:
        if describe(game.cards[cid]).lower() == spec.replace("_", " ") or (
            spec == "wild" and game.cards[cid].wild
        ):
            return cid
    raise AssertionError(f"{spec} not found")


def play(game: GetOut, seat: int, spec: str, image: str | None = None) -> list[dict]:
    action: dict = {"type": "play", "card": card_id(game, spec, seat)}
    if image is not None:
        action["image"] = image
    return game.act(seat, action)


# ---------------------------------------------------------------------------- the deck


def test_deck_has_58_cards_of_the_right_faces() -> None:
    game = new()
    faces = Counter((c.image, c.value) for c in game.cards.values())
    assert len(game.cards) == 58
    for image in ("geoff", "samantha", "kevin", "shirley"):
        assert sorted(v for (i, v) in faces.elements() if i == image) == [
            1, 2, 3, 4, 5, 7, 8, 10, 11, 12, 13, 14,
        ]
    assert sorted(v for (i, v) in faces.elements() if i == "tea_picker") == [1, 2, 3, 4, 5, 7, 8]
    assert faces[(None, None)] == 3


def test_card_ids_do_not_give_values_away() -> None:
    """The same id stands for different cards in differently seeded games."""
    faces = {seed: {c.id: (c.image, c.value) for c in new(seed=seed).cards.values()}
             for seed in range(5)}
    assert len({tuple(sorted(f.items())) for f in faces.values()}) == 5


# ---------------------------------------------------------------------------- a round


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_deal_gives_six_each_and_the_rest_is_the_draw_pile(seats: int) -> None:
    game = new(seats)
    assert [len(h) for h in game.hands] == [6] * seats
    view = game.view(0)
    assert view["draw_count"] == 58 - 6 * seats
    assert view["call"] is None and view["played_count"] == 0
    assert view["hand_counts"] == [6] * seats


def test_first_option_picks_the_first_player_and_random_is_seeded() -> None:
    assert new(4, first=2).view(None)["turn"] == 2
    firsts = {new(4, seed=s).view(None)["turn"] for s in range(30)}
    assert firsts == {0, 1, 2, 3}
    assert new(4, seed=9).view(None)["turn"] == new(4, seed=9).view(None)["turn"]


def test_first_player_places_any_card_and_cannot_draw() -> None:
    game = new(first=0)
    stack_getout(game, [["kevin 7", "geoff 1", "wild"], ["shirley 2"]], turn=0)
    legal = game.legal_actions(0)
    assert {"type": "draw"} not in legal
    assert {"type": "play", "card": card_id(game, "kevin 7", 0)} in legal
    assert {"type": "play", "card": card_id(game, "geoff 1", 0)} in legal
    with pytest.raises(engine.IllegalAction, match="first player"):
        game.act(0, {"type": "draw"})
    play(game, 0, "geoff 1")
    assert game.view(1)["call"]["image"] == "geoff"


def test_first_card_wild_names_an_image() -> None:
    game = new()
    stack_getout(game, [["wild", "geoff 1"], ["shirley 2", "kevin 3"]], turn=0)
    wild = card_id(game, "wild", 0)
    plays = [a for a in game.legal_actions(0) if a.get("card") == wild]
    assert sorted(a["image"] for a in plays) == sorted(
        ["geoff", "samantha", "kevin", "shirley", "tea_picker"]
    )
    events = play(game, 0, "wild", image="shirley")
    assert events[0]["image"] == "shirley"
    assert game.view(1)["image"] == "shirley"
    assert {"type": "play", "card": card_id(game, "shirley 2", 1)} in game.legal_actions(1)
    assert {"type": "play", "card": card_id(game, "kevin 3", 1)} not in game.legal_actions(1)


def test_same_image_any_number_matches() -> None:
    game = new()
    stack_getout(game, [["kevin 12"], ["kevin 2", "geoff 2"]], played=["kevin 5"], turn=1)
    legal = game.legal_actions(1)
    assert {"type": "play", "card": card_id(game, "kevin 2", 1)} in legal
    assert {"type": "play", "card": card_id(game, "geoff 2", 1)} not in legal
    play(game, 1, "kevin 2")
    assert game.view(0)["call"]["value"] == 2


def test_same_number_any_image_matches_tea_picker_included() -> None:
    game = new()
    stack_getout(
        game, [["geoff 1"], ["tea_picker 5", "samantha 5", "shirley 7"]],
        played=["kevin 5"], turn=1,
    )
    legal = game.legal_actions(1)
    assert {"type": "play", "card": card_id(game, "tea_picker 5", 1)} in legal
    assert {"type": "play", "card": card_id(game, "samantha 5", 1)} in legal
    assert {"type": "play", "card": card_id(game, "shirley 7", 1)} not in legal
    with pytest.raises(engine.IllegalAction, match="matches neither"):
        play(game, 1, "shirley 7")


def test_wild_on_anything_including_a_wild_and_names_any_of_five_images() -> None:
    game = new()
    stack_getout(game, [["geoff 1"], ["wild", "wild", "kevin 3"]], played=["samantha 14"],
                 turn=1)
    assert len([a for a in game.legal_actions(1) if "image" in a]) == 10  # two wilds x five
    play(game, 1, "wild", image="tea_picker")
    game.act(0, {"type": "draw"})
    # A wild on a wild: to change the call, or to keep it the same.
    play(game, 1, "wild", image="tea_picker")
    assert game.view(0)["image"] == "tea_picker"


def test_a_wild_call_card_has_no_number() -> None:
    """After a wild naming Kevin only Kevins (and wilds) follow; numbers do not match."""
    game = new()
    stack_getout(game, [["geoff 1"], ["kevin 4", "tea_picker 1", "geoff 2"]],
                 played=["shirley 1", "wild"], call_image="kevin",
                 turn=1)
    legal = game.legal_actions(1)
    assert {"type": "play", "card": card_id(game, "kevin 4", 1)} in legal
    assert {"type": "play", "card": card_id(game, "tea_picker 1", 1)} not in legal
    assert {"type": "play", "card": card_id(game, "geoff 2", 1)} not in legal
    assert game.view(1)["call"] == {"id": game.played[-1], "image": None, "value": None,
                                    "wild": True}


def test_wild_must_name_an_image_and_others_must_not() -> None:
    game = new()
    stack_getout(game, [["geoff 1"], ["wild", "kevin 3"]], played=["kevin 5"], turn=1)
    with pytest.raises(engine.IllegalAction, match="must name an image"):
        play(game, 1, "wild")
    with pytest.raises(engine.IllegalAction, match="must name an image"):
        play(game, 1, "wild", image="bob")
    with pytest.raises(engine.IllegalAction, match="only a GET OUT! card"):
        play(game, 1, "kevin 3", image="kevin")


def test_a_player_who_cannot_play_must_draw() -> None:
    game = new()
    stack_getout(game, [["geoff 1"], ["kevin 3", "shirley 4"]], played=["samantha 14"],
                 draw=["geoff 7"], turn=1)
    assert game.legal_actions(1) == [{"type": "draw"}]


def test_a_player_who_can_play_may_draw_instead_and_drawing_ends_the_turn() -> None:
    game = new()
    stack_getout(game, [["geoff 1"], ["samantha 3"]], played=["samantha 14"],
                 draw=["samantha 7"], turn=1)
    assert {"type": "draw"} in game.legal_actions(1)
    events = game.act(1, {"type": "draw"})
    assert events == [{"type": "drew", "seat": 1}]  # no card in a public event
    assert game.view(None)["turn"] == 0
    assert sorted(describe(c) for c in game.view(1)["hand"]) == ["Samantha 3", "Samantha 7"]
    # The drawn card cannot be played this turn: the turn is over.
    with pytest.raises(engine.IllegalAction, match="turn"):
        play(game, 1, "samantha 7")


def test_empty_draw_pile_turns_over_the_played_pile_without_shuffling() -> None:
    game = new()
    stack_getout(
        game, [["geoff 1"], ["shirley 2"]],
        played=["kevin 1", "kevin 2", "kevin 3", "kevin 4"],
        turn=1, leftover="played",
    )
    # Every card not in a hand is in the played pile; the draw pile is empty.
    first_played = game.played[0]
    call = game.played[-1]
    assert game.draw_pile == []
    events = game.act(1, {"type": "draw"})
    assert events[0] == {"type": "recycled", "count": 56 - 1}
    assert events[1] == {"type": "drew", "seat": 1}
    assert first_played in game.hands[1]  # the card played earliest was on top
    assert game.played == [call]
    view = game.view(0)
    assert view["call"]["id"] == call and view["played_count"] == 1
    assert view["draw_count"] == 54


def test_recycled_order_is_reversed_play_order() -> None:
    game = new()
    stack_getout(game, [["geoff 1"], ["shirley 2"]], played=["kevin 1", "kevin 2", "kevin 3"],
                 turn=1, leftover="played")
    before = list(game.played)
    game.act(1, {"type": "draw"})
    # Draw-pile top is the end of the list: the rest comes out in the order it was played.
    assert list(reversed(game.draw_pile)) == before[1:-1]


def test_nothing_to_draw_passes_the_turn() -> None:
    game = new()
    stack_getout(game, [["geoff 1"], ["shirley 2"]], played=["kevin 1"],
                 turn=1, leftover="played")
    # Put every other card into the hands so nothing is left to draw or recycle.
    taken = set(game.hands[0] + game.hands[1] + game.played[-1:])
    rest = [c for c in game.cards if c not in taken]
    game.hands[0] += rest
    game.played = game.played[-1:]
    before = game.snapshot()["state"]
    events = game.act(1, {"type": "draw"})
    assert events == [{"type": "passed", "seat": 1}]
    after = game.snapshot()["state"]
    assert after["hands"] == before["hands"] and after["turn"] == 0


def test_turns_go_clockwise() -> None:
    game = new(3)
    stack_getout(game, [["kevin 1", "kevin 2"], ["kevin 3", "kevin 4"], ["kevin 5", "kevin 7"]],
                 played=["kevin 8"], turn=0)
    order = []
    for spec in ("kevin 1", "kevin 3", "kevin 5", "kevin 2"):
        order.append(game.view(None)["turn"])
        play(game, order[-1], spec)
    assert order == [0, 1, 2, 0]


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    game = new(3)
    stack_getout(game, [["kevin 1"], ["geoff 2", "wild"], ["shirley 3"]], played=["kevin 8"],
                 turn=1)
    bad = [
        (0, {"type": "draw"}),  # not your turn
        (1, {"type": "play", "card": card_id(game, "kevin 1", 0)}),  # another's card
        (1, {"type": "play", "card": 999}),
        (1, {"type": "play", "card": "7"}),
        (1, {"type": "play"}),
        (1, {"type": "play", "card": card_id(game, "geoff 2", 1)}),  # does not match
        (1, {"type": "draw", "card": 3}),  # stray field
        (1, {"type": "next_round"}),
        (1, {"type": "dance"}),
        (1, {"kind": "draw"}),
        (1, "draw"),
        (5, {"type": "draw"}),
        (-1, {"type": "draw"}),
    ]
    for seat, action in bad:
        before = game.snapshot()
        with pytest.raises(engine.IllegalAction):
            game.act(seat, action)  # type: ignore[arg-type]
        assert game.snapshot() == before, action


# ---------------------------------------------------------------------------- scoring


def test_round_ends_when_a_hand_is_empty_and_losers_score_their_hands() -> None:
    game = new(3, match=True)
    stack_getout(
        game,
        [["kevin 1"], ["geoff 14", "tea_picker 7"], ["wild", "shirley 3", "samantha 10"]],
        played=["kevin 8"], turn=0,
    )
    events = play(game, 0, "kevin 1")
    over = events[-1]
    assert over["type"] == "round_over" and over["winner"] == 0
    # Geoff 14 + Tea Picker 7 doubled; GET OUT! 20 + 3 + 10.
    assert over["points"] == [0, 14 + 14, 20 + 3 + 10]
    assert game.view(None)["scores"] == [0, 28, 33]
    assert game.view(1)["history"] == [[0, 28, 33]]
    assert game.view(None)["phase"] == "round_over"
    assert game.legal_actions(2) == [{"type": "next_round"}]


def test_round_over_event_reveals_no_hand() -> None:
    game = new(2)
    stack_getout(game, [["kevin 1"], ["geoff 14"]], played=["kevin 8"], turn=0)
    geoff = card_id(game, "geoff 14", 1)
    events = play(game, 0, "kevin 1")
    assert events[-1]["type"] == "round_over"
    assert "geoff" not in str(events)
    assert all(ids_in(e) == {card_id(game, "kevin 1")} for e in events if "card" in e)
    assert geoff not in ids_in(events)


def test_passing_the_limit_puts_a_player_out_but_reaching_it_does_not() -> None:
    game = new(3, limit=50)
    game.scores = [0, 40, 30]
    stack_getout(game, [["kevin 1"], ["geoff 10"], ["geoff 11", "samantha 10"]],
                 played=["kevin 8"], turn=0)
    events = play(game, 0, "kevin 1")
    over = events[-1]
    assert over["scores"] == [0, 50, 51]
    assert over["out"] == [2]
    assert game.view(None)["out"] == [False, False, True]
    assert game.legal_actions(2) == []


def test_a_match_s_result_counts_the_rounds_each_player_played() -> None:
    """A player's points a round counted the rounds after they were out as nothing
    (Past games said 12.8 for a player's 16.6)."""
    game = new(3, limit=10)
    stack_getout(game, [["kevin 1"], ["geoff 12"], ["geoff 3"]], played=["kevin 8"], turn=0)
    play(game, 0, "kevin 1")  # seat 1: 12 points, out
    game.act(2, {"type": "next_round"})
    stack_getout(game, [["kevin 2"], [], ["geoff 12"]], played=["kevin 8"], turn=0)
    play(game, 0, "kevin 2")  # seat 2: 15 in all, out: the match is over
    assert game.over and game.result is not None
    assert game.result["rounds"] == 2 and game.result["played"] == [2, 1, 2]


def test_winner_deals_the_next_round_and_the_left_neighbour_starts() -> None:
    game = new(4)
    stack_getout(game, [["geoff 1"], ["kevin 1"], ["geoff 2"], ["geoff 3"]],
                 played=["kevin 8"], turn=1)
    play(game, 1, "kevin 1")
    events = game.act(3, {"type": "next_round"})
    assert events == [{"type": "round_started", "round": 2, "dealer": 1, "first": 2}]
    view = game.view(0)
    assert view["dealer"] == 1 and view["turn"] == 2 and view["round"] == 2
    assert view["hand_counts"] == [6, 6, 6, 6] and view["call"] is None


def test_out_players_are_skipped_in_deal_and_turn_order() -> None:
    game = new(4, limit=10)
    stack_getout(game, [["geoff 1"], ["kevin 1"], ["geoff 12"], ["geoff 3"]],
                 played=["kevin 8"], turn=1)
    play(game, 1, "kevin 1")  # seat 2 holds 12 points: out
    assert game.out == [False, False, True, False]
    game.act(0, {"type": "next_round"})
    view = game.view(0)
    assert view["hand_counts"] == [6, 6, 0, 6]
    assert view["turn"] == 3  # left of dealer 1, skipping seat 2
    with pytest.raises(engine.IllegalAction):
        game.act(2, {"type": "next_round"})


def test_match_ends_when_one_player_is_left() -> None:
    game = new(3, limit=10)
    game.scores = [0, 5, 8]
    stack_getout(game, [["kevin 1"], ["geoff 12"], ["geoff 7"]], played=["kevin 8"], turn=0)
    events = play(game, 0, "kevin 1")
    assert events[-1] == {"type": "game_over", "winners": [0]}
    assert game.over
    assert game.result == {"winners": [0], "scores": [0, 17, 15], "rounds": 1, "played": [1, 1, 1]}
    for seat in range(3):
        assert game.legal_actions(seat) == []
    with pytest.raises(engine.IllegalAction, match="over"):
        game.act(0, {"type": "draw"})


def test_single_round_option_ends_the_game_after_one_round() -> None:
    game = new(3, match=False)
    stack_getout(game, [["geoff 1"], ["kevin 1"], ["geoff 2"]], played=["kevin 8"], turn=1)
    assert not game.over and game.result is None
    play(game, 1, "kevin 1")
    assert game.over
    assert game.result is not None and game.result["winners"] == [1]
    assert game.view(0)["winners"] == [1]


def test_a_match_continues_while_two_or_more_are_in() -> None:
    game = new(2, limit=100)
    stack_getout(game, [["kevin 1"], ["geoff 12"]], played=["kevin 8"], turn=0)
    play(game, 0, "kevin 1")
    assert not game.over and game.view(None)["phase"] == "round_over"


# ---------------------------------------------------------------------------- views


def test_view_has_the_contract_keys_and_only_the_own_hand() -> None:
    game = new(3)
    for seat in (0, 1, 2, None):
        view = game.view(seat)
        for key in ("game", "seat", "phase", "turn", "version", "scores"):
            assert key in view
        assert view["game"] == "getout" and view["seat"] == seat
        if seat is None:
            assert "hand" not in view
        else:
            assert {c["id"] for c in view["hand"]} == set(game.hands[seat])


def test_every_view_shows_the_faces_of_the_played_pile_and_of_the_cards_turned_over() -> None:
    """Every card below the call card was seen face up, and so was every card turned over
    into the draw pile: the views list their faces in the order of a hand (never in the
    order played, which is the turned-over draw pile's order), without ids."""
    game = new(2)
    stack_getout(game, [["kevin 1", "wild"], ["geoff 1", "samantha 5"]],
                 played=["kevin 8", "tea_picker 8", "geoff 8"], turn=0)
    assert game.view(None)["pile"] == ["kevin 8", "tea_picker 8"]
    play(game, 0, "wild", image="samantha")
    play(game, 1, "samantha 5")
    for seat in (0, 1, None):
        view = game.view(seat)
        assert view["pile"] == ["geoff 8", "kevin 8", "tea_picker 8", "wild"]
        assert view["turned"] == []
    # Nothing left to draw: the pile below the call card is turned over.
    game.draw_pile = []
    game.act(0, {"type": "draw"})
    view = game.view(1)
    assert view["pile"] == [] and view["call"]["image"] == "samantha"
    assert view["turned"] == ["geoff 8", "kevin 8", "tea_picker 8", "wild"]
    assert view["draw_count"] == 3
    assert engine.restore(game.snapshot()).view(1) == view


def test_version_increases_with_every_change() -> None:
    game = new(2)
    stack_getout(game, [["kevin 1", "kevin 2"], ["kevin 3"]], played=["kevin 8"], turn=0)
    v0 = game.view(0)["version"]
    play(game, 0, "kevin 1")
    v1 = game.view(0)["version"]
    game.act(1, {"type": "draw"})
    assert v0 < v1 < game.view(0)["version"]


def test_getout_card_helper_refuses_unknown_cards() -> None:
    game = new()
    with pytest.raises(ValueError):
        getout_card(game, "bob 1", set())
    with pytest.raises(ValueError):
        getout_card(game, "kevin 6", set())

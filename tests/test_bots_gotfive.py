"""The Got Five! bot: legal, decides from its view alone, announces only when sure.

The games here run as a table of bots would over the wire: each bot gets its own view
and legal actions after a msgpack round trip, and after every change every seat still
in is offered its move (announcing is allowed at any moment), starting from the seat on
turn.
"""

from __future__ import annotations

import ast
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.bots import GotFiveBot, make_bot
from engine.bots.gotfive_bot import Tallies, clue_score, expected_left, reveal_score
from engine.gotfive import GotFive, dots_of, numbers_of_colour
from engine.gotfive_solver import consistent_assignments
from tests.gotfive_play import stacked
from tests.helpers import roundtrip

BOT_SOURCE = Path(__file__).resolve().parent.parent / "engine" / "bots" / "gotfive_bot.py"


@dataclass
class Record:
    """What the bots did over some games."""

    announcements: int = 0
    wrong: int = 0
    off_turn: int = 0
    forced: int = 0
    moves: list[tuple[int, dict[str, Any]]] = field(default_factory=list)


def play(seed: int, seats: int, record: Record) -> GotFive:
    """One seeded bot-only game, checking every decision against the solver."""
    game = engine.new_game("gotfive", seats=seats, seed=seed)
    assert isinstance(game, GotFive)
    bots = [make_bot("gotfive", s, seed) for s in range(seats)]
    for _ in range(1000):
        if game.over:
            return game
        turn = game.view(None)["turn"]
        move: dict[str, Any] | None = None
        announced = False
        for seat in [(turn + k) % seats for k in range(seats)]:
            if game.out[seat]:
                continue
            view = roundtrip(game.view(seat))
            legal = game.legal_actions(seat)
            action = bots[seat].choose(view, roundtrip(legal))
            answers = consistent_assignments(view)
            forced = view["phase"] == "announce" and seat == turn
            if len(answers) == 1:
                # Sure of its rack: it says so at once, whoever's turn it is.
                assert action == {"type": "announce", "numbers": list(answers[0])}
            elif action is not None and not forced:
                assert action["type"] != "announce", (seat, action, len(answers))
            if action is None:
                continue
            if action["type"] == "announce":
                assert sorted(action["numbers"]) == action["numbers"]
                events = game.act(seat, action)
                record.announcements += 1
                record.wrong += not events[0]["right"]
                record.off_turn += seat != turn
                record.forced += forced
                record.moves.append((seat, action))
                announced = True
                break
            # Anything but an announcement is a listed action, and only on its turn.
            assert seat == turn and action in legal, (seat, action)
            move = action
        if announced:
            continue
        assert move is not None, f"seat {turn} did nothing in {game.view(turn)['phase']}"
        game.act(turn, move)
        record.moves.append((turn, move))
    raise AssertionError(f"game {seed} did not end")


def test_bots_play_legal_games_and_never_announce_wrongly() -> None:
    record = Record()
    for seed in range(120):
        game = play(seed, 2 + seed % 3, record)
        result = game.result
        assert result is not None and len(result["winners"]) == 1
        assert result["reason"] == "announced"
    assert record.announcements == 120
    assert record.wrong == 0
    assert record.forced == 0
    # Someone became sure on another seat's turn and announced there and then.
    assert record.off_turn > 0


def test_same_seed_same_game() -> None:
    first, second = Record(), Record()
    play(7, 4, first)
    play(7, 4, second)
    assert first.moves == second.moves


def test_make_bot_gives_the_got_five_bot() -> None:
    assert isinstance(make_bot("gotfive", 1, 5), GotFiveBot)


def brute_clue_score(answers: list[tuple[int, ...]], action: dict[str, Any]) -> float:
    """The expected count after a clue, by sorting every assignment by its answer."""
    n = action["tile"]
    if action["type"] == "sort":
        keys: list[Any] = [sum(1 for x in a if x < n) for a in answers]
    else:
        keys = [dots_of(a[action["position"]]) == dots_of(n) for a in answers]
    counts = Counter(keys)
    return sum(c * c for c in counts.values()) / len(answers)


def clue_table() -> tuple[GotFive, dict[str, Any], list[dict[str, Any]]]:
    """A hand-built table: seat 0 has revealed tile 2 and must now ask for a clue."""
    game = stacked(3, turn=0, supply={1: [2]})
    game.act(0, {"type": "reveal", "colour": 1})
    view = roundtrip(game.view(0))
    assert view["phase"] == "clue" and [t["n"] for t in view["public"]] == [2, 5, 21, 32, 43, 54]
    clues = [a for a in game.legal_actions(0) if a["type"] in ("sort", "compare")]
    return game, view, clues


def test_clue_scores_match_a_brute_force_count() -> None:
    _, view, clues = clue_table()
    answers = consistent_assignments(view)
    tallies = Tallies(answers)
    for action in clues:
        assert abs(clue_score(tallies, action) - brute_clue_score(answers, action)) < 1e-9


def test_the_bot_picks_the_clue_that_leaves_fewest_assignments() -> None:
    game, view, clues = clue_table()
    answers = consistent_assignments(view)
    scores = {repr(a): brute_clue_score(answers, a) for a in clues}
    best = min(scores.values())
    # The scenario discriminates: clues differ, and few share the best score.
    assert max(scores.values()) > 2 * best
    assert sum(1 for s in scores.values() if abs(s - best) < 1e-9) < len(clues) // 4
    for seed in range(5):
        action = GotFiveBot(seed).choose(view, roundtrip(game.legal_actions(0)))
        assert action is not None and action in clues
        assert abs(scores[repr(action)] - best) < 1e-9


def test_reveal_score_matches_the_expectation_by_enumeration() -> None:
    game = stacked(2, turn=0)
    view = roundtrip(game.view(0))
    answers = consistent_assignments(view)
    seen = {t["n"] for t in view["public"]} | {t["n"] for t in view["racks"][1]}
    for colour in range(5):
        position = [t["colour"] for t in view["racks"][0]].index(colour)
        unseen = [n for n in numbers_of_colour(colour) if n not in seen]
        # Revealing t leaves the assignments that do not hold t, counted one by one.
        left = {t: sum(1 for b in answers if b[position] != t) for t in unseen}
        total = 0.0
        for a in answers:
            drawn = [t for t in unseen if t != a[position]]
            total += sum(left[t] for t in drawn) / len(drawn)
        expected = total / len(answers)
        assert abs(reveal_score(answers, view, colour) - expected) < 1e-6


def test_the_bot_reveals_a_colour_that_shrinks_its_candidates() -> None:
    game = stacked(2, turn=0)
    view = roundtrip(game.view(0))
    answers = consistent_assignments(view)
    scores = [reveal_score(answers, view, c) for c in range(5)]
    action = GotFiveBot(3).choose(view, roundtrip(game.legal_actions(0)))
    assert action is not None and action["type"] == "reveal"
    assert scores[action["colour"]] == min(scores) < len(answers)


def test_forced_announcement_names_a_consistent_assignment() -> None:
    # A real table is always sure by the no-tiles-left rule; this view is doctored to
    # reach the forced branch with several assignments left.
    game = stacked(2, turn=0)
    view = roundtrip(game.view(0))
    view["phase"] = "announce"
    answers = consistent_assignments(view)
    assert len(answers) > 1
    legal = [{"type": "announce"}, {"type": "mark"}]
    action = GotFiveBot(1).choose(view, legal)
    assert action is not None and action["type"] == "announce"
    assert tuple(action["numbers"]) in answers
    # Not its turn: nothing forces it, so it waits.
    view["turn"] = 1
    assert GotFiveBot(1).choose(view, legal) is None


def test_the_bot_waits_when_it_may_only_mark() -> None:
    game = stacked(2, turn=0)
    assert GotFiveBot(0).choose(roundtrip(game.view(1)), [{"type": "mark"}]) is None
    assert GotFiveBot(0).choose(roundtrip(game.view(1)), []) is None


def test_expected_left_weighs_each_answer_by_its_share() -> None:
    assert expected_left([3, 1]) == 2.5
    assert expected_left([2, 2]) == 2.0
    assert expected_left([4]) == 4.0


def test_the_bot_module_reads_only_views() -> None:
    tree = ast.parse(BOT_SOURCE.read_text())
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0
            imported |= {f"{node.module}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
    engine_names = {name for name in imported if name.startswith("engine")}
    assert engine_names <= {
        "engine.core.Action", "engine.core.View", "engine.gotfive.dots_of",
        "engine.gotfive.numbers_of_colour", "engine.gotfive_solver.consistent_assignments",
    }, engine_names
    forbidden = {"snapshot", "restore", "new_game", "GotFive", "game", "legal_actions",
                 "act", "visible_to", "all_tiles", "racks", "supply"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            assert node.id not in forbidden, node.id
        elif isinstance(node, ast.Attribute):
            assert node.attr not in forbidden, node.attr


def test_the_bot_leaves_its_view_untouched() -> None:
    rng = random.Random(2)
    game = engine.new_game("gotfive", seats=3, seed=2)
    for _ in range(12):
        seat = game.view(None)["turn"]
        view = roundtrip(game.view(seat))
        before = roundtrip(view)
        action = GotFiveBot(rng.randrange(100)).choose(view, roundtrip(game.legal_actions(seat)))
        assert view == before
        assert action is not None
        game.act(seat, action)
        if game.over:
            break


# ---- the casual level ------------------------------------------------------------------


def test_the_bots_option_is_checked_and_shows_in_views_only_when_not_strong() -> None:
    with pytest.raises(ValueError, match="'bots' must be one of 'casual', 'normal', 'strong'"):
        engine.new_game("gotfive", seats=3, seed=1, options={"bots": "hard"})
    plain = engine.new_game("gotfive", seats=3, seed=1)
    assert "bots" not in plain.view(0) and "bots" not in plain.view(None)
    casual = engine.new_game("gotfive", seats=3, seed=1, options={"bots": "casual"})
    assert casual.view(0)["bots"] == "casual" and casual.view(None)["bots"] == "casual"
    with pytest.raises(ValueError, match="level must be one of casual, normal, strong"):
        GotFiveBot(1, level="hard")


def test_a_casual_bot_forgets_a_fixed_third_of_the_clues_and_is_never_wrong_unforced() -> None:
    bot = GotFiveBot(11, level="casual")
    kept = [bot.remembers(i) for i in range(600)]
    assert kept == [GotFiveBot(11, level="casual").remembers(i) for i in range(600)]
    assert 0.55 < sum(kept) / len(kept) < 0.75
    wrong = unforced_wrong = 0
    for seed in range(40):
        seats = 2 + seed % 3
        game = engine.new_game("gotfive", seats=seats, seed=seed, options={"bots": "casual"})
        bots = [make_bot("gotfive", s, seed) for s in range(seats)]
        for _ in range(2000):
            if game.over:
                break
            turn = game.view(None)["turn"]
            for seat in [(turn + k) % seats for k in range(seats)]:
                if game.out[seat]:
                    continue
                view = roundtrip(game.view(seat))
                action = bots[seat].choose(view, roundtrip(game.legal_actions(seat)))
                if action is not None:
                    events = game.act(seat, action)
                    if action["type"] == "announce" and not events[0]["right"]:
                        wrong += 1
                        unforced_wrong += view["phase"] != "announce"
                    break
        assert game.over
    assert unforced_wrong == 0  # it announces only when the clues it kept leave one rack


def test_normal_bots_keep_more_clues_than_casual_ones_and_fewer_than_strong_ones() -> None:
    from engine.bots.simulate import simulate

    normal = engine.new_game("gotfive", seats=3, seed=1, options={"bots": "normal"})
    assert normal.view(0)["bots"] == "normal"
    turns = {level: sum(simulate("gotfive", 3, seed, {"bots": level})["turns"]
                        for seed in range(1, 21)) for level in ("casual", "normal", "strong")}
    assert turns["strong"] < turns["normal"] < turns["casual"]


def test_casual_bots_take_about_twice_as_long_and_lose_to_a_strong_one() -> None:
    from engine.bots.simulate import simulate

    strong = [simulate("gotfive", 3, seed)["turns"] for seed in range(1, 31)]
    casual = [simulate("gotfive", 3, seed, {"bots": "casual"})["turns"]
              for seed in range(1, 31)]
    assert sum(casual) > 1.5 * sum(strong)
    versus = [simulate("gotfive", 3, seed, versus="casual") for seed in range(1, 31)]
    strong_wins = sum(0 in (r["winners"] or []) for r in versus)
    assert strong_wins >= 24  # of 30 (a fair share would be 10)

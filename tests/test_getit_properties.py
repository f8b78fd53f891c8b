"""Property tests of Get It! over random play: secrecy, conservation, determinism,
snapshot/restore and msgpack round trips (CONTRACT.md)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import IllegalAction
from engine.getit import GetIt, arrangement
from tests.getit_support import (
    all_views,
    check_conserved,
    check_events_secrecy,
    check_view_secrecy,
    legal_from_view,
    new,
    roundtrip,
)

GARBAGE: list[dict[str, Any]] = [
    {"type": "play", "card": 3},
    {"type": "look", "target": -1},
    {"type": "smile"},
    {"type": "peek", "on": "yes"},
    {"type": "say", "text": "y" * 201},
    {"type": "arrange", "pile": [0, 0]},
    {"type": "next_round"},
    {"type": "dance"},
]
TEXT = "ab 7\x00\x1b\n\u200b\u2028é😀"

#: One step of a game: ("act", seat, action, now) or ("advance", None, None, now).
Op = tuple[str, int | None, dict[str, Any] | None, float]


@dataclass
class Run:
    """The ops a random game took and what each produced."""

    ops: list[Op] = field(default_factory=list)
    trace: list[Any] = field(default_factory=list)


def _record(game: GetIt, outcome: Any) -> Any:
    """What one op produced: its events (or error) and every seat's view and legal moves."""
    return [
        outcome,
        all_views(game),
        [game.legal_actions(s) for s in range(game.seats)],
        game.result,
    ]


def apply(game: GetIt, op: Op) -> Any:
    """Apply one op; returns its events, or the IllegalAction message."""
    kind, seat, action, now = op
    if kind == "advance":
        return game.advance(now)
    assert seat is not None and action is not None
    try:
        return game.act(seat, action, now)
    except IllegalAction as err:
        return f"illegal: {err}"


def _choose(game: GetIt, rng: random.Random, now: float) -> Op:
    """A random next op; often the correct play, so rounds get deep into the levels."""
    deadline = game.deadline
    r = rng.random()
    if deadline is not None and r < 0.04:
        now = max(now, deadline)
    elif deadline is not None and r < 0.06:
        now = max(now, deadline - 1e-6)
    else:
        now += rng.choice([0.0, 0.01, 0.3, 1.0, 4.0])
    r = rng.random()
    if r < 0.05:
        return ("advance", None, None, now)
    if r < 0.1:
        return ("act", rng.randrange(game.seats), dict(rng.choice(GARBAGE)), now)
    phase = game.phase_name
    if phase == "prepare":
        waiting = [s for s in range(game.seats) if game.arranged[s] is None]
        seat = rng.choice(waiting)
        pile = arrangement(game.view(seat)["hand"], rng)
        if rng.random() < 0.1:
            pile = pile[::-1] if len(pile) > 1 else []
        return ("act", seat, {"type": "arrange", "pile": pile}, now)
    if phase == "play" and rng.random() < 0.55 and game.correct_holders():
        return ("act", rng.choice(game.correct_holders()), {"type": "play"}, now)
    seat = rng.randrange(game.seats)
    legal = game.legal_actions(seat)
    if not legal:
        return ("act", seat, {"type": "play"}, now)
    windows = [a for a in legal if a["type"] in ("peek", "say")]
    action = dict(rng.choice(windows if windows and rng.random() < 0.5 else legal))
    if action["type"] == "say":
        action["text"] = "".join(rng.choice(TEXT) for _ in range(rng.randrange(0, 12)))
    return ("act", seat, action, now)


def random_run(seats: int, seed: int, options: dict[str, Any], steps: int) -> Run:
    """Play ``steps`` random ops, checking every invariant after each one."""
    game = new(seats, seed, **options)
    rng = random.Random(seed * 7919 + seats)
    run = Run()
    for _ in range(steps):
        if game.over:
            break
        op = _choose(game, rng, game.now)
        before = game.snapshot()
        outcome = apply(game, op)
        run.ops.append(op)
        run.trace.append(_record(game, outcome))
        if isinstance(outcome, str):
            assert game.snapshot() == before, f"{op} failed but changed the state"
        else:
            check_events_secrecy(game, outcome)
            assert roundtrip(outcome) == outcome
            if op[0] == "act" or outcome:
                assert game.version == before["version"] + 1
        for seat, view in zip([*range(seats), None], run.trace[-1][1], strict=True):
            check_view_secrecy(game, seat, view)
            assert roundtrip(view) == view
        for view, legal in zip(run.trace[-1][1], run.trace[-1][2], strict=False):
            assert legal == legal_from_view(view), "legal actions know more than the view"
            assert roundtrip(legal) == legal
        check_conserved(game)
    snap = game.snapshot()
    assert roundtrip(snap) == snap
    run.trace.append(snap)
    return run


def replay(seats: int, seed: int, options: dict[str, Any], ops: list[Op]) -> list[Any]:
    """The trace of ``ops`` applied to a fresh game, ending with its snapshot."""
    game = new(seats, seed, **options)
    trace = [_record(game, apply(game, op)) for op in ops]
    return [*trace, game.snapshot()]


games = st.tuples(
    st.integers(3, 6),
    st.integers(0, 2**32),
    st.fixed_dictionaries(
        {
            "level": st.sampled_from([1, 2, 3, 4, 5, 6, 6, "X"]),
            "timer": st.sampled_from([0, 3, 60]),
            "cards": st.integers(6, 59),
        }
    ),
)


@settings(max_examples=60, deadline=None)
@given(games)
def test_random_play_keeps_secrets_and_conserves_cards(case: Any) -> None:
    seats, seed, options = case
    random_run(seats, seed, options, steps=250)


@settings(max_examples=25, deadline=None)
@given(games, st.floats(0, 1))
def test_same_seed_and_actions_replay_identically_and_restore_continues(
    case: Any, cut: float
) -> None:
    seats, seed, options = case
    run = random_run(seats, seed, options, steps=120)
    assert replay(seats, seed, options, run.ops) == run.trace
    k = int(cut * len(run.ops))
    game = new(seats, seed, **options)
    for op in run.ops[:k]:
        apply(game, op)
    restored = engine.restore(roundtrip(game.snapshot()))
    assert isinstance(restored, GetIt)
    assert restored.snapshot() == game.snapshot()
    tail = [_record(restored, apply(restored, op)) for op in run.ops[k:]]
    assert [*tail, restored.snapshot()] == run.trace[k:]


def test_random_runs_reach_the_interesting_states() -> None:
    """The random driver is worth something: it peeks, talks, times out and levels up."""
    seen: set[str] = set()
    for seed in range(12):
        run = random_run(4, seed, {"level": 4, "timer": 60, "cards": 25}, steps=300)
        for _, op_trace in zip(run.ops, run.trace, strict=False):
            outcome = op_trace[0]
            if isinstance(outcome, list):
                for event in outcome:
                    seen.add(event["type"] + ":" + str(event.get("signal", event.get("reason"))))
    for wanted in ("signal:peek", "said:None", "round_over:time", "round_over:wrong",
                   "round_over:cleared", "peeks_ended:None", "talk_ended:None", "dealt:None"):
        assert wanted in seen, f"random play never produced {wanted}"

"""Record the golden traces that tests/test_engine_reference.py replays.

Each trace is one seeded game played by seeded random legal actions: the actions
taken (and the ``now`` of each), and after each step the events it returned, every
seat's legal actions, every seat's and the spectator's view, whether the game is over
and its result; the last snapshot closes it. The test replays the recorded actions on
a fresh game of the same seed and options and fails on the first difference, so any
change of the engines' behaviour (a view, a legal list, an event, a result) shows.

The reference is whatever the engine did when the traces were recorded. Regenerate
them only on purpose, when a rule or a view is meant to change, and say so in the
commit (the diff of ``tests/golden/`` then shows what changed)::

    .venv/bin/python scripts/record_golden.py

The traces are plain JSON (the contract's plain data survives it unchanged); their
step counts are chosen so that all of them stay a few hundred kilobytes.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine.core import Action, Game  # noqa: E402
from engine.getit import arrangement  # noqa: E402
from engine.getout import IMAGES  # noqa: E402
from engine.testing import stack_getout  # noqa: E402

GOLDEN = ROOT / "tests" / "golden"

#: (file name, game, seats, seed, options, steps). Get It! is played with a timer that
#: runs out (two rounds lost on time) and untimed at a level with every special card
#: (the seed is one whose play peeks and talks); GET OUT! into a match's second round;
#: Got Five! with clues of every kind, marks, auto-cross set by players and a wrong
#: announcement.
TRACES: list[tuple[str, str, int, int, dict[str, Any], int]] = [
    ("getout-3-seed1", "getout", 3, 1, {"limit": 40}, 90),
    ("getit-4-seed31-level5", "getit", 4, 31, {"level": 5, "timer": 0}, 94),
    ("getit-3-seed1-timer", "getit", 3, 1, {"level": 3, "timer": 12}, 41),
    ("getit-3-seed3-levelx", "getit", 3, 3, {"level": "X", "cards": 12, "timer": 30}, 60),
    ("gotfive-3-seed1", "gotfive", 3, 1, {}, 45),
    ("gotfive-2-seed2-board", "gotfive", 2, 2, {"auto_cross": False, "hints": "board"}, 25),
]


def state(game: Game) -> dict[str, Any]:
    """What the contract shows of ``game`` after a step, whole."""
    return {
        "legal": [game.legal_actions(s) for s in range(game.seats)],
        "views": [game.view(s) for s in [*range(game.seats), None]],
        "over": game.over,
        "result": game.result,
    }


def changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """``after`` as what changed since ``before`` (two :func:`state` s).

    Each view is its top-level keys that changed, each written ``["=", value]``,
    ``["+", items]`` (a list that only grew: the items added at its end) or ``["-"]`` (a
    key gone); each legal list only for the seats whose list changed, by seat. ``over``
    and ``result`` always. (Whole views at every step would make the traces megabytes.)
    """
    views = []
    for old, new in zip(before["views"], after["views"], strict=True):
        delta: dict[str, list[Any]] = {}
        for key, value in new.items():
            was = old.get(key, GONE)
            if was == value:
                continue
            if isinstance(was, list) and isinstance(value, list) and len(value) > len(was) \
                    and value[:len(was)] == was:
                delta[key] = ["+", value[len(was):]]
            else:
                delta[key] = ["=", value]
        delta |= {key: ["-"] for key in old if key not in new}
        views.append(delta)
    legal = {str(seat): actions for seat, (old, actions)
             in enumerate(zip(before["legal"], after["legal"], strict=True)) if old != actions}
    return {"legal": legal, "views": views, "over": after["over"], "result": after["result"]}


#: Stands for "no such key" while comparing.
GONE = object()


def choose(game: Game, rng: random.Random) -> tuple[int, Action] | None:
    """A random legal move as a careless table would make it (``None``: time passes).

    Get It! mostly plays a right card, as a team would, so rounds reach the special
    cards; now and then it lets time pass instead, so a timer runs out.
    """
    movers = [(s, a) for s in range(game.seats) for a in game.legal_actions(s)
              if a["type"] not in ("mark", "auto_cross")]
    view = game.view(None)
    if view["game"] == "getit" and view["phase"] == "play":
        if rng.random() < 0.08:
            return None
        right = [(h, {"type": "play"}) for h in game.correct_holders()]  # type: ignore[attr-defined]
        if right and rng.random() < 0.75:
            return rng.choice(right)
        peeks = [(s, a) for s, a in movers if a["type"] in ("peek", "say")]
        if peeks and rng.random() < 0.5:
            return rng.choice(peeks)
    if view["game"] == "gotfive":
        listed = [(s, a) for s, a in movers if a["type"] != "announce"]
        if listed and rng.random() < 0.95:
            movers = listed
    if not movers:
        return None
    seat, action = rng.choice(movers)
    if action["type"] == "arrange":
        action = {"type": "arrange", "pile": arrangement(game.view(seat)["hand"], rng)}
    elif action["type"] == "say":
        action = {"type": "say", "text": rng.choice(["hi", "I see 12", "seat 1: smile"])}
    elif action["type"] == "announce":
        action = {"type": "announce", "numbers": sorted(rng.sample(range(1, 61), 5))}
    elif action["type"] == "mark":
        action = {"type": "mark", "n": rng.randint(1, 60), "mark": "circle"}
    return seat, action


def record(game_id: str, seats: int, seed: int, options: dict[str, Any],
           steps: int) -> dict[str, Any]:
    """Play one seeded game for at most ``steps`` steps; the trace of it."""
    game = engine.new_game(game_id, seats=seats, seed=seed, options=options)
    rng = random.Random(seed)
    now = 0.0
    trace: dict[str, Any] = {"game": game_id, "seats": seats, "seed": seed,
                             "options": options, "start": state(game), "steps": []}
    last = trace["start"]
    for _ in range(steps):
        if game.over:
            break
        now += rng.choice((0.0, 0.25, 1.5))
        move = choose(game, rng)
        if move is None:
            now += 4.0
            step: dict[str, Any] = {"advance": now, "events": game.advance(now)}
        else:
            seat, action = move
            if rng.random() < 0.15 and game_id == "gotfive":
                seat = rng.randrange(seats)
                if rng.random() < 0.4:  # (a player turns their own auto-cross off or on)
                    action = {"type": "auto_cross", "on": rng.random() < 0.5}
                else:
                    action = {"type": "mark", "n": rng.randint(1, 60),
                              "mark": rng.choice(["cross", "circle", None])}
            try:
                events = game.act(seat, action, now)
            except engine.IllegalAction as refused:
                step = {"seat": seat, "action": action, "now": now, "refused": str(refused)}
            else:
                step = {"seat": seat, "action": action, "now": now, "events": events}
        shown = state(game)
        step.update(changes(last, shown))
        last = shown
        trace["steps"].append(step)
    trace["snapshot"] = game.snapshot()
    return trace


def getout_matching() -> dict[str, dict[str, list[str]]]:
    """Which cards GET OUT! lets a player lay on each call card (and, on a wild one, on
    each image it was named), as its legal actions list them: for every call card, seat
    0 holds one card of every kind left, and the kinds it may play are kept."""
    probe = engine.new_game("getout", seats=2, seed=3)
    counts: dict[str, int] = {}
    for _cid, image, value in probe.snapshot()["state"]["cards"]:
        name = "wild" if value is None else f"{image} {value}"
        counts[name] = counts.get(name, 0) + 1
    table: dict[str, dict[str, list[str]]] = {}
    for call in sorted(counts):
        hand = [name for name in sorted(counts) if name != call or counts[name] > 1]
        for named in ((None, *IMAGES) if call == "wild" else (None,)):
            game = engine.new_game("getout", seats=2, seed=3)
            stack_getout(game, [hand], played=[call], call_image=named, turn=0)
            view = game.view(0)
            names = {c["id"]: "wild" if c["wild"] else f"{c['image']} {c['value']}"
                     for c in view["hand"]}
            playable = {names[a["card"]] for a in game.legal_actions(0) if a["type"] == "play"}
            table.setdefault(call, {})[str(named)] = sorted(playable)
    return table


def main() -> None:
    """Write every trace to ``tests/golden/`` (``--help`` says so and writes nothing)."""
    import argparse

    argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="Overwrites tests/golden/*.json: regenerate only on purpose (see above).",
    ).parse_args()
    GOLDEN.mkdir(exist_ok=True)
    for name, game_id, seats, seed, options, steps in TRACES:
        trace = record(game_id, seats, seed, options, steps)
        path = GOLDEN / f"{name}.json"
        path.write_text(json.dumps(trace, separators=(",", ":")) + "\n")
        print(f"{path.relative_to(ROOT)}: {len(trace['steps'])} steps, "
              f"{path.stat().st_size // 1024} KB")
    path = GOLDEN / "getout-matching.json"
    path.write_text(json.dumps(getout_matching(), indent=1, sort_keys=True) + "\n")
    print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()

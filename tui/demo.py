"""``hiddenhand demo``: a GET OUT! match between random-legal players, printed move by
move (or only its outcome), headless. A seed replays the same match.

Imported only by that command: plain ``hiddenhand`` (the app) needs no engine.
"""

from __future__ import annotations

import argparse
import secrets

import engine
from engine.bots import RandomBot
from engine.getout import describe, image_name


def run_demo_command(args: argparse.Namespace) -> int:
    """Play the match ``args`` asks for (a random seed if none); a seat count the game
    does not take is a usage error of ``demo``."""
    seed = args.seed if args.seed is not None else secrets.randbelow(2**32)
    try:
        return run_demo(args.seats, seed, args.single, args.quiet)
    except ValueError as exc:
        parser: argparse.ArgumentParser = args.subparser
        parser.error(str(exc))


def run_demo(seats: int, seed: int, single: bool, quiet: bool) -> int:
    """Play one GET OUT! game (a match unless ``single``) between random players,
    printing what happens unless ``quiet``, then the outcome."""
    game = engine.new_game("getout", seats=seats, seed=seed, options={"match": not single})
    bots = [RandomBot(seed * 31 + s) for s in range(seats)]
    say = (lambda *_: None) if quiet else print
    say(f"GET OUT! — {seats} random players, seed {seed}")
    steps = 0
    while not game.over:
        view = game.view(None)
        seat = view["turn"] if view["turn"] is not None else view["dealer"]
        action = bots[seat].choose(game.view(seat), game.legal_actions(seat))
        assert action is not None
        for event in game.act(seat, action):
            kind = event["type"]
            if kind == "played":
                named = f" naming {image_name(event['image'])}" if "image" in event else ""
                say(f"  seat {event['seat'] + 1} plays {describe(event['card'])}{named}")
            elif kind == "drew":
                say(f"  seat {event['seat'] + 1} draws")
            elif kind == "passed":
                say(f"  seat {event['seat'] + 1} passes: nothing left to draw")
            elif kind == "recycled":
                say(f"  the played pile ({event['count']} cards) becomes the draw pile")
            elif kind == "round_over":
                say(f"round {event['round']} won by seat {event['winner'] + 1}; "
                    f"points {', '.join(map(str, event['points']))}, totals "
                    f"{', '.join(map(str, event['scores']))}")
                for s in event["out"]:
                    say(f"  seat {s + 1} passes the limit and is out")
            elif kind == "round_started":
                say(f"round {event['round']}: seat {event['dealer'] + 1} deals")
        steps += 1
    assert game.result is not None
    # (The seed too: a quiet run printed only this line, and could not be played again.)
    rounds = game.result["rounds"]
    print(f"winner: seat {game.result['winners'][0] + 1} after {rounds} "
          f"round{'s' if rounds != 1 else ''}, {steps} moves; totals "
          f"{', '.join(map(str, game.result['scores']))}; seed {seed}")
    return 0

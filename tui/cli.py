"""The ``hiddenhand`` command line: one entry point, a subcommand per job."""

from __future__ import annotations

import argparse
import secrets
import sys
from collections.abc import Sequence

import engine
from engine.bots import RandomBot
from engine.getout import describe


def _seats(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seats must be a whole number, not {text!r}") from None


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every subcommand."""
    parser = argparse.ArgumentParser(
        prog="hiddenhand",
        description="Hidden-information party games in the terminal.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    demo = sub.add_parser(
        "demo",
        help="watch a headless GET OUT! match between random players",
        description="Play a GET OUT! match between random-legal players and print it.",
    )
    demo.add_argument("--seats", type=_seats, default=4, help="players, 2 to 6 (default 4)")
    demo.add_argument("--seed", type=int, default=None, help="replay a game exactly")
    demo.add_argument("--single", action="store_true", help="one round instead of a match")
    demo.add_argument("--quiet", action="store_true", help="print only the outcome")
    return parser


def run_demo(seats: int, seed: int, single: bool, quiet: bool) -> int:
    """Play one GET OUT! game between random players, printing what happens."""
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
                named = f" naming {event['image']}" if "image" in event else ""
                say(f"  seat {event['seat']} plays {describe(event['card'])}{named}")
            elif kind == "drew":
                say(f"  seat {event['seat']} draws")
            elif kind == "passed":
                say(f"  seat {event['seat']} passes: nothing left to draw")
            elif kind == "recycled":
                say(f"  the played pile ({event['count']} cards) becomes the draw pile")
            elif kind == "round_over":
                say(f"round {event['round']} won by seat {event['winner']}; "
                    f"points {event['points']}, totals {event['scores']}")
                for s in event["out"]:
                    say(f"  seat {s} passes the limit and is out")
            elif kind == "round_started":
                say(f"round {event['round']}: seat {event['dealer']} deals")
        steps += 1
    assert game.result is not None
    print(f"winner: seat {game.result['winners'][0]} after {game.result['rounds']} round(s), "
          f"{steps} moves; totals {game.result['scores']}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``hiddenhand`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "demo":
        try:
            seed = args.seed if args.seed is not None else secrets.randbelow(2**32)
            return run_demo(args.seats, seed, args.single, args.quiet)
        except ValueError as exc:
            parser.error(str(exc))
    parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())

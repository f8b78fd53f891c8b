"""The ``hiddenhand`` command line: one entry point, a subcommand per job.

``demo`` prints a headless match; ``sim`` plays many bot-only games headless on simulated
time and prints a table of outcomes; ``host`` runs a headless network host (advertised on
the LAN with mDNS); ``ssh-serve`` serves the app to SSH logins (``net.sshserve``);
``list`` prints the hosts found on the LAN. The network layer is
imported only by the commands that need it.
"""

from __future__ import annotations

import argparse
import gc
import ipaddress
import os
import socket
import sys
from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine import GameSpec
    from engine.core import Option
# The engine, the bots, the network and the app are imported by the commands that use
# them: the menu's first frame waits for every import made here, and for the parser
# (scripts/bench_startup.py). Plain ``hiddenhand`` needs neither the engine (about 20 ms
# of class creation) nor the subcommands' own arguments, whose help lists its games.


def _seats(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seats must be a whole number, not {text!r}") from None


DEFAULT_PORT = 4455
#: Seconds a thread waits for the GIL while the app runs, at most (Python's default: 5 ms).
SWITCH_INTERVAL = 0.001
#: The ``host`` flags that set a ``net.limits.Limits`` field of the same name.
LIMIT_FLAGS = ("max_connections", "max_per_address", "max_unjoined_per_address",
               "max_tables", "max_tables_per_address")


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected 0 or more, not {value}")
    return value


def _games(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"--games must be 1 or more, not {value}")
    return value


def _address(text: str) -> str:
    """An IP address to listen on (a name would make the mDNS record lie)."""
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a valid IP address (for example 192.168.1.20, 127.0.0.1 or ::1)"
        ) from None


def _positive(text: str) -> int:
    value = _count(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected 1 or more, not {value}")
    return value


def _port(text: str) -> int:
    value = _count(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {value}")
    return value


def _bounded(high: float, kind: str, shown: str) -> Callable[[str], float]:
    """A checker of a number from 0 to ``high`` (``kind`` names it, ``shown`` the range)."""

    def check(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {kind}, not {text!r}") from None
        if not 0 <= value <= high:
            raise argparse.ArgumentTypeError(f"expected {shown}, not {text}")
        return value

    return check


_seconds = _bounded(3600, "a number of seconds", "0 to 3600 seconds")
_fraction = _bounded(1, "a fraction from 0 to 1", "a fraction from 0 to 1")
_idle = _bounded(7 * 86400, "a number of seconds", "0 to 604800 seconds")


def _option(text: str) -> tuple[str, str]:
    """``key=value``, both as text; :func:`option_value` reads the value once the game
    (and so what kind of value the option takes) is known."""
    key, sep, raw = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"an option is written KEY=VALUE, not {text!r}")
    return key, raw.strip()


def option_value(option: Option | None, raw: str) -> Any:
    """The value of ``raw`` for ``option``: one of its text choices if it names one
    (so ``hints=off`` is the choice ``"off"``, not false), else true/false/none, a
    number, or text."""
    if option is not None and option.kind == "choice":
        for choice in option.choices:
            if isinstance(choice, str) and choice.lower() == raw.lower():
                return choice
    value: Any
    if raw.lower() in {"true", "yes", "on"}:
        value = True
    elif raw.lower() in {"false", "no", "off"}:
        value = False
    elif raw.lower() in {"none", "null", ""}:
        value = None
    else:
        try:
            value = int(raw)
        except ValueError:
            value = raw
    return value


def typed_options(spec: GameSpec, pairs: Sequence[tuple[str, str]],
                  seats: int | None = None) -> dict[str, Any]:
    """The ``--option`` pairs of a command line as values for ``spec``'s options.

    A seat is counted from 1 on the command line, as the app shows seats (``first=1``
    is the first seat); the engine counts from 0. With ``seats``, a seat that is not
    one of them raises ``ValueError`` in those words."""
    known = {o.name: o for o in spec.options}
    values: dict[str, Any] = {}
    for key, raw in pairs:
        option = known.get(key)
        value = option_value(option, raw)
        if option is not None and option.kind == "seat" and value is not None:
            if seats is not None and (type(value) is not int or not 1 <= value <= seats):
                raise ValueError(f"option {key!r} is a seat from 1 to {seats}, or none for "
                                 f"one chosen at random; not {raw!r}")
            if type(value) is int:
                value -= 1
        values[key] = value
    return values


def build_parser(*, arguments: bool | Collection[str] = True) -> argparse.ArgumentParser:
    """The argument parser for every subcommand.

    ``arguments`` says which subcommands get their own arguments: all of them (true),
    none (false) or the ones named. The others are still there, with their help, so
    that the app's own options, ``--help``, the usage line and every error about those
    read the same, but have no arguments (and no ``-h`` of its own): what follows their
    name on a command line is only collected. With none, that is enough to open the
    app and imports nothing; :func:`main` builds the parser again with the arguments of
    the subcommand a command line names.
    """
    parser = argparse.ArgumentParser(
        prog="hiddenhand",
        description="Hidden-information party games in the terminal. Plain 'hiddenhand' "
        "(no command) opens the app: solo play, hosting, joining, the rules and settings.",
    )
    box = parser.add_argument_group(
        "playing on an SSH box (set by 'hiddenhand ssh-serve' for each login)")
    box.add_argument("--box", default=None, metavar="HOST:PORT",
                     help="play on this box's host: join its tables or open one, no LAN")
    box.add_argument("--player", default=None, metavar="NAME",
                     help="the player's name until they pick another in the settings")
    box.add_argument("--data-dir", default=None, metavar="DIR",
                     help="keep settings, seat tokens and the journals of games hosted here "
                     "(default: the user's config and data dirs)")
    box.add_argument("--box-invite", default=None, metavar="TEXT",
                     help="how friends join, as the lobby shows it (e.g. 'ssh -p 2222 box')")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND",
                                parser_class=_CommandParser)
    for name, (add, help_, description) in COMMANDS.items():
        full = arguments is True or (not isinstance(arguments, bool) and name in arguments)
        listed = full and name in OPTION_COMMANDS
        command = sub.add_parser(
            name, help=help_, description=description, add_help=full,
            formatter_class=_OptionsFormatter if listed else argparse.HelpFormatter)
        if listed:
            command.epilog_from = options_epilog
        if full:
            add(command)
        command.set_defaults(subparser=command)
    return parser


#: The commands that take ``--option``: their help lists every game's options.
OPTION_COMMANDS = ("solo", "host", "sim")


class _CommandParser(argparse.ArgumentParser):
    """A command's parser whose epilog is made only when its help is shown: the list of
    table options imports every game and the options form (~25 ms of a solo table's
    start-up, scripts/bench_startup.py, when it was made for every run)."""

    epilog_from: Callable[[], str] | None = None

    def format_help(self) -> str:
        if self.epilog is None and self.epilog_from is not None:
            self.epilog = self.epilog_from()
        return super().format_help()


class _OptionsFormatter(argparse.HelpFormatter):
    """Help wrapped as usual, but for the list of table options (``options_epilog``):
    one option a line, wrapped under its own indent."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if not text.startswith(OPTIONS_HEADING):
            return super()._fill_text(text, width, indent)
        import textwrap

        lines = []
        for line in text.splitlines():
            body = line.lstrip(" ")
            lead = indent + " " * (len(line) - len(body))
            lines.append(textwrap.fill(body, width, initial_indent=lead,
                                       subsequent_indent=lead + "  "))
        return "\n".join(lines)


OPTIONS_HEADING = "table options (--option NAME=VALUE, repeatable):"


def options_epilog(seats: int = 4) -> str:
    """Every game's table options for ``--option NAME=VALUE``, with the values each
    takes and its default, from the engine's own option list (ranges that follow the
    seat count, and seat numbers, are given for ``seats`` seats)."""
    import engine
    from tui.games import PRESETS
    from tui.widgets.options_form import describe_value

    lines = [OPTIONS_HEADING]
    for game_id in engine.GAMES:
        spec = engine.GAMES[game_id]
        lines.append(f"  {spec.name} (--game {game_id}):")
        for option in spec.options:
            if option.kind == "bool":
                values = "on|off"
            elif option.kind == "choice":
                values = "|".join(str(c) for c in option.choices)
            elif option.kind == "seat":
                values = f"1..{seats}|none"
            else:
                bounds = option.bounds(seats)
                values = f"{bounds[0]}..{bounds[1]}" if bounds else "a number"
                values += "".join(f"|{'none' if c is None else c}" for c in option.choices)
            default = describe_value(option, option.default)
            if option.kind == "seat":
                default = "none" if option.default is None else str(option.default + 1)
            preset = PRESETS.get(game_id, {})
            if option.name in preset:  # what a person's table starts with instead
                default += f"; solo and the app's forms: {preset[option.name]}"
            lines.append(f"    {option.name}={values} (default {default}): {option.help}")
    return "\n".join(lines)


def _solo_arguments(solo: argparse.ArgumentParser) -> None:
    import engine  # (a solo table imports it next anyway)

    solo.add_argument("--game", default="getout",
                      help="the game: " + ", ".join(engine.GAMES) + " (default getout)")
    solo.add_argument("--seats", type=_seats, default=4, help="seats, you included (default 4)")
    solo.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                      type=_option, help="a table option, e.g. limit=50 (repeatable)")


def _demo_arguments(demo: argparse.ArgumentParser) -> None:
    demo.add_argument("--seats", type=_seats, default=4, help="players, 2 to 6 (default 4)")
    demo.add_argument("--seed", type=int, default=None, help="replay a game exactly")
    demo.add_argument("--single", action="store_true", help="one round instead of a match")
    demo.add_argument("--quiet", action="store_true", help="print only the outcome")


def _sim_arguments(sim: argparse.ArgumentParser) -> None:
    import engine

    sim.add_argument("game", metavar="GAME", help="the game: " + ", ".join(engine.GAMES))
    sim.add_argument("--games", type=_games, default=100, help="how many games (default 100)")
    sim.add_argument("--seats", type=_seats, default=None,
                     help="seats (default 4, or the game's most if fewer)")
    sim.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    sim.add_argument("--option", action="append", type=_option, default=[], metavar="KEY=VALUE",
                     help="a game option, e.g. level=6 or match=false (repeatable)")
    sim.add_argument("--reaction", type=_seconds, default=None,
                     help="Get It! bots' reaction time in seconds (default: the table's "
                     "bots option, 0.35 quick or 1.0 relaxed)")
    sim.add_argument("--jitter", type=_seconds, default=None,
                     help="Get It! bots' reaction jitter, plus or minus (default: 0.15 "
                     "quick, 0.3 relaxed)")
    sim.add_argument("--people", type=_count, default=0, metavar="N",
                     help="Get It!: seat N simulated people (seats 1..N) beside the bots; "
                     "a person reacts slowly, sometimes signals the wrong player and never "
                     "types (default 0)")
    sim.add_argument("--person-reaction", type=_seconds, default=1.0, metavar="SECONDS",
                     help="how long a simulated person takes to react (default 1.0)")
    sim.add_argument("--person-spread", type=_seconds, default=0.3, metavar="SECONDS",
                     help="how much a person's reaction varies, one standard deviation "
                     "(default 0.3)")
    sim.add_argument("--person-error", type=_fraction, default=0.1, metavar="FRACTION",
                     help="how often a person's signal goes to the wrong player, 0 to 1 "
                     "(default 0.1)")
    sim.add_argument("--versus", choices=["random", "casual"], default=None,
                     help="seats 2.. play against the bot in seat 1: random-legal players "
                     "(GET OUT!) or casual bots (Got Five!; seat 1 plays at the table's "
                     "bots option)")
    sim.add_argument("--no-progress", action="store_true", help="no progress bar")


def _host_arguments(host: argparse.ArgumentParser) -> None:
    import engine
    from net.limits import Limits  # small and pure; the rest of net stays unimported

    host.add_argument("--game", default="getout",
                      help="the game: " + ", ".join(engine.GAMES) + " (default getout)")
    host.add_argument("--seats", type=_seats, default=None,
                      help="seats at the table (default: the game's fewest)")
    host.add_argument("--bots", type=_count, default=0, help="seats given to bots (the last ones)")
    host.add_argument("--port", type=_port, default=None,
                      help=f"TCP port to listen on (default {DEFAULT_PORT}, or the resumed "
                      "game's; 0 picks a free one)")
    host.add_argument("--bind", type=_address, default=None, metavar="ADDRESS",
                      help="listen on this address only (default: every address)")
    host.add_argument("--name", default=socket.gethostname().split(".")[0] or "hiddenhand",
                      help="the host's name as players see it")
    host.add_argument("--table", default=None, metavar="NAME", help="the table's name")
    host.add_argument("--option", action="append", type=_option, default=[], metavar="KEY=VALUE",
                      help="a game option, e.g. limit=150 or match=false (repeatable)")
    host.add_argument("--mdns-interface", action="append", default=None, metavar="IP",
                      help="advertise only on this interface address (repeatable; default: "
                      "$HIDDENHAND_MDNS_INTERFACES, else every interface)")
    host.add_argument("--no-mdns", action="store_true", help="do not advertise on the LAN")
    host.add_argument("--bot-delay", type=_seconds, default=0.6,
                      help="seconds a bot waits before each move (default 0.6)")
    host.add_argument("--resume", nargs="?", const="latest", default=None, metavar="JOURNAL",
                      help="bring back the last game after a crash (or the one in JOURNAL); "
                      "--game, --seats, --bots, --option and --table are then ignored")
    host.add_argument("--no-journal", action="store_true",
                      help="keep no crash-recovery journal")
    host.add_argument("--fsync", choices=("background", "each"), default="background",
                      help="when the journal reaches the disk: background (default) writes "
                      "every change before it is acknowledged, so a crash or kill of the host "
                      "loses nothing, and fsyncs it moments later from a thread (a power cut "
                      "may lose those moments); each fsyncs before every acknowledgement "
                      "(nothing lost even then, at the disk's pace for every move)")
    defaults = Limits()
    for flag, field, what in [
        ("--max-connections", "max_connections", "connections in all"),
        ("--max-per-address", "max_per_address", "connections from one address"),
        ("--max-unjoined-per-address", "max_unjoined_per_address",
         "connections from one address that are not at a table"),
        ("--max-tables", "max_tables", "tables in all"),
        ("--max-tables-per-address", "max_tables_per_address",
         "tables players at one address may open"),
    ]:
        host.add_argument(flag, dest=field, type=_positive, default=getattr(defaults, field),
                          help=f"at most this many {what} (default {getattr(defaults, field)}; "
                          "raise the per-address ones when everyone connects from one machine, "
                          "as over SSH)")
    host.add_argument("--shared-address", action="append", type=_address, default=[],
                      metavar="IP", help="an address many players share (a box they log in "
                      "to, a proxy): no per-address limit counts them together (repeatable)")


def _ssh_serve_arguments(ssh: argparse.ArgumentParser) -> None:
    ssh.add_argument("--port", type=_port, default=2222,
                     help="SSH port to listen on (default 2222; 0 picks a free one)")
    ssh.add_argument("--bind", type=_address, default=None, metavar="ADDRESS",
                     help="listen on this address only (default: every address)")
    who = ssh.add_mutually_exclusive_group(required=True)
    who.add_argument("--authorized-keys", default=None, metavar="FILE",
                     help="who may log in: public keys, one a line, as in ~/.ssh/authorized_keys")
    who.add_argument("--open", action="store_true",
                     help="let anyone in, with any name and no key (a trusted LAN only)")
    ssh.add_argument("--max-sessions", type=_count, default=32,
                     help="logins at once, in all (default 32)")
    ssh.add_argument("--max-per-address", type=_count, default=4,
                     help="logins at once from one client address (default 4)")
    ssh.add_argument("--idle-timeout", type=_idle, default=1800.0, metavar="SECONDS",
                     help="close a login after this long without a key pressed "
                     "(default 1800; 0: never)")
    ssh.add_argument("--host-port", type=_port, default=0,
                     help="port of the game host on 127.0.0.1 (default: a free one)")
    ssh.add_argument("--hostname", default=None, metavar="NAME",
                     help="the box's name in 'ssh -p PORT NAME', as the lobby shows it "
                     "(default: this machine's name)")
    ssh.add_argument("--data-dir", default=None, metavar="DIR", dest="ssh_data_dir",
                     help="host key and players' data (default: the user's data dir, "
                     "or $HIDDENHAND_DATA_DIR)")
    ssh.add_argument("--bot-delay", type=_seconds, default=0.7,
                     help="seconds a bot waits before each move (default 0.7)")


def _list_arguments(lister: argparse.ArgumentParser) -> None:
    lister.add_argument("--timeout", type=_seconds, default=2.0,
                        help="seconds to listen (default 2)")
    lister.add_argument("--json", action="store_true", help="print JSON (one list) for scripts")
    lister.add_argument("--mdns-interface", action="append", default=None, metavar="IP",
                        help="browse only on this interface address (repeatable)")


#: Subcommand → (what adds its arguments, its help in the list, its description).
COMMANDS: dict[str, tuple[Callable[[argparse.ArgumentParser], None], str, str]] = {
    "solo": (_solo_arguments, "play solo against bots at once (no network)",
             "Open the app straight into a solo game against bots."),
    "demo": (_demo_arguments, "watch a headless GET OUT! match between random players",
             "Play a GET OUT! match between random-legal players and print it."),
    "sim": (_sim_arguments, "play many bot-only games headless and print the outcomes",
            "Play bot-only games on simulated time (no real waiting) and print a table "
            "of outcomes. Game i uses seed SEED+i, so a run replays exactly. In Get It!, "
            "--people seats simulated people beside the bots, to measure how well the "
            "bots play with people."),
    "host": (_host_arguments, "run a headless host for LAN play",
             "Host one table on this machine, headless; players join it over the network "
             "(found with 'hiddenhand list' or by host:port). Ctrl-C stops it."),
    "ssh-serve": (_ssh_serve_arguments,
                  "serve the app over SSH: anyone with an ssh client plays on this box",
                  "Listen for SSH logins; each gets its own hiddenhand app on its own "
                  "terminal, and every app plays on one host this command runs on "
                  "127.0.0.1. Ctrl-C stops it."),
    "list": (_list_arguments, "list the hosts on the LAN",
             "Browse the LAN for hiddenhand hosts and print them."),
}


def run_demo(seats: int, seed: int, single: bool, quiet: bool) -> int:
    """Play one GET OUT! game between random players, printing what happens."""
    import engine
    from engine.bots import RandomBot
    from engine.getout import describe

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
                say(f"  seat {event['seat'] + 1} plays {describe(event['card'])}{named}")
            elif kind == "drew":
                say(f"  seat {event['seat'] + 1} draws")
            elif kind == "passed":
                say(f"  seat {event['seat'] + 1} passes: nothing left to draw")
            elif kind == "recycled":
                say(f"  the played pile ({event['count']} cards) becomes the draw pile")
            elif kind == "round_over":
                say(f"round {event['round']} won by seat {event['winner'] + 1}; "
                    f"points {event['points']}, totals {event['scores']}")
                for s in event["out"]:
                    say(f"  seat {s + 1} passes the limit and is out")
            elif kind == "round_started":
                say(f"round {event['round']}: seat {event['dealer'] + 1} deals")
        steps += 1
    assert game.result is not None
    print(f"winner: seat {game.result['winners'][0] + 1} after {game.result['rounds']} round(s), "
          f"{steps} moves; totals {game.result['scores']}")
    return 0


def checked_table(
    parser: argparse.ArgumentParser,
    game_id: str,
    seats: int | None,
    option_pairs: Sequence[tuple[str, str]],
    default_seats: Callable[[GameSpec], int],
) -> tuple[GameSpec, int, dict[str, Any]]:
    """The game, seat count and options of a command line, checked by the engine's
    registry; a wrong one is a usage error that says what is allowed."""
    import engine

    spec = engine.GAMES.get(game_id)
    if spec is None:
        parser.error(f"unknown game {game_id!r}; known games: {', '.join(engine.GAMES)}")
    seats = seats if seats is not None else default_seats(spec)
    # What the app fills in itself (Get It!'s Level X record) is no option for people:
    # neither taken nor listed.
    from tui.games import app_options

    offered = sorted(o.name for o in spec.options if o.name not in app_options(game_id))
    for key, _raw in option_pairs:
        if key not in offered:
            parser.error(f"unknown option {key!r} for {spec.name}; allowed options: "
                         f"{', '.join(offered) or 'none'}")
    try:
        spec.check_seats(seats)
        options = spec.check_options(typed_options(spec, option_pairs, seats), seats)
    except ValueError as exc:
        parser.error(str(exc))
    return spec, seats, options


def run_sim_command(args: argparse.Namespace) -> int:
    """Check the ``sim`` arguments, play the games and print the table."""
    parser: argparse.ArgumentParser = args.subparser
    _spec, seats, options = checked_table(
        parser, args.game, args.seats, args.option, lambda spec: min(4, spec.max_seats)
    )
    if args.versus == "random" and args.game != "getout":
        parser.error("--versus random is for GET OUT! only")
    if args.versus == "casual" and args.game != "gotfive":
        parser.error("--versus casual is for Got Five! only")
    if args.reaction is not None or args.jitter is not None:
        from engine.bots.getit_bot import PACES

        # What is not given is the quick pace's (a bot given a timing keeps it).
        args.reaction = PACES["quick"][0] if args.reaction is None else args.reaction
        args.jitter = PACES["quick"][1] if args.jitter is None else args.jitter
        if args.reaction < args.jitter:
            parser.error(f"--jitter {args.jitter} is more than --reaction {args.reaction}")
    if args.people and args.game != "getit":
        parser.error("--people is for Get It! only")
    if args.people > seats:
        parser.error(f"--people {args.people} is more than the {seats} seats")
    person = {"reaction": args.person_reaction, "spread": args.person_spread,
              "error": args.person_error}
    from engine.bots.simulate import SimulationError
    from tui.sim import print_report, run_sim

    try:
        records = run_sim(
            args.game, args.games, seats, args.seed, options, reaction=args.reaction,
            jitter=args.jitter, versus=args.versus, progress=False if args.no_progress else None,
            people=args.people, person=person,
        )
    except SimulationError as exc:
        print(f"hiddenhand sim: {exc}", file=sys.stderr)
        return 1
    print_report(args.game, records, args.versus, person if args.people else None)
    return 0


def check_host_args(args: argparse.Namespace) -> None:
    """Validate ``host`` arguments against the game registry; ``parser.error`` if wrong."""
    parser: argparse.ArgumentParser = args.subparser
    spec, args.seats, args.options = checked_table(
        parser, args.game, args.seats, args.option, lambda spec: spec.min_seats
    )
    args.interfaces = checked_interfaces(parser, args.mdns_interface, check=not args.no_mdns)
    if args.bots > args.seats:
        parser.error(f"--bots {args.bots} is more than the {args.seats} seats")
    if args.table is None:
        args.table = f"{spec.name} at {args.name}"


def checked_interfaces(
    parser: argparse.ArgumentParser, option: list[str] | None, *, check: bool = True
) -> list[str] | None:
    """The mDNS interfaces of ``--mdns-interface`` (else the environment variable), each
    an address of this computer if ``check``; ``parser.error`` in plain words if not."""
    from net.discovery import ENV_INTERFACES, check_local_interfaces, mdns_interfaces

    try:
        interfaces = mdns_interfaces(option)
    except ValueError as exc:
        parser.error(str(exc))
    if check:
        try:
            check_local_interfaces(interfaces)
        except ValueError as exc:
            if option:
                parser.error(f"{exc}; leave out --mdns-interface to use every interface")
            parser.error(f"{exc} (it is in ${ENV_INTERFACES})")
    return interfaces


def run_app(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Open the Textual app (straight into a solo game for ``solo``)."""
    # No cyclic garbage collection until the first screen is painted (the app turns the
    # collector back on then: ``HiddenHandApp.first_screen_shown``). Start-up allocates
    # hundreds of thousands of objects that nearly all live as long as the app, and the
    # collections they set off cost the first frame ~10 ms (scripts/bench_startup.py).
    gc.disable()
    # Textual's writer thread puts each frame on the terminal once it holds the GIL; the
    # event loop goes on at once with the new screen's Resize and Show events, and with
    # Python's 5 ms switch interval the solo table's first frame waited for them (~9 ms,
    # scripts/bench_startup.py). A thread waiting for the GIL gets it within 1 ms now.
    interval = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_INTERVAL)
    try:
        return _run_app(parser, args)
    finally:
        sys.setswitchinterval(interval)
        gc.enable()


def _run_app(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from tui.app import HiddenHandApp
    from tui.games import TABLES, preset_options
    from tui.settings import Settings

    solo = None
    if args.command == "solo":
        parser = args.subparser
        if args.game not in TABLES:
            names = ", ".join(sorted(TABLES))
            parser.error(f"the app has a table for {names} only, not {args.game!r}")
        spec, _seats, _options = checked_table(
            parser, args.game, args.seats, args.option, lambda spec: 4
        )
        solo = {"game_id": args.game, "seats": args.seats,
                "options": {**preset_options(args.game), **typed_options(spec, args.option)}}
    box = None
    if args.box is not None:
        from net.client import parse_address

        try:
            box = parse_address(args.box)
        except ValueError as exc:
            parser.error(f"--box: {exc}")
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            # An sshd ForceCommand runs us even for "ssh -T" or "ssh box cmd".
            print("hiddenhand: the game needs a terminal; log in again with ssh -t",
                  file=sys.stderr)
            return 1
    # Settings read these (tui.settings): one data dir and default name per SSH player.
    if args.data_dir:
        use_data_dir(args.data_dir)
    if args.player:
        os.environ["HIDDENHAND_PLAYER"] = args.player
    settings, problem = Settings.load()
    app = HiddenHandApp(settings, notice=problem, solo=solo, box=box,
                        box_invite=args.box_invite, collector_paused=True)
    # What is imported by now (Textual, the app, their classes and tables) lives as long
    # as the app: frozen, the cyclic garbage collector never walks it again
    # (tui/gc_tuning.py). Before the first frame that saves a full collection; during
    # play every full collection is shorter.
    gc.freeze()
    app.run()
    return 0


def run_ssh_serve_command(args: argparse.Namespace) -> int:
    """Check the ``ssh-serve`` arguments and run the SSH box."""
    from pathlib import Path

    from net.sshserve import BoxConfig, run_ssh_serve

    parser: argparse.ArgumentParser = args.subparser
    config = BoxConfig(
        port=args.port, bind=args.bind, open_login=args.open,
        authorized_keys=Path(args.authorized_keys) if args.authorized_keys else None,
        max_sessions=args.max_sessions, max_per_address=args.max_per_address,
        idle_timeout=args.idle_timeout, host_port=args.host_port, bot_delay=args.bot_delay,
    )
    if args.hostname:
        config.hostname = args.hostname
    if args.ssh_data_dir:
        config.data_dir = Path(args.ssh_data_dir)
    try:
        config.check()
    except (OSError, ValueError) as exc:
        parser.error(str(exc))
    return run_ssh_serve(config)


def use_data_dir(path: str) -> None:
    """Keep everything of this app in ``path`` (``--data-dir``: one SSH player's own
    directory): its settings and seat tokens, and the journals of the games it hosts
    itself (solo) — not in the box owner's data dir, where every player's app would
    find, and offer to resume, everyone's lost games."""
    os.environ["HIDDENHAND_CONFIG_DIR"] = path
    os.environ["HIDDENHAND_DATA_DIR"] = path


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``hiddenhand`` console script."""
    # Plain "hiddenhand" (the app) is parsed without the subcommands' arguments; a
    # command line that names a subcommand is parsed again with that one's arguments.
    parser = build_parser(arguments=False)
    args, extra = parser.parse_known_args(argv)
    if args.command is not None:
        parser = build_parser(arguments={args.command})
        args, extra = parser.parse_known_args(argv)
    if extra:
        # Said under the subcommand's own usage, where the option would have to be.
        where: argparse.ArgumentParser = getattr(args, "subparser", parser)
        where.error(f"unrecognized arguments: {' '.join(extra)}")
    if args.command in (None, "solo"):
        return run_app(parser, args)
    if args.command == "demo":
        import secrets

        try:
            seed = args.seed if args.seed is not None else secrets.randbelow(2**32)
            return run_demo(args.seats, seed, args.single, args.quiet)
        except ValueError as exc:
            args.subparser.error(str(exc))
    if args.command == "sim":
        return run_sim_command(args)
    if args.command == "host":
        check_host_args(args)
        from net.journal import JournalError
        from net.limits import Limits
        from net.serve import find_resumable, run_host

        resume = None
        if args.resume is not None:
            try:
                resume = find_resumable(args.resume)
            except JournalError as exc:
                print(f"hiddenhand host: cannot resume: {exc}", file=sys.stderr)
                return 1
        limits = Limits(**{f: getattr(args, f) for f in LIMIT_FLAGS},
                        shared_addresses=frozenset(args.shared_address))
        return run_host(
            game=args.game, seats=args.seats, bots=args.bots, options=args.options,
            port=args.port, bind=args.bind, name=args.name, table=args.table,
            interfaces=args.interfaces, mdns=not args.no_mdns, bot_delay=args.bot_delay,
            resume=resume, journal=not args.no_journal, limits=limits, fsync=args.fsync,
        )
    if args.command == "ssh-serve":
        return run_ssh_serve_command(args)
    if args.command == "list":
        from net.serve import run_list

        interfaces = checked_interfaces(args.subparser, args.mdns_interface)
        return run_list(args.timeout, args.json, interfaces)
    parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())

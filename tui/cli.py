"""The ``hiddenhand`` command line: one entry point, a subcommand per job.

Plain ``hiddenhand`` opens the app; ``solo`` opens it at a solo table. ``demo`` prints a
headless match (``tui.demo``); ``sim`` plays many bot-only games headless on simulated
time and prints a table of outcomes; ``host`` runs a headless network host (advertised
on the LAN with mDNS); ``ssh-serve`` serves the app to SSH logins (``net.sshserve``);
``list`` prints the hosts found on the LAN. Each subcommand's arguments are in
``tui.cli_arguments``, the checkers of their values in ``tui.cli_values``, the help's
list of table options in ``tui.cli_help``.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import sys
from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING, Any

from tui import cli_values as check
from tui.cli_arguments import ALIAS_OF, ALIASES, COMMANDS, LIMIT_FLAGS, OPTION_COMMANDS
from tui.cli_help import CommandParser, Parser, Version, options_epilog
from tui.cli_values import checked_interfaces, settable_options, typed_options
from tui.games import APP_OPTION_WHY, HOSTED_PRESETS, app_options

if TYPE_CHECKING:
    from engine import GameSpec

# The engine, the bots, the network and the app are imported by the commands that use
# them: the menu's first frame waits for every import made here and for the parser, so
# plain ``hiddenhand`` imports neither the engine nor any subcommand's own arguments
# (whose help lists the games).

#: Seconds a thread waits for the GIL while the app runs, at most (Python's default: 0.005).
SWITCH_INTERVAL = 0.001


def build_parser(*, arguments: bool | Collection[str] = True,
                 invoked: str | None = None) -> argparse.ArgumentParser:
    """The argument parser for every subcommand.

    ``arguments`` says which subcommands get their own arguments: all of them (true),
    none (false) or the ones named. The others are still there, with their help, so
    that the app's own options, ``--help``, the usage line and every error about those
    read the same, but have no arguments (and no ``-h`` of its own): what follows their
    name on a command line is only collected. With none, that is enough to open the
    app and imports nothing; :func:`main` builds the parser again with the arguments of
    the subcommand a command line names; ``invoked``, the name it was called by (an
    alias's usage and errors say the alias: ``hiddenhand review`` said "replay").
    """
    parser = Parser(
        prog="hiddenhand",
        description="Hidden-information party games in the terminal. Plain 'hiddenhand' "
        "(no command) opens the app: solo play, hosting, joining, the rules and settings.",
    )
    parser.add_argument("--version", action=Version)
    parser.add_argument("--data-dir", type=check.directory, default=None, metavar="DIR",
                        help="keep settings, seat tokens, the journals of games hosted here "
                        "and the games kept, for any command (default: the user's config "
                        "and data dirs)")
    # (Its own name: history's --player, parsed after it, set the same one to None.)
    parser.add_argument("--player", dest="app_player", default=None, metavar="NAME",
                        help="your name in the app (and saved as it) until you pick another "
                        "in the settings")
    box = parser.add_argument_group(
        "playing on an SSH box (set by 'hiddenhand ssh-serve' for each login)")
    box.add_argument("--box", default=None, metavar="HOST:PORT|SOCKET",
                     help="play on this box's host: join its tables or open one, no LAN")
    box.add_argument("--box-invite", action="append", default=[], metavar="TEXT",
                     help="a way friends join, as the lobby shows it (e.g. 'ssh -p 2222 "
                     "box', or a web link, which the lobby also shows as a QR code); "
                     "repeatable, one per door")
    box.add_argument("--box-games", default=None, metavar="FILE",
                     help="the box's database of games (its players' past games)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND",
                                parser_class=CommandParser)
    for name, (add, help_, description) in COMMANDS.items():
        full = arguments is True or (not isinstance(arguments, bool) and name in arguments)
        listed = full and name in OPTION_COMMANDS
        aliases = ALIASES.get(name, ())
        command = sub.add_parser(
            name, aliases=aliases, help=help_, description=description, add_help=full,
            prog=f"hiddenhand {invoked if invoked in aliases else name}",
            # The options list is wrapped one option a line by CommandParser itself.
            formatter_class=argparse.RawDescriptionHelpFormatter if listed
            else argparse.HelpFormatter)
        if listed:
            command.epilog_from = options_epilog
        if full:
            add(command)
        command.set_defaults(subparser=command)
    return parser


def checked_table(
    parser: argparse.ArgumentParser,
    game_id: str,
    seats: int | None,
    option_pairs: Sequence[tuple[str, str]],
    default_seats: Callable[[GameSpec], int],
) -> tuple[GameSpec, int, dict[str, Any]]:
    """The game, seat count and options of a command line, checked by the engine's
    registry; a wrong one (or one given twice) is a usage error that says what is."""
    import engine

    spec = engine.GAMES.get(game_id)
    if spec is None:
        parser.error(f"unknown game {game_id!r}; known games: {', '.join(engine.GAMES)}")
    seats = seats if seats is not None else default_seats(spec)
    offered = sorted(o.name for o in settable_options(spec))
    for i, (key, _raw) in enumerate(option_pairs):
        if any(key == other for other, _ in option_pairs[:i]):  # (the last won, unsaid)
            parser.error(f"option {key!r} is given twice: give it once")
        if key in app_options(spec.id):
            parser.error(f"option {key!r} is not the table's: {APP_OPTION_WHY[key]}")
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
    if args.game is not None and args.game_named not in (None, args.game):
        parser.error(f"two games named: {args.game} and --game {args.game_named}")
    args.game = args.game or args.game_named
    if args.game is None:
        parser.error("name the game: hiddenhand sim getout (or --game getout)")
    _spec, seats, options = checked_table(
        parser, args.game, args.seats, args.option, lambda spec: min(4, spec.max_seats)
    )
    if args.versus in ("random", "greedy", "normal") and args.game != "getout":
        parser.error(f"--versus {args.versus} is for GET OUT! only")
    if args.versus == "casual" and args.game == "getit":
        parser.error("--versus casual is for GET OUT! and Got Five! only")
    getit_only = [f"--{name.replace('_', '-')}" for name in (
        "reaction", "jitter", "person_reaction", "person_spread", "person_error",
        "person_typing") if getattr(args, name) != args.subparser.get_default(name)]
    if getit_only and args.game != "getit":
        # (--reaction 2 for GET OUT! ran without a word, where --people was refused.)
        parser.error(f"{getit_only[0]} is for Get It! only")
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
    if args.seed + args.games - 1 > check.SEED_MAX:  # (game i plays SEED+i)
        parser.error(f"--seed {args.seed} leaves no seed for game {args.games}: the last "
                     f"seed is {check.SEED_MAX}")
    person = {"reaction": args.person_reaction, "spread": args.person_spread,
              "error": args.person_error, "typing": args.person_typing}
    # The simulator and the bots are loaded only for ``sim``.
    from engine.bots.simulate import SimulationError
    from net.records import StoreError
    from tui.sim import print_report, run_sim

    try:
        records = run_sim(
            args.game, args.games, seats, args.seed, options, reaction=args.reaction,
            jitter=args.jitter, versus=args.versus, progress=False if args.no_progress else None,
            people=args.people, person=person, record=args.record,
        )
    except (SimulationError, StoreError) as exc:
        print(f"hiddenhand sim: {exc}", file=sys.stderr)
        return 1
    print_report(args.game, records, args.versus, person if args.people else None)
    if args.record:
        kept = [r["kept"] for r in records]
        which = f"game {kept[0]}" if len(kept) == 1 else f"games {kept[0]} to {kept[-1]}"
        print(f"kept as {which}: 'hiddenhand replay {kept[0]}' reviews "
              + ("it" if len(kept) == 1 else "the first"))
    return 0


def check_host_args(args: argparse.Namespace) -> None:
    """Validate ``host`` arguments against the game registry; ``parser.error`` if wrong."""
    parser: argparse.ArgumentParser = args.subparser
    spec, args.seats, args.options = checked_table(
        parser, args.game, args.seats, args.option, lambda spec: spec.min_seats
    )
    for clash, why in ((args.resume is not None and args.no_journal,
                        "--no-journal cannot go with --resume: a resumed game goes on in its "
                        "journal"),
                       (args.no_journal and args.fsync == "each",
                        "--fsync says when the journal reaches the disk: --no-journal keeps none"),
                       (args.no_mdns and args.mdns_interface,
                        "--mdns-interface says where to advertise: --no-mdns advertises nowhere")):
        if clash:  # (each was taken without a word, and the first journaled anyway)
            parser.error(why)
    args.interfaces = checked_interfaces(parser, args.mdns_interface, check=not args.no_mdns)
    if args.bots >= args.seats:
        # (A table of bots alone started no game and waited for nobody, unsaid.)
        parser.error(f"--bots {args.bots} leaves no seat of the {args.seats} for a person "
                     "(bots alone: hiddenhand sim)")
    if args.table is None:
        from net.serve import default_name

        args.table = f"{spec.name} at {args.name or default_name()}"
    # As the app's LAN tables: a person gone from a game in play, its creator too, left
    # the others waiting for ever, nobody there able to hand the seat to a bot.
    given = {key for key, _ in args.option or ()}
    args.options.update({k: v for k, v in HOSTED_PRESETS.items() if k not in given})


def run_app(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Open the Textual app (straight into a solo game for ``solo``)."""
    # No cyclic garbage collection until the first screen is painted (the app turns the
    # collector back on then: ``HiddenHandApp.first_screen_shown``). Start-up allocates
    # hundreds of thousands of objects that nearly all live as long as the app: the
    # collections they would set off walk them all again and only delay the first frame.
    gc.disable()
    # Textual's writer thread puts each frame on the terminal once it holds the GIL; the
    # event loop goes on at once with the new screen's Resize and Show events, and with
    # Python's default switch interval the frame waits for them. A short interval lets
    # the writer have the GIL as soon as it asks.
    interval = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_INTERVAL)
    try:
        return _run_app(parser, args)
    finally:
        sys.setswitchinterval(interval)
        gc.enable()


def _run_app(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    # Textual and the app are loaded only to run the app, not for the other commands.
    from tui.app import HiddenHandApp
    from tui.games import TABLES, preset_options
    from tui.settings import Settings, clean_name, name_cut

    solo = None
    if args.command == "solo":
        parser = args.subparser
        if args.game not in TABLES:
            names = ", ".join(sorted(TABLES))
            parser.error(f"unknown game {args.game!r}; known games: {names}")
        spec, _seats, _options = checked_table(
            parser, args.game, args.seats, args.option, lambda spec: 4
        )
        solo = {"game_id": args.game, "seats": args.seats,
                "options": {**preset_options(args.game), **typed_options(spec, args.option)}}
    box, in_browser = None, False
    if args.box is not None:
        from net.address import parse_address

        try:
            # (A path: the box's host on its Unix socket.)
            box = (args.box, 0) if args.box.startswith("/") else parse_address(args.box)
        except ValueError as exc:
            parser.error(f"--box: {exc}")
        in_browser = os.environ.get("TEXTUAL_DRIVER", "").endswith(":WebDriver")
        if in_browser and not end_with_parent():
            return 1  # the web door that started us is gone already
    if args.app_player and box is None:
        # (A box's doors check the name they pass on; its apps start without this.)
        from net.seats import name_problem

        if (problem := name_problem(args.app_player)) is not None:
            parser.error(f"--player {args.app_player!r}: {problem}")
    # (An sshd ForceCommand runs us even for "ssh -T" or "ssh box cmd".)
    if no_screen := check.terminal_problem("log in again with ssh -t" if args.box
                                           else "run it in a terminal"):
        print(f"hiddenhand: {no_screen}", file=sys.stderr)
        return 1
    # Settings read these (tui.settings): one data dir (see main) and default name per
    # SSH player.
    if args.app_player:
        os.environ["HIDDENHAND_PLAYER"] = args.app_player
    settings, problem = Settings.load()
    if in_browser and args.app_player and (typed := clean_name(args.app_player)) != settings.name:
        # The web page's name is the browser's, typed at each visit: one typed later (by
        # another person at the same browser, say) gave way to the name saved before.
        settings.name, settings.named = typed, True
        with contextlib.suppress(OSError):
            settings.save()
    # (An SSH login name comes this way: refusing a long one would only close the
    # session, so it is cut, and the app says so.)
    if args.app_player and (cut := name_cut(args.app_player, settings.name)):
        problem = f"{problem}. {cut}" if problem else cut
    app = HiddenHandApp(settings, notice=problem, solo=solo, box=box,
                        box_doors=box_invites(args.box_invite), collector_paused=True,
                        games=args.box_games)
    # What is imported by now (Textual, the app, their classes and tables) lives as long
    # as the app: frozen, the cyclic garbage collector never walks it again, neither in
    # the full collection before a solo table's first frame nor in any during play.
    gc.freeze()
    app.run()
    return 0


def run_ssh_serve_command(args: argparse.Namespace) -> int:
    """Check the ``ssh-serve`` arguments and run the SSH box."""
    import warnings
    from pathlib import Path

    # asyncssh's own use of DSA sets off the cryptography library's deprecation warnings
    # as it is imported: twenty lines over every start and every error, nothing an
    # operator can act on.
    warnings.filterwarnings("ignore", module=r"asyncssh(\.|$)")
    from net.sshserve import BoxConfig, run_ssh_serve

    config = BoxConfig(
        port=args.port, bind=args.bind, open_login=args.open,
        authorized_keys=Path(args.authorized_keys) if args.authorized_keys else None,
        web_port=args.web_port, web_bind=args.web_bind, web_link_host=args.web_link_host,
        **box_settings(args),
    )
    checked(config, args)
    return run_ssh_serve(config)


def run_web_command(args: argparse.Namespace) -> int:
    """Check the ``web`` arguments and run the web box."""
    from net.webserve import WebConfig, run_web

    config = WebConfig(port=args.port, bind=args.bind, link_host=args.link_host,
                       **box_settings(args))
    checked(config, args)
    return run_web(config)


def box_settings(args: argparse.Namespace) -> dict[str, Any]:
    """What a box takes from the command line, whatever its doors."""
    from pathlib import Path

    settings: dict[str, Any] = {
        "max_sessions": args.max_sessions, "max_per_address": args.max_per_address,
        "idle_timeout": args.idle_timeout, "host_port": args.host_port,
        "bot_delay": args.bot_delay}
    if args.hostname:
        settings["hostname"] = args.hostname
    if args.ssh_data_dir:
        settings["data_dir"] = Path(args.ssh_data_dir)
    return settings


def checked(config: Any, args: argparse.Namespace) -> None:
    """A usage error, in the command's words, for settings that cannot run."""
    try:
        config.check()
    except (OSError, ValueError) as exc:
        args.subparser.error(str(exc))


def end_with_parent() -> bool:
    """(An app the web door started.) Be ended (SIGTERM, which Textual's web driver
    takes as quit) when the door's process dies, even by ``kill -9``: on pipes, nothing
    else tells the app — its reads just stop and Python ignores SIGPIPE. False if the
    door is gone already (it says its PID in ``HIDDENHAND_DOOR_PID``). Linux's
    ``prctl(PR_SET_PDEATHSIG)``; elsewhere a no-op."""
    door = os.environ.get("HIDDENHAND_DOOR_PID", "")
    if sys.platform.startswith("linux"):
        import ctypes
        import signal

        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, int(signal.SIGTERM))  # PR_SET_PDEATHSIG
    return not door.isdigit() or os.getppid() == int(door)


def box_invites(given: list[str]) -> list[str]:
    """The ways into the box the lobby names: ``--box-invite`` (an ``sshd`` box's), then
    those its ``ssh-serve`` or ``web`` put in the environment (``INVITES_ENV``)."""
    from net.paths import INVITES_ENV

    return [*given, *(line for line in os.environ.get(INVITES_ENV, "").splitlines() if line)]


def use_data_dir(path: str) -> None:
    """Keep everything of this run in ``path`` (``--data-dir``; one SSH player's own
    directory for a box's app): its settings and seat tokens, the journals of the games
    it hosts itself and the games it keeps — for a box's app, not in the box owner's
    data dir, where every player's app would find, and offer to resume, everyone's lost
    games."""
    os.environ["HIDDENHAND_CONFIG_DIR"] = path
    os.environ["HIDDENHAND_DATA_DIR"] = path


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``hiddenhand`` console script."""
    # Plain "hiddenhand" (the app) is parsed without the subcommands' arguments; a
    # command line that names a subcommand is parsed again with that one's arguments.
    parser = build_parser(arguments=False)
    args, extra = parser.parse_known_args(argv)
    if args.command is not None:
        invoked = args.command
        parser = build_parser(arguments={ALIAS_OF.get(invoked, invoked)}, invoked=invoked)
        args, extra = parser.parse_known_args(argv)
        args.command, args.invoked = ALIAS_OF.get(invoked, invoked), invoked
    if extra:
        # Said under the subcommand's own usage, where the option would have to be.
        where: argparse.ArgumentParser = getattr(args, "subparser", parser)
        shared = [a for a in ("--data-dir", "--player", "--box") if any(
            e == a or e.startswith(f"{a}=") for e in extra)]
        hint = (f" ({shared[0]} goes before the command: hiddenhand {shared[0]} … "
                f"{args.invoked})" if shared and args.command else "")
        where.error(f"unrecognized arguments: {' '.join(extra)}{hint}")
    if args.data_dir:
        # Every command's: the app's settings, a host's journals, the kept games (a
        # headless host and "replay" read the user's own dirs instead, unsaid).
        if os.path.exists(args.data_dir) and not os.path.isdir(args.data_dir):
            parser.error(f"--data-dir {args.data_dir}: that is a file, not a directory")
        use_data_dir(args.data_dir)
    given = [o for o, v in (("--player", args.app_player), ("--box", args.box),
                            ("--box-invite", args.box_invite), ("--box-games", args.box_games))
             if v]
    if args.command not in (None, "solo") and given:
        # (The app's own, set for each login of a box: "hiddenhand --player Bob history"
        # listed everyone's games, where "history --player Bob" lists Bob's.)
        hint = " (history's own goes after it: hiddenhand history --player NAME)" \
            if given[0] == "--player" and args.command == "history" else ""
        parser.error(f"{given[0]} is for the app (no command, or solo), not for "
                     f"{args.invoked}{hint}")
    if args.command in (None, "solo"):
        return run_app(parser, args)
    try:
        return run_command(parser, args)
    except KeyboardInterrupt:
        # (Ctrl-C in sim or demo ended in a traceback: what it stopped is said instead.)
        kept = ": the games it finished are kept ('hiddenhand history' lists them)" if (
            getattr(args, "record", False) is True and args.command == "sim") else ""
        print(f"hiddenhand {args.invoked}: stopped{kept}", file=sys.stderr)
        return 130
    except BrokenPipeError:  # (the reader went away, "| head": nor does the exit's flush)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def run_command(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Run the command line's subcommand (not the app's)."""
    if args.command == "demo":
        from tui.demo import run_demo_command  # (its players are loaded for it alone)

        return run_demo_command(args)
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
            record=not args.no_record,
        )
    if args.command == "ssh-serve":
        return run_ssh_serve_command(args)
    if args.command == "web":
        return run_web_command(args)
    if args.command in ("history", "replay", "export", "import"):
        from tui.records_cli import RUNS

        return RUNS[args.command](args)
    if args.command == "list":
        from net.serve import run_list

        interfaces = checked_interfaces(args.subparser, args.mdns_interface)
        return run_list(args.timeout, args.json, interfaces)
    parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())

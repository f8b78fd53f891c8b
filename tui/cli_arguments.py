"""The arguments of each ``hiddenhand`` subcommand, and the table of subcommands.

An adder here imports what its help names (the engine, for the list of games) only when
it runs: :func:`tui.cli.build_parser` calls only the adder of the subcommand a command
line names, so plain ``hiddenhand`` (the app) imports neither the engine nor the network.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from tui import cli_values as check
from tui.records_cli import (
    export_arguments,
    history_arguments,
    import_arguments,
    replay_arguments,
)

DEFAULT_PORT = 4455
#: The ``host`` flags that set a ``net.limits.Limits`` field of the same name, and what
#: each counts.
LIMITS = {
    "--max-connections": "connections in all",
    "--max-per-address": "connections from one address",
    "--max-unjoined-per-address": "connections from one address that are not at a table",
    "--max-tables": "tables in all",
    "--max-tables-per-address": "tables players at one address may open",
}
#: The ``Limits`` fields those flags set (the flags' own ``dest``).
LIMIT_FLAGS = tuple(flag.removeprefix("--").replace("-", "_") for flag in LIMITS)


def solo_arguments(solo: argparse.ArgumentParser) -> None:
    """``solo``: the game, the seats and the table options of a solo table."""
    import engine  # (a solo table imports it next anyway)

    solo.add_argument("--game", default="getout",
                      help="the game: " + ", ".join(engine.GAMES) + " (default getout)")
    solo.add_argument("--seats", type=check.seats, default=4,
                      help="seats, you included (default 4)")
    solo.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                      type=check.option_pair, help="a table option, e.g. limit=50 (repeatable)")


def demo_arguments(demo: argparse.ArgumentParser) -> None:
    """``demo``: the seats, seed and length of a printed GET OUT! match."""
    demo.add_argument("--seats", type=check.seats, default=4, help="players, 2 to 6 (default 4)")
    demo.add_argument("--seed", type=check.seed, default=None, help="replay a game exactly")
    demo.add_argument("--single", action="store_true", help="one round instead of a match")
    demo.add_argument("--quiet", action="store_true", help="print only the outcome")


def sim_arguments(sim: argparse.ArgumentParser) -> None:
    """``sim``: the game, how many games, options, and the bots' and simulated people's
    timing."""
    import engine

    sim.add_argument("game", metavar="GAME", nargs="?",
                     help="the game: " + ", ".join(engine.GAMES))
    # (As solo and host take it: "sim --game getit" read as --games, "not a number".)
    sim.add_argument("--game", dest="game_named", metavar="GAME", default=None,
                     help="the game, named as solo and host name it")
    sim.add_argument("--games", type=check.games, default=100, help="how many games (default 100)")
    sim.add_argument("--seats", type=check.seats, default=None,
                     help="seats (default 4, or the game's most if fewer)")
    sim.add_argument("--seed", type=check.seed, default=1,
                     help="seed of the first game (default 1); the next games take the "
                     "seeds after it")
    sim.add_argument("--option", action="append", type=check.option_pair, default=[],
                     metavar="KEY=VALUE",
                     help="a game option, e.g. level=6 or match=off (repeatable)")
    sim.add_argument("--reaction", type=check.seconds, default=None,
                     help="Get It! bots' reaction time in seconds (default: the table's "
                     "bots option, 0.35 quick or 1.0 relaxed)")
    sim.add_argument("--jitter", type=check.seconds, default=None,
                     help="Get It! bots' reaction jitter, plus or minus (default: 0.15 "
                     "quick, 0.3 relaxed)")
    sim.add_argument("--people", type=check.count, default=0, metavar="N",
                     help="Get It!: seat N simulated people (seats 1..N) beside the bots; "
                     "a person reacts slowly, sometimes signals the wrong player and types "
                     "only with --person-typing (default 0)")
    sim.add_argument("--person-reaction", type=check.seconds, default=1.0, metavar="SECONDS",
                     help="how long a simulated person takes to react (default 1.0)")
    sim.add_argument("--person-spread", type=check.seconds, default=0.3, metavar="SECONDS",
                     help="how much a person's reaction varies, one standard deviation "
                     "(default 0.3)")
    sim.add_argument("--person-error", type=check.fraction, default=0.1, metavar="FRACTION",
                     help="how often a person's signal goes to the wrong player, 0 to 1 "
                     "(default 0.1)")
    sim.add_argument("--person-typing", type=check.typing, default=0.0, metavar="CPS",
                     help="how many characters a second a person types a line while the "
                     "speech bubble shows; 0: never types (default 0; a person: about 4)")
    sim.add_argument("--versus", choices=["random", "greedy", "casual", "normal"], default=None,
                     help="the other seats play against one bot, which plays at the table's "
                     "bots option: random-legal, greedy, casual or normal players (GET OUT!; "
                     "the bot's seat goes round from game to game) or casual bots (Got "
                     "Five!; the bot in seat 1); the bot's wins are given with their 95%% "
                     "interval")
    sim.add_argument("--record", action="store_true",
                     help="keep every game played, to review ('hiddenhand history', "
                     "'hiddenhand replay ID')")
    sim.add_argument("--no-progress", action="store_true", help="no progress bar")


def host_arguments(host: argparse.ArgumentParser) -> None:
    """``host``: the table, where to listen, the journal and the host's limits."""
    import engine
    from net.limits import Limits  # small and pure; the rest of net stays unimported

    host.add_argument("--game", default="getout",
                      help="the game: " + ", ".join(engine.GAMES) + " (default getout)")
    host.add_argument("--seats", type=check.seats, default=None,
                      help="seats at the table (default: the game's fewest)")
    host.add_argument("--bots", type=check.count, default=0, metavar="N",
                      help="seats given to bots (the last ones; default 0)")
    host.add_argument("--port", type=check.port, default=None,
                      help=f"TCP port to listen on (default {DEFAULT_PORT}, or the resumed "
                      "game's; 0 picks a free one)")
    host.add_argument("--bind", type=check.address, default=None, metavar="ADDRESS",
                      help="listen on this address only (default: every address)")
    host.add_argument("--name", default=None, type=check.shown_name,
                      help="the host's name as players see it (default: this machine's, "
                      "or a resumed host's own)")
    host.add_argument("--table", default=None, metavar="NAME", type=check.shown_name,
                      help="the table's name")
    host.add_argument("--option", action="append", type=check.option_pair, default=[],
                      metavar="KEY=VALUE",
                      help="a game option, e.g. limit=150 or match=off (repeatable)")
    host.add_argument("--mdns-interface", action="append", default=None, metavar="IP",
                      help="advertise only on this interface address (repeatable; default: "
                      "$HIDDENHAND_MDNS_INTERFACES, else every interface)")
    host.add_argument("--no-mdns", action="store_true", help="do not advertise on the LAN")
    host.add_argument("--bot-delay", type=check.seconds, metavar="SECONDS", default=0.6,
                      help="seconds a bot waits before each move (default 0.6)")
    host.add_argument("--resume", nargs="?", const="latest", default=None, metavar="JOURNAL",
                      type=check.file_name,
                      help="bring back the last game after a crash (or the one in JOURNAL); "
                      "--game, --seats, --bots, --option and --table are then ignored")
    host.add_argument("--no-record", action="store_true",
                      help="keep no game for review (default: every game that ends, finished "
                      "or not, is kept in the data directory: 'hiddenhand history')")
    host.add_argument("--no-journal", action="store_true",
                      help="keep no crash-recovery journal")
    host.add_argument("--fsync", choices=("background", "each"), default="background",
                      help="when the journal reaches the disk: background (default) writes "
                      "every change before it is acknowledged, so a crash or kill of the host "
                      "loses nothing, and fsyncs it moments later from a thread (a power cut "
                      "may lose those moments); each fsyncs before every acknowledgement "
                      "(nothing lost even then, at the disk's pace for every move)")
    defaults = Limits()
    for (flag, what), field in zip(LIMITS.items(), LIMIT_FLAGS, strict=True):
        # (The advice for one address was under every limit, those in all too.)
        shared = ("; raise it when everyone connects from one machine, as over SSH, or "
                  "name that address with --shared-address") if "address" in flag else ""
        host.add_argument(flag, dest=field, type=check.positive, metavar="N",
                          default=getattr(defaults, field),
                          help=f"at most this many {what} (default "
                          f"{getattr(defaults, field)}{shared})")
    host.add_argument("--shared-address", action="append", type=check.address, default=[],
                      metavar="IP", help="an address many players share (a box they log in "
                      "to, a proxy): no per-address limit counts them together (repeatable)")


def ssh_serve_arguments(ssh: argparse.ArgumentParser) -> None:
    """``ssh-serve``: where to listen for SSH logins, who may log in, and limits."""
    ssh.add_argument("--port", type=check.port, default=2222,
                     help="SSH port to listen on (default 2222; 0 picks a free one)")
    ssh.add_argument("--bind", type=check.address, default=None, metavar="ADDRESS",
                     help="listen on this address only (default: every address)")
    who = ssh.add_mutually_exclusive_group(required=True)
    who.add_argument("--authorized-keys", default=None, metavar="FILE",
                     help="who may log in: public keys, one a line, as in ~/.ssh/authorized_keys")
    who.add_argument("--open", action="store_true",
                     help="let anyone in, with any name and no key (a trusted LAN only)")
    ssh.add_argument("--max-sessions", type=check.positive, default=32,
                     help="logins at once, in all (default 32)")
    ssh.add_argument("--max-per-address", type=check.positive, default=4,
                     help="logins at once from one client address (default 4)")
    ssh.add_argument("--idle-timeout", type=check.idle_seconds, default=1800.0, metavar="SECONDS",
                     help="close a login after this long without a key pressed "
                     "(default 1800; 0: never)")
    ssh.add_argument("--host-port", type=check.port, default=None,
                     help="serve the box's game host on TCP 127.0.0.1:PORT (0: a free one), "
                     "where every local user can reach it, instead of on a Unix socket in "
                     "the box's private data directory (the default)")
    ssh.add_argument("--hostname", type=check.host_name, default=None, metavar="NAME",
                     help="the box's name in 'ssh -p PORT NAME', as the lobby shows it "
                     "(default: this machine's name)")
    ssh.add_argument("--data-dir", type=check.directory, default=None, metavar="DIR",
                     dest="ssh_data_dir",
                     help="the box's own files: host key, journal, games and players' data "
                     "(default: the 'ssh' folder of hiddenhand's data dir, which "
                     "'hiddenhand --data-dir' or $HIDDENHAND_DATA_DIR sets)")
    ssh.add_argument("--bot-delay", type=check.seconds, metavar="SECONDS", default=0.7,
                     help="seconds a bot waits before each move (default 0.7)")
    ssh.add_argument("--web-port", type=check.port, default=None, metavar="PORT",
                     help="also let browsers in, on this port (0: a free one), through "
                     "the secret join link it prints: the same box, tables and limits")
    ssh.add_argument("--web-bind", type=check.address, default="127.0.0.1",
                     metavar="ADDRESS", help="the web door's address (default 127.0.0.1, "
                     "this machine only; 0.0.0.0 serves the LAN)")
    ssh.add_argument("--web-link-host", default=None, metavar="NAME",
                     help="the address the web door's join link names (default: its "
                     "address, or this machine's LAN address with --web-bind 0.0.0.0)")


def web_arguments(web: argparse.ArgumentParser) -> None:
    """``web``: where the web door listens, the link it gives out, and limits."""
    web.add_argument("--port", type=check.port, default=8080,
                     help="port to listen on (default 8080; 0 picks a free one)")
    web.add_argument("--bind", type=check.address, default="127.0.0.1", metavar="ADDRESS",
                     help="listen on this address only (default 127.0.0.1: this machine "
                     "only; 0.0.0.0 serves the LAN, every visit through the secret link)")
    web.add_argument("--link-host", default=None, metavar="NAME",
                     help="the address the join link names (default: the bind address, "
                     "or this machine's LAN address when it binds 0.0.0.0)")
    web.add_argument("--max-sessions", type=check.positive, default=32,
                     help="visits (browser tabs) at once, in all (default 32)")
    web.add_argument("--max-per-address", type=check.positive, default=4,
                     help="visits at once from one client address (default 4)")
    web.add_argument("--idle-timeout", "--idle", type=check.idle_seconds, default=1800.0,
                     metavar="SECONDS", help="end a tab's game after this long without "
                     "a key or click (default 1800; 0: never)")
    web.add_argument("--host-port", type=check.port, default=None,
                     help="serve the box's game host on TCP 127.0.0.1:PORT instead of "
                     "on a Unix socket in the box's private data directory (the default)")
    web.add_argument("--hostname", type=check.host_name, default=None, metavar="NAME",
                     help="the box's name, as the lobby shows it (default: this machine's)")
    web.add_argument("--data-dir", type=check.directory, default=None, metavar="DIR",
                     dest="ssh_data_dir",
                     help="the box's own files: journal, games and players' data (default: "
                     "the 'ssh' folder of hiddenhand's data dir, which 'hiddenhand "
                     "--data-dir' or $HIDDENHAND_DATA_DIR sets; the same box as "
                     "ssh-serve's)")
    web.add_argument("--bot-delay", type=check.seconds, metavar="SECONDS", default=0.7,
                     help="seconds a bot waits before each move (default 0.7)")


def list_arguments(lister: argparse.ArgumentParser) -> None:
    """``list``: how long to browse the LAN, and where."""
    lister.add_argument("--timeout", type=check.seconds, default=2.0,
                        help="seconds to listen (default 2)")
    lister.add_argument("--json", action="store_true", help="print JSON (one list) for scripts")
    lister.add_argument("--mdns-interface", action="append", default=None, metavar="IP",
                        help="browse only on this interface address (repeatable)")


#: The commands that take ``--option``: their help lists every game's options.
OPTION_COMMANDS = ("solo", "host", "sim")

#: Subcommand → (what adds its arguments, its help in the list, its description).
COMMANDS: dict[str, tuple[Callable[[argparse.ArgumentParser], None], str, str]] = {
    "solo": (solo_arguments, "play solo against bots at once (no network)",
             "Open the app straight into a solo game against bots."),
    "demo": (demo_arguments, "watch a headless GET OUT! match between random players",
             "Play a GET OUT! match between random-legal players and print it."),
    "sim": (sim_arguments, "play many bot-only games headless and print the outcomes",
            "Play bot-only games on simulated time (no real waiting) and print a table "
            "of outcomes. Game i uses seed SEED+i, so a run replays exactly. In Get It!, "
            "--people seats simulated people beside the bots, to measure how well the "
            "bots play with people."),
    "host": (host_arguments, "run a headless host for LAN play",
             "Host one table on this machine, headless; players join it over the network "
             "(found with 'hiddenhand list' or by host:port). Ctrl-C stops it."),
    "ssh-serve": (ssh_serve_arguments,
                  "serve the app over SSH: anyone with an ssh client plays on this box",
                  "Listen for SSH logins; each gets its own hiddenhand app on its own "
                  "terminal, and every app plays on one host this command runs (on a "
                  "Unix socket in the box's private data directory). Ctrl-C stops it; the "
                  "box's tables come back when it starts again."),
    "web": (web_arguments,
            "serve the app to browsers: a friend with only a phone plays on this box",
            "Serve the app to web browsers, one app per tab, every app on one host this "
            "command runs (the box of ssh-serve: run one or the other, or ssh-serve "
            "--web-port for both). Visitors need the secret join link it prints. "
            "Ctrl-C stops it; the box's tables come back when it starts again."),
    "list": (list_arguments, "list the hosts on the LAN",
             "Browse the LAN for hiddenhand hosts and print them."),
    "history": (history_arguments, "list the games kept here, or their figures",
                "List the games kept here (every game a host of yours ends, finished or "
                "not, and the games imported), newest first, or with --stats the figures "
                "per game and player count (of finished games played here)."),
    "replay": (replay_arguments, "review a kept game move by move",
               "Step through a kept game: the last, one by its id, or a game file. "
               "Seen from any seat or with every card face up."),
    "export": (export_arguments, "write a kept game to a file for a friend",
               "Write one kept game as a game file (.hhgame) that 'hiddenhand replay' "
               "opens anywhere."),
    "import": (import_arguments, "keep a friend's game file here",
               "Check a game file whole and keep its game with yours."),
}
#: Other names of a command: the app's screens say "Review" for what ``replay`` does.
ALIASES: dict[str, tuple[str, ...]] = {"replay": ("review",)}
#: The command each other name stands for.
ALIAS_OF: dict[str, str] = {alias: name for name, names in ALIASES.items() for alias in names}

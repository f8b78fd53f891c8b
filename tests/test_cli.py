"""Tests of the ``hiddenhand`` command line."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import assert_usage_error
from tui import cli_values as check
from tui.cli import main


def test_help_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    assert "demo" in capsys.readouterr().out


def test_version_says_the_release_and_the_protocol(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    from net.wire.framing import PROTOCOL_VERSION

    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out == (f"hiddenhand {version('hiddenhand')}, protocol "
                                       f"{PROTOCOL_VERSION}\n")


def test_demo_plays_a_seeded_match_to_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seats", "3", "--seed", "5", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("winner: seat ") and out.endswith("; seed 5\n")  # (to replay it)
    assert main(["demo", "--seats", "3", "--seed", "5", "--quiet"]) == 0
    assert capsys.readouterr().out == out  # the seed replays the same match


def test_demo_single_round_prints_the_moves(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seats", "2", "--seed", "1", "--single"]) == 0
    out = capsys.readouterr().out
    assert "round 1 won by seat" in out and "after 1 round," in out
    # In words, not Python's ("1 round(s)", "totals [28, 0]").
    assert "round(s)" not in out and "[" not in out and re.search(r"totals \d+, \d+", out)
    # Seats are counted from 1, as the app counts them.
    assert "seat 1 " in out and "seat 2 " in out and "seat 0" not in out
    # An image is named in words, as a card is ("naming tea_picker").
    assert main(["demo", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "naming Shirley" in out and "naming shirley" not in out and "_" not in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["demo", "--seats", "9"], "GET OUT! takes 2 to 6 seats, not 9"),
        (["demo", "--seats", "many"], "seats must be a whole number"),
        (["demo", "--seed", "x"], "a seed is a whole number, not 'x'"),
        (["fly"], "invalid choice"),
    ],
)
def test_garbage_on_the_command_line_gets_a_clear_error(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert_usage_error(argv, message, capsys)


@pytest.mark.parametrize(
    ("argv", "usage", "message"),
    [
        (["solo", "--frobnicate"], "usage: hiddenhand solo", "unrecognized arguments: --frob"),
        (["demo", "--seats", "1"], "usage: hiddenhand demo", "GET OUT! takes 2 to 6 seats, not 1"),
        (["sim", "getout", "--games", "0"], "usage: hiddenhand sim",
         "argument --games: expected 1 to 1000000000"),
        (["host", "--bind", "999.1.1.1"], "usage: hiddenhand host",
         "'999.1.1.1' is not a valid IP address"),
        (["list", "--frobnicate"], "usage: hiddenhand list", "unrecognized arguments"),
        # (A negative seed made a game kept for review that no review could read; one
        # past 2**63 a traceback, at the game that reached it.)
        (["sim", "getout", "--seed", "-5"], "usage: hiddenhand sim", "a seed is 0 to"),
        (["demo", "--seed", "abc"], "usage: hiddenhand demo",
         "a seed is a whole number, not 'abc'"),
        (["sim", "getout", "--games", "3", "--seed", str(2**63 - 2)], "usage: hiddenhand sim",
         f"--seed {2**63 - 2} leaves no seed for game 3"),
        # (The help says on|off; the error said "must be true or false".)
        (["sim", "getout", "--option", "match=maybe"], "usage: hiddenhand sim",
         "option 'match' is on or off, not 'maybe'"),
        # ("my box" printed the invitation "ssh -p 2222 my box".)
        (["ssh-serve", "--open", "--hostname", "my box"], "usage: hiddenhand ssh-serve",
         "'my box' is not a name friends can type"),
        (["web", "--hostname", "-x"], "usage: hiddenhand web", "expected one argument"),
        (["web", "--hostname", "box;rm"], "usage: hiddenhand web",
         "'box;rm' is not a name friends can type"),
    ],
)
def test_a_subcommand_reports_errors_under_its_own_usage(
    argv: list[str], usage: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    prog = usage.removeprefix("usage: ")
    # The mistake and where the help is, not the whole usage over it.
    assert err.startswith(f"{prog}: error: ") and message in err, err
    assert err.endswith(f"(every option: {prog} --help)\n") and err.count("\n") == 2, err
    assert "name resolution" not in err


def test_help_says_what_plain_hiddenhand_does_and_the_default_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "Plain 'hiddenhand' (no command) opens the app" in " ".join(
        capsys.readouterr().out.split())
    with pytest.raises(SystemExit):
        main(["host", "--help"])
    assert "(default getout)" in " ".join(capsys.readouterr().out.split())
    # solo's help names the games too (it said only "the game to play").
    with pytest.raises(SystemExit):
        main(["solo", "--help"])
    assert "the game: getit, getout, gotfive (default getout)" in " ".join(
        capsys.readouterr().out.split())


def test_the_app_parser_says_the_same_as_the_whole_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from tui.cli import build_parser

    # Plain ``hiddenhand`` is parsed without the subcommands' arguments; its help, usage
    # and errors must not show it.
    assert build_parser(arguments=False).format_help() == build_parser().format_help()
    assert build_parser(arguments=False).format_usage() == build_parser().format_usage()
    # A named subcommand is parsed with only its own arguments: its help is the same too.
    from tui.cli_arguments import COMMANDS

    for name in COMMANDS:
        helps = []
        for parser in (build_parser(arguments={name}), build_parser()):
            with pytest.raises(SystemExit):
                parser.parse_args([name, "--help"])
            helps.append(capsys.readouterr().out)
        assert helps[0] == helps[1] and f"usage: hiddenhand {name}" in helps[0], name


def test_plain_hiddenhand_opens_the_app_without_the_engine_or_the_network(
    tmp_path: Path,
) -> None:
    # The menu's first frame waits for every import before it: nothing of the engine,
    # the network or the wire format is imported on its way (only ``net.paths``, which
    # says where settings live and imports platformdirs alone).
    probe = (
        "import sys, textual.app\n"
        "def run(self, *args, **kwargs):\n"
        "    import tui.screens.menu\n"
        "    print(sorted(m for m in sys.modules if m.partition('.')[0] in\n"
        "                 ('engine', 'net', 'msgpack', 'zeroconf', 'asyncssh')\n"
        "                 and m not in ('net', 'net.paths')))\n"
        "textual.app.App.run = run\n"
        "import tui.cli_values\n"
        "tui.cli_values.terminal_problem = lambda *_, **__: None\n"  # (no tty here)
        "from tui.cli import main\n"
        "main([])\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60, check=True,
                          env={**os.environ, "HIDDENHAND_CONFIG_DIR": str(tmp_path)})
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


def test_a_screen_without_a_terminal_says_so_and_ends(tmp_path: Path) -> None:
    """``hiddenhand </dev/null | cat`` (and ``replay``, ``solo``) wrote Textual's
    screens into the pipe and spun a core until killed."""
    from engine.bots.simulate import simulate
    from net.records import GameStore

    env = {**os.environ, "HIDDENHAND_DATA_DIR": str(tmp_path),
           "HIDDENHAND_CONFIG_DIR": str(tmp_path / "config")}
    env.pop("TEXTUAL_DRIVER", None)
    with GameStore(tmp_path / "games.sqlite3") as store:
        store.add(simulate("getout", 2, 1, {}, record=True)["record"])
    for argv in ([], ["solo"], ["replay", "1"]):
        done = subprocess.run([sys.executable, "-m", "tui.cli", *argv], stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=60, env=env)
        assert done.returncode == 1 and not done.stdout, (argv, done.stdout[:200])
        assert "needs a terminal; run it in a terminal" in done.stderr, (argv, done.stderr)


def test_console_entry_point_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tui.cli", "demo", "--seats", "2", "--seed", "3", "--quiet"],
        capture_output=True, text=True, timeout=60, check=True,
    )
    assert done.stdout.startswith("winner: seat ")


def test_a_reader_that_goes_away_or_ctrl_c_ends_a_command_without_a_traceback(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``demo … | head`` ended in a ``BrokenPipeError`` traceback, Ctrl-C in ``sim`` in a
    ``KeyboardInterrupt`` one (a command-line pass)."""
    read, write = os.pipe()
    os.close(read)  # (gone before the first line: every write finds no reader)
    try:
        piped = subprocess.run([sys.executable, "-m", "tui.cli", "demo", "--seed", "3"],
                               stdout=write, stderr=subprocess.PIPE, text=True, timeout=60)
    finally:
        os.close(write)
    assert piped.returncode == 1 and piped.stderr == "", piped.stderr
    import tui.cli

    def interrupted(args: Any) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(tui.cli, "run_sim_command", interrupted)
    assert main(["sim", "getout", "--games", "5", "--record"]) == 130
    assert capsys.readouterr().err == ("hiddenhand sim: stopped: the games it finished are "
                                       "kept ('hiddenhand history' lists them)\n")
    assert main(["sim", "getout", "--games", "5"]) == 130
    assert capsys.readouterr().err == "hiddenhand sim: stopped\n"


def test_a_busy_port_is_said_in_words() -> None:
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "tui.cli", "host", "--bind", "127.0.0.1", "--port",
             str(port), "--no-mdns"],
            capture_output=True, text=True, timeout=60,
        )
    assert done.returncode == 1
    assert f"port {port} is already in use on this computer" in done.stderr
    assert "Errno" not in done.stderr and "Traceback" not in done.stderr


#: Were a ``host`` command line wrongly accepted, it would host on loopback only.
LOOPBACK = ["--bind", "127.0.0.1", "--port", "0", "--no-mdns", "--no-journal"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solo", "--game", "nosuch"],
         "unknown game 'nosuch'; known games: getit, getout, gotfive"),
        # The app's own options before another command were parsed and dropped, unsaid
        # ("--player Bob history" listed everyone's games).
        (["--player", "Bob", "history"], "--player is for the app (no command, or solo), "
         "not for history (history's own goes after it: hiddenhand history --player NAME)"),
        (["--box-invite=x", "list"], "--box-invite is for the app (no command, or solo), "
         "not for list"),
        (["solo", "--game", "getit", "--option", "level="],
         "option 'level' must be a whole number from 1 to 6 or 'X', not an empty value"),
        # Every argv is refused even by a check that forgot these words: none can host.
        (["host", "--game", "getout", "--option", "limit=none", *LOOPBACK],
         "option 'limit' must be a whole number from 1 to 10000, not an empty value"),
        # Seats count from 1 on the command line, as the app shows them.
        (["solo", "--game", "getout", "--option", "first=5"],
         "option 'first' is a seat from 1 to 4, or none for one chosen at random; not '5'"),
        (["solo", "--game", "getout", "--option", "first=0"], "a seat from 1 to 4"),
        (["host", "--game", "gotfive", "--seats", "3", "--option", "first=two", *LOOPBACK],
         "option 'first' is a seat from 1 to 3"),
        # The seat count is said only where the range follows it.
        (["solo", "--game", "getout", "--option", "limit=0"],
         "option 'limit' must be from 1 to 10000, not 0"),
        # The Level X record is the app's to fill in: no option for people.
        (["solo", "--game", "getit", "--option", "best=abc"],
         "option 'best' is not the table's: the app keeps each player's Level X record itself"),
        (["host", "--game", "getit", "--option", "best=2", *LOOPBACK],
         "option 'best' is not the table's"),
        # Got Five!'s auto-cross is each player's own (RULES.md).
        (["host", "--game", "gotfive", "--option", "auto_cross=off", *LOOPBACK],
         "option 'auto_cross' is not the table's: each player sets their own auto-cross"),
        (["sim", "getit", "--option", "speed=2"],
         "unknown option 'speed' for Get It!; allowed options: away_bot, bots, cards, level, "
         "timer"),
    ],
)
def test_option_errors_speak_plain_words(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert message in err, err
    assert "None" not in err
    if "allowed options:" in err:  # (never the app's own: the Level X record)
        assert "best" not in err.split("allowed options:")[-1]


def test_a_box_players_data_dir_holds_their_journals_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One SSH player's solo games are journaled in their own dir: the box owner's data
    dir would offer every player everyone's lost games to resume."""
    from net.journal import journal_dir
    from tui.cli import use_data_dir
    from tui.settings import config_dir

    monkeypatch.delenv("HIDDENHAND_DATA_DIR", raising=False)
    monkeypatch.delenv("HIDDENHAND_CONFIG_DIR", raising=False)
    use_data_dir(str(tmp_path / "ann"))
    assert journal_dir().is_relative_to(tmp_path / "ann")
    assert config_dir().is_relative_to(tmp_path / "ann")


def test_a_seat_on_the_command_line_counts_from_1() -> None:
    import engine
    from tui.cli_values import typed_options

    spec = engine.GAMES["getout"]
    assert typed_options(spec, [("first", "1"), ("limit", "50")]) == {"first": 0, "limit": 50}
    assert typed_options(spec, [("first", "4")]) == {"first": 3}
    assert typed_options(spec, [("first", "none")]) == {"first": None}


def test_an_option_s_word_is_taken_in_any_case() -> None:
    """``--option level=x`` was refused: Level X is a word, as ``bots=Strong`` is."""
    import engine
    from tui.cli_values import typed_options

    assert typed_options(engine.GAMES["getit"], [("level", "x")]) == {"level": "X"}
    assert typed_options(engine.GAMES["getout"], [("bots", "Strong")]) == {"bots": "strong"}


@pytest.mark.parametrize("command", ["solo", "host", "sim"])
def test_help_lists_every_games_options_with_values_the_game_takes(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--option` named only 'limit=50' (a GET OUT! option): the help now lists every
    game's options, and every value it shows for one is one that game takes."""
    import re

    import engine
    from tui.cli_values import settable_options, typed_options

    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = capsys.readouterr().out
    for game_id in engine.GAMES:
        spec = engine.GAMES[game_id]
        block = out.split(f"(--game {game_id}):", 1)[1]
        for option in settable_options(spec):
            found = re.search(rf"^    {option.name}=(\S+) \(default ([^);]+)[^)]*\): ", block,
                              re.M)
            assert found, (game_id, option.name)
            shown: list[str] = []
            for value in found[1].split("|"):
                low, dots, high = value.partition("..")
                shown += [low, high] if dots else [value]
            # (A seat's number is shown up to the game's largest table.)
            seats = spec.max_seats if option.kind == "seat" else 4
            for value in [*shown, found[2]]:
                typed = typed_options(spec, [(option.name, value)], seats=seats)[option.name]
                option.check(typed, seats)  # raises if the game would refuse it


@pytest.mark.parametrize("command", ["solo", "host", "sim"])
def test_help_lists_exactly_the_options_the_command_line_takes(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`solo --help` listed Get It!'s `best` (the app's own Level X record), which
    `--option best=...` refuses: game by game, the help names exactly the options that
    an unknown option's refusal lists as allowed."""
    import re

    import engine
    from tui.cli_help import OPTIONS_HEADING

    with pytest.raises(SystemExit):
        main([command, "--help"])
    listed = capsys.readouterr().out.split(OPTIONS_HEADING, 1)[1]
    for game_id in engine.GAMES:
        block = listed.split(f"(--game {game_id}):", 1)[1].split("(--game ", 1)[0]
        shown = re.findall(r"^    (\w+)=", block, re.M)
        game = ["sim", game_id] if command == "sim" else [command, "--game", game_id]
        with pytest.raises(SystemExit):
            main([*game, "--option", "nosuch=1", *(LOOPBACK if command == "host" else [])])
        err = capsys.readouterr().err
        allowed = err.split("allowed options: ", 1)[1].splitlines()[0].strip()
        assert sorted(shown) == allowed.split(", "), (game_id, shown, allowed)
    assert "best=" not in listed


@pytest.mark.parametrize(("argv", "bots"), [
    (["solo", "--game", "getit"], "relaxed"),
    (["solo", "--game", "getit", "--option", "bots=quick"], "quick"),
])
def test_a_solo_get_it_table_starts_with_bots_that_react_as_people_do(
    argv: list[str], bots: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A person plays beside the bots: they react in about a second unless the command
    line says otherwise (quick bots settled a card before a person could signal)."""
    import tui.app

    opened: dict[str, Any] = {}

    class App:
        def __init__(self, settings: Any, **kwargs: Any) -> None:
            opened.update(kwargs)

        def run(self) -> None:
            pass

    monkeypatch.setattr(tui.app, "HiddenHandApp", App)
    monkeypatch.setattr(check, "terminal_problem", lambda *_, **__: None)  # (no tty here)
    assert main(argv) == 0
    assert opened["solo"]["options"]["bots"] == bots


def test_help_says_what_a_persons_table_starts_with(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["solo", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "(default quick; solo and the app's forms: relaxed)" in out
    assert "(default strong; solo and the app's forms: casual)" in out


@pytest.mark.parametrize("columns", [50, 80, 132])
def test_help_wraps_the_options_list_one_option_a_line(
    columns: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The description is one paragraph wrapped to the terminal, as argparse wraps it; the
    options list keeps a line per game and per option, a long one wrapped two spaces under
    its own indent (argparse's own wrapping would run the list into one paragraph)."""
    from itertools import pairwise

    import engine
    from tui.cli_arguments import COMMANDS
    from tui.cli_values import settable_options

    width = columns - 2  # argparse's
    monkeypatch.setenv("COLUMNS", str(columns))
    with pytest.raises(SystemExit):
        main(["sim", "--help"])
    out = capsys.readouterr().out
    description = out.split("\n\n")[1].splitlines()
    assert " ".join(description) == " ".join(COMMANDS["sim"][2].split())
    assert len(description) > 1 and max(len(line) for line in description) <= width
    listed = out.split("table options (--option NAME=VALUE, repeatable):\n", 1)[1].splitlines()
    assert max(len(line) for line in listed) <= width
    indents = [len(line) - len(line.lstrip(" ")) for line in listed]
    assert set(indents) == {2, 4, 6} and indents[0] == 2
    assert all(indent != 6 or before in (4, 6) for before, indent in pairwise(indents))
    assert [line.strip() for line, indent in zip(listed, indents, strict=True) if indent == 2] == [
        f"{spec.name} (--game {spec.id}):" for spec in engine.GAMES.values()]
    assert [line.split("=")[0].strip() for line, indent in zip(listed, indents, strict=True)
            if indent == 4] == [o.name for spec in engine.GAMES.values()
                                for o in settable_options(spec)]


def test_review_is_another_name_for_replay(capsys: pytest.CaptureFixture[str]) -> None:
    """The app says "Review" for what ``replay`` does: a player typed ``hiddenhand
    review`` and was told it was no command."""
    with pytest.raises(SystemExit) as exit_info:
        main(["review", "--help"])
    assert exit_info.value.code == 0
    # Its usage and errors say the name it was called by (they said "replay").
    assert capsys.readouterr().out.startswith("usage: hiddenhand review")
    with pytest.raises(SystemExit) as exit_info:
        main(["review", "not-a-game", "extra"])
    assert exit_info.value.code == 2
    assert "hiddenhand review: error: unrecognized arguments: extra" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main(["replay", "--help"])
    assert capsys.readouterr().out.startswith("usage: hiddenhand replay")


def test_data_dir_is_every_command_s(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    """`hiddenhand --data-dir DIR replay 1`, as a box's log says to run it, read the
    user's own games instead; a headless host journaled into the user's dirs."""
    from engine.bots.simulate import simulate
    from net.records import GameStore

    # (main sets these for the run: set here first, they are put back after the test.)
    monkeypatch.setenv("HIDDENHAND_DATA_DIR", str(tmp_path / "elsewhere"))
    monkeypatch.setenv("HIDDENHAND_CONFIG_DIR", str(tmp_path / "elsewhere"))
    box = tmp_path / "box"
    box.mkdir()
    record = simulate("getout", 2, 3, {"match": False}, record=True)["record"]
    with GameStore(box / "games.sqlite3") as store:
        store.add({**record, "started": 100.0, "ended": 200.0})
    assert main(["--data-dir", str(box), "history", "--json"]) == 0
    assert '"game": "getout"' in capsys.readouterr().out
    assert os.environ["HIDDENHAND_DATA_DIR"] == str(box)


@pytest.mark.parametrize(("argv", "message"), [
    (["--data-dir", "FILE", "history"], "--data-dir FILE: that is a file, not a directory"),
    (["host", "--data-dir", "x"], "(--data-dir goes before the command: hiddenhand "
     "--data-dir … host)"),
    (["--player", "Bot 3"], "--player 'Bot 3': the name 'Bot 3' would pass for a bot"),
    (["--player", "\u3164"], "it must show something: it is blank or invisible"),
])
def test_a_data_dir_that_is_a_file_or_a_name_no_host_takes_is_refused_at_once(
        argv: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "FILE").write_text("")
    monkeypatch.chdir(tmp_path)
    assert_usage_error(argv, message, capsys)

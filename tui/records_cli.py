"""``hiddenhand history``, ``replay``, ``export`` and ``import``: the games kept here.

Every game a host of this user finished is in the games database (``net.records``):
``history`` lists them (``--stats``: figures per game and player count), ``replay``
reviews one in the terminal (the last, one by id, or a game file from a friend),
``export`` writes one as a game file and ``import`` keeps a friend's file here. A file is
checked whole (and played through) before anything is kept or shown.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from tui import cli_values as check


def history_arguments(parser: argparse.ArgumentParser) -> None:
    """``history``: which games, and how to print them."""
    parser.add_argument("--game", choices=["getout", "getit", "gotfive"], default=None,
                        help="only this game's")
    # (Bounded: a number past SQLite's integers raised a traceback.)
    parser.add_argument("--seats", type=check.whole_number(
                            1, 99, kind="expected a whole number"),
                        default=None,
                        help="only games with this many seats")
    parser.add_argument("--player", default=None, metavar="NAME",
                        help="only games NAME played (and their figures with --stats)")
    parser.add_argument("--period", choices=["all", "year", "month", "week", "day"],
                        default="all", help="only games that ended in the last ... "
                        "(default all)")
    parser.add_argument("--limit", type=check.whole_number(1, 10**9),
                        default=50,
                        help="at most this many games, newest first (default 50)")
    parser.add_argument("--stats", action="store_true",
                        help="figures per game and player count instead of the games")
    parser.add_argument("--json", action="store_true", help="print JSON for scripts")


def replay_arguments(parser: argparse.ArgumentParser) -> None:
    """``replay``: which game."""
    parser.add_argument("what", nargs="?", default="last", metavar="last|ID|FILE",
                        type=check.named("a game: last, an id or a file"),
                        help="the game that ended last (default), a game's id from "
                        "'hiddenhand history', or a game file (.hhgame)")


def export_arguments(parser: argparse.ArgumentParser) -> None:
    """``export``: which game, to which file."""
    parser.add_argument("what", metavar="last|ID", type=check.named("a game: last or an id"),
                        help="the game (see 'hiddenhand history')")
    parser.add_argument("file", metavar="FILE", type=check.file_name,
                        help="the game file to write (.hhgame)")


def import_arguments(parser: argparse.ArgumentParser) -> None:
    """``import``: the file."""
    parser.add_argument("file", metavar="FILE", type=check.file_name,
                        help="a game file (.hhgame) to keep here")


def _fail(command: str, message: str) -> int:
    print(f"hiddenhand {command}: {shown(message)}", file=sys.stderr)
    return 1


def shown(text: str) -> str:
    """``text`` fit for a terminal: a character that does not print (an escape, a bidi
    override, from a file's name or a game file's move) written as its code, ``\\x1b``."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch == "\n" else ascii(ch)[1:-1] for ch in text)


def _game_id(what: str) -> bool:
    """Whether ``what`` is a game's id: ASCII digits ("²" is a digit to Python, and
    ``int`` refused it with a traceback)."""
    return what.isascii() and what.isdigit()


def kept_games(nothing: str | None = None) -> Any:
    """The games database, to read: ``StoreError`` (``nothing``, or :data:`NOTHING_KEPT`)
    where there is none yet (opened, it was made, empty, by a command that only reads,
    and ``history`` then said "No kept game matches" where nothing was ever kept)."""
    from net.records import GameStore, StoreError, default_path, is_kept

    if not is_kept(default_path()):
        raise StoreError(not_a_folder() or nothing or NOTHING_KEPT)
    return GameStore()


def not_a_folder() -> str | None:
    """Why games cannot be kept where the data dir says, if a file is in the way (a data
    dir under a file read as one where nothing was kept yet)."""
    from net.records import default_path

    folder = default_path().parent
    blocker = next((p for p in [folder, *folder.parents] if _exists(p)), None)
    if blocker is None or blocker.is_dir():
        return None
    return f"cannot keep games in {folder}: {blocker} is a file, not a folder"


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:  # (a folder nobody may read: it is there)
        return True


NOTHING_KEPT = "no game is kept here yet: play one, or open a game file"
#: The same, for ``export`` (a game file is not one to export).
NOTHING_TO_EXPORT = "no game is kept here yet: play one first"


def _chosen(store: Any, what: str) -> dict[str, Any]:
    """The record ``what`` names in ``store`` ("last" or an id)."""
    from net.records import StoreError

    if what == "last":
        last = store.last()
        if last is None:
            raise StoreError(NOTHING_KEPT)
        return dict(store.get(last))
    if not _game_id(what):
        raise StoreError(f"{what!r} is not a game id (a number from 'hiddenhand history')")
    if int(what) > MAX_ID:  # (past SQLite's integers: it raised instead of answering)
        raise StoreError(f"no game {what} is kept here")
    return dict(store.get(int(what)))


#: The largest id a kept game may have (SQLite's integers).
MAX_ID = 2**63 - 1


def run_history(args: argparse.Namespace) -> int:
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from net.records import GameStore, StoreError, default_path, is_kept
    from net.whose import Reader
    from tui.history import (
        FIGURE_HEADERS,
        HEADERS,
        PLAYERS,
        SHORT,
        figures,
        figures_plain,
        figures_rows,
        plain,
        row,
        since,
    )

    # (A name asked for on the command line is that name's games, whoever's they were.)
    player = Reader(args.player) if args.player else None
    try:
        kept = is_kept(default_path())
    except StoreError as exc:
        return _fail("history", str(exc))
    if not kept and (why := not_a_folder()):
        return _fail("history", why)
    if not kept and args.json:  # (for a script: prose there broke its reading)
        print(json.dumps(figures_plain([]) if args.stats else []))
        return 0
    if not kept:
        # ("every game a host of yours ends is (solo, …)" read garbled.)
        print("No games are kept here yet. Games you host are kept as they end (solo, "
              "hosted, 'sim --record'); a game you joined is kept by its host.")
        return 0
    try:
        with GameStore() as store:
            infos = store.games(game=args.game, seats=args.seats, player=player,
                                since=since(args.period),
                                limit=1_000_000 if args.stats else args.limit)
    except StoreError as exc:
        return _fail("history", str(exc))
    found = figures(infos, player) if args.stats else []
    if args.json:
        print(json.dumps(figures_plain(found) if args.stats else [plain(i) for i in infos]))
        return 0
    console = Console()
    narrow = not args.stats and console.width < WIDE_HISTORY
    headers: tuple[str, ...] = (FIGURE_HEADERS if args.stats
                                else HEADERS[:SHORT] if narrow else HEADERS)
    rows = (figures_rows(found) if args.stats
            else [row(info)[:len(headers)] for info in infos])
    if not rows and args.stats:
        # (Figures count finished games a person played here: "No kept game matches"
        # read as wrong beside a list of bots' and unfinished games.)
        print("No figures: they count finished games played here by a person "
              "('hiddenhand history' lists every game kept).")
        return 0
    if not rows:
        print("No kept game matches.")
        return 0
    if args.stats:
        # (Without a name, each game counts for the first person in it: "Every person's
        # figures" read as a list of everyone's, and named nobody.)
        print(f"{args.player}'s figures (games played here, not imported):" if args.player
              else "Figures of the person in each game (games played here, not imported; "
              "--player NAME for one player's):")
    else:
        rows = _players_wrapped(rows, infos, headers, console.width)
    table = Table(*headers, box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for column in table.columns:
        column.no_wrap = column.header in ("id", "ended", "game", "moves", "length",
                                           PLAYERS)
    for r in rows:
        # (As Text: a name is not markup — "[/]" broke the command, "[red]X" coloured
        # itself — and Text drops a control character a name from a file may hold.)
        table.add_row(*(Text(shown(str(v))) for v in r))
    console.print(table)
    if narrow:
        print(f"(Moves and length show in a terminal {WIDE_HISTORY} columns wide, and "
              "with --json.)")
    return 0


#: Below this many columns ``history`` leaves out moves and length, as the app's list
#: does: at 80 the players had 10 columns and every name broke in two.
WIDE_HISTORY = 100


def _players_wrapped(rows: list[tuple[str, ...]], infos: list[Any], headers: tuple[str, ...],
                     width: int) -> list[tuple[str, ...]]:
    """The rows with each players cell in lines that fit the room the other columns leave,
    broken only between players."""
    from rich.cells import cell_len

    from tui.history import PLAYERS, player_entries, wrapped_entries

    at = headers.index(PLAYERS)
    others = sum(max(cell_len(h), *(cell_len(r[i]) for r in rows))
                 for i, h in enumerate(headers) if i != at)
    # (A simple-head table: an edge each side, a divider between columns, a cell of
    # padding each side of a divider.)
    room = width - others - (3 * len(headers) - 1)
    room = max(room, cell_len(PLAYERS))
    return [(*r[:at], wrapped_entries(player_entries(info), room), *r[at + 1:])
            for r, info in zip(rows, infos, strict=True)]


def load(what: str) -> tuple[dict[str, Any], str]:
    """The record ``what`` names (a file if it is one, else from the games database)
    and a word on where it came from; ``StoreError`` in one line."""
    from engine.record import RecordError
    from net.gamefiles import played
    from net.records import StoreError

    path = Path(what)
    if what not in ("last",) and not _game_id(what):
        if not path.exists() and not path.is_symlink():
            raise StoreError(f"{what!r} is no file here, nor a kept game's number ('last', "
                             "or a number that 'hiddenhand history' lists)")
        try:
            # (Shown in the review's title: a name's escapes reached the terminal there.)
            return played(path), f"from {shown(path.name)}"
        except RecordError as exc:  # (which file: the message named only a move)
            raise StoreError(f"{path}: {exc}") from None
    with kept_games() as store:
        record = _chosen(store, what)
    return record, f"game {what}" if what != "last" else "the last game"


def run_replay(args: argparse.Namespace) -> int:
    from engine.record import RecordError
    from net.records import StoreError
    from net.whose import for_review

    try:
        record, where = load(args.what)
        record, replay = for_review(record)
    except (StoreError, RecordError) as exc:
        return _fail(getattr(args, "invoked", "replay"), str(exc))
    if problem := check.terminal_problem(what="the review"):
        return _fail(getattr(args, "invoked", "replay"), problem)
    from tui.review_app import ReviewApp

    ReviewApp(record, replay, where).run()
    return 0


def run_export(args: argparse.Namespace) -> int:
    from net.gamefiles import StoreError, export_game

    if args.file == "-":  # (it wrote a file named "-")
        return _fail("export", "give the game file's name ('-' is no file here)")
    if Path(args.file).is_dir():
        return _fail("export", f"{args.file} is a folder: give the file's name in it "
                     f"({Path(args.file) / 'game.hhgame'})")
    if not Path(args.file).suffix:  # (what replay and import look for)
        args.file += ".hhgame"
    if Path(args.file).exists():
        return _fail("export", f"{args.file} exists already: give another name")
    try:
        with kept_games(NOTHING_TO_EXPORT) as store:
            record = _chosen(store, args.what)
        export_game(record, Path(args.file))
    except StoreError as exc:
        return _fail("export", str(exc))
    print(shown(f"wrote {args.file}: open it with 'hiddenhand replay {args.file}'"))
    return 0


def run_import(args: argparse.Namespace) -> int:
    from engine.record import RecordError
    from net.gamefiles import StoreError, played, read_game_file
    from net.records import GameStore

    path = Path(args.file)
    try:
        # (A file's own result, hand-edited, was replaced by its moves' unsaid; so were
        # times that make no sense, an end before the start.)
        as_written = read_game_file(path)
        record = played(path, as_written)  # a record that does not play is kept nowhere
        written = as_written.get("result")
        timed = as_written.get("started") is not None or as_written.get("ended") is not None
        with GameStore() as store:
            known = store.find(record)
            if known is not None:
                return _fail("import", f"{path}: this game is kept already, as game {known}")
            kept = store.add(record, imported=True)
    except StoreError as exc:
        return _fail("import", str(exc))
    except RecordError as exc:
        return _fail("import", f"{path}: {exc}")
    if written is not None and written != record["result"]:
        print(f"{shown(str(path))}: the result it gives is not the one its moves play to: "
              "kept with the one they play to")
    if timed and record["started"] is None:
        print(f"{shown(str(path))}: its times make no sense (an end before the start, or "
              "later than now): kept without them")
    print(f"kept as game {kept} (a friend's game: in nobody's figures here); "
          f"'hiddenhand replay {kept}' reviews it")
    return 0


RUNS = {"history": run_history, "replay": run_replay, "export": run_export,
        "import": run_import}

"""The past-games screen, the review of a finished game, and the commands around them."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, OptionList, Static

from engine.bots.simulate import simulate
from engine.record import Replay, who
from net.connection import LOCAL_PLAYER
from net.records import GameStore, default_path
from tests.tui_support import make_app, screen_text, until
from tui import cli
from tui.review import names_at, shared_steps, steps
from tui.screens.history import HistoryScreen
from tui.screens.review import ReviewScreen
from tui.widgets.footer import TableFooter

SIZE = (100, 32)


def keep(store: GameStore, game_id: str, seats: int, seed: int,
         names: list[str] | None = None, ended: float = 1_780_000_000.0, *,
         ours: bool = True) -> int:
    """A bot game kept, its seat 0 a person named ``names[0]``: the app's own (``ours``,
    as its host keeps it: ``engine.record.who``) or someone else's."""
    record = simulate(game_id, seats, seed, {}, record=True)["record"]
    if names is not None:
        record["players"] = [{"name": n, "kind": "human" if i == 0 else "bot",
                              **({"who": who(LOCAL_PLAYER)} if i == 0 and ours else {})}
                             for i, n in enumerate(names)]
    return store.add({**record, "started": ended - 60, "ended": ended})


def rendered(renderable: Any, width: int = 80) -> str:
    """What ``renderable`` draws ``width`` cells wide, as plain text."""
    from rich.console import Console

    console = Console(width=width, color_system=None)
    with console.capture() as out:
        console.print(renderable)
    return out.get()


def kept_game(game_id: int) -> tuple[dict[str, Any], Replay]:
    """A kept game's record, and its replay."""
    with GameStore(default_path()) as store:
        record = store.get(game_id)
    return record, Replay(record)


@pytest.fixture
def kept(data_dir: Path) -> list[int]:
    """Three games of Ann's, one of each kind, in the games database."""
    path = default_path()
    path.unlink(missing_ok=True)
    with GameStore(path) as store:
        return [keep(store, "getout", 3, 5, ["Ann", "Bot 2", "Bot 3"], 1.78e9),
                keep(store, "getit", 3, 6, ["Ann", "Bot 2", "Bot 3"], 1.78e9 + 600),
                keep(store, "gotfive", 3, 7, ["Ann", "Bot 2", "Bot 3"], 1.78e9 + 1200)]


async def past_games(pilot: Pilot[Any]) -> HistoryScreen:
    """Open Past games from the menu (``p``)."""
    await pilot.press("p")
    return await until(pilot, lambda: isinstance(pilot.app.screen, HistoryScreen)
                       and pilot.app.screen, "the past games")


async def test_a_tap_anywhere_on_the_chosen_game_reviews_it(kept: list[int]) -> None:
    """A tap on the highlighted row reviewed the game only at the very column the cursor
    was on; elsewhere on the row it did nothing (a pass on a phone). A tap on another
    row chooses it; a tap on it again reviews it."""
    from tui.screens.review import ReviewScreen

    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        screen = await past_games(pilot)
        games = screen.query_one("#history-games", DataTable)
        await until(pilot, lambda: games.row_count == 3, "the games")
        header = 1 if games.show_header else 0
        await pilot.click(games, offset=(30, header + 1))  # the second game: chosen
        await until(pilot, lambda: games.cursor_row == 1, "the second game chosen")
        assert screen is app.screen
        await pilot.click(games, offset=(12, header + 1))  # on it, in another column
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen), "its review")


async def test_past_games_list_ann_s_games_and_enter_reviews_one(kept: list[int]) -> None:
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        screen = await past_games(pilot)
        games = screen.query_one("#history-games", DataTable)
        assert games.row_count == 3
        # The row under the cursor wears a ▸ (its colours alone marked it: no mark in
        # a monochrome terminal), and the mark follows the cursor.
        def marks() -> list[str]:
            return [str(games.get_row_at(i)[0]) for i in range(games.row_count)]

        assert marks() == ["▸", " ", " "]
        await pilot.press("down")
        await until(pilot, lambda: marks() == [" ", "▸", " "], "the mark moved")
        await pilot.press("up")
        await until(pilot, lambda: marks() == ["▸", " ", " "], "the mark back")
        text = screen_text(app)
        assert "Got Five!" in text and "Get It!" in text and "GET OUT!" in text
        figures = screen.query_one("#history-figures", DataTable)
        assert figures.row_count == 3
        await pilot.press("g")  # GET OUT! only
        await until(pilot, lambda: games.row_count == 1, "GET OUT! alone")
        assert "GET OUT!" in screen_text(app)
        await pilot.press("enter")
        review = await until(pilot, lambda: isinstance(app.screen, ReviewScreen) and
                             app.screen, "the review")
        assert review.record["game"] == "getout"
        assert "move 0 of" in screen_text(app) and "everything open" in screen_text(app)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "back in the past games")


async def test_hiddenhand_replay_names_the_seat_keys_of_its_game(kept: list[int]) -> None:
    """The command's review said "1-6 Seat" for a game of 3 (the app's said "1-3")."""
    from tui.review_app import ReviewApp
    from tui.widgets.footer import TableFooter

    record, replay = kept_game(kept[0])
    app = ReviewApp(record, replay)
    async with app.run_test(size=SIZE) as pilot:
        footer = await until(pilot, lambda: app.screen.query(TableFooter)
                             and app.screen.query_one(TableFooter), "the review's footer")
        await until(pilot, lambda: footer.entries, "its keys")
        assert [e.display for e in footer.entries if e.action == "seat(0)"] == ["1-3"]


async def test_someone_else_s_games_show_only_when_asked(data_dir: Path) -> None:
    path = default_path()
    path.unlink(missing_ok=True)
    with GameStore(path) as store:
        keep(store, "getout", 2, 3, ["Bob", "Bot 2"], ours=False)
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        screen = await past_games(pilot)
        assert "No kept game matches" in screen_text(app)
        # Nothing listed: nothing to review or export, and the footer offers neither.
        assert not screen.check_action("review", ()) and "Review" not in screen_text(app)
        await pilot.press("m")
        games = screen.query_one("#history-games", DataTable)
        await until(pilot, lambda: games.row_count == 1, "everyone's games")
        assert "Bob" in screen_text(app)


@pytest.mark.parametrize("columns", [46, 80])
async def test_past_games_show_every_result_winner_and_figure_whole_at_any_width(
        data_dir: Path, columns: int) -> None:
    """At a phone's 46 columns the list was cut at "won, leve" and the figures at "17.6
    po"; at 80 a long name pushed the winner's star out of sight. The players wrap,
    and where the other columns leave them too little a game's cells stack in lines."""
    path = default_path()
    path.unlink(missing_ok=True)
    with GameStore(path) as store:
        keep(store, "getit", 3, 6, ["Ann", "Bot 2", "Bot 3"], 1.78e9)
        keep(store, "gotfive", 4, 7, ["Annabelle Longname", "Bot 2", "Bot 3", "Bot 4"],
             1.78e9 + 600)
        keep(store, "getout", 3, 5, ["Ann", "Bot 2", "Bot 3"], 1.78e9 + 1200)
    app = make_app("Ann")
    async with app.run_test(size=(columns, 40)) as pilot:
        screen = await past_games(pilot)
        games = screen.query_one("#history-games", DataTable)
        await until(pilot, lambda: games.row_count == 3, "the games")
        text = screen_text(app)
        assert all(len(line.rstrip()) <= columns for line in text.splitlines())
        flat = " ".join(text.split())
        for words in ("won, level 6", "Bot 4 won", "Bot 3 won", "Bot 4 ★", "Bot 3 ★",
                      "Ann ★", "Annabelle Longname", "17.6 points a round", "(fewer is better)",
                      "no right GOT FIVE! yet", "cleared up to level 6"):
            assert words in flat, words
        assert ("ended" in text) and (("2026-05-28" in text) == (columns > 46))
        # The cursor and its mark move row by row, the review opens from either.
        await pilot.press("down")
        await until(pilot, lambda: games.cursor_row == 1, "the cursor down")
        assert [str(games.get_row_at(i)[0]) for i in range(3)] == [" ", "▸", " "]
        await pilot.press("enter")
        review = await until(pilot, lambda: isinstance(app.screen, ReviewScreen) and
                             app.screen, "the review")
        assert review.record["game"] == "gotfive"


async def test_the_review_steps_jumps_and_shows_any_seat_s_view(kept: list[int]) -> None:
    record, replay = kept_game(kept[0])
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        screen = ReviewScreen(record, replay)
        await app.push_screen(screen)
        await pilot.press("right", "right")
        assert screen.at == 2
        assert "move 2 of" in screen_text(app)
        listed = screen.query_one(OptionList)
        assert listed.highlighted is not None
        assert listed.get_option_at_index(listed.highlighted).id == "2"
        await pilot.press("left")
        assert screen.at == 1
        await pilot.press("end")
        assert screen.at == len(replay)
        await pilot.press("home")
        assert screen.at == 0
        await pilot.press("right_square_bracket")
        assert screen.at == screen.parts[0] and "round 2 of" in screen_text(app)
        # Seen from seat 2: its own hand, the others' only as counts.
        await pilot.press("2")
        text = screen_text(app)
        assert "seen by 2 Bot 2" in text and "cards (hidden)" in text
        await pilot.press("0")
        assert "cards (hidden)" not in screen_text(app)
        await pilot.press("9")
        assert screen.seat is None
        # A click (or Enter) on a move in the list goes there.
        listed.focus()
        listed.highlighted = 5
        await pilot.press("enter")
        assert screen.at == int(listed.get_option_at_index(5).id or 0)


async def test_play_goes_on_by_itself_until_paused(kept: list[int]) -> None:
    record, replay = kept_game(kept[2])
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        screen = ReviewScreen(record, replay)
        await app.push_screen(screen)
        footer = screen.query_one(TableFooter)

        def says(words: str) -> bool:
            return any(e.description == words for e in footer.entries)

        assert says("Play")
        await pilot.press("space")
        assert "playing" in screen_text(app)
        # (The footer said "space Play" while the review played.)
        await until(pilot, lambda: says("Pause") and not says("Play"), "space pauses")
        await until(pilot, lambda: screen.at >= 2, "two moves played on")
        assert says("Pause")
        await pilot.press("space")
        stopped = screen.at
        assert "playing" not in screen_text(app)
        await until(pilot, lambda: says("Play"), "space plays again")
        await pilot.pause(0.01)
        assert screen.at == stopped


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def markup_names(kept: list[int]) -> None:
    """A kept game's players renamed "[/]" and "[red]X" (as earlier releases let a host
    keep them; no host takes such a name now): read as markup, the first broke Past
    games and the history command, and the second coloured itself."""
    db = sqlite3.connect(default_path())
    with db:
        db.execute("UPDATE players SET name = '[/]' WHERE game_id = ? AND seat = 1",
                   (kept[0],))
        db.execute("UPDATE players SET name = '[red]X' WHERE game_id = ? AND seat = 2",
                   (kept[0],))
    db.close()


async def test_past_games_show_a_name_with_brackets_as_it_is(kept: list[int]) -> None:
    markup_names(kept)
    app = make_app("Ann")
    async with app.run_test(size=(120, 30)) as pilot:
        await past_games(pilot)
        await pilot.press("m")  # every game, not only Ann's
        await until(pilot, lambda: "[/]" in screen_text(app), "the names as they are")
        assert "[red]X" in screen_text(app) and app.is_running


def test_the_history_command_shows_a_name_with_brackets_as_it_is(
        kept: list[int], capsys: pytest.CaptureFixture[str]) -> None:
    markup_names(kept)
    code, out, err = run(["history"], capsys)
    assert code == 0, err
    assert "[/]" in out and "[red]X" in out


def test_the_history_command_at_80_columns_breaks_lines_only_between_players(
        kept: list[int], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At 80 columns the players had 10 of them, and "Bot 3" read as "Bot" and "3"."""
    db = sqlite3.connect(default_path())
    with db:
        db.execute("UPDATE players SET name = 'Bot Number ' || seat WHERE game_id = ?",
                   (kept[0],))
    db.close()
    monkeypatch.setenv("COLUMNS", "80")
    code, out, err = run(["history"], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert max(len(line.rstrip()) for line in lines) <= 80
    assert "moves" not in lines[0] and "in a terminal 100 columns wide" in lines[-1]
    column = lines[0].index("players")  # (no blank line over the table)
    cells = " ".join(line[column:column + 30].strip() for line in lines[2:-1])
    for seat in (0, 1, 2):
        assert f"Bot Number {seat}" in cells
    monkeypatch.setenv("COLUMNS", "120")
    code, out, _ = run(["history"], capsys)
    assert "moves" in out and "length" in out and "columns" not in out


def test_bots_side_by_side_that_did_alike_are_one_entry_in_a_history() -> None:
    """At 80 columns Past games cut "root ★, Bot 2 ★, Bot 3 ★, Bot" at the edge."""
    from net.records import GameInfo
    from tui.history import player_entries

    def info(players: list[str], kinds: list[str], winners: list[int]) -> GameInfo:
        return GameInfo(1, "getit", len(players), 0.0, 1.0, 9, players, kinds, winners,
                        None, {})

    team = info(["root", "Bot 2", "Bot 3", "Bot 4"], ["human", "bot", "bot", "bot"],
                [0, 1, 2, 3])
    assert player_entries(team) == ["root ★", "Bots 2–4 ★"]
    one = info(["Bot 1", "Ann", "Bot 3", "Bot 4", "Bot 5"], ["bot", "human", "bot", "bot", "bot"],
               [3])
    assert player_entries(one) == ["Bot 1", "Ann", "Bot 3", "Bot 4 ★", "Bot 5"]
    # A person who calls themself "Bot 2" is a person; a lone bot keeps its name.
    alike = info(["Ann", "Bot 2", "Bot 3"], ["human", "human", "bot"], [])
    assert player_entries(alike) == ["Ann", "Bot 2", "Bot 3"]


def test_history_entries_wrap_between_entries_never_inside_one() -> None:
    from tui.history import wrapped_entries

    entries = ["Bot 1 ★", "Bot 2", "Ann Marie", "Bo"]
    assert wrapped_entries(entries, 40) == "Bot 1 ★, Bot 2, Ann Marie, Bo"
    assert wrapped_entries(entries, 16) == "Bot 1 ★, Bot 2,\nAnn Marie, Bo"
    assert wrapped_entries(entries, 10) == "Bot 1 ★,\nBot 2,\nAnn Marie,\nBo"
    # A name wider than the room is cut: a name of 40 wide characters (80 cells) took
    # the id, the result and half of every other column of the whole list.
    wide = ["漢" * 40, "Bo"]
    assert wrapped_entries(wide, 16) == "漢" * 7 + "…,\nBo"


def test_a_hostile_game_file_or_argument_gets_one_clean_line(
        kept: list[int], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """What a fresh-eyed pass found: escape sequences from a file's move or its name
    reached the terminal; "²" (a digit to Python) and a huge --seats raised tracebacks;
    a named pipe was waited on for ever; a name of spaces, 90,000 moves of nothing after
    the end, and "by seat 2 … it is seat 0's turn, not seat 1's"."""
    import os

    target = tmp_path / "g.hhgame"
    assert run(["export", str(kept[0]), str(target)], capsys)[0] == 0
    record = json.loads(target.read_text())

    def tried(name: str, change: Any) -> str:
        bad = json.loads(json.dumps(record))
        change(bad)
        path = tmp_path / name
        path.write_text(json.dumps(bad))
        code, _, err = run(["import", str(path)], capsys)
        assert code == 1 and err.count("\n") == 1, err
        return err

    err = tried("\x1b]0;T\x07x.hhgame",
                lambda r: r["moves"][3].__setitem__(1, {"type": "\x1b[2J"}))
    assert "\x1b" not in err and "\x07" not in err and "\\x1b[2J" in err, err
    err = tried("blank.hhgame", lambda r: r["players"][1].update(name="\u3164"))
    assert "player 2's name must show something" in err, err
    # Names no host gives a person, nor two players (a command-line pass: each was kept,
    # and Past games listed "Bot 3" as a person, or "Ann, Ann").
    for i, name in enumerate(("Bot 3", "Вот 3", "Seat 2", "Ann (spectator)",
                              "Bot͏ 3")):
        err = tried(f"reserved{i}.hhgame", lambda r, name=name: r["players"][0].update(
            name=name, kind="human"))
        assert "player 1: the name" in err and "would pass for a bot, a seat or a spectator" \
            in err, err
    err = tried("twins.hhgame", lambda r: (r["players"][0].update(name="Ann", kind="human"),
                                           r["players"][1].update(name="ANN")))
    assert "players 1 and 2 have one name, 'ANN': no host names two players alike" in err, err
    err = tried("after.hhgame", lambda r: r["moves"].append([None, None, 1e6]))
    assert f"move {len(record['moves']) + 1} comes after the game's end" in err, err
    # Who came to move for a seat, named as a host names them ("Bot 9 plays for y").
    err = tried("standin.hhgame", lambda r: r.update(seated=[[3, 1, "Bot 9", "y"]]))
    assert "seated 1: a bot plays for 'y', who is not seat 2's player then" in err, err
    err = tried("back.hhgame", lambda r: r.update(seated=[[3, 1, "Bot 9", None]]))
    assert "seated 1: the name 'Bot 9' would pass for a bot" in err, err
    err = tried("blank2.hhgame", lambda r: r.update(seated=[[3, 1, "  ", None]]))
    assert "seated 1's name" in err, err
    err = tried("turn.hhgame", lambda r: r["moves"][3].__setitem__(
        0, (r["moves"][3][0] + 1) % r["seats"]))
    seat = (record["moves"][3][0] + 1) % record["seats"] + 1
    assert f"by seat {seat})" in err and f"it is seat {seat - 1 or record['seats']}'s turn" \
        in err and "seat 0" not in err, err
    pipe = tmp_path / "pipe.hhgame"
    os.mkfifo(pipe)
    code, _, err = run(["import", str(pipe)], capsys)
    assert code == 1 and "not a regular file" in err, err
    for argv in (["replay", "²"], ["export", "²", str(tmp_path / "y.hhgame")]):
        code, _, err = run(argv, capsys)
        assert code == 1 and ("is not a game id" in err or "no file here" in err), err
    for argv, said in ((["history", "--seats", "9" * 23], "argument --seats: expected 1 to 99"),
                       (["history", "--limit", "9" * 23], "argument --limit: expected 1 to"),
                       (["--data-dir", "", "history"], "give a directory (it was empty)")):
        with pytest.raises(SystemExit):
            run(argv, capsys)
        assert said in capsys.readouterr().err


@pytest.mark.parametrize("damage", [
    "ended = 1e20", "ended = -1e20", "ended = 'abc'", "result = '{bad'", "facts = '{bad'",
    "moves = 'x'", "result = '" + "[" * 100_000 + "'"],
    ids=["huge time", "negative time", "text time", "result", "facts", "moves", "nested"])
def test_a_damaged_entry_in_the_games_database_is_listed_as_far_as_it_reads(
        kept: list[int], capsys: pytest.CaptureFixture[str], damage: str) -> None:
    """A time past what a clock holds or a result that is no JSON raised a traceback in
    every history (its table, --json and --stats alike)."""
    with sqlite3.connect(default_path()) as db:
        db.execute(f"UPDATE games SET {damage} WHERE id = ?", (kept[0],))
    for argv in (["history"], ["history", "--json"], ["history", "--stats"]):
        code, out, err = run(argv, capsys)
        assert code == 0 and not err, err
    code, out, _ = run(["history", "--json"], capsys)
    assert {r["id"] for r in json.loads(out)} == set(kept)


def test_history_export_and_import_from_the_command_line(kept: list[int], tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    code, out, _ = run(["history", "--json"], capsys)
    rows = json.loads(out)
    assert code == 0 and [r["id"] for r in rows] == kept[::-1]
    code, out, _ = run(["history", "--stats"], capsys)  # (nobody named: whose they are)
    assert out.startswith("Figures of the person in each game"), out
    assert rows[0]["players"][0] == {"name": "Ann", "kind": "human", "won": False}
    code, out, _ = run(["history", "--stats", "--player", "ann", "--json"], capsys)
    figures = json.loads(out)
    assert code == 0 and {r["game"] for r in figures} == {"getout", "getit", "gotfive"}
    assert all(r["played"] == 1 for r in figures)
    target = tmp_path / "g.hhgame"
    code, out, _ = run(["export", str(kept[1]), str(target)], capsys)
    assert code == 0 and target.exists() and "hiddenhand replay" in out
    code, _, err = run(["export", str(kept[1]), str(target)], capsys)
    assert code == 1 and "exists already" in err
    # "-" made a file named "-"; a folder, "exists already"; a name with no ending, a
    # file that replay's and import's "(.hhgame)" did not name.
    code, _, err = run(["export", str(kept[1]), "-"], capsys)
    assert code == 1 and "give the game file's name" in err and not Path("-").exists()
    code, _, err = run(["export", str(kept[1]), str(tmp_path)], capsys)
    assert code == 1 and f"{tmp_path} is a folder: give the file's name in it" in err
    code, out, _ = run(["export", str(kept[1]), str(tmp_path / "copy")], capsys)
    assert code == 0 and (tmp_path / "copy.hhgame").exists() and "copy.hhgame" in out
    code, _, err = run(["import", str(target)], capsys)
    assert code == 1 and f"kept already, as game {kept[1]}" in err
    # A friend's copy, its result forged: kept with the result its moves give, and in
    # nobody's figures here.
    record: dict[str, Any] = simulate("getit", 3, 99, {}, record=True)["record"]
    true_result = record["result"]
    record["players"][0] = {"name": "Zed", "kind": "human"}
    record["result"] = {"won": not true_result["won"], "level": 1}
    record["ended"] = 4_000_000_000.0
    friend = tmp_path / "friend.hhgame"
    friend.write_text(json.dumps(record))
    code, out, _ = run(["import", str(friend)], capsys)
    assert code == 0 and "in nobody's figures" in out
    # …and said so (the edit was dropped without a word: a command-line pass).
    assert f"{friend}: the result it gives is not the one its moves play to" in out
    assert f"{friend}: its times make no sense" in out
    code, out, _ = run(["history", "--game", "getit", "--json"], capsys)
    theirs = next(r for r in json.loads(out) if r["imported"])
    assert theirs["result"] == true_result
    assert theirs["ended"] is None  # a time from the future is not kept (and is said)
    # The list says which is a friend's (only the JSON did).
    code, out, _ = run(["history", "--game", "getit"], capsys)
    assert out.count("a friend's") == 1, out
    code, out, _ = run(["history", "--stats", "--player", "Zed", "--json"], capsys)
    assert json.loads(out) == []
    # Said as such: "No kept game matches." beside a list of kept games read as wrong.
    code, out, _ = run(["history", "--stats", "--player", "Zed"], capsys)
    assert code == 0 and out.startswith("No figures: they count finished games played here")
    bad = tmp_path / "bad.hhgame"
    record = json.loads(target.read_text())
    record["moves"][3][1] = {"type": "play"}
    record["moves"].insert(0, [0, {"type": "play"}, 0.0])
    bad.write_text(json.dumps(record))
    before = run(["history", "--json"], capsys)[1]
    code, _, err = run(["import", str(bad)], capsys)
    assert code == 1 and "breaks the rules" in err and err.count("\n") == 1
    assert run(["history", "--json"], capsys)[1] == before
    code, _, err = run(["replay", "12345"], capsys)
    assert code == 1 and "no game 12345 is kept" in err
    # Past SQLite's integers: a traceback (OverflowError) before.
    huge = "9" * 23
    for argv in (["replay", huge], ["export", huge, str(tmp_path / "h.hhgame")]):
        code, _, err = run(argv, capsys)
        assert code == 1 and f"no game {huge} is kept" in err and err.count("\n") == 1, err
    for argv in (["export", "1", ""], ["import", " "], ["replay", ""]):
        with pytest.raises(SystemExit):  # ("cannot read .: Is a directory")
            run(argv, capsys)
        assert "(it was empty)" in capsys.readouterr().err
    # Neither a file nor a number: said so ("cannot read nosuchid: No such file").
    code, _, err = run(["replay", "nosuchid"], capsys)
    assert code == 1 and "'nosuchid' is no file here, nor a kept game's number" in err
    code, _, err = run(["export", "nope", str(tmp_path / "x.hhgame")], capsys)
    assert code == 1 and "not a game id" in err
    # A file that breaks the rules is named (the line named only the move).
    code, _, err = run(["replay", str(bad)], capsys)
    assert code == 1 and err.startswith(f"hiddenhand replay: {bad}: ") and (
        "breaks the rules" in err), err


def test_a_game_file_s_name_reaches_the_review_s_title_as_codes(
        kept: list[int], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``hiddenhand replay`` of a good file whose name holds an escape: the review's title
    sent it to the terminal (the terminal's title changed, the rest turned red)."""
    from tui.records_cli import load

    target = tmp_path / "o\x1b]2;PWNED\x07k.hhgame"
    assert run(["export", str(kept[0]), str(target)], capsys)[0] == 0
    _, where = load(str(target))
    assert where == "from o\\x1b]2;PWNED\\x07k.hhgame", where


@pytest.fixture
def locked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data dir this user may not enter (mode 000, for a user who is not root: what is
    in it cannot even be looked for, and ``Path.exists`` raises); its games database."""
    folder = tmp_path / "locked"
    real = Path.exists

    def exists(self: Path, *args: Any, **kwargs: Any) -> bool:
        if self.is_relative_to(folder) and self != folder:  # (as EACCES from stat says)
            raise PermissionError(13, "Permission denied", str(self))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "exists", exists)
    monkeypatch.setenv("HIDDENHAND_DATA_DIR", str(folder))
    return folder / "games.sqlite3"


def test_a_data_dir_nobody_may_read_is_said_in_words(locked: Path, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    """The commands that read the kept games ended in a traceback (a command-line
    pass)."""
    for argv in (["history"], ["history", "--stats"], ["replay", "1"],
                 ["export", "last", str(tmp_path / "x.hhgame")]):
        code, _, err = run(argv, capsys)
        assert code == 1 and err.count("\n") == 1 and "Traceback" not in err, (argv, err)
        assert f"cannot read the games database {locked}: Permission denied" in err, (
            argv, err)


async def test_past_games_in_a_data_dir_nobody_may_read_say_so(locked: Path) -> None:
    """Past games ended the app in a traceback (and its exit status said all was well)."""
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        screen = await past_games(pilot)
        empty = screen.query_one("#history-empty", Static)
        await until(pilot, lambda: f"cannot read the games database {locked}: Permission "
                    "denied" in str(empty.render()), "the reason")


def test_commands_that_only_read_make_no_database(
        data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`replay` or `export` where nothing was kept made an empty database, and
    `history` then said "No kept game matches." for "No games are kept here yet"."""
    assert not default_path().exists()
    for argv in (["replay"], ["replay", "3"], ["export", "last", str(tmp_path / "x")]):
        code, _, err = run(argv, capsys)
        assert code == 1 and "no game is kept here yet" in err, (argv, err)
        # (A game file is no way to export: said to replay only.)
        assert ("game file" in err) == (argv[0] == "replay"), err
    assert not default_path().exists()
    code, out, _ = run(["history"], capsys)
    assert code == 0 and out.startswith("No games are kept here yet")
    # For a script, what --json says when nothing matches (it printed the prose).
    from tui.history import figures_plain

    assert run(["history", "--json"], capsys)[1] == "[]\n"
    assert json.loads(run(["history", "--stats", "--json"], capsys)[1]) == json.loads(
        json.dumps(figures_plain([])))
    with pytest.raises(SystemExit):
        run(["history", "--seats", "0"], capsys)
    # (Not "argument --seats: --seats must be …": the option once.)
    assert "argument --seats: expected 1 to 99, not 0" in capsys.readouterr().err


def test_a_simulated_game_is_kept_with_its_own_length(
        data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A Get It! game kept by `sim --record` read 00:00 in history: played on simulated
    time, it took none."""
    code, out, err = run(["sim", "getit", "--games", "1", "--seats", "3", "--record",
                          "--no-progress"], capsys)
    assert code == 0, err
    # (One game: "1 games", "seeds 1..1", and a replay that "reviews the first".)
    assert "getit: 1 game, 3 seats, seed 1" in out and "replay 1' reviews it" in out, out
    code, out, _ = run(["history", "--json"], capsys)
    (game,) = json.loads(out)
    assert game["ended"] - game["started"] >= 1.0, game


@pytest.fixture
def utc() -> Iterator[None]:
    """The end times in the pictures are the same on every machine."""
    import os
    import time

    old = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()
    yield
    if old is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = old
    time.tzset()


@pytest.mark.usefixtures("utc")
def test_past_games_picture(kept: list[int], snap_compare: Any) -> None:
    async def open_history(pilot: Any) -> None:
        await pilot.press("p")
        await until(pilot, lambda: isinstance(pilot.app.screen, HistoryScreen) and
                    pilot.app.screen.query_one("#history-games", DataTable).row_count,
                    "the past games")

    assert snap_compare(make_app("Ann"), terminal_size=(80, 24), run_before=open_history)


@pytest.mark.parametrize(("which", "keys", "size"), [
    (1, ["right_square_bracket", "right", "right", "right", "right"], (80, 24)),
    (2, ["right"] * 9 + ["1"], (100, 30)),
])
def test_review_pictures(kept: list[int], snap_compare: Any, which: int, keys: list[str],
                         size: tuple[int, int]) -> None:
    """Get It! all open, a few moves into its second deal; Got Five! from seat 1."""
    with GameStore(default_path()) as store:
        record = store.get(kept[which])
    app = make_app("Ann")

    async def open_review(pilot: Any) -> None:
        await app.push_screen(ReviewScreen(record, Replay(record), title=f"game {which}"))
        await pilot.press(*keys)

    assert snap_compare(app, terminal_size=size, run_before=open_review)


async def test_seen_from_a_seat_the_list_tells_no_card_another_player_drew(
        kept: list[int]) -> None:
    record, replay = kept_game(kept[0])
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        screen = ReviewScreen(record, replay)
        await app.push_screen(screen)
        listed = screen.query_one(OptionList)
        draws = [i for i, s in enumerate(screen.steps) if s.others is not None]
        theirs = next(i for i in draws if screen.steps[i].seat != 0)
        mine = next(i for i in draws if screen.steps[i].seat == 0)

        def line(i: int) -> str:
            return str(listed.get_option_at_index(i).prompt)

        assert "drew a card" not in line(theirs)  # everything open: the card is named
        await pilot.press("1")
        assert line(theirs).endswith("drew a card") and "drew a card" not in line(mine)
        await pilot.press("0")
        assert "drew a card" not in line(theirs)


async def test_a_click_on_the_footer_s_seat_key_goes_round_the_seats(kept: list[int]) -> None:
    """By mouse only seat 1 could be chosen: "1-3 Seat" pressed 1 at every click."""
    record, replay = kept_game(kept[0])
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        screen = ReviewScreen(record, replay)
        await app.push_screen(screen)
        footer = screen.query_one(TableFooter)
        seats = len(screen.names)
        seen = []
        for _ in range(seats + 1):
            await until(pilot, lambda: footer.entries and any(
                e.action == "seat(0)" for e in footer.entries), "the seat key")
            index = next(i for i, e in enumerate(footer.entries) if e.action == "seat(0)")
            x = next(x for x in range(footer.size.width) if footer.entry_at(x) == index)
            await pilot.click(footer, offset=(x, 0))
            await pilot.pause()
            seen.append(screen.seat)
        assert seen == [*range(seats), 0]


async def test_one_game_s_measure_is_plotted_game_by_game(data_dir: Path) -> None:
    from textual.widgets import Sparkline

    path = default_path()
    with GameStore(path) as store:
        for seed in range(3):
            keep(store, "getit", 3, seed, ["Ann", "Bot 2", "Bot 3"], 1.78e9 + seed)
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        screen = await past_games(pilot)
        plot = screen.query_one("#history-trend", Sparkline)
        assert not plot.display  # every game at once: no one measure to plot
        await pilot.press("g", "g")  # Get It!
        await until(pilot, lambda: plot.display, "the plot")
        assert len(list(plot.data or [])) == 3
        assert "levels cleared" in screen_text(app)


async def test_past_games_that_cannot_be_read_show_no_empty_plot(data_dir: Path) -> None:
    """An unreadable store showed its words under a bare line of ▁, the plot of nothing
    (a fresh-eyed pass)."""
    from textual.widgets import Sparkline

    path = default_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"not a database" * 100)
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        screen = await past_games(pilot)
        await until(pilot, lambda: "cannot open the games database" in screen_text(app),
                    "the words")
        assert not screen.query_one("#history-trend", Sparkline).display
        assert "▁▁▁" not in screen_text(app)


async def test_a_summary_gone_before_its_game_is_kept_offers_nothing_and_stays_quiet(
        tmp_path: Path) -> None:
    """The bots race on: the summary of a game can be taken down before the game is
    written. That must not cancel the write, nor the record arriving then reach for
    the summary's buttons."""
    from concurrent.futures import Future

    from textual.app import App

    from tui.screens.summary import SummaryScreen

    kept: Future[int | None] = Future()
    summary = SummaryScreen("Over", ["body"], [])
    summary.offer_review(tmp_path / "games.sqlite3", kept)
    app: App[None] = App()
    async with app.run_test() as pilot:
        await app.push_screen(summary)
        await pilot.pause()
        summary.dismiss(None)
        await pilot.pause()
        assert not kept.cancelled()  # the write goes on, whatever the summary does
        kept.set_result(7)
        await pilot.pause()
        assert app.is_running


async def test_a_game_not_kept_says_why_where_its_review_would_be(tmp_path: Path) -> None:
    """A damaged games database: the summary's Review was simply missing, and why only in
    a log the player never sees."""
    from concurrent.futures import Future

    from textual.app import App

    from tests.tui_support import Notices
    from tui.screens.summary import SummaryScreen

    kept: Future[int | None] = Future()
    summary = SummaryScreen("Over", ["body"], [])
    summary.offer_review(tmp_path / "games.sqlite3", kept, lambda: "it is damaged")
    app: App[None] = App()
    notices = Notices()
    async with app.run_test(message_hook=notices) as pilot:
        await app.push_screen(summary)
        kept.set_result(None)
        await until(pilot, lambda: notices.messages(), "the word")
        assert notices.messages() == ["This game is not kept in Past games: it is damaged"]
        assert not summary.query("#review")


def test_a_draw_after_the_pile_was_turned_over_keeps_both_lines() -> None:
    """The drawer's line names the card and still says the pile was turned over; the
    others read the same two events without the card (a fresh player saw "Bob drew
    Geoff 1 · Bob drew a card" and no turnover)."""
    from tui.review import steps

    for seed in range(40):
        record = simulate("getout", 2, seed, {"match": False}, record=True)["record"]
        replay = Replay(record)
        turned = [k for k, events in enumerate(replay.events, 1)
                  if [e["type"] for e in events][:2] == ["recycled", "drew"]]
        if turned:
            break
    else:
        pytest.fail("no draw after a turnover in 40 seeded rounds")
    step = next(s for s in steps(record, replay) if s.number == turned[0])
    assert step.text.startswith("The played pile (") and "drew a card" not in step.text
    assert " drew " in step.text.split(" · ")[1]
    others = step.seen_by(1 - step.seat)
    assert others.startswith("The played pile (") and others.endswith("drew a card")


def test_a_getout_hand_played_out_says_so_from_its_own_seat_and_others() -> None:
    from rich.console import Console

    from tui.review_position import Position, draw

    view = {"round": 1, "call": None, "draw_count": 0, "turn": None, "scores": [0, 5],
            "hand": [], "hand_counts": [0, 3], "history": []}
    def plain(position: Position, width: int = 80) -> str:
        console = Console(width=width, color_system=None)
        with console.capture() as out:
            console.print(draw(position))
        return out.get()

    mine = plain(Position("getout", view, 0, ["Ann", "Bob"]))
    assert mine.count("no cards left") == 1 and "3 cards (hidden)" in mine
    theirs = plain(Position("getout", {**view, "hand": [{"id": 1, "image": "geoff",
                                                         "value": 1, "wild": False}]},
                            1, ["Ann", "Bob"]))
    assert "no cards left" in theirs
    # A hand too long for its line wraps under itself, never inside a card's name.
    hand = [{"id": i, "image": "tea_picker", "value": i, "wild": False} for i in range(1, 7)]
    lines = plain(Position("getout", {**view, "hand": hand}, 0, ["Ann", "Bob"]), 30)
    lines = lines.splitlines()
    assert all("Tea Picker" in line for line in lines if "Tea" in line), lines
    at = next(i for i, line in enumerate(lines) if "Tea" in line)
    assert lines[at + 1].startswith("     Tea Picker"), lines


def test_a_narrow_review_wraps_between_phrases_never_inside_one() -> None:
    """At a phone's width a review read "round 6 of 6 (] next) · everything" / "open",
    "· 44" / "to draw", "3" / "Bot 3", and in the points by round "Bot" / "4 38"."""
    from tui.review_position import Position, draw
    from tui.widgets.wrapped import Phrases

    where = ("move 211 of 211 · round 6 of 6 (] next) · everything open · space plays · "
             "⇧↓ more below")
    assert rendered(Phrases(where), 41).splitlines() == [
        "move 211 of 211 · round 6 of 6 (] next) ·", "everything open · space plays ·",
        "⇧↓ more below"]
    top = "Review: GET OUT! · 1 Bot 1, 2 Bot 2, 3 Bot 3 · Bot 3 won"
    assert rendered(Phrases(top, indent=8), 30).splitlines() == [
        "Review: GET OUT! · 1 Bot 1,", "        2 Bot 2, 3 Bot 3 ·", "        Bot 3 won"]
    # A phrase longer than the line breaks at its spaces; a word longer, cut.
    assert rendered(Phrases("a very long phrase of words · x"), 10).splitlines() == [
        "a very", "long", "phrase of", "words · x"]
    assert rendered(Phrases("unbreakable-word"), 8).splitlines() == ["unbreak…"]
    # A short phrase before a long one shares its line ("▸ Seats 2," stood alone).
    waits = ("▸ Seats 2, 3 and 4 are empty: wait for friends or put a bot in (^b); then "
             "you (★) start the game (^s).")
    assert rendered(Phrases(waits), 47).splitlines() == [
        "▸ Seats 2, 3 and 4 are empty: wait for friends", "or put a bot in (^b);",
        "then you (★) start the game (^s)."]
    names = ["Bot 1", "Bot 2", "Bot 3", "Bot 4"]
    view = {"round": 2, "call": {"id": 5, "image": "tea_picker", "value": 3, "wild": False},
            "draw_count": 44, "turn": 0, "scores": [0, 39, 25, 38], "hand": [],
            "hand_counts": [4, 4, 4, 4], "history": [[0, 39, 25, 38]],
            "out": [False] * 4, "limit": 100}
    lines = rendered(draw(Position("getout", view, 0, names)), 41).splitlines()
    assert lines[:2] == ["Round 2 · call card Tea Picker 3 ·", "44 to draw"], lines
    r1 = lines.index("  r1: Bot 1 0  Bot 2 39  Bot 3 25")
    assert lines[r1 + 1] == "      Bot 4 38", lines


def test_a_getout_player_out_of_the_match_reads_so_not_as_a_round_won() -> None:
    """A player out of the match holds no cards: "no cards left" under their name read
    as a round won."""
    from rich.console import Console

    from tui.review_position import Position, draw

    view = {"round": 3, "call": None, "draw_count": 20, "turn": 0, "scores": [40, 105, 12],
            "hand": [], "hand_counts": [4, 0, 0], "history": [], "out": [False, True, False],
            "limit": 100}
    for seat in (0, None):
        console = Console(width=80, color_system=None)
        with console.capture() as out:
            console.print(draw(Position("getout", view, seat, ["Ann", "Bob", "Cy"],
                                        open={"hands": [[], [], []]} if seat is None
                                        else None)))
        text = out.get()
        bob = text.split("Bob", 1)[1].split("Cy", 1)[0]
        assert "out of the match (over 100)" in bob and "no cards left" not in bob, text
        assert "out of the match" not in text.split("Cy", 1)[1], text
        assert "out of the match" not in text.split("Bob", 1)[0], text  # (Ann is in)
    # The rounds after Bob went out read "out", not a 0 (the round winner's score).
    view = {**view, "history": [[40, 105, 12], [0, 0, 30]]}
    console = Console(width=80, color_system=None)
    with console.capture() as out:
        console.print(draw(Position("getout", view, 0, ["Ann", "Bob", "Cy"])))
    text = out.get()
    assert "r1: Ann 40  Bob 105  Cy 12" in text and "r2: Ann 0  Bob out  Cy 30" in text, text
    # Put out by the last round, Bob still holds its cards: laid open, they show (the
    # end of a review hid the losers' cards under "everything open").
    geoff = {"id": 7, "image": "geoff", "value": 12, "wild": False}
    view = {**view, "hand_counts": [4, 1, 0]}
    console = Console(width=80, color_system=None)
    with console.capture() as out:
        console.print(draw(Position("getout", view, None, ["Ann", "Bob", "Cy"],
                                    open={"hands": [[], [geoff], []]})))
    bob = out.get().split("Bob", 1)[1].split("Cy", 1)[0]
    assert "out of the match (over 100)" in bob and "Geoff 12" in bob, bob


def test_a_move_wraps_under_its_words_never_inside_a_cards_name() -> None:
    from rich.console import Console

    from tui.widgets.wrapped import HangingLine

    console = Console(width=24, color_system=None)
    with console.capture() as out:
        console.print(HangingLine("   3", "Ann drew Tea Picker 8 and Bot 2 played GET OUT! 4"))
    lines = out.get().splitlines()
    assert lines[0].startswith("   3  Ann drew"), lines
    assert all(line.startswith("      ") for line in lines[1:]), lines
    joined = " ".join(" ".join(lines).split())
    assert joined == "3 Ann drew Tea Picker 8 and Bot 2 played GET OUT! 4"
    assert all(not line.rstrip().endswith(("Tea", "GET", "Picker", "Bot")) for line in lines)


def marked_gotfive_record(crosses: int = 0) -> tuple[dict[str, Any], dict[str, int]]:
    """A Got Five! game of three in which Ann (seat 0) marks her board before and after
    the first clue, then Bo and Cy call GOT FIVE! wrongly (Ann wins): its record, and
    numbers to look for: ``crossed`` (Ann's own ✗, on a number she sees nowhere),
    ``circled`` (her ○, her own first tile), ``seen`` (a number on Bo's rack, which
    auto-cross keeps crossed on her board). ``crosses``: as many more ✗ before the
    first, as a range crossed with one key makes them."""
    import engine
    from engine.gotfive import GotFive
    from engine.record import Tape

    game = engine.new_game("gotfive", seats=3, seed=7, options={"first": 0})
    assert isinstance(game, GotFive)
    tape = Tape("gotfive", 3, 7, game.options,
                [{"name": n, "kind": "human"} for n in ("Ann", "Bo", "Cy")])
    mine = game.racks[0]
    unseen = [n for n in range(1, 61) if n not in game.visible_to(0) and n not in mine]
    numbers = {"crossed": unseen[0], "circled": mine[0], "seen": game.racks[1][0]}

    def act(seat: int, action: dict[str, Any]) -> None:
        now = float(len(tape.moves) + 1)
        game.act(seat, action, now=now)
        tape.act(seat, action, now)

    for n in unseen[1:1 + crosses]:
        act(0, {"type": "mark", "n": n, "mark": "cross"})
    act(0, {"type": "mark", "n": numbers["crossed"], "mark": "cross"})
    act(0, {"type": "mark", "n": numbers["circled"], "mark": "circle"})
    act(0, {"type": "reveal", "colour": 0})
    act(0, {"type": "sort", "tile": game.public[0]})
    act(0, {"type": "mark", "n": unseen[1], "mark": "cross"})
    act(1, {"type": "announce", "numbers": [1, 2, 3, 4, 5]})
    act(2, {"type": "announce", "numbers": [1, 2, 3, 4, 6]})
    assert game.over
    return tape.record(game, started=0.0, ended=60.0), numbers


async def test_a_got_five_review_draws_a_board_s_glyphs_as_the_table_does(
        data_dir: Path) -> None:
    """A number auto-cross kept crossed is '-' at the table (on a monochrome terminal ×
    and ✗ looked alike), but the review drew it ✗, as the player's own cross: every
    number on another rack read as crossed off by hand."""
    record, numbers = marked_gotfive_record()
    app = make_app("Ann")
    async with app.run_test(size=(130, 40)) as pilot:
        screen = ReviewScreen(record, Replay(record))
        await app.push_screen(screen)
        await pilot.press("1", "end")
        text = screen_text(app)
        assert "Ann's board:" in text
        assert f"✗{numbers['crossed']:>2}" in text
        assert f"○{numbers['circled']:>2}" in text
        assert f"-{numbers['seen']:>2}" in text and f"✗{numbers['seen']:>2}" not in text


async def test_a_got_five_review_counts_moves_not_board_marks(data_dir: Path) -> None:
    """A mark on one's own board is a private note, not a move, but the review numbered
    each mark in its list and counted it ('move 2 of 7' for a game of four moves): the
    list numbers the moves alone (a mark stays in it, unnumbered), the count is of moves,
    and play goes from move to move."""
    record, numbers = marked_gotfive_record()
    app = make_app("Ann")
    async with app.run_test(size=(130, 40)) as pilot:
        screen = ReviewScreen(record, Replay(record))
        await app.push_screen(screen)
        await until(pilot, lambda: "move 0 of 4 ·" in screen_text(app), "four moves")
        listed = screen.query_one(OptionList)
        heads = [str(listed.get_option_at_index(i).prompt).split()[0]
                 for i in range(listed.option_count)]
        # Two marks, a reveal and its clue, a mark, two calls of GOT FIVE!.
        assert heads == ["·", "·", "1", "2", "·", "3", "4"]
        await pilot.press("right")
        assert (f"move 0 of 4, then Ann marked {numbers['crossed']} ✗ ·"
                in screen_text(app))
        await pilot.press("right")
        assert (f"move 0 of 4, then Ann marked {numbers['circled']} ○ ·"
                in screen_text(app))
        await pilot.press("left")
        await pilot.press("right", "right")
        text = screen_text(app)
        assert screen.at == 3 and "move 1 of 4 ·" in text and "marked their board" not in text
        await pilot.press("end")
        assert "move 4 of 4 ·" in screen_text(app)
        await pilot.press("home", "space")
        await until(pilot, lambda: screen.at > 0, "play")
        assert screen.at == 3  # the first move, past the marks


def test_a_getout_review_gives_a_named_get_out_call_a_line_of_its_own() -> None:
    """"Round 2 · call card GET OUT! naming ⬟ Samantha · 2 to draw" wrapped at 80
    columns, the count of cards to draw alone on the next line."""
    from rich.console import Console

    from tui.review_position import Position, getout_position

    wild = {"id": 56, "image": None, "value": None, "wild": True}
    view = {"round": 2, "call": wild, "image": "samantha", "draw_count": 2, "turn": 0,
            "scores": [0, 0], "hand_counts": [3, 4], "hand": []}
    console = Console(width=48, record=True, color_system=None)
    console.print(getout_position(Position("getout", view, 1, ["Ann", "Bo"])))
    lines = console.export_text().splitlines()
    assert lines[:2] == ["Round 2 · 2 to draw", "call card GET OUT! naming ⬟ Samantha"]
    view = {**view, "call": {"id": 3, "image": "kevin", "value": 13, "wild": False}}
    console.print(getout_position(Position("getout", view, 1, ["Ann", "Bo"])))
    assert "Round 2 · call card Kevin 13 · 2 to draw" in console.export_text()


def test_a_range_of_marks_made_with_one_key_is_one_step_of_a_review() -> None:
    """``<`` crosses a range of cells, a mark each: the review showed six steps, one
    key each, for one key at the table. Marks in a row of one kind by one seat are one
    step now, at the last of them; a mark of another kind is a step of its own."""
    from tui.review import steps

    record, numbers = marked_gotfive_record(crosses=3)
    crossed = [n for _, action, _ in record["moves"][:3] for n in [action["n"]]]
    lines = [(s.number, s.text) for s in steps(record, Replay(record))]
    assert lines[0] == (
        4, f"Ann marked {crossed[0]}, {crossed[1]}, {crossed[2]} and {numbers['crossed']} "
           "✗ on their board")
    assert lines[1] == (5, f"Ann marked {numbers['circled']} ○ on their board")
    first = steps(record, Replay(record))[0]
    every = [*crossed, numbers["crossed"]]
    assert first.brief == f"Ann marked 4 ✗ ({min(every)} to {max(every)})"


@pytest.mark.parametrize("columns", [40, 45, 60])
async def test_a_got_five_review_at_a_phone_s_width_shows_whole_racks_and_boards(
        data_dir: Path, columns: int) -> None:
    """At 40 columns a review's racks and boards were cut at the right edge (a board
    showed 1 to 40, a rack its first three positions): they now come in rows, as the
    table's do."""
    record, _ = marked_gotfive_record()
    app = make_app("Ann")
    async with app.run_test(size=(columns, 80)) as pilot:
        screen = ReviewScreen(record, Replay(record))
        await app.push_screen(screen)
        await pilot.press("end")
        await until(pilot, lambda: "Ann's board:" in screen_text(app), "the boards")
        text = screen_text(app)
        board = text.split("Ann's board:", 1)[1].split("2 Bo", 1)[0]
        assert all(f"{n:>2} " in board or board.rstrip().endswith(f"{n:>2}")
                   or f"{n:>2}  " in board for n in (1, 30, 31, 56, 60)), board
        rack = text.split("1 Ann", 1)[1].split("Ann's board:", 1)[0]
        assert all(f" {k} " in rack for k in range(1, 6)) and "n5" in rack, rack


@pytest.mark.parametrize("columns", [40, 60, 80])
async def test_a_review_s_footer_keeps_esc_in_sight(data_dir: Path, columns: int) -> None:
    """At 40 columns Textual's footer cut the review's keys at the edge, unsaid: Esc
    (the way out) was off the screen. The stepping keys stay, Esc stays, the others
    give way."""
    from tui.widgets.footer import TableFooter

    record, _ = marked_gotfive_record()
    app = make_app("Ann")
    async with app.run_test(size=(columns, 30)) as pilot:
        screen = ReviewScreen(record, Replay(record))
        await app.push_screen(screen)
        footer = screen.query_one(TableFooter)
        await until(pilot, lambda: "esc Close" in screen_text(app).splitlines()[-1],
                    "Esc in the footer")
        line = screen_text(app).splitlines()[-1]
        assert "←→ Step" in line and "›" not in line
        assert footer.entries[0].name == "step"
        if columns == 80:  # A click on it steps forward (it stepped back: from the start,
            # nothing; a web pass). ("Step" is the first entry.)
            assert screen.at == 0
            start, _end = footer.entry_region(0)
            await pilot.click(TableFooter, offset=(start + 1, 0))
            await until(pilot, lambda: screen.at == 1, "a step forward")
        # The seat keys are named where the footer has no room for them.
        seats = len(record["players"])
        where = str(screen.query_one("#review-where", Static).content)
        shown = [e.name for e in footer.entries]
        assert "seat" in shown or f"(0 all, 1-{seats} a seat)" in where, (line, where)
        assert "play" in shown or "space plays" in where, (line, where)
        assert "part" in shown or "(] next)" in where, (line, where)
        # The position is taller than its room here: its scroll key is shown or named.
        assert screen.check_action("scroll_position", ())
        assert "scroll_position" in shown or "⇧↓ more below" in where, (line, where)
        if columns >= 80:  # (every key fits at 80: the scroll was the first to go)
            assert "scroll_position" in shown and "part" in shown, line


@pytest.mark.parametrize("columns", [40, 60])
async def test_a_getout_review_at_a_phone_s_width_shows_every_card_whole(
        data_dir: Path, columns: int) -> None:
    """Beside the move list at 40 columns a hand's column was 9 cells wide: "Geoff 11"
    read "Geoff 1", another card. Narrower than the position needs, the moves go under
    it, and every card of the seat's hand is there whole."""
    from tui.games.getout.card import card_label

    record = simulate("getout", 3, 4, {"match": False}, record=True)["record"]
    replay = Replay(record)
    app = make_app("Ann")
    async with app.run_test(size=(columns, 30)) as pilot:
        screen = ReviewScreen(record, replay)
        await app.push_screen(screen)
        for _ in range(3):
            await pilot.press("right")
        await pilot.press("2")
        hand = [card_label(c) for c in replay.game_at(3).view(1)["hand"]]
        await until(pilot, lambda: screen.seat == 1 and screen.at == 3, "seat 2, move 3")
        await pilot.pause()
        text = " ".join(line.strip() for line in screen_text(app).splitlines())
        assert screen.has_class("stacked")
        assert all(label in text for label in hand), (hand, screen_text(app))


def test_a_get_it_review_shows_a_hand_being_arranged_as_its_holder_saw_it() -> None:
    """Laid open, a review showed the hands in their dealt order ("39 6 19", a special
    on top), where the game showed each player theirs in order; seen from another seat,
    that seat's hidden card read "(your own card)" beside "1 Ann (you)"."""
    import engine
    from engine.getit import SPECIAL_KINDS
    from tui.games.getit.text import card_short
    from tui.review_position import getit_position, position_of

    game = engine.new_game("getit", 3, seed=2, options={"level": 3})
    names = ["Ann", "Bob", "Cy"]
    text = rendered(getit_position(position_of(game, None, names)))
    for seat in range(3):
        hand = game.view(seat)["hand"]
        assert "to arrange: " + " ".join(card_short(c) for c in hand) in text, text
        assert hand[0].get("kind") not in SPECIAL_KINDS
    # Once a seat has arranged, its line says so (it read "to arrange" to the round).
    game.act(1, {"type": "arrange", "pile": [c["id"] for c in game.view(1)["hand"]]})
    text = rendered(getit_position(position_of(game, None, names)))
    bob = text.split("2 Bob", 1)[1].split("3 Cy", 1)[0]
    assert "arranged, top first: " + " ".join(
        card_short(c) for c in game.view(1)["hand"]) in bob and "to arrange" not in bob
    assert "to arrange: " in text.split("3 Cy", 1)[1]
    for s in (0, 2):  # each pile as shown (numbers up, specials under them)
        game.act(s, {"type": "arrange", "pile": [c["id"] for c in game.view(s)["hand"]]})
    game.act(0, {"type": "look", "target": 1}, now=game.now)
    seen_from_bob = rendered(getit_position(position_of(game, 1, names,
                                                        yours=frozenset({0}))))
    assert "(their own card)" in seen_from_bob
    assert "(your own card)" not in seen_from_bob
    # Ann's look at Bob, seen from Bob's seat by Ann: not "looks at YOU" beside "(you)".
    assert "YOU" not in seen_from_bob and "looks at 2 Bob" in seen_from_bob
    # Bob reading his own seat: Ann looks at him.
    assert "looks at YOU" in rendered(getit_position(position_of(game, 1, names)))


def test_a_get_it_review_s_deal_names_no_key() -> None:
    """A deal read "arrange your pile. New: + ◉ eyes — look past whoever shows them
    (look, then x)" in a review: the live log's lesson, keys and all."""
    from tui.review import steps

    record = simulate("getit", 3, 5, {"level": 3}, record=True)["record"]
    deals = [s.text for s in steps(record, Replay(record)) if "cards dealt" in s.text]
    assert deals and all("arrange" not in t and "New:" not in t and "(" not in t
                         for t in deals), deals
    assert deals[0].endswith("Level 4, attempt 1: cards dealt"), deals


def test_a_name_longer_than_the_move_list_is_cut_with_an_ellipsis() -> None:
    """"WWWW…" showed 20 W's and no "…": two names sharing a start read as one."""
    from rich.console import Console

    from tui.widgets.wrapped import HangingLine

    console = Console(width=24, color_system=None)
    with console.capture() as out:
        console.print(HangingLine("  12", "W" * 40 + " played Geoff 3"))
    first = out.get().splitlines()[0]
    assert first.endswith("…") and len(first) == 24, first


async def test_the_move_shown_is_marked_without_colour(data_dir: Path) -> None:
    """It was marked by colour and bold alone: the list's highlight is drawn in colours,
    and the reverse asked for was dropped there."""
    record = simulate("getout", 2, 3, {"match": False}, record=True)["record"]
    app = make_app("Ann")
    async with app.run_test(size=(100, 30)) as pilot:
        screen = ReviewScreen(record, Replay(record))
        await app.push_screen(screen)
        await pilot.press("right", "right")
        moves = screen.query_one(OptionList)
        await until(pilot, lambda: moves.highlighted is not None, "a move shown")
        style = moves.get_visual_style("option-list--option",
                                       "option-list--option-highlighted")
        assert style.bold and style.underline, style


async def test_another_seat_keeps_the_move_shown_in_sight(data_dir: Path) -> None:
    """Seen from another seat the list's lines took other heights, and the move shown
    was scrolled off (the list showed moves 172-184 at move 166)."""
    record = simulate("getout", 4, 1, {}, record=True)["record"]
    app = make_app("Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = ReviewScreen(record, Replay(record))
        await app.push_screen(screen)
        await pilot.press("end", "left_square_bracket", "left_square_bracket", "right")
        for seat in ("2", "4", "1", "3", "0"):
            await pilot.press(seat)
            head = f"{screen.moves_by(screen.at):>4}  "
            await until(pilot, lambda h=head: any(
                h in line.split("▊", 1)[1] for line in screen_text(app).splitlines()
                if "▊" in line), f"move {head} in sight, seat {seat}")


def test_a_player_s_points_a_round_count_only_the_rounds_they_played() -> None:
    """Rounds after a player was out counted as 0-point rounds: 12.8 for 16.6."""
    from net.records import GameInfo
    from net.whose import Reader
    from tui.history import figures

    def match(scores: list[int], played: list[int] | None) -> GameInfo:
        result = {"winners": [0], "scores": scores, "rounds": 8,
                  **({"played": played} if played is not None else {})}
        return GameInfo(1, "getout", 3, 0.0, 1.0, 90, ["Ann", "Bo", "Cy"],
                        ["human", "human", "human"], [0], result, {})

    bo = Reader("Bo")
    assert figures([match([40, 102, 60], [8, 6, 8])], bo)[0].more.startswith("17.0 points")
    # A result kept before it said so: the match's rounds, as before.
    assert figures([match([40, 102, 60], None)], bo)[0].more.startswith("12.8 points")


async def test_a_review_s_position_names_who_sat_where_then(data_dir: Path) -> None:
    """Stepping onto the moves a bot made for Bob, the seats read "Bob": only the list
    of moves said a bot played (a fresh-eyed pass of a LAN party)."""
    record = simulate("getout", 2, 5, {"match": False, "first": 0}, record=True)["record"]
    record["players"] = [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "human"}]
    record["seated"] = [[2, 1, "Bot 2", "Bob"], [4, 1, "Bob", None]]
    # (Move 3 is the bot's first, after two moves; Bob is back after four.)
    assert names_at(["Ann", "Bob"], record["seated"], 2) == ["Ann", "Bob"]
    assert names_at(["Ann", "Bob"], record["seated"], 3) == ["Ann", "Bot 2 for Bob"]
    assert names_at(["Ann", "Bob"], record["seated"], 4) == ["Ann", "Bot 2 for Bob"]
    assert names_at(["Ann", "Bob"], record["seated"], 5) == ["Ann", "Bob"]
    assert names_at(["Ann", "Bob"], [[1, 7, "X", None], "?"], 3) == ["Ann", "Bob"]
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        screen = ReviewScreen(record, Replay(record))
        await app.push_screen(screen)
        await pilot.press("right", "right", "right")
        await until(pilot, lambda: "Bot 2 for Bob" in rendered(screen.draw_position(), 100),
                    "the bot in the seats")
        await pilot.press("right", "right")
        await until(pilot, lambda: "Bot 2" not in rendered(screen.draw_position(), 100),
                    "Bob back")


def test_a_review_names_each_move_by_whoever_made_it_for_its_seat() -> None:
    """A bot standing in, the person back, a new name: the moves are theirs, and a
    review shared over the table says the same (Past games named every move by who
    sat down at the start)."""
    record = simulate("getout", 2, 5, {"match": False, "first": 0}, record=True)["record"]
    assert len(record["moves"]) > 8
    record["players"] = [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "human"}]
    record["seated"] = [[2, 1, "Bot 2", "Bob"], [4, 1, "Bob", None], [6, 1, "Robert", None]]
    lines = [s.text for s in steps(record, Replay(record))]
    assert lines[0].startswith("Ann ") and lines[1].startswith("Bob ")
    assert lines[3].startswith("Bot 2 plays for Bob until they are back · Bot 2 ")
    assert lines[5].startswith("Bob is back · Bob ")
    assert lines[7].startswith("Bob is now called Robert · Robert ")
    assert all(not line.startswith(("Bot 2", "Robert")) for line in lines[:3])
    assert lines[2].startswith("Ann ") and lines[4].startswith("Ann ")
    # The same lines from the moves a host's shared review sends, with its ``seated``.
    shared = [{"n": k, "seat": seat, "time": now, "action": action, "events": events}
              for k, ((seat, action, now), events) in enumerate(
                  zip(record["moves"], Replay(record).events, strict=True), 1)]
    said = [s.text for s in shared_steps("getout", ["Ann", "Bob"], shared,
                                         record["seated"])]
    # (Another's draw says no card there: the first two words are the mover's.)
    assert [line.split()[:2] for line in said[:8]] == [line.split()[:2] for line in lines[:8]]
    assert said[3].startswith("Bot 2 plays for Bob until they are back · Bot 2 ")
    assert said[7].startswith("Bob is now called Robert · Robert ")
    # Nonsense in it is passed over, never a crash.
    assert shared_steps("getout", ["Ann", "Bob"], shared, [[1, 9, "X", None], "x", None])


def test_a_data_dir_under_a_file_is_said_so_not_read_as_empty(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """history said "No games are kept here yet" (exit 0), replay and export "no game is
    kept here yet", for a data dir that could not exist: a file was in its way (a
    command-line pass)."""
    in_the_way = tmp_path / "a-file"
    in_the_way.write_text("")
    where = in_the_way / "sub"
    for argv in (["history"], ["replay", "1"], ["export", "1", str(tmp_path / "g")]):
        code, out, err = run(["--data-dir", str(where), *argv], capsys)
        assert code == 1 and f"{in_the_way} is a file, not a folder" in err, (out, err)

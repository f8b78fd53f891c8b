"""A kept game shows its reader their own private moves and nobody else's (RULES.md: a
Got Five! player's marks are "sent to nobody else"): a record says whose each person's
seat was (``who``), a review leaves out the marks of every seat that was not the
reader's, and a game file for a friend carries nobody's."""

from __future__ import annotations

import asyncio
import json
import stat
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Button, Input, Static

import engine
from engine.gotfive import GotFive
from engine.record import (
    RecordError,
    Replay,
    Tape,
    check_record,
    fingerprint,
    who,
    without_private,
)
from net.box import visitor_secret
from net.connection import LOCAL_PLAYER
from net.gamefiles import StoreError, export_game, played
from net.paths import VISITOR_ENV, visitor_player
from net.records import GameStore, Keeper
from net.whose import for_review
from tests.tui_support import make_app, screen_text, until
from tui.screens.export_dialog import ExportScreen


def two_markers(whose: list[str | None]) -> tuple[dict[str, Any], dict[int, set[int]]]:
    """A Got Five! game of three in which Ann (seat 0) and Bo (seat 1) each mark their
    board; ``whose`` are the host's ids of the three seats (``None``: not known). Its
    record, and the numbers each of the two marked."""
    game = engine.new_game("gotfive", seats=3, seed=7, options={"first": 0})
    assert isinstance(game, GotFive)
    players = [{"name": n, "kind": "human"} for n in ("Ann", "Bo", "Cy")]
    tape = Tape("gotfive", 3, 7, game.options, players)
    marked: dict[int, set[int]] = {0: set(), 1: set()}

    def act(seat: int, action: dict[str, Any]) -> None:
        now = float(len(tape.moves) + 1)
        game.act(seat, action, now=now)
        tape.act(seat, action, now)

    def mark(seat: int, mark: str) -> None:
        n = next(n for n in range(1, 61) if n not in game.visible_to(seat)
                 and n not in marked[0] | marked[1])
        marked[seat].add(n)
        act(seat, {"type": "mark", "n": n, "mark": mark})

    mark(0, "cross")
    mark(1, "circle")
    act(0, {"type": "reveal", "colour": 0})
    act(0, {"type": "sort", "tile": game.public[0]})
    mark(1, "cross")
    mark(0, "circle")
    act(1, {"type": "announce", "numbers": [1, 2, 3, 4, 5]})
    act(2, {"type": "announce", "numbers": [1, 2, 3, 4, 6]})
    assert game.over
    record = tape.record(game, started=0.0, ended=60.0)
    for player, id_ in zip(record["players"], whose, strict=True):
        if id_ is not None:
            player["who"] = who(id_)
    return check_record(json.loads(json.dumps(record))), marked


def marks_in(record: dict[str, Any]) -> dict[int, set[int]]:
    """The numbers each seat marked in ``record``'s moves."""
    out: dict[int, set[int]] = {}
    for seat, action, _ in record["moves"]:
        if action is not None and action["type"] == "mark":
            out.setdefault(seat, set()).add(action["n"])
    return out


def test_leaving_out_other_seats_marks_keeps_the_same_game_and_checks_again() -> None:
    record, marked = two_markers([None, None, None])
    seen = without_private(record, {0})
    assert marks_in(seen) == {0: marked[0]}
    replay = Replay(seen)  # its own fingerprint: it replays, checked, to its end
    full = Replay(record)
    assert replay.final.result == full.final.result
    assert isinstance(replay.final, GotFive) and isinstance(full.final, GotFive)
    assert replay.final.marks[0] == full.final.marks[0] != {}
    assert replay.final.marks[1] == {} != full.final.marks[1]
    assert fingerprint(replay.final) != record["check"]
    # Every move that is not a private one is there, in its order.
    assert [m for m in record["moves"] if m[1]["type"] != "mark"] == [
        m for m in seen["moves"] if m[1]["type"] != "mark"]
    # A game with nothing private to leave out is the same record.
    assert without_private(seen, {0})["moves"] == seen["moves"]


def test_leaving_out_private_moves_keeps_who_moved_for_a_seat_at_the_same_move() -> None:
    record, _ = two_markers([None, None, None])
    # Moves: Ann marks, Bo marks, Ann reveals, Ann sorts, Bo marks, Ann marks, Bo and Cy
    # announce. A bot plays for Bo from the sixth on (after five moves).
    record = check_record({**record, "seated": [[5, 1, "Bot 2", "Bo"]]})
    seen = without_private(record, {0})
    # Bo's two marks are gone, both before it: Ann's four moves come before it now.
    assert seen["seated"] == [[3, 1, "Bot 2", "Bo"]]
    assert check_record(seen)["seated"] == seen["seated"]
    assert [m[0] for m in seen["moves"][3:]] == [0, 1, 2]


@pytest.mark.parametrize(("visitor", "reader"), [(None, 0), ("b0b", 1), ("someone", None)])
def test_a_review_shows_its_reader_their_own_marks_and_nobody_else_s(
        monkeypatch: pytest.MonkeyPatch, visitor: str | None, reader: int | None) -> None:
    """Ann ran the host (her app's own connection), Bo came in by a box's door: each
    reads their own marks; anyone else reads none."""
    if visitor is None:
        monkeypatch.delenv(VISITOR_ENV, raising=False)
    else:
        monkeypatch.setenv(VISITOR_ENV, visitor)
    record, marked = two_markers([LOCAL_PLAYER, visitor_player("b0b"), "9f3c"])
    seen, replay = for_review(record)
    assert marks_in(seen) == ({} if reader is None else {reader: marked[reader]})
    assert isinstance(replay.final, GotFive)
    assert [set(board) for board in replay.final.marks] == [
        marked[seat] if seat == reader else set() for seat in range(3)]


def test_a_record_that_says_nobody_s_seats_shows_no_marks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(VISITOR_ENV, raising=False)
    record, _ = two_markers([None, None, None])
    seen, _ = for_review(record)
    assert marks_in(seen) == {}


def test_a_review_of_a_record_that_is_not_its_game_is_refused() -> None:
    record, _ = two_markers([LOCAL_PLAYER, None, None])
    with pytest.raises(RecordError, match="does not replay"):
        for_review({**record, "check": "0" * 32})


def test_a_game_file_carries_nobody_s_marks_nor_whose_a_seat_was(tmp_path: Path) -> None:
    record, _ = two_markers([LOCAL_PLAYER, visitor_player("b0b"), None])
    path = tmp_path / "g.hhgame"
    export_game(record, path)
    text = path.read_text()
    assert '"mark"' not in text and '"who"' not in text
    back = played(path)
    assert marks_in(back) == {} and Replay(back).final.result == Replay(record).final.result
    # A record that is not the game it says is not written out.
    with pytest.raises(StoreError, match="cannot be written"):
        export_game({**record, "check": "0" * 32}, tmp_path / "h.hhgame")
    assert not (tmp_path / "h.hhgame").exists()


def test_a_file_s_word_for_whose_a_seat_was_is_not_taken(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file from elsewhere that says a seat was this reader's ("local" is every
    app's own) shows its marks to nobody: read, it says nobody's seats."""
    monkeypatch.delenv(VISITOR_ENV, raising=False)
    record, _ = two_markers([LOCAL_PLAYER, None, None])
    path = tmp_path / "g.hhgame"
    path.write_text(json.dumps(record))
    back = played(path)
    assert all("who" not in p for p in back["players"])
    assert marks_in(for_review(back)[0]) == {}


@pytest.mark.parametrize("bad", ["", "local", "A" * 32, "g" * 32, 7, None])
def test_a_record_s_who_must_be_a_digest(bad: Any) -> None:
    record, _ = two_markers([None, None, None])
    record["players"][1]["who"] = bad
    with pytest.raises(RecordError, match="player 2's 'who' must be 32 hex digits"):
        check_record(record)
    record["players"][1]["who"] = who("x")
    assert check_record(record)["players"][1]["who"] == who("x")


async def test_a_host_keeps_whose_each_person_s_seat_was(tmp_path: Path) -> None:
    """The app's own connection is the person running it; a peer over TCP is someone
    else (its id a new one each connection, until a seat's token says who it is); a bot
    is nobody."""
    from engine.bots import RandomBot
    from net.autoplay import drive
    from net.client import Client
    from net.host import Host

    keeper = Keeper(tmp_path / "games.sqlite3")
    async with Host("lan", bot_delay=0) as host:
        host.keepers.append(keeper)
        await host.start("127.0.0.1", 0)
        me = await Client.local(host, name="Me")
        table = await me.create_table("T", "getout", 3, {"match": False})
        bob = await Client.connect("127.0.0.1", host.port, name="Bob")
        await bob.join(table.table)
        await me.add_bot(2)
        await bob.ready()
        await me.start()
        await asyncio.gather(drive(me, RandomBot(1)), drive(bob, RandomBot(2)))
        await me.close()
        await bob.close()
    keeper.close()
    with GameStore(tmp_path / "games.sqlite3") as store:
        (info,) = store.games()
        players = store.get(info.id)["players"]
    assert players[0]["who"] == who(LOCAL_PLAYER)
    assert players[1]["who"] not in (who(LOCAL_PLAYER), None)
    assert "who" not in players[2]


def test_a_box_s_key_for_its_players_ids_outlives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "visitor.key"
    first = visitor_secret(path)
    assert visitor_secret(path) == first and len(first) == 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.write_bytes(b"cut")  # (a crash as it was made)
    assert len(visitor_secret(path)) == 32 and visitor_secret(path) != first


async def bo_s_review(pilot: Any, monkeypatch: pytest.MonkeyPatch, data_dir: Path
                      ) -> dict[int, set[int]]:
    """Bo, a box's login, opens the review of a game he played with Ann (both marked
    their boards) from the box's Past games; the numbers each of them marked."""
    from tui.screens.review import open_review

    monkeypatch.setenv(VISITOR_ENV, "b0b")
    record, marked = two_markers([visitor_player("ann"), visitor_player("b0b"), None])
    path = data_dir / "box-games.sqlite3"
    with GameStore(path) as store:
        game = store.add(record)
    screen = open_review(path, game)
    assert not isinstance(screen, str), screen
    await pilot.app.push_screen(screen)
    return marked


async def test_past_games_review_shows_the_reader_s_board_marked_and_others_bare(
        monkeypatch: pytest.MonkeyPatch, data_dir: Path) -> None:
    app = make_app("Bo")
    async with app.run_test(size=(150, 50)) as pilot:
        marked = await bo_s_review(pilot, monkeypatch, data_dir)
        await pilot.press("end")
        await until(pilot, lambda: "Bo's board:" in screen_text(app), "the boards, laid open")
        text = screen_text(app)
        assert all(f"○{n:>2}" in text or f"✗{n:>2}" in text for n in marked[1])
        assert not any(f"○{n:>2}" in text or f"✗{n:>2}" in text for n in marked[0])
        assert "Bo marked" in text and "Ann marked" not in text
        assert "Ann's board: not shown (a player's marks are private)" in text
        assert "Cy's board: not shown (a player's marks are private)" in text


def test_whose_games_by_the_ids_a_host_knew_and_on_a_box_by_those_alone(
        tmp_path: Path) -> None:
    """Two logins of a box both named Ann: each one's Past games and figures are their
    own, not every Ann's. Off a box, a seat with the player's name is theirs too (a
    game kept before records said whose a seat was)."""
    from net.whose import Reader
    from tui.history import figures

    ann, other_ann = visitor_player("k1"), visitor_player("k2")
    theirs, _ = two_markers([ann, None, None])
    others, _ = two_markers([None, None, other_ann])
    for record in (theirs, others):
        record["players"][0]["name"] = record["players"][2]["name"] = "Ann"
    old, _ = two_markers([None, None, None])
    with GameStore(tmp_path / "g.sqlite3") as store:
        ids = [store.add(r) for r in (theirs, others, old)]
        on_box = Reader("Ann", frozenset({who(ann)}), strict=True)
        assert [g.id for g in store.games(player=on_box)] == [ids[0]]
        (game,) = store.games(player=on_box)
        assert game.seat_of(on_box) == 0 and game.whos[0] == who(ann)
        assert [(f.played, f.won) for f in figures(store.games(), on_box)] == [(1, 1)]
        at_home = Reader("Ann", frozenset({who(LOCAL_PLAYER)}))
        assert sorted(g.id for g in store.games(player=at_home)) == sorted(ids)
        assert store.games(player=Reader("Nobody", strict=True)) == []


def test_a_database_of_schema_2_learns_whose_its_seats_were(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "g.sqlite3"
    record, _ = two_markers([LOCAL_PLAYER, None, None])
    with GameStore(path) as store:
        game = store.add(record)
    db = sqlite3.connect(path)
    with db:
        db.execute("DROP INDEX players_by_who")
        db.execute("ALTER TABLE players DROP COLUMN who")
        db.execute("PRAGMA user_version = 2")
    db.close()
    with GameStore(path) as store:
        (info,) = store.games()
        assert info.id == game and info.whos == (who(LOCAL_PLAYER), None, None)


async def test_past_games_x_writes_the_game_for_a_friend_without_anybody_s_marks(
        monkeypatch: pytest.MonkeyPatch, data_dir: Path, tmp_path: Path) -> None:
    """The file goes where the player says, starting from where the app was started
    (it went into the hidden data folder, then there without a word), and a second
    export never writes over the first (it did, without a word). A folder that is none
    is said so, and another can be typed."""
    from net.records import default_path
    from tests.test_tui_review import past_games

    monkeypatch.delenv(VISITOR_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    record, _ = two_markers([LOCAL_PLAYER, None, None])
    with GameStore(default_path()) as store:
        game = store.add(record)
    app = make_app("Ann")
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await past_games(pilot)
        await pilot.press("x")
        dialog = await until(pilot, lambda: isinstance(app.screen, ExportScreen)
                             and app.screen, "the folder asked")
        folder = dialog.query_one("#export-folder", Input)
        assert folder.value == str(tmp_path)
        await pilot.press("enter")
        written = tmp_path / f"game-{game}.hhgame"
        await until(pilot, written.exists, "the file")
        await until(pilot, lambda: f"Wrote game-{game}.hhgame" in screen_text(app),
                    "the notice")
        first = written.stat().st_mtime_ns
        await pilot.press("x")
        dialog = await until(pilot, lambda: isinstance(app.screen, ExportScreen)
                             and app.screen, "the folder asked again")
        folder = dialog.query_one("#export-folder", Input)
        folder.value = str(tmp_path / "nowhere")
        await pilot.press("enter")
        error = dialog.query_one("#export-error", Static)
        await until(pilot, lambda: "nowhere is not a folder here" in str(error.render()),
                    "the folder refused")
        assert app.screen is dialog
        elsewhere = tmp_path / "for-bob"
        elsewhere.mkdir()
        folder.value = str(elsewhere)
        await pilot.press("enter")
        await until(pilot, (elsewhere / f"game-{game}.hhgame").exists, "the file elsewhere")
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, ExportScreen), "the dialog")
        await pilot.press("enter")
        await until(pilot, (tmp_path / f"game-{game}-2.hhgame").exists, "a second file")
        assert written.stat().st_mtime_ns == first
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, ExportScreen), "the dialog")
        await pilot.press("escape")  # nothing written
        await until(pilot, lambda: not isinstance(app.screen, ExportScreen), "cancelled")
        await pilot.press("x")
        dialog = await until(pilot, lambda: isinstance(app.screen, ExportScreen)
                             and app.screen, "the dialog")
        dialog.query_one("#cancel", Button).focus()
        await pilot.press("enter")  # (Enter on Cancel: nothing written either)
        await until(pilot, lambda: not isinstance(app.screen, ExportScreen), "cancelled")
        assert len(list(tmp_path.glob("*.hhgame"))) == 2
    text = written.read_text()
    assert '"mark"' not in text and '"who"' not in text
    assert Replay(played(written)).final.result == Replay(record).final.result


async def test_a_review_says_you_on_the_reader_s_seat_not_on_the_seat_seen_from(
        monkeypatch: pytest.MonkeyPatch, data_dir: Path) -> None:
    """Bob, looking at the game from Ann's seat (1), read "1 Ann (you)"."""
    app = make_app("Bo")
    async with app.run_test(size=(150, 50)) as pilot:
        await bo_s_review(pilot, monkeypatch, data_dir)
        await until(pilot, lambda: "2 Bo (you)" in screen_text(app), "Bo's seat, his")
        assert "1 Ann (you)" not in screen_text(app)
        await pilot.press("1")
        await until(pilot, lambda: "1 Ann (seen from here)" in screen_text(app), "Ann's")
        assert "2 Bo (you)" in screen_text(app) and "1 Ann (you)" not in screen_text(app)
        assert "1-3 Seat" in screen_text(app)  # (the seat keys, named in the footer)


@pytest.mark.parametrize("box", [None, ("127.0.0.1", 9)])
async def test_past_games_offer_x_only_off_a_box(
        data_dir: Path, box: tuple[str, int] | None) -> None:
    """On a box, x wrote into the box's own folder, which its players cannot reach."""
    from net.records import default_path
    from tests.test_tui_review import past_games

    record, _ = two_markers([LOCAL_PLAYER, None, None])
    with GameStore(default_path()) as store:
        store.add(record)
    app = make_app("Ann", box=box, games=str(default_path()))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await past_games(pilot)
        await until(pilot, lambda: "Review" in screen_text(app), "the footer")
        assert ("x Export" in screen_text(app)) == (box is None)
        assert (screen.check_action("export", ()) is True) == (box is None)


def test_a_history_counts_a_got_five_game_s_moves_as_its_review_does(tmp_path: Path) -> None:
    """The history said 49 moves of a game its review counted 41: it counted the board
    marks, which are no moves. A database of schema 4 counts again."""
    import sqlite3

    record, marked = two_markers([LOCAL_PLAYER, None, None])
    moves = len(record["moves"]) - len(marked[0] | marked[1])
    path = tmp_path / "g.sqlite3"
    with GameStore(path) as store:
        store.add(record)
        (info,) = store.games()
        assert info.moves == moves
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE games SET moves = ?", (len(record["moves"]),))
        db.execute("PRAGMA user_version = 4")
    db.close()
    with GameStore(path) as store:
        (info,) = store.games()
        assert info.moves == moves


def test_an_app_s_host_keeps_its_person_s_marks_and_not_its_guests(tmp_path: Path) -> None:
    """Ann's games database held Bob's marks from her LAN table: no review showed them,
    but the file had them. An app's own host keeps its person's; a box keeps everyone's
    (each login reads its own); a headless host nobody's."""
    record, marked = two_markers([LOCAL_PLAYER, visitor_player("b0b"), None])
    for private_of, kept in (([LOCAL_PLAYER], {0: marked[0]}), (None, marked), ((), {})):
        path = tmp_path / f"{private_of}.sqlite3"
        keeper = Keeper(path, private_of=private_of)
        assert keeper(record).result() is not None
        keeper.close()
        with GameStore(path) as store:
            (info,) = store.games()
            stored = store.get(info.id)
        assert marks_in(stored) == kept
        assert Replay(stored).final.result == Replay(record).final.result

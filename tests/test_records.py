"""Finished games kept: records that replay exactly, a database with a schema version,
game files from elsewhere treated as hostile, and hosts that keep every game they end."""

from __future__ import annotations

import json
import logging
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.bots.simulate import simulate
from engine.record import (
    MAX_MOVES,
    VERSION,
    RecordError,
    Replay,
    Tape,
    check_record,
    fingerprint,
    replay,
)
from net import gamefiles, lobby
from net import records as store_mod
from net.gamefiles import StoreError, export_game, read_game_file
from net.records import GameStore, Keeper
from net.table import Table
from net.whose import Reader
from tests.test_table import house, seated, send

GAMES = [("getout", 3), ("getit", 4), ("gotfive", 3)]


def recorded(game_id: str, seats: int, seed: int = 3) -> tuple[dict[str, Any], dict[str, Any]]:
    out = simulate(game_id, seats, seed, {}, record=True)
    return out, out["record"]


# ---- records ---------------------------------------------------------------------------


@pytest.mark.parametrize(("game_id", "seats"), GAMES)
def test_a_recorded_bot_game_replays_to_the_same_end_through_a_file_s_round_trip(
        game_id: str, seats: int) -> None:
    out, record = recorded(game_id, seats)
    assert record["version"] == VERSION and record["moves"]
    again = check_record(json.loads(json.dumps(record)))
    game = replay(again)
    assert game.over and game.result == out["result"]
    assert fingerprint(game) == record["check"]


@pytest.mark.parametrize(("game_id", "seats"), GAMES)
def test_a_replay_steps_to_any_move_as_the_game_stood_then(game_id: str, seats: int) -> None:
    _, record = recorded(game_id, seats, seed=11)
    steps = Replay(check_record(record))
    live = engine.new_game(game_id, seats=seats, seed=record["seed"], options=record["options"])
    picks = {0, 1, Replay.EVERY - 1, Replay.EVERY, Replay.EVERY + 1, len(steps)}
    for k, (seat, action, now) in enumerate(record["moves"], 1):
        if seat is None:
            live.advance(now)
        else:
            live.act(seat, action, now=now)
        if k in picks:
            assert steps.game_at(k).snapshot() == live.snapshot()
    assert steps.game_at(0).snapshot() == engine.new_game(
        game_id, seats=seats, seed=record["seed"], options=record["options"]).snapshot()
    assert len(steps.events) == len(record["moves"])


def _broken(change: Any) -> dict[str, Any]:
    _, record = recorded("getout", 2, seed=4)
    record = json.loads(json.dumps(record))
    change(record)
    return record


@pytest.mark.parametrize(("change", "said"), [
    (lambda r: r.update(format="x"), "not a hiddenhand game record"),
    (lambda r: r.update(version=VERSION + 1), "newer hiddenhand"),
    (lambda r: r.update(version="1"), "version"),
    (lambda r: r.update(version=True), "version is True"),
    (lambda r: r.update(started=1e300), "started must be a time"),
    (lambda r: r.update(game="chess"), "is of an unknown game 'chess'"),
    (lambda r: r.pop("game"), "the record names no game"),
    (lambda r: r.update(seats="2"), "seats must be a whole number"),
    (lambda r: r.update(seats=9), "seats must be a whole number from 2 to 6"),
    (lambda r: r.update(seed=-1), "seed"),
    # (Passed the check, then broke the import with a traceback: the engine takes less.)
    (lambda r: r.update(seed=2**63), "seed must be a whole number from 0 to"),
    (lambda r: r.update(options={"limit": "lots"}), "options:"),
    (lambda r: r.update(players=r["players"][:1]), "players must list the 2 seats"),
    (lambda r: r["players"][0].update(name="\x1b[2J"), "printable"),
    (lambda r: r["players"][0].update(name="[/]"), r"may not hold \[ or \]"),
    (lambda r: r["players"][0].update(kind="ghost"), "kind"),
    (lambda r: r.update(moves={"a": 1}), "moves must be a list"),
    (lambda r: r.update(moves=[[0, {"type": "draw"}, 0]] * (MAX_MOVES + 1)),
     "at most 100000"),
    (lambda r: r["moves"].__setitem__(1, [0, {"type": "draw"}]), "move 2 must be"),
    (lambda r: r["moves"].__setitem__(1, [7, {"type": "draw"}, 0.0]),
     "move 2 names no seat of the game's"),
    (lambda r: r["moves"].__setitem__(1, [0, "draw", 0.0]), "move 2's action"),
    (lambda r: r["moves"].__setitem__(1, [0, {"type": "x", "a": [[[[["deep"]]]]]}, 0.0]),
     "nested too deeply"),
    (lambda r: r["moves"].__setitem__(1, [0, {"type": "draw"}, float("nan")]), "time"),
    (lambda r: r["moves"].__setitem__(2, [r["moves"][2][0], r["moves"][2][1], -1.0]),
     "time"),
    (lambda r: r.update(seated={}), "seated must be a list"),
    (lambda r: r.update(seated=[[0, 1, "Bot 2"]]), r"seated 1 must be \[moves, seat"),
    (lambda r: r.update(seated=[[0, 5, "Bot 2", "Bob"]]), "seated 1's seat"),
    (lambda r: r.update(seated=[[3, 1, "Bot 2", None], [2, 1, "Bob", None]]),
     "seated 2's moves must be a whole number from 3"),
    (lambda r: r.update(seated=[[10**6, 1, "Bot 2", None]]), "seated 1's moves"),
    (lambda r: r.update(seated=[[0, 1, "", None]]), "seated 1's name must be 1 to 40"),
    (lambda r: r.update(seated=[[0, 1, "Bot 2", "[b]x"]]), r"'for' may not hold \["),
    (lambda r: r.update(check="00"), "fingerprint"),
    (lambda r: r.update(result={"x": object()}), "holds a object"),
])
def test_a_record_that_is_wrong_in_any_field_is_refused_in_one_line(change: Any,
                                                                    said: str) -> None:
    with pytest.raises(RecordError, match=said) as refused:
        check_record(_broken(change))
    assert "\n" not in str(refused.value)


def test_a_mark_or_auto_cross_of_a_person_is_no_move_that_keeps_a_game() -> None:
    """Past games kept a Got Five! game whose one "move" was auto-cross turned off (its
    review: "move 0 of 0"); a move of the table's game keeps it."""
    game = engine.new_game("gotfive", seats=2, seed=4, options={})  # (Ann's turn first)
    tape = Tape("gotfive", 2, 4, game.options, [{"name": "Ann", "kind": "human"},
                                                {"name": "Bot 2", "kind": "bot"}])
    for action in ({"type": "auto_cross", "on": False}, {"type": "mark", "slot": 0,
                                                         "number": 7, "mark": "cross"}):
        tape.act(0, action, 1.0)
    assert not tape.person_moved()
    assert game.view(0)["turn"] == 0
    tape.act(0, game.legal_actions(0)[0], 2.0)  # (a reveal)
    assert tape.person_moved()


def test_a_tape_writes_down_who_came_to_move_for_a_seat_and_its_record_keeps_it() -> None:
    game = engine.new_game("getout", seats=2, seed=4, options={"first": 1, "match": False})
    tape = Tape("getout", 2, 4, game.options, [{"name": "Ann", "kind": "human"},
                                               {"name": "Bob", "kind": "human"}])

    def move(seat: int) -> None:
        action = game.legal_actions(seat)[0]
        now = float(len(tape.moves))
        game.act(seat, action, now=now)
        tape.act(seat, action, now)

    tape.seat_names(["Ann", "Bob"], [None, None])  # nobody new: nothing written
    assert tape.seated == []
    tape.seat_names(["Ann", "Bot 2"], [None, "Bob"])  # Bob away: a bot plays for him
    tape.seat_names(["Ann", "Bot 2"], [None, "Bob"])
    move(1)
    assert not tape.person_moved()  # the bot's move is nobody's
    tape.seat_names(["Ann", "Bob"], [None, None])  # Bob is back
    move(0)
    assert tape.person_moved()
    assert tape.seated == [[0, 1, "Bot 2", "Bob"], [1, 1, "Bob", None]]
    assert tape.mover(1) == ("Bob", None) and tape.mover(0) == ("Ann", None)
    # Through a file and back (and the journal's tape) it is the same.
    record = check_record(json.loads(json.dumps(tape.record(game))))
    assert record["seated"] == tape.seated
    assert Tape.from_data(tape.data()).seated == tape.seated
    # A journal is a file: a tape in it that says nonsense is refused, in words.
    with pytest.raises(RecordError, match="seated 1's seat"):
        Tape.from_data({**tape.data(), "seated": [[0, 7, "X", None]]})
    # A record without it (any made before) reads as nobody else moving.
    del record["seated"]
    assert check_record(record)["seated"] == []


def test_a_record_whose_moves_break_the_rules_or_end_elsewhere_does_not_replay() -> None:
    illegal = check_record(_broken(lambda r: r["moves"].insert(
        0, [r["moves"][0][0], {"type": "play", "card": 999}, 0.0])))
    with pytest.raises(RecordError, match=r"move 1 \(play by seat [1-9]\) breaks the rules: "
                       r"card 999 is not in its hand$"):  # (not "your hand": the reader's)
        replay(illegal)
    other_end = check_record(_broken(lambda r: r.update(check="0" * 32)))
    with pytest.raises(RecordError, match="does not replay to the game it recorded"):
        replay(other_end)
    short = check_record(_broken(lambda r: r["moves"].pop()))
    with pytest.raises(RecordError, match="does not replay"):
        replay(short)


# ---- game files ------------------------------------------------------------------------


def test_a_game_file_round_trips_and_hostile_files_get_a_clear_error(tmp_path: Path) -> None:
    _, record = recorded("gotfive", 3)
    path = tmp_path / "game.hhgame"
    export_game(record, path)
    assert replay(read_game_file(path)).result == record["result"]
    text = path.read_text()
    cases = {
        # (A file cut short is said to be: "Expecting value at line 1, column 1024".)
        "truncated.hhgame": (text[: len(text) // 2], "not JSON: .* it ends too soon: cut short"),
        # (json's own words end "starting at": the message read "at at line 1".)
        "cut.hhgame": ('{"game": "getou', "not JSON: Unterminated string starting at line 1, "
                       "column 10 — it ends too soon"),
        "bad.hhgame": ('{"game": x}', r"not JSON: Expecting value at line 1, column 10\)"),
        "deep.hhgame": ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        "binary.hhgame": (b"\xff\xfe\x00".decode("latin-1"), "not JSON|not text"),
        "array.hhgame": ("[1, 2]", "not a hiddenhand game record"),
    }
    for name, (content, said) in cases.items():
        (tmp_path / name).write_text(content, encoding="latin-1")
        with pytest.raises(StoreError, match=said) as refused:
            read_game_file(tmp_path / name)
        assert "\n" not in str(refused.value)
    huge = tmp_path / "huge.hhgame"
    with huge.open("wb") as handle:
        handle.truncate(gamefiles.MAX_FILE + 1)
    with pytest.raises(StoreError, match="larger than 4 MB"):
        read_game_file(huge)
    with pytest.raises(StoreError, match="cannot read"):
        read_game_file(tmp_path / "missing.hhgame")
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(StoreError, match="cannot write"):
        export_game(record, tmp_path / "no-such-dir" / "x.hhgame")
    assert sorted(p.name for p in tmp_path.iterdir()) == before


# ---- the database ----------------------------------------------------------------------


def test_the_store_keeps_records_lists_them_newest_first_and_filters_them(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        assert store.last() is None
        ids = []
        for i, (game_id, seats) in enumerate(GAMES):
            _, record = recorded(game_id, seats, seed=20 + i)
            ids.append(store.add({**record, "started": 100.0 + i, "ended": 200.0 + i}))
        listed = store.games()
        assert [g.id for g in listed] == ids[::-1] and store.last() == ids[-1]
        assert [g.game for g in store.games(game="getit")] == ["getit"]
        assert [g.seats for g in store.games(seats=3)] == [3, 3]
        assert [g.id for g in store.games(since=201.0)] == ids[1:][::-1]
        assert [g.game for g in store.games(player=Reader("Bot 4"))] == ["getit"]
        got = store.get(ids[0])
        assert replay(got).result == listed[-1].result
        assert listed[-1].players == [p["name"] for p in got["players"]]
        with pytest.raises(StoreError, match="no game 999 is kept"):
            store.get(999)
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == (
        store_mod.SCHEMA_VERSION)


@pytest.mark.parametrize(("version", "said"), [
    (store_mod.SCHEMA_VERSION + 1, "made by a newer hiddenhand"),
    # (It ran the newest migration on a file that had none: "table games already exists".)
    (-1, "is damaged: it says its schema is -1"),
])
def test_a_database_from_a_newer_release_is_refused_and_left_as_it_is(
        tmp_path: Path, version: int, said: str) -> None:
    path = tmp_path / "games.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {version}")
    with pytest.raises(StoreError, match=said):
        GameStore(path)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == version
        assert db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0


def test_the_database_is_its_owner_s_alone(tmp_path: Path) -> None:
    """It holds every player's name and game: it was made world-readable (0644)."""
    path = tmp_path / "games.sqlite3"
    GameStore(path).close()
    assert path.stat().st_mode & 0o777 == 0o600
    path.chmod(0o644)  # a file made by an earlier release is closed up too
    GameStore(path).close()
    assert path.stat().st_mode & 0o777 == 0o600


def test_a_damaged_row_is_a_clear_error_not_a_crash(tmp_path: Path) -> None:
    import zlib

    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        _, record = recorded("getout", 2)
        kept = store.add(record)
        store.db.execute("UPDATE games SET record = ? WHERE id = ?",
                         (zlib.compress(b'{"format": "hiddenhand-game", "version": 1}'), kept))
        store.db.commit()
        with pytest.raises(StoreError, match=f"game {kept}'s record cannot be read"):
            store.get(kept)
        store.db.execute("UPDATE games SET record = ? WHERE id = ?", (b"junk", kept))
        store.db.commit()
        # (In words: it said "Error -3 while decompressing data: incorrect header check".)
        with pytest.raises(StoreError, match=f"^game {kept}'s record is damaged: it cannot "
                           r"be read \(the other games are not\)$"):
            store.get(kept)


def test_a_keeper_that_cannot_write_says_so_once_and_returns(tmp_path: Path,
                                                             caplog: pytest.LogCaptureFixture
                                                             ) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    keeper = Keeper(blocked / "games.sqlite3")
    _, record = recorded("gotfive", 2)
    with caplog.at_level(logging.WARNING, logger="hiddenhand.records"):
        assert keeper(record).result(timeout=30) is None
        assert keeper(record).result(timeout=30) is None
    keeper.close()
    warned = [r for r in caplog.records if "not kept for replay" in r.getMessage()]
    assert len(warned) == 1
    good = Keeper(tmp_path / "games.sqlite3")
    with caplog.at_level(logging.INFO, logger="hiddenhand.records"):
        kept = good(record).result(timeout=30)
    good.close()
    # The host's log says a game ended and where it is (an operator saw neither); kept
    # elsewhere than this user's own games (a box's folder), the command names where
    # (an operator's 'hiddenhand replay 1' found "no game 1 is kept here").
    assert any("a game of Got Five! is over" in r.getMessage()
               and f"kept as game {kept}, 'hiddenhand --data-dir {tmp_path} replay {kept}'"
               in r.getMessage() for r in caplog.records), caplog.text
    caplog.clear()
    mine = Keeper()
    with caplog.at_level(logging.INFO, logger="hiddenhand.records"):
        ours = mine(record).result(timeout=30)
    mine.close()
    assert f"kept as game {ours}, 'hiddenhand replay {ours}'" in caplog.text
    with GameStore(tmp_path / "games.sqlite3") as store:
        info = store.games()[0]
        assert info.id == kept and info.ended is not None and info.started is not None
        assert info.started <= info.ended


# ---- a table's record ------------------------------------------------------------------


def _play_out(table: Table, rng: random.Random, now: float, people: range) -> list[dict[str, Any]]:
    """Play ``table``'s game to its end (people at random, the bots at their pace);
    the records of finished games its outboxes carried."""
    finished: list[dict[str, Any]] = []
    game = table.game
    assert game is not None
    while not game.over:
        now += 1.0
        mover = next((s for s in people if game.legal_actions(s)), None)
        if mover is not None:
            out = table.act(mover, rng.choice(game.legal_actions(mover)), now)
        else:
            out = table.wake(max(now, table.next_wake() or now))
        # Nothing of a running game leaves the table as a record: only its end does.
        assert not out.finished or game.over
        finished += send(out).finished
    return finished


def test_a_table_gives_its_game_s_record_once_it_is_over_and_it_replays_exactly() -> None:
    table, (ann, _bob) = seated("getout", {"match": False}, ["Ann", "Bob"], bots=1,
                                rules=house(bot_delay=0.0))
    out = send(lobby.start(table, ann, 1.0))
    assert not out.finished
    finished = _play_out(table, random.Random(5), 1.0, range(2))
    assert len(finished) == 1
    record = check_record(json.loads(json.dumps(finished[0])))
    assert [p["name"] for p in record["players"]] == ["Ann", "Bob", "Bot 3"]
    assert [p["kind"] for p in record["players"]] == ["human", "human", "bot"]
    assert table.game is not None
    assert fingerprint(replay(record)) == fingerprint(table.game)


@pytest.mark.parametrize("game_id", ["getout", "getit", "gotfive"])
def test_a_game_its_creator_ends_is_kept_as_it_stands_and_replays_there(
        game_id: str, tmp_path: Path) -> None:
    """Past games kept only finished games: a Get It! run of four levels, ended between
    rounds to go back to the lobby, was lost (two fresh-eyed passes). The creator's end
    of a game in play hands its record to the keepers, unfinished (no result), and it
    replays to where the game stood."""
    table, (ann, _bob) = seated(game_id, {}, ["Ann", "Bob"], bots=1,
                                rules=house(bot_delay=0.0))
    send(lobby.start(table, ann, 1.0))
    game = table.game
    assert game is not None
    from engine.bots import make_bot

    people, now = [make_bot(game_id, seat, 3) for seat in range(2)], 1.0
    for _ in range(40):  # people and bots move a while, the game not over
        now += 1.0
        mover = next((s for s in range(2) if game.legal_actions(s)), None)
        move = (people[mover].choose(game.view(mover), game.legal_actions(mover))
                if mover is not None else None)
        out = (table.act(mover, move, now) if mover is not None and move is not None
               else table.wake(max(now, table.next_wake() or now)))
        send(out)
        if game.over:
            pytest.fail("the game ended before its creator could end it")
    out = send(lobby.to_lobby(table, ann, now))
    (record,) = out.finished
    record = check_record(json.loads(json.dumps(record)))
    assert record["result"] is None and len(record["moves"]) > 0
    assert fingerprint(replay(record)) == fingerprint(game)
    assert table.phase == "lobby"
    # Past games lists it as not finished, and its figures count finished games only.
    from tui.history import figures
    from tui.review import result_words

    keeper = Keeper(tmp_path / "games.sqlite3")
    keeper(record).result(timeout=30)
    keeper.close()
    with GameStore(tmp_path / "games.sqlite3") as store:
        (info,) = store.games()
        assert result_words(info.game, info.result, info.players) == "not finished"
        assert figures(store.games(), None) == []
    # Its review's last line says so (a finished game's says how it ended).
    from tui.review import UNFINISHED, steps

    assert steps(record, Replay(record))[-1].text.endswith(UNFINISHED)


def test_a_table_back_from_the_journal_still_records_its_whole_game() -> None:
    table, (ann, _bob) = seated("getout", {"match": False}, ["Ann", "Bob"])
    table.journaling = True
    out = lobby.start(table, ann, 0.0)
    (state,) = [r for r in out.records if r["k"] == "table"]
    ops: list[dict[str, Any]] = []
    game = table.game
    assert game is not None
    rng = random.Random(8)
    for step in range(6):
        mover = next(s for s in range(2) if game.legal_actions(s))
        out = table.act(mover, rng.choice(game.legal_actions(mover)), 1.0 + step)
        for r in out.records:
            if r["k"] == "table":
                state, ops = r, []
            elif r["k"] in ("act", "adv"):
                ops.append(r)
    back = Table.restore(state, ops, house())
    assert back.tape is not None and table.tape is not None
    assert back.tape.moves == table.tape.moves
    back.thaw(10.0)
    finished = _play_out(back, rng, 10.0, range(2))
    assert back.game is not None and len(finished) == 1
    assert fingerprint(replay(check_record(finished[0]))) == fingerprint(back.game)


def test_a_tape_from_a_journal_record_keeps_its_moves_apart_from_the_live_one() -> None:
    tape = Tape("getout", 2, 1, {}, [{"name": "A", "kind": "human"}] * 2)
    tape.act(0, {"type": "draw"}, 1.0)
    data = tape.data()
    tape.advance(2.0)
    assert len(data["moves"]) == 1 and len(Tape.from_data(data).moves) == 1


def test_a_line_of_words_counts_against_a_seat_s_free_moves_by_its_bytes() -> None:
    """Every move is kept with the game, and a Get It! line is up to 200 characters:
    as emoji, 800 bytes. Counted as one move each, a seat's share of the free moves
    made a game's whole state (which its journal writes every 100 moves) megabytes."""
    from engine.record import FREE_TEXT_BYTES

    tape = Tape("getit", 3, 1, {}, [{"name": "A", "kind": "human"}] * 3)
    tape.act(0, {"type": "look", "target": 1}, 1.0)
    tape.act(1, {"type": "say", "text": "hi"}, 2.0)
    tape.act(1, {"type": "say", "text": "\U0001f600" * 200}, 3.0)
    tape.act(2, {"type": "play"}, 4.0)  # (a turn: not counted)
    assert [tape.free_by(s) for s in range(3)] == [1, 2 + 800 // FREE_TEXT_BYTES, 0]
    assert Tape.from_data(tape.data()).free_by(1) == tape.free_by(1)


@pytest.mark.parametrize(("game_id", "seats"), GAMES)
def test_a_snapshot_is_the_state_then_and_playing_on_never_changes_it(game_id: str,
                                                                       seats: int) -> None:
    """A replay keeps snapshots on the way to jump back to (GET OUT!'s gave the live
    list of round points, so a kept snapshot grew with the game)."""
    import copy

    _, record = recorded(game_id, seats, seed=2)
    game = engine.new_game(game_id, seats=seats, seed=2, options=record["options"])
    kept = []
    for k, (seat, action, now) in enumerate(record["moves"]):
        if k % 5 == 0:
            snapshot = game.snapshot()
            kept.append((snapshot, copy.deepcopy(snapshot)))
        if seat is None:
            game.advance(now)
        else:
            game.act(seat, action, now=now)
    assert all(then == copy_then for then, copy_then in kept)


async def test_a_host_hands_each_finished_game_to_its_keepers_who_keep_it(
        tmp_path: Path) -> None:
    from engine.bots import RandomBot
    from net.autoplay import drive
    from net.client import Client
    from net.host import Host

    keeper = Keeper(tmp_path / "games.sqlite3")
    async with Host("solo", bot_delay=0) as host:
        host.keepers.append(keeper)
        me = await Client.local(host, name="Me")
        await me.create_table("Solo", "getout", 3, {"match": False})
        await me.add_bot(1)
        await me.add_bot(2)
        await me.start()
        result = await drive(me, RandomBot(9))
        assert result is not None
        (table,) = host.tables.values()
        assert table.game is not None
        end = fingerprint(table.game)
        await me.close()
    keeper.close()
    with GameStore(tmp_path / "games.sqlite3") as store:
        (info,) = store.games()
        assert info.players == ["Me", "Bot 2", "Bot 3"] and info.kinds[0] == "human"
        assert fingerprint(replay(store.get(info.id))) == end


@pytest.mark.parametrize(("resumable", "moved"), [(False, True), (True, True), (False, False)])
async def test_a_host_stopped_on_purpose_keeps_its_game_in_play_as_it_stands(
        tmp_path: Path, resumable: bool, moved: bool) -> None:
    """A solo game left on purpose stopped the host and was lost ("Past games keeps
    finished games only"): a host closed with nothing to resume its game hands the
    keepers its record as it stands; one that keeps its journal to resume hands none,
    nor does one whose game no person made a move in (left at once, it was kept)."""
    from net.client import Client
    from net.host import Host

    kept: list[dict[str, Any]] = []
    host = Host("solo", bot_delay=0, journal=tmp_path / "j.hhjournal")
    host.keepers.append(kept.append)
    me = await Client.local(host, name="Me")
    await me.create_table("Solo", "getout", 2, {"match": True, "first": 0})
    await me.add_bot(1)
    await me.start()
    first = await me.wait_for(lambda m: m.get("type") == "update" and bool(m.get("legal")))
    if moved:
        await me.act(first["legal"][0])
    (table,) = host.tables.values()
    await host.close(keep_journal=resumable)
    assert table.game is not None
    end = fingerprint(table.game)  # (as it stood when the host stopped: no bot moves on)
    if resumable or not moved:
        assert kept == []
        return
    (record,) = kept
    record = check_record(json.loads(json.dumps(record)))
    assert record["result"] is None and record["players"][0]["name"] == "Me"
    assert fingerprint(replay(record)) == end


def test_got_five_figures_count_the_clues_before_a_right_got_five() -> None:
    from net.records import facts

    for seed in range(40):
        record = simulate("gotfive", 3, seed, {}, record=True)["record"]
        if record["result"]["reason"] != "announced":
            assert facts(record) == {}
            continue
        winner = record["result"]["winners"][0]
        last = max(k for k, (s, a, _) in enumerate(record["moves"])
                   if s == winner and a["type"] == "announce")
        # (The caller's own clues, as the game's end counts them: not the table's.)
        clues = sum(1 for s, a, _ in record["moves"][:last]
                    if s == winner and a["type"] in ("sort", "compare"))
        assert facts(record) == {"right_after": clues}
        return
    raise AssertionError("no Got Five! game won by a right GOT FIVE! in 40 seeds")


def test_a_database_of_the_first_schema_is_brought_up_to_date_with_its_games(
        tmp_path: Path) -> None:
    """A games file written by the first release (schema 1: no facts, no fingerprint,
    no imported mark) opens: its games are kept, filled in, and found again."""
    import zlib

    path = tmp_path / "games.sqlite3"
    _, record = recorded("gotfive", 3, seed=1)
    with sqlite3.connect(path) as db:
        db.executescript(str(store_mod.MIGRATIONS[0]))
        db.execute("INSERT INTO games (game, seats, started, ended, moves, result, record) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?)",
                   ("gotfive", 3, 1.0, 2.0, len(record["moves"]),
                    json.dumps(record["result"]),
                    zlib.compress(json.dumps(record).encode())))
        db.execute("INSERT INTO players VALUES (1, 0, 'Ann', 'human', 0)")
        db.execute("INSERT INTO players VALUES (1, 1, 'Bot 2', 'bot', 1)")
        db.execute("INSERT INTO players VALUES (1, 2, 'Bot 3', 'bot', 0)")
        db.execute("PRAGMA user_version = 1")
    with GameStore(path) as store:
        (info,) = store.games()
        assert info.players == ["Ann", "Bot 2", "Bot 3"] and not info.imported
        assert info.facts == store_mod.facts(record)
        assert store.find(record) == info.id
        assert replay(store.get(info.id)).result == record["result"]
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == store_mod.SCHEMA_VERSION


def test_a_damaged_database_is_said_in_words(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        store.add(recorded("gotfive", 2)[1])
        store.db.execute("DROP TABLE players")
        with pytest.raises(StoreError, match="cannot be used: no such table"):
            store.games()


def test_a_database_that_is_no_database_says_what_to_do_and_a_file_for_a_folder_says_so(
        tmp_path: Path) -> None:
    """A truncated or garbage games file said "database disk image is malformed" with no
    word of what to do; a file where its folder would be said "File exists"."""
    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        store.add(recorded("gotfive", 2)[1])
    path.write_bytes(path.read_bytes()[:3000])
    with pytest.raises(StoreError, match=r"\(if it is moved aside, a new one is made\)$"), \
            GameStore(path) as store:
        store.games()
    (tmp_path / "a-file").write_text("")
    with pytest.raises(StoreError, match=r"a-file is a file, not a folder$"):
        GameStore(tmp_path / "a-file" / "games.sqlite3")


def test_a_database_of_schema_3_counts_a_right_got_five_s_own_clues(tmp_path: Path) -> None:
    """Past games said "18.0 clues to a right GOT FIVE!" for a game whose end said
    "won · 6 clues": it counted the table's clues. A database kept before counts again."""
    from net.records import facts

    path = tmp_path / "games.sqlite3"
    for seed in range(40):
        record = simulate("gotfive", 3, seed, {}, record=True)["record"]
        if "right_after" in facts(record):
            break
    winner = record["result"]["winners"][0]
    table = sum(1 for s, a, _ in record["moves"] if s is not None
                and a["type"] in ("sort", "compare"))
    assert facts(record)["right_after"] < table  # (the others asked some too)
    with GameStore(path) as store:
        game = store.add(record)
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE games SET facts = ? WHERE id = ?",
                   (json.dumps({"right_after": table}), game))
        db.execute("PRAGMA user_version = 3")
    db.close()
    with GameStore(path) as store:
        (info,) = store.games()
    own = sum(1 for s, a, _ in record["moves"] if s == winner
              and a["type"] in ("sort", "compare"))
    assert info.facts == {"right_after": own} and own < table


def test_getout_s_points_a_round_are_one_figure_in_the_average_and_the_plot() -> None:
    """Past games averaged a match's points over the rounds each player played, but
    plotted them over all its rounds: every plotted game came out below the average
    beside it (28.9 a round, games "from 6.83333 to 22.25")."""
    from net.records import GameInfo
    from tui.history import figures, trend

    def match(score: int, played: int, rounds: int) -> GameInfo:
        result = {"winners": [1], "rounds": rounds, "scores": [score, 3], "played": [played, 6]}
        return GameInfo(1, "getout", 2, 1.78e9, 1.78e9 + 60, 40, ["Ann", "Bot 2"],
                        ["human", "bot"], [1], result, {})

    games = [match(41, 2, 6), match(30, 3, 3)]
    (found,) = figures(games, None)
    assert found.more == "15.2 points a round (fewer is better)"  # (20.5 + 10) / 2
    assert trend(games, "getout", None)[1] == [10.0, 20.5]  # oldest first


def test_a_get_it_game_lost_at_the_level_it_started_at_cleared_no_level() -> None:
    """Past games said "cleared up to level 2" of the one game played, started and lost
    at level 3 (a web-door pass); and a Level X round lost cleared nothing."""
    from net.records import GameInfo
    from tui.history import figures, trend

    def game(result: dict[str, Any]) -> GameInfo:
        return GameInfo(1, "getit", 3, 1.78e9, 1.78e9 + 60, 40, ["Ann", "Bot 2", "Bot 3"],
                        ["human", "bot", "bot"], [], {"rounds": 2, **result}, {})

    lost_at_start = game({"won": False, "level": 3, "start_level": 3})
    (found,) = figures([lost_at_start], None)
    assert found.more == "no level cleared yet"
    assert trend([lost_at_start], "getit", None)[1] == [0.0]
    (found,) = figures([game({"won": False, "level": 5, "start_level": 3})], None)
    assert found.more == "cleared up to level 4"
    (found,) = figures([game({"won": False, "level": 5})], None)  # (an older record)
    assert found.more == "cleared up to level 4"
    (found,) = figures([game({"won": False, "level": "X"})], None)
    assert found.more == "no level cleared yet"

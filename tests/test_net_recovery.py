"""Issue 13, crash recovery: nothing a host acknowledged is lost when it dies.

A host journals every accepted action before acknowledging it; after a crash
``Host.resume`` brings back the tables, seats, names and tokens, and players come back
in with the tokens they hold. A host that lost a table says so in words.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import stat
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.bots import make_bot
from net import journal as j
from net.autoplay import drive
from net.client import Client, ServerError
from net.host import Host
from net.journal_list import list_journals
from net.wire import errors
from tests.net_support import LOCAL, Clients, clients

ROOT = Path(__file__).resolve().parent.parent


def seeded(seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    return {"seed_source": lambda: rng.getrandbits(62), "bot_delay": 0}


async def playing_with_a_bot(ann: Client, name: str, game: str) -> Any:
    """``ann`` opens a 2-seat table, puts a bot in seat 1, starts, and holds a view."""
    joined = await ann.create_table(name, game, 2)
    await ann.add_bot(1)
    await ann.start()
    await ann.wait_for(lambda m: m["type"] == "update" and m["view"])
    return joined


async def play_getout_moves(ann: Client, moves: int) -> None:
    """``ann`` makes ``moves`` GET OUT! moves of a bot's choosing, each when she may."""
    bot = make_bot("getout", 0, 1)
    while moves:
        await ann.ping()
        msg = ann.latest
        if msg and msg["view"] is not None and msg["legal"]:
            try:
                await ann.act(bot.choose(msg["view"], msg["legal"]))
                moves -= 1
            except ServerError:
                pass


async def crash(host: Host) -> None:
    """What ``kill -9`` leaves: the journal as it stands, every socket cut, no goodbye."""
    assert host.server is not None
    host.server.close()
    if host.journal is not None:
        host.journal.close()  # the file stays exactly as written
        host.journal = None
    for table in host.tables.values():
        table.close()
    for conn in list(host.connections):
        conn.abort()
    # Nothing can reach anyone now, nor the journal: closing stops what still runs.
    await host.close()


def versions_seen(client: Client) -> int:
    latest = client.latest
    assert latest is not None and latest["view"] is not None
    return int(latest["view"]["version"])


async def test_a_crashed_host_comes_back_with_every_acknowledged_move(tmp_path: Path) -> None:
    path = tmp_path / "j" / f"game{j.SUFFIX}"
    host = Host("Den", journal=path, **seeded(3))
    await host.start(LOCAL, 0)
    port = host.port
    async with clients(host) as made:
        ann = await made.new("Ann")
        bob = await made.new("Bob")
        joined = await ann.create_table("Kitchen", "getout", 3, {"limit": 30})
        bob_seat = await bob.join(joined.table)
        await ann.add_bot(2)
        await bob.ready()
        await ann.start()
        # A few acknowledged moves each (the bot plays its own in between).
        bots = [make_bot("getout", 0, 1), make_bot("getout", 1, 1)]
        acked = 0
        while acked < 8:
            for client, bot in zip((ann, bob), bots, strict=True):
                await client.ping()
                msg = client.latest
                if msg and msg["view"] is not None and msg["legal"]:
                    with_legal = bot.choose(msg["view"], msg["legal"])
                    assert with_legal is not None
                    try:
                        await client.act(with_legal)
                        acked += 1
                    except ServerError:
                        pass  # stale: the bot moved first
        before = max(versions_seen(ann), versions_seen(bob))
        names = [s.name for s in host.tables[joined.table].seats]
        await crash(host)
    # The journal is private: only this user may read it.
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(path.parent).st_mode) == 0o700
    [info] = list_journals(path.parent)
    assert info.tables[0]["phase"] == "play" and info.tables[0]["players"] == ["Ann", "Bob"]
    assert info.port == port and "Kitchen" in info.describe()

    again = Host.resume(path, **seeded(4))
    assert again.name == "Den" and again.resumed_port == port
    await again.start(LOCAL, port)
    try:
        table = again.tables[joined.table]
        assert [s.name for s in table.seats] == names
        assert table.game is not None and table.game.view(None)["version"] >= before
        assert not table.paused  # GET OUT! has no clock to hold still
        async with clients(again) as made:
            ann2 = await made.new("Ann")
            bob2 = await made.new("Bob")
            await ann2.join(joined.table, 0, token=joined.token)
            # (Said once, to the first back: the rest read it in the table's past.)
            said = await ann2.wait_for(lambda m: m["type"] == "update" and m.get("notices"))
            assert {"type": "restarted"} in said["notices"], said["notices"]
            await bob2.join(joined.table, 1, token=bob_seat.token)
            first = await ann2.wait_for(lambda m: m["type"] == "update" and m["view"])
            assert first["view"]["version"] >= before
            results = await asyncio.gather(
                drive(ann2, make_bot("getout", 0, 2)), drive(bob2, make_bot("getout", 1, 2))
            )
            assert results[0] is not None and results[0] == results[1]
    finally:
        await again.close()
    assert not path.exists()  # the game is over: nothing left to resume


async def test_a_lobby_brought_back_by_a_restart_waits_for_its_players(
        tmp_path: Path) -> None:
    """A box restarted with a table in its lobby told its players their seats were kept,
    then closed the table 30 s later, as a lobby everyone walked away from (a fresh-eyed
    pass of the SSH box). A table a restart brought back waits as long as a dropped
    player may (``idle_timeout``) until someone is back; then as any other."""
    from net.clock import ManualClock
    from tests.test_net_idle import gone

    path = tmp_path / "j" / f"box{j.SUFFIX}"
    host = Host("Den", journal=path, **seeded(3))
    await host.start(LOCAL, 0)
    async with clients(host) as made:
        ann, bob = await made.new("Ann"), await made.new("Bob")
        joined = await ann.create_table("Kitchen", "getout", 2)
        await bob.join(joined.table)
        await crash(host)
    clock = ManualClock()
    again = Host.resume(path, clock=clock, **seeded(4))
    await again.start(LOCAL, 0)
    try:
        wait = again.limits.empty_table_timeout
        clock.advance(wait + 1)
        assert joined.table in again.tables
        async with clients(again) as made:
            ann2 = await made.new("Ann")
            await ann2.join(joined.table, 0, token=joined.token)
            ann2.abort()  # back, then gone again: now a lobby nobody is at
            await gone(again)
        clock.advance(wait + 1)
        assert joined.table not in again.tables
    finally:
        await again.close()


async def test_a_game_still_running_is_neither_offered_nor_resumed(tmp_path: Path) -> None:
    """Another app of the same user must not take over a running game: its journal is
    held by its host (``flock``) until the host stops or its process dies. (A second
    app's menu offered it; resuming it dealt the game twice and rewrote its journal.)"""
    path = tmp_path / "j" / f"game{j.SUFFIX}"
    host = Host("Den", journal=path, **seeded(3))
    await host.start(LOCAL, 0)
    async with clients(host) as made:
        ann = await made.new("Ann")
        joined = await playing_with_a_bot(ann, "Kitchen", "getout")
        host.compact()  # a rewritten journal is held as well
        assert j.in_use(path)
        assert list_journals(path.parent) == []
        with pytest.raises(j.JournalError, match="still running"):
            Host.resume(path, **seeded(4))
        await crash(host)  # as kill -9 does, the lock goes with the file
    assert not j.in_use(path)
    [info] = list_journals(path.parent)
    assert info.tables[0]["id"] == joined.table
    again = Host.resume(path, **seeded(4))
    try:
        assert j.in_use(path)  # the resumed host holds it now
    finally:
        await again.close()


async def test_a_rewrite_takes_each_table_as_written_and_resumes_to_the_same_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A rewrite copies each table's last whole state and its moves since, as they were
    written: taking every table's state afresh held the host's loop 100 ms with 256
    tables. What it writes resumes to the same game."""
    from net.table import Table

    monkeypatch.setattr(j, "SNAPSHOT_EVERY", 5)  # (several whole states while it plays)
    path = tmp_path / "j" / f"game{j.SUFFIX}"
    host = Host("Den", journal=path, **seeded(7))
    await host.start(LOCAL, 0)
    async with clients(host) as made:
        ann = await made.new("Ann")
        joined = await playing_with_a_bot(ann, "Kitchen", "getout")
        lobby = await (await made.new("Bob")).create_table("Hall", "gotfive", 3)
        await play_getout_moves(ann, 13)
        taken: list[str] = []
        real = Table.checkpoint
        monkeypatch.setattr(Table, "checkpoint",
                            lambda table: taken.append(table.id) or real(table))
        host.compact()
        assert taken == []
        game = host.tables[joined.table].game
        assert game is not None
        before = game.snapshot()
        await crash(host)
    again = Host.resume(path, **seeded(8))
    try:
        resumed = again.tables[joined.table].game
        assert resumed is not None and resumed.snapshot() == before
        assert again.tables[lobby.table].phase == "lobby"
        # A resumed host rewrote its journal from each table's state afresh; it plays
        # on, rewrites from what it wrote since, and comes back from a crash again.
        await again.start(LOCAL, 0)
        async with clients(again) as made:
            ann = await made.new("Ann")
            await ann.join(joined.table, 0, token=joined.token)
            await play_getout_moves(ann, 8)
            taken.clear()
            again.compact()
            assert taken == []
            before = resumed.snapshot()
            await crash(again)
        third = Host.resume(path, **seeded(9))
        game = third.tables[joined.table].game
        assert game is not None and game.snapshot() == before
        await third.close()
    finally:
        await again.close()


async def test_a_torn_last_record_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / f"torn{j.SUFFIX}"
    host = Host("Den", journal=path, **seeded(5))
    await host.start(LOCAL, 0)
    async with clients(host) as made:
        ann = await made.new("Ann")
        joined = await playing_with_a_bot(ann, "T", "gotfive")
        await crash(host)
    with path.open("ab") as f:
        f.write(b"\x00\x00\x10\x00\x81\xa1k")  # a record the crash cut short
    again = Host.resume(path, **seeded(6))
    assert again.tables[joined.table].game is not None
    await again.start(LOCAL, 0)
    # Nobody has come back yet: the table waits as any other would, then closes.
    assert joined.table in again.idle_timers
    await again.close()


async def crashed_game(path: Path, table: str = "T", game: str = "gotfive") -> Path:
    """The journal at ``path`` of a game in play (Ann and a bot) whose host crashed."""
    host = Host("Den", journal=path, **seeded(5))
    await host.start(LOCAL, 0)
    async with clients(host) as made:
        ann = await made.new("Ann")
        await playing_with_a_bot(ann, table, game)
        await crash(host)
    return path


async def test_a_journal_damaged_before_its_end_is_refused_and_left_as_it_is(
        tmp_path: Path) -> None:
    """Bytes flipped mid-file resumed the game as it stood before them (a game in play
    came back as its lobby), said nothing, and rewrote the file: the records after the
    damage were gone for good. Only a torn last record is what a crash leaves."""
    path = await crashed_game(tmp_path / f"damaged{j.SUFFIX}")
    data = path.read_bytes()
    header = 4 + int.from_bytes(data[:4], "big")
    second = 4 + int.from_bytes(data[header:header + 4], "big")
    for damage in (
            # a byte of the second record's body flipped
            data[:header + 6] + bytes([data[header + 6] ^ 0xFF]) + data[header + 7:],
            # its length made larger than any record
            data[:header] + b"\xff\xff\xff\xff" + data[header + 4:],
            # a record that is no map put in after it
            data[:header + second] + b"\x00\x00\x00\x01\x07" + data[header + second:]):
        path.write_bytes(damage)
        with pytest.raises(j.JournalError, match=r"damaged at byte \d+ of \d+"):
            Host.resume(path, **seeded(6))
        assert path.read_bytes() == damage  # left as it is
    # Zeros after the last record (a power cut grew the file) are a torn tail.
    path.write_bytes(data + bytes(100))
    again = Host.resume(path, **seeded(6))
    await again.close()


async def served_until_listening(caplog: pytest.LogCaptureFixture, **settings: Any) -> None:
    """``net.serve.serve(**settings)`` until it says it listens, then stopped."""
    from net.serve import serve

    stop = asyncio.Event()
    running = asyncio.ensure_future(serve(stop=stop, **settings))
    try:
        while "listening" not in caplog.text:
            await asyncio.sleep(0.01)  # (the host's own log line: nothing else to wait on)
    finally:
        stop.set()
        await running


async def test_a_host_started_anew_names_the_unfinished_game_it_could_resume(
        data_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Started again after a crash the same way, a host began a new game and said
    nothing of the one it had been running; its players read that theirs was gone."""
    import logging


    path = await crashed_game(j.new_journal_path(), "Kitchen", "getout")
    caplog.set_level(logging.INFO)
    await served_until_listening(caplog, game="getout", seats=2, bots=1, options={}, port=0,
                                 bind=LOCAL, name="Den", table="Porch", interfaces=None,
                                 mdns=False, bot_delay=0.01)
    assert "hosting 'Porch': GET OUT!, 2 seats (1 bot)" in caplog.text
    assert ("⚠ an unfinished game was kept: Den, " in caplog.text
            and f"Kitchen (getout, play: Ann); its players are told their table is gone: "
            f"stop this host (Ctrl-C) and run 'hiddenhand host --resume {path}' to bring it "
            "back" in caplog.text), caplog.text


def _with_table(path: Path, change: Any) -> None:
    """Rewrite the journal at ``path`` with its last table record changed."""
    header, records = j.read_journal(path)
    last = max(i for i, r in enumerate(records) if r.get("k") == "table")
    change(records[last])
    path.write_bytes(b"".join(j._frame(r) for r in [header, *records]))


@pytest.mark.parametrize(("change", "said"), [
    (lambda r: r.update(game="chess"), "a game this release does not know"),
    (lambda r: r.update(phase="zzz"), "no phase"),
    (lambda r: r.update(seats=r["seats"] * 400), "must have 2 to 4 seats"),
    (lambda r: r["seats"][0].update(name="Ann\x1b[2J\x07"), "unprintable"),
    (lambda r: r["seats"][0].update(name="A" * 100_000), "characters long"),
    (lambda r: r["seats"][0].update(name="[/]"), r"\[ or \]"),
    # (A person resumed as "Bot 9", whom every screen took for a bot.)
    (lambda r: r["seats"][0].update(name="Bot 9"), "seats a person by a name no host takes"),
    (lambda r: r.update(name="x" * 500), "characters long"),
    (lambda r: r.update(creator=99), "creator"),
    (lambda r: r["snapshot"].update(game="getit"), "not its own"),
    (lambda r: r["snapshot"].update(version=2**64 - 1), "version"),
    (lambda r: r["options"].update(limit=-5), "options no host takes"),
    (lambda r: r["options"].update(zzz=1), "options no host takes: unknown option 'zzz'"),
    (lambda r: r.update(snapshot=None), "in play without its game"),
    (lambda r: r.update(snapshot=None, phase="over"), "over without its game"),
    # A lobby holds no game (it resumed offering the game's moves beside "start"), and
    # a game said to be over is (it resumed as over, its moves still offered).
    (lambda r: r.update(phase="lobby"), "in its lobby with a game in it"),
    (lambda r: r.update(phase="over"), "says its game is over, and it is not"),
    (lambda r: r.update(t=5), "a table in it has no id"),
    # The game itself is what its moves play to from its seed, never a state as read:
    # a GET OUT! hand holding cards 999 and -1 resumed, and its player could never sit
    # again (a Got Five! game here: any state of any game).
    (lambda r: r["snapshot"]["state"]["racks"][0].extend([999, -1]),
     "a game its own moves do not play to"),
    (lambda r: r["snapshot"]["state"].update(public=["1", "2"]),
     "a game its own moves do not play to"),
    (lambda r: r["snapshot"]["state"].update(turn=99), "a game its own moves do not play to"),
    (lambda r: r.update(tape=None), "without the moves that made it"),
    (lambda r: r["tape"].update(seats=3), "moves of another game"),
    (lambda r: r["tape"].update(seed=2**63), "holds moves no game plays: seed"),
    (lambda r: r["tape"]["moves"].append([1, {"type": "draw"}, 10**9]),
     "moves no game plays: move [0-9]+ .draw by seat 2. breaks the rules"),
])
async def test_a_journal_s_table_that_no_host_writes_is_refused_in_words(
        tmp_path: Path, change: Any, said: str) -> None:
    """Fields of a resumed table were taken as they stood: a game of "chess", a phase
    "zzz", 400 seats (then a traceback a bot's move), raw escapes in the host's log, a
    number too large to write back (a traceback)."""
    path = await crashed_game(tmp_path / f"odd{j.SUFFIX}")
    _with_table(path, change)
    before = path.read_bytes()
    with pytest.raises(j.JournalError, match=said):
        Host.resume(path, **seeded(6))
    assert path.read_bytes() == before


async def test_a_got_five_journal_from_before_one_seat_s_moves_were_counted_resumes(
        tmp_path: Path) -> None:
    """Got Five!'s snapshots now count the moves only one seat knows of (its marks): a
    journal written before (a box stopped, upgraded, started again) still resumes, and
    counts made up are still refused."""
    path = await crashed_game(tmp_path / f"old{j.SUFFIX}")
    before = path.read_bytes()
    _with_table(path, lambda r: r["snapshot"]["state"].update(private=[5, 0]))
    with pytest.raises(j.JournalError, match="a game its own moves do not play to"):
        Host.resume(path, **seeded(6))
    path.write_bytes(before)
    _with_table(path, lambda r: r["snapshot"]["state"].pop("private"))
    host = Host.resume(path, **seeded(6))
    try:
        assert [t.game_id for t in host.tables.values()] == ["gotfive"]
    finally:
        await host.close()


@pytest.mark.parametrize("at", [float("nan"), float("inf"), 1e300, -1.0, "1"])
async def test_a_journal_s_move_at_no_time_there_is_is_refused_in_words(
        tmp_path: Path, at: Any) -> None:
    """A move journaled after its table at NaN, inf or 1e300 resumed, and the game's
    next snapshot made the file one no resume would take."""
    path = await crashed_game(tmp_path / f"odd{j.SUFFIX}")
    header, records = j.read_journal(path)
    table = next(r["t"] for r in reversed(records) if r.get("k") == "table")
    records.append({"k": "adv", "t": table, "n": at})
    path.write_bytes(b"".join(j._frame(r) for r in [header, *records]))
    before = path.read_bytes()
    with pytest.raises(j.JournalError, match="a move at no time it can be at"):
        Host.resume(path, **seeded(6))
    assert path.read_bytes() == before


async def test_a_resumed_host_listens_where_the_crashed_one_did_even_if_it_cannot(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A host started with --bind 127.0.0.1 came back from --resume on every address;
    and a resume that could not listen (its port taken) rewrote the journal without
    its port, so the next resume listened elsewhere and its players could not return."""
    import logging
    import socket

    from net.journal_resume import recover
    from net.serve import StartError, serve

    path = await crashed_game(tmp_path / f"bound{j.SUFFIX}")
    found = recover(path)
    assert found.bind == LOCAL and found.port
    caplog.set_level(logging.INFO)
    settings: dict[str, Any] = {
        "game": "getout", "seats": 2, "bots": 1, "options": {}, "port": None, "bind": None,
        "name": "Den", "table": "T", "interfaces": None, "mdns": False, "bot_delay": 0.01}
    # (The end of a record a crash cut short: left out when it resumes, and said.)
    path.write_bytes(path.read_bytes() + j._frame({"k": "act", "t": "x" * 40})[:30])
    before = path.read_bytes()
    with socket.socket() as taken:
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # (its last peers')
        taken.bind((LOCAL, found.port))
        taken.listen()
        with pytest.raises(StartError, match="in use"):
            await serve(stop=asyncio.Event(), resume=path, **settings)
    # The file as it was, byte for byte (docs/reliability.md; it was rewritten, half its
    # size, by a resume that then failed: a command-line pass), and no word of a resume.
    assert path.read_bytes() == before
    assert "resumed" not in caplog.text and "cut short" not in caplog.text, caplog.text
    again = recover(path)
    assert (again.port, again.bind, again.created) == (found.port, LOCAL, found.created)
    await served_until_listening(caplog, resume=path, **settings)
    assert f"listening on {LOCAL} port {found.port}" in caplog.text, caplog.text
    assert "resumed 1 table(s)" in caplog.text
    assert "the journal ended in 30 bytes that hold no whole record" in caplog.text
    assert recover(path).torn == 0  # (rewritten as the tables are, once it listened)


@pytest.mark.parametrize(("listen", "said"), [
    ({"port": 99999}, "no port there is"),
    ({"port": -1}, "no port there is"),
    ({"port": True}, "no port there is"),
    ({"port": 4455, "bind": "8.8.8.8.8"}, "no address there is"),
    ({"port": 4455, "bind": 5}, "no address there is"),
    ({"port": 4455, "bind": "\x1b[2J"}, "no address there is"),
])
async def test_a_journal_that_says_it_listened_nowhere_there_is_is_refused(
        tmp_path: Path, listen: dict[str, Any], said: str) -> None:
    """A port of 99999 was listened on as 34463 (wrapped round), -1 failed in the
    resolver's words, an address that is none was let go by unsaid."""
    path = await crashed_game(tmp_path / f"where{j.SUFFIX}")
    header, records = j.read_journal(path)
    for record in records:
        if record.get("k") == "listen":
            record.pop("bind", None)
            record.update(listen)
    path.write_bytes(b"".join(j._frame(r) for r in [header, *records]))
    before = path.read_bytes()
    with pytest.raises(j.JournalError, match=said):
        Host.resume(path, **seeded(6))
    assert path.read_bytes() == before


@pytest.mark.parametrize("kind", ["device", "pipe", "huge"])
def test_a_journal_that_is_no_regular_file_is_refused_at_once(tmp_path: Path,
                                                               kind: str) -> None:
    """/dev/zero was read for ever (4 GB in 8 s, deaf to Ctrl-C), a pipe waited for a
    writer for ever."""
    path = tmp_path / f"odd{j.SUFFIX}"
    if kind == "device":
        path.symlink_to("/dev/zero")
    elif kind == "pipe":
        os.mkfifo(path)
    else:
        with path.open("wb") as f:
            f.truncate(j.MAX_JOURNAL + 1)
    with pytest.raises(j.JournalError, match=r"not a regular file|larger than"):
        Host.resume(path, **seeded(6))
    assert list_journals(tmp_path) == []


async def _timed_getit(made: Clients) -> tuple[list[Client], list[Any]]:
    ann, bob, joined, bob_seat = await made.getit_dealt(
        {"level": "X", "cards": 9, "timer": 90})
    for c in (ann, bob):
        prep = await c.wait_for(lambda m: m["type"] == "update" and m["legal"])
        hand = prep["view"]["hand"]
        numbers = sorted((x for x in hand if x["kind"] == "number"), key=lambda x: x["value"])
        pile = [x["id"] for x in numbers] + [x["id"] for x in hand if x["kind"] != "number"]
        await c.act({"type": "arrange", "pile": pile})
    await ann.wait_for(lambda m: m["type"] == "update" and m["view"]["remaining"] is not None)
    return [ann, bob], [joined, bob_seat]


async def test_a_get_it_round_in_flight_comes_back_paused_until_everyone_is_back(
    tmp_path: Path,
) -> None:
    path = tmp_path / f"getit{j.SUFFIX}"
    host = Host("Den", journal=path, **seeded(7))
    await host.start(LOCAL, 0)
    port = host.port
    async with clients(host) as made:
        _, (joined, bob_seat) = await _timed_getit(made)
        await crash(host)
    again = Host.resume(path, **seeded(8))
    await again.start(LOCAL, port)
    try:
        table = again.tables[joined.table]
        assert table.paused and table.game is not None
        left = table.game.deadline - table.game.now  # type: ignore[operator]
        async with clients(again) as made:
            ann = await made.new("Ann")
            await ann.join(joined.table, 0, token=joined.token)
            update = await ann.wait_for(lambda m: m["type"] == "update" and m["view"])
            assert {"type": "paused", "waiting": [1]} in update["notices"]
            assert update["table"]["paused"] is True
            # Time stands still while Bob is away: the seconds left do not run down.
            assert update["view"]["remaining"] == pytest.approx(left, abs=1e-3)
            with pytest.raises(ServerError) as info:
                await ann.act({"type": "play"})
            assert info.value.code == errors.WRONG_PHASE and "Bob (seat 2)" in info.value.message
            await ann.ping()
            assert table.game.view(None)["version"] == update["view"]["version"]
            bob = await made.new("Bob")
            await bob.join(joined.table, 1, token=bob_seat.token)
            back = await ann.wait_for(
                lambda m: m["type"] == "update" and {"type": "resumed"} in m["notices"]
            )
            assert not table.paused and 0 < back["view"]["remaining"] <= left
            assert back["table"]["paused"] is False
    finally:
        await again.close(keep_journal=False)


async def test_a_host_that_lost_the_table_says_so() -> None:
    async with Host("old", **seeded(9)) as old:
        await old.start(LOCAL, 0)
        async with clients(old) as made:
            ann = await made.new("Ann")
            first = await ann.create_table("T", "getout", 2)
            second_host_table = await (await made.new("Bob")).create_table("U", "getout", 2)
    # A fresh host (not resumed) on which "t1" is some other table, and "t2" is none.
    async with Host("new", **seeded(10)) as new:
        await new.start(LOCAL, 0)
        new.create_table("Other", "getout", 2)
        async with clients(new) as made:
            ann = await made.new("Ann")
            for joined in (first, second_host_table):
                with pytest.raises(ServerError) as info:
                    await ann.join(joined.table, joined.seat, token=joined.token)
                assert info.value.code == errors.NO_TABLE
                assert "gone" in info.value.message and "restarted" in info.value.message


async def _line(stream: asyncio.StreamReader, pattern: str) -> str:
    import re

    async with asyncio.timeout(20):
        while True:
            raw = await stream.readline()
            assert raw, f"the host ended before printing {pattern!r}"
            found = re.search(pattern, raw.decode())
            if found:
                return found[1] if found.groups() else found[0]


async def _run_host(*args: str) -> asyncio.subprocess.Process:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui.cli", "host", "--bind", "127.0.0.1", "--no-mdns",
        "--bot-delay", "0", *args,
        cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )


async def test_kill_9_then_hiddenhand_host_resume(data_dir: Path) -> None:
    proc = await _run_host("--port", "0", "--game", "getout", "--seats", "2", "--bots", "1",
                           "--option", "match=false")
    assert proc.stdout is not None
    port = int(await _line(proc.stdout, r"listening on 127\.0\.0\.1 port (\d+)"))
    ann = await Client.connect(LOCAL, port, name="Ann")
    joined = await ann.join("t1")
    await ann.start()
    bot = make_bot("getout", 0, 1)
    for _ in range(3):
        msg = await ann.wait_for(lambda m: m["type"] == "update" and bool(m["legal"]))
        action = bot.choose(msg["view"], msg["legal"])
        assert action is not None
        await ann.act(action)
    before = versions_seen(ann)
    proc.send_signal(signal.SIGKILL)
    await proc.wait()
    await ann.close()

    again = await _run_host("--resume")
    assert again.stdout is not None
    try:
        await _line(again.stdout, r"(resumed .*from)")
        assert int(await _line(again.stdout, r"listening on 127\.0\.0\.1 port (\d+)")) == port
        back = await Client.connect(LOCAL, port, name="Ann")
        await back.join("t1", 0, token=joined.token)
        update = await back.wait_for(lambda m: m["type"] == "update" and m["view"])
        assert update["view"]["version"] >= before
        assert update["table"]["seats"][0]["name"] == "Ann"
        result = await drive(back, make_bot("getout", 0, 2), timeout=60)
        assert result is not None
        await back.close()
    finally:
        again.send_signal(signal.SIGINT)
        rest, _ = await asyncio.wait_for(again.communicate(), 15)
    assert again.returncode == 0 and "Traceback" not in rest.decode()
    assert not list((data_dir / "journals").glob(f"*{j.SUFFIX}"))  # over: nothing to resume


async def test_a_stopping_host_tells_each_player_whether_their_game_can_come_back(
    tmp_path: Path,
) -> None:
    """In play with a journal: it may be resumed, the seat is kept. A lobby (or no
    journal): the table is gone for good."""
    path = tmp_path / f"game{j.SUFFIX}"
    host = Host("Den", journal=path, **seeded(5))
    await host.start("127.0.0.1", 0)
    ann = await Client.connect("127.0.0.1", host.port, name="Ann")
    bob = await Client.connect("127.0.0.1", host.port, name="Bob")
    joined = await ann.create_table("Playing", "getout", 2)
    await ann.add_bot(1)
    await ann.start()
    await bob.create_table("Waiting", "getout", 2)
    await host.close()
    said = {}
    for name, client in (("Ann", ann), ("Bob", bob)):
        msg = await client.wait_for(lambda m: m["type"] == "error")
        said[name] = msg["code"]
    assert said == {"Ann": errors.SHUTTING_DOWN, "Bob": errors.TABLE_CLOSED}
    assert path.exists() and joined.token is not None
    again = Host("Den", **seeded(6))  # no journal: nothing can come back
    await again.start("127.0.0.1", 0)
    cy = await Client.connect("127.0.0.1", again.port, name="Cy")
    await cy.create_table("Playing", "getout", 2)
    await cy.add_bot(1)
    await cy.start()
    await again.close()
    assert (await cy.wait_for(lambda m: m["type"] == "error"))["code"] == errors.TABLE_CLOSED


async def test_a_host_back_from_a_crash_gives_a_returning_seat_the_table_s_past(
        tmp_path: Path) -> None:
    """The log and the chat of a table come back with it: after a host crash a returning
    seat read only "Carol is back". The past survives a rewrite of the journal too."""
    path = tmp_path / "j" / f"game{j.SUFFIX}"
    host = Host("Den", journal=path, **seeded(5))
    await host.start(LOCAL, 0)
    async with clients(host) as made:
        ann = await made.new("Ann")
        joined = await playing_with_a_bot(ann, "Kitchen", "getout")
        await ann.chat("before the crash")
        await ann.wait_for(lambda m: m["type"] == "chat")
        await play_getout_moves(ann, 3)
        told = [e for e in host.tables[joined.table].past.entries() if e["type"] == "update"]
        await crash(host)
    again = Host.resume(path, **seeded(6))
    again.compact()  # the past is kept when the journal is rewritten, too
    await again.start(LOCAL, 0)
    try:
        async with clients(again) as made:
            ann2 = await made.new("Ann")
            await ann2.join(joined.table, 0, token=joined.token)
            past = ann2.past
            assert {"before the crash"} <= {e.get("text") for e in past if e["type"] == "chat"}
            updates = [e for e in past if e["type"] == "update"]
            assert updates[:len(told)] == told
    finally:
        await again.close()


@pytest.mark.parametrize("name", ["[red]X", 12345, "", "A\x1b[2J"])
async def test_a_journal_s_host_name_that_no_host_takes_is_refused_in_words(
        tmp_path: Path, name: Any) -> None:
    """A resumed host's name is its journal's: "[red]X" and a number were advertised on
    the LAN as they stood, where ``--name`` refuses them."""
    path = await crashed_game(tmp_path / f"named{j.SUFFIX}")
    header, records = j.read_journal(path)
    path.write_bytes(b"".join(j._frame(r) for r in [{**header, "name": name}, *records]))
    before = path.read_bytes()
    with pytest.raises(j.JournalError, match="the host's name"):
        Host.resume(path, **seeded(6))
    assert path.read_bytes() == before


async def test_a_resumed_host_keeps_its_name_unless_given_another(tmp_path: Path) -> None:
    """``hiddenhand host --resume`` came back under the machine's name (the command's
    default for ``--name``), not the one its players knew it by (a command-line pass)."""
    from tui.cli import build_parser

    path = await crashed_game(tmp_path / f"named{j.SUFFIX}")
    for argv, name in (([], "Den"), (["--name", "Attic"], "Attic")):
        args = build_parser(arguments={"host"}).parse_args(
            ["host", "--resume", str(path), *argv])
        host = Host.resume(path, name=args.name, **seeded(6))
        assert host.name == name and host.journal is not None
        host.journal.close(remove=False)

"""The journal's two ways to the disk: ``each`` fsyncs before an append returns,
``background`` never makes its caller wait for the disk, yet syncs every record soon."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from net import journal as j
from net.host import Host
from net.journal_list import list_journals
from tui.cli import main


@pytest.fixture
def fsyncs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The name of the thread of every ``os.fsync`` call."""
    calls: list[str] = []
    real = os.fsync

    def spy(fd: int) -> None:
        calls.append(threading.current_thread().name)
        real(fd)

    monkeypatch.setattr(os, "fsync", spy)
    return calls


def test_each_mode_fsyncs_every_record_before_append_returns(
    tmp_path: Path, fsyncs: list[str]
) -> None:
    journal = j.Journal.create(tmp_path / "a.hhjournal", {"name": "x"}, sync="each")
    before = len(fsyncs)
    for n in range(5):
        journal.append({"k": "act", "t": "t1", "n": n})
        assert journal.durable == journal.written
    me = threading.current_thread().name
    assert fsyncs[before:] == [me] * 5
    journal.close()


def test_background_mode_syncs_on_its_own_thread_and_every_record_becomes_durable(
    tmp_path: Path, fsyncs: list[str]
) -> None:
    path = tmp_path / "b.hhjournal"
    others = set(threading.enumerate())  # (journals of earlier tests' apps may be open)
    journal = j.Journal.create(path, {"name": "x"})
    before = len(fsyncs)
    for n in range(50):
        journal.append({"k": "act", "t": "t1", "n": n})
    me = threading.current_thread().name
    assert journal.wait_durable(timeout=10)
    assert journal.durable == journal.written == 51
    synced_by = fsyncs[before:]
    assert synced_by and me not in synced_by
    assert set(synced_by) == {"hiddenhand-journal-sync"}
    journal.close()
    assert not [t for t in threading.enumerate()
                if t.name == "hiddenhand-journal-sync" and t not in others]
    _, records = j.read_journal(path)
    assert [r["n"] for r in records if r["k"] == "act"] == list(range(50))


def test_background_mode_opens_a_journal_without_waiting_for_the_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[tuple[str, bool]] = []  # (thread, a directory?) of every fsync
    real = os.fsync

    def spy(fd: int) -> None:
        synced.append((threading.current_thread().name, stat.S_ISDIR(os.fstat(fd).st_mode)))
        real(fd)

    monkeypatch.setattr(os, "fsync", spy)
    path = tmp_path / "new.hhjournal"
    journal = j.Journal.create(path, {"name": "x"})
    me = threading.current_thread().name
    assert me not in [name for name, _ in synced]
    # The first record is in the file at once; it and the new file's entry in its
    # directory are made durable by the thread.
    assert j.read_journal(path)[0]["name"] == "x"
    assert journal.wait_durable(timeout=10) and journal.durable == 1
    assert ("hiddenhand-journal-sync", False) in synced
    assert ("hiddenhand-journal-sync", True) in synced
    journal.close()


def test_each_mode_opens_a_journal_durable_directory_entry_and_all(
    tmp_path: Path, fsyncs: list[str]
) -> None:
    journal = j.Journal.create(tmp_path / "e1.hhjournal", {"name": "x"}, sync="each")
    me = threading.current_thread().name
    assert journal.durable == journal.written == 1
    assert fsyncs == [me, me]  # the file, then its directory
    journal.close()


def test_a_record_is_in_the_file_as_soon_as_append_returns(tmp_path: Path) -> None:
    # What a crash of the host process (kill -9) leaves: the kernel has every record.
    path = tmp_path / "c.hhjournal"
    journal = j.Journal.create(path, {"name": "x"})
    journal.append({"k": "act", "t": "t1", "n": 7})
    _, records = j.read_journal(path)
    assert records[-1] == {"k": "act", "t": "t1", "n": 7}
    journal.close()


def test_compaction_and_close_keep_the_background_thread_safe(tmp_path: Path) -> None:
    path = tmp_path / "d.hhjournal"
    journal = j.Journal.create(path, {"name": "x"})
    for n in range(20):
        journal.append({"k": "act", "t": "t1", "n": n})
        if n % 7 == 0:
            journal.rewrite([{"k": "host", "v": j.JOURNAL_VERSION, "name": "x"},
                             {"k": "act", "t": "t1", "n": n}])
    assert journal.wait_durable(timeout=10)
    journal.close()
    _, records = j.read_journal(path)
    assert [r["n"] for r in records if r["k"] == "act"] == [14, *range(15, 20)]


def test_a_rewrite_comes_only_after_as_many_records_as_it_wrote(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A host whose tables alone rewrite to more than COMPACT_AFTER records rewrote them
    # all on every record it wrote: 24 busy tables took 66 ms of its loop each time.
    monkeypatch.setattr(j, "COMPACT_AFTER", 3)
    journal = j.Journal.create(tmp_path / "g.hhjournal", {"name": "x"})
    for n in range(2):
        journal.append({"k": "act", "t": "t1", "n": n})
    assert not journal.compaction_due  # its header and 2 records
    journal.append({"k": "act", "t": "t1", "n": 2})
    assert journal.compaction_due
    tables = [{"k": "table", "t": f"t{n}"} for n in range(10)]
    journal.rewrite([{"k": "host", "v": j.JOURNAL_VERSION, "name": "x"}, *tables])
    for n in range(12):  # as many as the 11 it wrote, and one more
        assert not journal.compaction_due, n
        journal.append({"k": "act", "t": "t1", "n": n})
    assert journal.compaction_due
    journal.close()


def test_a_rewrite_also_comes_after_as_many_bytes_as_it_wrote(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A table writes its whole state, its game's every move, every 100 moves: a file of
    # fewer records than a rewrite waits for could pass what a resume reads (64 MB).
    monkeypatch.setattr(j, "COMPACT_BYTES", 10_000)
    journal = j.Journal.create(tmp_path / "i.hhjournal", {"name": "x"})
    big = {"k": "table", "t": "t1", "tape": "m" * 3000}
    for _ in range(3):
        journal.append(big)
    assert not journal.compaction_due and journal.records < j.COMPACT_AFTER
    journal.append(big)
    assert journal.compaction_due
    journal.rewrite([{"k": "host", "v": j.JOURNAL_VERSION, "name": "x"}, *[big] * 5])
    assert journal.size == (tmp_path / "i.hhjournal").stat().st_size > 15_000
    for _ in range(5):  # as many bytes as the rewrite wrote
        assert not journal.compaction_due
        journal.append(big)
    journal.append(big)
    assert journal.compaction_due
    journal.close()


def test_a_record_built_around_a_packed_value_reads_as_the_whole_record(
        tmp_path: Path) -> None:
    import msgpack

    entry = {"type": "update", "events": [{"type": "look", "seat": 2}], "names": ["Ann"]}
    body = j.packed_prefix({"k": "past", "t": "t7"}, "e") + msgpack.packb(entry)
    wide = {f"f{n}": n for n in range(20)}  # (past 15 keys a map's header is longer)
    journal = j.Journal.create(tmp_path / "h.hhjournal", {"name": "x"})
    journal.rewrite([{"k": "host", "v": j.JOURNAL_VERSION, "name": "x"}, body,
                     j.packed_prefix(wide, "e") + msgpack.packb(None)])
    journal.close()
    _, records = j.read_journal(tmp_path / "h.hhjournal")
    assert records[-2:] == [{"k": "past", "t": "t7", "e": entry}, {**wide, "e": None}]


def test_an_unknown_sync_mode_is_refused_in_words(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="sync must be one of background, each"):
        j.Journal.create(tmp_path / "e.hhjournal", {"name": "x"}, sync="never")
    assert not (tmp_path / "e.hhjournal").exists()
    with pytest.raises(ValueError, match="fsync must be one of background, each"):
        Host("x", journal=tmp_path / "f.hhjournal", fsync="sometimes")
    assert not (tmp_path / "f.hhjournal").exists()


def test_hiddenhand_host_refuses_a_garbage_fsync_option(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["host", "--fsync", "never"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("hiddenhand host: error: ")
    assert "--fsync" in err and "'background', 'each'" in err, err


def test_only_games_in_play_and_lobbies_with_players_are_offered_to_resume(
        tmp_path: Path) -> None:
    """A finished game is not offered (a play test was offered won games to resume)."""
    def journal(name: str, phase: str, kinds: list[str]) -> None:
        made = j.Journal.create(tmp_path / f"{name}{j.SUFFIX}", {"name": "Den", "created": 0})
        made.append({"k": "table", "t": "t1", "name": name, "game": "getout",
                     "phase": phase,
                     "seats": [{"kind": k, "name": f"p{i}"} for i, k in enumerate(kinds)]})
        made.close()

    journal("playing", "play", ["human", "bot"])
    journal("waiting", "lobby", ["human", "empty"])
    journal("empty", "lobby", ["empty", "bot"])
    journal("finished", "over", ["human", "bot"])
    offered = {info.tables[0]["name"] for info in list_journals(tmp_path)}
    assert offered == {"playing", "waiting"}


def test_the_newest_journal_is_found_without_reading_the_others(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The menu read every journal to offer the newest (half a second for 950 of them,
    the screen frozen): journals are read newest first, and only as far as asked."""
    import net.journal_list as listing

    for age, name in enumerate(("newest", "older", "oldest")):
        made = j.Journal.create(tmp_path / f"{name}{j.SUFFIX}", {"name": "Den", "created": 0})
        made.append({"k": "table", "t": "t1", "name": name, "game": "getout",
                     "phase": "play", "seats": [{"kind": "human", "name": "Ann"}]})
        made.close()
        os.utime(made.path, (1e9 - age, 1e9 - age))
    read: list[str] = []
    real = listing.describe_journal

    def counted(path: Path) -> listing.JournalInfo:
        read.append(Path(path).stem)
        return real(path)

    monkeypatch.setattr(listing, "describe_journal", counted)
    first = next(listing.iter_journals(tmp_path))
    assert first.tables[0]["name"] == "newest" and read == ["newest"]
    assert [i.tables[0]["name"] for i in list_journals(tmp_path, most=2)] == [
        "newest", "older"]
    assert [i.tables[0]["name"] for i in list_journals(tmp_path)] == [
        "newest", "older", "oldest"]


async def test_resume_latest_says_a_running_host_holds_the_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`host --resume` beside a running host answered "there is no game to resume",
    with that host's journal right there (a fresh-eyed operator's pass)."""
    from net.serve import find_resumable

    monkeypatch.setenv("HIDDENHAND_DATA_DIR", str(tmp_path))
    with pytest.raises(j.JournalError) as nothing:
        find_resumable("latest")
    assert "running host" not in str(nothing.value)
    host = Host("x", journal=j.new_journal_path())
    try:
        with pytest.raises(j.JournalError, match=r"no game to resume in .*: the game kept "
                           r"there is being hosted by a running host now"):
            find_resumable("latest")
    finally:
        await host.close()

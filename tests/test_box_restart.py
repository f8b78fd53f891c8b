"""The box survives its own restart: its host journals, and a box started again on the
same data directory has every table back as it was, on the port it had, where each
player takes their seat back by its token."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from engine.bots import make_bot
from net.box import Box, BoxSettings
from net.client import Client
from net.journal import JournalError
from tests.test_net_recovery import crash


def settings(path: Path) -> BoxSettings:
    return BoxSettings(data_dir=path, hostname="box", bot_delay=0)


async def _a_game_with_a_move(box: Box) -> tuple[Client, str, str, int]:
    """Ann at a GET OUT! table against a bot, one move of hers acknowledged."""
    assert box.host is not None
    ann = await Client.connect(*box.host_address, name="Ann")
    joined = await ann.create_table("Porch", "getout", 2, {"first": 0, "match": False})
    await ann.add_bot(1)
    await ann.start()
    msg = await ann.wait_for(lambda m: m["type"] == "update" and bool(m["legal"]))
    action = make_bot("getout", 0, 1).choose(msg["view"], msg["legal"])
    await ann.act(action)
    table = box.host.tables[joined.table]
    assert table.game is not None
    return ann, joined.table, joined.token, table.game.version


@pytest.mark.parametrize("how", ["crash", "stop"])
async def test_a_box_started_again_has_its_tables_back_and_seats_by_token(
        tmp_path: Path, how: str) -> None:
    first = Box(settings(tmp_path))
    await first.start()
    assert first.host is not None
    where = first.host_address
    ann, table_id, token, version = await _a_game_with_a_move(first)
    await ann.close()
    if how == "crash":
        await crash(first.host)  # kill -9: the journal as it stood
    else:
        await first.close()  # Ctrl-C: nothing asked, nothing lost
    assert first.journal_path.exists()

    again = Box(settings(tmp_path))
    await again.start()
    try:
        assert again.host is not None and again.host_address == where
        table = again.host.tables[table_id]
        assert table.game is not None and table.game.version == version
        assert [s.name for s in table.seats] == ["Ann", "Bot 2"]
        back = await Client.connect(*where, name="Ann")
        await back.join(table_id, 0, token=token)
        view = (await back.wait_for(lambda m: m["type"] == "update" and m["view"]))["view"]
        assert view["version"] >= version and view["seat"] == 0
        await back.close()
    finally:
        await again.close()


async def test_players_leaving_a_stopping_box_leave_its_tables_as_they_were(
        tmp_path: Path) -> None:
    """A box ends its apps before its host: each app's leaving passed the creator's role
    to whoever was still there, and the journal kept that, so after every restart the
    table had another creator. A stopping host takes no leaves."""
    first = Box(settings(tmp_path))
    await first.start()
    assert first.host is not None
    where = first.host_address
    ann = await Client.connect(*where, name="Ann")
    joined = await ann.create_table("Porch", "getout", 2, {"first": 0, "match": False})
    bob = await Client.connect(*where, name="Bob")
    await bob.join(joined.table, 1)
    for player in (ann, bob):
        await player.ready()
    await ann.start()
    await bob.wait_for(lambda m: m["type"] == "update" and m.get("view"))
    table = first.host.tables[joined.table]
    assert table.creator == 0
    first.host.closing = True  # (as the box's close says, before it ends the apps)
    await ann.close()  # Ann's app ends first …
    host = first.host
    for _ in range(2000):  # (until the host has dropped her: a safety net of 20 s)
        if len(host.connections) == 1:
            break
        await asyncio.sleep(0.01)
    assert len(host.connections) == 1
    assert table.creator == 0 and table.seats[0].name == "Ann"  # … and stays the creator
    await first.close()
    await bob.close()
    again = Box(settings(tmp_path))
    await again.start()
    try:
        assert again.host is not None
        assert again.host.tables[joined.table].creator == 0
    finally:
        await again.close()


async def test_two_boxes_cannot_share_a_data_directory(tmp_path: Path) -> None:
    first = Box(settings(tmp_path))
    await first.start()
    try:
        second = Box(settings(tmp_path))
        with pytest.raises(JournalError, match="another box runs with"):
            await second.start()
    finally:
        await first.close()


async def test_a_box_with_nothing_at_it_leaves_no_journal(tmp_path: Path) -> None:
    box = Box(settings(tmp_path))
    await box.start()
    await box.close()
    assert not box.journal_path.exists()


async def test_the_box_host_is_reached_only_through_the_box(tmp_path: Path) -> None:
    """Its Unix socket is in a directory only the box's user may enter, and it listens
    on no TCP port at all: other local users cannot go around the box's doors."""
    import os
    import stat

    box = Box(settings(tmp_path / ("long-" * 30)))  # a path too long for a socket's name
    await box.start()
    try:
        path, port = box.host_address
        assert port == 0 and Path(path).is_socket()
        assert stat.S_IMODE(os.stat(Path(path).parent).st_mode) == 0o700
        assert box.host is not None and box.host.port == 0
        assert f"--box={path}" in box.app_argv("Ann", "ann")[0]
        client = await Client.connect(path, 0, name="Ann")
        await client.close()
    finally:
        await box.close()
    assert not Path(path).exists() and not Path(path).parent.exists()
    tcp = Box(BoxSettings(data_dir=tmp_path / "tcp", hostname="box", host_port=0))
    await tcp.start()
    try:
        assert tcp.host_address[0] == "127.0.0.1" and tcp.host_address[1] > 0
    finally:
        await tcp.close()


async def test_a_stopping_box_tells_its_operator_what_it_keeps(tmp_path: Path) -> None:
    """ssh-serve and web said only "stopping": now what is kept, where, and how to have
    it back."""
    box = Box(settings(tmp_path))
    await box.start()
    try:
        assert box.stop_words() == "stopping (no table was open)"
        ann, *_ = await _a_game_with_a_move(box)
        assert box.stop_words() == (f"stopping: 1 table kept in {box.journal_path}; start "
                                    "again on this data directory to have it back")
        await ann.close()
    finally:
        await box.close()


async def test_a_player_is_the_same_id_to_the_box_after_its_restart(tmp_path: Path) -> None:
    """The id the box gives a player's app (which their tables count by, and their kept
    games are theirs by) was keyed afresh at every start: after a restart their games'
    marks were nobody's. It is kept, readable by the box's user alone; another box's
    ids are other ids."""
    import stat

    from net.box import SECRET_NAME

    first = Box(settings(tmp_path / "one"))
    await first.start()
    ids = first.app_env("key-ann"), first.app_env("key-bo")
    await first.close()
    again = Box(settings(tmp_path / "one"))
    await again.start()
    try:
        assert (again.app_env("key-ann"), again.app_env("key-bo")) == ids
        assert ids[0] != ids[1]
        path = tmp_path / "one" / SECRET_NAME
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    finally:
        await again.close()
    other = Box(settings(tmp_path / "two"))
    await other.start()
    try:
        assert other.app_env("key-ann") != ids[0]
    finally:
        await other.close()

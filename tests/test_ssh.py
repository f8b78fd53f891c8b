"""``hiddenhand ssh-serve`` end to end: asyncssh as the client, on 127.0.0.1, real apps.

Each login's app is a real process on a real PTY; what it draws is fed into a terminal
emulator (pyte) and read off the screen. One server serves the tests that start apps
(each start costs about a second); the limit tests get small servers of their own.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import stat
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import asyncssh
import pytest
import pytest_asyncio

from net.client import Client
from net.sshserve import BoxConfig, BoxServer, load_host_key, player_dir_name
from tests.helpers import assert_usage_error
from tests.terminal_support import WAIT, Drawn

#: The async tests share one event loop, so the module's server serves them all.
shared_loop = pytest.mark.asyncio(loop_scope="module")

class Terminal(asyncssh.SSHClientSession[bytes], Drawn):
    """The client's screen: every byte the server sends, drawn by a terminal emulator."""

    def __init__(self, cols: int, rows: int) -> None:
        Drawn.__init__(self, cols, rows)
        self.stderr = bytearray()

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        if datatype == asyncssh.EXTENDED_DATA_STDERR:
            self.stderr += data
        else:
            self.drawn(data)

    def connection_lost(self, exc: Exception | None) -> None:
        self.ended()


async def connect(port: int, user: str,
                  key: asyncssh.SSHKey | None) -> asyncssh.SSHClientConnection:
    """Log in as ``user`` with ``key`` (or none), trusting nothing on this machine's disk."""
    return await asyncssh.connect(
        "127.0.0.1", port, username=user, client_keys=[key] if key else None,
        known_hosts=None, agent_path=None, config=[],
        preferred_auth="publickey,none" if key else "none",
    )


async def login(box: BoxServer, user: str, key: asyncssh.SSHKey | None, cols: int = 80,
                rows: int = 24) -> tuple[asyncssh.SSHClientConnection,
                                         asyncssh.SSHClientChannel[bytes], Terminal]:
    conn = await connect(box.port, user, key)
    chan, term = await conn.create_session(
        lambda: Terminal(cols, rows), term_type="xterm-256color", term_size=(cols, rows),
        encoding=None,
    )
    return conn, chan, term


def app_pid(box: BoxServer, user: str) -> int:
    pids = [pid for pid, app in box.apps.items() if app.login.username == user]
    assert len(pids) == 1, f"expected one app for {user}, found {pids}"
    return pids[0]


async def gone(box: BoxServer, pid: int) -> None:
    """The server reaped ``pid``; then no process (nor process group) of it is left."""
    await asyncio.wait_for(box.wait_until(lambda: pid not in box.apps), WAIT)
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    with pytest.raises(ProcessLookupError):
        os.killpg(pid, 0)


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Ann's and Bob's keys are authorized; Eve's is not."""
    made = {name: asyncssh.generate_private_key("ssh-ed25519") for name in ("ann", "bob", "eve")}
    path = tmp_path_factory.mktemp("keys") / "authorized_keys"
    path.write_bytes(made["ann"].export_public_key() + made["bob"].export_public_key())
    return {**made, "file": path}


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def box(tmp_path_factory: pytest.TempPathFactory,
              keys: dict[str, Any]) -> AsyncIterator[BoxServer]:
    config = BoxConfig(port=0, bind="127.0.0.1", authorized_keys=keys["file"],
                       data_dir=tmp_path_factory.mktemp("box"), hostname="box",
                       max_per_address=8)
    async with BoxServer(config) as server:
        yield server


@pytest_asyncio.fixture(loop_scope="module")
async def small_box(tmp_path: Path) -> AsyncIterator[Callable[..., Any]]:
    """Start servers with other limits (``--open``); all are closed after the test."""
    started: list[BoxServer] = []

    async def start(**limits: Any) -> BoxServer:
        server = BoxServer(BoxConfig(port=0, bind="127.0.0.1", open_login=True,
                                     data_dir=tmp_path, hostname="box", **limits))
        await server.start()
        started.append(server)
        return server

    yield start
    for server in started:
        await server.close()


async def test_port_0_on_two_address_families_is_one_port_for_both(tmp_path: Path) -> None:
    """``ssh-serve --port 0`` said "port 0" and "ssh -p 0": on every address each
    family got a port of its own. Here 127.0.0.1 and ::1 stand for every address (what
    asyncio's server is given as the host: loopback only)."""
    import socket

    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback here")
    both: Any = ["127.0.0.1", "::1"]
    server = BoxServer(BoxConfig(port=0, bind=both, open_login=True, data_dir=tmp_path,
                                 hostname="box"))
    await server.start()
    try:
        assert server.acceptor is not None
        ports = {address[1] for address in server.acceptor.get_addresses()}
        assert len(ports) == 1 and server.port == ports.pop() != 0
        assert server.invitation == f"ssh -p {server.port} box"
    finally:
        await server.close()


@shared_loop
async def test_a_login_gets_the_menu_on_its_own_terminal_redraws_on_resize_and_quits(
    box: BoxServer, keys: dict[str, Any]
) -> None:
    conn, chan, term = await login(box, "ann", keys["ann"])
    assert conn.get_server_host_key().get_fingerprint() == box.fingerprint
    await term.shows("Join a table on this box (j)", "Open a table (h)", "Quit (q)")
    assert "Host a LAN game" not in term.text()
    await term.until(lambda t: "Solo" in t.screen.display[23])  # the footer: line 24 of 24
    pid = app_pid(box, "ann")
    # Its own session, the PTY its controlling terminal, TERM from the client.
    assert os.getsid(pid) == pid
    tty_nr = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[4])
    assert tty_nr != 0
    environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    assert b"TERM=xterm-256color" in environ

    chan.change_terminal_size(100, 30)
    term.screen.resize(30, 100)
    # Redrawn at the new size: the footer on line 30, the title centred on 100 columns
    # (it starts near column 28 there, near 18 on 80).
    await term.until(lambda t: "Solo" in t.screen.display[29]
                     and t.screen.display[0].find("hiddenhand") > 23)

    chan.write(b"q")  # quit: the app ends, and the session with its exit status
    await asyncio.wait_for(term.closed.wait(), WAIT)
    assert chan.get_exit_status() == 0
    await gone(box, pid)
    conn.close()


@shared_loop
async def test_a_window_size_beyond_what_a_pty_takes_is_cut_to_fit_and_play_goes_on(
    box: BoxServer, keys: dict[str, Any]
) -> None:
    conn, chan, term = await login(box, "bob", keys["bob"])
    await term.shows("Quit (q)")
    pid = app_pid(box, "bob")
    # Wider than a PTY's size field holds, no height: the PTY gets what it can take.
    chan.change_terminal_size(40000, 0, 99999, 99999)
    tty = os.readlink(f"/proc/{pid}/fd/0")
    fd = os.open(tty, os.O_RDWR | os.O_NOCTTY)
    try:  # the app redraws once its PTY has the new size
        await term.until(lambda t: os.get_terminal_size(fd) == (1000, 24))
    finally:
        os.close(fd)
    chan.change_terminal_size(100, 30)
    term.screen.resize(30, 100)
    await term.until(lambda t: "Solo" in t.screen.display[29]
                     and t.screen.display[0].find("hiddenhand") > 23)
    assert app_pid(box, "bob") == pid
    conn.close()
    await gone(box, pid)


@shared_loop
async def test_a_table_opened_in_one_login_is_joined_from_another(
    box: BoxServer, keys: dict[str, Any]
) -> None:
    (ann_conn, ann_chan, ann), (bob_conn, bob_chan, bob) = await asyncio.gather(
        login(box, "ann", keys["ann"], 120, 40), login(box, "bob", keys["bob"], 120, 40))
    await bob.shows("Join a table on this box (j)")
    bob_chan.write(b"j")
    await bob.shows("No table is open on this box yet")
    bob_chan.write(b"\x1b")  # escape: back to the menu
    await bob.shows("Join a table on this box (j)")
    await ann.shows("Open a table (h)")
    ann_chan.write(b"h")
    await ann.shows("Open a table on this box")
    ann_chan.write(b"\x13")  # ctrl+s: start
    await ann.shows(f"friends join with: ssh -p {box.port} box", "ann's table", "ann (you)")

    bob_chan.write(b"j")
    await bob.shows("Which table?", "ann's table")  # (a box's table is seen before sitting)
    bob_chan.write(b"1")
    await bob.shows("bob (you)", "ann's table", "ann ★", f"friends join with: ssh -p {box.port}")
    await ann.shows("bob")

    ann_pid, bob_pid = app_pid(box, "ann"), app_pid(box, "bob")
    # Each SSH player keeps settings and seat tokens apart (per key): both hold a seat
    # token now, each in their own directory.
    ann_dir, bob_dir = box.apps[ann_pid].data_dir, box.apps[bob_pid].data_dir
    assert ann_dir is not None and bob_dir is not None and ann_dir != bob_dir
    assert (ann_dir / "seats.json").exists() and (bob_dir / "seats.json").exists()
    ann_conn.close()  # a dropped line: the app goes with it
    await gone(box, ann_pid)
    await bob.shows("ann lost the connection")
    bob_conn.abort()  # the TCP connection torn down, no goodbye: the app goes too
    await gone(box, bob_pid)


@shared_loop
async def test_a_session_without_a_terminal_is_refused(box: BoxServer,
                                                       keys: dict[str, Any]) -> None:
    async with await connect(box.port, "ann", keys["ann"]) as conn:
        result = await conn.run(request_pty=False)
    assert result.exit_status == 1
    assert "the game needs a terminal" in str(result.stderr)
    assert not box.apps


@shared_loop
async def test_commands_subsystems_and_forwarding_are_refused(box: BoxServer,
                                                              keys: dict[str, Any]) -> None:
    async with await connect(box.port, "ann", keys["ann"]) as conn:
        result = await conn.run("ls /", request_pty=False)
        assert result.exit_status == 1
        assert "runs the game only" in str(result.stderr)
        assert str(result.stdout) == ""
    async with await connect(box.port, "ann", keys["ann"]) as conn:
        result = await conn.run("ls /", term_type="xterm")
        assert result.exit_status == 1
        assert "runs the game only" in str(result.stdout) + str(result.stderr)
    async with await connect(box.port, "ann", keys["ann"]) as conn:
        process = await conn.create_process(subsystem="sftp")
        result = await process.wait()
        assert result.exit_status == 1
        assert "no file transfer" in str(result.stderr)
    async with await connect(box.port, "ann", keys["ann"]) as conn:
        assert box.host is not None
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.create_connection(asyncssh.SSHTCPSession, "127.0.0.1", 4455)
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.create_unix_connection(asyncssh.SSHUNIXSession, box.host_address[0])
    assert not box.apps


@shared_loop
async def test_a_key_not_in_authorized_keys_is_refused(
    box: BoxServer, keys: dict[str, Any], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="hiddenhand.ssh")
    for name in ("eve", "ann"):  # Eve's key under her name, and under Ann's
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(box.port, name, keys["eve"])
    await asyncio.wait_for(box.wait_until(lambda: not box.logins), WAIT)
    refusals = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert any("'eve'" in r and "no authorized key" in r for r in refusals), refusals
    assert any("'ann'" in r and "no authorized key" in r for r in refusals), refusals


@shared_loop
async def test_a_box_starts_with_no_key_yet_and_takes_one_added_as_it_runs(
        tmp_path: Path, keys: dict[str, Any]) -> None:
    """An empty authorized_keys file was refused ("No valid entries found"), though keys
    added while the box runs count: it starts, says nobody can log in yet, refuses every
    key until one is added, then takes that one."""
    from net.sshserve import banner

    path = tmp_path / "authorized_keys"
    path.write_text("# the party's keys go here\n")
    config = BoxConfig(port=0, bind="127.0.0.1", authorized_keys=path,
                       data_dir=tmp_path / "box", hostname="box")
    config.check()
    async with BoxServer(config) as server:
        assert any(line.startswith("logins: nobody yet:") for line in banner(server))
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(server.port, "ann", keys["ann"])
        path.write_bytes(keys["ann"].export_public_key())
        conn = await connect(server.port, "ann", keys["ann"])
        conn.close()
        await asyncio.wait_for(server.wait_until(lambda: not server.logins), WAIT)
    path.write_text("not a key at all\n")  # (garbage is still refused, in words)
    with pytest.raises(ValueError, match="is not an authorized_keys file"):
        config.check()
    # Nor is what is no file, read for ever: /dev/zero took memory until there was none,
    # and a named pipe held the box's start (a fresh-eyed pass).
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for odd in (Path("/dev/zero"), fifo):
        config = BoxConfig(port=0, bind="127.0.0.1", authorized_keys=odd,
                           data_dir=tmp_path / "box", hostname="box")
        with pytest.raises(ValueError, match=f"{odd} is not an authorized_keys file: it is "
                                             "not a regular file"):
            config.check()
    path.write_bytes(b"#" * (5 * 1024 * 1024))
    config = BoxConfig(port=0, bind="127.0.0.1", authorized_keys=path,
                       data_dir=tmp_path / "box", hostname="box")
    with pytest.raises(ValueError, match="it is larger than 4 MB"):
        config.check()


@shared_loop
async def test_a_line_of_the_keys_file_that_is_no_key_is_named_at_start_and_at_a_refusal(
        tmp_path: Path, keys: dict[str, Any], caplog: pytest.LogCaptureFixture) -> None:
    """A friend's key with a typo in it was skipped without a word: they were refused,
    and the operator had nothing to go on."""
    from net.sshserve import banner

    caplog.set_level(logging.INFO, logger="hiddenhand.ssh")
    path = tmp_path / "authorized_keys"
    path.write_bytes(b"# the party\n" + keys["ann"].export_public_key()
                     + b"ssh-ed25519 AAAA-typo bob\n")
    config = BoxConfig(port=0, bind="127.0.0.1", authorized_keys=path,
                       data_dir=tmp_path / "box", hostname="box")
    config.check()
    async with BoxServer(config) as server:
        said = [line for line in banner(server) if line.startswith("logins:")]
        assert said == [f"logins: 1 key in {path} (re-read at each login); line 3 is not a "
                        "key (skipped)"], said
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(server.port, "bob", keys["bob"])
        await asyncio.wait_for(server.wait_until(lambda: not server.logging_in), WAIT)
    refusals = [r.getMessage() for r in caplog.records if "refused 'bob'" in r.getMessage()]
    assert refusals == [f"refused 'bob' from 127.0.0.1: no authorized key (1 offered; in "
                        f"{path}, line 3 is not a key (skipped))"], refusals


@shared_loop
async def test_the_per_address_limit_refuses_the_next_login(
    small_box: Callable[..., Any], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="hiddenhand.ssh")
    box = await small_box(max_per_address=1, max_sessions=5)
    first = await connect(box.port, "ann", None)
    with pytest.raises(asyncssh.DisconnectError, match=r"too many logins from 127\.0\.0\.1"):
        await connect(box.port, "bob", None)
    assert any("refused 'bob' from 127.0.0.1: too many logins" in r.getMessage()
               for r in caplog.records)
    first.close()
    await asyncio.wait_for(box.wait_until(lambda: not box.logins), WAIT)
    again = await connect(box.port, "bob", None)  # the slot is free again
    again.close()


@shared_loop
async def test_the_total_limit_refuses_the_next_login(small_box: Callable[..., Any]) -> None:
    box = await small_box(max_per_address=5, max_sessions=1)
    first = await connect(box.port, "ann", None)
    with pytest.raises(asyncssh.DisconnectError, match="this box is full"):
        await connect(box.port, "bob", None)
    first.close()


async def test_a_box_in_a_data_directory_given_as_a_relative_path_serves_its_logins(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``ssh-serve --data-dir box`` said only "[Errno -2] Name or service not known":
    its host's socket, "box/host.sock", was taken for a host name."""
    monkeypatch.chdir(tmp_path)
    config = BoxConfig(port=0, bind="127.0.0.1", open_login=True, data_dir=Path("box"),
                       hostname="box")
    config.check()
    assert config.data_dir == tmp_path / "box"
    async with BoxServer(config) as server:
        conn, _, term = await login(server, "ann", None)
        await term.shows("Join a table on this box (j)")
        conn.close()


@shared_loop
async def test_connections_that_never_log_in_take_no_place_and_give_way(
        small_box: Callable[..., Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """32 connections that sent their version and nothing more filled a box of 32 for
    everyone, SSH and web, until the login timeout (a hostile pass). Logging in takes
    no place on the box; past ``LOGGING_IN`` the one logging in longest gives way, and
    one address has at most ``LOGGING_IN_PER_ADDRESS`` logging in at once."""
    from net import sshlogin

    monkeypatch.setattr(sshlogin, "LOGGING_IN", 3)
    monkeypatch.setattr(sshlogin, "LOGGING_IN_PER_ADDRESS", 2)
    box = await small_box(max_sessions=1, max_per_address=5)

    async def silent(address: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        reader, writer = await asyncio.open_connection("127.0.0.1", box.port,
                                                       local_addr=(address, 0))
        writer.write(b"SSH-2.0-silent\r\n")
        return reader, writer

    quiet = [await silent(f"127.0.0.{2 + n}") for n in range(3)]
    await asyncio.wait_for(box.wait_until(lambda: len(box.logging_in) == 3), WAIT)
    ann = await connect(box.port, "ann", None)  # the box of one is hers
    assert len(box.logins) == 1
    oldest = quiet[0][0]
    while await asyncio.wait_for(oldest.read(4096), WAIT):  # it gave way to her
        pass
    ann.close()
    for _, writer in quiet:
        writer.close()
    await asyncio.wait_for(box.wait_until(lambda: not box.logins and not box.logging_in),
                           WAIT)
    mine = [await silent("127.0.0.1") for _ in range(2)]
    await asyncio.wait_for(box.wait_until(lambda: len(box.logging_in) == 2), WAIT)
    with pytest.raises(asyncssh.DisconnectError, match=r"127\.0\.0\.1 are logging in at once"):
        await connect(box.port, "bob", None)
    for _, writer in mine:
        writer.close()


@shared_loop
async def test_an_idle_login_is_closed_and_its_app_ends(small_box: Callable[..., Any]) -> None:
    box = await small_box(idle_timeout=0.5)
    conn, _, term = await login(box, "ann", None)
    await box.wait_until(lambda: bool(box.apps))
    pid = app_pid(box, "ann")
    await asyncio.wait_for(term.closed.wait(), WAIT)
    assert b"closed after 0.5 seconds without a key pressed; log in again to go on (a " \
        b"seat at a table is kept)." in term.raw
    await gone(box, pid)
    await asyncio.wait_for(conn.wait_closed(), WAIT)


@shared_loop
async def test_an_idle_login_is_warned_before_it_is_closed(
        small_box: Callable[..., Any]) -> None:
    """A login closed for idleness saw nothing coming (a player waiting for another's
    turn lost it): its app says so half a timeout (at most a minute) before."""
    box = await small_box(idle_timeout=4)
    _, chan, term = await login(box, "ann", None)
    await term.shows("Quit (q)")
    chan.write(b"\x1b[B")  # a key: the idle time runs from here, the app up
    await term.shows("Still there?", "No key pressed for a while")
    await asyncio.wait_for(term.closed.wait(), WAIT)


async def test_a_stopping_box_gives_each_player_their_terminal_back_and_says_why(
        small_box: Callable[..., Any]) -> None:
    """Stopped with Ctrl-C, the box hung its apps up: each player's terminal was left in
    mouse mode with no cursor, and nothing said why the game had gone."""
    from net.sshapp import BOX_STOPPING, TERMINAL_RESET

    box = await small_box()
    conn, _, term = await login(box, "ann", None)
    await term.shows("Quit (q)")
    pid = app_pid(box, "ann")
    await box.close()
    await asyncio.wait_for(term.closed.wait(), WAIT)
    tail = bytes(term.raw[-400:])
    assert TERMINAL_RESET in tail and BOX_STOPPING.encode() in tail
    await gone(box, pid)
    conn.close()


async def test_a_stopping_box_waits_for_a_slow_reader_s_goodbye_to_be_sent(
        small_box: Callable[..., Any]) -> None:
    """On a busy machine a player's goodbye was still in the channel's buffer when the
    box closed the connections: their terminal stayed in mouse mode, unexplained."""
    from net.sshapp import BOX_STOPPING, TERMINAL_RESET

    box = await small_box()
    conn = await connect(box.port, "ann", None)
    # A small window: what the player has not read yet holds back what is sent.
    chan, term = await conn.create_session(
        lambda: Terminal(80, 24), term_type="xterm-256color", term_size=(80, 24),
        encoding=None, window=512, max_pktsize=256)
    await term.shows("Quit (q)")
    pid = app_pid(box, "ann")
    chan.pause_reading()  # the player's side reads nothing for now
    closing = asyncio.create_task(box.close())
    await gone(box, pid)
    # The app is gone, its last output and the goodbye not read yet: the player reads
    # on, slowly (a window of 512 bytes).
    chan.resume_reading()
    await asyncio.wait_for(term.closed.wait(), WAIT)
    await asyncio.wait_for(closing, WAIT)
    tail = bytes(term.raw[-400:])
    assert TERMINAL_RESET in tail and BOX_STOPPING.encode() in tail
    conn.close()


async def test_the_start_lines_say_a_loopback_box_is_for_this_computer_only(
        small_box: Callable[..., Any]) -> None:
    """The invitation read "friends join with: ssh -p 2222 vm" on a box bound to
    127.0.0.1, where no friend's machine can reach it."""
    from net.sshserve import banner

    box = await small_box()
    (line,) = [line for line in banner(box) if line.startswith("friends join with")]
    assert "from this computer only: 127.0.0.1 is a loopback address" in line
    assert box.invitation == f"ssh -p {box.port} box"  # (a name the operator gave)
    # (The fingerprint's line says what it is for: only the docs did.)
    assert any(line.startswith("host key ") and "tell friends" in line for line in banner(box))
    (stop,) = [line for line in banner(box) if line.startswith("Ctrl-C stops the box")]
    # Where it keeps what it keeps (no line named the data directory).
    assert f"its data directory, {box.config.data_dir.absolute()} (which holds" in stop


async def test_a_loopback_box_invites_by_localhost_not_by_the_machine_s_name(
        tmp_path: Path) -> None:
    """On 127.0.0.1 the lobby said "ssh -p 2222 vm", and the machine's name may be
    another loopback address (Debian's 127.0.1.1), where nothing listens."""
    from net.box import machine_name

    server = BoxServer(BoxConfig(port=0, bind="127.0.0.1", open_login=True, data_dir=tmp_path))
    await server.start()
    try:
        assert server.config.hostname == machine_name()
        assert server.invitation == f"ssh -p {server.port} localhost"
    finally:
        await server.close()


def test_the_host_key_is_made_once_and_kept_private(tmp_path: Path) -> None:
    path = tmp_path / "data" / "ssh_host_ed25519_key"
    key, made = load_host_key(path)
    assert made
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again, made_again = load_host_key(path)
    assert not made_again
    assert again.get_fingerprint() == key.get_fingerprint()
    path.chmod(0o644)
    with pytest.raises(ValueError, match="may be read by others"):
        load_host_key(path)


def test_player_directories_are_per_key_or_per_safe_name() -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    assert player_dir_name("ann", key) == player_dir_name("bob", key)
    assert player_dir_name("ann", key).startswith("key-")
    assert player_dir_name("ann", None) == "user-ann"
    odd = player_dir_name("../../etc", None)
    assert "/" not in odd and not odd.startswith("user-.")
    assert player_dir_name("a/b", None) != player_dir_name("a_b", None)


@shared_loop
async def test_a_port_in_use_is_refused_in_words_and_leaves_nothing_listening(
        tmp_path: Path) -> None:
    taken = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = taken.sockets[0].getsockname()[1]
    server = BoxServer(BoxConfig(port=port, bind="127.0.0.1", open_login=True,
                                 data_dir=tmp_path, hostname="box"))
    try:
        with pytest.raises(ValueError, match=f"cannot listen for SSH: port {port} is already "
                           "in use on this computer"):
            await server.start()
        # The game host it started first is closed again.
        assert server.host is not None and server.host.server is not None
        assert not server.host.server.is_serving()
    finally:
        taken.close()
        await taken.wait_closed()


def test_ssh_serve_asks_who_may_log_in(capsys: pytest.CaptureFixture[str]) -> None:
    assert_usage_error(["ssh-serve"], "one of the arguments --authorized-keys --open", capsys)


def test_ssh_serve_takes_an_address_to_bind_not_a_name(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert_usage_error(["ssh-serve", "--open", "--bind", "nosuch.invalid"],
                       "'nosuch.invalid' is not a valid IP address", capsys)


def test_ssh_serve_rejects_a_missing_keys_file(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert_usage_error(["ssh-serve", "--authorized-keys", str(tmp_path / "none")],
                       "No such file", capsys)


def test_the_app_in_box_mode_needs_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    """Under an sshd ForceCommand, "ssh -T box" runs the app without a terminal."""
    from tui.cli import main

    assert main(["--box", "127.0.0.1:4455", "--player", "ann"]) == 1
    assert "the game needs a terminal" in capsys.readouterr().err


def test_a_bad_box_address_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert_usage_error(["--box", "nowhere"], "--box: address 'nowhere' needs a port", capsys)


@shared_loop
async def test_the_box_host_does_not_count_every_login_as_one_client(
    box: BoxServer, keys: dict[str, Any]
) -> None:
    # Every login's app connects from 127.0.0.1; ssh-serve limits real client addresses
    # itself, so the game host must not hold them all to one address's limits.
    assert box.host is not None
    assert {"127.0.0.1", "::1"} <= box.host.limits.shared_addresses
    clients = []
    for i in range(box.host.limits.max_tables_per_address + 1):
        client = await Client.connect(*box.host_address, name=f"P{i}")
        clients.append(client)
        await client.create_table(f"table {i}", "getout", 2)
    for client in clients:
        await client.close()


class BannerReader(asyncssh.SSHClient):
    """A client that keeps the server's login banner."""

    def __init__(self) -> None:
        self.banners: list[str] = []

    def auth_banner_received(self, msg: str, lang: str) -> None:
        self.banners.append(msg)


@shared_loop
async def test_a_login_name_the_game_would_refuse_is_refused_at_the_door_in_words(
    box: BoxServer, keys: dict[str, Any], caplog: pytest.LogCaptureFixture
) -> None:
    """"Bot 3" would pass for a bot: the player is told so and how to log in under
    another name (the box's own address, never its game host's), before any app starts;
    every login is told first that the login name is the player's name."""
    caplog.set_level(logging.INFO, logger="hiddenhand.ssh")
    assert box.host is not None
    conn, client = await asyncssh.create_connection(
        BannerReader, "127.0.0.1", box.port, username="Bot 3", client_keys=[keys["ann"]],
        known_hosts=None, agent_path=None, config=[], preferred_auth="publickey")
    async with conn:
        result = await asyncio.wait_for(
            conn.run(term_type="xterm-256color", term_size=(80, 24)), WAIT)
    said = str(result.stdout) + str(result.stderr)
    assert result.exit_status == 1
    assert "'Bot 3' would pass for a bot" in said, said
    assert f"ssh -l NAME -p {box.port} box" in said, said
    assert box.host_address[0] not in said
    assert not box.apps
    assert any("refused 'Bot 3' from 127.0.0.1: the name 'Bot 3' would pass for a bot"
               in r.getMessage() for r in caplog.records)
    (banner,) = client.banners
    assert "your SSH login name is your name" in banner
    assert f"ssh -l NAME -p {box.port} box" in banner
    # (A player whose key is not on the box's list reads only "Permission denied".)
    assert "Send your public key (~/.ssh/id_ed25519.pub" in banner


@shared_loop
async def test_a_user_name_ssh_cannot_carry_is_logged_with_its_reason(
    small_box: Callable[..., Any], caplog: pytest.LogCaptureFixture
) -> None:
    """An emoji in the login name: asyncssh refuses it before the server's code sees
    the name (its one line is what the player reads, after the banner saying how to
    choose another); the log says why and which character, escaped. OpenSSH as the
    client: asyncssh's own client will not send such a name."""
    ssh = shutil.which("ssh")
    if ssh is None:
        pytest.skip("no OpenSSH client here")
    caplog.set_level(logging.INFO, logger="hiddenhand.ssh")
    box = await small_box()
    proc = await asyncio.create_subprocess_exec(
        ssh, "-F", "/dev/null", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no",
        "-o", "UserKnownHostsFile=/dev/null", "-o", "GlobalKnownHostsFile=/dev/null",
        "-o", "IdentityAgent=none", "-p", str(box.port), "-l", "Ann\U0001f600", "127.0.0.1",
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    _, err = await asyncio.wait_for(proc.communicate(), WAIT)
    assert proc.returncode == 255
    said = err.decode(errors="replace")
    assert f"To play as another: ssh -l NAME -p {box.port} box" in said, said
    await asyncio.wait_for(box.wait_until(lambda: not box.logins), WAIT)
    refusals = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert refusals == ["refused a user name from 127.0.0.1 that SSH cannot carry: "
                        "Unassigned character: '\\U0001f600'"], refusals

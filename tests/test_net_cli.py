"""The ``host`` and ``list`` commands: argument checks, and a real headless host run."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from net.client import Client
from net.serve import StartError, build_host, serve
from tui.cli import main

ROOT = Path(__file__).resolve().parent.parent
PINNED = ["--mdns-interface", "127.0.0.1"]  # never multicast on any other interface


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["host", "--option", "limit"], "KEY=VALUE"),
        (["host", "--option", "limit=lots"], "option 'limit' must be a whole number"),
        (["host", "--option", "speed=3"], "unknown option 'speed'"),
        (["host", "--game", "chess"], "unknown game 'chess'"),
        (["host", "--seats", "9"], "2 to 6 seats"),
        (["host", "--seats", "3", "--bots", "4"], "--bots 4 leaves no seat of the 3 for a "
         "person"),
        # (Bots alone started no game and listened, unsaid.)
        (["host", "--seats", "2", "--bots", "2"], "--bots 2 leaves no seat of the 2 for a "
         "person (bots alone: hiddenhand sim)"),
        # (--game was taken for --games: "expected a whole number, not 'getit'".)
        (["sim", "--game", "chess"], "unknown game 'chess'"),
        (["sim"], "name the game: hiddenhand sim getout (or --game getout)"),
        (["sim", "getit", "--game", "getout"], "two games named: getit and --game getout"),
        (["host", "--port", "70000"], "a port is 0 to 65535"),
        (["host", "--port", "-1"], "a port is 0 to 65535, not -1"),
        (["host", "--port", "abc"], "argument --port: expected a whole number, not 'abc'"),
        (["host", "--bots", "-2"], "argument --bots: expected 0 or more, not -2"),
        (["host", "--max-tables", "0"], "argument --max-tables: expected 1 or more, not 0"),
        (["host", "--mdns-interface", "eth0"], "'eth0' is not an IP address"),
        # Names players' screens show: a host took these and showed them as they were.
        (["host", "--name", ""], "argument --name: it must be 1 to 32 characters long"),
        (["host", "--table", "x" * 500], "argument --table: it must be 1 to 32 characters"),
        (["host", "--table", "[b]Porch"], "argument --table: it may not hold [ or ]"),
        # Options at odds: each was taken without a word (the first journaled anyway).
        (["host", "--resume", "--no-journal"], "--no-journal cannot go with --resume"),
        (["host", "--no-journal", "--fsync", "each"], "--no-journal keeps none"),
        (["host", "--no-mdns", "--mdns-interface", "127.0.0.1"], "--no-mdns advertises"),
        (["list", "--timeout", "soon"], "number of seconds"),
        (["list", "--mdns-interface", "lo"], "'lo' is not an IP address"),
        # TEST-NET addresses: surely none of this machine's; nothing is sent to them.
        (["list", "--mdns-interface", "192.0.2.9"], "192.0.2.9 is not an address of this "
         "computer; leave out --mdns-interface"),
        # Were it wrongly accepted, the host would listen on loopback only.
        (["host", "--bind", "127.0.0.1", "--port", "0", "--no-journal",
          "--mdns-interface", "127.0.0.1,192.0.2.9"],
         "192.0.2.9 is not an address of this computer"),
    ],
)
def test_garbage_arguments_get_a_clear_error(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_the_environment_variable_is_checked_too(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("HIDDENHAND_MDNS_INTERFACES", "127.0.0.1,wlan0")
    with pytest.raises(SystemExit):
        main(["list"])
    assert "'wlan0' is not an IP address" in capsys.readouterr().err


def test_an_interface_of_the_environment_must_be_of_this_computer(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("HIDDENHAND_MDNS_INTERFACES", "127.0.0.1,192.0.2.10")
    with pytest.raises(SystemExit) as info:
        main(["list"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "192.0.2.10 is not an address of this computer" in err and "Traceback" not in err


async def _line(stream: asyncio.StreamReader, pattern: str, timeout: float = 10) -> re.Match[str]:
    async with asyncio.timeout(timeout):
        while True:
            raw = await stream.readline()
            assert raw, f"the host ended before printing {pattern!r}"
            found = re.search(pattern, raw.decode())
            if found:
                return found


async def test_headless_host_is_listed_joined_and_stopped_by_ctrl_c() -> None:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("HIDDENHAND_MDNS_INTERFACES", None)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui.cli", "host", "--port", "0", "--bind", "127.0.0.1",
        "--name", "CLI test host", "--seats", "3", "--bots", "1", "--option", "limit=50",
        "--table", "Porch", *PINNED,
        cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )
    assert proc.stdout is not None
    try:
        port = int((await _line(proc.stdout, r"listening on 127\.0\.0\.1 port (\d+)"))[1])
        await _line(proc.stdout, r"advertised on the LAN")

        listing = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tui.cli", "list", "--json", "--timeout", "1.5", *PINNED,
            cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE,
        )
        out, _ = await asyncio.wait_for(listing.communicate(), 20)
        assert listing.returncode == 0
        hosts = [h for h in json.loads(out) if h["port"] == port]
        assert len(hosts) == 1 and hosts[0]["name"] == "CLI test host"
        (listed,) = hosts[0]["tables"]
        assert listed == {"id": "t1", "name": "Porch", "game": "getout", "free": 2,
                          "seats": 3, "phase": "lobby", "uid": listed["uid"]}
        assert len(listed["uid"]) == 8

        client = await Client.connect("127.0.0.1", port, name="Ann")
        joined = await client.join("t1")
        update = await client.wait_for(lambda m: m["type"] == "update")
        assert update["table"]["creator"] == joined.seat == 0  # first player runs the table
        assert update["table"]["options"]["limit"] == 50
        await client.close()
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGINT)
        rest, _ = await asyncio.wait_for(proc.communicate(), 15)
    assert proc.returncode == 0, rest.decode()
    assert "stopping" in rest.decode() and "Traceback" not in rest.decode()


async def test_a_host_given_no_name_takes_this_machines() -> None:
    """``hiddenhand host`` as the README has it, no ``--name``: it advertises under the
    machine's name (it crashed on a name of None once a resumed host kept its own)."""
    from net.serve import default_name

    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("HIDDENHAND_MDNS_INTERFACES", None)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui.cli", "host", "--port", "0", "--bind", "127.0.0.1",
        "--no-record", *PINNED,
        cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )
    assert proc.stdout is not None
    try:
        line = await _line(proc.stdout, r"advertised on the LAN as '(.*)\._hiddenhand")
        assert line[1].startswith(f"{default_name()} on "), line[0]
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGINT)
        rest, _ = await asyncio.wait_for(proc.communicate(), 15)
    assert proc.returncode == 0, rest.decode()
    assert "Traceback" not in rest.decode()


@pytest.mark.parametrize(
    ("where", "words"),
    [
        ("busy", "is already in use on this computer"),
        # TEST-NET: surely no address of this machine; listening on it is only refused.
        ("192.0.2.11", "192.0.2.11 is not an address of this computer"),
    ],
)
def test_a_host_that_cannot_listen_claims_nothing_and_leaves_no_journal(
    where: str, words: str, data_dir: Path
) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1] if where == "busy" else 0
        bind = "127.0.0.1" if where == "busy" else where
        done = subprocess.run(
            [sys.executable, "-m", "tui.cli", "host", "--port", str(port), "--bind", bind,
             "--no-mdns"],
            cwd=ROOT, capture_output=True, text=True, timeout=60,
        )
    assert done.returncode == 1
    assert words in done.stderr and "Traceback" not in done.stderr
    assert "hosting" not in done.stdout and "journal:" not in done.stdout
    assert not list(data_dir.rglob("*.hhjournal"))


async def test_a_host_that_cannot_advertise_says_so_and_leaves_no_journal(
    data_dir: Path,
) -> None:
    with pytest.raises(StartError) as info:
        await serve(game="getout", seats=3, bots=0, options={}, port=0, bind="127.0.0.1",
                    name="Nope", table="Porch", interfaces=["192.0.2.12"], mdns=True,
                    bot_delay=0.01, stop=asyncio.Event())
    assert str(info.value).startswith("cannot advertise on the LAN: 192.0.2.12 is not an "
                                      "address of this computer")
    assert "listen" not in str(info.value)
    assert not list(data_dir.rglob("*.hhjournal"))


async def test_a_resumed_game_that_cannot_listen_keeps_its_journal(data_dir: Path) -> None:
    path = data_dir / "kept.hhjournal"
    first = build_host(game="getout", seats=3, bots=0, options={}, name="Kept", table="Porch",
                       bot_delay=0.01, journal=path)
    await first.start("127.0.0.1", 0)
    await first.close(keep_journal=True)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        with pytest.raises(StartError, match="already in use"):
            await serve(game="getout", seats=3, bots=0, options={},
                        port=busy.getsockname()[1], bind="127.0.0.1", name="Kept",
                        table="Porch", interfaces=None, mdns=False, bot_delay=0.01,
                        stop=asyncio.Event(), resume=path)
    assert path.exists()


@pytest.mark.parametrize("command", [["ssh-serve", "--open"], ["web"]])
def test_a_box_given_a_file_for_its_data_dir_says_so(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It printed "[Errno 17] File exists: …" (a file was in the way, not a folder)."""
    in_the_way = tmp_path / "a-file"
    in_the_way.write_text("")
    for place in (in_the_way, in_the_way / "sub"):
        with pytest.raises(SystemExit) as info:
            main([*command, "--data-dir", str(place), "--port", "0"])
        assert info.value.code == 2
        said = capsys.readouterr().err
        assert f"cannot keep the box's files in {place}: a file is in the way" in said, said
        assert "Errno" not in said


@pytest.mark.parametrize(("given", "away"), [([], "2m"), (["--option", "away_bot=off"], "off")])
def test_the_headless_host_s_table_keeps_an_away_seat_warm_as_the_app_s_do(
        given: list[str], away: str) -> None:
    """A person gone from the headless host's game (its creator too) left the others and
    its watchers waiting for ever: nobody there could hand the seat to a bot. Its table
    starts with the away bot of the app's LAN tables, unless told otherwise."""
    from tui.cli import build_parser, check_host_args

    args = build_parser().parse_args(["host", *given, *PINNED])
    check_host_args(args)
    assert args.options["away_bot"] == away


def test_a_host_whose_journals_folder_is_a_file_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It said "cannot keep a journal in …/journals: File exists"."""
    (tmp_path / "journals").write_text("")
    code = main(["--data-dir", str(tmp_path), "host", "--port", "0", "--bind", "127.0.0.1",
                 "--no-mdns", "--no-record"])
    said = capsys.readouterr().err
    assert code == 1 and f"{tmp_path / 'journals'} is a file, not a folder; --no-journal " \
        "hosts without one" in said, said

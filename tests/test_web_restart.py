"""``hiddenhand web`` killed (-9) in the middle of a game and started again: the table is
back as it was and the browser's player takes their seat back by its token."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.web_support import WAIT, Tab, new_browser

LINK = re.compile(rb"secret link: (http://\S+)")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def start_web(data: Path, port: int) -> tuple[asyncio.subprocess.Process, str]:
    """``hiddenhand web`` as an operator runs it; its link once it listens (and has said
    how it stops)."""
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui.cli", "web", f"--port={port}", f"--data-dir={data}",
        "--hostname=box", "--bot-delay=0", stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert server.stdout is not None
    said = b""
    while b"Ctrl-C stops the box; its tables are kept" not in said:
        line = await asyncio.wait_for(server.stdout.readline(), WAIT)
        assert line, f"hiddenhand web ended: {said.decode()}"
        said += line
    found = LINK.search(said)
    assert found is not None, said.decode()
    # (It said its limits, but not when an idle visit ends, as ssh-serve's line does.)
    assert b"idle visits end after 1800 s" in said, said.decode()
    return server, found.group(1).decode()


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"


def web_apps(server: int) -> list[int]:
    """The apps the server started (children of its process, each in its own session)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(stat[1]) == server:
                found.append(int(entry.name))
    return found


@pytest.mark.asyncio
async def test_a_web_box_killed_and_started_again_gives_the_browser_its_seat_back(
        tmp_path: Path) -> None:
    port = free_port()
    server, link = await start_web(tmp_path, port)
    browser = new_browser()
    try:
        tab = Tab(browser, link)
        await tab.sign_in("Ann")
        await tab.open()
        await tab.shows("Open a table (h)")
        await tab.press("h")
        await tab.shows("Open a table on this box")
        await tab.press("\x13")  # ctrl+s: the table opens, Ann sits at seat 1
        await tab.shows("Ann's table", "Ann (you)")
        apps = web_apps(server.pid)
        assert len(apps) == 1

        server.send_signal(signal.SIGKILL)  # no goodbye, no journal closed
        await server.wait()
        await asyncio.wait_for(tab.closed.wait(), WAIT)
        await tab.close(browser=False)
        # The tab's app notices its server is gone and ends with it.
        async def app_ends() -> None:
            while alive(apps[0]):
                await asyncio.sleep(0.05)  # /proc has no event to wait on
        await asyncio.wait_for(app_ends(), WAIT)

        server, again = await start_web(tmp_path, port)
        assert again == link  # the same link: its token is kept
        back = Tab(browser, link)
        await back.open()  # the same browser: its name and its id are remembered
        await back.shows("Back to your seat (j)")  # (the menu found the seat kept)
        await back.press("j")  # straight back to it
        await back.shows("Ann's table", "Ann (you)")
        await back.close(browser=False)
    finally:
        await browser.close()
        if server.returncode is None:
            server.send_signal(signal.SIGINT)
            await asyncio.wait_for(server.wait(), WAIT)

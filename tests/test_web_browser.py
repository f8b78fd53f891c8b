"""The web door in a real browser: Debian's headless Chromium, driven by selenium.

The page must load from the door alone (no network but loopback), and the app in it must
take real key presses and mouse clicks. What the page's terminal draws is on a canvas;
the test reads it as the page received it — a script added before the page's own wraps
the WebSocket and keeps every frame — fed into a terminal emulator (pyte).

Skipped where no Chromium is installed; ``.ci/run`` installs it, so CI always runs it.
"""

from __future__ import annotations

import asyncio
import base64
import os
import re
import shutil
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pyte
import pytest
import pytest_asyncio

from net.paths import TOUCH_ENV
from net.sshserve import BoxServer
from net.webvisit import WebVisit
from tests.test_ssh import login
from tests.web_support import both_doors

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
pytestmark = [
    pytest.mark.skipif(not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)),
                       reason="no Chromium here (Debian: apt install chromium chromium-driver)"),
    pytest.mark.asyncio(loop_scope="module"),
]
WAIT = 40.0

#: Runs before the page's own scripts: every frame the game's socket receives is kept
#: (base64), and every message the page sends, for the test to read.
TAP = """
(() => {
  const Real = window.WebSocket;
  window.__frames = []; window.__sent = [];
  window.WebSocket = function (url, protocols) {
    const socket = new Real(url, protocols);
    socket.addEventListener("message", (event) => {
      if (typeof event.data !== "string") {
        const bytes = new Uint8Array(event.data);
        let text = ""; for (const b of bytes) text += String.fromCharCode(b);
        window.__frames.push(btoa(text));
      }
    });
    const send = socket.send.bind(socket);
    socket.send = (data) => { window.__sent.push(String(data)); send(data); };
    return socket;
  };
  window.WebSocket.prototype = Real.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
})();
"""


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def box(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BoxServer]:
    async with BoxServer(both_doors(tmp_path_factory.mktemp("box"),
                                    max_per_address=8)) as server:
        yield server


@pytest.fixture
def chromium(tmp_path: Path) -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    os.environ.setdefault("SE_OFFLINE", "true")  # selenium must never fetch a driver
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--window-size=1100,760",
                 f"--user-data-dir={tmp_path / 'profile'}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": TAP})
    try:
        yield driver
    finally:
        driver.quit()


class Screen:
    """What the page's terminal shows, from the frames it received."""

    def __init__(self, driver: Any) -> None:
        self.driver = driver
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.seen = 0
        self.size: tuple[int, int] | None = None

    def read(self) -> str:
        frames, sent = self.driver.execute_script(
            "return [window.__frames.slice(arguments[0]), window.__sent];", self.seen)
        for message in sent:
            if message.startswith('["resize"'):
                import json

                size = json.loads(message)[1]
                if (size["width"], size["height"]) != self.size:
                    self.size = (size["width"], size["height"])
                    self.screen.resize(size["height"], size["width"])
        for frame in frames:
            self.stream.feed(base64.b64decode(frame))
        self.seen += len(frames)
        return "\n".join(self.screen.display)

    async def until(self, predicate: Callable[[str], bool]) -> str:
        async def wait() -> str:
            while not predicate(text := await asyncio.to_thread(self.read)):
                await asyncio.sleep(0.05)  # polls a page: nothing can wake us sooner
            return text

        try:
            return await asyncio.wait_for(wait(), WAIT)
        except TimeoutError:
            raise AssertionError("never drawn; screen:\n" + "\n".join(self.screen.display)
                                 ) from None

    async def shows(self, *texts: str) -> str:
        return await self.until(lambda text: all(t in text for t in texts))

    def where(self, text: str) -> tuple[int, int]:
        """The cell (column, row) where ``text`` starts on the screen."""
        for row, line in enumerate(self.screen.display):
            if text in line:
                return line.index(text), row
        raise AssertionError(f"{text!r} is not on the screen")


def click_cell(driver: Any, screen: Screen, column: int, row: int) -> None:
    """A real mouse click on one cell of the page's terminal."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    canvas = driver.find_element(By.CSS_SELECTOR, "#terminal .xterm-screen")
    assert screen.size is not None
    cols, rows = screen.size
    width, height = canvas.size["width"], canvas.size["height"]
    x = (column + 0.5) * width / cols - width / 2
    y = (row + 0.5) * height / rows - height / 2
    ActionChains(driver).move_to_element_with_offset(canvas, int(x), int(y)).click().perform()


def keys(driver: Any, text: str) -> None:
    """Real key presses, to whatever has the page's focus (the terminal's input)."""
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).send_keys(text).perform()


def ctrl(driver: Any, key: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    ActionChains(driver).key_down(Keys.CONTROL).send_keys(key).key_up(Keys.CONTROL).perform()


async def test_a_browser_plays_at_a_table_an_ssh_login_joins(box: BoxServer,
                                                              chromium: Any) -> None:
    from selenium.webdriver.common.by import By

    assert box.web is not None
    link = box.web.link
    await asyncio.to_thread(chromium.get, link)
    name = await asyncio.to_thread(chromium.find_element, By.ID, "name")
    await asyncio.to_thread(name.send_keys, "Ann")
    await asyncio.to_thread(chromium.find_element(By.ID, "play").click)
    screen = Screen(chromium)
    await screen.shows("Open a table (h)", "Join a table on this box (j)")
    # Everything the page loaded came from the door itself: no font or script elsewhere.
    loaded = await asyncio.to_thread(chromium.execute_script, "return performance"
                                     ".getEntriesByType('resource').map(e => e.name)")
    base = link.split("/play/")[0]
    assert loaded and all(url.startswith(base) for url in loaded), loaded
    pid = next(pid for pid, app in box.box.apps.items() if isinstance(app.owner, WebVisit))
    # A screen that hovers: the app shows its tooltips.
    assert f"{TOUCH_ENV}=1".encode() not in Path(f"/proc/{pid}/environ").read_bytes()

    await asyncio.to_thread(click_cell, chromium, screen, *screen.where("Open a table (h)"))
    await screen.shows("Open a table on this box")  # a click did it
    await asyncio.to_thread(ctrl, chromium, "s")  # and a key: open it
    await screen.shows("Ann's table", "Ann (you)", "a web link (i)")

    conn, chan, bob = await login(box, "bob", None, 120, 40)
    await bob.shows("Join a table on this box (j)")
    chan.write(b"j")
    await bob.shows("Which table?", "Ann's table")
    chan.write(b"1")
    await bob.shows("bob (you)", "Ann's table")
    await screen.shows("bob")
    chan.write(b"\x12")  # ctrl+r over SSH: ready, seen in the browser
    await screen.until(lambda text: any("bob" in line and "✓" in line
                                        for line in text.splitlines()))
    await asyncio.to_thread(ctrl, chromium, "r")  # ready in the browser, seen over SSH
    await bob.until(lambda t: any("Ann" in line and "✓" in line for line in t.screen.display))
    await asyncio.to_thread(keys, chromium, "/hi from the browser\n")  # chat, typed
    await bob.shows("hi from the browser")

    await asyncio.to_thread(chromium.get, "about:blank")  # the tab leaves: its app ends
    await asyncio.wait_for(box.wait_until(lambda: pid not in box.box.apps), WAIT)
    with pytest.raises(ProcessLookupError):
        os.killpg(pid, 0)
    conn.close()


def swipe(driver: Any, screen: Screen, start: tuple[int, int], end: tuple[int, int]) -> None:
    """A finger's swipe over the page's terminal, from one cell to another."""
    from selenium.webdriver.common.by import By

    box = driver.find_element(By.CSS_SELECTOR, "#terminal .xterm-screen").rect
    assert screen.size is not None
    cols, rows = screen.size

    def point(cell: tuple[int, int]) -> dict[str, float]:
        return {"x": box["x"] + (cell[0] + 0.5) * box["width"] / cols,
                "y": box["y"] + (cell[1] + 0.5) * box["height"] / rows}

    driver.execute_cdp_cmd("Input.dispatchTouchEvent",
                           {"type": "touchStart", "touchPoints": [point(start)]})
    for i in range(1, 11):
        at = (start[0] + (end[0] - start[0]) * i / 10, start[1] + (end[1] - start[1]) * i / 10)
        driver.execute_cdp_cmd("Input.dispatchTouchEvent",
                               {"type": "touchMove", "touchPoints": [point(at)]})  # type: ignore[arg-type]
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def tap(driver: Any, screen: Screen, cell: tuple[int, int]) -> None:
    """A finger's tap on one cell of the page's terminal."""
    from selenium.webdriver.common.by import By

    box = driver.find_element(By.CSS_SELECTOR, "#terminal .xterm-screen").rect
    assert screen.size is not None
    cols, rows = screen.size
    point = {"x": box["x"] + (cell[0] + 1.5) * box["width"] / cols,
             "y": box["y"] + (cell[1] + 0.5) * box["height"] / rows}
    driver.execute_cdp_cmd("Input.dispatchTouchEvent",
                           {"type": "touchStart", "touchPoints": [point]})
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


async def test_on_a_phone_a_swipe_scrolls_what_is_longer_than_the_screen(
        box: BoxServer, chromium: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    assert box.web is not None
    # A phone, upright: a small touch screen (Chromium's own emulation of one).
    for command, settings in (
            ("Emulation.setDeviceMetricsOverride",
             {"width": 412, "height": 860, "deviceScaleFactor": 1, "mobile": True}),
            ("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})):
        await asyncio.to_thread(chromium.execute_cdp_cmd, command, settings)
    await asyncio.to_thread(chromium.get, box.web.link)
    name = await asyncio.to_thread(chromium.find_element, By.ID, "name")
    await asyncio.to_thread(name.send_keys, "Cy")
    await asyncio.to_thread(chromium.find_element(By.ID, "play").click)
    screen = Screen(chromium)
    await screen.shows("Rules (r)")
    assert screen.size is not None and screen.size[0] < 60  # a phone's width
    # A screen that cannot hover: the page says so, and the app shows no tooltips
    # (one would come up under the finger after a tap and stay).
    (pid,) = [pid for pid, app in box.box.apps.items() if isinstance(app.owner, WebVisit)]
    environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    assert f"{TOUCH_ENV}=1".encode() in environ
    await asyncio.to_thread(keys, chromium, "r")
    await screen.shows("A shedding game")  # the rules, drawn
    row = screen.where("A shedding game")[1]
    cols, rows = screen.size
    middle = (cols // 2, rows // 2)
    await asyncio.to_thread(swipe, chromium, screen, (middle[0], rows - 6), (middle[0], 6))
    # The text moved up under the finger (it had not, before swipes were sent on).
    await screen.until(lambda text: "A shedding game" not in screen.screen.display[row])
    # A table's lobby: its keys run off the edge. A swipe along the footer (the finger
    # soon off its one row, and the wheel sideways: both once lost) brings Leave in.
    await asyncio.to_thread(keys, chromium, Keys.ESCAPE)
    await screen.shows("Open a table (h)")
    await asyncio.to_thread(keys, chromium, "h")
    await screen.shows("Table name")
    await asyncio.to_thread(ctrl, chromium, "s")
    await screen.until(lambda text: screen.screen.display[-1].startswith("^s Start")
                       and screen.screen.display[-1].rstrip().endswith("›"))
    assert "Leave" not in screen.screen.display[-1]
    await asyncio.to_thread(swipe, chromium, screen, (cols - 3, rows - 1), (2, rows - 3))
    await screen.until(lambda text: "Leave" in screen.screen.display[-1])
    # A tap on a button presses it, and then the mouse leaves the screen: nothing
    # hovers on a touch screen (what was tapped stayed lit beside the focused button).
    await asyncio.to_thread(tap, chromium, screen, screen.where("Bot "))
    await screen.shows("Bot 2")
    sent = await asyncio.to_thread(chromium.execute_script, "return window.__sent")
    clicks = [i for i, m in enumerate(sent) if re.search(r"\[<0;\d+;\d+m", m)]
    assert clicks and any("[<35;9999;9999M" in m for m in sent[clicks[-1]:]), sent[-5:]
    # The game gone (textual.js marks the page "-closed" as its websocket closes), its
    # last screen is dimmed under the banner: the menu stayed lit as if it still
    # answered (a web pass).
    dimmed = await asyncio.to_thread(chromium.execute_script, """
        document.body.classList.add("-closed");
        return [getComputedStyle(document.getElementById("terminal")).opacity,
                getComputedStyle(document.getElementById("ended")).display];""")
    assert float(dimmed[0]) < 1 and dimmed[1] == "block", dimmed

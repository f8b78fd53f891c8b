"""A browser tab as the tests drive it: aiohttp speaks the page script's websocket
protocol, and what the app draws is fed into a terminal emulator (pyte) and read off."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import aiohttp

from net.sshserve import BoxConfig
from tests.terminal_support import WAIT, Drawn


def both_doors(data_dir: Any, **limits: Any) -> BoxConfig:
    """A box on 127.0.0.1 with both doors (SSH open to anyone, the web), free ports."""
    return BoxConfig(port=0, bind="127.0.0.1", open_login=True, web_port=0,
                     data_dir=data_dir, hostname="box", **limits)


def new_browser() -> aiohttp.ClientSession:
    """A browser's cookie jar that keeps cookies of a bare IP address, as browsers do."""
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))


class Tab(Drawn):
    """One tab: the name form filled in, the game's websocket, the screen it draws."""

    def __init__(self, browser: aiohttp.ClientSession, link: str, cols: int = 100,
                 rows: int = 30) -> None:
        super().__init__(cols, rows)
        self.browser = browser
        self.link = link
        self.texts: list[Any] = []
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self._pump: asyncio.Task[None] | None = None

    async def sign_in(self, name: str) -> None:
        async with self.browser.post(self.link, data={"name": name}) as response:
            assert response.status == 200, await response.text()
            assert "textual.js" in await response.text()

    async def open(self) -> None:
        cols, rows = self.screen.columns, self.screen.lines
        self.ws = await self.browser.ws_connect(f"{self.link}/ws?width={cols}&height={rows}")
        self._pump = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.ws is not None
        async for message in self.ws:
            if message.type == aiohttp.WSMsgType.BINARY:
                self.drawn(message.data)
            elif message.type == aiohttp.WSMsgType.TEXT:
                self.texts.append(json.loads(message.data))
        self.ended()

    async def press(self, keys: str) -> None:
        assert self.ws is not None
        await self.ws.send_json(["stdin", keys])

    async def resize(self, cols: int, rows: int) -> None:
        assert self.ws is not None
        self.screen.resize(rows, cols)
        await self.ws.send_json(["resize", {"width": cols, "height": rows}])

    async def close(self, *, browser: bool = True) -> None:
        """Close the tab (and its browser, unless ``browser`` is False)."""
        if self.ws is not None:
            await self.ws.close()
        if self._pump is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait_for(self._pump, WAIT)
        if browser:
            await self.browser.close()


async def visit(link: str, name: str, cols: int = 100, rows: int = 30,
                browser: aiohttp.ClientSession | None = None) -> Tab:
    """A new tab (in a new browser unless given one) that signed in and opened the game."""
    tab = Tab(browser or new_browser(), link, cols, rows)
    await tab.sign_in(name)
    await tab.open()
    return tab

"""One seat at one table, as the app holds it: a net client plus what it takes to get back in.

The app never touches engine state: everything it shows comes from the ``update``
messages the host pushes, and everything it does goes out as a request. A dropped
TCP connection is re-opened and the seat reclaimed with its token.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from net.client import Client, ConnectionLost, Joined, ServerError
from net.host import Host
from tui.settings import remember_seat

Message = dict[str, Any]

# Host refusals after which retrying is pointless: the seat is gone for good.
FINAL_CODES = {"bad_token", "no_table", "kicked", "replaced", "version_mismatch"}


@dataclass
class Session:
    """A player's connection to one table: in-process (``host``) or over TCP (``address``)."""

    name: str
    host: Host | None = None
    address: tuple[str, int] | None = None
    client: Client | None = None
    joined: Joined | None = None
    latest: Message | None = None
    chat: list[Message] = field(default_factory=list)
    #: What happened at the table in words (chat and notices), for the lobby to show.
    lines: list[str] = field(default_factory=list)

    @property
    def where(self) -> str:
        """The host in words, for messages."""
        if self.address is not None:
            return f"{self.address[0]}:{self.address[1]}"
        return "this computer"

    async def connect(self) -> Client:
        """Open the connection and say hello."""
        if self.host is not None:
            self.client = await Client.local(self.host, name=self.name)
        else:
            assert self.address is not None
            self.client = await Client.connect(*self.address, name=self.name)
        return self.client

    async def create(self, table_name: str, game: str, seats: int,
                     options: dict[str, Any]) -> Joined:
        """Open a table and sit at it as its creator."""
        assert self.client is not None
        self.joined = await self.client.create_table(table_name, game, seats, options)
        self._remember()
        return self.joined

    async def join(self, table: str, seat: int | None = None, *,
                   token: str | None = None, spectate: bool = False) -> Joined:
        """Sit at a table (the first free seat unless ``seat`` is given), take a kept
        seat back with its ``token``, or watch."""
        assert self.client is not None
        self.joined = await self.client.join(table, seat, token=token, spectate=spectate)
        self._remember()
        return self.joined

    def _remember(self) -> None:
        """Keep a TCP seat's token on disk, so the seat survives a crash of this app."""
        joined = self.joined
        if self.address is not None and joined and joined.seat is not None and joined.token:
            remember_seat(self.where, joined.table, joined.seat, joined.token)

    async def reconnect(self) -> None:
        """Open a new connection and take our seat back with its token."""
        assert self.joined is not None
        if self.client is not None:
            await self.client.close()
        client = await self.connect()
        self.joined = await client.join(
            self.joined.table, self.joined.seat, token=self.joined.token
        )
        self._remember()

    async def next(self) -> Message:
        """The next message the host pushes; ``ConnectionLost`` when the line is down."""
        if self.client is None:
            raise ConnectionLost("not connected")
        msg = await self.client.next()
        if msg.get("type") == "update":
            self.latest = msg
            seats = msg["table"]["seats"]
            names = [s["name"] or f"seat {s['seat'] + 1}" for s in seats]
            for notice in msg.get("notices", []):
                text = describe_notice(notice, names)
                if text:
                    self.lines.append(f"· {text}")
        elif msg.get("type") == "chat":
            self.chat.append(msg)
            self.lines.append(f"{msg.get('name', '?')}: {msg.get('text', '')}")
        return msg

    async def request(self, method: str, *args: Any, **kwargs: Any) -> Any:
        """Call one of the client's requests by name (``act``, ``ready``, ``start`` …)."""
        if self.client is None or self.client.closed:
            raise ConnectionLost("not connected to the host")
        return await getattr(self.client, method)(*args, **kwargs)

    async def close(self) -> None:
        """Leave: close the connection (the seat stays reclaimable while the game runs)."""
        if self.client is not None:
            await self.client.close()


def describe_notice(notice: dict[str, Any], names: list[str]) -> str | None:
    """A line for the lobby's chat about something that happened at the table."""

    def name(seat: Any) -> str:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "someone"

    kind = notice.get("type")
    texts = {
        "joined": f"{notice.get('name')} sat down at seat {notice.get('seat', 0) + 1}",
        "left": f"{name(notice.get('seat'))} left",
        "moved": f"a player moved from seat {notice.get('from', 0) + 1} to "
                 f"seat {notice.get('to', 0) + 1}",
        "renamed": f"seat {notice.get('seat', 0) + 1} is now called {notice.get('name')}",
        "disconnected": f"{name(notice.get('seat'))} lost the connection",
        "reconnected": f"{notice.get('name')} is back",
        "kicked": f"seat {notice.get('seat', 0) + 1} was asked to leave",
        "bot_added": f"a bot took seat {notice.get('seat', 0) + 1}",
        "bot_removed": f"the bot left seat {notice.get('seat', 0) + 1}",
        "configured": "the table's game or options changed",
        "started": "the game starts!",
        "back_to_lobby": "back in the lobby",
    }
    return texts.get(str(kind))



__all__ = ["FINAL_CODES", "ConnectionLost", "Message", "ServerError", "Session"]

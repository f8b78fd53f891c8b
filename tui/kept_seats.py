"""Where a seat of ours is kept: the hosts this app sat at, asked whether a table there
still holds our seat (its token, ``tui.settings.remember_seat``).

A player whose laptop crashed, or who quit by mistake, starts the app again at the plain
menu: the menu asks here, and says "Back to your seat" when a host still keeps one (a
player found the seat only by opening Join). A host is asked what Join would ask
(``list_tables``), with a short time limit: an address that no longer answers costs
nothing but that wait, in the background.
"""

from __future__ import annotations

import asyncio
from typing import Any

#: How long one host may take to say which tables it has.
ASK_FOR = 3.0
#: The most hosts asked: the ones sat at last.
MOST_HOSTS = 3


def lan_hosts(limit: int = MOST_HOSTS) -> list[tuple[str, int]]:
    """The hosts we keep a seat at, the latest first (``host:port`` as ``Session.where``
    says it; seats kept at this computer's own host are not here: that host went with
    the app, and "Resume" brings it back)."""
    from tui.settings import kept_places

    out: list[tuple[str, int]] = []
    for where in kept_places():
        host, sep, port = where.rpartition(":")
        if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
            continue
        address = (host, int(port))
        if address not in out:
            out.append(address)
        if len(out) == limit:
            break
    return out


async def find_kept(addresses: list[tuple[str, int]], name: str,
                    gone: list[str] | None = None) -> tuple[tuple[str, int], list[str]] | None:
    """The first of ``addresses`` with a table that keeps a seat of ours, and the names
    of such tables there (``None``: none does, or none answered). A seat at a table a
    host that answered no longer has (closed while nobody was at it, or the host
    started afresh) is forgotten, its host's address added to ``gone``: the player
    came back to the plain menu and was told nothing."""
    from tui.settings import forget_seat, kept_at, kept_tables

    for address in addresses:
        listed = await _tables(address, name)
        where = f"{address[0]}:{address[1]}"
        if listed is None:
            continue
        alive = {str(t.get("id")): str(t.get("name")) for t in listed if isinstance(t, dict)
                 and kept_at(where, str(t.get("id")), str(t.get("uid") or ""))}
        kept = list(alive.values())
        for table in kept_tables(where):
            if table not in alive:
                forget_seat(where, table)
                if gone is not None:
                    gone.append(where)
        if kept:
            return address, kept
    return None


async def _tables(address: tuple[str, int], name: str) -> list[Any] | None:
    """The tables the host at ``address`` lists (``None``: it did not answer in time)."""
    from net.client import NotAHost
    from tui.session import ConnectionLost, ServerError, Session

    session = Session(name, address=address)
    try:
        async with asyncio.timeout(ASK_FOR):
            return list(await (await session.connect()).list_tables())
    except (ServerError, NotAHost, OSError, ConnectionLost, TimeoutError):
        return None  # (only a hint: Join says what is wrong)
    finally:
        await session.close()

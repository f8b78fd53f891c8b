"""A table's recent past, for whoever joins or comes back to it (``joined.past``).

Only what everyone at the table was sent goes in: the public events and notices of an
update, and chat lines. A view, a seat's own notices or a Got Five! mark never do, so a
returning seat is given nothing it could not have seen had it stayed.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

import msgpack

#: The last this many updates that told everyone something, and chat lines.
PAST_LIMIT = 120
#: The most bytes of that past one ``joined`` reply carries (oldest dropped first): well
#: inside a frame (``net.wire.framing.MAX_FRAME``).
PAST_BYTES = 96 * 1024


class Past:
    """The entries, each kept packed: a dozen small dicts an update would cost a table
    several times the memory its game does."""

    def __init__(self, pack: Callable[[Any], bytes]) -> None:
        self._pack = pack
        self._entries: deque[bytes] = deque(maxlen=PAST_LIMIT)

    def remember(self, entry: dict[str, Any]) -> None:
        """Keep ``entry`` (an update's part for everyone, or a chat line)."""
        self._entries.append(self._pack(entry))

    def packed(self) -> list[bytes]:
        """The newest entries that fit in :data:`PAST_BYTES`, oldest first, as packed."""
        kept: list[bytes] = []
        size = 0
        for packed in reversed(self._entries):
            size += len(packed)
            if size > PAST_BYTES:
                break
            kept.append(packed)
        kept.reverse()
        return kept

    def entries(self) -> list[dict[str, Any]]:
        """:meth:`packed`'s entries, unpacked."""
        return [msgpack.unpackb(packed, raw=False, strict_map_key=True)
                for packed in self.packed()]

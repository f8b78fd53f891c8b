"""Packing and unpacking frame bodies: msgpack with the wire's limits.

:func:`pack` makes a frame of any message; :func:`update_frame` makes the host's most
frequent one, an ``update``, from parts already packed (what every connection of one
push shares is packed once). :func:`view_changes` and :func:`apply_view_changes` are the
two sides of an ``update`` that carries only what changed in a view. :func:`unpack_body`
decodes a body with msgpack's own limits, and :func:`unpack_client_body` with the
host's tighter ones for what clients send, refusing a costly message while it is
decoded. What the decoded messages may hold is :mod:`net.wire.schemas`' business.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import msgpack

from net.wire.errors import BAD_FRAME, BAD_MESSAGE, ProtocolError, short, show
from net.wire.framing import frame

# msgpack's decoding limits: generous for any real message, far below MAX_FRAME abuse.
MAX_STR_LEN = 64 * 1024
MAX_BIN_LEN = 0
MAX_ARRAY_LEN = 4096
MAX_MAP_LEN = 1024
#: How deep a client's plain data (an action, the options) may nest.
MAX_DEPTH = 6
#: How deep a whole client message may nest: the message, a map in it, and MAX_DEPTH more.
MAX_MESSAGE_DEPTH = MAX_DEPTH + 2
#: How many values (containers and their items) one client message may hold.
MAX_MESSAGE_ITEMS = 2048
#: The longest string in a client message, in bytes (the longest field is 200 characters).
MAX_CLIENT_STR_LEN = 4096


def pack(message: Mapping[str, Any]) -> bytes:
    """Encode one message as a complete frame (length prefix included).

    Raises ``ValueError`` if the body would exceed the frame limit
    (:data:`net.wire.framing.MAX_FRAME`).
    """
    return frame(msgpack.packb(message, use_bin_type=True))


_UPDATE_KEYS = {
    key: msgpack.packb(key)
    for key in ("table", "seat", "view", "view_changes", "legal", "events", "notices")
}
_UPDATE_TYPE = msgpack.packb("type") + msgpack.packb("update")
#: Seat numbers packed once (a seat is a small int in every update).
_SEATS = [msgpack.packb(i) for i in range(16)]


def update_tail(events: list[dict[str, Any]], notices: list[dict[str, Any]]) -> bytes:
    """The packed ``events`` and ``notices`` of an ``update``: the same for every
    connection of one push, so packed once (see :func:`update_frame`)."""
    return (_UPDATE_KEYS["events"] + msgpack.packb(events, use_bin_type=True)
            + _UPDATE_KEYS["notices"] + msgpack.packb(notices, use_bin_type=True))


def update_frame(table: bytes | None, seat: int | None, view: bytes, legal: bytes,
                 tail: bytes, *, changes: bool = False) -> bytes:
    """One ``update`` frame assembled from parts already packed with msgpack.

    The bytes are exactly ``pack`` of the map ``{"type": "update", "table": …, "seat": …,
    "view": …, "legal": …, "events": …, "notices": …}`` (``table`` left out when it is
    ``None``; with ``changes``, ``view`` is the packed map of what changed and goes
    under ``view_changes``): what every connection of a push shares is packed once,
    only its own view and legal actions per connection. Raises ``ValueError`` past
    the frame limit.
    """
    keys = _UPDATE_KEYS
    parts = [b"\x86" if table is None else b"\x87", _UPDATE_TYPE]
    if table is not None:
        parts += [keys["table"], table]
    seat_packed = _SEATS[seat] if seat is not None and 0 <= seat < len(_SEATS) else (
        msgpack.packb(seat))
    parts += [keys["seat"], seat_packed, keys["view_changes" if changes else "view"],
              view, keys["legal"], legal, tail]
    return frame(b"".join(parts))


def map_entries(packed: bytes) -> tuple[int, bytes]:
    """A map packed with msgpack as its number of entries and its entries without the
    header: maps with no key in common are joined by :func:`joined_map`."""
    first = packed[0]
    if 0x80 <= first <= 0x8F:
        return first & 0x0F, packed[1:]
    if first == 0xDE:
        return int.from_bytes(packed[1:3], "big"), packed[3:]
    if first == 0xDF:
        return int.from_bytes(packed[1:5], "big"), packed[5:]
    raise ValueError("not a packed map")


def joined_map(first: tuple[int, bytes], second: tuple[int, bytes]) -> bytes:
    """One packed map of the entries of two maps with no key in common (each as
    :func:`map_entries` gives it): exactly ``packb`` of the two merged, in that order."""
    count = first[0] + second[0]
    if count <= 0x0F:
        head = bytes((0x80 | count,))
    elif count <= 0xFFFF:
        head = b"\xde" + count.to_bytes(2, "big")
    else:
        head = b"\xdf" + count.to_bytes(4, "big")
    return head + first[1] + second[1]


_MISSING: Any = object()


def view_changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any] | None:
    """The entries of ``new`` that differ from ``old`` (top level), or ``None`` when
    ``new`` lacks a key ``old`` has (then only the whole view says it).

    ``apply_view_changes(old, view_changes(old, new)) == new`` whenever it is not
    ``None``. A value counts as changed when it compares unequal or its type changed
    (``1`` and ``True`` compare equal); views keep each key's types, so equal nested
    values are the same values.
    """
    changes: dict[str, Any] = {}
    get = old.get
    for key, value in new.items():
        before = get(key, _MISSING)  # a key ``old`` lacks: ``_MISSING`` equals nothing
        # The same object is unchanged without asking (small ints, names, None).
        if before is not value and (before != value or type(before) is not type(value)):
            changes[key] = value
    if len(new) == len(old):
        # Every unchanged key is in ``old``; if every changed one is too, the keys are
        # the same; if not, ``old`` has one that ``new`` lacks.
        for key in changes:
            if key not in old:
                return None
        return changes
    return changes if len(new) > len(old) and old.keys() <= new.keys() else None


def apply_view_changes(old: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    """The view ``old`` with ``changes`` (an update's ``view_changes``) applied: a new
    map; values that did not change are ``old``'s own (shared, not copied)."""
    view = dict(old)
    view.update(changes)
    return view


class _Refused(Exception):
    """Raised inside msgpack's hooks to stop decoding at once."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class _Checker:
    """msgpack hooks that bound one message's cost while it is decoded.

    Containers are finished innermost first, so depth is known bottom-up and a message
    nested too deep, or holding too many values, is refused as soon as the limit is
    crossed — before anything recurses over it. Duplicate keys, binary and extension
    values are refused too (``docs/protocol.md``).
    """

    __slots__ = ("depths", "items", "max_depth", "max_items")

    def __init__(self, max_depth: int, max_items: int) -> None:
        self.depths: dict[int, int] = {}
        self.items = 0
        self.max_depth = max_depth
        self.max_items = max_items

    def _level(self, values: Iterable[Any], count: int) -> int:
        self.items += count + 1
        if self.items > self.max_items:
            raise _Refused(
                BAD_MESSAGE, f"the message holds more than {self.max_items} values"
            )
        depth = 1
        depths = self.depths
        for v in values:
            if type(v) is bytes:
                raise _Refused(BAD_FRAME, "binary values are not part of the protocol")
            d = depths.get(id(v))
            if d is not None and d >= depth:
                depth = d + 1
        if depth > self.max_depth:
            raise _Refused(BAD_MESSAGE, f"the message nests deeper than {self.max_depth} levels")
        return depth

    def list_hook(self, value: list[Any]) -> list[Any]:
        """Called by msgpack for every finished array."""
        self.depths[id(value)] = self._level(value, len(value))
        return value

    def pairs_hook(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        """Called by msgpack for every finished map, with its pairs in order."""
        out = dict(pairs)
        if len(out) != len(pairs):
            seen: set[str] = set()
            for k, _ in pairs:
                if k in seen:
                    raise _Refused(BAD_MESSAGE, f"a map repeats the key {show(k)}")
                seen.add(k)
        self.depths[id(out)] = self._level(out.values(), len(out))
        return out

    @staticmethod
    def ext_hook(code: int, data: bytes) -> Any:
        """Extension types (even empty ones) are not part of the protocol."""
        raise _Refused(BAD_FRAME, "extension types are not part of the protocol")


def unpack_body(
    body: bytes,
    *,
    max_depth: int | None = None,
    max_items: int | None = None,
    max_str_len: int = MAX_STR_LEN,
) -> dict[str, Any]:
    """Decode one frame body with msgpack's limits; it must be a single map.

    With ``max_depth``/``max_items`` (what the host uses for clients' messages) decoding
    also stops as soon as the message nests too deep or holds too many values, and
    refuses duplicate keys and binary or extension values: one message costs little to
    check, whatever it holds. Raises :class:`ProtocolError` (not fatal: the framing is
    intact) for garbage.
    """
    hooks: dict[str, Any] = {}
    if max_depth is not None or max_items is not None:
        checker = _Checker(max_depth or 1 << 30, max_items or 1 << 30)
        hooks = {
            "list_hook": checker.list_hook,
            "object_pairs_hook": checker.pairs_hook,
            "ext_hook": checker.ext_hook,
        }
    try:
        obj = msgpack.unpackb(
            body,
            raw=False,
            strict_map_key=True,
            max_str_len=max_str_len,
            max_bin_len=MAX_BIN_LEN,
            max_array_len=MAX_ARRAY_LEN,
            max_map_len=MAX_MAP_LEN,
            max_ext_len=0 if not hooks else 1,
            **hooks,
        )
    except _Refused as exc:
        raise ProtocolError(exc.code, exc.message) from None
    except Exception as exc:  # msgpack raises many types (ValueError, ExtraData, ...)
        # msgpack's own words can quote the whole body (ExtraData does): keep them short.
        # Some say nothing (a reserved byte such as 0xc1): their kind says it then.
        why = str(exc) or (
            "it holds a byte no msgpack value starts with"
            if isinstance(exc, msgpack.FormatError) else type(exc).__name__)
        raise ProtocolError(
            BAD_FRAME, short(f"the frame is not one valid msgpack object: {why}")
        ) from None
    if type(obj) is dict:  # every message (the one check on the hot path)
        return obj
    if isinstance(obj, bytes | msgpack.ExtType):
        raise ProtocolError(BAD_FRAME, "binary and extension values are not part of the protocol")
    if not isinstance(obj, dict):
        raise ProtocolError(BAD_MESSAGE, f"a message must be a map, not {type(obj).__name__}")
    return obj


def unpack_client_body(body: bytes) -> dict[str, Any]:
    """Decode a message from a client with the host's tight limits (see :func:`unpack_body`)."""
    return unpack_body(
        body, max_depth=MAX_MESSAGE_DEPTH, max_items=MAX_MESSAGE_ITEMS,
        max_str_len=MAX_CLIENT_STR_LEN,
    )

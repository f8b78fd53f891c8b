"""Finding hosts on the LAN with mDNS/DNS-SD (zeroconf's asyncio API).

A host advertises ``_hiddenhand._tcp.local.`` with TXT records saying its protocol
version, its name, and per table the id, game, free seats and phase; the records are
updated whenever they change. A :class:`Browser` lists hosts live — appearing,
changing and vanishing — as an async stream of :class:`BrowserEvent`.

The network interfaces mDNS uses are configurable: the ``--mdns-interface`` option or
the ``HIDDENHAND_MDNS_INTERFACES`` environment variable (comma-separated addresses).
The default is every interface, as a LAN player needs; tests pin it to 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import os
import re
import socket
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import ifaddr
from zeroconf import InterfaceChoice, IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from net.host import Host
from net.wire.framing import PROTOCOL_VERSION

log = logging.getLogger("hiddenhand.discovery")

SERVICE_TYPE = "_hiddenhand._tcp.local."
ENV_INTERFACES = "HIDDENHAND_MDNS_INTERFACES"
#: At most this many tables are described in the TXT record (each entry is short).
MAX_TXT_TABLES = 8
_TXT_VALUE_LEN = 200


def mdns_interfaces(
    option: Sequence[str] | None = None, environ: Mapping[str, str] | None = None
) -> list[str] | None:
    """The interface addresses mDNS should use, or ``None`` for all interfaces.

    The command-line ``option`` wins over the ``HIDDENHAND_MDNS_INTERFACES``
    environment variable (comma-separated). Raises ``ValueError`` for an entry that
    is not an IP address.
    """
    values = [v.strip() for item in option or () for v in item.split(",") if v.strip()]
    if not values:
        env = os.environ if environ is None else environ
        values = [v.strip() for v in env.get(ENV_INTERFACES, "").split(",") if v.strip()]
    for value in values:
        try:
            ipaddress.ip_address(value)
        except ValueError:
            raise ValueError(
                f"mDNS interface {value!r} is not an IP address (like 192.168.1.20)"
            ) from None
    return values or None


def is_local_address(address: str) -> bool:
    """Whether ``address`` is an address of this computer (one its interfaces have).

    An address an interface lists counts, as does one the system lets a socket bind to
    (the whole of 127.0.0.0/8, say); binding a UDP socket to port 0 sends nothing.
    """
    try:
        wanted = ipaddress.ip_address(address)
    except ValueError:
        return False
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            listed = ip.ip if isinstance(ip.ip, str) else ip.ip[0]
            with contextlib.suppress(ValueError):
                if ipaddress.ip_address(listed.split("%")[0]) == wanted:
                    return True
    family = socket.AF_INET if wanted.version == 4 else socket.AF_INET6
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.bind((str(wanted), 0))
    except OSError:
        return False
    return True


def check_local_interfaces(interfaces: Sequence[str] | None) -> None:
    """Raise ``ValueError`` in plain words for an interface address this computer lacks.

    zeroconf itself would only say ``[Errno 19] No such device``.
    """
    for address in interfaces or ():
        if not is_local_address(address):
            raise ValueError(f"{address} is not an address of this computer")


def _zeroconf(interfaces: list[str] | None) -> AsyncZeroconf:
    if interfaces is None:
        return AsyncZeroconf(interfaces=InterfaceChoice.All, ip_version=IPVersion.V4Only)
    check_local_interfaces(interfaces)
    return AsyncZeroconf(interfaces=list(interfaces))


def local_addresses(interfaces: list[str] | None) -> list[str]:
    """The addresses to advertise: the pinned interfaces, or every IPv4 address here."""
    if interfaces is not None:
        return list(interfaces)
    found = {
        ip.ip
        for adapter in ifaddr.get_adapters()
        for ip in adapter.ips
        if ip.is_IPv4 and isinstance(ip.ip, str)
    }
    outside = sorted(a for a in found if not a.startswith("127."))
    return outside or sorted(found) or ["127.0.0.1"]


# --------------------------------------------------------------------------- TXT records


@dataclass(frozen=True)
class TableInfo:
    """A table as a host's TXT record describes it."""

    id: str
    name: str
    game: str
    free: int
    seats: int
    phase: str
    #: Which table of that id (``Table.uid``; "" from a host that does not say).
    uid: str = ""


@dataclass(frozen=True)
class HostInfo:
    """A host found on the network: where to connect and what it offers."""

    service: str
    name: str
    addresses: tuple[str, ...]
    port: int
    version: int | None
    tables: tuple[TableInfo, ...]

    @property
    def address(self) -> str:
        """The first address to try."""
        return self.addresses[0] if self.addresses else ""

    @property
    def compatible(self) -> bool:
        """True when the host speaks this client's protocol version."""
        return self.version == PROTOCOL_VERSION

    def plain(self) -> dict[str, Any]:
        """As plain data (for ``hiddenhand list --json``)."""
        out = asdict(self)
        out["addresses"] = list(self.addresses)
        out["tables"] = [asdict(t) for t in self.tables]
        return out


def txt_properties(host: Host) -> dict[str, str]:
    """The TXT record for ``host``: version, name and a short entry per table."""
    props = {"v": str(PROTOCOL_VERSION), "name": host.name[:63], "tables": str(len(host.tables))}
    for i, t in enumerate(host.summary()[:MAX_TXT_TABLES]):
        entry = f"{t['id']};{t['game']};{t['free']}/{t['seats']};{t['phase']};{t['name']}"
        props[f"t{i}"] = entry[:_TXT_VALUE_LEN]
        props[f"u{i}"] = t["uid"]
    return props


def _text(value: bytes | None) -> str:
    return value.decode("utf-8", "replace") if value else ""


def parse_properties(
    props: Mapping[bytes, bytes | None],
) -> tuple[int | None, str, list[TableInfo]]:
    """Read a TXT record back: ``(version, host name, tables)``; bad entries are skipped."""
    text = {_text(k): _text(v) for k, v in props.items()}
    version = int(text["v"]) if text.get("v", "").isdigit() else None
    tables = []
    for i in range(MAX_TXT_TABLES):
        entry = text.get(f"t{i}")
        if not entry:
            continue
        parts = entry.split(";", 4)
        if len(parts) != 5:
            continue
        table_id, game, counts, phase, name = parts
        match = re.fullmatch(r"(\d+)/(\d+)", counts)
        if not match:
            continue
        uid = text.get(f"u{i}", "")
        tables.append(TableInfo(table_id, name, game, int(match[1]), int(match[2]), phase,
                                uid if re.fullmatch(r"[0-9a-f]{8}", uid) else ""))
    return version, text.get("name", ""), tables


def _instance_label(name: str) -> str:
    host = socket.gethostname().split(".")[0] or "host"
    label = f"{name} on {host}"
    # A DNS label holds at most 63 bytes.
    while len(label.encode()) > 63:
        label = label[:-1]
    return label


# --------------------------------------------------------------------------- advertising


class Advertiser:
    """Advertise a running host and keep its TXT record up to date.

    ``interfaces=None`` means ``HIDDENHAND_MDNS_INTERFACES`` if set, else every
    interface; ``addresses`` (default: those of the interfaces) are what is advertised.
    """

    def __init__(
        self,
        host: Host,
        port: int,
        *,
        interfaces: list[str] | None = None,
        addresses: list[str] | None = None,
    ) -> None:
        self.host = host
        self.port = port
        # No choice given: the environment variable still applies, else every interface.
        self.interfaces = interfaces if interfaces is not None else mdns_interfaces()
        self.addresses = addresses or local_addresses(self.interfaces)
        self._zc: AsyncZeroconf | None = None
        self._info: AsyncServiceInfo | None = None
        self._advertised: dict[str, str] = {}
        self._dirty = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    @property
    def service_name(self) -> str:
        """The full service name (zeroconf may have renamed it to be unique)."""
        assert self._info is not None, "not advertising"
        return self._info.name

    def _make_info(self, name: str, props: dict[str, str]) -> AsyncServiceInfo:
        safe = re.sub(r"[^A-Za-z0-9-]", "-", socket.gethostname().split(".")[0])[:40] or "host"
        return AsyncServiceInfo(
            SERVICE_TYPE,
            name,
            addresses=[ipaddress.ip_address(a).packed for a in self.addresses],
            port=self.port,
            properties=dict(props),
            server=f"{safe}-hiddenhand-{self.port}.local.",
        )

    async def start(self) -> None:
        """Register the service and follow the host's changes."""
        self._zc = _zeroconf(self.interfaces)
        props = txt_properties(self.host)
        info = self._make_info(f"{_instance_label(self.host.name)}.{SERVICE_TYPE}", props)
        await self._zc.async_register_service(info, allow_name_change=True)
        self._info, self._advertised = info, props
        self.host.listeners.append(self._changed)
        self._task = asyncio.get_running_loop().create_task(self._follow())
        log.info("advertising %s on port %d at %s", info.name, self.port, self.addresses)

    def _changed(self) -> None:
        self._dirty.set()

    async def _follow(self) -> None:
        """Re-publish the TXT record whenever it differs from what was last sent."""
        while True:
            await self._dirty.wait()
            self._dirty.clear()
            props = txt_properties(self.host)
            if props == self._advertised or self._zc is None or self._info is None:
                continue
            info = self._make_info(self._info.name, props)
            try:
                await self._zc.async_update_service(info)
            except Exception:
                log.exception("could not update the mDNS record")
                continue
            self._info, self._advertised = info, props

    async def close(self) -> None:
        """Withdraw the service (goodbye packets) and stop."""
        with contextlib.suppress(ValueError):
            self.host.listeners.remove(self._changed)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        if self._zc is not None:
            if self._info is not None:
                with contextlib.suppress(Exception):
                    # The inner awaitable completes once the goodbye packets are out.
                    await (await self._zc.async_unregister_service(self._info))
            await self._zc.async_close()
            self._zc = None

    async def __aenter__(self) -> Advertiser:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


# --------------------------------------------------------------------------- browsing


@dataclass(frozen=True)
class BrowserEvent:
    """A change in the list of hosts: ``kind`` is "added", "updated" or "removed"."""

    kind: str
    host: HostInfo


class Browser:
    """Watch the network for hosts; iterate over it for live :class:`BrowserEvent` s.

    ``interfaces=None`` means ``HIDDENHAND_MDNS_INTERFACES`` if set, else every interface.
    """

    def __init__(self, *, interfaces: list[str] | None = None, resolve_timeout: float = 3.0):
        self.interfaces = interfaces if interfaces is not None else mdns_interfaces()
        self.resolve_timeout = resolve_timeout
        self.hosts: dict[str, HostInfo] = {}
        self._zc: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._queue: asyncio.Queue[BrowserEvent] = asyncio.Queue()
        self._tasks: set[asyncio.Task[None]] = set()
        self._generation: dict[str, int] = {}

    async def start(self) -> None:
        """Start browsing."""
        self._zc = _zeroconf(self.interfaces)
        self._browser = AsyncServiceBrowser(
            self._zc.zeroconf, SERVICE_TYPE, handlers=[self._on_change]
        )

    def _on_change(
        self,
        zeroconf: Zeroconf,
        service_type: str,
        name: str,
        state_change: ServiceStateChange,
    ) -> None:
        generation = self._generation.get(name, 0) + 1
        self._generation[name] = generation
        if state_change is ServiceStateChange.Removed:
            gone = self.hosts.pop(name, None)
            if gone is not None:
                self._queue.put_nowait(BrowserEvent("removed", gone))
            return
        task = asyncio.get_running_loop().create_task(self._resolve(name, generation))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _resolve(self, name: str, generation: int) -> None:
        assert self._zc is not None
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        ok = await info.async_request(self._zc.zeroconf, int(self.resolve_timeout * 1000))
        if not ok or info.port is None or self._generation.get(name) != generation:
            return
        version, host_name, tables = parse_properties(info.properties)
        found = HostInfo(
            service=name,
            name=host_name or name.removesuffix("." + SERVICE_TYPE),
            addresses=tuple(info.parsed_addresses()),
            port=info.port,
            version=version,
            tables=tuple(tables),
        )
        old = self.hosts.get(name)
        if old == found:
            return
        self.hosts[name] = found
        self._queue.put_nowait(BrowserEvent("updated" if old else "added", found))

    def __aiter__(self) -> AsyncIterator[BrowserEvent]:
        return self._events()

    async def _events(self) -> AsyncIterator[BrowserEvent]:
        while True:
            yield await self._queue.get()

    async def next(self, timeout: float | None = None) -> BrowserEvent:
        """The next change (``TimeoutError`` if none comes in time)."""
        return await asyncio.wait_for(self._queue.get(), timeout)

    async def close(self) -> None:
        """Stop browsing."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._browser is not None:
            await self._browser.async_cancel()
        if self._zc is not None:
            await self._zc.async_close()
            self._zc = None

    async def __aenter__(self) -> Browser:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


async def discover(timeout: float = 2.0, *, interfaces: list[str] | None = None) -> list[HostInfo]:
    """Browse for ``timeout`` seconds; return the hosts found, by name."""
    async with Browser(interfaces=interfaces) as browser:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                async for _ in browser:
                    pass
        return sorted(browser.hosts.values(), key=lambda h: (h.name, h.service))

"""Discovery over mDNS, pinned to 127.0.0.1: advertise, browse, resolve, update, removal."""

from __future__ import annotations

import pytest

from net import discovery as d
from net.client import Client
from net.wire.framing import PROTOCOL_VERSION
from tests.net_support import LOCAL, running_host

PINNED = [LOCAL]  # never multicast on any other interface


def test_interfaces_come_from_the_option_then_the_environment() -> None:
    env = {d.ENV_INTERFACES: "10.0.0.2, 127.0.0.1"}
    assert d.mdns_interfaces(["192.168.1.4"], env) == ["192.168.1.4"]
    assert d.mdns_interfaces(None, env) == ["10.0.0.2", "127.0.0.1"]
    assert d.mdns_interfaces(["127.0.0.1,10.0.0.3"], {}) == ["127.0.0.1", "10.0.0.3"]
    assert d.mdns_interfaces(None, {}) is None
    with pytest.raises(ValueError, match="'eth0' is not an IP address"):
        d.mdns_interfaces(["eth0"], {})


def test_the_environment_pins_advertiser_and_browser_given_no_choice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from net.host import Host

    monkeypatch.setenv(d.ENV_INTERFACES, LOCAL)
    assert d.Browser().interfaces == [LOCAL]
    advertiser = d.Advertiser(Host(), 4455)
    assert advertiser.interfaces == [LOCAL] and advertiser.addresses == [LOCAL]
    assert d.Browser(interfaces=["10.1.2.3"]).interfaces == ["10.1.2.3"]


def test_txt_records_round_trip() -> None:
    props = {b"v": b"1", b"name": b"Den", b"tables": b"2",
             b"t0": b"t1;getout;2/4;lobby;Kitchen; upstairs", b"t1": b"garbage"}
    version, name, tables = d.parse_properties(props)
    assert (version, name) == (1, "Den")
    assert tables == [d.TableInfo("t1", "Kitchen; upstairs", "getout", 2, 4, "lobby")]
    # Which table of that id (a seat token names it); one not shaped so is not taken.
    props |= {b"u0": b"5f0c9a1e"}
    assert d.parse_properties(props)[2][0].uid == "5f0c9a1e"
    props |= {b"u0": b"../etc"}
    assert d.parse_properties(props)[2][0].uid == ""


async def wait_for_host(browser: d.Browser, service: str, kind: str) -> d.HostInfo:
    while True:
        event = await browser.next(timeout=10)
        if event.host.service == service and event.kind == kind:
            return event.host


async def test_advertise_browse_resolve_update_and_removal() -> None:
    async with running_host() as host:
        host.name = "Den"
        table = host.create_table("Kitchen", "getout", 3, bots=1)
        advertiser = d.Advertiser(host, host.port, interfaces=PINNED)
        async with d.Browser(interfaces=PINNED) as browser:
            await advertiser.start()
            try:
                service = advertiser.service_name
                found = await wait_for_host(browser, service, "added")
                assert found.name == "Den" and found.port == host.port
                assert found.addresses == (LOCAL,)
                assert found.version == PROTOCOL_VERSION and found.compatible
                assert found.tables == (d.TableInfo(table.id, "Kitchen", "getout", 2, 3, "lobby",
                                                    table.uid),)
                assert browser.hosts[service] == found

                # A player takes a seat: the TXT record follows.
                client = await Client.connect(found.address, found.port, name="Ann")
                await client.join(table.id)
                updated = await wait_for_host(browser, service, "updated")
                assert updated.tables[0].free == 1
                await client.close()
            finally:
                await advertiser.close()
            gone = await wait_for_host(browser, service, "removed")
            assert gone.port == host.port and service not in browser.hosts


async def test_discover_lists_hosts_as_plain_data() -> None:
    async with running_host() as host:
        host.name = "Attic"
        host.create_table("Game", "getout", 2)
        async with d.Advertiser(host, host.port, interfaces=PINNED) as advertiser:
            hosts = await d.discover(1.5, interfaces=PINNED)
            mine = [h for h in hosts if h.service == advertiser.service_name]
            assert len(mine) == 1
            plain = mine[0].plain()
            assert plain["name"] == "Attic" and plain["port"] == host.port
            assert plain["tables"][0]["game"] == "getout"
            assert plain["addresses"] == [LOCAL]

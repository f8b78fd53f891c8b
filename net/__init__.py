"""hiddenhand's network layer: one authoritative host, clients, and LAN discovery.

- :mod:`net.wire` — what crosses a connection: framing, packing and decoding limits,
  message schemas, error codes (one module each).
- :mod:`net.host` — :class:`net.host.Host`: tables, lobby, seats and tokens, bots, timers.
- :mod:`net.client` — :class:`net.client.Client` for the TUI and bots; ``Client.local``
  plays against an in-process host with no network at all. :mod:`net.autoplay` plays a
  client's seat with a bot; :mod:`net.address` reads and writes ``host:port``.
- :mod:`net.discovery` — mDNS advertising and browsing (zeroconf's asyncio API).
- :mod:`net.limits` — what one peer or address may cost a host, as settings.
- :mod:`net.journal` — the crash-recovery journal; ``Host.resume`` brings tables back.
- :mod:`net.serve` — the headless ``hiddenhand host`` and ``hiddenhand list`` jobs.

``docs/protocol.md`` describes every message. This package imports ``engine``, never
``tui``; the submodules are imported on demand (zeroconf is slow to import).
"""

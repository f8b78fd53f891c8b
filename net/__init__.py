"""hiddenhand's network layer: one authoritative host, clients, and LAN discovery.

- :mod:`net.wire` — what crosses a connection: framing, packing and decoding limits,
  message schemas, error codes (one module each).
- :mod:`net.host` — :class:`net.host.Host`: the server, admission, one timer per table,
  delivery of what the tables return.
- :mod:`net.clock` — the host's clock: the event loop's, or a ``ManualClock`` that tests
  and tools move themselves.
- :mod:`net.handlers` — one explicit table from request kind to handler.
- :mod:`net.table` — a table: its game, deadline and bots, called with a clock reading;
  it returns what to send and touches no socket or timer.
- :mod:`net.lobby` — the lobby's rules: join, seats, bots, configure, kick, start.
- :mod:`net.seats` — seats, names, tokens, bot factories.
- :mod:`net.fanout` — per-seat views → changes → ``update`` frames.
- :mod:`net.connection` — one connection's frames out, back-pressure, heartbeat.
- :mod:`net.client` — :class:`net.client.Client` for the TUI and bots; ``Client.local``
  plays against an in-process host with no network at all. :mod:`net.autoplay` plays a
  client's seat with a bot; :mod:`net.address` reads and writes ``host:port``.
- :mod:`net.discovery` — mDNS advertising and browsing (zeroconf's asyncio API).
- :mod:`net.limits` — what one peer or address may cost a host, and the per-address gate.
- :mod:`net.journal` — the crash-recovery journal and its replay; ``Host.resume`` brings
  tables back.
- :mod:`net.serve` — the headless ``hiddenhand host`` and ``hiddenhand list`` jobs.
- :mod:`net.box`, :mod:`net.sshlogin`, :mod:`net.sshapp`, :mod:`net.sshserve` — the SSH
  box: its one host and limits, the login, one login's app on a PTY, the entry point.
- :mod:`net.paths` — where settings, journals and the box's files live.

``docs/protocol.md`` describes every message. This package imports ``engine``, never
``tui``; the submodules are imported on demand (zeroconf is slow to import).
"""

"""The hiddenhand wire: what crosses a connection between a host and its clients.

One module a job; each imports only modules listed before it, and only ``stream``
touches asyncio:

- :mod:`net.wire.errors` — the error codes of ``error`` frames, ``ProtocolError`` and
  ``ConnectionClosed``, and ``error()``, the ``error`` message itself.
- :mod:`net.wire.framing` — the protocol version, the 4-byte length header, the frame
  size limit, ``frame()`` and ``FrameSplitter``, the one frame splitter.
- :mod:`net.wire.stream` — ``FrameReader`` (an ``asyncio.Protocol``) and
  ``FrameWriter``, one connection's two halves, with ``open_connection()`` and
  ``frame_protocol()`` to make them.
- :mod:`net.wire.codec` — ``pack()``, the ``update`` frame packed from parts,
  packed-map joining, view changes, and decoding with msgpack's limits
  (``unpack_body()``, ``unpack_client_body()``).
- :mod:`net.wire.schemas` — the validators, every client message's schema
  (``CLIENT_MESSAGES``) and ``validate_client_message()``.

``docs/protocol.md`` describes every message. Nothing here knows of tables or games.
"""

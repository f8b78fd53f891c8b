"""The hiddenhand wire: what crosses a connection between a host and its clients.

One module a job, each importing only those listed before it:

- :mod:`net.wire.errors` — the error codes of ``error`` frames, :class:`ProtocolError`
  and :class:`ConnectionClosed`, and :func:`error`, the ``error`` message itself.
- :mod:`net.wire.framing` — the protocol version, the 4-byte length header and the
  frame size limit; :class:`FrameSplitter`, the one frame splitter; :class:`FrameReader`
  (an ``asyncio.Protocol``) and :class:`FrameWriter`, one connection's two halves, with
  :func:`open_connection` and :func:`frame_protocol` to make them.
- :mod:`net.wire.codec` — :func:`pack`, the ``update`` frame packed from parts,
  packed-map joining, view changes, and decoding with msgpack's limits
  (:func:`unpack_body`, :func:`unpack_client_body`).
- :mod:`net.wire.schemas` — the validators, every client message's schema
  (:data:`CLIENT_MESSAGES`) and :func:`validate_client_message`.

``docs/protocol.md`` describes every message. Nothing here knows of tables or games.
"""

"""The host's answer to each request: one explicit table from request kind to handler.

:func:`receive` takes each frame a connection sends as it arrives: decodes it, holds the
connection to its message rate (a request over it is still answered: refused), checks it
against its schema and hands it to :func:`handle`. :data:`HANDLERS` is keyed like
``net.wire.schemas.CLIENT_MESSAGES``. A handler finds the connection's table, has the
table (``net.table``) or the lobby's rules (``net.lobby``) act on it, and hands what they
return to the host to deliver with its answer in its place: ``joined`` (with the seat's
token) and the lobby's ``ok`` come before the updates they cause, a move's ``ok`` after.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol

from engine.record import FREE_ACTIONS, PRIVATE_ACTIONS
from net import endless, idle, lobby, shared_review
from net.connection import Connection, LoopWatch, socket_time
from net.fanout import Outbox
from net.limits import ACT_COST, FRAME_BYTES, REFUSED_COST, SOCIAL, Bucket, Gate, Limits
from net.paths import visitor_player
from net.seats import RequestError, check_name
from net.table import Table
from net.wire import codec, errors, framing, schemas

log = logging.getLogger("hiddenhand.host")

#: Requests a connection may make before its ``hello``.
BEFORE_HELLO = frozenset({"hello", "ping", "pong"})
#: Said to a connection let in past a full host's limit (``Limits.returning_reserve``)
#: that asks anything but its seat back.
FULL_BUT_RETURNING = ("this host takes no more connections now, except a player taking "
                      "their seat back")


class Hosting(Protocol):
    """What the handlers need of the host (``net.host.Host``)."""

    name: str
    heartbeat: float
    rate: float
    burst: int
    tables: dict[str, Table]
    limits: Limits
    #: Limits per client address (``net.limits``).
    gate: Gate
    watch: LoopWatch
    lobby_idle: idle.LobbyIdle

    def clock(self) -> float:
        """The host's monotonic clock."""
        ...

    def summary(self) -> list[dict[str, Any]]:
        """Every table's short description."""
        ...

    def create_table(self, name: str, game_id: str, seats: int,
                     options: dict[str, Any] | None = None, *, bots: int = 0,
                     permanent: bool = False) -> Table:
        """Open a table (``ValueError`` in plain words if it cannot)."""
        ...

    def counts_address(self, conn: Connection) -> bool:
        """True if limits per client address apply to ``conn``."""
        ...

    def take(self, conn: Connection, kind: str) -> None:
        """Spend a human-scale allowance, or refuse with ``RequestError``."""
        ...

    def deliver(self, table: Table, out: Outbox,
                answer: tuple[Connection, dict[str, Any]] | None = None) -> None:
        """Journal and send what ``table`` returned (``answer`` before its updates)."""
        ...

    def check_idle(self, table: Table) -> None:
        """Close ``table`` (at once or later) if nobody is connected to it."""
        ...


Handler = Callable[[Hosting, Connection, dict[str, Any]], None]


def _answer(msg: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
    """``answer`` with the request's ``ref``, if it had one."""
    if "ref" in msg:
        answer["ref"] = msg["ref"]
    return answer


def _ok(msg: dict[str, Any]) -> dict[str, Any]:
    return _answer(msg, {"type": "ok"})


def _at_table(conn: Connection) -> Table:
    if conn.table is None:
        raise RequestError(errors.NO_TABLE, "you are not at a table; join one first")
    return conn.table


def _not_at_table(conn: Connection) -> None:
    if conn.table is not None:
        raise RequestError(errors.BAD_REQUEST, "you are already at a table; leave it first")


def _joined(host: Hosting, conn: Connection, msg: dict[str, Any], table: Table,
            token: str | None, out: Outbox, past: list[dict[str, Any]]) -> None:
    """Answer a request that sat or seated ``conn`` at ``table``: the token is durable
    (journaled) before it is handed out, and before the table's first update. ``past``
    is the table's past from before this request (its own update follows the answer)."""
    host.check_idle(table)
    joined = {"type": "joined", "table": table.id, "seat": conn.seat, "token": token,
              "past": past}
    host.deliver(table, out, (conn, _answer(msg, joined)))


def hello(host: Hosting, conn: Connection, msg: dict[str, Any]) -> None:
    """The handshake: the protocol version must be this host's."""
    if conn.welcomed:
        raise RequestError(errors.BAD_REQUEST, "you have already said hello")
    if msg["version"] != framing.PROTOCOL_VERSION:
        raise errors.ProtocolError(
            errors.VERSION_MISMATCH,
            f"this host speaks protocol version {framing.PROTOCOL_VERSION} but your client "
            f"speaks version {msg['version']}; use the same hiddenhand release on both sides",
            fatal=True,
        )
    conn.name = check_name(msg["name"])
    log.info("connection %d is %s", conn.id, conn.name)  # (a name the host's rules took)
    if host.limits.trusted_visitors and msg.get("visitor"):
        # (A box's host: its own apps say whose they are; see Limits.trusted_visitors.)
        conn.player = visitor_player(msg["visitor"])
    conn.welcomed = True
    conn.send(_answer(msg, {"type": "welcome", "version": framing.PROTOCOL_VERSION,
                            "host": host.name, "heartbeat": host.heartbeat,
                            "tables": host.summary()}))


def ping(host: Hosting, conn: Connection, msg: dict[str, Any]) -> None:
    """Answer a ping."""
    conn.send(_answer(msg, {"type": "pong"}))


def pong(host: Hosting, conn: Connection, msg: dict[str, Any]) -> None:
    """Nothing to do: the peer was heard, which is all a pong says."""


def list_tables(host: Hosting, conn: Connection, msg: dict[str, Any]) -> None:
    """The host's tables, each in short."""
    conn.send(_answer(msg, {"type": "tables", "tables": host.summary()}))


def create_table(host: Hosting, conn: Connection, msg: dict[str, Any]) -> None:
    """Open a table and sit at its first seat, as its creator."""
    _not_at_table(conn)
    if host.counts_address(conn):
        mine = [t for t in host.tables.values() if t.opened_by == conn.address]
        if len(mine) >= host.limits.max_tables_per_address:
            raise RequestError(
                errors.BAD_REQUEST,
                f"your address already has {len(mine)} tables open on this host "
                f"(at most {host.limits.max_tables_per_address}); join one of them instead",
            )
    refusal = idle.refuse_another(host.tables.values(), conn.player, host.limits)
    if refusal is not None:
        raise RequestError(errors.BAD_REQUEST, refusal)
    try:
        table = host.create_table(msg["name"], msg["game"], msg["seats"], msg.get("options"))
    except ValueError as exc:
        raise RequestError(errors.BAD_REQUEST, str(exc)) from None
    table.opened_by, table.opener = conn.address, conn.player
    token, out = lobby.sit(table, conn, 0, host.clock())
    log.info("%s created table %s (%s)", conn.name, table.id, table.game_id)
    _joined(host, conn, msg, table, token, out, [])


def join(host: Hosting, conn: Connection, msg: dict[str, Any]) -> None:
    """Sit at a table, watch it, or take a seat back with its token; a spectator sits at
    the table it watches in one step (a leave, then a join, closed it in between)."""
    if conn.table is None or conn.seat is not None or conn.table.id != msg["table"] \
            or "token" in msg or msg.get("spectate"):
        _not_at_table(conn)
    if "token" in msg and msg["table"] not in host.tables:
        raise RequestError(
            errors.NO_TABLE,
            f"this host has no table {msg['table']!r} any more: the game your seat was "
            "at is gone (the host was restarted without it, or the table closed)",
        )
    table = host.tables.get(msg["table"])
    if table is None:
        raise RequestError(errors.NO_TABLE, f"there is no table {msg['table']!r} on this host")
    now = host.clock()
    past = table.past.entries()
    token: str | None
    if "token" in msg:
        try:
            token, out = lobby.rejoin(table, conn, msg.get("seat"), msg["token"], now)
        except RequestError as exc:
            if conn.returning:  # (no seat of its own: it has no place here)
                raise errors.ProtocolError(exc.code, exc.message, fatal=True) from None
            raise
        conn.returning = False
    elif msg.get("spectate"):
        lim = host.limits
        token, out = None, lobby.watch(
            table, conn, now, most=lim.max_spectators,
            from_address=lim.max_spectators_per_address if host.counts_address(conn) else None)
    else:
        token, out = lobby.join(table, conn, msg.get("seat"), now)
    _joined(host, conn, msg, table, token, out, past)


def leave(host: Hosting, conn: Connection, msg: dict[str, Any]) -> None:
    """Leave the table (a seat in play waits for its player)."""
    table = _at_table(conn)
    host.deliver(table, lobby.leave(table, conn, host.clock()), (conn, _ok(msg)))
    host.check_idle(table)


def pick_seat(host: Hosting, conn: Connection, msg: dict[str, Any]) -> None:
    """Move to another seat in the lobby."""
    table = _at_table(conn)
    out = lobby.pick_seat(table, conn, msg["seat"], host.clock())
    host.deliver(table, out, (conn, _ok(msg)))


def rename(host: Hosting, conn: Connection, msg: dict[str, Any]) -> None:
    """Take a new display name (the seat's follows)."""
    conn.name = check_name(msg["name"])
    table = conn.table
    if table is None:
        conn.send(_ok(msg))
        return
    host.deliver(table, lobby.rename(table, conn, host.clock()), (conn, _ok(msg)))


def ready(host: Hosting, conn: Connection, msg: dict[str, Any]) -> None:
    """Say whether this seat is ready to start."""
    table = _at_table(conn)
    out = lobby.ready(table, conn, msg["ready"], host.clock())
    host.deliver(table, out, (conn, _ok(msg)))


def chat(host: Hosting, conn: Connection, msg: dict[str, Any]) -> None:
    """Say something to everyone at the table."""
    table = _at_table(conn)
    host.deliver(table, lobby.chat(table, conn, msg["text"]), (conn, _ok(msg)))


def configure(host: Hosting, conn: Connection, msg: dict[str, Any]) -> None:
    """The creator sets the game, the seats or options."""
    table = _at_table(conn)
    out = lobby.configure(table, conn, host.clock(), game=msg.get("game"),
                          seats=msg.get("seats"), options=msg.get("options"))
    host.deliver(table, out, (conn, _ok(msg)))


def add_bot(host: Hosting, conn: Connection, msg: dict[str, Any]) -> None:
    """The creator seats a bot."""
    table = _at_table(conn)
    out = lobby.add_bot(table, conn, msg["seat"], host.clock())
    host.deliver(table, out, (conn, _ok(msg)))


def remove_bot(host: Hosting, conn: Connection, msg: dict[str, Any]) -> None:
    """The creator takes a bot away."""
    table = _at_table(conn)
    out = lobby.remove_bot(table, conn, msg["seat"], host.clock())
    host.deliver(table, out, (conn, _ok(msg)))


def kick(host: Hosting, conn: Connection, msg: dict[str, Any]) -> None:
    """The creator removes a player from the lobby."""
    table = _at_table(conn)
    seat = msg["seat"]
    victim = table.seats[seat].conn if seat < len(table.seats) else None
    out = lobby.kick(table, conn, seat, host.clock())
    host.deliver(table, out, (conn, _ok(msg)))
    if isinstance(victim, Connection):
        host.lobby_idle.note(victim)  # at no table from now


def start(host: Hosting, conn: Connection, msg: dict[str, Any]) -> None:
    """The creator starts the game."""
    table = _at_table(conn)
    out = lobby.start(table, conn, host.clock())
    log.info("table %s started %s", table.id, table.game_id)
    host.deliver(table, out)
    conn.send(_ok(msg))


def to_lobby(host: Hosting, conn: Connection, msg: dict[str, Any]) -> None:
    """The creator takes the table back to its lobby (after the game, or ending it)."""
    table = _at_table(conn)
    out = lobby.to_lobby(table, conn, host.clock())
    host.deliver(table, out, (conn, _ok(msg)))


def rematch(host: Hosting, conn: Connection, msg: dict[str, Any]) -> None:
    """The creator asks for the same game again (``net.lobby.rematch``)."""
    table = _at_table(conn)
    out = lobby.rematch(table, conn, host.clock())
    host.deliver(table, out, (conn, _ok(msg)))


def review_open(host: Hosting, conn: Connection, msg: dict[str, Any]) -> None:
    """The creator opens a review of the game just over for the whole table."""
    table = _at_table(conn)
    host.deliver(table, shared_review.open_review(table, conn, host.clock()), (conn, _ok(msg)))


def review_go(host: Hosting, conn: Connection, msg: dict[str, Any]) -> None:
    """A step in the table's review (the creator's take everyone following along)."""
    table = _at_table(conn)
    host.deliver(table, shared_review.go(table, conn, msg["at"]), (conn, _ok(msg)))


def review_follow(host: Hosting, conn: Connection, msg: dict[str, Any]) -> None:
    """Follow the table's review again (also after closing it)."""
    table = _at_table(conn)
    host.deliver(table, shared_review.follow(table, conn, auto=msg.get("auto", False)),
                 (conn, _ok(msg)))


def review_close(host: Hosting, conn: Connection, msg: dict[str, Any]) -> None:
    """Close the review (the creator's: for everyone)."""
    table = _at_table(conn)
    host.deliver(table, shared_review.close(table, conn, host.clock()), (conn, _ok(msg)))


def act(host: Hosting, conn: Connection, msg: dict[str, Any]) -> None:
    """A move in the game, by the seat bound to this connection (never one named in
    the message); a game made endless is ended (``net.endless``)."""
    table = _at_table(conn)
    if (table.game_id, msg["action"].get("type")) in TOLD_FREE_ACTIONS:
        host.take(conn, "signal")
    host.deliver(table, table.act(table.seat_of(conn), msg["action"], host.clock()))
    conn.send(_ok(msg))
    if (ended := endless.end_if_endless(table, host.clock())).pushes:
        host.deliver(table, ended)


#: Moves that take no turn and reach everyone at the table: the "signal" allowance's.
TOLD_FREE_ACTIONS = FREE_ACTIONS - PRIVATE_ACTIONS


#: Request kind -> handler, one for each schema in ``net.wire.schemas.CLIENT_MESSAGES``.
HANDLERS: dict[str, Handler] = {
    "hello": hello,
    "ping": ping,
    "pong": pong,
    "list_tables": list_tables,
    "create_table": create_table,
    "join": join,
    "leave": leave,
    "pick_seat": pick_seat,
    "rename": rename,
    "ready": ready,
    "chat": chat,
    "configure": configure,
    "add_bot": add_bot,
    "remove_bot": remove_bot,
    "kick": kick,
    "start": start,
    "to_lobby": to_lobby,
    "rematch": rematch,
    "review_open": review_open,
    "review_go": review_go,
    "review_follow": review_follow,
    "review_close": review_close,
    "act": act,
}


def handle(host: Hosting, conn: Connection, msg: dict[str, Any]) -> None:
    """Answer one validated request from ``conn`` (``RequestError`` if refused)."""
    kind = msg["type"]
    if not conn.welcomed and kind not in BEFORE_HELLO:
        raise RequestError(errors.NOT_WELCOMED, "say hello (with the protocol version) first")
    if conn.returning and kind not in BEFORE_HELLO and (kind != "join" or "token" not in msg):
        raise errors.ProtocolError(errors.HOST_FULL, FULL_BUT_RETURNING, fatal=True)
    try:
        if kind in SOCIAL:
            host.take(conn, kind)
        HANDLERS[kind](host, conn, msg)
    finally:
        # Something a person did (even refused): a connection at no table stays a while.
        if kind not in idle.AUTOMATIC and conn.welcomed:
            host.lobby_idle.note(conn)


def _over_rate(conn: Connection, gate: Gate, body: bytes, now: float, heavy: bool) -> None:
    """A frame beyond the message rate (the connection's, its address's or its share of
    a busy host's, ``heavy``): refused; answered if small and holding a ``ref`` (no
    client waits for ever; a glance, not a decode, tells: with 39 addresses at it,
    decoding their pongs cost as much as serving), past a share within the ``refused``
    allowance. A connection that keeps it up past ``limits.flood_close`` is closed."""
    if not conn.warned:
        # (With the connection's other refusals, a few lines at most: a flood that got a
        # frame through now and then wrote a line each time, 10,000 in 10 s.)
        conn.log_refusal(errors.RATE_LIMITED, "sends too fast; refusing its messages")
    conn.warned = True
    if conn.flooding_since is None:
        conn.flooding_since = now
    elif now - conn.flooding_since > conn.limits.flood_close:
        _close(conn, errors.RATE_LIMITED, "too many messages for too long")
        return
    if len(body) <= FRAME_BYTES and b"ref" in body and (not heavy or gate.take(
            conn.buckets, conn.address, "refused", now) is None):
        try:
            ref = schemas.reply_ref(codec.unpack_client_body(body))
        except errors.ProtocolError:
            return
        if ref is not None:
            conn.fail(errors.RATE_LIMITED, "too many messages; slow down", ref)


def _close(conn: Connection, code: str, why: str) -> None:
    """Tell a peer that misbehaves past its limits why, and close its connection (a
    peer that answers pings would otherwise cost a decode per frame for ever)."""
    log.info("connection %d: %s; closing it", conn.id, why)
    conn.fail(code, f"{why}; closing the connection")
    conn.close()
    conn.reader.stop()


def _charge(gate: Gate, conn: Connection, shared: Bucket | None, cost: float,
            now: float) -> None:
    """Spend ``cost`` more of the message allowance for a frame let through."""
    conn.allowance -= cost
    if shared is not None:
        shared.charge(cost)
    gate.heavy(conn.address, int(cost), now)


def receive(host: Hosting, conn: Connection, body: bytes) -> None:
    """One frame from ``conn``: paid for, decoded, checked, answered."""
    if conn.closed:
        conn.reader.stop()
        return
    # The message rate shields the host's sockets: real seconds, as the heartbeat counts.
    # It counts every frame, those that do not even decode too, and by its size: one
    # connection's allowance and its address's, spent by all of that address's
    # connections together (32 connections of one address, each within its own rate,
    # kept the host most of a second behind with frames of 2,048 numbers).
    now = socket_time()
    conn.allowance = min(float(host.burst), conn.allowance + (now - conn.last_seen) * host.rate)
    conn.last_seen, conn.stalled_seen = now, host.watch.stalled
    gate, cost = host.gate, 1 + len(body) // FRAME_BYTES
    shared = gate.frames(conn.address, host.rate, host.burst, now)
    # (Many addresses, each within its allowance, held the host a third of a second
    # behind: past the host's own rate each is held to its share of it.)
    heavy = gate.heavy(conn.address, cost, now)
    if conn.flooding_since is not None and conn.allowance >= host.burst / 2 and (
            shared is None or shared.full(now)) and not heavy:
        conn.flooding_since = None  # it slowed down for a while: a burst, not a flood
    if heavy or conn.allowance < 1 or (shared is not None and not shared.spend(cost, now)):
        _over_rate(conn, gate, body, now, heavy)
        return
    conn.allowance -= cost
    conn.warned = False
    try:
        raw = codec.unpack_client_body(body)
    except errors.ProtocolError as exc:
        conn.bad_frames += 1
        if conn.bad_frames > conn.limits.max_bad_frames:
            _close(conn, errors.BAD_FRAME, "too many frames that are no message")
        else:
            conn.log_refusal(exc.code, exc.message)
            conn.fail(exc.code, exc.message)
        return
    try:
        msg = schemas.validate_client_message(raw)
    except errors.ProtocolError as exc:
        # One short line per invalid message (the first few), never a traceback.
        conn.log_refusal(exc.code, exc.message)
        conn.fail(exc.code, exc.message, schemas.reply_ref(raw))
        return
    if msg["type"] == "act":  # (a move costs more than its few bytes: ACT_COST)
        _charge(gate, conn, shared, ACT_COST - 1, now)
    try:
        handle(host, conn, msg)
    except RequestError as exc:
        conn.fail(exc.code, exc.message, msg.get("ref"))
        if exc.code == errors.RATE_LIMITED:
            _charge(gate, conn, shared, REFUSED_COST - 1, now)
    except errors.ProtocolError as exc:
        conn.fail(exc.code, exc.message, msg.get("ref"))
        if exc.fatal:
            conn.close()
            conn.reader.stop()
    except Exception:
        # A bug must not take the host down for everyone else.
        log.exception("connection %d: %s request failed", conn.id, msg["type"])
        conn.fail(errors.INTERNAL, "the host failed to handle that request", msg.get("ref"))
    if conn.closed:
        conn.reader.stop()

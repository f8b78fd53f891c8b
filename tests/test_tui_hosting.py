"""The app's hosting and its table listener, each on its own: no Textual app, no screen.

``tui.hosting.Hosting`` deals a solo game on a host with no network; ``tui.listener``'s
:class:`Listener` turns what a session reads into the messages a table screen gets,
and stops on what ends a seat for good. (The app that assembles them is driven by
``test_tui.py`` and the other TUI tests.)
"""

from __future__ import annotations

from typing import Any

from textual.message import Message

from tui.hosting import Hosting
from tui.listener import MAX_RESTARTS, Listener
from tui.messages import ChatReceived, ConnectionDropped, HostSaid, ViewReceived
from tui.settings import Settings


async def test_a_solo_game_is_dealt_and_stopped_without_an_app() -> None:
    warnings: list[str] = []
    hosting = Hosting(lambda: Settings(name="Ann"), bind=None, bot_delay=0.3,
                      seed_source=lambda: 7, warn=warnings.append)
    session = await hosting.deal_solo("getout", 3, {"first": 0})
    try:
        host = hosting.host
        assert host is not None and host.server is None  # no network at all
        assert hosting.hosts(session) and hosting.plays_solo(session)
        assert hosting.join_address() is None  # nobody joins a solo game
        assert session.latest is not None and session.latest["view"]["seat"] == 0
        seats = session.latest["table"]["seats"]
        assert [seat["kind"] for seat in seats] == ["human", "bot", "bot"]
        assert hosting.bots_full_speed(session) and host.bot_delay == 0.0
        assert hosting.bots_full_speed(session, False) and host.bot_delay == 0.3
    finally:
        await session.close()
        await hosting.stop()
    assert hosting.host is None and warnings == []


class ScriptedSession:
    """Reads what it was given, then waits for ever (as a quiet table does)."""

    def __init__(self, messages: list[dict[str, Any]]) -> None:
        self.messages = messages
        self.client = None
        self.where = "the test"
        self.latest: dict[str, Any] | None = None
        #: The tables whose seat the listener had forgotten (removed from them).
        self.forgotten: list[str] = []

    async def next(self) -> dict[str, Any]:
        if self.messages:
            msg = self.messages.pop(0)
            self.latest = msg if msg.get("type") == "update" else self.latest
            return msg
        raise AssertionError("the listener read past a final error")

    def forget_seat(self, table: str) -> None:
        self.forgotten.append(table)


async def test_the_listener_posts_what_the_host_pushes_and_stops_on_a_final_error() -> None:
    posted: list[Message] = []
    listener = Listener(posted.append, lambda text, timeout: None)
    session: Any = ScriptedSession([
        {"type": "update", "view": {"seat": 0}, "table": {"id": "t1"}},
        {"type": "chat", "from": 1, "text": "hi"},
        {"type": "error", "code": "rate_limited", "message": "slow down"},
        {"type": "error", "code": "kicked", "message": "you were removed"},
    ])
    assert listener.follow(session)
    await listener.listen(session)
    assert [type(m) for m in posted] == [ViewReceived, ChatReceived, HostSaid,
                                         ConnectionDropped]
    dropped = posted[-1]
    assert isinstance(dropped, ConnectionDropped) and dropped.final
    assert dropped.reason == "you were removed"
    assert session.forgotten == ["t1"]  # (removed: the seat's token is no use any more)


async def test_the_listener_reads_only_the_session_it_follows() -> None:
    posted: list[Message] = []
    listener = Listener(posted.append, lambda text, timeout: None)
    session: Any = ScriptedSession([{"type": "update", "view": {}}])
    listener.follow(None)
    await listener.listen(session)  # not the table: returns at once, reads nothing
    assert posted == [] and session.messages


def test_a_failing_listener_is_reported_restarted_and_at_last_given_up() -> None:
    """Every failure of the listener's worker is said; it is started again while the
    table is followed, up to MAX_RESTARTS times in a row; then the table hears the
    connection is gone for good. With no table followed there is nothing to restart."""
    posted: list[Message] = []
    alerts: list[str] = []
    listener = Listener(posted.append, lambda text, timeout: alerts.append(text))
    assert not listener.failed(RuntimeError("boom")) and alerts == []
    listener.follow(ScriptedSession([]))  # type: ignore[arg-type]
    assert [listener.failed(RuntimeError("boom")) for _ in range(MAX_RESTARTS + 1)] == [
        *[True] * MAX_RESTARTS, False]
    assert len(alerts) == MAX_RESTARTS + 1 and all("boom" in text for text in alerts)
    assert "Stopped listening" in alerts[-1]
    (dropped,) = posted
    assert isinstance(dropped, ConnectionDropped) and dropped.final

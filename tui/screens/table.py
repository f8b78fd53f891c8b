"""The base of every game's table screen: what all tables share, written once.

``TableScreen`` owns the moves (``legal`` and :meth:`TableScreen.act`, whose keys wait
for the host's answer), refusals, leaving, which of the creator's keys show (going back
to the lobby, handing an away player's seat to a bot: :mod:`tui.screens.table_creator`),
the names, the table's log (game events, table notices, chat) and its replay from the
session, and chat at the table; the end-of-round summary's lifecycle and the review are
:mod:`tui.screens.table_summary`'s. A game's screen (``tui/games/<game>/screen.py``)
writes only what is its own:

- ``compose_table()`` — its widgets (it places :meth:`compose_log` where it likes);
- ``show(msg, view, legal, names)`` — pass a new view down to them;
- ``describe_event(event, namer)`` — one log line for one of its events (``describe_entries``
  may join two that came together into one line);
- ``summary(msg, names)`` / ``summary_over(msg)`` — the summary dialog to open when a
  round ends, and when to close it again; ``summary_answered(answer)`` for "next";
  ``GAME_ENDED``, the events of an update that ends the game;
- ``chat_open()`` — whether table chat is allowed now (Get It! is silent in a round);
- ``out_of_game()`` / ``standings()`` — whether we are out while the others play on
  (a solo game then offers to let the bots finish at full speed, or to leave with the
  result: the bots finish at once, undrawn, and the app says how it ended), and how the
  game stands (or ended), in a line;
- ``check_game_action(action, parameters)`` — which of its keys work now;
  ``game_key(event)`` — a key as it reaches the table, before its binding runs.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable
from typing import Any, ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input

from tui import gc_tuning
from tui.games.past_events import describe_past_event
from tui.messages import ChatReceived, ConnectionDropped, ConnectionRestored
from tui.notices import Namer, describe_chat, describe_notice, our_seat_then, seat_names
from tui.screens.base import Banner
from tui.screens.table_creator import TABLE_ACTIONS
from tui.screens.table_summary import TableSummaryScreen
from tui.session import ConnectionLost, Entry, ServerError
from tui.widgets.chat import CHAT_OFF, CHAT_OPEN, ChatLine
from tui.widgets.footer import COMPACT_FOOTER_BELOW, SparingFooter, TableFooter
from tui.widgets.log import TableLog
from tui.widgets.titlebar import TitleBar

#: Seconds after an update that its full collection runs, if one is due
#: (``tui.gc_tuning``): the update is drawn by then (a frame comes at most 1/60 s after
#: it), and the next move is still 0.1-0.6 s away (Get It!'s bots, the turn-based bots'
#: pace).
COLLECT_AFTER = 0.05


#: A game's turn line once its table is gone for good (the host stopped, we were removed).
GONE = "Nothing more is played here (Esc goes back to the menu)."
#: The turn line while the host is out of reach (our move waits for it).
CUT_OFF = "▶ Your turn, once the host is back: reconnecting…"


class TableScreen(SparingFooter, TableSummaryScreen):
    """One seat's view of a game's table (or a spectator's); subclass per game."""

    #: The engine's id of the game this screen plays.
    GAME: ClassVar[str] = ""
    #: Keys belong to the table, not to a text line: nothing has the focus at first.
    AUTO_FOCUS = ""
    #: The game's round runs on in real time (Get It!): a question does not hold it.
    RUNS_ON: ClassVar[bool] = False

    #: The chat line says ``/`` and ``?`` while it is empty (as it is whenever the
    #: footer shows these keys).
    FOOTER_SPARE: ClassVar[dict[str, tuple[str, ...]]] = {"#table-chat": ("chat", "rules")}
    BINDINGS = [
        # Priority: handled as it arrives, so the keys typed straight after it reach the line.
        Binding("slash", "chat", "Chat", priority=True),
        Binding("b", "bot_for_away", "Away bot",  # (short: at 80 columns it hid ? Rules)
                tooltip="Let a bot play for an away player until they are back"),
        Binding("f", "finish", "Bots: full speed"),
        Binding("v", "summary_again", "Summary"),
        Binding("escape", "leave", "Leave"),
        # After Leave: during play (the creator's, to switch games) it is the key that
        # may not fit at 80 columns, not Leave.
        Binding("l", "to_lobby", "Lobby"),
        # Last (the game's keys come first where room is short): the key people try for
        # help, and on a touch screen the only way to the rules (a tap, or a swipe along
        # the footer to it).
        Binding("question_mark", "rules", "Rules"),
    ]

    #: Moves sent that the host has not answered yet (their keys wait).
    moving = 0
    #: The version of the view the host's last answer came after; keys wait for it.
    answered_at: int | None = None
    #: An update was shown while a move of ours was on its way: with no move open.
    _shown_moving = False
    #: The footer's keys as last refreshed (see ``_footer_keys_changed``).
    _footer_keys: tuple[object, ...] | None = None
    #: The table part ``names`` was last read from, and what it read.
    _names_of: tuple[dict[str, Any], list[str]] | None = None

    def __init__(self, session: Any) -> None:
        super().__init__(session)
        self.shown = 0
        #: Updates shown since the last full collection (see ``_collect_later``).
        self._updates_uncollected = 0

    # ---- composing ---------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield Banner(id="banner", markup=False)
        yield from self.compose_table()
        yield TableFooter(compact=self.app.size.width < COMPACT_FOOTER_BELOW)

    def compose_table(self) -> ComposeResult:
        """The game's own widgets (override)."""
        yield from ()

    def compose_log(self, *, id: str = "table-side") -> ComposeResult:
        """The table's log with the chat line under it, for the game to place."""
        with Vertical(id=id, classes="table-side"):
            log = TableLog(id="log", wrap=True, markup=False, max_lines=500, min_width=20)
            log.can_focus = False  # the wheel scrolls it; the keys stay the table's
            yield log
            yield ChatLine(words=CHAT_OPEN, id="table-chat", max_length=200)

    def mounted(self) -> None:
        """Replay what happened at this table so far, then show the latest state."""
        gc_tuning.table_opened()
        self.catch_up()
        super().mounted()
        self.call_after_refresh(self.app.first_screen_shown)

    def on_unmount(self) -> None:
        """Give the frozen objects back to the garbage collector once the table is gone."""
        gc_tuning.table_closed()

    @on(events.Resize)
    def keep_log_at_end(self) -> None:
        """A new size (or a new layout) must not leave the newest log lines out of sight;
        below 100 columns the footer packs its keys closer, so they fit."""
        self.call_after_refresh(self.query_one("#log", TableLog).scroll_end, animate=False)
        self.fit_footer()

    # ---- showing an update ---------------------------------------------------

    def watch_update(self, msg: dict[str, Any] | None) -> None:
        """Pass the new state down to the game, the log, chat and the summary."""
        if msg is None or not self.live or self.leaving:
            return
        if self.leave_at_end:
            self._left_at_end()
            return
        view, legal = msg.get("view"), msg.get("legal") or []
        if view is None:
            if self.table.get("phase") == "lobby":
                self.back_to_lobby()
            return
        names = self.names
        self.catch_up()
        self.rematch_seen()
        self.show(msg, view, legal, names)
        self._shown_moving = self.moving > 0
        self._chat_state()
        self._withdraw_finish_offer()
        self._summary(msg, names)
        self._turn_came(view)
        self._offer_finish()
        self._footer_keys_changed()
        self._collect_later()
        if self.review is not None or self.table.get("review"):
            self._table_review().table_changed(self.table)
        if self.summary_screen is not None:
            self.summary_changed()

    def _collect_later(self) -> None:
        """Count the update: every :data:`~tui.gc_tuning.TABLE_COLLECT_EVERY` updates, a
        full collection once the update is drawn (:data:`COLLECT_AFTER`), not inside the
        drawing of a later one."""
        self._updates_uncollected += 1
        if self._updates_uncollected >= gc_tuning.TABLE_COLLECT_EVERY:
            self._updates_uncollected = 0
            self.set_timer(COLLECT_AFTER, gc_tuning.table_collect)

    def _footer_keys_changed(self) -> None:
        """Refresh the footer only when the keys it shows (or their state) changed.

        Each ``refresh_bindings`` walks every key's ``check_action`` and restyles the
        footer's keys (a rebuild, if the set of keys changed); most updates change no key.
        """
        # (A key's words count too: Get It!'s look key says whom it looks at, "2-5",
        # and said "2-6" on after pile 6 was empty; GET OUT!'s d says Draw or Pass.)
        words = [getattr(self, name, None) for name in ("key_display", "key_description")]
        bindings = self.active_bindings
        keys = tuple(
            (key, active.binding.action, active.enabled, active.tooltip,
             *(said(active.binding) if callable(said) else None for said in words))
            for key, active in bindings.items() if active.binding.show
        )
        if keys != self._footer_keys:
            self._footer_keys = keys
            # Drawn now, the keys show in this update's frame (not one frame later).
            if not self.query_one(TableFooter).restyle_now(self, bindings):
                self.refresh_bindings()

    @property
    def names(self) -> list[str]:
        """Each seat's display name in the latest update (read once an update: every
        key's state asks for them, and the footer asks every key at each update)."""
        table = self.table
        if self._names_of is None or self._names_of[0] is not table:
            self._names_of = (table, seat_names(table))
        return self._names_of[1]

    @property
    def view(self) -> dict[str, Any]:
        """Our view in the latest update (``{}`` before the first)."""
        view = (self.update or {}).get("view")
        return view if isinstance(view, dict) else {}

    def show(self, msg: dict[str, Any], view: dict[str, Any], legal: list[dict[str, Any]],
             names: list[str]) -> None:
        """Show a new view (override)."""

    def back_to_lobby(self) -> None:
        """The table went back to its lobby: go there too (the bots at their pace again)."""
        if self.finishing:
            self.app.hosting.bots_full_speed(self.session, False)
        self.hand_over()

    # ---- the log ---------------------------------------------------------------

    def catch_up(self) -> None:
        """Write the lines of the session's history not shown here yet."""
        entries, self.shown = self.session.since(self.shown)
        log = self.query_one("#log", TableLog)
        # A player who scrolled back to read is not pulled to the end by a new line.
        follow = not log.reading
        for line in self.describe_entries(entries):
            log.write(line, scroll_end=follow)

    def describe_entries(self, entries: list[Entry]) -> list[str]:
        """The log's lines for entries that came together: a line for each one worth a
        line (a game may join two events into one line: override)."""
        return [line for entry in entries if (line := self.describe_entry(entry))]

    def describe_entry(self, entry: Entry) -> str | None:
        """One log line for one thing that happened (or ``None``: not worth a line)."""
        if entry.kind == "chat":
            return "💬 " + describe_chat(entry.data)
        if entry.kind == "notice":
            if entry.data.get("type") == "game_over":
                return None  # the game's own event says who won, in its words
            if entry.data.get("type") == "started":
                # A rule between games: a table's next game went on under the lines of
                # the last, its "Game over: you won" read as this one's.
                import engine

                spec = engine.GAMES.get(entry.game or self.GAME)
                return f"━━ the game starts{f': {spec.name}' if spec else '!'} ━━"
            text = describe_notice(entry.data, entry.names, self._me_then(entry))
            return f"· {text}" if text else None
        namer = Namer(entry.names, self._me_then(entry))
        event = entry.data
        if entry.mine is not None:  # what only we saw of it, from our own views
            event = {**event, "mine": entry.mine}
        try:
            if entry.game is not None and entry.game != self.GAME:
                # An earlier game at this table: in that game's words, not this one's.
                return describe_past_event(entry.game, event, namer)
            return self.describe_event(event, namer)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            # A host may send an event this app describes differently: never die on it.
            return None

    def _me_then(self, entry: Entry) -> int | None:
        latest = (self.session.latest or {}).get("table")
        now = self.names or seat_names(latest if isinstance(latest, dict) else {})
        kept_for = entry.data.get("name") if entry.data.get("type") == "stand_in" else None
        return our_seat_then(self.my_seat, entry.names, now, kept_for)

    def describe_event(self, event: dict[str, Any], namer: Namer) -> str | None:
        """One log line for one of the game's events (override)."""
        return None

    @on(ChatReceived)
    def chat_received(self) -> None:
        """A chat line arrived (the session already keeps it)."""
        self.catch_up()

    def action_next_round(self) -> None:
        """Deal the next round (Get It!'s, GET OUT!'s), when the game lets us."""
        if {"type": "next_round"} in self.legal:
            self.act({"type": "next_round"})

    # ---- chat ------------------------------------------------------------------

    def chat_open(self) -> bool:
        """Whether table chat is allowed now (override: Get It! is silent in a round)."""
        return True

    def _chat_state(self) -> None:
        chat = self.query_one("#table-chat", ChatLine)
        is_open = self.chat_open()
        if chat.disabled == is_open:
            chat.disabled = not is_open
            chat.words = CHAT_OPEN if is_open else CHAT_OFF

    def action_chat(self) -> None:
        """Put the cursor in the chat line."""
        if self.chat_open():
            self.set_focus(self.query_one("#table-chat", Input))  # now: keys may follow at once

    @on(Input.Submitted, "#table-chat")
    def say(self, event: Input.Submitted) -> None:
        """Send a chat line, then give the keys back to the table (in a moment: an Enter
        typed twice played the chosen card)."""
        if event.value != event.input.value:
            return  # (a second Enter queued behind the first: its line went, once)
        text = event.value.strip()
        if text and self.chat_open():
            self.send("chat", text)
        event.input.value = ""
        self.set_focus(None)
        self.hold_keys()

    def action_leave(self) -> None:
        """Esc in a text line cancels it, giving the keys back to the table; elsewhere
        it leaves."""
        if isinstance(self.focused, Input):
            self.focused.value = ""
            self.set_focus(None)
            return
        super().action_leave()

    # ---- acting --------------------------------------------------------------

    @property
    def legal(self) -> list[dict[str, Any]]:
        """Our legal actions in the latest update (none while our last move is on its way).

        A move is on its way until the host has answered it *and* this screen holds the
        view that answer came after: another player's change arriving meanwhile (a new
        version, but not ours) does not open the keys again on a view that is stale.
        """
        if self.moving:
            return []
        if self.answered_at is not None:
            if int(self.view.get("version") or 0) < self.answered_at:
                return []
            self.answered_at = None
        return list((self.update or {}).get("legal") or [])

    def can(self, kind: str) -> bool:
        """True if an action of type ``kind`` is open to us now."""
        return any(a.get("type") == kind for a in self.legal)

    def refused(self, method: str) -> None:
        """Our move was refused: the keys work again on the view we have."""
        if method == "act":
            self.answered_at = None
        elif method == "review" and self.review is not None and self.review.screen:
            self.review.screen.refused()

    def freshest_view(self) -> dict[str, Any]:
        """Our view as the connection last received it: the host pushes what a request
        changed before it answers, on the same line, so when an answer comes this holds
        what the host had (this screen may not have drawn it yet)."""
        latest = self.session.client.latest if self.session.client else None
        view = (latest or {}).get("view")
        return view if isinstance(view, dict) else self.view

    def refusal(self, action: dict[str, Any], message: str) -> str | None:
        """What to tell the player when the host refused ``action`` with ``message``:
        ``None`` when it is not worth a word (the table is already as they meant it, or
        the screen said it its own way). Override."""
        return message

    def act(self, action: dict[str, Any], *, wait: bool = True) -> None:
        """Send a move; unless ``wait`` is false, further keys wait for the host's answer.

        (A signal in a real-time game, a mark on a private board, need not block the next
        key: ``wait=False``.)
        """
        if wait:
            self.moving += 1
        reply: Awaitable[Any] | ConnectionLost
        try:
            # Written now, before this key's redraw: the host (and the other screens)
            # have the move that much sooner.
            reply = self.session.send("act", action=action)
        except ConnectionLost as exc:
            reply = exc  # (said where every refusal is said)
        self._move(action, wait, reply)

    @work(group="moves", exit_on_error=False)
    async def _move(self, action: dict[str, Any], wait: bool,
                    reply: Awaitable[Any] | ConnectionLost) -> None:
        try:
            if isinstance(reply, ConnectionLost):
                raise reply
            await reply
            if wait:
                # The host pushes the new view before it answers, on the same line: the
                # client already holds it, so the keys wait for this screen to show it.
                self.answered_at = int(self.freshest_view().get("version") or 0)
        except ServerError as exc:
            self.refused("act")
            if (words := self.refusal(action, exc.message)) is not None:
                self.notify(words, title="Not possible", severity="error", markup=False)
        except ConnectionLost as exc:
            self.refused("act")
            self.notify(f"Not connected: {exc}", severity="error", markup=False)
        finally:
            if wait:
                self.moving -= 1
                self.move_settled()

    def move_settled(self) -> None:
        """Our move is answered: its keys work again. The host pushes the view a move
        made before it answers, so that view may have been shown with no move open (a
        GET OUT! hand with no ✓ on the card to lay first): shown again now, its events
        left out (they were followed once)."""
        if self._shown_moving and not self.moving and self.update is not None \
                and self.live and not self.leaving:
            self._shown_moving = False
            msg = self.update
            view = msg.get("view")
            if isinstance(view, dict):
                self.show({**msg, "events": []}, view, msg.get("legal") or [], self.names)
                self._footer_keys_changed()
        self.refresh_bindings()

    @on(ConnectionDropped)
    @on(ConnectionRestored)
    def table_gone(self) -> None:
        """The host is out of reach, or gone for good: the turn line stops asking for a
        move (it asked for one while no key could make it); back, it asks again."""
        if callable(redraw := getattr(self, "redraw_status", None)):
            self.call_after_refresh(redraw)

    # ---- what every table can do -----------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        """A key just after a summary's answer dealt does nothing (see ``KEYS_HELD``);
        the others reach the game's own handling (:meth:`game_key`) first."""
        if not isinstance(self.focused, Input) and (
                time.monotonic() < self.keys_held_until or self.held_by_pause(event.key)):
            event.stop()
            event.prevent_default()
            return
        self.game_key(event)

    def game_key(self, event: events.Key) -> None:
        """A key reached the table, before its binding runs (override)."""

    def leave_question(self) -> str | None:
        """(A real-time round's bots played on under the question, unsaid.)"""
        question = super().leave_question()
        if question and self.RUNS_ON and self.view.get("phase") == "play" \
                and not self.table.get("paused"):
            question += " The round goes on while you answer."
        return question

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show exactly the keys that work now (and hide the others)."""
        if self.summary_screen is not None and action not in ("leave", "chat"):
            return False
        if self.cut_off and action not in ("leave", "rules", "summary_again"):
            return False  # (the game's keys were offered, and each said "Not connected")
        if action not in TABLE_ACTIONS | self.PAUSE_KEEPS and self.paused_for() is not None:
            return False  # (the host takes no move: see held_by_pause)
        if action == "chat":  # (in a text line "/" is typed: "a/b" arrived as "ab")
            return self.chat_open() and not isinstance(self.focused, Input)
        if action == "bot_for_away":
            return bool(self.away_seats())
        if action == "to_lobby":  # (not with the host gone: there is no table to take back)
            return (self.table.get("phase") in ("play", "over") and self.is_creator
                    and not self.cut_off)
        if action == "finish":
            return self.can_finish()
        if action in ("leave", "rules"):
            return True
        if action == "summary_again":
            return self._last_summary is not None
        return self.check_game_action(action, parameters)

    def check_game_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Which of the game's own keys work now (override)."""
        return True

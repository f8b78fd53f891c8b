"""The Get It! table: preparation, the silent round, the sand timer, the round summary.

You never see your own pile. Around the table sit the others, each with the big card
they show you and what they signal; under them, plainly, what everyone is doing to you
("3 of 4 look at you · all 3 smile at you"), and your own signals in one line.

Keys (each signal in at most two keystrokes; the footer shows only what works now):
a digit looks at that player (again: at nobody); ``s`` smiles at / ``x`` looks past the
player you look at (again: stop); ``0`` stops every signal; ``p`` peeks while you see a
mirror; ``t`` talks while you see the speech bubble; Space plays your top card (Enter
does not, so that the Enter of preparation cannot play a card); a click on a player
looks at them. Every signal at a player ends when that player plays (the host ends it):
it was about the card that is gone. Preparation: Tab picks a special card, ←/→ move it,
Enter confirms. Table chat (``/``) is off during a round: the game is silent.
"""

from __future__ import annotations

from typing import Any

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Static

from tui.games.getit import records
from tui.games.getit.keys import KeyContext, key_works, parse_action, why_not
from tui.games.getit.prep import Preparation, PrepPanel
from tui.games.getit.seats import SeatsRow
from tui.games.getit.signals import SignalState
from tui.games.getit.summary import round_summary
from tui.games.getit.talk import GUARDED, TALK_ENDED_NOTICE, TALK_GUARD, TalkLine
from tui.games.getit.text import (
    card_text,
    describe_event,
    number_ranges,
    status_line,
    to_you_text,
)
from tui.games.getit.widgets import PlayedRow, SandTimer, SeatCard
from tui.messages import ConnectionDropped
from tui.notices import Namer
from tui.screens.summary import SummaryScreen
from tui.screens.table import TableScreen
from tui.widgets.footer import FooterEntry
from tui.widgets.text import set_text

MAX_SEATS = 6
#: Below this width the top line says it in fewer words (beside the timer).
SHORT_STATUS = 90
#: The signal kinds a key toggles, with the words for a hint.
AIMED = {"smile": "smile at", "look_past": "look past"}
CARD_BACK = "╭──────╮\n│GET IT│\n│ back │\n╰──────╯"


class GetItScreen(TableScreen):
    """One seat's view of a Get It! table (or a spectator's)."""

    GAME = "getit"
    SUB_TITLE = "Get It!"
    BINDINGS = [
        Binding("space", "play", "Play"),
        Binding("enter", "done", "Done (pass the pile)"),
        Binding("tab", "next_special", "Next special"),
        Binding("left", "move(-1)", "Move", key_display="←/→"),
        Binding("right", "move(1)", "move ▶", show=False),
        # A long hand (Level X) scrolls: its two ends, as the help line says.
        Binding("home", "hand_end(1)", "Top of the hand", show=False),
        Binding("end", "hand_end(0)", "Bottom of the hand", show=False),
        Binding("1", "look(1)", "Look at", key_display="1-6",
                tooltip="Look at a player: their number (again: at nobody); a click "
                        "here looks at the next one"),
        *[Binding(str(i), f"look({i})", show=False) for i in range(2, MAX_SEATS + 1)],
        Binding("0", "stop_signals", "Stop all"),
        Binding("s", "aim('smile')", "Smile"),
        Binding("x", "aim('look_past')", "Look past"),
        Binding("p", "peek", "Peek"),
        Binding("t", "talk", "Talk", priority=True),  # (the words after it reach the line)
        Binding("n", "next_round", "Next round"),
    ]

    def __init__(self, session: Any) -> None:
        super().__init__(session)
        #: The round's signals as we show them (ours sent ahead of the host's answer).
        self.signals = SignalState()
        self._phase: str | None = None
        #: What each Static of the round shows now (see ``_set``).
        self._shown_content: dict[str, str] = {}

    # ---- composing ---------------------------------------------------------------

    def compose_table(self) -> ComposeResult:
        with Horizontal(id="getit-top"):
            yield Static("", id="getit-status", markup=False)
            yield SandTimer(id="timer")
        yield PrepPanel(id="getit-prep")
        with Vertical(id="getit-round"):
            yield SeatsRow(id="getit-seats")
            with Horizontal(id="getit-me"):
                yield Static(CARD_BACK, id="my-back", markup=False)
                with Vertical(id="getit-me-text"):
                    yield Static("", id="to-you")
                    yield Static("", id="my-line", markup=False)
                    yield PlayedRow(id="played")
            yield TalkLine(id="talk")
        yield from self.compose_log()

    # ---- showing a view ------------------------------------------------------------

    def show(self, msg: dict[str, Any], view: dict[str, Any], legal: list[dict[str, Any]],
             names: list[str]) -> None:
        """Show the new view: preparation, or the round, and the top line."""
        phase = view.get("phase")
        self._follow_events(msg.get("events") or [], phase)
        namer = Namer(names, self.my_seat)
        self._top_line(msg, view)
        preparing = phase == "prepare"
        self.query_one("#getit-prep").display = preparing
        self.query_one("#getit-round").display = not preparing
        if preparing:
            self.query_one(PrepPanel).show(view, self.my_seat, namer)
        else:
            self._show_round(view, namer)
        self._phase = phase

    def _follow_events(self, events: list[dict[str, Any]], phase: Any) -> None:
        played = self.signals.follow(events, phase, self.my_seat)
        for event in events:
            if event.get("type") == "game_over":
                self._keep_record(event)
        if phase == "play" and played:
            for stop in self.signals.stops_after(played, self.view, self.legal, self.my_seat):
                self.act(stop, wait=False)

    def _keep_record(self, result: dict[str, Any]) -> None:
        """A cleared Level X round that beats our record is saved on disk."""
        try:
            news = records.keep(result, self.table.get("options") or {})
        except OSError as exc:
            self.notify(f"Could not save the record: {exc}", severity="warning", markup=False)
            return
        if news:
            self.notify(news, timeout=6)

    @on(SeatsRow.Fitted)
    def seats_fitted(self, event: SeatsRow.Fitted) -> None:
        """TO YOU and the timer grow with the cards on a big terminal."""
        self.set_class(event.big, "-big")

    def on_resize(self) -> None:
        """The top line in fewer words on a narrow terminal, in full on a wide one."""
        if self.update is not None and self.view:
            self._top_line(self.update, self.view)

    def _top_line(self, msg: dict[str, Any], view: dict[str, Any]) -> None:
        best = (msg.get("table") or {}).get("options", {}).get("best")
        set_text(self.query_one("#getit-status", Static),
                 status_line(view, best, short=self.size.width < SHORT_STATUS))
        timer = self.query_one(SandTimer)
        remaining = view.get("remaining")
        timer.total = float(view.get("timer") or 60)
        timer.paused = bool((msg.get("table") or {}).get("paused"))
        timer.why_paused = "paused"
        timer.remaining = (float(remaining) if view.get("phase") == "play"
                           and isinstance(remaining, int | float) else None)

    # ---- preparation ------------------------------------------------------------

    @property
    def prep(self) -> Preparation:
        """Our pile as we arrange it, in preparation."""
        return self.query_one(PrepPanel).state

    def action_next_special(self) -> None:
        """Pick the next special card of the hand."""
        self.query_one(PrepPanel).next_special()

    def action_move(self, delta: int) -> None:
        """Move the chosen special card one place up (-1) or down (+1), never on top."""
        self.query_one(PrepPanel).move(delta)

    def action_hand_end(self, top: int) -> None:
        """Scroll a long hand to its top (1) or its bottom (0) in preparation."""
        self.query_one(PrepPanel).hand_end(bool(top))

    def action_done(self) -> None:
        """Confirm the pile's order (it passes to the left once everyone is done)."""
        if not self.can("arrange"):
            return
        self.act({"type": "arrange", "pile": self.prep.pile()})

    # ---- the round --------------------------------------------------------------

    def _set(self, selector: str, content: Any) -> None:
        """Update a Static only when what it shows changes (an update repaints it)."""
        key = repr(content)
        if self._shown_content.get(selector) != key:
            self._shown_content[selector] = key
            set_text(self.query_one(selector, Static), content)

    def _show_round(self, view: dict[str, Any], namer: Namer) -> None:
        me = self.my_seat
        self.query_one(SeatsRow).show(view, self.signals.signals(view, me),
                                      self.signals.said(view), me, namer)
        self.query_one("#getit-me").display = me is not None
        if self.query_one(TalkLine).follow(self.can("say")):
            self.notify(TALK_ENDED_NOTICE, severity="warning", timeout=4)
        self.query_one(PlayedRow).show(list(view.get("played") or []))
        if me is None:
            return
        self._set("#to-you", to_you_text(self.signals.to_you(view, me)))
        self._set("#my-line", self.signals.my_line(view, me, namer))
        piles = view.get("piles") or []
        pile = piles[me] if me < len(piles) and isinstance(piles[me], dict) else {}
        mine_count = int(pile.get("count", 0))
        seen = self.signals.seen_card(view) if mine_count else None
        if seen is not None:
            how, card = seen
            self._set("#my-back", f"╭──────╮\n│{how:^6}│\n│{card_text(card):^6}│\n╰──────╯")
        elif mine_count:
            self._set("#my-back", CARD_BACK)
        else:
            self._set("#my-back", "╭──────╮\n│ no   │\n│ cards│\n╰──────╯")

    # ---- keys ----------------------------------------------------------------------

    @on(ConnectionDropped)
    def hold_the_timer(self) -> None:
        """With the host out of reach, the round's time stands still on screen (a host
        that went down holds the round until its players are back); the next update
        from the host sets it right."""
        self.query_one(SandTimer).hold("paused: the host is out of reach")

    def intent_holds(self, action: dict[str, Any]) -> bool:
        """A stop that reached the host after the player it was aimed at played: the
        play ended that signal already (RULES.md), so the stop is refused, and there
        is nothing to say: the signal is off, as the player wanted."""
        kind = action.get("type")
        return (kind in ("look", "smile", "look_past") and action.get("target") is None
                and self._my_signal(str(kind)) is None)

    def _my_signal(self, kind: str) -> int | None:
        return self.signals.mine(self.view, self.my_seat, kind)

    def _signal(self, kind: str, target: int | None) -> None:
        action = {"type": kind, "target": target}
        if action not in self.legal:
            return
        self.signals.sent(kind, target)
        self.act(action, wait=False)
        self._redraw()

    def _redraw(self) -> None:
        if self.update is not None and self.view:
            self._show_round(self.view, Namer(self.names, self.my_seat))
            self.refresh_bindings()

    def action_stop_signals(self) -> None:
        """Look at nobody, and stop smiling and looking past."""
        for kind in ("look", "smile", "look_past"):
            if self._my_signal(kind) is not None:
                self._signal(kind, None)

    def key_display(self, binding: Binding) -> str | None:
        """The look keys show the numbers of the other players here ("2-4", "1 3-4")."""
        if binding.action != "look(1)":
            return None
        seats = len(self.view.get("piles") or [])
        others = [n for n in range(1, seats + 1) if n - 1 != self.my_seat]
        return number_ranges(others) or None

    def footer_clicked(self, entry: FooterEntry) -> bool:
        """A click on the footer's "look at" (it stands for every player's number): look
        at the next player after the one we look at now (after the last: at nobody)."""
        if entry.name != "look":
            return False
        seats = len(self.view.get("piles") or [])
        others = [seat for seat in range(seats) if seat != self.my_seat]
        looked = self._my_signal("look")
        later = [seat for seat in others if looked is None or seat > looked]
        if later:
            self.action_look(later[0] + 1)
        elif looked is not None:
            self.action_look(looked + 1)  # again: at nobody
        return True

    def action_look(self, number: int) -> None:
        """Look at player ``number`` (as players count); again looks at nobody."""
        seats = len(self.view.get("piles") or [])
        target = None if number == 0 else number - 1
        if target is not None and (target >= seats or target == self.my_seat):
            # ("1" is the key every look shows as: it runs for our own number too.)
            self.notify(why_not("look", (number,), self._keys()) or "", timeout=2, markup=False)
            return
        if target is not None and self._my_signal("look") == target:
            target = None
        self._signal("look", target)

    @on(SeatCard.Chosen)
    def seat_clicked(self, event: SeatCard.Chosen) -> None:
        """A click on a player looks at them (again: at nobody)."""
        if self.check_game_action("look", ()) is True:
            self.action_look(event.seat + 1)

    def action_aim(self, kind: str) -> None:
        """Smile at / look past the player we look at (again: stop)."""
        looked = self._my_signal("look")
        if looked is None:
            self.notify(f"Look at someone first (their number), then {AIMED[kind]} them.",
                        severity="warning", timeout=2)
            return
        self._signal(kind, None if self._my_signal(kind) == looked else looked)

    def action_peek(self) -> None:
        """Peek at your own card while a mirror shows (again: stop)."""
        for action in self.legal:
            if action.get("type") == "peek":
                self.act(action, wait=False)
                return

    def action_talk(self) -> None:
        """Open the talk line (only while you see the speech bubble)."""
        if self.can("say"):
            self.query_one(TalkLine).open()

    def on_key(self, event: events.Key) -> None:
        """A key of the round that does nothing now says why in one line. ``t`` a moment
        after talk ended (the bubble was just played) still opens the line, saying talk
        is over: what the player goes on typing stays there (a space would play their
        card) until Enter or Esc closes it, unsent."""
        talk = self.query_one(TalkLine)
        if isinstance(self.focused, Input) or event.key not in KEY_ACTIONS:
            return
        if event.key == "t" and not self.can("say") and talk.late():
            event.stop()
            talk.open()
            self.notify(TALK_ENDED_NOTICE, severity="warning", timeout=4)
            return
        action, parameters = KEY_ACTIONS[event.key]
        if talk.keys_wait() or self.check_action(action, parameters) is True:
            return
        reason = why_not(action, parameters, self._keys())
        if reason is not None:
            event.stop()
            self.notify(reason, timeout=2, markup=False)

    @on(Input.Submitted, "#talk")
    def talk(self, event: Input.Submitted) -> None:
        """Say the line to everyone, then give the keys back to the table."""
        text = event.value.strip()
        if text and self.can("say"):
            self.act({"type": "say", "text": text}, wait=False)
        elif text:
            self.notify("Talk has ended: your line was not sent.", timeout=3)
        event.input.value = ""
        self.query_one(TalkLine).closing = True
        self.set_focus(None)

    def action_leave(self) -> None:
        """Esc in the talk line closes it (as in any text line)."""
        talk = self.query_one(TalkLine)
        if self.focused is talk:
            talk.closing = True
        super().action_leave()

    @on(TalkLine.LostKeys)
    def talk_lost_keys(self) -> None:
        """The talk line lost the keys without Enter or Esc (the terminal lost the focus,
        or anything else took it): the rest of what was being typed must not reach the
        round's keys (a space plays the card), so they wait a moment."""
        self.set_timer(TALK_GUARD, self.refresh_bindings)
        self.refresh_bindings()
        self.notify("Your talk line lost the keys: the table's keys wait a moment.",
                    severity="warning", timeout=3)

    def action_play(self) -> None:
        """Play your top card (keys wait for the host's answer: no double play)."""
        if self.can("play"):
            self.act({"type": "play"})

    def action_next_round(self) -> None:
        """Deal the next round."""
        if {"type": "next_round"} in self.legal:
            self.act({"type": "next_round"})

    def refused(self, method: str) -> None:
        """A refused move: the keys work again, and our unconfirmed signals are dropped."""
        super().refused(method)
        if method == "act":
            self.signals.refused()

    def _keys(self) -> KeyContext:
        me = self.my_seat
        return KeyContext(self.view, self.legal, me, signalling=self.signals.signalling(
            self.view, me), specials=bool(self.prep.specials()))

    def check_game_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Exactly the keys that work now."""
        if self.my_seat is None:
            return False
        if action in GUARDED and self.query_one(TalkLine).keys_wait():
            return False  # the talk line just lost the keys (``talk_lost_keys``)
        return key_works(action, parameters, self._keys())

    def action_rules(self) -> None:
        """In a round: its keys and signals beside the table, the timer in sight (it
        runs on); otherwise, or asked for from there, the whole rules."""
        if self.view.get("phase") != "play":
            super().action_rules()
            return
        # Loaded when first asked for, not before the table's first frame (it reads the
        # rules text with Rich's Markdown).
        from tui.games.getit.round_help import RoundHelp

        timer = self.query_one(SandTimer)

        def answered(everything: bool | None) -> None:
            if everything:
                TableScreen.action_rules(self)

        self.app.push_screen(RoundHelp(lambda: None if timer.remaining is None
                                       else timer.left()), answered)

    # ---- what every table asks of a game ------------------------------------------

    def chat_open(self) -> bool:
        """The game is silent: table chat is off while a round is played."""
        return self.view.get("phase") != "play"

    def describe_event(self, event: dict[str, Any], namer: Namer) -> str | None:
        """One line of the log for one of this game's events."""
        return describe_event(event, namer)

    def summary(self, msg: dict[str, Any], names: list[str]) -> SummaryScreen | None:
        """The summary, when this update ended a round."""
        if not any(e.get("type") == "round_over" for e in msg.get("events") or []):
            return None
        return round_summary(msg["view"], names, self.my_seat,
                             can_deal={"type": "next_round"} in (msg.get("legal") or []),
                             can_lobby=self.is_creator)

    def summary_over(self, msg: dict[str, Any]) -> bool:
        """A new round was dealt."""
        return bool(msg["view"].get("phase") in ("prepare", "play"))

    def summary_answered(self, answer: str | None) -> None:
        """Deal the next round, or go back to the lobby."""
        if answer == "next":
            self.action_next_round()
        else:
            super().summary_answered(answer)


#: Each key of the table and the action it stands for (as its binding says).
KEY_ACTIONS = {b.key: parse_action(b.action) for b in GetItScreen.BINDINGS
               if isinstance(b, Binding)}

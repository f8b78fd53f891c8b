"""The Get It! table: preparation, the silent round, the sand timer, the round summary.
You never see your own pile. Around the table sit the others, each with the big card
they show you and what they signal; under them, plainly, what everyone is doing to you
("3 of 4 look at you · all 3 smile at you"), and your own signals in one line. The screen
assembles the parts: the top line (``top``), preparation (``prep``), the others' seats
(``seats``), our place (``mine``), the talk line (``talk``), the signal state
(``signals``) and the keys (``keys``: which work now, and why one does nothing).
"""

from __future__ import annotations

import time
from typing import Any

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input

from engine.getit import SIGNAL_NOUNS, about_card
from tui.games.getit import records
from tui.games.getit.keys import (
    AIMED,
    BINDINGS,
    KEY_ACTIONS,
    KeyContext,
    KeyMemo,
    key_works,
    look_keys,
    look_target,
    next_look,
    why_not,
)
from tui.games.getit.mine import MyPlace, touch_words
from tui.games.getit.prep import Preparation, PrepPanel
from tui.games.getit.seatcard import SeatCard
from tui.games.getit.seats import SeatsRow
from tui.games.getit.signals import AIMED_KINDS, SignalState
from tui.games.getit.summary import round_summary
from tui.games.getit.talk import (
    GUARDED,
    OPEN_NOTES,
    TALK_ENDED_NOTICE,
    TalkLine,
    kept_note,
)
from tui.games.getit.text import SPECIALS, card_short, describe_event, signalled_at, top_card
from tui.games.getit.timer import SandTimer
from tui.games.getit.top import TopLine
from tui.games.getit.widgets import WhyLine
from tui.messages import ConnectionDropped
from tui.notices import Namer
from tui.screens.summary import SummaryScreen
from tui.screens.table import TableScreen
from tui.session import Entry
from tui.widgets.footer import FooterEntry

#: The card each aimed signal is the rulebook's custom for (RULES.md's conventions).
CUSTOM_CARDS = {"smile": "smile", "look_past": "eyes"}
#: What ``/`` says while a round runs.
CHAT_CLOSED = "No chat while a round runs: the game is silent. It opens when the round ends."


#: The signals a special card asks for (RULES.md): given at one just shown, they were
#: meant for it, not for the card it replaced.
ASKED_BY: dict[str, tuple[str, ...]] = {"smile": ("look", "smile"), "eyes": ("look", "look_past")}


class GetItScreen(TableScreen):
    """One seat's view of a Get It! table (or a spectator's)."""

    GAME = "getit"
    SUB_TITLE = "Get It!"
    BINDINGS = BINDINGS
    PAUSE_KEEPS = frozenset({"move", "hand_end", "next_special"})
    RUNS_ON = True

    def __init__(self, session: Any) -> None:
        super().__init__(session)
        #: The round's signals as we show them (ours sent ahead of the host's answer).
        self.signals, self.key_memo = SignalState(), KeyMemo()

    # ---- composing ---------------------------------------------------------------

    def compose_table(self) -> ComposeResult:
        # Kept at hand: the footer asks every key (the talk line's too) at each change.
        self.top, self.prep_panel = TopLine(id="getit-top"), PrepPanel(id="getit-prep")
        self.seats_row, self.my_place = SeatsRow(id="getit-seats"), MyPlace(id="getit-me")
        self.talk_line = TalkLine(id="talk")
        yield from (self.top, self.prep_panel)
        with Vertical(id="getit-round"):
            yield from (self.seats_row, self.my_place, self.talk_line)
        yield from self.compose_log()

    # ---- showing a view ------------------------------------------------------------

    def show(self, msg: dict[str, Any], view: dict[str, Any], legal: list[dict[str, Any]],
             names: list[str]) -> None:
        """Show the new view: preparation, or the round, and the top line."""
        phase = view.get("phase")
        self._follow_events(msg.get("events") or [], phase)
        self.signals.saw(view, time.monotonic())
        namer = Namer(names, self.my_seat)
        self.top.show(msg, view)
        self.redraw_status()
        preparing = phase == "prepare"
        self.prep_panel.display, self.query_one("#getit-round").display = preparing, not preparing
        if preparing:
            self.prep_panel.show(view, self.my_seat, namer, self.bots_coming())
        else:
            self._show_round(view, namer)

    def redraw_status(self) -> None:
        """A round paused (or arranging) for a person away counts down to their bot."""
        if self.view.get("phase") == "prepare":
            self.prep_panel.show_waiting(self.bots_coming())
        timer = self.query_one(SandTimer)
        if timer.why_paused.partition(" · ")[0] == "paused":  # (not the host out of reach)
            coming = self.bot_coming() if timer.paused else None
            timer.why_paused = f"paused · {coming}" if coming else "paused"

    #: What our line last said of a signal of ours that a play ended (the next play
    #: takes it back: it stayed over later plays, ours too, and read as about them).
    _ended_said = ""

    def _follow_events(self, events: list[dict[str, Any]], phase: Any) -> None:
        self.signals.follow(events, phase)
        for event in events:
            if event.get("type") == "played" and self._ended_said and self.my_seat is not None:
                self.my_place.query_one(WhyLine).withdraw(self._ended_said)
                self._ended_said = ""
            if event.get("type") == "game_over":
                self._keep_record(event)
            elif event.get("type") == "signals_ended" and self.my_seat is not None:
                self._say_ended(event)

    def _say_ended(self, event: dict[str, Any]) -> None:
        """Our signals at a player who played ended with their card (RULES.md): say so
        under our line, or the look seems to vanish by itself."""
        ended = [SIGNAL_NOUNS[e["signal"]] for e in event.get("signals") or []
                 if isinstance(e, dict) and e.get("seat") == self.my_seat
                 and e.get("signal") in SIGNAL_NOUNS]
        if ended:
            name = Namer(self.names, self.my_seat).name(event.get("target"))
            what = " and ".join(ended)
            self._ended_said = f"{name} played: your {what} ended with that card."
            self.why(self._ended_said)

    def _keep_record(self, result: dict[str, Any]) -> None:
        """A cleared Level X round that beats our record is saved on disk; said unless the
        game's summary says it (a toast as it opens showed on it and on the table under it)."""
        try:
            if (news := records.keep(result, self.table.get("options") or {})) \
                    and not result.get("new_best"):
                self.notify(news, timeout=6)
        except OSError as exc:
            self.notify(f"Could not save the record: {exc}", severity="warning", markup=False)

    @on(SeatsRow.Fitted)
    def seats_fitted(self, event: SeatsRow.Fitted) -> None:
        """TO YOU and the timer grow with the cards on a big terminal."""
        self.set_class(event.big, "-big")

    # ---- preparation ------------------------------------------------------------

    @property
    def prep(self) -> Preparation:
        """Our pile as we arrange it, in preparation."""
        return self.prep_panel.state

    def action_next_special(self) -> None:
        """Pick the next special card of the hand."""
        self.prep_panel.next_special()

    def action_move(self, delta: int) -> None:
        """Move the chosen special card one place up (-1) or down (+1), never on top."""
        self.prep_panel.move(delta)

    def action_hand_end(self, top: int) -> None:
        """Scroll a long hand to its top (1) or its bottom (0) in preparation."""
        self.prep_panel.hand_end(bool(top))

    def action_done(self) -> None:
        """Confirm the pile's order (it passes to the left once everyone is done)."""
        if self.can("arrange"):
            self.act({"type": "arrange", "pile": self.prep.pile()})

    # ---- the round --------------------------------------------------------------

    def _show_round(self, view: dict[str, Any], namer: Namer) -> None:
        me = self.my_seat
        self.seats_row.show(view, self.signals.signals(view, me), self.signals.said(view),
                            me, namer, self.people_away(), self.stand_ins())
        self.query_one("#getit-me").display = me is not None
        talk = self.talk_line
        talk.follow_view(view, self.can("say"), self.query_one(SandTimer).time_left(),
                         self.table)
        if talk.kept_unsaid and (self.finishing or view.get("phase") not in ("round_over",
                                                                             "over")):
            talk.kept_unsaid = False  # (no summary opens to say it)
            self.notify(kept_note(view), severity="warning", timeout=6)
        paused = {**view, "paused_for": whom} if (whom := self.paused_for()) else view
        self.my_place.show(paused, self.signals, me, namer)  # ("look (2-3)…" while paused)

    # ---- keys ----------------------------------------------------------------------

    @on(ConnectionDropped)
    def hold_the_timer(self) -> None:
        """With the host out of reach the round's time stands still on screen (a host
        that went down holds the round); its next update sets it right."""
        self.query_one(SandTimer).hold("paused: the host is out of reach")

    def refusal(self, action: dict[str, Any], message: str) -> str | None:
        """A stop that reached the host after its target played is refused (the play
        ended the signal, RULES.md): nothing to say, the signal is off as wanted. A
        signal about a card its target played before it arrived is refused too: said
        under our line, with the player's name."""
        kind = action.get("type")
        if kind not in AIMED_KINDS:
            return message
        target = action.get("target")
        if target is None:
            return None if self._my_signal(str(kind)) is None else message
        shown = about_card(action, self.freshest_view())
        if "card" in action and shown.get("card") != action["card"]:
            name = Namer(self.names, self.my_seat).name(target)
            self.why(f"{name} played before your {SIGNAL_NOUNS[kind]} arrived: it did not "
                     "land.")
            return None
        return message

    def _my_signal(self, kind: str) -> int | None:
        return self.signals.mine(self.view, self.my_seat, kind)

    def _signal(self, kind: str, target: int | None) -> None:
        action = {"type": kind, "target": target}
        if action not in self.legal:
            return
        self.signals.sent(kind, target)
        now = time.monotonic()
        meant = self.signals.meant(action, self.view, now)
        self.act(meant, wait=False)
        # What our line said a key lacked ("Look at someone first …") holds no more.
        self.my_place.query_one(WhyLine).clear()
        top = top_card(self.view, target) if target is not None else None
        if top is not None and target is not None and self.signals.newly_changed(target, now) \
                and kind not in ASKED_BY.get(str(top.get("kind")), ()):
            # (Pressed for the card just played, it landed on the next without a word.
            # Not for the signal a special card just shown asks for: that one was meant.)
            name = Namer(self.names, self.my_seat).name(target)
            self.why(f"{name}'s top card changed a moment ago: your {SIGNAL_NOUNS[kind]} "
                     f"is on their {card_short(top)} now (0 stops it).")
        self._redraw()

    def _redraw(self) -> None:  # (our own signal, shown before the host's answer)
        if self.update is not None and self.view:
            self._show_round(self.view, Namer(self.names, self.my_seat))
            self._footer_keys_changed()  # (the footer asks the keys only if they changed)

    def action_stop_signals(self) -> None:
        """Look at nobody, and stop smiling and looking past."""
        for kind in (k for k in ("look", "smile", "look_past") if self._my_signal(k) is not None):
            self._signal(kind, None)

    def key_display(self, binding: Binding) -> str | None:
        """The look keys show the numbers of the other players here ("2-4", "1 3-4")."""
        return look_keys(self._keys()) if binding.action == "look(1)" else None

    def footer_clicked(self, entry: FooterEntry) -> bool:
        """A click on the footer's "look at": look at the next player (after the last:
        at nobody)."""
        if entry.name != "look":
            return False
        number = next_look(self._keys(), self._my_signal("look"))
        if number is not None:
            self.action_look(number)
        return True

    def action_look(self, number: int) -> None:
        """Look at player ``number`` (as players count); again looks at nobody."""
        target = look_target(number, self._keys(), self._my_signal("look"))
        if target is False:
            # ("1" is the key every look shows as: it runs for our own number too.)
            self.why(why_not("look", (number,), self._keys()) or "")
            return
        stops = target is None and number != 0 and self._my_signal("look") is not None
        self._signal("look", target)
        if stops:  # (a number pressed twice stopped the look, and nothing said so)
            self.why(f"You look at nobody now ({number} again stops a look).")

    @on(events.Click, "#my-back")
    def pile_clicked(self) -> None:
        """A click (a tap) on our own pile plays its top card, as Space does: on a phone
        the pile is the thing to tap, and the footer's Space key a small one."""
        if self.check_game_action("play", ()) is True:
            self.action_play()

    @on(SeatCard.Chosen)
    def seat_clicked(self, event: SeatCard.Chosen) -> None:
        """A click on a player looks at them (again: at nobody)."""
        if self.check_game_action("look", ()) is True:
            self.action_look(event.seat + 1)

    def action_aim(self, kind: str) -> None:
        """Smile at / look past the player we look at (again: stop)."""
        looked = self._my_signal("look")
        if looked is None:
            said = f"Look at someone first (their number), then {AIMED[kind]} them."
            self.why(touch_words(said) if self.app.touch else said)
            return
        target = None if self._my_signal(kind) == looked else looked
        self._signal(kind, target)
        if target is not None:
            self._tell_custom(kind, target)

    #: The signals whose custom our line has told at this table (once: a team may agree
    #: on another meaning, and what a signal means is the players' business).
    _customs_told: frozenset[str] = frozenset()

    def _tell_custom(self, kind: str, target: int) -> None:
        """A smile at a card that is no ☺ (a look past at one that is no ◉) is sent as
        pressed; our line says, once a table, what the rules' custom keeps it for (a
        newcomer's smile at a number was taken without a word)."""
        top = top_card(self.view, target)
        card = CUSTOM_CARDS[kind]
        if (top is None or top.get("kind") == card or kind in self._customs_told
                or self.signals.newly_changed(target, time.monotonic())):
            return
        self._customs_told |= {kind}
        name = Namer(self.names, self.my_seat).name(target)
        self.why(f"{name} shows {card_short(top)}: the rules' custom keeps a "
                 f"{SIGNAL_NOUNS[kind]} for a {SPECIALS[card][0]} card.")

    def action_peek(self) -> None:
        """Peek at your own card while a mirror shows (again: stop)."""
        if peek := next((a for a in self.legal if a.get("type") == "peek"), None):
            self.act(peek, wait=False)

    def action_talk(self) -> None:
        """Open the talk line (all round: it is sent while you see the speech bubble)."""
        self.talk_line.open()

    def game_key(self, event: events.Key) -> None:
        """A key that does nothing now says why. ``t`` just after talk ended still opens
        the line, saying so: what is typed stays there (a space would play), unsent."""
        talk = self.talk_line
        if isinstance(self.focused, Input):
            return
        if event.key == "slash" and not self.chat_open():
            event.stop()  # (the one key of the table's own that did nothing, silently)
            self.why(CHAT_CLOSED)
            return
        if event.key not in KEY_ACTIONS:
            return
        if event.key == "t" and talk.phase not in ("open", "ahead") and talk.late():
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
            self.why(reason)

    def why(self, reason: str) -> None:
        """Say why a key did nothing under our line (or the pile's); a spectator's: a toast."""
        if self.my_seat is None:
            self.notify(reason, timeout=2, markup=False)
        else:
            place = self.prep_panel if self.view.get("phase") == "prepare" else self.my_place
            place.query_one(WhyLine).say(reason)

    @on(TalkLine.Said)
    def talk(self, event: TalkLine.Said) -> None:
        """Say the line to everyone."""
        self.act({"type": "say", "text": event.text}, wait=False)

    @on(TalkLine.Note)
    def talk_note(self, event: TalkLine.Note) -> None:
        self.why(event.text)

    @on(TalkLine.Closed)
    def talk_closed(self) -> None:
        self.my_place.query_one(WhyLine).withdraw(*OPEN_NOTES)

    def action_leave(self) -> None:
        """Esc in the talk line closes it, keeping what was typed while talk may open."""
        if self.focused is self.talk_line:
            self.talk_line.close()
            return
        super().action_leave()

    def action_play(self) -> None:
        """Play your top card (keys wait for the host's answer: no double play)."""
        if self.can("play"):
            self.act({"type": "play"})

    def refused(self, method: str) -> None:
        """A refused move: the keys work again, and our unconfirmed signals are dropped,
        from the screen too (a refused look stayed on our line and on its card, beside
        "it did not land", until some other change)."""
        super().refused(method)
        if method == "act":
            self.signals.refused()
            self._redraw()

    def _keys(self) -> KeyContext:
        me, names = self.my_seat, self.names
        return self.key_memo.context(
            (self.update, self.moving, self.answered_at, me, names), lambda: KeyContext(
                self.view, self.legal, me, names=names, specials=lambda: bool(self.prep.specials()),
                signalling=lambda: self.signals.signalling(self.view, me)))

    def check_game_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Exactly the keys that work now."""
        if self.my_seat is None:
            return False
        if action in GUARDED and self.talk_line.keys_wait():
            return False  # the talk line just lost the keys (``talk_lost_keys``)
        return key_works(action, parameters, self._keys())

    def action_rules(self) -> None:
        """In a round: its keys and signals over the log, the timer in sight (it
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

        self.app.push_screen(RoundHelp(timer.time_left, self.query_one("#log").region),
                             answered)

    # ---- what every table asks of a game ------------------------------------------

    def chat_open(self) -> bool:
        """The game is silent: no table chat from the deal to the round's end (in prep a
        line could tell the next seat what its pile holds; the rulebook: "don't show")."""
        return self.view.get("phase") not in ("prepare", "play")

    def describe_event(self, event: dict[str, Any], namer: Namer) -> str | None:
        """One line of the log for one of this game's events."""
        return describe_event(event, namer)

    def describe_entries(self, entries: list[Entry]) -> list[str]:
        """The log's lines, a play joined by who signalled at its card: "Bot 2 played
        ☺ SMILE ✓ · Bot 3 smiled at it" (the signals its play ended come right after)."""
        lines: list[str] = []
        for before, entry in zip([None, *entries], entries, strict=False):
            line = self.describe_entry(entry)
            ended = _event(entry, "signals_ended")
            played = _event(before, "played")
            if ended is not None and played is not None \
                    and played.get("seat") == ended.get("target") and lines \
                    and (said := signalled_at(ended, Namer(entry.names,
                                                           self._me_then(entry)))):
                lines[-1] += f" · {said}"
            elif line:
                lines.append(line)
        return lines

    def summary(self, msg: dict[str, Any], names: list[str]) -> SummaryScreen | None:
        """The summary, when this update ended a round."""
        if not any(e.get("type") == "round_over" for e in msg.get("events") or []):
            return None
        kept, self.talk_line.kept_unsaid = self.talk_line.kept_unsaid, False
        return round_summary(msg["view"], names, self.my_seat,
                             can_deal={"type": "next_round"} in (msg.get("legal") or []),
                             can_lobby=self.is_creator,
                             note=kept_note(msg["view"]) if kept else None,
                             dealer=self.waiting_to_deal())

    def game_restarted(self) -> None:
        """A rematch: its deal is round 1 again, as the last game's last may have been (a
        Level X game is one round), so what we arranged of that one goes."""
        self.prep_panel.state = Preparation()

    def summary_over(self, msg: dict[str, Any]) -> bool:
        """A new round was dealt."""
        return bool(msg["view"].get("phase") in ("prepare", "play"))



def _event(entry: Entry | None, kind: str) -> dict[str, Any] | None:
    """``entry``'s event if it is a Get It! event of ``kind``."""
    if entry is None or entry.kind != "event" or entry.game not in (None, GetItScreen.GAME) \
            or entry.data.get("type") != kind:
        return None
    return entry.data

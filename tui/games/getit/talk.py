"""Get It!'s talk line: open all round, sent only while we see the speech bubble, and
safe to type in.

A person cannot notice the bubble, press ``t`` and type a line as quickly as the bots
talk, so the line opens ahead with ``t`` at any moment of a round the bubble may still
show in: what is typed is kept (Esc closes the line and keeps it too), and Enter sends
it once we see the bubble; pressed before, Enter says so and keeps the line. When the
bubble shows with a line waiting, the line says so. At a table whose bots hold the
bubble for a person's line, the line says for how long (``engine.bots.getit_bot``'s
:func:`~engine.bots.getit_bot.talk_hold`, the bots' own rule).

The round's keys are single letters and Space plays a card, so what is typed for the
table must never reach them: the line keeps the keys after talk ends (Enter or Esc closes
it, nothing more is sent), a ``t`` pressed a moment too late still opens it, and a line
that loses the keys without Enter or Esc holds the round's keys back a moment.
"""

from __future__ import annotations

import time
from typing import Any

from textual.message import Message
from textual.widgets import Input

from engine.bots.getit_bot import PACES, QUIET_AFTER, talk_hold
from tui.widgets.text_line import TextLine

TALK_OPEN = "say a line to everyone (Enter sends, Esc closes)"
TALK_AHEAD = "talk opens when you see the speech bubble (✎): your line is kept"
TALK_ENDED = "talk has ended: Enter or Esc closes this line (nothing more is sent)"
TALK_ENDED_NOTICE = ("Talk has ended (the speech bubble was played): Enter or Esc closes "
                     "your line; it is not sent.")
NOT_YET = ("Not sent yet, kept: talk opens when you see ✎ (then t, Enter says it). "
           "Your keys are the table's again.")
UNSENT = "Talk has ended: your line was not sent."
#: What is said as talk opens with a line waiting (with the keys in the line, or not).
OPEN_NOTES = ("✎ Talk is open: Enter sends your line.",
              "✎ Talk is open: t, then Enter, sends your line.")
KEPT = ("The round is over and the speech bubble never showed: your line was not said. "
        "It is kept for the next round (t shows it).")
#: The same when the game is over: there is no next round to keep it for.
UNSAID_AT_END = "The game is over and the speech bubble never showed: your line was not said."


def kept_note(view: dict[str, Any]) -> str:
    """What a line kept unsaid at a round's end tells (:data:`KEPT`, at the game's end
    :data:`UNSAID_AT_END`)."""
    return UNSAID_AT_END if view.get("phase") == "over" else KEPT
#: Seconds the round's keys wait after the talk line loses the keys without Enter or
#: Esc (the rest of a sentence must not play a card: a space is "play").
TALK_GUARD = 1.5
#: The round's keys that wait then (see ``TalkLine.keys_wait``).
GUARDED = frozenset({"play", "look", "aim", "stop_signals", "peek", "next_round"})
#: Seconds after talk was last possible that ``t`` still opens the line (one that says
#: talk is over): a player who pressed it a moment too late goes on typing, and the
#: rest of the sentence must not reach the round's keys.
LATE_TALK = 3.0
#: Shorter waits than this are not worth a promise (``bots_wait``).
LEAST_WAIT = 2.0


def bubble_in_deck(level: Any) -> bool:
    """Whether the speech bubble is in the deck at ``level`` (from Level 5, and X)."""
    return level == "X" or (isinstance(level, int) and level >= 5)


def talk_phase(view: dict[str, Any], can_say: bool) -> str:
    """Where talk stands for us: ``open`` (we see the bubble), ``ahead`` (a round the
    bubble may still show in: the line opens, and waits), ``ended`` (the bubble was
    played this round) or ``off`` (no round, or no bubble in this level's deck)."""
    if view.get("phase") != "play":
        return "off"
    if can_say:
        return "open"
    if not bubble_in_deck(view.get("level")):
        return "off"
    played = view.get("played") or []
    if any(isinstance(c, dict) and c.get("kind") == "speech" for c in played):
        return "ended"
    return "ahead"


def bots_wait(view: dict[str, Any], time_left: float | None, holder_is_bot: bool) -> float:
    """How long (seconds) the bot holding the bubble that just showed keeps it for our
    line: its own rule (``talk_hold``) with the time left on the timer and the cards
    left; 0 when the holder is no bot or the wait is too short to promise."""
    if not holder_is_bot:
        return 0.0
    reaction, jitter = PACES.get(str(view.get("bots", "quick")), PACES["quick"])
    left = sum(int(p.get("count") or 0) for p in view.get("piles") or []
               if isinstance(p, dict))
    wait = talk_hold(time_left, left, reaction + jitter)
    return wait if wait >= LEAST_WAIT else 0.0


class TalkLine(TextLine):
    """One line to say to everyone, open all round and sent while the bubble shows."""

    class Said(Message):
        """The player says ``text`` to everyone (talk is possible)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Note(Message):
        """Something to tell the player in one line (where keys say why)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Closed(Message):
        """Talk is no longer open (what :data:`OPEN_NOTES` said no longer holds)."""

    DEFAULT_CSS = """
    TalkLine.-ready { text-style: bold reverse; }
    """

    def __init__(self, **kwargs: Any) -> None:
        # (Not selected on focus: a kept line goes on where it was left, not replaced.)
        super().__init__(placeholder=TALK_OPEN, max_length=200, compact=True,
                         select_on_focus=False, **kwargs)
        #: The player closes the line now (Enter or Esc).
        self.closing = False
        #: Until then (``time.monotonic``) the round's keys wait (``TALK_GUARD``).
        self.keys_wait_until = 0.0
        #: Until then (``time.monotonic``) a late ``t`` opens an ended line (``LATE_TALK``).
        self.seen_until = 0.0
        #: Where talk stands (see ``talk_phase``).
        self.phase = "off"
        #: What the line says while talk is open and it waits for ``t`` (``open_hint``).
        self.hint = TALK_OPEN
        #: Since when (``time.monotonic``) we see the bubble; whether we talked since.
        self._open_at: float | None = None
        self._talked = False
        #: We let a bubble go by without a word: the bots no longer wait for us.
        self.quiet = False
        #: The round ended with our line unsaid (kept for the next): the summary says so.
        self.kept_unsaid = False

    @property
    def footer_send(self) -> tuple[str, bool]:
        """What Enter does in the footer, and whether it is lit (it does something)."""
        if self.phase == "ahead":
            return "Keep for ✎", True
        return ("Send", True) if self.possible else ("Close (not sent)", True)

    @property
    def possible(self) -> bool:
        """Talk is possible now (we see the speech bubble)."""
        return self.phase == "open"

    def follow(self, phase: str, wait: float = 0.0) -> str | None:
        """Talk stands at ``phase`` now (see ``talk_phase``); ``wait``: how long the bots
        keep a bubble that just showed for our line. What to tell the player, if
        anything: talk ended while the line was being typed (it stays where the keys go
        until Enter or Esc), a waiting line was not sent, or the bubble shows with a
        line waiting."""
        was, self.phase = self.phase, phase
        if was != phase and self.has_focus:
            self.screen.refresh_bindings()  # (Enter's words: ``footer_send``)
        if phase == "open":
            self.seen_until = time.monotonic() + LATE_TALK
            note = None
            if was != "open":
                self._open_at, self._talked = time.monotonic(), False
                self.hint = open_hint(wait, self.quiet)
                if self.value:
                    self.add_class("-ready")
                    note = OPEN_NOTES[0] if self.has_focus else OPEN_NOTES[1]
            self.display, self.disabled = True, False
            self._placeholder()
            return note
        self.remove_class("-ready")
        if was == "open" and self._open_at is not None:
            # (The bots' rule for a person who lets the bubble go by: ``QUIET_AFTER``.)
            shown = time.monotonic() - self._open_at
            self.quiet = self.quiet or (not self._talked and shown >= QUIET_AFTER)
            self._open_at = None
        if phase == "off" and was in ("ahead", "open") and self.value.strip():
            # The round is over with the bubble never shown to us (or shown and let go
            # by while the line waited): nothing ended talk for good, so the line waits
            # for the next round, and the player is told so where it cannot be missed.
            if self.has_focus:
                self.close()
            self.display, self.disabled = False, True
            return KEPT
        if self.has_focus:
            if phase in ("ahead", "off"):
                self._placeholder()
            elif self.placeholder != TALK_ENDED:
                self.placeholder = TALK_ENDED
                return TALK_ENDED_NOTICE
            return None
        # Hidden and disabled: Textual gives the focus back to the widget that had it
        # when the terminal regains the focus, hidden or not.
        self.display, self.disabled = False, True
        if phase == "ended" and self.value:
            self.value = ""
            return UNSENT
        return None

    def follow_view(self, view: dict[str, Any], can_say: bool, time_left: float | None,
                    table: dict[str, Any]) -> None:
        """Follow the view (``follow``), telling the player what it says: talk is
        possible when we ``can_say``; the bots wait for our line when the bubble lies on
        a bot's pile (``table``: the table's public part); ``time_left`` on the timer."""
        phase = talk_phase(view, can_say)
        bots = {i for i, seat in enumerate(table.get("seats") or [])
                if isinstance(seat, dict) and seat.get("kind") == "bot"}
        holders = {i for i, pile in enumerate(view.get("piles") or []) if isinstance(pile, dict)
                   and (pile.get("top") or {}).get("kind") == "speech"}
        wait = bots_wait(view, time_left, bool(holders) and holders <= bots) \
            if phase == "open" and self.phase != "open" else 0.0
        was = self.phase
        note = self.follow(phase, wait)
        if was == "open" and phase != "open":
            self.post_message(self.Closed())  # ("Talk is open" no longer holds)
        if note == KEPT:
            # Said in the round's summary (a notice over it covered its lower edge).
            self.kept_unsaid = True
        elif note == TALK_ENDED_NOTICE:  # (the round's hint line may be gone)
            self.notify(note, severity="warning", timeout=6)
        elif note:
            self.post_message(self.Note(note))

    def _placeholder(self, focused: bool | None = None) -> None:
        """What the empty line says; ``focused``: it has the keys (``None``: as now; in
        the focus events ``has_focus`` is not yet what they say)."""
        focused = self.has_focus if focused is None else focused
        self.placeholder = {"open": TALK_OPEN if focused else self.hint,
                            "ahead": TALK_AHEAD}.get(self.phase, TALK_ENDED)

    def late(self) -> bool:
        """True a moment after talk ended: ``t`` still opens the line (saying so)."""
        return self.phase != "open" and time.monotonic() < self.seen_until

    def open(self) -> None:
        """Open the line with the keys: now, not later (the words typed after the key
        are its); an ended line says so."""
        self.display, self.disabled = True, False
        self.screen.set_focus(self)
        self._placeholder(focused=True)

    def keys_wait(self) -> bool:
        """True while the round's keys wait after the line lost the keys."""
        return time.monotonic() < self.keys_wait_until

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Say the line while talk is possible, then give the keys back to the table;
        before it is, keep the line (and the keys) and say so."""
        event.stop()
        text = event.value.strip()
        if text and self.phase in ("ahead", "off"):
            # Kept for when talk opens, and the keys go back to the table: Enter done
            # with a line must not leave every key typing into it (a signal, a play).
            self.post_message(self.Note(NOT_YET))
            self.close()
            return
        if text and self.possible:
            self.post_message(self.Said(text))
            self._talked = True
        elif text and self.placeholder != TALK_ENDED:
            # (When talk ended while the line had the keys, the player was told then.)
            self.notify(UNSENT, timeout=3)
        self.value = ""
        self.close()

    def close(self) -> None:
        """The player closes the line (Enter or Esc): the keys go back to the table; a
        line not sent is kept for later while talk may still open."""
        self.closing = True
        self.screen.set_focus(None)

    def on_focus(self) -> None:
        self._placeholder(focused=True)

    def on_blur(self) -> None:
        """A line that loses the keys without Enter or Esc (the terminal lost the focus,
        or anything else took it) holds the round's keys back a moment: the rest of what
        was being typed must not reach them (a space plays the card)."""
        by_player, self.closing = self.closing, False
        if not by_player:
            self.keys_wait_until = time.monotonic() + TALK_GUARD
            self.set_timer(TALK_GUARD, self.screen.refresh_bindings)
            self.screen.refresh_bindings()
            self.notify("Your talk line lost the keys: the table's keys wait a moment.",
                        severity="warning", timeout=3)
        if self.phase in ("ahead", "off"):
            self.display, self.disabled = False, True  # (its line is kept)
        elif not self.possible:
            self.value = ""
            self.display, self.disabled = False, True
        else:
            self._placeholder(focused=False)


def open_hint(wait: float, quiet: bool) -> str:
    """What the talk line says when the bubble shows and the line waits for ``t``: how
    long the bots wait for us, when they do (``wait`` seconds, see ``bots_wait``)."""
    if quiet:
        return "✎ talk is open: t to talk (a bubble went by without your line: the bots no " \
               "longer wait for one)"
    if wait:
        return f"✎ the bots wait about {wait:.0f} s for you: t to talk"
    return "✎ talk is open: t to talk"

"""Get It!'s talk line: open only while we see the speech bubble, and safe to type in.

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

TALK_OPEN = "say a line to everyone (Enter sends, Esc cancels)"
TALK_ENDED = "talk has ended: Enter or Esc closes this line (nothing more is sent)"
TALK_ENDED_NOTICE = ("Talk has ended (the speech bubble was played): Enter or Esc closes "
                     "your line; it is not sent.")
#: Seconds the round's keys wait after the talk line loses the keys without Enter or
#: Esc (the rest of a sentence must not play a card: a space is "play").
TALK_GUARD = 1.5
#: The round's keys that wait then (see ``TalkLine.keys_wait``).
GUARDED = frozenset({"play", "look", "aim", "stop_signals", "peek", "next_round"})
#: Seconds after talk was last possible that ``t`` still opens the line (one that says
#: talk is over): a player who pressed it a moment too late goes on typing, and the
#: rest of the sentence must not reach the round's keys.
LATE_TALK = 3.0


class TalkLine(Input):
    """One line to say to everyone while the speech bubble shows."""

    class Said(Message):
        """The player says ``text`` to everyone (talk is possible)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(placeholder=TALK_OPEN, max_length=200, compact=True, **kwargs)
        #: The player closes the line now (Enter or Esc).
        self.closing = False
        #: Until then (``time.monotonic``) the round's keys wait (``TALK_GUARD``).
        self.keys_wait_until = 0.0
        #: Until then (``time.monotonic``) a late ``t`` opens an ended line (``LATE_TALK``).
        self.seen_until = 0.0
        #: Talk is possible now (we see the speech bubble).
        self.possible = False

    def follow(self, possible: bool) -> bool:
        """Talk is ``possible`` now, or not; True when talk ended while the line was being
        typed (the player is told: it stays where the keys go until Enter or Esc)."""
        self.possible = possible
        if possible:
            self.display, self.disabled, self.placeholder = True, False, TALK_OPEN
            self.seen_until = time.monotonic() + LATE_TALK
        elif self.has_focus:
            if self.placeholder != TALK_ENDED:
                self.placeholder = TALK_ENDED
                return True
        else:
            # Hidden and disabled: Textual gives the focus back to the widget that had
            # it when the terminal regains the focus, hidden or not.
            self.display, self.disabled = False, True
        return False

    def late(self) -> bool:
        """True a moment after talk ended: ``t`` still opens the line (saying so)."""
        return not self.possible and time.monotonic() < self.seen_until

    def open(self) -> None:
        """Open the line with the keys: now, not later (the words typed after the key
        are its); an ended line says so."""
        self.display, self.disabled = True, False
        if not self.possible:
            self.placeholder = TALK_ENDED
        self.screen.set_focus(self)

    def keys_wait(self) -> bool:
        """True while the round's keys wait after the line lost the keys."""
        return time.monotonic() < self.keys_wait_until

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Say the line (while talk is possible), then give the keys back to the table."""
        event.stop()
        text = event.value.strip()
        if text and self.possible:
            self.post_message(self.Said(text))
        elif text:
            self.notify("Talk has ended: your line was not sent.", timeout=3)
        self.value = ""
        self.close()

    def close(self) -> None:
        """The player closes the line (Enter or Esc): the keys go back to the table."""
        self.closing = True
        self.screen.set_focus(None)

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
        if not self.possible:
            self.value = ""
            self.display, self.disabled = False, True

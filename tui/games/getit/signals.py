"""What one seat's screen knows of a Get It! round's signals, as plain data.

The host's view says what every seat signals; this adds what only the screen knows:
our signals sent but not yet in any view (keys stay quick), who talked since the
speech bubble showed. Everything on
screen about signals — each seat's lines, TO YOU, our own line, the "you look here"
mark — is read from here, so it is the same everywhere and testable without a screen.

RULES.md: a signal is about the card its target shows; when that seat plays, every
look, smile and look past at it ends (the host ends them). Ours name the card they are
about (``engine.getit.about_card``), so one still on its way when its target played is
refused by the host rather than landing on the next card.
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len

from engine.getit import about_card
from tui.games.getit.text import ToYou, advice, my_signals, to_you
from tui.notices import Namer

#: The signals a seat aims at another seat.
AIMED_KINDS = ("look", "smile", "look_past")
#: Seconds a new top card takes to be seen and weighed: a key pressed sooner after it
#: showed was meant for the card before. (A person reacts to a light in a quarter of a
#: second at best, but to which number is lowest in half a second at best: a look at a
#: 35 pressed as it was played, 0.3 s on, voted for the 40 under it, and a bot played it.)
PERCEIVE = 0.5
#: Seconds after a new top card in which a signal at it is told where it went: a player
#: who reacted to the card before landed on the new one without knowing it.
NEWLY = 1.5
#: A top card this screen has not seen (its own pile's, a spectator's).
UNSEEN = object()


class SignalState:
    """The round's signals as one seat's screen shows them."""

    def __init__(self) -> None:
        #: Signals we sent that no view has shown yet (kind → target).
        self.pending: dict[str, int | None] = {}
        #: Seats that talked since the speech bubble last showed.
        self.talkers: set[int] = set()
        #: Each pile's top card as shown (its id, ``None`` for an empty pile), since
        #: when, and the one shown before (see :meth:`meant`).
        self.tops: dict[int, tuple[Any, float, Any]] = {}

    # ---- following the host ------------------------------------------------------

    def follow(self, events: list[dict[str, Any]], phase: Any) -> None:
        """Take in one update's events."""
        for event in events:
            kind = event.get("type")
            if kind == "said" and isinstance(event.get("seat"), int):
                self.talkers.add(event["seat"])
            elif kind in ("talk_ended", "dealt", "round_started"):
                self.talkers.clear()
            if kind == "played" and isinstance(event.get("seat"), int):
                self._target_played(event["seat"])
        if phase != "play":
            self.pending.clear()

    def _target_played(self, seat: int) -> None:
        """A signal of ours at ``seat`` still on its way when it played was about the card
        it played: the host refuses it (we send the card it is about), so it is not
        shown on the next card meanwhile."""
        for kind in [k for k, target in self.pending.items() if target == seat]:
            del self.pending[kind]

    def saw(self, view: dict[str, Any], now: float) -> None:
        """Note the top cards this view shows and since when (``now``: seconds, any
        clock ``meant`` is given the same)."""
        for seat in range(len(view.get("piles") or [])):
            card = about_card({"type": "look", "target": seat}, view).get("card", UNSEEN)
            shown = self.tops.get(seat)
            if shown is None or shown[0] != card:
                self.tops[seat] = (card, now, UNSEEN if shown is None else shown[0])

    def meant(self, action: dict[str, Any], view: dict[str, Any], now: float) -> dict[str, Any]:
        """``action`` naming the card it is about (``engine.getit.about_card``): the card
        its target shows, or the one before when that came less than :data:`PERCEIVE`
        ago (a key pressed as the card changed was meant for the card seen: the host
        refuses it, as it does a signal that reaches it after the play). A card that
        came where none was (a round's first) has no card before it to mean."""
        aimed = about_card(action, view)
        target = aimed.get("target")
        shown = self.tops.get(target) if isinstance(target, int) else None
        if "card" in aimed and shown is not None and shown[0] == aimed["card"] \
                and now - shown[1] < PERCEIVE and isinstance(shown[2], int):
            return {**aimed, "card": shown[2]}
        return aimed

    def newly_changed(self, target: int, now: float) -> bool:
        """True if ``target``'s top card changed from another card just now, too long
        ago for a key to be meant for the one before (:data:`PERCEIVE`), soon enough that
        it may have been (:data:`NEWLY`)."""
        shown = self.tops.get(target)
        return (shown is not None and isinstance(shown[2], int)
                and PERCEIVE <= now - shown[1] < NEWLY)

    def sent(self, kind: str, target: int | None) -> None:
        """We sent a signal: it shows at once, before the host's answer."""
        self.pending[kind] = target

    def refused(self) -> None:
        """The host refused a move of ours: what we sent and it has not shown is dropped."""
        self.pending.clear()

    # ---- what the screen shows ---------------------------------------------------

    def signals(self, view: dict[str, Any], me: int | None) -> list[dict[str, Any]]:
        """Every seat's signals, ours with what we sent but no view has shown yet; none
        outside a round (what was signalled was about cards that are gone)."""
        if view.get("phase") != "play":
            return [{} for _ in view.get("signals") or []]
        signals = [dict(s) if isinstance(s, dict) else {} for s in view.get("signals") or []]
        if me is not None and me < len(signals):
            for kind, target in list(self.pending.items()):
                if signals[me].get(kind) == target:
                    del self.pending[kind]  # the host has it
                else:
                    signals[me][kind] = target
        return signals

    def mine(self, view: dict[str, Any], me: int | None, kind: str) -> int | None:
        """Whom we ``kind`` (look at, smile at, look past) now, as the screen shows it."""
        signals = self.signals(view, me)
        if me is None or me >= len(signals):
            return None
        target = signals[me].get(kind)
        return target if isinstance(target, int) else None

    def signalling(self, view: dict[str, Any], me: int | None) -> bool:
        """True while we aim any signal at anyone."""
        return any(self.mine(view, me, kind) is not None for kind in AIMED_KINDS)

    def said(self, view: dict[str, Any]) -> dict[int, str]:
        """Each seat's line said since the speech bubble showed (once it is played, talk
        is over and the lines go)."""
        said = {}
        for line in view.get("said") or []:
            if (isinstance(line, dict) and isinstance(line.get("seat"), int)
                    and line["seat"] in self.talkers):
                said[line["seat"]] = str(line.get("text"))
        return said

    def to_you(self, view: dict[str, Any], me: int | None) -> ToYou:
        """What everyone does to us now (TO YOU)."""
        return to_you({**view, "signals": self.signals(view, me)}, self.talkers)

    def my_line(self, view: dict[str, Any], me: int, namer: Namer,
                width: int | None = None) -> str:
        """Our own line: what we signal, what the table asks of us now, and how many
        cards are left in our pile. Where that is longer than ``width``, what the table
        asks comes first, then how many cards we hold: our signals are on the cards they
        aim at too."""
        piles = view.get("piles") or []
        pile = piles[me] if me < len(piles) and isinstance(piles[me], dict) else {}
        count = int(pile.get("count", 0))
        seen = {**view, "signals": self.signals(view, me), "talkers": sorted(self.talkers)}
        left = f"{count} in your pile" if count else "your pile is empty"
        line = f"you ({me + 1}): {my_signals(seen, namer)} · {left}"
        said = advice(seen)
        if not width or not said:
            return line
        # Shorter and shorter: what the table asks outlasts our own signals (on the cards
        # they aim at too), then the count of our pile (it waits for us now).
        for shorter in (line, f"you ({me + 1}): {said} · {left}", f"you ({me + 1}): {said}"):
            if cell_len(shorter) <= width:
                return shorter
        return shorter

    @staticmethod
    def peeked(view: dict[str, Any]) -> dict[str, Any] | None:
        """Our own top card while we peek at it. RULES.md: when the mirror is played,
        every peek ends and the value disappears from the screen."""
        peek = view.get("peek")
        return peek if isinstance(peek, dict) else None

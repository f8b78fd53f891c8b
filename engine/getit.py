"""Get It! — the cooperative, real-time, silent card game (RULES.md §1).

Every seat holds the pile its right-hand neighbour sorted, and sees every top card but
its own. The team plays the visible special cards first, then the lowest visible
number, against a timer driven only by the caller's ``now``. Levels 1–6 add cards and
special cards; Level X is one round with a chosen number of cards.

What a seat may know is the heart of this module: a seat's view never holds the id,
kind or value of a card in the pile it holds (its own top card only while it peeks
during a mirror, and then without the id), nor of any card below a top card.

Visibility **Decision**: the peek and speech windows are judged from the acting seat's
side. A seat may peek while it sees a mirror on another seat's pile, and may speak while
it sees the speech bubble on another seat's pile. The holder of the mirror (or bubble)
therefore cannot peek (or speak), exactly as at a real table, and its legal actions never
tell it more than its own view does.

Once a round is over (phases ``round_over`` and ``over``) every view carries ``reveal``:
the finished round laid open as far as the seat may know it — ``piles`` (per holder, the
cards left, top first), and ``wrong`` (``{"seat", "card", "expected": [{"seat", "card"}]}``
when a wrong card ended it, else ``None``). RULES.md never shows a seat the pile it holds,
the round over too: a seat's own pile is ``None`` there, and so is the card of an
``expected`` entry that lay on top of it (who should have played is said, not what).
A spectator, who sees no top card, sees no pile and no expected card; the wrong card was
played face up, so everyone sees it. During preparation and play ``reveal`` is ``None``.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import (
    Action,
    Event,
    Game,
    GameSpec,
    IllegalAction,
    Plain,
    View,
    away_bot_option,
    choice_option,
    int_option,
)

NUMBERS = 40
DOUBLES = (1, 6, 10, 15, 19, 22, 26, 33, 37, 40)
SPECIALS = (("smile", 5), ("eyes", 2), ("mirror", 1), ("speech", 1))
SPECIAL_KINDS = tuple(kind for kind, _ in SPECIALS)
KINDS = ("number", *SPECIAL_KINDS)
DECK_SIZE = NUMBERS + len(DOUBLES) + sum(count for _, count in SPECIALS)  # 59
LEVELS = 6
ATTEMPTS = 2
#: The level each kind of card joins the deck (the "L" mark on the card); doubles join at 6.
TIERS = {"number": 1, "smile": 2, "eyes": 3, "mirror": 4, "speech": 5, "double": 6}
#: Cards dealt in total at levels 1..6.
DEAL_SIZES = {1: 10, 2: 13, 3: 16, 4: 19, 5: 22, 6: 25}
SIGNALS = ("look", "smile", "look_past")
SIGNAL_VERBS = {"look": "look at", "smile": "smile at", "look_past": "look past"}
SIGNAL_NOUNS = {"look": "look", "smile": "smile", "look_past": "look past"}
SAY_LIMIT = 200
#: How many recent lines of talk every view carries (the list is bounded, not a log).
SAID_KEPT = 20
_DROPPED_CATEGORIES = {"Cc", "Cf", "Cs", "Zl", "Zp"}

PHASE_PREPARE = "prepare"
PHASE_PLAY = "play"
PHASE_ROUND_OVER = "round_over"
PHASE_OVER = "over"


@dataclass(frozen=True, slots=True)
class Card:
    """One Get It! card. ``value`` is ``None`` for a special card; ``tier`` is its level."""

    id: int
    kind: str
    value: int | None
    tier: int

    @property
    def special(self) -> bool:
        """True for a smile, eyes, mirror or speech bubble card."""
        return self.kind != "number"

    def plain(self) -> dict[str, Plain]:
        """The card as the contract's plain dict."""
        return {"id": self.id, "kind": self.kind, "value": self.value}

    def face(self) -> dict[str, Plain]:
        """The card without its id: what a peeking seat sees of its own top card."""
        return {"kind": self.kind, "value": self.value}


def card_faces() -> list[tuple[str, int | None, int]]:
    """The 59 faces in a fixed order as ``(kind, value, tier)``."""
    faces: list[tuple[str, int | None, int]] = [
        ("number", v, TIERS["number"]) for v in range(1, NUMBERS + 1)
    ]
    faces += [("number", v, TIERS["double"]) for v in DOUBLES]
    for kind, count in SPECIALS:
        faces += [(kind, None, TIERS[kind])] * count
    return faces


def describe(card: Card | dict[str, Any]) -> str:
    """A card in words, e.g. "17" or "mirror"."""
    kind = card.kind if isinstance(card, Card) else card.get("kind")
    value = card.value if isinstance(card, Card) else card.get("value")
    return str(value) if kind == "number" else str(kind)


def hand_order(card: Card) -> tuple[int, int, int]:
    """Sort key of a hand as the engine shows it: numbers ascending, then specials."""
    if card.value is not None:
        return (0, card.value, card.id)
    return (1, KINDS.index(card.kind), card.id)


def arrangement(cards: Sequence[dict[str, Any]], rng: random.Random) -> list[int]:
    """A legal pile order for a hand (plain cards): numbers ascending, lowest on top,
    each special card at a random position anywhere but on top.

    This is what a bot or a timed-out player submits (RULES.md: specials at random legal
    positions). ``cards`` must hold at least one number card.
    """
    numbers = sorted(
        (c for c in cards if c["kind"] == "number"), key=lambda c: (c["value"], c["id"])
    )
    if not numbers:
        raise ValueError("a hand without a number card cannot be arranged")
    pile = [c["id"] for c in numbers]
    for card in sorted((c for c in cards if c["kind"] != "number"), key=lambda c: c["id"]):
        pile.insert(rng.randint(1, len(pile)), card["id"])
    return pile


def deal_hands(deck: Sequence[int], seats: int, total: int, cards: Mapping[int, Card],
               rng: random.Random) -> list[list[int]]:
    """Shuffle ``deck`` (card ids) and deal ``total`` of its cards round-robin from seat 0,
    then :func:`fix_special_hands`; the hands, one list of ids a seat.

    **Decision** (RULES.md): a hand of only special cards goes back into the undealt
    rest, which is reshuffled, and the same number is dealt again, until the hand holds
    a number. If the rest has fewer cards than that hand (or no number card at all, so
    redrawing could never help), the whole deal is shuffled and dealt again.
    """
    while True:
        shuffled = list(deck)
        rng.shuffle(shuffled)
        dealt, rest = shuffled[:total], shuffled[total:]
        hands: list[list[int]] = [dealt[s::seats] for s in range(seats)]
        if fix_special_hands(hands, rest, cards, rng):
            return hands


def fix_special_hands(hands: list[list[int]], rest: list[int], cards: Mapping[int, Card],
                      rng: random.Random) -> bool:
    """Redraw each hand of only special cards from the undealt ``rest`` (both changed in
    place) until it holds a number; ``False`` as soon as the rest cannot help (fewer cards
    than the hand, or no number among them): the whole deal must be dealt again."""
    for hand in hands:
        while all(cards[c].special for c in hand):
            size = len(hand)
            if len(rest) < size or all(cards[c].special for c in rest):
                return False
            rest += hand
            rng.shuffle(rest)
            hand[:] = rest[:size]
            del rest[:size]
    return True


def about_card(action: Action, view: Mapping[str, Any]) -> Action:
    """``action`` naming the card it is about, as ``view`` shows it, when it is a look,
    smile or look past at a seat whose pile the view shows (else ``action`` as it is).

    The engine refuses such a signal once its target has played that card, so a signal
    sent just as its target played does not land on a card its sender never saw.
    """
    target = action.get("target")
    if action.get("type") not in SIGNAL_VERBS or isinstance(target, bool) \
            or not isinstance(target, int):
        return action
    piles = view.get("piles")
    if not isinstance(piles, list) or not 0 <= target < len(piles) \
            or not isinstance(pile := piles[target], dict):
        return action
    top = pile.get("top")
    if isinstance(top, dict) and isinstance(top.get("id"), int):
        return {**action, "card": top["id"]}
    if pile.get("count") == 0:
        return {**action, "card": None}
    return action  # (a pile whose top this view does not show)


def clean_text(text: str) -> str:
    """A line of talk without control, format or separator characters, trimmed."""
    kept = "".join(ch for ch in text if unicodedata.category(ch) not in _DROPPED_CATEGORIES)
    return kept.strip()


class GetIt(Game):
    """A Get It! game: levels from the starting level to 6, or one Level X round."""

    #: Silent (the rules): in preparation a word could tell the next seat what its pile
    #: holds; in a round only signals speak (and the speech bubble's ``say``).
    silent_phases = frozenset({"prepare", "play"})

    def __init__(self, seats: int, seed: int, options: dict[str, Plain]) -> None:
        super().__init__(seats, seed, options)
        ids = list(range(DECK_SIZE))
        self.rng.shuffle(ids)
        self.cards = {
            i: Card(i, kind, value, tier)
            for i, (kind, value, tier) in zip(ids, card_faces(), strict=True)
        }
        self.level: int | str = options["level"]
        self.attempt = 1
        self.round = 0
        self.last_round: dict[str, Plain] | None = None
        self.outcome: dict[str, Plain] | None = None
        #: The last round laid open (every pile, the wrong card and what was expected).
        self.reveal: dict[str, Plain] | None = None
        #: The wrong play of this round, once made (kept for ``reveal``).
        self.wrong: dict[str, Plain] | None = None
        self._deal()

    # ------------------------------------------------------------------ dealing

    @property
    def phase_name(self) -> str:
        """The current phase: "prepare", "play", "round_over" or "over"."""
        return self._phase_name

    def deck_size(self) -> int:
        """How many cards the current level deals in total."""
        if self.level == "X":
            return int(self.options["cards"])
        assert isinstance(self.level, int)
        return DEAL_SIZES[self.level]

    def level_deck(self) -> list[int]:
        """The ids of the current level's deck, in id order (shuffled before use)."""
        top_tier = LEVELS if self.level == "X" else int(self.level)
        return sorted(cid for cid, c in self.cards.items() if c.tier <= top_tier)

    def _deal(self) -> None:
        """Shuffle the level's deck and deal a new round for preparation."""
        self.round += 1
        deck = self.level_deck()
        total = self.deck_size()
        self.hands = deal_hands(deck, self.seats, total, self.cards, self.rng)
        self.arranged: list[list[int] | None] = [None] * self.seats
        self.piles: list[list[int]] = [[] for _ in range(self.seats)]  # top last
        self.played: list[int] = []
        self.wrong = None
        self.deadline: float | None = None
        self.started: float | None = None
        self._reset_signals()
        self._phase_name = PHASE_PREPARE

    def _reset_signals(self) -> None:
        self.signals: dict[str, list[int | None]] = {s: [None] * self.seats for s in SIGNALS}
        self.peeking = [False] * self.seats
        self.said: list[list[Plain]] = []

    # ------------------------------------------------------------------ what shows

    def top(self, holder: int) -> Card | None:
        """The top card of the pile ``holder`` holds, or ``None`` if it is empty."""
        pile = self.piles[holder]
        return self.cards[pile[-1]] if pile else None

    def _visible_to(self, seat: int, kind: str) -> bool:
        """True if ``seat`` sees a ``kind`` card on top of a pile another seat holds."""
        if self._phase_name != PHASE_PLAY:
            return False
        for holder in range(self.seats):
            card = self.top(holder)
            if holder != seat and card is not None and card.kind == kind:
                return True
        return False

    def correct_holders(self) -> list[int]:
        """The seats whose top card is a correct play now (host-side knowledge only)."""
        tops = [(h, c) for h in range(self.seats) if (c := self.top(h)) is not None]
        specials = [h for h, c in tops if c.special]
        if specials:
            return specials
        if not tops:
            return []
        low = min(c.value for _, c in tops if c.value is not None)
        return [h for h, c in tops if c.value == low]

    # ------------------------------------------------------------------ time

    def _expired(self, now: float) -> bool:
        return (
            self._phase_name == PHASE_PLAY and self.deadline is not None and now >= self.deadline
        )

    def _advance(self, now: float) -> list[Event]:
        if self._expired(now):
            return self._end_round(False, "time")
        return []

    # ------------------------------------------------------------------ actions

    def _act(self, seat: int, action: Action, now: float) -> list[Event]:
        if not self._expired(now):
            return self._dispatch(seat, action, now)
        # Time acts first; an illegal action must leave even that undone, so the host's
        # own advance(now) is what reports the time-out.
        saved = self._dump()
        rng_state = self.rng.getstate()
        events = self._end_round(False, "time")
        try:
            events += self._dispatch(seat, action, now)
        except IllegalAction:
            self._load(saved)
            self.rng.setstate(rng_state)
            raise
        return events

    def _dispatch(self, seat: int, action: Action, now: float) -> list[Event]:
        kind = action["type"]
        handlers = {
            "arrange": self._arrange,
            "play": self._play,
            "look": self._signal,
            "smile": self._signal,
            "look_past": self._signal,
            "peek": self._peek,
            "say": self._say,
            "next_round": self._next_round,
        }
        handler = handlers.get(kind)
        if handler is None:
            known = ", ".join(handlers)
            raise IllegalAction(f"unknown action {kind!r}; Get It! knows {known}")
        if self._phase_name == PHASE_OVER:
            raise IllegalAction(f"the game is over; {kind!r} is not possible now")
        return handler(seat, action, now)

    def _need_phase(self, phase: str, what: str) -> None:
        if self._phase_name != phase:
            when = {
                PHASE_PREPARE: "while the piles are being prepared",
                PHASE_PLAY: "while a round is being played",
                PHASE_ROUND_OVER: "between rounds",
            }[phase]
            raise IllegalAction(f"{what} is only possible {when}")

    def _arrange(self, seat: int, action: Action, now: float) -> list[Event]:
        _only_keys(action, {"type", "pile"})
        self._need_phase(PHASE_PREPARE, "arranging a pile")
        if self.arranged[seat] is not None:
            raise IllegalAction("you have already arranged your pile")
        pile = action.get("pile")
        if not isinstance(pile, list) or any(
            isinstance(c, bool) or not isinstance(c, int) for c in pile
        ):
            raise IllegalAction("'pile' must be a list of card ids, top card first")
        hand = set(self.hands[seat])
        seen: set[int] = set()
        for cid in pile:
            if cid in seen:
                raise IllegalAction(f"card {cid} appears more than once in your pile")
            if cid not in hand:
                raise IllegalAction(f"card {cid} is not in your hand")
            seen.add(cid)
        missing = sorted(hand - seen)
        if missing:
            names = ", ".join(f"{c} ({describe(self.cards[c])})" for c in missing)
            raise IllegalAction(f"your pile must hold your whole hand; missing: {names}")
        cards = [self.cards[c] for c in pile]
        if cards[0].special:
            raise IllegalAction(
                f"a special card ({cards[0].kind}) cannot go on top of the pile; "
                "put a number card on top"
            )
        last: Card | None = None
        for card in cards:
            if card.value is None:
                continue
            if last is not None and last.value is not None and card.value < last.value:
                raise IllegalAction(
                    f"number cards go lowest on top: {card.value} cannot come after "
                    f"{last.value}"
                )
            last = card
        self.arranged[seat] = list(pile)
        events: list[Event] = [{"type": "arranged", "seat": seat}]
        if all(a is not None for a in self.arranged):
            events += self._start_round(now)
        return events

    def _start_round(self, now: float) -> list[Event]:
        for sorter, order in enumerate(self.arranged):
            assert order is not None
            self.piles[(sorter + 1) % self.seats] = list(reversed(order))
        self.hands = [[] for _ in range(self.seats)]
        timer = self.options["timer"]
        self.started = now
        self.deadline = now + float(timer) if timer else None
        self._phase_name = PHASE_PLAY
        return [
            {
                "type": "round_started",
                "round": self.round,
                "level": self.level,
                "attempt": self.attempt,
                "deadline": self.deadline,
            }
        ]

    def _play(self, seat: int, action: Action, now: float) -> list[Event]:
        _only_keys(action, {"type"})
        self._need_phase(PHASE_PLAY, "playing a card")
        card = self.top(seat)
        if card is None:
            raise IllegalAction("the pile you hold is empty; you have no card left to play")
        holders = self.correct_holders()
        correct = seat in holders
        if not correct:
            self.wrong = {
                "seat": seat,
                "card": card.plain(),
                "expected": [
                    {"seat": h, "card": top.plain()} for h in holders
                    if (top := self.top(h)) is not None
                ],
            }
        self.piles[seat].pop()
        self.played.append(card.id)
        # Your peek was at the card you just played; a new top needs a new peek.
        self.peeking[seat] = False
        events: list[Event] = [
            {"type": "played", "seat": seat, "card": card.plain(), "correct": correct}
        ]
        events += self._end_signals_at(seat)
        if not correct:
            return events + self._end_round(False, "wrong")
        if card.kind == "mirror":
            ended = [s for s in range(self.seats) if self.peeking[s]]
            self.peeking = [False] * self.seats
            events.append({"type": "peeks_ended", "seats": ended})
        elif card.kind == "speech":
            events.append({"type": "talk_ended"})
        if not any(self.piles):
            events += self._end_round(True, "cleared")
        return events

    def _target(self, seat: int, action: Action) -> int | None:
        if "target" not in action:
            raise IllegalAction(f"a {action['type']!r} signal needs a 'target': a seat or None")
        target = action["target"]
        if target is None:
            return None
        if isinstance(target, bool) or not isinstance(target, int):
            raise IllegalAction(f"'target' must be a seat number or None, not {target!r}")
        if not 0 <= target < self.seats:
            raise IllegalAction(f"there is no seat {target}; seats are 0 to {self.seats - 1}")
        if target == seat:
            raise IllegalAction("a signal goes to another player, not to yourself")
        return target

    def _signal(self, seat: int, action: Action, now: float) -> list[Event]:
        _only_keys(action, {"type", "target", "card"})
        kind = action["type"]
        verb = SIGNAL_VERBS[kind]
        self._need_phase(PHASE_PLAY, f"to {verb} someone")
        target = self._target(seat, action)
        if "card" in action:
            self._still_showing(kind, target, action["card"])
        if self.signals[kind][seat] == target:
            whom = "nobody" if target is None else f"seat {target}"
            raise IllegalAction(f"you already {verb} {whom}")
        self.signals[kind][seat] = target
        return [{"type": "signal", "seat": seat, "signal": kind, "target": target}]

    def _still_showing(self, kind: str, target: int | None, card: Any) -> None:
        """A signal that names the card it is about (:func:`about_card`) is refused once
        that card is gone: sent as its target played, it would otherwise land on the
        next card, which its sender never saw (RULES.md: a signal is about the card its
        target shows)."""
        if target is None:
            raise IllegalAction(f"a {kind!r} at nobody is about no card; leave out 'card'")
        if card is not None and (isinstance(card, bool) or not isinstance(card, int)):
            raise IllegalAction(f"'card' must be a card id or None, not {card!r}")
        top = self.top(target)
        if (None if top is None else top.id) != card:
            raise IllegalAction(
                f"seat {target} played the card your {SIGNAL_NOUNS[kind]} was about before "
                f"it arrived; {SIGNAL_VERBS[kind]} them again to mean the card they show now")

    def _end_signals_at(self, target: int) -> list[Event]:
        """A signal is about the card its target shows (RULES.md): once that card is played,
        every look, smile and look past at the seat ends, whoever gave it."""
        ended = [
            (giver, kind)
            for kind in SIGNALS
            for giver, aimed in enumerate(self.signals[kind])
            if aimed == target
        ]
        for giver, kind in ended:
            self.signals[kind][giver] = None
        if not ended:
            return []
        return [{"type": "signals_ended", "target": target,
                 "signals": [{"seat": giver, "signal": kind} for giver, kind in ended]}]

    def _peek(self, seat: int, action: Action, now: float) -> list[Event]:
        _only_keys(action, {"type", "on"})
        self._need_phase(PHASE_PLAY, "peeking")
        on = action.get("on")
        if not isinstance(on, bool):
            raise IllegalAction(f"'on' must be true or false, not {on!r}")
        if on == self.peeking[seat]:
            raise IllegalAction("you are already peeking" if on else "you are not peeking")
        if on and not self._visible_to(seat, "mirror"):
            raise IllegalAction("you may peek only while you see a mirror card")
        self.peeking[seat] = on
        return [{"type": "signal", "seat": seat, "signal": "peek", "on": on}]

    def _say(self, seat: int, action: Action, now: float) -> list[Event]:
        _only_keys(action, {"type", "text"})
        self._need_phase(PHASE_PLAY, "talking")
        text = action.get("text")
        if not isinstance(text, str):
            raise IllegalAction(f"'text' must be a string, not {text!r}")
        if len(text) > SAY_LIMIT:
            raise IllegalAction(f"a line may hold at most {SAY_LIMIT} characters, not {len(text)}")
        text = clean_text(text)
        if not text:
            raise IllegalAction("there is nothing to say: the text is empty")
        if not self._visible_to(seat, "speech"):
            raise IllegalAction("you may talk only while you see the speech bubble card")
        self.said.append([seat, text])
        if len(self.said) > SAID_KEPT:
            del self.said[0]
        return [{"type": "said", "seat": seat, "text": text}]

    def _next_round(self, seat: int, action: Action, now: float) -> list[Event]:
        _only_keys(action, {"type"})
        self._need_phase(PHASE_ROUND_OVER, "moving on to the next round")
        assert self.last_round is not None
        if self.last_round["won"]:
            assert isinstance(self.level, int)
            self.level += 1
            self.attempt = 1
        else:
            self.attempt += 1
        self._deal()
        return [
            {
                "type": "dealt",
                "round": self.round,
                "level": self.level,
                "attempt": self.attempt,
                "hand_sizes": [len(h) for h in self.hands],
            }
        ]

    def _end_round(self, won: bool, reason: str) -> list[Event]:
        self.peeking = [False] * self.seats
        self.deadline = None
        # The round is over: every pile is laid open, as players turn them up at a table.
        self.reveal = {
            "piles": [[self.cards[c].plain() for c in reversed(pile)] for pile in self.piles],
            "wrong": self.wrong if reason == "wrong" else None,
        }
        self.wrong = None
        self.last_round = {
            "round": self.round,
            "level": self.level,
            "attempt": self.attempt,
            "won": won,
            "reason": reason,
            "cards": self.deck_size(),
            "played": len(self.played),
        }
        events: list[Event] = [{"type": "round_over", **self.last_round}]
        if self.level == "X":
            self.outcome = self._x_result(won)
        elif won and self.level == LEVELS:
            self.outcome = self._levels_result(True)
        elif not won and self.attempt >= ATTEMPTS:
            self.outcome = self._levels_result(False)
        if self.outcome is not None:
            self._phase_name = PHASE_OVER
            events.append({"type": "game_over", **self.outcome})
        else:
            self._phase_name = PHASE_ROUND_OVER
        return events

    def _levels_result(self, won: bool) -> dict[str, Plain]:
        return {
            "won": won,
            "level": self.level,
            "start_level": self.options["level"],
            "rounds": self.round,
        }

    def _x_result(self, won: bool) -> dict[str, Plain]:
        cards = self.deck_size()
        best = self.options["best"]
        # An untimed round is practice: it sets no record (RULES.md: the timer is what
        # makes the score; "untimed" is allowed for practice).
        timed = bool(self.options["timer"])
        new_best = won and timed and (best is None or cards > best)
        return {
            "won": won,
            "level": "X",
            "cards": cards,
            "seats": self.seats,
            "score": cards if won else 0,
            "previous_best": best,
            "best": cards if new_best else best,
            "new_best": new_best,
            "rounds": self.round,
        }

    # ------------------------------------------------------------------ legal actions

    def _legal(self, seat: int) -> list[Action]:
        phase = self._phase_name
        if phase == PHASE_PREPARE:
            return [{"type": "arrange"}] if self.arranged[seat] is None else []
        if phase == PHASE_ROUND_OVER:
            return [{"type": "next_round"}]
        if phase != PHASE_PLAY:
            return []
        # One pass over the tops of the piles others hold (see test_engine_reference.py).
        piles = self.piles
        cards = self.cards
        seen: set[str] = set()
        for holder, pile in enumerate(piles):
            if pile and holder != seat:
                seen.add(cards[pile[-1]].kind)
        actions: list[Action] = []
        if piles[seat]:
            actions.append({"type": "play"})
        targets: list[int | None] = [None, *(s for s in range(self.seats) if s != seat)]
        signals = self.signals
        for kind in SIGNALS:
            current = signals[kind][seat]
            actions += [{"type": kind, "target": t} for t in targets if t != current]
        if self.peeking[seat]:
            actions.append({"type": "peek", "on": False})
        elif "mirror" in seen:
            actions.append({"type": "peek", "on": True})
        if "speech" in seen:
            actions.append({"type": "say"})
        return actions

    # ------------------------------------------------------------------ contract hooks

    def _phase(self) -> str:
        return self._phase_name

    def _turn(self) -> int | None:
        return None

    def _view(self, seat: int | None) -> View:
        view: View = {
            "level": self.level,
            "attempt": self.attempt,
            "attempts": 1 if self.level == "X" else ATTEMPTS,
            "round": self.round,
            "cards": self.deck_size(),
            "timer": self.options["timer"],
            "deadline": self.deadline,
            "hand_sizes": [len(h) for h in self.hands],
            "arranged": [a is not None for a in self.arranged],
            "piles": [self._pile_view(seat, h) for h in range(self.seats)],
            "played": [self.cards[c].plain() for c in self.played],
            "signals": [
                {
                    "look": self.signals["look"][s],
                    "smile": self.signals["smile"][s],
                    "look_past": self.signals["look_past"][s],
                    "peek": self.peeking[s],
                }
                for s in range(self.seats)
            ],
            "said": [{"seat": s, "text": t} for s, t in self.said],
            "last_round": dict(self.last_round) if self.last_round else None,
            "reveal": self._reveal_view(seat)
            if self._phase_name in (PHASE_ROUND_OVER, PHASE_OVER) else None,
            "result": self.result,
        }
        if self.options.get("bots", "quick") != "quick":
            # Public like every option; a bot reads its pace from its view.
            view["bots"] = self.options["bots"]
        if seat is not None:
            view["hand"] = self._hand_view(seat)
            top = self.top(seat)
            view["peek"] = top.face() if self.peeking[seat] and top is not None else None
        return view

    def laid_open(self) -> dict[str, Plain]:
        """Every seat's pile, top first, and its hand while preparing."""
        return {"piles": [[self.cards[c].plain() for c in reversed(pile)] for pile in self.piles],
                "hands": [[self.cards[c].plain() for c in hand] for hand in self.hands]}

    def _reveal_view(self, seat: int | None) -> dict[str, Plain] | None:
        """The finished round laid open, but for what ``seat`` may never see (above)."""
        if self.reveal is None:
            return None
        piles = self.reveal["piles"]
        assert isinstance(piles, list)
        wrong = self.reveal.get("wrong")
        if isinstance(wrong, dict):
            expected = wrong["expected"]
            assert isinstance(expected, list)
            wrong = {"seat": wrong["seat"], "card": _copy(wrong["card"]), "expected": [
                {"seat": e["seat"],
                 "card": _copy(e["card"]) if seat is not None and e["seat"] != seat else None}
                for e in expected]}
        return {"piles": [_copy(pile) if seat is not None and holder != seat else None
                          for holder, pile in enumerate(piles)],
                "wrong": wrong}

    def _hand_view(self, seat: int) -> list[dict[str, Plain]]:
        """The seat's own hand while preparing (its arranged order once confirmed)."""
        if self._phase_name != PHASE_PREPARE:
            return []
        order = self.arranged[seat]
        if order is None:
            order = sorted(self.hands[seat], key=lambda c: hand_order(self.cards[c]))
        return [self.cards[c].plain() for c in order]

    def _pile_view(self, seat: int | None, holder: int) -> dict[str, Plain]:
        top = self.top(holder)
        # Every top card is hidden from its holder, so a spectator sees none of them.
        shown = top is not None and seat is not None and seat != holder
        return {"count": len(self.piles[holder]), "top": top.plain() if shown and top else None}

    @property
    def over(self) -> bool:
        return self._phase_name == PHASE_OVER

    @property
    def result(self) -> dict[str, Plain] | None:
        return dict(self.outcome) if self.outcome is not None else None

    def _dump(self) -> Plain:
        return {
            "cards": [[c.id, c.kind, c.value, c.tier] for c in self.cards.values()],
            "level": self.level,
            "attempt": self.attempt,
            "round": self.round,
            "phase": self._phase_name,
            "hands": [list(h) for h in self.hands],
            "arranged": [list(a) if a is not None else None for a in self.arranged],
            "piles": [list(p) for p in self.piles],
            "played": list(self.played),
            "started": self.started,
            "deadline": self.deadline,
            "signals": {k: list(v) for k, v in self.signals.items()},
            "peeking": list(self.peeking),
            "said": [list(line) for line in self.said],
            "last_round": dict(self.last_round) if self.last_round else None,
            "outcome": dict(self.outcome) if self.outcome else None,
            "reveal": _copy(self.reveal),
            "wrong": _copy(self.wrong),
        }

    def _load(self, state: Plain) -> None:
        self.cards = {i: Card(i, kind, value, tier) for i, kind, value, tier in state["cards"]}
        self.level = state["level"]
        self.attempt = state["attempt"]
        self.round = state["round"]
        self._phase_name = state["phase"]
        self.hands = [list(h) for h in state["hands"]]
        self.arranged = [list(a) if a is not None else None for a in state["arranged"]]
        self.piles = [list(p) for p in state["piles"]]
        self.played = list(state["played"])
        self.started = state["started"]
        self.deadline = state["deadline"]
        self.signals = {k: list(v) for k, v in state["signals"].items()}
        self.peeking = list(state["peeking"])
        self.said = [list(line) for line in state["said"]]
        self.last_round = dict(state["last_round"]) if state["last_round"] else None
        self.outcome = dict(state["outcome"]) if state["outcome"] else None
        self.reveal = _copy(state.get("reveal"))
        self.wrong = _copy(state.get("wrong"))


GetIt.spec = GameSpec(
    id="getit",
    name="Get It!",
    min_seats=3,
    max_seats=6,
    options=(
        int_option(
            "level", 1, "the starting level, 1 to 6, or \"X\" for one Level X round", 1, LEVELS,
            extra=("X",),
        ),
        int_option(
            "cards", 25, "Level X: how many cards are dealt in total (one a player to 59)",
            lambda seats: seats,
            DECK_SIZE, only_if=("level", "X"),
        ),
        int_option("timer", 60, "seconds per round (0: untimed, for practice)", 0, 3600),
        choice_option(
            "bots", "quick",
            "how fast the bots react: quick (about a third of a second, quicker than "
            "people) or relaxed (about a second, as people do: time to signal with them)",
            ("quick", "relaxed"),
        ),
        int_option(
            "best", None, "Level X: the record so far for this many players (none: no record)",
            lambda seats: seats, DECK_SIZE, extra=(None,),
        ),
        away_bot_option(),
    ),
    factory=GetIt,
)


def _copy(data: Any) -> Any:
    """A deep copy of plain data (so a view never shares lists with the state)."""
    if isinstance(data, dict):
        return {k: _copy(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_copy(v) for v in data]
    return data


def _only_keys(action: Action, allowed: set[str]) -> None:
    extra = sorted(set(action) - allowed)
    if extra:
        raise IllegalAction(f"unexpected field {extra[0]!r} in a {action['type']!r} action")

"""A real-time Get It! teammate that sees only its own view and legal actions.

The bot follows the rulebook's conventions (RULES.md §1) so that humans can read it and
it can read humans:

- **look** at the seat showing the lowest number it sees; on equal numbers (doubles) at
  the lowest seat number among them. That tie rule is what every observer can agree on:
  a tied holder cannot see its own card, so it looks at the other tied seat, and the
  lowest tied seat ends up looked at by everyone. While any special card is showing it
  looks at nobody: the special comes first, and a look would invite a number too early.
- **smile** at the lowest seat showing a smile, **look past** the lowest seat showing
  eyes, **peek** while it sees a mirror, **say** the cards it sees (once a round, seats
  numbered from 1 as people see them: "I see seat 1: speech, seat 3: 17") while it sees
  the speech bubble. Different specials are signalled side by side.
- **play** when the table signals it: its teammates look at it (and it sees no
  special), smile at it or look past it, as below; or all peek (only the mirror's holder
  cannot peek) or all have talked this round (only the bubble's holder cannot talk). A
  value it learnt by peeking is remembered until its pile changes, and then decides
  alone: it plays a known special at once, a known number only when it is the lowest
  showing, and never plays a card it knows is too high, whatever the signals say.

**Reading people.** A person's signals arrive later than a bot's, change more often,
and sometimes go to the wrong player; a person may never type. So:

- **Who counts.** The bot times each teammate: how long after each play its signals
  came to rest (the last change counts, so a late signal corrected a moment later
  counts as the correction; the signals a play ends end with the play, so what is
  timed is the teammate signalling again). A teammate whose signals came to rest
  within ``reaction + jitter + 3 * motor`` of each of the last ``PROVEN_AFTER`` plays is
  *proven* (a bot, say); one seen slower, or seen signalling against the cards (a look
  at a number while a lower one shows elsewhere, a look at a special card, a smile at
  no smile), is *doubted* (a person, say). A teammate not yet timed is neither.
- **Covering the table.** Every teammate not doubted must signal the bot; doubted ones
  may be left out when the signals counted *cover* the table. A correct look at the bot says
  its card is below every pile but the looker's own, so two looks cover every pile,
  and one proven look does when the looker's own card is no lower than a card it
  vouched for (a proven smile or look-past needs no help: the signaller sees the card).
  So three bots beside a person play their own cards without waiting for the person,
  and never on the person's slip alone. A doubted teammate's signal, when it is needed,
  counts only once it stayed put for that teammate's settle time (time to notice and
  correct a slip).
- **One peek, one line.** Only a seat that sees a mirror may peek and only one that sees
  the speech bubble may talk, and there is one of each: when anyone peeks (talks) and
  the bot sees no mirror (bubble), the card is on its own pile. It plays it once the
  others had time to peek (every teammate, each its settle time, for everyone gains by
  learning its card) or to talk: the proven ones each its settle time, and while any
  teammate has not talked, ``TALK_HOLD`` seconds after the bubble showed, time to
  notice it, press ``t`` and type a short line (a bot talks within its reaction; one
  that has not is a person typing, even a person whose signals are as quick as a
  bot's). That hold never costs the round its time: every card left keeps
  ``CARD_TIME`` of the bot's slowest reaction (:func:`talk_hold`). The last pile with
  cards waits too, while the bubble may be on it. A teammate that let a bubble go by
  without a word after it showed ``QUIET_AFTER`` seconds is *quiet* (a person who does
  not type) and is not held for again that game.
- **Teammates, not a clock** (a *patient* bot: at a relaxed table). A card a person
  watching could signal about is not played before that person had the chance: each
  teammate not proven quick that has not signalled since the cards it sees changed is
  given its settle time from that change (a person's reaction, twice, at most
  ``SETTLE_CAP``) before the bot plays on the others' signals without it. A signal, any
  signal, ends the wait: a person who chose another seat has had its say. A card needs
  every teammate's signal but a doubted one's, except from a teammate that shows none:
  one that has given none this round, or whose every signal ended with the card it was
  about. After ``SILENT_AFTER`` it abstains (a newcomer who did not know to look held
  every bot's card until the timer ran out, and so did a person whose look ended with
  the card looked at, and who did not look again). A look is no vote for a smile (look
  past), nor against one unless a proven teammate gives it: a look at the holder by
  another is not waited for (a person's first key of a smile, whose second never came,
  held a smile until the round ran out), and a teammate whose only signal is a look
  elsewhere abstains as a silent one does.
- **What people say.** While the bubble shows, a teammate's line is read as claims
  about the cards it sees, which are every top card but its own (see
  :func:`told_face`): "seat 2: 17" or "17 on bot 2" names a card and its holder; "12" or
  "I see 17 and 23" name cards, and a card named that the bot cannot account for (on
  the piles it sees, but for the speaker's, or among the cards played) can only be its
  own. What it is told decides like a peeked value, except that a card said to be too
  high does not stop a play the signals call for (a person may mistype). A line naming
  one seat ("Bot 2", "seat 3", "me": see :func:`told_pointer`) stands as the speaker's
  look at that seat until the seat plays or the speaker looks again; "not me" from a
  seat showing the lowest number the bot sees says that a lower card lies somewhere,
  and only the bot's own is hidden from it.

**Stale signals.** A play ends every look, smile and look-past at the seat that played
(RULES.md: a signal is about the card its target shows), so the signals at the bot
after its own play were all given after it. A signal given before another seat's play
was about the cards showing then: a person's look at the lowest number while a smile
showed stays when the smile is played, and the card under the smile may be lower
still. So a look, smile or look-past counts only if it was given ``fresh`` seconds
after the last play its giver saw, or once ``settle`` seconds have passed since that
play with the signal unchanged (then the giver had time to change its mind, so the
signal is about the new card). A seat never sees its own pile, so its own play changes
nothing it sees: what it signalled before that play is judged from the play before.
Peeks and talk need no such guard: the engine ends them when the mirror or bubble is
played. For a teammate seen to be slower than ``settle`` it waits that teammate's
slowest time plus a margin and the spread of its pace instead, up to ``SETTLE_CAP``;
for one not yet timed, ``UNKNOWN_SETTLE``.

Timing is human-like. ``step(view, legal, now)`` is called with the caller's clock. Each
thing the bot wants to do (a signal, a play) is an *intent*; an intent is carried out
only once ``reaction`` seconds (plus seeded jitter) have passed since the bot first
wanted it, and two actions are at least ``motor`` seconds apart. ``choose(view, legal)``
is the clock-free answer for turn-free use (arranging, moving to the next round).

**Preparation.** Numbers go lowest on top, as the rules demand; each special card goes
high in the pile but never on top (the rules forbid it), spread out so that at least one
number lies between two specials when there are numbers enough. High, because specials
are met early, while the timer is fresh, and a mirror met early lets every seat learn
its own top card early. Spread out, one per gap between numbers; together would do as
well, for a play ends the signals at its holder, so a second smile right under the first
is smiled at afresh.
"""

from __future__ import annotations

import random
import re
import statistics
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import Action, View

#: How a special card asks to be played, and which signal asks for it.
SPECIAL_SIGNAL = {"smile": "smile", "eyes": "look_past"}
#: Order of the specials from the top of the pile down (why: see the module docstring).
SPECIAL_ORDER = ("mirror", "speech", "eyes", "smile")
#: The table option ``bots``: each pace's reaction time and jitter (seconds). Quick is
#: a third of a second, quicker than people; relaxed about a second, as a person reacts
#: (``hiddenhand sim getit --people 1 --reaction 1.0 --jitter 0.3``: every level cleared
#: in 60 of 60 games, a median round of 39 s of the 60).
PACES = {"quick": (0.35, 0.15), "relaxed": (1.0, 0.3)}


def settle_time(reaction: float, jitter: float) -> float:
    """How long after a play an unchanged signal is taken to be about the new card, for
    a player of this pace: two reactions at their slowest, and 0.2 s."""
    return 2 * (reaction + jitter) + 0.2
#: Which due intent goes first when several are due at once.
PRIORITY = ("play", "next_round", "arrange", "peek", "smile", "look_past", "say", "look")
SIGNAL_KINDS = ("look", "smile", "look_past")
SAY_LIMIT = 200
#: How many of a teammate's recent reaction times are kept, the margin added to the
#: slowest of them, and the longest settle time that slowness may ask for (seconds).
PACE_KEPT = 8
PACE_MARGIN = 0.3
#: How many quick reactions to plays prove a teammate a quick, exact signaller.
PROVEN_AFTER = 3
#: How long after a play an unchanged signal of a teammate not yet timed is trusted.
UNKNOWN_SETTLE = 2.0
#: A doubted teammate's signal, when its vote is needed, must have stayed put this many
#: times its settle time (a person's slip is corrected one or two reactions later).
HOLD_FACTOR = 1.25
#: (A doubted teammate's needed vote waits up to HOLD_FACTOR times this: 3.1 s. With 4 s
#: a bot at a 3-seat table waited 5 s for a slow person's look, and more rounds were lost
#: on time than wrong plays were saved: ``hiddenhand sim getit --seats 3 --people 1
#: --person-reaction 1.6 --person-spread 0.5`` cleared 145 of 200 games with 4 s, 178
#: with 2.5; with a person at 1 s, 196 and 197; 4–5 seats with people: no change.)
SETTLE_CAP = 2.5
#: Seconds a teammate not doubted may give no signal of a kind at all, after the cards it
#: sees changed, before the bots play on the others' signals without it (a person who
#: does not signal yet: a newcomer held every bot's card until the round ran out).
SILENT_AFTER = 4.0
#: The levels whose deck holds the speech bubble.
BUBBLE_LEVELS = (5, 6, "X")
#: Talk a person can use: how long after the speech bubble shows its holder keeps it
#: (seconds) while a teammate has not talked. A person notices the
#: bubble in about a second, presses ``t`` and types a short line ("I see 17 and 5") at
#: some 4 characters a second: 5-7 s for a line of 12-22 characters.
TALK_HOLD = 8.0
#: What every card left must keep of the timer, in multiples of the bot's slowest
#: reaction, before talk is held open (a hold never costs the round its time). (With
#: 1.5, 2 typing people beside relaxed bots got a line in on 181 of 191 bubbles in 150
#: games at 4 seats; with 1.2 on 186, and no more rounds were lost on time.)
CARD_TIME = 1.2
#: A teammate that let the bubble go by without a word after it showed this long (the
#: hold, less a margin) is *quiet*: talk is not held open for it again that game.
QUIET_AFTER = TALK_HOLD - 0.5


def talk_hold(time_left: float | None, cards_left: int, slowest: float) -> float:
    """How long (seconds) the holder of the speech bubble keeps it after it showed while
    a teammate has not talked: ``TALK_HOLD``, less whatever the ``cards_left`` need of
    the ``time_left`` on the timer then (``None``: untimed), ``CARD_TIME`` times the
    bots' ``slowest`` reaction each. (The app tells a person this wait, so it is one
    function for both.)"""
    if time_left is None:
        return TALK_HOLD
    return min(TALK_HOLD, max(0.0, time_left - cards_left * CARD_TIME * slowest))


def arrange_pile(hand: Sequence[dict[str, Any]]) -> list[int]:
    """A legal pile (card ids, top first) for a hand of plain cards.

    Numbers ascending, lowest on top; specials right under the top number and spread
    out, one per gap between numbers, in ``SPECIAL_ORDER``; any left over go round the
    gaps again. Raises ``ValueError`` for a hand without a number card.
    """
    numbers = sorted(
        (c for c in hand if c["kind"] == "number"), key=lambda c: (c["value"], c["id"])
    )
    if not numbers:
        raise ValueError("a hand without a number card cannot be arranged")
    specials = sorted(
        (c for c in hand if c["kind"] != "number"),
        key=lambda c: (SPECIAL_ORDER.index(c["kind"]) if c["kind"] in SPECIAL_ORDER else 9,
                       c["id"]),
    )
    gaps: list[list[int]] = [[] for _ in numbers]  # gaps[i]: specials right under number i
    for k, card in enumerate(specials):
        gaps[k % len(numbers)].append(card["id"])
    pile: list[int] = []
    for number, under in zip(numbers, gaps, strict=True):
        pile.append(number["id"])
        pile += under
    return pile


@dataclass
class _Intent:
    """Something the bot wants to do, and when it may do it."""

    action: Action
    due: float


class GetItBot:
    """A Get It! player with a human-like reaction time; see the module docstring.

    ``reaction`` and ``jitter`` (seconds) set how long after noticing something it acts:
    ``reaction`` plus a seeded uniform draw in ``[-jitter, jitter]``. ``settle`` is how
    long after a play an unchanged signal is taken to be about the new card (default
    ``2 * (reaction + jitter) + 0.2``); ``fresh`` how soon after a play a changed signal
    is believed; ``motor`` the least time between two of its actions. ``patient``
    (default: only at a relaxed table) makes it wait for a person's signal about a card
    for that person's settle time before playing the card without it.
    """

    def __init__(
        self,
        seed: int = 0,
        reaction: float | None = None,
        jitter: float | None = None,
        *,
        settle: float | None = None,
        fresh: float = 0.15,
        motor: float = 0.1,
        patient: bool | None = None,
    ) -> None:
        if (reaction is not None and reaction < 0) or (jitter is not None and jitter < 0) \
                or fresh < 0 or motor < 0:
            raise ValueError("reaction, jitter, fresh and motor must not be negative")
        self.rng = random.Random(seed)
        #: Reaction and jitter not given: they follow the table's ``bots`` option in the
        #: view (:data:`PACES`), read at every step.
        self._paced = reaction is None and jitter is None and settle is None
        self._pace = "quick"
        quick_reaction, quick_jitter = PACES["quick"]
        self._set_pace(quick_reaction if reaction is None else reaction,
                       quick_jitter if jitter is None else jitter, settle)
        self.fresh = fresh
        self.motor = motor
        #: Whether it gives a teammate not proven quick (a person) time to signal about a
        #: card before playing it without that signal; by default as the table's pace
        #: says (relaxed: yes).
        self._patient = patient
        self._round: tuple[Any, ...] | None = None
        self._phase: str | None = None
        self._intents: dict[str, _Intent] = {}
        self._free_at = float("-inf")
        self._ticks = 0.0
        self._clock: float | None = None  # the ``now`` of the last step()
        # How long each teammate took to change a signal after a play (recent ones):
        # a slow teammate's unchanged signal is trusted only after its own pace.
        self._latency: dict[int, deque[float]] = {}
        self._settling: dict[int, float] = {}  # since the last play, by seat
        self._settle_cache: dict[int, float] = {}  # settle_for, until paces change
        # Teammates seen to signal against the cards (for the rest of the game).
        self._doubts: set[int] = set()
        # Teammates that let a bubble held open for them go by without a word (for the
        # rest of the game): talk is not held open for them again.
        self._quiet: set[int] = set()
        self._obs = 0  # views observed: orders changes seen at one instant
        self._reset_round(float("-inf"))

    # ------------------------------------------------------------------ public API

    def _set_pace(self, reaction: float, jitter: float, settle: float | None = None) -> None:
        self.reaction = reaction
        self.jitter = jitter
        self.settle = settle if settle is not None else settle_time(reaction, jitter)
        self._settle_cache = {}

    def _follow_pace(self, view: View) -> None:
        """A bot made without timings reacts at the table's pace (``bots`` in the view)."""
        pace = view.get("bots", "quick")
        if self._paced and pace != self._pace and pace in PACES:
            self._pace = str(pace)
            self._set_pace(*PACES[self._pace])

    @property
    def patient(self) -> bool:
        """Whether it gives people time to signal before it plays (see the module
        docstring): as made, else only at a relaxed table."""
        return self._patient if self._patient is not None else self._pace == "relaxed"

    def step(
        self, view: View, legal: Sequence[Action], now: float
    ) -> tuple[Action | None, float | None]:
        """What to do at ``now``: ``(action or None, when to be asked again or None)``.

        Call it whenever the view changes and again at the time it asks for. The action,
        if any, is one of ``legal`` (a ``say`` carries a short text).
        """
        self._follow_pace(view)
        self._clock = now
        self._observe(view, now)
        wanted = self._wanted(view, legal, now, clocked=True)
        for key in list(self._intents):
            if key not in wanted:
                del self._intents[key]
        for key, (action, _) in wanted.items():
            held = self._intents.get(key)
            if held is not None and key == "say":
                held.action = action  # the line names what shows when it is said
            elif held is None or held.action != action:
                self._intents[key] = _Intent(action, now + self._reaction_time())
        ready: list[tuple[float, str]] = []
        for key, intent in self._intents.items():
            gate = wanted[key][1]
            ready.append((max(intent.due, gate, self._free_at), key))
        due_now = [key for at, key in ready if at <= now]
        if due_now:
            key = min(due_now, key=PRIORITY.index)
            action = self._intents.pop(key).action
            self._free_at = now + self.motor
            self._acted(key, action, now)
            later = [at for at, k in ready if k != key]
            return action, (max(min(later), self._free_at) if later else None)
        return None, (min(at for at, _ in ready) if ready else None)

    def choose(self, view: View, legal: Sequence[Action]) -> Action | None:
        """The action it would take right now, as if its reaction time had passed.

        It takes the time to be that of the last :meth:`step` call. A bot never given a
        clock counts calls instead, and its stale-signal guard then trusts only signals
        that changed after the last play their giver saw (it cannot wait for them to
        settle); so for real-time play use :meth:`step`, and this for turn-free moments
        such as arranging or moving on to the next round.
        """
        clocked = self._clock is not None
        if self._clock is not None:
            now = self._clock
        else:
            self._ticks += 1.0
            now = self._ticks
        self._observe(view, now)
        wanted = self._wanted(view, legal, now, clocked=clocked)
        for key in PRIORITY:
            if key in wanted and wanted[key][1] <= now:
                action = wanted[key][0]
                self._acted(key, action, now)
                return action
        return None

    # ------------------------------------------------------------------ what it notices

    def _reset_round(self, now: float) -> None:
        self._played = 0
        self._last_play = now
        self._play_seen = self._obs
        self._counts: list[int] | None = None  # each pile's count, to tell who played
        # By signaller: when the cards it sees last changed (a play by someone else).
        self._sees_since: dict[int, float] = {}
        self._signals: dict[tuple[int, str], tuple[Any, float, int]] = {}
        self._talkers: set[int] = set()
        # Teammates that gave a signal (any kind) this round.
        self._signalled: set[int] = set()
        self._said = False
        self._lines: list[dict[str, Any]] = []
        self._known: tuple[dict[str, Any], int] | None = None  # peeked: (face, my count)
        self._told: tuple[dict[str, Any] | None, int] | None = None  # read in a line
        self._mirror_at: float | None = None  # since when a peek proves I hold the mirror
        self._bubble_at: float | None = None  # since when talk proves I hold the bubble
        self._top_at = now  # since when my top card shows to the others
        self._bubble_seen_at: float | None = None  # since when a bubble shows elsewhere
        # Said in a line, by speaker: the seat it named as the next to play (itself, for
        # "me") and when; it stands like a look until that seat plays.
        self._pointed: dict[int, tuple[int, float]] = {}
        # "Not me" from a seat showing a number: (that seat, its number, its count, my
        # count), while both piles are unchanged: a lower card lies somewhere, maybe
        # only on mine.
        self._below: tuple[int, int, int, int] | None = None

    def _observe(self, view: View, now: float) -> None:
        key = (view.get("level"), view.get("attempt"), view.get("round"))
        self._obs += 1
        if key != self._round:
            self._round = key
            self._reset_round(now)
            self._intents.clear()
        me = view.get("seat")
        all_signals = view.get("signals") or []
        phase = view.get("phase")
        played = len(view.get("played") or [])
        cards_changed = False
        counts = [int(p.get("count") or 0) for p in view.get("piles") or []]
        if phase != self._phase or played != self._played:
            # New cards show: the signals on the table are about the old ones.
            old = self._counts
            if old is not None and len(old) == len(counts):
                # A play ends what was said naming its player, as it ends the looks at it.
                gone = {h for h, (was, left) in enumerate(zip(old, counts, strict=True))
                        if left < was}
                self._pointed = {s: p for s, p in self._pointed.items() if p[0] not in gone}
                self._note_quiet(view, gone, now)
            if phase != self._phase or (me is not None and old is not None
                                        and len(old) == len(counts) and counts[me] < old[me]):
                self._top_at = now
            self._note_players(counts, now, everyone=phase != self._phase)
            self._phase, self._played = phase, played
            self._last_play = now
            self._play_seen = self._obs
            self._commit_paces()
            cards_changed = True
        self._counts = counts
        for seat, signals in enumerate(all_signals):
            for kind in (*SIGNAL_KINDS, "peek"):
                value = signals.get(kind)
                seen = self._signals.get((seat, kind))
                if seen is None or seen[0] != value:
                    self._signals[(seat, kind)] = (value, now, self._obs)
                    if value is not None and value is not False:
                        self._signalled.add(seat)
                    if seen is not None:
                        self._note_response(seat, now)
        if me is None or phase != "play":
            return
        count = view["piles"][me]["count"]
        self._read_lines(view, me, count, now, fresh=not cards_changed)
        peek = view.get("peek")
        if peek is not None:
            self._known = (dict(peek), count)
        self._check_signals(view, me)
        tops = tops_seen(view)
        kinds = {c["kind"] for c in tops.values()}
        if "speech" in kinds and self._bubble_seen_at is None:
            self._bubble_seen_at = now
        others = [s for s in range(len(all_signals)) if s != me]
        # Only a seat that sees a mirror may peek, only one that sees the bubble may talk,
        # and there is one of each: if someone does and I see none, it lies on my pile.
        peeking = count and "mirror" not in kinds and any(all_signals[s]["peek"] for s in others)
        self._mirror_at = (self._mirror_at if self._mirror_at is not None else now) \
            if peeking else None
        played_kinds = {c.get("kind") for c in view.get("played") or []}
        talking = (count and "speech" not in kinds and "speech" not in played_kinds
                   and bool(self._talkers - {me}))
        self._bubble_at = (self._bubble_at if self._bubble_at is not None else now) \
            if talking else None

    def _note_quiet(self, view: View, players: set[int], now: float) -> None:
        """When the bubble is played after it showed ``TALK_HOLD`` seconds, the seats
        that could talk and did not are quiet: a person who does not type."""
        played = view.get("played") or []
        if not played or played[-1].get("kind") != "speech" or len(players) != 1:
            return
        (holder,) = players
        shown = self._top_at if holder == view.get("seat") else self._bubble_seen_at
        if shown is not None and now - shown >= QUIET_AFTER:
            self._quiet |= {s for s in range(len(view["piles"]))
                            if s not in (holder, view.get("seat")) and s not in self._talkers}

    def _note_players(self, counts: list[int], now: float, everyone: bool) -> None:
        """Note when each seat last saw the cards change: at a play by another seat (a
        seat never sees its own pile, so its own play changes nothing it sees, and what
        it signalled before it is still about the cards showing), or for ``everyone``
        (a new phase)."""
        old = self._counts
        if everyone or old is None or len(old) != len(counts):
            self._sees_since = {seat: now for seat in range(len(counts))}
            return
        players = {h for h, (was, left) in enumerate(zip(old, counts, strict=True))
                   if left < was}
        for seat in range(len(counts)):
            if players - {seat}:
                self._sees_since[seat] = now

    def _read_lines(self, view: View, me: int, count: int, now: float, fresh: bool) -> None:
        """Take in the lines said since the last view: who talks, what they tell me
        about my own top card (see :func:`told_face`) and whom they name as the next to
        play (see :func:`told_pointer`)."""
        lines = [dict(line) for line in view.get("said") or []]
        prev = self._lines
        new = lines
        for drop in range(len(prev) + 1):  # the view keeps only the latest lines
            if lines[: len(prev) - drop] == prev[drop:]:
                new = lines[len(prev) - drop:]
                break
        self._lines = lines
        for line in new:
            speaker = line.get("seat")
            if not isinstance(speaker, int):
                continue
            self._talkers.add(speaker)
            if speaker == me:
                self._said = True
                continue
            if not fresh or not isinstance(line.get("text"), str):
                continue  # seen with a play: maybe said about a card just played
            self._read_pointer(view, speaker, count, now, line["text"])
            face = told_face(line["text"], view, speaker)
            if face is None:
                continue
            told = self._told
            if told is not None and told[1] == count and told[0] != face:
                self._told = (None, count)  # two lines disagree: believe neither
            elif told is None or told[1] != count:
                self._told = (face, count)

    def _read_pointer(self, view: View, speaker: int, count: int, now: float,
                      text: str) -> None:
        """A line naming the next to play stands as the speaker's look; "not me" from a
        seat showing a number says a lower card lies somewhere."""
        piles = view["piles"]
        pointer = told_pointer(text, len(piles), speaker)
        if pointer == NOT_ME:
            self._pointed.pop(speaker, None)
            top = piles[speaker].get("top")
            if isinstance(top, dict) and top.get("kind") == "number":
                self._below = (speaker, top["value"], piles[speaker]["count"], count)
        elif pointer is not None:
            self._pointed[speaker] = (pointer, now)

    def _check_signals(self, view: View, me: int) -> None:
        """Doubt a teammate seen signalling against what the cards show.

        A signal given since the last play is about the cards showing now; if it points
        at a card that the rulebook's conventions cannot mean (a look at a number while
        a lower one shows elsewhere, a look at a special card, a smile at no smile, a
        look past no eyes), its giver reads the table wrongly or late, as a person may.
        """
        tops = tops_seen(view)
        for seat, signals in enumerate(view["signals"]):
            if seat == me or seat in self._doubts:
                continue
            for kind in SIGNAL_KINDS:
                target = signals[kind]
                if target is None or target == me or target not in tops:
                    continue
                if self._signals[(seat, kind)][2] <= self._play_seen:
                    continue  # maybe about a card played since
                card = tops[target]
                if kind == "smile":
                    wrong = card["kind"] != "smile"
                elif kind == "look_past":
                    wrong = card["kind"] != "eyes"
                else:
                    wrong = card["kind"] != "number" or any(
                        c["kind"] == "number" and c["value"] < card["value"]
                        for h, c in tops.items() if h != seat
                    )
                if wrong:
                    self._doubts.add(seat)

    def _note_response(self, seat: int, now: float) -> None:
        """Note that ``seat`` changed a signal ``now``: how long after the last play its
        signals came to rest is recorded at the next play (its *last* change counts, so
        a late, stale signal corrected a moment later counts as the correction)."""
        if now > self._last_play:
            self._settling[seat] = now - self._last_play

    def _commit_paces(self) -> None:
        for seat, took in self._settling.items():
            self._latency.setdefault(seat, deque(maxlen=PACE_KEPT)).append(took)
        self._settling = {}
        self._settle_cache.clear()

    def settle_for(self, seat: int) -> float:
        """How long after a play ``seat``'s unchanged signal is taken to be about the new
        card: ``settle``, or longer for a teammate seen to react slowly (at most
        ``SETTLE_CAP`` seconds)."""
        cached = self._settle_cache.get(seat)
        if cached is not None:
            return cached
        pace = self._latency.get(seat)
        if not pace or len(pace) < PROVEN_AFTER:
            # Too little seen yet: allow for a person's pace until it shows.
            settle = min(SETTLE_CAP, max(self.settle, UNKNOWN_SETTLE))
        else:
            # The slowest seen, plus the margin, plus the spread when the pace varies (a
            # person's does): a few samples rarely show the slow tail.
            slowest = max(pace) + PACE_MARGIN + statistics.pstdev(pace)
            settle = min(SETTLE_CAP, max(self.settle, slowest))
        self._settle_cache[seat] = settle
        return settle

    def _reaction_time(self) -> float:
        return max(0.0, self.reaction + self.rng.uniform(-self.jitter, self.jitter))

    def _acted(self, key: str, action: Action, now: float) -> None:
        if key == "say":
            self._said = True

    def proven(self, seat: int) -> bool:
        """Whether ``seat`` has shown itself a quick, exact signaller, as quick as this
        bot: its signals came to rest within ``reaction + jitter + 3 * motor`` (+ 0.05 s)
        of each of the last ``PROVEN_AFTER`` or more plays, and it was never seen to
        signal against the cards. A bot, say; rarely a person."""
        pace = self._latency.get(seat)
        quick = self.reaction + self.jitter + 3 * self.motor + 0.05
        return (bool(pace) and len(pace or ()) >= PROVEN_AFTER and max(pace or ()) <= quick
                and seat not in self._doubts)

    def doubted(self, seat: int) -> bool:
        """Whether ``seat`` was seen to be no quick, exact signaller: it signalled against
        the cards, or was timed often enough and found slower than :meth:`proven` asks.
        (A teammate not yet timed is neither proven nor doubted.)"""
        pace = self._latency.get(seat)
        return seat in self._doubts or (
            len(pace or ()) >= PROVEN_AFTER and not self.proven(seat)
        )

    def _trusted_at(
        self, seat: int, kind: str, now: float, clocked: bool, hold: bool = False
    ) -> float:
        """From when ``seat``'s current ``kind`` signal may be believed. With ``hold`` (a
        doubted teammate, whose vote is needed) the signal must also have stayed put for
        ``HOLD_FACTOR`` times that teammate's settle time, long enough for it to notice
        and correct a slip."""
        since = self._since(seat, kind)
        if kind == "look" and self._pointing(seat) is not None:
            hold = False  # a typed line is no slip of the hand
        settle = self.settle_for(seat) * (HOLD_FACTOR if hold else 1.0)
        changed = self._sees_since.get(seat, self._last_play)
        if since >= changed + (self.fresh if clocked else 0.5):
            at = since
        else:
            at = changed + settle if clocked else float("inf")
        if hold:
            at = max(at, since + settle) if clocked else float("inf")
        return at

    # ------------------------------------------------------------------ what it wants

    def _wanted(
        self, view: View, legal: Sequence[Action], now: float, clocked: bool
    ) -> dict[str, tuple[Action, float]]:
        """Each intent the view calls for, with the earliest time a gate allows it."""
        types = {a.get("type") for a in legal}
        wanted: dict[str, tuple[Action, float]] = {}
        phase = view.get("phase")
        if phase == "prepare" and "arrange" in types and view.get("hand"):
            wanted["arrange"] = ({"type": "arrange", "pile": arrange_pile(view["hand"])}, now)
        elif phase == "round_over" and "next_round" in types:
            wanted["next_round"] = ({"type": "next_round"}, now)
        elif phase == "play" and view.get("seat") is not None:
            self._want_signals(view, legal, wanted, now)
            play = self._play_gate(view, now, clocked)
            if play is not None and {"type": "play"} in legal:
                wanted["play"] = ({"type": "play"}, play)
        return wanted

    def _want_signals(
        self, view: View, legal: Sequence[Action], wanted: dict[str, tuple[Action, float]],
        now: float,
    ) -> None:
        me = view["seat"]
        tops = tops_seen(view)
        mine = view["signals"][me]
        holders = {kind: sorted(h for h, c in tops.items() if c["kind"] == kind)
                   for kind in ("smile", "eyes", "mirror", "speech")}
        special_seen = any(c["kind"] != "number" for c in tops.values())
        numbers = {h: c["value"] for h, c in tops.items() if c["kind"] == "number"}
        targets: dict[str, int | None] = {
            "look": None if special_seen or not numbers else lowest_seat(numbers),
            "smile": holders["smile"][0] if holders["smile"] else None,
            "look_past": holders["eyes"][0] if holders["eyes"] else None,
        }
        for kind, target in targets.items():
            action = {"type": kind, "target": target}
            if mine[kind] != target and action in legal:
                wanted[kind] = (action, now)
        if holders["mirror"] and {"type": "peek", "on": True} in legal:
            wanted["peek"] = ({"type": "peek", "on": True}, now)
        if holders["speech"] and not self._said and any(a.get("type") == "say" for a in legal):
            wanted["say"] = ({"type": "say", "text": _describe_tops(tops)}, now)

    def _play_gate(self, view: View, now: float, clocked: bool) -> float | None:
        """When playing the top card is believed right (``None``: not now)."""
        me = view["seat"]
        piles = view["piles"]
        count = piles[me]["count"]
        if not count:
            return None
        others = [s for s in range(len(piles)) if s != me]
        if not any(piles[s]["count"] for s in others):
            # Every other pile is empty: my top card is the next one, whatever the
            # signals say (a person with nothing left may give none); a bubble, as
            # talk shows, still waits for the people to talk, and while the bubble may
            # be mine, the bots are given their time to start talking.
            if self._bubble_at is not None:
                return self._bubble_hold(view, others, now)
            played_kinds = {c.get("kind") for c in view.get("played") or []}
            if (view.get("level") in BUBBLE_LEVELS and "speech" not in played_kinds
                    and not all(self.proven(s) or s in self._quiet for s in others)):
                return max(now, self._top_at + max(self.settle_for(s) for s in others))
            return now
        tops = tops_seen(view)
        special_seen = any(c["kind"] != "number" for c in tops.values())
        numbers = [c["value"] for c in tops.values() if c["kind"] == "number"]
        signals = view["signals"]
        known = self._known[0] if self._known and self._known[1] == count else None
        if known is not None:
            if known["kind"] == "speech":
                return self._bubble_hold(view, others, now)
            if known["kind"] != "number":
                return self._patience(view, known["kind"], others, now)
            lowest = not special_seen and all(known["value"] <= v for v in numbers)
            return self._patience(view, "number", others, now) if lowest else None
        told = self._told[0] if self._told and self._told[1] == count else None
        # What a teammate says it sees: play on it when it is right; when it says the card
        # is too high, the signals still decide (a person may mistype).
        # A bubble it is told of waits like one it works out: the others may want to talk.
        if told is not None and told["kind"] != "speech" and (
            told["kind"] != "number"
            or (not special_seen and all(told["value"] <= v for v in numbers))
        ):
            return self._patience(view, told["kind"], others, now)
        if self._lowest_by_talk(view, count, special_seen, numbers):
            return self._patience(view, "number", others, now)
        if all(signals[s]["peek"] for s in others):
            return now  # only the mirror's holder cannot peek
        played_kinds = {c.get("kind") for c in view.get("played") or []}
        if "speech" not in played_kinds and all(s in self._talkers for s in others):
            return now  # only the bubble's holder cannot talk
        gates = []
        if self._mirror_at is not None:
            # Give everyone time to peek: each seat that peeks learns its own card.
            waiting = [s for s in others if not signals[s]["peek"]]
            gates.append(self._grace(self._mirror_at, waiting, everyone=True))
        if self._bubble_at is not None:
            # The proven teammates are waited for their settle time; one that has not
            # talked (a person typing) while talk is held open (see _talk_until).
            waiting = [s for s in others if s not in self._talkers]
            gates.append(max(self._grace(self._bubble_at, waiting, everyone=False),
                             self._bubble_hold(view, others, now)))
        for kind, card in (("smile", "smile"), ("look_past", "eyes"), ("look", "number")):
            if kind == "look" and special_seen:
                continue
            voted = self._vote(view, kind, others, now, clocked)
            if voted is not None:
                gates.append(max(voted, self._patience(view, card, others, now)))
        return min(gates) if gates else None

    def _lowest_by_talk(
        self, view: View, count: int, special_seen: bool, numbers: list[int]
    ) -> bool:
        """Whether a teammate's "not me" says my card is the lowest: it shows the lowest
        number I see, a lower card lies somewhere, and only mine is hidden from me."""
        below = self._below
        if below is None or special_seen or below[3] != count:
            return False
        speaker, value, their_count, _ = below
        pile = view["piles"][speaker]
        return pile["count"] == their_count and all(value <= v for v in numbers)

    def _patience(self, view: View, card: str, others: list[int], now: float) -> float:
        """The earliest a patient bot plays a ``card`` kind of card it believes its own
        without waiting for the signal a person would give about it: each teammate not
        proven quick that has not signalled since the cards it sees last changed gets
        its settle time from that change (``now`` for an impatient bot). A peek or a
        line needs no such wait: the mirror and bubble wait for them already."""
        kind = {"number": "look", "smile": "smile", "eyes": "look_past"}.get(card)
        if not self.patient or kind is None:
            return now
        me = view["seat"]
        at = now
        for seat in others:
            if self.proven(seat) or self._target(view, seat, kind) == me:
                continue
            changed = self._sees_since.get(seat, self._last_play)
            if self._since(seat, kind) >= changed + self.fresh:
                continue  # it signalled about these cards, and chose another seat
            at = max(at, changed + self.settle_for(seat))
            looked, looked_at, _ = self._signals.get((seat, "look"), (None, 0.0, 0))
            if kind != "look" and looked == me and looked_at >= changed:
                # A look at me since: the first key of a smile or look past, which a
                # person aims at the seat it looks at. The second key gets its time too
                # (the bots played the smile between a person's two keys).
                at = max(at, looked_at + self.settle_for(seat))
        return at

    def _bubble_hold(self, view: View, others: list[int], now: float) -> float:
        """When to play the speech bubble known to be mine: now, or once talk was held
        open for the teammates that have not talked. A bot talks within its reaction; a
        teammate that has not is a person typing, even one whose signals are as quick
        as a bot's (proven: a person's 1 s reaction often is, at 3 seats)."""
        if all(s in self._talkers or s in self._quiet for s in others):
            return now
        return max(now, self._talk_until(view))

    def _talk_until(self, view: View) -> float:
        """Until when the holder of the speech bubble keeps it for people still to
        talk: ``TALK_HOLD`` after it showed, less whatever the cards left need of the
        timer (``CARD_TIME`` reactions each)."""
        deadline = view.get("deadline")
        left = sum(int(p.get("count") or 0) for p in view["piles"])
        return self._top_at + talk_hold(
            deadline - self._top_at if isinstance(deadline, int | float) else None,
            left, self.reaction + self.jitter)

    def _vote(
        self, view: View, kind: str, others: list[int], now: float, clocked: bool
    ) -> float | None:
        """When the ``kind`` signals on the table say that my top card is to be played.

        Every teammate not doubted (see :meth:`doubted`) must signal me; doubted ones
        may be left out. The signallers counted must *cover* the table: a correct look at me
        says my card is lower than every pile but the looker's own, so two lookers cover
        every pile, and one proven looker does if its own card is no lower than a card
        it vouched for (a proven smile or look-past at me needs no help: it sees my
        card). A signal of a doubted teammate counts only once it stayed put for that
        teammate's settle time, time enough to notice and correct a slip.
        """
        me = view["seat"]
        tops = tops_seen(view)
        # A teammate that shows no signal (none this round, or every one it gave ended
        # with the card it was about) abstains once it had ``SILENT_AFTER`` since the
        # cards it sees changed: the bots waited for a silent newcomer's look until the
        # round ran out. (One that signals is waited for as ever: it may be about to
        # look.)
        # A look is no vote for a special card (it may be about my number). A proven
        # teammate's look at me says no (quick and exact, it looks at no number while it
        # sees a special); another's may be a person's first key of a smile whose second
        # (s, x) never came, or a look at whoever is to play: it held a smile until the
        # round ran out. It is not waited for (a patient bot gives the second key its time
        # first: see _patience). A look elsewhere cannot say no to a special card, which
        # goes before every number: one who gives only that abstains as a silent one.
        looking = [] if kind == "look" else [
            s for s in others if self._target(view, s, kind) is None
            and self._target(view, s, "look") == me and not self.proven(s)]
        silent = [s for s in others if not self.doubted(s) and (
                      (kind != "look" and self._target(view, s, "look") != me)
                      or s not in self._signalled
                      or all(self._target(view, s, k) is None for k in SIGNAL_KINDS))
                  and self._target(view, s, kind) is None]
        abstain = max((self._sees_since.get(s, self._last_play) + SILENT_AFTER
                       for s in silent), default=float("-inf"))
        required = [s for s in others
                    if not self.doubted(s) and s not in silent and s not in looking]
        if not all(self._target(view, s, kind) == me for s in required):
            return None  # a teammate not doubted disagrees: wait for the table to agree
        extra = sorted(
            (s for s in others if s not in required and self._target(view, s, kind) == me),
            key=lambda s: self._trusted_at(s, kind, now, clocked, hold=self.doubted(s)),
        )

        def covered(group: list[int]) -> bool:
            if len(group) >= 2:
                return True
            if len(group) != 1 or not self.proven(group[0]):
                return False
            if kind != "look":
                return True
            own = tops.get(group[0])
            vouched = [tops[s]["value"] for s in others if s != group[0] and s in tops
                       and tops[s]["kind"] == "number"]
            return (own is not None and own["kind"] == "number" and bool(vouched)
                    and own["value"] >= min(vouched))

        group = list(required)
        while not covered(group):
            if not extra:
                return None
            group.append(extra.pop(0))
        trusted = max(
            (self._trusted_at(s, kind, now, clocked, hold=self.doubted(s)) for s in group),
            default=None,
        )
        return None if trusted is None else max(trusted, abstain)

    def _pointing(self, seat: int) -> tuple[int, float] | None:
        """The seat ``seat`` named in a line as the next to play, and when, unless it
        has looked somewhere since (the later of the two stands)."""
        pointed = self._pointed.get(seat)
        look = self._signals.get((seat, "look"))
        if pointed is None or (look is not None and look[1] > pointed[1]):
            return None
        return pointed

    def _target(self, view: View, seat: int, kind: str) -> Any:
        """Whom ``seat``'s ``kind`` signal points at: for a look, the seat it named in a
        line if it did so since it last looked."""
        pointed = self._pointing(seat) if kind == "look" else None
        return pointed[0] if pointed is not None else view["signals"][seat][kind]

    def _since(self, seat: int, kind: str) -> float:
        """Since when ``seat``'s ``kind`` signal (or, for a look, its line) stands."""
        pointed = self._pointing(seat) if kind == "look" else None
        return pointed[1] if pointed is not None else self._signals[(seat, kind)][1]

    def _grace(self, since: float, waiting: list[int], everyone: bool) -> float:
        """When to play a special card known (since ``since``) to be mine, though the
        ``waiting`` teammates have not yet peeked or talked: once each had its settle
        time (at most ``SETTLE_CAP``) to do it; only proven ones are waited for unless
        ``everyone``."""
        if not everyone:
            waiting = [s for s in waiting if self.proven(s)]
        return since + min(SETTLE_CAP, max((self.settle_for(s) for s in waiting), default=0.0))

def tops_seen(view: View) -> dict[int, dict[str, Any]]:
    """The top cards a seat's view shows on the other seats' piles, by holder."""
    me = view["seat"]
    return {
        h: p["top"] for h, p in enumerate(view["piles"]) if h != me and p.get("top") is not None
    }


def lowest_seat(numbers: dict[int, int]) -> int:
    """The seat showing the lowest number; on a tie the lowest seat number."""
    return min(numbers, key=lambda h: (numbers[h], h))


def _describe_tops(tops: dict[int, dict[str, Any]]) -> str:
    """A short line naming the card on top of each pile the bot sees, seats numbered
    from 1 as people see them (and as :func:`told_face` reads them)."""
    parts = [
        f"seat {h + 1}: {c['value'] if c['kind'] == 'number' else c['kind']}"
        for h, c in sorted(tops.items())
    ]
    return ("I see " + ", ".join(parts))[:SAY_LIMIT] if parts else "I see no cards"


#: Words for the special cards in what people type, by kind.
KIND_WORDS = {"smile": "smile", "smiles": "smile", "eyes": "eyes", "eye": "eyes",
              "mirror": "mirror", "speech": "speech", "bubble": "speech"}
#: "seat 3: 17", "bot 2 has smile", "player 4 = 9": a card named with its holder.
_NAMED = re.compile(
    r"\b(?:seat|bot|player)\s*#?(\d+)\s*(?::|=|-|has|is|shows|holds)?\s*"
    r"(\d+|" + "|".join(KIND_WORDS) + r")\b"
)
#: "17 on seat 3", "a smile at bot 2": the same, the card first.
_NAMED_AFTER = re.compile(
    r"\b(\d+|" + "|".join(KIND_WORDS) + r")\s+(?:on|at|for)\s+(?:seat|bot|player)\s*#?(\d+)\b"
)
_SEAT = re.compile(r"\b(?:seat|bot|player)\s*#?(\d+)\b")
#: "not me", "isn't me", "not mine": the speaker's own card is not the next.
_NOT_ME = re.compile(r"\b(?:not|isn't|isnt)\s+(?:me|mine)\b")
_ME = re.compile(r"\b(?:me|mine)\b")
#: What :func:`told_pointer` returns for "not me".
NOT_ME = -1
_TOKEN = re.compile(r"\d+|[a-z]+")


def _face(word: str) -> dict[str, Any] | None:
    if word.isdigit():
        value = int(word)
        return {"kind": "number", "value": value} if 1 <= value <= 40 else None
    kind = KIND_WORDS.get(word)
    return {"kind": kind} if kind else None


def _same(card: dict[str, Any], face: dict[str, Any]) -> bool:
    return card.get("kind") == face["kind"] and (
        face["kind"] != "number" or card.get("value") == face["value"]
    )


def told_face(text: str, view: View, speaker: int) -> dict[str, Any] | None:
    """What a line said by ``speaker`` tells this view's seat about its own top card.

    The speaker sees every top card but its own, so what it names are claims about the
    other piles, this seat's included. Cards named with a seat ("seat 3: 17", seats
    numbered from 1) are read as such: one naming this seat is the answer, and a line
    whose other named cards do not match the table is taken to be about cards played
    since and ignored. Other numbers and card words ("12", "I see 17 and 23", "a
    smile") are matched against the top cards this seat sees on the piles other than
    the speaker's and its own, and against the cards played this round; if exactly one
    card named is left over, it can only lie on this seat's pile. Returns the face
    (``{"kind": "number", "value": 17}`` or ``{"kind": "smile"}``) or ``None`` when the
    line tells nothing sure.
    """
    me = view["seat"]
    tops = tops_seen(view)
    lowered = text.lower()
    answer: dict[str, Any] | None = None
    for seat_word, card_word in _named(lowered):
        face = _face(card_word)
        if face is None:
            continue
        seat = int(seat_word) - 1
        if seat == me:
            if answer is not None and answer != face:
                return None
            answer = face
        elif seat in tops and seat != speaker and not _same(tops[seat], face):
            return None  # about a card since played
    if answer is not None:
        return answer
    rest = _SEAT.sub(" ", _unnamed(lowered))
    claims = [f for w in _TOKEN.findall(rest) if (f := _face(w))]
    if not claims:
        return None
    accounted = [c for h, c in tops.items() if h != speaker]
    accounted += list(view.get("played") or [])
    left = []
    for face in claims:
        match_at = next((i for i, c in enumerate(accounted) if _same(c, face)), None)
        if match_at is None:
            left.append(face)
        else:
            del accounted[match_at]
    return left[0] if len(left) == 1 else None


def _named(lowered: str) -> list[tuple[str, str]]:
    """(seat number, card word) of each card named with its holder, either way round."""
    return [(m.group(1), m.group(2)) for m in _NAMED.finditer(lowered)] + [
        (m.group(2), m.group(1)) for m in _NAMED_AFTER.finditer(lowered)]


def _unnamed(lowered: str) -> str:
    """The line without the cards named with their holders."""
    return _NAMED_AFTER.sub(" ", _NAMED.sub(" ", lowered))


def told_pointer(text: str, seats: int, speaker: int) -> int | None:
    """The seat a line by ``speaker`` names as the next to play, or :data:`NOT_ME`.

    "Bot 3", "seat 3" or "player 3" (seats numbered from 1) name that seat; "me" or
    "mine" the speaker itself; "not me" says the speaker's own card is not the next
    (:data:`NOT_ME`). Cards named with their holders ("seat 3: 17") are claims about
    cards (:func:`told_face`), not a name. ``None`` when the line names no single seat.
    (People's names are not in a seat's view, so a name other than "Bot N" is not read.)
    """
    rest = _unnamed(text.lower())
    if _NOT_ME.search(rest):
        return NOT_ME
    named = {int(m.group(1)) - 1 for m in _SEAT.finditer(rest)}
    named = {seat for seat in named if 0 <= seat < seats}
    if _ME.search(rest):
        named.add(speaker)
    return named.pop() if len(named) == 1 else None

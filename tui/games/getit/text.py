"""Get It! in words: card faces, the facts of what everyone signals, and log lines.

Pure functions of the view (plain data as the host sends it), so they can be tested
without a screen. Every special card is a word with a one-cell symbol, never a colour
alone; every signal is a verb ("looks at", "smiles at", "looks past").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rich.text import Text

from tui.games.getit.levels import SPECIALS, in_deck, new_at_level
from tui.notices import Namer, listed, seat_index

SIGNAL_VERBS = {"look": "looks at", "smile": "smiles at", "look_past": "looks past"}
#: The same in a word, where a line names the seat first ("YOU: look, smile").
SHORT_SIGNALS = {"look": "look", "smile": "smile", "look_past": "past"}
#: The same, said of a card once played ("smiled at it").
SIGNALLED = {"look": "looked at", "smile": "smiled at", "look_past": "looked past"}


def card_text(card: dict[str, Any] | None) -> str:
    """A card in a few characters: "17", "☺ SMILE" (``?`` when unknown)."""
    if not isinstance(card, dict):
        return "?"
    kind = card.get("kind")
    if kind == "number":
        return str(card.get("value"))
    symbol, word = SPECIALS.get(str(kind), ("?", str(kind).upper()))
    return f"{symbol} {word}"


def card_short(card: dict[str, Any] | None) -> str:
    """A card in one or two cells, for rows of played cards: "17", "☺"."""
    if not isinstance(card, dict):
        return "?"
    if card.get("kind") == "number":
        return str(card.get("value"))
    return SPECIALS.get(str(card.get("kind")), ("?", ""))[0]


def level_text(level: Any) -> str:
    """ "Level 3" or "Level X"."""
    return f"Level {level}"


@dataclass(frozen=True)
class ToYou:
    """What the others are doing to you right now: counts out of ``others``."""

    others: int
    look: int
    smile: int
    look_past: int
    peek: int
    talk: int

    def parts(self) -> list[tuple[str, bool]]:
        """Each fact in words with whether it is unanimous (to be made to jump out).

        Looks are always said (none is a fact worth seeing); the other signals only
        when someone makes them, so the line stays short enough to read at a glance.
        """
        n = self.others

        def of(count: int, verb: str, verb_one: str) -> tuple[str, bool]:
            if n and count == n:
                return (f"all {n} {verb}", True)
            return (f"{count} of {n} {verb_one if count == 1 else verb}", False)

        facts = [of(self.look, "look at you", "looks at you")]
        for count, verb, verb_one in (
            (self.smile, "smile at you", "smiles at you"),
            (self.look_past, "look past you", "looks past you"),
            (self.peek, "peek", "peeks"),
            (self.talk, "talk", "talks"),
        ):
            if count:
                facts.append(of(count, verb, verb_one))
        return facts


def to_you(view: dict[str, Any], talkers: set[int] | None = None) -> ToYou:
    """Count what the other seats do to (or around) the viewing seat: the facts only."""
    me = seat_index(view.get("seat"))
    signals = [s if isinstance(s, dict) else {} for s in view.get("signals") or []]
    others = [s for i, s in enumerate(signals) if i != me]

    def at_me(kind: str) -> int:
        return sum(1 for s in others if me is not None and s.get(kind) == me)

    return ToYou(
        others=len(others),
        look=at_me("look"),
        smile=at_me("smile"),
        look_past=at_me("look_past"),
        peek=sum(1 for s in others if s.get("peek")),
        talk=len({t for t in (talkers or set()) if t != me}),
    )


def signal_lines(signal: dict[str, Any], namer: Namer, me: int | None, *,
                 grouped: bool = False) -> list[str]:
    """What one player signals, a line per signal ("looks at YOU", "peeking"); or
    ``grouped``, a line per seat signalled at ("YOU: look, smile, past"), for a seat card
    with no room for a line each (at 80 × 24 a card holds two: a third signal was lost)."""
    lines: dict[str, list[str]] = {}
    for kind, verb in SIGNAL_VERBS.items():
        target = seat_index(signal.get(kind))
        if target is not None:
            whom = "YOU" if target == me else f"{target + 1} {namer.name(target)}"
            lines.setdefault(whom if grouped else f"{verb} {whom}", []).append(
                SHORT_SIGNALS[kind])
    said = [f"{whom}: {', '.join(words)}" for whom, words in lines.items()] if grouped \
        else list(lines)
    if signal.get("peek"):
        said.append("peeking")
    return said


def my_signals(view: dict[str, Any], namer: Namer) -> str:
    """The viewing seat's own signals in one line, and what the table asks of it now
    (:func:`advice`) after a dash."""
    words = my_signal_words(view, namer)
    said = advice(view)
    if said and words == NO_SIGNAL and said.endswith("(Space)"):
        # ("no signal — all look at you: play…" read as if nobody signalled.)
        return said
    return f"{words} — {said}" if said else words


def my_signal_words(view: dict[str, Any], namer: Namer) -> str:
    """What the viewing seat signals ("looking at Bob · smiling at Bob"), or "no
    signal". (In the imperative, "you (1): look at Bob's 22" read as advice.)"""
    mine = _mine(view)
    parts = []
    for kind, verb in (("look", "looking at"), ("smile", "smiling at"),
                       ("look_past", "looking past")):
        target = seat_index(mine.get(kind))
        if target is not None:
            parts.append(f"{verb} {namer.name(target)}")
            if kind == "look" and (card := top_card(view, target)) is not None:
                parts[-1] += f"'s {card_short(card)}"  # (the card it is about)
    if mine.get("peek"):
        parts.append("peeking")
    return " · ".join(parts) or NO_SIGNAL


#: What our line says while we signal nothing.
NO_SIGNAL = "no signal"


def standing_signals(view: dict[str, Any], namer: Namer) -> str | None:
    """Our signals that stand as we come to the table (``None``: none): a bot's, made
    for us while we were away, or ours from before a crash. Said once as we sit down,
    or Bob came back looking at Ann, which he never chose, and the others took it as
    his."""
    mine = _mine(view)
    parts = [f"{noun} {namer.name(target)}" for kind, noun in (
        ("look", "look at"), ("smile", "smile at"), ("look_past", "look past"))
        if (target := seat_index(mine.get(kind))) is not None]
    if not parts:
        return None
    one = len(parts) == 1
    return (f"Back at the table, your {listed(parts)} still stand{'s' if one else ''} "
            f"(the others see {'it' if one else 'them'}): 0 stops {'it' if one else 'them'}.")


def _mine(view: dict[str, Any]) -> dict[str, Any]:
    me = seat_index(view.get("seat"))
    signals = view.get("signals") or []
    mine = signals[me] if me is not None and me < len(signals) else {}
    return mine if isinstance(mine, dict) else {}


#: The special card each signal is the rulebook's answer to.
SIGNAL_CARDS = {"smile": "smile", "look_past": "eyes", "peek": "mirror", "talk": "speech"}
#: What the others all doing it to us means (RULES.md's conventions): play.
UNANIMOUS = (("smile", "all smile at you"), ("look_past", "all look past you"),
             ("peek", "all peek (you hold the mirror)"),
             ("talk", "all talk (you hold the speech bubble)"), ("look", "all look at you"))


def advice(view: dict[str, Any]) -> str | None:
    """What the table asks of the viewing seat in a round, with the keys, most pressing
    first: play when everyone signals so (or every other pile is empty); the signal a
    special card in sight asks for; with nothing signalled, whom to look at. ``None``
    outside a round, or when nothing is asked."""
    if view.get("phase") != "play":
        return None
    if whom := view.get("paused_for"):  # (the screen's: the table waits for people away)
        return f"the round is paused until {whom} is back"
    me = seat_index(view.get("seat"))
    signals = view.get("signals") or []
    piles = view.get("piles")
    counts = [p.get("count") if isinstance(p, dict) else None
              for p in (piles if isinstance(piles, list) else [])]

    def holds(seat: int) -> bool:
        # Only a player with cards left can be the one to play (the view says how many).
        count = counts[seat] if seat < len(counts) else None
        return not isinstance(count, int) or count > 0  # (unknown: assume it does)

    mine_holds = me is None or holds(me)
    others = [i + 1 for i in range(len(signals)) if i != me and holds(i)]
    if not others and me is not None and me < len(counts) and holds(me):
        return "every other pile is empty: the rest are yours to play (Space)"
    # (``talkers``, the screen's: who talked since the speech bubble showed.)
    talkers = {t for t in view.get("talkers") or () if isinstance(t, int)}
    looks = to_you(view, talkers)
    counted = {"look": looks.look, "smile": looks.smile, "look_past": looks.look_past,
               "peek": looks.peek, "talk": looks.talk}
    for kind, words in UNANIMOUS:
        if looks.others and counted[kind] == looks.others and mine_holds:
            # What the whole table waits for: say the key (a newcomer sat watching).
            return f"{words}: play your top card (Space)"
    if not others:
        return None
    if (special := _special_hint(view, me, _mine(view), me in talkers)) is not None:
        return special
    if (equal := _equal_lowest(view, me)) is not None:
        return equal
    if (lower := _lower_than_our_look(view, me)) is not None:
        return lower
    in_sight = {_top_kind(view, seat) for seat in range(len(counts)) if seat != me}
    for kind, verb, verb_one in (("smile", "smile at you", "smiles at you"),
                                 ("look_past", "look past you", "looks past you"),
                                 ("peek", "peek", "peeks"), ("talk", "talk", "talks")):
        if kind in ("peek", "talk") and SIGNAL_CARDS[kind] in in_sight:
            continue  # (they peek at the mirror we see, or talk of its bubble: not ours)
        if view.get("level") is not None and not in_deck(SIGNAL_CARDS[kind], view["level"]):
            continue  # (no such card at this level: "play when all do" was no advice)
        if counted[kind] and mine_holds:
            # Some, not all (not all have seen it, or one doubts): not yet. ("1 of 3
            # smiles", as the TO YOU line above says it.)
            said = verb_one if counted[kind] == 1 else verb
            return f"{counted[kind]} of {looks.others} {said}: play when all do"
    mine = _mine(view)
    if not mine.get("peek") and all(seat_index(mine.get(kind)) is None
                                    for kind in SIGNAL_VERBS):
        return f"look ({number_ranges(others)}) at who should play"
    return None


def _numbers_in_sight(view: dict[str, Any], me: int | None) -> dict[int, int] | None:
    """Each other pile's number on top, by seat; ``None`` while a special card shows (it
    goes first: its own hint says so)."""
    numbers: dict[int, int] = {}
    for seat in range(len(view.get("piles") or [])):
        top = top_card(view, seat) if seat != me else None
        if top is not None and top.get("kind") != "number":
            return None
        if top is not None and isinstance(top.get("value"), int):
            numbers[seat] = top["value"]
    return numbers


def _equal_lowest(view: dict[str, Any], me: int | None) -> str | None:
    """Two equal numbers the lowest in sight (level 6's doubles), and no special card:
    either may go first (RULES.md), which nothing on screen said (a fresh-eyed pass),
    until we look at one of them."""
    numbers = _numbers_in_sight(view, me) or {}
    low = min(numbers.values(), default=None)
    seats = [seat for seat, value in numbers.items() if value == low]
    if len(seats) < 2 or seat_index(_mine(view).get("look")) in seats:
        return None
    return (f"two {low}s show (on {' and '.join(str(seat + 1) for seat in seats)}): either "
            "may go first; look at one")


def _lower_than_our_look(view: dict[str, Any], me: int | None) -> str | None:
    """When a lower number than the one we look at shows, and no special card: where
    it is (a look stays until its target plays, and one that landed on the card after
    the one meant, or outlived the lowest card, passed for a vote and lost a round)."""
    look = seat_index(_mine(view).get("look"))
    looked = top_card(view, look) if look is not None else None
    if looked is None or looked.get("kind") != "number":
        return None
    numbers = _numbers_in_sight(view, me)
    if not numbers or not isinstance(looked.get("value"), int):
        return None
    low = min(numbers, key=lambda seat: (numbers[seat], seat))
    if numbers[low] >= looked["value"]:
        return None
    # ("player 2" read as a name; "the 3 on 3" as a riddle, where both were 3.)
    return f"the {numbers[low]} on pile {low + 1} is lower: look there ({low + 1})"


def top_card(view: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """The card on top of ``seat``'s pile as the view shows it (or ``None``)."""
    piles = view.get("piles")
    pile = piles[seat] if isinstance(piles, list) and seat < len(piles) else None
    top = pile.get("top") if isinstance(pile, dict) else None
    return top if isinstance(top, dict) else None


def _top_kind(view: dict[str, Any], seat: int) -> Any:
    """The kind of card on top of ``seat``'s pile as the view shows it (or ``None``)."""
    top = top_card(view, seat)
    return top.get("kind") if top is not None else None


def _special_hint(view: dict[str, Any], me: int | None, mine: dict[str, Any],
                  talked: bool = False) -> str | None:
    """What a special card in sight asks of us that we do not do yet (``talked``: we
    have talked since the speech bubble showed), with its keys (a newcomer saw a smile
    and did not know how to smile at its holder)."""
    shown = {seat: _top_kind(view, seat) for seat in range(len(view.get("piles") or []))
             if seat != me}
    for seat, kind in shown.items():
        if kind not in ("smile", "eyes"):
            continue
        signal, verb, key = (("smile", "smile", "s") if kind == "smile"
                             else ("look_past", "look past", "x"))
        if seat_index(mine.get(signal)) == seat:
            continue  # done
        # (By number, as the cards are titled: a long name would break the line.)
        n = seat + 1
        if seat_index(mine.get("look")) == seat:
            return f"{SPECIALS[kind][0]} on {n}: {verb} ({key})"
        return f"{SPECIALS[kind][0]} on {n}: look ({n}), then {verb} ({key})"
    piles = view.get("piles") or []
    ours = piles[me] if me is not None and me < len(piles) else None
    # (No card of ours left: nothing to peek at, and it said to.)
    if ("mirror" in shown.values() and not mine.get("peek") and isinstance(ours, dict)
            and int(ours.get("count") or 0) > 0):
        return f"{SPECIALS['mirror'][0]} mirror in sight: peek at your card (p)"
    if "speech" in shown.values() and not talked:
        return f"{SPECIALS['speech'][0]} speech bubble in sight: talk (t)"
    return None


def played_line(cards: list[Any], width: int, wrong: Any = None) -> str:
    """The row of played cards, the latest last, in ``width`` cells: when they do not
    all fit, the oldest give way to "…". The card with id ``wrong`` (the one that lost
    the round) is marked ✗."""
    shorts = [("✗" if wrong is not None and isinstance(c, dict) and c.get("id") == wrong
               else "") + card_short(c) for c in cards]
    if not shorts:
        return "played: nothing yet"
    line = "played: " + " ".join(shorts)
    if len(line) <= width:
        return line
    kept: list[str] = []
    room = width - len("played: … ")
    for short in reversed(shorts):
        if sum(len(k) + 1 for k in kept) + len(short) > room:
            break
        kept.append(short)
    return "played: … " + " ".join(reversed(kept))


def describe_past_event(event: dict[str, Any], namer: Namer) -> str | None:
    """A Get It! event of a game gone by (a review, an earlier game's log): as
    :func:`describe_event`, but a deal says no more than what was dealt (the live line
    tells the reader to arrange and teaches the level's new card by its keys)."""
    if event.get("type") == "dealt":
        return f"{level_text(event.get('level'))}, attempt {event.get('attempt')}: cards dealt"
    return describe_event(event, namer)


def describe_event(event: dict[str, Any], namer: Namer) -> str | None:
    """One log line for a Get It! event (signals show on the table, not in the log)."""
    kind = event.get("type")
    who = namer.who
    if kind == "played":
        card = card_text(event.get("card"))
        if event.get("correct"):
            return f"{who(event.get('seat'))} played {card} ✓"
        return f"{who(event.get('seat'))} played {card} ✗ — wrong card"
    if kind == "said":
        return f"“{event.get('text')}” — {who(event.get('seat'))}"
    if kind == "peeks_ended":
        # (Who peeked, as a play says who smiled: the line named nobody, and a player
        # could not tell on whose peeks the mirror was played.)
        peekers = [namer.whom(s) for s in event.get("seats") or []]
        was = "were" if len(peekers) > 1 or peekers == ["you"] else "was"
        return "The mirror was played: every peek ends" + (
            f" ({listed(peekers)} {was} peeking)" if peekers else " (nobody was peeking)")
    if kind == "talk_ended":
        return "The speech bubble was played: talk ends"
    if kind == "dealt":
        new = new_at_level(event.get("level"))
        arrange = "arrange your pile" if namer.me is not None else "the players arrange"
        return (f"{level_text(event.get('level'))}, attempt {event.get('attempt')}: "
                f"cards dealt — {arrange}" + (f". New: {new}" if new else ""))
    if kind == "round_started":
        # (Not the engine's count of rounds, which runs on across levels and attempts:
        # the top line says the level and the attempt.)
        line = "The round starts: every top card shows."
        me, seats = namer.me, len(namer.names)
        if me is not None and seats > 1:
            # The piles moved one seat to the left as preparation ended.
            line += (f" You hold {namer.name((me - 1) % seats)}'s pile; yours went to "
                     f"{namer.name((me + 1) % seats)}.")
        return line
    if kind == "round_over":
        if event.get("won"):
            return f"{level_text(event.get('level'))} cleared!"
        reason = {"time": "time ran out", "wrong": "a wrong card was played"}.get(
            str(event.get("reason")), "the round was lost")
        return f"Round lost: {reason}"
    if kind == "game_over":
        return "The team wins the game!" if event.get("won") else "Game over"
    return None


def signalled_at(event: dict[str, Any], namer: Namer) -> str | None:
    """Who signalled at a card as it was played, from the signals its play ended
    ("Bot 3 smiled at it; you and Ann looked at it"), or ``None`` for none: said beside
    the play, so a player sees on what a card was played (a bot plays on its teammates'
    signals, and may not wait for everyone's)."""
    givers: dict[str, list[str]] = {}
    for ended in event.get("signals") or []:
        if isinstance(ended, dict) and ended.get("signal") in SIGNALLED:
            givers.setdefault(ended["signal"], []).append(namer.whom(ended.get("seat")))
    parts = []
    for kind, verb in SIGNALLED.items():
        if names := givers.get(kind):
            parts.append(f"{listed(names)} {verb} it")
    return "; ".join(parts) or None


def status_line(view: dict[str, Any], best: Any, *, short: bool = False,
                room: int = 0) -> str:
    """The line over the table: level, attempt, cards left, the Level X record (``short``:
    in fewer words, for a narrow terminal, beside the timer). With ``room`` (cells), short
    words are made to fit whole where they can: the cards' total goes first ("9 left",
    not "9/10", which read as played), then "untimed", then the record; the attempt stays
    (a line cut with "…" cut it to "try…" or away)."""
    piles = view.get("piles") or []
    left = sum(int(p.get("count", 0)) for p in piles if isinstance(p, dict))
    total = int(view.get("cards") or 0)
    if view.get("phase") == "prepare":
        cards = f"{total} cards dealt in all"  # ("10 cards dealt" read as 10 each)
    else:
        cards = f"{left}/{total} left" if short else f"{left} of {total} cards left"
    attempt, attempts = view.get("attempt"), view.get("attempts")
    tries = [] if view.get("level") == "X" else [
        f"try {attempt}/{attempts}" if short else f"attempt {attempt} of {attempts}"]
    # (Short, the cards left come first: what a narrow line cuts with "…" is the attempt.)
    parts = [level_text(view.get("level")), *([cards, *tries] if short else [*tries, cards])]
    record = []
    if view.get("level") == "X":
        record = ["no record yet" if not best else f"record {best}" if short
                  else f"record {best} cards"]
    untimed = [] if view.get("timer") else ["untimed" if short else "untimed practice"]
    line = " · ".join([*parts, *record, *untimed])
    if not short or not room or len(line) <= room:
        return line
    if view.get("phase") != "prepare":
        parts[1] = f"{left} left"
    for fewer in ([*parts, *record, *untimed], [*parts, *record], parts):
        line = " · ".join(fewer)
        if len(line) <= room:
            break
    return line


def to_you_text(facts: ToYou, width: int = 0) -> Text:
    """TO YOU: the facts, with anything everyone does to you made to jump out; where
    the line wraps (narrower than ``width``), each star holds on to its word (a lone
    "★" went to a line of its own at a phone's 40 columns)."""
    full = facts.parts()
    # Then, where it still wraps, the facts not everyone does without "you", which the
    # line's head says (at 80 columns a second line hid the line under it).
    short = [(words if all_of_them else _SHORT_TO_YOU.sub("", words), all_of_them)
             for words, all_of_them in full]
    for parts, glue in ((full, " "), (full, ""), (short, "")):
        text = Text("TO YOU  ", style="bold")
        for i, (words, all_of_them) in enumerate(parts):
            if i:
                text.append(" · ")
            if all_of_them:
                text.append(f"★{glue}{words.upper()}{glue}★", style="bold reverse")
            else:
                text.append(words)
        if not width or text.cell_len <= width:
            break
    return text


#: What :func:`to_you_text` leaves out of a fact where the line has no room for it.
_SHORT_TO_YOU = re.compile(r" (at )?you$")


def number_ranges(numbers: list[int]) -> str:
    """Ascending whole numbers as runs: ``[1, 3, 4]`` → ``"1,3-4"``, ``[2, 3, 4]`` → ``"2-4"``."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ",".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)

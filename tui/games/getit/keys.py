"""Which of the Get It! table's keys work now, and, for one that does nothing now, why.

Pure functions of the view (as the host sends it) and of what the screen knows: the
footer shows exactly the keys that work; a key that does nothing says so in one line
(no player 5 at this table; no mirror in sight; …) instead of nothing at all.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from textual.binding import Binding

from tui.games.getit.talk import bubble_in_deck, talk_phase
from tui.games.getit.text import SPECIALS, number_ranges

#: The signal kinds a key aims at the player we look at, with the words for a hint.
AIMED = {"smile": "smile at", "look_past": "look past"}
#: The table's keys (each signal in at most two keystrokes).
BINDINGS: list[Binding | tuple[str, str] | tuple[str, str, str]] = [
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
    # (7-9 too, never a seat: pressed, they say so, where they did nothing at all.)
    *[Binding(str(i), f"look({i})", show=False) for i in range(2, 10)],
    Binding("0", "stop_signals", "Stop all"),
    Binding("s", "aim('smile')", "Smile"),
    Binding("x", "aim('look_past')", "Look past"),
    Binding("p", "peek", "Peek"),
    Binding("t", "talk", "Talk", priority=True),  # (the words after it reach the line)
    Binding("n", "next_round", "Next round"),
]


@dataclass
class KeyContext:
    """What decides whether a key works: the view, what is legal, who we are."""

    view: dict[str, Any]
    legal: list[dict[str, Any]]
    me: int | None
    #: We aim a signal at someone now (asked only when a key depends on it: the footer
    #: asks every key at each change).
    signalling: Callable[[], bool] = lambda: False
    #: Our pile in preparation holds a special card.
    specials: Callable[[], bool] = lambda: False
    #: The seats' names, for the words (the keys are their numbers).
    names: Sequence[str] = ()

    def player(self, number: int) -> str:
        """Player ``number`` as the seat cards name them ("3 Bob"), or "Player 3"."""
        if 0 < number <= len(self.names):
            return f"{number} {self.names[number - 1]}"
        return f"Player {number}"

    @cached_property
    def kinds(self) -> frozenset[Any]:
        """The kinds of the legal actions."""
        return frozenset(a.get("type") for a in self.legal)

    def can(self, kind: str) -> bool:
        return kind in self.kinds

    @property
    def phase(self) -> Any:
        return self.view.get("phase")

    @property
    def seats(self) -> int:
        return len(self.view.get("piles") or [])

    def others(self) -> str:
        """The other players' numbers, as runs ("2-4")."""
        return number_ranges([n for n in range(1, self.seats + 1) if n - 1 != self.me])

    def count(self, seat: int) -> int:
        """How many cards ``seat``'s pile holds."""
        piles = self.view.get("piles") or []
        pile = piles[seat] if 0 <= seat < len(piles) else None
        return int(pile.get("count", 0)) if isinstance(pile, dict) else 0

    def lookable(self) -> list[int]:
        """The seats a signal may go to: the others whose pile still shows a card (a
        signal is about the card its target shows; an empty pile shows none)."""
        return list(self.lookable_seats)

    @cached_property
    def lookable_seats(self) -> tuple[int, ...]:
        """:meth:`lookable`, worked out once."""
        return tuple(seat for seat in range(self.seats) if seat != self.me and self.count(seat))

    def lookable_numbers(self) -> str:
        """:meth:`lookable` as players count them, in runs ("2-4,6")."""
        return number_ranges([seat + 1 for seat in self.lookable()])

    def my_count(self) -> int:
        return 0 if self.me is None else self.count(self.me)


class KeyMemo:
    """One :class:`KeyContext` for as long as what it is made of stays: the footer asks
    every key at each update, and each key asked made a context of its own."""

    def __init__(self) -> None:
        self._of: tuple[Any, ...] = ()
        self._context: KeyContext | None = None

    def context(self, of: tuple[Any, ...], make: Callable[[], KeyContext]) -> KeyContext:
        """The context for ``of`` (the update, the same object; then equal values: our
        move's state, who we are, the names), made by ``make`` when that is new."""
        if self._context is None or self._of[0] is not of[0] or self._of[1:] != of[1:]:
            self._of, self._context = of, make()
        return self._context


def look_keys(ctx: KeyContext) -> str | None:
    """What the look key shows in the footer: the numbers of the other players whose
    pile shows a card ("2-4")."""
    return ctx.lookable_numbers() or None


def look_target(number: int, ctx: KeyContext, looked: int | None) -> int | bool | None:
    """Whom pressing ``number`` looks at: a seat, ``None`` (at nobody: 0, or the one we
    look at already), or ``False`` when there is no such other player, or their pile
    is empty (:func:`why_not` says which)."""
    target = None if number == 0 else number - 1
    if target is not None and target != looked and target not in ctx.lookable():
        return False
    return None if target == looked else target


def next_look(ctx: KeyContext, looked: int | None) -> int | None:
    """The number that looks at the next player after the one we look at (after the
    last: that one's again, which looks at nobody); ``None`` when there is nobody."""
    others = ctx.lookable()
    later = [seat for seat in others if looked is None or seat > looked]
    if later:
        return later[0] + 1
    return None if looked is None else looked + 1


def key_works(action: str, parameters: tuple[object, ...], ctx: KeyContext) -> bool | None:
    """True: the key works now; None: shown dimmed; False: hidden from the footer."""
    phase = ctx.phase
    if action in ("next_special", "move"):
        return ctx.can("arrange") and ctx.specials()
    if action in ("done", "hand_end"):
        return ctx.can("arrange")
    if action == "play":
        # Dimmed while a play of ours may come; hidden once our pile is empty (it stayed
        # in the footer, dimmed, for the rest of the round).
        return ctx.can("play") or (None if phase == "play" and ctx.my_count() else False)
    if action == "look":
        # "1" is the key the footer shows for all of them; the others work only for a
        # player at this table.
        # With every other pile empty there is nobody to look at: the footer said "1-6
        # Look at" (seat 1 ours) beside "the rest are yours to play".
        number = parameters[0] if parameters else 1
        return phase == "play" and ((number == 1 and bool(ctx.lookable())) or (
            isinstance(number, int) and number - 1 in ctx.lookable()))
    if action == "stop_signals":
        # Dimmed while we signal nothing: it works once we do.
        return (ctx.signalling() or None) if phase == "play" else False
    if action == "aim":
        # All round; before we look at someone the key says to (whom it is aimed at).
        # Not with every other pile empty: a smile is at a card too (the footer offered
        # "s Smile" beside "the rest are yours to play").
        return phase == "play" and bool(ctx.lookable())
    if action == "peek":
        return ctx.can("peek")
    if action == "talk":
        # All round while the bubble may show: the line opens ahead, and waits for it.
        return talk_phase(ctx.view, ctx.can("say")) in ("open", "ahead")
    if action == "next_round":
        return ctx.can("next_round")
    return True


def why_not(action: str, parameters: tuple[object, ...], ctx: KeyContext) -> str | None:
    """Why a key that does nothing now does nothing, in one short line (``None``: it
    needs no word, e.g. a play already on its way to the host)."""
    phase = ctx.phase
    if ctx.me is None:
        return "You are watching: the players' keys do nothing here."
    if action == "look":
        number = parameters[0] if parameters else 1
        if phase != "play":
            return "Looks start with the round."
        if number == ctx.me + 1:
            return f"Player {number} is you: look at another player ({ctx.others()})."
        if isinstance(number, int) and 0 < number <= ctx.seats:
            others = ctx.lookable_numbers()
            return (f"{ctx.player(number)}'s pile is empty: a signal is about the card a "
                    "pile shows." + (f" Look at {others}." if others else ""))
        return f"No player {number} at this table: the others are {ctx.others()}."
    if action == "peek":
        symbol, word = SPECIALS["mirror"]
        return (f"Peek works while you see a {word.lower()} ({symbol}) on another pile; "
                "none is in sight.")
    if action == "talk":
        symbol, _ = SPECIALS["speech"]
        if talk_phase(ctx.view, ctx.can("say")) == "ended":
            return f"Talk is over this round: the speech bubble ({symbol}) was played."
        if not bubble_in_deck(ctx.view.get("level")):
            return (f"No speech bubble ({symbol}) at Level {ctx.view.get('level')}: talk "
                    "comes with it at Level 5.")
        return f"Talk opens with the round, and is sent while you see the bubble ({symbol})."
    if action in ("next_special", "move") and phase == "prepare":
        # (In a round Tab and the arrows keep their usual use: the focus, a scroll.)
        if ctx.can("arrange"):
            return "No special card in your pile: Enter passes it on as it is."
        return "Your pile is arranged: it passes on when everyone is ready."
    if action == "play":
        if phase == "prepare":
            return "The round starts when everyone has arranged: Enter when you are done."
        if phase == "play" and not ctx.my_count():
            return "Your pile is empty: you only signal now."
        return None
    if action == "done" and phase == "play":
        return "Enter does nothing in a round: Space plays your top card."
    if action == "stop_signals" and phase == "play":
        return "You signal nothing now."
    if action == "next_round" and phase == "play":
        return "The round is still on."
    return None


def parse_action(text: str) -> tuple[str, tuple[object, ...]]:
    """A binding's action as Textual writes it ("look(5)", "aim('smile')") → its name
    and parameters (plain literals only)."""
    name, _, rest = text.partition("(")
    if not rest:
        return name, ()
    value = ast.literal_eval(f"({rest[:-1]},)") if rest[:-1] else ()
    return name, tuple(value)


#: Each key of the table and the action it stands for (as its binding says).
KEY_ACTIONS = {b.key: parse_action(b.action) for b in BINDINGS if isinstance(b, Binding)}

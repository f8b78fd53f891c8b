"""Got Five! — the competitive deduction game (RULES.md §3).

Sixty numbered tiles in five colours. Every player holds one tile of each colour on a
rack, in ascending order, numbers facing the opponents: you see everyone's tiles but
your own. On a turn you reveal a face-down tile of a chosen colour into the public row,
then ask one clue about a public tile — *sort* (into which notch of your rack it falls)
or *compare* (same number of dots as one of your hidden tiles?). The first to announce
all five of their own numbers wins; a wrong announcement puts that player out and turns
their rack face up. Each player keeps a private board of crossed and circled numbers.

Design choices the contract leaves open:

* Phases: ``"reveal"`` (the player on turn picks a colour), ``"clue"`` (sort or
  compare), ``"announce"`` (the no-tiles-left rule: supply and public row are empty at
  the start of the turn, so announcing is the only move) and ``"over"``. The reveal
  step is skipped — the turn starts in ``"clue"`` — when the supply is empty.
* View keys: ``racks`` (per seat, in rack order: ``{"colour"}`` for a tile the viewer
  may not see, ``{"n", "colour", "dots"}`` otherwise), ``public`` (the public row,
  ascending), ``supply`` (face-down count per colour), ``clues`` (every clue, oldest
  first, in the contract's shape), ``announcements`` (every "Got Five!" called, with
  the numbers named and whether they were right), ``out`` (per seat), ``winners``,
  ``auto_cross`` (in a seat's own view that seat's setting, else the table's) and — in
  a seat's own view only — ``marks`` (``{"17": "cross"}``).
* Auto-crossing is each player's setting (RULES.md, a Decision): the table option
  ``auto_cross`` is where every seat starts, and ``{"type": "auto_cross", "on": bool}``
  turns it on or off for the acting seat alone (any seat, in or out, while the game
  runs; private, like a mark).
* Marks policy: with ``auto_cross`` on, every number the seat can see (public row,
  every clue tile, every other rack) shows as crossed and stays crossed; a manual
  ``circle`` or clear on such a number is refused (``IllegalAction``), a manual
  ``cross`` is accepted. A seat's own tiles are never auto-crossed, even once they are
  face up: a cross means "not mine". With ``auto_cross`` off the board holds exactly
  what the player marked. Any seat, in or out, may mark while the game runs; nothing
  may be marked once it is over.
* Once the game is over every rack is face up for everyone, spectators included.
* Hints (table option ``hints``: ``"off"``, ``"count"`` or ``"board"``; see
  :mod:`engine.gotfive_hint`): when on, a seat's view also carries ``hint``, computed
  by :func:`engine.gotfive_hint.hint_for` from that very view and nothing else, so it
  can hold nothing the seat may not know. Spectators get none. It is not cached: it
  costs about as much as building the view itself, and a cache would be one more piece
  of state to keep in step with the game.
* Events: a ``clue`` event is the clue as ``clues`` holds it, and for a comparison
  also ``colour``, the compared rack position's colour (public, as rack colours are).
* Bots (table option ``bots``: ``"strong"`` or ``"casual"``): how the table's bots play
  (:mod:`engine.bots.gotfive_bot`); public like every option, and in every view when it
  is not ``"strong"``, so a bot reads its level from its view like everything else.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise
from typing import Any, TypeGuard

from engine.core import (
    Action,
    Event,
    Game,
    GameSpec,
    IllegalAction,
    Plain,
    View,
    away_bot_option,
    bool_option,
    choice_option,
    next_seat,
    seat_option,
)
from engine.gotfive_hint import hint_for

# The tiles' arithmetic lives below the hints and the solver (engine.gotfive_tiles);
# every name stays importable from here, where the UI and the bots look them up.
from engine.gotfive_tiles import (
    COLOURS,
    RACK,
    TILES,
    colour_of,
    dots_of,
    hidden,
    numbers_of_colour,
    tile,
)
from engine.gotfive_tiles import PER_COLOUR as PER_COLOUR

MARKS = ("cross", "circle")


# Every tile's faces and board key, built once: views copy them instead of computing
# them tile by tile (views are what a host builds for every seat after every change).
_FACE: tuple[dict[str, Plain], ...] = tuple(tile(n) for n in range(TILES + 1))
_BACK: tuple[dict[str, Plain], ...] = tuple(hidden(n) for n in range(TILES + 1))
_KEY: tuple[str, ...] = tuple(str(n) for n in range(TILES + 1))


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _only_keys(action: Action, allowed: set[str]) -> None:
    extra = sorted(set(action) - allowed)
    if extra:
        raise IllegalAction(f"unexpected field {extra[0]!r} in a {action['type']!r} action")


class GotFive(Game):
    """A game of Got Five! for 2 to 4 seats."""

    def __init__(self, seats: int, seed: int, options: dict[str, Plain]) -> None:
        super().__init__(seats, seed, options)
        stacks = [numbers_of_colour(c) for c in range(COLOURS)]
        for stack in stacks:
            self.rng.shuffle(stack)
        # Each stack's top is the end of its list; players draw first, then the row.
        self.racks: list[list[int]] = [
            sorted(stacks[c].pop() for c in range(COLOURS)) for _ in range(seats)
        ]
        self.public: list[int] = sorted(stacks[c].pop() for c in range(COLOURS))
        self.supply: list[list[int]] = stacks
        self.clues: list[dict[str, Plain]] = []
        self.announcements: list[dict[str, Plain]] = []
        self.out: list[bool] = [False] * seats
        self.marks: list[dict[int, str]] = [{} for _ in range(seats)]
        #: Each seat's own auto-cross setting, from the table's option.
        self.auto_cross: list[bool] = [bool(options["auto_cross"])] * seats
        #: How many moves each seat made that only it knows of (marks, auto-cross):
        #: counted in its own view's ``version``, and in no other's.
        self.private: list[int] = [0] * seats
        self.winners: list[int] | None = None
        self.reason: str | None = None
        first = options["first"]
        if first is None:
            first = self.rng.randrange(seats)
        self.turn: int | None = first
        self._phase_name = "reveal"
        self._start_turn(first)

    # ------------------------------------------------------------------ helpers

    def active(self) -> list[int]:
        """The seats still in the game."""
        return [s for s in range(self.seats) if not self.out[s]]

    def _next_active(self, seat: int) -> int:
        return next_seat(seat, self.out)

    def _supply_left(self) -> int:
        return sum(len(stack) for stack in self.supply)

    def _start_turn(self, seat: int) -> None:
        self.turn = seat
        if self._supply_left():
            self._phase_name = "reveal"
        elif self.public:
            self._phase_name = "clue"
        else:
            self._phase_name = "announce"

    def _turn_event(self) -> Event:
        return {"type": "turn", "seat": self.turn, "phase": self._phase_name}

    def _finish(self, winner: int, reason: str) -> Event:
        self.winners = [winner]
        self.reason = reason
        self.turn = None
        self._phase_name = "over"
        return {"type": "game_over", "winners": [winner], "reason": reason,
                "racks": [[tile(n) for n in rack] for rack in self.racks]}

    def laid_open(self) -> dict[str, Plain]:
        """Every rack's tiles, face up."""
        return {"racks": [[tile(n) for n in rack] for rack in self.racks]}

    def _shows_rack(self, owner: int, viewer: int | None) -> bool:
        """Whether ``viewer`` (``None``: a spectator) sees the numbers on ``owner``'s rack."""
        if self.over or self.out[owner]:
            return True
        return viewer is not None and viewer != owner

    def visible_to(self, seat: int) -> set[int]:
        """Every number ``seat`` can see that is not on its own rack.

        These are what auto-cross crosses: the public row, every clue tile and every
        other seat's rack (opponents' racks always face this seat).
        """
        seen = set(self.public)
        seen.update(clue["tile"] for clue in self.clues)
        for other, rack in enumerate(self.racks):
            if other != seat:
                seen.update(rack)
        return seen

    def board(self, seat: int) -> dict[str, str]:
        """``seat``'s private board as the view shows it: ``{"17": "cross", ...}``."""
        marks = dict(self.marks[seat])
        if self.auto_cross[seat]:
            for n in self.visible_to(seat):
                marks[n] = "cross"
        return {_KEY[n]: marks[n] for n in sorted(marks)}

    # ------------------------------------------------------------------ rules

    def _legal(self, seat: int) -> list[Action]:
        if self.over:
            return []
        actions: list[Action] = []
        if not self.out[seat]:
            if seat == self.turn:
                if self._phase_name == "reveal":
                    actions += [
                        {"type": "reveal", "colour": c}
                        for c in range(COLOURS)
                        if self.supply[c]
                    ]
                elif self._phase_name == "clue":
                    for n in self.public:
                        actions.append({"type": "sort", "tile": n})
                        actions += [
                            {"type": "compare", "tile": n, "position": p} for p in range(RACK)
                        ]
            actions.append({"type": "announce"})
        actions += [{"type": "mark"}, {"type": "auto_cross"}]
        return actions

    def _act(self, seat: int, action: Action, now: float) -> list[Event]:
        kind = action["type"]
        if kind not in ("reveal", "sort", "compare", "announce", "mark", "auto_cross"):
            raise IllegalAction(
                f"unknown action {kind!r}; Got Five! knows reveal, sort, compare, "
                f"announce, mark and auto_cross"
            )
        if self.over:
            raise IllegalAction(f"the game is over; {kind!r} is not possible now")
        if kind == "mark":
            events = self._mark(seat, action)
            self.private[seat] += 1
            return events
        if kind == "auto_cross":
            _only_keys(action, {"type", "on"})
            if not isinstance(action.get("on"), bool):
                raise IllegalAction("an auto_cross action needs 'on': true or false")
            self.auto_cross[seat] = action["on"]
            self.private[seat] += 1
            return []  # (a private board, as a mark)
        if self.out[seat]:
            raise IllegalAction(f"seat {seat} is out of the game")
        if kind == "announce":
            return self._announce(seat, action)
        if seat != self.turn:
            raise IllegalAction(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        if kind == "reveal":
            return self._reveal(seat, action)
        return self._clue(seat, action)

    def _reveal(self, seat: int, action: Action) -> list[Event]:
        _only_keys(action, {"type", "colour"})
        if self._phase_name == "clue":
            raise IllegalAction("you have revealed a tile already; now ask for a clue")
        if self._phase_name == "announce":
            raise IllegalAction("no tiles are left: announcing is your only move")
        colour = action.get("colour")
        if not _is_int(colour) or not 0 <= colour < COLOURS:
            raise IllegalAction(f"colour must be a whole number from 0 to 4, not {colour!r}")
        if not self.supply[colour]:
            raise IllegalAction(f"colour {colour} has no face-down tiles left")
        n = self.supply[colour].pop()
        self.public = sorted([*self.public, n])
        self._phase_name = "clue"
        return [{"type": "revealed", "seat": seat, "tile": tile(n)}]

    def _clue(self, seat: int, action: Action) -> list[Event]:
        kind = action["type"]
        _only_keys(action, {"type", "tile", "position"} if kind == "compare" else {"type", "tile"})
        if self._phase_name == "reveal":
            raise IllegalAction("first reveal a tile: choose a colour that has face-down tiles")
        if self._phase_name == "announce":
            raise IllegalAction("no tiles are left: announcing is your only move")
        n = action.get("tile")
        if not _is_int(n) or n not in self.public:
            raise IllegalAction(f"tile {n!r} is not in the public row")
        rack = self.racks[seat]
        clue: dict[str, Plain]
        if kind == "sort":
            notch = sum(1 for x in rack if x < n)
            clue = {"seat": seat, "tile": n, "clue": "sort", "notch": notch}
        else:
            position = action.get("position")
            if not _is_int(position) or not 0 <= position < RACK:
                raise IllegalAction(
                    f"position must be a whole number from 0 to 4, not {position!r}"
                )
            same = dots_of(rack[position]) == dots_of(n)
            clue = {"seat": seat, "tile": n, "clue": "compare", "position": position,
                    "same": same}
        self.public.remove(n)
        self.clues.append(clue)
        self._start_turn(self._next_active(seat))
        event: Event = {"type": "clue", **clue}
        if kind == "compare":
            # The compared position's colour, public like every rack's colours: a log
            # names it from the event alone, after the racks are gone (another game).
            event["colour"] = colour_of(rack[clue["position"]])
        return [event, self._turn_event()]

    def _announce(self, seat: int, action: Action) -> list[Event]:
        _only_keys(action, {"type", "numbers"})
        numbers = action.get("numbers")
        if (
            not isinstance(numbers, list | tuple)
            or len(numbers) != RACK
            or not all(_is_int(x) and 1 <= x <= TILES for x in numbers)
        ):
            raise IllegalAction(
                f"announce five whole numbers from 1 to {TILES}, in ascending order, "
                f"not {numbers!r}"
            )
        if any(a >= b for a, b in pairwise(numbers)):
            raise IllegalAction(
                f"the five numbers must be different and in ascending order, not {list(numbers)}"
            )
        right = list(numbers) == self.racks[seat]
        self.announcements.append({"seat": seat, "numbers": list(numbers), "right": right})
        events: list[Event] = [
            {"type": "announced", "seat": seat, "numbers": list(numbers), "right": right}
        ]
        if right:
            events.append(self._finish(seat, "announced"))
            return events
        self.out[seat] = True
        events.append(
            {"type": "out", "seat": seat, "rack": [tile(n) for n in self.racks[seat]]}
        )
        left = self.active()
        if len(left) == 1:
            events.append(self._finish(left[0], "last_standing"))
        elif seat == self.turn:
            self._start_turn(self._next_active(seat))
            events.append(self._turn_event())
        return events

    def _mark(self, seat: int, action: Action) -> list[Event]:
        _only_keys(action, {"type", "n", "mark"})
        n = action.get("n")
        if not _is_int(n) or not 1 <= n <= TILES:
            raise IllegalAction(f"n must be a tile number from 1 to {TILES}, not {n!r}")
        if "mark" not in action:
            raise IllegalAction("a mark action needs 'mark': 'cross', 'circle' or None")
        mark = action["mark"]
        if mark is not None and mark not in MARKS:
            raise IllegalAction(f"mark must be 'cross', 'circle' or None, not {mark!r}")
        if self.auto_cross[seat] and mark != "cross" and n in self.visible_to(seat):
            raise IllegalAction(
                f"you can see {n}, so auto-cross keeps it crossed "
                f"(turn your auto_cross off to mark it by hand)"
            )
        if mark is None:
            self.marks[seat].pop(n, None)
        else:
            self.marks[seat][n] = mark
        # A private board: nothing public happened.
        return []

    # ------------------------------------------------------------------ contract hooks

    def _phase(self) -> str:
        return self._phase_name

    def _turn(self) -> int | None:
        return self.turn

    def _view_version(self, seat: int | None) -> int:
        return self.version - sum(self.private) + (self.private[seat] if seat is not None else 0)

    def _view(self, seat: int | None) -> View:
        racks = []
        for owner, rack in enumerate(self.racks):
            faces = _FACE if self._shows_rack(owner, seat) else _BACK
            racks.append([faces[n].copy() for n in rack])
        view: View = {
            "racks": racks,
            "public": [_FACE[n].copy() for n in self.public],
            "supply": [len(stack) for stack in self.supply],
            "clues": [dict(clue) for clue in self.clues],
            "announcements": [
                {"seat": a["seat"], "numbers": list(a["numbers"]), "right": a["right"]}
                for a in self.announcements
            ],
            "out": list(self.out),
            "winners": list(self.winners) if self.winners is not None else None,
            "auto_cross": (self.options["auto_cross"] if seat is None
                           else self.auto_cross[seat]),
        }
        if self.options.get("bots", "strong") != "strong":
            view["bots"] = self.options["bots"]
        if seat is not None:
            view["marks"] = self.board(seat)
        return view

    def view(self, seat: int | None) -> View:
        """What ``seat`` may know; with ``hints`` on, a seat's view also has its ``hint``.

        The hint is computed from the finished view itself (common keys included), so
        it is a function of what the seat is shown and of nothing else.
        """
        view = super().view(seat)
        mode = self.options.get("hints", "off")
        if mode != "off" and seat is not None:
            hint = hint_for(view, mode)
            if hint is not None:
                view["hint"] = hint
        return view

    @property
    def over(self) -> bool:
        return self._phase_name == "over"

    @property
    def result(self) -> dict[str, Plain] | None:
        if self.winners is None:
            return None
        return {
            "winners": list(self.winners),
            "reason": self.reason,
            "racks": [list(rack) for rack in self.racks],
            "out": list(self.out),
        }

    def _dump(self) -> Plain:
        return {
            "racks": [list(rack) for rack in self.racks],
            "public": list(self.public),
            "supply": [list(stack) for stack in self.supply],
            "clues": [dict(clue) for clue in self.clues],
            "announcements": [
                {"seat": a["seat"], "numbers": list(a["numbers"]), "right": a["right"]}
                for a in self.announcements
            ],
            "out": list(self.out),
            # Plain data wants str keys: marks travel as [[n, mark], ...].
            "marks": [[[n, m] for n, m in sorted(board.items())] for board in self.marks],
            "auto_cross": list(self.auto_cross),
            "private": list(self.private),
            "winners": self.winners,
            "reason": self.reason,
            "turn": self.turn,
            "phase": self._phase_name,
        }

    def _load(self, state: Plain) -> None:
        self.racks = [list(rack) for rack in state["racks"]]
        self.public = list(state["public"])
        self.supply = [list(stack) for stack in state["supply"]]
        self.clues = [dict(clue) for clue in state["clues"]]
        self.announcements = [dict(a, numbers=list(a["numbers"])) for a in state["announcements"]]
        self.out = list(state["out"])
        self.marks = [{n: m for n, m in board} for board in state["marks"]]
        # (A snapshot from before the setting was each player's: the table's for all.)
        self.auto_cross = [bool(on) for on in state.get(
            "auto_cross", [self.options["auto_cross"]] * len(self.racks))]
        # (A snapshot from before they were counted: none, as its views said.)
        self.private = [int(n) for n in state.get("private", [0] * len(self.racks))]
        self.winners = list(state["winners"]) if state["winners"] is not None else None
        self.reason = state["reason"]
        self.turn = state["turn"]
        self._phase_name = state["phase"]


def all_tiles(game: GotFive) -> Iterable[int]:
    """Every tile of ``game`` wherever it lies (racks, row, supply, clues): 60 in all."""
    for rack in game.racks:
        yield from rack
    yield from game.public
    for stack in game.supply:
        yield from stack
    for clue in game.clues:
        yield clue["tile"]


GotFive.spec = GameSpec(
    id="gotfive",
    name="Got Five!",
    min_seats=2,
    max_seats=4,
    options=(
        seat_option("first", "who plays first (none: chosen at random)"),
        bool_option(
            "auto_cross", True, "cross off every number a player can see on their board"
        ),
        choice_option(
            "hints", "off",
            "an exact aid for every player: off (as on paper), count (how many racks are "
            "still possible for you) or board (also grey every number no such rack holds)",
            ("off", "count", "board"),
        ),
        choice_option(
            "bots", "strong",
            "how the bots play: casual (about two clues in three in mind, often a move at "
            "random), normal (about six clues in seven, now and then a move at random) or "
            "strong (every clue in mind, the most telling move)",
            ("casual", "normal", "strong"),
        ),
        away_bot_option(),
    ),
    factory=GotFive,
)

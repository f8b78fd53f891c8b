"""The shared core of every game: errors, options, the game registry entry and the base class.

A game is data plus rules. The base class owns what every game shares — seat checks,
the seeded random generator, the caller-supplied clock, the state version and the
snapshot envelope — so that each game module only writes its rules.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, NamedTuple

#: Plain data as the contract defines it: what msgpack round-trips unchanged.
Plain = Any
Action = dict[str, Any]
Event = dict[str, Any]
View = dict[str, Any]

# Seeds cross into snapshots, which must pack with msgpack (64-bit integers).
SEED_LIMIT = 2**63


class IllegalAction(ValueError):
    """An action that is not legal now; its message says in plain words what was wrong."""


# --------------------------------------------------------------------------- options


class Option(NamedTuple):
    """One table option of a game: its name, default, a description and a checker.

    ``check(value, seats)`` returns the normalised value or raises ``ValueError`` with a
    message that says what is allowed. ``kind`` tells a form what to build without
    guessing: ``"bool"``, ``"int"`` (``low``/``high`` give its range for a seat count,
    ``choices`` any non-number values also allowed, such as ``None`` or ``"X"``),
    ``"seat"`` (a seat number, or ``None`` for "at random") or ``"choice"`` (one of
    ``choices``).
    """

    name: str
    default: Plain
    help: str
    check: Callable[[Any, int], Any]
    kind: str = "int"
    choices: tuple[Plain, ...] = ()
    low: Callable[[int], int] | None = None
    high: Callable[[int], int] | None = None
    #: ``(other option, value)``: this one matters only while the other has that value
    #: (Get It!'s ``cards`` only at Level X); ``None``: always.
    only_if: tuple[str, Plain] | None = None

    def applies(self, options: Mapping[str, Plain]) -> bool:
        """Whether this option matters with ``options`` (see ``only_if``)."""
        if self.only_if is None:
            return True
        other, value = self.only_if
        return options.get(other) == value

    def bounds(self, seats: int) -> tuple[int, int] | None:
        """The whole-number range of an ``int`` option for ``seats`` seats, else ``None``."""
        if self.low is None or self.high is None:
            return None
        return self.low(seats), self.high(seats)


def _allowed(value: Plain) -> str:
    """A value an option also allows, as people read it (``None`` is "nothing")."""
    return "nothing" if value is None else repr(value)


def _given(value: Any) -> str:
    """A value an option was given, as people read it (``None`` is "an empty value")."""
    return "an empty value" if value is None else repr(value)


def bool_option(name: str, default: bool, help: str) -> Option:
    """An on/off option."""

    def check(value: Any, seats: int) -> bool:
        if not isinstance(value, bool):
            raise ValueError(f"option {name!r} must be true or false, not {_given(value)}")
        return value

    return Option(name, default, help, check, kind="bool")


def choice_option(name: str, default: Plain, help: str, choices: tuple[Plain, ...]) -> Option:
    """One value out of a fixed list (``choices``, in the order a form offers them)."""

    def check(value: Any, seats: int) -> Any:
        for choice in choices:
            if value is choice or (type(value) is type(choice) and value == choice):
                return value
        allowed = ", ".join(_allowed(c) for c in choices)
        raise ValueError(f"option {name!r} must be one of {allowed}, not {_given(value)}")

    return Option(name, default, help, check, kind="choice", choices=choices)


def int_option(
    name: str,
    default: int | None,
    help: str,
    lo: int | Callable[[int], int],
    hi: int | Callable[[int], int],
    *,
    extra: tuple[Any, ...] = (),
    only_if: tuple[str, Plain] | None = None,
) -> Option:
    """A whole-number option in ``lo..hi`` (bounds may depend on the seat count).

    ``extra`` lists further accepted values that are not numbers (``None``, ``"X"``);
    ``only_if`` says when it matters (:attr:`Option.only_if`).
    """

    def low_of(seats: int) -> int:
        return lo(seats) if callable(lo) else lo

    def high_of(seats: int) -> int:
        return hi(seats) if callable(hi) else hi

    def bounds(seats: int) -> tuple[int, int]:
        return low_of(seats), high_of(seats)

    def check(value: Any, seats: int) -> Any:
        if any(value is e or (type(value) is type(e) and value == e) for e in extra):
            return value
        low, high = bounds(seats)
        also = "".join(f" or {_allowed(e)}" for e in extra)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(
                f"option {name!r} must be a whole number from {low} to {high}{also}, "
                f"not {_given(value)}"
            )
        if not low <= value <= high:
            # The seat count only where the range follows it (a seat number).
            where = f" with {seats} seats" if callable(lo) or callable(hi) else ""
            raise ValueError(
                f"option {name!r} must be from {low} to {high}{also}{where}, not {value}"
            )
        return value

    return Option(name, default, help, check, kind="int", choices=extra, low=low_of,
                  high=high_of, only_if=only_if)


def away_bot_option() -> Option:
    """The table's ``away_bot`` option, which every game has and no game reads: how long
    a person may be gone during play before a bot plays their seat until they are back
    (the host's business, ``net.away``)."""
    return choice_option(
        "away_bot", "off",
        "a bot plays the seat of someone away this long, until they are back: off, 30s or 2m",
        ("off", "30s", "2m"),
    )


def seat_option(name: str, help: str) -> Option:
    """A seat number (0..seats-1) or ``None`` meaning "chosen at random"."""
    option = int_option(name, None, help, 0, lambda seats: seats - 1, extra=(None,))
    return option._replace(kind="seat")


# --------------------------------------------------------------------------- registry


class GameSpec(NamedTuple):
    """What the registry knows of one game: id, display name, seat range and options.

    ``Option`` and ``GameSpec`` are immutable records as ``NamedTuple``s: a dataclass
    generates its methods with ``exec`` when it is defined, which every start pays for.
    """

    id: str
    name: str
    min_seats: int
    max_seats: int
    options: tuple[Option, ...]
    factory: type[Game]

    def __repr__(self) -> str:
        return (f"GameSpec(id={self.id!r}, name={self.name!r}, min_seats={self.min_seats}, "
                f"max_seats={self.max_seats}, options={self.options!r})")

    @property
    def defaults(self) -> dict[str, Plain]:
        """The option defaults, as plain data."""
        return {o.name: o.default for o in self.options}

    def check_seats(self, seats: Any) -> int:
        """Validate a seat count, or raise ``ValueError`` saying what is allowed."""
        if isinstance(seats, bool) or not isinstance(seats, int):
            raise ValueError(f"seats must be a whole number, not {seats!r}")
        if not self.min_seats <= seats <= self.max_seats:
            raise ValueError(
                f"{self.name} takes {self.min_seats} to {self.max_seats} seats, not {seats}"
            )
        return seats

    def check_options(self, options: Mapping[str, Any] | None, seats: int) -> dict[str, Plain]:
        """Fill in defaults and validate every option; unknown names are an error."""
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            raise ValueError(f"options must be a mapping of name to value, not {options!r}")
        known = {o.name: o for o in self.options}
        unknown = sorted(str(k) for k in options if k not in known)
        if unknown:
            allowed = ", ".join(sorted(known)) or "none"
            raise ValueError(
                f"unknown option {unknown[0]!r} for {self.name}; allowed options: {allowed}"
            )
        out: dict[str, Plain] = {}
        for opt in self.options:
            value = options.get(opt.name, opt.default)
            out[opt.name] = opt.check(value, seats) if opt.name in options else value
        return out


# --------------------------------------------------------------------------- seats


def next_seat(seat: int, out: Sequence[bool]) -> int:
    """The next seat to the left (clockwise) of ``seat`` that is still in."""
    seats = len(out)
    nxt = seat + 1 if seat + 1 < seats else 0
    if not out[nxt]:  # the usual case, without the loop
        return nxt
    for step in range(2, seats + 1):
        nxt = (seat + step) % seats
        if not out[nxt]:
            return nxt
    raise AssertionError("no seat is still in")


# --------------------------------------------------------------------------- base game


def _rng_state(rng: random.Random) -> list[Plain]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def _set_rng_state(rng: random.Random, state: list[Plain]) -> None:
    version, internal, gauss = state
    rng.setstate((version, tuple(internal), gauss))


class Game(ABC):
    """Base class of a game object as ``CONTRACT.md`` defines it.

    Subclasses implement the ``_``-prefixed hooks. The base class guarantees the
    contract's shared promises: seats are checked, ``now`` never goes backwards, an
    illegal action raises :class:`IllegalAction` before anything changes, every change
    bumps ``version``, and snapshots carry the seed and the generator state.
    """

    spec: ClassVar[GameSpec]
    #: True for a game whose ``_view`` is ``_public_view`` and ``_own_view`` together:
    #: :meth:`view_parts` then builds the public part once for every seat.
    splits_view: ClassVar[bool] = False
    #: The phases in which the game is played without words (Get It!'s deal and round):
    #: a host takes no table chat from its players then (:attr:`silent`).
    silent_phases: ClassVar[frozenset[str]] = frozenset()

    #: The next engine-time moment at which :meth:`advance` would change something, or
    #: ``None`` (untimed games never have one). A host arms its one timer from it.
    deadline: float | None = None
    #: Set to a list to keep every accepted move in it, as ``[seat, action, now]`` and
    #: ``[None, None, now]`` where time acted (``engine.record.Tape`` makes a record of
    #: them). Not part of the game's state.
    kept: list[list[Any]] | None = None

    def __init__(self, seats: int, seed: int, options: dict[str, Plain]) -> None:
        self.seats = seats
        self.seed = seed
        self.options = dict(options)
        self.rng = random.Random(seed)
        self.version = 0
        self.now = 0.0

    # ---- hooks for the games ----------------------------------------------------

    @abstractmethod
    def _phase(self) -> str:
        """The current phase name."""

    @abstractmethod
    def _turn(self) -> int | None:
        """The seat whose turn it is, or ``None`` (real-time play, between rounds)."""

    @abstractmethod
    def _view(self, seat: int | None) -> View:
        """Everything ``seat`` may know beyond the common keys."""

    def _public_view(self) -> View:
        """The part of :meth:`_view` that is the same for every seat and the spectator
        (public information only); a game that :attr:`splits_view` overrides this and
        :meth:`_own_view` (``_view(seat)`` is then the two together)."""
        return {}

    def _own_view(self, seat: int | None) -> View:
        """The rest of :meth:`_view` (keys not in :meth:`_public_view`): what ``seat``
        sees its own way."""
        return self._view(seat)

    def _own_part(self, seat: int | None) -> View:
        """:meth:`_own_view` for :meth:`view_parts`, whose values may be the very ones
        an earlier call gave while they have not changed (a game may keep them)."""
        return self._own_view(seat)

    @abstractmethod
    def _legal(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now."""

    @abstractmethod
    def _act(self, seat: int, action: Action, now: float) -> list[Event]:
        """Validate then apply ``action``; raise :class:`IllegalAction` before any change."""

    def _advance(self, now: float) -> list[Event]:
        """Let time act; untimed games have nothing to do."""
        return []

    @abstractmethod
    def _dump(self) -> Plain:
        """The game-specific state as plain data."""

    @abstractmethod
    def _load(self, state: Plain) -> None:
        """Rebuild the game-specific state from :meth:`_dump`'s output."""

    @property
    @abstractmethod
    def over(self) -> bool:
        """True when the whole game (or match) is finished."""

    @property
    @abstractmethod
    def result(self) -> dict[str, Plain] | None:
        """``None`` until over, then plain data about the outcome."""

    # ---- the contract -----------------------------------------------------------

    def _check_seat(self, seat: Any, *, spectator: bool = False) -> None:
        if type(seat) is int and 0 <= seat < self.seats:  # fast path; bool is not int
            return
        if seat is None and spectator:
            return
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise IllegalAction(f"there is no seat {seat!r}; seats are 0 to {self.seats - 1}")

    def _check_now(self, now: Any) -> float:
        if type(now) is float and now >= self.now:  # fast path
            return now
        if isinstance(now, bool) or not isinstance(now, int | float):
            raise IllegalAction(f"now must be a number of seconds, not {now!r}")
        now = float(now)
        if now < self.now:
            raise IllegalAction(f"time cannot go backwards (now {now} is before {self.now})")
        return now

    @property
    def silent(self) -> bool:
        """Whether the players may say nothing now but what the game's own moves say."""
        return self._phase() in self.silent_phases

    def view(self, seat: int | None) -> View:
        """What ``seat`` may know, as plain data; ``None`` is a spectator."""
        self._check_seat(seat, spectator=True)
        common: View = {
            "game": self.spec.id,
            "seat": seat,
            "phase": self._phase(),
            "turn": self._turn(),
            "version": self._view_version(seat),
        }
        common.update(self._view(seat))
        return common

    def _view_version(self, seat: int | None) -> int:
        """The ``version`` ``seat``'s view carries: it grows with every change that
        seat may know of. A game with moves only their own seat knows of (Got Five!'s
        marks) counts those for that seat alone: a jump in another's would say how many
        were made, and when."""
        return self.version

    def view_parts(self, seats: Sequence[int | None]) -> tuple[View, list[View]]:
        """The views of ``seats`` at once, split into what they share and what is each
        seat's own: ``view(seats[i]) == {**shared, **own[i]}``, and no key is in both.

        For a host that sends every seat its view: what all of them see alike is built
        once (and can be compared and packed once). ``shared`` is one object for all of
        ``seats`` and holds public information only. Unlike :meth:`view`'s, these parts
        are to be read, never changed: a value that did not change since an earlier call
        may be the very object it gave then (so a comparison can stop at ``is``).
        """
        for seat in seats:
            self._check_seat(seat, spectator=True)
        if not self.splits_view:
            return {}, [self.view(seat) for seat in seats]
        shared: View = {
            "game": self.spec.id,
            "phase": self._phase(),
            "turn": self._turn(),
            "version": self._view_version(None),
        }
        shared.update(self._public_view())
        own = []
        for seat in seats:
            part: View = {"seat": seat}
            part.update(self._own_part(seat))
            own.append(part)
        return shared, own

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (``[]`` if none)."""
        self._check_seat(seat)
        return self._legal(seat)

    def act(self, seat: int, action: Action, now: float = 0.0) -> list[Event]:
        """Apply ``action`` for ``seat``; return the public events it caused."""
        self._check_seat(seat)
        now = self._check_now(now)
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction(f"an action is a mapping with a 'type' string, not {action!r}")
        events = self._act(seat, action, now)
        self.now = now
        self.version += 1
        if self.kept is not None:
            self.kept.append([seat, action, now])
        return events

    def advance(self, now: float) -> list[Event]:
        """Let time act up to ``now``; returns the events that caused."""
        now = self._check_now(now)
        events = self._advance(now)
        self.now = now
        if events:
            self.version += 1
        if self.kept is not None:
            self.kept.append([None, None, now])
        return events

    def laid_open(self) -> dict[str, Plain]:
        """What no seat may see, in the shapes views use (host only, like
        :meth:`snapshot`): for a review of a game that is over, with every card face up."""
        return {}

    def snapshot(self) -> dict[str, Plain]:
        """The complete state as plain data (host only: it holds every secret)."""
        return {
            "game": self.spec.id,
            "seats": self.seats,
            "seed": self.seed,
            "options": dict(self.options),
            "version": self.version,
            "now": self.now,
            "rng": _rng_state(self.rng),
            "state": self._dump(),
        }

    @classmethod
    def _restore(cls, snap: Mapping[str, Plain]) -> Game:
        game = cls.__new__(cls)
        Game.__init__(game, snap["seats"], snap["seed"], dict(snap["options"]))
        game.version = snap["version"]
        game.now = snap["now"]
        _set_rng_state(game.rng, snap["rng"])
        game._load(snap["state"])
        return game

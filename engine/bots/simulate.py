"""Headless bot-only games: simulated time for Get It!, turn by turn for the others.

Every bot is asked with its own seat's view and legal actions only
(``game.view(seat)``, ``game.legal_actions(seat)``), exactly what a client receives;
the runner alone holds the game object.

Get It! runs on simulated time: an event-driven loop over ``now`` asks each bot's
``step(view, legal, now)`` whenever its view changed or the time it asked for has come,
applies actions with ``game.act(seat, action, now)``, lets the timer act with
``game.advance(now)`` at the round's deadline, and jumps straight to the next moment
anything is due. Nothing waits for real.

GET OUT! and Got Five! run turn by turn with :func:`engine.bots.make_bot`. In Got Five!
any seat still in may announce at any time, so before each move of the seat on turn the
others are asked once whether they want to act.

This module reads no clock. Pass ``timer`` (e.g. ``time.perf_counter``) to have the
bots' decision times measured.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import engine
from engine.bots import Bot, RandomBot, make_bot
from engine.bots.getit_bot import GetItBot
from engine.core import Action, Event, Game, IllegalAction, View

#: A bot-only game that runs longer than this many actions is reported as stalled.
MAX_MOVES = 200_000
#: Off-turn actions (Got Five! announcements, marks) allowed between two turn moves.
OFF_TURN_LIMIT = 8


class SimulationError(RuntimeError):
    """A bot broke the rules or a game could not finish; the message says which."""


def simulate(
    game_id: str,
    seats: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    *,
    reaction: float = 0.35,
    jitter: float = 0.15,
    versus: str | None = None,
    timer: Callable[[], float] | None = None,
) -> dict[str, Any]:
    """Play one bot-only game of ``game_id`` to its end and return what happened.

    ``reaction``/``jitter`` set the Get It! bots' reaction time; ``versus="random"``
    (GET OUT! only) seats random-legal players in seats 1.. against the bot in seat 0;
    only the bot's decisions are then timed. The result holds ``game``, ``seats``,
    ``seed``, ``result`` (the engine's), ``moves`` (actions applied), ``rounds``,
    ``decisions`` (seconds per bot decision, empty without ``timer``) and ``acting``
    (the same for the decisions that chose an action), plus per-game figures: Get It!
    ``won``, ``level``, ``losses`` (by reason) and ``sim_time``; GET OUT! ``winners``;
    Got Five! ``winners``, ``wrong`` (wrong announcements) and ``turns`` (turns taken).

    Raises ``ValueError`` for a bad game, seat count or option, and
    :class:`SimulationError` if a bot acts illegally or the game stalls.
    """
    if versus not in (None, "random"):
        raise ValueError(f"versus must be 'random' or nothing, not {versus!r}")
    game = engine.new_game(game_id, seats=seats, seed=seed, options=options)
    if versus is not None and game_id != "getout":
        raise ValueError("only GET OUT! can be played versus random-legal players")
    if game_id == "getit":
        return _run_getit(game, seed, reaction, jitter, timer)
    bots: list[Bot] = [make_bot(game_id, s, seed) for s in range(seats)]
    timed = set(range(seats))
    if versus == "random":
        bots[1:] = [RandomBot(seed * 1_000_003 + s + 7_919) for s in range(1, seats)]
        timed = {0}
    return _run_turns(game, game_id, seed, bots, timer, timed)


def _base(game: Game, game_id: str, seed: int) -> dict[str, Any]:
    return {"game": game_id, "seats": game.seats, "seed": seed, "moves": 0, "rounds": 0,
            "decisions": [], "acting": [], "result": None}


def _apply(game: Game, seat: int, action: Action, now: float = 0.0) -> list[Event]:
    try:
        return game.act(seat, action, now)
    except IllegalAction as exc:
        raise SimulationError(
            f"the bot in seat {seat} tried an illegal action {action!r}: {exc}"
        ) from None


class RealTimeBot(Protocol):
    """What the simulated-time loop needs of a real-time bot (e.g. ``GetItBot``)."""

    def step(
        self, view: View, legal: list[Action], now: float
    ) -> tuple[Action | None, float | None]:
        """The action to take at ``now`` (or ``None``) and when to be asked again."""
        ...


class RealTimeTable:
    """A real-time game played by bots on simulated time.

    Each bot is asked with ``wire(view)`` and ``wire(legal)`` of its own seat (``wire``
    defaults to passing them as they are; tests pass a msgpack round trip) whenever its
    view changed or the time it asked for has come. Seats are asked in seat order at
    each moment, and every action is applied at the moment it was chosen.
    """

    def __init__(
        self,
        game: Game,
        bots: Sequence[RealTimeBot],
        *,
        now: float = 0.0,
        wire: Callable[[Any], Any] | None = None,
        timer: Callable[[], float] | None = None,
    ) -> None:
        if len(bots) != game.seats:
            raise ValueError(f"give one bot per seat ({game.seats}), not {len(bots)}")
        self.game = game
        self.bots = list(bots)
        self.now = max(now, game.now)
        self.wire = wire or (lambda data: data)
        self.timer = timer
        self.moves = 0
        self.decisions: list[float] = []
        self.acting: list[float] = []
        self.events: list[Event] = []
        self._wake = [self.now] * game.seats
        self._asked = [-1] * game.seats

    def run(self, until: Callable[[Event], bool] | None = None) -> list[Event]:
        """Play until the game is over, or just after an event for which ``until`` is
        true; return the events of this run. Raises :class:`SimulationError` if a bot
        acts illegally or everyone waits with no timer running."""
        game = self.game
        done: list[Event] = []
        while not game.over:
            events = self._ask_all()
            if events is None:
                events = self._wait()
            done += events
            self.events += events
            if until is not None and any(until(e) for e in events):
                break
        return done

    def _ask_all(self) -> list[Event] | None:
        game, now = self.game, self.now
        for seat in range(game.seats):
            if self._asked[seat] == game.version and self._wake[seat] > now:
                continue
            self._asked[seat] = game.version
            legal = game.legal_actions(seat)
            view, offered = self.wire(game.view(seat)), self.wire(legal)
            start = self.timer() if self.timer else 0.0
            action, again = self.bots[seat].step(view, offered, now)
            if self.timer:
                self.decisions.append(self.timer() - start)
                if action is not None:
                    self.acting.append(self.decisions[-1])
            self._wake[seat] = math.inf if again is None else max(again, now + 1e-6)
            if action is None:
                continue
            if action not in legal and not _free_form(action, legal):
                raise SimulationError(f"the bot in seat {seat} chose an unlisted {action!r}")
            self.moves += 1
            if self.moves > MAX_MOVES:
                raise SimulationError(f"the game did not end within {MAX_MOVES} actions")
            return _apply(game, seat, action, now)
        return None

    def _wait(self) -> list[Event]:
        """Jump to the next moment anything is due: a bot's wake-up or the deadline."""
        deadline = self.game.view(None).get("deadline")
        upcoming = min(self._wake)
        if isinstance(deadline, int | float) and deadline <= upcoming:
            self.now = max(self.now, float(deadline))
            return self.game.advance(self.now)
        if upcoming < math.inf:
            self.now = upcoming
            return []
        raise SimulationError("every bot is waiting and no timer runs: the game is stuck")


def _run_getit(
    game: Game, seed: int, reaction: float, jitter: float, timer: Callable[[], float] | None
) -> dict[str, Any]:
    out = _base(game, "getit", seed)
    bots = [
        GetItBot(seed * 1_000_003 + s, reaction=reaction, jitter=jitter)
        for s in range(game.seats)
    ]
    table = RealTimeTable(game, bots, timer=timer)
    losses: dict[str, int] = {}
    _count_rounds(table.run(), out, losses)
    result = game.result or {}
    out.update(result=result, won=bool(result.get("won")), level=result.get("level"),
               losses=losses, sim_time=table.now, moves=table.moves, decisions=table.decisions,
               acting=table.acting)
    return out


def _free_form(action: Action, legal: list[Action]) -> bool:
    """An action with free content (``arrange``, ``say``, ...) listed by its type only."""
    return {"type": action.get("type")} in legal


def _count_rounds(events: list[Event], out: dict[str, Any], losses: dict[str, int]) -> None:
    for event in events:
        if event["type"] == "round_over":
            out["rounds"] += 1
            if not event.get("won", True) and "reason" in event:
                losses[event["reason"]] = losses.get(event["reason"], 0) + 1


def _run_turns(
    game: Game,
    game_id: str,
    seed: int,
    bots: list[Bot],
    timer: Callable[[], float] | None,
    timed: set[int],
) -> dict[str, Any]:
    out = _base(game, game_id, seed)
    out.update(wrong=0, turns=0)
    rounds_seen = 0

    def ask(seat: int) -> Action | None:
        view, legal = game.view(seat), game.legal_actions(seat)
        if not legal:
            return None
        clock = timer if seat in timed else None
        start = clock() if clock else 0.0
        action = bots[seat].choose(view, legal)
        if clock:
            out["decisions"].append(clock() - start)
            if action is not None:
                out["acting"].append(out["decisions"][-1])
        if action is not None and action not in legal and not _free_form(action, legal):
            raise SimulationError(f"the bot in seat {seat} chose an unlisted {action!r}")
        return action

    def apply(seat: int, action: Action) -> None:
        nonlocal rounds_seen
        out["moves"] += 1
        if out["moves"] > MAX_MOVES:
            raise SimulationError(f"the game did not end within {MAX_MOVES} actions")
        for event in _apply(game, seat, action):
            kind = event["type"]
            if kind == "announced" and not event.get("right"):
                out["wrong"] += 1
            elif kind == "clue":
                out["turns"] += 1
            elif kind == "round_over":
                rounds_seen += 1

    while not game.over:
        turn = game.view(None).get("turn")
        if turn is None:
            # Between rounds: the first seat with something to do moves the game on.
            for seat in range(game.seats):
                action = ask(seat)
                if action is not None:
                    apply(seat, action)
                    break
            else:
                raise SimulationError("nobody can move between rounds: the game is stuck")
            continue
        off_turn = 0
        others = [(turn + k) % game.seats for k in range(1, game.seats)]
        asked: set[tuple[int, int]] = set()
        while off_turn < OFF_TURN_LIMIT and not game.over:
            pending = [s for s in others if (s, game.version) not in asked]
            if not pending:
                break
            seat = pending[0]
            asked.add((seat, game.version))
            action = ask(seat)
            if action is not None:
                apply(seat, action)
                off_turn += 1
        if game.over or game.view(None).get("turn") != turn:
            continue
        action = ask(turn)
        if action is None:
            raise SimulationError(f"the bot in seat {turn} did not move on its turn")
        apply(turn, action)
    result = game.result or {}
    out["result"] = result
    out["winners"] = list(result.get("winners", []))
    out["rounds"] = result.get("rounds", rounds_seen or 1)  # Got Five! is one round
    return out

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
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import engine
from engine.bots import Bot, RandomBot, make_bot
from engine.bots.getit_bot import GetItBot, lowest_seat, tops_seen
from engine.bots.gotfive_bot import GotFiveBot
from engine.core import Action, Event, Game, IllegalAction, View
from engine.getit import arrangement
from engine.record import Tape

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
    reaction: float | None = None,
    jitter: float | None = None,
    versus: str | None = None,
    timer: Callable[[], float] | None = None,
    people: int = 0,
    person: Mapping[str, float] | None = None,
    record: bool = False,
) -> dict[str, Any]:
    """Play one bot-only game of ``game_id`` to its end and return what happened.

    ``reaction``/``jitter`` set the Get It! bots' reaction time (by default, the pace
    the table's ``bots`` option sets: ``engine.bots.getit_bot.PACES``). ``people`` (Get It!
    only) puts a :class:`HumanLikeTeammate` in seats ``0 .. people - 1``, built with the
    keyword arguments in ``person`` (``reaction``, ``spread``, ``error``, ``typing``); only
    the bots' decisions are then timed. ``versus="random"``
    (GET OUT! only) seats random-legal players in seats 1.. against the bot in seat 0;
    only the bot's decisions are then timed. ``versus="casual"`` (Got Five! only) seats
    casual bots (``engine.bots.gotfive_bot``) in seats 1.. against seat 0's bot, which
    plays at the table's ``bots`` level. The result holds ``game``, ``seats``,
    ``seed``, ``result`` (the engine's), ``moves`` (actions applied), ``rounds``,
    ``decisions`` (seconds per bot decision, empty without ``timer``) and ``acting``
    (the same for the decisions that chose an action), plus per-game figures: Get It!
    ``won``, ``level``, ``losses`` (by reason), ``sim_time``, ``people``, ``wrong``
    (signals the people aimed at a wrong player), ``bubbles`` (speech bubbles the typing
    people saw and could talk about) and ``lines`` (those they got a line in on); GET
    OUT! ``winners``;
    Got Five! ``winners``, ``wrong`` (wrong announcements) and ``turns`` (turns taken).

    With ``record``, the result also holds the game's ``record`` (``engine.record``).

    Raises ``ValueError`` for a bad game, seat count or option, and
    :class:`SimulationError` if a bot acts illegally or the game stalls.
    """
    if versus is not None and versus not in VERSUS:
        raise ValueError(f"versus must be one of {', '.join(VERSUS)} or nothing, not {versus!r}")
    game = engine.new_game(game_id, seats=seats, seed=seed, options=options)
    if versus in GETOUT_VERSUS and game_id != "getout":
        raise ValueError(f"only GET OUT! can be played versus {versus} players")
    if versus == "casual" and game_id not in ("getout", "gotfive"):
        raise ValueError("only GET OUT! and Got Five! can be played versus casual bots")
    if people and game_id != "getit":
        raise ValueError("only Get It! can seat human-like teammates")
    if not 0 <= people <= seats:
        raise ValueError(f"people must be from 0 to the {seats} seats, not {people}")
    if record:
        game.kept = []
    if game_id == "getit":
        out = _run_getit(game, seed, reaction, jitter, timer, people, dict(person or {}))
        return _with_record(out, game, people) if record else out
    bots: list[Bot] = [make_bot(game_id, s, seed) for s in range(seats)]
    timed = set(range(seats))
    bot = 0
    if versus is not None:
        # In GET OUT! the bot's seat goes round with the seed: who starts, and who sits
        # after whom, is then no one's advantage over a run of games.
        bot = seed % seats if game_id == "getout" else 0
        bots = [_opponent(game_id, versus, seed * 1_000_003 + s + 7_919) for s in range(seats)]
        bots[bot] = make_bot(game_id, bot, seed)
        timed = {bot}
    out = _run_turns(game, game_id, seed, bots, timer, timed)
    if versus is not None:
        out["bot"] = bot
    return _with_record(out, game, 0, None if versus is None else bot) if record else out


def _with_record(out: dict[str, Any], game: Game, people: int,
                 bot: int | None = None) -> dict[str, Any]:
    """``out`` with the game's record (``engine.record``), its seats named for who
    played them: the simulated people, the measured bot and its opponents."""
    def name(seat: int) -> str:
        if seat < people:
            return f"Person {seat + 1}"
        if bot is not None and seat != bot:
            return f"Opponent {seat + 1}"
        return f"Bot {seat + 1}"

    players = [{"name": name(s), "kind": "bot"} for s in range(game.seats)]
    tape = Tape(out["game"], game.seats, out["seed"], game.options, players, game.kept)
    return {**out, "record": tape.record(game)}


#: Who a bot can be measured against (``versus``): GET OUT!'s random-legal, greedy and
#: normal players, or casual bots (GET OUT! and Got Five!).
GETOUT_VERSUS = ("random", "greedy", "normal")
VERSUS = (*GETOUT_VERSUS, "casual")


def _opponent(game_id: str, versus: str, seed: int) -> Bot:
    """One opponent of the measured bot."""
    if versus == "random":
        return RandomBot(seed)
    if game_id == "gotfive":
        return GotFiveBot(seed, level="casual")
    from engine.bots.getout_bot import GetOutTableBot, GreedyBot

    if versus == "greedy":
        return GreedyBot(seed)
    return GetOutTableBot(seed, level=versus)


def _base(game: Game, game_id: str, seed: int) -> dict[str, Any]:
    return {"game": game_id, "seats": game.seats, "seed": seed, "moves": 0, "rounds": 0,
            "decisions": [], "acting": [], "result": None, "options": dict(game.options)}


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
    each moment, and every action is applied at the moment it was chosen. With a
    ``timer``, the decisions of the seats in ``timed`` (default: all) are measured.
    """

    def __init__(
        self,
        game: Game,
        bots: Sequence[RealTimeBot],
        *,
        now: float = 0.0,
        wire: Callable[[Any], Any] | None = None,
        timer: Callable[[], float] | None = None,
        timed: set[int] | None = None,
    ) -> None:
        if len(bots) != game.seats:
            raise ValueError(f"give one bot per seat ({game.seats}), not {len(bots)}")
        self.game = game
        self.bots = list(bots)
        self.now = max(now, game.now)
        self.wire = wire or (lambda data: data)
        self.timer = timer
        self.timed = set(range(game.seats)) if timed is None else set(timed)
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
            clock = self.timer if seat in self.timed else None
            start = clock() if clock else 0.0
            action, again = self.bots[seat].step(view, offered, now)
            if clock:
                self.decisions.append(clock() - start)
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
    game: Game, seed: int, reaction: float | None, jitter: float | None,
    timer: Callable[[], float] | None,
    people: int = 0, person: dict[str, float] | None = None,
) -> dict[str, Any]:
    out = _base(game, "getit", seed)
    humans = [HumanLikeTeammate(seed * 1_000_003 + 500_009 + s, **(person or {}))
              for s in range(people)]
    bots: list[RealTimeBot] = [*humans]
    bots += [
        GetItBot(seed * 1_000_003 + s, reaction=reaction, jitter=jitter)
        for s in range(people, game.seats)
    ]
    table = RealTimeTable(game, bots, timer=timer, timed=set(range(people, game.seats)))
    losses: dict[str, int] = {}
    _count_rounds(table.run(), out, losses)
    result = game.result or {}
    out.update(result=result, won=bool(result.get("won")), level=result.get("level"),
               losses=losses, sim_time=table.now, moves=table.moves, decisions=table.decisions,
               acting=table.acting, people=people, wrong=sum(h.wrong for h in humans),
               bubbles=sum(h.bubbles for h in humans), lines=sum(h.lines for h in humans))
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


# ---------------------------------------------------------------------- a person


#: The fewest seconds between two of a person's keystrokes.
PERSON_MOTOR = 0.25
#: How long after a play a person takes a signal that has not changed to be about the
#: new card (a person, too, waits a moment before trusting old looks).
PERSON_SETTLE = 0.8


@dataclass
class _Planned:
    """A keystroke a person has decided on: sent at ``due`` even if the table changed."""

    due: float
    kind: str
    action: Action | None  # None: built when due (an arrangement needs the hand)
    intended: Any = None  # the target the person meant (``action`` may name another)


class HumanLikeTeammate:
    """A simulated person at a Get It! table, to measure the bots beside one.

    It plays by the rulebook's conventions (RULES.md §1) as a person reads them, and it is
    slow and fallible the way a person is:

    - **Reaction.** It notices a change and acts on it ``reaction`` seconds later, plus a
      seeded normal spread of ``spread`` seconds (never less than a fifth of
      ``reaction``), and presses at most one key every ``PERSON_MOTOR`` seconds. A
      signal it has decided on is sent when due *even if the table changed meanwhile*
      (the key was already on its way), so its signals arrive late and, right after a
      play, are sometimes about the card that was there before; it notices and turns
      to the right player one reaction later. It plays only if, when the key goes, the
      signals still tell it to.
    - **Mistakes.** Each look, smile or look-past it decides on goes to a wrong player
      (another seat, chosen at random) with probability ``error``; it notices one
      reaction later and corrects it.
    - **Conventions.** It looks at the player showing the lowest number it sees (the
      lowest seat on equal numbers), even while a special card shows (the bots look at
      nobody then; a person keeps looking); smiles at the lowest seat showing a smile;
      looks past the lowest seat showing eyes; peeks while it sees a mirror and
      remembers what it saw; plays when everyone looks at it (and it sees no special
      card), smiles at it, looks past it, peeks, or talks. It waits ``PERSON_SETTLE``
      seconds after a play before trusting a signal that did not change.
    - **Talk.** With ``typing`` 0 it never types (it sends no ``say``). Else, when it
      sees the speech bubble it notices it one reaction later, presses ``t``
      (``PERSON_MOTOR``), types what it sees ("I see 17 and 5": the other top cards,
      in seat order) at ``typing`` characters a second and presses Enter
      (``PERSON_MOTOR``): no other key goes meanwhile. If the bubble was played before
      Enter, the line is lost. ``bubbles`` counts the rounds in which it saw the
      bubble and could talk, ``lines`` those in which its line got in.
    - It places its special cards at random legal positions
      (``engine.getit.arrangement``), as a person might.

    It sees only its own view, like a bot. ``wrong`` counts the signals it meant for one
    player and aimed at another (late, stale signals are not counted).
    """

    def __init__(
        self, seed: int, reaction: float = 1.0, spread: float = 0.3, error: float = 0.1,
        typing: float = 0.0,
    ) -> None:
        if reaction < 0 or spread < 0 or typing < 0:
            raise ValueError("a person's reaction, spread and typing must not be negative")
        if not 0 <= error <= 1:
            raise ValueError(f"a person's error rate is a fraction from 0 to 1, not {error}")
        self.rng = random.Random(seed)
        self.reaction = reaction
        self.spread = spread
        self.error = error
        self.typing = typing
        self.wrong = 0
        self.bubbles = 0
        self.lines = 0
        self._bubble_seen: tuple[Any, ...] | None = None  # the round it last saw one in
        self._line: tuple[str, float] | None = None  # being typed: (text, Enter at)
        self._queue: list[_Planned] = []
        self._free_at = -math.inf
        self._round: tuple[Any, ...] | None = None
        self._phase: str | None = None
        self._played = 0
        self._last_play = -math.inf
        self._since: dict[tuple[int, str], tuple[Any, float]] = {}
        self._known: tuple[dict[str, Any], int] | None = None

    def step(
        self, view: View, legal: list[Action], now: float
    ) -> tuple[Action | None, float | None]:
        """What the person does at ``now`` and when it next wants to be asked."""
        self._observe(view, now)
        action = self._enter(view, legal, now)
        if action is None:
            action = self._press(view, legal, now)
        if action is not None:
            # Plan again once the view shows what this key did.
            return action, self._free_at
        self._plan(view, legal, now)
        wakes = [max(p.due, self._free_at) for p in self._queue]
        if self._line is not None:
            wakes.append(self._line[1])
        gate = self._play_gate(view, now) if view.get("phase") == "play" else None
        if gate is not None and gate > now:
            wakes.append(gate)
        return action, (min(wakes) if wakes else None)

    # ------------------------------------------------------------------ seeing

    def _observe(self, view: View, now: float) -> None:
        key = (view.get("level"), view.get("attempt"), view.get("round"))
        if key != self._round:
            self._round = key
            self._queue.clear()
            self._line = None
            self._since.clear()
            self._known = None
            self._last_play = now
        phase = view.get("phase")
        played = len(view.get("played") or [])
        if phase != self._phase or played != self._played:
            self._phase, self._played = phase, played
            self._last_play = now
        for seat, signals in enumerate(view.get("signals") or []):
            for kind in ("look", "smile", "look_past", "peek"):
                seen = self._since.get((seat, kind))
                if seen is None or seen[0] != signals.get(kind):
                    self._since[(seat, kind)] = (signals.get(kind), now)
        peek, me = view.get("peek"), view.get("seat")
        if peek is not None and me is not None:
            self._known = (dict(peek), view["piles"][me]["count"])

    def _reaction(self) -> float:
        return max(0.2 * self.reaction, self.rng.gauss(self.reaction, self.spread))

    # ------------------------------------------------------------------ deciding

    def _desires(self, view: View) -> dict[str, Any]:
        """What the person wants each of its signals to be, seeing this view."""
        me = view["seat"]
        tops = tops_seen(view)
        numbers = {h: c["value"] for h, c in tops.items() if c["kind"] == "number"}
        smiles = sorted(h for h, c in tops.items() if c["kind"] == "smile")
        eyes = sorted(h for h, c in tops.items() if c["kind"] == "eyes")
        wants: dict[str, Any] = {
            "look": lowest_seat(numbers) if numbers else None,
            "smile": smiles[0] if smiles else None,
            "look_past": eyes[0] if eyes else None,
        }
        mirror = any(c["kind"] == "mirror" for c in tops.values())
        wants["peek"] = True if mirror and not view["signals"][me]["peek"] else None
        return wants

    def _plan(self, view: View, legal: list[Action], now: float) -> None:
        phase = view.get("phase")
        planned = {p.kind for p in self._queue}
        types = {a.get("type") for a in legal}
        if phase == "prepare" and "arrange" in types and "arrange" not in planned:
            self._queue.append(_Planned(now + self._reaction(), "arrange", None))
        elif phase == "round_over" and "next_round" in types and "next_round" not in planned:
            self._queue.append(_Planned(now + self._reaction(), "next_round",
                                        {"type": "next_round"}))
        if phase != "play" or view.get("seat") is None:
            return
        me = view["seat"]
        mine = view["signals"][me]
        if {"type": "say"} in legal and self._bubble_seen != self._round:
            self._bubble_seen = self._round
            if self.typing:
                self.bubbles += 1
                self._queue.append(_Planned(now + self._reaction(), "talk", None))
        for kind, target in self._desires(view).items():
            if kind == "peek":
                if target and "peek" not in planned:
                    self._queue.append(_Planned(now + self._reaction(), "peek",
                                                {"type": "peek", "on": True}))
                continue
            queued = [p for p in self._queue if p.kind == kind]
            meant = queued[-1].intended if queued else mine[kind]
            if meant == target:
                continue
            sent = target
            others = [s for s in range(len(view["signals"])) if s not in (me, target)]
            if target is not None and others and self.rng.random() < self.error:
                sent = self.rng.choice(others)
                self.wrong += 1
            due = now + self._reaction()
            if queued:
                due = max(due, queued[-1].due + PERSON_MOTOR)
            self._queue.append(_Planned(due, kind, {"type": kind, "target": sent}, target))
        gate = self._play_gate(view, now)
        if gate is not None and gate <= now and "play" not in planned:
            self._queue.append(_Planned(now + self._reaction(), "play", {"type": "play"}))

    def _press(self, view: View, legal: list[Action], now: float) -> Action | None:
        """Send the earliest keystroke that is due, if one is and still makes sense."""
        if now < self._free_at:
            return None
        self._queue.sort(key=lambda p: p.due)
        while self._queue and self._queue[0].due <= now:
            planned = self._queue.pop(0)
            action = planned.action
            if planned.kind == "arrange":
                hand = view.get("hand") or []
                action = {"type": "arrange", "pile": arrangement(hand, self.rng)}
                if {"type": "arrange"} not in legal:
                    continue
            elif planned.kind == "talk":
                if {"type": "say"} in legal:
                    # ``t``, then the line key by key, then Enter: nothing else meanwhile.
                    text = _seen_line(view)
                    enter = now + PERSON_MOTOR + len(text) / self.typing
                    self._line = (text, enter)
                    self._free_at = enter + PERSON_MOTOR
                return None
            elif planned.kind == "play":
                gate = self._play_gate(view, now)
                if gate is None or gate > now or action not in legal:
                    continue
            elif action not in legal:
                continue  # the game moved on, or the signal is already so
            self._free_at = now + PERSON_MOTOR
            return action
        return None

    def _enter(self, view: View, legal: list[Action], now: float) -> Action | None:
        """Enter on the line being typed, once typed (lost if talk has ended)."""
        if self._line is None or now < self._line[1]:
            return None
        text, _ = self._line
        self._line = None
        if {"type": "say"} not in legal:
            return None
        self.lines += 1
        return {"type": "say", "text": text}

    def _trusted_at(self, seat: int, kind: str) -> float:
        since = self._since[(seat, kind)][1]
        return since if since > self._last_play else self._last_play + PERSON_SETTLE

    def _play_gate(self, view: View, now: float) -> float | None:
        """When the rulebook tells the person to play its top card (``None``: not now)."""
        me = view.get("seat")
        if me is None or view.get("phase") != "play" or not view["piles"][me]["count"]:
            return None
        count = view["piles"][me]["count"]
        tops = tops_seen(view)
        special_seen = any(c["kind"] != "number" for c in tops.values())
        numbers = [c["value"] for c in tops.values() if c["kind"] == "number"]
        known = self._known[0] if self._known and self._known[1] == count else None
        if known is not None:
            if known["kind"] != "number":
                return now
            return now if not special_seen and all(known["value"] <= v for v in numbers) else None
        signals = view["signals"]
        others = [s for s in range(len(signals)) if s != me]
        if all(signals[s]["peek"] for s in others):
            return now
        talkers = {line.get("seat") for line in view.get("said") or []}
        played = {c.get("kind") for c in view.get("played") or []}
        if "speech" not in played and all(s in talkers for s in others):
            return now
        gates = [
            max(self._trusted_at(s, kind) for s in others)
            for kind in ("smile", "look_past", "look")
            if not (kind == "look" and special_seen)
            and all(signals[s][kind] == me for s in others)
        ]
        return min(gates) if gates else None


def _seen_line(view: View) -> str:
    """What a person types about the cards it sees: "I see 17 and 5" (the top cards
    other than the bubble, in seat order; special cards by their word)."""
    words = [str(c["value"]) if c["kind"] == "number" else str(c["kind"])
             for _, c in sorted(tops_seen(view).items()) if c["kind"] != "speech"]
    if not words:
        return "I see only the bubble"
    listed = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
    return "I see " + listed

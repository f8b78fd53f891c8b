"""A finished game's record: everything needed to play it again exactly, as plain data.

Same seed, options and moves give the same game (``CONTRACT.md``), so a record is the
deal and the moves, not the states: the game, its seat count, seed and options, who sat
where (and who came to move for a seat later: a bot standing in for someone away, the
person back), every accepted move with its engine time (and every moment time acted alone, Get
It!'s sand timer), the result, and a fingerprint of the final state that a replay must
reach. A :class:`Tape` gathers one while the game runs; :func:`check_record` judges a
record that came from elsewhere (a file, a database) before anything plays it, and
:class:`Replay` steps through it for a review.

A record holds every secret of its game (the seed deals every hand): it is made only
when the game is over, when nothing of it is secret any more.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import Any

import engine
from engine.core import SEED_LIMIT, Game, IllegalAction

FORMAT = "hiddenhand-game"
#: Bumped when a record written by one release cannot be read by an older one.
VERSION = 1
#: Bounds on what a record from elsewhere may hold (a long Get It! game of six levels
#: makes a few thousand moves).
MAX_MOVES = 100_000
MAX_NAME = 40
#: No time in a record is this many seconds or more (wall-clock: the year 5138). A
#: larger one was taken and then kept as no time at all.
MAX_TIME = 1e11
MAX_TEXT = 400
MAX_ITEMS = 64
MAX_DEPTH = 4
#: A seed as the host and the simulator make them, and as the engine takes them (a
#: record's seed of 2**63 or more passed this check, then broke the import with a
#: traceback).
MAX_SEED = SEED_LIMIT

#: Actions that change only the acting seat's own view (a Got Five! mark on one's own
#: board, one's own auto-cross): private to that seat while the game runs, and in its
#: record after (RULES.md: marks are "sent to nobody else").
PRIVATE_ACTIONS = frozenset({("gotfive", "mark"), ("gotfive", "auto_cross")})
#: Moves that take no turn (a Got Five! mark, a Get It! signal or word): nothing in a
#: game's course bounds how many of them a seat makes (``Tape.free_by``).
FREE_ACTIONS = PRIVATE_ACTIONS | {("getit", kind) for kind in (
    "look", "smile", "look_past", "peek", "say")}
#: A move that takes no turn counts one, and one more for every this many bytes of the
#: words it carries (a Get It! line: 200 characters, up to 800 bytes), as a game's
#: record and the host's journal keep them (``Tape.free_by``).
FREE_TEXT_BYTES = 16
#: A seat's ``who`` in a record: whose it was, as :func:`who` digests a host's player id.
WHO_LENGTH = 32

#: One move: the seat and its action, or ``None`` and ``None`` where time acted alone;
#: then the engine time.
Move = list[Any]
#: A change of who moves for a seat while the game runs: after this many moves of the
#: record, the seat's moves are made by ``name``; ``for``: the person a bot plays for
#: (``None``: the seat's own player, back or under a new name). ``[moves, seat, name, for]``
Seated = list[Any]
#: The most changes of who moves for a seat a record may hold.
MAX_SEATED = 1000


class RecordError(ValueError):
    """A record that cannot be played: the message says what is wrong, in one line."""


def fingerprint(game: Game) -> str:
    """A short digest of the game's whole state: two games with the same fingerprint
    are in the same state (a replay checks it reached the recorded end)."""
    text = json.dumps(game.snapshot(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def who(player: str) -> str:
    """The digest of a host's id for a player (``Seat.player``) that a record keeps with
    their seat: an app that knows its own id finds its seats in a record by it, and
    nobody learns an id from a record."""
    return hashlib.sha256(f"hiddenhand who:{player}".encode()).hexdigest()[:WHO_LENGTH]


def has_private(game_id: str) -> bool:
    """Whether ``game_id`` has moves only their own seat may know of."""
    return any(game == game_id for game, _ in PRIVATE_ACTIONS)


def private(game_id: str, move: Move) -> bool:
    """Whether ``move`` is one only its own seat may know of."""
    action = move[1]
    return isinstance(action, dict) and (game_id, action.get("type")) in PRIVATE_ACTIONS


def mine(record: Mapping[str, Any], players: Collection[str]) -> set[int]:
    """The seats of ``record`` held by one of ``players`` (host ids, as :func:`who`
    takes them)."""
    keys = {who(p) for p in players}
    return {i for i, p in enumerate(record["players"]) if p.get("who") in keys}


def without_private(record: Mapping[str, Any], keep: Collection[int] = ()) -> dict[str, Any]:
    """``record`` (checked, and played to its end by the caller) as a review shows it to
    one who held the seats ``keep``: every other seat's private moves left out, and its
    fingerprint made again. Such a move changes nothing but its own seat's view, so the
    rest is the same game, move for move."""
    kept = [not private(record["game"], m) or m[0] in keep for m in record["moves"]]
    moves = [m for m, k in zip(record["moves"], kept, strict=True) if k]
    if len(moves) == len(record["moves"]):
        return dict(record)
    game = engine.new_game(record["game"], seats=record["seats"], seed=record["seed"],
                           options=record["options"])
    for k, move in enumerate(moves, 1):
        _play(game, k, move)
    out = {**record, "moves": moves, "check": fingerprint(game)}
    if record.get("seated"):
        # After as many of the moves kept as were made before it.
        before = [0]
        for k in kept:
            before.append(before[-1] + k)
        out["seated"] = [[before[min(max(0, x[0]), len(kept))], *x[1:]]
                         for x in record["seated"]]
    return out


def _weight(action: Mapping[str, Any]) -> int:
    text = action.get("text")
    return 1 + (len(text.encode("utf-8", "replace")) // FREE_TEXT_BYTES
                if isinstance(text, str) else 0)


class Tape:
    """The moves of one game as it is played, made into a record when it is over."""

    def __init__(self, game_id: str, seats: int, seed: int, options: Mapping[str, Any],
                 players: list[dict[str, str]], moves: list[Move] | None = None,
                 seated: list[Seated] | None = None) -> None:
        self.game_id, self.seats, self.seed = game_id, seats, seed
        self.options = dict(options)
        self.players = [dict(p) for p in players]
        self.moves: list[Move] = list(moves or [])
        #: Who came to move for a seat after the start, and when (:data:`Seated`).
        self.seated: list[Seated] = [list(x) for x in seated or []]
        self._free = [0] * seats
        for mover, action, _at in self.moves:
            if isinstance(mover, int) and 0 <= mover < seats and self.takes_no_turn(action):
                self._free[mover] += _weight(action)

    def act(self, seat: int, action: dict[str, Any], now: float) -> None:
        """An action the game accepted."""
        self.moves.append([seat, action, now])
        if self.takes_no_turn(action):
            self._free[seat] += _weight(action)

    def takes_no_turn(self, action: Any) -> bool:
        """Whether ``action`` is one of this game's :data:`FREE_ACTIONS`."""
        return isinstance(action, dict) and (self.game_id, action.get("type")) in FREE_ACTIONS

    def free_by(self, seat: int) -> int:
        """How many moves that take no turn ``seat`` made, a move with words counting
        one more for every :data:`FREE_TEXT_BYTES` of them."""
        return self._free[seat]

    def advance(self, now: float) -> None:
        """Time acted on the game at ``now``."""
        self.moves.append([None, None, now])

    def seat_names(self, names: Sequence[str], standing_in: Sequence[str | None]) -> None:
        """Who moves for each seat now (``standing_in[seat]``: the person a bot there
        plays for): a seat whose mover changed since the last call is written down
        from the next move on (a seat with no name, empty, is not)."""
        for seat, (name, for_name) in enumerate(zip(names, standing_in, strict=True)):
            if name and self.mover(seat) != (name, for_name or None):
                self.seated.append([len(self.moves), seat, name, for_name or None])

    def mover(self, seat: int) -> tuple[str, str | None]:
        """Who moves for ``seat`` now, and for whom if a bot stands in."""
        for _moves, at, name, for_name in reversed(self.seated):
            if at == seat:
                return name, for_name
        return self.players[seat]["name"], None

    def person_moved(self) -> bool:
        """Whether a person (not a bot, nor a bot standing in for one) made a move on
        this tape. A move only its own seat knows of (a Got Five! mark, auto-cross turned
        off) is none: Past games kept a game whose one "move" was auto-cross turned off,
        and its review read "move 0 of 0"."""
        standing: dict[int, bool] = {}
        changes = iter(self.seated)
        change = next(changes, None)
        for k, (seat, _action, _now) in enumerate(self.moves):
            while change is not None and change[0] <= k:
                standing[change[1]] = change[3] is not None
                change = next(changes, None)
            if isinstance(seat, int) and self.players[seat].get("kind") == "human" \
                    and not standing.get(seat) and not private(self.game_id, self.moves[k]):
                return True
        return False

    def data(self) -> dict[str, Any]:
        """The tape so far as plain data (kept with a running game, e.g. in a journal)."""
        data = {"game": self.game_id, "seats": self.seats, "seed": self.seed,
                "options": dict(self.options), "players": [dict(p) for p in self.players],
                "moves": list(self.moves)}
        if self.seated:
            # (Only then: a record without it reads as before, in any release.)
            data["seated"] = [list(x) for x in self.seated]
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Tape:
        """A tape from :meth:`data` (the host's own, e.g. read back from its journal;
        :class:`RecordError` if its ``seated`` is not what a tape writes)."""
        return cls(data["game"], data["seats"], data["seed"], data["options"],
                   data["players"], data["moves"],
                   _seated(data.get("seated", []), data["seats"], len(data["moves"])))

    def record(self, game: Game, *, started: float | None = None,
               ended: float | None = None) -> dict[str, Any]:
        """The finished game's record (``started``/``ended``: wall-clock seconds, which
        the caller reads; the engine reads no clock)."""
        return {"format": FORMAT, "version": VERSION, **self.data(),
                "result": game.result, "check": fingerprint(game),
                "started": started, "ended": ended}


def plain(value: Any, where: str, depth: int = 0) -> None:
    """Raise :class:`RecordError` unless ``value`` is small plain data."""
    if depth > MAX_DEPTH:
        raise RecordError(f"{where} is nested too deeply")
    if value is None or isinstance(value, bool | int):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise RecordError(f"{where} holds a number that is not finite")
        return
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise RecordError(f"{where} holds a text longer than {MAX_TEXT} characters")
        return
    if isinstance(value, list):
        if len(value) > MAX_ITEMS:
            raise RecordError(f"{where} holds a list longer than {MAX_ITEMS}")
        for item in value:
            plain(item, where, depth + 1)
        return
    if isinstance(value, dict):
        if len(value) > MAX_ITEMS:
            raise RecordError(f"{where} holds more than {MAX_ITEMS} keys")
        for key, item in value.items():
            if not isinstance(key, str) or len(key) > MAX_TEXT:
                raise RecordError(f"{where} has a key that is not a short text")
            plain(item, where, depth + 1)
        return
    raise RecordError(f"{where} holds a {type(value).__name__}, which no record holds")


def _int(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value < high:
        raise RecordError(f"{where} must be a whole number from {low} to {high - 1}")
    return value


def _time(value: Any, where: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(
            value) or not 0 <= value < MAX_TIME:
        raise RecordError(f"{where} must be a time in seconds")
    return float(value)


def check_record(data: Any) -> dict[str, Any]:
    """``data`` as a record this release can play, or :class:`RecordError` saying in
    one line what is wrong with it. Nothing is played here: :func:`replay` finds a move
    the rules refuse."""
    if not isinstance(data, dict):
        raise RecordError("this is not a hiddenhand game record")
    if data.get("format") != FORMAT:
        raise RecordError("this is not a hiddenhand game record (no 'format': "
                          f"'{FORMAT}')")
    version = data.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
        raise RecordError(f"this record was made by a newer hiddenhand (record version "
                          f"{version}; this one reads version {VERSION}): update hiddenhand")
    if isinstance(version, bool) or version != VERSION:  # (true == 1 in Python)
        raise RecordError(f"this record's version is {version!r}; this hiddenhand reads "
                          f"version {VERSION}")
    game_id = data.get("game")
    if not isinstance(game_id, str) or game_id not in engine.GAMES:
        named = "names no game" if game_id is None else f"is of an unknown game {game_id!r}"
        raise RecordError(f"the record {named}: one of {', '.join(engine.GAMES)}")
    spec = engine.GAMES[game_id]
    seats = _int(data.get("seats"), "seats", spec.min_seats, spec.max_seats + 1)
    seed = _int(data.get("seed"), "seed", 0, MAX_SEED)
    options = data.get("options")
    if not isinstance(options, dict):
        raise RecordError("options must be a table of option names and values")
    plain(options, "options")
    try:
        options = spec.check_options(options, seats)
    except (ValueError, TypeError) as exc:
        raise RecordError(f"options: {exc}") from None
    players = data.get("players")
    if not isinstance(players, list) or len(players) != seats:
        raise RecordError(f"players must list the {seats} seats")
    kept_players = []
    for i, player in enumerate(players):
        if not isinstance(player, dict) or not isinstance(player.get("name"), str) or (
                player.get("kind") not in ("human", "bot")):
            raise RecordError(f"player {i + 1} must have a name and a kind (human or bot)")
        name = _name(player["name"], f"player {i + 1}'s name")
        kept = {"name": name, "kind": player["kind"]}
        if "who" in player:
            mark = player["who"]
            if not isinstance(mark, str) or len(mark) != WHO_LENGTH or any(
                    c not in "0123456789abcdef" for c in mark):
                raise RecordError(f"player {i + 1}'s 'who' must be {WHO_LENGTH} hex digits")
            kept["who"] = mark
        kept_players.append(kept)
    kept_moves: list[Move] = []
    last = 0.0
    for where, move in _entries(data.get("moves"), "moves", "move", MAX_MOVES,
                                "[seat, action, time]"):
        seat, action, now = move
        at = _time(now, f"{where}'s time")
        assert at is not None
        if at < last:
            raise RecordError(f"{where}'s time goes back ({at} after {last})")
        last = at
        if seat is None and action is None:
            kept_moves.append([None, None, at])
            continue
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
            # (Said as people count seats, from 1; a record counts them from 0.)
            raise RecordError(f"{where} names no seat of the game's {seats}")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise RecordError(f"{where}'s action must be a table with a 'type'")
        plain(action, f"{where}'s action")
        kept_moves.append([seat, action, at])
    seated = _seated(data.get("seated", []), seats, len(kept_moves))
    check = data.get("check")
    if not isinstance(check, str) or len(check) != 32 or any(
            c not in "0123456789abcdef" for c in check):
        raise RecordError("check must be the final state's fingerprint (32 hex digits)")
    result = data.get("result")
    plain(result, "result")
    return {"format": FORMAT, "version": VERSION, "game": game_id, "seats": seats,
            "seed": seed, "options": options, "players": kept_players, "moves": kept_moves,
            "seated": seated, "result": result, "check": check,
            "started": _time(data.get("started"), "started"),
            "ended": _time(data.get("ended"), "ended")}


def _name(value: Any, where: str) -> str:
    """``value`` if it is a name as a host allows one, or :class:`RecordError`."""
    if not isinstance(value, str) or not 0 < len(value) <= MAX_NAME or not value.isprintable():
        raise RecordError(f"{where} must be 1 to {MAX_NAME} printable characters")
    if "[" in value or "]" in value:  # (a screen reads "[" as a style: no host allows it)
        raise RecordError(f"{where} may not hold [ or ]")
    return value


def _entries(value: Any, name: str, one: str, most: int,
             form: str) -> Iterator[tuple[str, list[Any]]]:
    """Each entry of the list ``value`` (a record's ``name``), with how a message names
    it ("move 3"), once the list and the entry are of the right length; else
    :class:`RecordError`. ``form`` says what an entry is, as "[seat, action, time]"."""
    if not isinstance(value, list) or len(value) > most:
        raise RecordError(f"{name} must be a list of at most {most}")
    length = form.count(",") + 1
    for k, entry in enumerate(value, 1):
        where = f"{one} {k}"
        if not isinstance(entry, list) or len(entry) != length:
            raise RecordError(f"{where} must be {form}")
        yield where, entry


def _seated(value: Any, seats: int, moves: int) -> list[Seated]:
    """A record's ``seated`` (:data:`Seated`), checked."""
    kept: list[Seated] = []
    last = 0
    for where, entry in _entries(value, "seated", "seated", MAX_SEATED,
                                 "[moves, seat, name, for]"):
        after = _int(entry[0], f"{where}'s moves", last, moves + 1)
        seat = _int(entry[1], f"{where}'s seat", 0, seats)
        name = _name(entry[2], f"{where}'s name")
        for_name = None if entry[3] is None else _name(entry[3], f"{where}'s 'for'")
        kept.append([after, seat, name, for_name])
        last = after
    return kept


def _play(game: Game, k: int, move: Move) -> list[dict[str, Any]]:
    seat, action, now = move
    try:
        if seat is None:
            return game.advance(now)
        return game.act(seat, action, now=now)
    except IllegalAction as exc:
        # (The engine's own words count seats from 0, as its actions do: "by seat 2 …
        # it is seat 0's turn, not seat 1's" said one seat two ways.)
        words = re.sub(r"\bseat (\d+)", lambda m: f"seat {int(m[1]) + 1}", str(exc))
        # (Said to the player who moved, "card 999 is not in your hand", it read as the
        # reader's own hand: here it is the seat's.)
        for person, seat_s in ((r"\byou have\b", "it has"), (r"\byour\b", "its"),
                               (r"\byou\b", "it")):
            words = re.sub(person, seat_s, words)
        raise RecordError(f"move {k} ({action.get('type')} by seat {seat + 1}) breaks "
                          f"the rules: {words}") from None
    except (ValueError, TypeError, KeyError) as exc:
        raise RecordError(f"move {k} cannot be played: {exc}") from None


def tape_game(data: Mapping[str, Any]) -> Game:
    """The game a tape's moves (:meth:`Tape.data`, e.g. read back from a journal) play
    to from its seed: :class:`RecordError` in one line if the data is not what a tape
    writes or a move breaks the rules. A file from elsewhere is hostile input: its game
    is only ever what legal moves make of a fresh deal."""
    checked = check_record({**data, "format": FORMAT, "version": VERSION,
                            "check": "0" * 32, "result": None})
    try:
        game = engine.new_game(checked["game"], checked["seats"], checked["seed"],
                               checked["options"])
    except ValueError as exc:
        raise RecordError(f"its game cannot be dealt: {exc}") from None
    for k, move in enumerate(checked["moves"], 1):
        _play(game, k, move)
    return game


def replay(record: Mapping[str, Any]) -> Game:
    """The game of a checked record played to its end; :class:`RecordError` if a move
    breaks the rules or the end is not the recorded one."""
    return Replay(record).game_at(len(record["moves"]))


class Replay:
    """A checked record played through once, to step back and forth in: the events of
    every move, and the game after any number of moves (restored from the nearest
    state kept on the way, so a jump costs at most :data:`EVERY` moves)."""

    #: A state is kept every this many moves.
    EVERY = 64

    def __init__(self, record: Mapping[str, Any], *,
                 private: Collection[int] = ()) -> None:
        self.record = record
        #: The seats whose private moves ``record`` leaves out (:func:`without_private`).
        self.private = frozenset(private)
        self.moves: list[Move] = record["moves"]
        game = engine.new_game(record["game"], seats=record["seats"], seed=record["seed"],
                               options=record["options"])
        #: The events each move made (``events[k]``: move ``k + 1``'s).
        self.events: list[list[dict[str, Any]]] = []
        self._kept: list[dict[str, Any]] = [game.snapshot()]
        for k, move in enumerate(self.moves, 1):
            if game.over:
                # (90,000 moves of nothing after the end were kept, and made the same
                # game pass for another.)
                raise RecordError(f"move {k} comes after the game's end: a record stops there")
            self.events.append(_play(game, k, move))
            if k % self.EVERY == 0:
                self._kept.append(game.snapshot())
        if fingerprint(game) != record["check"]:
            raise RecordError("this record does not replay to the game it recorded: it was "
                              "changed since it was written, or made by another version "
                              "of the rules")
        self.final = game
        self._drawn: dict[int, list[dict[str, Any]]] | None = None

    def __len__(self) -> int:
        return len(self.moves)

    def drawn(self) -> dict[int, list[dict[str, Any]]]:
        """The cards each ``draw`` move brought into its drawer's hand (GET OUT!'s:
        what only the drawer saw), by move number; found once, by playing the game
        along and comparing the drawer's hand before and after."""
        if self._drawn is None:
            self._drawn = {}
            game = self.game_at(0)
            for k, (seat, action, now) in enumerate(self.moves, 1):
                if seat is None:
                    game.advance(now)
                    continue
                draw = action.get("type") == "draw"
                held = {c["id"] for c in game.view(seat).get("hand", [])} if draw else set()
                game.act(seat, action, now=now)
                if draw:
                    self._drawn[k] = [c for c in game.view(seat).get("hand", [])
                                      if c["id"] not in held]
        return self._drawn

    def game_at(self, step: int) -> Game:
        """The game after ``step`` moves (0: as dealt); a new object, the caller's own."""
        step = max(0, min(step, len(self.moves)))
        base = step // self.EVERY
        game = engine.restore(self._kept[base])
        for k in range(base * self.EVERY, step):
            _play(game, k + 1, self.moves[k])
        return game

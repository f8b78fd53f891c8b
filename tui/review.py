"""A finished game in words: each move of its record as a line, where its rounds start,
and its result — for the review screen and ``hiddenhand history``.

Pure functions of a record and its replay (``engine.record``): no screen, no database.
A move's line is the one the log showed for its events (``tui.games.past_events``);
where the log shows nothing (Get It!'s signals, a Got Five! mark, GET OUT!'s own draw)
the move itself is put in words, with what was hidden then laid open: the game is over.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from engine.record import PRIVATE_ACTIONS, Replay
from tui.games.past_events import describe_past_event
from tui.notices import Namer, listed

GAME_NAMES = {"getout": "GET OUT!", "getit": "Get It!", "gotfive": "Got Five!"}
#: The events that start a part of the game a review jumps to (``[`` and ``]``).
PART_STARTS = {"getout": {"round_started"}, "getit": {"dealt"}, "gotfive": {"clue"}}
#: The end of a game kept unfinished, as its last line says it.
UNFINISHED = "The game ended here, unfinished."
#: Get It!'s signals, as a line says them.
SIGNALS = {"look": "looks at", "smile": "smiles at", "look_past": "looks past"}


class Step(NamedTuple):
    """One entry of a record: its number in the record (from 1), engine time, the seat
    that moved (``None``: time acted) and the line that says it; for a line that tells
    what only the mover saw (the card a GET OUT! draw took), the line everyone else
    read; ``move``: whether it is a move of the game (a Got Five! mark is a private
    note on one's own board, not a move: a review steps through it, uncounted)."""

    number: int
    time: float
    seat: int | None
    text: str
    others: str | None = None
    move: bool = True
    #: The line in fewer words, for the review's one line that says where it is.
    brief: str | None = None

    def seen_by(self, seat: int | None) -> str:
        """The line as ``seat`` knew it (``None``: everything open)."""
        if self.others is None or seat is None or seat == self.seat:
            return self.text
        return self.others


def clock(seconds: float) -> str:
    """Engine time as m:ss."""
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def _move_words(game_id: str, seat: int, action: dict[str, Any], namer: Namer) -> str:
    """A move the log had no line for, in words."""
    who, kind = namer.name(seat), action.get("type")
    target = action.get("target")
    if kind in SIGNALS:
        aim = "nobody" if target is None else namer.name(target)
        return f"{who} {SIGNALS[kind]} {aim}"
    if kind == "peek":
        return f"{who} {'peeks at their own card' if action.get('on') else 'stops peeking'}"
    if kind == "arrange":
        return f"{who} arranged their pile"
    if kind == "mark":
        return _marks_words(who, action, [action.get("n")])
    if kind == "auto_cross":
        return f"{who} turned auto-cross {'on' if action.get('on') else 'off'}"
    if kind == "next_round":
        return f"{who} started the next round"  # (n: "went on to" read as odd)
    return f"{who}: {kind}"


def _marks_words(who: str, action: dict[str, Any], numbers: list[Any], *,
                 brief: bool = False) -> str:
    """Marks of one kind on a Got Five! board in words ("Ann marked 6, 16 and 21 ✗ on
    their board"); ``brief``: "Ann marked 3 ✗ (6 to 21)"."""
    mark = {"cross": "✗", "circle": "○"}.get(str(action.get("mark")), "no mark")
    if not brief:
        return f"{who} marked {listed(numbers)} {mark} on their board"
    if len(numbers) == 1:
        return f"{who} marked {numbers[0]} {mark}"
    known = [n for n in numbers if isinstance(n, int)]
    span = f" ({min(known)} to {max(known)})" if known else ""
    return f"{who} marked {len(numbers)} {mark}{span}"


#: Moves said in words even when their events have a line (which says something else).
SAID_ALWAYS = {"arrange", "next_round"}


def is_move(game_id: str, action: Any) -> bool:
    """Whether a record's entry with ``action`` (``None``: time acted) is a move of the
    game: an action that changes only its own seat's view (a Got Five! mark on one's
    own board) is not, and a review does not count it as one."""
    if not isinstance(action, dict):
        return True
    return (game_id, action.get("type")) not in PRIVATE_ACTIONS


def move_times(game_id: str,
               entries: Iterable[tuple[int, Any, float]]) -> list[tuple[int, float]]:
    """The number and engine time of each move among ``entries`` (each a record entry's
    number, action and time): the moves a review counts and plays on through."""
    return [(k, now) for k, action, now in entries if is_move(game_id, action)]


class Movers:
    """Who moved for each seat as a record went: the names it started with, then its
    ``seated`` changes (``engine.record``: a bot standing in for someone away, the
    person back, a new name). Asked move by move, in order (:meth:`at`)."""

    def __init__(self, names: list[str], seated: Any = ()) -> None:
        self.names = list(names)
        #: The well-formed ``seated`` changes, in order.
        self.changes = [c for c in seated if isinstance(c, list | tuple) and len(c) == 4
                         and isinstance(c[0], int) and isinstance(c[1], int)
                         and 0 <= c[1] < len(self.names) and isinstance(c[2], str)
                         and (c[3] is None or isinstance(c[3], str))]
        self._next = 0
        self._namer = Namer(self.names)
        #: What a seat's next move says first: who moves for it now.
        self._news: dict[int, str] = {}
        self._standing: set[int] = set()

    def at(self, k: int) -> Namer:
        """The names as they were at move ``k`` (from 1)."""
        changed = False
        while self._next < len(self.changes) and self.changes[self._next][0] < k:
            _, seat, name, for_name = self.changes[self._next]
            self._next += 1
            was, self.names[seat] = self.names[seat], name
            if for_name is not None:
                self._news[seat] = f"{name} plays for {for_name} until they are back"
                self._standing.add(seat)
            elif seat in self._standing:
                self._standing.discard(seat)
                self._news[seat] = f"{name} is back"
            else:
                self._news[seat] = f"{was} is now called {name}"
            changed = True
        if changed:
            self._namer = Namer(self.names)
        return self._namer

    def news(self, seat: int | None) -> str | None:
        """Who moves for ``seat`` now, if that changed since its last move (said once)."""
        return None if seat is None else self._news.pop(seat, None)


def names_at(names: list[str], seated: Any, at: int) -> list[str]:
    """Who sat where as move ``at`` was made: ``names`` as the game began, with the
    ``seated`` changes made before it (a bot standing in is "Bot 2 for Bob"). A change
    right after it shows from the next move on, as the list of moves says it there."""
    out = list(names)
    for change in Movers(names, seated).changes:
        moves, seat, name, for_name = change
        if moves < at:
            out[seat] = name if for_name is None else f"{name} for {for_name}"
    return out


def steps(record: dict[str, Any], replay: Replay) -> list[Step]:
    """Every move of ``record`` as a line (several events: their lines joined)."""
    game_id = record["game"]
    movers = Movers([p["name"] for p in record["players"]], record.get("seated", []))
    # GET OUT!'s draws are said with the card drawn.
    drawn = replay.drawn() if game_id == "getout" else {}
    out: list[Step] = []
    run: tuple[Any, Any, list[Any]] | None = None  # the marks of a range, one step
    for k, ((seat, action, now), events) in enumerate(zip(record["moves"], replay.events,
                                                          strict=True), 1):
        namer = movers.at(k)
        step = _step(game_id, namer, k, now, seat, action, events, drawn.get(k),
                     movers.news(seat))
        if step is None:
            run = None
            continue
        if isinstance(action, dict) and action.get("type") == "mark" and not events:
            # A range crossed with one key (``<``) is as many marks in a row: one step
            # (they took a key each to step through, with no move between).
            if run is not None and run[:2] == (seat, action.get("mark")) \
                    and out[-1].number == k - 1:
                run[2].append(action.get("n"))
                out[-1] = step._replace(text=_marks_words(namer.name(seat), action, run[2]),
                                        brief=_marks_words(namer.name(seat), action, run[2],
                                                           brief=True))
                continue
            run = (seat, action.get("mark"), [action.get("n")])
            step = step._replace(brief=_marks_words(namer.name(seat), action, run[2],
                                                    brief=True))
        else:
            run = None
        out.append(step)
    if out and record.get("result") is None:
        # (A finished game's last line says how it ended; an unfinished one said nothing.)
        last = out[-1]
        out[-1] = last._replace(text=f"{last.text} · {UNFINISHED}", others=(
            None if last.others is None else f"{last.others} · {UNFINISHED}"))
    return out


def _step(game_id: str, namer: Namer, k: int, now: float, seat: int | None,
          action: dict[str, Any] | None, events: list[dict[str, Any]],
          drew: list[dict[str, Any]] | None, news: str | None = None) -> Step | None:
    """Move ``k`` as a line (``None``: nothing to say): its events' lines, the move in
    words where they say nothing of it, and the card a draw brought (``drew``: known to
    the reader), with the line everyone else read; ``news`` first (who moves for the
    seat now, :class:`Movers`)."""
    # The drawer's own line names the card; everyone else read the event's line (the
    # pile may have been turned over first: that line stays in both).
    lines, others, named = [], [], False
    for e in events:
        line = own = describe_past_event(game_id, e, namer)
        if (drew is not None and seat is not None and not named
                and e.get("type") == "drew" and e.get("seat") == seat):
            own, named = _drawn(drew, namer.name(seat)), True
        if line is not None:
            others.append(line)
        if own is not None:
            lines.append(own)
    public = " · ".join(others) if named else None
    if seat is not None and action is not None and (
            not lines or action.get("type") in SAID_ALWAYS):
        lines = [_move_words(game_id, seat, action, namer), *lines]
    if news is not None and lines:
        lines.insert(0, news)
        if public is not None:
            public = f"{news} · {public}"
    return (Step(k, now, seat, " · ".join(lines), public, is_move(game_id, action))
            if lines else None)


def shared_steps(game_id: str, names: list[str], moves: list[Any],
                 seated: Any = ()) -> list[Step]:
    """The moves a host's shared review sent (``net.shared_review``: each as this seat
    knew it) as lines, named as :class:`Movers` says from its ``seated``; an entry that
    is not what a host sends is left out."""
    movers = Movers(names, seated if isinstance(seated, list) else [])
    out = []
    for m in moves:
        if not isinstance(m, dict):
            continue
        k, now, seat = m.get("n"), m.get("time"), m.get("seat")
        action, events, drew = m.get("action"), m.get("events"), m.get("drew")
        if (not isinstance(k, int) or not isinstance(now, int | float)
                or not (seat is None or isinstance(seat, int))
                or not (action is None or isinstance(action, dict))
                or not isinstance(events, list)
                or not all(isinstance(e, dict) for e in events)
                or not (drew is None or isinstance(drew, list))):
            continue
        try:
            namer = movers.at(k)
            step = _step(game_id, namer, k, float(now), seat, action, events, drew,
                         movers.news(seat))
        except (KeyError, TypeError, ValueError, IndexError):
            continue  # (not what a host of this version sends)
        if step is not None:
            out.append(step)
    return out


def wire_part_starts(game_id: str, moves: list[Any]) -> list[int]:
    """:func:`part_starts` of a shared review's moves."""
    starts = PART_STARTS.get(game_id, set())
    return [m["n"] for m in moves if isinstance(m, dict) and isinstance(m.get("n"), int)
            and isinstance(m.get("events"), list)
            and any(isinstance(e, dict) and e.get("type") in starts for e in m["events"])]


def _drawn(new: list[dict[str, Any]], who: str) -> str:
    """A GET OUT! draw with the card drawn, face up (the game is over)."""
    if not new:
        return f"{who} drew nothing: the draw pile was empty"
    from tui.games.getout.card import card_label

    return f"{who} drew {card_label(new[0])}"


def part_starts(record: dict[str, Any], replay: Replay) -> list[int]:
    """The move numbers at which a round (GET OUT!), a level's attempt (Get It!) or a
    clue (Got Five!) begins."""
    starts = PART_STARTS.get(record["game"], set())
    return [k for k, events in enumerate(replay.events, 1)
            if any(e.get("type") in starts for e in events)]


def result_words(game_id: str, result: Any, names: list[str]) -> str:
    """A finished game's result in a few words."""
    if not isinstance(result, dict):
        return "not finished"
    if game_id == "getit":
        level = result.get("level")
        return f"won, level {level}" if result.get("won") else f"lost at level {level}"
    seats = [s for s in result.get("winners") or [] if isinstance(s, int) and s < len(names)]
    return (" and ".join(names[s] for s in seats) + " won") if seats else "nobody won"

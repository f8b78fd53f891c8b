"""Past games in a table and in figures: what ``hiddenhand history`` prints and the
app's past-games screen shows. Pure functions of the kept games' summaries
(``net.records.GameInfo``); no database, no screen.
"""

from __future__ import annotations

import io
import time
from collections import defaultdict
from collections.abc import Iterable
from typing import Any, NamedTuple

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from net.records import GameInfo
from net.whose import Reader
from tui.review import GAME_NAMES, result_words

#: The periods a history can be narrowed to, in days (``None``: all of it).
PERIODS: dict[str, float | None] = {"all": None, "year": 365, "month": 30, "week": 7,
                                    "day": 1}


def since(period: str, now: float | None = None) -> float | None:
    """The wall-clock time a period starts at (``None``: the beginning)."""
    days = PERIODS[period]
    return None if days is None else (now or time.time()) - days * 86400


def when(info: GameInfo) -> str:
    """When a game ended, in local time."""
    if info.ended is None:
        return "?"
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(info.ended))


def length(info: GameInfo) -> str:
    """How long a game lasted, as m:ss (or h:mm:ss)."""
    if info.started is None or info.ended is None:
        return "?"
    seconds = max(0, int(info.ended - info.started))
    hours, rest = divmod(seconds, 3600)
    return (f"{hours}:" if hours else "") + f"{rest // 60:02d}:{rest % 60:02d}"


def players_text(info: GameInfo) -> str:
    """The players in seat order, the winners starred."""
    return ", ".join(player_entries(info))


def player_entries(info: GameInfo) -> list[str]:
    """Each player's name in seat order, a winner's starred; bots side by side that did
    alike as one entry ("Bots 2–4 ★": at 80 columns "root ★, Bot 2 ★, Bot 3 ★, Bot" cut
    the last)."""
    entries: list[str] = []
    run: list[int] = []  # (seats of bots named by their seat, side by side, alike)

    def star(seat: int) -> str:
        return " ★" if seat in info.winners else ""

    def flush() -> None:
        if len(run) > 1:
            entries.append(f"Bots {run[0] + 1}–{run[-1] + 1}{star(run[0])}")
        else:
            entries.extend(f"{info.players[s]}{star(s)}" for s in run)
        run.clear()

    for seat, (name, kind) in enumerate(zip(info.players, info.kinds, strict=True)):
        if kind == "bot" and name == f"Bot {seat + 1}":
            if run and star(run[0]) != star(seat):
                flush()
            run.append(seat)
            continue
        flush()
        entries.append(f"{name}{star(seat)}")
    flush()
    return entries


def wrapped_entries(entries: list[str], width: int) -> str:
    """``entries`` comma-joined in lines of at most ``width`` cells, broken only between
    entries (a line that wrapped inside a name read "Bot" and "3" as two players)."""
    lines: list[str] = []
    line = ""
    for entry in entries:
        # (One wide name squeezed every other column out: it is cut, as a cell is.)
        cut = Text(entry)
        cut.truncate(width - 1, overflow="ellipsis")
        entry = cut.plain
        longer = f"{line}, {entry}" if line else entry
        if line and cell_len(longer) + 1 > width:  # (+1: the comma the line ends with)
            lines.append(line + ",")
            line = entry
        else:
            line = longer
    lines.append(line)
    return "\n".join(lines)


def row(info: GameInfo) -> tuple[str, ...]:
    """One game as a line of the history table."""
    # (An imported game is a friend's, in nobody's figures here: it said so only in JSON.)
    result = result_words(info.game, info.result, info.players)
    return (str(info.id), when(info), GAME_NAMES.get(info.game, info.game),
            players_text(info), f"{result} · a friend's" if info.imported else result,
            str(info.moves), length(info))


PLAYERS = "players (★ won)"
HEADERS = ("id", "ended", "game", PLAYERS, "result", "moves", "length")
#: What fits 80 columns (the command line narrower than ``WIDE_HISTORY``).
SHORT = 5
#: A narrow list's columns (:func:`narrow_row`): each game's cells stacked in lines.
NARROW_HEADERS = ("game, ended", "result, players (★ won)")
#: The widest a narrow list's first column gets ("Got Five!", "05-28 20:46").
NARROW_FIRST = 11


def narrow_row(info: GameInfo, width: int) -> tuple[str, str]:
    """One game as a narrow list shows it (a phone's, where a line of seven cells was
    cut at the edge): its game over when it ended, and its result over its players,
    their lines at most ``width`` cells, broken between players."""
    ended = "?" if info.ended is None else time.strftime("%m-%d %H:%M",
                                                         time.localtime(info.ended))
    result = result_words(info.game, info.result, info.players)
    if info.imported:
        result += " · a friend's"
    return (f"{GAME_NAMES.get(info.game, info.game)}\n{ended}",
            f"{_wrapped_words(result, width)}\n"
            f"{wrapped_entries(player_entries(info), width)}")


def _wrapped_words(words: str, width: int) -> str:
    """``words`` in lines of at most ``width`` cells, broken between words."""
    return "\n".join(line.plain.rstrip() for line in Text(words).wrap(_CONSOLE, width))


#: What rich wraps text with (its tab size; nothing is printed to it).
_CONSOLE = Console(file=io.StringIO(), color_system=None)


def plain(info: GameInfo) -> dict[str, Any]:
    """One game as plain data, for scripts (``hiddenhand history --json``)."""
    return {"id": info.id, "game": info.game, "seats": info.seats,
            "started": info.started, "ended": info.ended, "moves": info.moves,
            "players": [{"name": n, "kind": k, "won": i in info.winners}
                        for i, (n, k) in enumerate(zip(info.players, info.kinds,
                                                       strict=True))],
            "result": info.result, "imported": info.imported}


class Figures(NamedTuple):
    """One game at one player count, as a player's statistics."""

    game: str
    seats: int
    played: int
    won: int
    #: What matters most in that game, in words (best level, clues, points a round).
    more: str


def figures(infos: Iterable[GameInfo], player: Reader | None) -> list[Figures]:
    """Per game and player count: games played (to their end) and won by ``player`` (any
    person when ``None``), and the game's own measure."""
    groups: dict[tuple[str, int], list[GameInfo]] = defaultdict(list)
    for info in infos:
        # (A friend's game is not one played here; a game ended unfinished, no result.)
        if info.imported or info.result is None:
            continue
        seat = _seat(info, player)
        if seat is not None:
            groups[(info.game, info.seats)].append(info)
    out = []
    for (game, seats), games in sorted(groups.items()):
        won = sum(1 for g in games if _seat(g, player) in g.winners)
        out.append(Figures(game, seats, len(games), won, _more(game, games, player)))
    return out


def _seat(info: GameInfo, player: Reader | None) -> int | None:
    """The seat ``player`` had (the first person's when ``None``)."""
    if player is not None:
        return info.seat_of(player)
    return next((i for i, kind in enumerate(info.kinds) if kind == "human"), None)


def _more(game: str, games: list[GameInfo], player: Reader | None) -> str:
    if game == "getit":
        levels = [_level(g.result) for g in games]
        best = max(levels, key=lambda lv: (lv == "X", lv if isinstance(lv, int) else 0))
        # ("best level 5" beside a game "lost at level 6" read as a level it did not reach.)
        return f"cleared up to level {best}" if best else "no level cleared yet"
    if game == "gotfive":
        clues = [g.facts["right_after"] for g in games
                 if _seat(g, player) in g.winners and "right_after" in g.facts]
        if not clues:
            return "no right GOT FIVE! yet"
        return f"{sum(clues) / len(clues):.1f} clues to a right GOT FIVE!"
    points = [p for g in games if (p := _points_a_round(g, player)) is not None]
    if not points:
        return ""
    # (Fewer is better: "0.0 points a round" did not say which way.)
    return f"{sum(points) / len(points):.1f} points a round (fewer is better)"


def _points_a_round(info: GameInfo, player: Reader | None) -> float | None:
    """A GET OUT! game's points a round for ``player``'s seat, over the rounds it played
    (a match's rounds after it was out not: the plot counted them, the average not, and
    every game's plotted figure was below their average)."""
    result: dict[str, Any] = info.result if isinstance(info.result, dict) else {}
    seat, rounds = _seat(info, player), result.get("rounds") or 0
    scores, played = result.get("scores") or [], result.get("played")
    if seat is not None and isinstance(played, list) and seat < len(played):
        rounds = played[seat]
    if seat is None or not isinstance(rounds, int) or isinstance(rounds, bool) \
            or rounds <= 0 or seat >= len(scores):
        return None
    score = scores[seat]
    if not isinstance(score, int | float) or isinstance(score, bool):
        return None
    return score / rounds


def trend(infos: Iterable[GameInfo], game: str,
          player: Reader | None) -> tuple[str, list[float]]:
    """What a small plot of ``game`` shows, oldest game first, and its values: Get It!'s
    levels cleared, GET OUT!'s points a round (fewer is better), Got Five!'s clues
    before a right GOT FIVE! (0: none)."""
    mine = [i for i in reversed(list(infos)) if i.game == game and not i.imported
            and i.result is not None and _seat(i, player) is not None]
    if game == "getit":
        values = [float(lv) if isinstance(lv := _level(i.result), int) else 7.0
                  for i in mine]
        return "levels cleared, game by game (oldest first)", values
    if game == "gotfive":
        return "clues before a right GOT FIVE! (0: none), game by game", [
            float(i.facts.get("right_after", 0)) if _seat(i, player) in i.winners else 0.0
            for i in mine]
    values = [p for i in mine if (p := _points_a_round(i, player)) is not None]
    return "points a round (fewer is better), game by game", values


def _level(result: Any) -> Any:
    """The last level a Get It! game cleared (0: none; "X": its Level X round)."""
    level = result.get("level") if isinstance(result, dict) else None
    if isinstance(result, dict) and not result.get("won") and isinstance(level, int):
        # The level it was lost at is the one after the last cleared, unless it was the
        # first played ("cleared up to level 2" of a game started and lost at level 3).
        start = result.get("start_level")
        return level - 1 if not isinstance(start, int) or level > start else 0
    return level if level is not None and (level != "X" or result.get("won")) else 0


def figures_plain(found: list[Figures]) -> list[dict[str, Any]]:
    """Statistics as plain data, for scripts."""
    return [{"game": f.game, "seats": f.seats, "played": f.played, "won": f.won,
             "measure": f.more} for f in found]


def figures_rows(found: list[Figures], width: int | None = None) -> list[tuple[str, ...]]:
    """Statistics as table rows; with ``width``, their how in lines at most that wide."""
    return [(GAME_NAMES.get(f.game, f.game), str(f.seats), str(f.played), str(f.won),
             f"{100 * f.won / f.played:.0f}%",
             f.more if width is None else _wrapped_words(f.more, width)) for f in found]


FIGURE_HEADERS = ("game", "seats", "played", "won", "won %", "how")
#: The figures in a narrow table (:func:`narrow_figures_rows`).
NARROW_FIGURE_HEADERS = ("game", "won", "how")


def narrow_figures_rows(found: list[Figures], width: int) -> list[tuple[str, ...]]:
    """Statistics as a narrow table's rows, each cell's lines stacked: the game over its
    player count, the games won over the share, and how, in lines of at most ``width``
    cells."""
    return [(f"{GAME_NAMES.get(f.game, f.game)}\n{f.seats} seats",
             f"{f.won} of {f.played}\n{100 * f.won / f.played:.0f}%",
             _wrapped_words(f.more, width)) for f in found]


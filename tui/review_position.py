"""A finished game's position at one move, as the review screen shows it: seen from one
seat (what that player knew then) or with everything laid open.

A position is drawn from views (:class:`Position`): the view of the seat it is seen
from, as the wire carries it (time left as ``remaining`` seconds), so the review a host
shares with its table (``net.shared_review``: each member is sent only its own view) and
the review of a game kept here draw alike. Laid open, the position also holds what the
host-only ``laid_open()`` shows and every seat's own view (the game is over, and kept
here). What each game's review is worth having for: GET OUT!'s every hand, the call card
and each round's points; Get It!'s piles laid open with every signal of the moment
against the sand timer; Got Five!'s count of racks each seat could still hold after each
clue (the engine's own exact hint) and each board as its player had marked it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any, NamedTuple

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.text import Text

from engine.core import Game
from engine.gotfive_hint import hint_for
from net.fanout import wire_time
from tui.games.getit.text import card_short, card_text, level_text, signal_lines
from tui.games.getout.card import card_label, image_label
from tui.games.gotfive.board import BOARD_TEXT_WIDTH, board_text, seen_in
from tui.games.gotfive.grid import HALVES, THIRDS, WHOLE
from tui.games.gotfive.rack import grid
from tui.games.gotfive.text import tile_text
from tui.notices import Namer
from tui.review import clock
from tui.widgets.wrapped import BETWEEN_ENTRIES, HangingLine, Phrases


class Position(NamedTuple):
    """What a review shows at one move: ``view`` is the view of ``seat`` (``None``: the
    spectator's) as the wire carries it; laid open, ``open`` is the game's
    ``laid_open()`` and ``views`` every seat's own view."""

    game_id: str
    view: dict[str, Any]
    seat: int | None
    names: list[str]
    open: dict[str, Any] | None = None
    views: list[dict[str, Any]] | None = None
    #: Seats whose private moves the review leaves out (``Replay.private``).
    private: frozenset[int] = frozenset()
    #: The reader's own seats (``None``: ``seat``, as at a table's shared review).
    yours: frozenset[int] | None = None

    def own(self, i: int) -> dict[str, Any] | None:
        """Seat ``i``'s own view, if this position holds it."""
        if self.views is not None:
            return self.views[i]
        return self.view if i == self.seat else None


def position_of(game: Game, seat: int | None, names: list[str],
                private: frozenset[int] = frozenset(),
                yours: frozenset[int] | None = None) -> Position:
    """The position of a game kept here, from ``seat`` (``None``: everything open)."""
    def seen(s: int | None) -> dict[str, Any]:
        return wire_time(game.view(s), game.now)

    if seat is not None:
        return Position(game.spec.id, seen(seat), seat, names, private=private, yours=yours)
    return Position(game.spec.id, seen(None), None, names, game.laid_open(),
                    [seen(i) for i in range(game.seats)], private, yours)


def _seat_title(out: Text, i: int, p: Position) -> None:
    """Seat ``i``'s number and name, and "(you)" on the reader's own (another seat's
    view said "(you)" on that seat: Bob read "1 Ann (you)")."""
    out.append(f"{i + 1} {p.names[i]}", style="bold")
    if i in _yours(p):
        out.append(" (you)", style="italic")
    elif i == p.seat:
        out.append(" (seen from here)", style="italic")


def _yours(p: Position) -> frozenset[int]:
    """The reader's own seats in this position."""
    return p.yours if p.yours is not None else frozenset(() if p.seat is None else (p.seat,))


def getout_position(p: Position) -> Group:
    view, seat, names = p.view, p.seat, p.names
    hands = p.open["hands"] if p.open is not None else None
    head = Text()
    call = view.get("call")
    head.append(f"Round {view.get('round')}", style="bold")
    to_draw = f" · {view.get('draw_count', 0)} to draw"
    if call and call.get("wild") and view.get("image"):
        # On a line of its own: beside the rest it wrapped at 80 columns.
        head.append(f"{to_draw}\ncall card {card_label(call)} naming "
                    f"{image_label(view['image'])}")
    else:
        head.append(f" · call card {card_label(call)}" if call else "")
        head.append(to_draw)
    # (Wrapped between its phrases: "· 44" / "to draw" read as two things.)
    out = Text("\n")
    parts: list[RenderableType] = [Phrases(head), out]
    turn = view.get("turn")
    for i in range(len(names)):
        marker = "▶ " if i == turn else "  "
        out.append(marker)
        _seat_title(out, i, p)
        score = view["scores"][i]
        out.append(f"  {score} point{'' if score == 1 else 's'}\n")
        out_of_match = view.get("out") or []  # (a flag a seat)
        if i < len(out_of_match) and out_of_match[i] is True:
            out.append(f"     out of the match (over {view.get('limit')})\n")
            counts = view.get("hand_counts") or []
            if not (i < len(counts) and counts[i]):
                continue  # (their empty hand read as a round won)
            # (Out in the last round, they hold what put them out: it was hidden.)
        if hands is not None:
            shown = hands[i]
        elif i == seat:
            shown = view.get("hand", [])
        else:
            count = view["hand_counts"][i]
            out.append(f"     {count} card{'' if count == 1 else 's'} (hidden)\n" if count
                       else "     no cards left\n")
            continue
        # (Wrapped under itself, never inside a card's name: "Tea" / "Picker 1".)
        parts.append(HangingLine("    ", ", ".join(card_label(c) for c in shown)
                                 or "no cards left", gap=1))
        out = Text()
        parts.append(out)
    history = view.get("history") or []
    if history:
        out.append("\nPoints by round\n", style="bold")
        limit, totals = view.get("limit"), [0] * len(names)
        for r, points in enumerate(history, 1):
            # A player out of the match before the round reads "out" (a 0 read as the
            # round's winner's).
            shown = ["out" if isinstance(limit, int) and totals[i] > limit else str(p)
                     for i, p in enumerate(points)]
            totals = [t + p for t, p in zip(totals, points, strict=False)]
            # (Wrapped between its players: "Bot" / "4 38" read as two.)
            row = f"  r{r}: "
            parts += [Phrases(row + "  ".join(f"{names[i]} {p}" for i, p in
                                               enumerate(shown)),
                              indent=len(row), breaks=BETWEEN_ENTRIES)]
    for part in parts:
        if isinstance(part, Text) and part.plain.endswith("\n"):
            part.right_crop(1)  # (each part of a group starts a line of its own)
    return Group(*(part for part in parts if not isinstance(part, Text) or part.plain))


#: The width of a tile and of a notch in a Got Five! rack's grid: as in play, room for
#: a tile with its dots and a space (a sorted tile under a notch keeps every dot).
RACK_TILE, RACK_NOTCH = 7, 6


class Fitted:
    """A part of a position drawn for the width it is given: the review draws a
    position before it knows how wide its place is, and a phone's is narrow."""

    def __init__(self, draw: Callable[[int], RenderableType]) -> None:
        self.draw = draw

    def __rich_console__(self, console: Console,
                         options: ConsoleOptions) -> Iterator[RenderableType]:
        yield self.draw(options.max_width)


def rack_for(width: int) -> tuple[range, ...]:
    """The rows a rack of the review is drawn in, ``width`` columns wide."""
    if width >= 4 + 5 * RACK_TILE + 6 * RACK_NOTCH:
        return WHOLE
    return HALVES if width >= 4 + 3 * RACK_TILE + 3 * RACK_NOTCH else THIRDS


def _rack(tiles: list[dict[str, Any]], clues: list[dict[str, Any]], seat: int,
          width: int) -> Text:
    return grid(tiles, clues, seat, RACK_TILE, RACK_NOTCH, theirs=True,
                parts=rack_for(width))


def _private_board(name: str, width: int) -> Text:
    """What the review says of a board whose marks it leaves out, in ``width``."""
    # ("their marks are theirs alone" left a player asking if the board was empty.)
    words = f"  {name}'s board: not shown (a player's marks are private)"
    if cell_len(words) > width:
        words = f"  {name}'s board: not shown"
    return Text(words, style="dim")


def _board(marks: dict[str, str], locked: frozenset[int], width: int) -> Text:
    return board_text(marks, locked, split=width < BOARD_TEXT_WIDTH)
#: Get It!'s phases, as a player says them.
PHASES = {"prepare": "preparing the piles", "play": "the round runs",
          "round_over": "the round is over", "over": "the game is over"}


def getit_position(p: Position) -> Group:
    view, seat, names = p.view, p.seat, p.names
    # "YOU" in a signal is the reader, as "(you)" by a name is: seen from another seat,
    # "looks at YOU" meant that seat beside "1 Ann (you)".
    reader = seat if seat in _yours(p) else None
    namer = Namer(names, reader)
    head = Text()
    head.append(f"{level_text(view.get('level'))}, attempt {view.get('attempt')} of "
                f"{view.get('attempts')}", style="bold")
    left, timer = view.get("remaining"), view.get("timer")
    if isinstance(left, int | float) and timer:
        head.append(f" · sand timer {clock(left)} left of {clock(timer)}")
    head.append(f" · {PHASES.get(str(view.get('phase')), view.get('phase'))}")
    # (Wrapped between its phrases: "0:59" / "left of 1:00" read as two things.)
    out = Text("\n")
    open_piles = p.open["piles"] if p.open is not None else None
    signals = view.get("signals") or []
    sizes = view.get("hand_sizes") or []
    preparing = view.get("phase") == "prepare"
    for i in range(len(names)):
        _seat_title(out, i, p)
        pile = view["piles"][i]
        # While preparing, a hand is seen by whoever arranges it (and laid open), as
        # they saw it (laid open, the dealt order showed a special on top).
        hand = (p.own(i) or {}).get("hand") if preparing else None
        size = sizes[i] if preparing and i < len(sizes) else 0
        arranged = (view.get("arranged") or [])[i:i + 1] == [True]
        if hand:
            # (Once confirmed, the hand is in its arranged order.)
            out.append(("  arranged, top first: " if arranged else "  to arrange: ")
                       + " ".join(card_short(c) for c in hand) + "\n")
        elif size:
            out.append(f"  arranging {size} cards\n")
        elif open_piles is not None:
            cards = " ".join(card_short(c) for c in open_piles[i]) or "— empty —"
            out.append(f"  pile (top first): {cards}\n")
        else:
            top = pile.get("top")
            shown = "— empty —" if not pile.get("count") else (
                f"top {card_text(top)}" if top else
                f"top hidden ({'your' if i in _yours(p) else 'their'} own card)")
            count = pile.get("count")
            out.append(f"  {count} card{'' if count == 1 else 's'}, {shown}\n")
        said = signal_lines(signals[i], namer, reader) if i < len(signals) else []
        if said:
            out.append("     " + " · ".join(said) + "\n", style="italic")
    played = view.get("played") or []
    out.append("\nPlayed: ", style="bold")
    out.append(" ".join(card_short(c) for c in played) or "nothing yet")
    out.append("\n")
    return Group(Phrases(head), out)


def gotfive_position(p: Position) -> Group:
    view, names = p.view, p.names
    over = view.get("phase") == "over"
    racks = p.open["racks"] if p.open is not None else view.get("racks") or []
    public = view
    clues = public.get("clues") or []
    parts: list[RenderableType] = []
    out = Text()
    out.append(f"{len(clues)} clue{'' if len(clues) == 1 else 's'} given", style="bold")
    if not over:
        out.append(" · racks each seat could still hold (exact)")
    out.append("\nPublic: ")
    for tile in public.get("public") or []:
        out.append_text(tile_text(tile))
        out.append(" ")
    out.append("\n")
    for i in range(len(names)):
        out.append("\n▶ " if view.get("turn") == i and not over else "\n  ")
        _seat_title(out, i, p)
        # From a seat, only what that player knew: their own count and board.
        own = p.own(i)
        count = (hint_for({k: v for k, v in own.items() if k != "hint"}, "count")
                 if own is not None and not over else None)
        if count is not None:
            out.append(f"  {count['count']} possible rack"
                       f"{'' if count['count'] == 1 else 's'}")
        tiles = racks[i] if i < len(racks) else []
        # The rack's grid as a part of its own: cut at the edge, never wrapped.
        parts += [out, Fitted(partial(_rack, tiles, clues, i))]
        out = Text()
        marks = (own.get("marks") if own is not None else None) or {}
        if own is not None and i in p.private:
            # (Left out of this review: RULES.md sends a player's marks to nobody else.)
            parts.append(Fitted(partial(_private_board, names[i])))
        elif own is not None and (marks or p.yours is None or i in p.yours):
            # (The reader's own board even before a mark: at move 0 it was not drawn,
            # while the others' said theirs were private.)
            # The seat's board as they had marked it by this move (✗ not mine, ○ mine,
            # - seen elsewhere, with auto-cross): the view's marks hold auto-cross's
            # crosses as crosses, so what the seat saw then says which they are.
            locked = (seen_in(own, i) if own is not None and own.get("auto_cross")
                      else frozenset())
            parts += [Text(f"  {names[i]}'s board:", style="dim"),
                      Fitted(partial(_board, marks, locked))]
    return Group(*parts, out)


POSITIONS: dict[str, Callable[[Position], RenderableType]] = {
    "getout": getout_position, "getit": getit_position, "gotfive": gotfive_position}


def draw(p: Position) -> RenderableType:
    """The position drawn for the review (a game this app cannot draw: said so)."""
    drawer = POSITIONS.get(p.game_id)
    if drawer is None:
        return Text(f"this app cannot draw a {p.game_id!r} game")
    return drawer(p)


def position(game: Game, seat: int | None, names: list[str],
             private: frozenset[int] = frozenset(),
             yours: frozenset[int] | None = None) -> RenderableType:
    """The position of ``game`` from ``seat`` (``None``: everything open; ``private``:
    the seats whose private moves the review leaves out; ``yours``: the reader's seats)."""
    return draw(position_of(game, seat, names, private, yours))

"""A finished game's position at one move, as the review screen shows it: seen from one
seat (what that player knew then) or with everything laid open.

One function per game, each a pure function of the game at that move (``engine.record.
Replay.game_at``) returning Rich text; the game is over, so the host-only
``laid_open()`` may show every card. What each game's review is worth having for:
GET OUT!'s every hand, the call card and each round's points; Get It!'s piles laid open
with every signal of the moment against the sand timer; Got Five!'s count of racks each
seat could still hold after each clue (the engine's own exact hint) and each board as
its player had marked it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from engine.core import Game
from engine.gotfive_hint import hint_for
from tui.games.getit.text import card_short, card_text, level_text, signal_lines
from tui.games.getout.card import card_label, image_label
from tui.games.gotfive.board import board_text
from tui.games.gotfive.rack import grid
from tui.games.gotfive.text import tile_text
from tui.notices import Namer
from tui.review import clock


def _seat_title(out: Text, i: int, names: list[str], seat: int | None) -> None:
    out.append(f"{i + 1} {names[i]}", style="bold")
    if i == seat:
        out.append(" (seen from here)", style="italic")


def getout_position(game: Game, seat: int | None, names: list[str]) -> Text:
    view = game.view(seat)
    hands = game.laid_open()["hands"] if seat is None else None
    out = Text()
    call = view.get("call")
    out.append(f"Round {view.get('round')}", style="bold")
    if call:
        out.append(f" · call card {card_label(call)}")
        if call.get("wild") and view.get("image"):
            out.append(f" naming {image_label(view['image'])}")
    out.append(f" · {view.get('draw_count', 0)} to draw\n\n")
    turn = view.get("turn")
    for i in range(game.seats):
        marker = "▶ " if i == turn else "  "
        out.append(marker)
        _seat_title(out, i, names, seat)
        out.append(f"  {view['scores'][i]} points\n")
        if hands is not None:
            shown = hands[i]
        elif i == seat:
            shown = view.get("hand", [])
        else:
            out.append(f"     {view['hand_counts'][i]} cards (hidden)\n")
            continue
        out.append("     " + ", ".join(card_label(c) for c in shown) + "\n")
    history = view.get("history") or []
    if history:
        out.append("\nPoints by round\n", style="bold")
        for r, points in enumerate(history, 1):
            out.append(f"  r{r}: " + "  ".join(f"{names[i]} {p}" for i, p in
                                                 enumerate(points)) + "\n")
    return out


#: The width of a tile and of a notch in a Got Five! rack's grid.
RACK_TILE, RACK_NOTCH = 6, 4
#: Get It!'s phases, as a player says them.
PHASES = {"prepare": "preparing the piles", "play": "the round runs",
          "round_over": "the round is over", "over": "the game is over"}


def getit_position(game: Game, seat: int | None, names: list[str]) -> Text:
    view = game.view(seat)
    namer = Namer(names, seat)
    out = Text()
    out.append(f"{level_text(view.get('level'))}, attempt {view.get('attempt')} of "
               f"{view.get('attempts')}", style="bold")
    deadline, timer = view.get("deadline"), view.get("timer")
    if isinstance(deadline, int | float) and timer:
        left = max(0.0, deadline - game.now)
        out.append(f" · sand timer {clock(left)} left of {clock(timer)}")
    out.append(f" · {PHASES.get(str(view.get('phase')), view.get('phase'))}\n\n")
    open_piles = game.laid_open()["piles"] if seat is None else None
    signals = view.get("signals") or []
    for i in range(game.seats):
        _seat_title(out, i, names, seat)
        pile = view["piles"][i]
        hand = game.laid_open()["hands"][i] if view.get("phase") == "prepare" else []
        if hand and (seat is None or seat == i):
            out.append("  to arrange: " + " ".join(card_short(c) for c in hand) + "\n")
        elif hand:
            out.append(f"  arranging {len(hand)} cards\n")
        elif open_piles is not None:
            cards = " ".join(card_short(c) for c in open_piles[i]) or "— empty —"
            out.append(f"  pile (top first): {cards}\n")
        else:
            top = pile.get("top")
            shown = "— empty —" if not pile.get("count") else (
                f"top {card_text(top)}" if top else "top hidden (their own card)")
            count = pile.get("count")
            out.append(f"  {count} card{'' if count == 1 else 's'}, {shown}\n")
        said = signal_lines(signals[i], namer, seat) if i < len(signals) else []
        if said:
            out.append("     " + " · ".join(said) + "\n", style="italic")
    played = view.get("played") or []
    out.append("\nPlayed: ", style="bold")
    out.append(" ".join(card_short(c) for c in played) or "nothing yet")
    out.append("\n")
    return out


def gotfive_position(game: Game, seat: int | None, names: list[str]) -> Group:
    racks = game.laid_open()["racks"]
    public = game.view(None)
    clues = public.get("clues") or []
    parts: list[Text] = []
    out = Text()
    out.append(f"{len(clues)} clue{'' if len(clues) == 1 else 's'} given", style="bold")
    if not game.over:
        out.append(" · racks each seat could still hold (exact)")
    out.append("\nPublic: ")
    for tile in public.get("public") or []:
        out.append_text(tile_text(tile))
        out.append(" ")
    out.append("\n")
    for i in range(game.seats):
        own = game.view(i)
        out.append("\n▶ " if own.get("turn") == i and not game.over else "\n  ")
        _seat_title(out, i, names, seat)
        # From a seat, only what that player knew: their own count and board.
        mine = seat is None or i == seat
        count = hint_for({k: v for k, v in own.items() if k != "hint"}, "count")
        if count is not None and mine and not game.over:
            out.append(f"  {count['count']} possible rack"
                       f"{'' if count['count'] == 1 else 's'}")
        hidden = seat is not None and i == seat and not game.over
        tiles = game.view(seat)["racks"][i] if hidden else racks[i]
        # The rack's grid as a part of its own: cut at the edge, never wrapped.
        parts += [out, grid(tiles, clues, i, RACK_TILE, RACK_NOTCH, theirs=True)]
        out = Text()
        marks = own.get("marks") or {}
        if marks and mine:
            # The seat's board as they had marked it by this move (✗ not mine, ○ mine,
            # - seen elsewhere, with auto-cross).
            parts += [Text(f"  {names[i]}'s board:", style="dim"), board_text(marks)]
    return Group(*parts, out)


POSITIONS: dict[str, Callable[[Game, int | None, list[str]], RenderableType]] = {
    "getout": getout_position, "getit": getit_position, "gotfive": gotfive_position}


def position(game: Game, seat: int | None, names: list[str]) -> Any:
    """The position of ``game`` from ``seat`` (``None``: everything open)."""
    return POSITIONS[game.spec.id](game, seat, names)

"""The end of a Got Five! game: who won and how, every rack face up, every clue, every
announcement."""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from tui.games.gotfive.rack import clues_of
from tui.games.gotfive.text import clue_text, numbers_text, tile_text
from tui.notices import Namer
from tui.screens.summary import GUEST_AT_END, Choice, SummaryScreen
from tui.widgets.wrapped import wrap_pieces


def rack_pieces(rack: list[dict[str, Any]]) -> list[Text]:
    """A face-up rack, − to +, a piece per tile (a line may break between them)."""
    return [Text("−", style="bold"), *(tile_text(tile) for tile in rack),
            Text("+", style="bold")]


class RacksTable:
    """One row per player: the rack face up and how the game ended for them — the name,
    the rack and the result side by side where they fit, else the rack under the name
    and result (at 45 columns the names were squeezed out of the row)."""

    #: The narrowest a name's column is let go before the rack goes under it.
    NAME_ROOM = 8

    def __init__(self, view: dict[str, Any], names: list[str], me: int | None) -> None:
        winners = view.get("winners") or []
        self.rows: list[tuple[Text, list[Text], str]] = []
        for seat, rack in enumerate(view.get("racks") or []):
            name = Text(names[seat] if seat < len(names) else f"seat {seat + 1}",
                        style="bold" if seat == me else "")
            if seat == me:
                name.append(" (you)", style="italic")
            notches, compared = clues_of(view.get("clues") or [], seat)
            clues = sum(len(n) for n in notches) + sum(len(c) for c in compared)
            if seat in winners:
                result = "🏆 won"
            elif (view.get("out") or [])[seat:seat + 1] == [True]:
                result = "✗ out"
            else:
                result = ""
            plural = "" if clues == 1 else "s"
            self.rows.append((name, rack_pieces(rack),
                              f"{result} · {clues} clue{plural}".strip(" ·")))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        rack_w = max((Text(" ").join(rack).cell_len for _, rack, _ in self.rows), default=0)
        result_w = max((cell_len(result) for _, _, result in self.rows), default=0)
        # Names whole, or the racks go under them ("Bob" / "(you)" at 80 columns).
        name_w = max((name.cell_len for name, _, _ in self.rows), default=0)
        if options.max_width < max(self.NAME_ROOM, name_w) + rack_w + result_w + 4:
            yield from self._stacked(options.max_width)
            return
        table = Table(box=None, expand=True, pad_edge=False, title="Every rack",
                      title_justify="left", title_style="bold")
        table.add_column("player")
        table.add_column("rack", no_wrap=True)  # a rack reads as one row, − to +
        table.add_column("", no_wrap=True)  # the name wraps first
        for name, rack, result in self.rows:
            table.add_row(name, Text(" ").join(rack), result)
        yield table

    def _stacked(self, width: int) -> RenderResult:
        """Each player's name and result on a line, the rack under them."""
        yield Text("Every rack", style="bold")
        for name, rack, result in self.rows:
            line = name.copy()
            line.truncate(max(1, width - cell_len(result) - 1))
            line.append(" " * max(1, width - line.cell_len - cell_len(result)))
            line.append(result)
            yield line
            yield from wrap_pieces(rack, width, 2)


def racks_table(view: dict[str, Any], names: list[str], me: int | None) -> RacksTable:
    """Every rack face up, with each player's name and result (see :class:`RacksTable`)."""
    return RacksTable(view, names, me)


def history(view: dict[str, Any], names: list[str], me: int | None) -> Group:
    """Every clue, oldest first (a clue too long for its line wraps under its words,
    not under its number)."""
    namer = Namer(names, me)
    racks = view.get("racks") or []
    clues = view.get("clues") or []
    rows = Table.grid(padding=(0, 1, 0, 0))
    rows.add_column(justify="right", no_wrap=True)
    rows.add_column()
    for i, clue in enumerate(clues, start=1):
        seat = clue.get("seat")
        colours = [t.get("colour") for t in racks[seat]] if isinstance(seat, int) and \
            seat < len(racks) else []
        rows.add_row(f"{i}.", clue_text(clue, namer, colours))
    return Group(Text("Clues, oldest first", style="bold"),
                 rows if clues else Text("(none)"))


def announcements(view: dict[str, Any], names: list[str], me: int | None) -> Text:
    """Who called GOT FIVE!, with what, and whether it was right (a wrong call says
    which numbers were not the caller's, beside what the rack held there)."""
    namer = Namer(names, me)
    racks = view.get("racks") or []
    out = Text()
    out.append("GOT FIVE! calls\n", style="bold")
    calls = view.get("announcements") or []
    if not calls:
        out.append("(nobody called)")
    for call in calls:
        numbers = call.get("numbers") or []
        verdict = "✓ right" if call.get("right") else "✗ wrong"
        seat = call.get("seat")
        rack = racks[seat] if isinstance(seat, int) and seat < len(racks) else []
        held = [tile.get("n") if isinstance(tile, dict) else None for tile in rack]
        missed = [f"{had} not {n}" for n, had in zip(numbers, held, strict=False)
                  if isinstance(had, int) and had != n]
        if not call.get("right") and missed:
            verdict += f": {', '.join(missed)}"
        out.append(f"{namer.who(seat)}: {numbers_text(numbers)}  {verdict}\n")
    return out


def game_over_summary(view: dict[str, Any], names: list[str], me: int | None, *,
                      can_lobby: bool) -> SummaryScreen:
    """The dialog at the end of the game."""
    winners = view.get("winners") or []
    namer = Namer(names, me)
    who = ", ".join(namer.who(s) for s in winners) or "Nobody"
    right = any(c.get("right") for c in view.get("announcements") or [])
    how = "named all five" if right else "the last one left in"
    verb = "win" if who == "You" else "wins"
    title = Text(f"🏆 {who} {verb}: {how}!", style="bold")
    body: list[RenderableType] = [racks_table(view, names, me),
                                  announcements(view, names, me),
                                  history(view, names, me)]
    choices = [Choice("rematch", "Rematch"),
               Choice("lobby", "Lobby", primary=False)] if can_lobby else []
    # (r reveals at the table: a player who typed it for their turn as a bot won the
    # game is asked again, however long they thought first.)
    return SummaryScreen(title, body, choices, id="gotfive-over", clashes=frozenset("r"),
                         waiting=None if can_lobby else GUEST_AT_END)

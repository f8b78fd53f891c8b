"""The summary at the end of a GET OUT! round or match: who got out, what the others held,
their points and totals, and the match's limit."""

from __future__ import annotations

from typing import Any

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from tui.games.getout.card import NAMES
from tui.notices import listed
from tui.screens.summary import GUEST_AT_END, Choice, SummaryScreen
from tui.widgets.wrapped import HangingLine

#: Below this width the round's table is a list, a player's figures under their name: as
#: a table at a phone's 40 columns the figures left no room for the names ("…").
NARROW = 60


class RoundTable:
    """The round's points, as a table where it fits (:func:`summary_table`), else as a
    list (:func:`summary_lines`): decided at the width it is drawn at."""

    def __init__(self, view: dict[str, Any], names: list[str], me: int | None) -> None:
        self.view, self.names, self.me = view, names, me

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if options.max_width >= NARROW:
            yield summary_table(self.view, self.names, self.me)
        else:
            yield from summary_lines(self.view, self.names, self.me)


def _row(view: dict[str, Any], names: list[str], me: int | None,
         seat: int) -> tuple[Text, Text, str]:
    """A player's name (and "(you)"), the cards they were left holding, and what became
    of them in the round (won it, out of the match, or nothing)."""
    last = view.get("last_round") or {}
    label = Text(names[seat], style="bold" if seat == me else "")
    if seat == me:
        label.append(" (you)", style="italic")
    counts = view.get("hand_counts") or [0] * len(names)
    held = counts[seat] if seat < len(counts) else 0
    left = Text("—" if not held else f"{held} card{'' if held == 1 else 's'}")
    note = ""
    if seat == last.get("winner"):
        note = "got out: won the round"  # ("got out" beside "out of the match": mixed up)
    elif view["out"][seat]:
        # (Out before this round, they scored none in it: "— 0" read like the winner's.)
        points = last.get("points") or []
        earlier = seat < len(points) and points[seat] == 0
        note = "out in an earlier round" if earlier else "out of the match"
    return label, left, note


def summary_lines(view: dict[str, Any], names: list[str], me: int | None) -> list[Text]:
    """The round's points as a list: a line a player (name, what became of them), and
    their figures under it."""
    points = (view.get("last_round") or {}).get("points") or [0] * len(names)
    lines = []
    for seat in range(len(names)):
        label, left, note = _row(view, names, me, seat)
        if note:
            label.append(f" · {note}")
        lines.append(label)
        held = "no cards" if left.plain == "—" else left.plain
        got = f"{points[seat]} point{'' if points[seat] == 1 else 's'}"
        total = f" · total {view['scores'][seat]}" if view.get("match") else ""
        lines.append(Text(f"  {held} · {got}{total}",
                          style="dim" if not note and seat != me else ""))
    return lines


def summary_table(view: dict[str, Any], names: list[str], me: int | None) -> Table:
    """Points of the last round (and a match's totals), one row per player, with the
    cards each was left holding, as a count (the rules never show another player's hand,
    not even once the round is over; our own is named under the table)."""
    last = view.get("last_round") or {}
    points = last.get("points") or [0] * len(names)
    table = Table(box=None, expand=True, pad_edge=False)
    # (On a phone's 40 columns "6 cards" and "root (you)" wrapped a word a line: a name
    # is cut with "…" rather than wrapped, and a count is never cut.)
    table.add_column("player", ratio=1, no_wrap=True, overflow="ellipsis")
    table.add_column("left", no_wrap=True, min_width=7)
    table.add_column("points", justify="right")
    match = bool(view.get("match"))  # (one round: its points are the only total)
    if match:
        table.add_column("total", justify="right")
    table.add_column("", justify="left")
    for seat in range(len(names)):
        label, left, note = _row(view, names, me, seat)
        total = [str(view["scores"][seat])] if match else []
        table.add_row(label, left, str(points[seat]), *total, note)
    return table


def cards_left(hand: list[dict[str, Any]]) -> HangingLine:
    """Our leftover cards, by image: "You were left with Geoff 2, 5 and 10 · GET OUT!", an
    image's numbers kept with its name when the line wraps (at 80 columns "Tea Picker 4"
    ended a line and its "7." began the next, read as a stray number)."""
    by_image: dict[str, list[str]] = {}
    for card in hand:
        if card.get("wild"):
            by_image.setdefault("GET OUT!", []).append("")
        else:
            by_image.setdefault(NAMES[card["image"]], []).append(str(card["value"]))
    # (An image's numbers as a list, "Geoff 1 and 14": "Geoff 1 14" read as one card.)
    # (Wild cards counted: "GET OUT! GET OUT! GET OUT!." read as a shout; kept on one
    # line with no-break spaces: "a" ended a line.)
    parts = [f"{name} {listed(values)}" if name != "GET OUT!" else
             "a\u00a0GET OUT!\u00a0card" if len(values) == 1
             else f"{len(values)}\u00a0GET OUT!\u00a0cards" for name, values in by_image.items()]
    return HangingLine("", "You were left with " + " · ".join(parts) + ".", gap=0)


def how_points_count(view: dict[str, Any]) -> Text:
    """The line under the table: where the points come from, and the limit."""
    text = ("Points are the cards left in hand: numbers at face value, Tea Pickers double, "
            "GET OUT! cards 20.")
    if view.get("match"):
        text += f" A total over {view.get('limit')} is out of the match."
    return Text(text, style="italic")


def round_summary(view: dict[str, Any], names: list[str], me: int | None, *,
                  can_deal: bool, can_lobby: bool,
                  waiting: str | None = "Waiting for a player to start the next round…",
                  players: list[str] | None = None) -> SummaryScreen:
    """The dialog for the end of a round (or of the match): ``names`` are the seats'
    owners (the scores are theirs), ``players`` who played them ("Bot 3 for Cy")."""
    last = view.get("last_round") or {}
    owners, names = names, players or names
    winner = int(last.get("winner", 0))
    over = view["phase"] == "over"
    if over:
        champion = (view.get("winners") or [winner])[0]
        who = "You win" if champion == me else f"{names[champion]} wins"
        what = "the match" if view["match"] else "the round"
        title = Text(f"🏆 {who} {what}!", style="bold")
    else:
        who = "You" if winner == me else names[winner]
        title = Text(f"Round {last.get('round')}: {who} got out first.")
        if me is not None and view["out"][me]:
            title.append(f" You passed {view.get('limit')} and are out of the match.",
                         style="bold")
        # (The winner deals: the log said so only once the round was dealt.)
        title.append(f" {who} {'deal' if winner == me else 'deals'} the next round.")
    choices = []
    if not over and can_deal:
        choices.append(Choice("next", "Next round"))
    if over and can_lobby:
        choices.append(Choice("rematch", "Rematch"))
    if can_lobby:  # mid-match, the creator may end it there (the table asks first)
        choices.append(Choice("lobby", "Lobby" if over else "End the match", primary=False))
    if over or can_deal:
        waiting = None
    if over and not can_lobby:
        waiting = GUEST_AT_END
    if not over and me is not None and view["out"][me]:
        waiting = "The others play on without you."
    # (No id: with the bots at full speed the next round's summary may open while the
    # last one is still being taken down, and two screens of one id crash the app.)
    body: list[RenderableType] = [RoundTable(view, owners, me)]
    if me is not None and view.get("hand") and winner != me:
        body.append(cards_left(view["hand"]))
    body.append(how_points_count(view))
    return SummaryScreen(title, body, choices, waiting=waiting)

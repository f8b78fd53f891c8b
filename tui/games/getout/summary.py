"""The summary at the end of a GET OUT! round or match: who got out, points, totals."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text

from tui.screens.summary import Choice, SummaryScreen


def summary_table(view: dict[str, Any], names: list[str], me: int | None) -> Table:
    """Points of the last round and match totals, one row per player."""
    last = view.get("last_round") or {}
    points = last.get("points") or [0] * len(names)
    table = Table(box=None, expand=True, pad_edge=False)
    table.add_column("player", ratio=1)
    table.add_column("this round", justify="right")
    table.add_column("total", justify="right")
    table.add_column("", justify="left")
    for seat, name in enumerate(names):
        label = Text(name, style="bold" if seat == me else "")
        if seat == me:
            label.append(" (you)", style="italic")
        note = ""
        if seat == last.get("winner"):
            note = "got out"
        elif view["out"][seat]:
            note = "out of the match"
        table.add_row(label, str(points[seat]), str(view["scores"][seat]), note)
    return table


def round_summary(view: dict[str, Any], names: list[str], me: int | None, *,
                  can_deal: bool, can_lobby: bool) -> SummaryScreen:
    """The dialog for the end of a round (or of the match)."""
    last = view.get("last_round") or {}
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
    choices = []
    if not over and can_deal:
        choices.append(Choice("next", "Next round"))
    if over and can_lobby:
        choices.append(Choice("lobby", "Back to the lobby"))
    waiting = "Waiting for a player to deal the next round…" if not over and not can_deal else None
    # (No id: with the bots at full speed the next round's summary may open while the
    # last one is still being taken down, and two screens of one id crash the app.)
    return SummaryScreen(title, [summary_table(view, names, me)], choices, waiting=waiting)

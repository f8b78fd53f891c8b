"""The summary at the end of a GET OUT! round or match: who got out, points, totals."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static


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


class RoundOverScreen(ModalScreen[str | None]):
    """Shown when a round (or the whole match) ends; answers "next", "lobby" or None."""

    BINDINGS = [
        Binding("n", "answer('next')", "Next round"),
        Binding("l", "answer('lobby')", "Back to lobby"),
        Binding("escape,c", "answer(None)", "Look at the table"),
    ]

    def __init__(self, view: dict[str, Any], names: list[str], me: int | None, *,
                 can_deal: bool, can_lobby: bool) -> None:
        super().__init__()
        self.view_data = view
        self.names = names
        self.me = me
        self.can_deal = can_deal
        self.can_lobby = can_lobby

    def compose(self) -> ComposeResult:
        view, names, me = self.view_data, self.names, self.me
        last = view.get("last_round") or {}
        winner = int(last.get("winner", 0))
        over = view["phase"] == "over"
        with Vertical(classes="dialog", id="round-over"):
            if over:
                champion = (view.get("winners") or [winner])[0]
                who = "You win" if champion == me else f"{names[champion]} wins"
                what = "the match" if view["match"] else "the round"
                yield Label(Text(f"🏆 {who} {what}!", style="bold"), classes="question")
            else:
                who = "You" if winner == me else names[winner]
                yield Label(Text(f"Round {last.get('round')}: {who} got out first."),
                            classes="question")
            yield Static(summary_table(view, names, me))
            if not over and not self.can_deal:
                yield Label("Waiting for a player to deal the next round…")
            with Horizontal(classes="buttons"):
                if not over and self.can_deal:
                    yield Button("Next round (n)", id="next", variant="primary")
                if over and self.can_lobby:
                    yield Button("Back to the lobby (l)", id="to-lobby", variant="primary")
                yield Button("Look at the table (c)", id="close")

    def on_mount(self) -> None:
        """Focus the harmless choice: an Enter meant for the last card must not deal."""
        self.query_one("#close", Button).focus()

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        """Answer with the button pressed."""
        answers = {"next": "next", "to-lobby": "lobby"}
        self.dismiss(answers.get(event.button.id or ""))

    def action_answer(self, answer: str | None) -> None:
        """Answer from the keyboard (only with what is possible)."""
        if answer == "next" and not self.can_deal:
            return
        if answer == "lobby" and not self.can_lobby:
            return
        self.dismiss(answer)

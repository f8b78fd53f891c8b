"""The Get It! round summary: won or lost (and why), level up or game over, every pile
of the finished round laid open, and the Level X record."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text

from tui.games.getit.levels import new_card_missing
from tui.games.getit.text import card_text, level_text
from tui.notices import Namer, seat_index
from tui.screens.summary import GUEST_AT_END, Choice, SummaryScreen


def headline(view: dict[str, Any], namer: Namer) -> Text:
    """What happened, in one line: cleared, lost (which card, or time), won, game over."""
    last = view.get("last_round") or {}
    result = view.get("result") or {}
    level = last.get("level")
    if last.get("won"):
        if view.get("phase") == "over" and level == "X":
            return Text(f"✓ Level X cleared with {last.get('cards')} cards!", style="bold")
        if view.get("phase") == "over":
            return Text("🏆 Level 6 cleared: the team wins Get It!", style="bold")
        nxt = level + 1 if isinstance(level, int) else level
        return Text(f"✓ {level_text(level)} cleared! On to level {nxt}.", style="bold")
    reveal = view.get("reveal") or {}
    wrong = reveal.get("wrong")
    if last.get("reason") == "wrong" and isinstance(wrong, dict):
        expected = [_expected(e, namer) for e in wrong.get("expected") or []
                    if isinstance(e, dict)]
        should = f" — {' or '.join(expected)} had to go first" if expected else ""
        what = f"✗ {namer.who(wrong.get('seat'))} played {card_text(wrong.get('card'))}{should}."
    elif last.get("reason") == "time":
        left = int(last.get("cards") or 0) - int(last.get("played") or 0)
        what = f"✗ Time ran out with {left} card{'s' if left != 1 else ''} still to play."
    else:
        what = "✗ The round was lost."
    text = Text(what, style="bold")
    if view.get("phase") == "over" and level != "X":
        text.append(f"\nGame over at {level_text(result.get('level', level))}.")
    elif view.get("phase") != "over":
        text.append(f"\nNext: {level_text(level)}, attempt {int(last.get('attempt', 1)) + 1} "
                    f"of {view.get('attempts', 2)}.")
    return text


def _expected(entry: dict[str, Any], namer: Namer) -> str:
    """A card that had to go first: named, or (the one on our own pile, or any for a
    spectator, never shown) whose top card it was."""
    if isinstance(entry.get("card"), dict):
        return f"the {card_text(entry['card'])} held by {namer.whom(entry.get('seat'))}"
    return f"{namer.whose(entry.get('seat'))} top card"


def record_line(view: dict[str, Any]) -> Text | None:
    """Level X: the score and the record, with "new record!" when it is one."""
    result = view.get("result") or {}
    if result.get("level") != "X":
        return None
    seats = result.get("seats")
    if result.get("new_best"):
        before = result.get("previous_best")
        was = f" (was {before})" if before else ""
        return Text(f"★ New record for {seats} players: {result.get('best')} cards!{was}",
                    style="bold reverse")
    best = result.get("best")
    # The engine sets no record in an untimed round (practice); say so, not "no record".
    practice = " An untimed round sets no record." if not view.get("timer") else ""
    if best:
        return Text(f"Record for {seats} players: {best} cards.{practice}")
    return Text(f"No record yet for {seats} players.{practice}")


def piles_table(view: dict[str, Any], namer: Namer) -> Table:
    """Every pile of the finished round laid open: who held it, who sorted it, its cards."""
    reveal = view.get("reveal") or {}
    wrong = reveal.get("wrong") if isinstance(reveal.get("wrong"), dict) else None
    table = Table(box=None, expand=True, pad_edge=False, title="The piles, laid open",
                  title_justify="left")
    table.add_column("held by", no_wrap=True)
    # (Short: at a phone's width a longer heading wrapped into the names' column.)
    # ("left" read as the left neighbour.)
    table.add_column("unplayed, top first", ratio=1)
    piles = reveal.get("piles") or []
    counts = [p.get("count", 0) if isinstance(p, dict) else 0 for p in view.get("piles") or []]
    counts += [0] * (len(piles) - len(counts))
    for holder, cards in enumerate(piles):
        row = Text()
        if wrong and seat_index(wrong.get("seat")) == holder:
            # (Played, not left: it lost the round from the top of this pile.)
            row.append(f"✗{card_text(wrong.get('card'))} played", style="bold reverse")
            # (A dot with nothing after it dangled; none before a hidden pile's count
            # ran the two together: "✗6 played2 cards".)
            if (cards if isinstance(cards, list) else counts[holder]):
                row.append(" · ")
        for card in cards if isinstance(cards, list) else []:
            row.append(f"{card_text(card)}  ")
        if cards is None and counts[holder]:
            # (RULES.md: never the pile a seat holds, the round over too.)
            n = counts[holder]
            row.append(f"{n} card{'s' if n != 1 else ''}"
                       + (" (the pile you held: never shown to you)" if holder == namer.me else ""),
                       style="dim")
        elif not row:
            row.append("(all played)", style="dim")
        table.add_row(namer.who(holder), row)
    return table


def round_summary(view: dict[str, Any], names: list[str], me: int | None, *,
                  can_deal: bool, can_lobby: bool, note: str | None = None,
                  dealer: str = "Waiting for a player to start the next round…"
                  ) -> SummaryScreen:
    """The dialog at the end of a round (or of the game), with ``note`` for the player
    last (our line of talk kept unsaid)."""
    namer = Namer(names, me)
    over = view.get("phase") == "over"
    body: list[Any] = []
    record = record_line(view)
    if record is not None:
        body.append(record)
    reveal = view.get("reveal") or {}
    left = any(isinstance(p, dict) and p.get("count") for p in view.get("piles") or [])
    if left or reveal.get("wrong"):
        body.append(piles_table(view, namer))
    else:
        # Every pile played out (a cleared round): nothing is left to lay open.
        body.append(Text("Every card was played."))
    missing = new_card_missing(view)
    if missing is not None:
        body.append(Text(missing))
    if note:
        body.append(Text(f"✎ {note}", style="italic"))
    choices = []
    if not over and can_deal:
        choices.append(Choice("next", "Next round"))
    if not over and can_lobby:
        # (As GET OUT!'s "End the match": the creator had to close this to find l.)
        choices.append(Choice("lobby", "End the game", primary=False))
    if over and can_lobby:
        choices.append(Choice("rematch", "Rematch"))
        choices.append(Choice("lobby", "Lobby", primary=False))
    waiting = None
    if not over and not can_deal:
        waiting = dealer
    elif over and not can_lobby:
        waiting = GUEST_AT_END
    return SummaryScreen(headline(view, namer), body, choices, waiting=waiting,
                         id="getit-summary")

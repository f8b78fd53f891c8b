"""GET OUT! in words: the log's line for each of the game's events.

A pure function of the event (plain data as the host sends it), so it is tested without
a screen, and describes an earlier game's events at a table that now plays another
(:mod:`tui.games.past_events`).
"""

from __future__ import annotations

from typing import Any

from tui.games.getout.card import card_label, image_label
from tui.notices import Namer, listed


def describe_event(event: dict[str, Any], namer: Namer) -> str | None:
    """One line of the move log for a public event."""
    who, names = namer.who, namer
    kind = event.get("type")
    if kind == "played":
        named = f", naming {image_label(event['image'])}" if "image" in event else ""
        return f"{who(event['seat'])} played {card_label(event['card'])}{named}"
    if kind == "drew":
        mine = event.get("mine")  # our own draw: the card is in our hand now
        if isinstance(mine, dict) and (mine.get("wild") or "image" in mine):
            return f"{who(event['seat'])} drew {card_label(mine)}"
        return f"{who(event['seat'])} drew a card"
    if kind == "passed":
        return f"{who(event['seat'])} passed: nothing left to draw"
    if kind == "recycled":
        count = event["count"]
        return (f"The played pile ({count} card{'' if count == 1 else 's'}) was turned over "
                f"as the draw pile")
    if kind == "round_over":
        out = "".join(f"; {namer.whom(s)} passed the limit and "
                      f"{'are' if s == namer.me else 'is'} out"
                      for s in event["out"])
        return f"Round {event['round']}: {who(event['winner'])} got out first{out}"
    if kind == "round_started":
        dealer = event["dealer"]
        return (f"Round {event['round']}: you deal" if dealer == namer.me
                else f"Round {event['round']}: {names.name(dealer)} deals")
    if kind == "game_over":
        return f"Game over: {listed([namer.whom(s) for s in event['winners']])} won"
    return None


def nothing_to_draw(view: dict[str, Any]) -> bool:
    """Nothing to draw, nor to turn over as the draw pile: a draw passes."""
    return view.get("draw_count") == 0 and (view.get("played_count") or 0) <= 1


def turn_status(view: dict[str, Any], plays: bool) -> str:
    """The status line on our turn (``plays``: a card of ours follows the call)."""
    if view["call"] is None:
        return "▶ Your turn: lay any card as the call card (Enter)."
    empty = nothing_to_draw(view)  # (then d passes: the line said "draw (d)")
    if plays:
        return ("▶ Your turn: play a card marked ✓ (Enter) or pass (d): nothing to draw."
                if empty else "▶ Your turn: play a card marked ✓ (Enter) or draw (d).")
    return ("▶ Your turn: nothing matches and nothing is left to draw — pass (d)." if empty
            else "▶ Your turn: nothing matches — draw a card (d).")


#: The turn's line in fewer words, for a terminal too narrow for the whole line.
SHORT_STATUS = {
    "▶ Your turn: play a card marked ✓ (Enter) or draw (d).": "▶ Play a ✓ card (Enter) or draw (d)",
    "▶ Your turn: lay any card as the call card (Enter).": "▶ Lay any card to start (Enter)",
    "▶ Your turn: nothing matches — draw a card (d).": "▶ Nothing matches: draw (d)",
    "▶ Your turn: play a card marked ✓ (Enter) or pass (d): nothing to draw.":
        "▶ Play a ✓ card (Enter) or pass (d)",
    "▶ Your turn: nothing matches and nothing is left to draw — pass (d).":
        "▶ Nothing to play or draw: pass (d)",
    "▶ Your turn: tap a ✓ card to choose it (▼), the ▼ card to play it, or the draw "
    "pile to draw.": "▶ Tap ✓: choose, ▼: play, or draw pile",
    "▶ Your turn: tap a card to choose it (▼), the ▼ card to lay it as the call card.":
        "▶ Tap a card; tap ▼ to lay it",
    "▶ Your turn: nothing matches — tap the draw pile.": "▶ Nothing matches: tap the draw pile",
    "▶ Your turn: tap a ✓ card to choose it (▼), the ▼ card to play it, or tap the empty "
    "draw pile to pass.": "▶ Tap ✓: choose, ▼: play, or pass",
    "▶ Your turn: nothing matches or is left to draw — tap the draw pile to pass.":
        "▶ Nothing to play: tap the draw pile",
}
#: The turn's line on a touch screen, where a tap chooses a card and a tap on the one
#: chosen plays it (a phone has no Enter to press; "tap it twice" was once too many for
#: a card chosen already).
TOUCH_STATUS = {
    # (Nor a d: the draw pile is tapped.)
    "▶ Your turn: play a card marked ✓ (Enter) or draw (d).":
        "▶ Your turn: tap a ✓ card to choose it (▼), the ▼ card to play it, or the draw "
        "pile to draw.",
    "▶ Your turn: lay any card as the call card (Enter).":
        "▶ Your turn: tap a card to choose it (▼), the ▼ card to lay it as the call card.",
    # (A phone has no d: the draw pile is tapped.)
    "▶ Your turn: nothing matches — draw a card (d).":
        "▶ Your turn: nothing matches — tap the draw pile.",
    "▶ Your turn: play a card marked ✓ (Enter) or pass (d): nothing to draw.":
        "▶ Your turn: tap a ✓ card to choose it (▼), the ▼ card to play it, or tap the "
        "empty draw pile to pass.",
    "▶ Your turn: nothing matches and nothing is left to draw — pass (d).":
        "▶ Your turn: nothing matches or is left to draw — tap the draw pile to pass.",
}

"""What each Get It! level brings, in words: the special cards as players see them, a
level's new card, taught as it is dealt, and a word after a round whose deal left it out
(RULES.md's levels table)."""

from __future__ import annotations

from typing import Any

#: Special cards as players see them: a symbol one cell wide and the card's word.
SPECIALS = {
    "smile": ("☺", "SMILE"),
    "eyes": ("◉", "EYES"),
    "mirror": ("◧", "MIRROR"),
    "speech": ("✎", "SPEECH"),
}

#: What each level adds to the deck, in words (RULES.md's levels table).
NEW_AT_LEVEL: dict[int, tuple[str, str]] = {
    2: ("smile", "smile at whoever shows it (look, then s); everyone smiling at you: "
                  "play it"),
    3: ("eyes", "look past whoever shows them (look, then x); everyone looking past you: "
                "play it"),
    4: ("mirror", "when you see one, peek at your own card (p); everyone peeking: you "
                  "hold it, play it"),
    5: ("speech", "when you see it, talk (t); everyone talking: you hold it, play it"),
    6: ("double", "two cards of one number: either may go first"),
}


def in_deck(card: str, level: Any) -> bool:
    """Whether the special ``card`` ("smile", "eyes", …) is in ``level``'s deck (each
    from the level that adds it on; Level X has them all)."""
    added = next((n for n, (kind, _) in NEW_AT_LEVEL.items() if kind == card), None)
    return level == "X" or (added is not None and isinstance(level, int)
                            and not isinstance(level, bool) and level >= added)


#: A special card's name in a sentence.
CARD_NAMES = {"smile": "smile", "eyes": "eyes", "mirror": "mirror", "speech": "speech bubble"}


def new_at_level(level: Any) -> str | None:
    """ "+ ◧ mirror — while you see one, …": what this level adds (``None`` at level 1
    and Level X, which add nothing new to learn)."""
    if level not in NEW_AT_LEVEL:
        return None
    kind, how = NEW_AT_LEVEL[level]
    name = "10 doubles" if kind == "double" else f"{SPECIALS[kind][0]} {CARD_NAMES[kind]}"
    return f"+ {name} — {how}"


def earlier_specials(level: Any) -> str | None:
    """The special cards earlier levels added, in words ("☺ smile, ◉ eyes"), for a
    player whose first round is at ``level``: they never saw them introduced."""
    if not isinstance(level, int) or isinstance(level, bool):
        return None
    kinds = [NEW_AT_LEVEL[n][0] for n in range(2, min(level, 6))]
    return ", ".join(f"{SPECIALS[k][0]} {CARD_NAMES[k]}" for k in kinds) or None


def new_card_missing(view: dict[str, Any]) -> str | None:
    """After a round: a line when the level's new card was not dealt this time (a level
    deals some of its deck: a new player may not have met it)."""
    level = (view.get("last_round") or {}).get("level", view.get("level"))
    if level not in NEW_AT_LEVEL:
        return None
    reveal = view.get("reveal") or {}
    wrong = reveal.get("wrong")
    wrong = wrong if isinstance(wrong, dict) else {}
    dealt = [c for c in view.get("played") or [] if isinstance(c, dict)]
    dealt += [c for pile in reveal.get("piles") or [] if isinstance(pile, list)
              for c in pile if isinstance(c, dict)]
    if isinstance(wrong.get("card"), dict) and wrong["card"] not in dealt:
        dealt.append(wrong["card"])
    piles = reveal.get("piles") or []
    seen = view.get("piles") or []
    if any(pile is None and isinstance(held, dict) and held.get("count")
           for pile, held in zip(piles, seen, strict=False)):
        # A pile we may not see (our own; every one for a spectator) may hold it.
        return None
    kind = NEW_AT_LEVEL[level][0]
    if kind == "double":
        values = [c.get("value") for c in dealt if c.get("kind") == "number"]
        if len(values) != len(set(values)):
            return None
        return "No double (two cards of one number) was dealt this round."
    if any(c.get("kind") == kind for c in dealt):
        return None
    return f"No {CARD_NAMES[kind]} card was dealt this round: it may come next time."

"""Got Five! in words and glyphs: colour letters, tiles, clues and the log's lines.

Colour never carries meaning alone: every colour has a letter (A–E) printed on every
tile, rack slot and board row, so the game plays on a monochrome terminal and for
colour-blind players. Dots are bullets (``•``, ``••``, ``•••``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from engine.gotfive import colour_of, dots_of
from tui.notices import Namer, listed

#: The letter of each colour index (0..4).
LETTERS = "ABCDE"
#: The colour each letter is also drawn in (a help, never the only sign).
STYLES = ("bold #e8413c", "bold #e8c62a", "bold #3fbf4a", "bold #3f8ff0", "bold #c45ad0")


def letter(colour: Any) -> str:
    """The letter of colour index ``colour`` ("?" for anything else)."""
    if isinstance(colour, int) and not isinstance(colour, bool) and 0 <= colour < 5:
        return LETTERS[colour]
    return "?"


def colour_style(colour: Any) -> str:
    """The style a colour is drawn in ("" when unknown)."""
    if isinstance(colour, int) and not isinstance(colour, bool) and 0 <= colour < 5:
        return STYLES[colour]
    return ""


def dots(n: int) -> str:
    """The dots of tile ``n`` as bullets."""
    return "•" * dots_of(n)


def tile_label(n: int) -> str:
    """A face-up tile in plain words for logs and dialogs, e.g. "C33•"."""
    return f"{letter(colour_of(n))}{n}{dots(n)}"


def tile_text(tile: dict[str, Any] | int, *, width: int = 0, style: str = "") -> Text:
    """A tile as styled text: its letter, and its number and dots when face up.

    ``tile`` is a tile from the view (``{"colour"}`` for a hidden one) or a number.
    ``width`` pads the text on the right (0: no padding).
    """
    if isinstance(tile, int):
        tile = {"n": tile, "colour": colour_of(tile), "dots": dots_of(tile)}
    colour = tile.get("colour")
    out = Text(style=colour_style(colour))  # the whole tile in its colour (a help)
    out.append(letter(colour))
    n = tile.get("n")
    if isinstance(n, int):
        out.append(f"{n:>2}", style="bold")
        out.append("•" * int(tile.get("dots") or dots_of(n)))
    else:
        out.append(" ?", style="bold")
    if style:
        out.stylize(style)
    if width:
        out.pad_right(max(0, width - out.cell_len))
    return out


def position_label(position: int, colours: Sequence[Any], colour: Any = None) -> str:
    """A rack position as players count it, with its colour: "position 3 (B)" (the
    colour given, else the one ``colours`` has there; none when neither knows it)."""
    if colour is None and 0 <= position < len(colours):
        colour = colours[position]
    known = letter(colour)
    return f"position {position + 1}" + ("" if known == "?" else f" ({known})")


def clue_text(clue: dict[str, Any], namer: Namer, colours: Sequence[Any]) -> str:
    """One clue in words: who asked, about which tile, and the answer."""
    seat = clue.get("seat")
    who = namer.who(seat)
    # ("Bot 2 compared A1• with Bot 2's position 3" named the player twice.)
    whose = "your" if who == "You" else "their"
    n = int(clue["tile"])
    if clue.get("clue") == "sort":
        notch = int(clue["notch"])
        lower = {0: "none", 5: "all five"}.get(notch, str(notch))
        return f"{who} sorted {tile_label(n)} into notch {notch} ({lower} of {whose} tiles lower)"
    position = int(clue["position"])
    answer = "same dots" if clue.get("same") else "different dots"
    where = position_label(position, colours, clue.get("colour"))
    return f"{who} compared {tile_label(n)} with {whose} {where}: {answer}"


def numbers_text(numbers: Sequence[Any]) -> str:
    """Announced numbers in words: "3 14 25 36 47"."""
    return " ".join(str(n) for n in numbers)


def rack_label(rack: Sequence[dict[str, Any]]) -> str:
    """A face-up rack in words: "A3• C14•• …"."""
    return " ".join(tile_label(int(t["n"])) if "n" in t else f"{letter(t.get('colour'))}?"
                    for t in rack)


def describe_past_event(event: dict[str, Any], namer: Namer) -> str | None:
    """One line of the log for an event of an earlier Got Five! game at the table (its
    racks are gone: a compared position goes without its colour)."""
    return describe_event(event, namer, [])


def describe_event(event: dict[str, Any], namer: Namer,
                   racks: Sequence[Sequence[dict[str, Any]]]) -> str | None:
    """One line of the table's log for one of the engine's Got Five! events.

    ``racks`` (from the latest view) name a compared position's colour; a rack's
    colours never change during a game.
    """
    kind = event.get("type")
    if kind == "revealed":
        return f"{namer.who(event['seat'])} revealed {tile_label(int(event['tile']['n']))}"
    if kind == "clue":
        seat = event.get("seat")
        colours = [t.get("colour") for t in racks[seat]] if isinstance(seat, int) and \
            0 <= seat < len(racks) else []
        return clue_text(event, namer, colours)
    if kind == "announced":
        verdict = "right — five of five!" if event.get("right") else "wrong"
        return (f"{namer.who(event['seat'])} called GOT FIVE! with "
                f"{numbers_text(event['numbers'])}: {verdict}")
    if kind == "out":
        who = namer.who(event["seat"])
        return f"{who} {'are' if who == 'You' else 'is'} out; rack: {rack_label(event['rack'])}"
    if kind == "game_over":
        # (Mid-sentence: "Game over: you won", not "You won".)
        winners = listed([namer.whom(s) for s in event.get("winners") or []])
        how = ("named all five" if event.get("reason") == "announced"
               else "the last one left in")
        return f"Game over: {winners} won ({how})"
    return None


def short_event(event: dict[str, Any], namer: Namer) -> str | None:
    """A move in a few words for the status line, e.g. "Bob sorted C33• → notch 2"."""
    kind = event.get("type")
    who = namer.who(event.get("seat"))
    if kind == "revealed":
        return f"{who} revealed {tile_label(int(event['tile']['n']))}"
    if kind == "clue":
        tile = tile_label(int(event["tile"]))
        if event.get("clue") == "sort":
            return f"{who} sorted {tile} → notch {event['notch']}"
        answer = "same dots" if event.get("same") else "≠ dots"
        return f"{who} compared {tile} with position {int(event['position']) + 1}: {answer}"
    if kind == "announced":
        return f"{who} called GOT FIVE!: {'right' if event.get('right') else 'wrong'}"
    return None


def your_turn(phase: str, tile: str, *, touch: bool = False) -> tuple[str, ...]:
    """What the status line says on your turn in ``phase`` (``tile``: the public tile
    picked for a clue), longest first. ``touch``: a phone's, which names taps where
    keys are named (it has no r, no A–E, no 1–5)."""
    if phase == "reveal" and touch:
        return ("▶ Your turn: reveal a face-down tile — tap its colour in the supply.",
                "▶ Your turn: tap a colour of the supply to reveal it.",
                "▶ Reveal: tap a colour of the supply.")
    if phase == "reveal":
        return ("▶ Your turn: reveal a face-down tile — r, then its colour (A–E).",
                "▶ Your turn: reveal a tile — r, then A–E.",
                "▶ Reveal a tile: r, then A–E.")
    if phase == "clue" and touch:
        return (f"▶ Your turn: a clue about {tile} — Sort below, or tap a tile of your"
                " rack to compare · tap a public tile for another",
                f"▶ A clue about {tile}: Sort below · tap your tile to compare",
                f"▶ {tile}: Sort below · tap your tile to compare",
                f"▶ {tile}: Sort · tap yours to compare")
    if phase == "clue":
        return (f"▶ Your turn: a clue about {tile} — s sort · 1–5 compare · Tab/⇧Tab other tile",
                f"▶ A clue about {tile}: s sort · 1–5 compare · Tab",
                f"▶ {tile}: s sort · 1–5 compare · Tab next",
                f"▶ {tile}: s sort · 1–5 compare")
    announce = "GOT FIVE! below" if touch else "g"
    return (f"▶ No tiles are left: announce your five numbers ({announce}).",
            f"▶ No tiles left: announce your five ({announce}).",
            f"▶ Announce your five ({announce}).")


def why_not_now(view: dict[str, Any], me: int | None, names: list[str]) -> tuple[str, ...]:
    """Why a move's key does nothing now, while seat ``me`` still plays (the longest
    wording first; none: it works)."""
    turn, phase = view.get("turn"), view.get("phase")
    if me is None or phase in (None, "over"):
        return ()
    if turn != me:
        return f"It is {Namer(names, me).name(turn)}'s turn: wait for yours.", "Not your turn."
    if phase == "reveal":
        return ("First reveal a tile (r, then its colour): the clue about it comes after.",
                "First reveal a tile (r).")
    if phase == "clue":
        return ("You revealed a tile this turn: now sort it (s) or compare it (1–5).",
                "Now sort (s) or compare (1–5).")
    if phase == "announce":
        return ("No tiles are left: announce your five numbers (g).",
                "Announce your numbers (g).")
    return ()

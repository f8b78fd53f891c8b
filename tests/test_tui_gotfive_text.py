"""The Got Five! table's words: the GOT FIVE! check, log lines, clue placement."""

from __future__ import annotations

from engine.gotfive import colour_of, dots_of
from tui.games.gotfive.board import cell_of, number_at
from tui.games.gotfive.dialogs import check_numbers
from tui.games.gotfive.rack import OthersPanel, clues_of, grid
from tui.games.gotfive.text import describe_event, short_event, tile_label
from tui.notices import Namer

COLOURS = [0, 2, 4, 1, 3]  # a rack's colours, − to +


def face(n: int) -> dict[str, int]:
    return {"n": n, "colour": colour_of(n), "dots": dots_of(n)}


def test_got_five_numbers_are_checked_in_plain_words() -> None:
    assert check_numbers(["1", "13", "25", "32", "49"], COLOURS) == ([1, 13, 25, 32, 49], "")
    assert check_numbers(["1", "", "25", "32", "49"], COLOURS)[1] == "Fill in position 2 (C)."
    assert "not a number from 1 to 60" in check_numbers(["1", "61", "", "", ""], COLOURS)[1]
    assert check_numbers(["2", "13", "25", "32", "49"], COLOURS)[1] == (
        "Position 1 is colour A, but 2 is colour B.")
    assert "must be higher than 13" in check_numbers(["1", "13", "5", "32", "49"], COLOURS)[1]


def test_a_first_digit_of_a_number_being_typed_is_no_mistake_yet() -> None:
    """With 25 in slot 3, the "4" of 42 typed in slot 4 read "4 must be higher than 25"
    until the 2 came."""
    assert check_numbers(["1", "13", "25", "4", "49"], COLOURS, typing=3) == (
        None, "Fill in position 4 (B).")
    assert check_numbers(["1", "13", "25", "42", "49"], COLOURS, typing=3)[0] == [
        1, 13, 25, 42, 49]
    # Not the slot being typed, or a digit no number of its colour starts with: a mistake.
    assert check_numbers(["1", "13", "25", "4", "49"], COLOURS)[1].startswith("Position 4 ")
    assert "but 9 is colour" in check_numbers(["1", "13", "25", "9", "49"], COLOURS,
                                              typing=3)[1]


def test_every_wrong_slot_is_named_not_only_the_first() -> None:
    """A player mended one slot and was surprised by the next: the first mistake is said,
    the others by their positions; an empty slot is no mistake beside them."""
    assert check_numbers(["2", "", "25", "x", "49"], COLOURS)[1] == (
        "Position 1 is colour A, but 2 is colour B. Position 4 is wrong too.")
    assert check_numbers(["2", "14", "25", "33", "49"], COLOURS)[1] == (
        "Position 1 is colour A, but 2 is colour B. Positions 2 and 4 are wrong too.")
    assert check_numbers(["", "13", "", "", ""], COLOURS)[1] == "Fill in position 1 (A)."


def test_every_event_has_a_line_and_odd_ones_none() -> None:
    namer = Namer(["Ann", "Bob"], 0)
    racks = [[{"colour": c} for c in COLOURS], [face(n) for n in (2, 13, 24, 35, 41)]]
    assert describe_event({"type": "revealed", "seat": 1, "tile": face(33)}, namer,
                          racks) == "Bob revealed C33•"
    sort = {"type": "clue", "seat": 0, "tile": 33, "clue": "sort", "notch": 0}
    assert describe_event(sort, namer, racks) == (
        "You sorted C33• into notch 0 (none of your tiles lower)")
    compare = {"type": "clue", "seat": 1, "tile": 18, "clue": "compare", "position": 2,
               "same": False}
    assert describe_event(compare, namer, racks) == (
        "Bob compared C18• with their position 3 (D): different dots")
    assert short_event(compare, namer) == "Bob compared C18• with position 3: ≠ dots"
    # An earlier game's line (its racks are gone) names the colour the event carries,
    # and says nothing rather than "(?)" for an old event without one.
    assert describe_event({**compare, "colour": 3}, namer, []) == (
        "Bob compared C18• with their position 3 (D): different dots")
    assert describe_event(compare, namer, []) == (
        "Bob compared C18• with their position 3: different dots")
    called = {"type": "announced", "seat": 1, "numbers": [2, 13, 24, 35, 41], "right": False}
    assert describe_event(called, namer, racks) == (
        "Bob called GOT FIVE! with 2 13 24 35 41: wrong")
    out = {"type": "out", "seat": 0, "rack": [face(n) for n in (1, 13, 25, 32, 49)]}
    assert describe_event(out, namer, racks) == "You are out; rack: A1• C13••• E25•• B32• D49•"
    over = {"type": "game_over", "winners": [1], "reason": "last_standing"}
    assert describe_event(over, namer, racks) == "Game over: Bob won (the last one left in)"
    ours = {"type": "game_over", "winners": [0], "reason": "announced"}  # (not "You won")
    assert describe_event(ours, namer, racks) == "Game over: you won (named all five)"
    assert describe_event({"type": "turn", "seat": 1, "phase": "reveal"}, namer, racks) is None
    assert describe_event({"type": "something new"}, namer, racks) is None


def test_clues_sit_where_they_belong_on_a_rack() -> None:
    clues = [
        {"seat": 0, "tile": 33, "clue": "sort", "notch": 2},
        {"seat": 0, "tile": 8, "clue": "sort", "notch": 2},
        {"seat": 0, "tile": 18, "clue": "compare", "position": 4, "same": True},
        {"seat": 1, "tile": 9, "clue": "sort", "notch": 0},
    ]
    notches, compared = clues_of(clues, 0)
    assert notches == [[], [], [8, 33], [], [], []]
    assert compared == [[], [], [], [], [(18, True)]]
    lines = grid([{"colour": c} for c in COLOURS], clues, 0, 7, 6).plain.splitlines()
    tiles = lines[1]
    # C8 and C33 lie between the 2nd and 3rd tiles (notch 2).
    assert tiles.index("[C ?]") < tiles.index("C 8") < tiles.index("[E ?]")
    notch2 = range(tiles.index("[C ?]") + 5, tiles.index("[E ?]"))
    assert tiles.index("C 8") in notch2 and lines[2].index("C33") in notch2
    # Each marked as in the notch (C33, on the line of the compared tiles, read as one).
    assert "‹C 8••›" in tiles and "‹C33•›" in lines[2]
    assert lines[2].index("=C18") == tiles.index("[D ?]")  # under the 5th tile (D)
    others = OthersPanel()
    others.racks = [[{"colour": c} for c in COLOURS], [face(n) for n in (10, 12, 14, 16, 18)]]
    others.clues, others.names, others.me = clues, ["Ann", "Bob"], 0
    (line,) = others.lines(80)
    assert line.plain.index("‹D 9••›") < line.plain.index(tile_label(10))


def test_the_board_maps_numbers_to_cells_and_back() -> None:
    assert [number_at(*cell_of(n)) for n in range(1, 61)] == list(range(1, 61))
    assert cell_of(1) == (0, 0) and cell_of(60) == (4, 11) and cell_of(17) == (1, 3)


def test_board_cells_say_their_state_without_colour() -> None:
    from tui.games.gotfive.board import BoardWidget

    board = BoardWidget()
    board.hint = {"count": 2, "possible": {"0": [1], "1": [2, 7], "2": [3], "3": [4],
                                           "4": [5]}, "certain": [1, 3, 4, 5]}
    board.marks = {6: "circle", 7: "circle", 12: "cross"}
    impossible, certain = board.impossible(), board.certain()
    assert 6 in impossible and 7 not in impossible and certain == {1, 3, 4, 5}
    glyphs = {n: board.cell(n, impossible, certain)[0] for n in (1, 2, 6, 7, 11, 12)}
    assert glyphs == {1: "★", 2: " ", 6: "⊘", 7: "○", 11: "·", 12: "✗"}
    assert "dim" in board.cell(11, impossible, certain)[1]
    assert "reverse" in board.cell(1, impossible, certain)[1]  # the cursor starts on 1
    # A number auto-cross keeps crossed (seen elsewhere) is not drawn as the player's ✗.
    board.marks = {12: "cross", 17: "cross"}
    board.locked = frozenset({17})
    assert board.cell(17, impossible, certain)[0] == "-"
    assert board.cell(12, impossible, certain)[0] == "✗"
    assert "dim" in board.cell(17, impossible, certain)[1]


def test_every_rack_of_the_game_over_dialog_reads_on_one_line_at_80_columns() -> None:
    """At 80×24 the dialog's body is about 64 columns: a rack (− five tiles +) keeps its
    line, and its result with it or with the name; a name too long to stand whole beside
    them ("Bob" / "(you)" read as two lines) puts the racks under the names."""
    from rich.console import Console

    from tui.games.gotfive.summary import racks_table

    racks = [[{"n": n, "colour": colour_of(n), "dots": dots_of(n)} for n in (3, 17, 22, 31, 40)]
             for _ in range(4)]
    view = {"racks": racks, "winners": [1], "out": [False, False, True, False], "clues": []}
    console = Console(width=60, color_system=None)
    with console.capture() as out:
        console.print(racks_table(view, ["Ann", "Bot 2 the long", "Bot 3", "Bot 4"], 0))
    lines = out.get().splitlines()
    rows = [line for line in lines if "−" in line]
    assert len(rows) == 4
    assert all(line.rstrip().count("+") == 1 for line in rows)
    assert out.get().count("clues") == 4 and "Bot 2 the long" in out.get()
    assert "won" in out.get() and "out ·" in out.get()


def test_every_rack_keeps_its_players_name_on_a_narrow_terminal() -> None:
    """At 45 columns the rack and the result left the name's column no room: the names
    went. Where they do not fit side by side, each rack goes under its name and result."""
    from rich.console import Console

    from tui.games.gotfive.summary import racks_table

    racks = [[face(n) for n in (3, 17, 29, 44, 58)] for _ in range(3)]
    view = {"racks": racks, "winners": [1], "out": [True, False, False], "clues": []}
    console = Console(width=40, color_system=None)
    with console.capture() as out:
        console.print(racks_table(view, ["Ann", "Bot 2", "Bot 3"], 0))
    lines = out.get().splitlines()
    rack = "B17• D29••• D44•••"
    for name, result in (("Ann (you)", "✗ out"), ("Bot 2", "🏆 won"), ("Bot 3", "0 clues")):
        at = next(i for i, line in enumerate(lines) if line.startswith(name))
        assert result in lines[at] and rack in lines[at + 1], lines
    # Narrower still, a rack wraps between its tiles: never one cut (D44••• read D44•).
    console = Console(width=28, color_system=None)
    with console.capture() as out:
        console.print(racks_table(view, ["Ann", "Bot 2", "Bot 3"], 0))
    words = out.get().split()
    assert all(tile_label(n).replace(" ", "") in "".join(words) for n in (3, 17, 29, 44, 58))
    assert {w for w in words if w.startswith("D")} == {"D29•••", "D44•••"}, words


def test_clues_side_by_side_on_a_rack_never_run_together() -> None:
    """At 80 columns a tile column is as wide as a compared tile (``=C43•••``) and a
    notch as a sorted one (``A26•••``): side by side on one line they read as one
    (``=C43•••A26•••≠E40••``). A column whose cells would touch gets a cell more."""
    wide = [n for n in range(10, 61) if dots_of(n) == 3]
    a, b, c = wide[0], wide[1], wide[2]
    clues = [
        {"seat": 0, "tile": a, "clue": "compare", "position": 2, "same": True},
        {"seat": 0, "tile": 7, "clue": "sort", "notch": 3},
        {"seat": 0, "tile": b, "clue": "sort", "notch": 3},
        {"seat": 0, "tile": c, "clue": "compare", "position": 3, "same": False},
    ]
    lines = grid([{"colour": k} for k in COLOURS], clues, 0, 7, 6).plain.splitlines()
    assert lines[2].split() == [f"={tile_label(a)}", f"‹{tile_label(b)}›",
                                f"≠{tile_label(c)}"]
    # The row is as wide as before: the cell came from columns with room to spare.
    assert len(lines[0]) == len(grid([{"colour": k} for k in COLOURS], [], 0, 7, 6)
                                .plain.splitlines()[0])


def test_the_summary_says_which_numbers_a_wrong_call_missed_and_clues_wrap_under_words(
) -> None:
    """'You: 11 19 30 32 43 ✗ wrong' did not say which number was wrong; a long clue's
    second line started under its number."""
    from rich.console import Console

    from tui.games.gotfive.summary import announcements, history

    rack = [face(n) for n in (11, 19, 29, 32, 43)]
    view = {"racks": [rack, rack], "clues": [
        {"seat": 1, "tile": 7, "clue": "sort", "notch": 1}] * 12,
        "announcements": [{"seat": 0, "numbers": [11, 19, 30, 32, 44], "right": False}]}
    console = Console(width=34, color_system=None)
    with console.capture() as out:
        console.print(announcements(view, ["Ann", "Bob"], 0))
        console.print(history(view, ["Ann", "Bob"], 0))
    text = out.get()
    assert "✗ wrong: 29 not 30, 43 not 44" in " ".join(text.split()), text
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("12."))
    assert lines[at + 1].startswith("    "), lines  # under the words, not the number


def test_on_a_rack_face_up_a_sorted_tile_is_marked_apart_from_the_racks_own() -> None:
    """Out of the game, your rack is face up: '2[D?] E25•• 3[E?]' became
    'D19• E25•• E30•••', the clue in its notch read as a tile of the rack."""
    clues = [{"seat": 0, "tile": 25, "clue": "sort", "notch": 2}]
    hidden = grid([{"colour": c} for c in COLOURS], clues, 0, 7, 6).plain
    up = grid([face(n) for n in (3, 19, 30, 41, 52)], clues, 0, 7, 6).plain
    assert f"‹{tile_label(25)}›" in hidden, hidden  # (marked whatever the rack shows)
    assert f"‹{tile_label(25)}›" in up, up

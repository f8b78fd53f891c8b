"""Wrapping that never breaks inside a name or a piece (``tui.widgets.wrapped``)."""

from __future__ import annotations

from rich.text import Text

from tui.widgets.wrapped import wrap_pieces, wrap_words


def test_pieces_wrap_between_never_inside_and_line_up_under_the_first() -> None:
    pieces = [Text(p) for p in ("−", "A11•", "C24••", "D44•••", "E53•", "+")]
    lines = wrap_pieces(pieces, 21, 7, first=Text("2 Bob  "))
    assert [line.plain for line in lines] == [
        "2 Bob  − A11• C24••", "       D44••• E53• +"]
    assert all(line.cell_len <= 21 for line in lines)
    # Under the name the pieces start where the first line's did.
    assert lines[1].plain.index("D") == lines[0].plain.index("−")




def test_a_piece_wider_than_the_line_goes_on_a_line_of_its_own_whole() -> None:
    pieces = [Text("ab"), Text("x" * 12), Text("cd")]
    assert [line.plain for line in wrap_pieces(pieces, 8, 0)] == ["ab", "x" * 12, "cd"]
    assert wrap_pieces([], 8, 2)[0].plain == "  "


def test_words_keep_a_card_name_and_a_number_with_the_word_before() -> None:
    assert wrap_words("Ann drew Tea Picker 8 and passed", 20) == [
        "Ann drew", "Tea Picker 8 and", "passed"]

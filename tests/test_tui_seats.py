"""The seats panel's lines are Rich's table, cell for cell and style for style."""

from __future__ import annotations

import io
import random
from typing import Any

from rich.console import RenderableType
from rich.constrain import Constrain
from rich.style import Style
from rich.text import Text
from textual.app import App
from textual.geometry import Region

from tui.widgets.seats import (
    PLAYER_SLACK,
    SeatsPanel,
    _laid_out,
    _natural_width,
    _table,
    _widths,
    fit_player,
)

NAMES = ["Ann", "Bob the builder", "", "Zoë", "日本語の名前です", "🎲 Dice", "x" * 30]


class TablePanel(SeatsPanel):
    """The panel drawn with Rich's table, always (the reference), its players' names
    cut to the player column's width as the panel cuts them (marks kept)."""

    def render(self) -> RenderableType:
        titles = ["", "#", "player", *self.columns]
        rows = [self.row(seat) for seat in self.seats]
        shorts = [self.player(seat, short=True) if seat.get("for") else None
                  for seat in self.seats]
        cells = [[Text(c) if isinstance(c, str) else c for c in row] for row in rows]
        # In a wide panel the table is only as wide as its names need (and a little).
        width = min(self.size.width, _natural_width(titles, rows) + PLAYER_SLACK)
        widths = _widths(titles, cells, width)
        if widths is None:
            return _table(titles, [row if short is None else [*row[:2], short, *row[3:]]
                                   for row, short in zip(rows, shorts, strict=True)])
        for row, short in zip(rows, shorts, strict=True):
            row[2] = fit_player(Text(row[2]) if isinstance(row[2], str) else row[2],
                                widths[2], short)
        return Constrain(_table(titles, rows), width)


def cells(panel: SeatsPanel) -> list[list[tuple[str, Any]]]:
    width, height = panel.size
    return [[(char, segment.style) for segment in strip for char in segment.text]
            for strip in panel.render_lines(Region(0, 0, width, height))]


async def test_the_seats_are_laid_out_as_rich_would_lay_out_their_table() -> None:
    rng = random.Random(7)
    laid_out = 0
    for width in (22, 40, 80):
        app: App[None] = App()
        async with app.run_test(size=(width, 24)) as pilot:
            reference, panel = TablePanel(), SeatsPanel()
            await app.screen.mount(reference, panel)
            for _ in range(15):
                count = rng.randint(1, 6)
                seats = [{"seat": i, "name": rng.choice(NAMES),
                          "kind": rng.choice(["human", "bot", "empty"]),
                          "connected": rng.random() < 0.7} for i in range(count)]
                for seat in seats:
                    if seat["kind"] == "bot" and rng.random() < 0.5:
                        seat["for"] = rng.choice(NAMES[:2])
                columns: dict[str, list[Any]] = {
                    "cards": [rng.randint(0, 15) for _ in range(count)],
                    "score": [rng.randint(0, 130) for _ in range(count - rng.randint(0, 1))],
                    "": [rng.choice(["", "out", "dealer"]) for _ in range(count)],
                }
                me, turn = rng.choice([None, 0, 1]), rng.choice([None, 0, 1, 2])
                for widget in (reference, panel):
                    widget.me, widget.turn = me, turn
                    widget.columns, widget.seats = columns, seats
                await pilot.pause()
                titles = ["", "#", "player", *columns]
                if _laid_out(titles, [panel.row(s) for s in seats], panel.size.width,
                             app.console.get_style("table.header")) is not None:
                    laid_out += 1
                assert cells(panel) == cells(reference), (width, seats, columns, me, turn)
    assert laid_out > 20  # most of them took the quick way (the rest is Rich's table)


def test_a_bot_keeping_an_away_players_seat_says_for_whom() -> None:
    panel = SeatsPanel()
    row = panel.row({"seat": 1, "kind": "bot", "name": "Bot 2", "connected": True,
                     "ready": True, "for": "Bob"})
    assert isinstance(row[2], Text) and row[2].plain == "Bot 2 for Bob [bot]"
    plain = panel.row({"seat": 1, "kind": "bot", "name": "Bot 2", "connected": True,
                       "ready": True})
    assert isinstance(plain[2], Text) and plain[2].plain == "Bot 2 [bot]"


def test_where_the_bot_for_someone_does_not_fit_it_is_their_seat_played_by_a_bot() -> None:
    """At 80 columns the Players panel showed "Bot 2 f… [bot]": for whom was cut."""
    panel = SeatsPanel()
    seat = {"seat": 1, "kind": "bot", "name": "Bot 2", "connected": True, "for": "Bob"}
    long, short = panel.player(seat), panel.player(seat, short=True)
    assert fit_player(long, 19).plain == "Bot 2 for Bob [bot]"
    assert fit_player(long, 18, short).plain == "Bob [bot]"
    lines = _laid_out(["", "#", "player"], [panel.row(seat)], 19, Style(), [short])
    assert lines is not None and "Bob [bot]" in lines.plain and "Bot 2" not in lines.plain


def test_a_long_name_is_cut_before_its_marks() -> None:
    name = Text("Bob the builder of things", style="bold")
    name.append(" (you)", style="italic")
    name.append(" [away]", style="red")
    fitted = fit_player(name, 20)
    assert fitted.plain == "Bob th… (you) [away]" and fitted.cell_len == 20
    assert fitted.spans[-1].style == "red" and fitted.plain[fitted.spans[-1].start:] == " [away]"
    bot = Text("Robot with a long name")
    bot.append(" [bot]", style="cyan")
    assert fit_player(bot, 12).plain == "Robot… [bot]"
    assert fit_player(Text("Ann [away]"), 20).plain == "Ann [away]"  # fits: as it is
    assert fit_player(Text("Annabelle"), 5).plain == "Annabelle"  # no marks: cut as usual
    # No room for a name beside its marks: the marks alone (beside the seat's number).
    assert fit_player(Text("root [away]"), 7).plain == "[away]"


def test_a_spare_word_gives_way_to_a_name_it_would_cut() -> None:
    """GET OUT!'s "dealer" took a column at 45 columns and "Bartholomew (you)" read
    "Barthol… (you)": the spare words give way where a name would be cut, and only there."""
    from rich.console import Console

    from tui.widgets.seats import _Seats

    titles = ["", "#", "player", "cards", "score", ""]
    me = Text("Bartholomew")
    me.append(" (you)")
    rows: list[list[Text | str]] = [
        [Text("▶"), "1", me, "6", "0", ""], [Text(""), "2", Text("Bot 2 [bot]"), "6", "0",
                                             "dealer"],
        [Text(""), "3", Text("Bot 3 [bot]"), "5", "0", "out"]]

    def drawn(width: int) -> str:
        console = Console(width=width, record=True, file=io.StringIO())
        console.print(_Seats(titles, rows, Style(), None, frozenset({"dealer"})))
        return console.export_text()

    narrow, wide = drawn(45), drawn(60)
    assert "Bartholomew (you)" in narrow and "dealer" not in narrow and "out" in narrow
    assert "Bartholomew (you)" in wide and "dealer" in wide


def test_a_bot_keeping_a_seat_is_said_shorter_before_the_dealer_gives_way() -> None:
    """At 80 columns a bot playing for Bob was "Bot 3 for Bob [bot]", too long for its
    column, and the dealer's mark went from every row (the dealer was not told). Where
    its shorter words fit, "Bob [bot]", those go in and "dealer" stays."""
    from rich.console import Console

    from tui.widgets.seats import _Seats

    titles = ["", "#", "player", "cards", "score", ""]
    rows: list[list[Text | str]] = [
        [Text("▶"), "1", Text("Host (you)"), "6", "0", ""],
        [Text(""), "2", Text("Ann"), "5", "0", "dealer"],
        [Text(""), "3", Text("Bot 3 for Bob [bot]"), "4", "15", ""]]
    shorts: list[Text | None] = [None, None, Text("Bob [bot]")]

    def drawn(width: int) -> str:
        console = Console(width=width, record=True, file=io.StringIO())
        console.print(_Seats(titles, rows, Style(), shorts, frozenset({"dealer"})))
        return console.export_text()

    short = drawn(40)
    assert "Bob [bot]" in short and "Bot 3 for" not in short and "dealer" in short, short
    assert "Bot 3 for Bob [bot]" in drawn(60) and "dealer" in drawn(60)
    narrow = drawn(33)  # (not even the short words with it: the dealer gives way)
    assert "dealer" not in narrow and "Host (you)" in narrow, narrow


def test_getout_s_round_winner_gives_way_to_the_names_on_a_phone() -> None:
    """Between rounds at a phone's 43 columns the list read "1  (you)  0  0  won ·
    deals": the winner's words squeezed "Pia" out (a fresh-eyed pass of the web door)."""
    from rich.console import Console

    from tui.games.getout.screen import SPARE_WORDS, WON_DEALS
    from tui.widgets.seats import _Seats

    titles = ["", "#", "player", "cards", "score", ""]
    rows: list[list[Text | str]] = [
        [Text(""), "1", Text("Pia (you)"), "0", "0", WON_DEALS],
        [Text(""), "2", Text("Lou [away]"), "4", "19", ""],
        [Text(""), "3", Text("Bot 3 [bot]"), "4", "19", ""]]
    console = Console(width=41, record=True, file=io.StringIO())
    console.print(_Seats(titles, rows, Style(), None, SPARE_WORDS))
    drawn = console.export_text()
    assert "Pia (you)" in drawn and "Lou [away]" in drawn and "Bot 3 [bot]" in drawn, drawn

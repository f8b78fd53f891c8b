"""The GET OUT! table's own keys and widgets: marks beside colour, big hands, the scores."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.containers import HorizontalScroll
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import DataTable, Static

import tui
from engine.testing import stack_getout
from tests.tui_support import (
    TOAST,
    Notices,
    config_dir,
    make_app,
    screen_strips,
    screen_text,
    until,
    warning,
)
from tui.app import HiddenHandApp
from tui.games.getout.card import WIDTHS, CardWidget, card_classes
from tui.games.getout.hand import HandWidget
from tui.games.getout.scores import ScoreTable
from tui.games.getout.screen import GetOutScreen
from tui.screens.dialogs import ChoiceScreen
from tui.screens.summary import SummaryScreen
from tui.widgets.log import TableLog
from tui.widgets.seats import SeatsPanel
from tui.widgets.status_line import StatusLine

__all__ = ["config_dir"]

pytestmark = pytest.mark.usefixtures("config_dir")


def deal(app: HiddenHandApp, hand: list[str]) -> Any:
    """Seat 0's ``hand`` on turn against a kevin 8, pushed from the app's own table."""
    assert app.hosting.host is not None
    (table,) = app.hosting.host.tables.values()
    stack_getout(table.game, [hand, ["shirley 1"]], played=["kevin 8"], turn=0)
    app.hosting.host.refresh(table)
    return table


async def our_turn(pilot: Pilot[Any], app: HiddenHandApp) -> GetOutScreen:
    screen: GetOutScreen = await until(
        pilot, lambda: isinstance(app.screen, GetOutScreen) and app.screen.legal
        and app.screen, "our first turn")
    return screen


async def dealt(pilot: Pilot[Any], app: HiddenHandApp,
                hand: list[str]) -> tuple[GetOutScreen, HandWidget]:
    """Our first turn, then ``hand`` dealt to us (:func:`deal`) and shown, some of it
    playable: the screen and its hand."""
    screen = await our_turn(pilot, app)
    deal(app, hand)
    widget = screen.query_one(HandWidget)
    await until(pilot, lambda: len(widget.cards) == len(hand) and widget.playable,
                "the hand")
    return screen, widget


def drawn(app: App[Any], region: Region) -> list[list[tuple[str, Style]]]:
    """The cells of ``region`` as the screen draws them now: (character, style) rows."""
    strips = screen_strips(app)
    return [[(char, segment.style or Style()) for segment in
             strips[y].crop(region.x, region.right) for char in segment.text]
            for y in range(region.y, region.bottom)]


def card_text(hand: HandWidget, index: int) -> list[str]:
    """Card ``index`` of ``hand`` as the player sees it: its four lines of text."""
    return ["".join(char for char, _ in row)
            for row in drawn(hand.app, hand.card_region(index))]


@pytest.mark.parametrize("seats", [3, 6])
@pytest.mark.parametrize("size", [(45, 24), (45, 40), (80, 24)])
async def test_a_phone_s_screen_keeps_the_log_and_the_chat_line_in_sight(
        size: tuple[int, int], seats: int) -> None:
    """At 45 × 24 the scores box took the log's last rows: the log had none, and the
    chat line was typed into blind. Short and narrow, the scores are the players' list's
    (it has a score column), and the call card is the line that names it (with six
    players the log still had no line)."""
    from tui.widgets.chat import ChatLine

    app = make_app(solo={"game_id": "getout", "seats": seats, "options": {"first": 0}})
    async with app.run_test(size=size) as pilot:
        screen = await our_turn(pilot, app)
        log = screen.query_one(TableLog)
        await until(pilot, lambda: log.scrollable_content_region.height >= 3, "the log")
        follow = screen.query_one("#follow")
        assert follow.region and follow.region.bottom <= size[1]
        chat = screen.query_one(ChatLine)
        assert chat.region.height == 1 and chat.region.bottom <= size[1] - 1
        scores = screen.query_one(ScoreTable)
        assert bool(scores.region) == (size != (45, 24))


@pytest.mark.parametrize("width", [40, 45, 60, 80])
def test_the_round_s_points_name_every_player_whole(width: int) -> None:
    """At 40-45 columns "6 cards" and "root (you)" wrapped a word a line; then, kept on
    one line, the figures left the names no room ("…" for every name). On a narrow
    screen each player's figures go under their name; on a wide one, a table row each."""
    from tui.games.getout.summary import RoundTable

    view = {"last_round": {"points": [61, 5, 0], "winner": 2}, "hand_counts": [6, 2, 0],
            "out": [False, True, False], "scores": [61, 105, 0], "match": True}
    console = Console(width=width, file=io.StringIO(), record=True)
    console.print(RoundTable(view, ["Roberta the Great", "Bot 2", "Bot 3"], 0))
    lines = console.export_text().splitlines()
    if width >= 60:
        assert len(lines) == 4 and lines[1].startswith("Roberta")
        assert "6 cards" in lines[1] and "out of the match" in lines[2]
        assert "got out: won the round" in lines[3]
    else:
        assert lines == ["Roberta the Great (you)", "  6 cards · 61 points · total 61",
                         "Bot 2 · out of the match", "  2 cards · 5 points · total 105",
                         "Bot 3 · got out: won the round",
                         "  no cards · 0 points · total 0"]


def test_a_bot_keeping_a_seat_warm_wins_by_the_name_the_log_gives_it() -> None:
    """A bot playing Cy's seat went out: the log said "Bot 3 went out", the summary
    "Cy wins" (a fresh-eyed pass). The winner is named as the seats panel names the
    player; the points stay the person's."""
    from tui.games.getout.summary import round_summary
    from tui.notices import seat_owners, seat_players

    table = {"seats": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bob"},
                       {"seat": 2, "name": "Bot 3", "for": "Cy"}]}
    assert seat_players(table) == ["Ann", "Bob", "Bot 3 for Cy"]
    view = {"phase": "round_over", "match": True, "out": [False] * 3, "limit": 100,
            "last_round": {"round": 2, "points": [4, 9, 0], "winner": 2},
            "hand_counts": [1, 2, 0], "scores": [4, 9, 0]}
    summary = round_summary(view, seat_owners(table), 0, can_deal=False, can_lobby=False,
                            players=seat_players(table))
    assert str(summary.title_text) == ("Round 2: Bot 3 for Cy got out first. "
                                       "Bot 3 for Cy deals the next round.")
    console = Console(width=80, file=io.StringIO(), record=True)
    console.print(summary.body[0])
    rows = console.export_text().splitlines()
    assert rows[3].startswith("Cy ") and rows[3].endswith("got out: won the round"), rows
    over = {**view, "phase": "over", "winners": [2]}
    summary = round_summary(over, seat_owners(table), 0, can_deal=False, can_lobby=False,
                            players=seat_players(table))
    assert str(summary.title_text) == "🏆 Bot 3 for Cy wins the match!"


def test_the_log_names_a_bot_keeping_a_seat_warm_as_the_seats_panel_does() -> None:
    """The log said "Round 1: Bot 2 got out first" and "Bot 2 deals" where the players'
    list said "Bob … dealer" (an SSH box pass): its lines name the stand-in as the
    panel does, "Bot 2 for Bob"."""
    from tui.games.getout.text import describe_event
    from tui.notices import Namer
    from tui.session import Session

    session = Session("Ann")
    table = {"seats": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bot 2", "for": "Bob"}]}
    session.record({"type": "update", "table": table, "view": {}, "events": [
        {"type": "round_over", "round": 1, "winner": 1, "points": [9, 0], "scores": [9, 0],
         "out": []}]})
    (entry,) = session.history
    line = describe_event(entry.data, Namer(entry.names, 0))
    assert line == "Round 1: Bot 2 for Bob got out first", line


async def test_a_warning_about_a_key_goes_when_the_table_moves_past_it() -> None:
    """"It is not your turn to play" stayed under "▶ Your turn", a card's "does not
    match" into our next turn, and over the dialog naming an image, hiding a choice (a
    fresh-eyed pass): our turn and the dialog clear them."""
    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        screen = await our_turn(pilot, app)
        hand = screen.query_one(HandWidget)

        async def warned(index: int) -> None:
            hand.selected = index
            await pilot.press("enter")
            await until(pilot, lambda: "does not match" in warning(screen), "the warning")

        deal(app, ["geoff 1", "kevin 3", "wild"])
        await until(pilot, lambda: len(hand.cards) == 3, "the hand")
        await warned(0)
        hand.selected = 2  # the GET OUT! card: its dialog
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen), "the dialog")
        assert not warning(screen) and not app.screen.query(TOAST)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "the table again")
        await warned(0)
        await pilot.press("right", "enter")  # kevin 3: the bot's turn, then ours
        await until(pilot, lambda: screen.view.get("turn") == 0 and len(hand.cards) == 2
                    and screen.legal, "our turn again")
        await pilot.pause()
        # (At once: a warning holds the line 5 s by itself.)
        assert not warning(screen) and "Your turn" in str(screen.query_one(StatusLine).content)
        assert not app.screen.query(TOAST)  # (nor is it a toast over the scores)


async def test_a_last_card_that_is_a_get_out_card_goes_out_without_naming_an_image() -> None:
    """Our last card ends the round: the dialog asked which image must follow it, and
    nothing follows (a fresh-eyed pass)."""
    app = make_app(solo={"game_id": "getout", "seats": 2,
                         "options": {"first": 0, "match": False}})
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await our_turn(pilot, app)
        table = deal(app, ["wild"])
        await until(pilot, lambda: len(screen.query_one(HandWidget).cards) == 1, "the hand")
        await pilot.press("enter")
        await until(pilot, lambda: table.game.view(None)["phase"] == "over"
                    or isinstance(app.screen, ChoiceScreen), "the round over")
        assert table.game.view(None)["phase"] == "over"


async def test_playable_cards_carry_a_mark_and_keys_reach_beyond_the_ninth_card() -> None:
    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await our_turn(pilot, app)
        deal(app, [f"geoff {v}" for v in (1, 2, 3, 4, 5, 7, 10, 11, 12, 13, 14)] + ["kevin 3"])
        widget = screen.query_one(HandWidget)
        await until(pilot, lambda: len(widget.cards) == 12, "twelve cards")
        await pilot.pause()
        cards = [card_text(widget, i) for i in range(12)]
        playable = ["✓" in card[-1] for card in cards]
        assert playable == [False] * 11 + [True]  # only the kevin matches (no geoff 8)
        assert "◆ 3" in cards[-1][1] and "■ 1" in cards[0][1]
        # (The selection follows its card into the new hand: start from the first.)
        widget.selected = 0
        await pilot.press("2")
        assert widget.selected == 1
        await pilot.press("2")  # the same key again: ten cards further
        assert widget.selected == 11
        await pilot.pause()
        assert ["▼" in card_text(widget, i)[0] for i in range(12)].index(True) == 11
        await pilot.press("2")  # and back round
        assert widget.selected == 1
        await pilot.press("0")  # the tenth card
        assert widget.selected == 9
        await pilot.press("0")  # there is no twentieth: it stays
        assert widget.selected == 9
        # Home and End: the first and the last card (End did nothing, and the Enter
        # that followed played the card chosen before).
        await pilot.press("end")
        assert widget.selected == 11
        await pilot.press("home")
        assert widget.selected == 0


async def test_after_a_draw_the_selection_stays_on_the_card_it_was_on() -> None:
    """The hand is sorted, so a drawn card may come in before the chosen one: the
    selection follows its card (it stayed at its index and so moved to another)."""
    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await our_turn(pilot, app)
        assert app.hosting.host is not None
        (table,) = app.hosting.host.tables.values()
        # (Bot 2 holds still: at our next turn a card that cannot be played would give
        # its place to one that can.)
        table.seats[1].bot = None
        stack_getout(table.game, [["geoff 2", "geoff 5", "kevin 3"], ["shirley 1"]],
                     draw=["geoff 1"], played=["kevin 8"], turn=0)
        app.hosting.host.refresh(table)
        widget = screen.query_one(HandWidget)
        await until(pilot, lambda: len(widget.cards) == 3, "three cards")
        await pilot.press("2")
        chosen = widget.current
        assert chosen is not None and widget.selected == 1
        await pilot.press("d")
        await until(pilot, lambda: len(widget.cards) == 4, "the drawn card in the hand")
        assert widget.current == chosen and widget.selected == 2
        await pilot.pause()
        assert "▼" in card_text(widget, 2)[0] and "▼" not in card_text(widget, 1)[0]


async def test_naming_an_image_says_what_the_hand_holds_of_each() -> None:
    """The dialog may cover the hand (at 80x24 it does): each image says how many of
    the cards left in the hand show it."""
    from textual.widgets import Button

    from tui.screens.dialogs import ChoiceScreen

    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await our_turn(pilot, app)
        deal(app, ["wild", "kevin 3", "kevin 5", "geoff 1", "samantha 2"])
        widget = screen.query_one(HandWidget)
        await until(pilot, lambda: len(widget.cards) == 5, "five cards")
        wild = next(c for c in widget.cards if c["wild"])
        screen.play(wild)
        dialog = await until(pilot, lambda: isinstance(app.screen, ChoiceScreen)
                             and app.screen, "the naming dialog")
        labels = dict(dialog.choices)
        assert labels["kevin"].endswith("(2 in hand)"), labels
        assert labels["geoff"].endswith("(1 in hand)"), labels
        assert labels["shirley"].endswith("(none in hand)"), labels
        # Enter names what the hand holds most of (it named Geoff, the first, held or not).
        await until(pilot, lambda: app.focused is not None
                    and "Kevin" in str(getattr(app.focused, "label", "")), "Kevin focused")
        # On a phone (41 columns) the chosen one is whole on its line, its ◂ too (it
        # wrapped onto a second line: a pass on a phone).
        await pilot.resize_terminal(41, 30)
        next(b for b in dialog.query(Button) if "Samantha" in str(b.label)).focus()
        await until(pilot, lambda: "Samantha" in str(getattr(app.focused, "label", "")),
                    "Samantha (the longest) focused")
        await pilot.pause()
        line = next(t for t in screen_text(app).splitlines() if "Samantha" in t)
        assert "▸" in line and "◂" in line, line
        await pilot.press("escape")


@pytest.mark.parametrize(("before", "then", "played"), [
    ("geoff", "kevin", True),  # from a card that does not follow the kevin 8 to one that does
    ("kevin", "shirley", False),  # and back: told why, nothing played
])
async def test_a_number_and_enter_typed_at_once_play_the_card_numbered(
        before: str, then: str, played: bool) -> None:
    """Both keys arrive together (a quick typist, a pasted line, tmux): Enter plays the
    card the number chose, or says why it cannot, never the card chosen before it (it
    said that one did not match and played nothing)."""
    from textual import events

    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    notices = Notices()
    async with app.run_test(size=(80, 24), message_hook=notices) as pilot:
        screen = await our_turn(pilot, app)
        table = deal(app, ["geoff 1", "kevin 3", "shirley 2"])
        widget = screen.query_one(HandWidget)
        await until(pilot, lambda: len(widget.cards) == 3, "three cards")
        images = [c["image"] for c in widget.cards]
        await pilot.press(str(images.index(before) + 1))
        version = table.game.version
        app.post_message(events.Key(str(images.index(then) + 1), None))
        app.post_message(events.Key("enter", "\r"))
        if played:
            await until(pilot, lambda: table.game.version != version, "the card played")
            assert table.game.cards[table.game.played[-1]].image == then
            assert not warning(screen)
        else:
            await until(pilot, lambda: f"{then.capitalize()} 2 does not match" in
                        warning(screen), "why not")
            assert table.game.version == version and len(widget.cards) == 3


@pytest.mark.parametrize(("size", "said"), [
    ((80, 24), "✗ Shirley 3 does not match: choose a card marked ✓ (← →), or draw (d)."),
    # (Where the card's name leaves no room, what to do comes first.)
    ((46, 30), "✗ Choose a card marked ✓ (← →), or draw (d)."),
])
async def test_why_a_card_does_not_play_is_said_over_the_hand_not_over_the_scores(
        size: tuple[int, int], said: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A toast said it over the scores and the log at 80×24, and stayed after the turn
    had passed (a fresh-eyed pass): the turn's line says it, in words that fit, marked
    ✗, and gives the turn's words back after a while."""
    import tui.widgets.status_line

    monkeypatch.setattr(tui.widgets.status_line, "WARNING_SECONDS", 0.5)
    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    async with app.run_test(size=size, notifications=True) as pilot:
        screen = await our_turn(pilot, app)
        deal(app, ["shirley 3", "geoff 8"])  # against a kevin 8: the geoff follows
        hand = screen.query_one(HandWidget)
        await until(pilot, lambda: len(hand.cards) == 2, "two cards")
        await pilot.press("2", "enter")  # (the hand is in order: the Geoff 8 first)
        await until(pilot, lambda: warning(screen) == said, "why not, in words that fit")
        assert said in screen_text(app) and not app.screen.query(TOAST)
        await until(pilot, lambda: not warning(screen), "the turn's own words again")
        assert str(screen.query_one(StatusLine).content).startswith("▶ ")


async def test_a_number_past_the_hand_says_so() -> None:
    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await our_turn(pilot, app)
        deal(app, ["geoff 1", "kevin 3"])
        hand = screen.query_one(HandWidget)
        await until(pilot, lambda: len(hand.cards) == 2, "two cards")
        await pilot.press("9")
        await until(pilot, lambda: warning(screen) == "✗ There is no card 9 in sight: you "
                    "hold 2.", "why 9 did nothing")


@pytest.mark.parametrize("touch", [False, True])
async def test_enter_when_nothing_in_the_hand_follows_says_to_draw(touch: bool) -> None:
    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    app.touch = touch
    notices = Notices()
    async with app.run_test(size=(120, 40), message_hook=notices) as pilot:
        screen = await our_turn(pilot, app)
        deal(app, ["geoff 1", "shirley 3"])  # against a kevin 8: nothing follows
        widget = screen.query_one(HandWidget)
        await until(pilot, lambda: len(widget.cards) == 2, "two cards")
        await pilot.press("enter")
        said = await until(pilot, lambda: warning(screen), "why nothing can be played")
        # (By touch, in taps: a phone has no d.)
        how = "tap the draw pile" if touch else "draw a card (d)"
        assert f"nor does any card you hold: {how}" in said, said
        assert not any("not your turn" in m for m in notices.messages())


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_enter_when_only_a_get_out_card_follows_says_so(size: tuple[int, int]) -> None:
    """Our turn began on a card that does not follow, only a GET OUT! card did (the
    choice never goes to one by itself), and Enter said only "does not match" (at 80
    columns too, where the whole warning did not fit: a LAN pass)."""
    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    notices = Notices()
    async with app.run_test(size=size, message_hook=notices) as pilot:
        screen = await our_turn(pilot, app)
        deal(app, ["samantha 12", "wild"])
        widget = screen.query_one(HandWidget)
        await until(pilot, lambda: len(widget.cards) == 2, "two cards")
        await pilot.press("1")  # (Samantha 12: nothing but the GET OUT! card follows)
        await pilot.press("enter")
        await until(pilot, lambda: "nly your GET OUT! card follows (← →), or draw (d)"
                    in warning(screen), "which card follows")  # ("O" when it comes first)


async def test_enter_on_a_card_that_cannot_be_played_says_why() -> None:
    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    notices = Notices()
    async with app.run_test(size=(120, 40), message_hook=notices) as pilot:
        screen = await our_turn(pilot, app)
        table = deal(app, ["geoff 1", "kevin 3"])
        widget = screen.query_one(HandWidget)
        await until(pilot, lambda: len(widget.cards) == 2, "two cards")
        await pilot.press("1")  # the geoff 1: neither the kevin nor the 8
        assert screen.check_game_action("play", ()) is None  # dimmed in the footer

        await pilot.press("enter")
        said = await until(pilot, lambda: warning(screen), "why it cannot be played")
        assert said.startswith("✗ Geoff 1 does not match the call card"), said
        # … and which card would (the choice can sit on a card that does not follow).
        assert "choose a card marked ✓ (← →), or draw (d)" in said, said
        version = table.game.version
        await pilot.press("space")
        await pilot.pause()
        assert table.game.version == version and len(widget.cards) == 2  # nothing played
        # In the chat line, Enter still sends the line (a key reaches the screen before
        # the chat line's own Enter: it was taken for a play while playing was dimmed).
        screen.query_one(StatusLine).drop_warning()
        await pilot.press("slash", *"hi", "enter")
        log = screen.query_one("#log", TableLog)
        await until(pilot, lambda: any("Ann (seat 1): hi" in str(line.text)
                                       for line in log.lines), "the chat line")
        assert not warning(screen) and table.game.version == version


@pytest.mark.parametrize(("size", "seats"), [((80, 24), 4), ((120, 40), 5)])
async def test_the_score_table_shows_every_player(size: tuple[int, int], seats: int) -> None:
    app = make_app(solo={"game_id": "getout", "seats": seats, "options": {"first": 0}})
    async with app.run_test(size=size) as pilot:
        screen = await our_turn(pilot, app)
        scores = screen.query_one("#scores", ScoreTable)
        await until(pilot, lambda: scores.row_count == seats, "a row per player")
        await pilot.pause()
        assert scores.max_scroll_y == 0, "rows are cut off"
        assert scores.size.height >= seats + 1  # the header and every row are drawn
        names = [str(scores.get_row_at(i)[0]) for i in range(seats)]
        assert names[0] == "Ann" and names[1:] == [f"Bot {i}" for i in range(2, seats + 1)]


def _score_rows(players: int, rounds: int, out: tuple[int, ...] = (),
                me: int = 0) -> tuple[list[Text], list[list[Text]]]:
    """A header and rows as the GET OUT! screen makes them."""
    header = [Text(x) for x in ["player", "total", *[f"r{i}" for i in range(1, rounds + 1)]]]
    rows = []
    for seat in range(players):
        # (Seat 3 has a name with wide characters: two cells each.)
        shown = "Ann" if seat == 0 else "Zoë 山田" if seat == 2 else f"Bot {seat + 1}"
        name = Text(shown, style="bold" if seat == me else "")
        total = f"{seat * 7} ✗" if seat in out else str(seat * 7)
        rows.append([name, Text(total, no_wrap=True, end=""),
                     *[Text(str(r * seat), no_wrap=True, end="") for r in range(rounds)]])
    return header, rows


@pytest.mark.parametrize(("size", "tables", "then"), [
    ((40, 10), [(3, 0, (), 0)], ""),  # the start of a game
    ((40, 12), [(3, 0, (), 0), (4, 3, (2,), 1)], "focus"),  # rounds, one out; focused
    ((30, 6), [(6, 2, (), 0)], ""),  # taller than its box
])
async def test_the_score_table_draws_what_a_data_table_drew(
        size: tuple[int, int], tables: list[tuple[Any, ...]], then: str) -> None:
    """``ScoreTable`` replaced ``DataTable(cursor_type="none", zebra_stripes=True)``:
    the same screen, cell for cell and colour for colour, for each of these tables."""
    from textual.app import App

    class Scores(App[None]):
        CSS = "#scores { width: 1fr; border: round $foreground 30%; }"

        def __init__(self, old: bool) -> None:
            super().__init__()
            self.old = old

        def compose(self) -> ComposeResult:
            if self.old:
                yield DataTable(id="scores", cursor_type="none", zebra_stripes=True)
            else:
                yield ScoreTable(id="scores")

        def show(self, header: list[Text], rows: list[list[Text]]) -> None:
            table = self.query_one("#scores")
            if isinstance(table, DataTable):  # as the screen filled its DataTable
                table.clear(columns=True)
                table.add_columns(*header)
                for row in rows:
                    table.add_row(*row)
            else:
                assert isinstance(table, ScoreTable)
                table.set_table(header, rows)

    async def screenshot(old: bool) -> str:
        app = Scores(old)
        async with app.run_test(size=size) as pilot:
            for players, rounds, out, me in tables:
                app.show(*_score_rows(players, rounds, out, me))
                await pilot.pause()
            table = app.query_one("#scores")
            if then == "focus":
                table.focus()
            await pilot.pause()
            return app.export_screenshot()

    assert await screenshot(old=False) == await screenshot(old=True)


class RowOfCards(HorizontalScroll):
    """The hand as it was: a scrolling row of card widgets, what the hand must draw."""

    DEFAULT_CSS = "RowOfCards { height: 5; scrollbar-size-horizontal: 1; padding: 0 1; }"
    can_focus = False


class Rows(App[None]):
    """The hand and the reference row one above the other, with the app's stylesheet."""

    CSS_PATH = str(Path(tui.__file__).parent / "app.tcss")

    def compose(self) -> ComposeResult:
        yield HandWidget(id="hand")
        yield RowOfCards()


def a_card(n: int) -> dict[str, Any]:
    """Card ``n``: every image in turn, and a GET OUT! card every seventh."""
    images = ("geoff", "samantha", "kevin", "shirley", "tea_picker")
    if n % 7 == 6:
        return {"id": n, "wild": True}
    return {"id": n, "image": images[n % 7 % 5], "value": n % 15 + 1}


async def test_the_hand_draws_what_a_row_of_card_widgets_drew() -> None:
    """Cell for cell (character and style), at both sizes, scrolled or not, with every
    image and mark; a play, a draw and a turn change ask for no layout."""
    app = Rows()
    async with app.run_test(size=(100, 12)) as pilot:
        hand, row = app.query_one(HandWidget), app.query_one(RowOfCards)
        layouts: list[object] = []
        refresh = Widget.refresh

        def noting(self: Widget, *regions: Any, **kwargs: Any) -> Widget:
            if kwargs.get("layout") or kwargs.get("recompose"):
                layouts.append(self)
            return refresh(self, *regions, **kwargs)

        async def show(ids: list[int], playable: set[int], selected: int) -> None:
            hand.playable = frozenset(playable)
            hand.cards = [a_card(n) for n in ids]
            hand.selected = selected
            size = hand.card_size()
            await row.remove_children()
            widgets = [CardWidget(a_card(n), playable=n in playable,
                                  selected=i == selected, size=size)
                       for i, n in enumerate(ids)]
            for widget in widgets:
                widget.styles.width = WIDTHS[size]
            await row.mount_all(widgets)
            await pilot.pause()
            if widgets:
                row.scroll_to_widget(widgets[selected], animate=False)
            await pilot.pause()
            assert hand.size_shown == size
            if len(hand.in_sight()) == len(ids):
                assert drawn(app, hand.region) == drawn(app, row.region), \
                    (ids, playable, selected)
                return
            # A hand too long for the row shows whole cards only (the row cut some).
            assert selected in hand.in_sight()
            for i in hand.in_sight():
                assert drawn(app, hand.card_region(i)) == drawn(app, widgets[i].region), \
                    (ids, playable, selected, i)

        await show(list(range(7)), {1, 4, 6}, 6)  # every image, a selected GET OUT! card
        # Only the card states drawn so far are styled (all 24 each time: start-up cost).
        styled = hand.styled_states
        assert {card_classes(a_card(n), n in {1, 4, 6}, n == 6) for n in range(7)} <= styled
        assert len(styled) <= 10 < len(HandWidget.CARD_STATES)
        await show(list(range(7)), {0, 1, 2, 3, 4, 5, 6}, 2)
        await show(list(range(7)), set(), 0)
        await show(list(range(12)), {3, 6}, 3)  # compact: 12 × 12 > 98 columns
        await show(list(range(20)), {13}, 13)  # scrolled: 20 × 7 > 98 columns
        await show(list(range(20)), {13}, 19)
        await show(list(range(20)), set(), 0)
        await show([], set(), 0)
        await show([3, 1], {1}, 1)
        app.theme = "textual-light"  # the cards are drawn again in the new colours
        await pilot.pause()
        await pilot.pause()
        assert drawn(app, hand.region) == drawn(app, row.region)
        # A card played from the middle, one drawn, the turn going and coming back:
        # the hand repaints, nothing is laid out again.
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(Widget, "refresh", noting)
            for ids, playable in (([1, 2, 3, 4, 5], {2, 4}), ([1, 2, 4, 5], {2, 4}),
                                  ([1, 2, 4, 5, 9], {2, 4}), ([1, 2, 4, 5, 9], set()),
                                  ([1, 2, 4, 5, 9], {1, 9})):
                hand.playable = frozenset(playable)
                hand.cards = [a_card(n) for n in ids]
                await pilot.pause()
                faces = [CardWidget.face(a_card(n)).split("\n")[0] for n in ids]
                assert [face in card_text(hand, i)[1] for i, face in enumerate(faces)] \
                    == [True] * len(ids)
        assert [w for w in layouts if w is hand or hand in w.ancestors] == []


async def test_a_long_hand_narrows_its_cards_to_stay_in_sight_at_80_columns() -> None:
    """Six cards at full size; eleven narrower (short names, the ▼ and ✓ marks kept),
    all in sight at 80 columns; more than fit even so scroll, the chosen one in sight."""
    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await our_turn(pilot, app)
        assert app.hosting.host is not None
        (table,) = app.hosting.host.tables.values()
        widget = screen.query_one(HandWidget)
        values = (1, 2, 3, 4, 5, 7, 10, 11, 12, 13, 14)

        async def deal(hand: list[str]) -> None:
            stack_getout(table.game, [hand, ["shirley 1"]], played=["kevin 8"], turn=0)
            app.hosting.host.refresh(table)
            await until(pilot, lambda: len(widget.cards) == len(hand), "the hand")
            await pilot.pause()

        def in_sight(index: int) -> bool:
            return widget.content_region.contains_region(widget.card_region(index))

        await deal([f"geoff {v}" for v in values[:5]] + ["kevin 3"])
        assert widget.size_shown == "full"
        assert all(widget.card_region(i).width == 12 and in_sight(i) for i in range(6))
        assert "Geoff" in card_text(widget, 0)[2]
        await deal([f"geoff {v}" for v in values[:10]] + ["kevin 3"])
        assert widget.size_shown == "compact"
        assert all(widget.card_region(i).width == 7 and in_sight(i) for i in range(11))
        assert "Geoff" in card_text(widget, 0)[2] and "◆ 3" in card_text(widget, 10)[1]
        # The marks are drawn in the narrow frames (a narrower frame would drop them):
        # one ▼, and a ✓ on the one playable card besides the status line's "marked ✓".
        shot = app.export_screenshot()
        assert "▼" in card_text(widget, widget.selected)[0] and "✓" in card_text(widget, 10)[3]
        assert shot.count("▼") == 1 and shot.count("✓") == 2
        await deal([f"geoff {v}" for v in values] + ["kevin 3", "kevin 5", "samantha 7"])
        assert widget.size_shown == "compact" and not all(in_sight(i) for i in range(14))
        widget.selected = 0  # from the first card (the selection follows its card)
        for _ in range(13):
            await pilot.press("right")
        await pilot.pause()
        assert widget.selected == 13 and in_sight(13)
        face = CardWidget.face(widget.cards[13], "compact").split("\n")[0]
        assert "▼" in card_text(widget, 13)[0] and face in card_text(widget, 13)[1]
        # Wider, where every card fits, and back: the chosen card is still in sight.
        await pilot.resize_terminal(200, 50)
        await until(pilot, lambda: widget.size_shown == "full", "full-size cards")
        await pilot.pause()
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: widget.size_shown == "compact", "narrow cards")
        await until(pilot, lambda: in_sight(13), "the chosen card in sight")
        await pilot.pause()
        assert "▼" in card_text(widget, 13)[0]


async def test_cards_off_the_edge_at_80_columns_are_counted_with_the_key_to_reach_them(
) -> None:
    """13 cards at 80×24 (11 fit): no card is cut by the row's edge, and the line under
    the cards says how many are off each edge, how many of those play, and which key
    reaches them; a click on that line selects the nearest of them."""
    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await our_turn(pilot, app)
        widget = screen.query_one(HandWidget)
        values = (1, 2, 3, 4, 5, 7, 10, 11, 12, 13)
        deal(app, [f"geoff {v}" for v in values] + ["kevin 3", "kevin 5", "samantha 7"])
        await until(pilot, lambda: len(widget.cards) == 13, "the hand")
        widget.selected = 0
        await pilot.pause()

        def lines() -> list[str]:
            region = widget.content_region
            return [line[region.x:region.right]
                    for line in screen_text(app).split("\n")[region.y:region.bottom]]

        def whole_cards() -> int:
            """The cards drawn on the row, each with both its top corners."""
            top = lines()[0]
            assert top.count("╭") + top.count("╔") == top.count("╮") + top.count("╗"), top
            return top.count("╭") + top.count("╔")

        # (Both kevins, which follow the kevin 8, are off the right edge: said, with ✓.)
        assert whole_cards() == 11 and lines()[4].rstrip().endswith("2 more, 2 ✓ (→) ▶")
        assert "◀" not in lines()[4]
        for _ in range(12):
            await pilot.press("right")
        await pilot.pause()
        assert widget.selected == 12 and "▼" in card_text(widget, 12)[0]
        assert whole_cards() == 11 and lines()[4].startswith("◀ 2 more (←)")
        assert "▶" not in lines()[4]
        # The column left over by the cut card is blank, as the row's padding beside it.
        padding, left = drawn(app, widget.region)[0][:2]
        assert left == padding and left[0] == " "
        await pilot.press("left", *["left"] * 10)
        await pilot.pause()
        assert widget.selected == 1
        assert lines()[4].startswith("◀ 1 more (←)") and lines()[4].rstrip().endswith(
            "1 more, 1 ✓ (→) ▶")
        # A click on a count brings in a row's worth of the cards off that edge (one a
        # click took 6 taps to cross 12 cards on a phone), the farthest chosen.
        width = widget.content_region.width
        await pilot.click(HandWidget, offset=(1 + width - 2, 4))
        await pilot.pause()
        assert widget.selected == 12 and lines()[4].startswith("◀ 2 more (←)")
        await pilot.click(HandWidget, offset=(1 + 1, 4))
        await pilot.pause()
        assert widget.selected == 0 and "▼" in card_text(widget, 0)[0]
        assert "◀" not in lines()[4]
        # A sideways swipe (the wheel sideways) moves the chosen card with the finger, a
        # card for each card's width it went (a phone's page sends a notch every two
        # cells: a notch a card, the choice ran to the end in one short swipe).
        from tui.games.getout.card import WIDTHS

        per_card = WIDTHS[widget.card_size()] // 2

        def notches(kind: type[events.MouseEvent], count: int) -> None:
            for _ in range(count):
                widget.post_message(kind(widget, 2, 2, 0, 0, 0, False, False, False,
                                         screen_x=2, screen_y=2))

        notches(events.MouseScrollLeft, 3 * per_card)  # the finger moving right
        await until(pilot, lambda: widget.selected == 3, "three cards on")
        notches(events.MouseScrollRight, per_card - 1)  # less than a card: no move
        await pilot.pause()
        assert widget.selected == 3
        notches(events.MouseScrollRight, 1)
        await until(pilot, lambda: widget.selected == 2, "one back")
        # A mouse's wheel up and down moves it a card a notch (it did nothing).
        notches(events.MouseScrollDown, 2)
        await until(pilot, lambda: widget.selected == 4, "two on")
        notches(events.MouseScrollUp, 2)
        await until(pilot, lambda: widget.selected == 2, "two back")
        await pilot.press("left")
        await pilot.pause()
        assert widget.selected == 1 and "▼" in card_text(widget, 1)[0]
        # A number counts from the first card in sight (the cards carry none): scrolled
        # to the end, 1 is the third card of the hand, not the first, off the edge.
        await pilot.press(*["right"] * 11)
        await pilot.pause()
        assert widget.selected == 12 and lines()[4].startswith("◀ 2 more (←)")
        await pilot.press("1")
        assert widget.selected == 2
        await pilot.press("1")  # again: ten cards further
        assert widget.selected == 12


async def test_a_click_on_a_card_plays_it_and_the_mouse_names_it() -> None:
    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    async with app.run_test(size=(120, 40)) as pilot:
        screen, widget = await dealt(pilot, app, ["geoff 1", "geoff 2", "kevin 3"])
        await pilot.pause()
        assert [c["value"] for c in widget.cards] == [1, 2, 3]
        # The last card, at a cell of its frame (the row has one cell of padding).
        await pilot.hover(HandWidget, offset=(1 + 2 * 12 + 11, 3))
        assert widget.tooltip == "Kevin 3 (diamond) — playable"
        await pilot.hover(HandWidget, offset=(1 + 5, 1))
        assert widget.tooltip == "Geoff 1 (square)"
        await pilot.hover(HandWidget, offset=(1 + 3 * 12 + 2, 1))  # beside the cards
        assert widget.tooltip is None
        version = screen.view["version"]
        await pilot.click(HandWidget, offset=(1 + 3 * 12 + 2, 1))  # nothing to play
        await pilot.pause()
        assert screen.view["version"] == version
        await pilot.click(HandWidget, offset=(1 + 2 * 12 + 11, 3))
        await until(pilot, lambda: [c["value"] for c in widget.cards] == [1, 2],
                    "the kevin played")
        assert screen.view["call"]["value"] == 3


async def test_after_a_click_plays_a_card_the_next_one_under_the_pointer_shows_no_tooltip(
) -> None:
    """A card played by a click, the next slid under the pointer, and its tooltip
    stayed over the hand while the player went on with the keys (a desktop browser)."""
    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    async with app.run_test(size=(120, 40)) as pilot:
        _, widget = await dealt(pilot, app, ["kevin 2", "kevin 3", "geoff 5"])
        at = next(i for i, c in enumerate(widget.cards) if c["value"] == 2)
        assert at < 2  # (a card after it, to slide under the pointer)
        await pilot.hover(HandWidget, offset=(1 + at * 12 + 5, 1))
        assert widget.tooltip is not None and widget.tooltip.startswith("Kevin 2")
        await pilot.click(HandWidget, offset=(1 + at * 12 + 5, 1))
        await until(pilot, lambda: len(widget.cards) == 2, "the kevin 2 played")
        await pilot.pause()
        assert widget.tooltip is None
        await pilot.hover(HandWidget, offset=(1 + at * 12 + 6, 1))  # it moves: named again
        assert widget.tooltip is not None and "2" not in widget.tooltip


async def test_by_touch_a_tap_chooses_a_card_and_a_tap_on_the_chosen_one_plays_it() -> None:
    """On a phone a finger that slipped onto the next card (7 cells wide) played it."""
    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    app.touch = True
    notes = Notices()
    async with app.run_test(size=(120, 40), message_hook=notes) as pilot:
        screen, widget = await dealt(pilot, app, ["geoff 1", "geoff 2", "kevin 3"])
        await pilot.pause()
        # The turn's line says how a phone plays (it said "(Enter)").
        # ("Tap it twice" was once too many for a card chosen already.)
        assert ("tap a ✓ card to choose it (▼), the ▼ card to play it, or the draw pile to "
                "draw") in str(screen.query_one("#status", Static).render())
        version = screen.view["version"]
        # (The row draws the three cards at their full width once it has laid them out:
        # under load a click at once, at the kevin's place, met the six before.)
        tap = (1 + 2 * 12 + 11, 3)
        await until(pilot, lambda: widget.card_region(2).contains(
            widget.region.x + tap[0], widget.region.y + tap[1]), "the kevin where tapped")
        await pilot.click(HandWidget, offset=tap)  # the kevin: chosen
        await until(pilot, lambda: widget.selected == 2, "the kevin chosen")
        await pilot.pause()
        assert screen.view["version"] == version and len(widget.cards) == 3
        assert notes.messages() == ["A tap chooses a card; a tap on the chosen card plays it."]
        await pilot.click(HandWidget, offset=tap)  # again: played
        await until(pilot, lambda: [c["value"] for c in widget.cards] == [1, 2],
                    "the kevin played")


async def test_a_click_on_the_draw_pile_or_a_line_that_says_draw_draws() -> None:
    """On a phone d was only in the footer, often past its edge: "Draw pile: 46" and
    "▶ Nothing matches: draw (d)" were tapped, and nothing came of it."""
    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await our_turn(pilot, app)
        deal(app, ["geoff 1", "geoff 2"])  # nothing follows the kevin 8
        await until(pilot, lambda: screen.legal == [{"type": "draw"}], "only a draw")
        await pilot.click("#status")
        await until(pilot, lambda: len(screen.view["hand"]) == 3, "a card drawn")
        deal(app, ["geoff 1", "kevin 2"])
        await until(pilot, lambda: len(screen.legal) == 2 and screen.view["turn"] == 0,
                    "a play or a draw")
        await pilot.click("#status")  # the line offers a play too: nothing happens
        await pilot.pause()
        assert len(screen.view["hand"]) == 2
        await pilot.click("#piles")
        await until(pilot, lambda: len(screen.view["hand"]) == 3, "a card drawn")


@pytest.mark.parametrize("touch", [False, True])
async def test_on_a_touch_screen_rules_stay_in_the_footer(touch: bool) -> None:
    """Narrow, "? Rules" gives way to the chat line's "? rules": a finger cannot press
    that, so on a touch screen the key stays, past the edge the footer scrolls to."""
    from tui.widgets.footer import TableFooter

    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    app.touch = touch
    async with app.run_test(size=(43, 40)) as pilot:
        screen = await our_turn(pilot, app)
        footer = screen.query_one(TableFooter)
        await until(pilot, lambda: footer.entries, "the keys")
        await pilot.pause()
        assert any(e.name == "rules" for e in footer.entries) is touch


async def test_the_played_count_follows_a_turned_over_pile() -> None:
    """When the played pile becomes the draw pile only its count changes, not the call
    card nor (when the draw comes after) the draw count: the pile line still follows."""
    from textual.app import App

    from tui.games.getout.call_pile import CallPile
    from tui.games.getout.text import describe_event
    from tui.notices import Namer

    class Pile(App[None]):
        def compose(self) -> ComposeResult:
            yield CallPile()

    app = Pile()
    async with app.run_test() as pilot:
        pile = app.query_one(CallPile)
        pile.call = {"id": 1, "image": "geoff", "value": 1, "wild": False}
        pile.draw_count, pile.played_count = 0, 2
        await pilot.pause()
        pile.played_count = 1  # turned over, then a card drawn: draw pile 0 again
        await pilot.pause()
        assert "Draw pile: 0 · played: 1" in str(app.query_one("#piles").render())
    namer = Namer(("Ann", "Bob"), 0)
    assert describe_event({"type": "recycled", "count": 1}, namer) == (
        "The played pile (1 card) was turned over as the draw pile")


async def test_the_call_slot_holds_the_call_card_or_says_there_is_none() -> None:
    """Composed with its first state (no call card: the words say so, mounted once), then
    a call card, the next one in the same widget, none again at a new round, and one."""
    from textual.app import App
    from textual.widgets import Static

    from tui.games.getout.call_pile import NO_CALL, CallPile

    class Pile(App[None]):
        def compose(self) -> ComposeResult:
            yield CallPile()

    def held(app: App[None]) -> list[Any]:
        return list(app.query_one("#call-slot").children)

    app = Pile()
    async with app.run_test() as pilot:
        pile = app.query_one(CallPile)
        (words,) = held(app)
        assert isinstance(words, Static) and str(words.render()) == NO_CALL
        pile.call = {"id": 1, "image": "geoff", "value": 1, "wild": False}
        await pilot.pause()
        (card,) = held(app)
        assert isinstance(card, CardWidget) and card.card["id"] == 1
        pile.call = {"id": 2, "image": "kevin", "value": 1, "wild": False}
        await pilot.pause()
        assert held(app) == [card] and card.card["id"] == 2
        pile.call = None
        await pilot.pause()
        (words,) = held(app)
        assert isinstance(words, Static) and str(words.render()) == NO_CALL
        pile.call = {"id": 3, "image": "samantha", "value": 4, "wild": False}
        await pilot.pause()
        (card,) = held(app)
        assert isinstance(card, CardWidget) and card.card["id"] == 3


async def test_our_turn_begins_on_a_card_that_can_be_played() -> None:
    """After our play the selection rested on a card that could not be played, and
    Enter at our next turn only said so (a fresh-eyed pass): when our turn begins on
    such a card, the first card that plays is chosen (not a GET OUT! card); a choice
    that plays is kept."""
    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await our_turn(pilot, app)
        assert app.hosting.host is not None
        (table,) = app.hosting.host.tables.values()
        table.seats[1].bot = None  # (Bot 2 holds still)
        hand = screen.query_one(HandWidget)
        def name(card: dict[str, Any]) -> str:
            return "wild" if card["wild"] else f"{card['image']} {card['value']}"

        for ours, chosen, then in (
                (["geoff 1", "shirley 5", "kevin 3", "kevin 10"], "geoff 1", "kevin 3"),
                (["kevin 10", "geoff 1", "kevin 3"], "kevin 10", "kevin 10"),
                # Never onto a GET OUT! card: spending one is the player's own idea.
                (["geoff 1", "wild", "shirley 5"], "geoff 1", "geoff 1")):
            stack_getout(table.game, [ours, ["shirley 1", "geoff 2"]], played=["kevin 8"],
                         turn=1)
            app.hosting.host.refresh(table)
            count = len(ours)
            await until(pilot, lambda n=count: screen.view.get("turn") == 1
                        and len(hand.cards) == n, "Bot 2's turn")
            hand.selected = [name(c) for c in hand.cards].index(chosen)
            stack_getout(table.game, [ours, ["shirley 1", "geoff 2"]], played=["kevin 8"],
                         turn=0)
            app.hosting.host.refresh(table)
            await until(pilot, lambda: screen.view.get("turn") == 0, "our turn")
            current = hand.current
            assert current is not None and name(current) == then, (ours, current)


async def test_no_draw_key_while_we_lay_the_first_call_card() -> None:
    from tests.tui_support import footer_keys

    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    notes = Notices()
    async with app.run_test(size=(100, 30), message_hook=notes) as pilot:
        screen = await our_turn(pilot, app)
        assert app.hosting.host is not None
        (table,) = app.hosting.host.tables.values()
        stack_getout(table.game, [["geoff 1", "kevin 3"], ["shirley 1"]], played=[], turn=0)
        app.hosting.host.refresh(table)
        await until(pilot, lambda: screen.view.get("call") is None and screen.legal, "the lead")
        await pilot.pause()
        keys = footer_keys(app)
        assert "draw" not in keys and keys.get("play") is True
        # d says why it does nothing now (it did nothing and said nothing).
        await pilot.press("d")
        await until(pilot, lambda: "laid, not drawn" in warning(screen), "why d does nothing")
        assert screen.view.get("call") is None and len(screen.view["hand"]) == 2
        # On another player's turn d is dimmed, and says whose turn it is.
        table.seats[1].bot = None  # (the bot holds still)
        stack_getout(table.game, [["geoff 1", "kevin 3"], ["shirley 1", "geoff 2"]],
                     played=["geoff 5"], turn=1)
        app.hosting.host.refresh(table)
        await until(pilot, lambda: screen.view.get("turn") == 1
                    and footer_keys(app).get("draw") is False, "Bot 2's turn, d dimmed")
        await pilot.press("d")
        await until(pilot, lambda: "It is Bot 2's turn" in warning(screen),
                    "why d does nothing on another's turn")


async def test_a_warning_that_names_whose_turn_it_is_goes_when_the_turn_moves_on() -> None:
    """It said "It is Bot 3's turn" with Bot 4 to play (a fresh-eyed pass)."""
    app = make_app(solo={"game_id": "getout", "seats": 3, "options": {"first": 0}})
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await our_turn(pilot, app)
        assert app.hosting.host is not None
        (table,) = app.hosting.host.tables.values()
        for seat in table.seats[1:]:
            seat.bot = None  # (the bots move only as the test says)
        stack_getout(table.game, [["geoff 1"], ["shirley 1"], ["kevin 2"]],
                     played=["geoff 5"], turn=1)
        app.hosting.host.refresh(table)
        await until(pilot, lambda: screen.view.get("turn") == 1, "Bot 2's turn")
        await pilot.press("d")
        await until(pilot, lambda: "It is Bot 2's turn" in warning(screen), "why not")
        app.hosting.host.act(table, 1, {"type": "draw"})
        await until(pilot, lambda: screen.view.get("turn") == 2, "Bot 3's turn")
        assert not warning(screen)


async def test_a_view_shown_while_our_move_was_on_its_way_gets_its_marks_once_answered(
) -> None:
    """The host pushes the view a move made before it answers: shown while the move is
    on its way, it opened no move, and a player who dealt the next round (n) had no ✓ on
    any card to lay first (2 times in 4 over the LAN). Once the answer comes it is shown
    again, with its moves."""
    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await our_turn(pilot, app)
        hand = screen.query_one(HandWidget)
        assert app.hosting.host is not None
        (table,) = app.hosting.host.tables.values()
        screen.moving += 1  # as our move (dealing the round) is on its way
        stack_getout(table.game, [["geoff 1", "kevin 3"], ["shirley 1"]], played=[], turn=0)
        app.hosting.host.refresh(table)
        await until(pilot, lambda: screen.view.get("call") is None
                    and len(hand.cards) == 2, "the new round's view")
        assert hand.playable == frozenset()  # no move open while ours is on its way
        screen.moving -= 1
        screen.move_settled()  # the answer came
        await pilot.pause()
        assert hand.playable == frozenset(card["id"] for card in hand.cards)
        assert all("✓" in card_text(hand, i)[-1] for i in range(2))


async def test_with_nothing_to_draw_the_footer_s_d_says_pass() -> None:
    """The turn's line said "pass (d)" and the footer "d Draw" (a fresh-eyed pass)."""
    from tests.tui_support import screen_text

    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    async with app.run_test(size=(100, 30)) as pilot:
        _, table = await stacked_heads_up(pilot, app, [["geoff 5"], ["geoff 7"]])
        await until(pilot, lambda: "d Draw" in screen_text(app).splitlines()[-1], "d Draw")
        game = table.game
        game.hands[1] += game.draw_pile  # (every card held: nothing to draw or turn over)
        game.draw_pile = []
        game._epoch += 1  # (the views' piles are built again)
        app.hosting.host.refresh(table)
        await until(pilot, lambda: "d Pass" in screen_text(app).splitlines()[-1], "d Pass")


def test_the_round_log_says_you_are_out_and_a_player_is_out() -> None:
    from tui.games.getout.text import describe_event
    from tui.notices import Namer

    event = {"type": "round_over", "round": 1, "winner": 2, "out": [0, 1]}
    line = describe_event(event, Namer(["Ann", "Bob", "Cy"], me=0))
    assert line == ("Round 1: Cy got out first; you passed the limit and are out; "
                    "Bob passed the limit and is out")


def test_with_nothing_to_draw_the_turn_says_d_passes() -> None:
    """With the draw pile empty and nothing to turn over, d passes: the line said "or
    draw (d)" (a fresh-eyed pass); a wide line, a narrow one and a phone's say so."""
    from tui.games.getout.text import SHORT_STATUS, TOUCH_STATUS, turn_status

    call = {"id": 1, "image": "geoff", "value": 3, "wild": False}
    empty = {"call": call, "draw_count": 0, "played_count": 1}
    for plays in (True, False):
        line = turn_status(empty, plays)
        assert "pass (d)" in line and "draw (d)" not in line, line
        assert "pass" in SHORT_STATUS[line] and "pass" in TOUCH_STATUS[line]
        assert cell_len(SHORT_STATUS[TOUCH_STATUS[line]]) <= 41
        # Something to draw, or a played pile to turn over: d draws.
        for view in ({**empty, "draw_count": 4}, {**empty, "played_count": 5}):
            assert "draw" in turn_status(view, plays) and "pass" not in turn_status(view, plays)


def test_wild_cards_left_in_hand_are_counted() -> None:
    """"GET OUT! GET OUT! GET OUT!." read as a shout."""
    from tui.games.getout.summary import cards_left

    wild = {"id": 55, "image": None, "value": None, "wild": True}
    hand = [{"id": 3, "image": "shirley", "value": 1, "wild": False}, wild, wild]
    def words(hand: list[dict[str, Any]]) -> str:
        return str(cards_left(hand)).replace("\u00a0", " ")

    assert words(hand) == "You were left with Shirley 1 · 2 GET OUT! cards."
    assert words([wild]) == "You were left with a GET OUT! card."
    # Kept on one line: "a" ended a line at 80 columns.
    console = Console(width=30, record=True, file=io.StringIO())
    console.print(cards_left([*hand[:1] * 5, wild]))
    assert "a GET OUT! card." in console.export_text().replace("\u00a0", " ")


def test_the_log_says_you_deal_when_you_do() -> None:
    """A round we deal reads "you deal", beside "You got out first" (it read "Ann
    deals" in Ann's own log: a fresh-eyed LAN pass)."""
    from tui.games.getout.text import describe_event
    from tui.notices import Namer

    event = {"type": "round_started", "round": 2, "dealer": 0, "first": 1}
    assert describe_event(event, Namer(["Ann", "Bob"], me=0)) == "Round 2: you deal"
    assert describe_event(event, Namer(["Ann", "Bob"], me=1)) == "Round 2: Ann deals"


def summary_text(screen: SummaryScreen) -> str:
    """A summary dialog's title and body, as plain text."""
    console = Console(width=100, record=True, file=io.StringIO())
    console.print(screen.title_text, *screen.body)
    return " ".join(console.export_text().split())


async def test_the_round_we_go_out_in_keeps_its_summary_and_the_match_s_follows() -> None:
    """The bots deal on at once when we are out (nobody waits for us), which took the
    round's summary away as it opened: it stays until closed, names what we were left
    holding and the limit we passed; the match's own summary follows at its end."""
    app = make_app(solo={"game_id": "getout", "seats": 3,
                         "options": {"first": 0, "match": True, "limit": 10}})
    async with app.run_test(size=(120, 40)) as pilot:
        await our_turn(pilot, app)
        host = app.hosting.host
        assert host is not None
        (table,) = host.tables.values()
        # The bots are held until the round's summary shows: at the tests' pace (10 ms a
        # move) under load they played the whole match out before the app drew a frame,
        # and the first summary shown was the match's.
        bots = {seat: table.seats[seat].bot for seat in (1, 2)}
        for seat in bots:
            table.seats[seat].bot = None
        # Bot 2 gets out with its kevin 3; we are left with 5 + 7 = 12 > 10.
        stack_getout(table.game, [["geoff 5", "geoff 7"], ["kevin 3"], ["geoff 1"]],
                     played=["kevin 8"], turn=1)
        host.refresh(table)
        host.act(table, 1, {"type": "play", "card": table.game.hands[1][0]})
        summary = await until(pilot, lambda: isinstance(app.screen, SummaryScreen)
                              and app.screen, "the round's summary")
        text = summary_text(summary)
        assert "Round 1: Bot 2 got out first. You passed 10 and are out" in text, text
        assert "Ann (you) 2 cards 12 12" in text and "Bot 3 1 card 1 1" in text, text
        assert "You were left with Geoff 5 and 7." in text, text
        assert "A total over 10 is out of the match." in text, text
        for seat, bot in bots.items():
            table.seats[seat].bot = bot
        host.refresh(table)
        await until(pilot, lambda: table.game.round > 1 or table.game.over, "the bots go on")
        assert app.screen is summary, "the round's summary went away by itself"
        final = await until(pilot, lambda: isinstance(app.screen, SummaryScreen)
                            and app.screen is not summary and app.screen, "the match's end")
        assert "🏆" in summary_text(final)
        # The rounds we sat out say "—" (a 0 there read as a round won); round 1 our 12.
        (table_screen,) = [s for s in app.screen_stack if isinstance(s, GetOutScreen)]
        scores = table_screen.query_one(ScoreTable)
        ours = [cell.plain for cell in scores.get_row_at(0)]
        assert ours[1] == "12 ✗" and ours[-1] == "12", ours
        assert ours[2:-1] and set(ours[2:-1]) == {"—"}, ours


async def test_the_summary_we_went_out_in_says_when_a_later_round_ends_under_it() -> None:
    """Left open, the summary of the round we went out in read as the latest through
    the rounds after it ("Round 1: Bot 2 got out first" while round 2 had ended; a
    fresh-eyed pass): it says the later round is over too."""
    app = make_app(solo={"game_id": "getout", "seats": 3,
                         "options": {"first": 0, "match": True, "limit": 10}})
    async with app.run_test(size=(120, 40)) as pilot:
        await our_turn(pilot, app)
        assert app.hosting.host is not None
        host = app.hosting.host
        (table,) = host.tables.values()
        for seat in table.seats[1:]:
            seat.bot = None  # (the bots play only as the test says)
        stack_getout(table.game, [["geoff 5", "geoff 7"], ["kevin 3"], ["geoff 1"]],
                     played=["kevin 8"], turn=1)
        host.refresh(table)
        host.act(table, 1, {"type": "play", "card": table.game.hands[1][0]})
        summary = await until(pilot, lambda: isinstance(app.screen, SummaryScreen)
                              and app.screen, "the round's summary")
        await until(pilot, lambda: "The others play on without you." in screen_text(app),
                    "the summary's last line")
        host.act(table, 1, {"type": "next_round"})
        stack_getout(table.game, [[], ["kevin 3"], ["geoff 1"]], played=["kevin 8"], turn=1)
        host.refresh(table)
        host.act(table, 1, {"type": "play", "card": table.game.hands[1][0]})
        assert table.game.view(None)["phase"] == "round_over"
        await until(pilot, lambda: "Round 2 is over too" in screen_text(app),
                    "the later round said")
        assert app.screen is summary
        assert "Round 1: Bot 2 got out first." in summary_text(summary)


async def stacked_heads_up(pilot: Pilot[Any], app: HiddenHandApp,
                           hands: list[list[str]]) -> tuple[GetOutScreen, Any]:
    """A heads-up table at our turn with ``hands`` over a Kevin 8, Bot 2 playing only as
    the test says; our screen and the host's table."""
    screen = await our_turn(pilot, app)
    assert app.hosting.host is not None
    (table,) = app.hosting.host.tables.values()
    table.seats[1].bot = None
    stack_getout(table.game, hands, played=["kevin 8"], turn=0)
    app.hosting.host.refresh(table)
    return screen, table


async def test_at_a_round_s_end_the_turn_line_names_no_key_the_footer_lacks() -> None:
    """While the round's summary opened (a second on a busy machine) the line said "n
    starts the next round" and the footer had no n: the summary's keys say it. Closed,
    the line says it again, with n in the footer."""
    from tests.tui_support import footer_keys

    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    async with app.run_test(size=(100, 30)) as pilot:
        screen, _ = await stacked_heads_up(pilot, app, [["kevin 3"], ["shirley 1", "geoff 2"]])
        line = screen.query_one(StatusLine)
        await until(pilot, lambda: len(screen.query_one(HandWidget).cards) == 1, "our card")
        await pilot.press("enter")  # our last card: the round is ours
        await until(pilot, lambda: screen.summary_screen is not None, "the summary coming")
        assert str(line.content) == "Round 1 is over: You got out first.", line.content
        assert "next_round" not in footer_keys(app)
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen), "the summary")
        await pilot.press("c")  # "Look at the table"
        await until(pilot, lambda: app.screen is screen and "n starts the next round" in
                    str(line.content), "the line's key again")
        await until(pilot, lambda: footer_keys(app).get("next_round") is True, "n in the footer")


async def test_our_turn_coming_while_the_rules_are_open_is_said_over_them() -> None:
    """A player reading the rules was never told their turn had come, and the others
    waited (a fresh-eyed pass): it is said over whatever screen is on the table."""
    from textual.screen import ModalScreen

    from tui.screens.rules import RulesScreen

    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        _, table = await stacked_heads_up(pilot, app, [["geoff 5", "geoff 7"],
                                                       ["kevin 3", "kevin 10"]])
        await pilot.press("d")  # (nothing follows Kevin 8: we draw, and Bot 2 is to play)
        await until(pilot, lambda: table.game.turn == 1, "Bot 2's turn")
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, RulesScreen), "the rules")
        assert "It is your turn" not in screen_text(app)
        app.hosting.host.act(table, 1, {"type": "play", "card": table.game.hands[1][0]})
        await until(pilot, lambda: "It is your turn at the table." in screen_text(app),
                    "our turn said over the rules")
        assert isinstance(app.screen, RulesScreen)
        # Not over a dialog, where the table shows around it.
        await pilot.press("escape")
        screen = await until(pilot, lambda: isinstance(app.screen, GetOutScreen)
                             and app.screen, "the table")
        app.clear_notifications()
        stack_getout(table.game, [["geoff 5", "geoff 7"], ["kevin 3", "kevin 10"]],
                     played=["kevin 8"], turn=1)
        app.hosting.host.refresh(table)
        await until(pilot, lambda: screen.view.get("turn") == 1, "Bot 2's turn again")
        await pilot.press("escape")  # (the question that leaves the game)
        question = await until(pilot, lambda: isinstance(app.screen, ModalScreen)
                               and app.screen, "the question")
        app.hosting.host.act(table, 1, {"type": "play", "card": table.game.hands[1][0]})
        await until(pilot, lambda: screen.view.get("turn") == 0, "our turn under it")
        await pilot.pause()
        assert app.screen is question and "It is your turn" not in screen_text(app)


async def test_leaving_a_solo_game_says_whether_past_games_will_list_it() -> None:
    """The question promised "Past games keeps it as it stands" for a game we had not
    moved in (a rematch the bots had begun), which Past games then did not list."""
    from tui.screens.dialogs import ConfirmScreen

    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    async with app.run_test(size=(100, 30)) as pilot:
        screen, table = await stacked_heads_up(pilot, app, [["kevin 3", "kevin 5"],
                                                             ["shirley 1", "shirley 2"]])

        async def asked() -> str:
            await pilot.press("escape")
            question = await until(pilot, lambda: isinstance(app.screen, ConfirmScreen)
                                   and app.screen, "the question")
            said = question.question
            await pilot.press("n")
            await until(pilot, lambda: app.screen is screen, "back at the table")
            return said

        said = await asked()
        assert "you have not moved in it: Past games will not list it" in said, said
        await until(pilot, lambda: screen.view.get("turn") == 0, "our turn")
        await pilot.press("enter")  # (either Kevin follows the Kevin 8)
        await until(pilot, lambda: table.game.turn == 1, "our move made")
        said = await asked()
        assert "Past games keeps what was played" in said, said


async def bot_2_wins_round_1(pilot: Pilot[Any], app: HiddenHandApp) -> tuple[GetOutScreen, Any]:
    """A heads-up match: Bot 2 (holding still but as the test says) goes out with its
    Kevin 3, ending round 1; our screen and the host's table."""
    screen = await our_turn(pilot, app)
    assert app.hosting.host is not None
    (table,) = app.hosting.host.tables.values()
    table.seats[1].bot = None  # (Bot 2 plays and deals only as the test says)
    stack_getout(table.game, [["geoff 5", "geoff 7"], ["kevin 3"]],
                 played=["kevin 8"], turn=1)
    app.hosting.host.refresh(table)
    app.hosting.host.act(table, 1, {"type": "play", "card": table.game.hands[1][0]})
    return screen, table


async def test_enter_typed_twice_on_a_round_s_summary_plays_no_card_in_the_next(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Enter Enter on a round's summary dealt the next round and played a card in it
    that the player never saw (a fresh-eyed pass): a key just after the answer that
    dealt does nothing; the table's keys work again after that moment."""
    from tui.screens import table_summary

    monkeypatch.setattr(table_summary, "KEYS_HELD", 3600.0)  # (however slow the machine)
    app = make_app(solo={"game_id": "getout", "seats": 2,
                         "options": {"first": 0, "match": True, "limit": 100}})
    async with app.run_test(size=(100, 30)) as pilot:
        screen, table = await bot_2_wins_round_1(pilot, app)
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen)
                    and "Next round (n)" in screen_text(app), "the round's summary")
        await pilot.press("enter", "enter")
        # Round 2: Bot 2 won round 1 and deals, so we lay the first call card.
        await until(pilot, lambda: app.screen is screen and table.game.round == 2
                    and screen.can("play"), "our first move of round 2")
        await pilot.press("enter")  # still held
        await pilot.pause()
        assert table.game.played == [] and len(table.game.hands[0]) == 6
        screen.keys_held_until = float("-inf")  # (the moment is over)
        await pilot.press("enter")
        await until(pilot, lambda: len(table.game.played) == 1, "the call card laid")


async def test_a_new_round_s_hand_starts_on_its_first_card() -> None:
    """The chosen card's place carried over from the last hand: round 2 began on its
    fifth card (a fresh-eyed pass over the LAN)."""
    app = make_app(solo={"game_id": "getout", "seats": 2,
                         "options": {"first": 0, "match": True, "limit": 100}})
    async with app.run_test(size=(100, 30)) as pilot:
        screen, table = await bot_2_wins_round_1(pilot, app)
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen), "the summary")
        hand = screen.query_one(HandWidget)
        hand.selected = 1  # (the Geoff 7 of round 1)
        await pilot.press("n")
        await until(pilot, lambda: table.game.round == 2 and len(hand.cards) == 6
                    and screen.can("play"), "round 2, ours to begin")
        first = next(i for i, c in enumerate(hand.cards) if not c["wild"])
        assert hand.selected == first


async def test_a_round_s_summary_stays_open_when_another_player_deals_the_next() -> None:
    """Another player's n dealt the next round, and the summary a player was still
    reading vanished into it (found by a fresh-eyed pair over the LAN): it stays until
    its reader closes it, says the round is being played, and its n goes to the table."""
    from tui.screens.table_summary import MOVED_ON

    app = make_app(solo={"game_id": "getout", "seats": 2,
                         "options": {"first": 0, "match": True, "limit": 100}})
    async with app.run_test(size=(100, 30)) as pilot:
        screen, table = await bot_2_wins_round_1(pilot, app)
        summary = await until(pilot, lambda: isinstance(app.screen, SummaryScreen)
                              and "Next round (n)" in screen_text(app) and app.screen,
                              "the round's summary")
        # Under it, the call card asks for nothing more ("Next: Kevin or a 3" stayed).
        follow = screen.query_one("#follow", Static)
        await until(pilot, lambda: str(follow.render()) == "Round over", "the round over")
        app.hosting.host.act(table, 1, {"type": "next_round"})
        await until(pilot, lambda: screen.view.get("phase") == "play"
                    and table.game.round == 2 and MOVED_ON in screen_text(app),
                    "the summary says the next round is being played")
        assert app.screen is summary, "the summary went away while it was being read"
        assert "▸ To the table (n) ◂" in screen_text(app)  # (still marked as focused)
        assert "Next round" not in screen_text(app)
        # One button to the table: "Look at the table (c)" said the same in other words.
        assert "Look at the table (c)" not in screen_text(app)
        await pilot.press("n")
        await until(pilot, lambda: app.screen is screen, "n goes to the table")
        assert table.game.round == 2
        # Left open all through the next round, it gives way to that round's summary.
        for number in (2, 3):
            stack_getout(table.game, [["geoff 5", "geoff 10"], [f"kevin {number}"]],
                         played=["kevin 8"], turn=1)
            app.hosting.host.refresh(table)
            app.hosting.host.act(table, 1, {"type": "play", "card": table.game.hands[1][0]})
            await until(pilot, lambda n=number: isinstance(app.screen, SummaryScreen)
                        and f"Round {n}:" in screen_text(app)
                        and MOVED_ON not in screen_text(app), f"round {number}'s summary")
            app.hosting.host.act(table, 1, {"type": "next_round"})
            await until(pilot, lambda: MOVED_ON in screen_text(app), "left open")


async def test_the_score_table_shows_the_newest_rounds_first_and_the_limit() -> None:
    app = make_app(solo={"game_id": "getout", "seats": 2,
                         "options": {"first": 0, "match": True, "limit": 50}})
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await our_turn(pilot, app)
        assert app.hosting.host is not None
        (table,) = app.hosting.host.tables.values()
        table.game.history = [[0, 3], [4, 0], [0, 9]]
        table.game.scores = [4, 12]
        app.hosting.host.refresh(table)
        scores = screen.query_one("#scores", ScoreTable)
        # At 80 columns the box holds the newest rounds whole, and says more are left out.
        await until(pilot, lambda: scores.header_labels[-1].endswith("…"), "rounds left out")
        assert scores.virtual_size.width <= scores.scrollable_content_region.width
        labels = [label.removesuffix("…") for label in scores.header_labels]
        # The limit is on the frame: as "total/50" it took the room of a round, and the
        # box held only the newest one at 80 columns.
        assert labels[:2] == ["player", "total"] and str(scores.border_title) == "limit 50"
        assert labels[2:] == ["r3", "r2"]
        await pilot.resize_terminal(120, 40)  # room for every round
        await until(pilot, lambda: scores.header_labels[2:] == ["r3", "r2", "r1"], "rounds")
        assert scores.header_labels[:2] == ["player", "total"]
        assert [str(cell) for cell in scores.get_row_at(1)] == ["Bot 2", "12", "9", "0", "3"]


async def test_on_a_phone_on_its_side_the_log_has_lines() -> None:
    """A phone on its side (a browser's 100 × 20) showed no line of the log, nor more
    than the header of the scores: fewer than 24 rows, the table gives up the scores box
    (the players' list has each score), the captions and the call card drawn (the line
    under it names it), as a phone held upright does (a pass on a phone)."""
    from textual.widgets import Static

    app = make_app(solo={"game_id": "getout", "seats": 4, "options": {"first": 0}})
    async with app.run_test(size=(100, 20)) as pilot:
        screen = await our_turn(pilot, app)
        log = screen.query_one("#log")
        await until(pilot, lambda: log.scrollable_content_region.height >= 3, "its lines")
        assert not screen.query_one("#scores").display
        # (The call card in words: "Next: ◆ Kevin or a 3", here "Any card may start".)
        assert str(screen.query_one("#follow", Static).render()).strip()
        await pilot.resize_terminal(100, 24)  # 24 rows: as before, every part
        await until(pilot, lambda: screen.query_one("#scores").display, "the scores")


async def test_a_long_name_is_cut_for_the_newest_round_beside_it() -> None:
    """A name of 24 letters left a box of 27 columns only "total…" (a fresh-eyed LAN
    pass): it is cut to show the newest round; short names are not cut for one."""
    from textual.app import App

    class Scores(App[None]):
        CSS = "#scores { width: 27; }"

        def compose(self) -> ComposeResult:
            yield ScoreTable(id="scores")

    app = Scores()
    async with app.run_test(size=(40, 10)) as pilot:
        scores = app.query_one(ScoreTable)
        header, rows = _score_rows(3, 2)
        rows[1][0] = Text("Bobbington-the-Magnifice")
        scores.set_table(header, rows)
        await pilot.pause()
        assert scores.header_labels == ["player", "total", "r1", "r2"]
        assert str(scores.get_row_at(1)[0]) == "Bobbingto…"
        header, rows = _score_rows(3, 4)  # short names: the rounds that fit, names whole
        scores.set_table(header, rows)
        await pilot.pause()
        assert scores.header_labels == ["player", "total", "r1", "r2…"]


async def test_a_seat_kept_warm_by_a_bot_scores_under_its_person_s_name_cut_to_fit() -> None:
    """A bot played for Roberta the Great: at 80 columns the score table called her seat
    "Bot 2", and her long name would have given the box a scroll bar over its last row."""
    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await our_turn(pilot, app)
        assert app.hosting.host is not None
        (table,) = app.hosting.host.tables.values()
        table.seats[1].stand_in_for = "Roberta the Great"
        app.hosting.host.refresh(table)
        scores = screen.query_one("#scores", ScoreTable)
        await until(pilot, lambda: str(scores.get_row_at(1)[0]).startswith("Robert"),
                    "her name in the scores")
        name = str(scores.get_row_at(1)[0])
        assert name == "Roberta the Great" or name.endswith("…"), name
        assert scores.virtual_size.width <= scores.scrollable_content_region.width
        row = next(line for line in screen_text(app).splitlines() if " 2  " in line)
        assert "Robert" in row and "[bot]" in row, row


async def test_the_log_follows_the_person_not_the_seat() -> None:
    """A move made from our seat before we sat there (someone else's, or a bot's, in the
    table's past) is theirs in the log, not "You played"."""
    from tui.session import Entry

    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await our_turn(pilot, app)
        played = {"type": "played", "seat": 0,
                  "card": {"id": 3, "image": "kevin", "value": 4, "wild": False}}
        before = Entry("event", played, ("Dan", "Bot 2"), "getout")
        ours = Entry("event", played, ("Ann", "Bot 2"), "getout")
        assert screen.describe_entry(before) == "Dan played Kevin 4"
        assert screen.describe_entry(ours) == "You played Kevin 4"


def test_the_counts_off_the_edges_say_how_many_of_those_cards_play() -> None:
    from tui.games.getout.overflow import more_marks

    assert more_marks(2, 3, 80) == ("◀ 2 more (←)", "3 more (→) ▶")
    assert more_marks(2, 3, 80, 0, 1) == ("◀ 2 more (←)", "3 more, 1 ✓ (→) ▶")
    assert more_marks(2, 3, 12, 1, 1) == ("◀ 2 1✓", "3 1✓ ▶")  # too narrow for words
    assert more_marks(0, 3, 12, 0, 2) == ("", "3 2✓ ▶")
    # A phone swipes the hand: no key named (it said "(→)").
    assert more_marks(2, 3, 80, 0, 1, keys=False) == ("◀ 2 more", "3 more, 1 ✓ ▶")


async def test_the_turns_line_says_it_in_fewer_words_where_the_whole_line_is_cut() -> None:
    """At 45 columns "▶ Your turn: play a card marked ✓ (Enter)" lost "or draw (d)"."""
    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    async with app.run_test(size=(45, 30)) as pilot:
        screen = await our_turn(pilot, app)
        deal(app, ["kevin 3", "geoff 1"])
        status = screen.query_one("#status")
        await until(pilot, lambda: "▶ Play a ✓ card (Enter) or draw (d)"
                    in str(status.render()), "the short line")
        await pilot.resize_terminal(100, 30)
        await until(pilot, lambda: "▶ Your turn: play a card marked ✓ (Enter) or draw (d)."
                    in str(status.render()), "the whole line, with room for it")


def test_the_cards_left_keep_an_images_numbers_with_its_name_when_wrapped() -> None:
    """At 80 columns "Tea Picker 4" ended a line of the summary and "7." began the next."""
    from rich.console import Console

    from tui.games.getout.summary import cards_left

    hand = [{"wild": False, "image": "tea_picker", "value": v} for v in (4, 7)]
    hand += [{"wild": False, "image": "geoff", "value": 2}]
    for width in range(20, 45):
        console = Console(width=width, record=True, file=io.StringIO())
        console.print(cards_left(hand))
        lines = console.export_text().splitlines()
        assert any("Tea Picker 4 and 7" in line for line in lines), (width, lines)


@pytest.mark.parametrize("match", [True, False])
async def test_a_match_s_round_is_said_over_the_call_card(match: bool) -> None:
    """Which round of a match it is showed only in the log."""
    app = make_app(solo={"game_id": "getout", "seats": 2,
                         "options": {"first": 0, "match": match}})
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await our_turn(pilot, app)
        caption = screen.query_one("#call-caption", Static)
        expected = "Round 1 · call card" if match else "Call card"
        await until(pilot, lambda: str(caption.render()) == expected, expected)


async def test_a_table_gone_for_good_stops_asking_for_a_move() -> None:
    """The host left mid-game: the banner said so, and the turn line still read "▶ Your
    turn: nothing matches — draw a card (d)", a key that did nothing (a LAN pass)."""
    from tui.messages import ConnectionDropped
    from tui.screens.table import GONE

    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await our_turn(pilot, app)
        status = screen.query_one("#status", Static)
        assert "Your turn" in str(status.render())
        screen.post_message(ConnectionDropped("the host closed the table", final=True))
        await until(pilot, lambda: str(status.render()) == GONE, "the turn line")
        assert "the host closed the table" in screen_text(app)


async def test_a_host_out_of_reach_holds_the_turn_line_s_ask_until_it_is_back() -> None:
    """"▶ Your turn: play a card marked ✓ (Enter) or draw (d)" under the reconnecting
    banner, with no key working (a pass through a host's crash)."""
    from tui.messages import ConnectionDropped, ConnectionRestored
    from tui.screens.table import CUT_OFF

    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await our_turn(pilot, app)
        status = screen.query_one("#status", Static)
        asked = str(status.render())
        screen.post_message(ConnectionDropped("connection reset", final=False))
        await until(pilot, lambda: str(status.render()) == CUT_OFF, "the turn line waits")
        screen.post_message(ConnectionRestored())
        await until(pilot, lambda: str(status.render()) == asked, "the turn line asks again")


@pytest.mark.parametrize(("match", "marker", "expected", "touch"), [
    # "Round 1 is over: Bot 2 got out. Press n" (for the next round), cut at 43 columns.
    (True, "got out", "Bot 2 got out: n starts the next round", False),
    # (A phone has no n: it said so all the same.)
    (True, "got out", "Bot 2 got out: tap Next round below", True),
    # "🏆 Bot 3 wins! v: summary (rematch," cut (Got Five!'s, and GET OUT!'s alike).
    (False, "🏆", "🏆 Bot 2 wins! v: summary · Esc: leave", False),
    # (A phone has no v, nor Esc: the footer's keys are tapped.)
    (False, "🏆", "🏆 Bot 2 wins! Summary in the keys below", True),
])
async def test_at_a_phone_s_width_a_round_s_or_game_s_end_fits_its_line(
        match: bool, marker: str, expected: str, touch: bool) -> None:
    app = make_app(solo={"game_id": "getout", "seats": 2,
                         "options": {"first": 0, "match": match}})
    app.touch = touch
    async with app.run_test(size=(43, 40)) as pilot:
        screen, _table = await bot_2_wins_round_1(pilot, app)
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen), "the summary")
        await pilot.press("c")
        status = screen.query_one("#status", Static)
        await until(pilot, lambda: app.screen is screen
                    and marker in str(status.render()), "the end's line")
        text = str(status.render())
        assert text == expected, text
        assert cell_len(text) <= status.content_region.width  # (whole, not cut)


def test_every_turn_line_by_touch_has_words_for_a_tap_and_a_phone_s_width() -> None:
    """"▶ Nothing matches: draw (d)" on a phone, which has no d (the draw pile is
    tapped); each touch line has a form that fits a phone held upright (41 cells)."""
    from tui.games.getout.text import SHORT_STATUS, TOUCH_STATUS

    assert "tap the draw pile" in TOUCH_STATUS["▶ Your turn: nothing matches — draw a card (d)."]
    for line in TOUCH_STATUS.values():
        assert "(Enter)" not in line and "(d)" not in line.replace("or draw (d)", ""), line
        assert cell_len(SHORT_STATUS[line]) <= 41, SHORT_STATUS[line]


def test_a_single_round_s_options_say_nothing_of_the_match_limit() -> None:
    """With match off (one round), the lobby's options still said "limit 100", and the
    form asked for it: nobody is put out of one round (a LAN pass)."""
    from tui.widgets.options_form import describe_options

    assert "limit" not in describe_options("getout", {"match": False, "limit": 50})
    assert "limit 50" in describe_options("getout", {"match": True, "limit": 50})


@pytest.mark.parametrize("match", [True, False])
async def test_a_single_round_shows_no_totals_while_it_is_played(match: bool) -> None:
    """With match off, the players' list had a score column of 0s and the scores box a
    total of 0 for everyone all round long: one round has no totals. Its points show once
    it is over, and its summary has no column of totals (a newcomer's pass)."""
    app = make_app(solo={"game_id": "getout", "seats": 2,
                         "options": {"first": 0, "match": match}})
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await our_turn(pilot, app)
        seats = screen.query_one(SeatsPanel)
        assert list(seats.columns) == (["cards", "score", ""] if match else ["cards", ""])
        assert screen.query_one(ScoreTable).display == match
        await bot_2_wins_round_1(pilot, app)
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen), "the summary")
        assert ("total" in screen_text(app)) == match  # (the summary's column of them)
        expected = ["cards", "score", ""] if match else ["cards", "points", ""]
        await until(pilot, lambda: list(seats.columns) == expected, "the round's points")


@pytest.mark.parametrize("clicked", [False, True])
async def test_d_and_enter_on_another_s_turn_say_whose_turn_it_is(clicked: bool) -> None:
    """Both keys are dimmed on another player's turn; pressed, they said nothing once a
    click had given the scores the focus (an SSH box pass)."""
    app = make_app(solo={"game_id": "getout", "seats": 2, "options": {"first": 0}})
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await our_turn(pilot, app)
        assert app.hosting.host is not None
        (table,) = app.hosting.host.tables.values()
        table.seats[1].bot = None  # (Bot 2 moves only as the test says: never)
        stack_getout(table.game, [["geoff 5"], ["kevin 3"]], played=["kevin 8"], turn=1)
        app.hosting.host.refresh(table)
        await until(pilot, lambda: screen.view.get("turn") == 1, "Bot 2's turn")
        if clicked:
            await pilot.click(ScoreTable)
            await until(pilot, lambda: isinstance(screen.focused, ScoreTable), "the scores")
        await pilot.press("d")
        await until(pilot, lambda: "It is Bot 2's turn: you draw on yours." in warning(screen),
                    "whose turn, for d")
        screen.query_one(StatusLine).drop_warning()
        await pilot.press("enter")
        await until(pilot, lambda: "It is Bot 2's turn: you play on yours." in warning(screen),
                    "whose turn, for Enter")

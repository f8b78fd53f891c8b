"""Pilot tests of the GOT FIVE! dialog as a player types in it: two digits and Tab,
Esc and coming back, the hint's ★ numbers filled in, ↑/↓ over what the hint greys."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App
from textual.widgets import Input

from engine.gotfive import colour_of, numbers_of_colour
from tui.games.gotfive.dialogs import AnnounceScreen

from .test_tui import until
from .test_tui_gotfive import late_game, my_turn, solo_app
from .tui_support import type_ahead


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Keep settings out of the real home directory; keep mDNS on loopback."""
    monkeypatch.setenv("HIDDENHAND_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("HIDDENHAND_MDNS_INTERFACES", "127.0.0.1")
    return tmp_path / "config"


class Dialog(App[None]):
    CSS_PATH = str(Path(__file__).parent.parent / "tui" / "app.tcss")  # the app's

    def __init__(self, dialog: AnnounceScreen) -> None:
        super().__init__()
        self.dialog = dialog

    def on_mount(self) -> None:
        self.push_screen(self.dialog)


async def test_typing_two_digits_then_tab_fills_the_next_slot_not_the_one_after() -> None:
    """Two digits move on by themselves; a Tab straight after does not move on again:
    "24 Tab 30 Tab 41" fills slots 1, 2 and 3. A Tab after one digit, or after the player
    moved to a slot, moves on as always; the note says how it goes."""
    app = Dialog(AnnounceScreen([3, 4, 0, 1, 2], [None] * 5))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        dialog = app.dialog
        await pilot.press("2", "4", "tab", "3", "0", "tab", "4", "1")
        assert dialog.texts() == ["24", "30", "41", "", ""]
        assert app.focused is dialog.query_one("#gf-n3")
        await pilot.press("tab")  # nothing typed since it moved on: stays
        assert app.focused is dialog.query_one("#gf-n3")
        await pilot.press("tab")  # a second Tab moves on
        assert app.focused is dialog.query_one("#gf-n4")
        await pilot.press("shift+tab", "7", "tab")  # one digit, then Tab: on
        assert app.focused is dialog.query_one("#gf-n4")
        assert dialog.texts() == ["24", "30", "41", "7", ""]
        await pilot.press("shift+tab", "shift+tab", "1", "1")  # 11 (A) in slot 3: on…
        assert app.focused is dialog.query_one("#gf-n3")
        await pilot.click("#gf-n1")  # …but the player went elsewhere: Tab moves on
        await pilot.press("tab")
        assert app.focused is dialog.query_one("#gf-n2")
        assert "the next slot takes the keys by itself (a Tab typed then does not skip" in str(
            dialog.query_one(".gf-note").render())


@pytest.mark.parametrize("keys", ["24\t30\t41", "243041"])
async def test_numbers_typed_faster_than_the_app_still_land_one_a_slot(keys: str) -> None:
    """A fast typist (or tmux) sends "24 Tab 30 Tab 41" or "24 30 41" before the app
    handled the first key: each number still lands in its own slot (the keys queued
    behind two digits went on into the slot they had just filled, and a Tab came too
    late)."""
    app = Dialog(AnnounceScreen([3, 4, 0, 1, 2], [None] * 5))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await type_ahead(pilot, *["tab" if key == "\t" else key for key in keys])
        await pilot.pause()
        assert app.dialog.texts() == ["24", "30", "41", "", ""]
        assert app.focused is app.dialog.query_one("#gf-n3")


async def test_escape_keeps_what_was_typed_for_the_next_time() -> None:
    """Esc closes the dialog without sending, and opening it again shows what was
    typed (the Close button the same); what was typed goes before the circled cells."""
    app = solo_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await my_turn(pilot)
        colours = [t["colour"] for t in screen.view["racks"][0]]
        first = next(n for n in numbers_of_colour(colours[0]) if n >= 10)
        await pilot.press("g")
        dialog = await until(pilot, lambda: isinstance(app.screen, AnnounceScreen)
                             and app.screen, "the dialog")
        await pilot.pause()
        await pilot.press(*str(first), "4")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "the table")
        assert screen.view["out"][0] is False  # nothing sent
        await pilot.press("g")
        again = await until(pilot, lambda: isinstance(app.screen, AnnounceScreen)
                            and app.screen is not dialog and app.screen, "the dialog again")
        await pilot.pause()
        assert again.texts() == [str(first), "4", "", "", ""]
        assert "Filled in from what you typed" in str(again.query_one(".gf-note").render())
        await pilot.click("#cancel")
        await until(pilot, lambda: app.screen is screen, "the table")
        await pilot.press("g")
        third = await until(pilot, lambda: isinstance(app.screen, AnnounceScreen)
                            and app.screen not in (dialog, again) and app.screen, "once more")
        await pilot.pause()
        assert third.texts()[:2] == [str(first), "4"]


async def test_the_dialog_fills_in_the_hints_stars_and_its_arrows_skip_what_it_greys() -> None:
    """With hints=board, a ★ number (surely yours) is filled in on opening, and ↑/↓
    pass over the numbers the board greys (no rack that fits holds them)."""
    app = solo_app(4, hints="board")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await late_game(pilot, 3)
        hint = screen.view["hint"]
        certain = {colour_of(n): n for n in hint["certain"]}
        colours = [t["colour"] for t in screen.view["racks"][0]]
        assert certain, hint  # the game went far enough for a ★
        await pilot.press("g")
        dialog = await until(pilot, lambda: isinstance(app.screen, AnnounceScreen)
                             and app.screen, "the dialog")
        await pilot.pause()
        assert dialog.texts() == [str(certain.get(c, "")) for c in colours]
        # A ★ number goes before what was typed there when the dialog last closed.
        starred = next(i for i, c in enumerate(colours) if c in certain)
        dialog.query_one(f"#gf-n{starred}", Input).value = "1"
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "the table")
        await pilot.press("g")
        dialog = await until(pilot, lambda: isinstance(app.screen, AnnounceScreen)
                             and app.screen is not dialog and app.screen, "the dialog again")
        await pilot.pause()
        assert dialog.texts()[starred] == str(certain[colours[starred]])
        assert "★" in str(dialog.query_one(".gf-note").render())
        # ↑ in a slot of a colour where the board greys numbers not crossed off: only
        # the numbers still possible.
        crossed = screen.seen() | {n for n, m in screen.marks.items() if m == "cross"}

        def greyed(colour: int) -> set[int]:
            return set(numbers_of_colour(colour)) - set(hint["possible"][str(colour)]) - crossed

        i, colour = max(enumerate(colours), key=lambda ic: len(greyed(ic[1])))
        assert greyed(colour), "the hint greys a number not crossed off otherwise"
        slot = dialog.query_one(f"#gf-n{i}", Input)
        slot.focus()
        slot.value = ""
        stepped = []
        for _ in range(12):
            await pilot.press("up")
            await pilot.pause()
            if stepped and stepped[-1] == int(slot.value):
                break
            stepped.append(int(slot.value))
        assert stepped == [n for n in hint["possible"][str(colour)] if n not in crossed]


async def test_backspace_in_an_empty_slot_backs_up_into_the_one_before() -> None:
    """Two digits moved on to slot 2; the player saw a typo in slot 1 and pressed
    Backspace, which did nothing in the empty slot: it backs up and deletes there."""
    app = Dialog(AnnounceScreen([3, 4, 0, 1, 2], [None] * 5))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        dialog = app.dialog
        await pilot.press("2", "4")
        assert app.focused is dialog.query_one("#gf-n1")
        await pilot.press("backspace")
        assert app.focused is dialog.query_one("#gf-n0") and dialog.texts()[0] == "2"
        assert colour_of(21) != 3
        await pilot.press("1")  # 21 is not D: stays
        assert dialog.texts()[:2] == ["21", ""] and app.focused is dialog.query_one("#gf-n0")
        await pilot.press("backspace", "backspace", "backspace")  # the first slot: stays
        assert dialog.texts()[0] == "" and app.focused is dialog.query_one("#gf-n0")


@pytest.mark.parametrize("width", [45, 80])
async def test_the_bar_keeps_its_buttons_in_sight_on_a_narrow_terminal(width: int) -> None:
    """At 45 columns the five slots filled the row and the buttons beside them were off
    the edge: there they go under the slots."""
    from textual.widgets import Button

    app = Dialog(AnnounceScreen([3, 4, 0, 1, 2], [None] * 5))
    async with app.run_test(size=(width, 30)) as pilot:
        await pilot.pause()
        screen = app.screen.region
        buttons = list(app.dialog.query(Button))
        assert {str(b.label).strip("▸◂ ") for b in buttons} == {"Announce", "Close"}
        for button in buttons:
            assert screen.contains_region(button.region), (button.label, button.region)
        slot = app.dialog.query_one("#gf-n0").region
        assert all((b.region.y > slot.y) == (width == 45) for b in buttons)


async def test_the_arrows_offer_only_numbers_that_keep_the_rack_ascending() -> None:
    """↑ in slot 2 after a 24 in slot 1 offered E5: a rack ascends, so it offers E25."""
    app = Dialog(AnnounceScreen([3, 4, 0, 1, 2], [None, None, None, None, "43"]))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        dialog = app.dialog
        await pilot.press("2", "4")  # D24: on to slot 2 (E)
        assert app.focused is dialog.query_one("#gf-n1")
        await pilot.press("up")
        assert dialog.texts()[1] == "25"
        await pilot.press("down")  # nothing of E between 24 and 25: stays
        assert dialog.texts()[1] == "25"
        dialog.query_one("#gf-n3").focus()  # slot 4 (B): below the 43 in slot 5
        await pilot.pause()
        await pilot.press("down")
        assert dialog.texts()[3] == "42"


async def test_the_arrows_offer_no_number_the_slots_after_it_could_not_climb_above() -> None:
    """↓ in the first of five empty slots (colours A C B E D) offered A56: the lowest
    of five tiles, with nothing of C, B, E and D left to ascend above it. The slots
    after a slot must still be able to hold higher numbers of their colours."""
    from tui.games.gotfive.slots import slot_range

    app = Dialog(AnnounceScreen([0, 2, 1, 4, 3], [None] * 5))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        dialog = app.dialog
        assert app.focused is dialog.query_one("#gf-n0")
        await pilot.press("down")
        # C48 < B52 < E55 < D59 is the highest climb there is: A46 at most.
        assert dialog.texts()[0] == "46"
    assert slot_range([0, 2, 1, 4, 3], 0, [None] * 5, ()) == (0, 48)
    assert slot_range([0, 2, 1, 4, 3], 4, [None] * 5, ()) == (10, 61)  # A1 C3 B7 E10
    # Numbers that cannot be ours are no step of the climb: without C48, C43.
    assert slot_range([0, 2, 1, 4, 3], 0, [None] * 5, {48}) == (0, 43)


async def test_the_slot_typed_into_is_marked_in_words_and_enter_says_what_it_does() -> None:
    """A fresh-eyed player typed into slot 2 believing it slot 1: the slot the digits go
    to was told only by a tint and an underline. Its label ends "▸" now. And with the
    Close button focused, the footer said "⏎ Announce": it says what Enter does there."""
    from tests.tui_support import screen_text

    app = Dialog(AnnounceScreen([0, 1, 2, 3, 4], [11, None, None, None, None]))
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: "2 B▸" in screen_text(app), "slot 2 marked (1 is filled)")
        assert "1 A 11" in screen_text(app) and "1 A▸" not in screen_text(app)
        await pilot.press("shift+tab")
        await until(pilot, lambda: "1 A▸11" in screen_text(app), "slot 1 marked")
        assert "2 B▸" not in screen_text(app)
        enter = {b.binding.action: b.binding.description
                 for key, b in app.screen.active_bindings.items() if key == "enter"}
        assert enter == {"enter": "Announce"}, enter
        app.screen.query_one("#cancel").focus()
        await until(pilot, lambda: "▸" not in screen_text(app).split("Announce")[0],
                    "no slot marked with a button focused")
        enter = {b.binding.action: b.binding.description
                 for key, b in app.screen.active_bindings.items() if key == "enter"}
        assert enter == {"close_kept": "Close (kept)"}, enter
        await pilot.press("enter")
        await until(pilot, lambda: not isinstance(app.screen, AnnounceScreen), "closed")


async def test_backspaces_typed_fast_stay_in_their_slot() -> None:
    """⌫⌫10 typed fast (a quick typist, a laggy SSH line) in a slot holding 05: the
    digits were handled first, moved on, and the two Backspaces, a binding that went up
    to the app and back, emptied the next slot's 18 (a fresh-eyed pass of the box)."""
    from .tui_support import type_ahead as fast

    app = Dialog(AnnounceScreen([4, 2, 0, 1, 3], ["05", "18", None, None, None]))
    async with app.run_test(size=(100, 30)) as pilot:
        dialog = app.screen
        assert isinstance(dialog, AnnounceScreen)
        dialog.query_one("#gf-n0", Input).focus()
        await pilot.pause()
        await fast(pilot, "backspace", "backspace", "1", "0")
        await until(pilot, lambda: dialog.texts()[0] == "10", "10 in slot 1")
        for _ in range(3):
            await pilot.pause()
        assert dialog.texts()[:2] == ["10", "18"], dialog.texts()


async def test_a_mistake_said_under_the_slots_leaves_them_where_they_are() -> None:
    """On a phone the note under the slots took four rows and a mistake one: the bar,
    resting on the screen's foot, moved its slots three rows down between two taps, and
    the tap meant for slot 4 landed elsewhere (a pass on a phone)."""
    app = Dialog(AnnounceScreen([3, 4, 0, 1, 2], [None] * 5))
    async with app.run_test(size=(46, 30)) as pilot:
        dialog = app.dialog
        note = dialog.query_one(".gf-note")
        await until(pilot, lambda: note.size.height >= 3, "the note, over several rows")
        where = dialog.query_one("#gf-n3").region
        await pilot.press("4", "1")  # 41 is colour A; slot 1 is D
        error = dialog.query_one("#gf-announce-error")
        await until(pilot, lambda: "Position 1" in str(error.render()), "the mistake")
        await pilot.pause()
        assert dialog.query_one("#gf-n3").region == where
        await pilot.press("backspace", "backspace")
        await until(pilot, lambda: note.display, "the note again")
        await pilot.pause()
        assert dialog.query_one("#gf-n3").region == where

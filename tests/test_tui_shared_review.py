"""Pilot tests of the review a table follows together (``net.shared_review``), over TCP
on loopback: the app at a table another player created, and the app as the creator.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Button, OptionList, Static

from net.client import Client
from net.host import Host
from net.table import Table
from tui.screens.shared_review import SharedReviewScreen
from tui.screens.summary import SummaryScreen
from tui.screens.table import TableScreen

from .test_tui import ann_ready_bob_starts, join_by_address
from .tui_support import Notices, make_app, screen_text, until

SIZE = (100, 30)


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Keep settings and kept games out of the real home; mDNS on loopback."""
    monkeypatch.setenv("HIDDENHAND_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("HIDDENHAND_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("HIDDENHAND_MDNS_INTERFACES", "127.0.0.1")
    return tmp_path / "config"


@pytest.fixture
async def bobs_table() -> Any:
    """A host on loopback, and Bob (a plain client) at a Got Five! table of two on it."""
    host = Host("test host", bot_delay=0.01)
    await host.start("127.0.0.1", 0)
    bob = await Client.connect("127.0.0.1", host.port, name="Bob")
    joined = await bob.create_table("Bob's table", "gotfive", 2, {"first": 0})
    yield host, bob, joined
    await bob.close()
    await host.close()


async def play_to_the_end(host: Host, table: Table) -> None:
    """A short Got Five! game, its moves made at the host (as its players could), each
    once the app shows the one before: a clue each, a mark each on their own boards,
    then Bob (seat 0) calls GOT FIVE! wrongly and is out, which ends the game."""
    game = table.game
    assert game is not None

    def clue(seat: int) -> None:
        host.act(table, seat, game.legal_actions(seat)[0])  # a reveal
        host.act(table, seat, game.legal_actions(seat)[0])  # its clue

    def unseen(seat: int) -> int:
        """A number ``seat`` sees nowhere (auto-cross keeps those crossed)."""
        shown = game.view(seat)
        seen = {t.get("n") for rack in shown["racks"] for t in rack}
        seen |= {t.get("n") for t in shown["public"]}
        return max(n for n in range(1, 61) if n not in seen)

    clue(0)
    host.act(table, 0, {"type": "mark", "n": unseen(0), "mark": "cross"})
    host.act(table, 1, {"type": "mark", "n": unseen(1), "mark": "circle"})
    clue(1)
    host.act(table, 0, {"type": "announce", "numbers": [1, 2, 3, 4, 5]})
    assert game.over


def board(screen: SharedReviewScreen) -> str:
    return str(screen.query_one("#review-board", Static).render())


def where(screen: Any) -> str:
    """The review's line saying where it is ("" until the screen is drawn)."""
    found = screen.query("#review-where").results(Static)
    return next((str(w.content) for w in found), "")


async def at_the_summary(pilot: Any, host: Host, bob: Client) -> tuple[Table, SummaryScreen]:
    """Ann (the app) sits at Bob's Got Five! table; the game is played to its end."""
    app = pilot.app
    await ann_ready_bob_starts(pilot, host, bob)
    (table,) = host.tables.values()
    await play_to_the_end(host, table)
    summary = await until(pilot, lambda: isinstance(app.screen, SummaryScreen)
                          and table.phase == "over" and app.screen, "the game's summary")
    return table, summary


async def test_a_guest_follows_the_creators_review_steps_alone_and_follows_again(
        bobs_table: Any) -> None:
    host, bob, _ = bobs_table
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        table, summary = await at_the_summary(pilot, host, bob)
        assert not summary.check_action("review", ())  # nothing to join yet
        await bob.review("open")
        review: SharedReviewScreen = await until(
            pilot, lambda: isinstance(app.screen, SharedReviewScreen)
            and "move 0 of" in where(app.screen) and app.screen, "the review, opened by Bob")
        assert review.seat == 1 and review.following and not review.leads
        assert "following Bob" in where(review) and "as you (2 Ann) saw it" in where(review)
        # As dealt, Ann's own rack is hidden from her (the game's end laid it open,
        # but a review shows a seat what it knew then).
        assert review.view is not None and table.review is not None
        assert all("n" not in tile for tile in review.view["racks"][1])
        assert all("n" in tile for tile in review.view["racks"][0])
        lines = [str(review.query_one(OptionList).get_option_at_index(i).prompt)
                 for i in range(review.query_one(OptionList).option_count)]
        # Her own mark is listed, but not numbered as a move: marks are no moves.
        assert [line.split()[0] for line in lines if "Ann marked" in line] == ["·"]
        assert not any("Bob marked" in line for line in lines)  # his board: his own
        # Entry 5 of the record is its third move (Bob's mark and Ann's came before it),
        # of five (the marks not counted: Bob's would tell how often he marked). Each
        # counts the entries they knew of: Bob's mark is none of Ann's.
        shared = table.review
        await bob.review("go", at=shared.seen_at(5, 1))
        assert shared.seen_at(5, 0) == 4
        await until(pilot, lambda: review.at == 4 and "move 3 of 5" in where(review),
                    "Bob's step, followed")
        await pilot.press("home")  # Ann steps alone
        await until(pilot, lambda: review.at == 0 and not review.following
                    and review.view_at == 0, "Ann on her own")
        assert "on your own (Bob is at move 3; f follows)" in where(review)
        # (The footer had no f: only a notice named it, as the review opened.)
        await until(pilot, lambda: "f Follow" in screen_text(app).splitlines()[-1],
                    "f in the footer")
        await bob.review("go", at=shared.seen_at(6, 1))
        await pilot.press("f")
        await until(pilot, lambda: review.following and review.at == shared.seen_at(6, 0),
                    "following again")
        moves = review.query_one(OptionList)
        assert moves.highlighted is not None
        await bob.review("close")
        await until(pilot, lambda: app.screen is summary, "back at the summary")


async def test_the_creator_leads_the_review_and_closing_it_ends_it_for_everyone(
        bobs_table: Any) -> None:
    host, bob, _ = bobs_table
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        table, summary = await at_the_summary(pilot, host, bob)
        # The table is Ann's now, Bob a guest (a creator back from a step out has the
        # table back: here it was handed on, as when its creator leaves a lobby).
        table.creator = 1
        host.refresh(table)
        tables = [s for s in app.screen_stack if isinstance(s, TableScreen)]
        await until(pilot, lambda: tables[0].others_here() and any(
            str(b.label) == "Review (v)" for b in summary.query("#review").results(Button)),
            "Ann's offer to review, Bob back")
        await pilot.press("v")
        review: SharedReviewScreen = await until(
            pilot, lambda: isinstance(app.screen, SharedReviewScreen) and app.screen,
            "Ann's review")
        opened = await bob.wait_for(lambda m: m.get("type") == "review")
        assert opened["seat"] == 0 and opened["leader"] == 1 and opened["at"] == 0
        await until(pilot, lambda: review.leads and "you lead" in where(review),
                    "Ann leading")
        await pilot.press("right", "right")
        step = await bob.wait_for(lambda m: m.get("type") == "review_at" and m["at"] == 2)
        assert step["following"] and all("n" not in t for t in step["view"]["racks"][0])
        await pilot.press("escape")
        await bob.wait_for(lambda m: m.get("type") == "review_closed")
        await until(pilot, lambda: app.screen is summary and table.review is None,
                    "the review closed for everyone")


async def test_keys_faster_than_the_host_answers_send_one_step_at_a_time() -> None:
    """A key held down: one step on its way to the host at a time, then the last key's."""
    from textual.app import App

    sent: list[tuple[Any, ...]] = []
    names = ["Ann", "Bob"]
    moves = [{"n": k, "seat": k % 2, "time": float(k), "action": {"type": "reveal"},
              "events": [{"type": "revealed", "seat": k % 2, "tile": {"n": k, "colour": 0}}]}
             for k in range(1, 9)]

    def frame(kind: str, at: int, following: bool = False) -> dict[str, Any]:
        return {"type": kind, "game": "gotfive", "names": names, "seat": 1, "length": 8,
                "at": at, "time": float(at), "following": following, "leader": 0,
                "leader_at": 0, "view": {"phase": "play", "racks": [[], []], "clues": []}}

    screen = SharedReviewScreen(frame("review", 0, True), moves,
                                lambda *args, **kw: sent.append((*args, kw)))
    async with App().run_test() as pilot:
        await pilot.app.push_screen(screen)
        await pilot.press("right", "right", "right", "right")
        assert sent == [("review", "go", {"at": 1})] and screen.at == 4
        screen.arrived(frame("review_at", 0, True))  # the leader's, crossing ours: no jump
        assert screen.at == 4 and screen.view_at == 0
        screen.arrived(frame("review_at", 1))  # ours answered: the last key's is asked
        assert sent[-1] == ("review", "go", {"at": 4}) and len(sent) == 2
        screen.arrived(frame("review_at", 4))
        assert (screen.at, screen.view_at, screen.following) == (4, 4, False)
        assert "on your own" in where(screen)


async def test_a_dropped_guest_comes_back_into_the_review_and_a_host_gone_ends_it(
        bobs_table: Any) -> None:
    host, bob, _ = bobs_table
    app = make_app("Ann")
    notices = Notices()
    async with app.run_test(size=SIZE, message_hook=notices) as pilot:
        await at_the_summary(pilot, host, bob)
        await bob.review("open")
        first = await until(pilot, lambda: isinstance(app.screen, SharedReviewScreen)
                            and app.screen, "the review")
        await bob.review("go", at=2)  # (his clue: move 3 is his mark, Ann knows none)
        await until(pilot, lambda: first.view_at == 2, "Bob's step")
        (table_screen,) = [s for s in app.screen_stack if isinstance(s, TableScreen)]
        client = table_screen.session.client
        assert client is not None
        client.abort()  # the cable is pulled: the review goes, and comes back
        await until(pilot, lambda: table_screen.session.client is not client
                    and isinstance(app.screen, SharedReviewScreen)
                    and app.screen is not first and app.screen.view_at == 2
                    and app.screen.following, "back in the review, at Bob's move")
        # Bob leaves: the table is Ann's, and so is the lead of its review.
        await bob.leave()
        back = app.screen
        await until(pilot, lambda: table_screen.is_creator and back.leads
                    and "you lead" in where(back), "Ann leading")
        await until(pilot, lambda: any("You lead the review now" in m
                                       for m in notices.messages()), "Ann told she leads")
        await host.close()  # the host is gone: so is the review
        await until(pilot, lambda: not any(isinstance(s, SharedReviewScreen)
                                           for s in app.screen_stack) and table_screen.gone,
                    "the review ended")
        # The summary under the review goes too: its answers need the host.
        await until(pilot, lambda: app.screen is table_screen, "the table")
        assert not any(isinstance(s, SummaryScreen) for s in app.screen_stack)
        # Nor do the footer and the status line offer to take a table that is gone
        # back to its lobby.
        assert table_screen.is_creator and not table_screen.check_action("to_lobby", ())
        await until(pilot, lambda: "Esc: leave" in (status := str(
            table_screen.query_one("#gf-status", Static).render())) and "rematch" not in status,
            "the status line, no rematch")


async def test_a_player_back_at_a_finished_game_reads_its_end(bobs_table: Any) -> None:
    """A game over before we came back to its table: its summary opens, as the others
    read it when the game ended (a fresh player found only the table, no result)."""
    from tui.screens.menu import MenuScreen

    host, bob, _ = bobs_table
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        _, summary = await at_the_summary(pilot, host, bob)
        title = str(summary.title_text)
        await pilot.press("c", "escape")  # look at the table, then leave it
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        await join_by_address(pilot, host.port)
        again = await until(pilot, lambda: isinstance(app.screen, SummaryScreen)
                            and app.screen is not summary and app.screen,
                            "the game's end, back at the table")
        assert str(again.title_text) == title


async def test_back_at_a_table_whose_review_is_open_the_review_comes_first(bobs_table: Any) -> None:
    """Back at the table, the review the table follows and the game's end both come:
    the review is on top (it took the keys from under the summary before), and the
    summary is there once we leave it; left with Esc, it is not joined again unasked."""
    host, bob, _ = bobs_table
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        await at_the_summary(pilot, host, bob)
        await bob.review("open")
        await until(pilot, lambda: isinstance(app.screen, SharedReviewScreen)
                    and "move 0 of" in where(app.screen), "the review")
        # (What the review's mount left to run is run before the app closes: its
        # header's title, run after the app had taken the header apart, failed once.)
        await pilot.pause()
    # Ann's app is gone (as a crash or ^q leaves it); she starts it again.
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        await join_by_address(pilot, host.port)
        review = await until(
            pilot, lambda: isinstance(app.screen, SharedReviewScreen)
            and "following Bob" in where(app.screen) and app.screen, "the review")
        await until(pilot, lambda: next(s for s in app.screen_stack
                                        if isinstance(s, TableScreen))._end_shown,
                    "the game's end, waiting under the review")
        assert app.screen is review
        await pilot.press("escape")  # leave the review: the summary is there
        summary = await until(pilot, lambda: isinstance(app.screen, SummaryScreen)
                              and app.screen, "the summary")
        assert summary.check_action("review", ())
    # Left with Esc, and the app gone again: a new one back at the table finds the
    # summary, not the review (the host remembers who left it).
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        await join_by_address(pilot, host.port)
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen), "the summary")
        (back,) = [s for s in app.screen_stack if isinstance(s, TableScreen)]
        assert back.table.get("review") and back.session.client is not None
        await back.session.client.ping()  # (a review asked for would be here by now)
        await pilot.pause()
        assert not any(isinstance(s, SharedReviewScreen) for s in app.screen_stack)


async def test_the_host_closing_puts_the_summary_away_and_says_so_at_once(
        bobs_table: Any) -> None:
    """Bob's host closed while Ann read the game's summary: nothing told her until she
    closed it by hand (and its answers need the host)."""
    from tui.screens.base import Banner

    host, bob, _ = bobs_table
    app = make_app("Ann")
    async with app.run_test(size=SIZE) as pilot:
        _, summary = await at_the_summary(pilot, host, bob)
        await host.close()
        screen = await until(pilot, lambda: isinstance(app.screen, TableScreen)
                             and app.screen, "the table, the summary put away")
        banner = screen.query_one(Banner)
        await until(pilot, lambda: banner.has_class("shown")
                    and "press Esc" in str(banner.render()), "the banner")
        assert summary not in app.screen_stack

"""The main menu: solo play, hosting, joining, the rules, settings, quit.

On an SSH box (``hiddenhand ssh-serve``) hosting and joining are the box's: join a table
there, or open one.
"""

from __future__ import annotations

import asyncio
import datetime
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from textual import events, getters, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.geometry import Size
from textual.screen import Screen
from textual.widgets import Button, Static

from tui.screens.styled import StyledOnce
from tui.widgets.buttons import show_label
from tui.widgets.footer import TableFooter
from tui.widgets.titlebar import TitleBar

if TYPE_CHECKING:
    from net.journal_list import JournalInfo
    from tui.app import HiddenHandApp

TITLE_ART = r"""
 _     _     _     _              _                     _
| |__ (_) __| | __| | ___ _ __   | |__   __ _ _ __   __| |
| '_ \| |/ _` |/ _` |/ _ \ '_ \  | '_ \ / _` | '_ \ / _` |
| | | | | (_| | (_| |  __/ | | | | | | | (_| | | | | (_| |
|_| |_|_|\__,_|\__,_|\___|_| |_| |_| |_|\__,_|_| |_|\__,_|
"""
#: The art's width and a column each side: narrower, it is not shown.
TITLE_WIDTH = max(len(line) for line in TITLE_ART.splitlines()) + 2
TAGLINE = "GET OUT! · Get It! · Got Five! — at a LAN party, over SSH, or solo"
#: Rows the menu takes besides its art and its entries: the title bar, the tagline and
#: the row under it, the footer.
MENU_ROWS = 4


#: The box menu's join entry while no seat of ours is kept there (and the LAN menu's).
JOIN_ON_BOX = "Join a table on this box (j)"
JOIN_ON_LAN = "Join a game (j)"
#: A box's menu while a seat of ours is kept (Join goes back to it): every table there.
OTHER_TABLES = "Other tables on this box (t)"
OTHER_GAMES = "Join another game (t)"
#: Seconds the menu's word that a seat is kept stays up.
KEPT_TOLD_FOR = 8.0


class MenuScreen(StyledOnce, Screen[None]):
    """Where the app starts. Every entry has a key; arrows and the mouse work too.

    Under a solo table opened from the command line the menu is built only when the
    table is left (``tui.screens.menu_to_come``).
    """

    if TYPE_CHECKING:  # typed only: a screen never imports the app (no import circle)
        app = getters.app(HiddenHandApp)

    # The first entry a player sees; Textual's default would focus "resume" first, hidden
    # a moment later, and restyle both buttons before the first frame.
    AUTO_FOCUS = "#solo"

    BINDINGS = [
        Binding("u", "resume", "Resume"),
        Binding("s", "solo", "Solo"),
        Binding("h", "host", "Host"),
        Binding("j", "join", "Join"),
        Binding("t", "tables", "Other games"),  # (while a seat of ours is kept)
        Binding("p", "past", "Past games"),
        Binding("r", "rules", "Rules"),
        Binding("question_mark", "rules", "Rules", show=False),
        Binding("o", "settings", "Settings"),
        Binding("q", "app.quit", "Quit"),
        Binding("down", "step(1)", "Next", show=False),
        Binding("up", "step(-1)", "Previous", show=False),
    ]

    def compose(self) -> ComposeResult:
        yield TitleBar()
        self.set_class(self.app.size.width < TITLE_WIDTH, "-narrow")
        with Vertical(id="menu"):
            yield Static(TITLE_ART, id="title-art")
            yield Static(
                TAGLINE, id="tagline"
            )
            with Center(), Vertical(id="menu-buttons"):
                yield Button("Resume the last game (u)", id="resume", variant="warning",
                             compact=True)
                yield Button(
                    "Play solo against bots (s)", id="solo", variant="primary", compact=True
                )
                if self.app.box is not None:  # an SSH box (ssh-serve)
                    yield Button(JOIN_ON_BOX, id="join", compact=True)
                    # (Shown while a seat of ours is kept: Join takes us back to it.)
                    yield Button(OTHER_TABLES, id="tables", compact=True)
                    yield Button("Open a table (h)", id="host", compact=True)
                else:
                    yield Button("Host a LAN game (h)", id="host", compact=True)
                    yield Button(JOIN_ON_LAN, id="join", compact=True)
                    # (Join went back to a seat kept, and no other game could be found.)
                    yield Button(OTHER_GAMES, id="tables", compact=True)
                yield Button("Past games (p)", id="past", compact=True)
                yield Button("Rules (r)", id="rules", compact=True)
                yield Button("Settings (o)", id="settings", compact=True)
                yield Button("Quit (q)", id="quit", compact=True)
        yield TableFooter()

    def on_mount(self) -> None:
        """Focus the first entry so Enter plays solo at once (or resumes a lost game)."""
        for button in self.query("#resume, #tables"):
            button.display = False
        self.query_one("#solo", Button).focus()
        self.call_after_refresh(self.app.first_screen_shown)

    def on_resize(self, event: events.Resize) -> None:
        """Narrower than the title art (a phone's browser), the art would wrap: it goes."""
        self.set_class(event.size.width < TITLE_WIDTH, "-narrow")
        self._fit(event.size)

    def _fit(self, size: Size) -> None:
        """On a short terminal the entries close up, and if that is not enough the art
        goes: every entry stays in sight (at 24 rows with "Resume" shown, "Quit (q)"
        was pushed off the bottom; at 20, as on a phone on its side, Rules, Settings and
        Quit were)."""
        entries = sum(1 for button in self.query("#menu-buttons Button") if button.display)
        # (The art's rows and the blank one under it; none where it is -narrow.)
        art = TITLE_ART.count("\n") + 1 if size.width >= TITLE_WIDTH else 0
        # (The tagline takes a row more for each time it wraps.)
        rows = MENU_ROWS + (len(TAGLINE) - 1) // max(size.width, 1)
        spaced, closed = rows + 2 * entries - 1, rows + entries
        low = size.height < closed + art  # (the art goes, the entries spaced if they fit)
        self.set_class(low, "-low")
        self.set_class(size.height < (spaced if low else spaced + art), "-short")

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        """Opened, or back in the menu: a game may have ended, or been lost.

        Looking for a lost game reads every journal: done after the frame is painted
        (a screen is resumed as it is first pushed, too), so that opening the app stays
        quick however many journals there are."""
        self.seats_looked = False
        self.call_after_refresh(self.offer_resume)

    def lost_game(self, damaged: list[str] | None = None) -> JournalInfo | None:
        """The newest game this app's host was running when the app stopped unasked
        (none on an SSH box: the box's host keeps the games); why each journal met on
        the way cannot be read goes into ``damaged``."""
        return None if self.app.box is not None else self.app.hosting.resumable(damaged)

    #: The damaged journals the menu has told of (once each while the app runs).
    _damaged_told: frozenset[str] = frozenset()

    def offer_resume(self) -> None:
        """Show "resume" only when this app's host stopped in the middle of a game; and
        look again for a seat of ours kept at a table (see :meth:`look_for_seats`)."""
        self._look_for_lost_game()
        self.look_for_seats()

    #: The join entry reads "Back to your seat": a seat of ours is kept (on the box, or
    #: at the LAN host ``kept_address``).
    seat_kept = False
    kept_address: tuple[str, int] | None = None
    #: The menu has looked for a kept seat since it was last shown (the entries say
    #: what it found).
    seats_looked = False
    #: The tables whose kept seat the menu has told of (once each), and when it last
    #: did (``time.monotonic``): its toast lasts :data:`KEPT_TOLD_FOR` seconds.
    _told: frozenset[str] = frozenset()
    _told_at = float("-inf")

    @work(group="kept", exclusive=True, exit_on_error=False)
    async def look_for_seats(self) -> None:
        """A player back after a dropped login, a crash or a quit (or the host's
        restart) came to the plain menu and learned of their seat only in Join: the
        menu says where it is kept, and Join's entry says it takes them back; until the
        table is gone (its offer stayed, and led to "No table is open on this box")."""
        from tui.kept_seats import find_kept, lan_hosts

        box = self.app.box
        addresses = [box] if isinstance(box, tuple) else lan_hosts()
        gone: list[str] = []
        found = await find_kept(addresses, self.app.settings.name, gone) if addresses \
            else None
        try:
            self._show_kept(found)
            if gone and self.is_attached:  # (back to the plain menu, told nothing)
                where = "on this box" if box is not None else f"on {gone[0]}"
                self.notify(f"A table you had a seat at {where} has closed: nobody was at "
                            "it for a while" + (" (a game played there is in Past games, p)."
                                                if box is not None else ", or its host "
                                                "started afresh."), markup=False,
                            timeout=KEPT_TOLD_FOR)
        finally:
            self.seats_looked = True

    def _show_kept(self, found: tuple[tuple[str, int], list[str]] | None) -> None:
        """What :meth:`look_for_seats` found, on the menu's entries (``None``: no seat
        of ours is kept any more)."""
        box = self.app.box
        if not self.is_attached or (found is None and not self.seat_kept):
            return
        join, solo = self.query_one("#join", Button), self.query_one("#solo", Button)
        if found is None:
            self.seat_kept, self.kept_address = False, None
            for tables in self.query("#tables"):
                tables.display = False
            show_label(join, JOIN_ON_BOX if box is not None else JOIN_ON_LAN)
            join.variant, solo.variant = "default", "primary"
            self._fit(self.size)
            self.refresh_bindings()
            return
        address, kept = found
        self.kept_address = None if box is not None else address
        if not self.seat_kept:
            self.seat_kept = True
            for tables in self.query("#tables"):
                tables.display = True
            self._fit(self.size)
            show_label(join, "Back to your seat (j)")
            # The one entry marked as the way on (Play solo kept its bar beside the
            # focus on this one: two lit at once, on a phone).
            join.variant, solo.variant = "primary", "default"
            self.refresh_bindings()  # (the footer's j says so too)
            if self.focused is solo:
                join.focus()  # (Enter on the first entry started a solo game instead)
        if kept[0] not in self._told:
            self._told, self._told_at = self._told | {kept[0]}, time.monotonic()
            self.notify(f"Your seat at {kept[0]} is kept: Back to your seat (j) takes you "
                        "there.", timeout=KEPT_TOLD_FOR, markup=False)

    def key_description(self, binding: Binding) -> str | None:
        """The footer's j says where it goes (it said "Join" beside "Back to your seat")."""
        return "Back to seat" if binding.action == "join" and self.seat_kept else None

    @work(exclusive=True, group="lost", exit_on_error=False)
    async def _look_for_lost_game(self) -> None:
        # Read in a thread: many journals (crashes, kills) froze the menu while read.
        damaged: list[str] = []
        info = await asyncio.to_thread(self.lost_game, damaged)
        for why in damaged:
            if why not in self._damaged_told:
                # (The game was simply gone from the menu, without a word.)
                self._damaged_told |= {why}
                self.notify(f"A kept game cannot be resumed: {why}. Move the file out of "
                            "its folder to stop this note.", severity="warning",
                            timeout=15, markup=False)
        button = self.query_one("#resume", Button)
        solo = self.query_one("#solo", Button)
        # The first entry takes the focus, unless the player has moved it already.
        untouched = self.focused in (None, solo, button)
        button.display = info is not None
        self._fit(self.size)
        if info is not None:
            button.tooltip = info.describe()
            show_label(button, resume_label(info, self.app.settings.name))
            if untouched:
                button.focus()
        elif untouched:
            solo.focus()
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """"Resume" only when there is a game to resume; "Other tables" only while Join
        goes back to a seat of ours."""
        if action == "tables":
            return self.seat_kept
        if action == "resume":
            found = self.query("#resume")  # (the footer asks as soon as it is mounted)
            return bool(found) and bool(found.first().display)
        return True

    def action_step(self, step: int) -> None:
        """↓/↑: the next or previous entry shown (round the list)."""
        entries = [b for b in self.query("#menu-buttons Button") if b.display]
        if not entries:
            return
        here = entries.index(self.focused) if self.focused in entries else -step
        entries[(here + step) % len(entries)].focus()

    @work(exclusive=True, group="resume", exit_on_error=False)
    async def action_resume(self) -> None:
        """Bring back the game this app was hosting when it stopped (a crash, a kill)."""
        # The journal, the session and the table's screens are loaded for a game, not
        # before the menu's first frame (and so are the screens each entry below opens).
        from net.journal import JournalError
        from tui.games.screens import screen_for
        from tui.session import ConnectionLost, ServerError

        info = await asyncio.to_thread(self.lost_game)
        if info is None:
            return
        try:
            session = await self.app.hosting.resume(info.path)
        except (JournalError, OSError, ServerError, ConnectionLost) as exc:
            self.notify(f"That game cannot be resumed: {exc}", severity="error",
                        timeout=10, markup=False)
            self.offer_resume()
            return
        self.app.attach(session)
        self.app.push_screen(screen_for(session))
        self.notify("The game is back where it stopped.", markup=False)

    @on(Button.Pressed)
    async def pressed(self, event: Button.Pressed) -> None:
        """Run the entry's action."""
        action = event.button.id or ""
        await self.run_action("app.quit" if action == "quit" else action)

    def action_solo(self) -> None:
        """Pick a game and play it against bots, with no network."""
        # (Loaded when first opened, not before the menu's first frame.)
        from tui.screens.setup import SetupScreen

        self.app.push_screen(SetupScreen(mode="solo"))

    def action_host(self) -> None:
        """Host a game others on the LAN can join (on an SSH box: open a table there)."""
        # (Loaded when first opened, not before the menu's first frame.)
        from tui.screens.setup import SetupScreen

        box = self.app.box
        self.named_first(lambda: self.app.push_screen(
            SetupScreen(mode="host" if box is None else "box")))

    def action_join(self) -> None:
        """Find a game on the LAN or type its address (on an SSH box: its tables);
        back to the seat kept, when there is one. The toast that said so goes first: it
        stayed up over the table, still saying to press j."""
        # (Loaded when first opened, not before the menu's first frame.)
        from tui.screens.join import JoinScreen

        if self.seat_kept and time.monotonic() < self._told_at + KEPT_TOLD_FOR:
            self.app.clear_notifications()
        self.named_first(lambda: self.app.push_screen(
            JoinScreen(box=self.app.box, back_to_seat=self.seat_kept,
                       at=self.kept_address if self.seat_kept else None)))

    def action_tables(self) -> None:
        """Every table on the box, ours marked, or the LAN's games (Join went straight
        back to our seat, and a player with a seat kept found no way to another game)."""
        from tui.screens.join import JoinScreen

        self.named_first(lambda: self.app.push_screen(JoinScreen(box=self.app.box)))

    def named_first(self, then: Callable[[], object]) -> None:
        """``then``, once the player has a name of their own: the first time they meet
        others on the LAN, they are asked (until then it is their login's: two laptops
        sat down as "root" and "root")."""
        settings = self.app.settings
        if settings.named or self.app.box is not None:
            then()
            return
        from tui.screens.name_prompt import NameScreen

        def chosen(name: str | None) -> None:
            if name is not None:
                self.app.keep_settings("your name", name=name, named=True)
                then()

        self.app.push_screen(NameScreen(settings.name), chosen)

    def action_past(self) -> None:
        """The games kept here: review one, see how you have done."""
        # (Loaded when first opened, not before the menu's first frame.)
        from pathlib import Path

        from tui.screens.history import HistoryScreen

        games = self.app.games
        self.app.push_screen(HistoryScreen(Path(games) if games else None))

    def action_rules(self) -> None:
        """Read each game's rules."""
        # (Loaded when first opened, not before the menu's first frame.)
        from tui.screens.rules import RulesScreen

        self.app.push_screen(RulesScreen())

    def action_settings(self) -> None:
        """Player name and network settings."""
        # (Loaded when first opened, not before the menu's first frame.)
        from tui.screens.settings import SettingsScreen

        self.app.push_screen(SettingsScreen())


def moment(stamp: float, now: float | None = None) -> str:
    """When a game was last played, as short as is still clear: ``12:32`` today,
    ``Thu 12:32`` within the week, else ``3 Dec`` (``3 Dec 2025`` in another year).
    A time alone read as today's for a game left days ago."""
    then = time.localtime(stamp)
    today = time.localtime(now)
    days = (datetime.date(today.tm_year, today.tm_mon, today.tm_mday)
            - datetime.date(then.tm_year, then.tm_mon, then.tm_mday)).days
    if days == 0:
        return time.strftime("%H:%M", then)
    if 0 < days < 7:
        return time.strftime("%a %H:%M", then)
    if then.tm_year == today.tm_year:
        return f"{then.tm_mday} {time.strftime('%b', then)}"
    return f"{then.tm_mday} {time.strftime('%b %Y', then)}"


def resume_label(info: JournalInfo, me: str) -> str:
    """The resume entry in words: whose game, which, from when ("Resume your Got Five!
    from 10:45", or "Resume Bob's Get It! from Thu 19:24" for a game another player name
    hosted from this account, another config home's)."""
    import engine  # after the first frame: the menu's start does not pay for it

    playing = [t for t in info.tables if t.get("phase") == "play"] or info.tables
    games = {str(t.get("game")) for t in playing}
    creators = {t.get("creator") for t in playing}
    whose = "the last"
    if len(creators) == 1:
        (creator,) = creators
        if isinstance(creator, str):
            whose = "your" if creator == me else f"{creator}'s"
    when = moment(info.modified)
    if len(games) == 1:
        (game,) = games
        spec = engine.GAMES.get(game)
        return f"Resume {whose} {spec.name if spec else game} from {when} (u)"
    return f"Resume {whose} game, from {when} (u)"


class BoxMenuScreen(MenuScreen):
    """The menu on a box (an SSH login, a web visit): ``h`` opens a table there, as its
    button says (the footer said Host; nobody hosts a LAN game on a box)."""

    BINDINGS = [Binding("h", "host", "Open a table"), Binding("t", "tables", "Other tables")]


def menu_screen(box: object) -> MenuScreen:
    """The menu for an app on a box (``box``: the box's host address) or not."""
    return BoxMenuScreen() if box is not None else MenuScreen()

"""The rules of every game, readable in the app (one tab a game)."""

from __future__ import annotations

from importlib import resources

from rich.markdown import Markdown
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static, TabbedContent, TabPane

import engine
from tui.screens.styled import StyledOnce
from tui.widgets.footer import TableFooter
from tui.widgets.titlebar import TitleBar

GAME_ORDER = ("getout", "getit", "gotfive")


def rules_text(game_id: str) -> str:
    """The player-facing rules of a game, shipped with the package."""
    return resources.files("tui").joinpath("rules", f"{game_id}.md").read_text(encoding="utf-8")


#: The heading of a game's keys at a table, in its rules.
KEYS_HEADING = "## At the table"


class RulesScreen(StyledOnce, Screen[None]):
    """Tabs with each game's rules; Escape goes back."""

    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        # Over the text's own keys (it has the focus), so that the footer says them:
        # ↑/↓ read on, ←/→ go to another game (PgUp/PgDn, Home/End stay the text's).
        Binding("down", "scroll_text(1)", "Scroll", key_display="↑↓", priority=True),
        Binding("up", "scroll_text(-1)", "Scroll", show=False, priority=True),
        Binding("left", "previous_tab", "Previous game", show=False, priority=True),
        Binding("right", "next_tab", "Other game", key_display="←→", priority=True),
    ]

    def __init__(self, game_id: str | None = None, *, at_table: bool = False) -> None:
        super().__init__()
        #: The game whose rules show first (``None``: the first game's).
        self.first_game = game_id
        #: Opened from a table: its rules open at their keys ("At the table"), what a
        #: player in a game looks for (they were at the bottom of several screens).
        self.at_table = at_table

    def compose(self) -> ComposeResult:
        yield TitleBar()
        first = f"rules-{self.first_game}" if self.first_game in GAME_ORDER else None
        with TabbedContent(id="rules-tabs", initial=first or ""):
            for game_id in GAME_ORDER:
                if game_id in engine.GAMES:
                    with (
                        TabPane(engine.GAMES[game_id].name, id=f"rules-{game_id}"),
                        VerticalScroll(id=f"scroll-{game_id}", classes="rules-text"),
                    ):
                        # Rich's Markdown in one Static: Textual's Markdown widget makes a
                        # widget of every block, and building the three games' rules that
                        # way kept a player waiting about two seconds for the screen.
                        rules, keys, at = rules_text(game_id).partition(KEYS_HEADING)
                        yield Static(Markdown(rules))
                        if keys:
                            yield Static(Markdown(keys + at), id=f"keys-{game_id}",
                                         classes="rules-keys")
        yield TableFooter()

    def on_mount(self) -> None:
        """Focus the text, so ↑/↓, PgUp/PgDn, Home/End scroll it; from a table, at
        its keys."""
        self._focus_text()
        if self.at_table and self.first_game in GAME_ORDER:
            self.call_after_refresh(self._to_keys, str(self.first_game))

    def _to_keys(self, game_id: str) -> None:
        for keys in self.query(f"#keys-{game_id}"):
            self.query_one(f"#scroll-{game_id}", VerticalScroll).scroll_to_widget(
                keys, animate=False, top=True)

    def _focus_text(self) -> None:
        tabs = self.query_one(TabbedContent)
        game_id = str(tabs.active).removeprefix("rules-")
        self.query_one(f"#scroll-{game_id}", VerticalScroll).focus()

    def on_tabbed_content_tab_activated(self) -> None:
        """Keep the keyboard on the text of the game shown."""
        self._focus_text()

    def _step(self, delta: int) -> None:
        tabs = self.query_one(TabbedContent)
        ids = [f"rules-{g}" for g in GAME_ORDER if g in engine.GAMES]
        index = ids.index(tabs.active) if tabs.active in ids else 0
        tabs.active = ids[(index + delta) % len(ids)]

    def action_scroll_text(self, lines: int) -> None:
        """Scroll the rules shown."""
        game_id = str(self.query_one(TabbedContent).active).removeprefix("rules-")
        self.query_one(f"#scroll-{game_id}", VerticalScroll).scroll_relative(
            y=lines, animate=False, immediate=True)  # (a burst of keys: every one counts)

    def action_previous_tab(self) -> None:
        """Show the previous game's rules."""
        self._step(-1)

    def action_next_tab(self) -> None:
        """Show the next game's rules."""
        self._step(1)

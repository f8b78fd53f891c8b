"""The Got Five! table: the public row, the others' racks, your rack, your board, the log.

Keys (the footer shows only those that work now):

* anywhere, any time: arrows move over your board (stopping at its edges), space
  cycles the cell blank → crossed → circled, x crosses and o circles it and step on to
  the next cell, Delete clears it, < and > cross the rest of its row lower or higher than it;
  a click on a cell cycles it too; g calls "GOT FIVE!" (a bar prefilled from the
  hint's ★ cells, what was typed when it last closed, and your circled cells);
* your turn: r, then a colour (A–E) reveals a face-down tile (or click a colour of the
  supply); then Tab (or a click) picks a public tile, s sorts it into your rack, 1–5
  compare it with one of your five positions (or click the position).

The board's marks and their keys are :class:`~tui.games.gotfive.marking.BoardTable`'s
(bound here); every table's are :class:`~tui.screens.table.TableScreen`'s.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.cells import cell_len
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Input

from tui.games.gotfive.board import BoardWidget
from tui.games.gotfive.dialogs import AnnounceScreen, prefill_for
from tui.games.gotfive.marking import BoardTable
from tui.games.gotfive.public import PublicRow
from tui.games.gotfive.rack import MyRack, OthersPanel
from tui.games.gotfive.reveal import RevealScreen
from tui.games.gotfive.summary import game_over_summary
from tui.games.gotfive.text import (
    describe_event,
    letter,
    short_event,
    tile_label,
    why_not_now,
    your_turn,
)
from tui.notices import Namer
from tui.screens.summary import SummaryScreen
from tui.screens.table import CUT_OFF, GONE
from tui.widgets.footer import FooterEntry
from tui.widgets.status_line import StatusLine

#: Below this width the log goes under the board (and the header is hidden).
WIDE = 140
#: Rows of a stacked screen outside the racks and board (header, the turn's line, the
#: log's edge, a line of it, the chat line, the footer), and the fewest rows they get.
OUTSIDE_LEFT = 6
#: Narrower than this (a phone), the racks and board have no margin: each column counts.
TINY = 46
MIN_LEFT = 8
#: Lines of a stack of clues under our rack on a stacked screen 24 rows high.
FOLDED = 3

#: Keys that only move over the board or pick a tile: they give way to a text line.
MOVES = {"move", "next_tile", "tile_key"}

class GotFiveScreen(BoardTable):
    """One seat's view of a Got Five! table (or a spectator's)."""

    #: The board's title says its marking keys too.
    FOOTER_SPARE: ClassVar[dict[str, tuple[str, ...]]] = {
        **BoardTable.FOOTER_SPARE, "#gf-board": ("cycle", "cross_range", "mark_key")}
    GAME = "gotfive"
    SUB_TITLE = "Got Five!"
    GAME_ENDED: ClassVar[list[dict[str, Any]]] = [{"type": "game_over"}]
    BINDINGS = [
        # The board owns the arrows whatever has focus (the log would scroll with them).
        Binding("up", "move(-1, 0)", "Move", show=False, priority=True),
        Binding("down", "move(1, 0)", "Move", show=False, priority=True),
        Binding("left", "move(0, -1)", "Move", show=False, priority=True),
        Binding("right", "move(0, 1)", "Move", show=False, priority=True),
        # Priority (handled as it arrives, a text line still takes it): the dialog is up
        # before the next key, so "r" then a colour typed at once reveals that colour.
        Binding("r", "reveal", "Reveal", priority=True),
        # Tab: named in the footer when it has room (the status line says it on a narrow
        # terminal, where the footer's room goes to the board's keys), working always.
        Binding("tab", "tile_key(1)", "Tile", priority=True),
        Binding("tab", "next_tile(1)", "Tile", show=False, priority=True),
        Binding("shift+tab", "next_tile(-1)", "Tile", show=False, priority=True),
        Binding("s", "sort", "Sort"),
        Binding("1", "compare(0)", "Compare", key_display="1-5"),
        *[Binding(str(p + 1), f"compare({p})", show=False) for p in range(1, 5)],
        # The board's marks are priority keys like its arrows: a burst of arrows and
        # spaces is then applied in the order typed (a priority key is handled before a
        # plain one that was typed earlier but still bubbles up from the focus).
        Binding("space", "cycle", "✗/○", priority=True),
        # x and o mark and step on to the next cell (space cycles in place): named in the
        # footer when it has room (a wide terminal), working always.
        Binding("x", "mark_key('cross')", "Cross →", priority=True),
        Binding("o", "mark_key('circle')", "Circle →", priority=True),
        Binding("x", "set_mark('cross')", "Cross", show=False, priority=True),
        Binding("o", "set_mark('circle')", "Circle", show=False, priority=True),
        Binding("delete", "set_mark('clear')", "Clear", show=False, priority=True),
        # What a sort or a compare rules out is most often a run of a row: crossed at once.
        Binding("less_than_sign", "cross_range(-1)", "✗ range", key_display="<>",
                priority=True),
        Binding("greater_than_sign", "cross_range(1)", "✗ higher", show=False, priority=True),
        Binding("g", "got_five", "GOT FIVE!", priority=True),  # as "r": its dialog takes
        # the digits typed straight after it
        # (Not priority: a text line types it.) Named in the footer where it has room.
        Binding("minus", "auto_cross_key", "Auto-cross", key_display="-"),
        Binding("minus", "auto_cross", "Auto-cross", show=False),
    ]

    def __init__(self, session: Any) -> None:
        super().__init__(session)
        #: Index of the public tile a sort or compare would use.
        self.selected, self._shown_once = 0, False
        #: The colour picker of our last reveal (see :meth:`show`).
        self.picker: RevealScreen | None = None
        #: What was typed in the GOT FIVE! dialog when it last closed unsent, with the
        #: rack's colours then (another game's rack does not take it).
        self.draft: tuple[list[int], list[str]] | None = None

    def compose_table(self) -> ComposeResult:
        yield StatusLine(self.redraw_status, id="gf-status")
        with Horizontal(id="gf-main"):
            with Vertical(id="gf-left"):
                yield PublicRow(id="gf-public")
                yield OthersPanel(id="gf-others")
                yield MyRack(id="gf-rack")
                yield BoardWidget(id="gf-board")
            yield from self.compose_log()

    def mounted(self) -> None:
        """Titles, then the base's replay and first view."""
        self.query_one("#gf-rack").border_title = "Your rack  − low … high +"
        self.title_board()
        self._fit(self.size.width, self.size.height)
        super().mounted()

    def on_resize(self, event: events.Resize) -> None:
        """A narrow terminal stacks the log under the board (the turn's line shorter)."""
        self._fit(event.size.width, event.size.height)
        self.redraw_status()
        if event.size.width < WIDE:
            # Stacked, a new size scrolled the racks and board back to the top, away from
            # the board's cursor until the next arrow key.
            board = self.query_one(BoardWidget)
            self.call_after_refresh(board.show_cursor)

    def _fit(self, width: int, height: int) -> None:
        self.set_class(width < WIDE, "-narrow")
        self.set_class(width < TINY, "-tiny")
        # Stacked, the racks and the board scroll above the log rather than push the
        # board's last rows off the screen (a phone's 24 rows, late in a game): the log
        # and the chat line keep their rows, and a move of the cursor scrolls to it.
        self.query_one("#gf-left").styles.max_height = (
            max(MIN_LEFT, height - OUTSIDE_LEFT) if width < WIDE else None)
        self.refresh_bindings()
        self.query_one(OthersPanel).wide = width >= WIDE
        # On a small terminal the board must stay in sight and the log needs its lines:
        # tall stacks of clues fold, and the positions' numbers go on the tiles' line. A
        # row more than 24 is a line more for them (at 120 × 35 they folded, "…+2", over
        # 25 empty rows).
        rack = self.query_one(MyRack)
        rack.max_lines = 0 if width >= WIDE else FOLDED + max(0, height - 24)
        rack.compact = width < WIDE

    # ---- showing an update ---------------------------------------------------

    def show(self, msg: dict[str, Any], view: dict[str, Any], legal: list[dict[str, Any]],
             names: list[str]) -> None:
        """Pass the new view down to the widgets."""
        me = self.my_seat
        picker = self.picker
        if picker is not None and self.app.screen is picker and not self.can("reveal"):
            # The turn or the game ended under it: its colours' counts are no longer so
            # (left open over the summary, it came back over the rematch's table).
            picker.dismiss(None)
        shown = view.get("marks") or {}
        for n, mark in list(self.pending.items()):
            if shown.get(str(n)) == mark:
                del self.pending[n]
        public, events = view.get("public") or [], msg.get("events") or []
        if not self._shown_once:  # (a new app back at its seat: the tile it just revealed)
            self._shown_once = True
            events = [e.data for e in self.session.history if e.kind == "event"][-1:] + events
        for event in events:
            if event.get("type") == "clue":
                self.board_note = None  # (about the last clue: this one is new)
            if event.get("type") == "revealed" and event.get("seat") == me:
                numbers = [t.get("n") for t in public]
                if event.get("tile", {}).get("n") in numbers:
                    self.selected = numbers.index(event["tile"]["n"])
        self.selected = min(self.selected, max(0, len(public) - 1))
        # Each widget repaints (most relayout too) whenever one of its attributes is set,
        # even to what it shows already: only what changed is passed down.
        _pass(row := self.query_one(PublicRow), public=public, supply=view.get("supply") or [],
              revealing=self.can("reveal"), selected=self.selected if self.can("sort") else None)
        if self.can("reveal") and not self._revealing and self.has_class("-narrow"):
            # (Stacked on a short screen, our turn's "tap its colour in the supply" came
            # with the supply scrolled out of sight above: a phone on its side.)
            self.call_after_refresh(row.scroll_visible, animate=False)
        self._revealing = self.can("reveal")
        # (Someone away was marked nowhere but in a log line that scrolled away.)
        away = self.people_away()
        self.query_one(OthersPanel).set_attributes(
            me=me, turn=view.get("turn"), out=view.get("out") or [],
            winners=view.get("winners") or [],
            names=[f"{n} [away]" if i in away else n for i, n in enumerate(names)],
            clues=view.get("clues") or [], racks=view.get("racks") or [])
        rack = self.query_one(MyRack)
        board = self.query_one(BoardWidget)
        if rack.display != (me is not None):
            rack.display = board.display = me is not None
        if me is not None:
            racks = view.get("racks") or []
            rack.set_attributes(seat=me, comparing=self.can("compare"),
                                clues=view.get("clues") or [],
                                tiles=racks[me] if me < len(racks) else [])
            self.follow_auto_cross()
            self._board()
        self._status(view, names)

    _revealing = False  # (our turn to reveal, at the last update)

    def game_restarted(self) -> None:
        """A rematch: the cursor at A1, nothing kept of the last game's board note, tile
        or GOT FIVE! numbers (a "<" landed where the last game's cursor had stopped)."""
        self.cursor, self.board_note, self.selected, self.draft = (0, 0), None, 0, None
        self.pending.clear()
        self.auto_cross_asked, self.auto_cross_set = None, False  # (a new game: its option)

    def _board(self) -> None:
        board = self.query_one(BoardWidget)
        hint = self._hint()
        _pass(board, locked=self.locked(),
              hint=hint if isinstance(hint, dict) and "possible" in hint else None,
              cursor=self.cursor, marks=self.marks)
        self.title_board()

    def redraw_status(self) -> None:
        if self.update is not None and self.update.get("view") is not None:
            self._status(self.view, self.names)

    def _status(self, view: dict[str, Any], names: list[str]) -> None:
        status = self.query_one(StatusLine)
        me, phase, turn = self.my_seat, view.get("phase"), view.get("turn")
        namer = Namer(names, me)
        out = view.get("out") or []
        touch = getattr(self.app, "touch", False)
        if self.gone and phase != "over":
            text = GONE  # (it asked for a move at a table that was gone)
        elif self.cut_off and turn == me and phase in ("reveal", "clue", "announce"):
            text = CUT_OFF  # (no key makes a move now: the footer says so)
        elif phase == "over":
            winners = view.get("winners") or []
            who = ", ".join(namer.who(s) for s in winners) or "Nobody"
            won = f"🏆 {who} {'win' if who == 'You' else 'wins'}!"
            text = self._fitting(f"{won} {self.ending_keys()}",
                                 f"{won} {self.ending_keys(short=True)}")
        elif me is not None and me < len(out) and out[me]:
            text = self._fitting(
                "You are out: your rack is face up. Watching the others "
                f"({namer.name(turn)} to play).",
                f"You are out (rack face up). {namer.name(turn)} to play.",
                f"You are out. {namer.name(turn)} to play.")
        elif turn == me and phase in ("reveal", "clue", "announce"):
            public = view.get("public") or []
            tile = tile_label(public[self.selected]["n"]) if public else "?"
            text = self._fitting(*your_turn(phase, tile, touch=touch))
        elif turn is not None:
            # (A spectator read only "Watching: Bob to play", the players more.)
            doing = "to reveal a tile" if phase == "reveal" else "to ask a clue"
            whose = f"{'Watching: ' if me is None else ''}{namer.name(turn)}'s turn"
            away, brief = self.away_words(turn), self.away_words(turn, short=True)
            text = self._fitting(f"{whose} {doing}…{away}", f"{whose} {doing}…{brief}",
                                 f"{whose}…{brief}")
            last = self.last_move()
            if last and len(text) + 3 + len(last) <= self.size.width - 2:
                text += f" · {last}"
        else:
            text = "Waiting…"
        status.show(text, my_turn=turn == me and me is not None and phase != "over",
                    warnable=phase not in (None, "over") and not self.gone and not self.cut_off,
                    moment=(turn, phase))

    def _fitting(self, *wordings: str) -> str:
        """The first of ``wordings`` (longest first) that fits the status line."""
        room = self.size.width - 2
        return next((w for w in wordings if cell_len(w) <= room), wordings[-1])

    def last_move(self) -> str | None:
        """The latest reveal, clue or call of this game, in a few words (a rematch's
        first turn said the last game's "Ann called GOT FIVE!: right")."""
        for entry in reversed(self.session.history):
            if entry.kind == "notice" and entry.data.get("type") == "started":
                return None
            if entry.kind == "event" and entry.game in (None, self.GAME) \
                    and entry.data.get("type") in ("revealed", "clue", "announced"):
                try:
                    return short_event(entry.data, Namer(entry.names, self._me_then(entry)))
                except (KeyError, TypeError, ValueError):
                    return None
        return None

    def describe_event(self, event: dict[str, Any], namer: Namer) -> str | None:
        """One line of the log for one of Got Five!'s events."""
        return describe_event(event, namer, self.view.get("racks") or [])

    def summary(self, msg: dict[str, Any], names: list[str]) -> SummaryScreen | None:
        """The game-over summary, when this update ended the game."""
        if not any(e.get("type") == "game_over" for e in msg.get("events") or []):
            return None
        return game_over_summary(msg["view"], names, self.my_seat, can_lobby=self.is_creator)

    # ---- which keys work now -----------------------------------------------------

    def check_game_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show only the keys that work now."""
        if action in (*MOVES, "cycle", "set_mark", "mark_key", "cross_range") and isinstance(
                self.focused, Input):
            return False  # the keys belong to the text line being typed
        if action in ("move", "cycle", "set_mark", "cross_range"):
            return self.can_mark()
        if action == "mark_key":
            return self.can_mark() and not self.has_class("-narrow")
        # A move's key is lit when it works now, dimmed while it will work later in the
        # game (another seat's turn, another phase), hidden once it never will.
        if action == "reveal":
            return self.can("reveal") or self._later()
        if action == "tile_key" and self.has_class("-narrow"):
            return False
        if action in ("sort", "next_tile", "tile_key"):
            return self.can("sort") or self._later()
        if action == "compare":
            return self.can("compare") or self._later()
        if action == "got_five":
            return self.can("announce") or self._later()
        if action == "auto_cross":
            return self.can_auto_cross()
        if action == "auto_cross_key":
            return self.can_auto_cross() and not self.has_class("-narrow")
        return True

    #: The keys of a move, dimmed while it is not ours to make: pressed, they say why.
    MOVE_KEYS: ClassVar[dict[str, str]] = {
        "r": "reveal", "s": "sort", "tab": "next_tile",
        **{str(p): "compare" for p in range(1, 6)}}

    def game_key(self, event: events.Key) -> None:
        """A dimmed move's key says why it does nothing now (a fresh player's s, 3, Tab)."""
        action = self.MOVE_KEYS.get(event.key)
        if action is None or isinstance(self.focused, Input) \
                or self.check_game_action(action, ()) is not None:
            return
        reason = why_not_now(self.view, self.my_seat, self.names)
        if reason:
            event.stop()
            self.warn(*reason)

    def warn(self, text: str, *shorter: str) -> None:
        """On the turn's line, not a toast over the log's newest lines (the clues)."""
        self.query_one(StatusLine).warn(text, *shorter)

    def _later(self) -> bool | None:
        """``None`` (dimmed) while we still play, else ``False`` (hidden)."""
        me, view = self.my_seat, self.view
        out = view.get("out") or []
        playing = (me is not None and view.get("phase") not in (None, "over")
                   and not (me < len(out) and out[me]))
        return None if playing else False

    # ---- your turn -------------------------------------------------------------------

    def action_reveal(self) -> None:
        """Ask which colour to reveal."""
        if not self.can("reveal"):
            return

        def chosen(colour: int | None) -> None:
            self.picker = None
            if colour is not None:
                self.reveal(colour)

        self.picker = RevealScreen(self.view.get("supply") or [])
        self.app.push_screen(self.picker, chosen)

    @on(PublicRow.ColourClicked)
    def colour_clicked(self, event: PublicRow.ColourClicked) -> None:
        """A click on a colour of the supply reveals a tile of it (on your turn)."""
        if self.can("reveal"):
            self.reveal(event.colour)

    def reveal(self, colour: int) -> None:
        """Reveal the top face-down tile of ``colour``."""
        action = {"type": "reveal", "colour": colour}
        if action in self.legal:
            self.act(action)
        elif not self.can("reveal"):
            self.warn("You cannot reveal a tile now.")
        else:
            self.warn(f"No face-down tiles of colour {letter(colour)} are left.")

    def action_next_tile(self, step: int) -> None:
        """Pick the next (or previous) public tile for the clue."""
        public = self.view.get("public") or []
        if public:
            self.selected = (self.selected + step) % len(public)
            self.query_one(PublicRow).selected = self.selected
            self._status(self.view, self.names)

    def action_tile_key(self, step: int) -> None:
        """Tab on a wide terminal (the same as :meth:`action_next_tile`)."""
        self.action_next_tile(step)

    @on(PublicRow.TileClicked)
    def tile_clicked(self, event: PublicRow.TileClicked) -> None:
        """A click on a public tile picks it (sort or compare it next)."""
        if self.can("sort"):
            self.selected = event.index
            self.query_one(PublicRow).selected = self.selected
            self._status(self.view, self.names)

    def chosen_tile(self) -> int | None:
        """The number of the public tile picked for the clue."""
        public = self.view.get("public") or []
        if not public:
            return None
        return int(public[min(self.selected, len(public) - 1)]["n"])

    def action_sort(self) -> None:
        """Sort the picked public tile into your rack."""
        n = self.chosen_tile()
        if n is not None and {"type": "sort", "tile": n} in self.legal:
            self.act({"type": "sort", "tile": n})

    @on(events.Click, "#gf-status")
    def status_clicked(self, event: events.Click) -> None:
        """A tap on "Sort" in the turn's line sorts, as s does (it read as a button)."""
        if self.query_one(StatusLine).word_at(event) == "Sort":
            self.action_sort()

    def action_compare(self, position: int) -> None:
        """Compare the picked public tile with your tile at ``position`` (0..4)."""
        n = self.chosen_tile()
        action = {"type": "compare", "tile": n, "position": position}
        if n is not None and action in self.legal:
            self.act(action)

    def footer_clicked(self, entry: FooterEntry) -> bool:
        """A click on "1-5 Compare" in the footer says where to click: five keys (as one
        it compared with position 1 at once)."""
        if entry.action != "compare(0)":
            return False
        self.notify("Click (tap) the tile of your rack to compare with: 1 to 5.")
        return True

    @on(MyRack.PositionClicked)
    def position_clicked(self, event: MyRack.PositionClicked) -> None:
        """A click on one of your tiles compares the picked public tile with it."""
        if self.can("compare"):
            self.action_compare(event.position)

    # ---- GOT FIVE! -----------------------------------------------------------------------

    def hint_numbers(self) -> tuple[set[int], set[int]]:
        """(numbers the hint greys, numbers it stars): what the board shows of a
        board-mode hint, nothing otherwise."""
        board = self.query_one(BoardWidget)
        return board.impossible(), board.certain()

    def action_got_five(self) -> None:
        """Open the GOT FIVE! dialog (with what was typed when it last closed)."""
        if not self.can("announce") or self.my_seat is None:
            return
        colours = [int(t["colour"]) for t in self.view["racks"][self.my_seat]]
        impossible, certain = self.hint_numbers()
        circled = {n for n, mark in self.marks.items() if mark == "circle"}
        crossed = {n for n, mark in self.marks.items() if mark == "cross"}
        prefill, filled = prefill_for(colours, circled, certain,
                                      self.draft[1] if self.draft and self.draft[0] == colours
                                      else None)
        dialog = AnnounceScreen(colours, prefill, crossed, self.seen(), impossible,
                                filled=filled, wide=not self.has_class("-narrow"))

        def chosen(numbers: list[int] | None) -> None:
            if numbers is None:
                self.draft = (colours, dialog.texts())  # Esc: kept for next time
            elif self.can("announce"):
                self.draft = None
                self.act({"type": "announce", "numbers": numbers})

        self.app.push_screen(dialog, chosen)


def _pass(widget: Widget, **values: Any) -> None:
    """Set those of ``widget``'s attributes whose value changed."""
    for name, value in values.items():
        if getattr(widget, name) != value:
            setattr(widget, name, value)

"""The GET OUT! table: your hand, the call card, the others, the log and the match score.

Keys: ←/→ pick a card (Home/End: the first, the last), Enter plays it (a GET OUT! card
asks for the image), d draws, n starts the next round, 1–9 and 0 jump to a card (again:
ten further); a click plays one. What every table shares is
:class:`~tui.screens.table.TableScreen`'s (leaving, chat, the log, the summary).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Static

from tui.games.getout.call_pile import CallPile
from tui.games.getout.card import CardWidget, card_label, image_label
from tui.games.getout.hand import HandWidget
from tui.games.getout.scores import ScoreTable, score_rows
from tui.games.getout.text import (
    SHORT_STATUS,
    TOUCH_STATUS,
    describe_event,
    nothing_to_draw,
    turn_status,
)
from tui.notices import Namer, seat_owners, seat_players
from tui.screens.table import CUT_OFF, GONE, TableScreen
from tui.widgets.seats import SeatsPanel
from tui.widgets.status_line import StatusLine

# The dialogs and the round summary are imported when first opened (scripts/bench_startup.py).
if TYPE_CHECKING:
    from tui.screens.summary import SummaryScreen


#: Below this many columns the table is one column; lower than SHORT rows, a narrow one
#: has no scores box (see ``on_resize``).
NARROW, SHORT = 64, 30

#: A winner in the players' list, and the words giving way to a name ("1  (you)").
WON_DEALS, WON = "won · deals", "won"
SPARE_WORDS = frozenset({"dealer", WON_DEALS, WON})


class GetOutScreen(TableScreen):
    """One seat's view of a GET OUT! table (or a spectator's)."""

    GAME = "getout"
    SUB_TITLE = "GET OUT!"
    #: What the score table shows now (names, totals, who is out, rounds, our seat).
    _scores_shown: tuple[object, ...] | None = None
    BINDINGS = [
        # The hand owns ←/→ whatever has focus (the log scrolled sideways); one key says both.
        Binding("left", "select(-1)", "Choose", show=False, priority=True),
        Binding("right", "select(1)", "Choose", key_display="←→", priority=True,
                tooltip="Choose a card: ← and →, or its place among the cards in sight (1-9, 0 for "
                        "the tenth)"),
        Binding("home", "select(0, True)", "First card", show=False, priority=True),
        Binding("end", "select(-1, True)", "Last card", show=False, priority=True),
        Binding("enter,space", "play", "Play card"),
        Binding("d", "draw", "Draw"),
        Binding("n", "next_round", "Next round"),
        *[Binding(str(i % 10), f"pick({i})", show=False) for i in range(1, 11)],
    ]

    def mounted(self) -> None:
        """The play key follows the chosen card (lit when it can be played)."""
        super().mounted()
        self.watch(self.query_one(HandWidget), "selected", self._footer_keys_changed, init=False)

    def on_resize(self, event: events.Resize) -> None:
        """Narrower than ``NARROW`` columns (a phone upright), the players over the call
        card and the log over the scores, each the whole width; lower than ``SHORT`` rows
        too (24 when wider), no scores box (the players' list has each score) and no call
        card drawn: the log had no room."""
        self.set_class(narrow := event.size.width < NARROW, "-narrow")
        # (And at any width below 24 rows: a phone on its side showed no line of the log.)
        self.set_class(event.size.height < (SHORT if narrow else 24), "-short")

    def compose_table(self) -> ComposeResult:
        with Horizontal(id="getout-top"):
            with Vertical(id="getout-seats-box"):
                yield Static("Players", classes="caption")
                yield SeatsPanel(id="getout-seats")
            # With the call card the table opens on, if any (not mounted in a moment).
            view = (self.session.latest or {}).get("view") or {}
            yield CallPile(id="call-pile", call=view.get("call"))
        yield StatusLine(self.redraw_status, id="status")
        yield HandWidget(id="hand")
        with Horizontal(id="getout-bottom"):
            yield from self.compose_log()
            yield ScoreTable(id="scores")

    # ---- showing an update ---------------------------------------------------

    def show(self, msg: dict[str, Any], view: dict[str, Any], legal: list[dict[str, Any]],
             names: list[str]) -> None:
        """Pass the new state down to the widgets."""
        table = msg["table"]
        phase = view["phase"]  # (at the match's end its winner: "dealer" said nothing)
        won = (view.get("last_round") or {}).get("winner") if phase == "round_over" \
            else (view.get("winners") or [None])[0]
        seats = self.query_one(SeatsPanel)
        seats.spare = SPARE_WORDS
        seats.me, was = self.my_seat, seats.turn
        seats.turn = view["turn"]
        # One round (match off): no totals while it is played, its points once it is over.
        match = bool(view.get("match"))
        self.set_class(not match, "-single")
        points = {"score": view["scores"]} if match else \
            {} if phase == "play" else {"points": view["scores"]}
        seats.columns = {
            "cards": view["hand_counts"],
            **points,
            # ("out" beside a winner who "got out" read as a win; "dealer" said not why.)
            "": [f"over {view.get('limit')}" if out else (WON if phase == "over" else WON_DEALS)
                 if i == won else "dealer" if i == view["dealer"] else ""
                 for i, out in enumerate(view["out"])],
        }
        seats.seats = table["seats"]
        pile = self.query_one(CallPile)
        pile.draw_count = view["draw_count"]
        pile.played_count = view["played_count"]
        pile.round = view.get("round") if view.get("match") else None
        pile.image = view["image"]
        pile.over = "" if phase == "play" else "Match over" if phase == "over" \
            and view.get("match") else "Round over"
        pile.call = view["call"]
        hand = self.query_one(HandWidget)
        hand.playable = frozenset(a["card"] for a in self.legal if a["type"] == "play")
        wild = {c["id"] for c in view.get("hand", []) if c["wild"]}
        hand.cards = view.get("hand", [])
        # Our turn begins on a card that cannot be played: the first that can is chosen,
        # never a GET OUT! card (spending one is the player's own idea: Enter says so).
        playable = [i for i, c in enumerate(hand.cards) if c["id"] in hand.playable - wild]
        # A new hand starts afresh (round 2 began on the 5th card, a rematch at the last).
        if any(e.get("type") in ("round_started", "started")
               for e in [*(msg.get("events") or []), *(msg.get("notices") or [])]):
            hand.selected = (playable or [0])[0]
        elif view["turn"] == self.my_seat != was and playable and hand.selected not in playable:
            hand.selected = playable[0]
        if view["turn"] != was:  # ("It is Bot 3's turn" stayed into Bot 4's)
            self.warnings_stale()
        self._status(view, legal, names)
        self._scores(view, seat_owners(table))

    def summary(self, msg: dict[str, Any], names: list[str]) -> SummaryScreen | None:
        """The summary of a round this update ended, while we play and the one we went out
        in (it stays till closed); then none until the match is over."""
        ended = [e for e in msg.get("events") or [] if e.get("type") == "round_over"]
        if not ended:
            return None
        me, view = self.my_seat, msg["view"]
        if me is not None and view["out"][me] and view["phase"] != "over":
            if me not in (ended[-1].get("out") or []):
                return None  # out since an earlier round: the bots' rounds go by
            self._went_out_in = ended[-1].get("round")
        self._round_summary = view["phase"] != "over"
        # Loaded when a round first ends, not before the table's first frame.
        from tui.games.getout.summary import round_summary

        return round_summary(
            msg["view"], seat_owners(msg.get("table") or {}), self.my_seat,
            can_deal={"type": "next_round"} in (msg.get("legal") or []),
            can_lobby=self.is_creator, waiting=self.waiting_to_deal(view["out"]),
            players=seat_players(msg.get("table") or {}))

    #: The round we passed the limit in (its summary stays open); the last summary a round's.
    _went_out_in: int | None = None
    _round_summary = False

    def summary_over(self, msg: dict[str, Any]) -> bool:  # (the round we went out in stays)
        """The next round is being played."""
        phase = msg["view"]["phase"]
        if phase == "over":
            return self._round_summary  # a round's summary gives way to the match's
        return phase == "play" and self._went_out_in is None

    def check_game_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show exactly the keys that work now: choosing a card whenever we hold cards in a
        round; playing lit when the chosen card can be played; playing and drawing dimmed
        while another player is to move, hidden when they cannot come back this round (we
        watch, we are out, the round is over) or before we move (no drawing when we lay
        the first call card)."""
        view = self.view
        in_round = (self.my_seat is not None and view.get("phase") == "play"
                    and not self.out_of_game())
        if action in ("select", "pick"):  # (in the chat line ←/→ move its cursor)
            return in_round and bool(view.get("hand")) and not isinstance(self.focused, Input)
        if action == "play":
            # Lit only when the chosen card can be played now (Enter would play it).
            if not in_round:
                return False
            card = self.query_one(HandWidget).current
            return bool(card is not None and any(
                a["type"] == "play" and a["card"] == card["id"] for a in self.legal)) or None
        if action == "draw":
            if not in_round:
                return False
            if {"type": "draw"} in self.legal:
                return True
            # On our own turn a draw that is not allowed (we lay the first call card)
            # will not come back before we move: hidden, not dimmed.
            return False if view.get("turn") == self.my_seat else None
        if action == "next_round":
            return {"type": "next_round"} in self.legal
        return True

    def out_of_game(self) -> bool:
        """We passed the match's limit while the others play on."""
        out = self.view.get("out")
        me = self.my_seat
        return (me is not None and isinstance(out, list) and me < len(out) and bool(out[me])
                and self.view.get("phase") != "over")

    def standings(self) -> str | None:
        """Who won (once it is over) and the totals, lowest first: low is good here."""
        view = self.view
        scores = view.get("scores")
        if not isinstance(scores, list):
            return None
        names, out, me = self.names, view.get("out") or [], self.my_seat

        def who(seat: int) -> str:
            return "You" if seat == me else (names[seat] if seat < len(names) else "someone")

        parts = []
        for seat in sorted(range(len(scores)), key=lambda s: scores[s]):
            gone = " (out)" if seat < len(out) and out[seat] else ""
            parts.append(f"{who(seat)} {scores[seat]}{gone}")
        totals = ("Match totals: " if view.get("match") else "Points: ") + ", ".join(parts) + "."
        winners = view.get("winners") if view.get("phase") == "over" else None
        if isinstance(winners, list) and winners:
            won = " and ".join(who(w) for w in winners if isinstance(w, int))
            verb = "win" if won == "You" else "won"
            return f"{won} {verb} the {'match' if view.get('match') else 'round'}. {totals}"
        return totals

    def redraw_status(self) -> None:
        if self.update is not None and self.update.get("view") is not None:
            self._status(self.view, self.legal, self.names)

    def _status(self, view: dict[str, Any], legal: list[dict[str, Any]],
                names: list[str]) -> None:
        status = self.query_one(StatusLine)
        me = self.my_seat
        phase, short, shortest = view["phase"], None, None
        if self.gone and phase != "over":
            text = GONE  # (it asked for a move at a table that was gone)
        elif self.cut_off and phase == "play" and view["turn"] == me:
            text = CUT_OFF  # (no key makes a move now: the footer says so)
        elif phase == "over":
            winner, names = view["winners"][0], seat_players(self.table)
            who = "You win" if winner == me else f"{names[winner]} wins"
            won = f"🏆 {who} the {'match' if view['match'] else 'round'}!"
            text = f"{won} {self.ending_keys()}"
            short = f"{won} {self.ending_keys(short=True)}"
            shorter = f"🏆 {who}! {self.ending_keys(short=True)}"  # (a phone's 41 cells)
            if self.summary_screen is not None:  # (see below)
                text, short = won, None
        elif phase == "round_over":
            last, names = view["last_round"], seat_players(self.table)
            who = "You" if last["winner"] == me else names[last["winner"]]
            deal = {"type": "next_round"} in legal
            # (A phone has no n: its footer's "Next round" is tapped.)
            starts = ("tap Next round below" if getattr(self.app, "touch", False)
                      else "n starts the next round")
            then = self.waiting_to_deal(view["out"]) if not deal else (
                starts + (", for everyone." if self.others_here() else "."))
            text = f"Round {last['round']} is over: {who} got out first. {then}"
            # (At a phone's width it read "…Bot 3 got out. Press n", cut.)
            short = f"{who} got out: {starts if deal else 'next round soon'}"
            if self.summary_screen is not None and deal:  # (its keys say what comes
                # next, and the table's footer has none while it opens: "n" was in neither)
                text, short = f"Round {last['round']} is over: {who} got out first.", None
        elif me is None:
            text = f"Watching: {names[view['turn']]} to play."
        elif view["turn"] == me:
            text = turn_status(view, any(a["type"] == "play" for a in legal))
        elif view["out"][me]:
            text = "You are out of this match; watching the others."
        elif view["turn"] is None:
            text = "Waiting…"
        else:
            waiting = f"Waiting for {names[view['turn']]}…"
            text = waiting + self.away_words(view["turn"])
            short = waiting + self.away_words(view["turn"], short=True)
            # (A phone's line cut "(away: b lets a bot": the footer's b says the rest.)
            shortest = waiting + (" (away)" if short != waiting else "")
        if getattr(self.app, "touch", False):
            text = TOUCH_STATUS.get(text, text)
        width = status.content_region.width
        if width and cell_len(text) > width:
            # (At 45 columns "or draw (d)" was cut.)
            text = SHORT_STATUS.get(text, short or text)
            if phase == "over" and cell_len(text) > width:
                text = shorter
            elif shortest and cell_len(text) > width:
                text = shortest
        status.show(text, my_turn=view["turn"] == me and phase == "play",
                    warnable=phase == "play" and not self.gone and not self.cut_off)

    def _scores(self, view: dict[str, Any], names: list[str]) -> None:
        """One row per player (so none is cut off), the total first (the frame says the
        match's limit), then the rounds, newest first: a narrow box cuts the oldest."""
        scores = self.query_one("#scores", ScoreTable)
        rounds = view["history"]
        # Rebuilt only when something in it changed (every update, it was most of a repaint).
        limit = view.get("limit") if view.get("match") else None
        shown = (tuple(names), tuple(view["scores"]), tuple(view["out"]),
                 tuple(tuple(points) for points in rounds), self.my_seat, limit)
        if shown == self._scores_shown:
            return
        self._scores_shown = shown
        # The limit on the frame: as the total's label ("total/100") it took the room of
        # a round at 80 columns, where the box held one round.
        scores.border_title = None if limit is None else f"limit {limit}"
        scores.set_table(*score_rows(view, names, self.my_seat, limit))

    def describe_event(self, event: dict[str, Any], namer: Namer) -> str | None:
        """One line of the log for one of this game's events."""
        return describe_event(event, namer)

    # ---- acting --------------------------------------------------------------

    def action_select(self, delta: int, end: bool = False) -> None:
        """Move the selection along the hand; with ``end``, to its first (0) or last (-1)."""
        hand = self.query_one(HandWidget)
        if hand.cards:
            at = delta if end else hand.selected + delta
            hand.selected = at % len(hand.cards)

    def action_pick(self, number: int) -> None:
        """Select card ``number`` (1-based; 10 is the key 0) counted from the first card in
        sight (a player scrolled along pressed 4, and got the hand's fourth); again: ten
        cards further."""
        hand = self.query_one(HandWidget)
        first = hand.off_the_edges()[0]
        same = [i for i in range(first + number - 1, len(hand.cards), 10)]
        if not same:  # (it did nothing and said nothing)
            self.warn(f"There is no card {number} in sight: you hold {len(hand.cards)}.",
                      f"No card {number} in sight.")
            return
        later = [i for i in same if i > hand.selected]
        repeat = hand.selected in same
        hand.selected = (later[0] if later else same[0]) if repeat else same[0]

    def game_key(self, event: events.Key) -> None:
        """Enter (or space) plays the chosen card, or says why it cannot be played now
        (the key is dimmed then, and Textual does not run a dimmed key's action).

        It plays after the keys before it have done what they do: a key's binding runs
        once the key has come back up to the app, after the screen has seen the keys
        that follow it, so "5 Enter" typed at once would play the card chosen before
        the 5. The app runs the play after the 5's binding (both wait in its queue).

        Not while typing: a key reaches the screen before the focused widget's own
        bindings run (Enter in the chat line would never send it); the log or the
        scores, focused by a click, have no use for them (d said nothing)."""
        if (event.key in ("enter", "space") and not isinstance(self.focused, Input)
                and self.check_game_action("play", ()) is not False):
            event.stop()
            self.app.call_later(self._play_chosen)
        elif (event.key == "d" and not isinstance(self.focused, Input)
              and self.check_game_action("draw", ()) is False and self.can("play")
              and self.view.get("call") is None):
            # Hidden while we lay the first call card, d did nothing and said nothing.
            event.stop()
            self.warn("The first card of a round is laid, not drawn: lay any card (Enter).",
                      "Lay a card first (Enter).")
        elif (event.key == "d" and not isinstance(self.focused, Input)
              and self.check_game_action("draw", ()) is None):
            # Dimmed while another player moves: it did nothing and said nothing.
            event.stop()
            who = Namer(self.names, self.my_seat).name(self.view.get("turn"))
            self.warn(f"It is {who}'s turn: you draw on yours.", "Not your turn.")

    def _play_chosen(self) -> None:
        if self.is_attached and self.check_game_action("play", ()) is not False:
            card = self.query_one(HandWidget).current
            if card is not None:
                self.play(card)

    def action_play(self) -> None:
        """Play the selected card."""
        card = self.query_one(HandWidget).current
        if card is not None:
            self.play(card)

    _told_tap_again = False  # (the first tap that only chose a card said how one plays)
    @on(CardWidget.Chosen)
    def card_clicked(self, event: CardWidget.Chosen) -> None:
        """A click on a card in the hand plays it. By touch a tap chooses a card, and a
        tap on the chosen one plays it (a finger slipped onto the next card)."""
        hand = self.query_one(HandWidget)
        ids = [c["id"] for c in hand.cards]
        if event.card["id"] not in ids:
            return
        index = ids.index(event.card["id"])
        if getattr(self.app, "touch", False) and hand.selected != index:
            hand.selected = index
            if not self._told_tap_again:
                self._told_tap_again = True
                self.notify("A tap chooses a card; a tap on the chosen card plays it.")
            return
        hand.selected = index
        self.play(event.card)

    def play(self, card: dict[str, Any]) -> None:
        """Play ``card`` if that is legal; a GET OUT! card first asks for the image."""
        options = [a for a in self.legal if a["type"] == "play" and a["card"] == card["id"]]
        if not options:
            if self.can("play"):  # (a ✓ card: which, and how to choose it)
                wild = all(c["wild"] for c in self.view.get("hand", [])
                           if c["id"] in self.query_one(HandWidget).playable)
                how, draw = ("tap it", "tap the draw pile") if getattr(
                    self.app, "touch", False) else ("← →", "draw (d)")
                then = ("only your GET OUT! card follows" if wild
                        else "choose a card marked ✓") + f" ({how}), or {draw}."
                label = card_label(card)
                self.warn(f"{label} does not match the call card: {then}",  # (then alone:
                          f"{label} does not match: {then}",  # "only your GET OUT! card…")
                          then[0].upper() + then[1:], f"{label} does not match.")
            elif self.can("draw"):  # our turn, and no card we hold follows
                touch = getattr(self.app, "touch", False)  # (in taps, as the turn's line)
                draw = "tap the draw pile" if touch else "draw a card (d)"
                self.warn(f"{card_label(card)} does not match the call card, nor does any "
                          f"card you hold: {draw}.",
                          f"No card you hold matches the call card: {draw}.",
                          f"Nothing matches: {'tap the draw pile' if touch else 'draw (d)'}.")
            else:
                turn = self.view.get("turn")  # (whose: a pass found only "not yours")
                self.warn(*(("It is not your turn to play.",) if turn in (None, self.my_seat)
                            else (f"It is {Namer(self.names, self.my_seat).name(turn)}'s "
                                  "turn: you play on yours.", "Not your turn.")))
            return
        if "image" not in options[0] or len(self.view.get("hand", [])) == 1:
            self.act(options[0])  # (our last card ends the round: it names nothing to follow)
            return
        # Loaded when a dialog first opens, not before the table's first frame.
        from tui.screens.dialogs import ChoiceScreen

        self.warnings_stale()  # (a toast covered the dialog's choices)
        # What the rest of the hand holds of each image: the dialog may cover the hand.
        rest = [c for c in self.view.get("hand", []) if c["id"] != card["id"] and not c["wild"]]
        counts = [sum(1 for c in rest if c["image"] == a["image"]) for a in options]
        choices = [(a["image"], f"{image_label(a['image'])}  ("  # (whole on a phone's 41)
                    f"{f'{n} in hand' if n else 'none in hand'})")
                   for a, n in zip(options, counts, strict=True)]
        # Enter names the image the hand holds most of (it named the first, none held).

        def chosen(image: str | None) -> None:
            if image is not None:
                self.act({"type": "play", "card": card["id"], "image": image})

        self.app.push_screen(ChoiceScreen("Name the image that must follow:", choices,
                                          first=counts.index(max(counts))), chosen)

    @on(events.Click, "#piles")
    def piles_clicked(self) -> None:
        """A tap on "Draw pile: 46" draws, as d does (a phone's d was past the footer's edge)."""
        self.action_draw()

    @on(events.Click, "#status")
    def status_clicked(self) -> None:
        """A click on the turn's line when it says to draw ("Nothing matches: draw")."""
        if self.legal == [{"type": "draw"}]:
            self.action_draw()

    def summary_opened(self) -> None:
        self.redraw_status()

    def summary_answered(self, answer: str | None) -> None:
        super().summary_answered(answer)
        self.redraw_status()

    def warn(self, text: str, *shorter: str) -> None:
        """On the turn's line, over the hand, not a toast over the scores and the log."""
        self.query_one(StatusLine).warn(text, *shorter)

    def warnings_stale(self) -> None:
        super().warnings_stale()
        self.query_one(StatusLine).drop_warning()

    def key_description(self, binding: Binding) -> str | None:
        """d says "Pass" where nothing is left to draw (its turn line said "pass (d)")."""
        return "Pass" if binding.action == "draw" and nothing_to_draw(self.view) else None

    def action_draw(self) -> None:
        """Draw a card (ends the turn)."""
        if {"type": "draw"} in self.legal:
            self.act({"type": "draw"})
        else:
            self.warn("You cannot draw now.")


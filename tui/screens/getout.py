"""The GET OUT! table: your hand, the call card, the others, the log and the match score.

Keys: ←/→ pick a card, Enter plays it (a GET OUT! card asks for the image), d draws,
n starts the next round, 1–9 jump to a card; a click on a card plays it too.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Footer, Header, RichLog, Static

from tui.screens.base import Banner, SessionScreen
from tui.screens.dialogs import ChoiceScreen
from tui.screens.round_over import RoundOverScreen
from tui.widgets.call_pile import CallPile
from tui.widgets.card import CardWidget, card_label, image_label
from tui.widgets.hand import HandWidget
from tui.widgets.seats import SeatsPanel


class GetOutScreen(SessionScreen):
    """One seat's view of a GET OUT! table (or a spectator's)."""

    SUB_TITLE = "GET OUT!"
    BINDINGS = [
        # The hand owns ←/→ whatever has focus (the log would scroll sideways with them).
        Binding("left", "select(-1)", "◀ card", show=False, priority=True),
        Binding("right", "select(1)", "card ▶", show=False, priority=True),
        Binding("enter,space", "play", "Play card"),
        Binding("d", "draw", "Draw"),
        Binding("n", "next_round", "Next round"),
        Binding("l", "to_lobby", "Back to lobby"),
        Binding("b", "bot_for_away", "Bot for an away player"),
        *[Binding(str(i), f"pick({i})", show=False) for i in range(1, 10)],
        Binding("escape", "leave", "Leave"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Banner(id="banner", markup=False)
        with Horizontal(id="getout-top"):
            with Vertical(id="getout-seats-box"):
                yield Static("Players", classes="caption")
                yield SeatsPanel(id="getout-seats")
            yield CallPile(id="call-pile")
        yield Static("", id="status", markup=False)
        yield HandWidget(id="hand")
        with Horizontal(id="getout-bottom"):
            yield RichLog(id="log", wrap=True, markup=False, max_lines=500, min_width=20)
            yield DataTable(id="scores", cursor_type="none", zebra_stripes=True)
        yield Footer()

    summary: RoundOverScreen | None = None

    # ---- showing an update ---------------------------------------------------

    def watch_update(self, msg: dict[str, Any] | None) -> None:
        """Pass the new state down to the widgets."""
        if msg is None or not self.live:
            return
        table, view, legal = msg["table"], msg.get("view"), msg.get("legal", [])
        if view is None:
            if table.get("phase") == "lobby":
                self._back_to_lobby()
            return
        names = [s["name"] or f"seat {s['seat'] + 1}" for s in table["seats"]]
        self._log_events(msg.get("events", []), names)
        seats = self.query_one(SeatsPanel)
        seats.me = msg.get("seat")
        seats.turn = view["turn"]
        seats.columns = {
            "cards": view["hand_counts"],
            "score": view["scores"],
            "": [
                "out" if out else ("dealer" if i == view["dealer"] else "")
                for i, out in enumerate(view["out"])
            ],
        }
        seats.seats = table["seats"]
        pile = self.query_one(CallPile)
        pile.draw_count = view["draw_count"]
        pile.played_count = view["played_count"]
        pile.image = view["image"]
        pile.call = view["call"]
        hand = self.query_one(HandWidget)
        hand.playable = frozenset(a["card"] for a in legal if a["type"] == "play")
        hand.cards = view.get("hand", [])
        self._status(view, legal, names)
        self._scores(view, names)
        self.refresh_bindings()
        self._summary(msg, names)

    def _summary(self, msg: dict[str, Any], names: list[str]) -> None:
        """Open the round summary when a round ends; close it when the next one starts."""
        view = msg["view"]
        ended = any(e.get("type") == "round_over" for e in msg.get("events", []))
        if view["phase"] == "play" and self.summary is not None:
            self.summary.dismiss(None)
            self.summary = None
        elif ended and self.summary is None:
            table = msg["table"]
            self.summary = RoundOverScreen(
                view, names, self.my_seat,
                can_deal={"type": "next_round"} in msg.get("legal", []),
                can_lobby=table.get("creator") == self.my_seat,
            )

            def answered(answer: str | None) -> None:
                self.summary = None
                if answer == "next":
                    self.action_next_round()
                elif answer == "lobby":
                    self.action_to_lobby()

            self.app.push_screen(self.summary, answered)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Dim the moves not open to us now; hide those of other phases."""
        legal = self.legal
        if action == "play":
            return any(a["type"] == "play" for a in legal) or None
        if action == "draw":
            return {"type": "draw"} in legal or None
        if action == "next_round":
            return {"type": "next_round"} in legal
        if action == "bot_for_away":
            return bool(self._away_seats())
        if action == "to_lobby":
            table = (self.update or {}).get("table") or {}
            return table.get("phase") == "over" and table.get("creator") == self.my_seat
        return True

    def _status(self, view: dict[str, Any], legal: list[dict[str, Any]],
                names: list[str]) -> None:
        status = self.query_one("#status", Static)
        me = self.my_seat
        phase = view["phase"]
        if phase == "over":
            winner = view["winners"][0]
            who = "You win" if winner == me else f"{names[winner]} wins"
            status.update(f"🏆 {who} the {'match' if view['match'] else 'round'}! "
                          "l: back to the lobby · Esc: leave")
        elif phase == "round_over":
            last = view["last_round"]
            who = "You" if last["winner"] == me else names[last["winner"]]
            then = ("Press n for the next round." if {"type": "next_round"} in legal
                    else "Waiting for a player to deal the next round…")
            status.update(f"Round {last['round']} is over: {who} got out. {then}")
        elif me is None:
            status.update(f"Watching: {names[view['turn']]} to play.")
        elif view["turn"] == me:
            plays = [a for a in legal if a["type"] == "play"]
            if view["call"] is None:
                status.update("Your turn: lay any card as the call card (Enter).")
            elif plays:
                status.update("Your turn: play a highlighted card (Enter) or draw (d).")
            else:
                status.update("Your turn: nothing matches — draw a card (d).")
        elif view["out"][me]:
            status.update("You are out of this match; watching the others.")
        elif view["turn"] is None:
            status.update("Waiting…")
        else:
            status.update(f"Waiting for {names[view['turn']]}…")
        status.set_class(view["turn"] == me and phase == "play", "my-turn")

    def _scores(self, view: dict[str, Any], names: list[str]) -> None:
        scores = self.query_one("#scores", DataTable)
        scores.clear(columns=True)
        scores.add_columns("round", *[Text(n) for n in names])
        for i, points in enumerate(view["history"], start=1):
            scores.add_row(str(i), *[str(p) for p in points])
        scores.add_row("total", *[
            f"{s} ✗" if out else str(s) for s, out in zip(view["scores"], view["out"],
                                                         strict=True)
        ])

    def _log_events(self, events: list[dict[str, Any]], names: list[str]) -> None:
        log = self.query_one("#log", RichLog)
        for event in events:
            line = describe_event(event, names, self.my_seat)
            if line:
                log.write(line, scroll_end=True)

    def _back_to_lobby(self) -> None:
        from tui.screens.lobby import LobbyScreen

        self.leaving = True
        self.app.switch_screen(LobbyScreen(self.session))

    # ---- acting --------------------------------------------------------------

    #: The view version our last move was made on; keys wait for a newer view.
    acted_on: int | None = None

    @property
    def legal(self) -> list[dict[str, Any]]:
        """Our legal actions in the latest update (none while our last move is on its way)."""
        update = self.update or {}
        view = update.get("view") or {}
        if self.acted_on is not None and view.get("version") == self.acted_on:
            return []
        return list(update.get("legal", []))

    def refused(self, method: str) -> None:
        """Our move was refused: the keys work again on the view we have."""
        if method == "act":
            self.acted_on = None

    def act(self, action: dict[str, Any]) -> None:
        """Send a move; further keys wait until the host has answered with a new view."""
        view = (self.update or {}).get("view") or {}
        self.acted_on = view.get("version")
        self.send("act", action)

    def action_select(self, delta: int) -> None:
        """Move the selection along the hand."""
        hand = self.query_one(HandWidget)
        if hand.cards:
            hand.selected = (hand.selected + delta) % len(hand.cards)

    def action_pick(self, number: int) -> None:
        """Select the card at position ``number`` (1-based)."""
        hand = self.query_one(HandWidget)
        if number <= len(hand.cards):
            hand.selected = number - 1

    def action_play(self) -> None:
        """Play the selected card."""
        card = self.query_one(HandWidget).current
        if card is not None:
            self.play(card)

    @on(CardWidget.Chosen)
    def card_clicked(self, event: CardWidget.Chosen) -> None:
        """A click on a card in the hand plays it."""
        hand = self.query_one(HandWidget)
        ids = [c["id"] for c in hand.cards]
        if event.card["id"] in ids:
            hand.selected = ids.index(event.card["id"])
            self.play(event.card)

    def play(self, card: dict[str, Any]) -> None:
        """Play ``card`` if that is legal; a GET OUT! card first asks for the image."""
        options = [a for a in self.legal if a["type"] == "play" and a["card"] == card["id"]]
        if not options:
            if not any(a["type"] == "play" for a in self.legal):
                self.notify("It is not your turn to play.", severity="warning")
            else:
                self.notify(f"{card_label(card)} does not match the call card.",
                            severity="warning")
            return
        if "image" not in options[0]:
            self.act(options[0])
            return
        choices = [(a["image"], image_label(a["image"])) for a in options]

        def chosen(image: str | None) -> None:
            if image is not None:
                self.act({"type": "play", "card": card["id"], "image": image})

        self.app.push_screen(ChoiceScreen("Name the image that must follow:", choices), chosen)

    def action_draw(self) -> None:
        """Draw a card (ends the turn)."""
        if {"type": "draw"} in self.legal:
            self.act({"type": "draw"})
        else:
            self.notify("You cannot draw now.", severity="warning")

    def action_to_lobby(self) -> None:
        """(Creator, once the game is over) take the table back to its lobby."""
        table = (self.update or {}).get("table") or {}
        if table.get("phase") != "over":
            self.notify("The table goes back to the lobby once the game is over.",
                        severity="warning")
        elif table.get("creator") != self.my_seat:
            self.notify("Only the table's creator can take it back to the lobby.",
                        severity="warning")
        else:
            self.send("to_lobby")

    def _away_seats(self) -> list[dict[str, Any]]:
        """Seats whose player lost the connection, if we may hand them to a bot."""
        table = (self.update or {}).get("table") or {}
        if table.get("phase") != "play" or table.get("creator") != self.my_seat:
            return []
        return [s for s in table.get("seats", [])
                if s["kind"] == "human" and not s["connected"]]

    def action_bot_for_away(self) -> None:
        """(Creator) let a bot play for a player who is gone, so the game goes on."""
        away = self._away_seats()
        if not away:
            return
        choices = [(str(s["seat"]), f"seat {s['seat'] + 1}: {s['name']}") for s in away]

        def chosen(seat: str | None) -> None:
            if seat is not None:
                self.send("add_bot", int(seat))

        self.app.push_screen(ChoiceScreen("Which seat should a bot take over?", choices), chosen)

    def action_next_round(self) -> None:
        """Deal the next round of the match."""
        if {"type": "next_round"} in self.legal:
            self.act({"type": "next_round"})


def describe_event(event: dict[str, Any], names: list[str], me: int | None) -> str | None:
    """One line of the move log for a public event."""

    def who(seat: int) -> str:
        return "You" if seat == me else names[seat]

    kind = event.get("type")
    if kind == "played":
        named = f", naming {image_label(event['image'])}" if "image" in event else ""
        return f"{who(event['seat'])} played {card_label(event['card'])}{named}"
    if kind == "drew":
        return f"{who(event['seat'])} drew a card"
    if kind == "passed":
        return f"{who(event['seat'])} passed: nothing left to draw"
    if kind == "recycled":
        return f"The played pile ({event['count']} cards) was turned over as the draw pile"
    if kind == "round_over":
        out = "".join(f"; {who(s)} passed the limit and is out" for s in event["out"])
        return f"Round {event['round']}: {who(event['winner'])} got out first{out}"
    if kind == "round_started":
        return f"Round {event['round']}: {names[event['dealer']]} deals"
    if kind == "game_over":
        return f"Game over: {', '.join(who(s) for s in event['winners'])} won"
    return None

"""The Get It! table: preparation, the silent round, the sand timer, the round summary.

You never see your own pile. Around the table sit the others, each with the big card
they show you and what they signal; under them, plainly, what everyone is doing to you
("3 of 4 look at you · all 3 smile at you"), and your own signals in one line.

Keys (each signal in at most two keystrokes; the footer shows only what works now):
a digit looks at that player (again: at nobody); ``s`` smiles at / ``x`` looks past the
player you look at (again: stop); ``0`` stops every signal; ``p`` peeks while you see a
mirror; ``t`` talks while you see the speech bubble; Space plays your top card (Enter
does not, so that the Enter of preparation cannot play a card); a click on a player
looks at them. Every signal at a player ends when that player plays (the host ends it):
it was about the card that is gone. Preparation: Tab picks a special card, ←/→ move it,
Enter confirms. Table chat (``/``) is off during a round: the game is silent.
"""

from __future__ import annotations

import time
from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Static

from tui.games.getit import records
from tui.games.getit.summary import round_summary
from tui.games.getit.text import (
    ToYou,
    card_text,
    describe_event,
    level_text,
    my_signals,
    signal_lines,
    to_you,
)
from tui.games.getit.widgets import PlayedRow, PrepRow, SandTimer, SeatCard
from tui.messages import ConnectionDropped
from tui.notices import Namer
from tui.screens.summary import SummaryScreen
from tui.screens.table import TableScreen
from tui.widgets.footer import FooterEntry
from tui.widgets.text import set_text

MAX_SEATS = 6
#: The signal kinds a key toggles, with the words for a hint.
AIMED = {"smile": "smile at", "look_past": "look past"}
#: From this terminal height, and this width per other player, numbers are drawn in
#: the block font (``SeatCard.big``) and the seats' row grows to hold them.
BIG_HEIGHT = 40
BIG_WIDTH = 24
TALK_OPEN = "say a line to everyone (Enter sends, Esc cancels)"
TALK_ENDED = "talk has ended: Enter or Esc closes this line (nothing more is sent)"
TALK_ENDED_NOTICE = ("Talk has ended (the speech bubble was played): Enter or Esc closes "
                     "your line; it is not sent.")
#: Seconds the round's keys wait after the talk line loses the keys without Enter or
#: Esc (the rest of a sentence must not play a card: a space is "play").
TALK_GUARD = 1.5
#: The round's keys that wait then (see ``talk_closed``).
GUARDED = frozenset({"play", "look", "aim", "stop_signals", "peek", "next_round"})
#: Seconds after talk was last possible that ``t`` still opens the line (one that says
#: talk is over): a player who pressed it a moment too late goes on typing, and the
#: rest of the sentence must not reach the round's keys (see ``on_key``).
LATE_TALK = 3.0
CARD_BACK = "╭──────╮\n│GET IT│\n│ back │\n╰──────╯"


class GetItScreen(TableScreen):
    """One seat's view of a Get It! table (or a spectator's)."""

    GAME = "getit"
    SUB_TITLE = "Get It!"
    BINDINGS = [
        Binding("space", "play", "Play"),
        Binding("enter", "done", "Done (pass the pile)"),
        Binding("tab", "next_special", "Next special"),
        Binding("left", "move(-1)", "Move", key_display="←/→"),
        Binding("right", "move(1)", "move ▶", show=False),
        # A long hand (Level X) scrolls: its two ends, as the help line says.
        Binding("home", "hand_end(1)", "Top of the hand", show=False),
        Binding("end", "hand_end(0)", "Bottom of the hand", show=False),
        Binding("1", "look(1)", "Look at", key_display="1-6",
                tooltip="Look at a player: their number (again: at nobody); a click "
                        "here looks at the next one"),
        *[Binding(str(i), f"look({i})", show=False) for i in range(2, MAX_SEATS + 1)],
        Binding("0", "stop_signals", "Stop all"),
        Binding("s", "aim('smile')", "Smile"),
        Binding("x", "aim('look_past')", "Look past"),
        Binding("p", "peek", "Peek"),
        Binding("t", "talk", "Talk", priority=True),  # (the words after it reach the line)
        Binding("n", "next_round", "Next round"),
    ]

    def __init__(self, session: Any) -> None:
        super().__init__(session)
        #: Our pile as we arrange it (top first) and the chosen special card's index.
        self.order: list[dict[str, Any]] = []
        self.selected: int | None = None
        self._dealt_round: Any = None
        #: Signals we sent that no view has shown yet (kind → target): keys stay quick.
        self.pending: dict[str, int | None] = {}
        #: Seats that talked since the speech bubble last showed (the "talk" signal).
        self.talkers: set[int] = set()
        #: The player closes the talk line now (Enter or Esc), see ``talk_closed``.
        self._closing_talk = False
        #: Until then (``time.monotonic``) the round's keys wait (``TALK_GUARD``).
        self.keys_wait_until = 0.0
        #: Until then (``time.monotonic``) a late ``t`` opens an ended line (``LATE_TALK``).
        self.talk_seen_until = 0.0
        #: The hand is too long for the preparation row (Home/End show its ends).
        self.hand_scrolls = False
        #: Our own top card as we saw it while peeking (kept until that card is played).
        self.peeked: dict[str, Any] | None = None
        self._phase: str | None = None
        #: What each Static of the round shows now (see ``_set``).
        self._shown_content: dict[str, str] = {}

    # ---- composing ---------------------------------------------------------------

    def compose_table(self) -> ComposeResult:
        with Horizontal(id="getit-top"):
            yield Static("", id="getit-status", markup=False)
            yield SandTimer(id="timer")
        with Vertical(id="getit-prep"):
            yield Static("", id="prep-help", markup=False)
            yield PrepRow(id="prep-row")
            yield Static("", id="prep-waiting", markup=False)
        with Vertical(id="getit-round"):
            yield Horizontal(id="getit-seats")
            with Horizontal(id="getit-me"):
                yield Static(CARD_BACK, id="my-back", markup=False)
                with Vertical(id="getit-me-text"):
                    yield Static("", id="to-you")
                    yield Static("", id="my-line", markup=False)
                    yield PlayedRow(id="played")
            yield Input(placeholder=TALK_OPEN, id="talk", max_length=200, compact=True)
        yield from self.compose_log()

    # ---- showing a view ------------------------------------------------------------

    def show(self, msg: dict[str, Any], view: dict[str, Any], legal: list[dict[str, Any]],
             names: list[str]) -> None:
        """Show the new view: preparation, or the round, and the top line."""
        phase = view.get("phase")
        self._follow_events(msg.get("events") or [], phase)
        namer = Namer(names, self.my_seat)
        self._top_line(msg, view)
        preparing = phase == "prepare"
        self.query_one("#getit-prep").display = preparing
        self.query_one("#getit-round").display = not preparing
        if preparing:
            self._show_prep(view, namer)
        else:
            self._show_round(view, namer)
        self._phase = phase

    def _follow_events(self, events: list[dict[str, Any]], phase: Any) -> None:
        played: set[int] = set()
        for event in events:
            kind = event.get("type")
            if kind == "said" and isinstance(event.get("seat"), int):
                self.talkers.add(event["seat"])
            elif kind in ("talk_ended", "dealt", "round_started"):
                self.talkers.clear()
            if kind == "played" and isinstance(event.get("seat"), int):
                played.add(event["seat"])
                if event["seat"] == self.my_seat:
                    self.peeked = None  # that was the card we had peeked at
            if kind == "signals_ended":
                self._host_ended(event)
            if kind in ("dealt", "round_started"):
                self.peeked = None
            if kind == "game_over":
                self._keep_record(event)
        if phase != "play":
            self.pending.clear()
        elif played:
            self._end_signals_at(played)

    def _host_ended(self, event: dict[str, Any]) -> None:
        """The host ended our signal at a player who played: if no view had shown it yet
        (it came in the same update as the play), it is not on its way any more."""
        for ended in event.get("signals") or []:
            if not isinstance(ended, dict) or ended.get("seat") != self.my_seat:
                continue
            kind = ended.get("signal")
            if kind in self.pending and self.pending[kind] == event.get("target"):
                del self.pending[kind]

    def _end_signals_at(self, seats: set[int]) -> None:
        """The host ends every signal at a player who plays: it was about the card that
        is gone (press the number again to look at the next one). One of ours sent before
        we saw the play lands after it and would stay on, about the next card though we
        meant the old one: it ends too, once it lands (the stop goes after it on the same
        line), or at once if this update shows it landed after the play."""
        for kind in ("look", "smile", "look_past"):
            target = self._my_signal(kind)
            on_its_way = kind in self.pending and self.pending[kind] == target
            if target in seats and (on_its_way or {"type": kind, "target": None} in self.legal):
                self.pending[kind] = None
                self.act({"type": kind, "target": None}, wait=False)

    def _keep_record(self, result: dict[str, Any]) -> None:
        """A cleared Level X round that beats our record is saved on disk."""
        if result.get("level") != "X" or not result.get("won"):
            return
        if not (self.table.get("options") or {}).get("timer"):
            return  # an untimed round is practice: it sets no record
        seats, cards = result.get("seats"), result.get("cards")
        if not isinstance(seats, int) or not isinstance(cards, int):
            return
        try:
            if records.save(seats, cards):
                self.notify(f"New record for {seats} players: {cards} cards!", timeout=6)
        except OSError as exc:
            self.notify(f"Could not save the record: {exc}", severity="warning",
                        markup=False)

    def _top_line(self, msg: dict[str, Any], view: dict[str, Any]) -> None:
        piles = view.get("piles") or []
        left = sum(int(p.get("count", 0)) for p in piles if isinstance(p, dict))
        total = int(view.get("cards") or 0)
        parts = [level_text(view.get("level"))]
        if view.get("level") != "X":
            parts.append(f"attempt {view.get('attempt')} of {view.get('attempts')}")
        if view.get("phase") == "prepare":
            parts.append(f"{total} cards dealt")
        else:
            parts.append(f"{left} of {total} cards left")
        if view.get("level") == "X":
            best = (msg.get("table") or {}).get("options", {}).get("best")
            parts.append(f"record {best} cards" if best else "no record yet")
        if not view.get("timer"):
            parts.append("untimed practice")
        set_text(self.query_one("#getit-status", Static), " · ".join(parts))
        timer = self.query_one(SandTimer)
        remaining = view.get("remaining")
        timer.total = float(view.get("timer") or 60)
        timer.paused = bool((msg.get("table") or {}).get("paused"))
        timer.why_paused = "paused"
        timer.remaining = (float(remaining) if view.get("phase") == "play"
                           and isinstance(remaining, int | float) else None)

    # ---- preparation ------------------------------------------------------------

    def _show_prep(self, view: dict[str, Any], namer: Namer) -> None:
        me = self.my_seat
        arranged = list(view.get("arranged") or [])
        # "you", as the rest of the table says it (it said the login name).
        waiting = [namer.name(s) if s != me else "you"
                   for s, done in enumerate(arranged) if not done]
        help_line = self.query_one("#prep-help", Static)
        row = self.query_one(PrepRow)
        if me is None:
            help_line.update("The players are arranging their piles.")
            row.display = False
        elif not arranged[me]:
            if self._dealt_round != view.get("round"):
                self._dealt_round = view.get("round")
                self.order = [c for c in view.get("hand") or [] if isinstance(c, dict)]
                self.selected = self._specials()[0] if self._specials() else None
            specials = "Tab picks a special card, ←/→ move it (never on top); " \
                if self._specials() else ""
            # (Only while the hand is too long for the row: its ends are a key away.)
            ends = "Home/End show the pile's top/bottom; " if self.hand_scrolls else ""
            help_line.update(f"Arrange your pile — the lowest number is on top. {specials}"
                             f"{ends}Enter: done. Then your pile goes to "
                             f"{namer.name((me + 1) % len(arranged))}.")
            row.display = True
            row.cards = list(self.order)
            row.selected = self.selected
        else:
            nxt = namer.name((me + 1) % len(arranged))
            help_line.update(f"Done: your pile goes to {nxt} when everyone is ready.")
            row.display = False
        self.query_one("#prep-waiting", Static).update(
            "Still arranging: " + ", ".join(waiting) if waiting else "Everyone is ready.")

    def _specials(self) -> list[int]:
        return [i for i, c in enumerate(self.order) if c.get("kind") != "number"]

    def action_next_special(self) -> None:
        """Pick the next special card of the hand."""
        specials = self._specials()
        if not specials:
            return
        later = [i for i in specials if self.selected is None or i > self.selected]
        self.selected = later[0] if later else specials[0]
        row = self.query_one(PrepRow)
        row.selected = self.selected
        row.show_chosen()

    @on(PrepRow.Scrolls)
    def hand_scrolls_now(self, event: PrepRow.Scrolls) -> None:
        """The hand became too long for the row, or fits again: say Home/End or not."""
        self.hand_scrolls = event.scrolls
        view = (self.update or {}).get("view")
        if isinstance(view, dict) and view.get("phase") == "prepare":
            self._show_prep(view, Namer(self.names, self.my_seat))

    def action_hand_end(self, top: int) -> None:
        """Scroll a long hand to its top (1) or its bottom (0) in preparation."""
        self.query_one(PrepRow).show_end(top=bool(top))

    def action_move(self, delta: int) -> None:
        """Move the chosen special card one place up (-1) or down (+1), never on top."""
        i = self.selected
        if i is None:
            return
        j = i + delta
        if not 1 <= j < len(self.order):
            return
        self.order[i], self.order[j] = self.order[j], self.order[i]
        self.order = self._fixed_numbers(self.order)
        self.selected = j
        row = self.query_one(PrepRow)
        row.cards = list(self.order)
        row.selected = j

    @staticmethod
    def _fixed_numbers(order: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Keep the number cards ascending in their places; the specials stay put."""
        numbers = iter(sorted((c for c in order if c.get("kind") == "number"),
                              key=lambda c: (c.get("value"), c.get("id"))))
        return [c if c.get("kind") != "number" else next(numbers) for c in order]

    @on(PrepRow.CardClicked)
    def prep_clicked(self, event: PrepRow.CardClicked) -> None:
        """Click a special card to pick it; click another place to move it there."""
        index = event.index
        if index < len(self.order) and self.order[index].get("kind") != "number":
            self.selected = index
            self.query_one(PrepRow).selected = index
            return
        if self.selected is None or index == 0:
            return
        card = self.order.pop(self.selected)
        self.order.insert(index, card)
        self.order = self._fixed_numbers(self.order)
        self.selected = index
        row = self.query_one(PrepRow)
        row.cards = list(self.order)
        row.selected = index

    def action_done(self) -> None:
        """Confirm the pile's order (it passes to the left once everyone is done)."""
        if not self.can("arrange"):
            return
        self.act({"type": "arrange", "pile": [c["id"] for c in self.order]})

    # ---- the round --------------------------------------------------------------

    def _signals(self, view: dict[str, Any]) -> list[dict[str, Any]]:
        """Every seat's signals, ours with what we sent but no view has shown yet; none
        outside a round (what was signalled was about cards that are gone)."""
        if view.get("phase") != "play":
            return [{} for _ in view.get("signals") or []]
        signals = [dict(s) if isinstance(s, dict) else {} for s in view.get("signals") or []]
        me = self.my_seat
        if me is not None and me < len(signals):
            for kind, target in list(self.pending.items()):
                if signals[me].get(kind) == target:
                    del self.pending[kind]  # the host has it
                else:
                    signals[me][kind] = target
        return signals

    def _set(self, selector: str, content: Any) -> None:
        """Update a Static only when what it shows changes (an update repaints it)."""
        key = repr(content)
        if self._shown_content.get(selector) != key:
            self._shown_content[selector] = key
            set_text(self.query_one(selector, Static), content)

    def _show_round(self, view: dict[str, Any], namer: Namer) -> None:
        me = self.my_seat
        piles = [p if isinstance(p, dict) else {} for p in view.get("piles") or []]
        signals = self._signals(view)
        seats = len(piles)
        order = [(me + k) % seats for k in range(1, seats)] if me is not None else list(
            range(seats))
        box = self.query_one("#getit-seats", Horizontal)
        cards = {c.seat: c for c in box.query(SeatCard)}
        if sorted(cards) != sorted(order):
            box.remove_children()
            cards = {s: SeatCard(s, id=f"seat-{s}") for s in order}
            box.mount_all(cards[s] for s in order)
        self._size_seats(len(order))
        said = {}
        for line in view.get("said") or []:
            # Only what was said since the bubble showed: once it is played, talk is over.
            if (isinstance(line, dict) and isinstance(line.get("seat"), int)
                    and line["seat"] in self.talkers):
                said[line["seat"]] = str(line.get("text"))
        mine = signals[me] if me is not None and me < len(signals) else {}
        for seat in order:
            signal = signals[seat] if seat < len(signals) else {}
            cards[seat].show(
                name=namer.name(seat), top=piles[seat].get("top"),
                count=int(piles[seat].get("count", 0)),
                lines=signal_lines(signal, namer, me), said=said.get(seat),
                looked_at=mine.get("look") == seat,
                at_me=me is not None and me in (signal.get("look"), signal.get("smile"),
                                                signal.get("look_past")),
            )
        self.query_one("#getit-me").display = me is not None
        talk = self.query_one("#talk", Input)
        if self.can("say"):
            talk.display, talk.disabled, talk.placeholder = True, False, TALK_OPEN
            self.talk_seen_until = time.monotonic() + LATE_TALK
        elif self.focused is talk:
            # Talk ended while the line was being typed. The line stays where the keys
            # go, so the rest of what is typed never reaches the table's keys (a space
            # would play a card); Enter or Esc closes it, and nothing more is sent.
            if talk.placeholder != TALK_ENDED:
                talk.placeholder = TALK_ENDED
                self.notify(TALK_ENDED_NOTICE, severity="warning", timeout=4)
        else:
            # Hidden and disabled: Textual gives the focus back to the widget that had
            # it when the terminal regains the focus, hidden or not.
            talk.display, talk.disabled = False, True
        self.query_one(PlayedRow).show(list(view.get("played") or []))
        if me is None:
            return
        view_with_pending = {**view, "signals": signals}
        self._set("#to-you", to_you_text(to_you(view_with_pending, self.talkers)))
        mine_count = int(piles[me].get("count", 0)) if me < len(piles) else 0
        peek = view.get("peek")
        you = f"you ({me + 1}): {my_signals(view_with_pending, namer)} · "
        you += f"{mine_count} left in your pile" if mine_count else "your pile is empty"
        self._set("#my-line", you)
        if isinstance(peek, dict):
            self.peeked = dict(peek)
        if isinstance(peek, dict):
            self._set("#my-back", f"╭──────╮\n│ peek │\n│{card_text(peek):^6}│\n╰──────╯")
        elif self.peeked is not None and mine_count:
            # The peek ended (the mirror was played), but we saw the card: it stays ours.
            self._set("#my-back",
                      f"╭──────╮\n│ saw  │\n│{card_text(self.peeked):^6}│\n╰──────╯")
        elif mine_count:
            self._set("#my-back", CARD_BACK)
        else:
            self._set("#my-back", "╭──────╮\n│ no   │\n│ cards│\n╰──────╯")

    # ---- keys ----------------------------------------------------------------------

    def on_resize(self) -> None:
        """A terminal with room for it shows the others' numbers in the block font."""
        self._size_seats(len(self.query(SeatCard)))

    def _size_seats(self, others: int) -> None:
        width, height = self.size
        big = others > 0 and height >= BIG_HEIGHT and width // others >= BIG_WIDTH
        self.query_one("#getit-seats").set_class(big, "-big")
        for card in self.query(SeatCard):
            card.set_big(big)

    @on(ConnectionDropped)
    def hold_the_timer(self) -> None:
        """With the host out of reach, the round's time stands still on screen (a host
        that went down holds the round until its players are back); the next update
        from the host sets it right."""
        self.query_one(SandTimer).hold("paused: the host is out of reach")

    def intent_holds(self, action: dict[str, Any]) -> bool:
        """A stop that reached the host after the player it was aimed at played: the
        play ended that signal already (RULES.md), so the stop is refused, and there
        is nothing to say: the signal is off, as the player wanted."""
        kind = action.get("type")
        return (kind in ("look", "smile", "look_past") and action.get("target") is None
                and self._my_signal(str(kind)) is None)

    def _my_signal(self, kind: str) -> int | None:
        signals = self._signals(self.view)
        me = self.my_seat
        if me is None or me >= len(signals):
            return None
        target = signals[me].get(kind)
        return target if isinstance(target, int) else None

    def _signal(self, kind: str, target: int | None) -> None:
        action = {"type": kind, "target": target}
        if action not in self.legal:
            return
        self.pending[kind] = target
        self.act(action, wait=False)
        self._redraw()

    def _redraw(self) -> None:
        if self.update is not None and self.view:
            self._show_round(self.view, Namer(self.names, self.my_seat))
            self.refresh_bindings()

    def action_stop_signals(self) -> None:
        """Look at nobody, and stop smiling and looking past."""
        for kind in ("look", "smile", "look_past"):
            if self._my_signal(kind) is not None:
                self._signal(kind, None)

    def key_display(self, binding: Binding) -> str | None:
        """The look keys show the numbers of the other players here ("2-4", "1 3-4")."""
        if binding.action != "look(1)":
            return None
        seats = len(self.view.get("piles") or [])
        others = [n for n in range(1, seats + 1) if n - 1 != self.my_seat]
        return number_ranges(others) or None

    def footer_clicked(self, entry: FooterEntry) -> bool:
        """A click on the footer's "look at" (it stands for every player's number): look
        at the next player after the one we look at now (after the last: at nobody)."""
        if entry.name != "look":
            return False
        seats = len(self.view.get("piles") or [])
        others = [seat for seat in range(seats) if seat != self.my_seat]
        looked = self._my_signal("look")
        later = [seat for seat in others if looked is None or seat > looked]
        if later:
            self.action_look(later[0] + 1)
        elif looked is not None:
            self.action_look(looked + 1)  # again: at nobody
        return True

    def action_look(self, number: int) -> None:
        """Look at player ``number`` (as players count); again looks at nobody."""
        seats = len(self.view.get("piles") or [])
        target = None if number == 0 else number - 1
        if target is not None and (target >= seats or target == self.my_seat):
            return
        if target is not None and self._my_signal("look") == target:
            target = None
        self._signal("look", target)

    @on(SeatCard.Chosen)
    def seat_clicked(self, event: SeatCard.Chosen) -> None:
        """A click on a player looks at them (again: at nobody)."""
        if self.check_game_action("look", ()) is True:
            self.action_look(event.seat + 1)

    def action_aim(self, kind: str) -> None:
        """Smile at / look past the player we look at (again: stop)."""
        looked = self._my_signal("look")
        if looked is None:
            self.notify(f"Look at someone first (their number), then {AIMED[kind]} them.",
                        severity="warning", timeout=2)
            return
        self._signal(kind, None if self._my_signal(kind) == looked else looked)

    def action_peek(self) -> None:
        """Peek at your own card while a mirror shows (again: stop)."""
        for action in self.legal:
            if action.get("type") == "peek":
                self.act(action, wait=False)
                return

    def action_talk(self) -> None:
        """Open the talk line (only while you see the speech bubble)."""
        if self.can("say"):
            self._open_talk()

    def _open_talk(self) -> Input:
        talk = self.query_one("#talk", Input)
        talk.display, talk.disabled = True, False
        self.set_focus(talk)  # now, not later: the words typed after the key are its
        return talk

    def on_key(self, event: events.Key) -> None:
        """``t`` a moment after talk ended (the bubble was just played) still opens the
        line, saying talk is over: what the player goes on typing stays there (a space
        would play their card) until Enter or Esc closes it, unsent. The key is dimmed
        then, and Textual would run nothing."""
        if (event.key == "t" and self.focused is None and not self.can("say")
                and time.monotonic() < self.talk_seen_until):
            event.stop()
            self._open_talk().placeholder = TALK_ENDED
            self.notify(TALK_ENDED_NOTICE, severity="warning", timeout=4)

    @on(Input.Submitted, "#talk")
    def talk(self, event: Input.Submitted) -> None:
        """Say the line to everyone, then give the keys back to the table."""
        text = event.value.strip()
        if text and self.can("say"):
            self.act({"type": "say", "text": text}, wait=False)
        elif text:
            self.notify("Talk has ended: your line was not sent.", timeout=3)
        event.input.value = ""
        self._closing_talk = True
        self.set_focus(None)

    def action_leave(self) -> None:
        """Esc in the talk line closes it (as in any text line)."""
        if self.focused is self.query_one("#talk", Input):
            self._closing_talk = True
        super().action_leave()

    @on(Input.Blurred, "#talk")
    def talk_closed(self, event: Input.Blurred) -> None:
        """A line left while talk is over goes away (what was typed with it).

        A line that loses the keys without Enter or Esc (the terminal lost the focus, or
        anything else took it) holds the round's keys back a moment: the rest of what
        was being typed must not reach them (a space plays the card).
        """
        by_player, self._closing_talk = self._closing_talk, False
        if not by_player:
            self.keys_wait_until = time.monotonic() + TALK_GUARD
            self.set_timer(TALK_GUARD, self.refresh_bindings)
            self.refresh_bindings()
            self.notify("Your talk line lost the keys: the table's keys wait a moment.",
                        severity="warning", timeout=3)
        if not self.can("say"):
            event.input.value = ""
            event.input.display, event.input.disabled = False, True

    def action_play(self) -> None:
        """Play your top card (keys wait for the host's answer: no double play)."""
        if self.can("play"):
            self.act({"type": "play"})

    def action_next_round(self) -> None:
        """Deal the next round."""
        if {"type": "next_round"} in self.legal:
            self.act({"type": "next_round"})

    def refused(self, method: str) -> None:
        """A refused move: the keys work again, and our unconfirmed signals are dropped."""
        super().refused(method)
        if method == "act":
            self.pending.clear()

    def check_game_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Exactly the keys that work now."""
        phase = self.view.get("phase")
        me = self.my_seat
        if me is None:
            return False
        if action in GUARDED and time.monotonic() < self.keys_wait_until:
            return False  # the talk line just lost the keys (``talk_closed``)
        if action in ("next_special", "move"):
            return self.can("arrange") and bool(self._specials())
        if action in ("done", "hand_end"):
            return self.can("arrange")
        if action == "play":
            return self.can("play") or (None if phase == "play" else False)
        if action == "look":
            # "1" is the key the footer shows for all of them; the others work only
            # for a player at this table.
            number = parameters[0] if parameters else 1
            seats = len(self.view.get("piles") or [])
            return phase == "play" and (number == 1 or (
                isinstance(number, int) and 0 < number <= seats and number - 1 != me))
        if action == "stop_signals":
            # Dimmed while we signal nothing: it works once we do.
            if phase != "play":
                return False
            return any(self._my_signal(kind) is not None
                       for kind in ("look", "smile", "look_past")) or None
        if action == "aim":
            # All round; before we look at someone the key says to (whom it is aimed at),
            # rather than doing nothing (a play test found a dimmed key mute).
            return phase == "play"
        if action == "peek":
            return self.can("peek")
        if action == "talk":
            return self.can("say")
        if action == "next_round":
            return {"type": "next_round"} in self.legal
        return True

    # ---- what every table asks of a game ------------------------------------------

    def chat_open(self) -> bool:
        """The game is silent: table chat is off while a round is played."""
        return self.view.get("phase") != "play"

    def describe_event(self, event: dict[str, Any], namer: Namer) -> str | None:
        """One line of the log for one of this game's events."""
        return describe_event(event, namer)

    def summary(self, msg: dict[str, Any], names: list[str]) -> SummaryScreen | None:
        """The summary, when this update ended a round."""
        if not any(e.get("type") == "round_over" for e in msg.get("events") or []):
            return None
        return round_summary(msg["view"], names, self.my_seat,
                             can_deal={"type": "next_round"} in (msg.get("legal") or []),
                             can_lobby=self.is_creator)

    def summary_over(self, msg: dict[str, Any]) -> bool:
        """A new round was dealt."""
        return bool(msg["view"].get("phase") in ("prepare", "play"))

    def summary_answered(self, answer: str | None) -> None:
        """Deal the next round, or go back to the lobby."""
        if answer == "next":
            self.action_next_round()
        else:
            super().summary_answered(answer)


def to_you_text(facts: ToYou) -> Text:
    """TO YOU: the facts, with anything everyone does to you made to jump out."""
    text = Text("TO YOU  ", style="bold")
    for i, (words, all_of_them) in enumerate(facts.parts()):
        if i:
            text.append(" · ")
        if all_of_them:
            text.append(f"★ {words.upper()} ★", style="bold reverse")
        else:
            text.append(words)
    return text


def number_ranges(numbers: list[int]) -> str:
    """Ascending whole numbers as runs: ``[1, 3, 4]`` → ``"1 3-4"``, ``[2, 3, 4]`` → ``"2-4"``."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return " ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)

"""The creator's powers at a table in play: taking the table back to its lobby (after
the game, or ending it to switch games) and handing an away player's seat to a bot; and
what every player's table says of the people away (the wait for their bot, a paused
round's keys).

:class:`TableCreatorScreen` sits between :class:`~tui.screens.solo_finish.SoloFinishScreen`
and :class:`~tui.screens.table_summary.TableSummaryScreen` (then
:class:`~tui.screens.table.TableScreen`, which decides when these keys show).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any, ClassVar

from textual.binding import Binding
from textual.timer import Timer

from engine.core import away_bot_option
from tui.notices import kept_for, seat_names
from tui.screens.solo_finish import SoloFinishScreen

#: The actions of every table's own keys (``TableScreen.check_action`` answers them).
TABLE_ACTIONS = {"chat", "bot_for_away", "finish", "summary_again", "leave", "to_lobby", "rules"}
#: The ``away_bot`` settings that hand an away person's seat to a bot, in time.
AWAY_AFTER = tuple(c for c in away_bot_option().choices if c != "off")


def away_seconds(after: str) -> float:
    """An ``away_bot`` setting in seconds ("30s": 30, "2m": 120)."""
    number, unit = after[:-1], after[-1:]
    return float(number) * (60 if unit == "m" else 1) if number.isdigit() else 0.0


def clock_words(seconds: float) -> str:
    """A wait in words: "22 s", "1:47"."""
    whole = int(seconds)
    return f"{whole} s" if whole < 60 else f"{whole // 60}:{whole % 60:02d}"


def _game_keys(screen: type[TableCreatorScreen]) -> frozenset[str]:
    """The keys of a table screen's game (its own bindings, not every table's)."""
    kept = TABLE_ACTIONS | screen.PAUSE_KEEPS
    return frozenset(key.strip() for b in screen.BINDINGS if isinstance(b, Binding)
                     and b.action.partition("(")[0] not in kept for key in b.key.split(","))


def bot_words(left: float) -> str:
    """When the away bot comes, ``left`` seconds from now: "in 22 s", "any moment"."""
    return f"in {clock_words(left)}" if left >= 1 else "any moment"


class TableCreatorScreen(SoloFinishScreen):
    """A table screen's part for what only the table's creator may do (see the module)."""

    #: The game's actions that send the host nothing (a cursor's), working while the
    #: game is paused (:meth:`paused_for`).
    PAUSE_KEEPS: ClassVar[frozenset[str]] = frozenset()

    def action_to_lobby(self, from_summary: bool = False) -> None:
        """(Creator) take the table back to its lobby: after the game at once; during it
        (to switch games without finishing a match) once the creator confirms, as it
        ends the game for everyone."""
        if not self.is_creator:
            self.notify("Only the table's creator can take it back to the lobby.",
                        severity="warning")
        elif self.table.get("phase") == "play":
            # Loaded when a dialog first opens, not before the table's first frame.
            from tui.screens.dialogs import ConfirmScreen

            def answered(yes: bool | None) -> None:
                if yes and self.table.get("phase") == "play":
                    self.send("to_lobby")
                elif from_summary and callable(again := getattr(self, "action_summary_again",
                                                                 None)):
                    again()  # "Play on": back to the summary it was asked from

            seats = self.table.get("seats")
            others = any(isinstance(s, dict) and s.get("kind") == "human"
                         and i != self.my_seat
                         for i, s in enumerate(seats if isinstance(seats, list) else []))
            # ("The game so far is lost" read, in a team game, as "you lost".)
            # (What a person played: a game left before anyone moved is kept nowhere, and
            # "keeps it as it stands" promised a record that never came; so did "Past games
            # keeps what was played" of one only the bots had moved in.)
            hosting = self.app.hosting
            kept = ("its host keeps what was played" if not hosting.hosts(self.session)
                    else "Past games keeps what was played" if hosting.keeps_game(self.session)
                    else ("no one has moved in it" if others else "you have not moved in it")
                    + ": Past games will not list it")
            question = ("End this game for everyone and take the table back to the lobby? "
                        f"It stops here, unfinished ({kept}); everyone at the table is told."
                        if others else "End this game and take the table back to the lobby? "
                        f"It stops here, unfinished ({kept}).")
            self.app.push_screen(ConfirmScreen(question, yes="End the game", no="Play on",
                                               careful=True), answered)
        else:
            self.send("to_lobby")

    def action_rematch(self) -> None:
        """(Creator, the game over) the same game again with the same seats and a new
        deal: it starts once the others are ready (``net.lobby.rematch``)."""
        if self.is_creator and self.table.get("phase") == "over":
            self.send("rematch")

    def paused_for(self) -> str | None:
        """Whom the game waits for while it is paused (resumed, or a person away in a
        Get It! round), when the host takes no move: the footer offered every game key
        then, and each was refused. ``None``: not paused."""
        if not self.table.get("paused") or self.table.get("phase") != "play":
            return None
        names = seat_names(self.table)
        return ", ".join(names[s] for s in sorted(self.people_away()) if s < len(names)) \
            or "a player"

    def held_by_pause(self, key: str) -> bool:
        """A key of the game's own pressed while it is paused, or while the host is out
        of reach: it says why it does nothing (its binding is hidden, so it did nothing
        silently, or a game's own words told a wrong reason: "Ann's pile is empty")."""
        if key not in _game_keys(type(self)):
            return False
        if self.cut_off:
            if self.gone:
                # (Not "the host closed it": a seat taken back by another login is gone too.)
                self.warn("Nothing more is played here (the banner says why): Esc takes you "
                          "back to the menu.", "Nothing more is played here: Esc for the menu.")
            else:
                self.warn("The host is out of reach: no move goes until it is back "
                          "(reconnecting…).", "The host is out of reach: reconnecting…")
            return True
        if (whom := self.paused_for()) is None:
            return False
        self.warn(f"The game is paused until everyone is back: waiting for {whom}.",
                  f"Paused: waiting for {whom}.")
        return True

    def people_away(self) -> set[int]:
        """The seats whose person lost the connection (a table marks them [away])."""
        return {s["seat"] for s in _seats(self.table.get("seats"))
                if s.get("kind") == "human" and not s.get("connected", True)
                and isinstance(s.get("seat"), int)}

    def stand_ins(self) -> dict[int, str]:
        """The seats a bot keeps for an away person, and whose (``for``)."""
        return dict(kept_for(self.table))

    def people_here(self) -> list[dict[str, Any]]:
        """The seats of the other people connected at the table (not bots, not ours)."""
        return [s for s in _seats(self.table.get("seats")) if s.get("kind") == "human"
                and s.get("connected") and s["seat"] != self.my_seat]

    def others_here(self) -> bool:
        """Whether another person is connected at the table (not only bots)."""
        return bool(self.people_here())

    def waiting_to_deal(self, out: Any = None) -> str:
        """Whom the end of a round waits for, to deal the next: the people at the table
        who may ("Waiting for a player to deal" left Bob, out of the match, asking whose
        move it was); ``out`` is the view's flag a seat for those out of the match."""
        names, out = seat_names(self.table), out if isinstance(out, list) else []
        who = [names[s["seat"]] for s in self.people_here() if s["seat"] < len(names)
               and not (s["seat"] < len(out) and out[s["seat"]] is True)]
        if not who and self.app.hosting.plays_solo(self.session):
            return "The bots start the next round…"  # (we are out: "a player" was none)
        whom = " or ".join(who) if 0 < len(who) <= 3 else "a player"
        return f"Waiting for {whom} to start the next round…"

    def away_words(self, seat: int, short: bool = False) -> str:
        """What a line that waits for ``seat`` adds when its person is away: the
        players' list said [away], the line only "Waiting for Bea…". ``short``: in
        fewer words, for a line too narrow for them all (at 100 columns a long name
        cut off the key that hands the seat to a bot)."""
        if seat not in self.people_away():
            return ""
        # (A table with an away bot: the line said only that the seat waited; then it
        # said "after 30s away" for all of the 30 s: it counts down.)
        left = self.away_left(seat)
        later = "" if left is None else f"a bot plays for them {bot_words(left)}"
        # (The short words count down too: at 80 columns a Got Five! line said only
        # "b lets a bot play", and one waiting on Bob could not tell how long.)
        soon = "" if left is None else f"a bot {bot_words(left)}"
        if any(s.get("seat") == seat for s in self.away_seats()):
            if short:
                return f" (away: {soon}, b now)" if soon else " (away: b lets a bot play)"
            return f" (away: {later}; b lets one now)" if later else \
                " (away: b lets a bot play for them)"
        if short:
            return f" (away: {soon})" if soon else " (away)"
        return f" (away: {later})" if later else " (away: the seat waits for them)"

    def away_left(self, seat: int) -> float | None:
        """Seconds until a bot plays for the person away from ``seat``, counted from
        when this app saw them go (``None``: they are not away, or no bot will); while
        one counts down, the status is drawn again each second (:meth:`redraw_status`)."""
        away = self.people_away()
        if self._gone_at is None:
            self._gone_at = {}
        gone = self._gone_at
        for back in [s for s in gone if s not in away]:
            del gone[back]
        after = (self.table.get("options") or {}).get("away_bot")
        if seat not in away or after not in AWAY_AFTER:
            return None
        since = gone.setdefault(seat, time.monotonic())
        if self._away_ticks is None:
            self._away_ticks = self.set_interval(1.0, self._away_tick)
        return since + away_seconds(str(after)) - time.monotonic()

    def bots_coming(self) -> dict[int, str]:
        """Each person away, with when a bot comes for them ("a bot in 1:47"; "": none)."""
        return {seat: f"a bot {bot_words(left)}" if (left := self.away_left(seat)) is not None
                else "" for seat in self.people_away()}

    def bot_coming(self) -> str | None:
        """When a bot comes for the first of the people away ("a bot in 22 s"), if one
        will (Get It!'s paused timer says it)."""
        lefts = [left for seat in self.people_away()
                 if (left := self.away_left(seat)) is not None]
        return f"a bot {bot_words(min(lefts))}" if lefts else None

    #: When this app saw each away person go (``time.monotonic``), and the timer that
    #: draws the line again each second while one is (nothing wakes otherwise).
    _gone_at: dict[int, float] | None = None
    _away_ticks: Timer | None = None

    def redraw_status(self) -> None:
        """Draw the game's status line again: the connection changed, or the wait for
        an away bot (override)."""

    def _away_tick(self) -> None:
        if not self.people_away() and self._away_ticks is not None:
            self._away_ticks.stop()
            self._away_ticks = None
            self._gone_at = None
        self.redraw_status()

    def away_seats(self) -> list[dict[str, Any]]:
        """Seats whose player lost the connection, if we may hand them to a bot (not
        while our own connection is down: the table we last saw is not the host's)."""
        if self.table.get("phase") != "play" or not self.is_creator or self.cut_off:
            return []
        return [s for s in _seats(self.table.get("seats"))
                if s.get("kind") == "human" and not s.get("connected")]

    def action_bot_for_away(self) -> None:
        """(Creator) let a bot play for a player who is gone, so the game goes on."""
        # Loaded when a dialog first opens, not before the table's first frame.
        from tui.screens.dialogs import ChoiceScreen

        away = self.away_seats()
        if not away:
            return
        choices = [(str(s["seat"]), f"seat {s['seat'] + 1}: {s.get('name')}") for s in away]

        def chosen(seat: str | None) -> None:
            if seat is not None:
                self.send("add_bot", int(seat))

        self.app.push_screen(ChoiceScreen("Which seat should a bot take over?", choices), chosen)


def _seats(value: Any) -> Iterable[dict[str, Any]]:
    if not isinstance(value, list):
        return []
    return [s for s in value if isinstance(s, dict) and isinstance(s.get("seat"), int)]

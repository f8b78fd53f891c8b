"""A table's bot seats: when they look at the game next and which of them moves.

Each bot sees only its own seat's view and legal actions, with time as seconds left (as
a client's would come over the wire). One bot moves per look, the bots taking turns;
after a turn-based bot's move the others rest ``bot_delay`` (people can follow), after a
real-time bot's (Get It!) they look again at once, and when no bot moved they look again
at the earliest engine time a real-time bot asked for, or at the table's next change.

A bot that thinks long (GET OUT!'s strong bot: tens of milliseconds a move) thinks in
slices of :data:`THINK_SLICE` moves of its playouts (a few milliseconds; counted, not
timed: a table reads no clock): its ``think`` yields now and then how much it did, and
between slices the bots look again at once, after whatever else the host has waiting
(every other table, every peer). So one table's bot holds up nobody else for more than a
slice.
"""

from __future__ import annotations

import logging
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from net.fanout import Outbox, wire_time
from net.seats import RequestError

if TYPE_CHECKING:
    from net.table import Table

log = logging.getLogger("hiddenhand.host")

#: How much a bot thinks at a time before the host gets on with its other work: moves
#: of GET OUT!'s playouts (a playout's length varies with the seats and the round, its
#: moves less so): about 2 ms a slice, under 5 ms nearly always, at two or four seats.
THINK_SLICE = 3000


class BotSeats:
    """The pacing of one table's bots (host-clock times)."""

    __slots__ = ("at", "due", "rest", "thought", "turn")

    def __init__(self) -> None:
        #: When the bots look next (``None``: at the next change), and the engine time
        #: a real-time bot asked for, if that is why.
        self.due: float | None = None
        self.at: float | None = None
        #: Before this, no paced bot may move again.
        self.rest = float("-inf")
        #: The bot whose turn it is to look first.
        self.turn = 0
        #: A bot's thinking under way: its seat, the game's version it thinks about, and
        #: its ``think`` generator.
        self.thought: tuple[int, int, Generator[int, None, Any]] | None = None

    def wake(self, now: float) -> None:
        """Look at the new state now, or once a paced bot's rest is over."""
        self.due, self.at = max(now, self.rest), None

    def move(self, table: Table, out: Outbox, now: float) -> None:
        """Let the first bot in turn with something to do move (adding what it changed
        to ``out``), and set when the bots look next."""
        game = table.game
        assert game is not None
        bots = [i for i, s in enumerate(table.seats) if s.kind == "bot" and s.bot]
        # Between rounds the people at the table decide when to go on: a bot that
        # dealt at once would snatch the round's summary from under their eyes.
        people = any(
            s.kind == "human" and s.conn is not None
            and {"type": "next_round"} in game.legal_actions(i)
            for i, s in enumerate(table.seats)
        )
        at = max(table.elapsed(now), game.now)
        if self.at is not None and self.due is not None and now >= self.due:
            # Woken at the time a bot asked for: it has come, whatever the float sums say.
            at = max(at, self.at)
        self.at = None
        wakes: list[float] = []
        thought = self.thought
        if thought is not None and (thought[1] != game.version or thought[0] not in bots):
            self.thought = thought = None  # the game moved on: that thought is moot
        for k in range(len(bots)):
            i = bots[(self.turn + k) % len(bots)]
            bot = table.seats[i].bot
            assert bot is not None
            step = getattr(bot, "step", None)
            try:
                if thought is None or thought[0] != i:
                    view = wire_time(game.view(i), at)
                    legal = game.legal_actions(i)
                    if people:
                        legal = [a for a in legal if a.get("type") != "next_round"]
                    if not legal:
                        continue
                    think = getattr(bot, "think", None)
                    if step is None and think is not None:
                        thought = self.thought = (i, game.version, think(view, legal))
                if thought is not None and thought[0] == i:
                    action = self._think_on(now)
                    if self.thought is not None:
                        return  # (to think on at once, after the host's other work)
                elif step is not None:
                    action, wake = step(view, legal, at)
                    if wake is not None:
                        wakes.append(float(wake))
                else:
                    action = bot.choose(view, legal)
            except Exception:
                log.exception("bot at table %s seat %d failed", table.id, i)
                self.thought = None
                action = None
            if action is None:
                continue
            self.turn = (self.turn + k + 1) % len(bots)
            try:
                table.apply(out, i, action, now, at)
            except RequestError as exc:
                log.warning("bot at table %s seat %d: %s", table.id, i, exc.message)
                continue
            if step is None:
                self.rest = now + table.house.bot_delay
                self.due = self.rest
            else:
                self.due = now
            return
        self.at = min(wakes) if wakes else None
        self.due = None if self.at is None else table.t0 + self.at

    def _think_on(self, now: float) -> Any:
        """Let the bot thinking think for a slice: its action once it has one (thought
        over), else ``None`` with the bots to look again at once."""
        assert self.thought is not None
        thinking = self.thought[2]
        left = THINK_SLICE
        try:
            while True:
                left -= next(thinking)
                if left <= 0:
                    self.due = now
                    return None
        except StopIteration as done:
            self.thought = None
            return done.value

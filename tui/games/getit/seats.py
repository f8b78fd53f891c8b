"""The others around the Get It! table: one seat card each, in the order they sit after
us, with the card each shows us and what each signals."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from textual.containers import Horizontal
from textual.message import Message

from tui.games.getit.seatcard import SeatCard
from tui.games.getit.text import signal_lines
from tui.games.getit.titles import AWAY, BOT
from tui.notices import Namer

#: From this terminal height, and this width per other player, numbers are drawn in
#: the block font (``SeatCard.big``) and the seats' row grows to hold them.
BIG_HEIGHT = 40
BIG_WIDTH = 24
#: Below this terminal height the seats' row is short (see ``SeatsRow.fit``); below
#: the second, tiny (a phone on its side, 18 rows, had one line of the log).
SHORT_HEIGHT, TINY_HEIGHT = 30, 21
#: A card narrower than this says "◀ you look" (the longer mark was cut).
NARROW_WIDTH = 22
#: A card narrower than this has no padding: every other seat's card stays in the row
#: down to 8 columns each (a narrower minimum pushed the last cards out of sight).
TIGHT_WIDTH = 10


class SeatsRow(Horizontal):
    """The other players' seat cards (every seat's, for a spectator)."""

    #: What the cards were last fitted to: the number of others, the terminal's size.
    _fitted: tuple[int, int, int] | None = None
    #: The cards, by seat (a query for them at every update was about a quarter of the
    #: row's update).
    _cards: dict[int, SeatCard] = {}  # (replaced whole, never changed in place)

    class Fitted(Message):
        """The cards changed size: ``big`` while numbers are in the block font."""

        def __init__(self, big: bool) -> None:
            super().__init__()
            self.big = big

    def show(self, view: dict[str, Any], signals: list[dict[str, Any]], said: dict[int, str],
             me: int | None, namer: Namer, away: Collection[int] = (),
             standing: Mapping[int, str] | None = None) -> None:
        """Show each other seat's top card, pile and signals (``signals``: every seat's,
        ours with what we sent ahead of the host); ``away``: the seats whose person lost
        the connection (marked [away], as the Players panel marks them); ``standing``:
        the seats a bot keeps for an away person, and whose ("Bot 2 for Bob [bot]", as
        the Players panel says it)."""
        standing = standing or {}
        piles = [p if isinstance(p, dict) else {} for p in view.get("piles") or []]
        seats = len(piles)
        order = [(me + k) % seats for k in range(1, seats)] if me is not None else list(
            range(seats))
        cards = self._cards
        if sorted(cards) != sorted(order):
            self.remove_children()
            self._cards = cards = {s: SeatCard(s, id=f"seat-{s}") for s in order}
            self.mount_all(cards[s] for s in order)
            self._fitted = None  # (new cards: fitted afresh)
        self.fit(len(order))
        mine = signals[me] if me is not None and me < len(signals) else {}
        for seat in order:
            signal = signals[seat] if seat < len(signals) else {}
            cards[seat].show(
                name=((f"{namer.name(seat)} for {standing[seat]}{BOT}",
                       f"{standing[seat]}{BOT}") if seat in standing
                      else namer.name(seat) + (AWAY if seat in away else "")),
                top=piles[seat].get("top"),
                count=int(piles[seat].get("count", 0)),
                lines=signal_lines(signal, namer, me), said=said.get(seat),
                grouped=signal_lines(signal, namer, me, grouped=True),
                looked_at=mine.get("look") == seat,
                also=[word for kind, word in (("smile", "smile"), ("look_past", "look past"))
                      if mine.get(kind) == seat],
                at_me=me is not None and me in (signal.get("look"), signal.get("smile"),
                                                signal.get("look_past")),
            )

    def on_resize(self) -> None:
        """A terminal with room for it shows the others' numbers in the block font."""
        self.fit(len(self._cards))

    def fit(self, others: int) -> None:
        """Fit the cards to the terminal: the block font on a big one; on a short one the
        count goes in each card's title and the row is three lines lower (the log keeps
        its room)."""
        width, height = self.screen.size
        if self._fitted == (others, width, height):
            return  # (as fitted: an update rarely changes the seats or the terminal)
        self._fitted = (others, width, height)
        big = others > 0 and height >= BIG_HEIGHT and width // others >= BIG_WIDTH
        short, tiny = height < SHORT_HEIGHT, height < TINY_HEIGHT and not big
        if big != self.has_class("-big"):
            self.post_message(self.Fitted(big))
        self.set_class(big, "-big")
        self.set_class(short and not big, "-short")
        self.set_class(tiny, "-tiny")
        each = width // max(others, 1)
        for card in self._cards.values():
            card.set_fit(big=big, short=short, narrow=each < NARROW_WIDTH, tiny=tiny)
            # (Five others on a phone's 40 columns: 8 each, and a two-digit number is 6.)
            card.set_class(each < TIGHT_WIDTH, "-tight")

"""GET OUT! — the competitive shedding game (RULES.md §2).

Match the call card's image or number, or play a wild GET OUT! card and name the image
that must follow. Drawing ends the turn. When the draw pile runs dry the played pile
(less the call card) is turned over without shuffling. A match adds up what the losers
hold each round; whoever passes the limit is out; the last one left wins.

Card ids are shuffled per game, so an id tells nothing of the card behind it.
"""

from __future__ import annotations

from bisect import insort
from typing import Any

from engine.core import (
    Action,
    Event,
    Game,
    GameSpec,
    IllegalAction,
    Plain,
    View,
    away_bot_option,
    bool_option,
    choice_option,
    int_option,
    next_seat,
    seat_option,
)

IMAGES = ("geoff", "samantha", "kevin", "shirley", "tea_picker")
SHAPES = {
    "geoff": "square",
    "samantha": "pentagon",
    "kevin": "diamond",
    "shirley": "octagon",
    "tea_picker": "oval",
}
PEOPLE_VALUES = (1, 2, 3, 4, 5, 7, 8, 10, 11, 12, 13, 14)
TEA_PICKER_VALUES = (1, 2, 3, 4, 5, 7, 8)
WILDS = 3
WILD_POINTS = 20
HAND_SIZE = 6
DECK_SIZE = 4 * len(PEOPLE_VALUES) + len(TEA_PICKER_VALUES) + WILDS  # 58


class Card:
    """One GET OUT! card, immutable. ``image``/``value`` are ``None`` for a wild card.

    (Written out: a frozen dataclass generates its methods with ``exec`` when it is
    defined, which every start that plays GET OUT! would pay for.)"""

    __slots__ = ("id", "image", "value")
    id: int
    image: str | None
    value: int | None

    def __init__(self, id: int, image: str | None, value: int | None) -> None:
        setter = object.__setattr__
        setter(self, "id", id)
        setter(self, "image", image)
        setter(self, "value", value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a card cannot change: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a card cannot change: cannot delete {name!r}")

    def __eq__(self, other: object) -> bool:
        if type(other) is not Card:
            return NotImplemented
        return (self.id, self.image, self.value) == (other.id, other.image, other.value)

    def __hash__(self) -> int:
        return hash((self.id, self.image, self.value))

    def __repr__(self) -> str:
        return f"Card(id={self.id!r}, image={self.image!r}, value={self.value!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[int, str | None, int | None]]:
        return Card, (self.id, self.image, self.value)

    @property
    def wild(self) -> bool:
        """True for a GET OUT! card."""
        return self.image is None

    @property
    def points(self) -> int:
        """What the card costs its holder when a round ends."""
        if self.image is None:
            return WILD_POINTS
        assert self.value is not None
        return self.value * 2 if self.image == "tea_picker" else self.value

    def plain(self) -> dict[str, Plain]:
        """The card as the contract's plain dict."""
        return {"id": self.id, "image": self.image, "value": self.value, "wild": self.wild}


def card_faces() -> list[tuple[str | None, int | None]]:
    """The 58 faces of the deck in a fixed order: people, Tea Pickers, then wilds."""
    faces: list[tuple[str | None, int | None]] = [
        (image, value) for image in IMAGES[:4] for value in PEOPLE_VALUES
    ]
    faces += [("tea_picker", value) for value in TEA_PICKER_VALUES]
    faces += [(None, None)] * WILDS
    return faces


class GetOut(Game):
    """A GET OUT! game (one round, or a match of rounds)."""

    #: Every seat sees the table alike; only its hand is its own (``view_parts``).
    splits_view = True

    def __init__(self, seats: int, seed: int, options: dict[str, Plain]) -> None:
        super().__init__(seats, seed, options)
        ids = list(range(DECK_SIZE))
        self.rng.shuffle(ids)
        self.cards = {i: Card(i, img, val) for i, (img, val) in zip(ids, card_faces(), strict=True)}
        self._index_cards()
        self.scores = [0] * seats
        self.out = [False] * seats
        self.round = 0
        self.last_round: dict[str, Plain] | None = None
        self.history: list[list[int]] = []  # points per seat, one list per round played
        self.winners: list[int] | None = None
        self._phase_name = "play"
        first = options["first"]
        if first is None:
            first = self.rng.randrange(seats)
        # The dealer sits right of the first player; later rounds the winner deals.
        self.dealer = (first - 1) % seats
        self._deal()

    def _index_cards(self) -> None:
        """Per-card lookups that never change within a game, for the hot paths (legal
        actions, moves, views). Ids are 0..57, so lists indexed by id serve."""
        self._plain = {cid: card.plain() for cid, card in self.cards.items()}
        self._rank = {cid: self._order(cid) for cid in self.cards}
        self._image: list[str | None] = [None] * len(self.cards)
        self._value: list[int | None] = [None] * len(self.cards)
        for cid, card in self.cards.items():
            self._image[cid] = card.image
            self._value[cid] = card.value
        #: The faces of the played pile below the call card and of the cards last turned
        #: over, as last built (``_faces``), keyed by what they were built from.
        self._faces_kept: dict[str, tuple[tuple[int, int, int], list[str]]] = {}
        #: Changed whenever the played pile or the turned-over cards are replaced.
        self._epoch = 0
        #: Each seat's own part of ``view_parts`` as last built, with the hand it shows.
        self._own_kept: dict[int, tuple[tuple[int, ...], View]] = {}

    # ------------------------------------------------------------------ round set-up

    def _active(self) -> list[int]:
        return [s for s in range(self.seats) if not self.out[s]]

    def _next_active(self, seat: int) -> int:
        nxt = seat + 1
        if nxt == self.seats:
            nxt = 0
        return next_seat(seat, self.out) if self.out[nxt] else nxt

    def _deal(self) -> None:
        """Shuffle every card and deal a new round, starting left of the dealer."""
        self.round += 1
        deck = sorted(self.cards)
        self.rng.shuffle(deck)
        self.hands: list[list[int]] = [[] for _ in range(self.seats)]
        order = []
        seat = self.dealer
        for _ in self._active():
            seat = self._next_active(seat)
            order.append(seat)
        for _ in range(HAND_SIZE):
            for s in order:
                self.hands[s].append(deck.pop())
        for hand in self.hands:
            hand.sort()  # a hand is kept in id order: legal actions list it so
        self.draw_pile = deck  # the top of the pile is the end of the list
        self.played: list[int] = []  # bottom first; the last is the call card
        #: The cards last turned over into the draw pile this round (played order).
        self.turned: list[int] = []
        self._epoch += 1
        self.call_image: str | None = None  # the image a wild call card names
        self.turn: int | None = order[0]
        self._phase_name = "play"

    # ------------------------------------------------------------------ rules

    def _call(self) -> Card | None:
        return self.cards[self.played[-1]] if self.played else None

    def image_to_follow(self) -> str | None:
        """The image the next card must match (a wild call card's named image)."""
        call = self._call()
        if call is None:
            return None
        return self.call_image if call.wild else call.image

    def _fits(self, cid: int) -> bool:
        """Whether card ``cid`` (not a wild one) may be played on the call card."""
        played = self.played
        if not played:
            return True
        call = played[-1]
        follow = self._image[call]
        if follow is None:
            return self._image[cid] == self.call_image
        return self._image[cid] == follow or self._value[cid] == self._value[call]

    def _legal(self, seat: int) -> list[Action]:
        # The hot path of every host step, bot decision and search rollout: the call card
        # is looked at once, and each card in hand is one or two list lookups.
        phase = self._phase_name
        if phase != "play":
            if phase == "round_over" and not self.out[seat]:
                return [{"type": "next_round"}]
            return []
        if seat != self.turn:
            return []
        played = self.played
        hand = self.hands[seat]
        images = self._image
        if not played:
            actions: list[Action] = []
            for cid in hand:
                if images[cid] is None:
                    actions += [{"type": "play", "card": cid, "image": img} for img in IMAGES]
                else:
                    actions.append({"type": "play", "card": cid})
            return actions
        call = played[-1]
        follow = images[call]
        number = self._value[call]
        if follow is None:
            follow = self.call_image
        values = self._value
        actions = []
        for cid in hand:
            image = images[cid]
            if image is None:
                actions += [{"type": "play", "card": cid, "image": img} for img in IMAGES]
            elif image == follow or (number is not None and values[cid] == number):
                actions.append({"type": "play", "card": cid})
        actions.append({"type": "draw"})
        return actions

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (:meth:`Game.legal_actions`)."""
        if type(seat) is not int or not 0 <= seat < self.seats:
            self._check_seat(seat)
        return self._legal(seat)

    def act(self, seat: int, action: Action, now: float = 0.0) -> list[Event]:
        """Apply ``action`` for ``seat`` (:meth:`Game.act`): a well-formed play or draw by
        the seat on turn takes a short path, everything else the checks of the base."""
        if (type(seat) is int and seat == self.turn and type(now) is float and now >= self.now
                and type(action) is dict and self._phase_name == "play"):
            kind = action.get("type")
            if kind == "play":
                events = self._play(seat, action)
            elif kind == "draw" and len(action) == 1:
                events = self._draw(seat)
            else:
                return super().act(seat, action, now)
            self.now = now
            self.version += 1
            if self.kept is not None:
                self.kept.append([seat, action, now])
            return events
        return super().act(seat, action, now)

    def _act(self, seat: int, action: Action, now: float) -> list[Event]:
        kind = action["type"]
        if kind == "next_round":
            return self._next_round(seat, action)
        if self._phase_name != "play":
            raise IllegalAction(f"the game is over; {kind!r} is not possible now")
        if seat != self.turn:
            raise IllegalAction(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        if kind == "play":
            return self._play(seat, action)
        if kind == "draw":
            _only_keys(action, {"type"})
            return self._draw(seat)
        raise IllegalAction(f"unknown action {kind!r}; GET OUT! knows play, draw and next_round")

    def _play(self, seat: int, action: Action) -> list[Event]:
        if not action.keys() <= _PLAY_KEYS:
            _only_keys(action, _PLAY_KEYS)
        cid = action.get("card")
        hand = self.hands[seat]
        if type(cid) is not int or cid not in hand:
            raise IllegalAction(f"card {cid!r} is not in your hand")
        image = action.get("image")
        own = self._image[cid]
        wild = own is None
        if wild:
            if image not in IMAGES:
                raise IllegalAction(
                    f"a GET OUT! card must name an image: one of {', '.join(IMAGES)}"
                )
        else:
            if "image" in action:
                raise IllegalAction("only a GET OUT! card names an image")
            if not self._fits(cid):
                raise IllegalAction(
                    f"{describe(self.cards[cid])} matches neither the image "
                    f"({self.image_to_follow()}) nor the number of the call card"
                )
        hand.remove(cid)
        self.played.append(cid)
        self.call_image = image if wild else None
        event: Event = {"type": "played", "seat": seat, "card": self._plain[cid].copy()}
        if wild:
            event["image"] = image
        if not hand:
            return [event, *self._end_round(seat)]
        self.turn = self._next_active(seat)
        return [event]

    def _draw(self, seat: int) -> list[Event]:
        if not self.played:
            raise IllegalAction("the first player of a round must play a card")
        events: list[Event] = []
        if not self.draw_pile and len(self.played) > 1:
            # Turned over without shuffling: the earliest played card ends up on top.
            rest = self.played[:-1]
            self.draw_pile = rest[::-1]
            self.played = self.played[-1:]
            self.turned = rest
            self._epoch += 1
            events.append({"type": "recycled", "count": len(rest)})
        if self.draw_pile:
            insort(self.hands[seat], self.draw_pile.pop())
            events.append({"type": "drew", "seat": seat})
        else:
            events.append({"type": "passed", "seat": seat})
        self.turn = self._next_active(seat)
        return events

    def _end_round(self, winner: int) -> list[Event]:
        points = [0] * self.seats
        for s in self._active():
            points[s] = sum(self.cards[c].points for c in self.hands[s])
            self.scores[s] += points[s]
        newly_out: list[int] = []
        if self.options["match"]:
            for s in self._active():
                if self.scores[s] > self.options["limit"]:
                    self.out[s] = True
                    newly_out.append(s)
        self.dealer = winner
        self.history.append(points)
        self.last_round = {"round": self.round, "winner": winner, "points": points}
        events: list[Event] = [
            {
                "type": "round_over",
                "round": self.round,
                "winner": winner,
                "points": points,
                "scores": list(self.scores),
                "out": newly_out,
            }
        ]
        if not self.options["match"] or len(self._active()) == 1:
            self.winners = [winner]
            self._phase_name = "over"
            self.turn = None
            events.append({"type": "game_over", "winners": [winner]})
        else:
            self._phase_name = "round_over"
            self.turn = None
        return events

    def _next_round(self, seat: int, action: Action) -> list[Event]:
        _only_keys(action, {"type"})
        if self._phase_name != "round_over":
            raise IllegalAction("next_round is only possible when a round of a match is over")
        if self.out[seat]:
            raise IllegalAction(f"seat {seat} is out of the match")
        self._deal()
        return [
            {"type": "round_started", "round": self.round, "dealer": self.dealer,
             "first": self.turn}
        ]

    # ------------------------------------------------------------------ contract hooks

    def _phase(self) -> str:
        return self._phase_name

    def _turn(self) -> int | None:
        return self.turn

    def _view(self, seat: int | None) -> View:
        view = self._public_view()
        view.update(self._own_view(seat))
        return view

    def _public_view(self) -> View:
        # Cards go out as copies of their cached plain dicts: a caller may change a view.
        plain = self._plain
        played = self.played
        view: View = {
            "hand_counts": [len(h) for h in self.hands],
            "draw_count": len(self.draw_pile),
            "played_count": len(played),
            "call": plain[played[-1]].copy() if played else None,
            # Every card in the played pile was seen face up, and so was every card turned
            # over into the draw pile: faces in a fixed order (never the order they were
            # played in, which is the order of a turned-over draw pile), without ids.
            "pile": self._faces("pile", played, len(played) - 1),
            "turned": self._faces("turned", self.turned, len(self.turned)),
            "image": self.image_to_follow(),
            "scores": list(self.scores),
            "out": list(self.out),
            "dealer": self.dealer,
            "round": self.round,
            "match": self.options["match"],
            "limit": self.options["limit"],
            "last_round": dict(self.last_round) if self.last_round else None,
            "history": [list(points) for points in self.history],
            "winners": list(self.winners) if self.winners is not None else None,
        }
        if self.options.get("bots", "normal") != "normal":
            # Public like every option; a bot reads its level from its view.
            view["bots"] = self.options["bots"]
        return view

    def _own_view(self, seat: int | None) -> View:
        if seat is None:
            return {}
        plain = self._plain
        hand = sorted(self.hands[seat], key=self._rank.__getitem__)
        return {"hand": [plain[c].copy() for c in hand]}

    def laid_open(self) -> dict[str, Plain]:
        """Every hand (in each seat's order) and the draw pile, top first."""
        plain = self._plain
        return {"hands": [[plain[c].copy() for c in sorted(h, key=self._rank.__getitem__)]
                          for h in self.hands],
                "draw_pile": [plain[c].copy() for c in reversed(self.draw_pile)]}

    def _own_part(self, seat: int | None) -> View:
        # A hand is the same while it holds the same cards: most seats' hands do not
        # change from one move to the next (the host then compares them by identity).
        if seat is None:
            return {}
        cards = tuple(self.hands[seat])
        kept = self._own_kept.get(seat)
        if kept is None or kept[0] != cards:
            kept = self._own_kept[seat] = (cards, self._own_view(seat))
        return kept[1]

    def _faces(self, name: str, cids: list[int], upto: int) -> list[str]:
        """The first ``upto`` of ``cids`` as faces in the order of a hand, each in words
        (:func:`face`): no ids. Built again only when they changed (the engine replaces
        the played pile's list when it turns it over or deals, and only appends to it in
        between); strings, so a copy of the list is a fresh view."""
        key = (self._epoch, id(cids), upto)
        kept = self._faces_kept.get(name)
        if kept is None or kept[0] != key:
            ordered = sorted(cids[:upto], key=self._rank.__getitem__)
            kept = self._faces_kept[name] = (key, [face(self.cards[cid]) for cid in ordered])
        return list(kept[1])

    def _order(self, cid: int) -> tuple[int, int, int]:
        card = self.cards[cid]
        if card.wild:
            return (len(IMAGES), 0, cid)
        assert card.value is not None and card.image is not None
        return (IMAGES.index(card.image), card.value, cid)

    @property
    def over(self) -> bool:
        return self._phase_name == "over"

    @property
    def result(self) -> dict[str, Plain] | None:
        if self.winners is None:
            return None
        return {"winners": list(self.winners), "scores": list(self.scores), "rounds": self.round,
                "played": self._rounds_played()}

    def _rounds_played(self) -> list[int]:
        """The rounds each seat played: in a match, those before it passed the limit (a
        player's points a round counted the rounds after they were out as nothing)."""
        limit = self.options["limit"] if self.options["match"] else None
        played, totals = [0] * self.seats, [0] * self.seats
        for points in self.history:
            for s in range(self.seats):
                if limit is None or totals[s] <= limit:
                    played[s] += 1
                totals[s] += points[s]
        return played

    def _dump(self) -> Plain:
        return {
            "cards": [[c.id, c.image, c.value] for c in self.cards.values()],
            "hands": [list(h) for h in self.hands],
            "draw_pile": list(self.draw_pile),
            "played": list(self.played),
            "turned": list(self.turned),
            "call_image": self.call_image,
            "turn": self.turn,
            "dealer": self.dealer,
            "scores": list(self.scores),
            "out": list(self.out),
            "round": self.round,
            "last_round": self.last_round,
            "history": [list(points) for points in self.history],
            "winners": None if self.winners is None else list(self.winners),
            "phase": self._phase_name,
        }

    def _load(self, state: Plain) -> None:
        self.cards = {i: Card(i, img, val) for i, img, val in state["cards"]}
        self._index_cards()
        self.hands = [sorted(h) for h in state["hands"]]
        self.draw_pile = list(state["draw_pile"])
        self.played = list(state["played"])
        # (A snapshot from before cards turned over were kept has none: none are known.)
        self.turned = list(state.get("turned", []))
        self.call_image = state["call_image"]
        self.turn = state["turn"]
        self.dealer = state["dealer"]
        self.scores = list(state["scores"])
        self.out = list(state["out"])
        self.round = state["round"]
        self.last_round = state["last_round"]
        self.history = [list(points) for points in state["history"]]
        self.winners = state["winners"]
        self._phase_name = state["phase"]


GetOut.spec = GameSpec(
    id="getout",
    name="GET OUT!",
    min_seats=2,
    max_seats=6,
    options=(
        bool_option("match", True, "play rounds until one player is left (off: one round)"),
        int_option("limit", 100, "a player whose match total passes this is out", 1, 10_000,
                   only_if=("match", True)),
        seat_option("first", "who plays first in round 1 (none: chosen at random)"),
        choice_option(
            "bots", "normal",
            "how the bots play: casual (any card that follows, as a newcomer does), normal "
            "(sheds costly cards, keeps GET OUT! cards for when they matter) or strong "
            "(counts cards and plays out the hands it cannot see before each move)",
            ("casual", "normal", "strong"),
        ),
        away_bot_option(),
    ),
    factory=GetOut,
)


def describe(card: Card | dict[str, Any]) -> str:
    """A card in words, e.g. "Kevin 7" or "GET OUT!"."""
    image = card.image if isinstance(card, Card) else card.get("image")
    value = card.value if isinstance(card, Card) else card.get("value")
    if image is None:
        return "GET OUT!"
    return f"{image_name(image)} {value}"


def image_name(image: str) -> str:
    """An image in words: "Kevin", "Tea Picker"."""
    return "Tea Picker" if image == "tea_picker" else image.capitalize()


_PLAY_KEYS = frozenset({"type", "card", "image"})


def face(card: Card) -> str:
    """A card's face in the words of a view's ``pile`` and ``turned``: ``"kevin 7"``,
    ``"tea_picker 3"``, ``"wild"`` (as ``engine.testing.stack_getout`` takes them)."""
    return "wild" if card.image is None else f"{card.image} {card.value}"


def _only_keys(action: Action, allowed: set[str] | frozenset[str]) -> None:
    if action.keys() <= allowed:
        return
    extra = sorted(set(action) - allowed)
    raise IllegalAction(f"unexpected field {extra[0]!r} in a {action['type']!r} action")

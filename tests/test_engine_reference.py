"""The engines' fast paths against straightforward references, in lockstep on seeded games.

``engine/getout.py`` and ``engine/getit.py`` compute legal actions in one pass (the
call card, or the tops of the piles, looked at once), GET OUT! and Got Five! views copy
cached plain cards and tiles; the references below are the plain per-card, per-pile,
per-tile versions they replaced, written the way RULES.md says it. Two
games of the same seed, one with the fast code and one with the reference, are played
by the same random-legal actions, and everything the contract returns is compared at
every step: every seat's legal actions, every seat's and the spectator's view, the
events, the snapshot.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine.core import Action, Game, View
from engine.getit import PHASE_PLAY, PHASE_PREPARE, PHASE_ROUND_OVER, SIGNALS, GetIt, arrangement
from engine.getout import IMAGES, Card, GetOut
from engine.gotfive import GotFive, hidden, tile
from tests.helpers import walk


class ReferenceGetOut(GetOut):
    """GET OUT! with the legal actions written out card by card."""

    def _call(self) -> Card | None:
        return self.cards[self.played[-1]] if self.played else None

    def _reference_follow(self) -> str | None:
        call = self._call()
        if call is None:
            return None
        return self.call_image if call.wild else call.image

    def _matches(self, card: Card) -> bool:
        call = self._call()
        if call is None or card.wild:
            return True
        if card.image == self._reference_follow():
            return True
        return not call.wild and card.value == call.value

    def _legal(self, seat: int) -> list[Action]:
        if self._phase_name == "round_over":
            return [{"type": "next_round"}] if not self.out[seat] else []
        if self._phase_name != "play" or seat != self.turn:
            return []
        actions: list[Action] = []
        for cid in sorted(self.hands[seat]):
            card = self.cards[cid]
            if card.wild:
                actions += [{"type": "play", "card": cid, "image": img} for img in IMAGES]
            elif self._matches(card):
                actions.append({"type": "play", "card": cid})
        if self.played:
            actions.append({"type": "draw"})
        return actions

    def _view(self, seat: int | None) -> View:
        view = {
            "hand_counts": [len(h) for h in self.hands],
            "draw_count": len(self.draw_pile),
            "played_count": len(self.played),
            "call": call.plain() if (call := self._call()) else None,
            "image": self._reference_follow(),
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
        if seat is not None:
            hand = sorted(self.hands[seat], key=self._order)
            view["hand"] = [self.cards[c].plain() for c in hand]
        return view


class ReferenceGotFive(GotFive):
    """Got Five! with every tile of a view made on the spot, rack by rack, tile by tile."""

    def _view(self, seat: int | None) -> View:
        view = {
            "racks": [
                [tile(n) if self._shows_rack(owner, seat) else hidden(n) for n in rack]
                for owner, rack in enumerate(self.racks)
            ],
            "public": [tile(n) for n in self.public],
            "supply": [len(stack) for stack in self.supply],
            "clues": [dict(clue) for clue in self.clues],
            "announcements": [
                {"seat": a["seat"], "numbers": list(a["numbers"]), "right": a["right"]}
                for a in self.announcements
            ],
            "out": list(self.out),
            "winners": list(self.winners) if self.winners is not None else None,
            "auto_cross": self.options["auto_cross"],
        }
        if seat is not None:
            marks = dict(self.marks[seat])
            if self.options["auto_cross"]:
                for n in self.visible_to(seat):
                    marks[n] = "cross"
            view["marks"] = {str(n): marks[n] for n in sorted(marks)}
        return view


class ReferenceGetIt(GetIt):
    """Get It! with the legal actions asking pile by pile what a seat sees."""

    def _reference_sees(self, seat: int, kind: str) -> bool:
        if self._phase_name != PHASE_PLAY:
            return False
        for holder in range(self.seats):
            card = self.top(holder)
            if holder != seat and card is not None and card.kind == kind:
                return True
        return False

    def _legal(self, seat: int) -> list[Action]:
        phase = self._phase_name
        if phase == PHASE_PREPARE:
            return [{"type": "arrange"}] if self.arranged[seat] is None else []
        if phase == PHASE_ROUND_OVER:
            return [{"type": "next_round"}]
        if phase != PHASE_PLAY:
            return []
        actions: list[Action] = []
        if self.piles[seat]:
            actions.append({"type": "play"})
        targets: list[int | None] = [None, *(s for s in range(self.seats) if s != seat)]
        for kind in SIGNALS:
            current = self.signals[kind][seat]
            actions += [{"type": kind, "target": t} for t in targets if t != current]
        if self.peeking[seat]:
            actions.append({"type": "peek", "on": False})
        elif self._reference_sees(seat, "mirror"):
            actions.append({"type": "peek", "on": True})
        if self._reference_sees(seat, "speech"):
            actions.append({"type": "say"})
        return actions


def views_in_parts(game: Game) -> list[View]:
    """Every seat's and the spectator's view, checked against ``view_parts``: each is
    the shared part and its own, with no key in both, and the shared part is public
    (the spectator's view holds all of it)."""
    seats: list[int | None] = [*range(game.seats), None]
    views = [game.view(s) for s in seats]
    shared, own = game.view_parts(seats)
    for view, mine in zip(views, own, strict=True):
        assert not shared.keys() & mine.keys()
        assert {**shared, **mine} == view
    assert {k: views[-1][k] for k in shared} == shared
    return views


def everything(game: Game) -> list[Any]:
    """What the contract shows of ``game`` now: legal actions, views, snapshot, result."""
    seats = range(game.seats)
    return [
        [game.legal_actions(s) for s in seats],
        views_in_parts(game),
        game.snapshot(),
        game.over,
        game.result,
    ]


def lockstep(fast: Game, slow: Game, seed: int, steps: int) -> set[str]:
    """Play both games by the same random-legal actions; assert they never differ.

    Returns the kinds of action that were legal at some point, so a test can check the
    play went where the fast paths differ from the reference.
    """
    rng = random.Random(seed)
    assert everything(fast) == everything(slow)
    kinds: set[str] = set()
    for _ in range(steps):
        if fast.over:
            break
        movers = [(s, a) for s in range(fast.seats) for a in fast.legal_actions(s)
                  if a["type"] not in ("announce", "mark")]
        kinds |= {f"{a['type']} {a.get('on', '')}".strip() for _, a in movers}
        right: list[tuple[int, Action]] = []
        if isinstance(fast, GetIt) and fast.phase_name == PHASE_PLAY:
            right = [(h, {"type": "play"}) for h in fast.correct_holders()]
        if not movers:
            # Got Five! with no tiles left: announcing is all there is; a random one.
            callers = [s for s in range(fast.seats)
                       if {"type": "announce"} in fast.legal_actions(s)]
            movers = [(rng.choice(callers),
                       {"type": "announce", "numbers": sorted(rng.sample(range(1, 61), 5))})]
        # Mostly a right play, as a team would, so Get It! rounds reach the special cards.
        seat, action = rng.choice(right if right and rng.random() < 0.7 else movers)
        if action["type"] == "arrange":
            action = {"type": "arrange", "pile": arrangement(fast.view(seat)["hand"], rng)}
        elif action["type"] == "say":
            action = {"type": "say", "text": "hi"}
        now = fast.now + rng.choice((0.0, 0.5))
        assert fast.act(seat, dict(action), now) == slow.act(seat, dict(action), now)
        assert everything(fast) == everything(slow)
    return kinds


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_getout_legal_actions_match_the_reference(seats: int) -> None:
    kinds: set[str] = set()
    for seed in range(3):
        options = {"limit": 40}
        fast = engine.new_game("getout", seats=seats, seed=seed, options=options)
        slow = ReferenceGetOut(seats, seed, engine.GAMES["getout"].check_options(options, seats))
        kinds |= lockstep(fast, slow, seed, 1500)
    assert {"play", "draw", "next_round"} <= kinds


def test_getout_card_matching_matches_the_reference() -> None:
    """Every card against every call card and named image, both ways of judging."""
    fast = engine.new_game("getout", seats=2, seed=3)
    slow = engine.restore(fast.snapshot())
    slow.__class__ = ReferenceGetOut
    assert isinstance(fast, GetOut) and isinstance(slow, ReferenceGetOut)
    for game in (fast, slow):
        game.played = []
    assert all(fast._matches(c) and slow._matches(c) for c in fast.cards.values())
    for call in fast.cards:
        for named in (None, *IMAGES):
            for game in (fast, slow):
                game.played = [call]
                game.call_image = named if game.cards[call].wild else None
            for card in fast.cards.values():
                assert fast._matches(card) == slow._matches(card), (call, named, card)


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_getit_legal_actions_match_the_reference(seats: int) -> None:
    kinds: set[str] = set()
    for seed in range(4):
        options = {"timer": 0, "level": 4 + seed % 3}
        fast = engine.new_game("getit", seats=seats, seed=seed, options=options)
        slow = ReferenceGetIt(seats, seed, engine.GAMES["getit"].check_options(options, seats))
        kinds |= lockstep(fast, slow, seed, 600)
    assert {"peek True", "say", "next_round"} <= kinds


@pytest.mark.parametrize("seats", [2, 4])
def test_gotfive_views_match_the_reference(seats: int) -> None:
    for seed in range(3):
        options = {"auto_cross": seed != 1}
        fast = engine.new_game("gotfive", seats=seats, seed=seed, options=options)
        spec = engine.GAMES["gotfive"]
        slow = ReferenceGotFive(seats, seed, spec.check_options(options, seats))
        kinds = lockstep(fast, slow, seed, 400)
        assert {"reveal", "sort", "compare"} <= kinds


def test_a_getout_view_is_shared_but_for_the_seat_and_its_hand() -> None:
    """GET OUT! builds what every seat sees once a push (``view_parts``): a seat's own
    part is its seat and hand; the spectator's its seat only."""
    game = engine.new_game("getout", seats=3, seed=5)
    shared, own = game.view_parts([0, 2, None])
    assert [set(part) for part in own] == [{"seat", "hand"}, {"seat", "hand"}, {"seat"}]
    assert {"hand_counts", "scores", "turn", "version"} <= shared.keys()
    assert own[1]["hand"] == game.view(2)["hand"] != own[0]["hand"]
    with pytest.raises(engine.IllegalAction, match="there is no seat 3"):
        game.view_parts([0, 3])
    # A hand that did not change is the very list it was (a host compares by ``is``).
    _, before = game.view_parts([0, 1, 2])
    mover = next(s for s in range(3) if game.legal_actions(s))
    game.act(mover, game.legal_actions(mover)[0])
    _, after = game.view_parts([0, 1, 2])
    for seat in range(3):
        same = after[seat]["hand"] is before[seat]["hand"]
        assert same == (seat != mover)
        assert after[seat]["hand"] == game.view(seat)["hand"]


@pytest.mark.parametrize(("game_id", "options"), [
    ("getout", {}), ("getit", {}), ("gotfive", {}), ("gotfive", {"hints": "board"})])
def test_view_parts_are_every_games_views(game_id: str, options: dict[str, Any]) -> None:
    """``view_parts`` gives each seat its view, whether the game splits it or not, and
    whatever the game adds to a view (a Got Five! hint)."""
    game = engine.new_game(game_id, seats=3, seed=2, options=options)
    rng = random.Random(2)
    for _ in range(30):
        views_in_parts(game)
        moves = [(s, a) for s in range(3) for a in game.legal_actions(s)
                 if a["type"] not in ("announce", "mark", "say")]
        if game.over or not moves:
            break
        seat, action = rng.choice(moves)
        if action["type"] == "arrange":
            action = {"type": "arrange", "pile": arrangement(game.view(seat)["hand"], rng)}
        game.act(seat, action, game.now)
    shared, _own = game.view_parts([0])
    assert bool(shared) == (game_id == "getout")


def test_views_are_fresh_copies() -> None:
    """Changing a view a caller was given changes neither the game nor the next view."""
    for game_id, seats in (("getout", 3), ("gotfive", 3)):
        game = engine.new_game(game_id, seats=seats, seed=5)
        before = game.view(0)
        view = game.view(0)
        for _path, value in walk(view):
            if isinstance(value, dict):
                value.clear()
        assert game.view(0) == before

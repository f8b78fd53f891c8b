"""A table's rules without a socket, a timer or an event loop.

The table (``net.table``, the lobby's rules in ``net.lobby``) is called with requests and
a clock reading the test holds in its hand, and returns what each member must be sent;
the members here are plain objects that keep their frames. So the lobby, who is sent
what, the Get It! deadline and the bots' pace are checked at exact times.
"""

from __future__ import annotations

import random
from typing import Any

import msgpack
import pytest

from engine.bots import GetItBot
from net import fanout, lobby
from net import journal as j
from net.fanout import Outbox, Sent
from net.past import PAST_BYTES
from net.seats import HouseRules, RequestError, random_bot_factory, real_bot_factory
from net.table import Table
from net.wire import codec, errors, framing


class Guest:
    """A member with no connection: it keeps the frames and messages it is sent."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.player = f"player {name}"
        self.table: Any = None
        self.seat: int | None = None
        self.sent = Sent()
        self.closed = False
        self.congested = False
        self.frames: list[bytes] = []
        self.messages: list[dict[str, Any]] = []
        self.view: dict[str, Any] | None = None
        #: Updates that carried only what changed in the view.
        self.changes = 0

    def send_frame(self, frame: bytes) -> None:
        self.frames.append(frame)

    def hold(self, events: list[dict[str, Any]], notices: list[dict[str, Any]]) -> None:
        raise AssertionError("a guest always reads")

    def send(self, message: dict[str, Any]) -> None:
        self.messages.append(message)

    def close(self) -> None:
        self.closed = True

    def updates(self) -> list[dict[str, Any]]:
        """Every update received so far, each with its whole view rebuilt from the
        view changes (as a client does); forgets them once read."""
        out = []
        for frame in self.frames:
            msg = msgpack.unpackb(frame[framing.HEADER.size:], raw=False, strict_map_key=True)
            assert msg["type"] == "update"
            if "view_changes" in msg:
                assert self.view is not None
                self.changes += 1
                msg["view"] = codec.apply_view_changes(self.view, msg.pop("view_changes"))
            self.view = msg["view"]
            out.append(msg)
        self.frames.clear()
        return out


def house(bot_delay: float = 0.5, seed: int = 1, bots: Any = random_bot_factory) -> HouseRules:
    rng = random.Random(seed)
    return HouseRules(bots, lambda: rng.getrandbits(62), bot_delay)


def send(out: Outbox) -> Outbox:
    """Do what the host does with an outbox (all but the journal)."""
    for member, message in out.messages:
        member.send(message)
    for push in out.pushes:
        fanout.deliver(push)
    for member, line in out.lines:
        member.send(line)
    return out


def recipients(out: Outbox) -> list[list[int | None]]:
    """Each push's seats, in order (``None``: a spectator)."""
    return [[seat for _, seat in push.to] for push in out.pushes]


def notices(guest: Guest) -> list[dict[str, Any]]:
    return [n for u in guest.updates() for n in u["notices"]]


def card_ids(value: Any) -> set[int]:
    """Ids of every GET OUT! card anywhere in ``value``."""
    if isinstance(value, dict):
        found = {value["id"]} if {"id", "image", "value", "wild"} <= set(value) else set()
        return found.union(*(card_ids(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(card_ids(v) for v in value))
    return set()


def seated(game_id: str, options: dict[str, Any], names: str, bots: int = 0,
           rules: HouseRules | None = None) -> tuple[Table, list[Guest]]:
    """A table in its lobby with a guest in each of the first seats, all ready."""
    table = lobby.open_table("t1", "T", game_id, len(names) + bots, options,
                             rules or house(), bots=bots)
    guests = [Guest(name) for name in names]
    for guest in guests:
        send(lobby.join(table, guest, None, 0.0)[1])
    for guest in guests[1:]:
        send(lobby.ready(table, guest, True, 0.0))
    return table, guests


def test_the_lobby_seats_people_and_bots_and_starts_once_everyone_is_ready() -> None:
    table = lobby.open_table("t1", "Kitchen", "getout", 3, {"match": False}, house())
    ann, bob = Guest("Ann"), Guest("Bob")
    token, out = lobby.join(table, ann, None, 0.0)
    send(out)
    assert (ann.table, ann.seat, table.creator) == (table, 0, 0)
    assert token.startswith(table.uid + ".") and table.seats[0].token == token
    assert recipients(out) == [[0]]
    assert notices(ann) == [{"type": "joined", "seat": 0, "name": "Ann"}]
    _, out = lobby.join(table, bob, 2, 1.0)
    send(out)
    assert recipients(out) == [[0, 2]] and bob.seat == 2
    assert ann.updates()[-1]["table"]["seats"][2]["name"] == "Bob"
    with pytest.raises(RequestError) as refused:
        lobby.join(table, Guest("Cy"), 2, 1.0)
    assert refused.value.code == errors.SEAT_TAKEN
    with pytest.raises(RequestError) as refused:
        lobby.add_bot(table, bob, 1, 1.0)
    assert refused.value.code == errors.NOT_CREATOR
    with pytest.raises(RequestError, match="seat 2 is empty"):
        lobby.start(table, ann, 2.0)
    send(lobby.add_bot(table, ann, 1, 2.0))
    assert table.seats[1].kind == "bot" and table.seats[1].name == "Bot 2"
    with pytest.raises(RequestError, match=r"Bob \(seat 3\) is not ready yet"):
        lobby.start(table, ann, 2.0)
    send(lobby.ready(table, bob, True, 2.0))
    out = send(lobby.start(table, ann, 3.0))
    assert table.phase == "play" and table.game is not None and table.t0 == 3.0
    assert table.seats[1].bot is not None  # the bot is made as the game is dealt
    assert recipients(out) == [[0, 2]]
    for guest, seat in ((ann, 0), (bob, 2)):
        update = guest.updates()[-1]
        assert {"type": "started"} in update["notices"]
        assert update["view"] == table.game.view(seat)
        assert update["legal"] == table.game.legal_actions(seat)
    with pytest.raises(RequestError) as refused:
        lobby.join(table, Guest("Cy"), None, 4.0)
    assert refused.value.code == errors.WRONG_PHASE


def test_the_creator_ends_a_match_in_play_and_takes_the_table_back_to_the_lobby() -> None:
    table, (ann, bob) = seated("getout", {"match": True}, "AB", bots=1)
    eve = Guest("Eve")
    send(lobby.watch(table, eve, 0.0))
    send(lobby.start(table, ann, 1.0))
    assert table.phase == "play"
    for guest in (ann, bob, eve):
        guest.updates()
    # Only the creator may, and only at a table in play or over.
    for other in (bob, eve):
        with pytest.raises(RequestError) as refused:
            lobby.to_lobby(table, other, 2.0)
        assert refused.value.code == errors.NOT_CREATOR
    assert table.phase == "play" and table.game is not None
    # A resumed game stands frozen, waiting for everyone: ending it ends that too.
    table.frozen, table.paused = 0.5, True
    out = send(lobby.to_lobby(table, ann, 3.0))
    assert (table.phase, table.game, table.frozen, table.paused) == ("lobby", None, None, False)
    assert table.seats[2].kind == "bot" and table.seats[2].bot is None
    assert recipients(out) == [[0, 1, None]]  # everyone at the table is told, and who did it
    for guest in (ann, bob, eve):
        (last,) = guest.updates()
        assert last["view"] is None and last["table"]["phase"] == "lobby"
        assert {"type": "back_to_lobby", "ended": True, "seat": 0} in last["notices"]
    with pytest.raises(RequestError) as refused:
        lobby.to_lobby(table, ann, 4.0)  # in the lobby already
    assert refused.value.code == errors.WRONG_PHASE
    # The next game runs on its own clock from its start.
    send(lobby.ready(table, bob, True, 5.0))
    send(lobby.start(table, ann, 6.0))
    assert table.phase == "play" and table.t0 == 6.0 and table.elapsed(8.0) == 2.0
    assert table.seats[2].bot is not None and table.next_wake() is not None


def test_names_are_unique_at_a_table_and_a_token_takes_a_seat_back() -> None:
    table, (ann, _) = seated("getout", {}, ["Ann", "root"], bots=1)
    send(lobby.remove_bot(table, ann, 2, 0.0))
    other = Guest("ROOT")
    send(lobby.watch(table, other, 0.0))
    assert table.spectators == [other] and other.seat is None
    send(lobby.leave(table, other, 0.0))
    token, _ = lobby.join(table, other, None, 0.0)
    assert table.seats[2].name == "ROOT (2)"  # "ROOT" and "root" are one name
    # A new connection with the token takes the seat from a half-open old one.
    again = Guest("root")
    with pytest.raises(RequestError) as refused:
        lobby.rejoin(table, again, 2, token[:-1] + ("y" if token.endswith("x") else "x"), 0.0)
    assert refused.value.code == errors.BAD_TOKEN
    back, out = lobby.rejoin(table, again, 2, token, 0.0)
    send(out)
    assert back == token and table.seats[2].conn is again and again.seat == 2
    assert other.messages[-1]["code"] == errors.REPLACED and out.closing == [other]
    assert other.table is None and other.seat is None
    assert recipients(out) == [[0, 1, 2]]


def test_a_move_reaches_each_seat_as_its_own_view_and_no_other_seats_cards() -> None:
    table, guests = seated("getout", {"match": False, "first": 0}, ["Ann", "Bob", "Cy"])
    watcher = Guest("Eve")
    send(lobby.watch(table, watcher, 0.0))
    send(lobby.start(table, guests[0], 1.0))
    game = table.game
    assert game is not None
    everyone: list[tuple[Guest, int | None]] = [*zip(guests, range(3), strict=True),
                                                (watcher, None)]
    rng = random.Random(5)
    now = 1.0
    for guest, _ in everyone:
        guest.frames[:-1] = []  # (the lobby's updates)
    for _ in range(30):
        hands = {seat: set(game.hands[seat]) for seat in range(3)}
        for guest, seat in everyone:
            (update,) = guest.updates()  # one update each, for each change
            assert update["seat"] == seat and update["view"] == game.view(seat)
            others = set().union(*(h for s, h in hands.items() if s != seat))
            assert not card_ids(update) & others, f"seat {seat} saw another seat's card"
            if seat is not None:
                assert {c["id"] for c in update["view"]["hand"]} == hands[seat]
                assert update["legal"] == game.legal_actions(seat)
            else:
                assert update["legal"] == [] and "hand" not in update["view"]
        if game.over:
            break
        mover = next(s for s in range(3) if game.legal_actions(s))
        now += 1.0
        out = send(table.act(mover, rng.choice(game.legal_actions(mover)), now))
        assert recipients(out) == [[0, 1, 2, None]]
    # After the first whole view, each update carried only what changed in it.
    assert all(guest.changes >= 20 for guest, _ in everyone)
    with pytest.raises(RequestError) as refused:
        table.act(next(s for s in range(3) if not game.legal_actions(s)), {"type": "draw"}, now)
    assert refused.value.code == errors.ILLEGAL_ACTION


def arranged(hand: list[dict[str, Any]]) -> list[int]:
    """A legal Get It! pile order: numbers ascending on top, special cards below."""
    numbers = sorted((c for c in hand if c["kind"] == "number"), key=lambda c: c["value"])
    return [c["id"] for c in numbers] + [c["id"] for c in hand if c["kind"] != "number"]


def test_the_get_it_timer_ends_the_round_at_its_deadline_and_not_before() -> None:
    table, guests = seated("getit", {"level": "X", "cards": 6, "timer": 5}, ["A", "B", "C"])
    table.journaling = True
    send(lobby.start(table, guests[0], 100.0))
    game = table.game
    assert game is not None
    assert table.next_wake() is None  # no clock runs while the piles are arranged
    for seat in range(3):
        out = send(table.act(seat, {"type": "arrange", "pile": arranged(game.view(seat)["hand"])},
                             101.0))
    assert table.next_wake() == 106.0  # the last arrange (engine time 1) + 5 s
    update = guests[0].updates()[-1]
    assert update["view"]["remaining"] == 5.0 and "deadline" not in update["view"]
    send(table.changed([], [], 103.5))
    assert guests[1].updates()[-1]["view"]["remaining"] == 2.5  # seconds left, on any clock
    early = table.wake(105.9)
    assert not early.pushes and not early.records and table.phase == "play"
    out = send(table.wake(106.0))
    assert table.phase == "over" and table.next_wake() is None
    assert {"k": "adv", "t": "t1", "n": 6.0} in out.records
    assert recipients(out) == [[0, 1, 2]]
    for guest in guests:
        over = guest.updates()[-1]
        assert any(e.get("reason") == "time" for e in over["events"])
        assert over["table"]["phase"] == "over" and over["legal"] == []
        assert any(n["type"] == "game_over" for n in over["notices"])


def test_turn_based_bots_move_one_at_a_time_when_called_at_their_time() -> None:
    rules = house(bot_delay=0.5, bots=real_bot_factory)
    table, (ann,) = seated("getout", {"first": 1, "match": False}, ["Ann"], bots=2, rules=rules)
    send(lobby.start(table, ann, 10.0))
    game = table.game
    assert game is not None
    assert table.next_wake() == 10.0  # the bots look as soon as the game is dealt
    version = game.version
    out = send(table.wake(10.0))
    assert game.version == version + 1 and game.view(None)["turn"] == 2
    assert recipients(out) == [[0]]  # the bot's move reaches the one person
    assert table.next_wake() == 10.5  # the next bot waits out the pace
    assert not table.wake(10.4).pushes and game.version == version + 1
    send(table.wake(10.5))
    assert game.version == version + 2 and game.view(None)["turn"] == 0
    assert table.next_wake() == 11.0
    assert not send(table.wake(11.0)).pushes  # nothing for the bots to do: Ann's turn
    assert table.next_wake() is None
    send(table.act(0, game.legal_actions(0)[0], 20.0))
    assert table.next_wake() == 20.0  # a person's move: the bots look at once
    send(table.wake(20.0))
    assert game.version == version + 4 and game.view(None)["turn"] == 2
    # Another change before the pace is over does not bring the next bot forward.
    send(table.changed([], [], 20.2))
    assert table.next_wake() == 20.5
    rules.bot_delay = 2.0  # (a solo player may change the pace at any time)
    send(table.wake(20.5))
    assert game.version == version + 5 and table.next_wake() == 22.5


def test_a_bot_that_thinks_long_thinks_in_slices_and_makes_the_move_it_would_at_once(
) -> None:
    from engine.bots.getout_search import GetOutSearchBot

    seeds: list[int] = []

    def strong(game_id: str, seat: int, seed: int) -> GetOutSearchBot:
        seeds.append(seed)
        return GetOutSearchBot(seed, iterations=3000)

    rules = house(bot_delay=0.0, bots=strong)
    table, (ann,) = seated("getout", {"first": 1, "match": False}, ["Ann"], bots=1, rules=rules)
    send(lobby.start(table, ann, 10.0))
    game = table.game
    assert game is not None and game.view(None)["turn"] == 1
    hand = list(game.hands[1])
    # The same bot asked at once (any card may open a round: a real choice).
    twin = GetOutSearchBot(seeds[0], iterations=3000)
    chosen = twin.choose(game.view(1), game.legal_actions(1))
    assert chosen is not None and chosen["type"] == "play"
    version = game.version
    slices = 0
    while game.version == version:
        assert table.next_wake() == 10.0  # between slices, the bots look again at once
        assert not send(table.wake(10.0)).pushes or game.version > version
        slices += 1
    assert slices >= 2
    assert game.hands[1] == [c for c in hand if c != chosen["card"]]
    assert game.played[-1] == chosen["card"]


def test_the_bots_leave_the_next_round_to_the_people_at_the_table() -> None:
    from engine.testing import stack_getout

    rules = house(bot_delay=0.0, bots=real_bot_factory)
    table, (ann,) = seated("getout", {"first": 0}, ["Ann"], bots=1, rules=rules)
    send(lobby.start(table, ann, 0.0))
    game = table.game
    assert game is not None
    stack_getout(game, [["kevin 1"], ["geoff 12"]], played=["kevin 8"], turn=0)
    send(table.act(0, {"type": "play", "card": game.hands[0][0]}, 1.0))
    assert game.view(None)["phase"] == "round_over"
    assert game.legal_actions(1) == [{"type": "next_round"}]
    assert table.next_wake() == 1.0
    send(table.move_bots(1.0))
    assert game.view(None)["phase"] == "round_over"  # the bot may, but must not, deal
    assert table.next_wake() is None
    send(lobby.leave(table, ann, 2.0))  # nobody left to decide: the bot deals
    send(table.move_bots(2.0))
    assert game.view(None)["round"] == 2


def test_real_time_bots_are_asked_again_at_the_engine_time_they_name() -> None:
    def quick(game_id: str, seat: int, seed: int) -> GetItBot:
        return GetItBot(seed, reaction=0.3, jitter=0.0)

    rules = house(bots=quick)
    table, (ann,) = seated("getit", {"level": "X", "cards": 6, "timer": 0}, ["Ann"], bots=2,
                           rules=rules)
    send(lobby.start(table, ann, 50.0))
    game = table.game
    assert game is not None
    moves: list[float] = []
    when = table.next_wake()
    assert when == 50.0  # asked as soon as the game is dealt
    for _ in range(10):
        if when is None:
            break
        version = game.version
        assert not table.wake(when - 0.01).pushes and game.version == version
        send(table.wake(when))
        if game.version != version:
            moves.append(when)
        later = table.next_wake()
        assert later is None or later >= when
        when = later
    # Each bot arranges its pile after its reaction time, not at the deal; then they
    # wait for Ann (nothing to wake for).
    assert moves == [pytest.approx(50.3), pytest.approx(50.3)] and when is None
    assert game.view(None)["arranged"] == [False, True, True]


def test_a_long_game_writes_its_whole_state_in_proportion_to_its_length() -> None:
    """One person holding both seats of a GET OUT! table passed turns back and forth
    for ever: every 100 moves the table wrote its whole state, every move of the game
    in it, and what it wrote grew with the square of the game's length."""
    table, (ann, _bob) = seated("getout", {"match": False, "first": 0}, ["Ann", "Bob"])
    table.journaling = True
    lobby.start(table, ann, 0.0)
    game = table.game
    assert game is not None
    moves = 6000
    written = whole = 0
    for step in range(moves):
        mover = game.view(None)["turn"]
        # (Drawing while any card is left, then passing: a game that never ends.)
        legal = game.legal_actions(mover)
        action = next((a for a in legal if a["type"] in ("draw", "pass")), legal[0])
        out = table.act(mover, action, 1.0 + step)
        for r in out.records:
            if r["k"] == "table":
                whole += 1
                written += len(r["tape"]["moves"])
    assert not game.over
    # Every 100 moves: 60 whole states of 18,000 moves on average, 1.8 million in all.
    assert whole <= 30 and written <= 10 * moves, (whole, written)


def test_the_journal_records_each_change_and_plays_them_back() -> None:
    table, (ann, _bob) = seated("getout", {"match": True, "first": 0}, ["Ann", "Bob"])
    table.journaling = True
    out = lobby.start(table, ann, 0.0)
    # The table's past goes with it (the start, told everyone).
    (state,) = [r for r in out.records if r["k"] != "past"]
    assert [r["e"] for r in out.records if r["k"] == "past"] == table.past.entries()[-1:]
    assert state["k"] == "table" and state["phase"] == "play" and state["snapshot"]
    game = table.game
    assert game is not None
    ops = []
    snapshots = 0
    rng = random.Random(2)
    for step in range(j.SNAPSHOT_EVERY + 5):
        mover = next(s for s in range(2) if game.legal_actions(s))
        out = table.act(mover, rng.choice(game.legal_actions(mover)), 1.0 + step)
        records = [r for r in out.records if r["k"] != "past"]
        assert records[0]["k"] == "act" and records[0]["s"] == mover
        if len(records) == 2:  # the periodic snapshot
            assert records[1]["k"] == "table" and (step + 1) % j.SNAPSHOT_EVERY == 0
            state, ops = records[1], []
            snapshots += 1
        else:
            ops.append(records[0])
    assert snapshots == 1 and len(ops) == 5 and not game.over
    back = Table.restore(state, ops, house())
    assert back.game is not None and back.game.view(None) == game.view(None)
    assert back.frozen == game.now and [s.conn for s in back.seats] == [None, None]
    assert [s.token for s in back.seats] == [s.token for s in table.seats]


def test_the_table_s_past_holds_what_everyone_was_told_and_nothing_one_seat_saw() -> None:
    """Who comes (back) to a table is given its past: the public events, notices and
    chat lines everyone there was sent, in order, under the names of then; never a view,
    a hand, legal actions or a Got Five! mark; the newest that fit in PAST_BYTES."""
    table, guests = seated("getout", {"match": False, "first": 0}, ["Ann", "Bob"])
    send(lobby.start(table, guests[0], 1.0))
    send(lobby.chat(table, guests[1], "good luck"))
    game = table.game
    assert game is not None
    rng = random.Random(3)
    now, played = 1.0, []
    for _ in range(12):
        if game.over:
            break
        mover = next(s for s in range(2) if game.legal_actions(s))
        now += 1.0
        out = send(table.act(mover, rng.choice(game.legal_actions(mover)), now))
        played += [e for push in out.pushes for e in push.events]
    past = table.past.entries()
    said = [e for e in past if e["type"] == "chat"]
    assert said == [{"type": "chat", "table": "t1", "seat": 1, "name": "Bob",
                     "text": "good luck"}]
    updates = [e for e in past if e["type"] == "update"]
    assert [e for u in updates for e in u["events"]][-len(played):] == played
    assert {"type": "joined", "seat": 1, "name": "Bob"} in [n for u in updates
                                                            for n in u["notices"]]
    assert all(u["names"] == ["Ann", "Bob"] and u["game"] == "getout" for u in updates[-5:])
    hands = set(game.hands[0]) | set(game.hands[1])
    assert not card_ids(past) & hands, "the past holds a card in someone's hand"
    assert all(set(u) == {"type", "game", "events", "notices", "names"} for u in updates)
    # Bounded: a flood of long chat lines keeps only the newest that fit.
    for i in range(400):
        send(lobby.chat(table, guests[0], f"{i:04d} " + "x" * 400))
    past = table.past.entries()
    assert len(msgpack.packb(past)) <= PAST_BYTES
    assert past[-1]["text"].startswith("0399") and len(past) < 400


def test_a_got_five_mark_is_not_in_the_table_s_past() -> None:
    table, guests = seated("gotfive", {"first": 0}, ["Ann", "Bob"])
    send(lobby.start(table, guests[0], 1.0))
    before = len(table.past.entries())
    send(table.act(1, {"type": "mark", "n": 3, "mark": "cross"}, 2.0))
    assert len(table.past.entries()) == before


def _finish(table: Table) -> None:
    """Play ``table``'s game to its end at random (every seat a person's)."""
    game = table.game
    assert game is not None
    rng, now = random.Random(4), 10.0
    while not game.over:
        now += 1.0
        mover = next(s for s in range(game.seats) if game.legal_actions(s))
        send(table.act(mover, rng.choice(game.legal_actions(mover)), now))


def test_a_rematch_deals_the_same_table_again_once_everyone_is_ready() -> None:
    table, (ann, bob) = seated("getout", {"match": False, "first": 0}, ["Ann", "Bob"])
    send(lobby.start(table, ann, 1.0))
    first = table.game
    with pytest.raises(RequestError) as refused:
        lobby.rematch(table, ann, 2.0)  # not before the game is over
    assert refused.value.code == errors.WRONG_PHASE
    _finish(table)
    with pytest.raises(RequestError) as refused:
        lobby.rematch(table, bob, 90.0)
    assert refused.value.code == errors.NOT_CREATOR
    ann.updates(), bob.updates()
    send(lobby.rematch(table, ann, 100.0))
    assert table.phase == "lobby" and table.rematch and table.seats[0].ready
    # The table says so (a lobby told its creator to start what the host deals itself).
    told = [u["table"]["rematch"] for u in ann.updates() if "table" in u]
    assert told[-1] is True
    assert {"type": "rematch", "seat": 0} in notices(bob)
    send(lobby.ready(table, bob, True, 101.0))
    assert table.phase == "play" and table.game is not first and not table.rematch
    assert [s.name for s in table.seats] == ["Ann", "Bob"] and table.options["first"] == 0
    assert {"type": "started"} in notices(ann)


def test_a_rematch_at_a_table_of_bots_deals_at_once_and_a_new_setup_is_no_rematch() -> None:
    table, (ann,) = seated("gotfive", {}, ["Ann"], bots=1)
    send(lobby.start(table, ann, 1.0))
    assert table.game is not None
    table.game.act(0, {"type": "announce", "numbers": [1, 2, 3, 4, 5]}, now=2.0)
    send(table.changed([], [], 2.0))
    if not table.game.over:
        table.game.act(1, {"type": "announce", "numbers": [1, 2, 3, 4, 6]}, now=3.0)
        send(table.changed([], [], 3.0))
    assert table.phase == "over"
    ann.updates()
    send(lobby.rematch(table, ann, 5.0))
    assert table.phase == "play" and table.seats[1].kind == "bot"
    assert notices(ann)[-2:] == [{"type": "rematch", "seat": 0, "dealt": True},
                                 {"type": "started"}]

    people, (cy, dee) = seated("getout", {"match": False}, ["Cy", "Dee"])
    send(lobby.start(people, cy, 1.0))
    _finish(people)
    send(lobby.rematch(people, cy, 200.0))
    send(lobby.configure(people, cy, 201.0, options={"limit": 50}))
    assert not people.rematch
    send(lobby.ready(people, dee, True, 202.0))
    assert people.phase == "lobby"  # the creator starts a table set up anew

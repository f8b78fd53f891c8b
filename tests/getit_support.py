"""Shared helpers for the Get It! tests: a view-only perfect team and secrecy checks."""

from __future__ import annotations

import random
from typing import Any

import msgpack

import engine
from engine.core import Event, View
from engine.getit import GetIt, arrangement


def new(seats: int = 3, seed: int = 1, **options: Any) -> GetIt:
    """A fresh Get It! game through the public entry point."""
    game = engine.new_game("getit", seats=seats, seed=seed, options=options)
    assert isinstance(game, GetIt)
    return game


def arrange_all(game: GetIt, now: float = 0.0, seed: int = 0) -> list[Event]:
    """Every seat submits a legal pile built from its own view's hand."""
    rng = random.Random(seed)
    events: list[Event] = []
    for seat in range(game.seats):
        hand = game.view(seat)["hand"]
        events += game.act(seat, {"type": "arrange", "pile": arrangement(hand, rng)}, now)
    return events


def seen_tops(game: GetIt) -> dict[int, dict[str, Any]]:
    """Each holder's top card as its left neighbour's view shows it (views only)."""
    tops = {}
    for holder in range(game.seats):
        top = game.view((holder + 1) % game.seats)["piles"][holder]["top"]
        if top is not None:
            tops[holder] = top
    return tops


def perfect_holder(game: GetIt) -> int:
    """The seat a perfect team lets play: a special card first, else the lowest number."""
    tops = seen_tops(game)
    specials = sorted(h for h, c in tops.items() if c["kind"] != "number")
    if specials:
        return specials[0]
    return min(tops, key=lambda h: (tops[h]["value"], h))


def play_perfect_round(game: GetIt, now: float, step: float = 0.1) -> tuple[float, list[Event]]:
    """Arrange, then play every card correctly; returns the time reached and the events."""
    events = arrange_all(game, now)
    while game.phase_name == "play":
        now += step
        events += game.act(perfect_holder(game), {"type": "play"}, now)
    return now, events


def dict_nodes(data: Any) -> list[tuple[str, dict[str, Any]]]:
    """Every (path, dict) of a plain-data tree, the root included, walked iteratively."""
    found: list[tuple[str, dict[str, Any]]] = []
    stack: list[tuple[str, Any]] = [("", data)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, dict):
            found.append((path, node))
            stack.extend((f"{path}/{k}", v) for k, v in node.items() if isinstance(v, dict | list))
        elif isinstance(node, list):
            stack.extend(
                (f"{path}/{i}", v) for i, v in enumerate(node) if isinstance(v, dict | list)
            )
    return found


def card_nodes(data: Any) -> list[tuple[str, dict[str, Any]]]:
    """Every card-shaped dict in a plain-data tree: one with a ``kind``, ``value`` or
    ``id`` key (each of those must come with a ``kind``)."""
    nodes = [(p, n) for p, n in dict_nodes(data) if "kind" in n or "value" in n or "id" in n]
    for path, node in nodes:
        assert "kind" in node, f"{path}: {node} looks like part of a card without its kind"
    return nodes


def check_view_secrecy(game: GetIt, seat: int | None, view: View | None = None) -> None:
    """Walk ``seat``'s view: it shows only cards that seat may know, as RULES.md says."""
    if view is None:
        view = game.view(seat)
    held = set(game.piles[seat]) if seat is not None else set()
    allowed = set(game.played)
    for holder, pile in enumerate(game.piles):
        if pile and seat is not None and holder != seat:
            allowed.add(pile[-1])
    if seat is not None and game.phase_name == "prepare":
        allowed |= set(game.hands[seat])
    if game.phase_name in ("round_over", "over") and seat is not None:
        # The finished round is laid open (``reveal``), but for the pile the seat holds:
        # RULES.md has no exception for a round that is over.
        allowed |= {c for holder, pile in enumerate(game.piles) if holder != seat
                    for c in pile}
    for path, node in card_nodes(view):
        if "id" not in node:
            # Only a peeking seat's own top card, and only its face.
            assert seat is not None and path == "/peek", f"{path}: id-less card {node}"
            assert game.peeking[seat] and game.piles[seat], f"{path}: peek without a peek"
            assert node == game.cards[game.piles[seat][-1]].face()
            assert set(node) == {"kind", "value"}
            continue
        cid = node["id"]
        assert cid not in held, f"seat {seat} sees card {cid} of the pile it holds at {path}"
        assert cid in allowed, f"seat {seat} sees card {cid} it may not know at {path}"
        assert node == game.cards[cid].plain(), f"{path}: {node} is not the real card"
    if seat is None:
        assert all(p["top"] is None for p in view["piles"]), "a spectator sees a top card"


def check_events_secrecy(game: GetIt, events: list[Event]) -> None:
    """Events name only cards that are public (played) once they have happened."""
    for event in events:
        for path, node in card_nodes(event):
            assert "id" in node and node["id"] in game.played, f"event {event} leaks {path}"


def check_conserved(game: GetIt) -> None:
    """No card is lost or duplicated: the round's cards are all in hands, piles or played."""
    if game.phase_name == "prepare":
        ids = [c for h in game.hands for c in h]
    else:
        ids = [c for p in game.piles for c in p] + game.played
    assert len(ids) == len(set(ids)), "a card is in two places"
    assert len(ids) == game.deck_size()
    assert set(ids) <= set(game.level_deck())


def roundtrip(value: Any) -> Any:
    """``value`` packed and unpacked with msgpack, strict map keys."""
    return msgpack.unpackb(msgpack.packb(value), strict_map_key=True)


def all_views(game: GetIt) -> list[View]:
    """Every seat's view and the spectator's."""
    return [game.view(s) for s in [*range(game.seats), None]]


def legal_from_view(view: View) -> list[dict[str, Any]]:
    """The legal actions a seat can work out from its own view alone.

    The engine's list must equal this: if it held anything more, legal actions would tell
    a seat something its view does not (such as "you hold the mirror").
    """
    seat = view["seat"]
    phase = view["phase"]
    if phase == "prepare":
        return [] if view["arranged"][seat] else [{"type": "arrange"}]
    if phase == "round_over":
        return [{"type": "next_round"}]
    if phase != "play":
        return []
    actions: list[dict[str, Any]] = []
    if view["piles"][seat]["count"]:
        actions.append({"type": "play"})
    others = [s for s in range(len(view["piles"])) if s != seat]
    mine = view["signals"][seat]
    for kind in ("look", "smile", "look_past"):
        actions += [{"type": kind, "target": t} for t in [None, *others] if t != mine[kind]]
    kinds = {p["top"]["kind"] for p in view["piles"] if p["top"] is not None}
    if mine["peek"]:
        actions.append({"type": "peek", "on": False})
    elif "mirror" in kinds:
        actions.append({"type": "peek", "on": True})
    if "speech" in kinds:
        actions.append({"type": "say"})
    return actions

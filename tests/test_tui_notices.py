"""The notice and chat formatters never fail on what a host sends, and always say something.

Every notice type the host sends is fed with each of its optional fields absent, ``null``
and of a wrong type: the formatter must answer with a plain line, never raise.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import pytest

from tui.notices import describe_chat, describe_notice

ROOT = Path(__file__).resolve().parent.parent

#: Every notice the host sends, with its fields as the host fills them.
NOTICES: dict[str, dict[str, Any]] = {
    "joined": {"seat": 1, "name": "Bob"},
    "left": {"seat": 1, "name": "Bob"},
    "moved": {"from": 0, "to": 2},
    "renamed": {"seat": 1, "name": "Robert"},
    "disconnected": {"seat": 1},
    "stepped_away": {"seat": 1},
    "reconnected": {"seat": 1, "name": "Bob"},
    "kicked": {"seat": 1},
    "bot_added": {"seat": 2},
    "stand_in": {"seat": 1, "bot": "Bot 2", "name": "Bob"},
    "bot_removed": {"seat": 2},
    "creator": {"seat": 1},
    "watching": {"name": "Eve"},
    "stopped_watching": {"name": "Eve"},
    "configured": {"changed": {"game": "gotfive", "seats": 3, "options": {"hints": "count"}}},
    "started": {},
    "game_over": {"result": {"winners": [1], "scores": [3, 0, 1]}},
    "back_to_lobby": {"ended": True, "seat": 0, "longest": 30_000},
    "rematch": {"seat": 0},
    "paused": {"waiting": [1, 2]},
    "resumed": {},
    "restarted": {},
}
#: The host's modules that send notices.
SENDERS = ("host.py", "table.py", "lobby.py", "handlers.py", "connection.py", "away.py",
           "endless.py")
#: Message types in those modules that are not notices (replies, pushes, actions).
NOT_NOTICES = {"update", "ok", "ping", "pong", "welcome", "tables", "chat", "next_round",
               "error"}
#: What a field can wrongly be on the wire.
WRONG = [None, "2", 2.5, True, -1, 99, [], {}, {"seat": 1}, "", "x" * 300]
NAMES = ["Ann", "Bob", "Cy"]


def test_every_notice_the_host_sends_is_listed_here() -> None:
    source = "".join((ROOT / "net" / name).read_text() for name in SENDERS)
    sent = set(re.findall(r'"type": "(\w+)"', source)) - NOT_NOTICES
    assert sent, "no notice types found in the host's modules"
    assert sent <= set(NOTICES), f"notices not covered by this test: {sent - set(NOTICES)}"


def variants(fields: dict[str, Any]) -> list[dict[str, Any]]:
    """Each field absent, then each field set to each wrong value, one at a time and all."""
    out: list[dict[str, Any]] = [dict(fields)]
    for key in fields:
        out.append({k: v for k, v in fields.items() if k != key})
        out.extend({**fields, key: bad} for bad in WRONG)
    out.extend({key: bad for key in fields} for bad in WRONG)
    out.append({})
    return out


@pytest.mark.parametrize("kind", sorted(NOTICES))
def test_a_notice_with_missing_null_or_wrong_fields_still_gives_a_line(kind: str) -> None:
    for fields, names in itertools.product(variants(NOTICES[kind]), [NAMES, [], ["Ann"]]):
        line = describe_notice({"type": kind, **fields}, names)
        assert isinstance(line, str) and line.strip(), (kind, fields)
        assert "None" not in line and "{" not in line and "[" not in line, line


def test_a_game_ended_for_its_length_says_so() -> None:
    assert describe_notice({"type": "back_to_lobby", "ended": True, "longest": 30_000},
                           NAMES) == ("the game went on for 30,000 moves, as many as one game "
                                      "may: it ended there (Past games keeps it); back in "
                                      "the lobby")


def test_notices_name_the_seats_as_players_count_them() -> None:
    assert describe_notice({"type": "joined", "seat": 1, "name": "Bob"}, NAMES) == (
        "Bob sat down at seat 2")
    assert describe_notice({"type": "left", "seat": 0}, NAMES) == "Ann left"
    assert describe_notice({"type": "watching", "name": "Eve"}, NAMES) == (
        "Eve is watching (spectator)")
    assert describe_notice({"type": "moved", "from": 0, "to": 2}, NAMES) == (
        "Cy moved from seat 1 to seat 3")
    assert describe_notice({"type": "configured", "changed": {
        "seats": 4, "options": {"limit": 150, "first": None, "best": 31}}}, NAMES) == (
        "the table changed: 4 seats, limit 150, first at random; everyone says Ready again "
        "(a bot is at once)")
    assert describe_notice({"type": "configured", "changed": {
        "game": "gotfive", "options": {"hints": "count"}}}, NAMES) == (
        "the table changed: Got Five!, hints count; everyone says Ready again "
        "(a bot is at once)")
    # Another game's whole set: what does not matter with the rest is left out, as the
    # lobby's summary leaves it (Get It!'s deck size belongs to Level X alone).
    assert describe_notice({"type": "configured", "changed": {
        "game": "getit", "options": {"level": 1, "cards": 25, "timer": 60}}}, NAMES) == (
        "the table changed: Get It!, level 1, timer 60 s; everyone says Ready again "
        "(a bot is at once)")
    assert describe_notice({"type": "configured", "changed": {}}, NAMES) == (
        "the creator set the table again (nothing changed): everyone says Ready "
        "again (a bot is at once)")
    assert describe_notice({"type": "renamed", "seat": None, "name": "Zed"}, NAMES) == (
        "a spectator is now called Zed")
    assert describe_notice({"type": "game_over", "result": {"winners": [2]}}, NAMES) == (
        "the game is over: Cy won")
    assert describe_notice({"type": "disconnected", "seat": 7}, NAMES) == (
        "someone lost the connection (away)")
    assert describe_notice({"type": "back_to_lobby"}, NAMES) == "back in the lobby"
    assert describe_notice({"type": "back_to_lobby", "ended": True, "seat": 0}, NAMES) == (
        "Ann ended the game: back in the lobby")
    assert describe_notice({"type": "creator", "seat": 1}, NAMES) == "Bob runs the table now (★)"
    assert describe_notice({"type": "stand_in", "seat": 1, "bot": "Bot 2", "name": "Bob"},
                           NAMES) == "Bot 2 plays for Bob at seat 2 until they are back"
    assert describe_notice({"type": "stand_in", "seat": 1, "name": "Bob"}, NAMES) == (
        "a bot plays for Bob at seat 2 until they are back")  # (an older host's)
    # Bob, back, read "Bot 2 plays for Bob … until they are back" of himself.
    assert describe_notice({"type": "stand_in", "seat": 1, "bot": "Bot 2", "name": "Bob"},
                           NAMES, me=1) == "Bot 2 plays for you at seat 2 until you are back"


def test_an_unknown_or_typeless_notice_gives_no_line_and_no_error() -> None:
    assert describe_notice({"type": "teleported", "seat": 1}, NAMES) is None
    assert describe_notice({}, NAMES) is None
    assert describe_notice({"type": None}, NAMES) is None


def test_chat_lines_survive_any_field() -> None:
    good = {"type": "chat", "table": "t1", "seat": 1, "name": "Bob", "text": "hello all"}
    assert describe_chat(good) == "Bob (seat 2): hello all"
    assert describe_chat({**good, "seat": None}) == "Bob (spectator): hello all"
    # As the host sends a spectator's line (its name says so already): once, not twice.
    assert describe_chat({**good, "seat": None, "name": "Bob (spectator)"}) == (
        "Bob (spectator): hello all")
    for fields in variants({"seat": 1, "name": "Bob", "text": "hi"}):
        line = describe_chat({"type": "chat", **fields})
        assert isinstance(line, str) and ": " in line, fields
        assert line.endswith(": hi") or "text" not in fields or fields["text"] != "hi", line
        assert "None" not in line and "{" not in line and "[" not in line, line


def test_a_rematch_says_who_asked_and_how_to_join_in() -> None:
    assert describe_notice({"type": "rematch", "seat": 0}, NAMES) == (
        "Ann asks for a rematch: the same game, a new deal, as soon as everyone is ready "
        "(^r)")
    assert describe_notice({"type": "rematch", "seat": 0, "dealt": True}, NAMES) == (
        "Ann asked for a rematch: the same game, a new deal")


def test_who_left_a_lobby_is_named_though_the_seat_is_empty_by_then() -> None:
    # The names of the seats as the update brings them: seat 2 is free again.
    assert describe_notice({"type": "left", "seat": 1, "name": "Bob"},
                           ["Ann", "seat 2", "Cy"]) == "Bob left"
    assert describe_notice({"type": "left", "seat": 1}, NAMES) == "Bob left"


def test_a_get_it_loss_names_you_in_the_middle_of_a_sentence_in_lower_case() -> None:
    from tui.games.getit.summary import headline
    from tui.notices import Namer

    card = {"id": 3, "value": 3, "special": None}
    view = {"phase": "round_over", "last_round": {"level": 2, "reason": "wrong", "attempt": 1},
            "reveal": {"wrong": {"seat": 1, "card": {"id": 9, "value": 9, "special": None},
                                 "expected": [{"seat": 0, "card": card}]}}}
    text = headline(view, Namer(["Ann", "Bob"], 0)).plain
    assert "Bob played" in text and "held by you had to go first" in text


def test_our_own_coming_back_is_said_to_us_as_ours() -> None:
    """Bob read "· Bob is back" about himself."""
    back = {"type": "reconnected", "seat": 1, "name": "Bob"}
    assert describe_notice(back, NAMES, me=1) == "you are back"
    assert describe_notice(back, NAMES, me=0) == "Bob is back"
    assert describe_notice(back, NAMES) == "Bob is back"
    # Back under a new name, he read as a newcomer ("Bob is back" after "Bobbington
    # left"); and his own leaving read as another's (a fresh-eyed LAN pass).
    renamed = {**back, "was": "Bobbington"}
    assert describe_notice(renamed, NAMES, me=0) == "Bobbington is back, now called Bob"
    assert describe_notice(renamed, NAMES, me=1) == "you are back, now called Bob"
    for kind, words in (("disconnected", "lost the connection (away)"),
                        ("stepped_away", "left the table (away: the seat waits)")):
        assert describe_notice({"type": kind, "seat": 1}, NAMES, me=1) == f"you {words}"
        assert describe_notice({"type": kind, "seat": 1}, NAMES, me=0) == f"Bob {words}"


def test_a_round_paused_for_a_player_away_says_when_a_bot_comes() -> None:
    """A table paused for Bob said nothing of the away bot: at 2 minutes nobody could
    tell whether anything would ever happen; and a bot standing in read "everyone is
    back"."""
    paused = {"type": "paused", "waiting": [1], "away": True}
    # (Not "until everyone is back": once the bot plays, the clock runs again.)
    assert describe_notice({**paused, "bot_after": 120.0}, NAMES) == (
        "the round's clock stands still while waiting for Bob: a bot plays for Bob once "
        "away 2 minutes")
    # Bob, back, reads it of himself.
    assert describe_notice({**paused, "bot_after": 120.0}, NAMES, me=1) == (
        "the round's clock stands still while waiting for you: a bot plays for you once "
        "away 2 minutes")
    assert describe_notice({**paused, "bot_after": 30.0}, NAMES).endswith("once away 30 s")
    assert describe_notice(paused, NAMES) == (
        "the round's clock stands still until everyone is back: waiting for Bob")
    assert "everyone is back" not in describe_notice({"type": "resumed"}, NAMES)


def test_a_bot_s_stand_in_for_us_reads_as_ours_when_we_are_back() -> None:
    """Back at his seat, Bob's log said "Bot 2 plays for Bob … until they are back":
    the seat bore the bot's name then, so the line was not counted as his."""
    from tui.notices import our_seat_then

    then, now = ["Ann", "Bot 2"], ["Ann", "Bob"]
    assert our_seat_then(1, then, now) is None  # (a bot's own moves are not ours)
    assert our_seat_then(1, then, now, kept_for="Bob") == 1
    assert our_seat_then(1, then, now, kept_for="Cy") is None
    notice = {"type": "stand_in", "seat": 1, "bot": "Bot 2", "name": "Bob"}
    assert describe_notice(notice, then, our_seat_then(1, then, now, "Bob")) == (
        "Bot 2 plays for you at seat 2 until you are back")

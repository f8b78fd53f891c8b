"""What the host's table notices say, in words — never failing on what a host sends.

A notice comes from the network: any field may be missing, ``null`` or of the wrong
type (a spectator's rename has ``"seat": null``). Every formatter here answers with a
sensible line whatever it gets; an unknown notice type gives no line at all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from tui.games import app_options


def listed(items: Sequence[object]) -> str:
    """Items in words: "3", "3 and 16", "Ann, Bo and Cy"."""
    words = [str(item) for item in items]
    if len(words) < 2:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def seat_index(value: Any) -> int | None:
    """A seat number from the wire, or ``None`` if it is not one."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        return None
    return value


def seat_names(table: dict[str, Any]) -> list[str]:
    """Each seat's display name ("seat N" when empty), from a table's public part."""
    seats = table.get("seats")
    names: list[str] = []
    for i, seat in enumerate(seats if isinstance(seats, list) else []):
        name = seat.get("name") if isinstance(seat, dict) else None
        names.append(str(name) if name else f"seat {i + 1}")
    return names


def kept_for(table: dict[str, Any]) -> Iterator[tuple[int, str]]:
    """Each seat a bot keeps warm for an away person, and that person's name."""
    seats = table.get("seats")
    for i, seat in enumerate(seats if isinstance(seats, list) else []):
        owner = seat.get("for") if isinstance(seat, dict) else None
        if isinstance(owner, str) and owner:
            yield i, owner


def seat_players(table: dict[str, Any]) -> list[str]:
    """Who plays each seat, as the seats panel names them: a bot keeping an away person's
    seat warm is "Bot 2 for Bob" (a winner's line said "Cy wins" where the log had
    "Bot 3 went out")."""
    names = seat_names(table)
    for i, owner in kept_for(table):
        names[i] = f"{names[i]} for {owner}"
    return names


def seat_owners(table: dict[str, Any]) -> list[str]:
    """Whose each seat is: its name, but for a bot keeping an away person's seat warm,
    that person's (their score is still theirs: a score table that said "Bot 2" lost
    where it had gone)."""
    names = seat_names(table)
    for i, owner in kept_for(table):
        names[i] = owner
    return names


def text(value: Any, default: str = "someone") -> str:
    """A name or text field from the wire, as a string (``default`` when absent, empty
    or not text at all — a number is written as one, a list or a map is not shown)."""
    if isinstance(value, str) and value:
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return default


def our_seat_then(me: int | None, then: Sequence[str], now: Sequence[str],
                  kept_for: Any = None) -> int | None:
    """Our seat ``me``, if it was ours when the seats had the names ``then`` (``now``:
    their names now): a log follows the person, not the seat (who sits in a bot's old
    seat did not play its moves). Names are unique at a table, so a seat's name tells
    whose it was; with nothing to tell by, the seat is ours. ``kept_for``: the person a
    bot then in the seat played for (a bot keeping it for us: ours)."""
    if me is None or me >= len(then) or me >= len(now):
        return me
    return me if then[me] == now[me] or kept_for == now[me] else None


class Namer:
    """Names seats for messages: "seat 3", "Ann (seat 3)", or "someone"."""

    def __init__(self, names: Sequence[str], me: int | None = None) -> None:
        self.names = list(names)
        self.me = me

    def name(self, seat: Any) -> str:
        """The player at ``seat`` ("someone" when the seat is unknown)."""
        index = seat_index(seat)
        if index is None or index >= len(self.names):
            return "someone"
        return self.names[index]

    def who(self, seat: Any) -> str:
        """Like :meth:`name`, but "You" for our own seat."""
        index = seat_index(seat)
        if index is not None and index == self.me:
            return "You"
        return self.name(seat)

    def whom(self, seat: Any) -> str:
        """Like :meth:`who`, inside a sentence ("held by you")."""
        index = seat_index(seat)
        if index is not None and index == self.me:
            return "you"
        return self.name(seat)

    def whose(self, seat: Any) -> str:
        """Like :meth:`whom`, possessive ("your top card", "Ann's top card")."""
        index = seat_index(seat)
        if index is not None and index == self.me:
            return "your"
        return f"{self.name(seat)}'s"

    @staticmethod
    def seat(seat: Any) -> str:
        """"seat N" as players count (from 1), or "a seat" when unknown."""
        index = seat_index(seat)
        return f"seat {index + 1}" if index is not None else "a seat"


def describe_notice(notice: dict[str, Any], names: Sequence[str],
                    me: int | None = None) -> str | None:
    """A line for the table's log about something that happened at the table (``None``
    for a notice this app cannot word: a host of another make may send any); ``me``:
    the reader's seat then (their own coming back is "you are back")."""
    try:
        return _notice_words(notice, names, me)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return None


def _notice_words(notice: dict[str, Any], names: Sequence[str],
                  me: int | None = None) -> str | None:
    n = Namer(names, me)
    get = notice.get
    longest = get("longest")  # (a game ended for its length: how many moves it had)
    longest = longest if isinstance(longest, int) and not isinstance(longest, bool) \
        and longest > 0 else None

    def back() -> str:
        # (Back under a new name, Bob read as a newcomer: "Bob is back".)
        was = get("was")
        known = f", now called {text(get('name'))}" if isinstance(was, str) and was else ""
        if me is not None and seat_index(get("seat")) == me:
            return f"you are back{known}"
        return f"{text(was) if known else text(get('name'))} is back{known}"

    def renamed() -> str:
        if seat_index(get("seat")) is None:
            return f"a spectator is now called {text(get('name'))}"
        return f"{n.seat(get('seat'))} is now called {text(get('name'))}"

    def game_over() -> str:
        result = get("result")
        winners = result.get("winners") if isinstance(result, dict) else None
        if not isinstance(winners, list):
            return "the game is over"
        who = [n.name(w) for w in winners if seat_index(w) is not None]
        return f"the game is over: {' and '.join(who)} won" if who else "the game is over"

    def configured() -> str:
        changed = get("changed")
        parts = describe_changes(changed) if isinstance(changed, dict) else None
        if parts is None:
            return "the table's game or options changed"
        # (Readies are cleared: a ✓ vanished, unsaid, when the creator set the timer; "every
        # Ready is cleared" beside the bots' ✓ read as false.)
        again = "everyone says Ready again (a bot is at once)"
        if not parts:
            return f"the creator set the table again (nothing changed): {again}"
        return "the table changed: " + ", ".join(parts) + f"; {again}"

    def paused() -> str:
        waiting = get("waiting")
        who = [n.name(s) for s in waiting] if isinstance(waiting, list) else []
        whom = f" for {', '.join(who)}" if who else ""
        if get("away"):
            # (Said to the one away too, read back as they return: "waiting for you".)
            who = [n.whom(s) for s in waiting] if isinstance(waiting, list) else []
            after = get("bot_after")
            # (When, if ever, a bot plays for them: the table said nothing for 2 minutes.
            # Then it goes on without them: "until everyone is back" was not so.)
            if isinstance(after, int | float) and not isinstance(after, bool) and after > 0:
                return (f"the round's clock stands still while waiting for "
                        f"{', '.join(who) or 'a player'}: a bot plays for "
                        f"{'them' if len(who) != 1 else who[0]} once away {_seconds(after)}")
            waiting = f": waiting for {', '.join(who)}" if who else ""
            return f"the round's clock stands still until everyone is back{waiting}"
        return f"the host restarted: the game waits{whom} to come back"

    texts: dict[str, Callable[[], str]] = {
        "joined": lambda: f"{text(get('name'))} sat down at {n.seat(get('seat'))}",
        "left": lambda: f"{text(get('name'), n.name(get('seat')))} left",
        "moved": lambda: (f"{n.name(get('to'))} moved from {n.seat(get('from'))} "
                          f"to {n.seat(get('to'))}"),
        "renamed": renamed,
        # (Bob, back, read "Bob lost the connection" of himself.)
        "disconnected": lambda: f"{n.whom(get('seat'))} lost the connection (away)",
        "stepped_away": lambda: f"{n.whom(get('seat'))} left the table (away: the seat "
                                f"waits)",
        "reconnected": back,
        "kicked": lambda: (f"{text(get('name'))} ({n.seat(get('seat'))}) was asked to leave"
                           if isinstance(get("name"), str) and get("name")
                           else f"{n.seat(get('seat'))} was asked to leave"),
        "bot_added": lambda: f"a bot took {n.seat(get('seat'))}",
        # (The bot by the name the seats panel gives it, "Bot 2 for Bob".)
        # (Bob back read of himself "Bot 2 plays for Bob … until they are back".)
        "stand_in": lambda: (
            f"{text(get('bot'), 'a bot')} plays for you at {n.seat(get('seat'))} until you "
            "are back" if me is not None and seat_index(get("seat")) == me else
            f"{text(get('bot'), 'a bot')} plays for {text(get('name'))} at "
            f"{n.seat(get('seat'))} until they are back"),
        "bot_removed": lambda: f"the bot left {n.seat(get('seat'))}",
        # (The lobby, a rematch and the end of a game are then theirs to decide.)
        "creator": lambda: f"{n.name(get('seat'))} runs the table now (★)",
        "watching": lambda: f"{text(get('name'))} is watching (spectator)",
        "stopped_watching": lambda: f"{text(get('name'))} stopped watching (spectator)",
        "configured": configured,
        "started": lambda: "the game starts!",
        "game_over": game_over,
        "back_to_lobby": lambda: (
            f"the game went on for {longest:,} moves, as many as one game may: it "
            "ended there (Past games keeps it); back in the lobby"
            if longest is not None else
            f"{n.name(get('seat'))} ended the game: back in the lobby"
            if get("ended") is True else "back in the lobby"),
        "rematch": lambda: (f"{n.name(get('seat'))} asked for a rematch: the same game, "
                            "a new deal" if get("dealt") is True else
                            f"{n.name(get('seat'))} asks for a rematch: the same game, "
                            "a new deal, as soon as everyone is ready (^r)"),
        "paused": paused,
        "restarted": lambda: "the host restarted: the game goes on where it stopped",
        # (A bot standing in lets it go on too: "everyone is back" said Bob was.)
        "resumed": lambda: "every seat is played again: the game goes on",
    }
    make = texts.get(str(get("type")))
    return make() if make is not None else None


def describe_changes(changed: dict[str, Any]) -> list[str] | None:
    """A ``configured`` notice's changes in words (``["Got Five!", "3 seats", "hints
    count"]``), what the app fills in itself left out; ``None`` if they make no sense."""
    # A configured table is described with the engine's option list, in the options
    # form's words: neither (nor the form's widgets) is loaded for a table never configured.
    import engine
    from tui.widgets.options_form import describe_name, describe_value

    game_id = changed.get("game")
    if game_id is not None and game_id not in engine.GAMES:
        return None
    parts = [engine.GAMES[game_id].name] if game_id is not None else []
    seats = changed.get("seats")
    if isinstance(seats, int) and not isinstance(seats, bool):
        parts.append(f"{seats} seats")
    options = changed.get("options")
    if isinstance(options, dict):
        spec = engine.GAMES.get(str(game_id)) if game_id is not None else None
        known = {o.name: o for o in spec.options} if spec is not None else {
            o.name: o for g in engine.GAMES.values() for o in g.options}
        games = [str(game_id)] if game_id is not None else list(engine.GAMES)
        hidden = {name for g in games for name in app_options(g)}
        # With the game, the whole set is known: one that does not matter with the
        # others is left out, as the lobby's summary does (Get It!'s "cards 25" at level 1).
        given = {**spec.defaults, **options} if spec is not None else None
        for name, value in options.items():
            option = known.get(str(name))
            if option is not None and name not in hidden and (
                    given is None or option.applies(given)):
                parts.append(f"{describe_name(option)} {describe_value(option, value)}")
    return parts


def describe_chat(msg: dict[str, Any]) -> str:
    """A chat line: who said it (and from which seat) and what."""
    who = text(msg.get("name"))
    seat = seat_index(msg.get("seat"))
    if seat is not None:
        who = f"{who} ({Namer.seat(seat)})"
    elif not who.endswith(" (spectator)"):  # the host names spectators so already
        who = f"{who} (spectator)"
    return f"{who}: {text(msg.get('text'), '')}"


def _seconds(seconds: float) -> str:
    """``30 s``, ``2 minutes``."""
    if seconds >= 60 and seconds % 60 == 0:
        minutes = int(seconds // 60)
        return f"{minutes} minute{'' if minutes == 1 else 's'}"
    return f"{seconds:g} s"

"""The lobby's rules: who may sit, watch, come back, move, rename, chat and set the table.

In the lobby players join (a spectator too), pick seats, rename, get ready and chat; the
creator changes the game and options, adds and removes bots, kicks and starts. In play a
dropped player takes their seat back with its token; the creator may hand an absent
player's seat to a bot.

Each function takes the table, the member asking (bound to its seat by the table, never
named in a message) and the host's clock, changes the table or raises ``RequestError``,
and returns the :class:`net.fanout.Outbox` of what must be sent: no socket, no timer.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

import engine
from net.away import resume_if_everyone_is_back, stand_in, went_away
from net.fanout import Outbox
from net.limits import in_words
from net.seats import (
    HouseRules,
    Member,
    RequestError,
    Seat,
    name_key,
    new_token,
    numbered,
    same_secret,
    token_table,
)
from net.table import Table
from net.wire import errors
from net.wire.schemas import TABLE_NAME_LEN

#: Seconds a creator's seat is theirs alone after their connection is lost: the one
#: standing in for them may not remove them until then (a laptop is back well before).
CREATOR_KEPT = 120.0


def open_table(table_id: str, name: str, game_id: str, seats: int,
               options: dict[str, Any] | None, house: HouseRules, *, bots: int = 0) -> Table:
    """A new table in its lobby, ``bots`` in its last seats (``ValueError``: bad input)."""
    if game_id not in engine.GAMES:
        raise ValueError(f"unknown game {game_id!r}; known games: {', '.join(engine.GAMES)}")
    spec = engine.GAMES[game_id]
    spec.check_seats(seats)
    checked = spec.check_options(options, seats)
    if not 0 <= bots <= seats:
        raise ValueError(f"bots must be from 0 to {seats}, not {bots}")
    table = Table(table_id, name, game_id, seats, checked, house)
    for i in range(seats - bots, seats):
        table.seats[i].kind, table.seats[i].name = "bot", f"Bot {i + 1}"
    return table


def distinct_name(name: str, taken: Iterable[str]) -> str:
    """``name``, or ``name (2)``, ``(3)``… where an open table has it already (two
    friends' "Pia's table" on a box were told apart only by their game)."""
    names = set(taken)
    if name not in names:
        return name
    for n in itertools.count(2):
        suffix = f" ({n})"
        if (candidate := name[:TABLE_NAME_LEN - len(suffix)] + suffix) not in names:
            return candidate
    raise AssertionError("unreachable")  # (count() never ends)


def require_creator(table: Table, member: Member) -> None:
    """Refuse unless ``member`` holds the creator's seat."""
    if member.table is not table or member.seat is None or member.seat != table.creator:
        raise RequestError(errors.NOT_CREATOR, "only the table's creator may do that")


def seat_at(table: Table, index: int) -> Seat:
    """The seat at ``index``, or a refusal naming the seats there are."""
    if not 0 <= index < len(table.seats):
        raise RequestError(
            errors.NO_SEAT, f"there is no seat {index + 1}; seats are 1 to {len(table.seats)}"
        )
    return table.seats[index]


def unique_name(table: Table, name: str, index: int) -> str:
    """``name``, or ``name (2)``, ``name (3)`` … if another seat already uses it (two
    players called "root" made every message about one of them ambiguous)."""
    taken = {
        name_key(s.name) for i, s in enumerate(table.seats) if i != index and s.kind != "empty"
    }
    if name_key(name) not in taken:
        return name
    n = 2
    while name_key(numbered(name, n)) in taken:
        n += 1
    return numbered(name, n)


def free_seat(table: Table, index: int) -> None:
    """Empty a seat; the creator's role passes on if it was theirs (for good)."""
    table.seats[index].clear()
    if table.creator_home == index:
        table.creator_home = None
    if table.creator == index:
        humans = [i for i, s in enumerate(table.seats) if s.kind == "human"]
        connected = [i for i in humans if table.seats[i].conn is not None]
        choice = connected or humans
        table.creator = choice[0] if choice else None


def sit(table: Table, member: Member, index: int, now: float) -> tuple[str, Outbox]:
    """Put ``member`` in the empty seat ``index`` (the first taker is the creator); the
    seat's new token, and the outbox that tells everyone."""
    seat = table.seats[index]
    seat.kind, seat.name, seat.conn, seat.ready = (
        "human", unique_name(table, member.name, index), member, False)
    seat.token, seat.player = new_token(table.uid), member.player
    member.table, member.seat = table, index
    table.resumed = False  # (someone is at it again: ``net.idle`` as for any table)
    if table.creator is None:
        table.creator = index
    out = Outbox()
    table.push(out, now, notices=[{"type": "joined", "seat": index, "name": seat.name}])
    return seat.token, out


def _bots_there(table: Table) -> str:
    """What a refused newcomer may ask for: a lobby's bot gives its seat to a person the
    creator removes it for (the refusal said only "taken")."""
    bots = [i + 1 for i, s in enumerate(table.seats) if s.kind == "bot"]
    if not bots:
        return ""
    if len(bots) == 1:
        return f"; a bot holds seat {bots[0]}, which the table's creator can free for you"
    return (f"; bots hold seats {', '.join(map(str, bots))}: the table's creator can free "
            "one for you")


def join(table: Table, member: Member, seat: int | None, now: float) -> tuple[str, Outbox]:
    """Take ``seat`` (or the first free one) in the lobby."""
    table.require_phase("lobby")
    if seat is None:
        free = [i for i, s in enumerate(table.seats) if s.kind == "empty"]
        if not free:
            raise RequestError(errors.TABLE_FULL, "every seat at this table is taken"
                               + _bots_there(table))
        seat = free[0]
    elif seat_at(table, seat).kind != "empty":
        raise RequestError(errors.SEAT_TAKEN, f"seat {seat + 1} is taken" + (
            " by a bot: the table's creator can free it for you"
            if table.seats[seat].kind == "bot" else ""))
    if member in table.spectators:  # (it watched: see net.handlers.join)
        table.spectators.remove(member)
    return sit(table, member, seat, now)


def watch(table: Table, member: Member, now: float, *, most: int | None = None,
          from_address: int | None = None) -> Outbox:
    """``member`` watches the table (in any phase) if it takes another now
    (``net.seats.WATCH_RATE``), has fewer than ``most`` (``None``: no cap), and fewer
    than ``from_address`` from the member's address if counted (one machine filled it)."""
    watching = table.spectators
    if most is not None and len(watching) >= most:
        raise RequestError(errors.TABLE_FULL, f"this table has {len(watching)} spectators "
                           "already: as many as it takes")
    address = getattr(member, "address", None)
    if from_address is not None and sum(
            getattr(s, "address", None) == address for s in watching) >= from_address:
        raise RequestError(errors.TABLE_FULL, f"{from_address} spectators of this table "
                           "come from your address already")
    if not table.watchers.take(now):
        raise RequestError(errors.RATE_LIMITED, "spectators are coming to this table too "
                           "fast; wait a moment")
    table.spectators.append(member)
    member.table, member.seat = table, None
    out = Outbox()
    table.push(out, now, notices=[{"type": "watching", "name": member.name}])
    return out


def rejoin(table: Table, member: Member, index: int | None, token: str,
           now: float) -> tuple[str, Outbox]:
    """Take seat ``index`` back with its ``token`` (from a bot, or from a half-open
    leftover connection); a paused game goes on once everyone is back."""
    if index is None:
        raise RequestError(errors.BAD_TOKEN, "a token is presented together with its seat")
    seat = seat_at(table, index)
    uid = token_table(token)
    if uid is not None and uid != table.uid:
        raise RequestError(
            errors.NO_TABLE,
            f"table {table.id!r} on this host is not the table your seat was at: the "
            "host was restarted without your game: it is gone unless the host resumes it",
        )
    if (seat.kind not in ("human", "bot") or seat.token is None
            or not same_secret(seat.token, token)):
        if token in table.removed:
            raise RequestError(errors.KICKED, f"you were removed from table {table.name!r}"
                               " by its creator while you were away")
        raise RequestError(errors.BAD_TOKEN, f"that token does not hold seat {index + 1} here")
    out = Outbox()
    was = seat.stand_in_for if seat.kind == "bot" else seat.name  # (as the others knew it)
    if seat.kind == "bot":
        # The player whose seat a bot took over is back: the bot leaves at once.
        seat.kind, seat.bot, seat.ready, seat.stand_in_for = "human", None, False, None
    old = seat.conn
    if old is not None and old is not member:
        # The old connection is a half-open leftover: the token's owner is back.
        out.messages.append((old, errors.error(errors.REPLACED, (
            "you took this seat back in another app (a login or a tab of yours): play on "
            "there"))))
        old.table, old.seat = None, None
        out.closing.append(old)
    seat.conn, seat.name, seat.left = member, unique_name(table, member.name, index), False
    # The token shows who this is: the person who took the seat (``net.idle``).
    member.player = seat.player = seat.player or member.player
    member.table, member.seat = table, index
    restarted, table.resumed = table.resumed, False
    notices: list[dict[str, Any]] = [{"type": "reconnected", "seat": index, "name": seat.name}]
    if was and was != seat.name:
        notices[0]["was"] = was  # back under another name: the others knew the old one
    if table.creator_home == index:  # the creator is back: the stand-in gives way
        table.creator, table.creator_home = index, None
        notices.append({"type": "creator", "seat": index})
    if table.paused and table.away():
        notices.append({"type": "paused", "waiting": table.away()})
    elif restarted and table.phase == "play":
        # (A game without a clock came back unsaid: only "you are back", "Bob is back".)
        notices.append({"type": "restarted"})
    table.push(out, now, notices=notices)
    resume_if_everyone_is_back(table, out, now)
    assert seat.token is not None
    return seat.token, out


def leave(table: Table, member: Member, now: float) -> Outbox:
    """Leave the table: a lobby seat is freed; a seat in play waits for its player."""
    seat = member.seat
    notices = []
    if seat is not None and table.phase == "lobby":
        name = table.seats[seat].name  # (gone from the seat once it is freed)
        table.seats[seat].conn = None
        creator = table.creator
        free_seat(table, seat)
        member.table, member.seat = None, None
        notices.append({"type": "left", "seat": seat, "name": name})
        if table.creator != creator and table.creator is not None:
            notices.append({"type": "creator", "seat": table.creator})
    else:
        for notice in table.detach(member):
            if notice["type"] == "disconnected":
                # On purpose, not a lost connection: the seat waits all the same.
                notice = {"type": "stepped_away", "seat": seat}
                assert seat is not None
                table.seats[seat].left = True  # (``net.idle``: nobody said they come back)
                went_away(table, seat, now)
            notices.append(notice)
    out = Outbox()
    table.push(out, now, notices=notices)
    return out


def pick_seat(table: Table, member: Member, new: int, now: float) -> Outbox:
    """Move to the empty seat ``new`` in the lobby (nothing to tell if it is one's own)."""
    old = table.seat_of(member)
    table.require_phase("lobby")
    target = seat_at(table, new)
    out = Outbox()
    if new == old:
        return out
    if target.kind != "empty":
        raise RequestError(errors.SEAT_TAKEN, f"seat {new + 1} is taken")
    source = table.seats[old]
    table.seats[new], table.seats[old] = source, target
    source.ready = False
    if table.creator == old:
        table.creator = new
    member.seat = new
    table.push(out, now, notices=[{"type": "moved", "from": old, "to": new}])
    return out


def rename(table: Table, member: Member, now: float) -> Outbox:
    """``member`` took a new name: its seat's name follows (unique at the table)."""
    name = member.name
    if member.seat is not None:
        name = table.seats[member.seat].name = unique_name(table, member.name, member.seat)
    out = Outbox()
    table.push(out, now, notices=[{"type": "renamed", "seat": member.seat, "name": name}])
    return out


def ready(table: Table, member: Member, is_ready: bool, now: float) -> Outbox:
    """Say whether ``member`` is ready for the game to start: after a rematch was asked
    for, the last person ready deals it."""
    seat = table.seat_of(member)
    table.require_phase("lobby")
    table.seats[seat].ready = is_ready
    if table.rematch and all(s.ready or s.kind == "bot" for s in table.seats):
        return table.start(now)  # (an empty seat waits for the creator's start)
    out = Outbox()
    table.push(out, now)
    return out


def chat(table: Table, member: Member, text: str) -> Outbox:
    """A chat line for everyone at the table, under the seat's name (unique at the
    table, never a bot's) or marked as a spectator's: nobody can chat under someone
    else's name."""
    seat = member.seat
    if seat is not None and table.phase == "play" and table.game is not None \
            and table.game.silent:
        # (The app offers none then; one a client made to send it was heard.)
        raise RequestError(errors.WRONG_PHASE, "the game is silent now: no chat from a "
                           "player while a round is dealt or runs")
    name = table.seats[seat].name if seat is not None else f"{member.name} (spectator)"
    line = {"type": "chat", "table": table.id, "seat": seat, "name": name, "text": text}
    out = Outbox()
    table.remember(out, line)
    out.lines.extend((other, line) for other in table.connections())
    return out


def configure(table: Table, member: Member, now: float, *, game: str | None = None,
              seats: int | None = None, options: dict[str, Any] | None = None) -> Outbox:
    """The creator changes the game, the number of seats or options (those not given
    stay; another game starts from its own defaults)."""
    require_creator(table, member)
    table.require_phase("lobby")
    game_id = table.game_id if game is None else game
    if game_id not in engine.GAMES:
        raise RequestError(errors.BAD_REQUEST,
                           f"unknown game {game_id!r}; known games: {', '.join(engine.GAMES)}")
    spec = engine.GAMES[game_id]
    if seats is None:
        seats = min(max(len(table.seats), spec.min_seats), spec.max_seats)
    base = dict(table.options) if game_id == table.game_id else {}
    chosen = {**base, **(options or {})}
    try:
        spec.check_seats(seats)
        chosen = spec.check_options(chosen, seats)
    except ValueError as exc:
        raise RequestError(errors.BAD_REQUEST, str(exc)) from None
    for i in range(seats, len(table.seats)):
        s = table.seats[i]
        if s.kind == "human":
            raise RequestError(errors.BAD_REQUEST,
                               f"seat {i + 1} is taken by {s.name}; they must move or leave first")
    changed: dict[str, Any] = {}  # what the players are told changed
    if game_id != table.game_id:
        changed["game"] = game_id
    if seats != len(table.seats):
        changed["seats"] = seats
    new_options = {k: v for k, v in chosen.items()
                   if game_id != table.game_id or table.options.get(k) != v}
    if new_options:
        changed["options"] = new_options
    table.game_id, table.options = game_id, chosen
    table.seats = table.seats[:seats] + [Seat() for _ in range(seats - len(table.seats))]
    for s in table.seats:
        s.ready = False
    table.rematch = False  # another table now: everyone gets ready, and the creator starts
    out = Outbox()
    table.push(out, now, notices=[{"type": "configured", "changed": changed}])
    return out


def add_bot(table: Table, member: Member, index: int, now: float) -> Outbox:
    """The creator seats a bot: in an empty lobby seat, or during play in an absent
    player's seat (whose token stays with it: the player may take it back)."""
    require_creator(table, member)
    table.require_phase("lobby", "play")
    seat = seat_at(table, index)
    if table.phase == "lobby" and seat.kind != "empty":
        raise RequestError(errors.SEAT_TAKEN, f"seat {index + 1} is not empty")
    if table.phase == "play" and not (seat.kind == "human" and seat.conn is None):
        raise RequestError(
            errors.SEAT_TAKEN, "during play only a disconnected player's seat can go to a bot"
        )
    notice: dict[str, Any] = {"type": "bot_added", "seat": index}
    if table.phase == "play":
        stand_in(table, index)
        # (Told as the away bot's is: "a bot took seat 2" named neither it nor whose.)
        notice = {"type": "stand_in", "seat": index, "bot": seat.name,
                  "name": seat.stand_in_for}
    else:
        seat.clear()
        seat.kind, seat.name = "bot", f"Bot {index + 1}"
    out = Outbox()
    table.push(out, now, notices=[notice])
    resume_if_everyone_is_back(table, out, now)
    table.wake_bots(now)
    return out


def remove_bot(table: Table, member: Member, index: int, now: float) -> Outbox:
    """The creator empties a bot's seat in the lobby."""
    require_creator(table, member)
    table.require_phase("lobby")
    if seat_at(table, index).kind != "bot":
        raise RequestError(errors.BAD_REQUEST, f"seat {index + 1} holds no bot")
    free_seat(table, index)
    out = Outbox()
    table.push(out, now, notices=[{"type": "bot_removed", "seat": index}])
    return out


def kick(table: Table, member: Member, index: int, now: float) -> Outbox:
    """The creator removes another player from the lobby (who is told why)."""
    require_creator(table, member)
    table.require_phase("lobby")
    seat = seat_at(table, index)
    if seat.kind != "human":
        raise RequestError(errors.BAD_REQUEST, f"seat {index + 1} holds no player")
    if index == member.seat:
        raise RequestError(errors.BAD_REQUEST, "you cannot kick yourself; leave instead")
    if index == table.creator_home and seat.gone_at is not None \
            and (left := CREATOR_KEPT - (now - seat.gone_at)) > 0:
        # Standing in for a creator who dropped keeps the table going, it does not own
        # it: a stand-in freed the creator's seat a moment after a dropped connection,
        # and the creator was refused their own token on coming back. (One gone for good
        # may still be removed, or the lobby could never start.)
        raise RequestError(errors.BAD_REQUEST, f"seat {index + 1} is the table's creator's, "
                           f"kept for them for {in_words(left)} more")
    victim, name = seat.conn, seat.name
    if seat.token is not None:  # (the last few: a creator and a friend could loop)
        table.removed = {**dict(list(table.removed.items())[-31:]), seat.token: name}
    free_seat(table, index)
    out = Outbox()
    if victim is not None:
        victim.table, victim.seat = None, None
        out.messages.append((victim, errors.error(
            errors.KICKED, f"you were removed from table {table.name!r} by its creator")))
    table.push(out, now, notices=[{"type": "kicked", "seat": index, "name": name}])
    return out


def start(table: Table, member: Member, now: float) -> Outbox:
    """The creator starts the game (every seat filled, every other person ready)."""
    require_creator(table, member)
    table.require_phase("lobby")
    return table.start(now)


def rematch(table: Table, member: Member, now: float) -> Outbox:
    """The creator asks for the same game again, with the same seats and options and a
    new deal: the table goes back to its lobby with the creator ready, and the game is
    dealt as soon as every other person is ready too (at once when there is nobody
    else); whoever does not want to play again leaves."""
    require_creator(table, member)
    table.require_phase("over")
    _clear_game(table)
    assert member.seat is not None
    table.seats[member.seat].ready = True
    if all(s.ready or s.kind == "bot" for s in table.seats):
        return table.start(now, [{"type": "rematch", "seat": member.seat, "dealt": True}])
    table.rematch = True
    out = Outbox()
    table.push(out, now, notices=[{"type": "rematch", "seat": member.seat}])
    return out


def _clear_game(table: Table) -> None:
    """The table back in its lobby, nobody ready; a record the game set (Get It!'s Level
    X: its result's ``best``) is the one the next game plays against."""
    result = table.game.result if table.game is not None else None
    if result is not None and result.get("best") is not None and "best" in table.options:
        table.options = {**table.options, "best": result["best"]}
    # A resumed game may stand frozen or paused: the next game starts with its own clock.
    table.game, table.phase, table.frozen, table.paused = None, "lobby", None, False
    # (The review's members see the table leave "over" and close it.)
    table.review = table.reviewed = None
    for s in table.seats:
        s.ready, s.bot = False, None


def to_lobby(table: Table, member: Member, now: float) -> Outbox:
    """The creator takes the table back to its lobby: after the game, or during it (to
    switch games without finishing a whole match); then the game in play ends unfinished,
    everyone is told who ended it, and it is kept as it stands (its result ``None``: a
    Get It! run of four levels ended between rounds was lost)."""
    require_creator(table, member)
    table.require_phase("play", "over")
    notice: dict[str, Any] = {"type": "back_to_lobby"}
    if table.phase == "play":
        notice.update(ended=True, seat=member.seat)
    return back_to_lobby(table, now, notice)


def back_to_lobby(table: Table, now: float, notice: dict[str, Any]) -> Outbox:
    """The table back in its lobby, everyone told by ``notice``; a game still in play
    ends unfinished and is kept as it stands."""
    out = Outbox()
    if table.phase == "play" and (record := table.unfinished_record()) is not None:
        out.finished.append(record)
    _clear_game(table)
    table.push(out, now, notices=[notice])
    return out

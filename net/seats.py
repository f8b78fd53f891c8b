"""The seats of a table, who may sit in them, and the tokens that take one back.

A seat is human, bot or empty. A person's seat is bound to the member (the connection)
that holds it and carries a random token: a dropped player presents it to take the seat
back. A display name may not pass for a bot, a seat or a spectator, and two names that
look alike on a terminal are one name. A bot's seat holds the bot the host's
:class:`HouseRules` made for it.
"""

from __future__ import annotations

import base64
import os
import re
import unicodedata
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from engine.bots import RandomBot, make_bot
from net.fanout import Recipient
from net.limits import Bucket
from net.wire import errors

if TYPE_CHECKING:
    from engine.record import Tape


class RequestError(Exception):
    """A request the host refuses; becomes an ``error`` frame with ``code``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


#: Spectators that may come to watch one table: a few at once, one a second. Each one's
#: coming and going is told to everyone at the table: many connections of many
#: addresses, each within its own allowance, kept 16,000 updates a second going to a
#: table's members (a hostile pass).
WATCH_RATE, WATCH_BURST = 1.0, 8


def watch_allowance() -> Bucket:
    """A table's allowance of spectators coming to watch (``net.lobby.watch``)."""
    return Bucket(WATCH_RATE, WATCH_BURST, 0.0)


#: The moves that take no turn (a Got Five! board's marks, a Get It! signal) one game
#: keeps, each seat its even share, a line of words counting one more for every 16
#: bytes (``engine.record.FREE_TEXT_BYTES``). Nothing in a game's course bounds them,
#: and every one is kept to replay the game: unbounded, one seat's marks grew the
#: host's memory without end and, past what a record may hold (100,000 moves), made its
#: journal one no resume takes; long lines of emoji would have made a game's whole
#: state, which its journal writes every 100 moves, megabytes. A person makes a few
#: hundred. (Turns are never refused: a game must be able to end.)
MOVES_PER_GAME = 10_000


def check_moves(tape: Tape | None, seat: int, seats: int, action: dict[str, Any]) -> None:
    """Refuse a move of ``seat`` that takes no turn once it has made its share."""
    if tape is not None and tape.takes_no_turn(action) and (
            made := tape.free_by(seat)) >= MOVES_PER_GAME // seats:
        raise RequestError(errors.ILLEGAL_ACTION, f"you have made {made:,} moves that take "
                           "no turn in this game (marks, signals, a long line counting as "
                           f"several): as many as a seat may (a game keeps "
                           f"{MOVES_PER_GAME:,} at most)")


class Member(Recipient, Protocol):
    """Someone at a table as the table sees them: a name, where they sit (both set by
    the table: ``table`` is the ``net.table.Table``, typed loosely so that a seat need
    not know tables), and what the table's updates and messages need to reach them.
    The host's connections are members; a table never knows more of them than this."""

    name: str
    table: Any
    seat: int | None
    #: Who this is across connections (``net.idle``): what the tables they open count
    #: against, and what a seat they take keeps.
    player: str


class Bot(Protocol):
    """What a table needs of a bot: pick an action from its view and legal actions.

    A real-time bot (Get It!) also has ``step(view, legal, now)``, which returns the
    action (or ``None``) and the engine time at which it wants to be asked again."""

    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
        """One of ``legal`` (or ``None`` to do nothing now)."""
        ...


#: ``bot_factory(game_id, seat, seed)`` makes the bot that plays ``seat``.
BotFactory = Callable[[str, int, int], Bot]


def random_bot_factory(game_id: str, seat: int, seed: int) -> Bot:
    """A random-legal player (it cannot finish Get It! or Got Five!: tests only)."""
    return RandomBot(seed)


def real_bot_factory(game_id: str, seat: int, seed: int) -> Bot:
    """The default bot factory: the strongest bot of each game (``engine.bots.make_bot``)."""
    return make_bot(game_id, seat, seed)


class HouseRules:
    """What every table of one host shares: how game seeds, bot seeds and bots are
    made, and the pace of turn-based bots (it may change while tables run: a solo
    player lets the bots finish at full speed)."""

    __slots__ = ("bot_delay", "bot_factory", "seed_source")

    def __init__(self, bot_factory: BotFactory, seed_source: Callable[[], int],
                 bot_delay: float) -> None:
        self.bot_factory = bot_factory
        self.seed_source = seed_source
        self.bot_delay = bot_delay


class Seat:
    """One seat of a table: who sits there and how to reach them.

    (A plain class with slots: one is made per seat of every table, and a dataclass
    costs start-up time for nothing here.)"""

    __slots__ = ("bot", "conn", "gone_at", "kind", "left", "name", "player", "ready",
                 "stand_in_for", "token")

    def __init__(self, kind: str = "empty", name: str = "", token: str | None = None,
                 conn: Member | None = None, ready: bool = False,
                 bot: Bot | None = None) -> None:
        self.kind = kind  # "human" | "bot" | "empty"
        self.name = name
        self.token = token
        self.conn = conn
        self.ready = ready
        self.bot = bot
        #: The name of the absent person a bot plays for (``None``: a bot of its own).
        self.stand_in_for: str | None = None
        #: The person left the game on purpose (not a lost connection); and who they
        #: are (a member's ``player``: whoever takes the seat back with its token is).
        self.left = False
        self.player: str | None = None
        #: When (host clock) the person's connection was last lost (``None``: not since
        #: the host started).
        self.gone_at: float | None = None

    def __repr__(self) -> str:
        return (f"Seat(kind={self.kind!r}, name={self.name!r}, conn={self.conn!r}, "
                f"ready={self.ready!r}, bot={self.bot!r})")

    def public(self, index: int) -> dict[str, Any]:
        """What everyone at the table may know of this seat (``for``: whom its bot
        plays for while they are away)."""
        seat = {
            "seat": index,
            "kind": self.kind,
            "name": self.name,
            "connected": self.kind == "bot" or self.conn is not None,
            "ready": self.ready or self.kind == "bot",
        }
        if self.stand_in_for is not None:
            seat["for"] = self.stand_in_for
        return seat

    def clear(self) -> None:
        """Empty the seat; its token stops working."""
        self.kind, self.name, self.token, self.conn = "empty", "", None, None
        self.ready, self.bot, self.stand_in_for = False, None, None
        self.left, self.player, self.gone_at = False, None, None


def random_seed() -> int:
    """A seed from the system's secure generator, below 2**62 (``os.urandom`` is what
    ``secrets`` draws from, without importing ``secrets`` at every start)."""
    return int.from_bytes(os.urandom(8), "big") >> 2


def new_token(table_uid: str) -> str:
    """A seat token: the table's identity, then 24 secure random bytes, URL-safe.

    The identity tells a token from a table that is gone (the host restarted without
    it) from a token that is merely wrong."""
    secret = base64.urlsafe_b64encode(os.urandom(24)).rstrip(b"=").decode("ascii")
    return f"{table_uid}.{secret}"


def token_table(token: str) -> str | None:
    """The table identity a token names, if it is shaped like one of ours."""
    uid, dot, _ = token.partition(".")
    return uid if dot and re.fullmatch(r"[0-9a-f]{8}", uid) else None


def same_secret(a: str, b: str) -> bool:
    """``a == b`` in time that does not tell how much of ``b`` was right."""
    from hmac import compare_digest  # only when a seat is taken back

    return compare_digest(a.encode(), b.encode())


#: Letters of other scripts (casefolded) that look like a Latin letter in either case:
#: "Аnn" with a Cyrillic А, or "Βοt 2" in Greek, is "Ann" and "Bot 2" to the eye; so
#: are Lisu, Cherokee and Armenian look-alikes, digits' and brackets'. (The common
#: look-alikes of Unicode's confusables list; other scripts are not folded.)
_LOOK_ALIKES = str.maketrans(
    "авекмнорстухіјѕԁԛԝүһӏь"  # Cyrillic
    "αβεζηικμνορτυχ"  # Greek
    "\ua4d0\ua4d1\ua4d3\ua4d4\ua4d6\ua4d7\ua4d9\ua4da\ua4dc\ua4dd\ua4df\ua4e0\ua4e1"
    "\ua4e2\ua4e3\ua4e6\ua4e7\ua4ea\ua4eb\ua4ec\ua4ee\ua4f0\ua4f2\ua4f3\ua4f4"  # Lisu
    "\u13aa\u13f4\u13df\u13a0\u13ac\u13c0\u13bb\u13a5\u13ab\u13e6\u13de\u13b7"
    "\u13e2\u13a1\u13da\u13a2\u13d9\u13b3\u13c3"  # Cherokee
    "օոսհզց"  # Armenian
    "ꝛᒿƨʒȝƽб❨❩❪❫",  # digits and brackets
    "abekmhopctyxijsdqwyhlb"
    "abezhikmnoptyx"
    "bpdtgkjczfmnlsrvhwxyaeiou"
    "abcdeghijklmprstvwz"
    "onuhqg"
    "2223356()()",
)


#: Characters that draw as nothing or as a blank, beyond the format characters and the
#: marks no letter took in (categories Cf, Mn and Me, after NFKC): Hangul fillers, the
#: blank braille cell, the Mongolian vowel separator, the null notehead.
_BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\U0001d159")


def _shows(ch: str) -> bool:
    return ch not in _BLANKS and unicodedata.category(ch) not in ("Cf", "Mn", "Me")


def name_key(name: str) -> str:
    """What two names are compared by: "ANN", "Ann", "ａｎｎ" and "Аnn" (a Cyrillic А)
    are one name, and so are "Bot 2" and "Bot 2" with an invisible character in it (a
    combining grapheme joiner, a variation selector, a zero-width space or a filler
    passed for the bot, or sat beside Ann as a second Ann)."""
    folded = unicodedata.normalize("NFKC", name).casefold().translate(_LOOK_ALIKES)
    return "".join(filter(_shows, folded)).strip()


#: Names a person may not take: they would pass for a bot (one standing in for a player
#: too: "Bot 2 for Bob"), a seat or a spectator.
_RESERVED_NAME = re.compile(
    r"^(bot|seat|spectator) ?\d*$|^bot ?\d+ for\b|\((spectator|seat\b.*|bot\b.*)\)$")
#: What the screens put beside a name: who runs the table, who is ready, whose turn it
#: is, the chosen row, and "(you)" on each player's own screen ("Pia (you) ★" sat beside
#: Pia's own seat, on her screen, as a second her).
_MARKS = "★✓▶▸"
_YOU = re.compile(r"\( ?you ?\)")


def check_name(name: str) -> str:
    """Refuse a display name that imitates a bot, a seat or a spectator label or the
    screens' marks beside a name, or holds a bracket (screens read ``[`` as a style:
    ``net.wire.schemas.plain_name``)."""
    if any(ch in name for ch in "[]"):
        raise RequestError(errors.BAD_REQUEST, "a name may not hold [ or ]")
    key = name_key(name)
    # (Trimmed again: "Bot 2." passed as "bot 2 ".)
    squeezed = re.sub(r"[\s._\-]+", " ", key).strip()
    if any(mark in key for mark in _MARKS) or _YOU.search(squeezed):
        raise RequestError(
            errors.BAD_REQUEST, f"the name {name!r} holds a mark the screens put beside "
            "names (★ ✓ ▶ ▸ or (you)) and would pass for another's; choose another")
    if _RESERVED_NAME.search(squeezed):
        raise RequestError(
            errors.BAD_REQUEST,
            f"the name {name!r} would pass for a bot, a seat or a spectator; choose another",
        )
    return name


def numbered(name: str, n: int) -> str:
    """``name (n)``, ``name`` cut where it must be for the number to fit the longest name
    the wire carries (a 22-character name made "… (2)" was longer, and every app at the
    table refused the host's every update, its creator's too)."""
    from net.wire.schemas import NAME_LEN

    suffix = f" ({n})"
    return name[:NAME_LEN - len(suffix)].rstrip() + suffix


def fit_name(name: str) -> str:
    """A kept name cut to the longest a name may be, its number kept (see
    :func:`numbered`): a journal an older release wrote may hold one longer."""
    from net.wire.schemas import NAME_LEN

    if len(name) <= NAME_LEN:
        return name
    if (found := re.fullmatch(r"(.*) \((\d{1,3})\)", name)) is not None:
        return numbered(found[1], int(found[2]))
    return name[:NAME_LEN].rstrip()


def name_problem(name: str) -> str | None:
    """Why a host would refuse ``name`` as a player's name, in words that follow "your
    name:" (``None``: it would not). Checked as the app will use it (its printable
    characters, trimmed, cut to the longest a name may be), by every rule of the host's:
    the wire's (something visible, few combining marks) and :func:`check_name`'s. The
    app's settings, its ``--player`` and the box's doors refuse a name with it at once,
    where the host's refusal came deep in the app's menus."""
    from net.wire.errors import ProtocolError
    from net.wire.schemas import NAME_LEN, name_text

    shown = "".join(ch for ch in name if ch.isprintable()).strip()[:NAME_LEN]
    try:
        check_name(name_text(NAME_LEN)("name", shown))
    except ProtocolError as exc:
        # ("'name' must show something": the field's name, in a player's words.)
        return exc.message.replace("'name' ", "it ", 1)
    except RequestError as exc:
        return exc.message
    return None

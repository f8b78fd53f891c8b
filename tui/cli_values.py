"""What a value on the ``hiddenhand`` command line may be.

Each checker is an argparse ``type=``: it turns the text into the value or raises
``argparse.ArgumentTypeError`` with a message in plain words, which argparse prints under
the command's usage. Table options (``--option KEY=VALUE``) are read in two steps: the
pair here, its value once the game, and so the kind of value the option takes, is known.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from tui.games import app_options

if TYPE_CHECKING:
    from engine import GameSpec
    from engine.core import Option


def whole_number(low: int | None = None, high: int | None = None, *,
                 kind: str = "expected a whole number",
                 said: str = "expected") -> Callable[[str], int]:
    """A checker of a whole number from ``low`` to ``high`` (either may be open).

    Text that is no whole number is refused as ``"{kind}, not 'x'"``; a number out of
    range as ``"{said} LOW to HIGH, not 7"`` (``LOW or more`` without ``high``).
    """
    if low is None:
        span = "" if high is None else f"{high} or less"
    else:
        span = f"{low} or more" if high is None else f"{low} to {high}"

    def check(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{kind}, not {text!r}") from None
        if (low is not None and value < low) or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{said} {span}, not {value}")
        return value

    return check


#: Seats: the range is the game's, which the engine checks and says with the game's name.
seats = whole_number(kind="seats must be a whole number")
count = whole_number(0)
positive = whole_number(1)
#: (A million games take hours; more than any run: "99…9 games" blamed the seed.)
games = whole_number(1, 10**9, said="expected")
#: The largest seed a game takes that a kept record takes too (``engine.core.SEED_LIMIT``
#: is the engine's bound in size, ``engine.record.MAX_SEED`` the record's: a negative
#: seed made a game that could be kept but never reviewed).
SEED_MAX = 2**63 - 1
seed = whole_number(0, SEED_MAX, kind="a seed is a whole number", said="a seed is")
port = whole_number(0, 65535, said="a port is")


def bounded_number(high: float, kind: str, shown: str) -> Callable[[str], float]:
    """A checker of a number (fractions allowed) from 0 to ``high``: ``kind`` names what
    it is, ``shown`` the range, in the errors."""

    def check(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {kind}, not {text!r}") from None
        if not 0 <= value <= high:
            raise argparse.ArgumentTypeError(f"expected {shown}, not {text}")
        return value

    return check


seconds = bounded_number(3600, "a number of seconds", "0 to 3600 seconds")
typing = bounded_number(100, "characters a second", "0 to 100 characters a second")
fraction = bounded_number(1, "a fraction from 0 to 1", "a fraction from 0 to 1")
idle_seconds = bounded_number(7 * 86400, "a number of seconds", "0 to 604800 seconds")


def named(what: str) -> Callable[[str], str]:
    """A checker of a name that may not be empty: ``--data-dir ""`` (a script's unset
    variable) read and wrote the user's own dirs, unsaid; an empty file name read as "."."""

    def check(text: str) -> str:
        if not text.strip():
            raise argparse.ArgumentTypeError(f"give {what} (it was empty)")
        return text

    return check


directory = named("a directory")
file_name = named("a file's name")


def address(text: str) -> str:
    """An IP address to listen on (a name would make the mDNS record lie)."""
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a valid IP address (for example 192.168.1.20, 127.0.0.1 or ::1)"
        ) from None


#: A name others type after ``ssh -p PORT`` or in a link: a host name or an address.
_HOST_NAME = re.compile(r"[A-Za-z0-9]([A-Za-z0-9.:-]{0,252})?")


def host_name(text: str) -> str:
    """The box's name as friends type it ("my box" printed the invitation "ssh -p 2222
    my box", which no ssh takes)."""
    if not _HOST_NAME.fullmatch(text):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a name friends can type: letters, digits, dots and dashes "
            "(for example box, box.lan or 192.168.1.20)")
    return text


def shown_name(text: str) -> str:
    """A host's or a table's name, as players' screens take it: what a host takes in a
    table's name (``net.wire.schemas``: printable, at most 32 characters, no [ or ])."""
    from net.wire.errors import ProtocolError
    from net.wire.schemas import TABLE_NAME_LEN, name_text

    try:
        return name_text(TABLE_NAME_LEN)("the name", text)
    except ProtocolError as exc:
        raise argparse.ArgumentTypeError(str(exc).replace("'the name' ", "it ")) from None


def option_pair(text: str) -> tuple[str, str]:
    """``key=value``, both as text; :func:`option_value` reads the value once the game
    (and so what kind of value the option takes) is known."""
    key, sep, raw = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"an option is written KEY=VALUE, not {text!r}")
    return key, raw.strip()


def settable_options(spec: GameSpec) -> list[Option]:
    """The options of ``spec`` a player may set with ``--option``: the engine's, less
    what the app fills in itself (Get It!'s Level X record). The help lists exactly
    these, and the command line takes exactly these."""
    return [o for o in spec.options if o.name not in app_options(spec.id)]


def option_value(option: Option | None, raw: str) -> Any:
    """The value of ``raw`` for ``option``: one of its text choices if it names one,
    in any case (so ``hints=off`` is the choice ``"off"``, not false, and ``level=x``
    is Level X), else true/false/none, a number, or text."""
    if option is not None and option.kind in ("choice", "int"):
        for choice in option.choices:
            if isinstance(choice, str) and choice.lower() == raw.lower():
                return choice
    value: Any
    if raw.lower() in {"true", "yes", "on"}:
        value = True
    elif raw.lower() in {"false", "no", "off"}:
        value = False
    elif raw.lower() in {"none", "null", ""}:
        value = None
    else:
        try:
            value = int(raw)
        except ValueError:
            value = raw
    return value


def typed_options(spec: GameSpec, pairs: Sequence[tuple[str, str]],
                  seats: int | None = None) -> dict[str, Any]:
    """The ``--option`` pairs of a command line as values for ``spec``'s options.

    A seat is counted from 1 on the command line, as the app shows seats (``first=1``
    is the first seat); the engine counts from 0. With ``seats``, a seat that is not
    one of them raises ``ValueError`` in those words."""
    known = {o.name: o for o in spec.options}
    values: dict[str, Any] = {}
    for key, raw in pairs:
        option = known.get(key)
        value = option_value(option, raw)
        if option is not None and option.kind == "seat" and value is not None:
            if seats is not None and (type(value) is not int or not 1 <= value <= seats):
                raise ValueError(f"option {key!r} is a seat from 1 to {seats}, or none for "
                                 f"one chosen at random; not {raw!r}")
            if type(value) is int:
                value -= 1
        if option is not None and option.kind == "bool" and not isinstance(value, bool):
            # (The engine's "must be true or false" where the help says on|off.)
            raise ValueError(f"option {key!r} is on or off, not {raw!r}")
        values[key] = value
    return values


def terminal_problem(how: str = "run it in a terminal", what: str = "the game"
                     ) -> str | None:
    """Why a screen cannot run here (``None``: it can): on pipes, with no terminal and
    not in a browser, Textual wrote its screens into the pipe and spun a core for ever.
    ``how`` says what to do instead, ``what`` what needs it. (The web door runs the app
    on pipes, with Textual's web driver.)"""
    if os.environ.get("TEXTUAL_DRIVER", "").endswith(":WebDriver"):
        return None
    if sys.stdin.isatty() and sys.stdout.isatty():
        return None
    return f"{what} needs a terminal; {how}"


def checked_interfaces(
    parser: argparse.ArgumentParser, option: list[str] | None, *, check: bool = True
) -> list[str] | None:
    """The mDNS interfaces of ``--mdns-interface`` (else the environment variable), each
    an address of this computer if ``check``; ``parser.error`` in plain words if not."""
    from net.discovery import ENV_INTERFACES, check_local_interfaces, mdns_interfaces

    try:
        interfaces = mdns_interfaces(option)
    except ValueError as exc:
        parser.error(str(exc))
    if check:
        try:
            check_local_interfaces(interfaces)
        except ValueError as exc:
            if option:
                parser.error(f"{exc}; leave out --mdns-interface to use every interface")
            parser.error(f"{exc} (it is in ${ENV_INTERFACES})")
    return interfaces

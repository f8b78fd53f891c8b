"""Per-user settings (player name, mDNS interfaces), saved as JSON in the user's config dir.

The file lives where ``platformdirs`` says a user's config goes (``~/.config/hiddenhand``
on Linux); ``HIDDENHAND_CONFIG_DIR`` overrides that, which tests use and ``ssh-serve``
sets for each SSH player (``--data-dir``), whose default name ``HIDDENHAND_PLAYER`` gives
(``--player``). A damaged file is reported and replaced by defaults rather than crashing
the app.
"""

from __future__ import annotations

import contextlib
import getpass
import ipaddress
import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from net.paths import config_dir

MAX_NAME = 24
#: The longest host:port kept from the Join screen.
MAX_ADDRESS = 300


def default_name() -> str:
    """The login name (``HIDDENHAND_PLAYER`` if set), as a reasonable first player name."""
    try:
        name = os.environ.get("HIDDENHAND_PLAYER") or getpass.getuser()
    except (KeyError, OSError):
        name = "player"
    return clean_name(name) or "player"


def clean_name(name: str, limit: int | None = MAX_NAME) -> str:
    """A player name without control characters, trimmed to ``limit`` characters
    (``None``: whole, to see whether it would be cut)."""
    return "".join(ch for ch in name if ch.isprintable()).strip()[:limit]


def name_cut(given: str, used: str) -> str | None:
    """What to tell a player whose name ``given`` (``--player``: an SSH login name) is in
    use cut to :data:`MAX_NAME` characters as ``used``; ``None`` if it was not cut."""
    if len(clean_name(given, limit=None)) <= MAX_NAME or used != clean_name(given):
        return None
    return (f"Your name was cut to {MAX_NAME} characters ({used!r}): choose another in "
            "Settings (o).")


def check_interfaces(text: str) -> list[str]:
    """Parse a comma-separated list of interface addresses; empty means all interfaces."""
    found: list[str] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        try:
            found.append(str(ipaddress.ip_address(part)))
        except ValueError:
            raise ValueError(f"{part!r} is not an IP address (e.g. 192.168.1.20)") from None
    return found


@dataclass
class Settings:
    """What a player sets once and keeps."""

    name: str = field(default_factory=default_name)
    mdns_interfaces: list[str] = field(default_factory=list)
    #: The table last opened from the setup form (``game``, ``seats``, ``options``):
    #: the form starts from it next time. Checked by the form before it is used.
    last_table: dict[str, Any] | None = None
    #: Each game's table as last opened (game → ``seats``, ``options``): a switch of
    #: game in the form starts from it (GET OUT!'s match off came back on after a game
    #: of Get It!). Checked by the form before it is used, as ``last_table`` is.
    tables: dict[str, Any] = field(default_factory=dict)
    #: The host:port last reached by hand on the Join screen: the field starts with it.
    last_address: str | None = None
    #: Got Five!: cross off every number this player can see (RULES.md: "a player
    #: setting, on by default"); the app sets its seat's so at every table.
    auto_cross: bool = True
    #: The player chose their name (in Settings, the lobby or when first asked): until
    #: then it is their login's, and hosting or joining on the LAN asks for it first.
    #: (Not given: a name other than the login's was chosen.)
    named: bool | None = None

    def __post_init__(self) -> None:
        if self.named is None:  # (``--player`` names the player: chosen too)
            self.named = self.name != default_name() or bool(os.environ.get(
                "HIDDENHAND_PLAYER"))

    @classmethod
    def load(cls) -> tuple[Settings, str | None]:
        """The saved settings, or defaults; the second item explains a file it could not use."""
        path = config_dir() / "settings.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return cls(), None
        except (OSError, ValueError) as exc:
            return cls(), f"could not read {path}: {exc}; using defaults"
        try:
            name = clean_name(str(data.get("name", ""))) or default_name()
            interfaces = check_interfaces(",".join(data.get("mdns_interfaces", [])))
        except (AttributeError, TypeError, ValueError) as exc:
            return cls(), f"settings in {path} are damaged ({exc}); using defaults"
        last = data.get("last_table")
        if not _table_shape(last):
            last = None  # (only a convenience: anything else is forgotten)
        tables = data.get("tables")
        tables = {g: t for g, t in tables.items() if isinstance(g, str) and _table_shape(
            {"game": g, **t} if isinstance(t, dict) else None)} if isinstance(
            tables, dict) else {}
        address = data.get("last_address")
        if not (isinstance(address, str) and 0 < len(address) <= MAX_ADDRESS
                and address.isprintable()):
            address = None  # (only a convenience, as above)
        auto_cross = data.get("auto_cross", True)
        # (A file from before ``named`` was kept: a name other than the login's was chosen.)
        named = data.get("named") if isinstance(data.get("named"), bool) else None
        return cls(name=name, mdns_interfaces=interfaces, last_table=last, tables=tables,
                   last_address=address,
                   auto_cross=auto_cross if isinstance(auto_cross, bool) else True,
                   named=named), None

    def save(self) -> Path:
        """Write the settings atomically; returns the file's path."""
        path = config_dir() / "settings.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(asdict(self), indent=2) + "\n", encoding="utf-8")
        tmp.replace(path)
        return path


def _table_shape(table: Any) -> bool:
    """Whether a kept table has the shape the form reads (its values are checked there)."""
    return (isinstance(table, dict) and isinstance(table.get("game"), str)
            and type(table.get("seats")) is int and isinstance(table.get("options"), dict))


# --------------------------------------------------------------------------- seats held
# A seat's token lets its player take the seat back after a crash, a dropped line or
# leaving by mistake. Tokens are kept per host and table, readable by this user only.

MAX_SEATS_KEPT = 50


def _seats_path() -> Path:
    return config_dir() / "seats.json"


def _load_seats() -> dict[str, dict[str, object]]:
    try:
        data = json.loads(_seats_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save_seats(data: dict[str, dict[str, object]]) -> None:
    path = _seats_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    tmp.chmod(0o600)
    tmp.replace(path)


def remember_seat(where: str, table: str, seat: int, token: str) -> None:
    """Keep the token of our seat at ``table`` on host ``where`` (``host:port``)."""
    data = _load_seats()
    data.pop(f"{where}/{table}", None)
    data[f"{where}/{table}"] = {"seat": seat, "token": token}
    while len(data) > MAX_SEATS_KEPT:
        data.pop(next(iter(data)))
    # A seat we cannot remember only costs a fresh seat after a crash.
    with contextlib.suppress(OSError):
        _save_seats(data)


def recall_seat(where: str, table: str) -> tuple[int, str] | None:
    """The seat and token we hold at ``table`` on ``where``, if we kept one."""
    entry = _load_seats().get(f"{where}/{table}")
    if not isinstance(entry, dict):
        return None
    seat, token = entry.get("seat"), entry.get("token")
    if isinstance(seat, int) and isinstance(token, str):
        return seat, token
    return None


def kept_at(where: str, table: str, uid: str = "") -> bool:
    """Whether we hold a seat at ``table`` on ``where``: a kept token names the table it
    was made at (``net.seats.new_token``), and a new table with the id of one we sat at
    before the host restarted (``uid`` another) is not it (the list said "your seat is
    kept" of a table just opened)."""
    from net.seats import token_table

    kept = recall_seat(where, table)
    return kept is not None and (not uid or token_table(kept[1]) == uid)


def kept_places() -> list[str]:
    """Every host we keep a seat at (``where``, as :func:`remember_seat` took it), the
    one sat at last first."""
    out: list[str] = []
    for key in reversed(list(_load_seats())):
        where = key.rpartition("/")[0]
        if where and where not in out:
            out.append(where)
    return out


def kept_tables(where: str) -> list[str]:
    """The tables on host ``where`` we keep a seat at."""
    return [key.rpartition("/")[2] for key in _load_seats() if key.rpartition("/")[0] == where]


def forget_seat(where: str, table: str) -> None:
    """Drop a kept seat (the host no longer knows its token)."""
    data = _load_seats()
    if data.pop(f"{where}/{table}", None) is not None:
        with contextlib.suppress(OSError):
            _save_seats(data)

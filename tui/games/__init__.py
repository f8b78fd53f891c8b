"""The games the app can seat a player at: one package each, and this registry.

The menu, the setup form, the join screen and the lobby offer exactly the games listed
in ``TABLES``; adding a game to the app is writing its package (``tui/games/<game>/``
with a ``TableScreen`` subclass) and adding it here. Screens are imported only when a
table opens, so this module imports nothing of the screens (no import circles).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui.screens.table import TableScreen
    from tui.session import Session

#: Game id → "module:class" of its table screen, in the order the app offers them (the
#: first is the forms' default, as it is ``hiddenhand solo``'s).
TABLES: dict[str, str] = {
    "getout": "tui.games.getout.screen:GetOutScreen",
    "getit": "tui.games.getit.screen:GetItScreen",
    "gotfive": "tui.games.gotfive.screen:GotFiveScreen",
}


#: Where a person plays beside bots (the setup form, ``hiddenhand solo``), the options
#: start from these rather than the engine's defaults, which suit bot-only play (the
#: simulator, the tests): Get It!'s bots react as people do, so a person has time to
#: signal with them (quick bots settled a card in a third of a second); Got Five!'s are
#: casual, so a new player has a chance (strong ones called GOT FIVE! after 3 clues).
PRESETS: dict[str, dict[str, object]] = {"getit": {"bots": "relaxed"},
                                         "gotfive": {"bots": "casual"}}


def preset_options(game_id: str) -> dict[str, object]:
    """The options a person's table of ``game_id`` starts from (see ``PRESETS``)."""
    return dict(PRESETS.get(game_id, {}))


#: Options the app fills in itself, never shown in a form (Get It!'s Level X record).
APP_OPTIONS: dict[str, frozenset[str]] = {"getit": frozenset({"best"})}


def app_options(game_id: str) -> frozenset[str]:
    """The options of ``game_id`` that the app sets itself (hidden from forms)."""
    return APP_OPTIONS.get(game_id, frozenset())


def table_options(game_id: str, seats: int, options: dict[str, object]) -> dict[str, object]:
    """``options`` as a table is opened or configured, with what the app fills in itself."""
    if game_id not in APP_OPTIONS:  # (not imported for a game that has none)
        return dict(options)
    from tui.games.getit.records import with_record

    return with_record(game_id, seats, options)


def playable(game_id: object) -> bool:
    """True if this app has a table screen for ``game_id``."""
    return isinstance(game_id, str) and game_id in TABLES


def screen_class(game_id: str) -> type[TableScreen]:
    """The table screen class of ``game_id`` (``KeyError`` if the app cannot play it)."""
    module, _, name = TABLES[game_id].partition(":")
    cls: type[TableScreen] = getattr(importlib.import_module(module), name)
    return cls


def table_screen(session: Session) -> TableScreen:
    """The table screen for the game the session's table plays."""
    assert session.latest is not None
    return screen_class(session.latest["table"]["game"])(session)

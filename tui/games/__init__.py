"""The games the app can seat a player at: one package each, and this registry.

The menu, the setup form, the join screen and the lobby offer exactly the games listed
in ``TABLES``; adding a game to the app is writing its package (``tui/games/<game>/``
with a ``TableScreen`` subclass and a text module) and adding it here and in
:data:`tui.games.past_events.PAST_EVENTS`. This module is plain data and the options the
app fills in: the command line and the notices read it without loading any screen.
:mod:`tui.games.screens` loads a game's table screen when a table opens.
"""

from __future__ import annotations

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


#: A table people join over the LAN (or a box) starts with a bot that keeps an away
#: player's seat warm: someone fetching tea does not stop everyone else's game.
HOSTED_PRESETS: dict[str, object] = {"away_bot": "2m"}


def preset_options(game_id: str, *, hosted: bool = False) -> dict[str, object]:
    """The options a person's table of ``game_id`` starts from (see ``PRESETS``; a
    ``hosted`` table, one others join, also ``HOSTED_PRESETS``)."""
    return {**PRESETS.get(game_id, {}), **(HOSTED_PRESETS if hosted else {})}


def form_hidden(game_id: str, *, hosted: bool) -> frozenset[str]:
    """The options a form of ``game_id`` does not offer: those the app sets itself, and
    at a solo table (nobody else to wait for) the away bot."""
    return app_options(game_id) | (frozenset() if hosted else frozenset({"away_bot"}))


#: Options the app fills in itself, never shown in a form (Get It!'s Level X record;
#: Got Five!'s auto-cross, which each player sets for their own seat, RULES.md).
APP_OPTIONS: dict[str, frozenset[str]] = {"getit": frozenset({"best"}),
                                          "gotfive": frozenset({"auto_cross"})}
#: Why each of them is not a table's to set (what a command line asking for one is told).
APP_OPTION_WHY: dict[str, str] = {
    "best": "the app keeps each player's Level X record itself",
    "auto_cross": "each player sets their own auto-cross, in Settings or with - at the table",
}


def app_options(game_id: str) -> frozenset[str]:
    """The options of ``game_id`` that the app sets itself (hidden from forms)."""
    return APP_OPTIONS.get(game_id, frozenset())


def table_options(game_id: str, seats: int, options: dict[str, object]) -> dict[str, object]:
    """``options`` as a table is opened or configured, with what the app fills in itself."""
    if game_id not in APP_OPTIONS:
        return dict(options)
    # Get It!'s records (a file of the player's) are read only for a Get It! table.
    from tui.games.getit.records import with_record

    return with_record(game_id, seats, options)


def playable(game_id: object) -> bool:
    """True if this app has a table screen for ``game_id``."""
    return isinstance(game_id, str) and game_id in TABLES

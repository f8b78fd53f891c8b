"""The Textual application: a thin shell that opens the main menu and holds shared state.

Screens do the work (``tui/screens``); widgets draw (``tui/widgets``). The app keeps
what every screen shares: the player's settings, and the host this laptop runs when
it plays solo or hosts a LAN game (with its mDNS announcement).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.binding import Binding

from engine.bots import make_bot
from net.discovery import Advertiser
from net.host import Host
from tui.screens.menu import MenuScreen
from tui.settings import Settings


class HiddenHandApp(App[None]):
    """hiddenhand in the terminal.

    ``bind`` is the address a hosted game listens on (``None``: every interface, as a
    LAN party needs); ``solo`` starts a solo game at once (``{"game_id", "seats",
    "options"}``); ``bot_delay`` paces the bots (seconds between their moves);
    ``seed_source`` fixes the games' seeds (tests and snapshots). ``box`` is the
    address of an SSH box's host (``hiddenhand ssh-serve``): the menu then joins and
    opens tables there instead of hosting on the LAN, and the lobby shows
    ``box_invite``, how friends connect.
    """

    CSS_PATH = "app.tcss"
    TITLE = "hiddenhand"
    SUB_TITLE = "hidden-information party games"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True, show=False)]

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        notice: str | None = None,
        solo: dict[str, Any] | None = None,
        bind: str | None = None,
        bot_delay: float = 0.7,
        seed_source: Callable[[], int] | None = None,
        box: tuple[str, int] | None = None,
        box_invite: str | None = None,
    ) -> None:
        super().__init__()
        self.settings = settings or Settings()
        self.bind_address = bind
        self.bot_delay = bot_delay
        self.host: Host | None = None
        self.advertiser: Advertiser | None = None
        self.seed_source = seed_source
        self._notice = notice
        self._solo = solo
        self.box = box
        self.box_invite = box_invite

    def on_mount(self) -> None:
        """Open the menu, then go straight to a solo game if the command line asked."""
        self.push_screen(MenuScreen())
        if self._notice:
            self.notify(self._notice, severity="warning", timeout=8, markup=False)
        if self._solo is not None:
            from tui.screens.setup import SetupScreen

            setup = SetupScreen(mode="solo")
            self.push_screen(setup)
            setup.open_solo(self._solo["game_id"], self._solo["seats"],
                            self._solo.get("options", {}))

    async def start_host(self, port: int | None) -> Host:
        """Run a host in the app; ``port=None`` is solo play with no network at all.

        A LAN host is announced by mDNS on the interfaces of the settings (or
        ``HIDDENHAND_MDNS_INTERFACES``, else all); if that fails, players can still
        join by address, and the app says so.
        """
        await self.stop_host()
        host = Host(self.settings.name, bot_factory=make_bot, bot_delay=self.bot_delay,
                    seed_source=self.seed_source)
        if port is not None:
            await host.start(self.bind_address, port)
            try:
                advertiser = Advertiser(host, host.port,
                                        interfaces=self.settings.mdns_interfaces or None)
                await advertiser.start()
            except (OSError, ValueError) as exc:
                self.notify(f"Players will not find this game on the LAN ({exc}); they can "
                            f"join by address, port {host.port}.", severity="warning",
                            timeout=10, markup=False)
            else:
                self.advertiser = advertiser
        self.host = host
        return host

    async def stop_host(self) -> None:
        """Stop the app's host (and its mDNS announcement), if it runs one."""
        if self.advertiser is not None:
            advertiser, self.advertiser = self.advertiser, None
            await advertiser.close()
        if self.host is not None:
            host, self.host = self.host, None
            await host.close()

    async def action_quit(self) -> None:
        """Stop hosting, then quit."""
        await self.stop_host()
        self.exit()

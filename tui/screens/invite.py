"""Every way into the box, for the friends still outside: each door, and the web link as
a QR code a phone's camera opens."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from tui.screens.styled import StyledOnce
from tui.widgets.footer import TableFooter
from tui.widgets.qr import QRCode


def web_link(doors: list[str]) -> str | None:
    """The web door's link among the doors, if one is open."""
    return next((door for door in doors if door.startswith(("http://", "https://"))), None)


def invitation_line(doors: list[str]) -> str | None:
    """How friends come to a box, in a line (the web link is long: "(i)" shows it, with
    its QR code); ``None`` off a box."""
    if not doors:
        return None
    link = web_link(doors)
    if link is None:
        return f"friends join with: {' or '.join(doors)}"
    return "friends join with: " + " or ".join([*(d for d in doors if d != link),
                                                "a web link (i)"])


def door_words(door: str) -> str:
    """One door as a line a friend can follow."""
    if door.startswith(("http://", "https://")):
        return f"in a browser: {door}"
    return f"in a terminal: {door}"


class InviteScreen(StyledOnce, ModalScreen[None]):
    """The doors of the box, with the web link's QR code; any of its keys closes it."""

    BINDINGS = [Binding("escape,i,enter", "dismiss", "Close")]

    DEFAULT_CSS = """
    InviteScreen { align: center middle; }
    InviteScreen > VerticalScroll { width: auto; max-width: 100%; height: auto;
        max-height: 100%; border: round $primary; padding: 0 1; background: $surface; }
    InviteScreen .doors { width: auto; max-width: 100%; text-wrap: wrap; text-overflow: fold; }
    InviteScreen .hint { color: $text-muted; width: auto; }
    /* A short terminal (80 x 24) keeps the code whole: a camera cannot read a part. */
    InviteScreen.-short .question, InviteScreen.-short .hint { display: none; }
    InviteScreen.-short > VerticalScroll { border: none; }
    """
    #: Below this many lines the words around the doors and the frame give way to the code.
    SHORT_BELOW = 28

    def __init__(self, doors: list[str]) -> None:
        super().__init__()
        self.doors = doors

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Label("Friends join this box:", classes="question")
            yield Static("\n".join(door_words(door) for door in self.doors), classes="doors",
                         markup=False)
            link = web_link(self.doors)
            if link is not None:
                yield Label("or with a phone's camera:", classes="hint")
                with Center():
                    yield QRCode(link, id="invite-qr")
        yield TableFooter()

    def on_mount(self) -> None:
        """Fit the code to the terminal it opens on."""
        self.set_class(self.app.size.height < self.SHORT_BELOW, "-short")

    def on_resize(self, event: events.Resize) -> None:
        """Fit the code to the terminal again."""
        self.set_class(event.size.height < self.SHORT_BELOW, "-short")


__all__ = ["InviteScreen", "door_words", "invitation_line", "web_link"]

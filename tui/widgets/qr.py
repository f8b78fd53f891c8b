"""A QR code drawn in the terminal (:mod:`net.qrcode`), scannable whatever its colours.

With colours the dark modules are black half blocks on white, as a phone's camera
expects whatever the terminal's theme. With none (``TERM=xterm-mono``, ``NO_COLOR``) the
light modules are drawn, in the light foreground of a dark terminal.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from net.qrcode import qr_lines

_BLACK_ON_WHITE = Style(color="#000000", bgcolor="#ffffff")


def qr_text(data: str, *, colour: bool = True) -> Text:
    """The code of ``data`` as text for the terminal (see the module)."""
    return Text("\n".join(qr_lines(data, dark_blocks=colour)),
                style=_BLACK_ON_WHITE if colour else "", no_wrap=True, end="")


class QRCode(Static):
    """A QR code of ``data``; drawn for the terminal's colours when it is shown."""

    DEFAULT_CSS = """
    QRCode { width: auto; height: auto; }
    """

    def __init__(self, data: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.data = data

    def on_mount(self) -> None:
        self.update(qr_text(self.data, colour=not self.app.has_class("-mono")))


__all__ = ["QRCode", "qr_text"]

"""The baseline of ``bench_startup.py``: the smallest real Textual app (Header, Static, Footer).

Run by the benchmark in a pseudo-terminal exactly as the hiddenhand app is, so the two
start-up times differ only by what hiddenhand itself imports and builds.
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Footer, Header, Static

#: What the benchmark looks for on the screen to know the first frame is out.
MARKER = "trivial app ready"


class TrivialApp(App[None]):
    """A header, one line of text and a footer."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(MARKER)
        yield Footer()


if __name__ == "__main__":
    TrivialApp().run()

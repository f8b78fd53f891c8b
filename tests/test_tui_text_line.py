"""A text line's editing keys act in turn with the characters typed (tui.widgets.text_line)."""

from __future__ import annotations

from textual import events
from textual.app import App, ComposeResult
from textual.widgets import Input

from tests.tui_support import until
from tui.widgets.chat import ChatLine
from tui.widgets.limited_input import LimitedInput
from tui.widgets.text_line import TextLine


class Lines(App[None]):
    def compose(self) -> ComposeResult:
        yield TextLine(id="ours")
        yield LimitedInput(limit=24, what="Name", id="limited")
        yield ChatLine(words=("say something",), id="chat", max_length=200)


async def burst(app: App[None], line: Input, keys: list[tuple[str, str | None]]) -> None:
    """Keys that arrive together (a fast typist, an SSH line's burst)."""
    line.focus()
    for key, character in keys:
        app.post_message(events.Key(key, character))


KEYS = [("a", "a"), ("b", "b"), ("backspace", None), ("c", "c"),
        ("left", None), ("x", "x"), ("end", None), ("d", "d")]


async def test_keys_that_arrive_together_are_applied_in_turn() -> None:
    """"ab⌫c←x End d": "axcd". Textual's own Input made a muddle of it: its Backspace
    and arrows went up to the app and back, after the letters behind them."""
    app = Lines()
    async with app.run_test() as pilot:
        for name in ("ours", "limited", "chat"):
            line = app.query_one(f"#{name}", Input)
            await pilot.pause()
            await burst(app, line, KEYS)
            await until(pilot, lambda line=line: len(line.value) == 4, f"{name}'s keys")
            for _ in range(3):
                await pilot.pause()
            assert line.value == "axcd", (name, line.value)

"""A form for a game's table options, built from the engine registry's option list.

A true/false option is a switch, a number an input, a seat-or-random option a select.
``values()`` returns the options as entered; the engine's own checker judges them, so
the form and the host can never disagree on what is allowed.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Input, Label, Select, Switch

import engine

RANDOM = "random"


class OptionsForm(Vertical):
    """The options of one game for a given seat count."""

    DEFAULT_CSS = """
    OptionsForm { height: auto; }
    OptionsForm .option-row { height: auto; padding: 1 0 0 0; }
    OptionsForm .option-row Label { width: 100%; }
    OptionsForm .option-row Input { width: 16; }
    OptionsForm .option-row Select { width: 22; }
    OptionsForm .option-row Switch { width: auto; }
    """

    def __init__(self, game_id: str, seats: int, values: dict[str, Any] | None = None,
                 *, id: str | None = None, disabled: bool = False) -> None:
        super().__init__(id=id, disabled=disabled)
        self.game_id = game_id
        self.seats = seats
        self.initial = dict(values or {})

    def compose(self) -> ComposeResult:
        spec = engine.GAMES[self.game_id]
        for option in spec.options:
            value = self.initial.get(option.name, option.default)
            with Vertical(classes="option-row"):
                yield Label(f"{option.name}: {option.help}")
                if isinstance(option.default, bool):
                    yield Switch(bool(value), id=f"opt-{option.name}")
                elif option.default is None:
                    choices = [("at random", RANDOM)] + [
                        (f"seat {s + 1}", str(s)) for s in range(self.seats)
                    ]
                    current = RANDOM if value is None else str(value)
                    yield Select(choices, value=current, allow_blank=False,
                                 id=f"opt-{option.name}", compact=True)
                else:
                    yield Input(str(value), id=f"opt-{option.name}", compact=True)

    def values(self) -> dict[str, Any]:
        """The options as entered (numbers parsed where they look like numbers)."""
        out: dict[str, Any] = {}
        for option in engine.GAMES[self.game_id].options:
            widget = self.query_one(f"#opt-{option.name}")
            if isinstance(widget, Switch):
                out[option.name] = widget.value
            elif isinstance(widget, Select):
                out[option.name] = None if widget.value == RANDOM else int(str(widget.value))
            elif isinstance(widget, Input):
                text = widget.value.strip()
                try:
                    out[option.name] = int(text)
                except ValueError:
                    out[option.name] = text
        return out

    def checked(self) -> dict[str, Any]:
        """The options, validated by the engine; ``ValueError`` says what is wrong."""
        values = self.values()
        engine.GAMES[self.game_id].check_options(values, self.seats)
        return values

"""A form for a game's table options, built from the engine registry's option list.

Each option says what kind of value it takes (``Option.kind``), so the form never
guesses: a ``bool`` is a switch, a ``seat`` a select of the seats or "at random", a
``choice`` a select of its choices, and an ``int`` a select when its range is short
(plus any named values it also takes, such as Get It!'s level "X") or else a number
field (where "none" stands for a ``None`` it takes). ``checked()`` returns the options
as entered, judged by the engine's own checker, so the form and the host can never
disagree on what is allowed.
"""

from __future__ import annotations

from typing import Any, TypeVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Input, Label, Select, Switch

import engine
from engine.core import Option
from tui.games import app_options, form_hidden, preset_options
from tui.widgets.text_line import TextLine

RANDOM = "random"
#: An ``int`` option with at most this many values is offered as a select.
SELECT_LIMIT = 12


def describe_name(option: Option) -> str:
    """An option's name as players read it ("away bot", not the engine's "away_bot")."""
    return option.name.replace("_", " ")


def describe_value(option: Option, value: Any) -> str:
    """An option's value in words, as players read it (seats counted from 1)."""
    if option.kind == "bool":
        return "on" if value else "off"
    if value is None:
        return "at random" if option.kind == "seat" else "none"
    if option.kind == "seat" and isinstance(value, int):
        return f"seat {value + 1}"
    if option.name == "timer" and value == 0:
        return "off (untimed)"  # (Get It!'s "timer 0" said nothing to a player)
    if option.name == "timer":
        return f"{value} s"  # ("timer 60" did not say of what)
    if option.name == "level" and value == "X":
        # (A lone "X", the drop-down's last line at 80×24, read as the footer's ^X.)
        return "X (all 59 cards)"
    return str(value)


#: What a choice stands for.
T = TypeVar("T")


class ChoiceSelect(Select[T]):
    """A select whose key is in the footer ("enter Choose"): focused in a form, it says
    how it opens (Textual's own select keeps its keys out of the footer)."""

    BINDINGS = [Binding("enter", "show_overlay", "Choose")]


class ToggleSwitch(Switch):
    """A switch whose key is in the footer ("enter On/off"), as :class:`ChoiceSelect`'s."""

    BINDINGS = [Binding("enter", "toggle_switch", "On/off")]


def switch_words(on: bool) -> str:
    """A switch's state in words, beside it: a monochrome terminal shows no colour, and
    where the knob sits is easy to misread."""
    return "on" if on else "off"


def _typed(value: Any) -> str:
    """A number field's text for a value ("none" for ``None``)."""
    return "none" if value is None else str(value)


def _token(value: Any) -> str:
    """A select's key for a value (selects want hashable, comparable keys)."""
    return "none" if value is None else repr(value)


class OptionsForm(Vertical):
    """The options of one game for a given seat count."""

    DEFAULT_CSS = """
    OptionsForm { height: auto; }
    OptionsForm .option-row { height: auto; padding: 1 0 0 0; }
    OptionsForm .option-row Label { width: 100%; }
    OptionsForm .option-row Input { width: 16; }
    OptionsForm .option-row Select { width: 22; }
    OptionsForm .option-row Switch { width: auto; }
    OptionsForm .switch-row { height: auto; }
    OptionsForm .switch-state { width: auto; padding: 1 0 0 1; }
    """

    def __init__(self, game_id: str, seats: int, values: dict[str, Any] | None = None,
                 *, hidden: frozenset[str] = frozenset(), id: str | None = None,
                 disabled: bool = False) -> None:
        super().__init__(id=id, disabled=disabled)
        self.game_id = game_id
        self.seats = seats
        self.initial = dict(values or {})
        #: Options the form leaves out (the app sets them itself).
        self.hidden = hidden
        #: For each option offered as a select: its keys and the values they stand for.
        self._choices: dict[str, dict[str, Any]] = {}
        #: What each select and switch shows as far as its player knows: a select posts
        #: ``Changed`` as it mounts, which is no choice of anyone's.
        self._seen: dict[str, Any] = {}

    def _values_of(self, option: Option) -> list[Any] | None:
        """Every value a select offers for ``option``, or ``None`` for a number field.
        An ``int`` is a select when its range is short at every seat count of the game,
        so that a control never changes kind as the seats change (see :meth:`show`)."""
        if option.kind == "seat":
            return [None, *range(self.seats)]
        if option.kind == "choice":
            return list(option.choices)
        if option.kind != "int":
            return None
        spec = engine.GAMES[self.game_id]
        for seats in range(spec.min_seats, spec.max_seats + 1):
            bounds = option.bounds(seats)
            if not bounds or bounds[1] - bounds[0] >= SELECT_LIMIT:
                return None
        low, high = option.bounds(self.seats) or (0, -1)
        return [*range(low, high + 1), *option.choices]

    def compose(self) -> ComposeResult:
        for option in self._shown():
            value = self.initial.get(option.name, option.default)
            with Vertical(classes="option-row", id=f"opt-row-{option.name}"):
                yield Label(f"{describe_name(option)}: {describe_help(option)}")
                values = self._values_of(option)
                if option.kind == "bool":
                    self._seen[option.name] = bool(value)
                    with Horizontal(classes="switch-row"):
                        yield ToggleSwitch(bool(value), id=f"opt-{option.name}")
                        yield Label(switch_words(bool(value)), classes="switch-state",
                                    id=f"opt-state-{option.name}")
                elif values is not None:
                    self._choices[option.name] = {_token(v): v for v in values}
                    current = _token(value) if value in values else _token(values[0])
                    self._seen[option.name] = current
                    yield ChoiceSelect([(describe_value(option, v), _token(v)) for v in values],
                                       value=current, allow_blank=False,
                                       id=f"opt-{option.name}", compact=True)
                else:
                    field = TextLine(_typed(value), id=f"opt-{option.name}", compact=True)
                    field.footer_send = ("Set", True)  # type: ignore[attr-defined]
                    yield field

    def show(self, seats: int, values: dict[str, Any]) -> None:
        """Show ``values`` for a table of ``seats``, in the controls there are: nothing
        is mounted or removed, so the form can never be half built (a screen closed
        while a select mounted took its parts from under it, and the app with it).
        Showing is no choice: it posts no ``Changed``."""
        self.seats = seats
        self.initial = dict(values)
        with self.prevent(Select.Changed, Switch.Changed, Input.Changed):
            for option in self._shown():
                value = values.get(option.name, option.default)
                widget = self.query_one(f"#opt-{option.name}")
                if isinstance(widget, Switch):
                    widget.value = self._seen[option.name] = bool(value)
                    self.query_one(f"#opt-state-{option.name}", Label).update(
                        switch_words(bool(value)))
                elif isinstance(widget, Select):
                    offered = self._values_of(option) or []
                    choices = {_token(v): v for v in offered}
                    if choices != self._choices[option.name]:
                        self._choices[option.name] = choices
                        widget.set_options([(describe_value(option, v), _token(v))
                                            for v in offered])
                    current = _token(value) if value in offered else _token(offered[0])
                    widget.value = self._seen[option.name] = current
                elif isinstance(widget, Input):
                    widget.value = _typed(value)
        self._show_applicable()

    def on_mount(self) -> None:
        """Show only the options that matter with the values as they stand."""
        self._show_applicable()

    @on(Switch.Changed)
    def _switched(self, event: Switch.Changed) -> None:
        if event.switch.id is not None:
            name = event.switch.id.removeprefix("opt-")
            self.query_one(f"#opt-state-{name}", Label).update(switch_words(event.value))

    @on(Select.Changed)
    @on(Switch.Changed)
    @on(Input.Changed)
    def _changed(self) -> None:
        self._show_applicable()

    def _show_applicable(self) -> None:
        """An option that matters only with another's value (``Option.only_if``: Get
        It!'s cards at Level X) shows only while it does."""
        values = self.values()
        for option in self._shown():
            if option.only_if is not None:
                self.query_one(f"#opt-row-{option.name}").display = option.applies(values)

    def _shown(self) -> list[Option]:
        return [o for o in engine.GAMES[self.game_id].options if o.name not in self.hidden]

    def is_choice(self, control: Widget, value: Any) -> bool:
        """True when ``value``, posted by ``control`` of this form, is a new choice: not
        what the control showed already (a select says its value as it mounts, and a
        form built from an older table would send that table's options back)."""
        name = (control.id or "").removeprefix("opt-")
        if name in self._seen and self._seen[name] == value:
            return False
        self._seen[name] = value
        return True

    def values(self) -> dict[str, Any]:
        """The options as entered (numbers parsed where they look like numbers)."""
        out: dict[str, Any] = {}
        for option in self._shown():
            widget = self.query_one(f"#opt-{option.name}")
            if isinstance(widget, Switch):
                out[option.name] = widget.value
            elif isinstance(widget, Select):
                out[option.name] = self._choices[option.name].get(str(widget.value))
            elif isinstance(widget, Input):
                text = widget.value.strip()
                if text.lower() == "none" and None in option.choices:
                    out[option.name] = None
                    continue
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


class OptionsForms(Vertical):
    """One options form per game, all built with the screen; the game shown now has its
    form on screen. Another game or seat count shows other values in the controls there
    are (:meth:`OptionsForm.show`) and never mounts a form while the screen may close."""

    # (A Vertical takes what room is left: in a scrolling form it must take its height.)
    DEFAULT_CSS = "OptionsForms { height: auto; }"

    def __init__(self, games: list[str], game_id: str, seats: int,
                 values: dict[str, Any] | None = None, *, hosted: bool = True,
                 id: str | None = None) -> None:
        super().__init__(id=id)
        self._games = games
        #: A table others join (the lobby's, a hosted one): its forms offer the away bot.
        self._hosted = hosted
        self._shown_game = game_id
        self._start = (seats, dict(values or {}))

    def compose(self) -> ComposeResult:
        seats, values = self._start
        for game_id in self._games:
            spec = engine.GAMES[game_id]
            here = game_id == self._shown_game
            form = OptionsForm(game_id, seats if here else spec.min_seats,
                               values if here else preset_options(game_id,
                                                                  hosted=self._hosted),
                               hidden=form_hidden(game_id, hosted=self._hosted),
                               id=f"options-{game_id}")
            form.display = here
            yield form

    @property
    def current(self) -> OptionsForm:
        """The form of the game shown now."""
        return self.query_one(f"#options-{self._shown_game}", OptionsForm)

    def show(self, game_id: str, seats: int, values: dict[str, Any]) -> OptionsForm:
        """Show ``game_id``'s form with ``values`` for a table of ``seats``."""
        self._shown_game = game_id
        for form in self.query_children(OptionsForm):
            if form.game_id == game_id:
                form.show(seats, values)
            form.display = form.game_id == game_id
        return self.current


def describe_help(option: Option) -> str:
    """An option's help in the form's words: a seat chosen at random is "at random"
    in its list, so its help does not say "none" (the command line's word for it)."""
    if option.kind == "seat":
        return option.help.replace("(none: chosen at random)", "(or at random)")
    return option.help


def fitting_options(game_id: str, seats: int, options: dict[str, Any]) -> dict[str, Any]:
    """``options`` of ``game_id`` for a table of ``seats``: each one still possible
    kept, each other one (a first player whose seat is gone) back to its default."""
    out: dict[str, Any] = {}
    for option in engine.GAMES[game_id].options:
        value = options.get(option.name, option.default)
        try:
            option.check(value, seats)
        except ValueError:
            value = option.default
        out[option.name] = value
    return out


def same_options(game_id: str, seats: int, first: dict[str, Any],
                 second: dict[str, Any]) -> bool:
    """True when both are the same table options as the engine fills them in (defaults,
    normalised values); options it refuses are never the same."""
    spec = engine.GAMES[game_id]
    try:
        return spec.check_options(first, seats) == spec.check_options(second, seats)
    except ValueError:
        return False


def describe_options(game_id: str, options: dict[str, Any]) -> str:
    """A table's options in a few words, for everyone in the lobby."""
    spec = engine.GAMES[game_id]
    given = {**spec.defaults, **options}
    words = [f"{describe_name(option)} {describe_value(option, given[option.name])}"
             for option in spec.options
             # Not the app's own (the Level X record), nor one that does not matter now.
             if option.name not in app_options(game_id) and option.applies(given)]
    if given.get("level") == "X" and isinstance(given.get("best"), int):
        # (The record to beat, beside the count chosen: it showed only once dealt.)
        words.insert(2, f"record {given['best']} cards")
    return " · ".join(words)

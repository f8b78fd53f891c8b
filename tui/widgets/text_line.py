"""A text line whose editing keys act in turn with the characters typed.

Textual's ``Input`` types a character as its key arrives, but its editing keys
(Backspace, the arrows, Home, Enter …) are bindings: their key goes up to the app and the
action comes back after the characters typed behind it (Textual issue #6605). Keys that
arrive together — a quick typist, an SSH line or a browser tab that sends a burst — were
applied out of order: "ab⌫c" gave "ab", and in the GOT FIVE! bar "⌫⌫10" emptied the next
slot. :class:`TextLine` runs its own bindings as their key reaches it, in turn.
"""

from __future__ import annotations

from functools import cache

from textual import events
from textual.binding import Binding
from textual.widgets import Input


@cache
def _own_bindings(line: type[Input]) -> dict[str, Binding]:
    """The non-priority bindings a text line's class declares (and those it inherits,
    a subclass's over its base's, as Textual merges them), by key. Priority bindings
    never reach the line: the app runs them before the key is passed on."""
    keys: dict[str, Binding] = {}
    for cls in reversed(line.__mro__):
        for binding in Binding.make_bindings(cls.__dict__.get("BINDINGS", ())):
            if not binding.priority:
                keys[binding.key] = binding
    return keys


class TextLine(Input):
    """An ``Input`` whose editing keys are handled in turn with what is typed."""

    async def on_key(self, event: events.Key) -> None:
        """Run this line's own binding for ``event``'s key now (see the module); one it
        may not run now goes on up as before."""
        binding = _own_bindings(type(self)).get(event.key)
        if binding is not None and await self.app.run_action(binding.action, self):
            event.stop()
            event.prevent_default()

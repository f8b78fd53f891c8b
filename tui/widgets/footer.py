"""A footer whose keys change state in place: Textual's ``Footer``, without a rebuild per turn.

Textual's ``Footer`` removes and mounts all its keys (a relayout of the screen) whenever
the screen's bindings are refreshed, even when only a key's enabled state changed. At a
table that is every other update: our turn comes and goes, and "Play card" or "Draw"
is dimmed and lit again. Each rebuild also left its keys alive: a key binds the footer's
``compact`` and Textual drops that binding only when ``compact`` changes, which it never
does, so every removed key stayed in memory, and the garbage collector walked more of
them at every full collection (scripts/bench_repaint.py). This footer rebuilds only when
the set of keys it shows changes, and then lets the old keys go; otherwise it sets each
key's dimmed state and tooltip where it stands.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey


class TableFooter(Footer):
    """``Footer`` showing exactly the keys that work now, restyled in place when it can."""

    #: What the keys were built from (see :meth:`key_set`); ``None`` before the first build.
    _built: tuple[object, ...] | None = None

    def key_set(self, screen: Screen[Any]) -> tuple[object, ...]:
        """Everything the footer's keys are built from except their state (enabled,
        tooltip): the bindings shown, in order, and whether the command palette key is."""
        shown = tuple(active.binding for active in screen.active_bindings.values()
                      if active.binding.show)
        palette = (self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE
                   and self.app.COMMAND_PALETTE_BINDING in screen.active_bindings)
        return shown, palette, self.combine_groups

    def compose(self) -> ComposeResult:
        """Textual's keys, remembering what they were built from."""
        self._built = self.key_set(self.screen) if self._bindings_ready else None
        yield from super().compose()

    def bindings_changed(self, screen: Screen[Any]) -> None:
        """The screen's keys changed: restyle them in place, or rebuild if the set changed."""
        if self.restyle_now(screen):
            return
        super().bindings_changed(screen)

    def restyle_now(self, screen: Screen[Any]) -> bool:
        """Give the keys their state now, in place; ``False`` (nothing done) if the set of
        keys changed, which only a rebuild shows.

        ``refresh_bindings`` reaches the footer only once the screen's messages are
        processed, mostly after the update's frame: the keys' new state then cost a
        frame of its own, a frame later. A screen calls this first, then
        ``refresh_bindings`` (which finds nothing left to restyle, or rebuilds).
        """
        return bool(self._bindings_ready and screen.app.app_focus and self.is_attached
                    and screen is self.screen and self._built == self.key_set(screen)
                    and self._restyle(screen))

    async def recompose(self) -> None:
        """Rebuild the keys, then let the old ones go."""
        await super().recompose()
        self._drop_old_keys()

    def _restyle(self, screen: Screen[Any]) -> bool:
        """Give each key its state now, as Textual's ``compose`` would build it; ``False``
        if the keys on screen are not the ones expected (then the footer is rebuilt)."""
        first: dict[str, tuple[Binding, bool, str | None]] = {}
        for active in screen.active_bindings.values():
            if active.binding.show:
                first.setdefault(active.binding.action,
                                 (active.binding, active.enabled, active.tooltip))
        palette: tuple[Binding, bool, str | None] | None = None
        command = screen.active_bindings.get(self.app.COMMAND_PALETTE_BINDING)
        if command is not None:
            palette = (command.binding, command.enabled,
                       command.binding.tooltip or command.binding.description)
        expected = iter(first.values())
        states: list[tuple[FooterKey, bool, str | None]] = []
        for key in self.query(FooterKey):
            if key.has_class("-command-palette"):
                if palette is None:
                    return False
                binding, enabled, tooltip = palette
            else:
                entry = next(expected, None)
                if entry is None:
                    return False
                binding, enabled, tooltip = entry
                if key.has_class("-grouped"):
                    tooltip = tooltip or binding.description
            if (key.key, key.action) != (binding.key, binding.action):
                return False
            states.append((key, enabled, tooltip or None))
        if next(expected, None) is not None:
            return False
        for key, enabled, tooltip in states:
            if key._disabled == enabled:
                # FooterKey keeps "dimmed" in ``_disabled`` (a click on it rings the
                # bell) and the ``-disabled`` class (its style), both set when built.
                key._disabled = not enabled
                key.set_class(not enabled, "-disabled")
            if key.tooltip != tooltip:
                key.tooltip = tooltip
        return True

    def _drop_old_keys(self) -> None:
        """Forget the ``compact`` bindings of keys that are gone (Textual keeps them until
        ``compact`` changes), so that removed keys can be freed."""
        watchers = getattr(self, "__watchers", {}).get("compact")
        if watchers:
            watchers[:] = [(node, callback) for node, callback in watchers
                           if not node._closing and node.is_attached]

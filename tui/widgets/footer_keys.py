"""Which keys a footer shows, and how: the keys of a screen now (:func:`footer_entries`,
each a :class:`FooterEntry`), each action's place among a screen's ``BINDINGS``
(:func:`declared_order`), and an app whose screens may word a key's display themselves
(:class:`ScreenKeyDisplay`). The footer that draws them is ``tui.widgets.footer``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from textual.app import App
from textual.binding import ActiveBinding, Binding
from textual.screen import Screen

#: Per screen class: each action's place in the keys it declares, its own first (a
#: table's moves before the keys every table has: chat, leave).
_DECLARED: dict[type, dict[str, int]] = {}


def declared_order(cls: type) -> dict[str, int]:
    """Each action's place among the ``BINDINGS`` of ``cls`` and then of its bases (its
    bases' first, for a screen whose ``FOOTER_BASE_FIRST`` says so: a review's stepping
    keys before its own)."""
    order = _DECLARED.get(cls)
    if order is None:
        order = {}
        classes = cls.__mro__[::-1] if getattr(cls, "FOOTER_BASE_FIRST", False) else cls.__mro__
        for klass in classes:
            for binding in vars(klass).get("BINDINGS", ()):
                action = binding.action if isinstance(binding, Binding) else binding[1]
                order.setdefault(action, len(order))
        _DECLARED[cls] = order
    return order


class ScreenKeyDisplay:
    """An app (mixed in before ``App``) whose footers show a key as its screen says
    (``key_display(binding)``), as Get It! does for its look keys (the numbers of the
    players at the table) and a review for its seats ("1-3")."""

    def get_key_display(self, binding: Binding) -> str:
        app = self
        assert isinstance(app, App)
        display = getattr(app.screen, "key_display", None)
        if callable(display):
            shown = display(binding)
            if isinstance(shown, str) and shown:
                return shown
        return App.get_key_display(app, binding)


class FooterEntry(NamedTuple):
    """One key as the footer draws it (a named tuple: a dataclass generates its methods
    with ``exec`` when it is defined, which every start pays for)."""

    #: The key pressed by a click (the binding's key).
    key: str
    #: How the key is shown (``App.get_key_display``).
    display: str
    #: What it does, in words.
    description: str
    #: The binding's action (with its arguments).
    action: str
    #: Lit (it works now) or dimmed.
    enabled: bool
    #: Shown when the mouse rests on it.
    tooltip: str | None

    @property
    def name(self) -> str:
        """The action's name, without its arguments."""
        return self.action.partition("(")[0]


def footer_entries(screen: Screen[Any], active_bindings: Mapping[str, ActiveBinding] | None = None,
                   *, line_keys: bool = False) -> tuple[FooterEntry, ...]:
    """The keys a footer shows on ``screen`` now: the first shown binding of each
    action, as Textual's ``Footer`` shows them, in the order the screen declares them
    (its own keys first, then those of the screens it is made from); with ``line_keys``
    (a table's and a lobby's), while a text line (the chat, Get It!'s talk line) has the
    keys, the two that work there (send, back; a line with ``footer_send`` words its
    Enter, lit or dimmed). On a touch screen a key for two directions is two keys. A
    screen may word a key itself (``key_description(binding)``), as a question words
    its answers as its buttons do. ``active_bindings``: the screen's, if the caller has
    them already (each reading asks every key's ``check_action``)."""
    app = screen.app
    from textual.widgets import Input

    # (At a table and in its lobby: a form's line, as the settings' name, keeps the
    # form's keys: its Enter saves, and nothing there is sent.)
    if isinstance(screen.focused, Input) and line_keys:
        enter = app.get_key_display(Binding("enter", "submit"))
        # A line may word its Enter itself, dimmed while it sends nothing yet.
        send = getattr(screen.focused, "footer_send", None)
        words, lit = send if isinstance(send, tuple) else ("Send", True)
        return (FooterEntry("enter", enter, words, "submit", lit, None),
                FooterEntry("escape", "esc", "Back", "back", True, "Back to the table's keys"))
    first: dict[str, FooterEntry] = {}
    describe = getattr(screen, "key_description", None)
    if active_bindings is None:
        active_bindings = screen.active_bindings
    for active in active_bindings.values():
        binding: Binding = active.binding
        if binding.show and binding.action not in first:
            words = describe(binding) if callable(describe) else None
            first[binding.action] = FooterEntry(
                binding.key, app.get_key_display(binding),
                words if isinstance(words, str) and words else binding.description,
                binding.action, active.enabled, active.tooltip or None)
    order = declared_order(type(screen))
    entries = tuple(sorted(first.values(), key=lambda e: order.get(e.action, len(order))))
    if getattr(app, "touch", False):
        entries = _split_pairs(screen, entries, active_bindings)
    return entries


def _split_pairs(screen: Screen[Any], entries: tuple[FooterEntry, ...],
                 active_bindings: Mapping[str, ActiveBinding]) -> tuple[FooterEntry, ...]:
    """For a finger: a key that stands for two ("<> ✗ range", "←→ Step": the other
    direction a hidden binding of the same action) becomes two, each its own glyph, so
    that a tap can press either ("< ✗ range >", "← → Step"). A tap pressed only the key
    shown, and the other direction was out of reach without a keyboard (a pass on a
    phone)."""
    app = screen.app
    out: list[FooterEntry] = []
    for entry in entries:
        name = entry.name
        partner = next((a.binding for a in active_bindings.values()
                        if not a.binding.show and a.binding.action != entry.action
                        and "(" in a.binding.action and a.binding.action.partition("(")[0]
                        == name), None)
        own = app.get_key_display(Binding(entry.key, entry.action))
        other = app.get_key_display(partner) if partner is not None else ""
        if partner is None or len(own) != 1 or len(other) != 1 or not (
                own in entry.display and other in entry.display):
            out.append(entry)
            continue
        enabled = active_bindings[partner.key].enabled if partner.key in active_bindings \
            else entry.enabled
        pair = FooterEntry(partner.key, other, "", partner.action, enabled, None)
        first = entry._replace(display=own)
        out.extend((pair, first) if entry.display.index(other) < entry.display.index(own)
                   else (first, pair))
    return tuple(out)

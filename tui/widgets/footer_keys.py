"""How a footer orders and shows keys: each action's place among a screen's
``BINDINGS`` (:func:`declared_order`), and an app whose screens may word a key's
display themselves (:class:`ScreenKeyDisplay`). The footer that draws them is
``tui.widgets.footer``."""

from __future__ import annotations

from textual.app import App
from textual.binding import Binding

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

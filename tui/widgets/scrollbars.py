"""Fitting a line-API widget's scrollbars to a new virtual size without a layout.

Setting a ``ScrollView``'s ``virtual_size`` asks Textual to lay out the whole screen
again, though the view's box does not follow its content: only a scrollbar appearing or
going needs a layout. A view that knows its scrollbars stay as they are sets the new
size with ``set_reactive`` and calls :func:`fit_scrollbars`: the thumbs follow and the
scroll offset stays within the new bounds.
"""

from __future__ import annotations

from textual.geometry import Size
from textual.scroll_view import ScrollView


def scrollbars_for(view: ScrollView, virtual: Size) -> tuple[bool, bool]:
    """The (vertical, horizontal) scrollbars Textual's overflow rules show for a
    content of size ``virtual`` in ``view``'s box."""
    styles = view.styles
    width, height = view.container_size

    def needed(overflow: str, over: bool) -> bool:
        return overflow == "scroll" or (overflow == "auto" and over)

    horizontal = needed(styles.overflow_x, virtual.width > width)
    vertical = needed(styles.overflow_y, virtual.height > height)
    if styles.overflow_x == "auto" and vertical and not horizontal:
        horizontal = virtual.width > width - styles.scrollbar_size_vertical
    if styles.overflow_y == "auto" and horizontal and not vertical:
        vertical = virtual.height > height - styles.scrollbar_size_horizontal
    return vertical, horizontal


def fit_scrollbars(view: ScrollView, virtual: Size) -> None:
    """Fit the scrollbars ``view`` shows (the same as before) to ``virtual``: their
    thumbs' lengths and places, and the scroll offset within the new bounds."""
    width, height = view.container_size
    if view.show_vertical_scrollbar and view.styles.scrollbar_size_vertical:
        bar = view.vertical_scrollbar
        bar.window_virtual_size = virtual.height
        bar.window_size = height - view.scrollbar_size_horizontal
        bar.refresh()
    if view.show_horizontal_scrollbar and view.styles.scrollbar_size_horizontal:
        bar = view.horizontal_scrollbar
        bar.window_virtual_size = virtual.width
        bar.window_size = width - view.scrollbar_size_vertical
        bar.refresh()
    view.scroll_x = view.validate_scroll_x(view.scroll_x)
    view.scroll_y = view.validate_scroll_y(view.scroll_y)

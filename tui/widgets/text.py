"""Set a ``Static``'s content without a layout of the screen when its size cannot change.

``Static.update`` asks Textual to lay out the whole screen again (``layout=True``) in
case the new content makes the widget bigger or smaller. Most of the tables' texts have
a fixed box (a status line of height 1, a card of 12×4), or keep the same height at the
same width (one line of text in a wider box): for those a layout is pure cost, and each
one also repaints a log's scrollbar in a second frame.
:func:`set_text` asks for a layout only when the widget's size depends on its content
and the new content would change it; what is drawn is the same.
"""

from __future__ import annotations

from textual.visual import VisualType
from textual.widgets import Static


def set_text(widget: Static, content: VisualType) -> bool:
    """Give ``widget`` ``content``; a layout only if its size may change with it.

    Returns False, doing nothing, when ``widget`` shows ``content`` already.
    """
    if widget.content == content:
        return False
    styles = widget.styles
    width = widget.content_size.width
    auto_width = styles.width is not None and styles.width.is_auto
    auto_height = styles.height is None or styles.height.is_auto
    if not widget.is_mounted or not width or not widget.display or auto_width:
        widget.update(content)
        return True
    before = _height(widget, width) if auto_height else 0
    widget.update(content, layout=False)
    if auto_height and _height(widget, width) != before:
        widget.refresh(layout=True)
    return True


def _height(widget: Static, width: int) -> int:
    """The height of ``widget``'s content at ``width``, as its layout measures it
    (``Widget.get_content_height``)."""
    return widget.visual.get_height(widget.styles, width)  # type: ignore[arg-type]

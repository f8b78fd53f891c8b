"""A QR code as lines of text: two rows of modules a line, in half blocks.

Made by segno (pure Python). A camera wants dark modules on light: drawn black on white,
the dark modules are the blocks (``dark_blocks``); in a terminal's own colours (light
text on a dark background, no colour codes), the light modules are.
"""

from __future__ import annotations

import segno

#: (top drawn, bottom drawn) → the cell.
_CELLS = {(True, True): "█", (True, False): "▀", (False, True): "▄", (False, False): " "}


def qr_modules(data: str, *, border: int = 2) -> list[list[bool]]:
    """The QR code of ``data``: rows of modules, dark True, with a light border."""
    code = segno.make(data, error="l", micro=False)
    return [[bool(module) for module in row] for row in code.matrix_iter(scale=1, border=border)]


def qr_lines(data: str, *, dark_blocks: bool) -> list[str]:
    """The code of ``data`` in half blocks: the dark modules drawn, or the light ones."""
    rows = qr_modules(data)
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    return ["".join(_CELLS[t == dark_blocks, b == dark_blocks]
                    for t, b in zip(top, bottom, strict=True))
            for top, bottom in zip(rows[0::2], rows[1::2], strict=True)]


__all__ = ["qr_lines", "qr_modules"]

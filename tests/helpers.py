"""Helpers shared by the engine tests: walking views, msgpack round trips."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgpack


def walk(data: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """Every (path, value) pair in a nested plain-data structure, containers included."""
    yield path, data
    if isinstance(data, dict):
        for key, value in data.items():
            yield from walk(value, f"{path}.{key}")
    elif isinstance(data, list | tuple):
        for i, value in enumerate(data):
            yield from walk(value, f"{path}[{i}]")


def ids_in(data: Any) -> set[int]:
    """Every value stored under an ``"id"`` key anywhere in ``data``.

    (A walk without :func:`walk`'s paths: the property tests ask this of every view
    after every move, so building path strings would be most of their time.)"""
    found: set[int] = set()
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            ident = value.get("id")
            if isinstance(ident, int):
                found.add(ident)
            stack.extend(value.values())
        elif isinstance(value, list | tuple):
            stack.extend(value)
    return found


def roundtrip(data: Any) -> Any:
    """``data`` packed and unpacked as the wire does it."""
    return msgpack.unpackb(msgpack.packb(data), strict_map_key=True, raw=False)


def assert_usage_error(argv: list[str], message: str, capsys: Any) -> None:
    """``hiddenhand argv`` stops with exit code 2 and says ``message`` on stderr."""
    import pytest

    from tui.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err

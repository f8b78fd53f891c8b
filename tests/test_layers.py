"""The layering rules of STYLE.md, checked by walking every import in the tree."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# engine/ is pure rules: no UI, no network, no clock, no I/O, no process or OS access.
FORBIDDEN = {
    "engine": {"textual", "net", "tui", "asyncio", "socket", "time", "datetime", "os",
               "pathlib", "io", "subprocess", "threading", "zeroconf", "msgpack", "secrets"},
    "net": {"tui", "textual"},
}


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports_nothing_it_must_not(layer: str) -> None:
    files = sorted((ROOT / layer).rglob("*.py"))
    assert files, f"no Python files under {layer}/"
    for path in files:
        bad = imports_of(path) & FORBIDDEN[layer]
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_engine_uses_no_global_randomness() -> None:
    """Only a seeded random.Random instance: no module-level random.* calls."""
    for path in sorted((ROOT / "engine").rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
                and node.attr != "Random"
            ):
                raise AssertionError(f"{path.relative_to(ROOT)} calls random.{node.attr}")


def test_the_checker_sees_a_forbidden_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import textual.app\nfrom net.host import Host\nfrom . import x\n")
    assert imports_of(sample) == {"textual", "net"}

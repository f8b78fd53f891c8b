"""Layering: ``net`` imports ``engine`` but never ``tui``; ``engine`` imports neither."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def imported_packages(package: str) -> dict[str, set[str]]:
    """Top-level package names imported by each module of ``package``."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module.split(".")[0])
        found[str(path.relative_to(ROOT))] = names
    return found


@pytest.mark.parametrize(("package", "forbidden"), [("net", {"tui", "textual"}),
                                                    ("engine", {"net", "tui", "textual"})])
def test_layers_do_not_reach_upwards(package: str, forbidden: set[str]) -> None:
    modules = imported_packages(package)
    assert modules, f"no modules found in {package}/"
    bad = {m: sorted(names & forbidden) for m, names in modules.items() if names & forbidden}
    assert not bad


def test_net_uses_the_engine() -> None:
    assert any("engine" in names for names in imported_packages("net").values())


def test_the_cli_imports_net_only_lazily() -> None:
    tree = ast.parse((ROOT / "tui" / "cli.py").read_text())
    top = {
        node.module.split(".")[0]
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and node.module
    } | {a.name.split(".")[0] for node in tree.body if isinstance(node, ast.Import)
         for a in node.names}
    assert "net" not in top

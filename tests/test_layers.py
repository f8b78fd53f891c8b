"""The layering rules of STYLE.md, and what an import contract cannot say.

The layers themselves (engine → nothing of ours and no I/O; net → engine; tui → net and
engine) are import-linter contracts in ``pyproject.toml``; ``.ci/run`` runs
``lint-imports`` and so does the first test here, so the README's test command checks
them too. The other tests check what is not an import between packages: the engine's
randomness, and that the command line imports the network layer and the engine only
when needed.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_import_contracts_are_kept() -> None:
    lint = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which(
        "lint-imports")
    assert lint, "import-linter is not installed (pip install -e '.[test]')"
    done = subprocess.run([lint, "--no-cache", "--no-logo"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


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


def test_the_cli_imports_net_and_engine_only_lazily() -> None:
    # Plain ``hiddenhand`` (the menu) needs neither before its first frame.
    tree = ast.parse((ROOT / "tui" / "cli.py").read_text())
    top = {
        node.module.split(".")[0]
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and node.module
    } | {a.name.split(".")[0] for node in tree.body if isinstance(node, ast.Import)
         for a in node.names}
    assert "argparse" in top and "net" not in top and "engine" not in top

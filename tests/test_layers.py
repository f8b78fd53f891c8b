"""The layering rules of STYLE.md, and what an import contract cannot say.

The layers themselves (engine → nothing of ours and no I/O; net → engine; tui → net and
engine) are import-linter contracts in ``pyproject.toml``; ``.ci/run`` runs
``lint-imports`` and so does the first test here, so the README's test command checks
them too. The other tests check what is not an import between packages: no import
circle between our modules (an import inside a function counts too), the engine's
randomness, that the command line imports the network layer and the engine only when
needed, and that the app names the wire's error codes only through ``net.wire.errors``.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent


def test_the_import_contracts_are_kept() -> None:
    lint = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which(
        "lint-imports")
    assert lint, "import-linter is not installed (pip install -e '.[test]')"
    done = subprocess.run([lint, "--no-cache", "--no-logo"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def import_circles(graph: grimp.ImportGraph) -> list[list[str]]:
    """One circle per group of modules that import each other, round and back, as the
    module path ``[a, b, ..., a]``; ``[]`` if there is none. (The groups are the strongly
    connected components of the import graph, found by Tarjan's algorithm, without
    recursion.)"""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work: list[tuple[str, Iterable[str]]] = [
            (root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        while work:
            module, imported = work[-1]
            for other in imported:
                if other not in index:
                    index[other] = low[other] = len(index)
                    stack.append(other)
                    on_stack.add(other)
                    work.append((other, iter(sorted(graph.find_modules_directly_imported_by(
                        other)))))
                    break
                if other in on_stack:
                    low[module] = min(low[module], index[other])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[module])
                if low[module] == index[module]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == module:
                            break
                    if len(group) > 1:
                        first = min(group)
                        # Any way back to ``first`` from what it imports stays in the group.
                        back = min(other for other in graph.find_modules_directly_imported_by(
                            first) if other in group)
                        chain = graph.find_shortest_chain(importer=back, imported=first)
                        assert chain is not None
                        circles.append([first, *chain])
    return circles


#: Each module of ours that imports others by name (``importlib.import_module``), and the
#: modules whose string constants name them ("package.module" or "package.module:name"):
#: a game's screen in ``tui.games.TABLES``, its words in ``PAST_EVENTS``, the engine's
#: games and bots in their own modules' tables.
LOADERS = {
    "engine": ["engine"],
    "engine.bots": ["engine.bots"],
    "tui.games.screens": ["tui.games"],
    "tui.games.past_events": ["tui.games.past_events"],
}


def module_path(module: str) -> Path:
    """The source file of one of our modules."""
    path = ROOT.joinpath(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def loaded_by_name(graph: grimp.ImportGraph, loader: str) -> set[str]:
    """The modules of ours that ``loader`` imports by name (see ``LOADERS``)."""
    named = set()
    for source in LOADERS[loader]:
        for node in ast.walk(ast.parse(module_path(source).read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                module = node.value.partition(":")[0]
                if module in graph.modules:
                    named.add(module)
    return named


def our_import_graph() -> grimp.ImportGraph:
    """engine, net and tui, with what a module imports by name as its imports."""
    graph = grimp.build_graph("engine", "net", "tui", exclude_type_checking_imports=True,
                              cache_dir=None)
    for loader in LOADERS:
        for module in loaded_by_name(graph, loader):
            graph.add_import(importer=loader, imported=module)
    return graph


def test_no_module_of_ours_imports_itself_round_a_circle() -> None:
    """No import circle in engine, net or tui, counting imports inside functions (a
    circle held up only by importing late is still a circle) and modules imported by
    name (a game's table screen, loaded from the registry when a table opens). Imports
    under ``if TYPE_CHECKING:`` do not count: they never run (STYLE.md: a screen types
    the app that way)."""
    circles = import_circles(our_import_graph())
    assert not circles, "import circles:\n" + "\n".join(" -> ".join(c) for c in circles)


def test_every_module_imported_by_name_is_seen() -> None:
    """Each module that imports by name is in ``LOADERS`` (else what it loads would be
    hidden from the circle test), and what it loads is found there: every game's table
    screen and words, every game and bot of the engine."""
    graph = grimp.build_graph("engine", "net", "tui", exclude_type_checking_imports=True,
                              cache_dir=None)
    loaders = set()
    for module in graph.modules:
        for node in ast.walk(ast.parse(module_path(module).read_text())):
            if ((isinstance(node, ast.Attribute) and node.attr == "import_module")
                    or (isinstance(node, ast.Name) and node.id == "__import__")):
                loaders.add(module)
    assert loaders == set(LOADERS)
    import tui.games

    games = set(tui.games.TABLES)
    assert {m.split(".")[2] for m in loaded_by_name(graph, "tui.games.screens")} == games
    assert {m.split(".")[2] for m in loaded_by_name(graph, "tui.games.past_events")} == games
    assert loaded_by_name(graph, "engine") == {"engine.getit", "engine.getout", "engine.gotfive"}
    assert len(loaded_by_name(graph, "engine.bots")) == 3


def test_screens_and_widgets_never_import_the_app() -> None:
    """They type it under ``if TYPE_CHECKING:`` and get it from Textual at run time;
    the app imports them, never the other way round."""
    graph = grimp.build_graph("tui", exclude_type_checking_imports=True, cache_dir=None)
    importers = sorted(module for module in graph.find_modules_that_directly_import("tui.app")
                       if module.startswith(("tui.screens", "tui.games", "tui.widgets")))
    assert not importers, f"importing tui.app at run time: {importers}"


def test_a_circle_is_found_and_named() -> None:
    """The finder itself: a circle of three, named from its first module; a module
    imported from the circle but importing nothing back is not in it."""
    graph = grimp.ImportGraph()
    for importer, imported in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")]:
        graph.add_import(importer=importer, imported=imported)
    assert import_circles(graph) == [["a", "b", "c", "a"]]


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


#: Strings of tui/ that are spelled as an error code but name something else, by file.
NOT_ERROR_CODES = {
    # The notice the host pushes when a seat is kicked: a notice type, not an error code.
    ("tui/notices.py", "kicked"),
}


def test_the_app_never_spells_out_an_error_code() -> None:
    """tui/ compares error codes through net.wire.errors' names (errors.TABLE_FULL), never
    as the string a host sends ("table_full"): a code renamed there would otherwise go
    on being compared, and never match, here."""
    from net.wire import errors

    codes = {value for name, value in vars(errors).items()
             if name.isupper() and isinstance(value, str)}
    assert {"table_full", "shutting_down", "wrong_phase"} <= codes
    spelled = []
    for path in sorted((ROOT / "tui").rglob("*.py")):
        where = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Constant) and node.value in codes
                    and (where, node.value) not in NOT_ERROR_CODES):
                spelled.append(f"{where}:{node.lineno}: {node.value!r}")
    assert not spelled, "error codes spelled out; use net.wire.errors:\n" + "\n".join(spelled)


def test_no_module_of_net_or_tui_is_over_500_lines() -> None:
    """A module that grows past 500 lines is doing more than one job."""
    root = Path(__file__).resolve().parent.parent
    long = {str(path.relative_to(root)): n for package in ("net", "tui")
            for path in (root / package).rglob("*.py")
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > 500}
    assert not long, long

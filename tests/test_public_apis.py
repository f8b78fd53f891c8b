"""Only public names of Textual, Rich and asyncio in ``engine/``, ``net/`` and ``tui/``, and
in the tests (all but one reach, in the one helper allowed it: :data:`ALLOWED_IN_TESTS`).

A private name (one starting with ``_``, not a dunder) of a library is free to change in
any release: code that reaches one ties the project to one version of it. Read with
``ast`` (and, for classes, their bases as imported), this finds:

- imports of a private module or name: ``from textual._x import …``, ``import rich._x``,
  ``from asyncio.x import _y``;
- ``super()._name(…)`` where a library base defines ``_name``;
- a ``_name`` method or attribute of a class whose bases come from a library, where a
  library class among its bases already has that name (an override of, or a clash with,
  a private member, instance attributes the library sets in ``__init__`` and elsewhere
  included);
- ``self._name`` in a class whose library base has ``_name``;
- ``something._name`` on any other object (and ``getattr(something, "_name")``,
  ``monkeypatch.setattr(something, "_name", …)``, ``monkeypatch.setattr("textual.x.Y._name",
  …)``), where ``_name`` is a private name the libraries define and this project defines
  nowhere (a named tuple's ``_replace`` and kin are public).

A test's own private names (what the module defines, binds, or sets on ``self``) are its
own; a library's private method replaced on one of its objects is a reach.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: The packages scanned.
SCANNED = ("engine", "net", "tui")
#: The libraries whose private names are off limits.
LIBRARIES = ("textual", "rich", "asyncio")
#: Public despite the underscore: a named tuple's own methods and fields.
NAMED_TUPLE = frozenset({"_replace", "_asdict", "_fields", "_field_defaults", "_make"})


def is_private(name: str) -> bool:
    """``_name`` but not ``__dunder__``."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def is_library(module: str) -> bool:
    """True for a module of one of :data:`LIBRARIES`."""
    return module.split(".")[0] in LIBRARIES


@dataclass(frozen=True)
class Reach:
    """One reach into a private name: where, and what."""

    path: str
    line: int
    what: str
    #: The private name reached (for an import, the private part of what is imported).
    name: str = ""

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what}"


@cache
def library_private_names() -> frozenset[str]:
    """The private names found in the libraries' sources (every ``_identifier``: what
    they define and what they use)."""
    names: set[str] = set()
    for library in LIBRARIES:
        spec = importlib.util.find_spec(library)
        assert spec is not None and spec.origin is not None, library
        for path in Path(spec.origin).parent.rglob("*.py"):
            names.update(IDENTIFIER.findall(path.read_text(encoding="utf-8",
                                                           errors="replace")))
    return frozenset(name for name in names if is_private(name)) - NAMED_TUPLE


#: An identifier that starts with an underscore.
IDENTIFIER = re.compile(r"(?<![\w])_\w+")


@cache
def parsed(path: Path) -> ast.Module:
    """The syntax tree of the module at ``path`` (each read once)."""
    return ast.parse(path.read_text(encoding="utf-8"))


#: ``self._name = …`` (or ``self._name: T = …``) in a source.
SELF_ASSIGNED = re.compile(r"\bself\.(_\w+)\s*(?::[^=\n]*)?=(?!=)")


@cache
def _module_self_assigned(module: str) -> frozenset[str]:
    """The private names the methods of a library module assign to ``self``."""
    try:
        source = inspect.getsourcefile(importlib.import_module(module))
    except TypeError:
        return frozenset()
    if source is None:
        return frozenset()
    return frozenset(SELF_ASSIGNED.findall(Path(source).read_text(encoding="utf-8")))


@cache
def _instance_names(cls: type) -> frozenset[str]:
    """The names a library class has: its own members and what the methods of its module
    assign to ``self`` (its instance attributes, and maybe a neighbour's)."""
    return frozenset(vars(cls)) | _module_self_assigned(cls.__module__)


def library_bases(cls: type) -> list[type]:
    """The classes among ``cls``'s bases (all the way up) that come from a library."""
    return [base for base in cls.__mro__[1:] if is_library(base.__module__)]


def library_owner(cls: type, name: str) -> type | None:
    """The first library class among ``cls``'s bases that has ``name``, if any."""
    for base in library_bases(cls):
        if name in _instance_names(base):
            return base
    return None


def _resolve_class(node: ast.ClassDef, module: Any, outer: list[str]) -> type | None:
    """The class object ``node`` made: by its qualified name in the imported module, or
    (a class made inside a function) a stand-in with the same bases."""
    obj: Any = module
    for part in [*outer, node.name]:
        obj = getattr(obj, part, None)
        if obj is None:
            break
    if isinstance(obj, type):
        return obj
    bases = []
    for base in node.bases:
        try:
            value = eval(compile(ast.Expression(base), "<base>", "eval"), vars(module))
        except Exception:
            continue
        if isinstance(value, type):
            bases.append(value)
    if not bases:
        return None
    try:
        return type(node.name, tuple(bases), {})
    except TypeError:
        return None


def scan_file(path: Path, own: frozenset[str], root: Path = ROOT) -> list[Reach]:
    """The reaches into private library names in the module at ``path`` (importable from
    ``root``; ``own``: the private names this project defines)."""
    rel = path.relative_to(root).as_posix()
    tree = parsed(path)
    module = importlib.import_module(rel.removesuffix(".py").replace("/", ".")
                                     .removesuffix(".__init__"))
    private = library_private_names()
    found: list[Reach] = []

    def reach(node: ast.AST, what: str, name: str) -> None:
        found.append(Reach(rel, getattr(node, "lineno", 0), what, name))

    def first_private(dotted: str) -> str:
        return next((part for part in dotted.split(".") if is_private(part)), "")

    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and is_library(node.module):
            if first_private(node.module):
                reach(node, f"from {node.module} import …", first_private(node.module))
            for alias in node.names:
                if is_private(alias.name):
                    reach(node, f"from {node.module} import {alias.name}", alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if is_library(alias.name) and first_private(alias.name):
                    reach(node, f"import {alias.name}", first_private(alias.name))
        elif isinstance(node, ast.Attribute) and is_private(node.attr):
            receiver = node.value
            if isinstance(receiver, ast.Name) and receiver.id in ("self", "cls"):
                continue  # judged with its class, below
            if (isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name)
                    and receiver.func.id == "super"):
                continue  # judged with its class, below
            if node.attr in private and node.attr not in own:
                reach(node, f"{ast.unparse(node)}: a private name of {'/'.join(LIBRARIES)}",
                      node.attr)
        elif isinstance(node, ast.Call):
            # getattr(x, "_name") and kin; pytest's monkeypatch.setattr(x, "_name", …) and
            # monkeypatch.setattr("textual.screen.Screen._name", …) too.
            func = node.func
            called = (func.id if isinstance(func, ast.Name)
                      else func.attr if isinstance(func, ast.Attribute) else "")
            if called not in ("getattr", "setattr", "hasattr", "delattr"):
                continue
            texts = [arg.value for arg in node.args[:2]
                     if isinstance(arg, ast.Constant) and isinstance(arg.value, str)]
            for text in texts:
                name = text if is_private(text) else (
                    text.rpartition(".")[2] if is_library(text) else "")
                if is_private(name) and name in private and name not in own:
                    reach(node, f"{called}(…, {text!r})", name)

    def classes(body: list[ast.stmt], outer: list[str]) -> Iterator[tuple[ast.ClassDef,
                                                                             list[str]]]:
        for statement in body:
            if isinstance(statement, ast.ClassDef):
                yield statement, outer
                yield from classes(statement.body, [*outer, statement.name])
            elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for inner in ast.walk(statement):
                    if isinstance(inner, ast.ClassDef):
                        yield inner, ["<local>"]

    for node, outer in classes(tree.body, []):
        cls = _resolve_class(node, module, outer)
        if cls is None or not library_bases(cls):
            continue
        mine: set[tuple[str, ast.AST]] = set()
        for statement in node.body:
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                mine.add((statement.name, statement))
            elif isinstance(statement, (ast.Assign, ast.AnnAssign)):
                targets = (statement.targets if isinstance(statement, ast.Assign)
                           else [statement.target])
                mine.update((t.id, statement) for t in targets if isinstance(t, ast.Name))
        reads = []
        for part in ast.walk(node):
            if not (isinstance(part, ast.Attribute) and is_private(part.attr)):
                continue
            if isinstance(part.ctx, ast.Store) and isinstance(part.value, ast.Name) \
                    and part.value.id == "self":
                mine.add((part.attr, part))
            else:
                reads.append(part)
        for name, where in sorted(mine, key=lambda item: item[0]):
            owner = library_owner(cls, name) if is_private(name) else None
            if owner is not None:
                reach(where, f"{node.name}.{name} overrides (or clashes with) "
                             f"{owner.__module__}.{owner.__qualname__}.{name}", name)
        for part in reads:
            receiver = part.value
            via_super = (isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name)
                         and receiver.func.id == "super")
            via_self = isinstance(receiver, ast.Name) and receiver.id in ("self", "cls")
            if via_super and library_owner(cls, part.attr) is not None:
                reach(part, f"super().{part.attr} in {node.name}: a private member of a "
                            "library base", part.attr)
            elif via_self and library_owner(cls, part.attr) is not None:
                reach(part, f"self.{part.attr} in {node.name}: a private member of a "
                            "library base", part.attr)
    return found


def project_files() -> list[Path]:
    """Every module of the scanned packages."""
    return sorted(path for package in SCANNED for path in (ROOT / package).rglob("*.py"))


#: A name defined in a source: ``def``/``class``, assigned (to a name or an attribute,
#: annotated or not, a keyword argument too), or imported ``as``.
DEFINED = re.compile(r"(?:\b(?:def|class|as)\s+(_\w+))|(?:(?<!\w)(_\w+)\s*(?::[^=\n]*)?=(?!=))")


@cache
def own_private_names() -> frozenset[str]:
    """The private names this project's scanned packages define themselves."""
    names: set[str] = set()
    for path in project_files():
        for found in DEFINED.findall(path.read_text(encoding="utf-8")):
            names.update(name for name in found if is_private(name))
    return frozenset(names)


def scan() -> list[Reach]:
    """Every reach into a private library name in :data:`SCANNED`."""
    own = own_private_names()
    return [reach for path in project_files() for reach in scan_file(path, own)]


def test_no_private_names_of_textual_rich_or_asyncio() -> None:
    reaches = scan()
    assert not reaches, "private names of a library reached:\n" + "\n".join(map(str, reaches))


#: The tests' modules, scanned as the packages are.
TESTS = ROOT / "tests"
#: The one place a test may reach a private name of a library, and the name: the helper
#: that reads the composed screen (Textual has no public route to it).
ALLOWED_IN_TESTS = {"tests/tui_support.py": frozenset({"_compositor"})}


def names_defined_in(path: Path) -> frozenset[str]:
    """The private names the module at ``path`` defines itself: its functions and classes,
    the names it binds (assigned, imported ``as``, arguments) and what its methods set on
    ``self``; not an attribute it sets on anything else (a test that replaces a library's
    private method defines nothing)."""
    names: set[str] = set()
    for node in ast.walk(parsed(path)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.alias) and node.asname:
            names.add(node.asname)
        elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
              and isinstance(node.value, ast.Name) and node.value.id == "self"):
            names.add(node.attr)
    return frozenset(name for name in names if is_private(name))


def scan_tests(tests: Path = TESTS, root: Path = ROOT,
               allowed_in: dict[str, frozenset[str]] = ALLOWED_IN_TESTS) -> list[Reach]:
    """Every reach into a private library name in the tests' modules under ``tests``, but
    those allowed (``allowed_in``: for a module, the names it may reach); a test's own
    private names (and the project's) are its own."""
    own = own_private_names()
    found: list[Reach] = []
    for path in sorted(tests.glob("*.py")):
        allowed = allowed_in.get(path.relative_to(root).as_posix(), frozenset())
        found += [reach for reach in scan_file(path, own | names_defined_in(path), root)
                  if reach.name not in allowed]
    return found


def test_no_private_names_of_textual_rich_or_asyncio_in_the_tests() -> None:
    """Tests look at what Textual shows through its public API as the app does (the
    composed screen, through the one helper allowed, excepted)."""
    reaches = scan_tests()
    assert not reaches, "private names of a library reached:\n" + "\n".join(map(str, reaches))


REACHES = '''
"""A module that reaches into private names, the ways the scan must catch."""
from __future__ import annotations

import asyncio
import textual._styles_cache
from rich._loop import loop_last
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.widget import Widget


class Table(Screen[None]):
    def _compositor_refresh(self) -> None:
        super()._compositor_refresh()
        self._refresh_layout()


class Log(ScrollView):
    def _size_updated(self, size, virtual_size, container_size, layout=True):
        return False

    def clear(self) -> None:
        self._styles_cache.clear()
        self._scroll_update(self.virtual_size)


class Hand(Widget):
    def __init__(self) -> None:
        super().__init__()
        self._size = None


def peek(widget: Widget, loop: asyncio.AbstractEventLoop) -> object:
    getattr(widget, "_layout_required")
    return widget._compositor, loop._selector


def spy(monkeypatch: object, widget: Widget) -> None:
    monkeypatch.setattr(widget, "_styles_cache", None)
    monkeypatch.setattr("textual.screen.Screen._refresh_layout", None)
    widget._compositor_refresh = None
'''


CLEAN = '''
"""A module that uses public names only, and private names of its own."""
from __future__ import annotations

from typing import NamedTuple

from textual.scroll_view import ScrollView
from textual.strip import Strip


class Point(NamedTuple):
    x: int
    y: int


class Row(ScrollView):
    def __init__(self) -> None:
        super().__init__()
        self._probe_rows: list[Strip] = []

    def render_line(self, y: int) -> Strip:
        return self._probe_line(y)

    def _probe_line(self, y: int) -> Strip:
        return self._probe_rows[y] if y < len(self._probe_rows) else Strip.blank(1)


def moved(point: Point) -> Point:
    return point._replace(x=point.x + 1)
'''


def test_the_scan_finds_each_kind_of_reach(tmp_path: Path, monkeypatch: Any) -> None:
    """A module with a reach of every kind the scan knows: each is found; a module with
    public names and private names of its own only: nothing is."""
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "probe_reaches.py").write_text(REACHES)
    (tmp_path / "probe_clean.py").write_text(CLEAN)
    own = own_private_names() | {"_probe_rows", "_probe_line"}
    found = [(reach.line, reach.what)
             for reach in scan_file(tmp_path / "probe_reaches.py", own, tmp_path)]
    lines = REACHES.splitlines()

    def reached(text: str, name: str) -> bool:
        line = next(n for n, line in enumerate(lines, 1) if text in line)
        return any(at == line and name in what for at, what in found)

    for text, name in (("import textual._styles_cache", "textual._styles_cache"),
                       ("from rich._loop", "rich._loop"),
                       ("def _compositor_refresh", "_compositor_refresh"),
                       ("super()._compositor_refresh", "super()._compositor_refresh"),
                       ("self._refresh_layout", "_refresh_layout"),
                       ("def _size_updated", "_size_updated"),
                       ("self._styles_cache", "_styles_cache"),
                       ("self._scroll_update", "_scroll_update"),
                       ("self._size = None", "_size"),
                       ("_layout_required", "_layout_required"),
                       ("widget._compositor", "widget._compositor"),
                       ("widget._compositor", "loop._selector"),
                       ("(widget, \"_styles_cache\"", "_styles_cache"),
                       ("Screen._refresh_layout", "_refresh_layout"),
                       ("widget._compositor_refresh = None", "_compositor_refresh")):
        assert reached(text, name), (text, name, found)
    assert scan_file(tmp_path / "probe_clean.py", own, tmp_path) == []


A_TEST = '''
"""A test with private names of its own, and one reach into a library's."""
from __future__ import annotations

import asyncio

from textual.screen import Screen


class Feed:
    def __init__(self) -> None:
        self._batch_count = 0
        self._news = asyncio.Event()


def _count(feed: Feed) -> int:
    return feed._batch_count


def spy(screen: Screen[None]) -> None:
    screen._compositor_refresh = lambda: None
'''


def test_the_scan_of_the_tests_keeps_their_own_names_apart(tmp_path: Path,
                                                           monkeypatch: Any) -> None:
    """A test's own private names are not flagged, even one a library also has; a
    library's private method replaced on one of its objects is; so is a reach in the
    helper allowed one, when it is not the reach allowed."""
    assert "_batch_count" in library_private_names()
    assert "_batch_count" not in own_private_names()
    monkeypatch.syspath_prepend(str(tmp_path))
    tests = tmp_path / "probe_tests"
    tests.mkdir()
    (tests / "__init__.py").write_text("")
    (tests / "test_probe.py").write_text(A_TEST)
    helper = A_TEST.replace("_compositor_refresh", "_compositor")
    (tests / "support.py").write_text(helper)
    (tests / "test_more.py").write_text(helper)
    found = [(Path(reach.path).name, reach.name) for reach in scan_tests(
        tests, tmp_path, {"probe_tests/support.py": frozenset({"_compositor"})})]
    assert found == [("test_more.py", "_compositor"), ("test_probe.py", "_compositor_refresh")]

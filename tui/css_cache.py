"""A cache on disk of Textual's parsed CSS, so that a start-up does not parse the same text again.

Each start parses ``app.tcss`` and the ``DEFAULT_CSS`` of every widget class it shows:
about 11 ms of a solo table's first frame and 7 ms of the menu's, the same text every
time (scripts/bench_startup.py). :class:`CachedStylesheet` is Textual's ``Stylesheet``
with its one parsing step (``_parse_rules``: one CSS text in, its rule sets out) looked
up first in a file under the user's cache directory; what it had to parse is written
back (:meth:`CachedStylesheet.save`) once the first screen is painted, and when the app
ends.

The file is only ever a shortcut: anything wrong with it means parsing as before.
* A rule set is reused only for exactly the same CSS text, from the same place, with
  the same Textual options; the file as a whole only for the same Python, the same
  Textual files (their paths, sizes and modification times: an upgrade replaces them)
  and the same CSS variables (the theme's colours are substituted while parsing).
  Anything else is a miss, parsed afresh and written back.
* A file that cannot be read, is truncated, fails its checksum or does not unpickle
  into what was written is ignored (and replaced at the next save); one that cannot be
  written is left as it is. No error of the cache ever reaches the player.
* A file that is not ours alone (another owner, or writable by group or others) is
  never unpickled.
* CSS with errors is never kept: Textual reports it as always.
* Changing the variables (a new theme) stops using the file for the rest of the run.

It is a ``pickle``: read only from the user's own cache directory (see :func:`cache_path`),
never from anything that crossed a network (STYLE.md). Writes go to a
temporary file renamed into place, so a reader never sees half a file.
"""

from __future__ import annotations

import contextlib
import logging
import os
import pickle
import sys
import tempfile
import zlib
from pathlib import Path
from typing import Any

import textual
from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet
from textual.css.types import CSSLocation

log = logging.getLogger("hiddenhand.css_cache")

#: The first line of a cache file; a new format gets a new line.
MAGIC = b"hiddenhand css cache 1\n"
#: Files of Textual whose change (a new version) makes every kept parse stale.
TEXTUAL_FILES = ("__init__.py", "css/parse.py", "css/model.py", "css/styles.py",
                 "css/_styles_builder.py", "css/tokenize.py", "css/types.py",
                 "css/scalar.py", "css/stylesheet.py", "color.py")
#: Entries kept in the file at most (edited CSS would otherwise pile up old texts).
MAX_ENTRIES = 256
#: A file bigger than this is not read (it is not one of ours).
MAX_BYTES = 8 << 20
#: The file's name in the cache directory.
FILE_NAME = "css-rules.cache"

#: What a parse is keyed on: the CSS text, where it came from, Textual's three options.
Key = tuple[str, CSSLocation, bool, int, str]


def cache_path() -> Path:
    """Where the cache file lives: ``$HIDDENHAND_CACHE_DIR``; else, when the config dir
    is moved (``$HIDDENHAND_CONFIG_DIR``: an SSH box's player, ``--data-dir``, or a
    test), a ``cache`` dir inside it, so that nothing goes to the home directory's;
    else the user's cache dir."""
    override = os.environ.get("HIDDENHAND_CACHE_DIR")
    if override:
        return Path(override) / FILE_NAME
    config = os.environ.get("HIDDENHAND_CONFIG_DIR")
    if config:
        return Path(config) / "cache" / FILE_NAME
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("hiddenhand")) / FILE_NAME


def stamp(variables: dict[str, str]) -> tuple[Any, ...]:
    """What a file's parses depend on besides their own text: the Python, Textual's
    files (path, size, modification time) and the CSS variables."""
    root = Path(textual.__file__).parent
    files: list[tuple[object, ...]] = []
    for name in TEXTUAL_FILES:
        try:
            info = (root / name).stat()
        except OSError:
            files.append((name, None))
        else:
            files.append((name, info.st_size, info.st_mtime_ns))
    return (sys.version, pickle.HIGHEST_PROTOCOL, str(root), tuple(files),
            tuple(sorted(variables.items())))


class CachedStylesheet(Stylesheet):
    """Textual's stylesheet, its parses looked up in (and written to) a file at ``path``."""

    def __init__(self, path: Path, *, variables: dict[str, str] | None = None) -> None:
        super().__init__(variables=variables)
        self.path = path
        #: Entries read from the file (each still pickled): ``None`` until first needed.
        self._stored: dict[Key, bytes] | None = None
        #: Entries of the file this run used (still pickled), to be written back.
        self._used: dict[Key, bytes] = {}
        #: Parsed this run and not written yet (pickled only when written).
        self._fresh: dict[Key, list[RuleSet]] = {}
        #: False once the variables changed: the file's parses were made with others.
        self._usable = True

    def set_variables(self, variables: dict[str, str]) -> None:
        """New variables (a new theme): the kept parses no longer apply this run."""
        if variables != self._variables:
            self._usable = False
        super().set_variables(variables)

    def _parse_rules(self, css: str, read_from: CSSLocation, is_default_rules: bool = False,
                     tie_breaker: int = 0, scope: str = "") -> list[RuleSet]:
        key: Key = (css, read_from, is_default_rules, tie_breaker, scope)
        if not self._usable or key in self._parse_cache:
            return super()._parse_rules(css, read_from, is_default_rules, tie_breaker, scope)
        rules = self._load(key)
        if rules is not None:
            self._parse_cache[key] = rules
            return rules
        rules = super()._parse_rules(css, read_from, is_default_rules, tie_breaker, scope)
        if not any(rule.errors for rule in rules):
            self._fresh[key] = rules
        return rules

    def _load(self, key: Key) -> list[RuleSet] | None:
        """The kept parse of ``key``, or ``None`` (not kept, or not readable)."""
        if self._stored is None:
            self._stored = self._read()
        data = self._stored.get(key)
        if data is None:
            return None
        try:
            rules = pickle.loads(data)
        except Exception:
            rules = None
        if not isinstance(rules, list) or not all(isinstance(r, RuleSet) for r in rules):
            del self._stored[key]
            return None
        self._used[key] = data
        return rules

    def _read(self) -> dict[Key, bytes]:
        """The file's entries, if it is whole and was written for this Python, Textual
        and these variables; else none (whatever is wrong with it)."""
        try:
            return self._entries()
        except Exception:  # a shortcut only: a file we cannot use is no file
            log.info("CSS cache %s not used", self.path, exc_info=True)
            return {}

    def _entries(self) -> dict[Key, bytes]:
        try:
            with open(self.path, "rb") as file:
                info = os.fstat(file.fileno())
                owner = getattr(os, "geteuid", None)  # (POSIX; elsewhere the profile's ACL)
                if owner is not None and (info.st_uid != owner() or info.st_mode & 0o022):
                    return {}  # not written by us alone: never unpickled
                raw = file.read(MAX_BYTES + 1)
        except OSError:
            return {}
        head = len(MAGIC)
        if len(raw) > MAX_BYTES or raw[:head] != MAGIC or len(raw) < head + 4:
            return {}
        payload = raw[head + 4:]
        if int.from_bytes(raw[head:head + 4], "big") != zlib.crc32(payload):
            return {}
        try:
            found = pickle.loads(payload)
        except Exception:
            return {}
        if (not isinstance(found, tuple) or len(found) != 2 or not isinstance(found[1], dict)
                or found[0] != stamp(self._variables)):
            return {}
        entries: dict[Key, bytes] = found[1]
        return entries

    def save(self) -> bool:
        """Write what this run parsed (with what the file held) back to the file, if
        anything new was parsed. True if the file was written."""
        if not self._fresh or not self._usable:
            return False
        for key, rules in self._fresh.items():
            try:
                self._used[key] = pickle.dumps(rules, protocol=pickle.HIGHEST_PROTOCOL)
            except Exception as exc:  # a rule Textual one day makes unpicklable: not kept
                log.info("CSS from %s not kept: %s", key[1], exc)
        self._fresh = {}
        entries = {**(self._stored or {}), **self._used}
        if len(entries) > MAX_ENTRIES:
            entries = dict(self._used)
        payload = pickle.dumps((stamp(self._variables), entries),
                               protocol=pickle.HIGHEST_PROTOCOL)
        data = MAGIC + zlib.crc32(payload).to_bytes(4, "big") + payload
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle, name = tempfile.mkstemp(dir=self.path.parent, prefix=".css-", suffix=".tmp")
            try:
                with os.fdopen(handle, "wb") as file:
                    file.write(data)
                os.replace(name, self.path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(name)
                raise
        except OSError as exc:
            log.info("CSS cache not written to %s: %s", self.path, exc)
            return False
        self._stored = entries
        return True

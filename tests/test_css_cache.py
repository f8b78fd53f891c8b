"""The cache of parsed CSS (``tui/css_cache.py``): the same rules as parsing, and never a
reason for start-up to fail.

The figures (what it saves) are ``scripts/bench_startup.py``'s; these tests check behaviour.
"""

from __future__ import annotations

import os
import pickle
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import textual.css.stylesheet
from textual.css.stylesheet import StylesheetParseError

from tests.tui_support import SIZE, make_app, until
from tui import css_cache
from tui.css_cache import MAGIC, CachedStylesheet
from tui.screens.menu import MenuScreen

CSS = """
Screen { background: $panel; }
#status.my-turn { color: $accent; text-style: bold; }
CardWidget > .face { border: round $primary; padding: 0 1; }
"""
VARIABLES = {"panel": "#202020", "accent": "#ffa62b", "primary": "#0178d4"}
WHERE = ("/the/app.tcss", "")


#: Textual's own parser, unwatched (for the expected rules).
REAL_PARSE = textual.css.stylesheet.parse


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every CSS text Textual parses for a cached stylesheet (the cache's misses), in order."""
    seen: list[str] = []

    def counted(scope: str, css: str, *args: Any, **kwargs: Any) -> Any:
        seen.append(css)
        return REAL_PARSE(scope, css, *args, **kwargs)

    monkeypatch.setattr(textual.css.stylesheet, "parse", counted)
    return seen


def rules_css(sheet: CachedStylesheet, css: str = CSS) -> list[str]:
    """The rules of ``css`` as ``sheet`` has them, written out as CSS again."""
    sheet.add_source(css, read_from=WHERE)
    sheet.parse()
    return [rule.css for rule in sheet.rules]


def plain(css: str = CSS, variables: dict[str, str] = VARIABLES) -> list[str]:
    """The same, parsed by Textual's own parser (not counted in ``parses``)."""
    sheet = textual.css.stylesheet.Stylesheet(variables=variables)
    rules = list(REAL_PARSE("", css, WHERE, variable_tokens=sheet._variable_tokens))
    return [rule.css for rule in rules]


def test_a_kept_parse_gives_the_rules_a_parse_gives(tmp_path: Path, parses: list[str]) -> None:
    path = tmp_path / "cache" / "css"
    first = CachedStylesheet(path, variables=VARIABLES)
    assert rules_css(first) == plain()
    assert first.save() and path.exists()
    assert not first.save()  # nothing new since
    parses.clear()
    again = CachedStylesheet(path, variables=VARIABLES)
    assert rules_css(again) == plain()
    assert parses == []  # from the file, not parsed
    assert not again.save()


def test_changed_css_or_variables_are_parsed_again(tmp_path: Path, parses: list[str]) -> None:
    path = tmp_path / "css"
    kept = CachedStylesheet(path, variables=VARIABLES)
    rules_css(kept)
    kept.save()
    parses.clear()
    edited = CSS.replace("bold", "italic")
    assert rules_css(CachedStylesheet(path, variables=VARIABLES), edited) == plain(edited)
    assert parses == [edited]
    parses.clear()
    other = {**VARIABLES, "accent": "#00ff00"}
    assert rules_css(CachedStylesheet(path, variables=other)) == plain(variables=other)
    assert parses == [CSS]


def test_new_variables_during_a_run_stop_using_the_file(tmp_path: Path,
                                                        parses: list[str]) -> None:
    path = tmp_path / "css"
    kept = CachedStylesheet(path, variables=VARIABLES)
    rules_css(kept)
    kept.save()
    parses.clear()
    sheet = CachedStylesheet(path, variables=VARIABLES)
    other = {**VARIABLES, "panel": "#000000"}
    sheet.set_variables(other)
    assert rules_css(sheet) == plain(variables=other)
    assert parses == [CSS]
    assert not sheet.save()  # the file stays as it was, for the usual variables


def _written(path: Path) -> bytes:
    sheet = CachedStylesheet(path, variables=VARIABLES)
    rules_css(sheet)
    assert sheet.save()
    return path.read_bytes()


def _framed(payload: bytes) -> bytes:
    return MAGIC + zlib.crc32(payload).to_bytes(4, "big") + payload


DAMAGE: dict[str, Callable[[bytes], bytes]] = {
    "garbage": lambda data: b"\x00\xffnot a cache at all",
    "empty": lambda data: b"",
    "truncated": lambda data: data[: len(data) // 2],
    "a flipped byte": lambda data: data[:-10] + bytes([data[-10] ^ 0x40]) + data[-9:],
    "another format": lambda data: b"hiddenhand css cache 0\n" + data[len(MAGIC):],
    "the right checksum over junk": lambda data: _framed(b"junk"),
    "a pickle of something else": lambda data: _framed(pickle.dumps(["not", "a", "cache"])),
    "another stamp": lambda data: _framed(pickle.dumps((("python 2",), {}))),
    "entries that are not rules": lambda data: _framed(pickle.dumps((
        css_cache.stamp(VARIABLES),
        {(CSS, WHERE, False, 0, ""): pickle.dumps({"not": "rules"})}))),
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_a_damaged_file_is_parsed_around_and_replaced(tmp_path: Path, parses: list[str],
                                                      damage: str) -> None:
    path = tmp_path / "css"
    path.write_bytes(DAMAGE[damage](_written(path)))
    parses.clear()
    sheet = CachedStylesheet(path, variables=VARIABLES)
    assert rules_css(sheet) == plain()
    assert parses == [CSS]
    assert sheet.save()  # written whole again
    parses.clear()
    assert rules_css(CachedStylesheet(path, variables=VARIABLES)) == plain()
    assert parses == []


def test_a_file_others_may_write_is_never_read(tmp_path: Path, parses: list[str]) -> None:
    path = tmp_path / "css"
    _written(path)
    os.chmod(path, 0o666)
    parses.clear()
    assert rules_css(CachedStylesheet(path, variables=VARIABLES)) == plain()
    assert parses == [CSS]


def test_without_posix_owners_the_file_is_still_read(tmp_path: Path, parses: list[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "css"
    _written(path)
    monkeypatch.delattr(os, "geteuid")  # as on Windows
    parses.clear()
    assert rules_css(CachedStylesheet(path, variables=VARIABLES)) == plain()
    assert parses == []


def test_any_error_reading_the_file_means_parsing(tmp_path: Path, parses: list[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "css"
    _written(path)

    def broken(variables: dict[str, str]) -> tuple[object, ...]:
        raise RuntimeError("something unforeseen")

    monkeypatch.setattr(css_cache, "stamp", broken)
    parses.clear()
    assert rules_css(CachedStylesheet(path, variables=VARIABLES)) == plain()
    assert parses == [CSS]


def test_css_with_errors_is_reported_and_never_kept(tmp_path: Path) -> None:
    path = tmp_path / "css"
    bad = "Screen { colour: red; }"
    for _ in range(2):
        sheet = CachedStylesheet(path, variables=VARIABLES)
        sheet.add_source(bad, read_from=WHERE)
        with pytest.raises(StylesheetParseError):
            sheet.parse()
        assert not sheet.save()
    assert not path.exists()


def test_a_cache_that_cannot_be_written_changes_nothing(tmp_path: Path) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("in the way")
    sheet = CachedStylesheet(blocker / "css", variables=VARIABLES)
    assert rules_css(sheet) == plain()
    assert not sheet.save()
    assert blocker.read_text() == "in the way"


async def test_the_app_keeps_its_css_once_the_menu_is_painted(tmp_path: Path,
                                                               parses: list[str]) -> None:
    path = tmp_path / "css"
    for start in range(2):
        parses.clear()
        app = make_app(css_cache=path)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda app=app: isinstance(app.screen, MenuScreen)
                        and app.screen.query("#solo") and path.exists(), "the menu, kept")
        if start:
            assert parses == []  # the second start parsed nothing
        else:
            assert parses  # the first parsed it all


def test_hiddenhand_opens_the_app_with_the_cache_of_the_cache_dir(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import gc

    from tui import cli
    from tui.app import HiddenHandApp

    seen: list[tuple[object, dict[str, str]]] = []
    monkeypatch.setenv("HIDDENHAND_CACHE_DIR", str(tmp_path / "cached"))
    monkeypatch.setattr(HiddenHandApp, "run",
                        lambda app: seen.append((app.stylesheet, app.get_css_variables())))
    try:
        assert cli.main([]) == 0
    finally:
        gc.unfreeze()  # run_app froze this test process's heap, as it does the app's
    ((sheet, variables),) = seen
    assert isinstance(sheet, CachedStylesheet)
    assert sheet.path == tmp_path / "cached" / css_cache.FILE_NAME
    assert sheet._variables == variables  # the theme's, as Textual's own sheet has them


@pytest.mark.parametrize("screen", ["menu", "getout table"])
async def test_a_screen_from_kept_css_looks_the_same(tmp_path: Path, screen: str) -> None:
    """The menu and the GET OUT! table drawn from the cache (a second start) are the
    same picture as without any cache."""
    import random

    from tests.tui_support import settle
    from tui.app import HiddenHandApp
    from tui.games.getout.screen import GetOutScreen
    from tui.settings import Settings

    async def picture(cache: Path | None) -> str:
        rng = random.Random(4)
        solo = {"game_id": "getout", "seats": 3, "options": {"first": 0}}
        app = HiddenHandApp(Settings(name="Ann"), bot_delay=0.01, css_cache=cache,
                            seed_source=lambda: rng.getrandbits(62),
                            solo=solo if screen != "menu" else None)

        def ready() -> bool:
            if screen == "menu":
                return isinstance(app.screen, MenuScreen) and bool(app.screen.query("#solo"))
            return isinstance(app.screen, GetOutScreen) and bool(app.screen.legal)

        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, ready)
            if cache is not None:
                await until(pilot, cache.exists, "the cache written")
            return app.export_screenshot()

    path = tmp_path / "css"
    await picture(path)  # the first start writes it
    assert path.exists()
    assert await picture(path) == await picture(None)


def test_the_cache_goes_where_the_config_dir_went(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """An SSH box's player (``--data-dir``) or a moved config dir keeps its cache with
    it, never in the home directory's cache; ``HIDDENHAND_CACHE_DIR`` comes first."""
    monkeypatch.delenv("HIDDENHAND_CACHE_DIR", raising=False)
    monkeypatch.setenv("HIDDENHAND_CONFIG_DIR", str(tmp_path / "player"))
    assert css_cache.cache_path() == tmp_path / "player" / "cache" / css_cache.FILE_NAME
    monkeypatch.setenv("HIDDENHAND_CACHE_DIR", str(tmp_path / "cached"))
    assert css_cache.cache_path() == tmp_path / "cached" / css_cache.FILE_NAME

"""Shared test configuration: hypothesis profiles sized for CI on a 2-core machine, and a
private data directory for every test."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
settings.register_profile(
    "dev", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


@pytest.hookimpl(optionalhook=True)  # (a hook of pytest-xdist: without it, unused)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: two workers a core. Much of the suite waits on sockets, subprocesses
    and the bots' pacing rather than computing, so one worker a core leaves the cores
    idle for a third of the run."""
    return 2 * (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                else os.cpu_count() or 1)


@pytest.fixture(autouse=True)
def answers_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A test's keys are taken as meant at once, quicker than a person could: a summary
    answers them (its guard against keys typed for the table as a game ends,
    ``tui.screens.summary.ANSWER_GUARD``, is tested on its own), and a Get It! signal
    is about the card it shows however new (``tui.games.getit.signals.PERCEIVE``:
    tested on its own), and a table takes keys at once after a summary's answer dealt
    (``tui.screens.table_summary.KEYS_HELD``: tested on its own)."""
    from tui.games.getit import signals
    from tui.screens import summary, table_summary

    monkeypatch.setattr(summary, "ANSWER_GUARD", 0.0)
    monkeypatch.setattr(signals, "PERCEIVE", 0.0)
    monkeypatch.setattr(table_summary, "KEYS_HELD", 0.0)


@pytest.fixture(autouse=True)
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Journals (``net.journal``) and the settings (``tui.settings``: a test's app
    remembers the table it opened) go to temporary directories, never the user's: also
    for the app and hosts run as subprocesses, which inherit the environment."""
    path = tmp_path_factory.mktemp("data")
    dirs = {"HIDDENHAND_DATA_DIR": path, "HIDDENHAND_CONFIG_DIR": path / "config"}
    old = {name: os.environ.get(name) for name in dirs}
    os.environ.update({name: str(value) for name, value in dirs.items()})
    try:
        yield path
    finally:
        for name, value in old.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value

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


@pytest.fixture(autouse=True)
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Journals (``net.journal``) go to a temporary directory, never the user's: also
    for hosts run as subprocesses, which inherit the environment."""
    path = tmp_path_factory.mktemp("data")
    old = os.environ.get("HIDDENHAND_DATA_DIR")
    os.environ["HIDDENHAND_DATA_DIR"] = str(path)
    try:
        yield path
    finally:
        if old is None:
            os.environ.pop("HIDDENHAND_DATA_DIR", None)
        else:
            os.environ["HIDDENHAND_DATA_DIR"] = old

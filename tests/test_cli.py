"""Tests of the ``hiddenhand`` command line."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.helpers import assert_usage_error
from tui.cli import main


def test_help_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    assert "demo" in capsys.readouterr().out


def test_demo_plays_a_seeded_match_to_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seats", "3", "--seed", "5", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("winner: seat ")
    assert main(["demo", "--seats", "3", "--seed", "5", "--quiet"]) == 0
    assert capsys.readouterr().out == out  # the seed replays the same match


def test_demo_single_round_prints_the_moves(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seats", "2", "--seed", "1", "--single"]) == 0
    out = capsys.readouterr().out
    assert "round 1 won by seat" in out and "after 1 round(s)" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["demo", "--seats", "9"], "GET OUT! takes 2 to 6 seats, not 9"),
        (["demo", "--seats", "many"], "seats must be a whole number"),
        (["demo", "--seed", "x"], "invalid int value"),
        (["fly"], "invalid choice"),
    ],
)
def test_garbage_on_the_command_line_gets_a_clear_error(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert_usage_error(argv, message, capsys)


def test_console_entry_point_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tui.cli", "demo", "--seats", "2", "--seed", "3", "--quiet"],
        capture_output=True, text=True, timeout=60, check=True,
    )
    assert done.stdout.startswith("winner: seat ")

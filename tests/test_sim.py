"""Headless simulation: the runners in ``engine.bots.simulate`` and ``hiddenhand sim``."""

from __future__ import annotations

from typing import Any

import pytest

from engine.bots import GetItBot
from engine.bots.simulate import RealTimeTable, SimulationError, simulate
from tests.getit_support import new
from tests.helpers import assert_usage_error
from tui.cli import main


@pytest.mark.parametrize(
    ("game_id", "seats", "options"),
    [("getit", 4, {"level": 5}), ("getout", 3, {"limit": 40}), ("gotfive", 3, {})],
)
def test_a_seed_replays_the_same_game(game_id: str, seats: int, options: dict[str, Any]) -> None:
    first = simulate(game_id, seats, 11, options)
    again = simulate(game_id, seats, 11, options)
    assert first == again
    assert first["result"] and first["moves"] > 0 and first["rounds"] >= 1
    assert first["decisions"] == []  # no timer given: nothing is measured
    other = simulate(game_id, seats, 12, options)
    assert other != first


def test_getit_record_holds_the_team_figures() -> None:
    record = simulate("getit", 3, 2, {"level": 6}, timer=iter(range(10**9)).__next__)
    assert record["won"] == record["result"]["won"]
    assert record["level"] == 6 and record["rounds"] in (1, 2)
    assert record["sim_time"] > 0
    assert record["decisions"] and all(d == 1 for d in record["decisions"])


def test_gotfive_record_counts_turns_and_never_a_wrong_announcement() -> None:
    for seed in range(3):
        record = simulate("gotfive", 4, seed)
        assert record["wrong"] == 0
        assert len(record["winners"]) == 1 and record["turns"] >= 1


def test_getout_versus_random_times_only_the_bot() -> None:
    ticks = iter(range(10**9))
    record = simulate("getout", 2, 3, {"match": False}, versus="random", timer=ticks.__next__)
    bot_moves = len(record["decisions"])
    assert 0 < bot_moves < record["moves"]
    assert record["rounds"] == 1 and len(record["winners"]) == 1


@pytest.mark.parametrize(
    ("game_id", "seats", "kwargs", "message"),
    [
        ("chess", 2, {}, "unknown game"),
        ("getit", 2, {}, "takes 3 to 6 seats"),
        ("getit", 4, {"versus": "random"}, "only GET OUT!"),
        ("getout", 2, {"versus": "genius"}, "versus must be"),
    ],
)
def test_bad_simulations_are_refused_in_plain_words(
    game_id: str, seats: int, kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        simulate(game_id, seats, 1, **kwargs)


class _Idle:
    """Arranges, then never signals or plays."""

    def __init__(self) -> None:
        self.bot = GetItBot(0)

    def step(self, view: Any, legal: Any, now: float) -> tuple[Any, None]:
        if view["phase"] == "play":
            return None, None
        return self.bot.choose(view, legal), None


def test_simulated_time_jumps_to_the_deadline() -> None:
    game = new(3, seed=1, level=6, timer=60)
    table = RealTimeTable(game, [_Idle(), _Idle(), _Idle()])
    events = table.run()
    losses = [e for e in events if e["type"] == "round_over"]
    assert [e["reason"] for e in losses] == ["time", "time"]
    assert table.now == 120.0 and game.over


def test_a_stuck_untimed_game_is_reported() -> None:
    game = new(3, seed=1, timer=0)
    with pytest.raises(SimulationError, match="stuck"):
        RealTimeTable(game, [_Idle(), _Idle(), _Idle()]).run()


# ------------------------------------------------------------------ the command line


def _sim(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["sim", *argv, "--no-progress"]) == 0
    return capsys.readouterr().out


def test_sim_getit_prints_the_team_outcomes(capsys: pytest.CaptureFixture[str]) -> None:
    out = _sim(capsys, "getit", "--games", "2", "--seats", "3", "--seed", "4",
               "--option", "level=5")
    assert "getit: 2 games, 3 seats, seeds 4..5" in out
    assert "cleared all six levels" in out and "median bot decision time" in out
    again = _sim(capsys, "getit", "--games", "2", "--seats", "3", "--seed", "4",
                 "--option", "level=5")

    def outcomes(text: str) -> list[str]:
        return [line for line in text.splitlines() if "decision" not in line]

    assert outcomes(again) == outcomes(out)  # the seeds replay; only real timings differ


def test_sim_getit_level_x(capsys: pytest.CaptureFixture[str]) -> None:
    out = _sim(capsys, "getit", "--games", "2", "--option", "level=X", "--option", "cards=20",
               "--reaction", "0.5", "--jitter", "0.2")
    assert "won (Level X round cleared)" in out


def test_sim_getout_versus_random(capsys: pytest.CaptureFixture[str]) -> None:
    out = _sim(capsys, "getout", "--games", "10", "--seats", "2", "--option", "match=false",
               "--versus", "random")
    assert "wins, seat 1 (bot)" in out and "wins, seat 2 (random)" in out
    assert "seat 1 bot vs random-legal players" in out  # seats count from 1, as in the app


def test_sim_gotfive(capsys: pytest.CaptureFixture[str]) -> None:
    out = _sim(capsys, "gotfive", "--games", "3", "--seats", "4")
    assert "wrong announcements" in out and "median turns to a win" in out
    assert "wins, seat 4" in out and "wins, seat 0" not in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["sim", "chess"], "unknown game 'chess'"),
        (["sim", "getit", "--games", "0"], "--games must be 1 or more, not 0"),
        (["sim", "getit", "--games", "-1"], "--games must be 1 or more, not -1"),
        (["sim", "getit", "--games", "lots"], "expected a whole number"),
        (["sim", "getit", "--seats", "7"], "Get It! takes 3 to 6 seats, not 7"),
        (["sim", "getit", "--option", "level=9"], "option 'level' must be from 1 to 6"),
        (["sim", "getit", "--option", "colour=red"], "unknown option 'colour'"),
        (["sim", "getit", "--versus", "random"], "--versus is for GET OUT! only"),
        (["sim", "getout", "--versus", "genius"], "invalid choice"),
        (["sim", "getit", "--reaction", "-1"], "expected 0 to 3600 seconds"),
        (["sim", "getit", "--reaction", "0.1", "--jitter", "0.2"], "more than --reaction"),
    ],
)
def test_sim_garbage_gets_a_clear_error(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert_usage_error(argv, message, capsys)

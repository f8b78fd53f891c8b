"""Headless simulation: the runners in ``engine.bots.simulate`` and ``hiddenhand sim``."""

from __future__ import annotations

import statistics
from typing import Any

import pytest

from engine.bots import GetItBot
from engine.bots.simulate import HumanLikeTeammate, RealTimeTable, SimulationError, simulate
from engine.testing import stack_getit_piles
from tests.getit_support import new
from tests.helpers import assert_usage_error
from tui.cli import main
from tui.sim import wilson


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
        ("gotfive", 2, {"versus": "greedy"}, "only GET OUT!"),
        ("getit", 4, {"versus": "casual"}, "only GET OUT! and Got Five!"),
        ("getout", 2, {"versus": "genius"}, "versus must be"),
    ],
)
def test_bad_simulations_are_refused_in_plain_words(
    game_id: str, seats: int, kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        simulate(game_id, seats, 1, **kwargs)


PERSON = {"reaction": 1.0, "spread": 0.3, "error": 0.1}


class _Logged:
    """A seat's player, with the simulated time of each action it takes."""

    def __init__(self, player: Any, seat: int, log: list[tuple[float, int, Any]]) -> None:
        self.player, self.seat, self.log = player, seat, log

    def step(self, view: Any, legal: Any, now: float) -> tuple[Any, float | None]:
        action, wake = self.player.step(view, legal, now)
        if action is not None:
            self.log.append((now, self.seat, action))
        return action, wake


def _person_table(
    seed: int, error: float = 0.1
) -> tuple[RealTimeTable, HumanLikeTeammate, list[tuple[float, int, Any]]]:
    """Level 5 at four seats: a human-like teammate in seat 0 beside three bots."""
    game = new(4, seed=seed, level=5)
    person = HumanLikeTeammate(seed, reaction=1.0, spread=0.3, error=error)
    log: list[tuple[float, int, Any]] = []
    players = [person, *(GetItBot(seed * 10 + s) for s in range(1, 4))]
    bots = [_Logged(p, s, log) for s, p in enumerate(players)]
    return RealTimeTable(game, bots, timed={1, 2, 3}), person, log


def test_a_human_like_teammate_replays_exactly_for_a_seed() -> None:
    first = simulate("getit", 4, 3, {"level": 5}, people=1, person=PERSON)
    again = simulate("getit", 4, 3, {"level": 5}, people=1, person=PERSON)
    assert first == again and first["people"] == 1
    other = simulate("getit", 4, 4, {"level": 5}, people=1, person=PERSON)
    assert other != first
    runs = []
    for _ in range(2):
        table, _person, log = _person_table(7)
        table.run()
        runs.append((table.events, log))
    assert runs[0] == runs[1]


def test_a_human_like_teammate_errs_as_told_and_never_types() -> None:
    for error in (0.0, 0.5):
        table, person, _log = _person_table(5, error)
        events = table.run()
        said = [e for e in events if e["type"] == "said"]
        assert said and all(e["seat"] != 0 for e in said)  # the bots talk; it never does
        assert (person.wrong > 0) == (error > 0)


def test_a_human_like_teammate_takes_about_its_reaction_time() -> None:
    """Simulated time: the first look of a round comes ``reaction`` seconds after the
    cards show, spread out, never sooner than a fifth of it."""
    firsts = []
    for seed in range(40):
        game = new(4, seed=1)
        stack_getit_piles(game, [["20"], ["7"], ["31"], ["12"]])
        person = HumanLikeTeammate(seed, reaction=1.0, spread=0.3, error=0.0)
        action, wake = person.step(game.view(0), game.legal_actions(0), 0.0)
        assert action is None and wake is not None
        action, _ = person.step(game.view(0), game.legal_actions(0), wake)
        assert action == {"type": "look", "target": 1}  # the lowest it sees
        firsts.append(wake)
    assert min(firsts) >= 0.2
    assert 0.85 <= statistics.fmean(firsts) <= 1.15
    assert 0.15 <= statistics.pstdev(firsts) <= 0.45


def test_a_human_like_teammate_refuses_bad_settings() -> None:
    with pytest.raises(ValueError, match="fraction from 0 to 1"):
        HumanLikeTeammate(0, error=1.5)
    with pytest.raises(ValueError, match="must not be negative"):
        HumanLikeTeammate(0, reaction=-1.0)
    with pytest.raises(ValueError, match="people must be from 0 to the 4 seats"):
        simulate("getit", 4, 1, people=5)
    with pytest.raises(ValueError, match="only Get It!"):
        simulate("getout", 3, 1, people=1)


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


def test_sim_getit_beside_a_simulated_person(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("getit", "--games", "2", "--seats", "4", "--people", "1", "--seed", "3",
            "--option", "level=5", "--person-reaction", "1.2", "--person-error", "0.2")
    out = _sim(capsys, *argv)
    assert "getit: 2 games, 4 seats, seeds 3..4" in out
    assert "1 simulated person (seat 1): reacting in 1.2 s ± 0.3 s, 20% of signals to a " \
        "wrong player, never typing" in out
    assert "95% confidence interval" in out and "signals to a wrong player per game" in out
    records = [simulate("getit", 4, seed, {"level": 5}, people=1,
                        person={"reaction": 1.2, "spread": 0.3, "error": 0.2})
               for seed in (3, 4)]
    won = sum(r["won"] for r in records)
    assert f"{won} ({100 * won / 2:.1f}%)" in out.split("cleared all six levels")[1]


def test_sim_getout_versus_random(capsys: pytest.CaptureFixture[str]) -> None:
    out = _sim(capsys, "getout", "--games", "10", "--seats", "2", "--option", "match=false",
               "--versus", "random")
    assert "wins, seat 1" in out and "wins, seat 2" in out  # from 1, as in the app
    assert "the bot (normal, its seat going round) vs random-legal players" in out
    assert "95% confidence interval" in out and "a fair share (2 seats)" in out


@pytest.mark.parametrize("versus", ["greedy", "casual"])
def test_sim_getout_versus_greedy_or_casual_gives_the_bots_wins_with_an_interval(
        capsys: pytest.CaptureFixture[str], versus: str) -> None:
    # (The normal bot: the report is what is tested; the strong one's play is tested in
    # test_bots_getout.py, at a second a game.)
    out = _sim(capsys, "getout", "--games", "6", "--seats", "2", "--option", "match=false",
               "--option", "bots=normal", "--versus", versus)
    assert f"the bot (normal, its seat going round) vs {versus}" in out
    records = [simulate("getout", 2, seed, {"match": False, "bots": "normal"}, versus=versus)
               for seed in range(1, 7)]
    assert [r["bot"] for r in records] == [1, 0, 1, 0, 1, 0]
    won = sum(r["bot"] in r["winners"] for r in records)
    row = next(line for line in out.splitlines() if "wins, the bot" in line)
    assert f" {won} ({100 * won / 6:.1f}%)" in row
    low, high = wilson(won, 6)
    assert f"{100 * low:.1f}% .. {100 * high:.1f}%" in out
    assert "99th percentile decision time" in out


def test_sim_gotfive_versus_casual(capsys: pytest.CaptureFixture[str]) -> None:
    out = _sim(capsys, "gotfive", "--games", "10", "--seats", "3", "--versus", "casual")
    assert "wins, the bot" in out and "wins, seat 3" in out
    assert "the bot (strong, in seat 1) vs casual bots" in out


def test_sim_gotfive(capsys: pytest.CaptureFixture[str]) -> None:
    out = _sim(capsys, "gotfive", "--games", "3", "--seats", "4")
    assert "wrong announcements" in out and "median turns to a win" in out
    assert "wins, seat 4" in out and "wins, seat 0" not in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["sim", "chess"], "unknown game 'chess'"),
        (["sim", "getit", "--games", "0"], "argument --games: expected 1 to 1000000000, not 0"),
        (["sim", "getit", "--games", "-1"], "argument --games: expected 1 to 1000000000, not -1"),
        (["sim", "getit", "--games", "lots"], "expected a whole number"),
        (["sim", "getit", "--seats", "7"], "Get It! takes 3 to 6 seats, not 7"),
        (["sim", "getit", "--option", "level=9"], "option 'level' must be from 1 to 6"),
        (["sim", "getit", "--option", "colour=red"], "unknown option 'colour'"),
        (["sim", "getit", "--versus", "random"], "--versus random is for GET OUT! only"),
        (["sim", "getit", "--versus", "casual"],
         "--versus casual is for GET OUT! and Got Five! only"),
        (["sim", "gotfive", "--versus", "greedy"], "--versus greedy is for GET OUT! only"),
        (["sim", "getout", "--versus", "genius"], "invalid choice"),
        (["sim", "getit", "--reaction", "-1"], "expected 0 to 3600 seconds"),
        (["sim", "getit", "--reaction", "0.1", "--jitter", "0.2"], "more than --reaction"),
        (["sim", "getit", "--people", "5"], "--people 5 is more than the 4 seats"),
        (["sim", "getit", "--people", "two"], "expected a whole number, not 'two'"),
        (["sim", "getit", "--people", "-1"], "expected 0 or more"),
        (["sim", "getout", "--people", "1"], "--people is for Get It! only"),
        # (The last one won, without a word: a command-line pass.)
        (["sim", "getout", "--option", "limit=50", "--option", "limit=60"],
         "option 'limit' is given twice: give it once"),
        # (Taken without a word, and nothing done with them: a command-line pass.)
        (["sim", "getout", "--reaction", "2"], "--reaction is for Get It! only"),
        (["sim", "gotfive", "--jitter", "0.1"], "--jitter is for Get It! only"),
        (["sim", "getout", "--person-typing", "4"], "--person-typing is for Get It! only"),
        (["sim", "getit", "--person-error", "1.5"], "expected a fraction from 0 to 1, not 1.5"),
        (["sim", "getit", "--person-error", "often"], "expected a fraction from 0 to 1"),
        (["sim", "getit", "--person-reaction", "soon"], "expected a number of seconds"),
        (["sim", "getit", "--person-spread", "-0.1"], "expected 0 to 3600 seconds"),
    ],
)
def test_sim_garbage_gets_a_clear_error(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert_usage_error(argv, message, capsys)


# ------------------------------------------------------------------ a person who types


def test_a_typing_person_notices_the_bubble_then_types_at_its_pace() -> None:
    """Noticing takes a reaction (1.0 s, no spread here), ``t`` and Enter a keystroke
    each (0.25 s), the line "I see 20 and 12" (15 characters) 3.75 s at 4 a second: it
    is said at 5.0 s, and no other key goes while it types."""
    game = new(4, seed=1, level=5)
    stack_getit_piles(game, [["30"], ["speech", "5"], ["20"], ["12"]])
    person = HumanLikeTeammate(2, reaction=1.0, spread=0.0, error=0.0, typing=4.0)
    now, actions = 0.0, []
    while now < 8.0:
        action, wake = person.step(game.view(0), game.legal_actions(0), now)
        if action is not None:
            actions.append((now, action))
            game.act(0, action, now)
        if wake is None:
            break
        now = max(wake, now + 1e-6)
    assert actions[0] == (pytest.approx(5.0), {"type": "say", "text": "I see 20 and 12"})
    assert all(at >= 5.25 for at, _ in actions[1:])  # its look waited for the Enter
    assert person.bubbles == 1 and person.lines == 1


def test_a_line_typed_too_late_is_lost_and_counted() -> None:
    game = new(4, seed=1, level=5)
    stack_getit_piles(game, [["30"], ["speech", "5"], ["20"], ["12"]])
    person = HumanLikeTeammate(2, reaction=1.0, spread=0.0, error=0.0, typing=4.0)
    person.step(game.view(0), game.legal_actions(0), 0.0)
    person.step(game.view(0), game.legal_actions(0), 1.0)  # t: typing
    game.act(1, {"type": "play"}, 3.0)  # the bubble goes before Enter
    action, _ = person.step(game.view(0), game.legal_actions(0), 5.0)
    assert action is None or action["type"] != "say"
    assert person.bubbles == 1 and person.lines == 0


@pytest.mark.parametrize("bots", ["quick", "relaxed"])
def test_a_typing_person_gets_its_line_in_beside_the_bots(bots: str) -> None:
    """Levels 5 and 6, a person who reacts in about a second and types 4 characters a
    second: every bubble it sees, it gets a line in (beside the bots of before, which
    held the bubble only for the bots' lines, 3 of 7 got in at a quick table, 5 of 7 at
    a relaxed one)."""
    person = {"reaction": 1.0, "spread": 0.3, "error": 0.1, "typing": 4.0}
    records = [simulate("getit", 4, seed, {"level": 5, "bots": bots}, people=2,
                        person=person) for seed in range(6)]
    bubbles = sum(r["bubbles"] for r in records)
    assert bubbles >= 6 and sum(r["lines"] for r in records) == bubbles
    quiet = simulate("getit", 4, 0, {"level": 5}, people=2, person={"typing": 0.0})
    assert quiet["bubbles"] == quiet["lines"] == 0


def test_sim_getit_beside_a_typing_person(capsys: pytest.CaptureFixture[str]) -> None:
    out = _sim(capsys, "getit", "--games", "2", "--people", "1", "--seed", "3",
               "--option", "level=5", "--person-typing", "4")
    assert "wrong player, typing 4 characters a second" in out
    assert "speech bubbles a typing person got a line in on" in out

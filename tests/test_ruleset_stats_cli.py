"""``manage.py ruleset_stats``, run as a real process: the same seed prints the same bytes, the
JSON object's shape, the readable table, and bad input refused in one line with exit 2."""

from __future__ import annotations

import json

import pytest

from rules.statistics import METRICS
from tests.test_cli import manage

pytestmark = pytest.mark.slow  # the command line as real processes: make test, not make test-fast


def test_the_same_seed_prints_the_same_bytes_and_the_issues_shape() -> None:
    args = ("ruleset_stats", "masters+mandatory-doubles", "--players", "3", "--games", "9", "--seed", "4", "--json")
    one, two = manage(*args), manage(*args)
    assert one.returncode == 0, one.stderr
    assert one.stdout == two.stdout and one.stdout.strip()
    other = manage(*args[:-2], "5", "--json")
    assert other.stdout != one.stdout
    report = json.loads(one.stdout)
    assert {"ruleset", "players", "games", "rounds", "seed", "metrics", "strategies"} <= set(report)
    assert (report["ruleset"], report["players"], report["games"], report["rounds"], report["seed"]) == (
        "masters+mandatory-doubles", 3, 9, 9, 4)
    assert set(report["metrics"]) == set(METRICS)
    for name in METRICS:
        if name == "strategy_win_rates":
            continue
        figure = report["metrics"][name]
        assert figure is None or (set(figure) >= {"mean", "ci95"} and len(figure["ci95"]) == 2
                                  and figure["ci95"][0] <= figure["mean"] <= figure["ci95"][1]), name
    assert set(report["metrics"]["strategy_win_rates"]) == {"planner_vs_random", "greedy_vs_random",
                                                            "planner_vs_random_2p"}
    assert [t["table"] for t in report["strategies"]] == ["planner_vs_random", "greedy_vs_random",
                                                          "planner_vs_random_2p"]
    assert sum(t["games"] for t in report["strategies"]) == 9
    assert list(json.loads(one.stdout)) == sorted(report)


def test_the_table_states_its_sample() -> None:
    out = manage("ruleset_stats", "masters", "--games", "4", "--seed", "1")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("masters, 4 players: 4 games, 4 rounds, seed 1\n")
    assert "rounds ending blocked" in out.stdout and "planner_vs_random" in out.stdout


@pytest.mark.parametrize(("args", "message"), [
    (("dominos",), "error: unknown variant 'dominos'"),
    (("howto", "--games", "0"), "error: expected a number of games from 1 to 20000, found 0\n"),
    (("howto", "--games", "1000000000"), "error: expected a number of games from 1 to 20000, found 1000000000\n"),
    (("cardinal", "--players", "3"),
     "error: expected a number of players from 4 to 10 (the deal table of cardinal), found 3\n"),
    (("house-zzzzzzzz",), "error: no house ruleset is called 'house-zzzzzzzz'"),
])
def test_bad_input_exits_2_naming_the_allowed_range(args: tuple[str, ...], message: str) -> None:
    out = manage("ruleset_stats", *args)
    assert out.returncode == 2
    assert out.stderr.startswith(message) and out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert out.stdout == ""

"""A game under a house ruleset's game rules: how many rounds, the engine of each, whether a
round exists (a deal, self-play's plan, a position), and the winner when a going-out bonus scores
below zero."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.answer import rule
from rules.deal import DealError, deal, engine_double, last_round, rounds_in_game
from rules.position import Position, PositionError
from rules.scoring import game_result
from rules.simulate import plan_problem
from variants import house as hs
from variants.loader import get_ruleset
from variants.schema import house_from_data


def make(base: str, rules: dict[str, Any]) -> Any:
    return hs.build(hs.check(house_from_data(base, "game", rules)))


@pytest.mark.parametrize(("base", "rules", "rounds", "engines"), [
    ("masters", {"rounds.count": 7}, 7, [None] * 7),
    ("cardinal", {"rounds.count": 7}, 7, [12, 11, 10, 9, 8, 7, 6]),
    ("cardinal", {"rounds.count": 10, "engine.tile": "set-highest"}, 10, [12] * 10),
    ("howto", {"engine.tile": "set-highest"}, 13, [12] * 13),
    ("masters", {"engine.tile": "set-highest", "rounds.count": 20}, 20, [12] * 20),
])
def test_rounds_and_engines_of_a_game(base: str, rules: dict[str, Any], rounds: int, engines: list[int | None]) -> None:
    ruleset = make(base, rules)
    assert rounds_in_game(ruleset, 12) == last_round(ruleset, 12) == rounds
    assert [engine_double(ruleset, 12, n) for n in range(1, rounds + 1)] == engines
    for n in (1, rounds):
        dealt = deal(ruleset, ("Ann", "Bob", "Cy", "Dee"), n, random.Random(n), 12)
        assert engines[n - 1] is None or dealt.position.engine == engines[n - 1]
    counted = f"a {ruleset.id} game has {rounds} rounds" if "rounds.count" in rules else "with a double-12 set"
    with pytest.raises(DealError, match=f"round {rounds + 1} does not exist:? {counted}"):
        deal(ruleset, ("Ann", "Bob", "Cy", "Dee"), rounds + 1, random.Random(0), 12)


def test_self_play_plans_the_game_rounds_and_refuses_more() -> None:
    ruleset = make("masters", {"rounds.count": 7})
    assert plan_problem(ruleset, 4, 7, None, 1) is None
    assert plan_problem(ruleset, 4, 8, None, 1) == f"round 8 does not exist: a {ruleset.id} game has 7 rounds"
    # the published ones keep one round per double as their limit
    assert plan_problem(get_ruleset("masters"), 4, 13, None, 1) is None


def test_a_position_past_the_games_last_round_is_refused_naming_the_line() -> None:
    ruleset = make("cardinal", {"rounds.count": 10})
    text = "players: Ann Bob Cy Dee\nset: double-12\nengine: 3\nround: 10\nturn: Ann\nhand: 3-4\n"
    assert rule(Position.parse(text), ruleset).state.notes == ()
    with pytest.raises(PositionError) as info:
        rule(Position.parse(text.replace("round: 10", "round: 11").replace("engine: 3", "engine: 2")), ruleset)
    assert (info.value.code.value, info.value.line, info.value.column) == ("round-above-game", 4, 8)
    assert str(info.value) == f"line 4, column 8: a {ruleset.id} game has 10 rounds; found round 11"
    with pytest.raises(PositionError, match="expected a round number from 1 to 30, found '31'"):
        Position.parse(text.replace("round: 10", "round: 31"))


def test_a_going_out_bonus_counts_as_a_zero_round_in_the_tie_break() -> None:
    """howto breaks a tie by the most rounds at zero: with a bonus, going out scores below zero."""
    ruleset = make("howto", {"scoring.going_out_bonus": -5})
    rounds = [{"Ann": -5, "Bob": 10}, {"Ann": 20, "Bob": -5}, {"Ann": 5, "Bob": -5}]
    result = game_result(ruleset, rounds)
    assert result.totals == {"Ann": 20, "Bob": 0} and result.winners == ("Bob",)
    tied = [{"Ann": -5, "Bob": 5}, {"Ann": 10, "Bob": -5}, {"Ann": 0, "Bob": 5}]
    assert game_result(ruleset, tied).totals == {"Ann": 5, "Bob": 5}
    assert game_result(ruleset, tied).decided_by == "most-zero-rounds" and game_result(ruleset, tied).winners == ("Ann",)

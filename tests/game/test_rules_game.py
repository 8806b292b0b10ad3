"""rules.game: the rounds a game plays, a round counted under each ruleset, the winner."""

from __future__ import annotations

import pytest

from rules.errors import ErrorCode, InputError
from rules.game import check_table, count_round, most_players, plan, sets_for, tile_points, winner
from rules.tiles import Tile
from variants.loader import all_rulesets, get_ruleset

T = Tile.parse
PLAYERS = ("Ann", "Bob", "Cy")


def test_one_per_double_on_double_12_is_13_rounds_from_12_12_down_to_0_0() -> None:
    rounds = plan(get_ruleset("howto"), 12)
    assert [r.number for r in rounds] == list(range(1, 14))
    assert [str(r.engine) for r in rounds] == [f"{n}-{n}" for n in range(12, -1, -1)]


def test_a_single_game_is_one_round_and_a_highest_held_engine_is_not_known_before() -> None:
    rounds = plan(get_ruleset("masters"), 12)
    assert len(rounds) == 1 and rounds[0].engine is None


def test_a_numbered_rounds_count_gives_that_many_rounds() -> None:
    numbered = [rs for rs in all_rulesets() if isinstance(rs.flags.rounds_count, int)]
    for rs in numbered:
        assert len(plan(rs, 12)) == rs.flags.rounds_count


@pytest.mark.parametrize("ruleset", [rs.id for rs in all_rulesets()])
def test_every_ruleset_counts_a_hand_by_its_double_blank_value(ruleset: str) -> None:
    rs = get_ruleset(ruleset)
    count = count_round(rs, 12, PLAYERS, {"Bob": (T("0-0"), T("12-11")), "Cy": 21}, "Ann", False)
    blank = rs.flags.scoring_double_blank
    assert count.scores == {"Ann": rs.flags.scoring_going_out_bonus, "Bob": blank + 23, "Cy": 21}
    bob = count.hands[1]
    assert bob.tiles == ((T("0-0"), blank), (T("12-11"), 23)) and tile_points(T("0-0"), rs) == blank


def test_the_double_blank_counts_50_under_howto_and_0_under_cardinal() -> None:
    hand = {"Bob": (T("0-0"), T("12-11")), "Cy": 0}
    assert count_round(get_ruleset("howto"), 12, PLAYERS, hand, "Ann", False).scores["Bob"] == 73
    assert count_round(get_ruleset("cardinal"), 12, PLAYERS, hand, "Ann", False).scores["Bob"] == 23


def test_a_blocked_round_counts_every_hand() -> None:
    count = count_round(get_ruleset("howto"), 12, PLAYERS, {"Ann": 5, "Bob": (T("6-6"),), "Cy": 0}, None, True)
    assert count.scores == {"Ann": 5, "Bob": 12, "Cy": 0} and count.blocked


@pytest.mark.parametrize(("hands", "out", "blocked", "code", "words"), [
    ({"Dee": 3}, "Ann", False, ErrorCode.BAD_REQUEST, "there is no player called 'Dee' in this game; the players: Ann, Bob, Cy"),
    ({"Bob": (T("6-6"),), "Cy": (T("6-6"),)}, "Ann", False, ErrorCode.TILE_TWICE, "6-6 is given twice (in Bob's hand and in Cy's)"),
    ({"Bob": (T("13-1"),), "Cy": 0}, "Ann", False, ErrorCode.PIP_ABOVE_SET, "13-1 is not in the double-12 set"),
    ({"Bob": -4, "Cy": 0}, "Ann", False, ErrorCode.BAD_REQUEST, "expected points from 0 to 10000 for Bob, found -4"),
    ({"Bob": 4}, "Ann", False, ErrorCode.BAD_REQUEST, "expected the points or the tiles left of Cy"),
    ({"Ann": 3, "Bob": 4, "Cy": 0}, "Ann", False, ErrorCode.BAD_REQUEST, "Ann went out, so has no tiles left and scores nothing"),
    ({"Ann": 3, "Bob": 4, "Cy": 0}, None, False, ErrorCode.BAD_REQUEST, "expected who went out, or that the round was blocked"),
    ({"Bob": 4, "Cy": 0}, "Ann", True, ErrorCode.BAD_REQUEST, "a blocked round has nobody out; found Ann out"),
])
def test_a_round_that_cannot_be_counted_says_exactly_why(hands: dict, out: str | None, blocked: bool,
                                                          code: ErrorCode, words: str) -> None:
    with pytest.raises(InputError) as caught:
        count_round(get_ruleset("howto"), 12, PLAYERS, hands, out, blocked)
    assert caught.value.code is code and caught.value.message == words


def test_the_winner_is_the_lowest_total() -> None:
    result = winner(get_ruleset("howto"), [{"Ann": 0, "Bob": 10}, {"Ann": 7, "Bob": 0}])
    assert result.winners == ("Ann",) and result.decided_by == "lowest-total"


def test_howto_breaks_a_tie_by_the_most_zero_rounds() -> None:
    rounds = [{"Ann": 0, "Bob": 5}, {"Ann": 0, "Bob": 5}, {"Ann": 10, "Bob": 0}]
    result = winner(get_ruleset("howto"), rounds)
    assert result.winners == ("Ann",) and result.decided_by == "most-zero-rounds"


def test_howto_then_breaks_it_by_the_lowest_nonzero_round() -> None:
    rounds = [{"Ann": 0, "Bob": 0}, {"Ann": 3, "Bob": 5}, {"Ann": 7, "Bob": 5}]
    result = winner(get_ruleset("howto"), rounds)
    assert result.winners == ("Ann",) and result.decided_by == "lowest-nonzero-round"


def test_a_tie_the_ruleset_leaves_standing_is_a_tie() -> None:
    result = winner(get_ruleset("cardinal"), [{"Ann": 0, "Bob": 5}, {"Ann": 5, "Bob": 0}])
    assert result.winners == ("Ann", "Bob") and result.decided_by == "tie"


def test_a_table_is_checked_against_the_deal_table() -> None:
    rs = get_ruleset("gamerules")
    assert check_table(rs, ["Ann", "Bob", "Cy", "Dee"], None) == sets_for(rs, 4)[0]
    with pytest.raises(InputError, match="expected 2 to"):
        check_table(rs, ["Ann"], None)
    with pytest.raises(InputError, match="expected 2 to"):
        check_table(rs, [f"P{i}" for i in range(most_players(rs) + 1)], None)
    with pytest.raises(InputError, match="Ann is named twice"):
        check_table(rs, ["Ann", "Ann"], None)
    with pytest.raises(InputError, match="one word"):
        check_table(rs, ["Ann", "12"], None)
    assert check_table(rs, ["Ann", "Bob"], 15) == 15  # the set the table has
    with pytest.raises(InputError, match=r"expected a standard set \(6, 9, 12, 15, 18\); found 10"):
        check_table(rs, ["Ann", "Bob"], 10)

"""audit4: house rulesets built over a published base (variants.house.check/build, as the API builds
one), a position parsed with rules.position.Position.parse and judged with rules.answer.rule. Each
expectation follows from the meaning of the rule value as rules/ruleset.py words it (quoted above
each test) and the table of reason codes in docs/house-rules.md."""

from __future__ import annotations

import pytest

from rules.answer import Ruling, rule
from rules.position import Position, PositionError
from rules.ruleset import Ruleset
from variants import house as hs
from variants.loader import get_ruleset
from variants.schema import house_from_data


def house(base: str, **rules: object) -> Ruleset:
    """A house ruleset over ``base``: rule keys are written with '__' for '.'."""
    values = {key.replace("__", "."): value for key, value in rules.items()}
    return hs.build(hs.check(house_from_data(base, "audit4 table", values)))


def judge(text: str, ruleset: Ruleset) -> Ruling:
    return rule(Position.parse(text), ruleset)


def verdict(ruling: Ruling) -> tuple[str, list[str]]:
    assert ruling.check is not None
    reasons = ruling.check.reasons
    return ("illegal" if any(r.blocks for r in reasons) else "legal"), sorted(r.code.value for r in reasons)


BOB_STUCK = """players: Ann Bob Cy Dee
engine: 12
Ann: 12-3
Bob: 12-7
Cy: 12-9
Dee: 12-10
mexican: 12-5
boneyard: 1-2 8-11 7-4 0-0
turn: Bob
hand: 3-11 6-6
"""


def test_draw_until_playable_pass_after_unplayable_draw() -> None:
    # "A player who cannot play draws until they draw a tile they can play or the boneyard is empty."
    # Bob drew 1-2, which fits nowhere, and tiles are left: he may not pass, he draws again.
    rs = house("masters", turn__cannot_play="draw-until-playable")
    passing = judge(BOB_STUCK + "moves: Bob: draw 1-2\ncheck: Bob: pass\n", rs)
    assert passing.replay.ok
    assert verdict(passing) == ("illegal", ["keep-drawing"])
    again = judge(BOB_STUCK + "moves: Bob: draw 1-2\ncheck: Bob: draw 8-11\n", rs)
    assert verdict(again) == ("legal", ["draws-again"])


def test_draw_until_playable_stops_at_a_playable_tile() -> None:
    # Bob draws 1-2, then 7-4, which fits his own train: no more drawing; he plays it.
    rs = house("masters", turn__cannot_play="draw-until-playable")
    moves = "moves: Bob: draw 1-2; Bob: draw 7-4\n"
    stop = judge(BOB_STUCK + moves + "check: Bob: draw 0-0\n", rs)
    assert stop.replay.ok and stop.replay.applied == 2
    assert verdict(stop) == ("illegal", ["must-play-if-able", "stop-drawing"])
    play = judge(BOB_STUCK + moves + "check: Bob: 7-4 -> Bob\n", rs)
    assert verdict(play) == ("legal", ["ends-match", "own-train"])
    # the published base: one draw only, then pass
    base = judge(BOB_STUCK + "moves: Bob: draw 1-2\ncheck: Bob: pass\n", get_ruleset("masters"))
    assert verdict(base) == ("legal", ["cannot-play-pass", "places-marker"])


def test_draw_until_playable_boneyard_runs_dry() -> None:
    # "... or the boneyard is empty": after drawing the last tile without luck, Bob passes.
    rs = house("howto", turn__cannot_play="draw-until-playable")
    text = BOB_STUCK.replace("boneyard: 1-2 8-11 7-4 0-0", "boneyard: 1-2 8-11")
    ruling = judge(text + "moves: Bob: draw 1-2; Bob: draw 8-11\ncheck: Bob: pass\n", rs)
    assert ruling.replay.ok
    assert verdict(ruling) == ("legal", ["cannot-play-pass", "places-marker"])


MARKED_BOB = """players: Ann Bob Cy Dee
engine: 12
Ann: 12-3
Bob: 12-7 *
Cy: 12-9
Dee: 12-10
mexican: 12-5
boneyard: 20
turn: Bob
hand: 5-2 11-11
hand Cy: 7-3 0-1
"""


def test_marker_lifted_on_any_tile() -> None:
    # "A marker is lifted as soon as its owner lays a tile on any train."
    rs = house("masters", markers__removed="owner-plays-any-tile")
    ruling = judge(MARKED_BOB + "check: Bob: 5-2 -> mexican\n", rs)
    assert verdict(ruling) == ("legal", ["ends-match", "lifts-marker-any-tile", "mexican-open"])
    # once Bob has played on the Mexican train, his train is closed to Cy again
    after = judge(MARKED_BOB + "moves: Bob: 5-2 -> mexican\ncheck: Cy: 7-3 -> Bob\n", rs)
    assert after.replay.ok
    assert verdict(after) == ("illegal", ["ends-match", "train-not-open"])
    # the published base keeps the marker down: Cy may play there
    base = judge(MARKED_BOB + "moves: Bob: 5-2 -> mexican\ncheck: Cy: 7-3 -> Bob\n", get_ruleset("masters"))
    assert verdict(base) == ("legal", ["ends-match", "train-marked"])


def test_marker_penalty_in_check_score() -> None:
    # "A player whose marker is still down at the end of a round adds {n} to their score."
    # check: score counts "as if the round ended now" (docs/house-rules.md).
    rs = house("masters", scoring__marker_penalty=25)
    text = """players: Ann Bob Cy Dee
engine: 12
Ann: 12-3
Bob: 12-7 *
Cy: 12-9
Dee: 12-10
hand Bob: 6-5
hand Cy: 4-4
check: score
"""
    ruling = judge(text, rs)
    assert ruling.scores == {"Ann": None, "Bob": 36, "Cy": 8, "Dee": None}  # no hand line: not given
    assert ruling.count is not None
    assert sorted(r.code.value for r in ruling.count.reasons) == ["hand-counts", "hand-counts", "hand-not-given", "hand-not-given", "marker-penalty"]


def test_going_out_bonus_and_marker_penalty_at_round_end() -> None:
    # "The player who goes out scores {n} for the round instead of nothing." (-10), and Cy's marker is down (+25).
    rs = house("howto", scoring__going_out_bonus=-10, scoring__marker_penalty=25)
    text = """players: Ann Bob Cy Dee
engine: 12
Ann: 12-3
Bob: 12-7
Cy: 12-9 *
Dee: 12-10
mexican: -
boneyard: 10
turn: Ann
hand: 3-1
hand Bob: 6-5
hand Cy: 4-4
hand Dee: 0-0
moves: Ann: 3-1 -> Ann
"""
    ruling = judge(text, rs)
    assert ruling.replay.ok and ruling.state.round_over
    # howto counts the double-blank 50
    assert ruling.scores == {"Ann": -10, "Bob": 11, "Cy": 33, "Dee": 50}


def test_double_blank_twenty_five() -> None:
    # scoring.double_blank: "What the double-blank counts in a hand" -- 25 here, over masters (0) and howto (50).
    text = "players: Ann Bob Cy Dee\nhand Ann: 0-0 5-4\nhand Bob: 3-2\ncheck: score\n"
    for base in ("masters", "howto"):
        ruling = judge(text, house(base, scoring__double_blank=25))
        assert ruling.scores == {"Ann": 34, "Bob": 5, "Cy": None, "Dee": None}, base
        assert ruling.count is not None
        assert sorted(r.code.value for r in ruling.count.reasons) == ["double-blank-counts", "hand-counts", "hand-counts", "hand-not-given", "hand-not-given"]


def test_engine_set_highest_every_round() -> None:
    # "Every round starts with the same engine: the set's highest double." Round 3 with 12-12 is
    # the engine this table plays (no note); howto's own round 3 is played with 10-10.
    text = "players: Ann Bob Cy Dee\nround: 3\nengine: 12\nAnn: 12-5\nturn: Bob\nhand: 10-10 5-1\n"
    ours = judge(text, house("howto", engine__tile="set-highest"))
    assert ours.state.notes == ()
    assert judge(text, get_ruleset("howto")).state.notes != ()
    # and a round-3 position with the 10-10 engine is the one that gets a note under the house rules
    other = judge(text.replace("engine: 12", "engine: 10").replace("Ann: 12-5", "Ann: 10-5").replace("10-10 5-1", "12-12 5-1"),
                  house("howto", engine__tile="set-highest"))
    assert other.state.notes != ()


def test_set_highest_engine_cannot_be_in_a_hand() -> None:
    # With the set's highest double the engine of every round, a hand in round 3 cannot hold 12-12
    # (it is on the table), while 10-10 is an ordinary tile. check: score leaves the engine out.
    rs = house("masters+thirteen-rounds", engine__tile="set-highest")
    with pytest.raises(PositionError) as refused:
        judge("players: Ann Bob Cy Dee\nround: 3\nhand Bob: 12-12 5-1\ncheck: score\n", rs)
    assert refused.value.code.value == "tile-twice"
    ruling = judge("players: Ann Bob Cy Dee\nround: 3\nhand Bob: 10-10 5-1\ncheck: score\n", rs)
    assert ruling.scores == {"Ann": None, "Bob": 26, "Cy": None, "Dee": None}

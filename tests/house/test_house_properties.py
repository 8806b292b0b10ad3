"""The fast path agrees with explain() under the turn values a house ruleset may set, on random
positions (hypothesis): the mutated positions of tests/engine/test_properties.py, with hands
unknown, tiles drawn unseen, markers, open doubles and unstarted trains, judged under house
rulesets that set every new turn value at once (marker-no-draw apart, it excludes drawing until
playable)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tests.engine.test_properties import FAST, SAMPLE, judge_text, mutated
from variants import house as hs
from variants.schema import house_from_data

LIMITS = {"round_end.last_tile_double": False, "doubles.per_turn": "one", "turn.other_trains_before_own": False}
TURN_HOUSES = [
    hs.build(hs.check(house_from_data(base, "turn values", {**LIMITS, **rules})))
    for base, rules in (
        ("masters+mandatory-doubles", {"turn.cannot_play": "draw-until-playable", "markers.removed": "owner-plays-any-tile"}),
        ("howto", {"turn.cannot_play": "draw-until-playable", "turn.must_play": False, "turn.drawn_tile_only": False}),
        ("gamerules", {"turn.cannot_play": "marker-no-draw", "markers.removed": "owner-plays-any-tile"}),
    )
]


def test_the_sample_is_judged_under_the_turn_values() -> None:
    judge_text(SAMPLE, TURN_HOUSES)


@FAST
@given(st.data())
def test_mutated_texts_agree_under_the_turn_values(data: st.DataObject) -> None:
    judge_text(mutated(data), TURN_HOUSES)

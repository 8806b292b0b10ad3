"""Strict input (issue 7, part 3): numbers are ASCII digits with sane bounds, and no odd input makes
the parser raise anything but its own error (hypothesis properties over tests/odd_input.py)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.answer import rule
from rules.position import Position, PositionError, PositionSyntaxError
from rules.tiles import Tile
from tests.odd_input import BASE, odd_digits, odd_numbers, planted
from variants.loader import RulesetError, base_ids, get_ruleset

FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def parse_and_judge(text: str) -> Position | None:
    try:
        position = Position.parse(text)
    except PositionError as exc:
        assert exc.line is not None, f"{exc}: no line"
        return None
    for ident in base_ids():
        try:
            rule(position, get_ruleset(ident))
        except PositionError:
            pass
    return position


@FAST
@given(planted())
def test_odd_input_raises_only_position_errors(text: str) -> None:
    parse_and_judge(text)


@FAST
@given(st.sampled_from(["round", "boneyard", "engine"]), odd_digits)
def test_non_ascii_digits_are_never_numbers(key: str, digits: str) -> None:
    text = BASE.replace("engine: 12-12\n", "") + f"{key}: {digits}\n"
    if key != "engine":
        text = text.replace("players:", "engine: 12\nplayers:", 1)
    with pytest.raises(PositionSyntaxError) as info:
        Position.parse(text)
    assert info.value.line is not None and info.value.column is not None


@FAST
@given(odd_digits, st.integers(0, 12))
def test_non_ascii_digits_are_never_pips(digits: str, other: int) -> None:
    with pytest.raises(ValueError):
        Tile.parse(f"{digits}-{other}")


@FAST
@given(odd_numbers)
def test_long_numbers_are_refused_before_conversion(number: str) -> None:
    for key in ("round", "boneyard"):
        with pytest.raises(PositionSyntaxError):
            Position.parse(BASE + f"{key}: {number}\n")


def test_bounds_follow_the_set() -> None:
    base = BASE.replace("boneyard: 23\n", "")
    Position.parse(base + "set: double-12\nround: 30\n")  # the format's limit; the ruleset's game decides
    with pytest.raises(PositionSyntaxError, match="from 1 to 30"):
        Position.parse(base + "set: double-12\nround: 31\n")
    with pytest.raises(PositionError, match="from 1 to 13") as info:
        rule(Position.parse(base + "set: double-12\nround: 14\n"), get_ruleset("cardinal"))
    assert info.value.code == "round-above-set"
    with pytest.raises(PositionError, match="a double-12 set has only 91"):
        Position.parse(base + "set: double-12\nboneyard: 92\n")
    with pytest.raises(PositionSyntaxError, match="at most 190 tiles"):
        Position.parse(base + "boneyard: 191\n")


def test_a_round_past_the_default_set_is_refused_per_ruleset() -> None:
    position = Position.parse(BASE.replace("boneyard: 23\n", "") + "round: 14\n")  # engine 12: double-12, 13 rounds
    with pytest.raises(PositionError) as info:
        rule(position, get_ruleset("masters"))
    assert info.value.code == "round-above-set" and info.value.line is not None


@FAST
@given(st.text(min_size=1, max_size=400))
def test_any_variant_id_is_checked_before_the_file_system(ident: str) -> None:
    if ident.split("+")[0].strip() in base_ids():
        return
    with pytest.raises(RulesetError):
        get_ruleset(ident)


def test_an_id_longer_than_a_file_name() -> None:
    with pytest.raises(RulesetError):
        get_ruleset("a" * 251)
    with pytest.raises(RulesetError):
        get_ruleset("a" * 5000 + "+mandatory-doubles")

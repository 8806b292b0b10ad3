"""One input-error type: every front end raises and maps the same codes."""

from __future__ import annotations

import itertools

import pytest

from mextrain_site.core.errors import HTTP_STATUS, status
from mextrain_site.core.referee import parse
from rules.errors import ErrorCode, InputError
from rules.position import ImpossiblePositionError, Position, PositionSyntaxError
from variants.loader import OptionProblem, RulesetError, base_ids, get_ruleset, load_base, option_problems


def test_every_code_has_one_http_status() -> None:
    assert set(HTTP_STATUS) == set(ErrorCode)
    assert status(ErrorCode.TOO_LARGE) == 413 and status(ErrorCode.SYNTAX) == 400
    assert status(ErrorCode.UNKNOWN_VARIANT) == 400 and status(ErrorCode.UNKNOWN_VARIANT, in_path=True) == 404


@pytest.mark.parametrize("text,kind,code", [
    ("players: Ann Bob\nengine: 12\nturn: Ann\nhand: 6x4\n", PositionSyntaxError, ErrorCode.SYNTAX),
    ("players: Ann Bob\nengine: 12\nturn: Ann\nhand: 12-12\n", ImpossiblePositionError, ErrorCode.TILE_TWICE),
    ("variant: dominos\nplayers: Ann Bob\nengine: 12\nturn: Ann\n", InputError, ErrorCode.UNKNOWN_VARIANT),
    ("variant: masters+dead-double\nplayers: Ann Bob\nengine: 12\nturn: Ann\n", InputError, ErrorCode.IMPOSSIBLE_OPTIONS),
    ("#" * 20_001, InputError, ErrorCode.TOO_LARGE),
])
def test_the_engine_the_loader_and_the_glue_raise_one_type(text: str, kind: type, code: ErrorCode) -> None:
    with pytest.raises(InputError) as info:
        parse(text)
    assert isinstance(info.value, kind) and info.value.code is code
    assert info.value.as_dict()["code"] == code.value


def test_too_many_tiles_is_worded_once() -> None:
    """The parser's check and the engine's (with the set a ruleset plays) give the same sentence."""
    from rules.position import check_tile_count

    with pytest.raises(ImpossiblePositionError) as parsed:
        Position.parse("players: Ann Bob\nset: double-6\nengine: 6\nturn: Ann\nboneyard: 40\n")
    with pytest.raises(ImpossiblePositionError) as direct:
        check_tile_count(41, 6, 5)
    assert str(parsed.value) == str(direct.value) == "line 5: the position holds 41 tiles but a double-6 set has only 28"
    assert parsed.value.code is direct.value.code is ErrorCode.TOO_MANY_TILES


def _combinations() -> list[tuple[str, tuple[str, ...]]]:
    out = []
    for base in base_ids():
        names = [*load_base(base).options, "no-such-option"]
        for n in range(1, 3):
            out.extend((base, combo) for combo in itertools.product(names, repeat=n))
    return out


@pytest.mark.parametrize("base,chosen", _combinations())
def test_options_are_validated_once_with_a_combination_that_works(base: str, chosen: tuple[str, ...]) -> None:
    """Every problem names its option and what it needs; its suggestion loads; no problem, no error."""
    problems = option_problems(base, chosen)
    ident = "+".join((base, *chosen))
    if not problems:
        assert get_ruleset(ident).base == base
        return
    with pytest.raises(RulesetError) as info:
        get_ruleset(ident)
    assert str(info.value) == str(problems[0])
    for p in problems:
        assert p.variant == base and p.option in chosen
        assert p.code is (ErrorCode.UNKNOWN_VARIANT if p.problem is OptionProblem.UNKNOWN else ErrorCode.IMPOSSIBLE_OPTIONS)
        if p.problem in (OptionProblem.REQUIRES, OptionProblem.CONFLICTS):
            assert p.needs in load_base(base).options
        works = get_ruleset(p.suggestion)
        assert works.id == p.suggestion
        if p.problem is OptionProblem.REQUIRES:
            assert p.option in works.options and p.needs in works.options

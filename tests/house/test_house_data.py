"""House rulesets as data (variants/house.py, variants/schema.py): checked by the files' schema
with the same error texts, content-derived ids, the YAML file round trip. No Django, no database."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rules.ruleset import RULE_SPECS, SPEC_BY_KEY, Status, ValueKind
from variants import house as hs
from variants.loader import VARIANTS_DIR, RulesetError, get_ruleset, option_ids
from variants.schema import COMBINED_KEYS, RulesetFileError, house_from_data, parse_house, parse_ruleset_file

KITCHEN = {"turn.cannot_play": "marker-no-draw", "scoring.double_blank": 50, "doubles.dead": False}


def make(base: str = "masters+mandatory-doubles", name: str = "Kitchen table", rules: Any = None) -> hs.House:
    return hs.check(house_from_data(base, name, KITCHEN if rules is None else rules))


def test_house_rules_have_status_house_no_citation_and_keep_the_base_elsewhere() -> None:
    house = make()
    rs = hs.build(house)
    base = get_ruleset("masters+mandatory-doubles")
    assert rs.id == house.id and re.fullmatch(r"house-[a-z2-7]{12}", rs.id)
    assert rs.title == "Kitchen table" and rs.built_on == "masters+mandatory-doubles"
    changed = {k for k, r in rs.rules.items() if r.status is Status.HOUSE}
    # doubles.dead is false in masters already: no override
    assert changed == {"turn.cannot_play", "scoring.double_blank"}
    for key in changed:
        assert rs.rules[key].citations == ()
    assert rs.flags.scoring_double_blank == 50
    assert rs.flags.turn_cannot_play.value == "marker-no-draw"
    for spec in RULE_SPECS:
        if spec.key not in changed:
            assert rs.rules[spec.key] == base.rules[spec.key]


def test_the_id_comes_from_the_rules_not_the_name_nor_their_order() -> None:
    a = make(name="Kitchen table")
    b = make(name="Grandma's", rules=dict(reversed(list(KITCHEN.items()))))
    assert a.id == b.id
    # an option given in another order is the same base
    c = make(base="masters+free-bonus-turn+mandatory-doubles")
    d = make(base="masters+mandatory-doubles+free-bonus-turn")
    assert c.id == d.id != a.id
    assert make(rules={**KITCHEN, "scoring.double_blank": 25}).id != a.id


def test_the_same_value_errors_as_in_a_ruleset_file() -> None:
    """A bad value gives the same 'expected ...; found ...' in a request as in masters.yaml."""
    text = (VARIANTS_DIR / "masters.yaml").read_text(encoding="utf-8")
    bad_file = text.replace("  turn.cannot_play:\n    value: draw-one", "  turn.cannot_play:\n    value: draw-two", 1)
    assert bad_file != text
    with pytest.raises(RulesetFileError) as in_file:
        parse_ruleset_file(bad_file, "masters.yaml", "masters")
    with pytest.raises(RulesetFileError) as in_request:
        make(rules={"turn.cannot_play": "draw-two"})
    assert in_file.value.path == "rules.turn.cannot_play.value"
    assert in_request.value.reason == "rules.turn.cannot_play: expected one of 'draw-one', 'marker-no-draw', 'draw-until-playable'; found 'draw-two'"
    assert (in_file.value.expected, in_file.value.found) == (in_request.value.expected, in_request.value.found)


@pytest.mark.parametrize(("base", "name", "rules", "exc", "message"), [
    ("masters", "x", {"scoring.double_blank": 2.5}, RulesetFileError,
     "rules.scoring.double_blank: expected a whole number; found float 2.5"),
    ("masters", "x", {"doubles.dead": "yes"}, RulesetFileError, "rules.doubles.dead: expected true or false; found 'yes'"),
    ("masters", "x", {"no.such": 1}, RulesetFileError,
     "rules.no.such: expected a rule key declared in rules/ruleset.py; found unknown key 'no.such'"),
    ("masters", "x" * 61, {}, RulesetFileError, "name: expected a name of at most 60 characters; found 61 characters"),
    ("masters", "   ", {}, RulesetFileError, "name: expected a non-empty string; found an empty string"),
    ("masters", "x", [], RulesetFileError, "rules: expected a mapping; found a list"),
    ("masters", "x", {"players.count": {"min": 2, "max": 10}}, RulesetFileError,
     "rules.setup.deal: expected a hand-size row for every player count from 2 to 10 (players.count): "
     "add a row for 9, 10 or narrow players.count; found no row for 9, 10 players"),
    ("masters", "x", {"engine.missing": "set-aside-before-deal"}, RulesetFileError,
     "rules.engine.missing: expected an engine double known before the deal to set it aside (engine.tile "
     "'round-double' or 'set-highest'): use one of them or another engine.missing than 'set-aside-before-deal'; "
     "found engine.tile 'highest-held'"),
    ("howto", "x", {"rounds.count": 10}, RulesetFileError,
     "rules.rounds.count: expected at most 7 rounds with engine.tile 'round-double' (one double a round, and "
     "setup.deal has the double-6 set): use engine.tile 'set-highest' or fewer rounds; found 10 rounds"),
    ("gamerules", "x", {"setup.deal": [{"players": [3, 12], "set": 12, "tiles": 7}, {"players": [2, 2], "set": 6, "tiles": 14}]},
     RulesetFileError,
     "rules.setup.deal: expected hands that leave the engine out of the deal (engine.missing 'set-aside-before-deal'): "
     "at most 13 tiles each for 2 players from the 27 tiles of a double-6 set without its engine (row 2); "
     "found 14 tiles each"),
    ("masters", "x", {"rounds.count": 31}, RulesetFileError,
     "rules.rounds.count: expected a whole number from 2 to 30; found int 31"),
    ("masters", "x", {"rounds.count": "ten"}, RulesetFileError,
     "rules.rounds.count: expected one of 'one-per-double', 'single-game' or a whole number from 2 to 30; found 'ten'"),
    ("masters", "x", {"engine.tile": "set-hihgest"}, RulesetFileError,
     "rules.engine.tile: expected one of 'round-double', 'highest-held', 'set-highest'; found 'set-hihgest'"),
    ("masters", "x", {"scoring.going_out_bonus": 5}, RulesetFileError,
     "rules.scoring.going_out_bonus: expected a whole number from -100 to 0; found int 5"),
    ("masters", "x", {"scoring.open_double_penalty": -5}, RulesetFileError,
     "rules.scoring.open_double_penalty: expected a whole number from 0 to 100; found int -5"),
    ("masters", "x", {"scoring.marker_penalty": "25"}, RulesetFileError,
     "rules.scoring.marker_penalty: expected a whole number from 0 to 100; found '25'"),
    ("masters", "x", {"setup.deal": [{"players": [2, 4], "set": 12, "tiles": 15}, {"players": [5, 8], "set": 12, "tiles": 12}]},
     RulesetFileError, "rules.setup.deal[1].tiles: expected a hand that fits a double-12 set for 8 players; found int 12"),
    ("masters", "x", {"setup.deal": [{"players": [2, 8], "set": 12, "tiles": 15}]}, RulesetFileError,
     "rules.setup.deal[0].tiles: expected a hand that fits a double-12 set for 8 players; found int 15"),
])
def test_impossible_house_rulesets_are_refused_with_the_reason(base: str, name: str, rules: Any, exc: type,
                                                               message: str) -> None:
    with pytest.raises(exc) as info:
        make(base, name, rules)
    assert info.value.reason == message


@pytest.mark.parametrize(("base", "message"), [
    ("masterz", "unknown variant 'masterz'; known variants: cardinal, gamerules, howto, masters"),
    ("masters+free-bonus-turn", "option 'free-bonus-turn' of 'masters' requires 'mandatory-doubles': "
                                "use masters+mandatory-doubles+free-bonus-turn"),
    ("house-aaaaaaaaaaaa", None),
])
def test_the_base_is_a_published_ruleset_with_the_loaders_texts(base: str, message: str | None) -> None:
    with pytest.raises(RulesetError) as info:
        make(base=base)
    if message is not None:
        assert str(info.value) == message


def test_published_files_pass_the_combination_rules_and_a_broken_one_does_not() -> None:
    text = (VARIANTS_DIR / "masters.yaml").read_text(encoding="utf-8")
    broken = text.replace("value: {min: 2, max: 8}", "value: {min: 2, max: 9}", 1)
    with pytest.raises(RulesetFileError) as info:
        parse_ruleset_file(broken, "masters.yaml", "masters")
    assert info.value.path == "rules.setup.deal" and info.value.found == "no row for 9 players"
    assert info.value.line > 1


def test_a_published_file_may_not_claim_status_house() -> None:
    text = (VARIANTS_DIR / "masters.yaml").read_text(encoding="utf-8")
    bad = text.replace("  engine.tile:\n    value: highest-held\n    status: stated", "  engine.tile:\n    value: highest-held\n    status: house", 1)
    assert bad != text
    with pytest.raises(RulesetFileError) as info:
        parse_ruleset_file(bad, "masters.yaml", "masters")
    assert info.value.reason == "rules.engine.tile.status: expected one of 'stated', 'silent', 'ambiguous'; found 'house'"


def test_the_yaml_file_round_trips_and_is_a_ruleset_file_with_status_house() -> None:
    rs = hs.build(make(), describe=lambda key, value: f"described {key}")
    text = hs.to_yaml(rs)
    again = hs.check(parse_house(text, "kitchen.yaml"))
    assert again.id == rs.id and again.name == rs.title
    # the file lists every rule of the base, the table's own with status house, no citation, the description
    import yaml

    doc = yaml.safe_load(text)
    assert doc["id"] == rs.id and doc["base"] == "masters+mandatory-doubles" and doc["options"] == {}
    assert list(doc["rules"]) == [s.key for s in RULE_SPECS]
    own = {k: v for k, v in doc["rules"].items() if v["status"] == "house"}
    assert set(own) == {"turn.cannot_play", "scoring.double_blank"}
    assert own["scoring.double_blank"] == {"value": 50, "status": "house", "cite": [], "note": "described scoring.double_blank"}
    # the rest of the file is the base's, as a ruleset file writes it: its own file's loader reads it
    assert doc["rules"]["setup.deal"]["value"][0] == {"players": [2, 4], "set": 12, "tiles": 15}


def test_an_uploaded_file_may_not_change_a_rule_silently() -> None:
    text = hs.to_yaml(hs.build(make()))
    edited = text.replace("scoring.double_blank:\n    value: 50", "scoring.double_blank:\n    value: 40", 1)
    assert edited != text
    again = hs.check(parse_house(edited, "kitchen.yaml"))  # a house rule may be edited: new rules, new id
    assert again.overrides["scoring.double_blank"] == 40 and again.id != make().id
    sneaky = text.replace("  doubles.dead:\n    value: false\n    status: stated",
                          "  doubles.dead:\n    value: true\n    status: stated", 1)
    assert sneaky != text
    with pytest.raises(RulesetFileError) as info:
        hs.check(parse_house(sneaky, "kitchen.yaml"))
    assert info.value.path == "rules.doubles.dead.value" and info.value.line > 1
    assert "status: house" in info.value.expected


def test_a_house_file_may_not_cite_for_a_house_rule() -> None:
    text = hs.to_yaml(hs.build(make()))
    cited = text.replace("    status: house\n    cite: []", "    status: house\n    cite:\n    - {seed: a, quote: b, gloss: c}", 1)
    with pytest.raises(RulesetFileError) as info:
        hs.check(parse_house(cited, "kitchen.yaml"))
    assert "expected" in str(info.value)


def _value_strategy(key: str) -> st.SearchStrategy[Any]:
    spec = SPEC_BY_KEY[key]
    if spec.kind is ValueKind.BOOL:
        return st.booleans()
    numbers = st.integers(*spec.bounds) if spec.bounds is not None else st.integers(0, 100)
    if spec.kind is ValueKind.INT:
        return numbers
    if spec.kind is ValueKind.CHOICE_OR_NUMBER:
        assert spec.enum is not None
        return st.sampled_from([m.value for m in spec.enum]) | numbers
    if spec.kind is ValueKind.ENUM:
        assert spec.enum is not None
        return st.sampled_from([m.value for m in spec.enum])
    assert spec.kind is ValueKind.ENUM_LIST and spec.enum is not None
    return st.lists(st.sampled_from([m.value for m in spec.enum]), unique=True)


SIMPLE_KEYS = [s.key for s in RULE_SPECS if s.kind in (ValueKind.BOOL, ValueKind.INT, ValueKind.ENUM, ValueKind.ENUM_LIST,
                                                        ValueKind.CHOICE_OR_NUMBER)]


@settings(max_examples=60, deadline=None)
@pytest.mark.slow  # hypothesis over every simple key
@given(base=st.sampled_from(option_ids()),
       rules=st.dictionaries(st.sampled_from(SIMPLE_KEYS), st.none(), max_size=8).flatmap(
           lambda d: st.fixed_dictionaries({k: _value_strategy(k) for k in d})))
def test_any_values_build_a_ruleset_whose_id_is_its_content(base: str, rules: dict[str, Any]) -> None:
    try:
        house = make(base, "h", rules)
    except RulesetFileError as exc:  # only a combination rule may refuse values the schema accepts one by one
        assert exc.path.removeprefix("rules.") in COMBINED_KEYS, exc
        assume(False)
    rs = hs.build(house)
    base_rs = get_ruleset(base)
    for key, value in rules.items():
        assert hs.plain(rs.rules[key].value) == value
        assert (rs.rules[key].status is Status.HOUSE) == (hs.plain(base_rs.rules[key].value) != value)
    # the file round trip and the data round trip give the same id
    assert hs.check(parse_house(hs.to_yaml(rs), "f.yaml")).id == house.id
    assert make(base, "other", house.data()).id == house.id


def test_house_module_is_pure() -> None:
    source = Path(hs.__file__).read_text(encoding="utf-8")
    assert "django" not in source and "open(" not in source

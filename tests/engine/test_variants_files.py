"""The ruleset files: every quote is verbatim in its seed; every dimension is declared;
broken files give errors that name file, line, key path, expected and found."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.ruleset import RULE_SPECS, Status
from variants.loader import (
    SOURCES_DIR,
    RulesetError,
    base_ids,
    check_files,
    get_ruleset,
    load_base,
    option_ids,
)
from variants.schema import RulesetFileError, parse_ruleset_file

SHARED_SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"


def all_citations():
    for ident in base_ids():
        base = load_base(ident)
        for key, rule in base.rules.items():
            for c in rule.citations:
                yield f"{ident}:{key}", c
        for name, opt in base.options.items():
            for c in opt.citations:
                yield f"{ident}+{name}", c
            for key, rule in opt.changes.items():
                for c in rule.citations:
                    yield f"{ident}+{name}:{key}", c


CITATIONS = list(all_citations())


def test_the_four_rulesets() -> None:
    assert base_ids() == ("howto", "gamerules", "masters", "cardinal")
    assert check_files() == []


@pytest.mark.parametrize("where,citation", CITATIONS, ids=[f"{w}#{i}" for i, (w, _) in enumerate(CITATIONS)])
def test_quote_is_verbatim_in_its_seed(where: str, citation) -> None:
    text = (SOURCES_DIR / citation.seed).read_text(encoding="utf-8")
    assert citation.quote in text, f"{where}: quote not found verbatim in {citation.seed}"
    assert "\n" not in citation.quote
    assert citation.gloss.strip()


def test_sources_are_the_shared_seeds() -> None:
    if not SHARED_SEEDS.is_dir():
        pytest.skip(f"no shared seeds at {SHARED_SEEDS}")
    for seed in SHARED_SEEDS.glob("*.txt"):
        assert (SOURCES_DIR / seed.name).read_bytes() == seed.read_bytes(), seed.name


@pytest.mark.parametrize("ident", ["howto", "gamerules", "masters", "cardinal"])
def test_every_dimension_declared_and_flagged(ident: str) -> None:
    base = load_base(ident)
    assert list(base.rules) == [s.key for s in RULE_SPECS]
    for rule in base.rules.values():
        if rule.status is Status.SILENT:
            assert rule.reading, rule.key
        if rule.status is Status.AMBIGUOUS:
            assert rule.reading and rule.alternative and rule.citations, rule.key
        if rule.status is Status.STATED:
            assert rule.citations, rule.key


def test_howto_cites_both_translations() -> None:
    base = load_base("howto")
    seeds = {c.seed for r in base.rules.values() for c in r.citations}
    assert seeds == {"000_6fd4c4b4ba48b953.txt", "002_af9cae03ea40bc17.txt"}


def test_options_combine_and_canonicalise() -> None:
    rs = get_ruleset("masters+free-bonus-turn+mandatory-doubles")
    assert rs.id == "masters+mandatory-doubles+free-bonus-turn"
    assert rs.flags.doubles_obligation.value == "satisfy"
    assert rs.flags.doubles_follow_up.value == "any-available-train"
    assert rs.rule("doubles.follow_up").option == "free-bonus-turn"
    assert get_ruleset("masters").flags.doubles_obligation.value == "none"
    assert "masters+mandatory-doubles+free-bonus-turn+reverse-order" in option_ids()


@pytest.mark.parametrize(
    "ident,message",
    [
        ("masters+reverse-order", "option 'reverse-order' of 'masters' requires 'free-bonus-turn': "
                                  "use masters+mandatory-doubles+free-bonus-turn+reverse-order"),
        ("masters+free-bonus-turn", "option 'free-bonus-turn' of 'masters' requires 'mandatory-doubles': "
                                    "use masters+mandatory-doubles+free-bonus-turn"),
        ("masters+dead-double", "option 'dead-double' of 'masters' requires 'mandatory-doubles': "
                                "use masters+mandatory-doubles+dead-double"),
        ("cardinal+reverse-order", "'cardinal' has no option 'reverse-order'; its options: none"),
        ("spruce", "unknown variant 'spruce'; known variants: cardinal, gamerules, howto, masters"),
        ("masters+thirteen-rounds+thirteen-rounds", "option 'thirteen-rounds' is given twice in "
                                                    "'masters+thirteen-rounds+thirteen-rounds'"),
    ],
)
def test_impossible_combinations_are_refused(ident: str, message: str) -> None:
    with pytest.raises(RulesetError) as info:
        get_ruleset(ident)
    assert str(info.value) == message


GOOD = (Path(__file__).resolve().parents[2] / "variants" / "gamerules.yaml").read_text(encoding="utf-8")


def broken(old: str, new: str) -> str:
    assert old in GOOD, old
    return GOOD.replace(old, new, 1)


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


@pytest.mark.parametrize(
    "text,expected",
    [
        (broken("    value: one\n", "    value: chains\n"),
         "variants/gamerules.yaml:{line}: rules.first_turn.tiles.value: expected one of 'one', 'chain'; found 'chains'"),
        (broken("  turn.must_play:\n    value: true", "  turn.must_play:\n    value: 3"),
         "variants/gamerules.yaml:{line}: rules.turn.must_play.value: expected true or false; found int 3"),
        (broken("    value: 50\n", "    value: fifty\n"),
         "variants/gamerules.yaml:{line}: rules.scoring.double_blank.value: expected a whole number; found 'fifty'"),
        (broken("  turn.must_play:\n", "  turn.must_pay:\n"),
         "variants/gamerules.yaml:{line}: rules.turn.must_pay: expected a rule key declared in rules/ruleset.py; "
         "found unknown key 'turn.must_pay'"),
        (broken("id: gamerules", "id: gamerule"),
         "variants/gamerules.yaml:{line}: id: expected the file's name 'gamerules'; found 'gamerule'"),
    ],
    ids=["enum", "bool", "int", "unknown-key", "id"],
)
def test_broken_file_errors_name_file_line_path_expected_found(text: str, expected: str) -> None:
    with pytest.raises(RulesetFileError) as info:
        parse_ruleset_file(text, "variants/gamerules.yaml", "gamerules")
    err = info.value
    assert str(err) == expected.format(line=err.line)
    # the line named is where the offending text is
    offending = text.splitlines()[err.line - 1]
    assert any(part in offending for part in ("chains", "3", "fifty", "must_pay", "gamerule"))


def test_missing_rule_is_named() -> None:
    lines = GOOD.splitlines(keepends=True)
    start = next(i for i, l in enumerate(lines) if l.startswith("  turn.announce_last_tile:"))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("  ") and not lines[i].startswith("    "))
    text = "".join(lines[:start] + lines[end:])
    with pytest.raises(RulesetFileError) as info:
        parse_ruleset_file(text, "variants/gamerules.yaml", "gamerules")
    assert str(info.value) == (
        f"variants/gamerules.yaml:{line_of(text, 'rules:') + 1}: rules.turn.announce_last_tile: "
        "expected every rule key declared (the digest's dimensions); found it missing")


@pytest.mark.parametrize("key,field,expected", [
    ("first_turn.tiles", "reading", "the reading assumed for a silent rule"),
    ("doubles.follow_up", "alternative", "the other reading of an ambiguous rule"),
])
def test_silent_and_ambiguous_rules_need_their_readings(key: str, field: str, expected: str) -> None:
    lines = GOOD.splitlines(keepends=True)
    rule = lines.index(f"  {key}:\n")
    dropped = next(i for i in range(rule, len(lines)) if lines[i].startswith(f"    {field}:"))
    text = "".join(lines[:dropped] + lines[dropped + 1:])
    with pytest.raises(RulesetFileError) as info:
        parse_ruleset_file(text, "variants/gamerules.yaml", "gamerules")
    assert str(info.value) == f"variants/gamerules.yaml:{rule + 2}: rules.{key}.{field}: expected {expected}; found it missing"


def test_yaml_syntax_error_names_the_line() -> None:
    text = broken("    value: one\n", "    value: [one\n")
    with pytest.raises(RulesetFileError) as info:
        parse_ruleset_file(text, "variants/gamerules.yaml", "gamerules")
    assert str(info.value).startswith("variants/gamerules.yaml:")
    assert "expected valid YAML" in str(info.value)


def test_unsafe_yaml_tags_are_refused() -> None:
    text = broken("    value: one\n", "    value: !!python/object/apply:os.system ['true']\n")
    with pytest.raises(RulesetFileError):
        parse_ruleset_file(text, "variants/gamerules.yaml", "gamerules")


def test_unsafe_scalar_tag_is_refused_with_a_message() -> None:
    text = broken("    value: one\n", "    value: !!python/name:os.system\n")
    with pytest.raises(RulesetFileError) as info:
        parse_ruleset_file(text, "variants/gamerules.yaml", "gamerules")
    assert "found a value tagged tag:yaml.org,2002:python/name:os.system" in str(info.value)


@pytest.mark.parametrize("label_line, found", [
    ("", "it missing"),
    ('    label: ""\n', "an empty string"),
    ("    label: 12\n", "int 12"),
])
def test_an_option_needs_a_label_for_players(label_line: str, found: str) -> None:
    """Every option names itself for players: ``label``, a non-empty string beside it in the file."""
    text = GOOD.replace('    label: "Doubles satisfied in either order"\n', label_line)
    assert text != GOOD
    with pytest.raises(RulesetFileError) as info:
        parse_ruleset_file(text, "variants/gamerules.yaml", "gamerules")
    err = info.value
    expected = "a non-empty string" if label_line == '    label: ""\n' else "a string" if label_line else "this key"
    assert str(err) == (f"variants/gamerules.yaml:{err.line}: options.reverse-order.label: "
                        f"expected {expected}; found {found}")


def test_every_option_has_its_label() -> None:
    for ident in base_ids():
        for name, option in load_base(ident).options.items():
            assert option.label.strip() and option.label != name, (ident, name)

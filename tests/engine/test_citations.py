"""A reason cites the sentence that states its rule, or says that the source is silent and gives
the reading (issue 24).

Every reason names a rule key; the answer shows that rule's citations beside it. For every
ruleset and option, over every reason the engine can give: the rule exists; a rule the source
states is backed by citations, each a verbatim sentence of the seed whose English gloss speaks of
what the rule decides (the words of :data:`SUBJECT`); a rule the source leaves silent or
ambiguous carries its reading, and the answer's ``rules`` entry says so. A sentence that is only
near the rule ("(There) are a lot of extended variants for playing doubles." for "an open double
need not be satisfied first") fails."""

from __future__ import annotations

import re

import pytest

from rules.answer import rule_json
from rules.reasons import ReasonCode
from rules.ruleset import Citation, Ruleset, Status
from variants.loader import get_ruleset, option_ids, seed_text

SUBJECT: dict[str, str] = {
    "doubles.dead": r"cannot be closed|matching that double|no longer restrict|ignored",
    "doubles.follow_up": r"double|another turn|any legal position|any (of the )?(available )?trains?( available)?",
    "doubles.obligation": r"satisf|open double|none of the other trains|played against|other available trains are ignored"
                          r"|even if",
    "doubles.order": r"\border\b",
    "doubles.per_turn": r"double",
    "doubles.play_again": r"another turn|second domino|third domino|another tile|doubles in a row",
    "first_turn.cannot_start": r"cannot (start|play)|first turn|boneyard|draws a domino",
    "first_turn.doubles_apply": r"first turn|second turn",
    "first_turn.going_out": r"first turn|round ends|all his dominoes|game end",
    "first_turn.tiles": r"first turn|only one (tile|domino)|as many dominoes|more dominoes|extending",
    "first_turn.trains": r"train|then either|two options|first turn|second turn",
    "markers.placed": r"marker",
    "markers.removed": r"marker|could not play",
    "players.count": r"players",
    "round_end.last_tile_double": r"final domino|last (tile|domino)|all (his|their) dominoes|round ends|game ends",
    "scoring.double_blank": r"double-blank|pips|dots",
    "scoring.going_out_bonus": r"goes out|bonus",
    "scoring.marker_penalty": r"marker",
    "scoring.open_double_penalty": r"double",
    "turn.cannot_play": r"cannot|unable|boneyard|takes a domino",
    "turn.drawn_tile_only": r"draw|boneyard|play (the|this) domino",
    "turn.empty_boneyard_pass": r"boneyard",
    "turn.marked_trains_open": r"marker|marked|available for use by all",
    "turn.matching_ends": r"match|must start with a domino|valid train",
    "turn.mexican_open": r"mexican train|any player",
    "turn.must_play": r"must|if possible|otherwise",
    "turn.other_trains_before_own": r"own train",
    "turn.own_train_first": r"own train|personal train|any of the trains|any open train|trains is available",
}
"""What a gloss of each rule speaks of (a regular expression, case-insensitive): one of these words
is in every sentence that states the rule."""

RULES_NAMED = sorted({code.rule for code in ReasonCode if code.rule is not None})
RULESETS = tuple(get_ruleset(i) for i in option_ids())


def belongs(key: str, citation: Citation) -> bool:
    """Whether the cited sentence speaks of what the rule ``key`` decides."""
    return re.search(SUBJECT[key], citation.gloss, re.IGNORECASE) is not None


def test_every_rule_a_reason_names_has_its_subject() -> None:
    assert sorted(SUBJECT) == RULES_NAMED


@pytest.mark.parametrize("ruleset", RULESETS, ids=[rs.id for rs in RULESETS])
def test_every_reasons_citation_belongs_to_its_rule(ruleset: Ruleset) -> None:
    for key in RULES_NAMED:
        found = ruleset.rules.get(key)
        assert found is not None, f"{ruleset.id}: no rule {key}, which a reason names"
        where = f"{ruleset.id} {key} ({found.status.value})"
        if found.status is Status.STATED:
            assert found.citations, f"{where}: stated without a citation"
        else:
            assert found.reading, f"{where}: no reading"
            entry = rule_json(ruleset, key)
            assert entry["status"] == found.status.value and entry["reading"] == found.reading, where
        for c in found.citations:
            assert c.quote in seed_text(c.seed), f"{where}: not a verbatim sentence of {c.seed}: {c.quote!r}"
            if found.status is Status.STATED:
                assert belongs(key, c), f"{where}: {c.gloss!r} does not say what the rule decides"


def test_a_sentence_only_near_the_rule_fails() -> None:
    """The citation masters once gave for "an open double need not be satisfied first"."""
    near = Citation("003_d192915f30379178.txt", "sono un sacco di varianti estese per giocare in doppio.",
                    "(There) are a lot of extended variants for playing doubles.")
    assert not belongs("doubles.obligation", near)


def test_the_answer_says_a_rule_is_stated() -> None:
    stated = next(rs for rs in RULESETS if rs.rules["turn.matching_ends"].status is Status.STATED)
    assert "status" not in rule_json(stated, "turn.matching_ends")

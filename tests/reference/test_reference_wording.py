"""The generated summaries: every dimension, every value has a sentence, traits from data,
and every sentence goes through the translation catalogue."""

from __future__ import annotations

import dataclasses
import html
from types import MappingProxyType

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import translation
from reference_html import LANGUAGES, parse

from mextrain_site.core import engine_messages
from mextrain_site.core.i18n import LABEL_CONTEXT
from mextrain_site.reference import rule_views, wording
from mextrain_site.reference.traits import distinctive_traits
from rules.reasons import ReasonCode
from rules.ruleset import RULE_SPECS, DoubleObligation, ValueKind, Worded
from variants.loader import all_rulesets, get_ruleset, option_ids


@pytest.mark.parametrize("ident", option_ids())
def test_summary_mentions_every_dimension(client: Client, ident: str) -> None:
    doc = parse(client.get(f"/en/variants/{ident}/").content)
    for spec in RULE_SPECS:
        node = doc.by_id(f"rule-{spec.key}")
        assert node is not None, spec.key
        assert node.attrs["data-rule"] == spec.key
        statement = node.find(cls="statement") or node.find(cls="rule-value")  # a short value stays on the rule's line
        assert statement is not None and statement.text.strip(), spec.key
    rules = [n for n in doc.find_all("article", cls="rule")]
    assert len(rules) == len(RULE_SPECS)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_summary_mentions_every_dimension_in_every_language(client: Client, lang: str) -> None:
    doc = parse(client.get(f"/{lang}/variants/masters/").content)
    assert [n.attrs["data-rule"] for n in doc.find_all("article", cls="rule")] == [s.key for s in RULE_SPECS]


def test_summary_sections_follow_the_game() -> None:
    titles = [title for _, title, _ in rule_views.grouped_specs()]
    assert titles == ["Setup", "The start", "The first turn", "A normal turn", "Doubles", "End of round and scoring"]
    keys = [s.key for _, _, specs in rule_views.grouped_specs() for s in specs]
    assert sorted(keys) == sorted(s.key for s in RULE_SPECS)


def test_every_rule_is_worded_beside_its_declaration() -> None:
    """The label, and a sentence for each value, sit on the RuleSpec or its enum members."""
    for spec in RULE_SPECS:
        assert spec.label and spec.description, spec.key
        if spec.kind is ValueKind.BOOL:
            assert spec.sentence(True) and spec.sentence(False) and spec.when_true != spec.when_false, spec.key
        elif spec.kind in (ValueKind.ENUM, ValueKind.ENUM_LIST):
            assert spec.enum is not None and issubclass(spec.enum, Worded), spec.key
            assert all(m.sentence for m in spec.enum), spec.key
            assert len({m.sentence for m in spec.enum}) == len(spec.enum), spec.key
        elif spec.kind is ValueKind.INT and not spec.when_number:
            assert spec.key == "scoring.double_blank", f"{spec.key}: add a sentence to value_html()"
        if spec.kind in (ValueKind.INT, ValueKind.CHOICE_OR_NUMBER) and spec.key != "scoring.double_blank":
            assert spec.when_number and "{n}" in spec.when_number and spec.bounds and spec.examples, spec.key
            assert all(spec.sentence(n) for n in spec.examples), spec.key


def test_a_choice_without_its_sentence_cannot_be_declared() -> None:
    with pytest.raises(TypeError):
        Worded("Unworded", [("YES", "yes")])  # a member with a value but no sentence


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_value_is_worded_in_every_language(lang: str) -> None:
    with translation.override(lang):
        for spec in RULE_SPECS:
            words = [spec.label] + [s for s in (spec.when_true, spec.when_false, spec.when_zero, spec.when_number) if s]
            words += [m.sentence for m in spec.enum or ()]
            assert translation.pgettext(LABEL_CONTEXT, spec.label) != spec.label or lang == "en", spec.key
            for english in words[1:]:
                assert translation.gettext(english) != english or lang == "en", (lang, english)


def test_every_sentence_of_every_ruleset_is_generated_not_a_fallback() -> None:
    for ident in option_ids():
        rs = get_ruleset(ident)
        for spec in RULE_SPECS:
            html = wording.value_html(spec.key, rs.rule(spec.key).value)
            assert not html.startswith(wording.bdi(wording.label(spec.key)) + ":"), (ident, spec.key)


def test_a_value_without_a_sentence_is_shown_plainly() -> None:
    html = wording.value_html("doubles.order", "sideways")
    assert html == '<bdi dir="ltr">Order of open doubles</bdi>: <bdi dir="ltr">sideways</bdi>'


def test_descriptions_from_rules_are_in_the_catalogue_list() -> None:
    """rules/ holds the English; engine_messages.py must list each one for makemessages."""
    messages = set(engine_messages.MESSAGES)
    assert {s.description for s in RULE_SPECS} <= messages
    assert {m.sentence for s in RULE_SPECS for m in s.enum or ()} <= messages
    assert {w for s in RULE_SPECS for w in (s.when_true, s.when_false, s.when_zero, s.when_number) if w} <= messages
    assert [str(label) for label in engine_messages.LABELS] == [s.label for s in RULE_SPECS]
    assert {c.description for c in ReasonCode} | {c.template for c in ReasonCode} <= messages
    assert call_command("engine_messages", "--check") is None  # exits 1 when the file is stale


def test_summary_follows_the_data() -> None:
    """A change in a ruleset's data changes its summary: nothing is written per ruleset."""
    rs = get_ruleset("masters")
    before = rule_views.summary(rs)
    rule = rs.rule("doubles.obligation")
    changed_rules = dict(rs.rules)
    changed_rules["doubles.obligation"] = dataclasses.replace(rule, value=type(rule.value)("satisfy"))
    changed = dataclasses.replace(rs, rules=MappingProxyType(changed_rules))
    after = rule_views.summary(changed)

    def statement(sections: list[rule_views.Section]) -> str:
        return next(str(r.value) for s in sections for r in s.rules if r.key == "doubles.obligation")

    assert statement(before) == DoubleObligation.NONE.sentence
    assert statement(after) == DoubleObligation.SATISFY.sentence


def test_numbers_are_isolated_left_to_right() -> None:
    html = wording.value_html("players.count", get_ruleset("howto").flags.players_count)
    assert '<bdi dir="ltr">2</bdi>' in html and '<bdi dir="ltr">14</bdi>' in html


def test_free_text_is_worded_in_the_page_language() -> None:
    assert wording.value_html("setup.equipment", "A hub & markers") == "A hub &amp; markers"
    equipment = get_ruleset("cardinal").flags.setup_equipment
    with translation.override("it"):
        assert wording.value_html("setup.equipment", equipment) == html.escape(translation.gettext(equipment), quote=False)
        assert "tessere" in wording.value_html("setup.equipment", equipment)


# -- traits ----------------------------------------------------------------------------------------


def test_traits_are_three_or_four_rare_values_from_the_data() -> None:
    rulesets = all_rulesets()
    traits = distinctive_traits(rulesets)
    for rs in rulesets:
        picked = traits[rs.id]
        assert 3 <= len(picked) <= 4, rs.id
        others = [o for o in rulesets if o.id != rs.id]
        for t in picked:
            shared = sum(1 for o in others if o.rule(t.view.key).value == rs.rule(t.view.key).value)
            assert t.shared_with == shared
            assert shared * 2 < len(others), (rs.id, t.view.key)  # not held by most others
            assert t.view.spec.kind not in (ValueKind.TEXT, ValueKind.DEAL_TABLE, ValueKind.PLAYER_RANGE)


def test_traits_prefer_values_nobody_else_holds() -> None:
    traits = distinctive_traits(all_rulesets())
    # masters alone starts from the highest double held and plays a single game
    assert {"engine.tile", "rounds.count"} <= {t.view.key for t in traits["masters"]}
    # cardinal alone makes a player add to the own train first
    assert "turn.own_train_first" in {t.view.key for t in traits["cardinal"]}
    for picked in traits.values():
        assert len({t.view.spec.section for t in picked}) >= 3  # different aspects of the game


def test_traits_change_with_the_data() -> None:
    rulesets = list(all_rulesets())
    masters = rulesets[[r.id for r in rulesets].index("masters")]
    # give every other ruleset masters' engine rule: it is no longer a trait of masters
    twins = []
    for rs in rulesets:
        if rs.id != "masters":
            rules = dict(rs.rules)
            rules["engine.tile"] = masters.rule("engine.tile")
            rs = dataclasses.replace(rs, rules=MappingProxyType(rules))
        twins.append(rs)
    traits = distinctive_traits(twins)
    assert "engine.tile" not in {t.view.key for t in traits["masters"]}


# -- translation -----------------------------------------------------------------------------------


def test_sentences_labels_and_descriptions_go_through_the_catalogue(client: Client) -> None:
    """The Hungarian page shows the Hungarian catalogue's sentence, label, description and plural."""
    sentence = DoubleObligation.NONE.sentence
    description = next(s.description for s in RULE_SPECS if s.key == "doubles.obligation")
    with translation.override("hu"):
        hu_sentence = translation.gettext(sentence)
        hu_label = translation.pgettext("rule dimension", "Open doubles")
        hu_description = translation.gettext(description)
        hu_assumed = translation.gettext("Not stated by this source; assumed:")
    assert len({sentence, hu_sentence}) == 2 and hu_label != "Open doubles" and hu_description != description
    hu = client.get("/hu/variants/masters/").content.decode()
    en = client.get("/en/variants/masters/").content.decode()
    which = client.get("/hu/which/?key=doubles.obligation").content.decode()
    translation.activate("en")
    rule_text = parse(hu).by_id("rule-doubles.obligation").text  # type: ignore[union-attr]
    assert sentence not in rule_text
    assert html.escape(hu_label) in hu or hu_label in hu
    assert hu_assumed in hu or html.escape(hu_assumed) in hu
    assert hu_description in which or html.escape(hu_description) in which
    assert sentence in en and hu_sentence not in en

"""A reading says what is assumed and why; the rule's status already says the source is silent.

Every place that shows a reading puts the status before it: the referee's verdict ("The source
says nothing on this; the ruleset assumes: …"), the ruleset page (the flag "Not stated by this
source; assumed: …", then "The assumption: …") and the API (``"status": "silent"`` beside
``"reading"``). A reading that opens by saying the same again ("Not stated by this source;
assumed that …") reads twice in one line. Checked in each language as the pages show it."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.utils import translation

from rules.ruleset import Rule, Status

LABELS = ("Not stated by this source; assumed:", "The source says nothing on this; the ruleset assumes:")
"""What the pages put before a silent rule's value or reading (``templates/reference/_rule.html``,
``mextrain_site/referee/ruling_html.py``)."""

OPENINGS = {
    "en": ("not stated", "not specified", "not said", "not mentioned", "unstated", "silent", "assumed",
           "it is assumed", "the ruleset assumes", "the source says nothing", "the source is silent",
           "this source says nothing", "this source does not say", "nothing in this source"),
    "he": ("המקור הזה אינו קובע", "המקור אינו קובע", "המקור הזה אינו מציין", "ההנחה היא", "הנחה"),
    "hu": ("ez a forrás nem mondja ki", "ez a forrás külön nem mondja ki", "a forrás nem mondja ki",
           "a forrás hallgat", "feltételezzük", "feltételezés"),
    "ky": ("бул булакта айтылбайт", "бул булакта өзүнчө айтылбайт", "бул булакта айтылган эмес",
           "булакта айтылбайт", "божомол"),
    "it": ("non detto", "non indicat", "la fonte non ne parla", "si presume", "presunt", "ipotesi"),
    "el": ("δεν το λέει", "δεν αναφέρεται σε αυτή την πηγή", "η πηγή δεν λέει", "θεωρείται", "υπόθεση"),
}
"""Openings that restate the status, per language: the old readings' openings ("Not stated by this
source;", "Ez a forrás nem mondja ki;", "Бул булакта айтылбайт;", "Non detto da questa fonte;",
"Δεν το λέει αυτή η πηγή·", "המקור הזה אינו קובע;") and each language's word for "assumed"."""

BIDI = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def words(text: str, n: int) -> list[str]:
    return re.findall(r"\w+", BIDI.sub("", text).casefold())[:n]


def plain(text: str) -> str:
    return " ".join(words(text, 1000))


def readings() -> list[tuple[str, Rule]]:
    """Every silent or ambiguous rule of every base ruleset and of every option's changes, with
    where it is written."""
    from variants.loader import base_ids, load_base

    out: list[tuple[str, Rule]] = []
    for ident in base_ids():
        base = load_base(ident)
        out += [(f"{ident} {key}", rule) for key, rule in base.rules.items()]
        for name, option in base.options.items():
            out += [(f"{ident}+{name} {key}", rule) for key, rule in option.changes.items()]
    return [(where, rule) for where, rule in out if rule.status in (Status.SILENT, Status.AMBIGUOUS)]


def test_every_silent_rule_has_a_reading() -> None:
    found = readings()
    assert sum(rule.status is Status.SILENT for _, rule in found) > 40
    assert all(rule.reading for _, rule in found)


@pytest.mark.parametrize("lang", [code for code, _ in settings.LANGUAGES])
def test_readings_do_not_restate_the_status(lang: str) -> None:
    """A reading opens with the assumption or its grounds, with a capital letter: neither with the
    first two words of a label the pages put before it, nor with an opening that says again that
    the source is silent."""
    from mextrain_site.core.i18n import ruleset_text

    assert set(OPENINGS) == {code for code, _ in settings.LANGUAGES}
    bad: list[tuple[str, str]] = []
    with translation.override(lang):
        labels = [words(translation.gettext(label), 2) for label in LABELS]
        openings = [plain(opening) for opening in OPENINGS[lang]]
        for where, rule in readings():
            shown = BIDI.sub("", ruleset_text(rule.reading)).lstrip()
            first = plain(shown)
            if (words(shown, 2) in labels or any(first.startswith(opening) for opening in openings)
                    or shown[:1].islower()):
                bad.append((where, shown))
    assert not bad, f"{lang}: {len(bad)} readings restate that the source is silent, e.g. {bad[:3]}"

"""The API's answer is assembled from encoded fragments (rules.answer.answer_bytes): it must be
``orjson.dumps(answer(...))`` byte for byte, for every detail, in every language, for positions
cut from self-play under each ruleset and for every case of the position files; and the API sends
exactly those bytes.

The whole corpus is judged in one language (:data:`FULL`); each other language judges a slice of it,
the slices taking turns so that together they cover the whole corpus again: every position is judged
in two languages, and every language on a few hundred answers."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache

import orjson
import pytest
from django.test import Client
from django.utils import translation

from bench.loadtest import TYPICAL_POSITION
from mextrain_site.core.i18n import WORDING
from mextrain_site.core.referee import adjudicate, parse
from rules.answer import Detail, answer, answer_bytes
from rules.errors import InputError
from rules.position import MoveLine
from rules.simulate import NAMES, play_round
from tests.languages import BIDI, LANGUAGES
from tests.test_positions import load_cases
from variants.loader import base_ids, get_ruleset

from .conftest import NO_STATIC_ROOT_WARNING

pytestmark = pytest.mark.slow  # the whole corpus through the API: make test, not make test-fast

FULL = "he"
"""The language that judges the whole corpus: a translated one (the answer is worded from the
catalogue, the path English does not take), right to left, with three plural forms."""


@cache
def self_play_positions() -> tuple[str, ...]:
    """Positions cut from a round of self-play under each ruleset, every few moves: all hands
    known, only the mover's hand known, and asking about the move played next."""
    out = []
    for ident in base_ids():
        log = play_round(get_ruleset(ident), NAMES[:4], 1, random.Random(7), check=False, seed=7)
        step = max(1, len(log.moves) // 6)
        for k in range(0, len(log.moves) + 1, step):
            cut = replace(log.deal, moves=tuple(MoveLine(m) for m in log.moves[:k]))
            out.append(cut.format())
            out.append(replace(cut, hands=cut.hands[:1], boneyard=cut.boneyard_count).format())
            if k < len(log.moves):
                out.append(replace(cut, check=log.moves[k]).format())
    return tuple(out)


def positions() -> list[str]:
    return [TYPICAL_POSITION, *self_play_positions(), *(c.text for c in load_cases())]


def corpus(language: str) -> list[str]:
    """The whole corpus in :data:`FULL`; in each other language every n-th position, from its own
    offset, so that the other languages' slices together are the whole corpus."""
    if language == FULL:
        return positions()
    others = [code for code in LANGUAGES if code != FULL]
    return positions()[others.index(language)::len(others)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_answer_bytes_are_the_encoded_answer(language: str) -> None:
    translate = None if language == "en" else WORDING
    compared = 0
    texts = corpus(language)
    with translation.override(language):
        for text in texts:
            try:
                request = parse(text)
            except InputError:
                continue
            for detail in Detail:
                # twice: the first words what is new, the second is assembled from what was worded
                for _ in range(2):
                    expected = orjson.dumps(answer(request.position, request.rulesets, translate, detail))
                    got = answer_bytes(request.position, request.rulesets, orjson.dumps, translate, detail)
                    assert got == expected, (language, detail, text)
                compared += 1
    assert compared > 300 * len(texts) // len(positions())


@NO_STATIC_ROOT_WARNING
@pytest.mark.parametrize("language", BIDI)
def test_the_api_sends_the_encoded_answer(client: Client, language: str) -> None:
    for text in (TYPICAL_POSITION, *self_play_positions()[::5]):
        r = client.post("/api/adjudicate", text, content_type="text/plain", HTTP_ACCEPT_LANGUAGE=language)
        assert r.status_code == 200, r.content[:300]
        with translation.override(language):
            expected = orjson.dumps(adjudicate(text, translate=None if language == "en" else WORDING))
        assert r.content == expected


def test_interned_judgements_are_found_by_identity_and_survive_resets(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine makes each distinct judgement of a play once (so the answer finds its words by
    identity); with tiny limits every table is dropped again and again, and the answers stay the same."""
    from rules import answer as answer_module
    from rules import explain as explain_module
    from rules.answer import rule

    request = parse(TYPICAL_POSITION)
    first = rule(request.position, request.rulesets[0]).actions
    again = rule(request.position, request.rulesets[0]).actions
    assert first == again and all(a is b for a, b in zip(first, again))
    monkeypatch.setattr(explain_module, "_INTERN_LIMIT", 40)
    monkeypatch.setattr(answer_module, "_WORDED_LIMIT", 30)
    for text in (TYPICAL_POSITION, *self_play_positions()[::3]) * 2:
        request = parse(text)
        expected = orjson.dumps(answer(request.position, request.rulesets))
        assert answer_bytes(request.position, request.rulesets, orjson.dumps) == expected, text

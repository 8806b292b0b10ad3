"""The rulesets as JSON-friendly data, for ``GET /api/variants`` and ``GET /api/variants/<id>``.

Pure functions of the frozen rulesets (loaded once per process by ``variants.loader``); the
results are cached because the rulesets never change while the process runs.
"""

from __future__ import annotations

import functools
from typing import Any

from django.utils.translation import gettext

from mextrain_site.core.i18n import ruleset_text
from mextrain_site.core.rulesets import resolve
from rules.ruleset import (
    RULE_SPECS,
    SPEC_BY_KEY,
    Citation,
    OptionSpec,
    Rule,
    Ruleset,
    Source,
    ValueKind,
)
from variants.house import file_value, is_house_id
from variants.loader import base_ids, get_ruleset, option_ids


def citation_json(c: Citation) -> dict[str, str]:
    """A citation with its gloss and remark in the active language."""
    out = c.as_json()
    out.update((field, ruleset_text(out[field])) for field in ("gloss", "remark") if field in out)
    return out


def source_json(s: Source) -> dict[str, str]:
    return {"seed": s.seed, "language": s.language, "direction": s.direction}


def option_json(o: OptionSpec) -> dict[str, Any]:
    return {
        "id": o.name,
        "summary": ruleset_text(o.summary),
        "requires": list(o.requires),
        "conflicts": list(o.conflicts),
        "citations": [citation_json(c) for c in o.citations],
        "changes": list(o.changes),
    }


def rule_json(r: Rule) -> dict[str, Any]:
    spec = SPEC_BY_KEY.get(r.key)
    return {
        "key": r.key,
        "section": spec.section if spec else r.key.split(".", 1)[0],
        "description": gettext(spec.description) if spec else "",
        "value": ruleset_text(r.value) if spec and spec.kind is ValueKind.TEXT else file_value(r.value),
        "status": r.status.value,
        "citations": [citation_json(c) for c in r.citations],
        "note": ruleset_text(r.note),
        "reading": ruleset_text(r.reading),
        "alternative": ruleset_text(r.alternative),
        "option": r.option,
    }


def _summary(rs: Ruleset) -> dict[str, Any]:
    return {
        "id": rs.id,
        "base": rs.base,
        "title": ruleset_text(rs.title),
        "publisher": rs.publisher,
        "sources": [source_json(s) for s in rs.sources],
    }


@functools.cache
def catalogue(language: str) -> dict[str, Any]:
    """Every ruleset file with the options it declares, and the canonical option ids; its texts in
    ``language`` (the active language, which the caller passes to key the cache)."""
    variants = []
    for ident in base_ids():
        rs = get_ruleset(ident)
        variants.append({**_summary(rs), "options": [option_json(o) for o in rs.available_options.values()]})
    return {"variants": variants, "option_ids": list(option_ids())}


def ruleset_detail(canonical_id: str, language: str) -> dict[str, Any]:
    """One ruleset, options applied: every declared rule with its citations, in the order of
    RULE_SPECS; its texts in ``language`` (the active language, passed to key the cache).
    A house ruleset's is made from its stored row each time (a published one's once per language)."""
    if is_house_id(canonical_id):
        return detail(resolve(canonical_id))
    return _published_detail(canonical_id, language)


@functools.lru_cache(maxsize=64 * 6)
def _published_detail(canonical_id: str, language: str) -> dict[str, Any]:
    return detail(get_ruleset(canonical_id))


def detail(rs: Ruleset) -> dict[str, Any]:
    order = {spec.key: i for i, spec in enumerate(RULE_SPECS)}
    rules = sorted(rs.rules.values(), key=lambda r: (order.get(r.key, len(order)), r.key))
    extra = {"built_on": rs.built_on} if rs.built_on else {}
    return {
        **_summary(rs),
        **extra,
        "options": list(rs.options),
        "available_options": [option_json(o) for o in rs.available_options.values()],
        "rules": [rule_json(r) for r in rules],
    }

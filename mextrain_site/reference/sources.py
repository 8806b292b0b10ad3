"""The source texts, with every cited quote anchored and highlighted.

A quote's anchor is derived from the quote itself (``q-`` and the start of its SHA-1), so a
citation link stays valid however the ruleset files are reordered. The sources page wraps the
first occurrence of each cited quote in ``<mark id="q-…">``; quotes that lie inside other quotes
nest inside their marks.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass, field

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

from mextrain_site.core.i18n import ruleset_text
from rules.ruleset import Citation, Source
from variants.loader import base_ids, load_base, seed_text


def anchor_for(quote: str) -> str:
    """The stable id of a quoted passage."""
    return "q-" + hashlib.sha1(quote.strip().encode("utf-8")).hexdigest()[:12]


@dataclass(frozen=True)
class CitedBy:
    ruleset: str
    key: str
    """A rule key, or "" when the source is cited for an option as a whole."""
    option: str = ""


@dataclass
class Quote:
    text: str
    gloss: str
    anchor: str
    cited_by: list[CitedBy] = field(default_factory=list)
    start: int = -1
    """Where the quote first occurs in the text; -1 when it does not occur."""


@dataclass(frozen=True)
class SourceInfo:
    seed: str
    language: str
    direction: str
    rulesets: tuple[str, ...]


@functools.cache
def sources() -> dict[str, SourceInfo]:
    """Every seed some ruleset rests on, by seed, in seed order."""
    found: dict[str, tuple[Source, list[str]]] = {}
    for ident in base_ids():
        for src in load_base(ident).sources:
            entry = found.setdefault(src.seed, (src, []))
            entry[1].append(ident)
    return {
        seed: SourceInfo(seed, src.language, src.direction, tuple(users))
        for seed, (src, users) in sorted(found.items())
    }


def _all_citations(ident: str) -> list[tuple[Citation, CitedBy]]:
    base = load_base(ident)
    out = [(c, CitedBy(ident, key)) for key, rule in base.rules.items() for c in rule.citations]
    for name, spec in base.options.items():
        out.extend((c, CitedBy(ident, "", name)) for c in spec.citations)
        for key, rule in spec.changes.items():
            out.extend((c, CitedBy(ident, key, name)) for c in rule.citations)
    return out


@functools.cache
def quotes(seed: str) -> tuple[Quote, ...]:
    """Every quote cited from one seed, in the order it occurs in the text."""
    text = seed_text(seed)
    by_text: dict[str, Quote] = {}
    for ident in base_ids():
        for cite, who in _all_citations(ident):
            if cite.seed != seed:
                continue
            q = by_text.get(cite.quote)
            if q is None:
                q = by_text[cite.quote] = Quote(cite.quote, cite.gloss, anchor_for(cite.quote), start=text.find(cite.quote))
            if who not in q.cited_by:
                q.cited_by.append(who)
    return tuple(sorted(by_text.values(), key=lambda q: (q.start, -len(q.text))))


@dataclass(eq=False)
class _Span:
    """Where a quote's mark opens and closes in the text; widened in place when marks overlap."""

    start: int
    end: int
    quote: Quote


@functools.cache
def marked_text(seed: str, language: str) -> SafeString:
    """The text of a seed, escaped, with each cited quote in a <mark id=…> whose title is the
    quote's rendering in ``language`` (the active language, passed to key the cache), shown on
    hover and, for a phone, on a tap (the mark takes focus)."""
    text = seed_text(seed)
    spans = [_Span(q.start, q.start + len(q.text), q) for q in quotes(seed) if q.start >= 0]
    # Marks must nest. A quote that overlaps another only in part (none does today) is widened
    # to enclose it, so its mark still contains the whole quote.
    changed = True
    while changed:
        changed = False
        for a in spans:
            for b in spans:
                if a is not b and a.start < b.start < a.end < b.end:
                    b.start = a.start
                    changed = True
    spans.sort(key=lambda s: (s.start, -s.end))
    out: list[str] = []
    stack: list[_Span] = []
    pos = 0

    def close_until(limit: int) -> None:
        nonlocal pos
        while stack and stack[-1].end <= limit:
            top = stack.pop()
            out.append(escape(text[pos:top.end]))
            out.append("</mark>")
            pos = top.end

    for span in spans:
        close_until(span.start)
        out.append(escape(text[pos:span.start]))
        pos = span.start
        # focusable, so that a tap shows the rendering where no pointer hovers (mextrain.css)
        out.append(format_html('<mark id="{}" title="{}" tabindex="0">', span.quote.anchor, ruleset_text(span.quote.gloss)))
        stack.append(span)
    close_until(len(text))
    out.append(escape(text[pos:]))
    return mark_safe("".join(out))

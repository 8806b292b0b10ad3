"""Every citation link lands on a highlighted quote: follow the link, find the <mark id=…>
that contains the quote's text."""

from __future__ import annotations

import functools
from urllib.parse import urlsplit

import pytest
from django.test import Client
from reference_html import LANGUAGES, Node, parse

from mextrain_site.reference.sources import anchor_for, marked_text, quotes, sources
from rules.ruleset import Citation
from variants.loader import base_ids, load_base, option_ids, seed_text


@functools.cache
def _source_page(path: str) -> Node:
    response = Client().get(path)
    assert response.status_code == 200, path
    return parse(response.content)


def _land(href: str, quote: str) -> None:
    parts = urlsplit(href)
    assert parts.fragment.startswith("q-"), href
    doc = _source_page(parts.path)
    mark = doc.by_id(parts.fragment)
    assert mark is not None, f"{href}: no element with that id"
    assert mark.tag == "mark", href
    assert quote in mark.text, f"{href}: the mark holds {mark.text[:80]!r}, not {quote[:80]!r}"
    text = doc.find("article", cls="source-text")
    assert text is not None and mark in list(text.iter())


def _citation_pairs(doc: Node) -> list[tuple[str, str]]:
    """(link, quote) for each citation shown on a ruleset page."""
    pairs = []
    for li in doc.find_all("li", cls="citation"):
        lead = li.find("blockquote")
        details = li.find("details", cls="original")
        original = lead if details is None else details.find("blockquote")
        link = li.find("a", cls="cite-link")
        assert lead is not None and original is not None and link is not None
        assert len(li.find_all("blockquote")) == (1 if details is None else 2)
        assert lead.attrs["cite"] == link.attrs["href"]
        pairs.append((link.attrs["href"], original.text))
    return pairs


@pytest.mark.parametrize("ident", option_ids())
def test_every_citation_link_of_a_ruleset_lands_on_its_quote(client: Client, ident: str) -> None:
    doc = parse(client.get(f"/en/variants/{ident}/").content)
    pairs = _citation_pairs(doc)
    assert pairs
    for href, quote in pairs:
        assert href.startswith("/en/sources/")
        _land(href, quote)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_citation_links_keep_the_page_language(client: Client, lang: str) -> None:
    doc = parse(client.get(f"/{lang}/variants/howto/").content)
    pairs = _citation_pairs(doc)
    assert {urlsplit(h).path.split("/")[1] for h, _ in pairs} == {lang}
    for href, quote in pairs[:5]:
        _land(href, quote)


def _all_citations() -> list[Citation]:
    out: list[Citation] = []
    for ident in base_ids():
        base = load_base(ident)
        out.extend(c for r in base.rules.values() for c in r.citations)
        for spec in base.options.values():
            out.extend(spec.citations)
            out.extend(c for r in spec.changes.values() for c in r.citations)
    return out


def test_every_citation_in_the_data_is_highlighted() -> None:
    """From the data side: no citation of any file, option or change is left unmarked."""
    for cite in _all_citations():
        _land(f"/en/sources/{cite.seed}/#{anchor_for(cite.quote)}", cite.quote)


@pytest.mark.parametrize("page", ["/en/compare/", "/he/which/?key=first_turn.tiles", "/en/reasons/"])
def test_compact_citation_links_land_too(client: Client, page: str) -> None:
    doc = parse(client.get(page).content)
    links = doc.find_all("a", cls="cite")
    assert links
    for a in links:
        parts = urlsplit(a.attrs["href"])
        mark = _source_page(parts.path).by_id(parts.fragment)
        assert mark is not None and mark.tag == "mark", a.attrs["href"]


def test_anchor_is_stable_and_derived_from_the_quote() -> None:
    assert anchor_for("Il treno messicano") == anchor_for("Il treno messicano")
    assert anchor_for("Il treno messicano") != anchor_for("Il treno")
    assert anchor_for("x").startswith("q-")


@pytest.mark.parametrize("seed", list(sources()))
def test_marked_text_keeps_the_text_and_nests(seed: str) -> None:
    doc = parse(f"<article>{marked_text(seed, 'en')}</article>")
    assert doc.text == seed_text(seed)  # nothing added, nothing lost
    assert {m.attrs["id"] for m in doc.find_all("mark")} == {q.anchor for q in quotes(seed) if q.start >= 0}


def test_overlapping_quotes_still_nest(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two quotes that overlap only in part: the later mark widens to enclose the first."""
    from mextrain_site.reference import sources as src

    text = "alpha beta gamma delta"
    q1, q2 = src.Quote("alpha beta gamma", "", anchor_for("alpha beta gamma"), start=0), src.Quote("gamma delta", "", anchor_for("gamma delta"), start=11)
    monkeypatch.setattr(src, "seed_text", lambda seed: text)
    monkeypatch.setattr(src, "quotes", lambda seed: (q1, q2))
    doc = parse(src.marked_text.__wrapped__("x", "en"))  # type: ignore[attr-defined]
    assert doc.text == text
    for q in (q1, q2):
        mark = doc.by_id(q.anchor)
        assert mark is not None and q.text in mark.text

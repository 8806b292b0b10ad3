"""The glossaries (locale/<lang>/GLOSSARY.md) exist, name every term, and are used: wherever the
English of a catalogue entry uses a term, the translation uses the glossary's word for it (one of
the stems its table lists, which cover the word's inflected forms), and never a word the glossary
turns away for that term (a synonym of the seed outside the brackets and quotes that name it, or a
word its notes say "never" to)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

from tests.catalogues import entries

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = [code for code, _ in settings.LANGUAGES if code != "en"]

TERMS = {
    "tile": r"\btiles?\b",
    "train": r"\btrains?\b",
    "Mexican train": r"\bMexican [Tt]rains?\b",
    "marker": r"\bmarkers?\b",
    "double": r"\bdoubles?\b",
    "open double": r"\bopen doubles?\b",
    "boneyard": r"\bboneyard\b",
    "engine": r"\bengines?\b",
    "hub": r"\bhubs?\b",
    "round": r"\brounds?\b",
    "turn": r"\bturns?\b",
    "to pass": r"\bpass(es)?\b",
    "to satisfy a double": r"\bsatisf(y|ies|ied|ying)\b",
    "to go out": r"\b(go|goes|going|went|gone) out\b|\bplayers? out\b",
    "own train": r"\bown trains?\b",
    "ruleset": r"\brulesets?\b",
    "house rule": r"\bhouse rules?\b",
}
"""Each glossary term and the English it stands for in a source string."""

NOT_THE_TERM = (
    r"\bdouble-(\d+|blank|six|nine|twelve|\{[^}]*\})",  # set sizes and the double-blank, not "a double"
    r"\{[^}]*\}", r"%\([^)]*\)[sd]",  # placeholders
    r"(?<![A-Za-z])'[^']*'(?![A-Za-z])", r"\b\w+\.\w+(\.\w+)?\b", r"\b[\w-]+\+[\w+-]+\b",  # input syntax, rule keys, ids
    r"\bdraw, pass,? (or )?done\b", r"\b[a-z]+(-[a-z]+)+\b", r"\btiles: null\b",  # moves and option ids, a field
    r"\btrain yard\b",  # Cardinal's name for the boneyard
    r"\bround the edge\b", r"\bturn the corner\b", r"\b(take|takes|taking) turns\b", r"\bin turn\b",
    r"\bplay passes\b", r"\bround of turns\b", r"\bturns? up\b",
)
"""English that contains a term's word without meaning the term (or is input syntax, not prose)."""


def glossary(lang: str) -> dict[str, tuple[str, list[str]]]:
    """term -> (the word, its stems) from the table of locale/<lang>/GLOSSARY.md."""
    rows: dict[str, tuple[str, list[str]]] = {}
    text = (ROOT / "locale" / lang / "GLOSSARY.md").read_text(encoding="utf-8")
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and cells[0] in TERMS:
            rows[cells[0]] = (cells[1], [s.strip().strip("`") for s in cells[2].split(",") if s.strip()])
    return rows


QUOTED = r"\([^)]*\)|„[^”]*”|“[^”]*”|«[^»]*»|\"[^\"]*\"|(?<!\w)'[^']*'(?!\w)"
"""Brackets and quotes: where a translation may name the seed's own word for a term."""


def avoided(lang: str) -> dict[str, list[str]]:
    """term -> the words a translation must not use for it: the seed's synonyms (those that are
    not a stem of another term, like Hungarian "kör", the seed's word for a round and the
    glossary's for a turn) and the words its notes say "never" to."""
    rows: dict[str, list[str]] = {}
    stems = [s.lower() for _, found in glossary(lang).values() for s in found]
    text = (ROOT / "locale" / lang / "GLOSSARY.md").read_text(encoding="utf-8")
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 5 and cells[0] in TERMS:
            synonyms = [w.strip() for w in re.sub(r"\([^)]*\)", "", cells[3]).split(",") if w.strip()]
            synonyms = [w for w in synonyms if "…" not in w
                        and not any(s.startswith(w.lower()) or w.lower().startswith(s) for s in stems)]
            never = [q for m in re.finditer(r'never ((?:"[^"]+"(?:/| or |, )?)+)', cells[4])
                     for q in re.findall(r'"([^"]+)"', m.group(1))]
            rows[cells[0]] = synonyms + never
    return rows


def prose(english: str) -> str:
    for pattern in NOT_THE_TERM:
        english = re.sub(pattern, " ", english, flags=re.IGNORECASE)
    return english


@pytest.mark.parametrize("lang", LANGUAGES)
def test_glossary_names_every_term(lang: str) -> None:
    terms = glossary(lang)
    assert sorted(terms) == sorted(TERMS), f"{lang}: missing {sorted(set(TERMS) - set(terms))}"
    assert all(word and stems for word, stems in terms.values())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalogue_uses_the_glossary(lang: str) -> None:
    terms = glossary(lang)
    stray = []
    for english, translated in entries(lang):
        text = prose(english)
        for term, pattern in TERMS.items():
            if re.search(pattern, text) and not any(s.lower() in translated.lower() for s in terms[term][1]):
                stray.append(f"{term!r} ({terms[term][0]}): {english[:90]!r} => {translated[:90]!r}")
    assert not stray, f"{lang}: {len(stray)} entries do not use the glossary's word:\n" + "\n".join(stray[:40])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalogue_never_uses_a_word_the_glossary_turns_away(lang: str) -> None:
    """Where the English uses a term, the translation does not use the seed's synonym for it
    (outside the brackets or quotes that name the seed's word) nor a word the glossary's notes say
    "never" to: Greek "προσωπικό τρένο" for the own train, Italian "marcatore" for a marker."""
    words = avoided(lang)
    stray = []
    for english, translated in entries(lang):
        text, bare = prose(english), re.sub(QUOTED, " ", translated)
        for term, pattern in TERMS.items():
            if re.search(pattern, text):
                stray += [f"{term!r} ({w}): {english[:90]!r} => {translated[:90]!r}" for w in words.get(term, ())
                          if re.search(r"(?<!\w)" + re.escape(w), bare, flags=re.IGNORECASE)]
    assert not stray, f"{lang}: {len(stray)} entries use a word the glossary turns away:\n" + "\n".join(stray[:40])

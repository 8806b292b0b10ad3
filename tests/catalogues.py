"""The translation catalogues as the tests read them: (English, translation) pairs."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

MIN_WORDS = 4
"""A run of this many English words is a sentence (or the telling part of one)."""
LOCALE = Path(__file__).resolve().parent.parent / "locale"


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "django.po"


def entries(lang: str) -> list[tuple[str, str]]:
    """(English, translation) of every entry of a catalogue, header excluded; a plural entry gives
    its singular with the first form and its plural with the last."""
    out = []
    for block in po_path(lang).read_text(encoding="utf-8").split("\n\n"):
        fields: dict[str, str] = {}
        key = ""
        for line in block.splitlines():
            m = re.match(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?) "(.*)"$', line)
            if m:
                key, fields[m.group(1)] = m.group(1), m.group(2)
            elif line.startswith('"') and key:
                fields[key] += line[1:-1]
        if fields.get("msgid"):
            forms = sorted(k for k in fields if k.startswith("msgstr["))
            if forms:
                out += [(fields["msgid"], fields[forms[0]]), (fields["msgid_plural"], fields[forms[-1]])]
            else:
                out.append((fields["msgid"], fields.get("msgstr", "")))
    return [(e.replace('\\"', '"').replace("\\n", " "), t.replace('\\"', '"')) for e, t in out]


@cache
def english_sentences(lang: str) -> tuple[str, ...]:
    """Runs of English words from the source strings (split at placeholders and markup) that the
    language words differently, so that finding one on a page means it was left in English."""
    from variants.texts import free_texts

    pairs = entries(lang)
    assert {t.text for t in free_texts()} <= {english for english, _ in pairs}  # the ruleset texts are in it
    runs: set[str] = set()
    for english, translated in pairs:
        for part in re.split(r"\{[^}]*\}|%\(\w+\)[sd]|<[^>]*>|['‘’“”\"«»()\[\]:;·—–]|\s-\s|(?<=[.!?])\s", english):
            words = re.findall(r"[A-Za-z][A-Za-z'-]*", part)
            if len(words) >= MIN_WORDS and part.strip() not in translated:
                runs.add(" ".join(words))
    return tuple(sorted(runs, key=len, reverse=True))


def english_in(text: str, lang: str) -> list[str]:
    """The runs of :func:`english_sentences` found in ``text`` (prose a reader of ``lang`` reads)."""
    words = " " + " ".join(re.findall(r"[A-Za-z][A-Za-z'-]*", text)) + " "
    return [s for s in english_sentences(lang) if f" {s} " in words]

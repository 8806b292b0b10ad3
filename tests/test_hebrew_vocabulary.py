"""The Hebrew catalogue says one idea with one word, so the words retired for it cannot drift back.

A domino set is "סט" (masculine), as seed 000 says it ("השתמש סט כפול 15"), never "ערכה"/"ערכת";
a set or a tile named by its size is "כפול-12", the double-blank "כפול-ריק" (the seed: "כפול 12",
"סט כפול 15"), never "כפולה-12", "הכפולה הריקה" or "כפולת האפס". "כפולה" alone stays the noun for a
double, a tile whose two ends match (the seed: "הכפולה הפתוחה"). locale/he/GLOSSARY.md and
docs/languages.md record the choice; tests/test_glossary.py checks that each term's
word is there, this checks that the retired ones are not, and that the English "set" and
"double-12" always come out as the chosen words.

The catalogue is read as the site reads it: compiled by msgfmt (what `make compilemessages` runs)
and loaded with gettext, so an entry the compiler drops or a stale hand edit cannot hide a word."""

from __future__ import annotations

import gettext
import re
import subprocess
from pathlib import Path

import pytest

from tests.catalogues import po_path

HEBREW_LETTER = "\u05d0-\u05ea"
PREFIX = "(?:ו|ש|כש|מה)?[בלכ]?ה?"
"""The one-letter words Hebrew writes onto the front of a noun (and, that, when, in, to, as, the)."""

RETIRED = {
    "a domino set is סט, not ערכה": rf"(?<![{HEBREW_LETTER}]){PREFIX}ערכ(?:ה|ת|ות|ת־)(?![{HEBREW_LETTER}])",
    "a double named by its size is כפול-N, not כפולה-N": r"כפול(?:ה|ת|ות)[-־]\s*(?:\d|\{|%\()",
    "the double-blank is כפול-ריק": r"כפול(?:ה|ת)[-־ ]ה?ריקה|כפולת האפס|כפול־",
}
"""What a message must not say, by the rule it breaks. The set word is caught with its prefixes
("בערכת", "והערכה"); "מערכת" (a ruleset, "מערכת חוקים") is another word and is not."""

ENGLISH_SET = re.compile(r"\bsets?\b", re.IGNORECASE)
ENGLISH_SET_VERB = re.compile(r"\bset (?:aside|in|no)\b|\bset-[a-z-]+|\bas set\b|%\(set\)s|\bsets? it apart\b",
                              re.IGNORECASE)
"""English "set" that is a verb, an option value ('set-highest', "the same set-aside") or a
placeholder, not the domino set."""

ENGLISH_NAMED_DOUBLE = re.compile(
    r"\bdouble-(?:\d+|six|nine|twelve|fifteen|eighteen|blank|\{set\}|%\(n\)s)", re.IGNORECASE)


def compiled_catalogue(po: Path, tmp_path: Path) -> dict[str, list[str]]:
    """msgid -> its translations (every plural form), from the .po compiled as the site compiles it."""
    mo = tmp_path / "django.mo"
    subprocess.run(["msgfmt", "--check", "-o", str(mo), str(po)], check=True, capture_output=True)
    with mo.open("rb") as fh:
        catalog: dict[str | tuple[str, int], str] = gettext.GNUTranslations(fh)._catalog  # type: ignore[attr-defined]
    out: dict[str, list[str]] = {}
    for key, text in catalog.items():
        msgid = key[0] if isinstance(key, tuple) else key
        if msgid:
            out.setdefault(msgid.split("\x04")[-1], []).append(text)
    return out


def retired_words(catalogue: dict[str, list[str]]) -> list[str]:
    """Every translation that uses a retired word, with the rule it breaks."""
    found = []
    for msgid, texts in catalogue.items():
        for text in texts:
            for rule, pattern in RETIRED.items():
                if m := re.search(pattern, text):
                    found.append(f"{rule}: {m.group(0)!r} in {text[:100]!r} ({msgid[:60]!r})")
    return found


def missing_words(catalogue: dict[str, list[str]]) -> list[str]:
    """Every translation whose English names the domino set or a double by its size and that does
    not use the chosen word ("סט", "כפול-"); a message that quotes the position format keeps the
    typed English ("double-12") and is left alone."""
    found = []
    for msgid, texts in catalogue.items():
        names_set = ENGLISH_SET.search(ENGLISH_SET_VERB.sub(" ", msgid))
        names_double = ENGLISH_NAMED_DOUBLE.search(msgid)
        for text in texts:
            if "double-" in text:
                continue
            if names_set and "סט" not in text:
                found.append(f"set (סט): {msgid[:70]!r} => {text[:90]!r}")
            if names_double and "כפול-" not in text:
                found.append(f"double-N (כפול-N): {msgid[:70]!r} => {text[:90]!r}")
    return found


@pytest.fixture(scope="module")
def hebrew(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    return compiled_catalogue(po_path("he"), tmp_path_factory.mktemp("he"))


def test_hebrew_uses_no_retired_word(hebrew: dict[str, list[str]]) -> None:
    found = retired_words(hebrew)
    assert not found, f"{len(found)} Hebrew messages use a retired word:\n" + "\n".join(found[:40])


def test_hebrew_says_set_and_double_n_with_the_chosen_words(hebrew: dict[str, list[str]]) -> None:
    found = missing_words(hebrew)
    assert not found, f"{len(found)} Hebrew messages say it another way:\n" + "\n".join(found[:40])


def test_the_retired_words_are_recognised() -> None:
    """The patterns catch each form the catalogue used before, and leave the words that look alike
    ("מערכת חוקים", "ערכו", the noun "הכפולה הפתוחה", a tile after it: "כפולה {double}")."""
    used_before = ["משתמשים בערכת כפולה-12", "הכפולה הגבוהה של הערכה הרגילה", "בשאר הערכות",
                   "ערכת דומינו", "את הכפול־ריק", "כפולת האפס שנותרה", "והכפולה-ריקה נחשבת",
                   "הכפולה הריקה (0-0)", "מכפולה-12", "השחקן שבידו הכפולה-12"]
    for text in used_before:
        assert retired_words({"x": [text]}), text
    fine = ["מערכת חוקים", "ממערכת חוקים אחת", "ערכו של כפול-ריק", "ערכים", "הכפולה הפתוחה",
            "כפולה {double} על {train}", "סט כפול-12", "כפולת המנוע", "בסט כפול-{set}"]
    for text in fine:
        assert not retired_words({"x": [text]}), text

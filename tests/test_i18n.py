"""The translation catalogues: complete in every language, current with the source, and the
engine's sentences keep their placeholders."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from mextrain_site.core.i18n import WORDING
from rules.reasons import ReasonCode, TrainRole, reason

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = [code for code, _ in settings.LANGUAGES if code != "en"]


def po(lang: str) -> Path:
    return ROOT / "locale" / lang / "LC_MESSAGES" / "django.po"


def msgids(path: Path) -> set[str]:
    """The msgids of a catalogue (joined continuation lines), header excluded."""
    ids, current, in_id = set(), [], False
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        if line.startswith("msgid "):
            current, in_id = [line[6:]], True
        elif in_id and line.startswith('"'):
            current.append(line)
        else:
            if in_id:
                text = "".join(part.strip()[1:-1] for part in current)
                if text:
                    ids.add(text)
            in_id = False
    return ids


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalogue_is_complete(lang: str) -> None:
    out = subprocess.run(["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(po(lang))],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "fuzzy" not in out.stderr and "untranslated" not in out.stderr, f"{lang}: {out.stderr.strip()}"
    text = po(lang).read_text(encoding="utf-8")
    assert "#, fuzzy" not in text


def test_catalogues_are_current_with_the_source(tmp_path: Path) -> None:
    """makemessages on a copy of the project finds no string missing from the catalogues."""
    copy = tmp_path / "project"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".venv", ".git", "test-artifacts", "locale", "tests",
                                                              "staticfiles", "bench", "__pycache__", "*.sqlite3"))
    subprocess.run([sys.executable, "manage.py", "makemessages", "-l", "it", "--ignore=.venv/*", "-v", "0"],
                   cwd=copy, check=True, capture_output=True)
    fresh = msgids(copy / "locale" / "it" / "LC_MESSAGES" / "django.po")
    for lang in LANGUAGES:
        have = msgids(po(lang))
        missing = sorted(fresh - have)
        assert not missing, f"{lang}: not in the catalogue (run make messages, then translate): {missing[:5]}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_engine_sentences_are_translated_with_their_placeholders(lang: str) -> None:
    with translation.override(lang):
        for code in ReasonCode:
            translated = translation.gettext(code.template)
            assert translated != code.template or not any(c.isalpha() for c in code.template), (lang, code)
            assert WORDING.template(code) == translated, f"{lang}: {code.value} lost or renamed a placeholder"
        for role in TrainRole:
            assert WORDING.train_label("mexican", role) != "the Mexican train", (lang, role)
            assert "Ann" in WORDING.train_label("Ann", role) and "Ann's" not in WORDING.train_label("Ann", role)


def test_hebrew_plurals_have_their_own_forms() -> None:
    with translation.override("he"):
        forms = {translation.ngettext("Exactly %(n)s player.", "Exactly %(n)s players.", n) for n in (1, 2, 5)}
    assert len(forms) >= 2


def plural_forms(path: Path) -> str:
    """The Plural-Forms value of a catalogue's header (its first msgstr, continuation lines joined)."""
    text = path.read_text(encoding="utf-8")
    header = text.split('msgstr ""\n', 1)[1].split("\n\n", 1)[0]
    joined = "".join(line.strip()[1:-1] for line in header.splitlines() if line.startswith('"'))
    return next(part for part in joined.split("\\n") if part.startswith("Plural-Forms:"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_forms_are_djangos_for_the_language(lang: str) -> None:
    """Each catalogue counts like Django's own catalogue for that language (Hebrew has four
    forms, Kyrgyz one), so ngettext picks the right sentence for every number."""
    import django

    ours = plural_forms(po(lang))
    djangos = plural_forms(Path(django.__file__).parent / "conf" / "locale" / lang / "LC_MESSAGES" / "django.po")
    assert ours == djangos
    nplurals = int(ours.split("nplurals=")[1].split(";")[0])
    text = po(lang).read_text(encoding="utf-8")
    for entry in text.split("\n\n"):
        if "msgid_plural" in entry:
            assert f"msgstr[{nplurals - 1}]" in entry and f"msgstr[{nplurals}]" not in entry, entry[:120]


def test_ruleset_texts_are_current_in_the_catalogue_source() -> None:
    """mextrain_site/core/ruleset_messages.py lists every free text of variants/*.yaml."""
    from django.core.management import call_command

    assert call_command("ruleset_messages", "--check") is None  # exits 1 when the file is stale


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_ruleset_text_is_translated(lang: str) -> None:
    """Titles, glosses, remarks, notes, readings, alternatives, option summaries and equipment: each
    has a translation in the language, and the translation is not fuzzy."""
    from variants.texts import free_texts

    texts = free_texts()
    assert len(texts) > 300
    fuzzy = fuzzy_msgids(po(lang))
    with translation.override(lang):
        untranslated = [t.places[0] for t in texts if translation.gettext(t.text) == t.text]
    assert not untranslated, f"{lang}: no translation for {untranslated[:5]}"
    assert not [t.places[0] for t in texts if t.text in fuzzy], f"{lang}: fuzzy ruleset texts"


def fuzzy_msgids(path: Path) -> set[str]:
    """The msgids of a catalogue's fuzzy entries."""
    out, fuzzy, current, in_id = set(), False, [], False
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        if line.startswith("#,"):
            fuzzy = "fuzzy" in line
        elif line.startswith("msgid "):
            current, in_id = [line[6:]], True
        elif in_id and line.startswith('"'):
            current.append(line)
        else:
            if in_id and fuzzy:
                out.add("".join(part.strip()[1:-1] for part in current))
            if in_id:
                fuzzy = False
            in_id = False
    return out


COUNTERS = {"n", "counter", "count", "range", "points", "hi", "lo"}
"""The placeholders that hold the number a plural entry counts."""


def test_hebrew_says_one_without_a_bare_digit() -> None:
    """"שחקן אחד", not "1 שחקן": every plural entry worded for one names it in words."""
    import re

    from django.utils.translation import trans_real

    catalog = trans_real.translation("he")._catalog  # type: ignore[attr-defined]
    singular_forms = [key for key in catalog.keys() if isinstance(key, tuple) and key[1] == 0]
    assert singular_forms
    for msgid, _ in singular_forms:
        names = re.findall(r"%\((\w+)\)[sd]", msgid)
        with translation.override("he"):
            counted = {name: 1 if name in COUNTERS else 7 for name in names}
            text = translation.ngettext(msgid, msgid, 1) % counted if names else ""
        assert not re.search(r"(?<![\d\w-])1\s+[\u0590-\u05FF]{2,}", text), f"{msgid!r} => {text!r}"


SOURCE_CODE = re.compile(r"\b\d{3}\b|\d{3}_[0-9a-f]+|\bsources? [A-E]\b")
"""How a ruleset file may name a source that means nothing at a table: its file's number ("(001)",
"000/002"), its file name (``001_6d18c0e5b411e5ec``), or a letter ("source B")."""


def shown_rule_texts() -> list[tuple[str, str]]:
    """Every note, reading and alternative of every base ruleset and of every option's changes,
    and every option's summary, with where it is written: the texts a ruleset page and the
    referee's verdict show a player."""
    from variants.loader import base_ids, load_base

    texts: list[tuple[str, str]] = []
    for ident in base_ids():
        base = load_base(ident)
        entries = [(f"{ident} {key}", rule) for key, rule in base.rules.items()]
        for name, option in base.options.items():
            texts.append((f"{ident}+{name} summary", option.summary))
            entries += [(f"{ident}+{name} {key}", rule) for key, rule in option.changes.items()]
        for where, rule in entries:
            texts += [(f"{where}.{field}", getattr(rule, field))
                      for field in ("note", "reading", "alternative") if getattr(rule, field)]
    return texts


@pytest.mark.parametrize("lang", [code for code, _ in settings.LANGUAGES])
def test_rule_texts_name_sources_as_players_know_them(lang: str) -> None:
    """A reading says "as in the Hungarian game-rules page", never "as in the Hungarian source
    (001)": a file's number or a letter means nothing at a table. Checked as shown in each language,
    through the function the pages word them with, so a translation cannot bring a number back."""
    from mextrain_site.core.i18n import ruleset_text

    texts = shown_rule_texts()
    assert len(texts) > 100 and any(".reading" in where for where, _ in texts)
    with translation.override(lang):
        coded = [(where, shown) for where, text in texts
                 if SOURCE_CODE.search(shown := ruleset_text(text))]
    assert not coded, f"{lang}: {len(coded)} texts name a source by code, e.g. {coded[:3]}"


def test_the_listing_of_every_reason_in_every_language_is_current() -> None:
    """docs/reasons/<lang>.txt shows every reason, with each kind of train and each part a train
    plays, as each language words it: a new reason, a new part or a changed translation without
    the listing regenerated (python manage.py reasons_listing) and read fails here."""
    from django.core.management import call_command

    from mextrain_site.core.management.commands.reasons_listing import TARGET

    assert sorted(p.stem for p in TARGET.glob("*.txt")) == sorted(code for code, _ in settings.LANGUAGES)
    for code in ReasonCode:  # every reason is listed, in every language
        for path in TARGET.glob("*.txt"):
            assert f"\n{code.value}" in path.read_text(encoding="utf-8"), (path.name, code.value)
    assert call_command("reasons_listing", "--check") is None  # exits 1 when a file is stale


def _said(lang: str, code: ReasonCode, **params: object) -> str:
    with translation.override(lang):
        return reason(code, **params).text(WORDING.template(code), WORDING.train_label)


@pytest.mark.parametrize(("lang", "code", "train", "says"), [
    ("hu", ReasonCode.ENDS_DO_NOT_MATCH, "Bob", "nem illeszkedik Bob vonatának nyitott végéhez"),
    ("hu", ReasonCode.DEAD_DOUBLE, "Bob", "Holt a dupla (9-9) Bob vonatán:"),
    ("hu", ReasonCode.OWN_TRAIN_NOT_STARTED, "mexican", "nem rakhat a mexikói vonatra."),
    ("it", ReasonCode.DOUBLE_NOT_BINDING, "mexican", "il doppio aperto 9-9 sul treno messicano non"),
    ("it", ReasonCode.ENDS_MATCH, "Bob", "l'estremità aperta 6 del treno di Bob."),
    ("it", ReasonCode.TRAIN_MARKED, "mexican", "Il treno messicano ha un segnalino"),
    ("ky", ReasonCode.MUST_SATISFY_DOUBLE, "Bob", "Адегенде Bob оюнчунун поездиндеги ачык 9-9 дублун"),
    ("ky", ReasonCode.ENDS_MATCH, "mexican", "Мексикалык поезддин ачык учу 6"),
    ("el", ReasonCode.ENDS_MATCH, "mexican", "το ανοιχτό άκρο 6 του μεξικάνικου τρένου."),
    ("el", ReasonCode.TRAIN_MARKED, "Bob", "Το τρένο του παίκτη Bob έχει δείκτη"),
    ("he", ReasonCode.DOUBLE_WAITS_FIRST_TURN, "mexican", "שעל הרכבת המקסיקנית"),
])
def test_a_train_comes_in_the_form_its_sentence_needs(lang: str, code: ReasonCode, train: str, says: str) -> None:
    params = {"tile": "6-4", "end": 6, "double": "9-9", "player": "Ann"}
    text = _said(lang, code, **{k: v for k, v in params.items() if "{" + k + "}" in code.template},
                 **{k: train for k in ("train", "required") if "{" + k + "}" in code.template})
    assert says in text, text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_reason_names_its_train_twice(lang: str) -> None:
    """Kyrgyz once wrote "(поезд: {train})", which named the train twice ("(поезд: Bob оюнчунун
    поезди)"); a train's phrase carries its own noun."""
    with translation.override(lang):
        noun = {"hu": "vonat", "it": "tren", "ky": "поезд", "el": "τρέν", "he": "רכבת"}[lang]
        for code in ReasonCode:
            if "{train}" in code.template or "{required}" in code.template:
                template = WORDING.template(code)
                assert not re.search(noun + r"\w*\W*\{(train|required)\}", template, re.IGNORECASE), (code, template)


@pytest.mark.parametrize(("lang", "english", "expected"), [
    ("hu", "'done' ends a multi-tile first turn; this is not one.", "többköves"),
    ("hu", "the most rounds scored at zero", "nullapontos"),
    ("hu", "Partly garbled in the source.", "elrontott"),
    ("it", "the engine of a double-{set} set", "set doppio-{set}"),
    ("ky", "Judge", "Чечим чыгаруу"),
    ("el", "Judge", "Κρίνετε"),
    ("he", "to move", "תורו"),
])
def test_the_named_words_read_as_a_player_says_them(lang: str, english: str, expected: str) -> None:
    with translation.override(lang):
        assert expected in translation.gettext(english)


def test_italian_and_greek_count_the_rulesets_in_whole_sentences() -> None:
    with translation.override("it"):
        assert translation.ngettext("A tie for the lowest total is broken by:",
                                    "A tie for the lowest total is broken by, in this order:", 2).endswith(
            "con questi criteri, in quest'ordine:")
    with translation.override("el"):
        assert translation.ngettext("Under the one ruleset judged.", "Under all %(n)s rulesets judged.", 4) % {
            "n": 4} == "Σύμφωνα με όλους τους 4 κανονισμούς που εξετάστηκαν."


@pytest.mark.parametrize(("lang", "says"), [
    ("hu", "a dupla Bob vonatának végén"), ("it", "alla fine del treno di Bob"),
    ("ky", "Bob оюнчунун поездинин аягындагы дубль"), ("el", "στο τέλος του τρένου του παίκτη Bob"),
])
def test_the_boards_note_on_an_open_double_names_the_train_in_the_form_it_needs(lang: str, says: str) -> None:
    """The board's note under rulesets that disagree on an open double takes the train's "of" form
    (mextrain_site.referee.present), like the reasons; a train standing alone keeps the plain one."""
    with translation.override(lang):
        note = translation.gettext("The double ending %(train)s is open only under %(ids)s.") % {
            "train": WORDING.train_label("Bob", TrainRole.OF), "ids": "Cardinal Games"}
        assert WORDING.train_label("Bob") == translation.gettext("{name}'s train").format(name="Bob")
    assert says in note, note

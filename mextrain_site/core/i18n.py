"""Wording the engine's reasons and the ruleset files' texts in the reader's language (the engine
and the files themselves stay English).

The sentence templates are in the catalogues through ``engine_messages.py``; a translation
that lost or renamed a ``{placeholder}`` is not used (the English one is). The free texts of the
ruleset files (titles, glosses, notes, readings ...) are there through ``ruleset_messages.py``
and are worded by :func:`ruleset_text`."""

from __future__ import annotations

from django.utils.translation import get_language, get_language_bidi, gettext

from mextrain_site.core.bidi import isolated_first
from mextrain_site.core.plain_english import plain_english
from rules.messages import fields, word
from rules.reasons import ReasonCode, TrainRole, english_train_label
from rules.ruleset import Ruleset
from variants.loader import load_base

LABEL_CONTEXT = "rule dimension"
"""The gettext context of rule labels (a label such as "Rounds" is a heading, not a sentence)."""


def ruleset_text(english: str) -> str:
    """A free text of a ruleset file (title, gloss, remark, note, reading, alternative, option
    summary, equipment) in the active language; "" stays "" (gettext would give the catalogue's header)."""
    return gettext(english) if english else ""


def source_title(ruleset: Ruleset) -> str:
    """A ruleset's source named as a reader knows it: its publisher, else its title in the active
    language (never a file name)."""
    return ruleset.publisher or ruleset_text(ruleset.title)


def option_label(ruleset: Ruleset, name: str) -> str:
    """An option of ``ruleset`` as a player names it (``Mandatory doubles``), in the active
    language: the ``label`` its file declares beside it. The id (``mandatory-doubles``) is for
    the API, the CLI, the files and URLs."""
    return ruleset_text(load_base(ruleset.base).options[name].label)


def option_labels(ruleset: Ruleset) -> tuple[str, ...]:
    """The options applied to ``ruleset``, as a player names them, in the order of its id."""
    return tuple(option_label(ruleset, name) for name in ruleset.options)


def ruleset_name(ruleset: Ruleset) -> str:
    """A ruleset as a player names it, never by its id: its source's publisher, else its title in
    the active language (a house ruleset: its name), then the options applied by their labels
    (``Masters Traditional Games + Mandatory doubles``). The referee page, the reference and the
    house pages all name rulesets with it.

    In a right-to-left language, when options follow the source's name, the name starts with a
    right-to-left mark and the source is isolated (U+200F, U+2068 … U+2069): a Latin publisher then
    neither sets the direction of the whole name (``<bdi>`` takes it from the first strong letter)
    nor takes the ``+`` and the options into its left-to-right run."""
    source, labels = source_title(ruleset), option_labels(ruleset)
    if labels and get_language_bidi():
        source = isolated_first(source)
    return " + ".join((source, *labels))


class GettextWording:
    """Reason templates, train names and engine messages through gettext, in the active language."""

    @property
    def language(self) -> str:
        """The active language: what the wording depends on (rules.answer words each reason once
        per language and process)."""
        return get_language() or ""

    def template(self, code: ReasonCode) -> str:
        translated = gettext(code.template)
        return translated if fields(translated) == fields(code.template) else code.template

    def train_label(self, name: str, role: TrainRole | None = None) -> str:
        """A train in the part ``role`` of a sentence, in the active language."""
        return word(english_train_label(name, role), gettext)

    def text(self, english: str) -> str:
        return ruleset_text(english)

    def message(self, text: str) -> str:
        return word(text, gettext)

    def player_message(self, text: str) -> str:
        """A message of the ruleset schema as a player reads it (the house builder, a refused
        upload): in the active language through the catalogue; in English through
        :data:`~mextrain_site.core.plain_english.PLAIN_ENGLISH`, the same path with plain English
        templates (the rules by their labels, no key, no type). The API and the CLIs keep the
        schema's own English."""
        if (self.language or "en").split("-")[0] == "en":
            return word(text, plain_english)
        return self.message(text)


WORDING = GettextWording()

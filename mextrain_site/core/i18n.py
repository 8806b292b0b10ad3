"""Wording the engine's reasons and the ruleset files' texts in the reader's language (the engine
and the files themselves stay English).

The sentence templates are in the catalogues through ``engine_messages.py``; a translation
that lost or renamed a ``{placeholder}`` is not used (the English one is). The free texts of the
ruleset files (titles, glosses, notes, readings ...) are there through ``ruleset_messages.py``
and are worded by :func:`ruleset_text`."""

from __future__ import annotations

from django.utils.translation import get_language, gettext

from rules.messages import fields, word
from rules.reasons import ReasonCode, english_train_label

LABEL_CONTEXT = "rule dimension"
"""The gettext context of rule labels (a label such as "Rounds" is a heading, not a sentence)."""


def ruleset_text(english: str) -> str:
    """A free text of a ruleset file (title, gloss, remark, note, reading, alternative, option
    summary, equipment) in the active language; "" stays "" (gettext would give the catalogue's header)."""
    return gettext(english) if english else ""


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

    def train_label(self, name: str) -> str:
        return word(english_train_label(name), gettext)

    def text(self, english: str) -> str:
        return ruleset_text(english)

    def message(self, text: str) -> str:
        return word(text, gettext)


WORDING = GettextWording()

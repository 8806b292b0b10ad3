"""Wording the engine's reasons in the reader's language (the engine itself stays English).

The sentence templates are in the catalogues through ``engine_messages.py``; a translation
that lost or renamed a ``{placeholder}`` is not used (the English one is)."""

from __future__ import annotations

from django.utils.translation import gettext

from rules.messages import fields, word
from rules.reasons import ReasonCode, english_train_label


class GettextWording:
    """Reason templates, train names and engine messages through gettext, in the active language."""

    def template(self, code: ReasonCode) -> str:
        translated = gettext(code.template)
        return translated if fields(translated) == fields(code.template) else code.template

    def train_label(self, name: str) -> str:
        return word(english_train_label(name), gettext)

    def message(self, text: str) -> str:
        return word(text, gettext)


WORDING = GettextWording()

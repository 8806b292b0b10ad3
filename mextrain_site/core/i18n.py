"""Translating the engine's sentences in the web layer (the engine itself stays English)."""

from __future__ import annotations

from django.utils.translation import get_language, gettext

from rules.answer import Translate
from rules.reasons import ReasonCode


def reason_template(code: ReasonCode) -> str:
    """The reason's sentence template in the active language (English when untranslated)."""
    return gettext(code.template)


def reason_translator() -> Translate | None:
    """A ``translate`` callback for rules.answer, or None when the active language is English."""
    language = (get_language() or "en").split("-")[0]
    return None if language == "en" else reason_template

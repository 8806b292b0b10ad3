"""Wording the engine's reasons in the reader's language (the engine itself stays English).

The sentence templates are in the catalogues through ``engine_messages.py``; a translation
that lost or renamed a ``{placeholder}`` is not used (the English one is)."""

from __future__ import annotations

import string

from django.utils.translation import gettext

from rules.moves import MEXICAN
from rules.reasons import ReasonCode


def _fields(template: str) -> set[str] | None:
    try:
        return {name for _, name, _, _ in string.Formatter().parse(template) if name}
    except ValueError:
        return None


class GettextWording:
    """Reason templates and train names through gettext, in the active language."""

    def template(self, code: ReasonCode) -> str:
        translated = gettext(code.template)
        return translated if _fields(translated) == _fields(code.template) else code.template

    def train_label(self, name: str) -> str:
        if name == MEXICAN:
            return gettext("the Mexican train")
        return gettext("%(name)s's train") % {"name": name}


WORDING = GettextWording()

"""The adjudication form: a position text and, optionally, the rulesets to judge it under."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from mextrain_site.core.i18n import ruleset_text
from variants.loader import get_ruleset, option_ids


def ruleset_choices() -> list[tuple[str, str]]:
    return [(ident, ident) for ident in option_ids()]


def normalise_newlines(text: str) -> str:
    """Browsers send CRLF; the same text must give the same ruling and the same share link."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


class AdjudicateForm(forms.Form):
    position = forms.CharField(required=False, strip=False, widget=forms.Textarea, label=_("Position"))
    variant = forms.MultipleChoiceField(required=False, choices=ruleset_choices, label=_("Rulesets"))

    def clean_position(self) -> str:
        return normalise_newlines(self.cleaned_data.get("position") or "")


def picker_groups(chosen: list[str]) -> list[dict[str, Any]]:
    """The ruleset picker: each base ruleset, then its option combinations, ticked as chosen."""
    groups: list[dict[str, Any]] = []
    for ident in option_ids():
        rs = get_ruleset(ident)
        entry = {"id": ident, "checked": ident in chosen, "options": list(rs.options),
                 "summary": ruleset_text(rs.available_options[rs.options[-1]].summary) if rs.options else ""}
        if not rs.options:
            groups.append({"base": entry, "title": ruleset_text(rs.title), "combos": []})
        else:
            groups[-1]["combos"].append(entry)
    return groups

"""The adjudication form: a position text and, optionally, the rulesets to judge it under."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from mextrain_site.core.i18n import ruleset_text
from mextrain_site.house.rulesets import lookup
from variants.house import is_house_id
from variants.loader import RulesetError, get_ruleset, option_ids


def ruleset_choices() -> list[tuple[str, str]]:
    return [(ident, ident) for ident in option_ids()]


def normalise_newlines(text: str) -> str:
    """Browsers send CRLF; the same text must give the same ruling and the same share link."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


class RulesetsField(forms.MultipleChoiceField):
    """The published rulesets listed, and any stored house ruleset (``house-…``) besides."""

    def valid_value(self, value: str) -> bool:
        if is_house_id(value):
            try:
                lookup(value)
            except RulesetError:
                return False
            return True
        return super().valid_value(value)


class AdjudicateForm(forms.Form):
    position = forms.CharField(required=False, strip=False, widget=forms.Textarea, label=_("Position"))
    variant = RulesetsField(required=False, choices=ruleset_choices, label=_("Rulesets"))

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
    for ident in chosen:  # the house rulesets chosen, each listed on its own
        if is_house_id(ident):
            try:
                rs = lookup(ident)
            except RulesetError:
                continue
            groups.append({"base": {"id": rs.id, "checked": True, "options": [], "summary": ""}, "title": rs.title,
                           "combos": []})
    return groups

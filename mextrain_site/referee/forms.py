"""The adjudication form: a position text and, optionally, the rulesets to judge it under."""

from __future__ import annotations

import functools
from typing import Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

from mextrain_site.core.i18n import option_labels, ruleset_name, ruleset_text
from mextrain_site.core.rulesets import resolve
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
                resolve(value)
            except RulesetError:
                return False
            return True
        return super().valid_value(value)


@functools.cache
def _listed() -> frozenset[str]:
    """The ruleset ids the form lists (the published rulesets are loaded once per process)."""
    return frozenset(ident for ident, _ in ruleset_choices())


def read_plainly(data: QueryDict) -> tuple[str, list[str]] | None:
    """What :class:`AdjudicateForm` cleans ``data`` to, when that is plain to see: a text without a
    NUL character and only listed rulesets (the form's widgets read the last ``position`` and
    every ``variant``, as here). None: let the form read it, and say what is wrong (or look up a
    house ruleset). The form's machinery (copying its fields, widgets and validators for every
    request) cost Judge a tenth of a millisecond for what these few lines decide."""
    text = data.get("position", "")
    variants = data.getlist("variant")
    if "\x00" in text or not _all_listed(variants):
        return None
    return normalise_newlines(text), variants


def _all_listed(variants: list[str]) -> bool:
    listed = _listed()
    return all(v in listed for v in variants)


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
        entry = {"id": ident, "checked": ident in chosen, "options": option_labels(rs),
                 "summary": ruleset_text(rs.available_options[rs.options[-1]].summary) if rs.options else ""}
        if not rs.options:
            groups.append({"base": entry, "title": ruleset_name(rs), "combos": []})
        else:
            groups[-1]["combos"].append(entry)
    for ident in chosen:  # the house rulesets chosen, each listed on its own
        if is_house_id(ident):
            try:
                rs = resolve(ident)
            except RulesetError:
                continue
            groups.append({"base": {"id": rs.id, "checked": True, "options": [], "summary": ""}, "title": ruleset_name(rs),
                           "combos": []})
    return groups


def picked_names(chosen: list[str]) -> list[str]:
    """The rulesets chosen, as a player names them (an id that names none, as given: the ruling
    says what is wrong with it)."""
    names = []
    for ident in chosen:
        try:
            names.append(ruleset_name(resolve(ident)))
        except RulesetError:
            names.append(ident)
    return names

"""The house builder's form: the base, the name, the action and one field per rule of
``RULE_SPECS``, each read from the controls the builder shows for it.

A rule's field gives two things: what its controls were sent, to show again as typed
(:meth:`HouseForm.shown`), and the value as plain data (``cleaned_data``), checked afterwards by
the ruleset files' schema (``variants.schema.house_from_data``) with the same checks and texts as
a file's. A number is read by the one number parser (``rules.numbers``); what is not a number
(``₀``, ``²``, ``1_000``, thousands of digits) stays its text, which the schema refuses naming the
rule and the numbers it takes.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import QueryDict

from rules.numbers import ascii_int
from rules.ruleset import RULE_SPECS, DealRow, RuleSpec, ValueKind
from variants import house as hs

NUMBER = "number"
"""The choice of a choice-or-number rule that stands for its number field."""
DEAL_FIELDS = ("lo", "hi", "set", "tiles")
"""The fields of a row of the hand-size table editor: ``rule:setup.deal:<field>:<row>``."""
DEAL_ROWS_MAX = 32
"""Rows the hand-size table editor reads (a published table has at most eleven)."""
NUMBER_DIGITS = 6
"""Most digits a number field reads as a number (every bound of a rule is far smaller)."""


def number(raw: str) -> Any:
    """A number field's whole number, or the text as sent (the schema then says what it expected)."""
    value = ascii_int(raw, signed=True, max_digits=NUMBER_DIGITS)
    return raw if value is None else value


def deal_row_form(row: DealRow) -> dict[str, str]:
    """A row of a hand-size table as the editor's fields hold it (no hand size: an empty field)."""
    return {"lo": str(row.min_players), "hi": str(row.max_players), "set": str(row.set_max),
            "tiles": "" if row.tiles is None else str(row.tiles)}


def preset_rows(choice: str) -> list[dict[str, str]] | None:
    """The editor's rows for a preset chosen by its index, or None."""
    index = ascii_int(choice, max_digits=2)
    if index is None or index >= len(hs.DEAL_PRESETS):
        return None
    sizes = hs.DEAL_PRESETS[index]
    return [deal_row_form(DealRow(n, n, hs.PRESET_SET, tiles)) for n, tiles in enumerate(sizes, start=hs.PRESET_FIRST_PLAYERS)]


def with_preset(data: QueryDict, rows: list[dict[str, str]]) -> QueryDict:
    """``data`` with the hand-size editor's rows replaced by ``rows`` (a preset chosen)."""
    data = data.copy()
    for key in [k for k in data if k.startswith("rule:setup.deal:")]:
        del data[key]
    for i, row in enumerate(rows):
        for f in DEAL_FIELDS:
            data[f"rule:setup.deal:{f}:{i}"] = row[f]
    return data


class RuleWidget(forms.Widget):
    """Reads a rule's controls from the POST as sent (the builder's template draws them)."""

    def __init__(self, spec: RuleSpec) -> None:
        super().__init__()
        self.spec = spec

    def value_from_datadict(self, data: Any, files: Any, name: str) -> Any:
        kind = self.spec.kind
        if kind is ValueKind.ENUM_LIST:
            return data.getlist(name)
        if kind is ValueKind.PLAYER_RANGE:
            return {"min": data.get(name + ":min", ""), "max": data.get(name + ":max", "")}
        if kind is ValueKind.CHOICE_OR_NUMBER:
            return {"choice": data.get(name, ""), "number": data.get(name + ":number", "")}
        if kind is ValueKind.DEAL_TABLE:
            rows = []
            for i in range(DEAL_ROWS_MAX):
                row = {f: data.get(f"{name}:{f}:{i}", "").strip() for f in DEAL_FIELDS}
                if any(row.values()):  # an empty row (every field empty) is left out
                    rows.append(row)
            return rows
        return data.get(name, "")


class RuleField(forms.Field):
    """One rule: its controls' values as plain data (never refused here: the schema checks them)."""

    def __init__(self, spec: RuleSpec) -> None:
        super().__init__(required=False, widget=RuleWidget(spec))
        self.spec = spec

    def to_python(self, value: Any) -> Any:
        kind = self.spec.kind
        if kind is ValueKind.BOOL:
            return {"true": True, "false": False}.get(value, value)
        if kind is ValueKind.INT:
            return number(value)
        if kind is ValueKind.CHOICE_OR_NUMBER:
            return number(value["number"]) if value["choice"] == NUMBER else value["choice"]
        if kind is ValueKind.PLAYER_RANGE:
            return {"min": number(value["min"]), "max": number(value["max"])}
        if kind is ValueKind.DEAL_TABLE:
            # no 'to': the same as 'from' (a row for one player count); no hand size: null
            return [{"players": [number(r["lo"]), number(r["hi"] or r["lo"])], "set": number(r["set"]),
                     "tiles": number(r["tiles"]) if r["tiles"] else None} for r in value]
        return value

    def shown(self, value: Any) -> Any:
        """The controls' values as sent, as the builder shows them again (spaces around trimmed)."""
        kind = self.spec.kind
        if kind is ValueKind.PLAYER_RANGE:
            return {"min": value["min"].strip(), "max": value["max"].strip()}
        if kind is ValueKind.CHOICE_OR_NUMBER:
            choice = value["choice"].strip()
            return {"choice": choice, "number": value["number"].strip() if choice == NUMBER else ""}
        if kind in (ValueKind.ENUM_LIST, ValueKind.DEAL_TABLE):
            return value
        return str(value).strip()


def field_name(spec: RuleSpec) -> str:
    return f"rule:{spec.key}"


class Text(forms.CharField):
    """A text field never refused here (a NUL character included: the loader and the schema say
    what is wrong with the base or the name, as they do for a file)."""

    def __init__(self, *, strip: bool = True) -> None:
        super().__init__(required=False, strip=strip)
        self.validators = []


class HouseForm(forms.Form):
    """The builder's POST (or its GET: ``?base=`` and ``?name=``)."""

    base = Text()
    name = Text(strip=False)
    action = Text(strip=False)
    preset = Text(strip=False)
    find = Text()
    """The "find a rule" box, sent without JavaScript (``action=find``): the rules whose names hold it."""

    def clean_name(self) -> str:
        """Spaces as one (a name is one line)."""
        return " ".join(self.cleaned_data.get("name", "").split())

    def rule(self, spec: RuleSpec) -> Any:
        """The rule's value as plain data (after :meth:`is_valid`)."""
        return self.cleaned_data[field_name(spec)]

    def shown(self, spec: RuleSpec) -> Any:
        """What the rule's controls were sent, to show again."""
        bound = self[field_name(spec)]
        field = bound.field
        assert isinstance(field, RuleField)
        return field.shown(bound.data)


HouseForm.base_fields.update({field_name(spec): RuleField(spec) for spec in RULE_SPECS})

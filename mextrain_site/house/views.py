"""House ruleset pages: the builder (/<lang>/house/), a house ruleset's page (/h/<id>/ and
/<lang>/variants/house-…/), its YAML (/h/<id>.yaml) and the upload of such a file.

Thin views: the builder turns the form into plain data, ``variants.schema``/``variants.house``
check it (the same checks and texts as the ruleset files), ``.rulesets`` stores it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import NoReverseMatch, reverse
from django.utils.html import strip_tags
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from mextrain_site.core.i18n import WORDING, ruleset_name, ruleset_text
from mextrain_site.core.limits import OverLimit, charge_storage, limited
from mextrain_site.core.posting import get_goes_to
from mextrain_site.reference import rule_views, wording
from rules.errors import ErrorCode, InputError
from rules.messages import Message
from rules.ruleset import RULE_SPECS, SPEC_BY_KEY, Ruleset, RuleSpec, Status, ValueKind, Worded
from rules.tiles import STANDARD_SETS
from variants import house as hs
from variants.loader import RulesetError, all_rulesets, get_ruleset, option_ids
from variants.schema import NAME_MAX, HouseFile, RulesetFileError, YamlSyntaxError, house_from_data, parse_house

from .forms import DEAL_FIELDS, DEAL_ROWS_MAX, NUMBER, HouseForm, deal_row_form, preset_rows, with_preset
from .rulesets import describe, house_ruleset, store

MAX_UPLOAD = hs.MAX_FILE

DEAL_BLANK_ROWS = 2
"""Empty rows the editor offers for adding rows without JavaScript."""


# -- the house ruleset's page and file ---------------------------------------------------------------


def _house(ident: str) -> Ruleset:
    if not re.fullmatch(hs.ID_PATTERN, ident):
        raise Http404(_("No house ruleset is called “%(id)s”.") % {"id": ident[:80]})
    try:
        return house_ruleset(ident)
    except RulesetError:
        raise Http404(_("No house ruleset is called “%(id)s”.") % {"id": ident}) from None


def _link(name: str, *args: str) -> str:
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return ""


def house_page(request: HttpRequest, ident: str) -> HttpResponse:
    ruleset = _house(ident)
    base = get_ruleset(ruleset.built_on)
    sections = rule_views.summary(ruleset)
    own = []
    for section in sections:
        for i, view in enumerate(section.rules):
            if view.rule.status is Status.HOUSE:
                section.rules[i] = replace(view, base_value=wording.value_html(view.key, base.rules[view.key].value))
                own.append(section.rules[i])
    others = [b.id for b in all_rulesets() if b.id != ruleset.built_on]
    context = {
        "ruleset": ruleset,
        "base": base,
        "base_name": ruleset_name(base),
        "sections": sections,
        "own": own,
        "players": wording.player_range(ruleset.flags.players_count.min, ruleset.flags.players_count.max),
        "judge_url": reverse("referee:adjudicate") + "?" + urlencode({"variant": ruleset.id}),
        "compare_url": reverse("reference:compare") + "?" + urlencode(
            [("v", i) for i in (ruleset.id, ruleset.built_on, *others)]),
        "sheet_url": _link("reference:sheet", ruleset.id),
        "yaml_url": reverse("house:yaml", args=[ruleset.id]),
        "page_url": request.build_absolute_uri(reverse("house:page", args=[ruleset.id])),
        "diffs": [replace(d, url=reverse("reference:compare") + "?" + urlencode(
            [("v", ruleset.id), ("v", d.ident), ("diff", "1")])) for d in differences(ruleset)],
    }
    return render(request, "house/house.html", context)


@require_GET
def page(request: HttpRequest, ident: str) -> HttpResponse:
    return house_page(request, ident)


@require_GET
def download(request: HttpRequest, ident: str) -> HttpResponse:
    ruleset = _house(ident)
    response = HttpResponse(hs.to_yaml(ruleset), content_type="application/yaml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{ruleset.id}.yaml"'
    return response


# -- the builder ---------------------------------------------------------------------------------------


@dataclass
class Control:
    """One rule in the builder: its spec, the control to show and the value it holds."""

    spec: RuleSpec
    label: str
    kind: str
    value: Any
    choices: list[tuple[str, str]] = field(default_factory=list)
    changed: bool = False
    error: Refusal | None = None
    base_value: Any = None
    rows: list[DealRowForm] = field(default_factory=list)
    """The hand-size table editor's rows (setup.deal only)."""

    @property
    def name(self) -> str:
        return f"rule:{self.spec.key}"


@dataclass(frozen=True)
class DealRowForm:
    """A row of the hand-size table editor: its index (the fields' names), values and whether the
    schema's error is about it."""

    index: int
    values: dict[str, str]
    wrong: bool


@dataclass
class Diff:
    ident: str
    name: str
    """The published ruleset as a player names it (:func:`ruleset_name`)."""
    count: int
    keys: list[str]
    url: str = ""
    """The comparison showing the rules that differ (a stored house ruleset's page); "" in the builder."""


def differences(ruleset: Ruleset) -> list[Diff]:
    """How the ruleset differs from each published ruleset as written (rule keys that differ)."""
    out = []
    for other in all_rulesets():
        keys = [s.key for s in RULE_SPECS if other.rules[s.key].value != ruleset.rules[s.key].value]
        out.append(Diff(other.id, ruleset_name(other), len(keys), keys))
    return out


def _bases(*extra: str) -> list[tuple[str, str]]:
    """The bases the builder offers, (id, name as a player names it): each published ruleset and
    each with one of its options; ``extra`` (a valid combination chosen) stays among them."""
    return [(ident, ruleset_name(get_ruleset(ident))) for ident in dict.fromkeys((*option_ids(), *extra))]


def _choices(spec: RuleSpec) -> list[tuple[str, str]]:
    """Each value of an enum rule with its sentence (a list's items with their own words); a
    choice-or-number rule's number as its sentence with "…" for the number."""
    assert spec.enum is not None
    if spec.kind is ValueKind.ENUM_LIST:
        return [(m.value, _(m.sentence) if isinstance(m, Worded) else m.value) for m in spec.enum]
    out = [(m.value, strip_tags(str(wording.value_html(spec.key, m)))) for m in spec.enum]
    if spec.kind is ValueKind.CHOICE_OR_NUMBER:
        out.append((NUMBER, _(spec.when_number).replace("{n}", "…")))
    return out


def _form_value(spec: RuleSpec, value: Any) -> Any:
    """A rule value as the builder's controls hold it."""
    kind = spec.kind
    if kind is ValueKind.DEAL_TABLE:
        return [deal_row_form(row) for row in value]
    if kind is ValueKind.ENUM:
        return value.value
    if kind is ValueKind.ENUM_LIST:
        return [v.value for v in value]
    if kind is ValueKind.BOOL:
        return "true" if value else "false"
    if kind is ValueKind.PLAYER_RANGE:
        return {"min": str(value.min), "max": str(value.max)}
    if kind is ValueKind.CHOICE_OR_NUMBER:
        return {"choice": value.value, "number": ""} if isinstance(value, Worded) else {"choice": NUMBER, "number": str(value)}
    if kind is ValueKind.TEXT:
        return ruleset_text(value)  # the base's free text in the reader's language, as its pages show it
    return str(value)


def _presets() -> list[tuple[str, str]]:
    """(label, value of the preset select) per published table: '16/15/14/12/11/10/9', its index."""
    return [(hs.preset_label(sizes), str(i)) for i, sizes in enumerate(hs.DEAL_PRESETS)]


@dataclass
class Group:
    """A group of rules in the builder, as the ruleset pages group them (``rule_views.grouped_specs``):
    folded away unless it holds a change, a refusal or a rule the player looked for."""

    id: str
    title: str
    controls: list[Control]
    found: bool = False
    """It holds a rule that matches the "find a rule" box."""

    @property
    def changed(self) -> int:
        return sum(c.changed for c in self.controls)

    @property
    def open(self) -> bool:
        return self.found or any(c.changed or c.error for c in self.controls)


def _fold(text: str) -> str:
    """A rule's name or a query as the "find a rule" box compares them: case, accents and spacing
    ignored ("Όρια" finds "όρια", "Ordine" finds "ordine"). ``static/house/house.js`` does the same."""
    decomposed = unicodedata.normalize("NFD", text.casefold())
    return " ".join("".join(ch for ch in decomposed if not unicodedata.combining(ch)).split())


@dataclass(frozen=True)
class Found:
    """A rule in the "find a rule" list: its key (the link's anchor), its name, its group's title,
    the name as the box compares it, and whether it matches the query sent (without JavaScript)."""

    key: str
    label: str
    group: str
    folded: str
    match: bool


def _findings(groups: list[Group], query: str) -> list[Found]:
    """Every rule for the "find a rule" list, by name; those matching ``query`` marked ("" marks none)
    and their groups opened."""
    q = _fold(query)
    out = []
    for group in groups:
        for c in group.controls:
            folded = _fold(c.label)
            match = bool(q) and q in folded
            group.found = group.found or match
            out.append(Found(c.spec.key, c.label, group.title, folded, match))
    return sorted(out, key=lambda f: f.folded)


def _find_context(groups: list[Group], query: str) -> dict[str, Any]:
    """The "find a rule" box: the query as typed, every rule (those matching marked), and whether
    nothing matched a query."""
    findings = _findings(groups, query)
    return {"find": query, "findings": findings, "find_none": bool(_fold(query)) and not any(f.match for f in findings)}


def _controls(base: Ruleset, values: dict[str, Any] | None = None) -> list[Group]:
    groups = []
    for gid, title, specs in rule_views.grouped_specs():
        controls = []
        for spec in specs:
            base_value = _form_value(spec, base.rules[spec.key].value)
            value = values.get(spec.key, base_value) if values is not None else base_value
            control = Control(spec, wording.label(spec.key), spec.kind.value, value, base_value=base_value,
                              changed=value != base_value)
            if spec.kind is ValueKind.DEAL_TABLE:
                control.rows = _editor_rows(value, -1)
            if spec.kind in (ValueKind.ENUM, ValueKind.ENUM_LIST, ValueKind.CHOICE_OR_NUMBER):
                control.choices = _choices(spec)
            elif spec.kind is ValueKind.BOOL:
                control.choices = [(_form_value(spec, v), strip_tags(str(wording.value_html(spec.key, v)))) for v in (True, False)]
            controls.append(control)
        groups.append(Group(gid, title, controls))
    return groups


_LONGEST_KEY_FIRST = sorted(RULE_SPECS, key=lambda s: -len(s.key))
"""The rule specs, longest key first: an error's path goes to the longest rule key it starts with."""


def _problem_key(exc: RulesetFileError) -> str:
    """The rule a schema error is about (its path starts ``rules.<key>``), or the top field."""
    path = exc.path.removeprefix("rules.")
    for spec in _LONGEST_KEY_FIRST:
        if path == spec.key or path.startswith(spec.key + ".") or path.startswith(spec.key + "["):
            return spec.key
    return exc.path


@dataclass(frozen=True)
class Refusal:
    """A schema error as the builder and the upload show it, in the reader's language: the rule by
    its label (a row of the hand-size table in words), what was expected and what was found (the
    fix); ``str()`` is "expected …; found …". In English too the wording is plain (``WORDING.player_message``):
    the API's reason (``str(exc)``) names rule keys and values as a file writes them."""

    key: str
    """The rule (or the top field, such as ``name``) it is about."""
    where: str
    """The rule's label, with the row of the hand-size table ("Set and hand size, row 3"); "" for a top field."""
    text: str
    row: int = -1
    """The row of the hand-size table it is about (from 0), or -1."""
    line: str = ""
    """"line 4: " for a file, in the reader's language; "" for the builder's form."""
    path: str = ""
    """A file's field that is no rule (``title``), to find it in the file; "" otherwise."""

    def __str__(self) -> str:
        return self.text

    @classmethod
    def of(cls, exc: RulesetFileError, *, file: bool = False) -> Refusal:
        key = _problem_key(exc)
        m = re.match(r"rules\.setup\.deal\[(\d+)\]", exc.path)
        row = int(m.group(1)) if m and key == "setup.deal" else -1
        where = str(wording.label(key)) if key in SPEC_BY_KEY else ""
        if row >= 0:
            where = _("%(rule)s, row %(row)s") % {"rule": where, "row": row + 1}
        text = _("expected %(expected)s; found %(found)s") % {
            "expected": WORDING.player_message(exc.expected), "found": WORDING.player_message(exc.found)}
        line = WORDING.message(Message("line {line}: ", line=exc.line)) if file and exc.line else ""
        path = exc.path if file and key not in SPEC_BY_KEY and exc.path != "(top)" else ""
        return cls(key, where, text, row, line, path)


def _refused(exc: InputError, *, file: bool = False) -> Refusal | str:
    """A refusal as the builder and the upload show it: a schema error by its rule (a file's with its
    line), a text that cannot be stored (``core.storing``) as a sentence, any other (a base the loader
    refuses) in its own words."""
    if isinstance(exc, RulesetFileError):
        return Refusal.of(exc, file=file)
    if exc.code is ErrorCode.CONTROL_CHARACTER:
        return capfirst(exc.worded(_))
    return exc.worded(WORDING.message)


def _field_of(exc: InputError, refused: Refusal | str) -> str:
    """The builder's field a refusal stands beside: its rule, the name (a text that cannot be
    stored), else the base."""
    if isinstance(refused, Refusal):
        return refused.key
    return "name" if exc.code is ErrorCode.CONTROL_CHARACTER else "base"


@vary_on_headers("HX-Request")
@require_http_methods(["GET", "POST"])
def builder(request: HttpRequest) -> HttpResponse:
    """GET: the builder on a base (``?base=``). POST: ``action=preview`` shows the differences
    (htmx swaps only the summary), ``action=save`` stores and goes to the house ruleset's page."""
    form = HouseForm(request.POST if request.method == "POST" else request.GET)
    form.is_valid()  # never refused: the schema checks the rules (below), the view the base and the name
    base_id = form.cleaned_data["base"] or option_ids()[0]
    errors: dict[str, str | Refusal] = {}
    try:
        base = get_ruleset(base_id)
    except RulesetError as exc:
        errors["base"] = exc.worded(WORDING.message)
        base = get_ruleset(option_ids()[0])
    name = form.cleaned_data["name"]
    values: dict[str, Any] | None = None
    ruleset: Ruleset | None = None
    action = form.cleaned_data["action"] if request.method == "POST" else ""
    if request.method == "POST" and action != "base" and not errors:
        rows = preset_rows(form.cleaned_data["preset"]) if action == "preset" else None
        if rows is not None:  # the editor's rows replaced by the preset's
            form = HouseForm(with_preset(request.POST, rows))
            form.is_valid()
        values = {}
        data: dict[str, Any] = {}
        for spec in RULE_SPECS:
            values[spec.key] = form.shown(spec)
            data[spec.key] = form.rule(spec)
            if spec.kind is ValueKind.TEXT and data[spec.key] == _form_value(spec, base.rules[spec.key].value):
                data[spec.key] = base.rules[spec.key].value  # the base's text as the control showed it: unchanged
        if not errors:
            try:
                spec_file = house_from_data(base.id, name or "-", data, file="form")
                checked = hs.check(spec_file)
                ruleset = hs.build(checked, describe=describe)
                if action == "save":
                    if not name:
                        errors["name"] = _("Give the house rules a name (at most %(n)s characters).") % {"n": NAME_MAX}
                    else:
                        return _save(request, house_from_data(base.id, name, data, file="form"))
            except InputError as exc:
                refused = _refused(exc)
                errors[_field_of(exc, refused)] = refused
    controls = _controls(base, values)
    for group in controls:
        for control in group.controls:
            error = errors.get(control.spec.key)
            if isinstance(error, Refusal):
                control.error = error
                if control.spec.kind is ValueKind.DEAL_TABLE:
                    control.rows = _editor_rows(control.value, error.row)
    context = {
        "bases": _bases(base.id),  # any valid combination stays chosen
        "base": base,
        "name": name,
        "name_max": NAME_MAX,
        "controls": controls,
        "errors": errors,
        "rule_errors": [e for e in errors.values() if isinstance(e, Refusal) and e.key in SPEC_BY_KEY],
        "diffs": differences(ruleset or base),
        "changed": sum(g.changed for g in controls),
        "changed_rules": [c for g in controls for c in g.controls if c.changed],
        **_find_context(controls, form.cleaned_data["find"]),
        "presets": _presets(),
        "deal_sets": STANDARD_SETS,
    }
    htmx = getattr(request, "htmx", None)
    partial = bool(htmx and action in ("preview", "preset"))
    status = 400 if errors and not partial else 200
    # htmx: a preview swaps the summary; a preset swaps the hand-size editor and the summary (out of band).
    # Both also carry, out of band, the bar that keeps the count in view on a phone and each rule's
    # "changed" mark, so the rule just changed is marked where the player is.
    template = {"preview": "house/builder.html#preview_swap", "preset": "house/builder.html#deal_swap"}
    context["oob"] = action == "preset"
    context["marks_oob"] = partial
    context["deal"] = next(c for g in controls for c in g.controls if c.spec.kind is ValueKind.DEAL_TABLE)
    return render(request, template[action] if partial else "house/builder.html", context, status=status)


def _editor_rows(rows: list[dict[str, str]], wrong: int) -> list[DealRowForm]:
    """The editor's rows with the one a schema error is about (``wrong``, from 0; -1: none) marked,
    and DEAL_BLANK_ROWS empty rows to add to the table."""
    out = [DealRowForm(i, row, i == wrong) for i, row in enumerate(rows[:DEAL_ROWS_MAX])]
    blank = dict.fromkeys(DEAL_FIELDS, "")
    out += [DealRowForm(len(out) + i, blank, False) for i in range(min(DEAL_BLANK_ROWS, DEAL_ROWS_MAX - len(out)))]
    return out


@limited("ruleset")
def _save(request: HttpRequest, spec: HouseFile) -> HttpResponse:
    return _to_page(store(spec, before_insert=lambda text: charge_storage(request, text)))


def _to_page(ruleset: Ruleset) -> HttpResponse:
    """The stored ruleset's page in the language it was built in (``/<lang>/variants/<id>/``); the
    page shows its short link ``/h/<id>/``, which opens in each reader's own language."""
    return HttpResponseRedirect(reverse("reference:variant", args=[ruleset.id]), status=303)


@get_goes_to("builder:builder")
@require_POST
@limited("ruleset")
def upload(request: HttpRequest) -> HttpResponse:
    """A house ruleset file (as downloaded from /h/<id>.yaml): recreate it and go to its page (a
    GET, a reload after a refused upload, goes back to the builder, where the upload form is)."""
    upload_file = request.FILES.get("file")
    error: str | Refusal | YamlSyntaxError = ""  # not YAML: its line, column and PyYAML's problem
    if upload_file is None:
        error = _("Choose a house ruleset file (.yaml) to upload.")
    elif upload_file.size is not None and upload_file.size > MAX_UPLOAD:
        error = _("The file is larger than %(n)s bytes.") % {"n": MAX_UPLOAD}
    else:
        raw = upload_file.read(MAX_UPLOAD + 1)
        try:
            text = raw.decode("utf-8")
            ruleset = store(parse_house(text, upload_file.name or "upload.yaml"),
                            before_insert=lambda t: charge_storage(request, t))
            return _to_page(ruleset)
        except UnicodeDecodeError as exc:
            error = _("The file is not UTF-8 text (byte %(n)s).") % {"n": exc.start + 1}
        except OverLimit:
            raise  # the quota: answered 429 by @limited
        except InputError as exc:
            error = exc if isinstance(exc, YamlSyntaxError) else _refused(exc, file=True)
    base = get_ruleset(option_ids()[0])
    controls = _controls(base)
    context = {"bases": _bases(), "base": base, "name": "", "name_max": NAME_MAX,
               "controls": controls, "errors": {"upload": error}, "rule_errors": [],
               **_find_context(controls, ""),
               "diffs": differences(base), "changed": 0,
               "presets": _presets(), "deal_sets": STANDARD_SETS}
    return render(request, "house/builder.html", context, status=400)


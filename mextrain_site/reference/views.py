"""The rule reference: rulesets, one ruleset, comparison, who says what, sources, reasons."""

from __future__ import annotations

import re
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language, gettext, pgettext

from mextrain_site.core.i18n import option_label, ruleset_name
from mextrain_site.core.rulesets import resolve
from rules.reasons import ReasonCode
from rules.ruleset import SPEC_BY_KEY, Ruleset
from variants.house import is_house_id
from variants.loader import (
    RulesetError,
    base_ids,
    get_ruleset,
    load_base,
    option_closure,
    option_ids,
    seed_text,
    split_id,
)

from . import rule_views, who_says, wording
from . import sources as src
from .choice import Choice, choose
from .sheet import sheet as rule_sheet
from .traits import distinctive_traits, set_sizes

_SPLIT = re.compile(r"[,\s+]+")


def _split_options(request: HttpRequest) -> list[str]:
    """?options=a,b or ?options=a&options=b (a '+' in a query string arrives as a space)."""
    out: list[str] = []
    for raw in request.GET.getlist("options"):
        out.extend(p for p in _SPLIT.split(raw) if p)
    return out


def _ruleset_ids(request: HttpRequest) -> list[str]:
    """?v=howto&v=masters+mandatory-doubles; a '+' in a query string arrives as a space."""
    out: list[str] = []
    for raw in request.GET.getlist("v"):
        for part in raw.split(","):
            ident = "+".join(p for p in re.split(r"[\s+]+", part.strip()) if p)
            if ident and ident not in out:
                out.append(ident)
    return out


def _resolve(full_id: str) -> Choice:
    if is_house_id(full_id):
        return Choice(full_id, (), ruleset=resolve(full_id))
    base_id, options = split_id(full_id)
    if base_id not in base_ids():
        load_base(base_id)  # raises RulesetError
    return choose(base_id, options)


def variants(request: HttpRequest) -> HttpResponse:
    rulesets = who_says.base_rulesets()
    traits = distinctive_traits(rulesets)
    info = src.sources()
    cards = [
        {
            "ruleset": rs,
            "sources": [info[s.seed] for s in rs.sources],
            "players": wording.player_range(rs.flags.players_count.min, rs.flags.players_count.max),
            "sets": [wording.set_name(n) for n in set_sizes(rs)],
            "traits": traits[rs.id],
        }
        for rs in rulesets
    ]
    return render(request, "reference/variants.html", {"cards": cards})


def variant(request: HttpRequest, ident: str) -> HttpResponse:
    base_id, path_options = split_id(ident)
    if base_id not in base_ids():
        raise Http404(gettext("No ruleset is called “%(id)s”.") % {"id": base_id})
    choice = choose(base_id, [*path_options, *_split_options(request)])
    status = 200
    ruleset = choice.ruleset
    if ruleset is None:
        status = 400
        ruleset = choose(base_id, []).ruleset
    assert ruleset is not None
    context = {
        "ruleset": ruleset,
        "choice": choice,
        "sections": rule_views.summary(ruleset),
        "options": rule_views.option_views(ruleset),
        "sources": [src.sources()[s.seed] for s in ruleset.sources],
        "players": wording.player_range(ruleset.flags.players_count.min, ruleset.flags.players_count.max),
        "compare_query": urlencode(
            [("v", ruleset.base), ("v", ruleset.id)]
            if ruleset.options
            else [("v", i) for i in (ruleset.id, *(b for b in base_ids() if b != ruleset.id))]
        ),
    }
    return render(request, "reference/variant.html", context, status=status)


def sheet(request: HttpRequest, ident: str) -> HttpResponse:
    """The rule sheet to print: the ruleset (options in the id or ?options=) on at most two A4 pages.
    A house ruleset's is the same sheet, headed by its name and the base it is built on."""
    if is_house_id(ident):
        return _house_sheet(request, ident)
    base_id, path_options = split_id(ident)
    if base_id not in base_ids():
        raise Http404(gettext("No ruleset is called “%(id)s”.") % {"id": base_id})
    choice = choose(base_id, [*path_options, *_split_options(request)])
    ruleset = choice.ruleset or choose(base_id, []).ruleset
    assert ruleset is not None
    context = {"sheet": rule_sheet(ruleset, get_language() or "en"), "choice": choice,
               "assumed": wording.STATUS_LABELS["silent"]}
    return render(request, "reference/sheet.html", context, status=200 if choice.ruleset else 400)


def _house_sheet(request: HttpRequest, ident: str) -> HttpResponse:
    try:
        ruleset = resolve(ident)
    except RulesetError:
        raise Http404(gettext("No ruleset is called “%(id)s”.") % {"id": ident[:80]}) from None
    context = {"sheet": rule_sheet(ruleset, get_language() or "en"), "choice": Choice(ident, (), ruleset=ruleset),
               "assumed": wording.STATUS_LABELS["silent"], "house_base": ruleset_name(get_ruleset(ruleset.built_on))}
    return render(request, "reference/sheet.html", context)


def compare(request: HttpRequest) -> HttpResponse:
    asked = _ruleset_ids(request)
    if not request.GET and not getattr(request, "htmx", False):
        asked = list(base_ids())  # the bare page compares every ruleset as written
    diff_only = request.GET.get("diff") in ("1", "on", "true", "yes")
    rulesets: list[Ruleset] = []
    errors: list[str] = []
    for ident in asked:
        try:
            choice = _resolve(ident)
        except RulesetError:
            errors.append(gettext("No ruleset is called “%(id)s”.") % {"id": split_id(ident)[0]})
            continue
        errors.extend(choice.errors)
        if choice.ruleset is not None and choice.ruleset.id not in [r.id for r in rulesets]:
            rulesets.append(choice.ruleset)
    groups, total, differing = [], 0, 0
    if len(rulesets) >= 2:
        for gid, title, specs in rule_views.grouped_specs():
            rows = []
            for spec in specs:
                values = [rs.rule(spec.key).value for rs in rulesets]
                differs = any(v != values[0] for v in values[1:])
                total += 1
                differing += differs
                if diff_only and not differs:
                    continue
                rows.append({
                    "spec": spec,
                    "label": wording.label(spec.key),
                    "differs": differs,
                    "cells": [rule_views.rule_view(rs, spec.key, compact=True) for rs in rulesets],
                })
            if rows:
                groups.append({"id": gid, "title": title, "rows": rows})
    # each choice by its player's name; the id is the checkbox's value (and so the URL's ?v=)
    choices = [
        {"id": i, "name": ruleset_name(get_ruleset(i)), "checked": i in [rs.id for rs in rulesets], "is_base": "+" not in i}
        for i in option_ids()
    ]
    for rs in rulesets:  # combinations not in the list of choices stay selectable
        if rs.id not in option_ids():
            choices.append({"id": rs.id, "name": ruleset_name(rs), "checked": True, "is_base": False})
    context = {
        "rulesets": rulesets,
        "groups": groups,
        "errors": errors,
        "diff_only": diff_only,
        "total": total,
        "differing": differing,
        "choices": choices,
    }
    htmx = getattr(request, "htmx", None)
    template = "reference/compare.html"
    partial = bool(htmx and not htmx.history_restore_request and htmx.target == "compare-results")
    if partial:
        template = "reference/compare.html#results"
        context["partial"] = True  # the count of rulesets chosen, above the results, follows (hx-swap-oob)
    # htmx swaps only 2xx answers: a partial answer shows its errors with a 200
    response = render(request, template, context, status=400 if errors and not partial else 200)
    patch_vary_headers(response, ["HX-Request", "HX-Target"])
    return response


def which(request: HttpRequest) -> HttpResponse:
    key = request.GET.get("key", "")
    status = 200
    context: dict[str, object] = {
        "key": key,
        "choices": [(title, [(s.key, wording.label(s.key)) for s in specs]) for _, title, specs in rule_views.grouped_specs()],
    }
    if key and key not in SPEC_BY_KEY:
        status = 400
        context["error"] = gettext("There is no rule dimension “%(key)s”.") % {"key": key}
        context["key"] = ""
    elif key:
        context["spec"] = SPEC_BY_KEY[key]
        context["label"] = wording.label(key)
        context["description"] = wording.description(key)
        values = who_says.who_says(key)
        _add_house_holders(request, key, values)
        context["values"] = values
    else:
        rulesets = who_says.base_rulesets()
        context["overview"] = [
            (gid, title, [
                (spec, wording.label(spec.key), len({repr(rs.rule(spec.key).value) for rs in rulesets}))
                for spec in specs
            ])
            for gid, title, specs in rule_views.grouped_specs()
        ]
        context["ruleset_count"] = len(rulesets)
    return render(request, "reference/which.html", context, status=status)


def _add_house_holders(request: HttpRequest, key: str, groups: list[who_says.ValueGroup]) -> None:
    """``?v=house-…``: the house rulesets asked for, each with the published ones that agree."""
    for ident in _ruleset_ids(request):
        if not is_house_id(ident):
            continue
        try:
            rs = resolve(ident)
        except RulesetError:
            continue
        view = rule_views.rule_view(rs, key, compact=True)
        for group in groups:
            if str(group.value) == str(view.value):
                group.holders.append(view)
                break
        else:
            groups.append(who_says.ValueGroup(view.value, [view]))


def source_list(request: HttpRequest) -> HttpResponse:
    items = [
        {"info": info, "rulesets": [get_ruleset(r) for r in info.rulesets], "quotes": len(src.quotes(seed)),
         "chars": len(seed_text(seed))}
        for seed, info in src.sources().items()
    ]
    return render(request, "reference/sources.html", {"items": items})


def source(request: HttpRequest, seed: str) -> HttpResponse:
    info = src.sources().get(seed)
    if info is None:
        raise Http404(gettext("No source text is called “%(seed)s”.") % {"seed": seed})
    quotes = src.quotes(seed)
    titles = [(i, load_base(i).title) for i in info.rulesets]

    def href(c: src.CitedBy) -> str:
        url = reverse("reference:variant", args=[c.ruleset])
        if c.option:
            url += "?" + urlencode({"options": ",".join(option_closure(c.ruleset, c.option))})
        return url + (f"#rule-{c.key}" if c.key else f"#option-{c.option}")

    cited = [
        {
            "quote": q,
            "cited_by": [
                {"ruleset": c.ruleset, "name": ruleset_name(get_ruleset(c.ruleset)), "key": c.key,
                 "label": wording.label(c.key) if c.key else "", "option": c.option,
                 "option_label": option_label(get_ruleset(c.ruleset), c.option) if c.option else "", "href": href(c)}
                for c in q.cited_by
            ],
        }
        for q in quotes
    ]
    context = {
        "info": info,
        "text": src.marked_text(seed, get_language()),
        "cited": cited,
        "missing": [q for q in quotes if q.start < 0],
        "titles": titles,
        "first": get_ruleset(info.rulesets[0]),
    }
    return render(request, "reference/source.html", context)


def reasons(request: HttpRequest) -> HttpResponse:
    """Every reason the referee gives, grouped by the rule it rests on (in the reference's order), each
    rule with the rulesets that have it; the codes, for the API's and the command line's users, in a
    closed section at the end."""
    rows = [
        {"code": code.code, "blocks": code.blocks, "description": gettext(code.description), "key": code.rule}
        for code in ReasonCode
    ]
    sections = []
    for gid, title, specs in rule_views.grouped_specs():
        rules = [
            {"key": spec.key, "label": wording.label(spec.key), "values": who_says.who_says(spec.key),
             "reasons": [r for r in rows if r["key"] == spec.key]}
            for spec in specs
        ]
        rules = [r for r in rules if r["reasons"]]
        if rules:
            sections.append({"id": gid, "title": title, "rules": rules})
    unruled = [r for r in rows if r["key"] is None]
    if unruled:
        sections.append({"id": "any-ruleset", "title": pgettext("reasons section", "Reasons any ruleset can give"),
                         "rules": [{"key": None, "label": "", "values": None, "reasons": unruled}]})
    context = {"rows": rows, "sections": sections, "forbidding": [r for r in rows if r["blocks"]]}
    return render(request, "reference/reasons.html", context)

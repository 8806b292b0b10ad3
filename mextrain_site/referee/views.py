"""The adjudication page, sharing a ruling, and opening a shared one. Thin views: parse the
request, let the engine judge (through :mod:`.present`), render. No view decides a rule.

htmx requests get the ruling panel alone (or the share link); without JavaScript the same forms
post and the whole page comes back. A judged position's panel is written by
:func:`.ruling_html.panel`, for Judge directly and inside the whole page through the template's
``ruling`` partial (the same bytes either way); the template writes only the form, the frame and
the panels of bad input.
"""

from __future__ import annotations

import functools
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.middleware import HtmxDetails

from mextrain_site.core.caching import CSRF_PLACEHOLDER, cached_page
from mextrain_site.core.errors import status as http_status
from mextrain_site.core.game_links import game_link
from mextrain_site.core.limits import OverLimit, charge_storage, limited
from mextrain_site.core.posting import get_goes_to
from mextrain_site.core.referee import parse
from rules.errors import ErrorCode, InputError
from rules.limits import MAX_PAGE_WORK
from rules.moves import MEXICAN, Action
from rules.position import MAX_TEXT

from .forms import AdjudicateForm, normalise_newlines, picked_names, picker_groups, read_plainly
from .models import SharedRuling
from .present import display_order, echo, judged_page, set_to_try
from .ruling_html import panel, share_link
from .sharing import store

TEMPLATE = "referee/adjudicate.html"

EXAMPLE_CLAIM = gettext_noop("Bob claims he may play 6-4 on Cy's train.")
"""The worked example's first line, a comment: what the table argues about."""
EXAMPLE = f"""\
# {EXAMPLE_CLAIM}
players: Ann Bob Cy Dee
engine: 12-12
Ann: 12-4 4-4 4-9 *
Bob: 12-7 7-3
Cy: ... 2-6
Dee: - *
mexican: 12-2 2-2
boneyard: 23
turn: Bob
hand: 6-4 7-7 9-2 2-11
check: Bob: 6-4 -> Cy
"""


TOKENS = ("->", ":", "-", "*")
"""Type mode's one-tap tokens, before the names of the players: line (typing.js)..."""
WORDS = (MEXICAN, Action.DRAW.value, Action.PASS.value)
"""... and after them: the format's words a move line needs."""


class HtmxHttpRequest(HttpRequest):
    """A request that has been through ``HtmxMiddleware``, which sets ``request.htmx``."""

    htmx: HtmxDetails


def _context(request: HtmxHttpRequest, text: str, variants: list[str], **extra: Any) -> dict[str, Any]:
    return {
        "text": text,
        "variants": variants,
        # only the form shows the picker, and Judge (htmx) renders the ruling alone: built when shown
        "picker": functools.partial(picker_groups, variants),
        "picked": functools.partial(picked_names, variants),
        "max_text": MAX_TEXT,
        "max_body": settings.DATA_UPLOAD_MAX_MEMORY_SIZE,
        "text_length": len(text),
        "tokens": TOKENS,
        "words": WORDS,
        **extra,
    }


def _error(exc: InputError, text: str, variants: list[str]) -> dict[str, Any]:
    return {
        "message": exc.worded(_),
        "line": exc.line,
        "column": exc.column,
        "code": exc.code.value,
        "echo": echo(text, exc.line, exc.column),
        "in_text": exc.line is not None,
        "retry": set_to_try(text, variants, exc),
    }


def _form_error(form: AdjudicateForm) -> dict[str, Any]:
    messages = [str(m) for errors in form.errors.values() for m in errors]
    return {"message": " ".join(messages) or _("The form could not be read."), "line": None, "column": None,
            "code": ErrorCode.FORM.value, "echo": [], "in_text": "position" in form.errors}


def _respond(request: HtmxHttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    if request.htmx and "judged" in context and "error" not in context:
        return HttpResponse(panel(request, context, context["judged"], alone=True), status=status)
    name = f"{TEMPLATE}#ruling" if request.htmx else TEMPLATE
    return render(request, name, context, status=status)


def _judge_and_render(request: HtmxHttpRequest, text: str, variants: list[str], error_status: int | None = None,
                      **extra: Any) -> HttpResponse:
    try:
        judged = judged_page(text, variants)
    except InputError as exc:
        ctx = _context(request, text, variants, error=_error(exc, text, variants), **extra)
        return _respond(request, ctx, error_status or http_status(exc.code))
    return _respond(request, _context(request, text, variants, judged=judged, **extra))


def _read_form(request: HtmxHttpRequest) -> tuple[AdjudicateForm | None, str, list[str]]:
    """The text and rulesets posted, and the form when it refuses them (None: accepted)."""
    plain = read_plainly(request.POST)
    if plain is not None:
        return None, plain[0], display_order(plain[1])
    form = AdjudicateForm(request.POST)
    if form.is_valid():
        return None, form.cleaned_data["position"], display_order(form.cleaned_data["variant"])
    text = normalise_newlines(request.POST.get("position", ""))
    variants = [v for v in request.POST.getlist("variant") if isinstance(v, str)][:64]
    return form, text, variants


def example() -> str:
    """The worked example in the reader's language: its comment translated, the position as the
    format writes it (the names are the position's)."""
    return EXAMPLE.replace(EXAMPLE_CLAIM, _(EXAMPLE_CLAIM), 1)


@vary_on_headers("HX-Request")
@require_http_methods(["GET", "POST"])
@limited("judge")
def adjudicate(request: HtmxHttpRequest) -> HttpResponse:
    """The page: a position, the rulesets, Judge. POST judges; GET shows the worked example."""
    if request.method == "GET":
        # ?variant=house-… (a house ruleset's "Judge a position under these rules") ticks it;
        # ?position=… (a score sheet's "Dispute in this round") writes the table in.
        given = normalise_newlines(request.GET.get("position", ""))[:MAX_TEXT]
        # the worked example is marked: Build mode opens on a new table instead of laying it out
        return render(request, TEMPLATE, _context(request, given or example(), request.GET.getlist("variant")[:8],
                                                  is_example=not given))
    refused, text, variants = _read_form(request)
    if refused is not None:
        return _respond(request, _context(request, text, variants, error=_form_error(refused)),
                        http_status(ErrorCode.FORM))
    return _judge_and_render(request, text, variants)


@get_goes_to("referee:adjudicate")
@vary_on_headers("HX-Request")
@require_POST
@limited("share")
def share(request: HtmxHttpRequest) -> HttpResponse:
    """Store the position and rulesets; answer with the short link (htmx) or go there."""
    refused, text, variants = _read_form(request)
    if refused is not None:
        return _share_refused(request, _context(request, text, variants, error=_form_error(refused)),
                              http_status(ErrorCode.FORM))
    try:
        parsed = parse(text, variants or None, max_work=MAX_PAGE_WORK)
        ids = [rs.id for rs in parsed.rulesets] if variants else []
        row = store(text, ids, before_insert=lambda: charge_storage(request, text))
    except OverLimit:
        raise  # a rate, the address's quota or the site's cap: answered by @limited, with Retry-After
    except InputError as exc:
        return _share_refused(request, _context(request, text, variants, error=_error(exc, text, variants)),
                              http_status(exc.code))
    url = reverse("share:ruling", args=[row.id])
    if request.htmx:
        return HttpResponse(share_link(request.build_absolute_uri(url)))
    return HttpResponseRedirect(url, status=303)


def _share_refused(request: HtmxHttpRequest, context: dict[str, Any], status: int) -> HttpResponse:
    """Nothing stored: show why in the ruling panel (htmx: replace the panel, not the share slot)."""
    response = _respond(request, context, status)
    if request.htmx:
        response["HX-Retarget"] = "#ruling"
        response["HX-Reswap"] = "outerHTML"
    return response


@vary_on_headers("HX-Request")
@require_GET
def shared(request: HtmxHttpRequest, share_id: str) -> HttpResponse:
    """A stored ruling, shown on the page (even if it no longer parses). It never changes: judged
    and rendered once per language, then served from the cache."""
    return cached_page(request, f"shared:{share_id}", lambda req: _render_shared(req, share_id))


def _render_shared(request: HtmxHttpRequest, share_id: str) -> HttpResponse:
    row = get_object_or_404(SharedRuling, pk=share_id)
    url = request.build_absolute_uri(reverse("share:ruling", args=[row.id]))
    variants = display_order(row.variant_ids)
    return _judge_and_render(request, row.text, variants, error_status=200, shared=row, share_url=url,
                             share_id=row.id, csrf_token=CSRF_PLACEHOLDER, game_url=game_link(row.text))

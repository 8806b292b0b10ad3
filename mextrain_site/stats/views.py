"""The statistics' API and pages. They decide no rule and compute nothing: they read what is
asked (:func:`.jobs.question`), find or start its job (:func:`.jobs.ask`), and show where it is.

* ``GET /api/variants/<id>/stats?players=4[&games=N&seed=S]``: 200 with the report when it is
  done; 202 ``{"status": "queued"|"running", "progress": 0..1}`` while it runs (the first request
  starts it); 503 ``{"status": "failed", ...}`` when it failed, and ``POST`` to the same address
  starts it again. Bad input: 400 in the one error body (``core.answers``); over a limit: 429.
* ``/<lang>/variants/<id>/stats/``: the page; while the job runs, htmx polls the same address and
  swaps the result in; a failed job shows a Retry button (a POST).
* ``/<lang>/stats/?v=A&v=B``: two rulesets side by side.
* ``/<lang>/variants/<id>/stats/<kind>.svg``: the charts.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import orjson
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language_bidi, gettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from mextrain_site.core.answers import encoded_response, error_response, json_response
from mextrain_site.core.errors import status as http_status
from mextrain_site.core.i18n import WORDING, ruleset_name
from mextrain_site.core.limits import OverLimit, check_rate, client_address
from mextrain_site.core.rulesets import resolve
from rules.errors import ErrorCode, InputError
from rules.messages import Message
from variants.loader import RulesetError, option_ids

from . import jobs, present
from .charts import KINDS, chart_svg
from .models import Job, Status

POLL_SECONDS = 1


class TooManyJobs(InputError):
    """An address with as many jobs queued or running as it may have (``STATS_QUEUED_PER_ADDRESS``)."""

    def __init__(self, cap: int) -> None:
        super().__init__(Message("this address already has {count} statistics jobs waiting or running, as many as "
                                 "it may; ask again when one is done", count=cap), code=ErrorCode.RATE_LIMITED)
        self.cap = cap
        self.retry_after = 30


def _guard(request: HttpRequest) -> jobs.Guard:
    """The limits on starting a job: the rate per address, then the cap on its unfinished jobs."""

    def guard() -> None:
        check_rate(request, "stats")
        cap = settings.STATS_QUEUED_PER_ADDRESS
        if cap > 0 and settings.RATELIMIT_ENABLE and jobs.queued_by(client_address(request)) >= cap:
            raise TooManyJobs(cap)

    return guard


def _job(request: HttpRequest, asked: jobs.Question) -> Job:
    """The job of ``asked``: found or started; a POST retries it when it failed."""
    address, guard = client_address(request), _guard(request)
    job = jobs.find(asked) if request.method == "POST" else None
    if job is not None:
        return jobs.retry(job, address, guard)
    return jobs.ask(asked, address, guard)


def _asked(request: HttpRequest, ident: str) -> jobs.Question:
    get = request.GET
    return jobs.question(ident, get.get("players"), get.get("games"), get.get("seed"))


def failed(job: Job) -> bool:
    return job.status == Status.FAILED or jobs.stale(job)


# -- the API ----------------------------------------------------------------------------------


@csrf_exempt
def api_view(request: HttpRequest, ident: str) -> HttpResponse:
    translate = None if (translation.get_language() or "en").split("-")[0] == "en" else WORDING
    if request.method not in ("GET", "HEAD", "POST"):
        return error_response(InputError(f"{request.method} is not allowed here; use GET, HEAD, POST",
                                         code=ErrorCode.METHOD_NOT_ALLOWED), Allow="GET, HEAD, POST")
    try:
        job = _job(request, _asked(request, ident))
    except InputError as exc:
        return error_response(exc, translate=translate)
    if job.status == Status.DONE:
        return encoded_response(job.report.encode(), Cache_Control="public, max-age=3600")
    if failed(job):
        return json_response({"status": Status.FAILED.value, "error": job.error or "the job's worker stopped",
                              "retry": {"method": "POST", "url": request.get_full_path()}},
                             503, Cache_Control="no-store")
    return json_response({"status": job.status, "progress": round(job.progress, 4)}, 202, Cache_Control="no-store")


# -- the pages --------------------------------------------------------------------------------


def _query(asked: jobs.Question) -> str:
    return urlencode({"players": asked.players, "games": asked.games, "seed": asked.seed})


def job_context(request: HttpRequest, job: Job, asked: jobs.Question, url: str) -> dict[str, Any]:
    """What the job's part of a page shows: its progress, its failure, or its report."""
    context: dict[str, Any] = {"job": job, "failed": failed(job), "queued": job.status == Status.QUEUED,
                               "percent": round(100 * job.progress),
                               "poll_url": url, "poll_seconds": POLL_SECONDS, "name": ruleset_name(asked.ruleset)}
    if job.status == Status.DONE:
        report = orjson.loads(job.report)
        chart_query = _query(asked) + ("&dir=rtl" if get_language_bidi() else "")
        context.update(
            report=report, figures=present.figures(report), strategies=present.strategy_figures(report),
            sample=present.sample(report),
            charts={kind: reverse("stats:chart", args=[asked.ruleset.id, kind]) + "?" + chart_query for kind in KINDS})
    return context


def _bad(request: HttpRequest, exc: InputError, template: str, context: dict[str, Any]) -> HttpResponse:
    if isinstance(exc, RulesetError) and exc.code is ErrorCode.UNKNOWN_VARIANT:
        raise Http404(gettext("No ruleset is called “%(id)s”.") % {"id": exc.variant[:80]})
    context["error"] = exc.worded(translation.gettext)
    return render(request, template, context, status=http_status(exc.code))


def limited_page(request: HttpRequest, exc: InputError) -> HttpResponse:
    """429 in the reader's language: too many jobs started (a rate), or too many waiting (the cap)."""
    retry_after = int(getattr(exc, "retry_after", 60))
    context = {"cap": getattr(exc, "cap", 0), "minutes": -(-retry_after // 60)}
    response = render(request, "stats/limited.html", context, status=http_status(exc.code))
    response["Retry-After"] = str(retry_after)
    return response


def _form(request: HttpRequest) -> dict[str, str]:
    return {name: request.GET.get(name, "")[:40] for name in ("players", "games", "seed")}


@require_http_methods(["GET", "HEAD", "POST"])
def page_view(request: HttpRequest, ident: str) -> HttpResponse:
    context: dict[str, Any] = {"ident": ident.strip(), "form": _form(request)}
    try:
        asked = _asked(request, ident)
    except InputError as exc:
        try:
            context["name"] = ruleset_name(resolve(ident))
        except InputError:
            pass
        return _bad(request, exc, "stats/stats.html", context)
    try:
        job = _job(request, asked)
    except (OverLimit, TooManyJobs) as exc:
        return limited_page(request, exc)
    if request.method == "POST":
        return HttpResponseRedirect(request.get_full_path(), status=303)
    url = request.get_full_path()
    context.update(job_context(request, job, asked, url), ruleset=asked.ruleset, asked=asked,
                   compare_url=reverse("stats:compare") + "?" + urlencode({"v": asked.ruleset.id}))
    template = "stats/stats.html#job" if getattr(request, "htmx", False) else "stats/stats.html"
    response = render(request, template, context)
    patch_vary_headers(response, ("HX-Request",))
    response["Cache-Control"] = "no-cache"
    return response


@require_http_methods(["GET", "HEAD"])
def chart_view(request: HttpRequest, ident: str, kind: str) -> HttpResponse:
    try:
        asked = _asked(request, ident)
    except InputError:
        raise Http404(gettext("There is no page at this address.")) from None
    job = jobs.find(asked)
    if kind not in KINDS or job is None or job.status != Status.DONE:
        raise Http404(gettext("There is no page at this address."))
    rtl = request.GET.get("dir") == "rtl"
    svg = chart_svg(job.pk, kind, orjson.loads(job.report), translation.get_language() or "en", rtl)
    response = HttpResponse(svg, content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=86400"
    return response


MAX_COMPARED = 2


def choices(picked: list[str]) -> list[tuple[str, str]]:
    """The rulesets a reader may pick, by name: the published ones, and a house ruleset picked."""
    out = [(ident, ruleset_name(resolve(ident))) for ident in option_ids()]
    for ident in picked:
        if ident not in option_ids():
            try:
                out.append((ident, ruleset_name(resolve(ident))))
            except InputError:
                continue
    return out


@require_http_methods(["GET", "HEAD", "POST"])
def compare_view(request: HttpRequest) -> HttpResponse:
    idents = [v.strip() for v in request.GET.getlist("v") if v.strip()][:MAX_COMPARED]
    form = _form(request)
    listed = choices(idents)
    defaults = [*idents, *(ident for ident, _ in listed if ident not in idents)]
    slots = [{"label": gettext("First ruleset"), "value": defaults[0]},
             {"label": gettext("Second ruleset"), "value": defaults[1]}]
    context: dict[str, Any] = {"choices": listed, "slots": slots, "form": form}
    if len(idents) < MAX_COMPARED:
        return render(request, "stats/compare.html", context)
    sides = []
    try:
        questions = [_asked(request, ident) for ident in idents]
    except InputError as exc:
        if isinstance(exc, RulesetError) and exc.code is ErrorCode.UNKNOWN_VARIANT:
            context["error"] = gettext("No ruleset is called “%(id)s”.") % {"id": exc.variant[:80]}
            return render(request, "stats/compare.html", context, status=400)
        return _bad(request, exc, "stats/compare.html", context)
    try:
        for asked in questions:
            job = _job(request, asked)
            url = reverse("stats:page", args=[asked.ruleset.id]) + "?" + _query(asked)
            sides.append(job_context(request, job, asked, url))
    except (OverLimit, TooManyJobs) as exc:
        return limited_page(request, exc)
    if request.method == "POST":
        return HttpResponseRedirect(request.get_full_path(), status=303)
    done = all(side["job"].status == Status.DONE for side in sides)
    left, right = sides
    context.update(sides=sides, done=done, any_failed=any(side["failed"] for side in sides),
                   percent=round(sum(side["percent"] for side in sides) / len(sides)), poll_url=request.get_full_path(),
                   poll_seconds=POLL_SECONDS)
    if done:
        rows = present.compare(left["name"], left["report"], right["name"], right["report"])
        context.update(rows=rows, differences=[row.differs for row in rows if row.differs])
    template = "stats/compare.html#result" if getattr(request, "htmx", False) else "stats/compare.html"
    response = render(request, template, context)
    patch_vary_headers(response, ("HX-Request",))
    response["Cache-Control"] = "no-cache"
    return response

"""Serving-side middleware: a chunked request body is refused with 411 (behind nginx it never
arrives chunked: nginx reads it and passes it on with a Content-Length), and every answer says
which browser features the site may use (Permissions-Policy); and django-csp's middleware with
the Content-Security-Policy written once per process (:class:`CSPMiddleware`); while the database
cannot be reached, a 503 with ``Retry-After`` instead of a 500 (:class:`DatabaseDownMiddleware`)."""

from __future__ import annotations

import logging
from collections.abc import Callable

import csp.middleware
from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.utils import build_policy
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render

from rules.errors import ErrorCode, InputError

from .answers import error_response

LENGTH_REQUIRED = "a request body must come with a Content-Length (chunked transfer encoding is not accepted)"


class ServingMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower():
            response: HttpResponseBase = length_required(request)
        else:
            response = self.get_response(request)
        response.headers.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        return response


def length_required(request: HttpRequest) -> HttpResponse:
    """411: Django reads a body by its Content-Length, so a chunked one would read as empty."""
    if request.path.startswith("/api/"):
        # The unread body must not be taken for the next request on the connection: close it.
        return error_response(InputError(LENGTH_REQUIRED, code=ErrorCode.LENGTH_REQUIRED), Connection="close")
    response = HttpResponse(LENGTH_REQUIRED, status=411, content_type="text/plain; charset=utf-8")
    response["Connection"] = "close"
    return response


log = logging.getLogger(__name__)
DATABASE_DOWN = (OperationalError, InterfaceError)
"""What Django raises when the database cannot be reached (refused, restarting, a connection lost
or closed under a persistent connection); a view that catches every exception re-raises these."""
RETRY_AFTER_SECONDS = 5
"""What a 503 asks the client to wait: a database restart takes a second or so."""
UNAVAILABLE = "the database cannot be reached just now; try again in a few seconds (judging still works)"


class DatabaseDownMiddleware:
    """A view that needs the database while it is unreachable answers 503 with ``Retry-After``:
    JSON under ``/api/`` (code ``unavailable``), a page in the reader's language elsewhere (htmx:
    the notice in place of the ruling). Nothing else needs the database (no sessions, no
    database cache), so judging, the reference pages and cached shared rulings keep answering.
    The connection that failed is closed by Django at the end of the request, and the next
    request opens a new one."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, DATABASE_DOWN):
            return None
        log.warning("database unreachable (%s): answered 503 to %s %s",
                                            type(exception).__name__, request.method, request.path)
        return database_down(request)


def database_down(request: HttpRequest) -> HttpResponse:
    """503 with ``Retry-After``: JSON for the API, a page in the reader's language otherwise."""
    if request.path.startswith("/api/"):
        response = error_response(InputError(UNAVAILABLE, code=ErrorCode.UNAVAILABLE))
    else:
        context = {"seconds": RETRY_AFTER_SECONDS}
        if getattr(request, "htmx", False):
            response = render(request, "503.html#notice", context, status=503)
            response["HX-Retarget"] = "#ruling"
            response["HX-Reswap"] = "outerHTML"
        else:
            response = render(request, "503.html", context, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


_POLICIES: dict[bool, tuple[object, str]] = {}
"""The policy django-csp builds from the settings, by report-only: (the settings' value, the header)."""


def _settings_policy(report_only: bool) -> str:
    """What :func:`csp.utils.build_policy` makes of the settings alone, built once per value of
    the setting (a test that overrides it gets its own)."""
    config = getattr(settings, "CONTENT_SECURITY_POLICY_REPORT_ONLY" if report_only else "CONTENT_SECURITY_POLICY", None)
    found = _POLICIES.get(report_only)
    if found is None or found[0] is not config:
        found = _POLICIES[report_only] = (config, build_policy(report_only=report_only))
    return found[1]


class CSPMiddleware(csp.middleware.CSPMiddleware):
    """django-csp's middleware, with the policy written once per process instead of per answer.

    django-csp rebuilds the header from the settings for every response, twice (the policy and
    the report-only one): a tenth of a millisecond on every request, the empty ones included.
    When the response asks for nothing of its own (no ``@csp_update``/``@csp_replace``/
    ``@csp_override`` decorator) and no nonce was used, the header depends only on the settings,
    so it is built once; otherwise django-csp's own code runs. The rules for where the header is
    set (not over one already set, not on an exempt answer or an excluded prefix, not on a debug
    page) are django-csp's, kept as they are."""

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if getattr(request, "_csp_nonce", None) is not None or any(
                getattr(response, name, None) is not None for name in _OWN_POLICY):
            return super().process_response(request, response)
        if response.status_code in (500, 404) and settings.DEBUG:
            return response
        for report_only, header, exempt, setting in _HEADERS:
            policy = _settings_policy(report_only)
            if not policy or header in response or getattr(response, exempt, False) is not False:
                continue
            prefixes = (getattr(settings, setting, None) or {}).get("EXCLUDE_URL_PREFIXES", None) or ()
            if not request.path_info.startswith(tuple(prefixes)):
                response[header] = policy
        request.csp_nonce = csp.middleware.CheckableLazyObject(self._csp_nonce_post_response)  # type: ignore[attr-defined]
        return response


_OWN_POLICY = ("_csp_config", "_csp_update", "_csp_replace", "_csp_config_ro", "_csp_update_ro", "_csp_replace_ro")
"""The attributes django-csp's decorators set on a response that asks for a policy of its own."""
_HEADERS = (
    (False, HEADER, "_csp_exempt", "CONTENT_SECURITY_POLICY"),
    (True, HEADER_REPORT_ONLY, "_csp_exempt_ro", "CONTENT_SECURITY_POLICY_REPORT_ONLY"),
)

"""The project's CSPMiddleware builds the header once per process: it must set exactly what
django-csp's own middleware sets, response by response."""

from __future__ import annotations

import csp.middleware
import pytest
from csp.decorators import csp_exempt, csp_update
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory, override_settings

from mextrain_site.core.middleware import CSPMiddleware

HEADERS = ("Content-Security-Policy", "Content-Security-Policy-Report-Only")


def plain(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok")


@csp_update({"img-src": ["https://example.org"]})
def updated(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok")


@csp_exempt()
def exempt(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok")


def nonced(request: HttpRequest) -> HttpResponse:
    return HttpResponse(str(request.csp_nonce))  # type: ignore[attr-defined]


def headers(middleware: type[csp.middleware.CSPMiddleware], view: object, path: str = "/en/") -> dict[str, str | None]:
    request = RequestFactory().get(path)
    response = middleware(view)(request)  # type: ignore[arg-type]
    return {h: response.get(h) for h in HEADERS}


@pytest.mark.parametrize("view", [plain, updated, exempt, nonced])
@pytest.mark.parametrize("path", ["/en/", "/api/adjudicate", "/health"])
def test_the_header_is_django_csps_own(view: object, path: str) -> None:
    ours, theirs = headers(CSPMiddleware, view, path), headers(csp.middleware.CSPMiddleware, view, path)
    if view is not nonced:  # a nonce differs per request: compare the rest of the policy
        assert ours == theirs
    else:
        assert ours.keys() == theirs.keys() and all((ours[h] is None) == (theirs[h] is None) for h in HEADERS)
    assert (ours["Content-Security-Policy"] is None) == (view is exempt)


def test_a_changed_setting_changes_the_header() -> None:
    before = headers(CSPMiddleware, plain)["Content-Security-Policy"]
    with override_settings(CONTENT_SECURITY_POLICY={"DIRECTIVES": {"default-src": ["'none'"]}},
                           CONTENT_SECURITY_POLICY_REPORT_ONLY={"DIRECTIVES": {"default-src": ["'self'"]}}):
        assert headers(CSPMiddleware, plain) == headers(csp.middleware.CSPMiddleware, plain)
        assert headers(CSPMiddleware, plain)["Content-Security-Policy"] == "default-src 'none'"
    assert headers(CSPMiddleware, plain)["Content-Security-Policy"] == before

"""Serving-side middleware: a chunked request body is refused with 411 (behind nginx it never
arrives chunked: nginx reads it and passes it on with a Content-Length), and every answer says
which browser features the site may use (Permissions-Policy)."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase

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
        from mextrain_site.api.views import error_response
        from rules.errors import ErrorCode, InputError

        # The unread body must not be taken for the next request on the connection: close it.
        return error_response(InputError(LENGTH_REQUIRED, code=ErrorCode.LENGTH_REQUIRED), Connection="close")
    response = HttpResponse(LENGTH_REQUIRED, status=411, content_type="text/plain; charset=utf-8")
    response["Connection"] = "close"
    return response

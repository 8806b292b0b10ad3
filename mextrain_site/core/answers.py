"""JSON answers, errors included: ``{"error": {"code", "message", "line", "column"}}``, the status
from the one table (:mod:`.errors`). Here, below every app, so that the API and the serving
middleware (a chunked body under ``/api/``) answer in the same shape."""

from __future__ import annotations

from typing import Any

import orjson
from django.http import HttpResponse
from django.utils import translation

from rules.answer import Translate
from rules.errors import InputError

from .errors import status as http_status


def json_response(data: Any, status: int = 200, **headers: str) -> HttpResponse:
    return encoded_response(orjson.dumps(data), status, **headers)  # UTF-8, compact; as json.dumps(ensure_ascii=False)


def encoded_response(body: bytes, status: int = 200, **headers: str) -> HttpResponse:
    response = HttpResponse(body, status=status, content_type="application/json; charset=utf-8")
    for name, value in headers.items():
        response.headers[name.replace("_", "-")] = value
    return response


def error_response(exc: InputError, status: int | None = None, translate: Translate | None = None,
                   **headers: str) -> HttpResponse:
    """The JSON error body; the status from the one table (``core.errors``) unless given. An error
    that says when to try again (``retry_after``: a rate or a quota, ``core.limits.OverLimit``) says
    it in ``Retry-After`` too, wherever it is caught."""
    retry_after = getattr(exc, "retry_after", None)
    if retry_after is not None:
        headers.setdefault("Retry_After", str(retry_after))
    body = exc.as_dict(translation.gettext if translate is not None else None)
    return json_response({"error": body}, status if status is not None else http_status(exc.code), **headers)

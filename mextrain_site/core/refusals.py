"""A request the app cannot read at all, answered in the reader's language (JSON under ``/api/``).

* Django refuses a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (or with too many fields) when a
  view or the CSRF check reads the form: :func:`bad_request` (``handler400``) answers 413 with a
  page instead of Django's bare "Bad Request (400)".
* nginx refuses a body over its ``client_max_body_size`` and asks the app for the words:
  :func:`too_large` (``/too-large``, reached only through nginx's ``error_page 413``), for the
  page or the API the client was posting to (``X-Original-URI``).
"""

from __future__ import annotations

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.csrf import csrf_exempt
from django.views.defaults import bad_request as django_bad_request

from rules.errors import ErrorCode, InputError
from rules.position import MAX_TEXT
from variants.house import MAX_FILE

from .answers import error_response
from .sizes import FORM_BYTES

TOO_LARGE = (RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler400``: a body too large to read is a 413 in the reader's language; any other bad
    request Django's own answer (the ``400.html`` page)."""
    if isinstance(exception, TOO_LARGE):
        return too_large_answer(request, request.path)
    return django_bad_request(request, exception)


@csrf_exempt
def too_large(request: HttpRequest) -> HttpResponse:
    """What nginx shows for a body over its limit: the refusal for the address the client posted to."""
    original = str(request.META.get("HTTP_X_ORIGINAL_URI") or "/")
    language = translation.get_language_from_path(original) or translation.get_language()
    with translation.override(language):
        return too_large_answer(request, original)


def too_large_answer(request: HttpRequest, path: str) -> HttpResponse:
    """413: JSON for the API, else a page saying what the limits are (the text was not read, so
    it cannot be shown again: the page the player came from still holds it)."""
    if path.startswith("/api/"):
        return error_response(InputError(f"the request body is larger than {FORM_BYTES} bytes",
                                         code=ErrorCode.TOO_LARGE), Connection="close")
    context = {"max_text": MAX_TEXT, "max_file_kib": MAX_FILE // 1024}
    if getattr(request, "htmx", False):  # the notice in place of the ruling: the page keeps the text
        response = render(request, "413.html#notice", context, status=413)
        response["HX-Retarget"] = "#ruling"
        response["HX-Reswap"] = "outerHTML"
    else:
        response = render(request, "413.html", context, status=413)
    response["Connection"] = "close"  # the body may not have been read: do not read it as the next request
    return response

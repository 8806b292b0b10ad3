"""Reading a JSON request and answering it, for every JSON endpoint of the site (the API's, the
games' and the house rulesets'): the allowed methods, the body within the limit, its charset, the
JSON with its numbers bounded, the language of the answer's reasons, and the answer over a limit.
Every refusal is an :class:`rules.errors.InputError` with its code; ``core.answers`` shapes it."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from rules.answer import Translate
from rules.errors import ErrorCode, InputError
from rules.numbers import ascii_int

from .answers import error_response
from .charsets import body_codec
from .i18n import WORDING
from .limits import OverLimit

View = Callable[..., HttpResponse]
MAX_JSON_DIGITS = 20
"""Longest number accepted in a JSON body (no field is a number: it is refused in any case)."""
LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def allow(*methods: str) -> Callable[[View], View]:
    """Answer any other method with a JSON 405 and an ``Allow`` header."""
    allowed = set(methods) | ({"HEAD"} if "GET" in methods else set())

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method not in allowed:
                listed = ", ".join(sorted(allowed))
                return error_response(
                    InputError(f"{request.method} is not allowed here; use {listed}",
                               code=ErrorCode.METHOD_NOT_ALLOWED),
                    Allow=listed,
                )
            return view(request, *args, **kwargs)

        return wrapped

    return decorate


def reason_translator(request: HttpRequest) -> Translate | None:
    """The wording of reason texts: the reader's language when ``Accept-Language`` asks for one of
    the site's languages other than English (LocaleMiddleware has activated it), else the engine's
    own English (``None``). The answer's ``Content-Language`` follows (see :func:`answer_language`)."""
    language = (getattr(request, "LANGUAGE_CODE", None) or settings.LANGUAGE_CODE).split("-")[0]
    return None if language == "en" else WORDING


def answer_language(translate: Translate | None) -> str:
    return "en" if translate is None else (translation.get_language() or settings.LANGUAGE_CODE)


def read_body(request: HttpRequest) -> bytes:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    try:
        body = request.body
    except RequestDataTooBig:
        raise InputError(f"the request body is larger than {limit} bytes", code=ErrorCode.TOO_LARGE) from None
    except OSError as exc:  # the client went away, or sent less than it announced
        raise InputError(f"the request body could not be read: {exc}", code=ErrorCode.UNREADABLE) from None
    if limit is not None and len(body) > limit:
        raise InputError(f"the request body is larger than {limit} bytes", code=ErrorCode.TOO_LARGE)
    return body


def decode(body: bytes, charset: str | None = None) -> str:
    """The body as text: UTF-8 unless the Content-Type names another charset; a leading BOM is dropped."""
    codec = body_codec(charset)  # CharsetError: an InputError (encoding)
    shown = codec if charset is None else charset.strip()[:40]
    try:
        text = body.decode(codec)
    except UnicodeDecodeError as exc:
        raise InputError(f"the body is not {shown} text (byte {exc.start + 1})", code=ErrorCode.ENCODING) from None
    except UnicodeError:
        raise InputError(f"the body is not {shown} text", code=ErrorCode.ENCODING) from None
    refuse_surrogates(text, ErrorCode.ENCODING)
    return text[1:] if text.startswith("\ufeff") else text


def refuse_surrogates(text: str, code: ErrorCode) -> None:
    """A lone surrogate (``\\ud800`` in JSON) is no character: it cannot be judged nor answered."""
    found = LONE_SURROGATE.search(text)
    if found is not None:
        raise InputError(f"a lone surrogate (\\u{ord(found.group()):04x}) is not a character; "
                         "send the text as UTF-8", code=code)


def is_json(request: HttpRequest, text: str) -> bool:
    """JSON when the Content-Type says so; plain text when it says ``text/plain``; otherwise
    (none, or curl's default form type) JSON when the body starts with ``{``."""
    ctype = request.content_type or ""
    if ctype == "application/json" or ctype.endswith("+json"):
        return True
    if ctype.startswith("text/"):
        return False
    return text.lstrip().startswith("{")


def load_json(text: str) -> Any:
    """The JSON of a request body, or a ``bad-json`` error naming the line and column."""
    try:
        return json.loads(text, parse_int=json_int)
    except json.JSONDecodeError as exc:
        raise InputError(f"malformed JSON: {exc.msg}", exc.lineno, exc.colno, code=ErrorCode.BAD_JSON) from None
    except RecursionError:
        raise InputError("malformed JSON: nested too deeply", code=ErrorCode.BAD_JSON) from None


def json_int(digits: str) -> int:
    """A JSON integer, refused before conversion when it is long (int() of thousands of digits is
    slow, and Python refuses more than 4,300)."""
    value = ascii_int(digits, signed=True, max_digits=MAX_JSON_DIGITS)  # the one number parser
    if value is None:
        raise InputError(f"a number of {len(digits)} digits; no field of the request is a number", code=ErrorCode.BAD_JSON)
    return value


def kind(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean", int: "a number", float: "a number"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


def over_limit(request: HttpRequest, exc: OverLimit) -> HttpResponse:
    """429 (503: the site's storage cap) in the API's error shape (``Retry-After`` is added by :func:`limited`)."""
    return error_response(exc)

"""The JSON API: ``POST /api/adjudicate``, ``GET /api/variants``, ``GET /api/variants/<id>``
(``POST /api/rulesets`` is the house app's: ``mextrain_site.house.api``, with the helpers here).

Every answer is JSON, errors included: ``{"error": {"code", "message", "line", "column"}}``, the
code a :class:`rules.errors.ErrorCode` and the status from the one table, ``core.errors``: 400 (bad
input), 404 (unknown ruleset or endpoint), 405 (wrong method), 411 (a chunked body), 413 (too
large) or 429 (over the rate limit, with ``Retry-After``).
The views decide no rule: ``mextrain_site.core.referee`` parses and calls the engine.
"""

from __future__ import annotations

import functools
import json
import logging
import re
from collections.abc import Callable
from typing import Any

import orjson
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import translation
from django.views.decorators.csrf import csrf_exempt

from mextrain_site.core.answers import encoded_response, error_response, json_response
from mextrain_site.core.caching import conditional
from mextrain_site.core.charsets import body_codec
from mextrain_site.core.errors import status as http_status
from mextrain_site.core.i18n import WORDING
from mextrain_site.core.limits import OverLimit, limited
from mextrain_site.core.middleware import DATABASE_DOWN
from mextrain_site.core.referee import adjudicate_bytes
from mextrain_site.core.rulesets import resolve
from rules.answer import Detail, Translate
from rules.errors import ErrorCode, InputError
from rules.limits import MAX_ANSWER_BYTES
from rules.numbers import ascii_int

from .rulesets import catalogue, ruleset_detail

log = logging.getLogger(__name__)

MAX_VARIANTS = 32
"""Most ruleset ids one request may name."""
MAX_VARIANT_ID = 200
"""Longest ruleset id accepted, in characters."""
REQUEST_FIELDS = ("position", "variant", "detail")
DETAILS = ", ".join(repr(d.value) for d in Detail)
MAX_JSON_DIGITS = 20
"""Longest number accepted in a JSON body (no field is a number: it is refused in any case)."""
View = Callable[..., HttpResponse]


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


# -- POST /api/adjudicate ----------------------------------------------------------------------


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


def parse_json_request(text: str) -> tuple[str, list[str] | None, Detail]:
    data = load_json(text)
    if not isinstance(data, dict):
        raise InputError(f'expected a JSON object {{"position": "...", "variant": ...}}; found {kind(data)}',
                         code=ErrorCode.BAD_REQUEST)
    unknown = [k for k in data if k not in REQUEST_FIELDS]
    if unknown:
        raise InputError(f"unknown field {unknown[0]!r}; the fields are: {', '.join(REQUEST_FIELDS)}",
                         code=ErrorCode.BAD_REQUEST)
    position = data.get("position")
    if not isinstance(position, str):
        found = "nothing" if "position" not in data else kind(position)
        raise InputError(f'"position" must be the position text (a string); found {found}', code=ErrorCode.BAD_REQUEST)
    ids = variant_ids(data.get("variant"))
    for value in (position, *(ids or ())):
        refuse_surrogates(value, ErrorCode.BAD_JSON)
    return position, ids, detail_of(data.get("detail", Detail.FULL.value))


def detail_of(value: Any) -> Detail:
    try:
        return Detail(value)
    except (ValueError, TypeError):
        found = repr(value) if isinstance(value, str) else kind(value)
        raise InputError(f'"detail" must be {DETAILS}; found {found}', code=ErrorCode.BAD_REQUEST) from None


LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def json_int(digits: str) -> int:
    """A JSON integer, refused before conversion when it is long (int() of thousands of digits is
    slow, and Python refuses more than 4,300)."""
    value = ascii_int(digits, signed=True, max_digits=MAX_JSON_DIGITS)  # the one number parser
    if value is None:
        raise InputError(f"a number of {len(digits)} digits; no field of the request is a number", code=ErrorCode.BAD_JSON)
    return value


def variant_ids(value: Any) -> list[str] | None:
    if value is None:
        return None
    ids = [value] if isinstance(value, str) else value
    if not isinstance(ids, list) or not all(isinstance(v, str) for v in ids):
        raise InputError(f'"variant" must be a ruleset id or a list of ids (strings); found {kind(value)}',
                         code=ErrorCode.BAD_REQUEST)
    if len(ids) > MAX_VARIANTS:
        raise InputError(f'"variant" names {len(ids)} rulesets; at most {MAX_VARIANTS} are accepted',
                         code=ErrorCode.BAD_REQUEST)
    for v in ids:
        if not v.strip():
            raise InputError('"variant" contains an empty id', code=ErrorCode.UNKNOWN_VARIANT)
        if len(v) > MAX_VARIANT_ID:
            raise InputError(f"a ruleset id of {len(v)} characters names no ruleset",
                             code=ErrorCode.UNKNOWN_VARIANT)
    return list(ids)


def kind(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean", int: "a number", float: "a number"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


def over_limit(request: HttpRequest, exc: OverLimit) -> HttpResponse:
    """429 (503: the site's storage cap) in the API's error shape (``Retry-After`` is added by :func:`limited`)."""
    return error_response(exc)


@csrf_exempt
@allow("POST")
@limited("judge", respond=over_limit)
def adjudicate_view(request: HttpRequest) -> HttpResponse:
    """Judge a position: the body is the position text, or ``{"position": "...", "variant": ..., "detail": ...}``."""
    translate = reason_translator(request)
    try:
        text = decode(read_body(request), (request.content_params or {}).get("charset"))
        variants: list[str] | None = None
        detail = Detail.FULL
        if is_json(request, text):
            text, variants, detail = parse_json_request(text)
        result = adjudicate_bytes(text, orjson.dumps, variants, translate, detail)
    except InputError as exc:
        return error_response(exc, translate=translate)
    except DATABASE_DOWN:  # a house ruleset not readable now: a 503 (core.middleware), not an engine bug
        raise
    except Exception:  # an engine bug: still JSON, logged with the traceback
        log.exception("adjudicate failed")
        return error_response(InputError("the referee failed on this input; please report it",
                                         code=ErrorCode.INTERNAL_ERROR))
    response = encoded_response(result, Content_Language=answer_language(translate))
    if len(response.content) > MAX_ANSWER_BYTES:
        return error_response(InputError(
            f"the answer would be {len(response.content):,} bytes; at most {MAX_ANSWER_BYTES:,} are "
            "sent: judge fewer rulesets, or give a smaller hand or fewer moves", code=ErrorCode.TOO_LARGE))
    return response


# -- GET /api/variants, GET /api/variants/<id> ------------------------------------------------


@allow("GET")
@conditional
def variants_view(request: HttpRequest) -> HttpResponse:
    """Every ruleset, its sources and options, and the canonical ids of the option combinations."""
    language = answer_language(reason_translator(request))
    data = catalogue(language)
    variants = [{**v, "url": reverse("api:variant", args=[v["id"]])} for v in data["variants"]]
    return json_response({**data, "variants": variants}, Content_Language=language)


@allow("GET")
@conditional
def variant_view(request: HttpRequest, ident: str) -> HttpResponse:
    """One ruleset (options joined by ``+``): every declared rule with its citations."""
    try:
        rs = resolve(ident)
    except InputError as exc:
        return error_response(exc, http_status(exc.code, in_path=True))
    language = answer_language(reason_translator(request))
    return json_response(ruleset_detail(rs.id, language), Content_Language=language)


def not_found(request: HttpRequest, rest: str = "") -> HttpResponse:
    endpoints = "POST /api/adjudicate, GET /api/variants, GET /api/variants/<id>, POST /api/rulesets"
    return error_response(InputError(f"no API endpoint at {request.path}; the endpoints: {endpoints}",
                                     code=ErrorCode.NOT_FOUND))

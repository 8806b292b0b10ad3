"""The JSON API: ``POST /api/adjudicate``, ``GET /api/variants``, ``GET /api/variants/<id>``.

Every answer is JSON, errors included: ``{"error": {"code", "message", "line", "column"}}`` with
status 400 (bad input), 404 (unknown ruleset or endpoint), 405 (wrong method), 411 (a chunked body),
413 (too large) or 429 (over the rate limit, with ``Retry-After``).
The views decide no rule: ``mextrain_site.core.referee`` parses and calls the engine.
"""

from __future__ import annotations

import functools
import json
import logging
import re
from collections.abc import Callable, Sequence
from typing import Any

import orjson
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import translation
from django.views.decorators.csrf import csrf_exempt

from mextrain_site.core.caching import conditional
from mextrain_site.core.charsets import CharsetError, body_codec
from mextrain_site.core.i18n import WORDING
from mextrain_site.core.limits import Limit, OverLimit, charge_storage, limited
from mextrain_site.core.referee import BadInput, adjudicate
from mextrain_site.house.rulesets import store as store_house
from rules.answer import Translate
from rules.limits import MAX_ANSWER_BYTES
from variants.loader import UnknownVariantError
from variants.schema import RulesetFileError, house_from_data

from .rulesets import (
    ImpossibleOptions,
    NoSuchVariant,
    catalogue,
    resolve,
    ruleset_detail,
)

log = logging.getLogger(__name__)

MAX_VARIANTS = 32
"""Most ruleset ids one request may name."""
MAX_VARIANT_ID = 200
"""Longest ruleset id accepted, in characters."""
REQUEST_FIELDS = ("position", "variant")
MAX_JSON_DIGITS = 20
"""Longest number accepted in a JSON body (no field is a number: it is refused in any case)."""
View = Callable[..., HttpResponse]


class RequestError(Exception):
    """A request the API refuses: becomes the JSON error body with ``status``."""

    def __init__(self, status: int, code: str, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.line, self.column = status, code, message, line, column

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "line": self.line, "column": self.column}


def json_response(data: Any, status: int = 200, **headers: str) -> HttpResponse:
    body = orjson.dumps(data)  # UTF-8, compact; the same JSON as json.dumps(ensure_ascii=False)
    response = HttpResponse(body, status=status, content_type="application/json; charset=utf-8")
    for name, value in headers.items():
        response.headers[name.replace("_", "-")] = value
    return response


def error_response(exc: RequestError, **headers: str) -> HttpResponse:
    return json_response({"error": exc.as_dict()}, exc.status, **headers)


def allow(*methods: str) -> Callable[[View], View]:
    """Answer any other method with a JSON 405 and an ``Allow`` header."""
    allowed = set(methods) | ({"HEAD"} if "GET" in methods else set())

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method not in allowed:
                listed = ", ".join(sorted(allowed))
                return error_response(
                    RequestError(405, "method-not-allowed", f"{request.method} is not allowed here; use {listed}"),
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
        raise RequestError(413, "too-large", f"the request body is larger than {limit} bytes") from None
    except OSError as exc:  # the client went away, or sent less than it announced
        raise RequestError(400, "unreadable", f"the request body could not be read: {exc}") from None
    if limit is not None and len(body) > limit:
        raise RequestError(413, "too-large", f"the request body is larger than {limit} bytes")
    return body


def decode(body: bytes, charset: str | None = None) -> str:
    """The body as text: UTF-8 unless the Content-Type names another charset; a leading BOM is dropped."""
    try:
        codec = body_codec(charset)
    except CharsetError as exc:
        raise RequestError(400, "encoding", str(exc)) from None
    shown = codec if charset is None else charset.strip()[:40]
    try:
        text = body.decode(codec)
    except UnicodeDecodeError as exc:
        raise RequestError(400, "encoding", f"the body is not {shown} text (byte {exc.start + 1})") from None
    except UnicodeError:
        raise RequestError(400, "encoding", f"the body is not {shown} text") from None
    refuse_surrogates(text, "encoding")
    return text[1:] if text.startswith("\ufeff") else text


def refuse_surrogates(text: str, code: str) -> None:
    """A lone surrogate (``\\ud800`` in JSON) is no character: it cannot be judged nor answered."""
    found = LONE_SURROGATE.search(text)
    if found is not None:
        raise RequestError(400, code, f"a lone surrogate (\\u{ord(found.group()):04x}) is not a character; "
                                      "send the text as UTF-8")


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
        raise RequestError(400, "bad-json", f"malformed JSON: {exc.msg}", exc.lineno, exc.colno) from None
    except RecursionError:
        raise RequestError(400, "bad-json", "malformed JSON: nested too deeply") from None


def parse_json_request(text: str) -> tuple[str, list[str] | None]:
    data = load_json(text)
    if not isinstance(data, dict):
        raise RequestError(400, "bad-request", f'expected a JSON object {{"position": "...", "variant": ...}}; found {kind(data)}')
    unknown = [k for k in data if k not in REQUEST_FIELDS]
    if unknown:
        raise RequestError(400, "bad-request", f"unknown field {unknown[0]!r}; the fields are: {', '.join(REQUEST_FIELDS)}")
    position = data.get("position")
    if not isinstance(position, str):
        found = "nothing" if "position" not in data else kind(position)
        raise RequestError(400, "bad-request", f'"position" must be the position text (a string); found {found}')
    ids = variant_ids(data.get("variant"))
    for value in (position, *(ids or ())):
        refuse_surrogates(value, "bad-json")
    return position, ids


LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def json_int(digits: str) -> int:
    """A JSON integer, refused before conversion when it is long (int() of thousands of digits is
    slow, and Python refuses more than 4,300)."""
    if len(digits.lstrip("-")) > MAX_JSON_DIGITS:
        raise RequestError(400, "bad-json", f"a number of {len(digits)} digits; no field of the request is a number")
    return int(digits)


def variant_ids(value: Any) -> list[str] | None:
    if value is None:
        return None
    ids = [value] if isinstance(value, str) else value
    if not isinstance(ids, list) or not all(isinstance(v, str) for v in ids):
        raise RequestError(400, "bad-request", f'"variant" must be a ruleset id or a list of ids (strings); found {kind(value)}')
    if len(ids) > MAX_VARIANTS:
        raise RequestError(400, "bad-request", f'"variant" names {len(ids)} rulesets; at most {MAX_VARIANTS} are accepted')
    for v in ids:
        if not v.strip():
            raise RequestError(400, "unknown-variant", '"variant" contains an empty id')
        if len(v) > MAX_VARIANT_ID:
            raise RequestError(400, "unknown-variant", f"a ruleset id of {len(v)} characters names no ruleset")
    return list(ids)


def kind(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean", int: "a number", float: "a number"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


def judge(text: str, variants: Sequence[str] | None, translate: Translate | None) -> dict[str, Any]:
    try:
        return adjudicate(text, variants, translate)
    except BadInput as exc:
        status = 413 if exc.code == "too-large" else 400
        message = exc.worded(translation.gettext) if translate is not None else exc.message
        raise RequestError(status, exc.code, message, exc.line, exc.column) from None


def over_limit(request: HttpRequest, exc: OverLimit) -> HttpResponse:
    """429 in the API's error shape (``Retry-After`` is added by :func:`limited`)."""
    if exc.limit is Limit.QUOTA:
        message = f"this address has stored its {exc.allowed} bytes for today; try again in {exc.retry_after} s"
    else:
        message = f"too many requests from this address (at most {exc.allowed}); try again in {exc.retry_after} s"
    return error_response(RequestError(429, exc.limit.value, message))


@csrf_exempt
@allow("POST")
@limited("judge", respond=over_limit)
def adjudicate_view(request: HttpRequest) -> HttpResponse:
    """Judge a position: the body is the position text, or ``{"position": "...", "variant": ...}``."""
    translate = reason_translator(request)
    try:
        text = decode(read_body(request), (request.content_params or {}).get("charset"))
        variants: list[str] | None = None
        if is_json(request, text):
            text, variants = parse_json_request(text)
        result = judge(text, variants, translate)
    except RequestError as exc:
        return error_response(exc)
    except Exception:  # an engine bug: still JSON, logged with the traceback
        log.exception("adjudicate failed")
        return error_response(RequestError(500, "internal-error", "the referee failed on this input; please report it"))
    response = json_response(result, Content_Language=answer_language(translate))
    if len(response.content) > MAX_ANSWER_BYTES:
        return error_response(RequestError(
            413, "too-large", f"the answer would be {len(response.content):,} bytes; at most {MAX_ANSWER_BYTES:,} are "
                              "sent: judge fewer rulesets, or give a smaller hand or fewer moves"))
    return response


# -- GET /api/variants, GET /api/variants/<id> ------------------------------------------------


@allow("GET")
@conditional
def variants_view(request: HttpRequest) -> HttpResponse:
    """Every ruleset, its sources and options, and the canonical ids of the option combinations."""
    data = catalogue()
    variants = [{**v, "url": reverse("api:variant", args=[v["id"]])} for v in data["variants"]]
    return json_response({**data, "variants": variants})


@allow("GET")
@conditional
def variant_view(request: HttpRequest, ident: str) -> HttpResponse:
    """One ruleset (options joined by ``+``): every declared rule with its citations."""
    try:
        rs = resolve(ident)
    except NoSuchVariant as exc:
        return error_response(RequestError(404, "unknown-variant", str(exc)))
    except ImpossibleOptions as exc:
        return error_response(RequestError(400, "impossible-options", str(exc)))
    return json_response(ruleset_detail(rs.id))


# -- POST /api/rulesets ---------------------------------------------------------------------------

RULESET_FIELDS = ("base", "name", "rules")


@csrf_exempt
@allow("POST")
@limited("ruleset", respond=over_limit)
def create_ruleset_view(request: HttpRequest) -> HttpResponse:
    """Create a house ruleset: ``{"base": "masters", "name": "...", "rules": {"rule.key": value}}``.
    201 with the id and the ruleset (the same rules again: the same id); 400 with the exact reason."""
    try:
        text = decode(read_body(request), (request.content_params or {}).get("charset"))
        data = load_json(text)
        if not isinstance(data, dict):
            raise RequestError(400, "bad-request", f'expected a JSON object {{"base": "...", "name": "...", "rules": {{...}}}}; found {kind(data)}')
        unknown = [k for k in data if k not in RULESET_FIELDS]
        missing = [k for k in RULESET_FIELDS if k not in data]
        if unknown or missing:
            field = unknown[0] if unknown else missing[0]
            what = "unknown field" if unknown else "missing field"
            raise RequestError(400, "bad-request", f"{what} {field!r}; the fields are: {', '.join(RULESET_FIELDS)}")
        try:
            spec = house_from_data(data["base"], data["name"], data["rules"])
            rs = store_house(spec, before_insert=lambda stored: charge_storage(request, stored))
        except RulesetFileError as exc:
            raise RequestError(400, "impossible-ruleset", exc.reason) from None
        except UnknownVariantError as exc:
            raise RequestError(400, "unknown-variant", str(exc)) from None
    except RequestError as exc:
        return error_response(exc)
    url = reverse("api:variant", args=[rs.id])
    return json_response({"id": rs.id, "url": url, "page": reverse("house:page", args=[rs.id]),
                          "yaml": reverse("house:yaml", args=[rs.id]), "ruleset": ruleset_detail(rs.id)},
                         201, Location=url)


def not_found(request: HttpRequest, rest: str = "") -> HttpResponse:
    endpoints = "POST /api/adjudicate, GET /api/variants, GET /api/variants/<id>, POST /api/rulesets"
    return error_response(RequestError(404, "not-found", f"no API endpoint at {request.path}; the endpoints: {endpoints}"))

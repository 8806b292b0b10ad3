"""The JSON API: ``POST /api/adjudicate``, ``GET /api/variants``, ``GET /api/variants/<id>``
(``POST /api/rulesets`` is the house app's: ``mextrain_site.house.api``; the games' endpoints are
``mextrain_site.game.api``; all read their requests with ``core.json_requests``).

Every answer is JSON, errors included: ``{"error": {"code", "message", "line", "column"}}``, the
code a :class:`rules.errors.ErrorCode` and the status from the one table, ``core.errors``: 400 (bad
input), 404 (unknown ruleset or endpoint), 405 (wrong method), 411 (a chunked body), 413 (too
large) or 429 (over the rate limit, with ``Retry-After``).
The views decide no rule: ``mextrain_site.core.referee`` parses and calls the engine.
"""

from __future__ import annotations

import logging
from typing import Any

import orjson
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt

from mextrain_site.core.answers import encoded_response, error_response, json_response
from mextrain_site.core.caching import conditional
from mextrain_site.core.errors import status as http_status
from mextrain_site.core.json_requests import (
    allow,
    answer_language,
    decode,
    is_json,
    kind,
    load_json,
    over_limit,
    read_body,
    reason_translator,
    refuse_surrogates,
)
from mextrain_site.core.limits import limited
from mextrain_site.core.middleware import DATABASE_DOWN
from mextrain_site.core.referee import adjudicate_bytes
from mextrain_site.core.ruleset_json import catalogue, ruleset_detail
from mextrain_site.core.rulesets import resolve
from rules.answer import Detail
from rules.errors import ErrorCode, InputError
from rules.limits import MAX_ANSWER_BYTES

log = logging.getLogger(__name__)

MAX_VARIANTS = 32
"""Most ruleset ids one request may name."""
MAX_VARIANT_ID = 200
"""Longest ruleset id accepted, in characters."""
REQUEST_FIELDS = ("position", "variant", "detail")
DETAILS = ", ".join(repr(d.value) for d in Detail)


# -- POST /api/adjudicate ----------------------------------------------------------------------


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

"""``POST /api/rulesets``: create a house ruleset through the JSON API (routed here, before the
API's own endpoints, by ``mextrain_site.urls``; the API app knows nothing of house rulesets but
the ids it resolves through ``core.rulesets``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt

from mextrain_site.core.answers import error_response, json_response
from mextrain_site.core.json_requests import (
    allow,
    answer_language,
    decode,
    kind,
    load_json,
    over_limit,
    read_body,
    reason_translator,
)
from mextrain_site.core.limits import charge_storage, limited
from mextrain_site.core.ruleset_json import ruleset_detail
from rules.errors import ErrorCode, InputError
from variants.schema import house_from_data

from .rulesets import store

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
            raise InputError(f'expected a JSON object {{"base": "...", "name": "...", "rules": {{...}}}}; found '
                             f"{kind(data)}", code=ErrorCode.BAD_REQUEST)
        unknown = [k for k in data if k not in RULESET_FIELDS]
        missing = [k for k in RULESET_FIELDS if k not in data]
        if unknown or missing:
            field = unknown[0] if unknown else missing[0]
            what = "unknown field" if unknown else "missing field"
            raise InputError(f"{what} {field!r}; the fields are: {', '.join(RULESET_FIELDS)}", code=ErrorCode.BAD_REQUEST)
        spec = house_from_data(data["base"], data["name"], data["rules"])  # RulesetFileError: its reason
        rs = store(spec, before_insert=lambda stored: charge_storage(request, stored))
    except InputError as exc:
        return error_response(exc)
    url = reverse("api:variant", args=[rs.id])
    return json_response({"id": rs.id, "url": url, "page": reverse("house:page", args=[rs.id]),
                          "yaml": reverse("house:yaml", args=[rs.id]), "ruleset": ruleset_detail(rs.id, answer_language(reason_translator(request)))},
                         201, Location=url)



"""The games API: ``POST /api/games``, ``GET /api/games/<id>``, ``POST /api/games/<id>/rounds``.

Errors have the API's one shape, ``{"error": {"code", "message"}}``: 400 with the exact reason,
403 ``forbidden`` without the edit secret (``Authorization: Bearer <edit_token>``), 404, 409
``stale-version`` with the sheet as it now stands, 429 over the rate limit or the storage quota.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt

from mextrain_site.core.answers import error_response, json_response
from mextrain_site.core.json_requests import (
    allow,
    decode,
    kind,
    load_json,
    over_limit,
    read_body,
    reason_translator,
)
from mextrain_site.core.limits import charge_storage, limited
from rules.errors import ErrorCode, InputError
from rules.tiles import Tile
from variants.loader import RulesetError

from . import store
from .models import Game
from .present import round_json, sheet_json
from .sheet import Entry

GAME_FIELDS = ("ruleset", "players", "set")
ROUND_FIELDS = ("round", "version", "out", "blocked", "hands")


def links(request: HttpRequest, game_id: str, token: str | None = None) -> dict[str, str]:
    view = request.build_absolute_uri(reverse("game:sheet", args=[game_id]))
    out = {"view_url": view}
    if token is not None:
        out["edit_url"] = request.build_absolute_uri(reverse("game:edit", args=[game_id])) + "#" + token
    return out


def _object(request: HttpRequest, fields: tuple[str, ...], shape: str) -> dict[str, Any]:
    data = load_json(decode(read_body(request), (request.content_params or {}).get("charset")))
    if not isinstance(data, dict):
        raise InputError(f"expected a JSON object {shape}; found {kind(data)}", code=ErrorCode.BAD_REQUEST)
    unknown = [k for k in data if k not in fields]
    if unknown:
        raise InputError(f"unknown field {unknown[0]!r}; the fields are: {', '.join(fields)}", code=ErrorCode.BAD_REQUEST)
    return data


def _whole(data: dict[str, Any], key: str, required: bool = True) -> int | None:
    value = data.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        found = "nothing" if key not in data else kind(value)
        raise InputError(f'"{key}" must be a whole number; found {found}', code=ErrorCode.BAD_REQUEST)
    return value


def _game(game_id: str) -> Game:
    try:
        return store.get(game_id)
    except store.NoGame:
        raise InputError(f"no game is called {game_id!r}", code=ErrorCode.NOT_FOUND) from None


@csrf_exempt
@allow("POST")
@limited("share", respond=over_limit)
def create_view(request: HttpRequest) -> HttpResponse:
    """``{"ruleset": "howto", "players": ["Ann", "Bob", "Cy"], "set": 12}`` -> 201 with the links,
    the edit secret and the rounds."""
    try:
        data = _object(request, GAME_FIELDS, '{"ruleset": "...", "players": ["Ann", "Bob"], "set": 12}')
        ruleset, players = data.get("ruleset"), data.get("players")
        if not isinstance(ruleset, str):
            raise InputError(f'"ruleset" must be a ruleset id (a string); found {kind(ruleset)}', code=ErrorCode.BAD_REQUEST)
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise InputError(f'"players" must be a list of names; found {kind(players)}', code=ErrorCode.BAD_REQUEST)
        try:
            game, token = store.create(ruleset, players, _whole(data, "set", required=False),
                                       before_insert=lambda text: charge_storage(request, text))
        except RulesetError as exc:
            raise InputError(exc.message, code=exc.code) from None
    except InputError as exc:
        return error_response(exc, translate=reason_translator(request))
    sheet = store.sheet(game)
    body = {"id": game.id, **links(request, game.id, token), "edit_token": token,
            "ruleset": sheet.ruleset.id, "set": sheet.set_max, "players": list(sheet.players),
            "rounds": [round_json(r) for r in sheet.rounds], "version": sheet.version}
    return json_response(body, 201, Location=reverse("game:api-game", args=[game.id]), Cache_Control="no-store")


@allow("GET")
def game_view(request: HttpRequest, game_id: str) -> HttpResponse:
    try:
        game = _game(game_id)
    except InputError as exc:
        return error_response(exc)
    return json_response({**sheet_json(store.sheet(game)), **links(request, game.id)}, Cache_Control="no-cache")


def bearer(request: HttpRequest) -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def parse_hands(value: Any) -> dict[str, tuple[Tile, ...] | int]:
    if not isinstance(value, dict):
        raise InputError(f'"hands" must map each player to a list of tiles or a number; found {kind(value)}',
                         code=ErrorCode.BAD_REQUEST)
    out: dict[str, tuple[Tile, ...] | int] = {}
    for name, hand in value.items():
        if isinstance(hand, int) and not isinstance(hand, bool):
            out[name] = hand
        elif isinstance(hand, list) and all(isinstance(t, str) for t in hand):
            try:
                out[name] = tuple(Tile.parse(t.strip()) for t in hand)
            except ValueError as exc:
                raise InputError(f"{name}: {exc}", code=ErrorCode.SYNTAX) from None
        else:
            raise InputError(f"{name}'s hand must be a list of tiles like \"6-4\" or a number; found {kind(hand)}",
                             code=ErrorCode.BAD_REQUEST)
    return out


def stale_response(exc: store.Stale) -> HttpResponse:
    body = {"error": {"code": "stale-version", "message": f"the round was written on version {exc.based_on}, but the "
                      f"sheet is at version {exc.sheet.version}: read it again and write on the new version"},
            "sheet": sheet_json(exc.sheet)}
    return json_response(body, 409)


def forbidden_response() -> HttpResponse:
    return json_response({"error": {"code": "forbidden", "message": "writing to this game needs its edit secret: "
                                    "send 'Authorization: Bearer <edit_token>'"}}, 403)


@csrf_exempt
@allow("POST")
@limited("share", respond=over_limit)
def rounds_view(request: HttpRequest, game_id: str) -> HttpResponse:
    """``{"round": 1, "version": 0, "out": "Ann", "hands": {"Bob": ["0-0", "12-11"], "Cy": 21}}``
    (or ``"blocked": true`` and every hand) -> 201 with the round's scores, the totals and the version."""
    try:
        game = _game(game_id)
        if not store.may_edit(game, bearer(request)):
            return forbidden_response()
        data = _object(request, ROUND_FIELDS, '{"round": 1, "version": 0, "out": "Ann", "hands": {...}}')
        number, version = _whole(data, "round"), _whole(data, "version")
        out, blocked = data.get("out"), data.get("blocked", False)
        if out is not None and not isinstance(out, str):
            raise InputError(f'"out" must be a player\'s name; found {kind(out)}', code=ErrorCode.BAD_REQUEST)
        if not isinstance(blocked, bool):
            raise InputError(f'"blocked" must be true or false; found {kind(blocked)}', code=ErrorCode.BAD_REQUEST)
        assert number is not None and version is not None
        entry = Entry(number, out, blocked, parse_hands(data.get("hands", {})))
        sheet = store.append(game, bearer(request), version, entry, lambda text: charge_storage(request, text))
    except store.Forbidden:
        return forbidden_response()
    except store.Stale as exc:
        return stale_response(exc)
    except InputError as exc:
        return error_response(exc, translate=reason_translator(request))
    row = sheet.round(number)
    assert row is not None
    return json_response({"round": number, **round_json(row), "totals": dict(sheet.totals),
                          "leader": list(sheet.leaders), "finished": sheet.finished, "version": sheet.version}, 201)

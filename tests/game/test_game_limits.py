"""Games count against the shares' rate limit and the per-address storage quota."""

from __future__ import annotations

import json

import pytest
from django.test import Client, override_settings

from mextrain_site.game.models import Game, GameEvent

pytestmark = [pytest.mark.django_db, pytest.mark.ratelimit]
BODY = json.dumps({"ruleset": "howto", "players": ["Ann", "Bob"]})


def limits(**rates: str) -> override_settings:
    return override_settings(RATE_LIMITS={"judge": "off", "share": "off", "ruleset": "off", "build": "off", **rates})


def test_creating_games_through_the_api_is_limited_with_json_and_retry_after(client: Client) -> None:
    with limits(share="2/h"):
        ok = [client.post("/api/games", BODY, content_type="application/json").status_code for _ in range(2)]
        over = client.post("/api/games", BODY, content_type="application/json")
    assert ok == [201, 201] and over.status_code == 429 and int(over["Retry-After"]) > 0
    assert over.json()["error"]["code"] == "rate-limited" and Game.objects.count() == 2


def test_creating_games_on_the_page_is_limited_with_a_page(client: Client) -> None:
    with limits(share="1/h"):
        assert client.post("/he/game/new/", {"players": "Ann Bob", "ruleset": "howto"}).status_code == 303
        over = client.post("/he/game/new/", {"players": "Ann Bob", "ruleset": "howto"})
    assert over.status_code == 429 and '<html lang="he"' in over.content.decode()


def test_the_storage_quota_counts_games_and_rounds(client: Client) -> None:
    with limits(), override_settings(STORAGE_QUOTA_BYTES=120):
        game = client.post("/api/games", BODY, content_type="application/json").json()
        url = f"/api/games/{game['id']}/rounds"
        headers = {"Authorization": f"Bearer {game['edit_token']}"}
        first = client.post(url, json.dumps({"round": 1, "version": 0, "out": "Ann", "hands": {"Bob": 5}}),
                            content_type="application/json", headers=headers)
        over = client.post(url, json.dumps({"round": 2, "version": 1, "out": "Ann", "hands": {"Bob": 5}}),
                           content_type="application/json", headers=headers)
    assert first.status_code == 201
    assert over.status_code == 429 and over.json()["error"]["code"] == "quota-exceeded"
    assert GameEvent.objects.count() == 1

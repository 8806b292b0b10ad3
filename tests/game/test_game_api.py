"""The games API over real HTTP handling (Django's test client, the real database): create, write a
round with the edit secret, read the sheet; every refusal with its status and exact reason."""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connection
from django.test import Client

from mextrain_site.game.models import Game, GameEvent
from tests.db_threads import in_thread

pytestmark = [pytest.mark.django_db(transaction=True)]


def post(client: Client, url: str, body: Any, token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.post(url, json.dumps(body), content_type="application/json", headers=headers)


def new_game(client: Client, ruleset: str = "howto", players: tuple[str, ...] = ("Ann", "Bob", "Cy"),
             **extra: Any) -> dict[str, Any]:
    response = post(client, "/api/games", {"ruleset": ruleset, "players": list(players), **extra})
    assert response.status_code == 201, response.content
    return response.json()


def test_the_database_in_use() -> None:
    import os

    assert connection.vendor == os.environ.get("MEXTRAIN_EXPECT_DB_VENDOR", "sqlite")


def test_create_answers_the_links_the_secret_and_the_rounds(client: Client) -> None:
    game = new_game(client, set=12)
    assert game["view_url"] == f"http://testserver/g/{game['id']}/"
    assert game["edit_url"] == f"http://testserver/g/{game['id']}/edit/#{game['edit_token']}"
    assert len(game["edit_token"]) >= 32  # 192 random bits, base64url
    assert [r["engine"] for r in game["rounds"]] == [f"{n}-{n}" for n in range(12, -1, -1)]
    assert all(r["scores"] is None for r in game["rounds"]) and game["version"] == 0
    row = Game.objects.get(pk=game["id"])
    assert game["edit_token"] not in row.token_hash  # only its hash is stored


def test_a_round_counted_by_the_engine_and_the_sheet(client: Client) -> None:
    game = new_game(client, set=12)
    url = f"/api/games/{game['id']}/rounds"
    response = post(client, url, {"round": 1, "version": 0, "out": "Ann", "hands": {"Bob": ["0-0", "12-11"], "Cy": 21}},
                    game["edit_token"])
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["scores"] == {"Ann": 0, "Bob": 73, "Cy": 21}
    assert body["counted"] == {"Bob": "0-0 counts 50 + 12-11 counts 23 = 73"}
    assert body["totals"] == {"Ann": 0, "Bob": 73, "Cy": 21} and body["version"] == 1
    sheet = client.get(f"/api/games/{game['id']}").json()
    assert sheet["players"] == ["Ann", "Bob", "Cy"] and sheet["ruleset"] == "howto"
    assert sheet["rounds"][0]["scores"] == {"Ann": 0, "Bob": 73, "Cy": 21} and sheet["leader"] == ["Ann"]
    assert sheet["finished"] is False and sheet["winner"] is None and sheet["version"] == 1
    assert "edit_token" not in json.dumps(sheet) and game["edit_token"] not in json.dumps(sheet)


def test_a_correction_is_a_new_event_and_the_history_keeps_both(client: Client) -> None:
    game = new_game(client)
    url = f"/api/games/{game['id']}/rounds"
    assert post(client, url, {"round": 1, "version": 0, "out": "Ann", "hands": {"Bob": 5, "Cy": 6}}, game["edit_token"]).status_code == 201
    fixed = post(client, url, {"round": 1, "version": 1, "out": "Bob", "hands": {"Ann": 5, "Cy": 6}}, game["edit_token"])
    assert fixed.status_code == 201 and fixed.json()["scores"] == {"Ann": 5, "Bob": 0, "Cy": 6}
    assert fixed.json()["corrected"] == 1
    kinds = list(GameEvent.objects.filter(game_id=game["id"]).values_list("kind", flat=True))
    assert kinds == ["round", "correction"]


def test_the_winner_by_the_tie_break_with_its_citation(client: Client) -> None:
    game = new_game(client, "howto", ("Ann", "Bob"), set=6)  # double-6: 7 rounds
    url = f"/api/games/{game['id']}/rounds"
    version = 0
    for number in range(1, 8):  # Ann goes out in rounds 1-6 with Bob at 5; Bob out in 7 with Ann at 30
        body = ({"out": "Ann", "hands": {"Bob": 5}} if number < 7 else {"out": "Bob", "hands": {"Ann": 30}})
        response = post(client, url, {"round": number, "version": version, **body}, game["edit_token"])
        assert response.status_code == 201, response.content
        version = response.json()["version"]
    sheet = client.get(f"/api/games/{game['id']}").json()
    assert sheet["finished"] is True and sheet["totals"] == {"Ann": 30, "Bob": 30}
    assert sheet["winner"]["players"] == ["Ann"] and sheet["winner"]["decided_by"] == "most-zero-rounds"
    assert sheet["winner"]["rule"] == "winner.tie_breaks" and sheet["winner"]["citations"][0]["quote"]


def test_a_tie_the_ruleset_leaves_standing(client: Client) -> None:
    game = new_game(client, "masters", ("Ann", "Bob"))
    response = post(client, f"/api/games/{game['id']}/rounds", {"round": 1, "version": 0, "blocked": True,
                                                                 "hands": {"Ann": 4, "Bob": ["3-1"]}}, game["edit_token"])
    assert response.status_code == 201
    winner = client.get(f"/api/games/{game['id']}").json()["winner"]
    assert winner["players"] == ["Ann", "Bob"] and winner["tie"] and winner["decided_by"] == "tie"


@pytest.mark.parametrize(("token", "status"), [(None, 403), ("x" * 32, 403)])
def test_writing_needs_the_edit_secret(client: Client, token: str | None, status: int) -> None:
    game = new_game(client)
    response = post(client, f"/api/games/{game['id']}/rounds", {"round": 1, "version": 0, "out": "Ann",
                                                                 "hands": {"Bob": 1, "Cy": 2}}, token)
    assert response.status_code == status and response.json()["error"]["code"] == "forbidden"
    assert not GameEvent.objects.exists()


@pytest.mark.parametrize(("body", "code", "message"), [
    ({"round": 1, "version": 0, "out": "Ann", "hands": {"Dee": 1, "Bob": 1, "Cy": 1}}, "bad-request",
     "there is no player called 'Dee' in this game; the players: Ann, Bob, Cy"),
    ({"round": 1, "version": 0, "out": "Ann", "hands": {"Bob": ["6-6"], "Cy": ["6-6"]}}, "tile-twice",
     "6-6 is given twice (in Bob's hand and in Cy's)"),
    ({"round": 1, "version": 0, "out": "Ann", "hands": {"Bob": ["10-9"], "Cy": 1}}, "pip-above-set",
     "10-9 is not in the double-9 set"),
    ({"round": 1, "version": 0, "out": "Ann", "hands": {"Bob": -3, "Cy": 1}}, "bad-request",
     "expected points from 0 to 10000 for Bob, found -3"),
    ({"round": 1, "version": 0, "out": "Ann", "hands": {"Bob": ["6:4"], "Cy": 1}}, "syntax",
     "Bob: expected a tile like 6-4, found '6:4'"),
    ({"round": 11, "version": 0, "out": "Ann", "hands": {"Bob": 1, "Cy": 1}}, "bad-request",
     "expected a round from 1 to 10, found 11"),
    ({"round": "1", "version": 0}, "bad-request", '"round" must be a whole number; found a string'),
    ({"round": 1, "version": 0, "hands": {}, "who": 1}, "bad-request",
     "unknown field 'who'; the fields are: round, version, out, blocked, hands"),
])
def test_bad_rounds_get_400_with_the_exact_reason(client: Client, body: dict[str, Any], code: str, message: str) -> None:
    game = new_game(client, set=9)
    response = post(client, f"/api/games/{game['id']}/rounds", body, game["edit_token"])
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == code and response.json()["error"]["message"] == message
    assert not GameEvent.objects.exists()


@pytest.mark.parametrize(("body", "message"), [
    ({"ruleset": "nope", "players": ["Ann", "Bob"]}, "unknown variant 'nope'; known variants: "),
    ({"ruleset": "howto", "players": ["Ann"]}, "expected 2 to 14 players under howto, found 1"),
    ({"ruleset": "howto", "players": ["Ann", "Bob"], "set": 7}, "expected a standard set (6, 9, 12, 15, 18); found 7"),
    ({"ruleset": "howto", "players": "Ann Bob"}, '"players" must be a list of names; found a string'),
])
def test_bad_games_get_400(client: Client, body: dict[str, Any], message: str) -> None:
    response = post(client, "/api/games", body)
    assert response.status_code in (400, 404) and message in response.json()["error"]["message"]
    assert not Game.objects.exists()


def test_a_ruleset_with_options_resolves(client: Client) -> None:
    game = new_game(client, "gamerules+reverse-order", ("Ann", "Bob", "Cy", "Dee"))
    assert client.get(f"/api/games/{game['id']}").json()["ruleset"] == "gamerules+reverse-order"


def test_a_stale_version_gets_409_and_the_sheet(client: Client) -> None:
    game = new_game(client)
    url = f"/api/games/{game['id']}/rounds"
    first = {"round": 1, "version": 0, "out": "Ann", "hands": {"Bob": 1, "Cy": 2}}
    assert post(client, url, first, game["edit_token"]).status_code == 201
    again = post(client, url, {**first, "hands": {"Bob": 9, "Cy": 9}}, game["edit_token"])
    assert again.status_code == 409 and again.json()["error"]["code"] == "stale-version"
    assert again.json()["sheet"]["rounds"][0]["scores"] == {"Ann": 0, "Bob": 1, "Cy": 2}


def test_unknown_game_is_a_json_404(client: Client) -> None:
    response = client.get("/api/games/aaaaaaaaaaaaa")
    assert response.status_code == 404 and response.json()["error"]["code"] == "not-found"


THREADS = 6


def test_concurrent_writes_of_one_round_exactly_one_wins(client: Client) -> None:
    game = new_game(client)
    url = f"/api/games/{game['id']}/rounds"
    barrier = threading.Barrier(THREADS)

    def write(points: int) -> tuple[int, dict[str, Any]]:
        barrier.wait(timeout=30)
        response = post(Client(), url, {"round": 1, "version": 0, "out": "Ann", "hands": {"Bob": points, "Cy": 1}},
                        game["edit_token"])
        return response.status_code, response.json()

    with ThreadPoolExecutor(THREADS) as pool:
        results = [f.result(timeout=60) for f in [pool.submit(in_thread(write, n)) for n in range(THREADS)]]
    statuses = sorted(status for status, _ in results)
    assert statuses == [201] + [409] * (THREADS - 1), results
    winner = next(body for status, body in results if status == 201)
    sheet = client.get(f"/api/games/{game['id']}").json()
    assert sheet["version"] == 1 and sheet["rounds"][0]["scores"] == winner["scores"]
    for status, body in results:  # each loser was told what the sheet now holds: nothing lost unseen
        if status == 409:
            assert body["sheet"]["rounds"][0]["scores"] == winner["scores"]

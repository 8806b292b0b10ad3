"""The live sheet in the production shape (bench/stack.py): two gunicorn servers and two uvicorn
servers for the event streams behind nginx, PostgreSQL and Redis. A round written through server A
reaches a stream connected through server B (Redis pub/sub), and a stream through nginx."""

from __future__ import annotations

import http.client
import json
import time
import urllib.parse
from collections.abc import Iterator

import pytest

from bench.stack import Stack, Unavailable, production_stack
from tests.serving import fetch

pytestmark = [pytest.mark.stack]


@pytest.fixture(scope="module")
def stack() -> Iterator[Stack]:
    try:
        with production_stack(servers=2, workers=2, streams=True, RATELIMIT_SHARE="100/m") as running:
            yield running
    except Unavailable as exc:
        pytest.skip(f"the production stack cannot start here: {exc}")


def open_stream(base: str, game: str) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
    url = urllib.parse.urlsplit(base)
    conn = http.client.HTTPConnection(url.hostname or "127.0.0.1", url.port, timeout=20)
    conn.request("GET", f"/g/{game}/events", headers={"Accept": "text/event-stream", "Host": "localhost"})
    response = conn.getresponse()
    assert response.status == 200 and response.getheader("Content-Type", "").startswith("text/event-stream")
    return conn, response


def next_version(response: http.client.HTTPResponse, within: float = 10.0) -> int:
    """The next version the stream announces; fails after ``within`` seconds (the stream's keep-alive
    comments would otherwise keep a read waiting for ever)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        line = response.fp.readline().decode()
        if line.startswith("data: "):
            return int(line[6:])
    raise AssertionError(f"no event within {within} s")


def test_a_round_written_through_server_a_reaches_a_stream_through_server_b(stack: Stack) -> None:
    a, b = stack.servers[0].url, stack.streams[1].url
    created = fetch(a, "POST", "/api/games", json.dumps({"ruleset": "howto", "players": ["Ann", "Bob"]}).encode(),
                    Content_Type="application/json", Host="localhost")
    assert created.status == 201, created.text
    game = json.loads(created.body)
    streams = [open_stream(b, game["id"]), open_stream(stack.url, game["id"])]  # B directly, and through nginx
    assert [next_version(r) for _, r in streams] == [0, 0]
    started = time.monotonic()
    written = fetch(a, "POST", f"/api/games/{game['id']}/rounds",
                    json.dumps({"round": 1, "version": 0, "out": "Ann", "hands": {"Bob": 12}}).encode(),
                    Content_Type="application/json", Authorization=f"Bearer {game['edit_token']}", Host="localhost")
    assert written.status == 201, written.text
    assert next_version(streams[0][1]) == 1, "through server B"
    assert next_version(streams[1][1]) == 1, "through nginx"
    assert time.monotonic() - started < 2
    for conn, _ in streams:
        conn.close()

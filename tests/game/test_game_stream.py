"""The live sheet's stream under an ASGI server (uvicorn, in a subprocess on its own SQLite file):
an open stream hears of a round written through the API within 2 seconds, and a stream holds no
worker (many streams open, the API still answers at once). Also the in-process fan-out itself."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.stack import free_port, manage, production_env
from mextrain_site.game import live

pytestmark = pytest.mark.slow  # uvicorn in a subprocess: make test, not make test-fast

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def asgi_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("asgi")
    env = production_env(tmp, RATELIMIT_ENABLE="0")
    env.pop("REDIS_URL", None)
    manage(env, "migrate", "--noinput", "-v", "0")
    port = free_port()
    log = (tmp / "uvicorn.log").open("wb")
    proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "mextrain_site.asgi:application", "--port", str(port),
                             "--host", "127.0.0.1", "--log-level", "warning", "--no-access-log"],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        os.killpg(proc.pid, 15)
        proc.wait(10)


def call(host: str, method: str, path: str, body: object = None, token: str = "") -> tuple[int, dict]:
    conn = http.client.HTTPConnection(host, timeout=10)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    conn.request(method, path, json.dumps(body) if body is not None else None, headers)
    response = conn.getresponse()
    data = json.loads(response.read() or b"null")
    conn.close()
    return response.status, data


class Stream:
    def __init__(self, host: str, game: str) -> None:
        self.conn = http.client.HTTPConnection(host, timeout=5)
        self.conn.request("GET", f"/g/{game}/events", headers={"Accept": "text/event-stream", "Accept-Encoding": "gzip"})
        self.response = self.conn.getresponse()
        assert self.response.status == 200
        assert self.response.getheader("Content-Type", "").startswith("text/event-stream")
        assert self.response.getheader("Content-Encoding") is None  # never held back by gzip

    def next_version(self) -> int:
        """The data of the next ``sheet`` event (skipping comments)."""
        while True:
            line = self.response.fp.readline().decode()
            if line.startswith("data: "):
                return int(line[6:])

    def close(self) -> None:
        self.conn.close()


def test_a_round_reaches_an_open_stream_within_2_seconds(asgi_server: str) -> None:
    status, game = call(asgi_server, "POST", "/api/games", {"ruleset": "howto", "players": ["Ann", "Bob"]})
    assert status == 201
    streams = [Stream(asgi_server, game["id"]) for _ in range(3)]
    assert [s.next_version() for s in streams] == [0, 0, 0]
    started = time.monotonic()
    status, _ = call(asgi_server, "POST", f"/api/games/{game['id']}/rounds",
                     {"round": 1, "version": 0, "out": "Ann", "hands": {"Bob": 7}}, game["edit_token"])
    assert status == 201
    assert [s.next_version() for s in streams] == [1, 1, 1]
    assert time.monotonic() - started < 2
    for s in streams:
        s.close()


def test_open_streams_hold_no_worker(asgi_server: str) -> None:
    status, game = call(asgi_server, "POST", "/api/games", {"ruleset": "masters", "players": ["Ann", "Bob"]})
    streams = [Stream(asgi_server, game["id"]) for _ in range(60)]  # one uvicorn process, no thread pool to fill
    for s in streams:
        assert s.next_version() == 0
    started = time.monotonic()
    status, sheet = call(asgi_server, "GET", f"/api/games/{game['id']}")
    assert status == 200 and sheet["version"] == 0 and time.monotonic() - started < 2
    for s in streams:
        s.close()


def test_an_unknown_game_has_no_stream(asgi_server: str) -> None:
    conn = http.client.HTTPConnection(asgi_server, timeout=5)
    conn.request("GET", "/g/aaaaaaaaaaaaa/events")
    assert conn.getresponse().status == 404


def test_the_in_process_fanout_reaches_only_that_games_streams() -> None:
    before = live.open_streams()  # other tests' streams may still be closing in this process
    a, b = live.subscribe("game-a", None), live.subscribe("game-b", None)
    assert live.open_streams() == before + 2
    try:
        live.publish("game-a", 4)
        assert a.waiting.get(timeout=1) == 4 and b.waiting.empty()
    finally:
        a.close()
        b.close()
    assert live.open_streams() <= before

"""A shared ruling survives a restart: share through one server process, stop it, and open the
link on a fresh one using the same SQLite file."""

from __future__ import annotations

import http.cookiejar
import os
import re
import subprocess
import sys
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from bench.loadtest import Server

pytestmark = pytest.mark.slow  # restarts a server process: make test, not make test-fast

ROOT = Path(__file__).resolve().parents[2]
TEXT = "players: Ann Bob\nengine: 12\nturn: Ann\nhand: 12-3 3-3\ncheck: Ann: 12-3 -> Ann\n"


def test_a_shared_ruling_survives_a_restart(tmp_path: Path) -> None:
    env = {**os.environ, "DEBUG": "1", "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
           "ALLOWED_HOSTS": "127.0.0.1,localhost"}
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    jar = http.cookiejar.CookieJar()
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    first = Server(env, workers=1, log=tmp_path / "first.log")
    try:
        first.wait_ready()
        page = browser.open(f"{first.url}/en/adjudicate/", timeout=30).read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert token is not None
        form = urllib.parse.urlencode({"csrfmiddlewaretoken": token.group(1), "position": TEXT}).encode()
        shared = browser.open(f"{first.url}/en/adjudicate/share/", data=form, timeout=30)
        link = urllib.parse.urlparse(shared.geturl()).path
        assert re.fullmatch(r"/r/[a-z2-7]{12}/", link), link
    finally:
        first.stop()

    second = Server(env, workers=1, log=tmp_path / "second.log")
    try:
        second.wait_ready()
        with urllib.request.urlopen(f"{second.url}{link}", timeout=30) as r:
            assert r.status == 200
            again = r.read().decode()
    finally:
        second.stop()
    assert "hand: 12-3 3-3" in again and 'id="verdict"' in again

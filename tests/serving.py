"""Helpers for the serving tests: a large shared ruling, and plain HTTP from a chosen loopback address."""

from __future__ import annotations

import http.client
import re
import urllib.parse
from dataclasses import dataclass, field

TILES = [f"{a}-{b}" for a in range(13) for b in range(a, 13)]
SEATS = "A B C D E F G H".split()
WORST_TEXT = "\n".join([
    "# Eight players, every train open and marked, the largest hand the page's work limit lets every ruleset judge.",
    "players: " + " ".join(SEATS),
    "engine: 12-12",
    *(f"{p}: ... 12-{n} *" for n, p in enumerate(SEATS)),
    "mexican: -",
    "boneyard: 0",
    "turn: A",
    "hand: " + " ".join([t for t in TILES if "12" not in t.split("-")][:11]),
]) + "\n"
"""The most expensive shared ruling the limits let through: 11 rulesets x (11 tiles x 9 trains + 3)
= 1,122 judgements, under the page's cap of 1,200 (rules/limits.py MAX_PAGE_WORK)."""


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes
    cookies: dict[str, str] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


def fetch(base: str, method: str, path: str, body: bytes | None = None, source: str | None = None,
          timeout: float = 30, **headers: str) -> Answer:
    """One request on a new connection to ``base`` (http://host:port), from loopback address ``source``."""
    url = urllib.parse.urlsplit(base)
    conn = http.client.HTTPConnection(url.hostname or "127.0.0.1", url.port, timeout=timeout,
                                      source_address=(source, 0) if source else None)
    try:
        conn.request(method, path, body=body, headers={k.replace("_", "-"): v for k, v in headers.items()})
        r = conn.getresponse()
        data = r.read()
        cookies = dict(re.findall(r"(\w+)=([^;]*)", ";".join(v for k, v in r.getheaders() if k.lower() == "set-cookie")))
        return Answer(r.status, {k.lower(): v for k, v in r.getheaders()}, data, cookies)
    finally:
        conn.close()


def share_through(base: str, text: str, variants: list[str] | None = None, source: str | None = None) -> Answer:
    """Share ``text`` the way the page does: read the form's CSRF token, post the form."""
    page = fetch(base, "GET", "/en/adjudicate/", source=source)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
    assert page.status == 200 and token, page.text[:500]
    fields = [("csrfmiddlewaretoken", token.group(1)), ("position", text)] + [("variant", v) for v in variants or []]
    return fetch(base, "POST", "/en/adjudicate/share/", urllib.parse.urlencode(fields).encode(), source=source,
                 Content_Type="application/x-www-form-urlencoded", Cookie=f"csrftoken={page.cookies['csrftoken']}")

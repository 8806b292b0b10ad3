"""The production shape, for real: two gunicorn servers behind one nginx (deploy/nginx/mextrain.conf),
sharing a throwaway PostgreSQL cluster and a throwaway Redis, all on free loopback ports.

What the probe found, reproduced: slow and non-reading clients took down a bare gunicorn (shown
again here, against a server without nginx in front) but not the stack; a shared ruling, a rate
limit and a cached page hold across servers; a chunked body is read (through nginx) or refused.
"""

from __future__ import annotations

import json
import re
import socket
import statistics
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from bench.stack import Nginx, Stack, Unavailable, production_stack
from mextrain_site.core.ruleset_json import catalogue
from tests.examples import SPEC_EXAMPLE
from tests.serving import WORST_TEXT, fetch, share_through

pytestmark = [pytest.mark.stack]
JUDGE_RATE = 6


@dataclass
class Shared:
    stack: Stack
    worst_path: str
    """/r/<id>/ of the worst ruling, already rendered once (in Redis)."""
    nginx_one: Nginx
    """A second nginx, in front of the first server alone (2 sync workers, as the probe ran it)."""


@pytest.fixture(scope="module")
def shared() -> Iterator[Shared]:
    try:
        with production_stack(servers=2, workers=2, RATELIMIT_JUDGE=f"{JUDGE_RATE}/h", RATELIMIT_SHARE="100/h") as stack:
            one = Nginx([f"127.0.0.1:{stack.servers[0].port}"], stack.root / "nginx-one")
            try:
                r = share_through(stack.servers[0].url, WORST_TEXT, catalogue("en")["option_ids"])
                assert r.status == 303, r.text[:2000]
                path = r.headers["location"]
                first = fetch(stack.servers[0].url, "GET", path, timeout=120, Host="localhost")
                assert first.status == 200 and first.headers["x-mextrain-cache"] == "miss"
                yield Shared(stack, path, one)
            finally:
                one.stop()
    except Unavailable as exc:
        pytest.skip(f"the production stack cannot start here: {exc}")


def test_health_and_readiness_through_nginx(shared: Shared) -> None:
    assert fetch(shared.stack.url, "GET", "/health").body == b"ok"
    ready = fetch(shared.stack.url, "GET", "/health?ready=1")
    assert (ready.status, ready.body) == (200, b"ready")


def test_a_ruling_shared_through_one_server_opens_through_the_other(shared: Shared) -> None:
    one, other = shared.stack.servers
    r = share_through(one.url, SPEC_EXAMPLE)
    assert r.status == 303 and re.fullmatch(r"/r/[a-z2-7]{12}/", r.headers["location"])
    page = fetch(other.url, "GET", r.headers["location"], Accept_Language="he")
    assert page.status == 200 and 'lang="he"' in page.text and "players: Ann Bob Cy Dee" in page.text


def test_a_cached_page_is_served_by_both_servers(shared: Shared) -> None:
    one, other = shared.stack.servers
    path = share_through(other.url, SPEC_EXAMPLE.replace("Bob claims", "Cy asks whether")).headers["location"]
    # Under one name (as behind a load balancer): the page holds its absolute link, so the host is in the key.
    states = [fetch(s.url, "GET", path, Host="localhost").headers["x-mextrain-cache"] for s in (one, other, one, other)]
    assert states == ["miss", "hit", "hit", "hit"]
    # The worst ruling (judged for seconds when first opened) comes from Redis on either server.
    for server in (one, other):
        t0 = time.perf_counter()
        page = fetch(server.url, "GET", shared.worst_path, Host="localhost")
        took = time.perf_counter() - t0
        assert page.status == 200 and page.headers["x-mextrain-cache"] == "hit"
        assert len(page.body) > 50_000 and took < 1.0, (len(page.body), took)


def test_each_reader_gets_a_csrf_token_of_their_own_from_a_cached_page(shared: Shared) -> None:
    one, other = shared.stack.servers
    tokens = set()
    for server in (one, other):
        page = fetch(server.url, "GET", shared.worst_path)
        found = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text))
        assert len(found) >= 1 and "placeholder" not in page.text
        tokens |= found
    assert len(tokens) >= 2


def test_a_rate_limit_holds_across_both_servers(shared: Shared) -> None:
    """Judging counts per client address in Redis: six through either server, the seventh refused by both.
    Behind one trusted proxy the address is the last X-Forwarded-For entry (what nginx appends)."""
    one, other = shared.stack.servers
    body = SPEC_EXAMPLE.encode()

    def judge(server_url: str, address: str) -> tuple[int, dict[str, str], bytes]:
        r = fetch(server_url, "POST", "/api/adjudicate", body, Content_Type="text/plain",
                  X_Forwarded_For=f"10.9.9.9, {address}")
        return r.status, r.headers, r.body

    for n in range(JUDGE_RATE):
        assert judge((one, other)[n % 2].url, "198.51.100.7")[0] == 200
    for server in (one, other):
        status, headers, answer = judge(server.url, "198.51.100.7")
        assert status == 429 and int(headers["retry-after"]) > 0
        assert json.loads(answer)["error"]["code"] == "rate-limited"
    assert judge(one.url, "198.51.100.8")[0] == 200  # another address is not held back


def test_through_nginx_the_address_is_the_one_nginx_saw(shared: Shared) -> None:
    """A client cannot escape its limit by sending X-Forwarded-For: nginx appends the real address."""
    source, body = "127.0.0.77", SPEC_EXAMPLE.encode()
    statuses = [fetch(shared.stack.url, "POST", "/api/adjudicate", body, source=source, Content_Type="text/plain",
                      X_Forwarded_For=f"203.0.113.{n}").status for n in range(JUDGE_RATE + 2)]
    assert statuses == [200] * JUDGE_RATE + [429, 429]
    assert fetch(shared.stack.url, "POST", "/api/adjudicate", body, source="127.0.0.78",
                 Content_Type="text/plain").status == 200


def test_a_chunked_body_is_read_through_nginx_and_refused_without_it(shared: Shared) -> None:
    text = SPEC_EXAMPLE.encode()
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(text), text)
    through = fetch(shared.stack.url, "POST", "/api/adjudicate", chunked, source="127.0.0.79",
                    Content_Type="text/plain", Transfer_Encoding="chunked")
    assert through.status == 200 and "variants" in json.loads(through.body)
    direct = fetch(shared.stack.servers[0].url, "POST", "/api/adjudicate", chunked, Content_Type="text/plain",
                   Transfer_Encoding="chunked", X_Forwarded_For="198.51.100.99")
    assert direct.status == 411 and json.loads(direct.body)["error"]["code"] == "length-required"


def test_nginx_limits_bodies_and_headers(shared: Shared) -> None:
    too_big = fetch(shared.stack.url, "POST", "/api/adjudicate", b"x" * 200_000, Content_Type="text/plain")
    assert too_big.status == 413
    app_limit = fetch(shared.stack.url, "POST", "/api/adjudicate", b"x" * 100_000, source="127.0.0.80",
                      Content_Type="text/plain")
    assert app_limit.status == 413 and json.loads(app_limit.body)["error"]["code"] == "too-large"
    assert fetch(shared.stack.url, "GET", "/health", X_Long="y" * 10_000).status in (400, 431, 494)


# -- Slow clients ------------------------------------------------------------------------------


class SlowClients:
    """Two clients sending their request head a few bytes at a time, and two asking for a large page
    and not reading it (a tiny receive window): what took the bare gunicorn down."""

    def __init__(self, port: int, path: str) -> None:
        self.stop = threading.Event()
        self.sockets: list[socket.socket] = []
        self.threads = [threading.Thread(target=self._slow_head, args=(port,), daemon=True) for _ in range(2)]
        for _ in range(2):
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.connect(("127.0.0.1", port))
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode())
            self.sockets.append(s)  # never read
        for t in self.threads:
            t.start()
        time.sleep(0.5)  # let them take hold

    def _slow_head(self, port: int) -> None:
        with socket.create_connection(("127.0.0.1", port)) as s:
            s.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            while not self.stop.wait(0.3):
                try:
                    s.sendall(b"X")
                except OSError:
                    return

    def close(self) -> None:
        self.stop.set()
        for s in self.sockets:
            s.close()
        for t in self.threads:
            t.join(timeout=5)


def health_latencies(base: str, seconds: float, timeout: float) -> list[float]:
    """/health on a new connection every 20 ms for ``seconds``; a failure counts as ``timeout``."""
    took: list[float] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        t0 = time.perf_counter()
        try:
            ok = fetch(base, "GET", "/health", timeout=timeout).status == 200
        except OSError:
            ok = False
        took.append(time.perf_counter() - t0 if ok else timeout)
        time.sleep(0.02)
    return took


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


def test_slow_and_non_reading_clients_do_not_block_health_behind_nginx(shared: Shared) -> None:
    """One gunicorn with 2 sync workers, as the probe ran it, but behind nginx: p95 of /health < 100 ms."""
    clients = SlowClients(shared.nginx_one.port, shared.worst_path)
    try:
        took = health_latencies(shared.nginx_one.url, 3.0, timeout=5.0)
    finally:
        clients.close()
    print(f"behind nginx: p95 {p95(took) * 1000:.1f} ms, max {max(took) * 1000:.1f} ms, {len(took)} requests")
    assert len(took) >= 20 and p95(took) < 0.100, f"p95 {p95(took) * 1000:.0f} ms over {len(took)} requests"


def test_the_same_clients_block_a_bare_gunicorn(shared: Shared) -> None:
    """The failure the probe found, reproduced against the same server without nginx in front:
    /health waits (here: 1 s timeouts) while the four clients hold both workers."""
    server = shared.stack.servers[0]
    clients = SlowClients(server.port, shared.worst_path)
    try:
        took = health_latencies(server.url, 2.0, timeout=1.0)
    finally:
        clients.close()
    print(f"bare gunicorn: p95 {p95(took) * 1000:.0f} ms, {len(took)} requests")
    assert p95(took) >= 0.5, f"bare gunicorn answered /health in {[round(t, 3) for t in took]} s"
    server.wait_ready()  # the workers are free again once the clients are gone


# -- Size limits through nginx, and a PostgreSQL restart under load (issue 24) ----------------------


def test_over_nginxs_limit_the_refusal_is_the_apps_in_the_readers_language(shared: Shared) -> None:
    from mextrain_site.core.sizes import BODY_BYTES

    body = b"position=" + b"%23" * (BODY_BYTES // 3)
    page = fetch(shared.stack.url, "POST", "/el/adjudicate/", body, source="127.0.0.81",
                 Content_Type="application/x-www-form-urlencoded")
    assert page.status == 413 and "Πολύ μεγάλο για ανάγνωση" in page.text and 'lang="el"' in page.text
    api = fetch(shared.stack.url, "POST", "/api/adjudicate", b"#" * (BODY_BYTES + 1), source="127.0.0.81",
                Content_Type="text/plain")
    assert api.status == 413 and json.loads(api.body)["error"]["code"] == "too-large"


def test_a_house_ruleset_file_of_the_largest_size_reaches_the_app_through_nginx(shared: Shared) -> None:
    from variants.house import MAX_FILE

    page = fetch(shared.stack.url, "GET", "/hu/house/", source="127.0.0.82")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
    assert page.status == 200 and token
    content = b"# " + b"x" * (MAX_FILE - 3) + b"\n"  # a comment only: read, then refused as no ruleset
    boundary = "mextrainboundary"
    body = (f'--{boundary}\r\nContent-Disposition: form-data; name="csrfmiddlewaretoken"\r\n\r\n{token.group(1)}\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="house.yaml"\r\n'
            f"Content-Type: application/x-yaml\r\n\r\n").encode() + content + f"\r\n--{boundary}--\r\n".encode()
    answer = fetch(shared.stack.url, "POST", "/hu/house/upload/", body, source="127.0.0.82",
                   Content_Type=f"multipart/form-data; boundary={boundary}",
                   Cookie=f"csrftoken={page.cookies['csrftoken']}")
    assert answer.status == 400 and 'lang="hu"' in answer.text, answer.text[:1000]  # the app's answer, not nginx's


def test_a_postgresql_restart_under_load_gives_no_500(shared: Shared) -> None:
    """Shares, house rulesets, stored rulings and judging, from many addresses, while PostgreSQL is
    stopped for a second and started again: what needs the database answers 503 with Retry-After
    meanwhile, judging and cached pages 200; never a 500; and everything stores again after."""
    from bench.stack import restart_postgres

    stop = threading.Event()
    seen: list[tuple[str, int, str]] = []
    lock = threading.Lock()

    def one(n: int) -> tuple[str, int, str]:
        source = f"127.0.{3 + n % 200 // 100}.{1 + n % 100}"
        kind = ("share", "ruleset", "read", "judge", "cached")[n % 5]
        if kind == "share":
            r = share_through(shared.stack.url, SPEC_EXAMPLE.replace("Bob claims", f"Bob ({n}) claims"), source=source)
        elif kind == "ruleset":
            rules = {"setup.equipment": f"Markers and a hub, table {n}"}
            r = fetch(shared.stack.url, "POST", "/api/rulesets", json.dumps({"base": "masters", "name": f"T{n}",
                      "rules": rules}).encode(), source=source, Content_Type="application/json")
        elif kind == "read":
            r = fetch(shared.stack.url, "GET", f"/api/variants/house-{'a' * 12}", source=source)
        elif kind == "judge":
            r = fetch(shared.stack.url, "POST", "/api/adjudicate", SPEC_EXAMPLE.encode(), source=f"127.0.5.{1 + n % 200}",
                      Content_Type="text/plain")
        else:
            r = fetch(shared.stack.url, "GET", shared.worst_path, source=source, Host="localhost")
        if r.status == 503:
            assert int(r.headers["retry-after"]) > 0
        return kind, r.status, r.headers.get("content-type", "")

    def load(worker: int) -> None:
        n = worker
        while not stop.is_set():
            try:
                result = one(n)
            except OSError as exc:  # nothing may fail below HTTP either
                result = ("connection", 0, str(exc))
            with lock:
                seen.append(result)
            n += 8

    threads = [threading.Thread(target=load, args=(w,), daemon=True) for w in range(8)]
    for t in threads:
        t.start()
    time.sleep(1.0)
    down = restart_postgres(shared.stack.env["DATABASE_URL"], pause=1.0)
    time.sleep(2.0)
    stop.set()
    for t in threads:
        t.join(timeout=60)
    statuses: dict[tuple[str, int], int] = {}
    for kind, status, _ in seen:
        statuses[kind, status] = statuses.get((kind, status), 0) + 1
    print(f"PostgreSQL down {down:.2f} s; {len(seen)} requests: {sorted(statuses.items())}")
    assert not [s for s in seen if s[1] >= 500 and s[1] != 503 or s[1] == 0], statuses
    assert {s for k, s, _ in seen if k in ("judge", "cached")} == {200}, statuses  # no database needed
    assert any(s == 503 for _, s, _ in seen), statuses  # the outage was met
    # After it, everything stores again.
    after = share_through(shared.stack.url, SPEC_EXAMPLE.replace("Bob claims", "Bob (after) claims"), source="127.0.6.1")
    assert after.status == 303
    assert fetch(shared.stack.url, "GET", "/health?ready=1").status == 200

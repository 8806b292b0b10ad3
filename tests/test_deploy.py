"""Production settings: ``check --deploy`` passes, the environment drives the settings, and a real
gunicorn serves the site, the API and WhiteNoise's static files the way production does."""

from __future__ import annotations

import http.client
import json
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.loadtest import TYPICAL_POSITION
from bench.stack import Server
from bench.stack import production_env as stack_env

pytestmark = pytest.mark.slow  # gunicorn and manage.py as processes: make test, not make test-fast

ROOT = Path(__file__).resolve().parent.parent
HOST = "example.org"


def production_env(tmp: Path, **extra: str) -> dict[str, str]:
    """The environment of a production process: the settings' variables only as given here, and
    the production defaults for the rest (HTTP is redirected to HTTPS, warnings are logged)."""
    env = stack_env(tmp, **{"ALLOWED_HOSTS": HOST, **extra})
    for name in ("SECURE_SSL_REDIRECT", "LOG_LEVEL"):
        if name not in extra:
            del env[name]
    return env


def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)


@pytest.fixture(scope="module")
def collected(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A temporary STATIC_ROOT, collected with the production (manifest) storage."""
    tmp = tmp_path_factory.mktemp("deploy")
    done = manage(production_env(tmp), "collectstatic", "--noinput", "-v", "0")
    assert done.returncode == 0, done.stderr
    assert (tmp / "static" / "staticfiles.json").is_file()
    return tmp


def test_check_deploy_passes_with_production_settings(collected: Path) -> None:
    done = manage(production_env(collected), "check", "--deploy", "--fail-level", "WARNING")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


@pytest.mark.parametrize(
    ("extra", "warning"),
    [({"SECRET_KEY": "too-short"}, "security.W009"), ({"DEBUG": "1"}, "security.W018"),
     ({"SECURE_SSL_REDIRECT": "0"}, "security.W008"), ({"SECURE_HSTS_SECONDS": "0"}, "security.W004")],
)
def test_check_deploy_catches_weak_settings(collected: Path, extra: dict[str, str], warning: str) -> None:
    """The check really looks: each weakened setting fails it (so the pass above means something)."""
    done = manage(production_env(collected, **extra), "check", "--deploy", "--fail-level", "WARNING")
    assert done.returncode != 0
    assert warning in done.stdout + done.stderr


def test_settings_come_from_the_environment(tmp_path: Path) -> None:
    script = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        "print(json.dumps({'debug': s.DEBUG, 'hosts': s.ALLOWED_HOSTS, 'engine': s.DATABASES['default']['ENGINE'], "
        "'name': s.DATABASES['default']['NAME'], 'static_root': str(s.STATIC_ROOT), "
        "'storage': s.STORAGES['staticfiles']['BACKEND'], 'middleware': s.MIDDLEWARE, "
        "'secret': s.SECRET_KEY, 'ssl_redirect': s.SECURE_SSL_REDIRECT}))"
    )
    env = production_env(tmp_path, ALLOWED_HOSTS="example.org, www.example.org",
                         DATABASE_URL="postgres://user:pw@db.internal:5432/mextrain", SECRET_KEY="k" * 60)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got["debug"] is False and got["secret"] == "k" * 60 and got["ssl_redirect"] is True
    assert got["hosts"] == ["example.org", "www.example.org"]
    assert got["engine"] == "django.db.backends.postgresql" and got["name"] == "mextrain"
    assert got["static_root"] == str(tmp_path / "static")
    assert got["storage"] == "whitenoise.storage.CompressedManifestStaticFilesStorage"
    assert "whitenoise.middleware.WhiteNoiseMiddleware" in got["middleware"]


def test_no_secret_key_no_start(tmp_path: Path) -> None:
    env = production_env(tmp_path)
    del env["SECRET_KEY"]
    done = manage(env, "check")
    assert done.returncode != 0
    assert "SECRET_KEY" in done.stderr


@pytest.fixture(scope="module")
def gunicorn(collected: Path) -> Iterator[Server]:
    """``gunicorn mextrain_site.wsgi`` with the production settings, migrated, behind no proxy."""
    env = production_env(collected)
    done = manage(env, "migrate", "--noinput", "-v", "0")
    assert done.returncode == 0, done.stderr
    server = Server(env, workers=1, log=collected / "gunicorn.log")
    try:
        wait_ready(server)
        yield server
    finally:
        server.stop()


def wait_ready(server: Server) -> None:
    """Server.wait_ready() asks for plain http on 127.0.0.1; here only https for example.org is served."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert server.proc.poll() is None, server.log.read_text()
        try:
            request(server, "GET", "/health")
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"gunicorn did not start:\n{server.log.read_text()}")


def request(server: Server, method: str, path: str, body: bytes | None = None, https: bool = True,
            **headers: str) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    hdrs = {"Host": HOST, **({"X-Forwarded-Proto": "https"} if https else {}), **headers}
    conn.request(method, path, body=body, headers=hdrs)
    response = conn.getresponse()
    response.read_body = response.read()  # type: ignore[attr-defined]
    conn.close()
    return response


def test_gunicorn_redirects_plain_http_to_https(gunicorn: Server) -> None:
    r = request(gunicorn, "GET", "/health", https=False)
    assert r.status == 301
    assert r.getheader("Location") == f"https://{HOST}/health"


def test_gunicorn_serves_health_with_hsts(gunicorn: Server) -> None:
    r = request(gunicorn, "GET", "/health")
    assert r.status == 200 and r.read_body == b"ok"  # type: ignore[attr-defined]
    assert "max-age=31536000" in (r.getheader("Strict-Transport-Security") or "")


def test_gunicorn_refuses_unknown_hosts(gunicorn: Server) -> None:
    assert request(gunicorn, "GET", "/health", Host="evil.example").status == 400


def test_whitenoise_serves_hashed_static_files(gunicorn: Server, collected: Path) -> None:
    manifest = json.loads((collected / "static" / "staticfiles.json").read_text())
    hashed = manifest["paths"]["mextrain.css"]
    r = request(gunicorn, "GET", f"/static/{hashed}", **{"Accept-Encoding": "gzip"})
    assert r.status == 200
    assert "immutable" in (r.getheader("Cache-Control") or "")
    assert r.getheader("Content-Encoding") == "gzip"


def test_gunicorn_serves_the_api(gunicorn: Server) -> None:
    r = request(gunicorn, "GET", "/api/variants")
    assert r.status == 200 and json.loads(r.read_body)["variants"]  # type: ignore[attr-defined]
    r = request(gunicorn, "POST", "/api/adjudicate", TYPICAL_POSITION.encode(), **{"Content-Type": "text/plain"})
    assert r.status == 200
    assert len(json.loads(r.read_body)["variants"]) == 4  # type: ignore[attr-defined]
    r = request(gunicorn, "POST", "/api/adjudicate", b"x" * 70_000, **{"Content-Type": "text/plain"})
    assert r.status == 413 and json.loads(r.read_body)["error"]["code"] == "too-large"  # type: ignore[attr-defined]


def test_gunicorn_sets_the_language_cookie_secure_and_lax(gunicorn: Server) -> None:
    page = request(gunicorn, "GET", "/en/variants/")
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page.read_body)  # type: ignore[attr-defined]
    cookie = re.search(r"csrftoken=([^;]+)", page.getheader("Set-Cookie") or "")
    assert token and cookie
    body = f"language=he&next=/he/variants/&csrfmiddlewaretoken={token.group(1).decode()}".encode()
    r = request(gunicorn, "POST", "/i18n/setlang/", body, Cookie=f"csrftoken={cookie.group(1)}",
                Referer=f"https://{HOST}/en/variants/", **{"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status == 302
    language_cookie = next(v for k, v in r.getheaders() if k == "Set-Cookie" and v.startswith("django_language="))
    assert "Secure" in language_cookie and "SameSite=Lax" in language_cookie


def test_gunicorn_refuses_a_chunked_body_with_411(gunicorn: Server) -> None:
    """Django reads a body by its Content-Length: a chunked one used to be judged as empty."""
    text = TYPICAL_POSITION.encode()
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(text), text)
    r = request(gunicorn, "POST", "/api/adjudicate", chunked, **{"Content-Type": "text/plain",
                                                                "Transfer-Encoding": "chunked"})
    assert r.status == 411 and json.loads(r.read_body)["error"]["code"] == "length-required"  # type: ignore[attr-defined]
    page = request(gunicorn, "POST", "/en/adjudicate/", chunked, **{"Transfer-Encoding": "chunked"})
    assert page.status == 411


def test_gunicorn_answers_with_the_security_headers(gunicorn: Server) -> None:
    r = request(gunicorn, "GET", "/en/adjudicate/")
    assert "default-src 'self'" in (r.getheader("Content-Security-Policy") or "")
    assert r.getheader("Permissions-Policy") and r.getheader("Referrer-Policy") == "same-origin"


def test_a_serving_process_starts_settled_its_startup_objects_frozen(tmp_path: Path) -> None:
    """``mextrain_site.wsgi`` (what gunicorn loads) loads the rulesets and freezes what start-up
    left alive out of the garbage collector's generations; a full collection then walks only what
    requests leave, not the tens of thousands of objects every process keeps for life."""
    probe = ("import gc, mextrain_site.wsgi as w, variants.loader as v; "
             "print(gc.get_freeze_count(), sum(len(gc.get_objects(g)) for g in range(3)), v.get_ruleset.cache_info().currsize)")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=production_env(tmp_path), capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    frozen, young, rulesets = map(int, done.stdout.split())
    assert frozen > 30_000 and young < frozen / 10 and rulesets >= 4, done.stdout


# -- Request size: nginx, Django and the app agree (issue 24) ---------------------------------------


def nginx_directive(name: str) -> list[str]:
    """The values ``name`` takes in deploy/nginx/mextrain.conf (comments left out)."""
    text = (ROOT / "deploy" / "nginx" / "mextrain.conf").read_text()
    lines = [line.split("#", 1)[0].strip() for line in text.splitlines()]
    return [line[len(name):].strip().rstrip(";").strip() for line in lines if line.startswith(name + " ")]


def test_the_body_limits_of_nginx_and_django_come_from_the_apps_own_limits() -> None:
    from django.conf import settings

    from mextrain_site.core import sizes
    from rules.position import MAX_TEXT
    from variants.house import MAX_FILE

    # A position of MAX_TEXT characters of 4 UTF-8 bytes each, URL-encoded, with the form's other fields.
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE == sizes.FORM_BYTES >= MAX_TEXT * 4 * 3 + 4096
    # nginx lets through the largest form and the largest house ruleset file with its multipart framing.
    assert sizes.BODY_BYTES >= max(sizes.FORM_BYTES, MAX_FILE + 8192)
    assert nginx_directive("client_max_body_size") == [sizes.NGINX_BODY_LIMIT]
    assert nginx_directive("client_body_buffer_size") == [sizes.NGINX_BODY_LIMIT]  # a body stays in memory
    assert int(sizes.NGINX_BODY_LIMIT.removesuffix("k")) * 1024 - sizes.BODY_BYTES < 1024
    # Over it, nginx asks the app for the words (a page in the reader's language, JSON for the API).
    assert nginx_directive("error_page") == ["413 /too-large"]
    assert nginx_directive("location") == ["/ {", "= /too-large {", "~ ^/g/[a-z2-7]+/events$ {"]  # and the streams

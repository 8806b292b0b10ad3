"""The referee page's benchmark (part of ``make bench``): the prefilled example judged and
rendered by the server, side by side with the engine judging the same text under the same
rulesets.

The aim (issue 9): the server's time at most twice the engine's; the HTML at most 60 KB.

Side by side means interleaved: each round times one engine call, one Judge (the htmx request
for the ruling), one whole-page POST and one request that does nothing (``/health``), one after
the other, so that the load of a shared machine weighs on all alike; the figures are the medians
of the calls in the process's CPU time (``time.process_time``, as in the rest of ``make bench``):
on a shared machine the wall clock of a longer call also counts the other processes that ran
meanwhile.

The requests are what a browser sends, handed to the application gunicorn serves
(``mextrain_site.wsgi``: Django's WSGI handler, in a process settled as a server's is, its
startup objects frozen out of the garbage collector's way, :mod:`mextrain_site.core.warm`) as
gunicorn hands them (no socket, no test client), with the CSRF cookie and token a first GET gave,
``Origin``, and ``Accept-Encoding: gzip``, so the CSRF check and the compression are counted. Judge
posts the form URL-encoded, as the page's script sends it when the text fits the server's body
limit URL-encoded (``static/referee/adjudicate.js``); the whole page posts it as
``multipart/form-data``, the form's ``enctype``, as a browser without script sends it. Each body is
encoded once beforehand (that is the browser's work).

The engine's figure is parse, then judge under every ruleset. The page also needs the reasons it
shows put into words in the reader's language (``Reason.text``, engine code): like the API, the
page words each distinct reason once per language and process, so in this steady state that
costs next to nothing and is counted on the web layer's side. The web layer's own part is the
Judge's time less the engine's; the empty request shows how much of it is Django's floor.
"""

from __future__ import annotations

import gzip
import io
import os
import re
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from urllib.parse import urlencode

BOUNDARY = "BenchBoundary7MA4YWxkTrZu0gW"


@dataclass(frozen=True)
class PageFigures:
    engine_ms: float
    """Parse, then judge under every ruleset (:func:`rules.answer.rule`)."""
    ruling_ms: float
    """The ruling alone, as Judge fetches it with htmx (the form URL-encoded)."""
    page_ms: float
    """The whole page (a POST without JavaScript: the form as multipart/form-data)."""
    empty_ms: float
    """A request that does nothing (``/health``) through the same handler and middleware."""
    html_bytes: int
    gzip_bytes: int
    """The page as sent (gzipped and padded against BREACH, so a few dozen bytes vary)."""
    ruling_bytes: int


def multipart(fields: dict[str, str]) -> bytes:
    """A form encoded as a browser encodes a ``multipart/form-data`` form."""
    parts = [f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n' for k, v in fields.items()]
    return ("".join(parts) + f"--{BOUNDARY}--\r\n").encode()


class Browser:
    """Requests as a browser sends them, handed straight to a WSGI application."""

    HOST = "127.0.0.1:8000"

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app
        self.cookie = ""

    def request(self, method: str, path: str, body: bytes = b"", **headers: str) -> tuple[str, bytes]:
        environ: dict[str, object] = {
            "REQUEST_METHOD": method, "PATH_INFO": path, "SCRIPT_NAME": "", "QUERY_STRING": "",
            "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000", "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": self.HOST, "HTTP_ACCEPT_ENCODING": "gzip, deflate, br",
            "wsgi.input": io.BytesIO(body), "wsgi.url_scheme": "http", "wsgi.errors": sys.stderr,
            "wsgi.version": (1, 0), "wsgi.multithread": False, "wsgi.multiprocess": True, "wsgi.run_once": False,
            **({"CONTENT_LENGTH": str(len(body))} if body else {}),
            **({"HTTP_COOKIE": self.cookie} if self.cookie else {}),
            **{("CONTENT_TYPE" if k == "content_type" else f"HTTP_{k.upper()}"): v for k, v in headers.items()},
        }
        answer: list[tuple[str, list[tuple[str, str]]]] = []
        result = self.app(environ, lambda status, hs, exc=None: answer.append((status, hs)))
        try:
            content = b"".join(result)
        finally:
            getattr(result, "close", lambda: None)()
        status, hs = answer[0]
        for name, value in hs:
            if name.lower() == "set-cookie" and value.strip().startswith("csrftoken="):
                self.cookie = value.strip().split(";", 1)[0]
        return status, content

    @staticmethod
    def unzipped(content: bytes) -> bytes:
        """What the browser reads (decompressed outside the timing: that is the browser's work)."""
        return gzip.decompress(content) if content[:2] == b"\x1f\x8b" else content


def measure(rounds: int = 200) -> PageFigures:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mextrain_site.settings")
    os.environ["RATELIMIT_ENABLE"] = "0"  # every request comes from one address
    import django

    django.setup()
    from django.utils import translation

    from mextrain_site.core.referee import parse
    from mextrain_site.referee.views import EXAMPLE
    from mextrain_site.wsgi import application
    from rules.answer import rule

    browser = Browser(application)
    url = "/en/adjudicate/"
    status, form = browser.request("GET", url)
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', Browser.unzipped(form))
    assert status.startswith("200") and token and browser.cookie, status
    fields = {"csrfmiddlewaretoken": token.group(1).decode(), "position": EXAMPLE}
    body, encoded = multipart(fields), urlencode(fields).encode()
    origin = f"http://{Browser.HOST}"
    posted = {"content_type": f"multipart/form-data; boundary={BOUNDARY}", "origin": origin}
    scripted = {"content_type": "application/x-www-form-urlencoded", "origin": origin}

    def page() -> bytes:
        status, content = browser.request("POST", url, body, **posted)
        assert status.startswith("200"), status
        return content

    def ruling() -> bytes:
        status, content = browser.request("POST", url, encoded, hx_request="true", **scripted)
        assert status.startswith("200"), status
        return content

    def empty() -> None:
        status, _ = browser.request("GET", "/health")
        assert status.startswith("200"), status

    def engine() -> None:
        request = parse(EXAMPLE, None)
        for rs in request.rulesets:
            rule(request.position, rs)

    sent = page()  # as the server sends it: gzipped, padded
    html = Browser.unzipped(sent)
    ruling_html = Browser.unzipped(ruling())
    assert b'id="verdict"' in html and b'id="verdict"' in ruling_html
    calls: dict[str, Callable[[], object]] = {"engine": engine, "ruling": ruling, "page": page, "empty": empty}
    times: dict[str, list[float]] = {k: [] for k in calls}
    with translation.override("en"):
        for _ in range(rounds // 10):  # warm up
            for f in calls.values():
                f()
        for _ in range(rounds):
            for key, f in calls.items():
                t = time.process_time()
                f()
                times[key].append((time.process_time() - t) * 1000)
    ms = {k: statistics.median(v) for k, v in times.items()}
    return PageFigures(ms["engine"], ms["ruling"], ms["page"], ms["empty"], len(html), len(sent),
                       len(ruling_html))


def report(repeats: int) -> None:
    f = measure(max(100, 40 * repeats))
    overhead = f.ruling_ms - f.engine_ms
    print("4. the referee page, prefilled example, all rulesets (the WSGI application gunicorn serves, interleaved, CPU medians)")
    print(f"   engine (parse + judge):               {f.engine_ms:.2f} ms")
    print(f"   Judge (htmx, the ruling, gzipped):    {f.ruling_ms:.2f} ms   ({f.ruling_ms / f.engine_ms:.2f}x the engine; "
          f"aim: at most 2x)")
    print(f"     the web layer's own part:           {overhead:.2f} ms   ({overhead / f.engine_ms:.2f}x the engine; "
          f"a request doing nothing: {f.empty_ms:.2f} ms)")
    print(f"   whole page (no script, gzipped):      {f.page_ms:.2f} ms   ({f.page_ms / f.engine_ms:.2f}x the engine)")
    print(f"   HTML: {f.html_bytes / 1000:.1f} KB ({f.gzip_bytes / 1000:.1f} KB sent gzipped; aim: at most 60 KB); "
          f"the ruling alone {f.ruling_bytes / 1000:.1f} KB")


if __name__ == "__main__":
    report(5)

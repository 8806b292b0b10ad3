"""The referee page's benchmark (part of ``make bench``): the prefilled example judged and
rendered by the server, side by side with the engine judging the same text under the same
rulesets.

The aim (issue 9): the server's time at most twice the engine's; the HTML at most 60 KB.

Side by side means interleaved: each round times one engine call, one Judge (the htmx request
for the ruling) and one whole-page POST, one after the other, so that the load of a shared
machine weighs on all three alike; the figures are the medians of the calls, in the process's
CPU time (``time.process_time``, as in the rest of ``make bench``): on a shared machine the wall
clock of a longer call also counts the other processes that ran meanwhile. The requests are
what a browser sends: the form as ``multipart/form-data`` (its ``enctype``), encoded once
beforehand (encoding is the browser's work, not the server's), and ``Accept-Encoding: gzip``,
so the server's compression is counted. They go through Django's whole handler and middleware
(the test client), without a socket.

The engine's figure is parse, then judge under every ruleset. The page also needs the reasons it
shows put into words in the reader's language (``Reason.text``, engine code): like the API, the
page words each distinct reason once per language and process, so in this steady state that
costs next to nothing and is counted on the web layer's side. The web layer's own part is the
Judge's time less the engine's.
"""

from __future__ import annotations

import gzip
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

BOUNDARY = "BenchBoundary7MA4YWxkTrZu0gW"


@dataclass(frozen=True)
class PageFigures:
    engine_ms: float
    """Parse, then judge under every ruleset (:func:`rules.answer.rule`)."""
    ruling_ms: float
    """The ruling alone, as Judge fetches it with htmx."""
    page_ms: float
    """The whole page (a POST without JavaScript)."""
    html_bytes: int
    gzip_bytes: int
    ruling_bytes: int


def multipart(fields: dict[str, str]) -> bytes:
    """A form encoded as a browser encodes a ``multipart/form-data`` form."""
    parts = [f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n' for k, v in fields.items()]
    return ("".join(parts) + f"--{BOUNDARY}--\r\n").encode()


def measure(rounds: int = 200) -> PageFigures:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mextrain_site.settings")
    os.environ["RATELIMIT_ENABLE"] = "0"  # every request comes from one address
    import django

    django.setup()
    from django.test import Client
    from django.utils import translation

    from mextrain_site.core.referee import parse
    from mextrain_site.referee.views import EXAMPLE
    from rules.answer import rule

    client = Client()
    url = "/en/adjudicate/"
    body = multipart({"position": EXAMPLE})
    content_type = f"multipart/form-data; boundary={BOUNDARY}"
    browser = {"Accept-Encoding": "gzip, deflate, br"}

    def page() -> bytes:
        response = client.post(url, body, content_type, headers=browser)
        assert response.status_code == 200, response.status_code
        return response.content

    def ruling() -> bytes:
        response = client.post(url, body, content_type, headers={**browser, "HX-Request": "true"})
        assert response.status_code == 200, response.status_code
        return response.content

    def engine() -> None:
        request = parse(EXAMPLE, None)
        for rs in request.rulesets:
            rule(request.position, rs)

    html = gzip.decompress(page())
    ruling_html = gzip.decompress(ruling())
    calls: dict[str, Callable[[], object]] = {"engine": engine, "ruling": ruling, "page": page}
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
    return PageFigures(ms["engine"], ms["ruling"], ms["page"], len(html), len(gzip.compress(html)),
                       len(ruling_html))


def report(repeats: int) -> None:
    f = measure(max(100, 40 * repeats))
    overhead = f.ruling_ms - f.engine_ms
    print("4. the referee page, prefilled example, all rulesets (through Django's handler, interleaved, medians)")
    print(f"   engine (parse + judge):               {f.engine_ms:.2f} ms")
    print(f"   Judge (htmx, the ruling, gzipped):    {f.ruling_ms:.2f} ms   ({f.ruling_ms / f.engine_ms:.2f}x the engine; "
          f"aim: at most 2x)")
    print(f"     the web layer's own part:           {overhead:.2f} ms   ({overhead / f.engine_ms:.2f}x the engine)")
    print(f"   whole page (no script, gzipped):      {f.page_ms:.2f} ms   ({f.page_ms / f.engine_ms:.2f}x the engine)")
    print(f"   HTML: {f.html_bytes / 1000:.1f} KB ({f.gzip_bytes / 1000:.1f} KB gzipped; aim: at most 60 KB); "
          f"the ruling alone {f.ruling_bytes / 1000:.1f} KB")


if __name__ == "__main__":
    report(5)

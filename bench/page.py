"""The referee page's benchmark (part of ``make bench``): the prefilled example judged and
rendered by the server (a whole-page POST through Django's middleware and templates),
side by side with the engine judging the same text under the same rulesets.

The aim (issue 9): the server's time at most twice the engine's; the HTML at most 60 KB.
"""

from __future__ import annotations

import gzip
import os
import statistics
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class PageFigures:
    engine_ms: float
    page_ms: float
    """The whole page (a POST without JavaScript)."""
    ruling_ms: float
    """The ruling alone, as Judge fetches it with htmx."""
    html_bytes: int
    gzip_bytes: int


def measure(repeats: int = 5, n: int = 40) -> PageFigures:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mextrain_site.settings")
    os.environ["RATELIMIT_ENABLE"] = "0"  # every request comes from one address
    import django

    django.setup()
    from django.test import Client

    from mextrain_site.core.referee import parse
    from mextrain_site.referee.views import EXAMPLE
    from rules.answer import rule

    client = Client()
    url = "/en/adjudicate/"
    response = client.post(url, {"position": EXAMPLE})
    assert response.status_code == 200, response.status_code
    html = response.content
    engine, page, ruling = [], [], []
    for _ in range(repeats):
        t = time.perf_counter()
        for _ in range(n):
            request = parse(EXAMPLE, None)
            for rs in request.rulesets:
                rule(request.position, rs)
        engine.append((time.perf_counter() - t) / n * 1000)
        t = time.perf_counter()
        for _ in range(n):
            client.post(url, {"position": EXAMPLE})
        page.append((time.perf_counter() - t) / n * 1000)
        t = time.perf_counter()
        for _ in range(n):
            client.post(url, {"position": EXAMPLE}, HTTP_HX_REQUEST="true")
        ruling.append((time.perf_counter() - t) / n * 1000)
    return PageFigures(statistics.median(engine), statistics.median(page), statistics.median(ruling), len(html),
                       len(gzip.compress(html)))


def report(repeats: int) -> None:
    f = measure(repeats)
    print("4. the referee page, prefilled example, all rulesets (whole-page POST through Django)")
    print(f"   engine (parse + judge):   {f.engine_ms:.2f} ms")
    print(f"   Judge (htmx, the ruling): {f.ruling_ms:.2f} ms   ({f.ruling_ms / f.engine_ms:.2f}x the engine; aim: at most 2x)")
    print(f"   whole page (no script):   {f.page_ms:.2f} ms   ({f.page_ms / f.engine_ms:.2f}x the engine)")
    print(f"   HTML: {f.html_bytes / 1000:.1f} KB ({f.gzip_bytes / 1000:.1f} KB gzipped; aim: at most 60 KB)")


if __name__ == "__main__":
    report(5)

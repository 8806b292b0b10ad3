"""What never changes, served from a cache or answered with 304.

* :func:`cached_page`: a page rendered once per language (and host) and kept in Django's cache (local
  memory, or Redis when ``REDIS_URL`` is set, shared by every server). Used for shared rulings,
  which never change once stored. The page's CSRF token is rendered as a placeholder and each
  reader's own token is put in when it is served.
* :func:`conditional`: ``ETag`` and ``Last-Modified`` tied to the files the answer is made of (the
  rulesets and their sources, the templates, catalogues, static files and code), so a browser or
  proxy revalidates with ``If-None-Match``/``If-Modified-Since`` and gets ``304 Not Modified``.
"""

from __future__ import annotations

import copy
import datetime
import functools
import hashlib
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse, QueryDict
from django.middleware.csrf import get_token
from django.utils import translation
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.views.decorators.http import condition

log = logging.getLogger(__name__)
ROOT = Path(__file__).resolve().parent.parent.parent
CONTENT_GLOBS = (
    "variants/*.yaml", "variants/sources/*", "templates/**/*.html", "locale/*/LC_MESSAGES/*.mo", "static/**/*",
    "rules/**/*.py", "variants/**/*.py", "mextrain_site/**/*.py",
)
"""The files every cached or conditional answer is made of: any change to them is a new version."""
CSRF_PLACEHOLDER = "csrf-placeholder-5f0e2a7c9b1d"
"""Rendered where the CSRF token goes in a cached page; replaced with the reader's token."""
CACHE_HEADER = "X-Mextrain-Cache"
View = Callable[..., HttpResponse]
Req = TypeVar("Req", bound=HttpRequest)


@functools.cache
def content_version() -> tuple[str, datetime.datetime]:
    """A digest of the files in :data:`CONTENT_GLOBS` (their paths and bytes) and the latest mtime."""
    digest = hashlib.sha256()
    latest = 0.0
    files = sorted({p for pattern in CONTENT_GLOBS for p in ROOT.glob(pattern) if p.is_file()})
    for path in files:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
        latest = max(latest, path.stat().st_mtime)
    modified = datetime.datetime.fromtimestamp(int(latest), datetime.UTC)
    return digest.hexdigest()[:20], modified


def _etag(request: HttpRequest, *args: Any, **kwargs: Any) -> str:
    """The content version, the language, and whether htmx asked (a partial must never validate
    the browser's cached copy of the whole page at the same URL, nor the other way round)."""
    partial = "-htmx" if request.headers.get("HX-Request") else ""
    return f"{content_version()[0]}-{translation.get_language() or settings.LANGUAGE_CODE}{partial}"


def _last_modified(request: HttpRequest, *args: Any, **kwargs: Any) -> datetime.datetime:
    return content_version()[1]


def conditional(view: View) -> View:
    """ETag/Last-Modified from :func:`content_version` and 304 on a matching conditional request.

    The answer is revalidated on every use (``no-cache``); pages are ``private`` (their forms carry
    the reader's CSRF token)."""
    checked = condition(etag_func=_etag, last_modified_func=_last_modified)(view)

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response: HttpResponse = checked(request, *args, **kwargs)
        patch_vary_headers(response, ["HX-Request"])
        if request.path.startswith("/api/"):
            patch_cache_control(response, no_cache=True)
        else:
            patch_cache_control(response, no_cache=True, private=True)
        return response

    return wrapped


def _page_key(request: HttpRequest, name: str) -> str:
    parts = [name, translation.get_language() or "", "htmx" if request.headers.get("HX-Request") else "page",
             request.scheme or "", request.get_host(), content_version()[0]]
    return "page:" + hashlib.sha256("\0".join(parts).encode()).hexdigest()


def _without_query(request: Req) -> Req:
    """The request as the cached page is rendered for: without a query string (which must not
    bust the cache, nor end up in the links of the page other readers get)."""
    bare = copy.copy(request)
    bare.META = {**request.META, "QUERY_STRING": ""}
    bare.GET = QueryDict()
    return bare


def cached_page(request: Req, name: str, render_page: Callable[[Req], HttpResponse],
                timeout: int | None = None) -> HttpResponse:
    """The page ``name`` from the cache, or ``render_page(request)`` kept there when it answers 200.

    ``render_page`` must render the CSRF token as :data:`CSRF_PLACEHOLDER` (pass it as ``csrf_token``
    in the context)."""
    cache = caches["default"]
    key = _page_key(request, name)
    try:
        entry = cache.get(key)
    except Exception:  # the cache is down: render (slowly) rather than fail
        log.warning("page cache unavailable", exc_info=True)
        entry = None
    state = "hit"
    if entry is None:
        response = render_page(_without_query(request))
        if response.status_code != 200 or response.streaming:
            if not response.streaming:
                response.content = response.content.replace(CSRF_PLACEHOLDER.encode(), get_token(request).encode())
            return response
        entry = (response["Content-Type"], response.content)
        try:
            cache.set(key, entry, settings.SHARED_PAGE_CACHE_SECONDS if timeout is None else timeout)
        except Exception:
            log.warning("page cache unavailable", exc_info=True)
        state = "miss"
    content_type, content = entry
    page = HttpResponse(content.replace(CSRF_PLACEHOLDER.encode(), get_token(request).encode()),
                        content_type=content_type)
    page[CACHE_HEADER] = state
    return page

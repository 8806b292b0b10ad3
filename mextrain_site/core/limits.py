"""Rate limits and the storage quota, per client address, counted in the shared cache.

The rates (``settings.RATE_LIMITS``, group -> django-ratelimit's ``"count/period"``) are counted by
django-ratelimit in the cache named by ``RATELIMIT_USE_CACHE``: with Redis every worker of every
server counts against the same number. :func:`limited` guards a view; over the limit the answer
is 429 with ``Retry-After``: a page in the reader's language, or what the view's ``respond``
makes of it (the API answers JSON). :func:`charge_storage` counts the bytes of new stored texts
against the site's daily cap (``STORAGE_SITE_DAILY_BYTES``, every address together: a 503) and the
per-address daily quota (``STORAGE_QUOTA_BYTES``: a 429), and raises :class:`OverLimit` past either.

The client address is the socket's, or, behind ``TRUSTED_PROXY_HOPS`` proxies, the address the
outermost trusted proxy saw (the entry that many from the right of ``X-Forwarded-For``: a client
can prepend what it likes, but not append). IPv6 addresses count per /64.
"""

from __future__ import annotations

import datetime
import functools
import ipaddress
import logging
from collections.abc import Callable
from enum import Enum
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django_ratelimit.core import get_usage  # type: ignore[import-untyped]  # untyped library

from rules.errors import ErrorCode, InputError

log = logging.getLogger(__name__)


class Limit(Enum):
    """What was exceeded (the stable code in the API's error)."""

    RATE = "rate-limited"
    QUOTA = "quota-exceeded"
    FULL = "storage-full"
    """The site's daily storage cap (every address together): a 503, not a 429."""


class OverLimit(InputError):
    """A request past a rate or a quota: the code is the limit's, the message the API's (a page
    words it from the fields)."""

    def __init__(self, limit: Limit, retry_after: int, allowed: str) -> None:
        if limit is Limit.FULL:
            message = f"the site has stored all it stores today; try again in {retry_after} s (reads still work)"
        elif limit is Limit.QUOTA:
            message = f"this address has stored its {allowed} bytes for today; try again in {retry_after} s"
        else:
            message = f"too many requests from this address (at most {allowed}); try again in {retry_after} s"
        super().__init__(message, code=ErrorCode(limit.value))
        self.limit = limit
        self.retry_after = retry_after
        """Seconds until the client may try again."""
        self.allowed = allowed
        """The rate (``"10/m"``) or the quota in bytes."""


View = Callable[..., HttpResponse]
Respond = Callable[[HttpRequest, OverLimit], HttpResponse]


def client_address(request: HttpRequest) -> str:
    remote = str(request.META.get("REMOTE_ADDR") or "")
    hops = settings.TRUSTED_PROXY_HOPS
    forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if a.strip()]
    candidate = (forwarded[-hops] if len(forwarded) >= hops else forwarded[0]) if hops > 0 and forwarded else remote
    try:
        address = ipaddress.ip_address(candidate)
    except ValueError:
        return remote or "unknown"
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def _key(group: str, request: HttpRequest) -> str:
    return client_address(request)


def rate_of(group: str) -> str | None:
    rate = settings.RATE_LIMITS.get(group)
    return None if not rate or rate.strip().lower() in ("off", "none", "0") else rate.strip()


def check_rate(request: HttpRequest, group: str) -> None:
    """Count this request in ``group``; raise :class:`OverLimit` once the address is past the rate."""
    rate = rate_of(group)
    if rate is None:
        return
    try:
        usage = get_usage(request, group=group, key=_key, rate=rate, increment=True)
    except Exception:  # the cache is down: serve (fail open) and say so in the log
        log.warning("rate limit %r not counted: the cache failed", group, exc_info=True)
        return
    if usage is not None and usage["should_limit"]:
        raise OverLimit(Limit.RATE, max(1, int(usage["time_left"])), rate)


def charge_storage(request: HttpRequest, text: str) -> None:
    """Count ``text`` against today's (UTC) storage, the site's and the address's; past either
    cap, refuse it (:class:`OverLimit`: ``FULL`` for the site's, ``QUOTA`` for the address's).

    The one call before anything new is stored (a shared ruling, a house ruleset, a game): a
    refused text takes nothing from either count."""
    size = len(text.encode("utf-8", "surrogatepass"))
    now = datetime.datetime.now(datetime.UTC)
    cache = caches[settings.RATELIMIT_USE_CACHE]
    day = now.date().isoformat()
    site = _charge(cache, f"quota:site:{day}", size, settings.STORAGE_SITE_DAILY_BYTES, now, Limit.FULL)
    quota = settings.STORAGE_QUOTA_BYTES
    if not settings.RATELIMIT_ENABLE or quota <= 0:
        return
    try:
        _charge(cache, f"quota:store:{client_address(request)}:{day}", size, quota, now, Limit.QUOTA)
    except OverLimit:
        if site is not None:
            _refund(cache, site, size)
        raise


def _charge(cache: Any, key: str, size: int, cap: int, now: datetime.datetime, limit: Limit) -> str | None:
    """Add ``size`` to the day's count under ``key``; past ``cap``, take it back and raise. None when
    nothing was counted (no cap, or the cache is down: store (fail open) and say so in the log)."""
    if cap <= 0:
        return None
    try:
        cache.add(key, 0, 2 * 24 * 3600)
        total = cache.incr(key, size)
    except Exception:
        log.warning("storage %s not counted: the cache failed", "cap" if limit is Limit.FULL else "quota", exc_info=True)
        return None
    if total > cap:
        _refund(cache, key, size)  # refused: it takes nothing, a smaller text may still fit
        if limit is Limit.FULL and _first_time(cache, f"{key}:logged"):
            log.warning("the site's daily storage cap of %s bytes is reached: new shares, house rulesets and games "
                        "are refused until midnight UTC; reads go on", cap)
        tomorrow = datetime.datetime.combine(now.date() + datetime.timedelta(days=1), datetime.time(), datetime.UTC)
        raise OverLimit(limit, max(1, int((tomorrow - now).total_seconds())), str(cap))
    return key


def _refund(cache: Any, key: str, size: int) -> None:
    try:
        cache.decr(key, size)
    except Exception:
        log.warning("storage count %r not corrected: the cache failed", key, exc_info=True)


def _first_time(cache: Any, key: str) -> bool:
    """True for the first caller of the day across every process (the shared cache decides)."""
    try:
        return bool(cache.add(key, 1, 2 * 24 * 3600))
    except Exception:
        return True


def too_many_page(request: HttpRequest, exc: OverLimit) -> HttpResponse:
    """The site's answer: a page in the reader's language (htmx: the notice in place of the ruling)."""
    context = {"over": exc, "quota": exc.limit is Limit.QUOTA, "full": exc.limit is Limit.FULL,
               "minutes": -(-exc.retry_after // 60), "seconds": exc.retry_after}
    status = 503 if exc.limit is Limit.FULL else 429
    if getattr(request, "htmx", False):
        response = render(request, "core/rate_limited.html#notice", context, status=status)
        response["HX-Retarget"] = "#ruling"
        response["HX-Reswap"] = "outerHTML"
    else:
        response = render(request, "core/rate_limited.html", context, status=status)
    return response


def limited(group: str, *, methods: tuple[str, ...] = ("POST",), respond: Respond = too_many_page) -> Callable[[View], View]:
    """Guard a view: requests with ``methods`` count against ``group``'s rate; over it, or when the
    view raises :class:`OverLimit` (a quota), answer 429 with ``Retry-After``."""

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            try:
                if request.method in methods:
                    check_rate(request, group)
                return view(request, *args, **kwargs)
            except OverLimit as exc:
                response = respond(request, exc)
                response["Retry-After"] = str(exc.retry_after)
                return response

        return wrapped

    return decorate

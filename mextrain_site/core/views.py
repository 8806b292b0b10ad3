"""The home page and the health view."""

from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.templatetags.static import static
from django.views.decorators.cache import cache_control

from variants.loader import all_rulesets


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "core/home.html", {"rulesets": all_rulesets()})


@cache_control(max_age=86400, public=True)
def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, which browsers and feed readers ask for whatever the page says: the site's
    icon (the pages name it in ``<link rel="icon">``), under its versioned static URL. Not a
    permanent redirect: that URL changes with the icon."""
    return HttpResponseRedirect(static("favicon.svg"))


def health(request: HttpRequest) -> HttpResponse:
    """Liveness: a trivial view (also the baseline of the load test). ``?ready=1``: readiness, which
    also checks that the database answers a query and the cache stores and returns a value;
    503 naming what failed otherwise."""
    if not request.GET.get("ready"):
        return HttpResponse("ok", content_type="text/plain")
    failed = []
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure of the database is a "not ready"
        failed.append(f"database: {type(exc).__name__}")
    try:
        cache.set("health:ready", "yes", 10)
        if cache.get("health:ready") != "yes":
            failed.append("cache: the value stored was not read back")
    except Exception as exc:  # any failure of the cache is a "not ready"
        failed.append(f"cache: {type(exc).__name__}")
    if failed:
        return HttpResponse("not ready: " + "; ".join(failed), status=503, content_type="text/plain")
    return HttpResponse("ready", content_type="text/plain")


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """404 in the page's language: the view's own message (already translated) when it gave one."""
    from django.urls import Resolver404

    message = exception.args[0] if exception.args and not isinstance(exception, Resolver404) else ""
    return render(request, "404.html", {"message": message if isinstance(message, str) else ""}, status=404)

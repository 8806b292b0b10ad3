"""The home page and the health view."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from variants.loader import all_rulesets


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "core/home.html", {"rulesets": all_rulesets()})


def health(request: HttpRequest) -> HttpResponse:
    """A trivial view, the baseline of the load test."""
    return HttpResponse("ok", content_type="text/plain")


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """404 in the page's language: the view's own message (already translated) when it gave one."""
    from django.urls import Resolver404

    message = exception.args[0] if exception.args and not isinstance(exception, Resolver404) else ""
    return render(request, "404.html", {"message": message if isinstance(message, str) else ""}, status=404)

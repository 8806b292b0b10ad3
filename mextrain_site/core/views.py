"""The home page and the health view."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from variants.loader import all_rulesets


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "core/home.html", {"rulesets": all_rulesets()})


def health(request: HttpRequest) -> HttpResponse:
    """A trivial view, the baseline of the load test."""
    return HttpResponse("ok", content_type="text/plain")

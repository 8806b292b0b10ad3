"""Addresses that only take a form's POST, reached by a GET anyway."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse

View = TypeVar("View", bound=Callable[..., HttpResponse])


def get_goes_to(page: str) -> Callable[[View], View]:
    """A POST-only address (the Build editor, Share, a house ruleset's upload) answers a GET or HEAD
    by sending the player to ``page`` (a URL name) in the same language, with a 303: a player who
    reloads after an error, or follows a bookmark, lands on the page that has the form, not on an
    empty 405. The query is dropped (it could carry a position the player never meant to put in an
    address). Outermost, so such a GET counts against no rate limit."""

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def answer(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method in ("GET", "HEAD"):
                return HttpResponseRedirect(reverse(page), status=303)
            return view(request, *args, **kwargs)

        return cast(View, answer)

    return decorate

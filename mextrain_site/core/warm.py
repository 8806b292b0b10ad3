"""A server process made ready before its first request, its long-lived objects set aside.

:func:`settle` loads what every process keeps for its whole life (the URL configuration, the
published rulesets, the page templates), then moves every object alive at that point out of the
garbage collector's generations (:func:`gc.freeze`, as Instagram runs Django). Those objects never
die, but a full collection would walk all of them again: about 66,000 here, 40 ms every few
hundred requests on this machine (a pause on the request that triggers it; about 0.1 ms per
request on average). Frozen, a full collection walks only what requests left behind (about 1 ms).
Young collections are unaffected: they only ever walk new objects.

Called by ``mextrain_site/wsgi.py`` in each process that serves (with gunicorn, in each worker;
with ``--preload``, in the master before the fork, which also keeps the frozen pages shared).
"""

from __future__ import annotations

import gc

from django.template.loader import get_template
from django.urls import get_resolver

from variants.loader import base_ids, get_ruleset

TEMPLATES = ("base.html", "referee/adjudicate.html")
"""The templates nearly every request renders (the others load on first use, and stay young)."""


def settle() -> None:
    get_resolver().url_patterns  # noqa: B018  (imports every URL module)
    for ident in base_ids():
        get_ruleset(ident)
    for name in TEMPLATES:
        get_template(name)
    gc.collect()  # start's garbage goes first: frozen, it would stay for good
    gc.freeze()

"""``GET /g/<id>/events``: the sheet's version as server-sent events, from an async view.

Under an ASGI server (uvicorn) an open stream is a coroutine waiting on a queue, not a worker:
hundreds of phones can keep a sheet open while the pages and the API keep their throughput. The
first event is the version now (a reader who missed a write while reconnecting catches up); then
one ``sheet`` event per write, and a comment every 15 s so that proxies keep the line open.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from asgiref.sync import sync_to_async
from django.http import Http404, HttpRequest, HttpResponseBase, StreamingHttpResponse

from . import live
from .models import Game, GameEvent

KEEPALIVE = 15.0
"""Seconds between comments on a quiet stream."""


def _version(game_id: str) -> int | None:
    if not Game.objects.filter(pk=game_id).exists():
        return None
    return GameEvent.objects.filter(game_id=game_id).count()


async def _events(sub: live.Subscription, version: int) -> AsyncIterator[str]:
    try:
        yield f"retry: 1000\nid: {version}\nevent: sheet\ndata: {version}\n\n"
        while True:
            try:
                latest = await asyncio.wait_for(sub.queue.get(), KEEPALIVE)
            except TimeoutError:
                yield ": still here\n\n"
                continue
            while not sub.queue.empty():  # several writes at once: the newest is enough
                latest = max(latest, sub.queue.get_nowait())
            yield f"id: {latest}\nevent: sheet\ndata: {latest}\n\n"
    finally:
        sub.close()


async def events_view(request: HttpRequest, game_id: str) -> HttpResponseBase:
    version = await sync_to_async(_version)(game_id)
    if version is None:
        raise Http404(game_id)
    sub = live.subscribe(game_id)
    response = StreamingHttpResponse(_events(sub, version), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache, no-transform"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response

"""``GET /g/<id>/events``: the sheet's version as server-sent events, from an async view.

Under an ASGI server (uvicorn, as the production stack runs it) an open stream is a coroutine
waiting on a queue, not a worker: hundreds of phones keep a sheet open while the pages and the API
keep their throughput. Under WSGI (``make run``, the test server) the same view answers with a
generator that a worker thread waits in, as WSGI must. The first event is the version now (a
reader who missed a write while reconnecting catches up); then one ``sheet`` event per write, and
a comment every 15 s so that proxies keep the line open.
"""

from __future__ import annotations

import asyncio
import queue
from collections.abc import AsyncIterator, Iterator

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse

from . import live
from .models import Game, GameEvent

KEEPALIVE = 15.0
"""Seconds between comments on a quiet stream."""


def _version(game_id: str) -> int | None:
    """The game's version, None when there is no such game. Run in the loop's shared thread pool and
    the connection closed at once: a stream lasts hours, and under ASGI a thread-sensitive call would
    hold a thread and a database connection per open stream."""
    try:
        if not Game.objects.filter(pk=game_id).exists():
            return None
        return GameEvent.objects.filter(game_id=game_id).count()
    finally:
        connection.close()


def event(version: int) -> str:
    return f"id: {version}\nevent: sheet\ndata: {version}\n\n"


FIRST = "retry: 1000\n"
"""Reconnect a second after a dropped line."""
QUIET = ": still here\n\n"


async def _async_events(sub: live.Subscription, version: int) -> AsyncIterator[str]:
    assert sub.inbox is not None
    try:
        yield FIRST + event(version)
        while True:
            try:
                latest = await asyncio.wait_for(sub.inbox.get(), KEEPALIVE)
            except TimeoutError:
                yield QUIET
                continue
            while not sub.inbox.empty():  # several writes at once: the newest is enough
                latest = max(latest, sub.inbox.get_nowait())
            yield event(latest)
    finally:
        sub.close()


def _thread_events(sub: live.Subscription, version: int) -> Iterator[str]:
    try:
        yield FIRST + event(version)
        while True:
            try:
                latest = sub.waiting.get(timeout=KEEPALIVE)
            except queue.Empty:
                yield QUIET
                continue
            while not sub.waiting.empty():
                latest = max(latest, sub.waiting.get_nowait())
            yield event(latest)
    finally:
        sub.close()


async def events_view(request: HttpRequest, game_id: str) -> HttpResponseBase:
    # Subscribed before the version is read, and with this process's Redis listener confirmed: a
    # write after the first event is never missed (one just before it may come twice, which a
    # reader takes as the same version).
    await sync_to_async(live.listening, thread_sensitive=False)()
    sub = live.subscribe(game_id, asyncio.get_running_loop() if isinstance(request, ASGIRequest) else None)
    version = await sync_to_async(_version, thread_sensitive=False)(game_id)
    if version is None:  # plain text: an event source reads no page
        sub.close()
        return HttpResponse(f"no game is called {game_id!r}\n", status=404, content_type="text/plain; charset=utf-8")
    events = _async_events(sub, version) if sub.loop is not None else _thread_events(sub, version)
    response = StreamingHttpResponse(events, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache, no-transform"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response

"""The live sheet: every open page of a game hears of a new version within a second or two.

A write calls :func:`publish` (from a synchronous view); each stream (an async view) holds a
:class:`Subscription`, an asyncio queue on its own event loop. Without ``REDIS_URL`` the fan-out is
in this process. With it, a write publishes on the Redis channel ``mextrain:game:<id>`` and one
listener thread per process (``PSUBSCRIBE mextrain:game:*``) hands each message to this process's
streams, so a round written through one app server reaches readers connected to another, with one
Redis connection per process however many streams are open.
"""

from __future__ import annotations

import asyncio
import logging
import os
import queue
import threading
from typing import Any

log = logging.getLogger(__name__)

CHANNEL = "mextrain:game:"


class Subscription:
    """One open stream's inbox: an asyncio queue on the stream's event loop (under ASGI), or a
    thread-safe queue that a worker thread waits on (under WSGI: ``make run``, the test server)."""

    def __init__(self, game_id: str, loop: asyncio.AbstractEventLoop | None) -> None:
        self.game_id = game_id
        self.loop = loop
        self.inbox: asyncio.Queue[int] | None = asyncio.Queue() if loop is not None else None
        self.waiting: queue.SimpleQueue[int] = queue.SimpleQueue()

    def put(self, version: int) -> None:
        """Thread-safe: from a writing view's thread or the Redis listener's."""
        if self.loop is not None and self.inbox is not None:
            self.loop.call_soon_threadsafe(self.inbox.put_nowait, version)
        else:
            self.waiting.put(version)

    def close(self) -> None:
        _fanout.remove(self)


class Fanout:
    """This process's open streams, per game."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._streams: dict[str, set[Subscription]] = {}

    def add(self, sub: Subscription) -> None:
        with self._lock:
            self._streams.setdefault(sub.game_id, set()).add(sub)

    def remove(self, sub: Subscription) -> None:
        with self._lock:
            subs = self._streams.get(sub.game_id)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._streams[sub.game_id]

    def deliver(self, game_id: str, version: int) -> int:
        """Hand ``version`` to each stream of the game (thread-safe); how many there were."""
        with self._lock:
            subs = list(self._streams.get(game_id, ()))
        for sub in subs:
            try:
                sub.put(version)
            except RuntimeError:  # its loop has closed: the stream is gone
                self.remove(sub)
        return len(subs)

    def count(self) -> int:
        with self._lock:
            return sum(len(s) for s in self._streams.values())


_fanout = Fanout()
_listener_lock = threading.Lock()
_listener: threading.Thread | None = None


def redis_url() -> str:
    return os.environ.get("REDIS_URL", "").strip()


def _client() -> Any:
    import redis

    return redis.Redis.from_url(redis_url(), socket_connect_timeout=2, health_check_interval=30)


def publish(game_id: str, version: int) -> None:
    """Tell every open stream of the game, on every server, that the sheet is at ``version``."""
    if not redis_url():
        _fanout.deliver(game_id, version)
        return
    try:
        _client().publish(CHANNEL + game_id, str(version))
    except Exception:  # Redis is down: this server's readers still hear of it
        log.warning("live update of game %s not published: Redis failed", game_id, exc_info=True)
        _fanout.deliver(game_id, version)


_subscribed = threading.Event()
"""Set while this process's listener is subscribed: a write published then reaches its streams."""


def _listen() -> None:
    """Relay Redis messages to this process's streams, reconnecting after a failure."""
    import time

    while True:
        try:
            pubsub = _client().pubsub()
            pubsub.psubscribe(CHANNEL + "*")
            for message in pubsub.listen():
                kind = message.get("type") if message else None
                if kind == "psubscribe":  # Redis confirms: from now on nothing published is missed
                    _subscribed.set()
                elif kind == "pmessage":
                    channel = message["channel"].decode() if isinstance(message["channel"], bytes) else message["channel"]
                    _fanout.deliver(channel[len(CHANNEL):], int(message["data"]))
        except Exception:
            _subscribed.clear()
            log.warning("live updates: the Redis listener failed; reconnecting", exc_info=True)
            time.sleep(1)


def listening(timeout: float = 2.0) -> bool:
    """Start this process's Redis listener if need be and wait (at most ``timeout`` s) until Redis
    has confirmed its subscription, so that a stream opened now hears every write published after
    it (True at once without Redis: the fan-out is in this process)."""
    if not redis_url():
        return True
    _ensure_listener()
    return _subscribed.wait(timeout)


def _ensure_listener() -> None:
    global _listener
    if not redis_url():
        return
    with _listener_lock:
        if _listener is None or not _listener.is_alive():
            _listener = threading.Thread(target=_listen, name="game-live-redis", daemon=True)
            _listener.start()


def subscribe(game_id: str, loop: asyncio.AbstractEventLoop | None) -> Subscription:
    """A stream's subscription, delivered on ``loop`` (None: to a waiting thread); close it when
    the stream ends."""
    _ensure_listener()
    sub = Subscription(game_id, loop)
    _fanout.add(sub)
    return sub


def open_streams() -> int:
    return _fanout.count()

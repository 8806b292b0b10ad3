"""The live score sheet under load: API throughput with and without hundreds of open sheets.

``python -m bench.streams`` (``make loadtest`` runs it after the API load test) starts the production
shape (nginx, two gunicorn servers with their sync workers, two uvicorn servers for the event
streams, PostgreSQL, Redis), measures ``POST /api/adjudicate`` through nginx with wrk, then opens
``--streams`` event streams of one game through nginx (from several loopback addresses: nginx allows
128 connections per address), measures again while rounds are written to the game, and checks that
every stream received every round. Aims: the API keeps at least 80% of its throughput; every stream
receives every event.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.loadtest import TYPICAL_POSITION, Result, parse_wrk, post_script, run_wrk
from bench.stack import Unavailable, production_stack

AIM_RATIO = 0.80
PER_ADDRESS = 100
"""Streams opened from each loopback address (nginx's limit_conn is 128 per address)."""


@dataclass
class Streams:
    """``count`` event streams of one game, read on an asyncio loop in a thread of their own."""

    host: str
    port: int
    game: str
    count: int
    seen: list[set[int]] = field(default_factory=list)
    opened: int = 0
    failed: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.seen = [set() for _ in range(self.count)]
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        if not self.ready.wait(120):
            raise RuntimeError(f"only {self.opened} of {self.count} streams opened in 120 s")

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._main())

    async def _main(self) -> None:
        self.tasks = [asyncio.ensure_future(self._read(i)) for i in range(self.count)]
        await asyncio.gather(*self.tasks, return_exceptions=True)

    async def _read(self, i: int) -> None:
        source = f"127.0.0.{2 + i // PER_ADDRESS}"
        try:
            reader, writer = await asyncio.open_connection(self.host, self.port, local_addr=(source, 0))
            writer.write(f"GET /g/{self.game}/events HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n"
                         .encode())
            await writer.drain()
            status = await reader.readline()
            if b" 200 " not in status:
                raise RuntimeError(status.decode(errors="replace").strip())
            first = True
            while True:
                line = await reader.readline()
                if not line:
                    return
                if line.startswith(b"data: "):
                    self.seen[i].add(int(line[6:]))
                    if first:
                        first = False
                        self.opened += 1
                        if self.opened == self.count:
                            self.ready.set()
        except Exception as exc:  # noqa: BLE001  (a stream that fails is reported, not raised)
            self.failed.append(f"stream {i}: {exc!r}")
            self.opened += 1
            if self.opened == self.count:
                self.ready.set()

    def wait_for(self, version: int, timeout: float) -> float:
        """Seconds until every stream has seen ``version`` (or the timeout)."""
        started = time.monotonic()
        while time.monotonic() - started < timeout:
            if all(version in s for s in self.seen):
                break
            time.sleep(0.02)
        return time.monotonic() - started

    def close(self) -> None:
        for task in getattr(self, "tasks", []):
            self.loop.call_soon_threadsafe(task.cancel)
        self.thread.join(10)


def call(url: str, method: str, body: object, token: str = "") -> dict[str, Any]:
    headers = {"Content-Type": "application/json", "Host": "localhost"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, json.dumps(body).encode(), headers, method=method)
    with urllib.request.urlopen(request, timeout=30) as r:
        return dict(json.loads(r.read()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.streams", description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=500)
    parser.add_argument("--duration", type=float, default=10.0, help="seconds of API load per measure (default 10)")
    parser.add_argument("--rounds", type=int, default=3, help="measures with and without streams, in turn (default 3)")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    wrk = "wrk"
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "post.lua"
        script.write_text(post_script(TYPICAL_POSITION, "text/plain"))
        try:
            stack_context = production_stack(servers=2, workers=2, streams=True, RATELIMIT_ENABLE="0")
            stack = stack_context.__enter__()
        except Unavailable as exc:
            print(f"the production stack cannot start here: {exc}", file=sys.stderr)
            return 2
        try:
            url = stack.url
            game = call(f"{url}/api/games", "POST", {"ruleset": "howto", "players": ["Ann", "Bob", "Cy"]})
            run_wrk(wrk, f"{url}/api/adjudicate", script, 2, args.connections, args.threads)  # warm up
            host, port = url.split("//")[1].split(":")
            without: list[Result] = []
            with_streams: list[Result] = []
            delays: list[float] = []
            streams: Streams | None = None
            version = 0
            for n in range(args.rounds):
                print(f"round {n + 1}: the API alone, {args.duration:g} s ...", file=sys.stderr, flush=True)
                without.append(parse_wrk("without", run_wrk(wrk, f"{url}/api/adjudicate", script, args.duration,
                                                            args.connections, args.threads)))
                if streams is None:
                    print(f"opening {args.streams} streams ...", file=sys.stderr, flush=True)
                    streams = Streams(host, int(port), game["id"], args.streams)
                print(f"round {n + 1}: the API with {args.streams} open streams and rounds written ...",
                      file=sys.stderr, flush=True)
                writer = threading.Thread(target=lambda: run_with(url, game, args.duration, streams, delays, version))
                writer.start()
                with_streams.append(parse_wrk("with", run_wrk(wrk, f"{url}/api/adjudicate", script, args.duration,
                                                               args.connections, args.threads)))
                writer.join()
                version = len(delays)
            assert streams is not None
            written = set(range(1, version + 1))
            missing = sum(1 for s in streams.seen if not written <= s)
            streams.close()
        finally:
            stack_context.__exit__(None, None, None)
    alone, loaded = statistics.median(r.rps for r in without), statistics.median(r.rps for r in with_streams)
    ratio = loaded / alone if alone else 0.0
    print(f"POST /api/adjudicate through nginx: {alone:.0f} requests/s alone, {loaded:.0f} with {args.streams} open "
          f"streams ({ratio:.1%}; aim >= {AIM_RATIO:.0%}: {'met' if ratio >= AIM_RATIO else 'MISSED'})")
    print(f"rounds written: {len(written)}; streams that received every one: {args.streams - missing} of {args.streams}"
          f" ({'met' if not missing and not streams.failed else 'MISSED'}); slowest delivery to all streams: "
          f"{max(delays, default=0):.2f} s")
    for failure in streams.failed[:5]:
        print(failure)
    print(f"2 gunicorn servers x 2 sync workers, 2 uvicorn servers, PostgreSQL, Redis, nginx; wrk {args.threads} threads, "
          f"{args.connections} connections, {args.duration:g} s x {args.rounds} rounds; medians")
    return 0 if ratio >= AIM_RATIO and not missing and not streams.failed else 1


def run_with(url: str, game: dict[str, Any], seconds: float, streams: Streams | None, delays: list[float],
             version: int) -> None:
    """Write a round every few seconds while the load runs; time its delivery to every stream."""
    assert streams is not None
    deadline = time.monotonic() + seconds - 1
    number = version
    while time.monotonic() < deadline:
        time.sleep(min(2.0, max(0.0, deadline - time.monotonic())))
        number += 1
        if number > 13:
            break
        call(f"{url}/api/games/{game['id']}/rounds", "POST",
             {"round": number, "version": number - 1, "out": "Ann", "hands": {"Bob": number, "Cy": 1}},
             game["edit_token"])
        delays.append(streams.wait_for(number, 10))


if __name__ == "__main__":
    sys.exit(main())

"""``make loadtest`` (``python -m bench.loadtest``): the served API under load, against the trivial view.

Starts gunicorn the way production runs it (``gunicorn mextrain_site.wsgi``, DEBUG=0, collected
static files, SQLite in a temporary folder, migrated first; rate limits off, as the load comes from
one address) on a free loopback port, drives it with ``wrk`` (the Debian package), ``GET /health`` and
``POST /api/adjudicate`` with a typical position (4 players, a 15-tile hand, judged under every
ruleset) in turn, in several rounds (``--rounds``: a shared machine's load drifts, and the two runs
of a round see about the same), and prints requests per second and latency percentiles for both
(medians over the rounds), and the ratio (the median of the rounds' ratios). Then it stops gunicorn.

Then the production shape (``bench/stack.py``): nginx in front of two gunicorn servers sharing a
throwaway PostgreSQL and Redis, the same two endpoints at 8 and at 64 connections (``--no-stack``
skips it).

The aim: adjudication at >= 30% of the trivial view's throughput (issue 8; the first load test's
60% was shown out of reach for an answer that explains every candidate), with p95 < 50 ms. The exit status
is 0 when the run was clean (whether or not the aim is met: the figures are for docs/performance.md), 1 when
a request failed or a tool is missing.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from bench.stack import Server, Unavailable, free_port, manage, production_env, production_stack

__all__ = ["Server", "free_port", "manage", "production_env"]

ROOT = Path(__file__).resolve().parent.parent
AIM_RATIO = 0.30
AIM_P95_MS = 50.0

TYPICAL_POSITION = """\
# A typical mid-round question: 4 players, double-12, Bob holds 15 tiles.
players: Ann Bob Cy Dee
engine: 12-12
Ann: 12-5 5-8 *
Bob: 12-7
Cy: 12-3 3-10
Dee: -
mexican: 12-9 9-9
boneyard: 20
turn: Bob
hand: 7-1 1-4 9-2 2-11 0-6 6-6 8-8 10-4 5-0 3-6 11-11 4-2 6-9 1-1 8-3
check: Bob: 7-1 -> Bob
"""
"""No ``variant`` line: judged under every ruleset, side by side."""

VARIED_COUNT = 300
"""How many different positions the varied run cycles through (``--varied``)."""


def varied_positions(count: int = VARIED_COUNT, seed: int = 11) -> list[str]:
    """``count`` different positions of the typical kind, cut from self-play: 4 players, a double-12
    set (the engine as each ruleset picks it), a turn's start mid-round, the board as trains (no
    moves to replay), the mover's hand of at least 8 tiles, and the move that was played next as
    the check. Each is judged under every
    ruleset without error, and under its own ruleset it offers exactly the moves self-play had."""
    import random
    from itertools import cycle

    from rules.answer import rule
    from rules.legality import analyse
    from rules.moves import MEXICAN, Action, Move
    from rules.position import ImpossiblePositionError, Phase, Position
    from rules.simulate import NAMES, play_round
    from rules.state import Progress, State
    from rules.transitions import apply, build
    from variants.loader import base_ids, get_ruleset

    def board(state: State, check: Move) -> str:
        n = len(state.players)
        hand = state.hands[state.to_move]
        assert hand is not None
        names = (*state.players, MEXICAN)
        return Position(players=state.players, engine=state.engine, trains=tuple(t.line() for t in state.trains[:n]),
                        mexican=state.trains[n].line(), turn=state.player, boneyard=state.boneyard,
                        hands=((state.player, hand.tiles),), open_doubles=tuple(names[i] for i in state.open_doubles),
                        check=check).format()

    out: list[str] = []
    rng = random.Random(seed)
    for n, ident in enumerate(cycle(base_ids())):
        if len(out) >= count or n > 50 * count:
            break
        ruleset = get_ruleset(ident)
        log = play_round(ruleset, NAMES[:4], 1, random.Random(seed * 1000 + n), check=False, set_max=12)
        state = build(log.deal, ruleset)
        starts = []
        for k, move in enumerate(log.moves):
            hand = state.hands[state.to_move]
            if (state.phase is Phase.PLAY and state.progress == Progress() and hand is not None
                    and len(hand.tiles) >= 8 and move.action is not Action.DRAW):
                starts.append((k, state))
            state = apply(state, move)
        if not starts:
            continue
        k, state = rng.choice(starts)
        text = board(state, log.moves[k])
        try:
            ruled = [rule(Position.parse(text), get_ruleset(i)) for i in base_ids()]
        except ImpossiblePositionError:
            continue
        own = next(r for r in ruled if r.ruleset.id == ident)
        if {j.move for j in own.actions if j.legal} != set(analyse(state).legal_moves()) or text in out:
            continue
        out.append(text)
    return out


def cycle_script(bodies: list[str], content_type: str) -> str:
    """A wrk script that posts ``bodies`` in turn (each thread from its own place in the list)."""
    items = ",\n".join(lua_string(b) for b in bodies)
    return (
        f"local bodies = {{\n{items}\n}}\n"
        "local i = math.random(#bodies)\n"
        'local headers = {["Content-Type"] = "' + content_type + '"}\n'
        "request = function()\n"
        "  i = i % #bodies + 1\n"
        '  return wrk.format("POST", nil, headers, bodies[i])\n'
        "end\n" + DONE_LUA
    )


# Printed by wrk when the run ends: the percentiles wrk --latency leaves out (p95), exact, in microseconds.
DONE_LUA = """
done = function(summary, latency, requests)
  io.write(string.format("MEXTRAIN requests=%d duration_us=%d p50_us=%d p90_us=%d p95_us=%d p99_us=%d max_us=%d errors=%d status_errors=%d timeouts=%d\\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(90), latency:percentile(95),
    latency:percentile(99), latency.max,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.errors.status, summary.errors.timeout))
end
"""


def lua_string(text: str) -> str:
    """A Lua long-bracket string literal holding ``text`` exactly (no escapes are interpreted)."""
    level = 0
    while f"]{'=' * level}]" in text:
        level += 1
    eq = "=" * level
    # Lua drops a newline right after the opening bracket: add one so a leading newline survives.
    return f"[{eq}[\n{text}]{eq}]"


def post_script(body: str, content_type: str) -> str:
    return (
        'wrk.method = "POST"\n'
        f"wrk.body = {lua_string(body)}\n"
        f'wrk.headers["Content-Type"] = "{content_type}"\n' + DONE_LUA
    )


@dataclass(frozen=True)
class Result:
    name: str
    requests: int
    seconds: float
    rps: float
    p50_ms: float
    p90_ms: float
    p95_ms: float
    p99_ms: float
    max_ms: float
    errors: int
    non_2xx: int
    wrk_latency: dict[str, float]
    """The percentiles of wrk's own --latency table, in ms."""
    cpu_ms: float | None = None
    """The server's CPU time per request (gunicorn and its workers), in ms."""


_UNITS_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}


def to_ms(value: str) -> float:
    m = re.fullmatch(r"([\d.]+)(us|ms|s|m)", value.strip())
    if not m:
        raise ValueError(f"not a wrk duration: {value!r}")
    return float(m.group(1)) * _UNITS_MS[m.group(2)]


def parse_wrk(name: str, output: str) -> Result:
    """Read wrk's report: the line our ``done`` hook printed, the --latency table, Requests/sec."""
    m = re.search(r"^MEXTRAIN (.*)$", output, re.MULTILINE)
    if not m:
        raise ValueError(f"wrk printed no summary line for {name}:\n{output}")
    f = {k: int(v) for k, v in (kv.split("=") for kv in m.group(1).split())}
    rps_match = re.search(r"^Requests/sec:\s*([\d.]+)", output, re.MULTILINE)
    seconds = f["duration_us"] / 1e6
    rps = float(rps_match.group(1)) if rps_match else f["requests"] / seconds
    table = {p: to_ms(v) for p, v in re.findall(r"^\s+(\d+)%\s+(\S+)\s*$", output, re.MULTILINE)}
    non_2xx = re.search(r"Non-2xx or 3xx responses:\s*(\d+)", output)
    return Result(
        name=name, requests=f["requests"], seconds=seconds, rps=rps,
        p50_ms=f["p50_us"] / 1000, p90_ms=f["p90_us"] / 1000, p95_ms=f["p95_us"] / 1000,
        p99_ms=f["p99_us"] / 1000, max_ms=f["max_us"] / 1000,
        errors=f["errors"], non_2xx=max(f["status_errors"], int(non_2xx.group(1)) if non_2xx else 0),
        wrk_latency=table,
    )


def check_answer(url: str) -> int:
    """One request before the load: the typical position must be judged under every ruleset."""
    req = urllib.request.Request(f"{url}/api/adjudicate", data=TYPICAL_POSITION.encode(),
                                 headers={"Content-Type": "text/plain"}, method="POST")
    with urllib.request.urlopen(req, timeout=30) as r:
        body = r.read()
    answer = json.loads(body)
    bad = [k for k, v in answer["variants"].items() if "error" in v]
    if len(answer["variants"]) < 4 or bad:
        raise RuntimeError(f"the typical position was not judged under every ruleset: {answer['variants'].keys()} {bad}")
    return len(body)


def run_wrk(wrk: str, url: str, script: Path, seconds: float, connections: int, threads: int) -> str:
    cmd = [wrk, f"-t{threads}", f"-c{connections}", f"-d{seconds:g}s", "--timeout", "10s", "--latency",
           "-s", str(script), url]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + 60)
    if done.returncode != 0:
        raise RuntimeError(f"wrk failed ({done.returncode}): {done.stderr or done.stdout}")
    return done.stdout


def combined(name: str, runs: list[Result]) -> Result:
    """One endpoint's rounds as one result: the requests and errors summed, the rate and each
    percentile the median over the rounds."""
    def mid(field: str) -> float:
        return float(statistics.median(getattr(r, field) for r in runs))

    return Result(
        name=name, requests=sum(r.requests for r in runs), seconds=sum(r.seconds for r in runs), rps=mid("rps"),
        p50_ms=mid("p50_ms"), p90_ms=mid("p90_ms"), p95_ms=mid("p95_ms"), p99_ms=mid("p99_ms"),
        max_ms=max(r.max_ms for r in runs), errors=sum(r.errors for r in runs),
        non_2xx=sum(r.non_2xx for r in runs), wrk_latency=runs[len(runs) // 2].wrk_latency,
        cpu_ms=None if any(r.cpu_ms is None for r in runs) else mid("cpu_ms"),
    )


def paired_ratio(health: list[Result], api: list[Result]) -> float:
    """The median over the rounds of adjudication's rate over /health's, each round's two runs
    measured one right after the other: a shared machine's load drifts less within a round."""
    return float(statistics.median(a.rps / h.rps if h.rps else 0.0 for h, a in zip(health, api)))


def report(health: Result, api: Result, answer_bytes: int, args: argparse.Namespace, ratio: float | None = None,
           varied: tuple[Result, float] | None = None) -> str:
    """The figures as a table; ``varied``: the run over varied positions, with its ratio."""
    if ratio is None:
        ratio = api.rps / health.rps if health.rps else 0.0
    columns = [health, api, *([varied[0]] if varied else [])]
    rows = [("", "GET /health", "POST /api/adjudicate", *([f"... {args.varied} varied positions"] if varied else []))]
    rows += [
        ("requests/s", *(f"{r.rps:.0f}" for r in columns)),
        ("p50 (ms)", *(f"{r.p50_ms:.1f}" for r in columns)),
        ("p90 (ms)", *(f"{r.p90_ms:.1f}" for r in columns)),
        ("p95 (ms)", *(f"{r.p95_ms:.1f}" for r in columns)),
        ("p99 (ms)", *(f"{r.p99_ms:.1f}" for r in columns)),
        ("requests", *(str(r.requests) for r in columns)),
    ]
    if all(r.cpu_ms is not None for r in columns):
        rows.append(("server CPU/request (ms)", *(f"{r.cpu_ms:.2f}" for r in columns)))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(f"{c:<{w}}" if i == 0 else f"{c:>{w}}" for i, (c, w) in enumerate(zip(r, widths))) for r in rows]
    met_ratio, met_p95 = ratio >= AIM_RATIO, api.p95_ms < AIM_P95_MS
    lines += [
        "",
        f"adjudicate/health throughput: {ratio:.1%} (median of {args.rounds} rounds, each endpoint in turn; "
        f"aim >= {AIM_RATIO:.0%}: {'met' if met_ratio else 'MISSED'})",
        *([f"the same over {args.varied} varied positions of the typical kind (cut from self-play, in turn): "
           f"{varied[1]:.1%} (no aim: it shows what the engine's and the answer's per-process tables give "
           "when the positions differ)"] if varied else []),
        f"adjudicate p95: {api.p95_ms:.1f} ms (aim < {AIM_P95_MS:.0f} ms: {'met' if met_p95 else 'MISSED'})",
        *([f"server CPU time per request, /health over adjudicate: {health.cpu_ms / api.cpu_ms:.1%} (the throughput "
           "ratio with the CPU to itself: the other processes of a shared machine do not count)"]
          if health.cpu_ms and api.cpu_ms else []),
        f"answer size: {answer_bytes} bytes; gunicorn: {args.workers} sync workers; wrk: {args.threads} threads, "
        f"{args.connections} connections, {args.duration:g} s per endpoint in {args.rounds} rounds; {os.cpu_count()} CPUs",
        "requests/s and percentiles: medians over the rounds",
    ]
    return "\n".join(lines)


STACK_CONNECTIONS = (8, 64)
"""The production shape is measured at these numbers of concurrent connections."""


def run_stack(wrk: str, scripts: list[tuple[str, str, Path]], args: argparse.Namespace) -> list[Result]:
    """The same load through nginx in front of two gunicorn servers sharing PostgreSQL and Redis
    (rate limits off: the load comes from one address)."""
    results = []
    with production_stack(servers=2, workers=args.workers, RATELIMIT_ENABLE="0") as stack:
        check_answer(stack.url)
        for connections in STACK_CONNECTIONS:
            for label, path, script in scripts:
                if args.warmup > 0:
                    run_wrk(wrk, stack.url + path, script, args.warmup, connections, args.threads)
                print(f"{label} through nginx, {connections} connections: {args.duration:g} s ...", file=sys.stderr,
                      flush=True)
                out = run_wrk(wrk, stack.url + path, script, args.duration, connections, args.threads)
                results.append(parse_wrk(f"stack {label} c{connections}", out))
    return results


def stack_report(results: list[Result], args: argparse.Namespace) -> str:
    rows = [("through nginx, 2 servers", "connections", "requests/s", "p50 (ms)", "p95 (ms)", "p99 (ms)")]
    for r in results:
        _, label, conns = r.name.split(" ")
        endpoint = "GET /health" if label == "health" else "POST /api/adjudicate"
        rows.append((endpoint, conns[1:], f"{r.rps:.0f}", f"{r.p50_ms:.1f}", f"{r.p95_ms:.1f}", f"{r.p99_ms:.1f}"))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(f"{c:<{w}}" if i == 0 else f"{c:>{w}}" for i, (c, w) in enumerate(zip(row, widths))) for row in rows]
    lines.append(f"nginx in front of 2 gunicorn servers x {args.workers} sync workers, PostgreSQL and Redis, "
                 f"all on this machine ({os.cpu_count()} CPUs); wrk: {args.threads} threads, {args.duration:g} s per run")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.loadtest", description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=10.0, help="seconds of load per endpoint (default 10)")
    parser.add_argument("--rounds", type=int, default=5,
                        help="the duration split into rounds of whole seconds, each endpoint in turn in each (default 5)")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds of unmeasured load first (default 2)")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (default 2)")
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    parser.add_argument("--varied", type=int, default=VARIED_COUNT,
                        help=f"also post this many different positions of the typical kind in turn, measured in the same "
                             f"rounds (default {VARIED_COUNT}; 0: not)")
    parser.add_argument("--no-stack", action="store_true",
                        help="skip the run through nginx with two servers, PostgreSQL and Redis")
    args = parser.parse_args(argv)

    wrk = shutil.which("wrk")
    if not wrk:
        print("wrk is not installed: apt-get install wrk (make loadtest does)", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="mextrain-loadtest-") as name:
        tmp = Path(name)
        env = production_env(tmp, RATELIMIT_ENABLE="0")  # the load comes from one address
        manage(env, "migrate", "--noinput", "-v", "0")
        manage(env, "collectstatic", "--noinput", "-v", "0")
        health_lua, api_lua = tmp / "health.lua", tmp / "adjudicate.lua"
        health_lua.write_text(DONE_LUA)
        api_lua.write_text(post_script(TYPICAL_POSITION, "text/plain"))
        varied_lua = tmp / "varied.lua"
        if args.varied > 0:
            varied_lua.write_text(cycle_script(varied_positions(args.varied), "text/plain"))
        server = Server(env, args.workers, tmp / "gunicorn.log")
        try:
            server.wait_ready()
            answer_bytes = check_answer(server.url)
            scripts = [("health", "/health", health_lua), ("adjudicate", "/api/adjudicate", api_lua)]
            measured = [*scripts, *([("varied", "/api/adjudicate", varied_lua)] if args.varied > 0 else [])]
            runs: dict[str, list[Result]] = {label: [] for label, _, _ in measured}
            if args.warmup > 0:
                for _, path, script in measured:
                    run_wrk(wrk, server.url + path, script, args.warmup, args.connections, args.threads)
            # wrk takes whole seconds: rounds of at least 1 s each
            rounds = max(1, min(args.rounds, int(args.duration)))
            each = float(max(1, round(args.duration / rounds)))
            args.rounds, args.duration = rounds, each * rounds  # as run, for the report
            print(f"{args.duration:g} s of load per endpoint, in {rounds} rounds of {each:g} s each ...",
                  file=sys.stderr, flush=True)
            for _ in range(rounds):
                for label, path, script in measured:
                    before = server.cpu_seconds()
                    out = run_wrk(wrk, server.url + path, script, each, args.connections, args.threads)
                    after = server.cpu_seconds()
                    result = parse_wrk(label, out)
                    if before is not None and after is not None and result.requests:
                        result = dataclasses.replace(result, cpu_ms=(after - before) * 1000 / result.requests)
                    runs[label].append(result)
        finally:
            server.stop()
        health, api = combined("health", runs["health"]), combined("adjudicate", runs["adjudicate"])
        results = [health, api]
        varied = None
        if args.varied > 0:
            varied = (combined("varied", runs["varied"]), paired_ratio(runs["health"], runs["varied"]))
            results.append(varied[0])
        print(report(health, api, answer_bytes, args, paired_ratio(runs["health"], runs["adjudicate"]), varied))
        if not args.no_stack:
            try:
                stacked = run_stack(wrk, scripts, args)
            except Unavailable as exc:
                print(f"the run through nginx could not start: {exc}", file=sys.stderr)
                return 1
            print()
            print(stack_report(stacked, args))
            results += stacked
        if args.json:
            print(json.dumps({r.name: r.__dict__ for r in results}, indent=2))
        failed = [r for r in results if r.errors or r.non_2xx]
        if failed:
            for r in failed:
                print(f"{r.name}: {r.errors} socket errors, {r.non_2xx} non-2xx responses", file=sys.stderr)
            print(f"gunicorn log: {(tmp / 'gunicorn.log').read_text()[-2000:]}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

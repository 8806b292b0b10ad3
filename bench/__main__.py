"""Engine benchmarks (``make bench``): medians over repeated runs, measured side by side.

1. Self-play throughput: whole rounds per second, 4 players on a double-12 set, a random
   legal policy, for each ruleset; once with the per-move invariant checks off (the engine
   alone) and once with them on (what the test suite runs).
2. Judging one typical position (a 15-tile hand, four players, open and marked trains):
   every candidate action under all four rulesets at once, in milliseconds; with and
   without building the JSON answer.
3. The worst requests within the limits of one request (``bench/worst.py``): CPU time and
   the answer's size.

The machine is shared and noisy: the rulesets are interleaved within each repetition so
that they see the same conditions, and medians are reported.
"""

from __future__ import annotations

import argparse
import gzip
import platform
import random
import statistics
import time

import orjson

from bench.loadtest import TYPICAL_POSITION
from rules.answer import Detail, answer, rule
from rules.position import Position
from rules.simulate import NAMES, play_round
from variants.loader import all_rulesets


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("--rounds", type=int, default=40, help="rounds per ruleset per repetition")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    rulesets = all_rulesets()
    players = NAMES[:4]
    print(f"mextrain engine benchmark · Python {platform.python_version()} · {platform.machine()} · "
          f"{args.repeats} repetitions, medians")
    print()
    print(f"1. self-play, 4 players, double-12, {args.rounds} rounds per ruleset per repetition")
    results: dict[str, dict[bool, list[float]]] = {rs.id: {False: [], True: []} for rs in rulesets}
    for rep in range(args.repeats):
        for check in (False, True):
            for rs in rulesets:
                t = time.perf_counter()
                for seed in range(args.rounds):
                    play_round(rs, players, 1, random.Random(rep * 10_000 + seed), check=check, set_max=12)
                results[rs.id][check].append(args.rounds / (time.perf_counter() - t))
    base = statistics.median(results[rulesets[0].id][False])
    print(f"   {'ruleset':<12} {'rounds/s (engine)':>18} {'rounds/s (checked)':>19} {'vs ' + rulesets[0].id:>10}")
    for rs in rulesets:
        fast, checked = statistics.median(results[rs.id][False]), statistics.median(results[rs.id][True])
        print(f"   {rs.id:<12} {fast:>18.0f} {checked:>19.0f} {fast / base:>10.2f}")
    print()
    position = Position.parse(TYPICAL_POSITION)
    judge_times, answer_times = [], []
    n = 200
    for _ in range(args.repeats):
        t = time.perf_counter()
        for _ in range(n):
            for rs in rulesets:
                rule(position, rs)
        judge_times.append((time.perf_counter() - t) / n * 1000)
        t = time.perf_counter()
        for _ in range(n):
            answer(position, rulesets)
        answer_times.append((time.perf_counter() - t) / n * 1000)
    candidates = len(rule(position, rulesets[0]).actions)
    jt, at = statistics.median(judge_times), statistics.median(answer_times)
    print(f"2. one typical position (15-tile hand, {candidates} candidate actions), all {len(rulesets)} rulesets at once")
    print(f"   judge (replay + every candidate explained): {jt:.2f} ms")
    print(f"   judge + JSON answer with citations:        {at:.2f} ms   (JSON is {at / jt:.2f}x the judging alone)")
    full = orjson.dumps(answer(position, rulesets))
    compact = len(orjson.dumps(answer(position, rulesets, detail=Detail.COMPACT)))
    check_size = len(orjson.dumps(answer(position, rulesets, detail=Detail.CHECK)))
    print(f"   the API's answer (full detail, English):   {len(full) / 1000:.1f} KB, sent gzipped "
          f"{len(gzip.compress(full)) / 1000:.1f} KB   (aim: at most 60 KB; 'detail: compact': "
          f"{compact / 1000:.1f} KB; 'detail: check': {check_size / 1000:.1f} KB)")
    print()
    worst_requests(args.repeats)


def worst_requests(repeats: int) -> None:
    """3. The worst requests within the limits of one request (bench/worst.py), through the path
    every front end shares, the JSON encoded: CPU time (one core) and the answer's size."""
    from bench.worst import cases, run
    from rules.limits import MAX_ANSWER_BYTES, MAX_WORK

    print(f"3. the worst requests within the limits ({MAX_WORK:,} judgements, answers up to {MAX_ANSWER_BYTES:,} bytes); "
          "aim: under 500 ms of CPU time")
    for case in cases():
        times, size, judged = [], 0, False
        for _ in range(repeats):
            seconds, size, judged = run(case)
            times.append(seconds * 1000)
        verdict = "answered" if judged else "refused "
        print(f"   {case.name:<48} {verdict} {statistics.median(times):7.1f} ms  {size:>10,} bytes")


if __name__ == "__main__":
    main()

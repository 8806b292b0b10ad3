"""Engine benchmarks (``make bench``): today's engine and the fast path, side by side in one run.

Today's engine is the baseline commit's, run from its own source in a subprocess
(:mod:`bench.baseline`); each measurement alternates between it and the working tree's engine,
so that both see the same noise of a shared machine, and medians are reported. Times are each
process's CPU time (``time.process_time``), not the wall clock: on a shared machine the wall
clock also counts the time other processes held the CPU.

1. Self-play throughput: whole rounds per second, 4 players on a double-12 set, a random legal
   policy, for each ruleset, the engine alone (no per-move checks); both engines play the same
   seeds, and the bench says whether they played the same games (same final scores; not since
   issue 7 decides blocked rounds by who can play) and how many moves a round took on average
   (baseline / now). The working tree's rate with the per-move checks (what the test suite
   runs) is shown too.
   Then checked self-play (every invariant of rules.simulate on every move, what the test suite
   and its soak run) and unchecked self-play, this tree beside the commit issue 23 calls today's
   (:data:`bench.baseline.SELFPLAY_BASELINE`), run side by side in a second subprocess: medians
   per ruleset and over all rulesets, and the ratio. ``--checked-only`` runs this part alone.
2. One typical position (``TYPICAL_POSITION``: a 15-tile hand, four players, open and marked
   trains) under all four rulesets at once: a verdict on every candidate action (the baseline
   reached it by explaining each; now the fast path), every candidate explained with its
   reasons, and the JSON answer, in milliseconds.
3. The worst requests within the limits of one request (``bench/worst.py``): CPU time and
   the answer's size.
4. The referee page for its prefilled example (bench/page.py): the server's CPU time for a
   browser's request through Django's WSGI handler, with htmx and as a whole page, beside the
   engine's time on the same text and a request that does nothing; the HTML's size.

The machine is shared and noisy: the rulesets are interleaved within each repetition so
that they see the same conditions, and medians are reported.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable, Sequence

import orjson

from bench import page
from bench.baseline import BASELINE, SELFPLAY_BASELINE, Baseline, start
from bench.loadtest import TYPICAL_POSITION
from mextrain_site.core.compression import gzipped
from rules.answer import Detail, answer, rule
from rules.legality import is_legal, verdicts
from rules.moves import Move
from rules.position import Position
from rules.replay import implicit_done, replay
from rules.ruleset import Ruleset
from rules.simulate import NAMES, play_round
from rules.transitions import build
from variants.loader import all_rulesets

PLAYERS = NAMES[:4]


def judge_verdicts(position: Position, ruleset: Ruleset) -> tuple[bool | None, tuple[tuple[Move, bool], ...]]:
    """What a judgement decides, through the fast path: the replay, the check, every candidate's verdict."""
    state = replay(build(position, ruleset), position.moves).state
    check = None if position.check is None else is_legal(implicit_done(state, position.check), position.check)
    return check, verdicts(state) if not state.round_over else ()


def per_call(n: int, call: Callable[[], object]) -> float:
    t = time.process_time()
    for _ in range(n):
        call()
    return (time.process_time() - t) / n


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("--rounds", type=int, default=40, help="rounds per ruleset per repetition")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--calls", type=int, default=200, help="judgements of the typical position per repetition")
    parser.add_argument("--unchecked", action="store_true", help="leave out self-play with the per-move checks")
    parser.add_argument("--checked-rounds", type=int, default=10,
                        help="rounds per ruleset per repetition of the checked self-play beside its baseline")
    parser.add_argument("--checked-only", action="store_true",
                        help="only the checked and unchecked self-play beside their baseline commit")
    args = parser.parse_args()
    rulesets = all_rulesets()
    ids = [rs.id for rs in rulesets]
    if args.checked_only:
        checked_selfplay(rulesets, args.checked_rounds, args.repeats)
        return
    baseline = start()
    old: Baseline | None = baseline if isinstance(baseline, Baseline) else None
    print(f"mextrain engine benchmark · Python {platform.python_version()} · {platform.machine()} · "
          f"{args.repeats} repetitions, medians of CPU time")
    print(f"baseline (today's engine): commit {BASELINE}, " + ("run side by side in a subprocess" if old else
                                                               f"not available: {baseline}"))
    print()
    print(f"1. self-play, 4 players, double-12, {args.rounds} rounds per ruleset per repetition")
    rates: dict[str, dict[str, list[float]]] = {i: {"old": [], "new": [], "checked": []} for i in ids}
    same = {i: True for i in ids}
    moves = {i: {"old": 0, "new": 0} for i in ids}
    try:
        for rep in range(args.repeats):
            seed = rep * 10_000
            for rs in rulesets:
                seeds = range(seed, seed + args.rounds)
                if old:
                    got = old.ask(do="selfplay", ruleset=rs.id, rounds=args.rounds, seed=seed)
                    rates[rs.id]["old"].append(args.rounds / got["seconds"])
                t = time.process_time()
                logs = [play_round(rs, PLAYERS, 1, random.Random(s), check=False, set_max=12) for s in seeds]
                rates[rs.id]["new"].append(args.rounds / (time.process_time() - t))
                moves[rs.id]["new"] += sum(len(log.position.moves) for log in logs)
                if old:
                    same[rs.id] &= [log.scores for log in logs] == got["scores"]
                    moves[rs.id]["old"] += got["moves"]
                if not args.unchecked:
                    t = time.process_time()
                    for s in seeds:
                        play_round(rs, PLAYERS, 1, random.Random(s), check=True, set_max=12)
                    rates[rs.id]["checked"].append(args.rounds / (time.process_time() - t))
        print(f"   {'ruleset':<12} {'baseline r/s':>12} {'now r/s':>9} {'speed-up':>9} {'same games':>11} "
              f"{'moves/round':>13} {'now, checked r/s':>17}")
        played = args.rounds * args.repeats
        for i in ids:
            new = statistics.median(rates[i]["new"])
            checked = statistics.median(rates[i]["checked"]) if rates[i]["checked"] else float("nan")
            if old:
                before = statistics.median(rates[i]["old"])
                per_round = f"{moves[i]['old'] / played:.0f} / {moves[i]['new'] / played:.0f}"
                print(f"   {i:<12} {before:>12.0f} {new:>9.0f} {new / before:>8.2f}x {'yes' if same[i] else 'no':>11} "
                      f"{per_round:>13} {checked:>17.0f}")
            else:
                print(f"   {i:<12} {'-':>12} {new:>9.0f} {'-':>9} {'-':>11} {'-':>13} {checked:>17.0f}")
        print()
        if not args.unchecked:
            checked_selfplay(rulesets, args.checked_rounds, args.repeats)
            print()
        position = Position.parse(TYPICAL_POSITION)
        n = args.calls
        rows = {"verdicts": "judge: replay, check and a verdict on every candidate",
                "judge": "every candidate explained with its reasons",
                "answer": "the JSON answer (every reason worded, citations)"}
        times: dict[str, dict[str, list[float]]] = {k: {"old": [], "new": []} for k in rows}
        for _ in range(args.repeats):
            for key in rows:
                if old:
                    # the baseline reached its verdicts by explaining every candidate
                    do = "answer" if key == "answer" else "judge"
                    times[key]["old"].append(old.ask(do=do, text=TYPICAL_POSITION, rulesets=ids, n=n)["seconds"])
                if key == "verdicts":
                    times[key]["new"].append(per_call(n, lambda: [judge_verdicts(position, rs) for rs in rulesets]))
                elif key == "judge":
                    times[key]["new"].append(per_call(n, lambda: [rule(position, rs) for rs in rulesets]))
                else:
                    times[key]["new"].append(per_call(n, lambda: answer(position, rulesets)))
    finally:
        if old:
            old.close()
    candidates = len(rule(position, rulesets[0]).actions)
    print(f"2. one typical position (15-tile hand, {candidates} candidate actions), all {len(rulesets)} rulesets at once, ms")
    print(f"   {'':<55} {'baseline':>9} {'now':>7} {'speed-up':>9}")
    for key, label in rows.items():
        new = statistics.median(times[key]["new"]) * 1000
        if old:
            before = statistics.median(times[key]["old"]) * 1000
            print(f"   {label:<55} {before:>9.2f} {new:>7.3f} {before / new:>8.2f}x")
        else:
            print(f"   {label:<55} {'-':>9} {new:>7.3f} {'-':>9}")
    full = orjson.dumps(answer(position, rulesets))  # the server gzips it at its level (without the padding here)
    compact = len(orjson.dumps(answer(position, rulesets, detail=Detail.COMPACT)))
    check_size = len(orjson.dumps(answer(position, rulesets, detail=Detail.CHECK)))
    print(f"   the API's answer (full detail, English):   {len(full) / 1000:.1f} KB, sent gzipped "
          f"{len(gzipped(full)) / 1000:.1f} KB   (aim: at most 60 KB; 'detail: compact': "
          f"{compact / 1000:.1f} KB; 'detail: check': {check_size / 1000:.1f} KB)")
    print()
    worst_requests(args.repeats)
    print()
    page.report(args.repeats)


def checked_selfplay(rulesets: Sequence[Ruleset], rounds: int, repeats: int) -> None:
    """1b. Self-play with and without the per-move checks, this tree beside SELFPLAY_BASELINE in
    a subprocess of its own, alternating ruleset by ruleset; medians of rounds per second."""
    print(f"1b. self-play beside commit {SELFPLAY_BASELINE} (issue 23's today), 4 players, double-12, "
          f"{rounds} rounds per ruleset per repetition")
    baseline = start(SELFPLAY_BASELINE)
    if not isinstance(baseline, Baseline):
        print(f"   baseline not available: {baseline}")
        return
    kinds = ("checked", "unchecked")
    rates: dict[tuple[str, str, str], list[float]] = {}
    try:
        for rep in range(repeats):
            seed = 500_000 + rep * 10_000
            for rs in rulesets:
                for kind in kinds:
                    check = kind == "checked"
                    got = baseline.ask(do="selfplay", ruleset=rs.id, rounds=rounds, seed=seed, check=check)
                    t = time.process_time()
                    for s in range(seed, seed + rounds):
                        play_round(rs, PLAYERS, 1, random.Random(s), check=check, set_max=12)
                    now = time.process_time() - t
                    for key, seconds in (("baseline", got["seconds"]), ("now", now)):
                        rates.setdefault((kind, key, rs.id), []).append(rounds / seconds)
                        rates.setdefault((kind, key, "all"), [])
                    if rs is rulesets[-1]:  # over all rulesets: the rounds of this repetition, their time
                        for key in ("baseline", "now"):
                            per = [rates[(kind, key, r.id)][-1] for r in rulesets]
                            rates[(kind, key, "all")].append(len(per) / sum(1 / r for r in per))
    finally:
        baseline.close()
    print(f"   {'ruleset':<12} {'checked: baseline r/s':>22} {'now r/s':>9} {'speed-up':>9}   "
          f"{'unchecked: baseline r/s':>24} {'now r/s':>9} {'speed-up':>9}")
    for ident in [*(rs.id for rs in rulesets), "all"]:
        cells = []
        for kind, width in zip(kinds, (22, 24)):
            before = statistics.median(rates[(kind, "baseline", ident)])
            after = statistics.median(rates[(kind, "now", ident)])
            cells.append(f"{before:>{width}.0f} {after:>9.0f} {after / before:>8.2f}x")
        print(f"   {ident:<12} " + "   ".join(cells))


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

"""Self-play for the statistics (issue 26): ``python -m bench.selfplay`` (part 1c of ``make bench``).

1. Unchecked self-play beside the engine of :data:`bench.baseline.STATS_BASELINE` (issue 26's
   today), run from its own source in a subprocess, alternating ruleset by ruleset: 4 players,
   double-12, round 1, a random legal policy; rounds per second of CPU time, medians per ruleset
   and over all, the ratio, and whether both played the same games (the same final scores).
2. What the strategies cost: whole games of a 13-round ruleset (cardinal, 4 players, double-12)
   with every seat random, one planner (or one greedy player) among three random ones, and
   every seat a planner; CPU time per game and the ratio to random play.
3. A statistics job as the workers run it: ``--games`` (default 2,000) four-player games of
   cardinal (13 rounds each: 26,000 rounds, planner, greedy and random players), its chunks
   shared by two worker processes (``rules.statistics.play_chunk``) and merged; the wall clock,
   each worker's CPU time, the load average before and after, and that the merged tally equals
   one process's for the same seed (with ``--verify``).

Each part says whether the self-play ran compiled with mypyc (``make native``,
scripts/build_native.py) or as Python source (``rules.fastplay.COMPILED``).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import time
from collections.abc import Sequence

from bench.baseline import STATS_BASELINE, Baseline, start
from rules import fastplay, playout
from rules import statistics as st
from rules.deal import deal_row, rounds_in_game
from rules.ruleset import Ruleset
from rules.simulate import NAMES, play_round
from rules.strategies import Strategy
from variants.loader import all_rulesets, get_ruleset

PLAYERS = NAMES[:4]
JOB_RULESET = "cardinal"
"""Four players of cardinal take the double-12 set and play 13 rounds; it deals to 4 to 10
players, so every game of its job is a four-player game."""


def native() -> str:
    """Which self-play runs: the compiled modules or their sources."""
    return "compiled with mypyc" if fastplay.COMPILED else "Python source (no native build)"


def unchecked_beside_baseline(rulesets: Sequence[Ruleset], rounds: int, repeats: int) -> None:
    print(f"1c. unchecked self-play beside commit {STATS_BASELINE} (issue 26's today), 4 players, double-12, "
          f"{rounds} rounds per ruleset per repetition, medians of CPU time; now: {native()}")
    baseline = start(STATS_BASELINE)
    if not isinstance(baseline, Baseline):
        print(f"   baseline not available: {baseline}")
        return
    rates: dict[tuple[str, str], list[float]] = {}
    same = {rs.id: True for rs in rulesets}
    try:
        for rep in range(repeats):
            seed = 700_000 + rep * 10_000
            spent = {"baseline": 0.0, "now": 0.0}
            for rs in rulesets:
                got = baseline.ask(do="selfplay", ruleset=rs.id, rounds=rounds, seed=seed, check=False)
                t = time.process_time()
                logs = [play_round(rs, PLAYERS, 1, random.Random(s), check=False, set_max=12)
                        for s in range(seed, seed + rounds)]
                now = time.process_time() - t
                same[rs.id] &= [log.scores for log in logs] == got["scores"]
                for key, seconds in (("baseline", got["seconds"]), ("now", now)):
                    rates.setdefault((key, rs.id), []).append(rounds / seconds)
                    spent[key] += seconds
            for key, seconds in spent.items():
                rates.setdefault((key, "all"), []).append(rounds * len(rulesets) / seconds)
    finally:
        baseline.close()
    print(f"   {'ruleset':<12} {'baseline r/s':>12} {'now r/s':>9} {'speed-up':>9} {'same games':>11}")
    for ident in [*(rs.id for rs in rulesets), "all"]:
        before = statistics.median(rates[("baseline", ident)])
        after = statistics.median(rates[("now", ident)])
        games = "yes" if all(same.values()) or same.get(ident, False) else "no"
        print(f"   {ident:<12} {before:>12.0f} {after:>9.0f} {after / before:>8.2f}x {games:>11}")


def play_game(ruleset: Ruleset, seats: tuple[Strategy, ...], seed: int) -> None:
    rng = st.game_rng(seed, 0)
    names = NAMES[:len(seats)]
    top = deal_row(ruleset, len(seats)).set_max
    for r in range(1, rounds_in_game(ruleset, top) + 1):
        playout.play_round(ruleset, names, r, rng, top, seats)


def strategy_cost(games: int, repeats: int) -> None:
    ruleset = get_ruleset(JOB_RULESET)
    rounds = rounds_in_game(ruleset, deal_row(ruleset, 4).set_max)
    R, G, P = Strategy.RANDOM, Strategy.GREEDY, Strategy.PLANNER
    tables = {"4 random": (R, R, R, R), "1 greedy + 3 random": (G, R, R, R),
              "1 planner + 3 random": (P, R, R, R), "4 greedy": (G, G, G, G), "4 planners": (P, P, P, P)}
    times: dict[str, list[float]] = {name: [] for name in tables}
    for rep in range(repeats):
        for name, seats in tables.items():  # interleaved: each table sees the same noise
            t = time.process_time()
            for seed in range(rep * games, (rep + 1) * games):
                play_game(ruleset, seats, seed)
            times[name].append((time.process_time() - t) / games)
    print(f"2. what the strategies cost: whole games of {JOB_RULESET} ({rounds} rounds, 4 players, double-12), "
          f"{games} games per table per repetition, medians of CPU time; {native()}")
    base = statistics.median(times["4 random"])
    for name, spent in times.items():
        per_game = statistics.median(spent)
        print(f"   {name:<22} {per_game * 1000:8.1f} ms a game  {rounds / per_game:7.0f} rounds/s  "
              f"{per_game / base:5.2f}x random's cost")


def _worker(args: tuple[int, int, list[tuple[int, int]]]) -> tuple[dict[str, object], float]:
    players, seed, spans = args
    ruleset = get_ruleset(JOB_RULESET)
    t = time.process_time()
    tally = st.Tally()
    for start_, stop in spans:
        tally = tally.merge(st.play_chunk(ruleset, players, seed, start_, stop))
    return tally.to_json(), time.process_time() - t


def job(games: int, workers: int, verify: bool) -> None:
    ruleset = get_ruleset(JOB_RULESET)
    spans = list(st.chunks(games))
    shares = [spans[i::workers] for i in range(workers)]
    load = os.getloadavg()
    print(f"3. a statistics job: {games:,} four-player games of {JOB_RULESET} "
          f"({games * rounds_in_game(ruleset, 12):,} rounds), chunks of {st.CHUNK}, {workers} worker processes, "
          f"{native()}")
    wall = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        results = pool.map(_worker, [(4, 1, share) for share in shares])
    wall = time.perf_counter() - wall
    merged = st.Tally()
    for data, _ in results:
        merged = merged.merge(st.Tally.from_json(data))
    cpu = [seconds for _, seconds in results]
    print(f"   wall {wall:.1f} s; CPU {' + '.join(f'{c:.1f}' for c in cpu)} s; {merged.rounds:,} rounds; "
          f"load average {load[0]:.1f} before, {os.getloadavg()[0]:.1f} after, on {os.cpu_count()} cores")
    print(f"   with the CPU to itself, two workers would take max(CPU) = {max(cpu):.1f} s")
    if verify:
        one = st.play(ruleset, 4, 1, games)
        print(f"   merged == one process's tally: {'yes' if one == merged else 'NO'}")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.selfplay")
    parser.add_argument("--rounds", type=int, default=40, help="rounds per ruleset per repetition (part 1)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--strategy-games", type=int, default=4, help="games per table per repetition (part 2)")
    parser.add_argument("--games", type=int, default=2_000, help="games of the job (part 3); 0 leaves it out")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--verify", action="store_true", help="also play the job in one process and compare")
    args = parser.parse_args()
    unchecked_beside_baseline(all_rulesets(), args.rounds, args.repeats)
    print()
    strategy_cost(args.strategy_games, args.repeats)
    if args.games:
        print()
        job(args.games, args.workers, args.verify)


if __name__ == "__main__":
    main()

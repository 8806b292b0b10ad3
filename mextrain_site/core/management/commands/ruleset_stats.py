"""``python manage.py ruleset_stats <id> [--players N] [--games N] [--seed S] [--json]``: what a
ruleset does to a game, measured by self-play (rules.statistics), in this process.

    python manage.py ruleset_stats howto --players 4 --games 300 --seed 1
    python manage.py ruleset_stats masters+mandatory-doubles --json
    python manage.py ruleset_stats house-… --players 5 --json

The id is a published ruleset, with options joined by ``+``, or a stored house ruleset's
``house-…`` (resolved as every front end resolves it: mextrain_site.core.rulesets). ``--json``
prints the report's object (rules.statistics.Report.to_json, the API's answer too) with sorted
keys: the same id, players, games and seed give the same bytes. Without it, a short table.
Bad input (an unknown id, a number of games or players outside the allowed range) exits 2 with
one line naming what is allowed.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from mextrain_site.core.rulesets import resolve
from rules import statistics as st
from rules.errors import InputError


class Command(BaseCommand):
    help = "What a ruleset does to a game, measured by self-play: each figure with its 95% interval."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("ruleset", help="ruleset id: published (options joined by +) or house-…")
        parser.add_argument("--players", type=int, default=4)
        parser.add_argument("--games", type=int, default=st.DEFAULT_GAMES,
                            help=f"games to play, 1 to {st.MAX_GAMES:,} (default {st.DEFAULT_GAMES:,})")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--json", action="store_true", help="print the report as JSON (sorted keys)")

    def handle(self, *args: Any, **options: Any) -> None:
        sys.exit(self.run(options["ruleset"], options["players"], options["games"], options["seed"], options["json"]))

    def run(self, ident: str, players: int, games: int, seed: int, as_json: bool) -> int:
        try:
            ruleset = resolve(ident)
            st.check_request(ruleset, players, games)
        except InputError as exc:
            sys.stderr.write(f"error: {exc}\n")
            return 2
        tally = st.play(ruleset, players, seed, games)
        report = st.report(ruleset, players, seed, tally)
        if as_json:
            self.stdout.write(json.dumps(report.to_json(), sort_keys=True, ensure_ascii=False))
            return 0
        for line in table(report):
            self.stdout.write(line)
        return 0


LABELS = {
    "turns_per_round": "turns per round",
    "draws_per_round": "tiles drawn per round",
    "blocked_round_rate": "rounds ending blocked",
    "points_per_round": "points per round, per player",
    "winning_total": "the winner's total",
    "first_player_out_rate": "first player goes out first",
    "first_player_win_rate": "first player wins the game",
    "open_double_rate": "turns ending with a double open",
    "open_double_turns": "turns' ends a double stays open",
}
RATES = {"blocked_round_rate", "first_player_out_rate", "first_player_win_rate", "open_double_rate"}


def table(report: st.Report) -> list[str]:
    """The report as a few lines of plain text: figure, interval, sample."""
    sample = ", ".join(f"{t.name} ({t.players} players) {report.table_games.get(t.name, 0)} games"
                       for t in report.strategies)
    lines = [f"{report.ruleset}, {report.players} players: {report.games} games, {report.rounds} rounds, "
             f"seed {report.seed}", f"tables: {sample}",
             f"ruleset figures from: {', '.join(t.name for t in report.strategies if t.ruleset_sample)}", ""]
    width = max(map(len, LABELS.values()))
    for name, label in LABELS.items():
        est = report.metrics.get(name)
        lines.append(f"  {label:<{width}}  {_figure(est, name in RATES)}   ({est.n if est else 0} "
                     f"{st.UNITS[name]}s)")
    lines.append("")
    lines.append("  strategy win rates (the strategic player wins the game):")
    for name, est in sorted(report.strategy_win_rates.items()):
        lines.append(f"  {name:<{width}}  {_figure(est, True)}   ({est.n} games)")
    lines.append("")
    lines.append("  95% intervals: Wilson for rates, Student's t for means, the delta method for shares of turns")
    return lines


def _figure(est: st.Estimate | None, rate: bool) -> str:
    if est is None:
        return "no sample"
    if rate:
        return f"{est.mean:7.1%}  [{est.lo:.1%} – {est.hi:.1%}]" if est.lo == est.lo else f"{est.mean:7.1%}"
    if est.lo != est.lo:  # NaN: fewer than two units, no interval
        return f"{est.mean:7.2f}  (too few for an interval)"
    return f"{est.mean:7.2f}  [{est.lo:.2f} – {est.hi:.2f}]"

"""``manage.py publish_stats`` (``make stats``): the published rulesets' figures, written to the file
the site ships (mextrain_site/stats/published.json): every ruleset and each of its options, at its
usual player count, the default number of games and seed. Chunks play in ``--processes`` processes."""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from mextrain_site.stats import engine, published
from mextrain_site.stats.jobs import DEFAULT_GAMES, DEFAULT_SEED, usual_players
from variants.loader import get_ruleset, option_ids

FINGERPRINT = ("howto", 2, 4)
"""The engine's fingerprint: ruleset, players and games of the small chunk the suite plays again."""


def _chunk(ident: str, players: int, seed: int, start: int, stop: int) -> dict[str, Any]:
    tally: dict[str, Any] = engine.play(get_ruleset(ident), players, seed, start, stop).to_json()
    return tally


def fingerprint() -> dict[str, Any]:
    ident, players, games = FINGERPRINT
    return {"ruleset": ident, "players": players, "games": games, "seed": DEFAULT_SEED,
            "tally": _chunk(ident, players, DEFAULT_SEED, 0, games)}


class Command(BaseCommand):
    help = "Compute the published rulesets' statistics and write the file the site ships (make stats)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=DEFAULT_GAMES)
        parser.add_argument("--processes", type=int, default=2)
        parser.add_argument("--only", nargs="*", default=None,
                            help="these ruleset ids only (the file keeps the others' figures)")

    def handle(self, *args: Any, **options: Any) -> None:
        games: int = options["games"]
        idents = options["only"] or list(option_ids())
        figures = []
        with ProcessPoolExecutor(max_workers=max(1, options["processes"])) as pool:
            for ident in idents:
                ruleset = get_ruleset(ident)
                players = usual_players(ruleset)
                engine.check_request(ruleset, players, games)
                t0 = time.perf_counter()
                parts = [pool.submit(_chunk, ruleset.id, players, DEFAULT_SEED, start, stop)
                         for start, stop in engine.spans(games)]
                tally = engine.merged([p.result() for p in parts])
                figures.append({"ruleset": ruleset.id, "players": players, "games": games, "seed": DEFAULT_SEED,
                                "tally": tally.to_json()})
                self.stdout.write(f"{ruleset.id}: {players} players, {games} games in {time.perf_counter() - t0:.1f} s")
        if options["only"]:  # the others as the file has them
            done = {f["ruleset"] for f in figures}
            figures = [f for f in published.load()["figures"] if f["ruleset"] not in done] + figures
        figures.sort(key=lambda f: list(option_ids()).index(f["ruleset"]) if f["ruleset"] in option_ids() else 99)
        published.write(figures, fingerprint())
        self.stdout.write(f"wrote {published.FILE.name}: {len(figures)} rulesets")

"""``python manage.py simulate (--variant ID | --rules FILE.yaml) [--players N] [--set double-N]
[--rounds N] [--games N] [--seed N] [--log FILE]``: self-play (rules.simulate) from the command line.

    python manage.py simulate --variant masters+mandatory-doubles --players 4 --rounds 3 --seed 7 [--log FILE]
    python manage.py simulate --variant gamerules --players 4 --set double-12 --games 50 --seed 1
    python manage.py simulate --rules ours.yaml --players 4 --rounds 2 --seed 7 --log game.txt

``--rules FILE.yaml`` plays under a house ruleset file (as downloaded from ``/h/<id>.yaml``,
checked as an upload is, offline) instead of a published ``--variant``; a bad file is refused
with one line naming the file and line, exit 2. The log's ``variant:`` line is the house
ruleset's id (the one the site gives the same rules), so each round of the log replays offline
with ``manage.py adjudicate ROUND.txt --rules FILE.yaml``, and on the site once the ruleset is stored.

``--set double-N`` picks a row of the ruleset's table (default: its first for this many players);
``--games N`` plays N whole games with the seeds --seed, --seed+1, ... An impossible combination
(no row for that set, a round the set has no double for) is refused with one line, exit 2. An
invariant broken (rules.simulate.InvariantError) exits 1, naming the seed.
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from rules.deal import DealError
from rules.errors import InputError
from rules.simulate import Game, InvariantError, plan_problem, play_game
from rules.tiles import STANDARD_SETS
from variants.house import MAX_FILE, from_file
from variants.loader import get_ruleset, read_text


def parse_set(text: str) -> int:
    """``double-N`` (or ``N``) for --set."""
    m = re.fullmatch(r"(?:double-)?(\d{1,2})", text.strip(), re.IGNORECASE | re.ASCII)
    if not m or int(m.group(1)) not in STANDARD_SETS:
        raise argparse.ArgumentTypeError(f"expected a set like double-12 (double-6, -9, -12, -15 or -18), found {text!r}")
    return int(m.group(1))


class Command(BaseCommand):
    help = ("Self-play: deal and play whole rounds with a seeded random legal policy, checking the engine's "
            "invariants after every move.")
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        which = parser.add_mutually_exclusive_group(required=True)
        which.add_argument("--variant", help="ruleset id, options joined by +")
        which.add_argument("--rules", metavar="FILE.yaml",
                           help="a house ruleset file (as downloaded from /h/<id>.yaml): play under it, offline")
        parser.add_argument("--players", type=int, default=4)
        parser.add_argument("--set", type=parse_set, default=None, metavar="double-N",
                            help="the set: a row of the ruleset's table for this many players (default: its first)")
        parser.add_argument("--rounds", type=int, default=None,
                            help="rounds per game (default: the ruleset's whole game)")
        parser.add_argument("--games", type=int, default=1, help="games to play, seeds --seed, --seed+1, ... (default 1)")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--log", metavar="FILE", help="write every round's log (deal plus moves) to FILE")

    def handle(self, *args: Any, **options: Any) -> None:
        sys.exit(self.run(options["variant"], options["rules"], options["players"], options["set"], options["rounds"],
                          options["games"], options["seed"], options["log"]))

    def run(self, variant: str | None, rules: str | None, players: int, set_max: int | None, rounds: int | None,
            games: int, first_seed: int, log_file: str | None) -> int:
        """Play as asked and report; the exit status (0, 1 for a broken invariant, 2 for bad input)."""
        try:
            ruleset = from_file(read_text(rules, MAX_FILE), rules) if rules else get_ruleset(variant or "")
        except InputError as exc:
            sys.stderr.write(f"error: {exc}\n")
            return 2
        problem = plan_problem(ruleset, players, rounds, set_max, games)
        if problem is not None:
            sys.stderr.write(f"error: {problem}\n")
            return 2
        played: list[tuple[int, Game]] = []
        for seed in range(first_seed, first_seed + games):
            try:
                played.append((seed, play_game(ruleset, players, rounds, seed, set_max=set_max)))
            except DealError as exc:
                sys.stderr.write(f"error: {exc}\n")
                return 2
            except InvariantError as exc:
                sys.stderr.write(f"INVARIANT VIOLATED (seed {seed}): {exc}\n")
                return 1
        if log_file:
            with open(log_file, "w", encoding="utf-8") as f:
                for seed, game in played:
                    for i, log in enumerate(game.rounds, 1):
                        f.write(f"# round {i} of a {ruleset.id} game, seed {seed}\n")
                        if rules:
                            f.write(f"# {ruleset.id} is the house ruleset {ruleset.title!r} of {rules} (built on "
                                    f"{ruleset.built_on}): replay this round with manage.py adjudicate ROUND.txt "
                                    f"--rules {rules}\n")
                        f.write(log.text())
                        f.write("\n")
        out = self.stdout.write
        if games == 1:
            game = played[0][1]
            for i, log in enumerate(game.rounds, 1):
                out(f"round {i}: " + ", ".join(f"{p} {s}" for p, s in log.scores.items())
                    + f"  ({len(log.position.moves)} moves)")
            res = game.result
            out("totals: " + ", ".join(f"{p} {s}" for p, s in res.totals.items()))
            out(f"winner: {' and '.join(res.winners)} ({res.decided_by})")
            return 0
        total_rounds = moves = 0
        for seed, game in played:
            n_moves = sum(len(log.position.moves) for log in game.rounds)
            total_rounds += len(game.rounds)
            moves += n_moves
            out(f"game {seed}: {len(game.rounds)} rounds, {n_moves} moves; winner: {' and '.join(game.result.winners)} "
                f"({game.result.decided_by})")
        out(f"{len(played)} games, {total_rounds} rounds, {moves} moves: every invariant held")
        return 0

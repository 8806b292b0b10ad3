"""What a ruleset does to a game, measured by self-play: whole games played by the strategies of
rules.strategies, tallied in integers, reported with 95% intervals.

A job is ``games`` games under one ruleset, player count and seed. Game ``i`` depends only on
``(seed, i)``: its random numbers come from ``Random(f"{seed}:{i}")`` and its table from ``i``,
so the games can be split into chunks (:func:`chunks`) played anywhere (:func:`play_chunk`) and
their tallies merged in any order (:meth:`Tally.merge`, integer sums only: exact). :func:`report`
turns a tally into estimates.

The tables (game ``i`` takes table ``i mod k``, k the tables the ruleset can seat):

- ``planner_vs_random``: one ``planner`` and ``players - 1`` ``random`` players;
- ``greedy_vs_random``: one ``greedy`` and ``players - 1`` ``random`` players;
- ``planner_vs_random_2p``: ``planner`` against one ``random`` player, head to head (only where
  the ruleset deals to 2 players).

The strategic player's seat turns with the game (seat ``(i // k) mod n``). The ruleset's metrics
come from the first two tables (the player count asked); the strategy edge from all three: the
share of its games the strategic player wins (alone, or tied after the ruleset's tie-breaks).

Intervals (95%): Wilson score intervals for rates; Student's t on the sample for means (sums of
the values and of their squares); for a share of turns (:data:`RATIO_METRICS`), the ratio of two
sums per round with the delta method's variance and t. The unit of each sample (round, game) is
in :data:`UNITS`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .deal import deal_row, rounds_in_game
from .errors import ErrorCode, InputError
from .messages import Message
from .playout import play_round
from .ruleset import Ruleset
from .scoring import game_result
from .simulate import NAMES
from .strategies import Strategy

METRICS: tuple[str, ...] = (
    "turns_per_round",
    "draws_per_round",
    "blocked_round_rate",
    "points_per_round",
    "winning_total",
    "first_player_out_rate",
    "first_player_win_rate",
    "open_double_rate",
    "open_double_turns",
    "strategy_win_rates",
)
"""Every metric of a report, in order (``open_double_turns``: how many turns' ends a double left
open stays open; ``strategy_win_rates``: one estimate per table, :data:`TABLES`)."""

UNITS: Mapping[str, str] = {
    "turns_per_round": "round", "draws_per_round": "round", "blocked_round_rate": "round",
    "points_per_round": "round", "winning_total": "game", "first_player_out_rate": "round",
    "first_player_win_rate": "game", "open_double_rate": "round", "open_double_turns": "round",
    "strategy_win_rates": "game",
}
"""What one observation of each metric's sample is (a share of turns is a ratio of per-round sums)."""

RATIO_METRICS = ("open_double_rate", "open_double_turns")

MAX_GAMES = 20_000
DEFAULT_GAMES = 2_000
CHUNK = 100
DIGITS = 4
"""Decimal places of every figure in :meth:`Report.to_json`: the same seed gives the same bytes."""


@dataclass(frozen=True)
class Table:
    """One kind of table of a job: who sits at it."""

    name: str
    players: int
    strategy: Strategy
    """The one strategic player's; every other seat plays ``random``."""
    ruleset_sample: bool
    """Its games count towards the ruleset's metrics."""

    def seats(self, game: int, kinds: int) -> tuple[Strategy, ...]:
        strategic = (game // kinds) % self.players
        return tuple(self.strategy if s == strategic else Strategy.RANDOM for s in range(self.players))


def tables(ruleset: Ruleset, players: int) -> tuple[Table, ...]:
    """The tables of a job, in the order game ``i`` takes them (``i mod len``)."""
    out = [Table("planner_vs_random", players, Strategy.PLANNER, True),
           Table("greedy_vs_random", players, Strategy.GREEDY, True)]
    if 2 in allowed_players(ruleset):
        out.append(Table("planner_vs_random_2p", 2, Strategy.PLANNER, False))
    return tuple(out)


# -- the request ------------------------------------------------------------------------------


class StatsRequestError(InputError):
    """A statistics request the engine cannot play: a player count the ruleset does not deal to,
    or a number of games outside 1..MAX_GAMES."""


def allowed_players(ruleset: Ruleset) -> tuple[int, ...]:
    """Every player count the ruleset's deal table gives a hand size for."""
    return tuple(sorted({n for row in ruleset.flags.setup_deal if row.tiles is not None
                         for n in range(row.min_players, row.max_players + 1)}))


def check_request(ruleset: Ruleset, players: int, games: int) -> None:
    """Raise :class:`StatsRequestError` naming the allowed range when the job cannot be played."""
    allowed = allowed_players(ruleset)
    if players not in allowed:
        low, high = allowed[0], allowed[-1]
        raise StatsRequestError(
            Message("expected a number of players from {low} to {high} (the deal table of {ruleset}), found {found}",
                    low=low, high=high, ruleset=ruleset.id, found=players)
            if allowed == tuple(range(low, high + 1)) else
            Message("expected a number of players the deal table of {ruleset} lists ({counts}), found {found}",
                    ruleset=ruleset.id, counts=", ".join(map(str, allowed)), found=players),
            code=ErrorCode.PLAYERS_OUT_OF_RANGE)
    if not 1 <= games <= MAX_GAMES:
        raise StatsRequestError(Message("expected a number of games from 1 to {max}, found {found}", max=MAX_GAMES,
                                        found=games), code=ErrorCode.GAMES_OUT_OF_RANGE)


def chunks(games: int, size: int = CHUNK) -> tuple[tuple[int, int], ...]:
    """Games ``0..games-1`` in ``[start, stop)`` ranges of at most ``size``."""
    return tuple((start, min(start + size, games)) for start in range(0, games, size))


# -- the tally --------------------------------------------------------------------------------


class Moments(NamedTuple):
    """A sample of whole numbers: how many, their sum, the sum of their squares."""

    n: int = 0
    s: int = 0
    ss: int = 0

    def add(self, x: int) -> Moments:
        return Moments(self.n + 1, self.s + x, self.ss + x * x)

    def plus(self, other: Moments) -> Moments:
        return Moments(self.n + other.n, self.s + other.s, self.ss + other.ss)


class Ratio(NamedTuple):
    """A sample of pairs (x, y) of whole numbers, one per unit: for the ratio sum(x) / sum(y)."""

    n: int = 0
    sx: int = 0
    sy: int = 0
    sxx: int = 0
    syy: int = 0
    sxy: int = 0

    def add(self, x: int, y: int) -> Ratio:
        return Ratio(self.n + 1, self.sx + x, self.sy + y, self.sxx + x * x, self.syy + y * y, self.sxy + x * y)

    def plus(self, other: Ratio) -> Ratio:
        return Ratio(*(a + b for a, b in zip(self, other)))


class Count(NamedTuple):
    """A rate's sample: successes out of trials."""

    k: int = 0
    n: int = 0

    def plus(self, other: Count) -> Count:
        return Count(self.k + other.k, self.n + other.n)


Histogram = tuple[tuple[int, int], ...]
"""Value -> count, as sorted pairs (frozen, and merged exactly)."""


def _merge_hist(a: Histogram, b: Histogram) -> Histogram:
    out = dict(a)
    for value, count in b:
        out[value] = out.get(value, 0) + count
    return tuple(sorted(out.items()))


@dataclass(frozen=True)
class Tally:
    """What a chunk of games adds up to: integer sums and histograms only, so :meth:`merge` is
    exact, associative and commutative."""

    games: int = 0
    """Every game played, at every table."""
    rounds: int = 0
    """Every round played, at every table."""
    turns: Moments = Moments()
    draws: Moments = Moments()
    blocked: Count = Count()
    points: Moments = Moments()
    """Per round: the points of every player together (points per player: divided by the players)."""
    winning: Moments = Moments()
    first_out: Count = Count()
    first_win: Count = Count()
    open_turns: Ratio = Ratio()
    """Per round: turns that end with a double left open, out of the turns."""
    open_length: Ratio = Ratio()
    """Per round: open doubles summed over the turns' ends, out of the doubles ever left open."""
    wins: tuple[tuple[str, Count], ...] = ()
    """Per table: games the strategic player won, out of the games at that table."""
    turns_histogram: Histogram = ()
    """Turns per round (ruleset sample)."""
    points_histogram: Histogram = ()
    """Points of one player in one round (ruleset sample)."""

    def merge(self, other: Tally) -> Tally:
        wins = dict(self.wins)
        for name, count in other.wins:
            wins[name] = wins.get(name, Count()).plus(count)
        return Tally(
            games=self.games + other.games,
            rounds=self.rounds + other.rounds,
            turns=self.turns.plus(other.turns),
            draws=self.draws.plus(other.draws),
            blocked=self.blocked.plus(other.blocked),
            points=self.points.plus(other.points),
            winning=self.winning.plus(other.winning),
            first_out=self.first_out.plus(other.first_out),
            first_win=self.first_win.plus(other.first_win),
            open_turns=self.open_turns.plus(other.open_turns),
            open_length=self.open_length.plus(other.open_length),
            wins=tuple(sorted(wins.items())),
            turns_histogram=_merge_hist(self.turns_histogram, other.turns_histogram),
            points_histogram=_merge_hist(self.points_histogram, other.points_histogram),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games, "rounds": self.rounds,
            **{name: list(getattr(self, name)) for name in _SUMS},
            "wins": {name: list(count) for name, count in self.wins},
            "turns_histogram": [list(p) for p in self.turns_histogram],
            "points_histogram": [list(p) for p in self.points_histogram],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Tally:
        kinds = {name: type(getattr(cls(), name)) for name in _SUMS}
        return cls(
            games=int(data["games"]), rounds=int(data["rounds"]),
            **{name: kinds[name](*map(int, data[name])) for name in _SUMS},
            wins=tuple(sorted((str(k), Count(*map(int, v))) for k, v in data["wins"].items())),
            turns_histogram=tuple(sorted((int(v), int(c)) for v, c in data["turns_histogram"])),
            points_histogram=tuple(sorted((int(v), int(c)) for v, c in data["points_histogram"])),
        )


_SUMS = ("turns", "draws", "blocked", "points", "winning", "first_out", "first_win", "open_turns", "open_length")


# -- playing ----------------------------------------------------------------------------------


def game_rng(seed: int, game: int) -> random.Random:
    """The random numbers of game ``game`` of a job: from ``(seed, game)`` alone."""
    return random.Random(f"{seed}:{game}")


def play_chunk(ruleset: Ruleset, players: int, seed: int, start: int, stop: int,
               progress: Callable[[int], None] | None = None) -> Tally:
    """Games ``start..stop-1`` of the job ``(ruleset, players, seed)``, tallied; ``progress`` is
    called with the number of games done after each."""
    check_request(ruleset, players, max(1, stop - start))
    kinds = tables(ruleset, players)
    tally_turns, tally_draws, tally_points, tally_winning = Moments(), Moments(), Moments(), Moments()
    blocked = first_out = first_win = Count()
    open_turns = open_length = Ratio()
    wins: dict[str, Count] = {}
    turns_hist: dict[int, int] = {}
    points_hist: dict[int, int] = {}
    rounds_played = 0
    for done, game in enumerate(range(start, stop), 1):
        table = kinds[game % len(kinds)]
        seats = table.seats(game, len(kinds))
        names = NAMES[:table.players]
        rng = game_rng(seed, game)
        top = deal_row(ruleset, table.players).set_max
        logs = [play_round(ruleset, names, r, rng, top, seats) for r in range(1, rounds_in_game(ruleset, top) + 1)]
        rounds_played += len(logs)
        result = game_result(ruleset, [log.scores for log in logs])
        strategic = names[seats.index(table.strategy)]
        won = Count(int(strategic in result.winners), 1)
        wins[table.name] = wins.get(table.name, Count()).plus(won)
        if table.ruleset_sample:
            for log in logs:
                tally_turns = tally_turns.add(log.turns)
                tally_draws = tally_draws.add(log.draws)
                blocked = blocked.plus(Count(int(log.blocked), 1))
                tally_points = tally_points.add(sum(log.scores.values()))
                first_out = first_out.plus(Count(int(log.first_out), 1))
                open_turns = open_turns.add(log.open_turns, log.turns)
                open_length = open_length.add(log.open_sum, log.open_doubles)
                turns_hist[log.turns] = turns_hist.get(log.turns, 0) + 1
                for points in log.scores.values():
                    points_hist[points] = points_hist.get(points, 0) + 1
            tally_winning = tally_winning.add(min(result.totals.values()))
            first_win = first_win.plus(Count(int(names[logs[0].first] in result.winners), 1))
        if progress is not None:
            progress(done)
    return Tally(
        games=stop - start, rounds=rounds_played, turns=tally_turns, draws=tally_draws, blocked=blocked,
        points=tally_points, winning=tally_winning, first_out=first_out, first_win=first_win,
        open_turns=open_turns, open_length=open_length, wins=tuple(sorted(wins.items())),
        turns_histogram=tuple(sorted(turns_hist.items())), points_histogram=tuple(sorted(points_hist.items())),
    )


def play(ruleset: Ruleset, players: int, seed: int, games: int, size: int = CHUNK) -> Tally:
    """Every chunk of a job in this process, merged: what the workers' merged tallies equal."""
    tally = Tally()
    for start, stop in chunks(games, size):
        tally = tally.merge(play_chunk(ruleset, players, seed, start, stop))
    return tally


# -- the estimates ----------------------------------------------------------------------------


Z95 = 1.959963984540054
_T95 = (12.706204736, 4.302652730, 3.182446305, 2.776445105, 2.570581836, 2.446911851, 2.364624252,
        2.306004135, 2.262157163, 2.228138852, 2.200985160, 2.178812830, 2.160368656, 2.144786688,
        2.131449546, 2.119905299, 2.109815578, 2.100922040, 2.093024054, 2.085963447, 2.079613845,
        2.073873068, 2.068657610, 2.063898562, 2.059538553, 2.055529439, 2.051830516, 2.048407142,
        2.045229642, 2.042272456)


def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom (a table to 30,
    then the Cornish-Fisher expansion, within 1e-5)."""
    if df < 1:
        raise ValueError("t needs at least one degree of freedom")
    if df <= len(_T95):
        return _T95[df - 1]
    z = Z95
    return (z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3))


@dataclass(frozen=True)
class Estimate:
    """A figure, its 95% interval and its sample: ``n`` units (:data:`UNITS`). With fewer than
    two units a mean has no interval: ``lo`` and ``hi`` are NaN (null in JSON)."""

    mean: float
    lo: float
    hi: float
    n: int = 0

    def to_json(self) -> dict[str, Any]:
        interval = None if math.isnan(self.lo) else [_round(self.lo), _round(self.hi)]
        return {"mean": _round(self.mean), "ci95": interval, "n": self.n}


def _round(x: float) -> float:
    value = round(x, DIGITS)
    return 0.0 if value == 0 else value  # no -0.0


def wilson(k: int, n: int) -> Estimate:
    """The rate k/n with its Wilson score interval."""
    if n <= 0:
        raise ValueError("a rate needs at least one trial")
    p = k / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), n)


def mean(m: Moments, scale: float = 1.0) -> Estimate:
    """The sample mean (times ``scale``) with Student's t interval."""
    if m.n <= 0:
        raise ValueError("a mean needs at least one value")
    mu = m.s / m.n
    if m.n < 2:
        return Estimate(mu * scale, math.nan, math.nan, m.n)
    var = max(0.0, (m.ss - m.n * mu * mu) / (m.n - 1))
    half = t95(m.n - 1) * math.sqrt(var / m.n)
    return Estimate(mu * scale, (mu - half) * scale, (mu + half) * scale, m.n)


def ratio(r: Ratio) -> Estimate:
    """sum(x) / sum(y) with the delta method's interval over the units (pairs), t with n-1 df."""
    if r.n <= 0 or r.sy <= 0:
        raise ValueError("a ratio needs a positive denominator")
    q = r.sx / r.sy
    if r.n < 2:
        return Estimate(q, math.nan, math.nan, r.n)
    ybar = r.sy / r.n
    # the residuals x - q y: their sum is 0; their squares sum to sxx - 2 q sxy + q^2 syy
    ss = max(0.0, r.sxx - 2 * q * r.sxy + q * q * r.syy)
    half = t95(r.n - 1) * math.sqrt(ss / (r.n - 1) / r.n) / ybar
    return Estimate(q, q - half, q + half, r.n)


@dataclass(frozen=True)
class Report:
    """A job's figures: what :meth:`to_json` prints (the CLI's ``--json`` and the API's answer)."""

    ruleset: str
    players: int
    games: int
    rounds: int
    seed: int
    strategies: tuple[Table, ...]
    table_games: Mapping[str, int]
    metrics: Mapping[str, Estimate | None]
    """Every metric of METRICS but strategy_win_rates; None when its sample is empty."""
    strategy_win_rates: Mapping[str, Estimate]
    turns_histogram: Mapping[int, int] = field(default_factory=dict)
    points_histogram: Mapping[int, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        metrics: dict[str, Any] = {
            name: (None if est is None else {**est.to_json(), "unit": UNITS[name]})
            for name, est in self.metrics.items()
        }
        metrics["strategy_win_rates"] = {name: {**est.to_json(), "unit": "game"}
                                         for name, est in sorted(self.strategy_win_rates.items())}
        return {
            "ruleset": self.ruleset,
            "players": self.players,
            "games": self.games,
            "rounds": self.rounds,
            "seed": self.seed,
            "strategies": [
                {"table": t.name, "players": t.players, "strategic": t.strategy.value, "others": "random",
                 "games": self.table_games.get(t.name, 0), "ruleset_metrics": t.ruleset_sample}
                for t in self.strategies
            ],
            "intervals": "95%: Wilson score for rates; Student's t for means; delta method and t for shares of turns",
            "metrics": metrics,
            "turns_histogram": [[v, c] for v, c in sorted(self.turns_histogram.items())],
            "points_histogram": [[v, c] for v, c in sorted(self.points_histogram.items())],
        }


def report(ruleset: Ruleset, players: int, seed: int, tally: Tally) -> Report:
    """The estimates of a merged tally (every chunk of the job)."""
    t = tally

    def maybe(make: Callable[[], Estimate]) -> Estimate | None:
        try:
            return make()
        except ValueError:
            return None

    metrics: dict[str, Estimate | None] = {
        "turns_per_round": maybe(lambda: mean(t.turns)),
        "draws_per_round": maybe(lambda: mean(t.draws)),
        "blocked_round_rate": maybe(lambda: wilson(*t.blocked)),
        "points_per_round": maybe(lambda: mean(t.points, 1 / players)),
        "winning_total": maybe(lambda: mean(t.winning)),
        "first_player_out_rate": maybe(lambda: wilson(*t.first_out)),
        "first_player_win_rate": maybe(lambda: wilson(*t.first_win)),
        "open_double_rate": maybe(lambda: ratio(t.open_turns)),
        "open_double_turns": maybe(lambda: ratio(t.open_length)),
    }
    return Report(
        ruleset=ruleset.id, players=players, games=t.games, rounds=t.rounds, seed=seed,
        strategies=tables(ruleset, players),
        table_games={name: count.n for name, count in t.wins},
        metrics=metrics,
        strategy_win_rates={name: wilson(*count) for name, count in t.wins if count.n},
        turns_histogram=dict(t.turns_histogram),
        points_histogram=dict(t.points_histogram),
    )

"""A report as a player reads it: plain sentences first, each figure with its interval and its
sample, and two reports side by side with the figures whose intervals do not overlap said in words.

Everything here is wording: the figures, their intervals and their samples are the engine's
(``Report.to_json()``, stored on the job)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext, gettext_lazy, ngettext

RATES = frozenset({"blocked_round_rate", "first_player_out_rate", "first_player_win_rate", "open_double_rate"})
"""Metrics that are shares (0..1): shown as percentages."""

LABELS: Mapping[str, Any] = {
    "turns_per_round": gettext_lazy("Turns per round"),
    "draws_per_round": gettext_lazy("Tiles drawn per round"),
    "blocked_round_rate": gettext_lazy("Rounds ending blocked"),
    "points_per_round": gettext_lazy("Points per player per round"),
    "winning_total": gettext_lazy("Winner’s total"),
    "first_player_out_rate": gettext_lazy("Starting player goes out first"),
    "first_player_win_rate": gettext_lazy("First player wins the game"),
    "open_double_rate": gettext_lazy("Turns ending with a double open"),
    "open_double_turns": gettext_lazy("Turns a double stays open"),
    "planner_vs_random": gettext_lazy("Planner against random players"),
    "greedy_vs_random": gettext_lazy("Greedy player against random players"),
    "planner_vs_random_2p": gettext_lazy("Planner against a random player, head to head"),
}
"""A short name of each figure: a table's row, a chart's bar."""

SENTENCES: Mapping[str, Any] = {
    "turns_per_round": gettext_lazy("A round lasts %(mean)s turns on average."),
    "draws_per_round": gettext_lazy("The players draw %(mean)s tiles from the boneyard per round, all together."),
    "blocked_round_rate": gettext_lazy("%(mean)s of rounds end blocked: nobody can play and the boneyard is empty."),
    "points_per_round": gettext_lazy("A player is left holding %(mean)s points at the end of a round, on average."),
    "winning_total": gettext_lazy("The winner ends the game with %(mean)s points on average."),
    "first_player_out_rate": gettext_lazy("The player who starts a round is the first to go out in %(mean)s of rounds."),
    "first_player_win_rate": gettext_lazy("The player who starts the game wins it in %(mean)s of games."),
    "open_double_rate": gettext_lazy("%(mean)s of turns end with a double left open."),
    "open_double_turns": gettext_lazy("A double left open stays open for %(mean)s turns on average."),
    "planner_vs_random_2p": gettext_lazy("Head to head, a planner wins %(mean)s of its games against a random player."),
}
"""The plain sentence of each figure (strategy tables with several opponents: :func:`_sentence`)."""

DIFFERENCES: Mapping[str, Any] = {
    "turns_per_round": gettext_lazy("Rounds last %(times)s times as many turns under %(name)s: %(high)s against %(low)s."),
    "draws_per_round": gettext_lazy("Players draw %(times)s times as many tiles under %(name)s: %(high)s against %(low)s."),
    "blocked_round_rate": gettext_lazy("Rounds end blocked %(times)s times as often under %(name)s: %(high)s against %(low)s."),
    "points_per_round": gettext_lazy("Players are left holding %(times)s times as many points under %(name)s: %(high)s against %(low)s."),
    "winning_total": gettext_lazy("The winner’s total is %(times)s times as high under %(name)s: %(high)s against %(low)s."),
    "first_player_out_rate": gettext_lazy("The starting player goes out first %(times)s times as often under %(name)s: %(high)s against %(low)s."),
    "first_player_win_rate": gettext_lazy("The first player wins the game %(times)s times as often under %(name)s: %(high)s against %(low)s."),
    "open_double_rate": gettext_lazy("Turns end with a double open %(times)s times as often under %(name)s: %(high)s against %(low)s."),
    "open_double_turns": gettext_lazy("Doubles stay open %(times)s times as long under %(name)s: %(high)s against %(low)s."),
}
"""How much higher a figure is under one ruleset than under the other, in words (the rest: :data:`HIGHER`)."""
HIGHER = gettext_lazy("%(label)s: higher under %(name)s, %(high)s against %(low)s.")

def _unit(unit: str, count: int) -> str:
    if unit == "game":
        return ngettext("%(count)s game", "%(count)s games", count) % {"count": number_format(count, force_grouping=True)}
    return ngettext("%(count)s round", "%(count)s rounds", count) % {"count": number_format(count, force_grouping=True)}


def value(name: str, x: float) -> str:
    """A figure as read: a share in percent, a mean with one decimal."""
    if name in RATES or _is_win_rate(name):
        return f"{number_format(round(100 * x), 0)}%"
    return str(number_format(round(x, 1), 1, force_grouping=True))  # number_format cuts, never rounds


def _is_win_rate(name: str) -> bool:
    return name not in LABELS or name.endswith("_vs_random") or name.endswith("_2p")


@dataclass(frozen=True)
class Figure:
    name: str
    label: str
    sentence: str
    mean: float
    lo: float | None
    hi: float | None
    shown: str
    interval: str
    """"45.7 to 64.9", or "" when the sample is too small for one."""
    sample: str
    """"14 rounds": what the figure was measured on."""
    fair: str = ""
    """A strategy's fair share at its table (1 / players), as a percentage."""


def _sentence(name: str, shown: str, table_players: int) -> str:
    if name == "planner_vs_random":
        return ngettext("A planner wins %(mean)s of its games against %(count)s random player.",
                        "A planner wins %(mean)s of its games against %(count)s random players.",
                        table_players - 1) % {"mean": shown, "count": table_players - 1}
    if name == "greedy_vs_random":
        return ngettext("A greedy player wins %(mean)s of its games against %(count)s random player.",
                        "A greedy player wins %(mean)s of its games against %(count)s random players.",
                        table_players - 1) % {"mean": shown, "count": table_players - 1}
    return str(SENTENCES[name]) % {"mean": shown}


def interval(name: str, lo: float | None, hi: float | None) -> str:
    if lo is None or hi is None:
        return ""
    return gettext("%(lo)s to %(hi)s") % {"lo": value(name, lo), "hi": value(name, hi)}


def figure(name: str, data: Mapping[str, Any], table_players: int = 0) -> Figure:
    lo, hi = data["ci95"] if data.get("ci95") else (None, None)
    shown = value(name, data["mean"])
    fair = f"{number_format(round(100 / table_players), 0)}%" if table_players else ""
    return Figure(name, str(LABELS[name]), _sentence(name, shown, table_players), data["mean"], lo, hi, shown,
                  interval(name, lo, hi), _unit(data.get("unit", "round"), data.get("n", 0)), fair)


def figures(report: Mapping[str, Any]) -> list[Figure]:
    """The ruleset's figures, in the engine's order (a metric without a sample is left out)."""
    return [figure(name, data) for name, data in report["metrics"].items()
            if name != "strategy_win_rates" and data is not None and name in LABELS]


def strategy_figures(report: Mapping[str, Any]) -> list[Figure]:
    seats = {t["table"]: t["players"] for t in report["strategies"]}
    return [figure(name, data, seats.get(name, 2)) for name, data in report["metrics"]["strategy_win_rates"].items()
            if name in LABELS]


TABLES: Mapping[str, Callable[[int], str]] = {
    "planner_vs_random": lambda others: ngettext("one planner against %(count)s random player",
                                                 "one planner against %(count)s random players", others),
    "greedy_vs_random": lambda others: ngettext("one greedy player against %(count)s random player",
                                                "one greedy player against %(count)s random players", others),
    "planner_vs_random_2p": lambda others: gettext("one planner against one random player, head to head"),
}


@dataclass(frozen=True)
class Sample:
    games: str
    rounds: str
    seed: int
    tables: str
    """Who plays, table by table, in the reader's words."""

    @property
    def sentence(self) -> str:
        return gettext("Sample: %(games)s, %(rounds)s, seed %(seed)s. Tables, in turn: %(tables)s.") % {
            "games": self.games, "rounds": self.rounds, "seed": self.seed, "tables": self.tables}


def sample(report: Mapping[str, Any]) -> Sample:
    tables = [TABLES[t["table"]](t["players"] - 1) % {"count": t["players"] - 1}
              for t in report["strategies"] if t["table"] in TABLES]
    return Sample(_unit("game", report["games"]), _unit("round", report["rounds"]), report["seed"], "; ".join(tables))


# -- two rulesets side by side ----------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    label: str
    left: Figure | None
    right: Figure | None
    differs: str
    """The sentence saying how they differ, or "" when their intervals overlap."""


def difference(a: Figure, a_name: str, b: Figure, b_name: str) -> str:
    """The sentence of a figure whose intervals do not overlap, the higher one first; "" when they
    overlap (or one has no interval)."""
    if a.lo is None or a.hi is None or b.lo is None or b.hi is None or (a.lo <= b.hi and b.lo <= a.hi):
        return ""
    high, high_name, low = (a, a_name, b) if a.mean > b.mean else (b, b_name, a)
    fields = {"name": high_name, "high": high.shown, "low": low.shown, "label": high.label}
    if low.mean <= 0 or high.name not in DIFFERENCES:
        return str(HIGHER) % fields
    times = high.mean / low.mean
    places = 1 if times >= 1.05 else 2
    return str(DIFFERENCES[high.name]) % {**fields, "times": number_format(round(times, places), places)}


def compare(a_name: str, a: Mapping[str, Any], b_name: str, b: Mapping[str, Any]) -> list[Row]:
    rows = []
    for left, right in ((figures(a), figures(b)), (strategy_figures(a), strategy_figures(b))):
        by_name = {f.name: f for f in right}
        for f in left:
            other = by_name.pop(f.name, None)
            rows.append(Row(f.label, f, other, difference(f, a_name, other, b_name) if other else ""))
        rows += [Row(f.label, None, f, "") for f in by_name.values()]
    return rows

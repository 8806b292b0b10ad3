"""Self-play statistics (rules.statistics): every metric on tallies small enough to work out by
hand, the counts of a played round against a recount of its log, chunks merged in any order
equal to one chunk, and 95% intervals that cover the truth about 95% of the time."""

from __future__ import annotations

import json
import math
import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from rules import statistics as st
from rules.errors import ErrorCode, InputError
from rules.moves import Action
from rules.ruleset import Ruleset
from rules.simulate import NAMES
from rules.simulate import play_round as simulate_round
from rules.strategies import Strategy
from rules.transitions import apply, build
from variants.loader import get_ruleset


def approx(x: float) -> object:
    return pytest.approx(x, abs=5e-4)


# -- every metric on a tiny tally -------------------------------------------------------------

TINY = st.Tally(
    games=2, rounds=2,
    turns=st.Moments(2, 10 + 20, 100 + 400),  # rounds of 10 and 20 turns
    draws=st.Moments(3, 3 + 5 + 7, 9 + 25 + 49),  # 3, 5 and 7 tiles drawn
    blocked=st.Count(1, 4),  # one round in four ends blocked
    points=st.Moments(2, 40 + 80, 1600 + 6400),  # every player's points together: 40 and 80
    winning=st.Moments(3, 15, 83),  # winning totals 3, 5, 7
    first_out=st.Count(0, 4),
    first_win=st.Count(4, 4),
    open_turns=st.Ratio(2, 1 + 3, 10 + 10, 1 + 9, 100 + 100, 10 + 30),  # (1 of 10 turns), (3 of 10)
    open_length=st.Ratio(2, 6 + 2, 2 + 2, 36 + 4, 4 + 4, 12 + 4),  # (6 turns' ends, 2 doubles), (2, 2)
    wins=(("planner_vs_random", st.Count(1, 4)),),
)


def test_every_metric_on_a_tiny_tally() -> None:
    r = st.report(get_ruleset("howto"), 4, 9, TINY)
    m = r.metrics
    assert set(m) | {"strategy_win_rates"} == set(st.METRICS)
    # 10 and 20: mean 15, variance ((10-15)^2 + (20-15)^2) / 1 = 50, t(1) = 12.706,
    # half-width 12.706 * sqrt(50 / 2) = 63.531
    assert (m["turns_per_round"].mean, m["turns_per_round"].lo, m["turns_per_round"].hi) == (
        15, approx(-48.531), approx(78.531))
    # 3, 5, 7: mean 5, variance 4, t(2) = 4.303, half-width 4.303 * sqrt(4 / 3) = 4.968
    assert (m["draws_per_round"].lo, m["draws_per_round"].hi) == (approx(0.032), approx(9.968))
    assert m["winning_total"].mean == 5 and m["winning_total"].n == 3
    # 40 and 80 points over 4 players: 10 and 20 a player, as the turns
    assert (m["points_per_round"].mean, m["points_per_round"].lo) == (15, approx(-48.531))
    # Wilson, 1 of 4: centre (0.25 + 1.96^2/8) / (1 + 1.96^2/4) = 0.3725,
    # half 1.96 sqrt(0.25 * 0.75 / 4 + 1.96^2 / 64) / (1 + 1.96^2/4) = 0.3269
    assert (m["blocked_round_rate"].mean, m["blocked_round_rate"].lo, m["blocked_round_rate"].hi) == (
        0.25, approx(0.0456), approx(0.6994))
    assert (m["first_player_out_rate"].mean, m["first_player_out_rate"].lo, m["first_player_out_rate"].hi) == (
        0, 0, approx(0.4899))
    assert (m["first_player_win_rate"].mean, m["first_player_win_rate"].lo, m["first_player_win_rate"].hi) == (
        1, approx(0.5101), 1)
    # 4 of 20 turns; residuals x - 0.2 y: -1 and 1, variance 2, standard error sqrt(2 / 2) / 10,
    # half-width 12.706 * 0.1
    assert (m["open_double_rate"].mean, m["open_double_rate"].lo, m["open_double_rate"].hi) == (
        0.2, approx(-1.0706), approx(1.4706))
    # 8 turns' ends over 4 doubles: 2; residuals 6 - 4 and 2 - 4
    assert m["open_double_turns"].mean == 2
    assert r.strategy_win_rates["planner_vs_random"].mean == 0.25


def test_an_empty_sample_has_no_figure_and_one_unit_no_interval() -> None:
    tally = st.Tally(games=1, rounds=1, turns=st.Moments(1, 12, 144), blocked=st.Count(0, 1))
    r = st.report(get_ruleset("masters"), 2, 0, tally)
    assert r.metrics["open_double_turns"] is None
    turns = r.metrics["turns_per_round"]
    assert turns is not None and turns.mean == 12 and math.isnan(turns.lo)
    out = r.to_json()["metrics"]
    assert out["turns_per_round"] == {"mean": 12.0, "ci95": None, "n": 1, "unit": "round"}
    assert out["open_double_turns"] is None


def test_t_quantiles() -> None:
    assert st.t95(1) == pytest.approx(12.7062, abs=1e-4)
    assert st.t95(31) == pytest.approx(2.0395, abs=1e-4)
    assert st.t95(40) == pytest.approx(2.0211, abs=1e-4)
    assert st.t95(100) == pytest.approx(1.9840, abs=1e-4)
    assert st.t95(10**6) == pytest.approx(1.95997, abs=1e-4)


# -- what a round counts ----------------------------------------------------------------------


@pytest.mark.parametrize("ident", ["howto", "masters", "cardinal", "gamerules"])
def test_a_round_counts_what_its_log_shows(ident: str) -> None:
    """All seats random, a round of the statistics is the self-play round of the same seed: its
    counts against a recount of that round's moves."""
    ruleset = get_ruleset(ident)
    for seed in range(8):
        names = NAMES[:4]
        got = st.play_round(ruleset, names, 1, random.Random(seed), 12, (Strategy.RANDOM,) * 4)
        log = simulate_round(ruleset, names, 1, random.Random(seed), check=True, set_max=12)  # the engine, checked
        assert got.scores == log.scores
        s = build(log.deal, ruleset)
        first = s.to_move
        turns = open_turns = open_sum = 0
        opened = set()
        out = None
        for move in log.moves:
            after = apply(s, move)
            if out is None and move.action is Action.PLAY and not after.hands[s.to_move].tiles:  # type: ignore[union-attr]
                out = s.to_move
            if after.to_move != s.to_move or after.round_over:
                turns += 1
                doubles = [tr.tiles[-1] for tr in after.trains if tr.tiles and tr.tiles[-1].is_double]
                open_turns += bool(doubles)
                open_sum += len(doubles)
                opened.update(doubles)
            s = after
        assert (got.first, got.turns, got.open_turns, got.open_sum, got.open_doubles) == (
            first, turns, open_turns, open_sum, len(opened))
        assert got.draws == sum(m.action is Action.DRAW for m in log.moves)
        assert got.blocked == all(h.tiles for h in s.hands)  # type: ignore[union-attr]
        assert got.first_out == (out == first)


def test_tables_and_seats() -> None:
    tables = st.tables(get_ruleset("howto"), 4)
    assert [t.name for t in tables] == ["planner_vs_random", "greedy_vs_random", "planner_vs_random_2p"]
    assert tables[0].seats(0, 3) == (Strategy.PLANNER, Strategy.RANDOM, Strategy.RANDOM, Strategy.RANDOM)
    assert tables[0].seats(3, 3) == (Strategy.RANDOM, Strategy.PLANNER, Strategy.RANDOM, Strategy.RANDOM)
    assert tables[2].seats(5, 3) == (Strategy.RANDOM, Strategy.PLANNER)
    # cardinal deals to 4 players at least: no head-to-head table
    assert [t.name for t in st.tables(get_ruleset("cardinal"), 5)] == ["planner_vs_random", "greedy_vs_random"]


# -- chunks merged exactly --------------------------------------------------------------------

JOB = 12


@cache
def masters() -> Ruleset:
    return get_ruleset("masters")


@cache
def chunk(start: int, stop: int) -> st.Tally:
    return st.play_chunk(masters(), 3, 5, start, stop)


@settings(max_examples=25, deadline=None)
@given(cuts=hs.sets(hs.integers(1, JOB - 1), max_size=5), order=hs.randoms(use_true_random=False))
def test_chunks_merged_in_any_order_equal_one_chunk(cuts: set[int], order: random.Random) -> None:
    bounds = [0, *sorted(cuts), JOB]
    parts = [chunk(a, b) for a, b in zip(bounds, bounds[1:])]
    order.shuffle(parts)
    merged = st.Tally()
    for part in parts:
        merged = merged.merge(part) if order.random() < 0.5 else part.merge(merged)
    assert merged == chunk(0, JOB)


def test_the_tally_survives_json_and_play_equals_its_chunks() -> None:
    whole = chunk(0, JOB)
    assert whole.games == JOB and whole.rounds == JOB  # masters: a game is one round
    assert st.Tally.from_json(json.loads(json.dumps(whole.to_json()))) == whole
    assert st.play(masters(), 3, 5, JOB, size=5) == whole
    assert st.chunks(12, 5) == ((0, 5), (5, 10), (10, 12))
    seen = []
    st.play_chunk(masters(), 3, 5, 2, 5, progress=seen.append)
    assert seen == [1, 2, 3]


def test_the_report_is_the_same_bytes_for_the_same_seed() -> None:
    one = json.dumps(st.report(masters(), 3, 5, chunk(0, JOB)).to_json(), sort_keys=True)
    again = json.dumps(st.report(masters(), 3, 5, st.play(masters(), 3, 5, JOB, size=7)).to_json(), sort_keys=True)
    assert one == again
    other = json.dumps(st.report(masters(), 3, 6, st.play(masters(), 3, 6, JOB)).to_json(), sort_keys=True)
    assert other != one


# -- the request ------------------------------------------------------------------------------


@pytest.mark.parametrize(("ident", "players", "games", "code", "message"), [
    ("cardinal", 2, 10, ErrorCode.PLAYERS_OUT_OF_RANGE,
     "expected a number of players from 4 to 10 (the deal table of cardinal), found 2"),
    ("howto", 15, 10, ErrorCode.PLAYERS_OUT_OF_RANGE,
     "expected a number of players from 2 to 14 (the deal table of howto), found 15"),
    ("howto", 4, 0, ErrorCode.GAMES_OUT_OF_RANGE, "expected a number of games from 1 to 20000, found 0"),
    ("howto", 4, 10**9, ErrorCode.GAMES_OUT_OF_RANGE,
     "expected a number of games from 1 to 20000, found 1000000000"),
])
def test_a_request_outside_the_range_names_it(ident: str, players: int, games: int, code: ErrorCode,
                                              message: str) -> None:
    with pytest.raises(InputError) as caught:
        st.check_request(get_ruleset(ident), players, games)
    assert caught.value.code is code and str(caught.value) == message
    assert isinstance(caught.value, st.StatsRequestError)


def test_a_row_without_a_hand_size_deals_to_nobody() -> None:
    # gamerules names the sets for 9 to 12 players but not how many tiles each takes
    assert st.allowed_players(get_ruleset("gamerules")) == tuple(range(2, 9))
    with pytest.raises(InputError, match="from 2 to 8"):
        st.check_request(get_ruleset("gamerules"), 12, 1)


# -- intervals cover the truth ----------------------------------------------------------------


def covered(trials: int, make: object) -> float:
    assert callable(make)
    hits = 0
    for seed in range(trials):
        est, truth = make(random.Random(seed))
        hits += est.lo <= truth <= est.hi
    return hits / trials


def test_wilson_covers_a_coin_flips_rate() -> None:
    def trial(rng: random.Random) -> tuple[st.Estimate, float]:
        k = sum(rng.random() < 0.3 for _ in range(60))
        return st.wilson(k, 60), 0.3

    assert 0.91 <= covered(400, trial) <= 0.99


def test_t_covers_a_die_mean() -> None:
    def trial(rng: random.Random) -> tuple[st.Estimate, float]:
        m = st.Moments()
        for _ in range(25):
            m = m.add(rng.randint(1, 6))
        return st.mean(m), 3.5

    assert 0.91 <= covered(400, trial) <= 0.99


def test_the_ratio_covers_a_share_of_turns() -> None:
    def trial(rng: random.Random) -> tuple[st.Estimate, float]:
        r = st.Ratio()
        for _ in range(40):  # rounds of 20 to 80 turns, each ending with a double open with chance 0.15
            n = rng.randint(20, 80)
            r = r.add(sum(rng.random() < 0.15 for _ in range(n)), n)
        return st.ratio(r), 0.15

    assert 0.91 <= covered(400, trial) <= 0.99

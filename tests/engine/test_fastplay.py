"""Unchecked self-play's fast path (rules.fastplay) against the engine: seeded rounds played both
ways, with the engine's frozen states (rules.legality.analyse, rules.transitions.apply) and with
the fast path's lists, make the same moves and end in equal states, under every ruleset and
option at every player count it deals to, under house rulesets with each value the published
ones do not use, and with the strategies choosing from the same view."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from rules import fastplay
from rules.deal import deal
from rules.legality import analyse
from rules.moves import Action, Move
from rules.ruleset import Ruleset
from rules.simulate import MAX_STEPS, NAMES, play_round
from rules.state import State
from rules.strategies import POLICIES, Strategy, choose, view
from rules.transitions import apply, build
from variants import house as hs
from variants.loader import get_ruleset, option_ids
from variants.schema import house_from_data

ROUNDS = 5
"""Rounds per ruleset in the default run (every player count in turn, rounds 1 to 5)."""
SLOW_ROUNDS = 150


def engine_round(ruleset: Ruleset, names: tuple[str, ...], round_no: int, rng: random.Random,
                 seats: Sequence[Strategy] | None = None) -> tuple[list[Move], State]:
    """A round on the engine's frozen states, each seat choosing by its strategy (random by default)."""
    state = build(deal(ruleset, names, round_no, rng).position, ruleset)
    moves = []
    for _ in range(MAX_STEPS):
        if state.round_over:
            return moves, state
        options = analyse(state).legal_moves()
        strategy = seats[state.to_move] if seats else Strategy.RANDOM
        move = choose(strategy, state, options, rng)
        if move.action is Action.DRAW:
            assert state.boneyard_tiles is not None
            move = Move(move.player, Action.DRAW, state.boneyard_tiles[0])
        state = apply(state, move)
        moves.append(move)
    raise AssertionError("the round did not end")


def fast_round(ruleset: Ruleset, names: tuple[str, ...], round_no: int, rng: random.Random,
               seats: Sequence[Strategy]) -> tuple[list[Move], State]:
    """The same on the fast path's table, checking at every move that the table's view of the
    player to move is the engine's view of the same state."""
    table = fastplay.Table(build(deal(ruleset, names, round_no, rng).position, ruleset))
    moves = []
    while not table.round_over:
        options = table.legal_moves()
        seen = table.view()
        assert seen == view(table.state())
        strategy = seats[table.to_move]
        move = rng.choice(options) if strategy is Strategy.RANDOM else POLICIES[strategy](seen, options)
        if move.action is Action.DRAW:
            move = Move(move.player, Action.DRAW, table.bone[table.drawn_count])
        table.apply(move)
        moves.append(move)
    return moves, table.state()


def counts(ruleset: Ruleset) -> list[int]:
    lo, hi = ruleset.flags.players_count.min, ruleset.flags.players_count.max
    allowed = {n for row in ruleset.flags.setup_deal if row.tiles is not None
               for n in range(row.min_players, row.max_players + 1)}
    return [n for n in range(2, 9) if lo <= n <= hi and n in allowed]


def both_ways(ruleset: Ruleset, rounds: int) -> None:
    players = counts(ruleset)
    for seed in range(rounds):
        names = NAMES[:players[seed % len(players)]]
        round_no = 1 + seed % 5
        moves, final = engine_round(ruleset, names, round_no, random.Random(seed))
        log = play_round(ruleset, names, round_no, random.Random(seed), check=False)
        assert list(log.moves) == moves, f"{ruleset.id}, seed {seed}"
        assert log.final == final, f"{ruleset.id}, seed {seed}"


@pytest.mark.parametrize("ident", option_ids())
def test_the_fast_path_plays_the_engines_games(ident: str) -> None:
    both_ways(get_ruleset(ident), ROUNDS)


HOUSE_VALUES = [
    {"turn.cannot_play": "marker-no-draw"},
    {"turn.cannot_play": "draw-until-playable"},
    {"round_end.last_tile_double": False},
    {"doubles.per_turn": "one"},
    {"turn.other_trains_before_own": False},
    {"markers.removed": "owner-plays-any-tile"},
    {"markers.placed": "when-own-train-unplayable"},
    {"turn.drawn_tile_only": False, "turn.must_play": False},
    {"turn.own_train_first": True, "doubles.dead": True},
    {"first_turn.going_out": "finish-round-of-turns", "first_turn.tiles": "chain"},
    {"turn.marked_trains_open": False},
]


def house(base: str, values: dict[str, object]) -> Ruleset:
    return hs.build(hs.check(house_from_data(base, "fast path table", values)))


@pytest.mark.parametrize("values", HOUSE_VALUES, ids=lambda v: "+".join(f"{k}={v}" for k, v in v.items()))
def test_the_fast_path_plays_the_engines_games_under_house_rules(values: dict[str, object]) -> None:
    both_ways(house("masters+mandatory-doubles", values), ROUNDS)


@pytest.mark.parametrize("ident", ["howto", "masters+mandatory-doubles", "cardinal"])
def test_the_strategies_see_the_same_view_and_make_the_same_moves(ident: str) -> None:
    ruleset = get_ruleset(ident)
    tables = [(Strategy.PLANNER, Strategy.RANDOM, Strategy.GREEDY, Strategy.RANDOM),
              (Strategy.GREEDY, Strategy.PLANNER, Strategy.PLANNER, Strategy.GREEDY)]
    for seed in range(2):
        seats = tables[seed % 2]
        engine = engine_round(ruleset, NAMES[:4], 1 + seed, random.Random(seed), seats)
        assert fast_round(ruleset, NAMES[:4], 1 + seed, random.Random(seed), seats) == engine


@pytest.mark.slow
@pytest.mark.parametrize("ident", option_ids())
def test_many_rounds_both_ways(ident: str) -> None:
    both_ways(get_ruleset(ident), SLOW_ROUNDS)


@pytest.mark.slow
@pytest.mark.parametrize("values", HOUSE_VALUES, ids=lambda v: "+".join(f"{k}={v}" for k, v in v.items()))
@pytest.mark.parametrize("base", ["masters+mandatory-doubles", "howto"])
def test_many_rounds_both_ways_under_house_rules(base: str, values: dict[str, object]) -> None:
    both_ways(house(base, values), SLOW_ROUNDS)

"""Self-play soak of house rulesets: 50 drawn at random (a seeded draw) from every value the
engine supports for every rule it judges, each played with random legal moves and every
invariant of rules.simulate checked (tiles conserved, every move offered is judged legal, the
log parses back and replays to the same final state).

Then each turn value no published ruleset has, 200 rounds apiece, with every invariant of
rules.simulate and one of the value's own, checked on every move of every round (see TURN_VALUES)."""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from rules.deal import deal
from rules.legality import legal_plays
from rules.moves import Action
from rules.ruleset import RULE_SPECS, Ruleset, ValueKind
from rules.simulate import NAMES, RoundLog, play_round
from rules.state import State, apply
from rules.state import build as build_state
from variants import house as hs
from variants.loader import option_ids
from variants.schema import RulesetFileError, house_from_data

HOUSES = 50
ROUNDS = int(os.environ.get("MEXTRAIN_SOAK_ROUNDS", "30"))
"""Rounds per house ruleset: 30 in `make test` (the suite's 10-minute budget), 200 with
MEXTRAIN_SOAK_ROUNDS=200 (about 5 minutes on today's engine: passed, 10,000 rounds)."""
DOUBLE_BLANK = (0, 25, 50)
KINDS = (ValueKind.BOOL, ValueKind.ENUM, ValueKind.ENUM_LIST, ValueKind.INT)
TURN_VALUE_KEYS: tuple[tuple[str, Any], ...] = (
    ("turn.cannot_play", "draw-until-playable"),
    ("turn.cannot_play", "marker-no-draw"),
    ("round_end.last_tile_double", False),
    ("doubles.per_turn", "one"),
    ("markers.removed", "owner-plays-any-tile"),
    ("turn.other_trains_before_own", False),
)
"""The turn values no published ruleset has: the first houses drawn carry one each, so that the
draw always includes them (TURN_VALUES below soaks each on its own)."""


def draw(rng: random.Random) -> tuple[str, dict[str, Any]]:
    """A base and a few overrides, each a value the schema accepts."""
    base = rng.choice(option_ids())
    rules: dict[str, Any] = {}
    for spec in rng.sample([s for s in RULE_SPECS if s.kind in KINDS], rng.randint(1, 8)):
        if spec.kind is ValueKind.BOOL:
            rules[spec.key] = rng.random() < 0.5
        elif spec.kind is ValueKind.INT:
            rules[spec.key] = rng.choice(DOUBLE_BLANK)
        elif spec.kind is ValueKind.ENUM:
            assert spec.enum is not None
            rules[spec.key] = rng.choice([m.value for m in spec.enum])
        else:
            assert spec.enum is not None
            rules[spec.key] = rng.sample([m.value for m in spec.enum], rng.randint(0, len(spec.enum)))
    return base, rules


def houses() -> list[tuple[str, dict[str, Any]]]:
    """The seeded draw; a combination the schema refuses (checked like any house ruleset) is
    drawn again."""
    rng = random.Random(11)
    out: list[tuple[str, dict[str, Any]]] = []
    while len(out) < HOUSES:
        base, rules = draw(rng)
        if len(out) < len(TURN_VALUE_KEYS):
            key, value = TURN_VALUE_KEYS[len(out)]
            rules[key] = value
        try:
            hs.check(house_from_data(base, "soak", rules))
        except RulesetFileError:
            continue
        out.append((base, rules))
    return out


def build(base: str, rules: dict[str, Any]) -> Ruleset:
    return hs.build(hs.check(house_from_data(base, "soak", rules)))


@pytest.mark.parametrize(("n", "base", "rules"), [(n, b, r) for n, (b, r) in enumerate(houses())],
                         ids=[f"house{n}" for n in range(HOUSES)])
def test_rounds_of_a_random_house_ruleset(n: int, base: str, rules: dict[str, Any]) -> None:
    ruleset = build(base, rules)
    lo, hi = ruleset.flags.players_count.min, ruleset.flags.players_count.max
    playable = []
    for count in (2, 3, 4, 5, 6):
        if lo <= count <= hi:
            try:
                deal(ruleset, NAMES[:count], 1, random.Random(0))
                playable.append(count)
            except ValueError:
                pass
    assert playable, (base, rules)
    for seed in range(ROUNDS):
        players = playable[seed % len(playable)]
        log = play_round(ruleset, NAMES[:players], 1 + seed % 3, random.Random(1000 * n + seed), seed=seed)
        assert log.final.round_over, (base, rules, seed)


# -- the turn values no published ruleset has ---------------------------------------------------

TURN_ROUNDS = 200
"""Rounds for each turn value: every invariant of rules.simulate on every state, and the value's
own (TURN_VALUES) on every move. Played on the double-6 set (a house hand-size table) so that the
six values' 1,200 rounds take 8 to 17 seconds of `make test` (a quiet or a loaded machine)."""
TURN_BASES = ("masters+mandatory-doubles", "howto", "gamerules")
"""Bases with other first turns and double rules: the rounds go round them."""
SMALL_SET = {"setup.deal": [{"players": [2, 4], "set": 6, "tiles": 7}], "players.count": {"min": 2, "max": 4}}

Step = tuple[State, Any, State]
"""A state, the move played in it, and the state after."""


def steps(log: RoundLog, ruleset: Ruleset) -> list[Step]:
    """Every move of a round with the states before and after it (replayed, unjudged: the round
    was judged move by move as it was played)."""
    state = build_state(log.position, ruleset)
    out = []
    for line in log.position.moves:
        after = apply(state, line.move)
        out.append((state, line.move, after))
        state = after
    return out


def draws_until_playable(rounds: list[list[Step]]) -> str | None:
    """A pass with tiles left to draw only from a player who can play (after drawing), the first
    turn aside; and some player drew twice in one turn."""
    twice = False
    for round_steps in rounds:
        for before, move, after in round_steps:
            if (move.action is Action.PASS and before.boneyard != 0 and not legal_plays(before)
                    and not before.first_turn_now):  # first_turn.cannot_start may say: no draw
                return f"{move} with {before.boneyard} tiles to draw and nothing to play"
            twice = twice or (move.action is Action.DRAW and before.progress.drew)
    return None if twice else "no player ever drew twice in a turn"


def never_draws(rounds: list[list[Step]]) -> str | None:
    """Nobody draws; and some round nobody could finish ends blocked with tiles in the boneyard."""
    blocked = False
    for round_steps in rounds:
        for _, move, _ in round_steps:
            if move.action is Action.DRAW:
                return f"{move}: a draw under marker-no-draw"
        final = round_steps[-1][2]
        blocked = blocked or (final.round_over and final.boneyard != 0
                              and not any(h is not None and h.empty for h in final.hands))
    return None if blocked else "no round ended blocked with tiles in the boneyard"


def no_double_out(rounds: list[list[Step]]) -> str | None:
    """Nobody goes out on a double; and some player, holding only a double, could not lay it."""
    barred = False
    for round_steps in rounds:
        for before, move, after in round_steps:
            hand = before.hands[before.to_move]
            last = hand is not None and len(hand.tiles) == 1 and hand.tiles[0].is_double
            if move.action is Action.PLAY and after.hands[before.to_move].empty and move.tile.is_double:
                return f"{move} goes out on a double"
            barred = barred or (last and move.action is not Action.PLAY)
    return None if barred else "no player was ever left holding a double alone"


def one_double_a_turn(rounds: list[list[Step]]) -> str | None:
    """No turn lays two doubles (the special first turn's chain aside); and some turn lays a double
    and then another tile."""
    followed = False
    for round_steps in rounds:
        doubles_laid = 0
        for before, move, _ in round_steps:
            if not before.progress.played and not before.progress.drew:
                doubles_laid = 0  # a new turn
            if move.action is Action.PLAY and not before.progress.special:
                followed = followed or doubles_laid > 0
                if move.tile.is_double:
                    if doubles_laid:
                        return f"{move}: a second double in one turn"
                    doubles_laid += 1
    return None if followed else "no turn laid a tile after a double"


def marker_lifted_on_any_tile(rounds: list[list[Step]]) -> str | None:
    """After a player lays a tile, their own train carries no marker; and some marker was lifted by
    a tile laid on another train."""
    elsewhere = False
    for round_steps in rounds:
        for before, move, after in round_steps:
            if move.action is not Action.PLAY:
                continue
            seat = before.to_move
            if after.trains[seat].marker:
                return f"{move}: {before.player}'s marker stays down"
            elsewhere = elsewhere or (before.trains[seat].marker and move.train != before.player)
    return None if elsewhere else "no marker was ever lifted by a tile laid elsewhere"


def own_train_before_others(rounds: list[list[Step]]) -> str | None:
    """A player lays on another train only once the own train is started (or to satisfy an open
    double, which any player may do anywhere); and some player passed up an open train for it."""
    waited = False
    for round_steps in rounds:
        for before, move, _ in round_steps:
            own = before.trains[before.to_move]
            if (move.action is Action.PLAY and move.train != before.player and not own.started
                    and not before.open_doubles):
                return f"{move} before {before.player}'s own train is started"
            waited = waited or (not own.started and move.action is not Action.PLAY and before.trains[-1].started)
    return None if waited else "no player ever waited to start the own train"


TURN_VALUES = {
    ("turn.cannot_play", "draw-until-playable"): draws_until_playable,
    ("turn.cannot_play", "marker-no-draw"): never_draws,
    ("round_end.last_tile_double", False): no_double_out,
    ("doubles.per_turn", "one"): one_double_a_turn,
    ("markers.removed", "owner-plays-any-tile"): marker_lifted_on_any_tile,
    ("turn.other_trains_before_own", False): own_train_before_others,
}
"""Each turn value a house ruleset may set and no published one has, with the invariant of its own
that the soak checks on every move (and that the rounds played put it to the test)."""


def test_the_draw_of_house_rulesets_includes_every_turn_value() -> None:
    assert tuple(TURN_VALUES) == TURN_VALUE_KEYS
    drawn = {(key, value) for _, rules in houses() for key, value in rules.items() if not isinstance(value, list)}
    assert set(TURN_VALUES) <= drawn, sorted(map(str, set(TURN_VALUES) - drawn))


@pytest.mark.parametrize(("key", "value"), list(TURN_VALUES), ids=[f"{k}={v}" for k, v in TURN_VALUES])
def test_rounds_under_each_turn_value(key: str, value: Any) -> None:
    rulesets = [build(base, {**SMALL_SET, key: value}) for base in TURN_BASES]
    rounds = []
    for seed in range(TURN_ROUNDS):
        ruleset = rulesets[seed % len(rulesets)]
        players = NAMES[:2 + seed % 3]
        log = play_round(ruleset, players, 1, random.Random(seed), seed=seed)
        assert log.final.round_over, (ruleset.id, seed)
        rounds.append(steps(log, ruleset))
    problem = TURN_VALUES[key, value](rounds)
    assert problem is None, f"{key}={value}: {problem}"

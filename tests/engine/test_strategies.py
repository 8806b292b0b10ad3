"""The self-play strategies (rules.strategies): each one's choice on positions made by hand, the
longest chain the planner keeps, and that hidden information (the other hands, the boneyard's
order) never changes a move."""

from __future__ import annotations

import random

import pytest

from rules.legality import legal_moves
from rules.moves import Action
from rules.position import Position
from rules.simulate import NAMES
from rules.state import Hand, State, evolve
from rules.strategies import PlayerView, Strategy, choose, longest_chain, view
from rules.tiles import Tile
from rules.transitions import apply, build
from variants.loader import get_ruleset

TABLE = """players: Ann Bob Cy
engine: 12-12
Ann: 12-5
Bob: 12-3 *
Cy: 12-10
mexican: 12-8
boneyard: 20
turn: Ann
"""
"""Ann's train ends in 5, Bob's (marked, open to her) in 3, Cy's (closed) in 10, the Mexican train in 8."""


def state(hand: str, ruleset: str = "masters") -> State:
    return build(Position.parse(TABLE + f"hand: {hand}\n"), get_ruleset(ruleset))


def chosen(strategy: Strategy, hand: str, ruleset: str = "masters") -> str:
    s = state(hand, ruleset)
    return str(choose(strategy, s, legal_moves(s), random.Random(0)))


def t(text: str) -> Tile:
    return Tile.parse(text)


def test_greedy_lays_its_heaviest_tile_on_its_own_train_first() -> None:
    # 5-1 is the only tile for her own train: laid there, though 8-6 and 9-3 weigh more
    assert chosen(Strategy.GREEDY, "5-1 1-2 2-3 8-6 3-9") == "Ann: 5-1 -> Ann"


def test_greedy_lays_its_heaviest_tile_elsewhere_when_its_own_train_takes_none() -> None:
    # 8-6 (14 pips) on the Mexican train; without it, 9-3 (12 pips) on Bob's marked train
    assert chosen(Strategy.GREEDY, "8-6 3-9 3-2") == "Ann: 8-6 -> mexican"
    assert chosen(Strategy.GREEDY, "8-1 3-9 3-2") == "Ann: 9-3 -> Bob"


def test_planner_keeps_its_chain_and_lays_a_spare_tile_elsewhere() -> None:
    # her chain from 5 is 5-1 1-2 2-3 (3-9 ends it too: 5-1 1-2 2-3 3-9); 8-6 is outside it
    s = state("5-1 1-2 2-3 8-6 3-9")
    assert longest_chain(s.hands[0].tiles, 5) == (t("5-1"), t("2-1"), t("3-2"), t("9-3"))  # type: ignore[union-attr]
    assert chosen(Strategy.PLANNER, "5-1 1-2 2-3 8-6 3-9") == "Ann: 8-6 -> mexican"
    # with every tile in the plan, it extends its own train along it
    assert chosen(Strategy.PLANNER, "5-1 1-2 2-3 3-9") == "Ann: 5-1 -> Ann"


def test_planner_lays_a_double_it_can_follow() -> None:
    # 8-8 on the Mexican train, which 8-4 can follow; greedy lays 5-1 on its own train
    assert chosen(Strategy.PLANNER, "5-1 1-2 8-8 8-4 3-0 9-9") == "Ann: 8-8 -> mexican"
    assert chosen(Strategy.GREEDY, "5-1 1-2 8-8 8-4 3-0 9-9") == "Ann: 5-1 -> Ann"
    # without a tile to follow it, the double waits: the heaviest spare tile goes instead
    assert chosen(Strategy.PLANNER, "5-1 1-2 8-8 3-0 9-9") == "Ann: 3-0 -> Bob"


def test_where_only_the_own_train_is_open_every_strategy_plays_there() -> None:
    # cardinal: own train first, and she can add to it
    for strategy in Strategy:
        assert chosen(strategy, "5-1 1-2 2-3 8-6 3-9", "cardinal") == "Ann: 5-1 -> Ann"


def test_without_a_play_they_draw() -> None:
    for strategy in Strategy:
        assert chosen(strategy, "7-1 11-0") == "Ann: draw"


@pytest.mark.parametrize("ruleset", ["masters", "cardinal"])
def test_a_lone_option_is_every_strategys_choice(ruleset: str) -> None:
    # the statistics' rounds take it without building the player's view (rules.statistics.play_round)
    for hand in ("5-1 1-2 2-3 8-6 3-9", "5-1 1-2 8-8 8-4 3-0 9-9", "7-1 11-0", "8-8"):
        s = state(hand, ruleset)
        for option in legal_moves(s):
            for strategy in Strategy:
                assert choose(strategy, s, (option,), random.Random(0)) == option


def test_random_is_the_seeded_choice_among_the_legal_moves() -> None:
    s = state("5-1 1-2 2-3 8-6 3-9")
    options = legal_moves(s)
    for seed in range(20):
        assert choose(Strategy.RANDOM, s, options, random.Random(seed)) == random.Random(seed).choice(options)


@pytest.mark.parametrize(("hand", "end", "chain"), [
    ("5-1 1-2 2-3 1-4 9-9", 5, "5-1 2-1 3-2"),  # the longer branch
    ("2-1 5-2 2-2 5-5", 5, "5-5 5-2 2-2 2-1"),  # each double where its number is open
    ("6-1 7-3", 5, ""),
    ("5-4 5-3 4-0 3-0", 5, "5-4 4-0 3-0 5-3"),  # round the cycle back to 5
    ("5-4 4-1 5-3 3-2", 5, "5-4 4-1"),  # two chains of two: the heavier
])
def test_longest_chain(hand: str, end: int, chain: str) -> None:
    tiles = tuple(t(x) for x in hand.split())
    assert " ".join(map(str, longest_chain(tiles, end))) == chain


def reached_states(ident: str, players: int, rounds: int) -> list[State]:
    """Every state where a player must choose between moves, in a few random rounds."""
    from rules.deal import deal

    ruleset = get_ruleset(ident)
    out = []
    for seed in range(rounds):
        rng = random.Random(seed)
        s = build(deal(ruleset, NAMES[:players], 1 + seed % 3, rng).position, ruleset)
        while not s.round_over:
            options = legal_moves(s)
            if len(options) > 1:
                out.append(s)
            move = rng.choice(options)
            if move.action is Action.DRAW:
                assert s.boneyard_tiles is not None
                move = move._replace(tile=s.boneyard_tiles[0])
            s = apply(s, move)
    return out


def hidden_shuffled(s: State, rng: random.Random) -> State:
    """``s`` with the other players' hands and the boneyard dealt again from the same tiles, each
    hand keeping its size."""
    seat = s.to_move
    assert s.boneyard_tiles is not None
    pool = [tile for i, h in enumerate(s.hands) if i != seat and h is not None for tile in h.tiles]
    pool += s.boneyard_tiles
    rng.shuffle(pool)
    hands: list[Hand | None] = []
    for i, h in enumerate(s.hands):
        if i == seat or h is None:
            hands.append(h)
        else:
            hands.append(Hand(tuple(pool[:len(h.tiles)])))
            del pool[:len(h.tiles)]
    return evolve(s, hands=tuple(hands), boneyard_tiles=tuple(pool))


@pytest.mark.parametrize("ident", ["howto", "masters", "cardinal", "gamerules"])
def test_hidden_information_does_not_change_the_move(ident: str) -> None:
    rng = random.Random(26)
    states = reached_states(ident, 4, 3)
    assert len(states) > 50
    changed = 0
    for s in states:
        other = hidden_shuffled(s, rng)
        changed += other.hands != s.hands or other.boneyard_tiles != s.boneyard_tiles
        assert view(other) == view(s)
        for strategy in Strategy:
            mine = choose(strategy, s, legal_moves(s), random.Random(7))
            assert choose(strategy, other, legal_moves(other), random.Random(7)) == mine, (strategy, str(s.trains))
    assert changed > len(states) // 2  # the test changed what the player cannot see


def test_the_view_holds_counts_of_what_is_hidden() -> None:
    s = reached_states("howto", 4, 1)[10]
    me = view(s)
    assert isinstance(me, PlayerView)
    assert me.hand == s.hands[s.to_move].tiles  # type: ignore[union-attr]
    assert me.hand_counts == tuple(len(h.tiles) for h in s.hands if h is not None)
    assert me.boneyard == s.boneyard
    assert not any(isinstance(v, tuple) and v and v == s.boneyard_tiles for v in me._asdict().values())

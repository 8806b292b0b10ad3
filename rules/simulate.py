"""Self-play: deal and play whole rounds with a seeded random legal policy, checking the
engine's invariants after every move.

The command line is ``python manage.py simulate`` (mextrain_site/core/management/commands/simulate.py):
it reads the ruleset (a published variant or a house ruleset file) and writes the log; this
module plays, and reads or writes nothing.

Checked on every state reached: the fast path's two judges (rules.legality: the generator
legal_moves() and is_legal()) agree on every candidate a rule decides (:func:`verdict_problem`).
Checked on every move: explain(), the reasons' own path, judges the move applied legal; after
it, tiles are conserved and none appears twice. Checked after every round: the log (deal plus
moves, in the position format) re-parses and replays to the same final state. A violation raises
:class:`InvariantError` naming the variant, seed and round; the command exits 1. Explaining every
candidate (:func:`agreement_problem`) costs about ten times as much: the properties
(tests/engine/test_properties.py) check it on random states, and ``thorough=True`` (the soak,
``make soak``) checks it on every state reached as well.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, replace
from functools import cache

from . import fastplay
from .deal import DealError, deal, deal_row, round_problem, rounds_in_game
from .explain import explain as explain_move
from .legality import actions, analyse, candidates, is_legal, legal_moves, plays_by_tile
from .moves import Action, Move
from .position import MoveLine, Position
from .replay import replay
from .ruleset import Ruleset
from .scoring import GameResult, game_result, round_scores
from .state import State
from .tiles import Tile, full_set
from .transitions import apply, build

# Enum members read once: in Python 3.11 EnumType.__getattr__ makes each read through the class
# (Action.PLAY) a slow attribute lookup, about 0.1 us, and these are read on every move.
_DRAW = Action.DRAW

MAX_STEPS = 5_000
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lu", "Max", "Ned")


class InvariantError(AssertionError):
    """The engine broke one of its invariants during self-play."""


@dataclass(frozen=True)
class RoundLog:
    deal: Position
    """The deal, before any move."""
    moves: tuple[Move, ...]
    """Every move of the round, in order."""
    final: State
    scores: dict[str, int]

    @property
    def position(self) -> Position:
        """The deal with every move of the round: a complete, replayable position (made when asked)."""
        return replace(self.deal, moves=tuple([MoveLine(m) for m in self.moves]))

    def text(self) -> str:
        return self.position.format()


def conservation_problem(state: State) -> str | None:
    """Why the tiles of a fully known state are not exactly one set, or None."""
    tiles = [Tile.of(state.engine, state.engine)]
    for train in state.trains:
        tiles += train.tiles
    for hand in state.hands:
        if hand is None or hand.unknown:
            return None
        tiles += hand.tiles
    bone = state.boneyard_tiles
    if bone is None:
        return None
    tiles += bone
    full = _full_set(state.set_max)
    if len(tiles) == len(full) and full.issuperset(tiles) and len(bone) == state.boneyard:
        return None  # as many tiles as the set, each of the set: each once (the commonest case, in C)
    seen = Counter(tiles)
    twice = sorted(str(t) for t, c in seen.items() if c > 1)
    if twice:
        return f"tiles twice: {' '.join(twice)}"
    if set(seen) != full:
        missing = sorted(str(t) for t in full - set(seen))
        extra = sorted(str(t) for t in set(seen) - full)
        return f"tiles not conserved: missing {missing}, extra {extra}"
    if len(bone) != state.boneyard:
        return f"boneyard count {state.boneyard} but {len(bone)} tiles listed"
    return None


@cache
def _full_set(set_max: int) -> frozenset[Tile]:
    return frozenset(full_set(set_max))


def agreement_problem(state: State) -> str | None:
    """Where the fast path and explain() disagree on a candidate action of ``state``, or None."""
    offered = set(legal_moves(state))
    explained = set()
    for move in candidates(state):
        legal = not any(r.code.blocks for r in explain_move(state, move))
        if is_legal(state, move) != legal:
            return f"{move}: the fast path says {'il' if legal else ''}legal, explain() says {'' if legal else 'il'}legal"
        if legal:
            explained.add(move)
    if offered != explained:
        return (f"legal moves {sorted(map(str, offered))} but explain() finds legal "
                f"{sorted(map(str, explained))}")
    return None


def verdict_problem(state: State) -> str | None:
    """Where the fast path's two judges of ``state`` disagree, or None: what self-play checks on
    every state, with explain() on the move applied (play_round), at a fraction of the cost of
    :func:`agreement_problem`, which explains every candidate (the properties,
    tests/engine/test_properties.py, check it on random states).

    The fast path judges twice, independently: legal_moves() generates the legal moves (tiles and
    trains taken together, the loops turned inside out), is_legal() judges one move. They must
    agree on every candidate a rule decides: each play of a tile that matches the train's open
    end, and draw, pass and done. A tile that matches no train's end is illegal everywhere, and
    legal_moves() must offer each move once and nothing else."""
    a = analyse(state)
    offered = a.legal_moves()
    offers = set(offered)
    judge, judge_play = a.is_legal, a.play_ok
    judged = 0
    ends = a.ends
    trains_by_end: dict[int, list[int]] = {}
    for index, end in enumerate(ends):
        trains_by_end.setdefault(end, []).append(index)
    by_tile = plays_by_tile(a.player, state.players)
    for tile in dict.fromkeys(a.hand_tiles or ()):
        high, low = tile
        indices = trains_by_end.get(high, []) + (trains_by_end.get(low, []) if low != high else [])
        if not indices:
            continue  # matches no train's end: illegal everywhere
        moves = by_tile.get(tile) or by_tile.make(tile)
        for index in indices:
            legal = judge_play(tile, index)  # is_legal() of a play, the train found by its index
            if legal != (moves[index] in offers):
                return _disagreement(moves[index], legal)
            judged += legal
    for move in actions(a.player):
        legal = judge(move)
        if legal != (move in offers):
            return _disagreement(move, legal)
        judged += legal
    if judged != len(offers) or len(offers) != len(offered):
        return f"legal_moves() offers {sorted(map(str, offered))}, not once each the candidates is_legal() finds legal"
    return None


def _disagreement(move: Move, legal: bool) -> str:
    return (f"{move}: is_legal() says {'' if legal else 'il'}legal, legal_moves() "
            f"{'leaves it out' if legal else 'offers it'}")


def play_round(ruleset: Ruleset, players: tuple[str, ...], round_no: int, rng: random.Random,
               *, check: bool = True, seed: int | None = None, set_max: int | None = None,
               thorough: bool = False) -> RoundLog:
    """Deal and play one round with random legal moves (``set_max`` picks a row of the table);
    ``thorough`` adds :func:`agreement_problem` (every candidate explained) on every state."""
    dealt = deal(ruleset, players, round_no, rng, set_max)
    state = build(dealt.position, ruleset)
    where = f"{ruleset.id}, seed {seed}, round {round_no}"
    if not check and not thorough:
        return _play_fast(dealt.position, state, rng, where)
    moves: list[Move] = []
    choice, record = rng.choice, moves.append
    for _ in range(MAX_STEPS):
        if state.round_over:
            break
        options = analyse(state).legal_moves()
        if not options:
            raise InvariantError(f"{where}: no legal move for {state.player} and the round is not over")
        if check:
            problem = verdict_problem(state) or (agreement_problem(state) if thorough else None)
            if problem:
                raise InvariantError(f"{where}: {problem}")
        move = choice(options)
        if move.action is _DRAW:
            assert state.boneyard_tiles is not None
            move = Move(move.player, _DRAW, state.boneyard_tiles[0])
        if check:
            blocking = [str(r) for r in explain_move(state, move) if r.blocks]
            if blocking:
                raise InvariantError(f"{where}: {move} was offered as legal but judged illegal: {blocking}")
        state = apply(state, move)
        record(move)
        if check:
            problem = conservation_problem(state)
            if problem:
                raise InvariantError(f"{where}: after {move}: {problem}")
    else:
        raise InvariantError(f"{where}: the round did not end within {MAX_STEPS} moves")
    scores = finished_scores(state, where)
    log = RoundLog(dealt.position, tuple(moves), state, scores)
    if check:
        _check_replay(log.position, ruleset, state, where)
    return log


def _play_fast(dealt: Position, state: State, rng: random.Random, where: str) -> RoundLog:
    """Unchecked self-play on mutable values (rules.fastplay): the same moves as the loop above
    makes with ``check=False`` (tests/engine/test_fastplay.py plays both ways), about twice as fast."""
    table = fastplay.Table(state)
    choice, legal, apply_move = rng.choice, table.legal_moves, table.apply
    moves: list[Move] = []
    record = moves.append
    for _ in range(MAX_STEPS):
        if table.round_over:
            break
        options = legal()
        if not options:
            raise InvariantError(f"{where}: no legal move for {table.players[table.to_move]} and the round is not over")
        move = choice(options)
        if move[1] is _DRAW:
            move = Move(move[0], _DRAW, table.bone[table.drawn_count])
        apply_move(move)
        record(move)
    else:
        raise InvariantError(f"{where}: the round did not end within {MAX_STEPS} moves")
    final = table.state()
    return RoundLog(dealt, tuple(moves), final, finished_scores(final, where))


def finished_scores(state: State, where: str) -> dict[str, int]:
    """The points of a round self-play has played out: a played-out round always has them."""
    scores = round_scores(state)
    if scores is None:
        raise InvariantError(f"{where}: the round ended but has no scores")
    return scores


def _check_replay(log: Position, ruleset: Ruleset, final: State, where: str) -> None:
    text = log.format()
    parsed = Position.parse(text)
    if parsed != log:
        raise InvariantError(f"{where}: the log does not parse back to itself")
    result = replay(build(parsed, ruleset), parsed.moves)
    if not result.ok:
        assert result.failed is not None
        raise InvariantError(f"{where}: the log's move {result.failed.move} (line {result.failed.line}) "
                             f"is judged illegal on replay: {[str(r) for r in result.reasons if r.blocks]}")
    if result.state != final:
        raise InvariantError(f"{where}: replaying the log does not reach the same final state")


@dataclass(frozen=True)
class Game:
    rounds: tuple[RoundLog, ...]
    result: GameResult


def play_game(ruleset: Ruleset, players: int, rounds: int | None, seed: int, *, check: bool = True,
              set_max: int | None = None) -> Game:
    """A whole game (or ``rounds`` of it) with a seeded random legal policy; ``set_max`` picks a
    row of the ruleset's table (default: its first row for this many players)."""
    rng = random.Random(seed)
    names = NAMES[:players] if players <= len(NAMES) else tuple(f"P{i + 1}" for i in range(players))
    top = deal_row(ruleset, players, set_max).set_max
    count = rounds if rounds is not None else rounds_in_game(ruleset, top)
    logs = []
    for r in range(1, count + 1):
        logs.append(play_round(ruleset, names, r, rng, check=check, seed=seed, set_max=top))
    return Game(tuple(logs), game_result(ruleset, [log.scores for log in logs]))


def plan_problem(ruleset: Ruleset, players: int, rounds: int | None, set_max: int | None, games: int) -> str | None:
    """Why a self-play run cannot be played as asked (one line), or None."""
    if players < 2:
        return f"--players {players}: a game needs at least 2 players"
    if games < 1:
        return f"--games {games}: play at least one game"
    if rounds is not None and rounds < 1:
        return f"--rounds {rounds}: play at least one round"
    sets = sorted({row.set_max for row in ruleset.flags.setup_deal
                   if row.min_players <= players <= row.max_players and row.tiles is not None})
    if not sets:
        return f"{ruleset.id} has no hand size for {players} players"
    named = " or ".join(f"double-{s}" for s in sets)
    if set_max is not None and set_max not in sets:
        return f"{ruleset.id} deals to {players} players with the {named} set, not double-{set_max}"
    try:
        top = deal_row(ruleset, players, set_max).set_max
    except DealError as exc:
        return str(exc)
    problem = round_problem(ruleset, top, rounds) if rounds is not None else None
    if problem is not None and not isinstance(ruleset.flags.rounds_count, int):
        bigger = [s for s in sets if s + 1 >= rounds] if rounds is not None else []
        if bigger and set_max is None:
            problem += f": use --set double-{bigger[0]}"
    return problem

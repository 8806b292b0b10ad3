"""Self-play: deal and play whole rounds with a seeded random legal policy, checking the
engine's invariants after every move.

    python -m rules.simulate --variant masters+mandatory-doubles --players 4 --rounds 3 --seed 7 [--log FILE]

Checked after every move: tiles are conserved and none appears twice; every applied move
was judged legal. Checked after every round: the log (deal plus moves, in the position
format) re-parses and replays to the same final state. A violation raises
:class:`InvariantError` naming the variant, seed and round; the command exits 1.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from .deal import deal, rounds_in_game
from .judge import explain as explain_move
from .judge import legal_moves, replay
from .moves import Action
from .position import MoveLine, Position
from .ruleset import Ruleset
from .scoring import GameResult, game_result, round_scores
from .state import State, apply, build
from .tiles import full_set

MAX_STEPS = 5_000
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lu", "Max", "Ned")


class InvariantError(AssertionError):
    """The engine broke one of its invariants during self-play."""


@dataclass(frozen=True)
class RoundLog:
    position: Position
    """The deal, with every move of the round: a complete, replayable position text."""
    final: State
    scores: dict[str, int]

    def text(self) -> str:
        return self.position.format()


def conservation_problem(state: State) -> str | None:
    """Why the tiles of a fully known state are not exactly one set, or None."""
    seen: Counter[object] = Counter(state.board)
    for hand in state.hands:
        if hand is None or hand.unknown:
            return None
        seen.update(hand.tiles)
    if state.boneyard_tiles is None:
        return None
    seen.update(state.boneyard_tiles)
    twice = sorted(str(t) for t, c in seen.items() if c > 1)
    if twice:
        return f"tiles twice: {' '.join(twice)}"
    full = set(full_set(state.set_max))
    if set(seen) != full:
        missing = sorted(str(t) for t in full - set(seen))
        extra = sorted(str(t) for t in set(seen) - full)
        return f"tiles not conserved: missing {missing}, extra {extra}"
    if len(state.boneyard_tiles) != state.boneyard:
        return f"boneyard count {state.boneyard} but {len(state.boneyard_tiles)} tiles listed"
    return None


def play_round(ruleset: Ruleset, players: tuple[str, ...], round_no: int, rng: random.Random,
               *, check: bool = True, seed: int | None = None, set_max: int | None = None) -> RoundLog:
    """Deal and play one round with random legal moves (``set_max`` picks a row of the table)."""
    dealt = deal(ruleset, players, round_no, rng, set_max)
    state = build(dealt.position, ruleset)
    moves: list[MoveLine] = []
    where = f"{ruleset.id}, seed {seed}, round {round_no}"
    for _ in range(MAX_STEPS):
        if state.round_over:
            break
        options = list(legal_moves(state))
        if not options:
            raise InvariantError(f"{where}: no legal move for {state.player} and the round is not over")
        move = rng.choice(options)
        if move.action is Action.DRAW:
            assert state.boneyard_tiles is not None
            move = replace(move, tile=state.boneyard_tiles[0])
        if check:
            blocking = [str(r) for r in explain_move(state, move) if r.blocks]
            if blocking:
                raise InvariantError(f"{where}: {move} was offered as legal but judged illegal: {blocking}")
        state = apply(state, move)
        moves.append(MoveLine(move))
        if check:
            problem = conservation_problem(state)
            if problem:
                raise InvariantError(f"{where}: after {move}: {problem}")
    else:
        raise InvariantError(f"{where}: the round did not end within {MAX_STEPS} moves")
    scores = round_scores(state)
    if scores is None:
        raise InvariantError(f"{where}: the round ended but has no scores")
    log = replace(dealt.position, moves=tuple(moves))
    if check:
        _check_replay(log, ruleset, state, where)
    return RoundLog(log, state, scores)


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


def play_game(ruleset: Ruleset, players: int, rounds: int | None, seed: int, *, check: bool = True) -> Game:
    rng = random.Random(seed)
    names = NAMES[:players] if players <= len(NAMES) else tuple(f"P{i + 1}" for i in range(players))
    logs = []
    first = deal(ruleset, names, 1, random.Random(seed))  # only to learn the set size
    count = rounds if rounds is not None else rounds_in_game(ruleset, first.position.set_max or 12)
    for r in range(1, count + 1):
        logs.append(play_round(ruleset, names, r, rng, check=check, seed=seed))
    return Game(tuple(logs), game_result(ruleset, [log.scores for log in logs]))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules.simulate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", required=True, help="ruleset id, options joined by +")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=None, help="rounds to play (default: the ruleset's game)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--log", metavar="FILE", help="write every round's log (deal plus moves) to FILE")
    args = parser.parse_args(argv)
    from variants.loader import get_ruleset  # the only I/O: reading the ruleset files

    from .deal import DealError
    from .errors import InputError

    try:
        ruleset = get_ruleset(args.variant)
        game = play_game(ruleset, args.players, args.rounds, args.seed)
    except (InputError, DealError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except InvariantError as exc:
        print(f"INVARIANT VIOLATED (seed {args.seed}): {exc}", file=sys.stderr)
        return 1
    if args.log:
        with open(args.log, "w", encoding="utf-8") as f:
            for i, log in enumerate(game.rounds, 1):
                f.write(f"# round {i} of a {ruleset.id} game, seed {args.seed}\n")
                f.write(log.text())
                f.write("\n")
    for i, log in enumerate(game.rounds, 1):
        print(f"round {i}: " + ", ".join(f"{p} {s}" for p, s in log.scores.items())
              + f"  ({len(log.position.moves)} moves)")
    res = game.result
    print("totals: " + ", ".join(f"{p} {s}" for p, s in res.totals.items()))
    print(f"winner: {' and '.join(res.winners)} ({res.decided_by})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

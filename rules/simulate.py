"""Self-play: deal and play whole rounds with a seeded random legal policy, checking the
engine's invariants after every move.

    python -m rules.simulate --variant masters+mandatory-doubles --players 4 --rounds 3 --seed 7 [--log FILE]
    python -m rules.simulate --variant gamerules --players 4 --set double-12 --games 50 --seed 1
    python -m rules.simulate --rules ours.yaml --players 4 --rounds 2 --seed 7 --log game.txt

``--rules FILE.yaml`` plays under a house ruleset file (as downloaded from ``/h/<id>.yaml``,
checked as an upload is, offline) instead of a published ``--variant``; a bad file is refused
with one line naming the file and line, exit 2. The log's ``variant:`` line is the house
ruleset's id (the one the site gives the same rules), so each round of the log replays offline
with ``manage.py adjudicate ROUND.txt --rules FILE.yaml``, and on the site once the ruleset is stored.

``--set double-N`` picks a row of the ruleset's table (default: its first for this many players);
``--games N`` plays N whole games with the seeds --seed, --seed+1, ... An impossible combination
(no row for that set, a round the set has no double for) is refused with one line, exit 2.

Checked on every state reached: the fast path (rules.legality) and explain() agree exactly on
every candidate action, and the legal moves are exactly the candidates explain() finds legal.
Checked after every move: tiles are conserved and none appears twice; every applied move
was judged legal. Checked after every round: the log (deal plus moves, in the position
format) re-parses and replays to the same final state. A violation raises
:class:`InvariantError` naming the variant, seed and round; the command exits 1.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from .deal import DealError, deal, deal_row, round_problem, rounds_in_game
from .explain import explain as explain_move
from .legality import analyse, candidates, is_legal, legal_moves
from .moves import Action, Move
from .position import MoveLine, Position
from .replay import replay
from .ruleset import Ruleset
from .scoring import GameResult, game_result, round_scores
from .state import State
from .tiles import STANDARD_SETS, full_set
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


def play_round(ruleset: Ruleset, players: tuple[str, ...], round_no: int, rng: random.Random,
               *, check: bool = True, seed: int | None = None, set_max: int | None = None) -> RoundLog:
    """Deal and play one round with random legal moves (``set_max`` picks a row of the table)."""
    dealt = deal(ruleset, players, round_no, rng, set_max)
    state = build(dealt.position, ruleset)
    moves: list[Move] = []
    where = f"{ruleset.id}, seed {seed}, round {round_no}"
    choice, record = rng.choice, moves.append
    for _ in range(MAX_STEPS):
        if state.round_over:
            break
        options = analyse(state).legal_moves()
        if not options:
            raise InvariantError(f"{where}: no legal move for {state.player} and the round is not over")
        if check:
            problem = agreement_problem(state)
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
    scores = round_scores(state)
    if scores is None:
        raise InvariantError(f"{where}: the round ended but has no scores")
    log = RoundLog(dealt.position, tuple(moves), state, scores)
    if check:
        _check_replay(log.position, ruleset, state, where)
    return log


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


def parse_set(text: str) -> int:
    """``double-N`` (or ``N``) for --set."""
    m = re.fullmatch(r"(?:double-)?(\d{1,2})", text.strip(), re.IGNORECASE | re.ASCII)
    if not m or int(m.group(1)) not in STANDARD_SETS:
        raise argparse.ArgumentTypeError(f"expected a set like double-12 (double-6, -9, -12, -15 or -18), found {text!r}")
    return int(m.group(1))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules.simulate", description=__doc__.split("\n\n")[0])
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--variant", help="ruleset id, options joined by +")
    which.add_argument("--rules", metavar="FILE.yaml",
                       help="a house ruleset file (as downloaded from /h/<id>.yaml): play under it, offline")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--set", type=parse_set, default=None, metavar="double-N",
                        help="the set: a row of the ruleset's table for this many players (default: its first)")
    parser.add_argument("--rounds", type=int, default=None, help="rounds per game (default: the ruleset's whole game)")
    parser.add_argument("--games", type=int, default=1, help="games to play, seeds --seed, --seed+1, ... (default 1)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--log", metavar="FILE", help="write every round's log (deal plus moves) to FILE")
    args = parser.parse_args(argv)
    # the only I/O: reading the ruleset files (and the house ruleset file named)
    from variants.house import MAX_FILE, from_file
    from variants.loader import get_ruleset, read_text

    from .errors import InputError

    try:
        ruleset = from_file(read_text(args.rules, MAX_FILE), args.rules) if args.rules else get_ruleset(args.variant)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    problem = plan_problem(ruleset, args.players, args.rounds, args.set, args.games)
    if problem is not None:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    played: list[tuple[int, Game]] = []
    for seed in range(args.seed, args.seed + args.games):
        try:
            played.append((seed, play_game(ruleset, args.players, args.rounds, seed, set_max=args.set)))
        except DealError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        except InvariantError as exc:
            print(f"INVARIANT VIOLATED (seed {seed}): {exc}", file=sys.stderr)
            return 1
    if args.log:
        with open(args.log, "w", encoding="utf-8") as f:
            for seed, game in played:
                for i, log in enumerate(game.rounds, 1):
                    f.write(f"# round {i} of a {ruleset.id} game, seed {seed}\n")
                    if args.rules:
                        f.write(f"# {ruleset.id} is the house ruleset {ruleset.title!r} of {args.rules} (built on "
                                f"{ruleset.built_on}): replay this round with manage.py adjudicate ROUND.txt "
                                f"--rules {args.rules}\n")
                    f.write(log.text())
                    f.write("\n")
    if args.games == 1:
        game = played[0][1]
        for i, log in enumerate(game.rounds, 1):
            print(f"round {i}: " + ", ".join(f"{p} {s}" for p, s in log.scores.items())
                  + f"  ({len(log.position.moves)} moves)")
        res = game.result
        print("totals: " + ", ".join(f"{p} {s}" for p, s in res.totals.items()))
        print(f"winner: {' and '.join(res.winners)} ({res.decided_by})")
        return 0
    rounds = moves = 0
    for seed, game in played:
        n_moves = sum(len(log.position.moves) for log in game.rounds)
        rounds += len(game.rounds)
        moves += n_moves
        print(f"game {seed}: {len(game.rounds)} rounds, {n_moves} moves; winner: {' and '.join(game.result.winners)} "
              f"({game.result.decided_by})")
    print(f"{len(played)} games, {rounds} rounds, {moves} moves: every invariant held")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Dealing a round: the hand-size table, the engine of the round, who starts, and each
source's procedure when nobody holds the engine. Chance comes from the caller's ``Random``,
so a seed replays a deal exactly."""

from __future__ import annotations

import random
from dataclasses import dataclass

from . import randoms
from .errors import ErrorCode, InputError
from .position import Phase, Position, TrainLine
from .ruleset import DealRow, EngineTile, FirstPlayer, MissingEngine, Rounds, Ruleset
from .tiles import Tile, full_set


class DealError(InputError):
    """The ruleset cannot deal for this table (player count, hand size or round)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code=ErrorCode.IMPOSSIBLE)


@dataclass(frozen=True)
class Deal:
    position: Position
    engine_holder: int | None
    """Seat of the player who placed the engine (None when it was set aside before dealing)."""
    events: tuple[str, ...]
    """What happened before the first turn (draws for a missing engine), for the log."""


def deal_row(ruleset: Ruleset, players: int, set_max: int | None = None) -> DealRow:
    """The first row of the ruleset's table for this many players (and set, if given)."""
    for row in ruleset.flags.setup_deal:
        if row.min_players <= players <= row.max_players and (set_max is None or row.set_max == set_max):
            if row.tiles is None:
                raise DealError(f"{ruleset.id} names the double-{row.set_max} set for {players} players "
                                "but not how many tiles each takes")
            return row
    raise DealError(f"{ruleset.id} has no hand size for {players} players")


def rounds_in_game(ruleset: Ruleset, set_max: int) -> int:
    """How many rounds a whole game has: the ruleset's number, one per double of the set, or one."""
    count = ruleset.flags.rounds_count
    if isinstance(count, int):
        return count
    return set_max + 1 if count is Rounds.ONE_PER_DOUBLE else 1


def last_round(ruleset: Ruleset, set_max: int) -> int:
    """The highest round number a deal or a position may name: the ruleset's number of rounds when
    it counts them; else one round per double of the set (the most a game can have: a single-round
    game's rounds are separate games, numbered for their engine)."""
    count = ruleset.flags.rounds_count
    return count if isinstance(count, int) else set_max + 1


def round_problem(ruleset: Ruleset, set_max: int, round_no: int) -> str | None:
    """Why a round number does not exist under the ruleset with this set (one line), or None."""
    last = last_round(ruleset, set_max)
    if 1 <= round_no <= last:
        return None
    if isinstance(ruleset.flags.rounds_count, int):
        return f"round {round_no} does not exist: a {ruleset.id} game has {last} rounds"
    return f"round {round_no} does not exist with a double-{set_max} set (one round per double)"


def engine_double(ruleset: Ruleset, set_max: int, round_no: int) -> int | None:
    """The engine of a round when the ruleset fixes it before the deal, else None (the highest held)."""
    rule = ruleset.flags.engine_tile
    if rule is EngineTile.ROUND_DOUBLE:
        return set_max - (round_no - 1)
    return set_max if rule is EngineTile.SET_HIGHEST else None


def deal(ruleset: Ruleset, players: tuple[str, ...], round_no: int, rng: random.Random,
         set_max: int | None = None) -> Deal:
    """Shuffle, deal, find the engine and the first player: the position at the first turn."""
    flags = ruleset.flags
    n = len(players)
    row = deal_row(ruleset, n, set_max)
    top = row.set_max
    problem = round_problem(ruleset, top, round_no)
    if problem is not None:
        raise DealError(problem)
    tiles = list(full_set(top))
    randoms.shuffle(rng, tiles)
    events: list[str] = []
    round_double = engine_double(ruleset, top, round_no)
    if flags.engine_missing is MissingEngine.SET_ASIDE_BEFORE_DEAL:
        assert round_double is not None, "setting the engine aside needs a fixed engine double"
        tiles.remove(Tile.of(round_double, round_double))
    size = row.tiles
    assert size is not None  # deal_row refuses rows without a hand size
    hands = [tiles[i * size:(i + 1) * size] for i in range(n)]
    boneyard = tiles[n * size:]
    holder: int | None = None
    if flags.engine_missing is MissingEngine.SET_ASIDE_BEFORE_DEAL:
        assert round_double is not None
        engine = round_double
    elif round_double is not None:
        engine = round_double
        wanted = Tile.of(engine, engine)
        holder = next((i for i, h in enumerate(hands) if wanted in h), None)
        if holder is None:
            holder = _draw_until(flags.engine_missing, hands, boneyard, lambda t: t == wanted, players, events)
        hands[holder].remove(wanted)
    else:
        doubles = [(t.high, i) for i, h in enumerate(hands) for t in h if t.is_double]
        if doubles:
            engine, holder = max(doubles)
        else:
            holder = _draw_until(flags.engine_missing, hands, boneyard, lambda t: t.is_double, players, events)
            engine = next(t for t in reversed(hands[holder]) if t.is_double).high
        hands[holder].remove(Tile.of(engine, engine))
    if holder is not None:
        events.append(f"{players[holder]} places the engine {engine}-{engine}")
    first = _first_player(flags.start_first_player, holder, n, rng)
    position = Position(
        players=players,
        engine=engine,
        trains=tuple(TrainLine() for _ in players),
        mexican=TrainLine(),
        turn=players[first],
        boneyard=tuple(boneyard),
        hands=tuple((p, tuple(h)) for p, h in zip(players, hands)),
        set_max=top,
        phase=Phase.FIRST_TURN,
        round=round_no,
        variant=ruleset.id,
    )
    return Deal(position, holder, tuple(events))


def _draw_until(procedure: MissingEngine, hands: list[list[Tile]], boneyard: list[Tile],
                found: object, players: tuple[str, ...], events: list[str]) -> int:
    """Players draw from the boneyard until ``found(tile)``; the finder's seat."""
    assert callable(found)
    together = procedure is MissingEngine.ALL_DRAW_UNTIL_FOUND
    events.append("nobody holds the engine: " + ("every player draws one tile at the same time, until it is found"
                                                 if together else "players draw in turn until it is found"))
    seat = 0
    while boneyard:
        finder = None
        for _ in range(len(hands) if together else 1):
            if not boneyard:
                break
            tile = boneyard.pop(0)
            hands[seat].append(tile)
            events.append(f"{players[seat]} draws {tile}")
            if found(tile) and finder is None:
                finder = seat
            seat = (seat + 1) % len(hands)
        if finder is not None:
            return finder
    raise DealError("the boneyard ran out before the engine was found")


def _first_player(rule: FirstPlayer, holder: int | None, n: int, rng: random.Random) -> int:
    if rule is FirstPlayer.CHOSEN or holder is None:
        return rng.randrange(n)
    if rule is FirstPlayer.LEFT_OF_ENGINE_HOLDER:
        return (holder + 1) % n
    return holder

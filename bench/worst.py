"""The worst requests within the limits of one request (issue 7; docs/engine.md, "Limits of one request").

Each is built to ask for as much judging as :data:`rules.limits.MAX_WORK` allows, one way or
another: the widest table, the deepest hand, the longest replay. ``make bench`` times each through
the path every front end shares (parse, bound, judge, the JSON answer encoded as the API sends
it) and reports the time and the answer's size; ``tests/api/test_api_limits.py`` sends them to the
API. One request over the limit is refused before any judging (413).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, replace

import orjson

from mextrain_site.core.referee import adjudicate
from rules.errors import InputError
from rules.limits import MAX_WORK, work
from rules.position import MAX_MOVES
from rules.tiles import Tile, full_set
from variants.loader import option_ids

NAMES = tuple(f"P{i}" for i in range(20))


@dataclass(frozen=True)
class Worst:
    name: str
    text: str
    variants: tuple[str, ...]


def _tiles(set_max: int, seed: int) -> list[Tile]:
    tiles = [t for t in full_set(set_max) if t != Tile.of(set_max, set_max)]
    random.Random(seed).shuffle(tiles)
    return tiles


def wide_table(limit: int = MAX_WORK) -> Worst:
    """20 players on a double-18 set, the trains started (each open end different, some marked,
    the Mexican train open), a 15-tile hand: 319 candidate actions, under as many rulesets as fit."""
    tiles = _tiles(18, 1)
    trains = []
    mex = next(t for t in tiles if t.has(18))
    tiles.remove(mex)
    for i, name in enumerate(NAMES):
        first = next((t for t in tiles if t.has(18)), None)  # 17 trains started, the last 3 not
        if first is not None:
            tiles.remove(first)
        train = f"18-{first.other(18)}" if first is not None else "-"
        trains.append(f"{name}: {train}" + (" *" if i % 3 == 0 else ""))
    hand = tiles[:15]
    text = (f"players: {' '.join(NAMES)}\nset: double-18\nengine: 18\n" + "\n".join(trains)
            + f"\nmexican: 18-{mex.other(18)}\nboneyard: 40\nturn: P0\nhand: {' '.join(map(str, hand))}\n"
            + f"check: P0: {hand[0]} -> P1\n")
    per = 15 * 21 + 4
    return Worst("wide table (20 players, 15-tile hand)", text, tuple(option_ids()[: limit // per]))


def deep_hand(limit: int = MAX_WORK) -> Worst:
    """2 players on a double-18 set with an empty boneyard: the deal and the draws allow a
    hand of 160 tiles; 484 candidate actions, under as many rulesets as fit."""
    tiles = _tiles(18, 2)
    hand = tiles[:160]
    text = (f"players: Ann Bob\nset: double-18\nengine: 18\nboneyard: 0\nturn: Ann\nhand: {' '.join(map(str, hand))}\n")
    per = 160 * 3 + 4
    return Worst("deep hand (2 players, 160-tile hand)", text, tuple(option_ids()[: limit // per]))


def long_replay(limit: int = MAX_WORK) -> Worst:
    """20 players drawing and passing: as many moves as a position may hold, under one ruleset."""
    names = tuple(chr(ord("A") + i) for i in range(20))
    moves: list[str] = []
    while len(moves) < min(MAX_MOVES, limit - 4):
        name = names[(len(moves) // 2) % len(names)]
        moves.append(f"{name}: draw" if len(moves) % 2 == 0 else f"{name}: pass")
    text = f"players: {' '.join(names)}\nengine: 12\nturn: A\nmoves: " + "; ".join(moves) + "\n"
    return Worst(f"long replay ({len(moves)} moves)", text, ("howto",))


def whole_round(limit: int = MAX_WORK) -> Worst:
    """A self-played round of 8 players replayed from the deal, every hand known (so the engine
    looks for a blocked round after every turn once the boneyard is empty), under as many
    rulesets as fit."""
    from rules.simulate import NAMES as SEATS
    from rules.simulate import play_round
    from variants.loader import get_ruleset

    log = play_round(get_ruleset("masters"), SEATS[:8], 1, random.Random(4), check=False, set_max=12)
    position = replace(log.position, variant=None)
    per = work(position, 1).total
    return Worst(f"whole round replayed (8 players, {len(position.moves)} moves)", position.format(),
                 tuple(option_ids()[: limit // per]))


def over_the_limit(limit: int = MAX_WORK) -> Worst:
    """The wide table under one ruleset more than fits: refused before any judging."""
    wide = wide_table(limit)
    return Worst("over the limit (refused, 413)", wide.text, tuple(option_ids()[: len(wide.variants) + 1]))


def cases(limit: int = MAX_WORK) -> tuple[Worst, ...]:
    """The worst requests within ``limit`` judgements (the API's; the page's is MAX_PAGE_WORK), and
    one over it."""
    return (wide_table(limit), deep_hand(limit), long_replay(limit), whole_round(limit), over_the_limit(limit))


def run(case: Worst) -> tuple[float, int, bool]:
    """Seconds (CPU time of this process), bytes of the JSON answer (or error), judged or refused."""
    t = time.process_time()
    try:
        body = orjson.dumps(adjudicate(case.text, list(case.variants)))
        judged = True
    except InputError as exc:
        body = orjson.dumps({"error": exc.as_dict()})
        judged = False
    return time.process_time() - t, len(body), judged

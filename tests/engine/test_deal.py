"""Dealing: each ruleset's hand-size table, the engine of each round, who starts, and each
source's procedure when nobody holds the engine (forced with a rigged shuffle)."""

from __future__ import annotations

import random

import pytest

from rules.deal import DealError, deal
from rules.simulate import NAMES
from rules.tiles import Tile, full_set, set_size
from variants.loader import get_ruleset


class Rigged(random.Random):
    """A Random whose shuffle puts the given tiles first, in order, and the rest after."""

    def __init__(self, first: list[Tile]) -> None:
        super().__init__(0)
        self.first = first

    def shuffle(self, x: list) -> None:  # type: ignore[override]
        rest = [t for t in x if t not in self.first]
        x[:] = [t for t in self.first if t in x] + rest


def hand_sizes(ident: str, players: int, set_max: int | None = None) -> tuple[int, int]:
    d = deal(get_ruleset(ident), NAMES[:players], 1, random.Random(1), set_max)
    return len(d.position.hands[0][1]), d.position.set_max or 0


@pytest.mark.parametrize("ident,players,set_max,tiles", [
    ("howto", 2, 9, 15), ("howto", 3, 9, 15), ("howto", 4, 12, 15), ("howto", 6, 12, 12), ("howto", 8, 12, 11),
    ("howto", 10, 15, 11), ("howto", 14, 18, 11),
    ("gamerules", 2, 9, 15), ("gamerules", 3, 9, 13), ("gamerules", 4, 9, 10), ("gamerules", 5, 12, 14),
    ("gamerules", 6, 12, 12), ("gamerules", 7, 12, 10), ("gamerules", 8, 12, 9),
    ("masters", 2, 12, 15), ("masters", 4, 12, 15), ("masters", 6, 12, 12), ("masters", 8, 12, 10),
    ("cardinal", 4, 12, 15), ("cardinal", 6, 12, 12), ("cardinal", 8, 12, 10), ("cardinal", 10, 12, 8),
])
def test_hand_size_tables(ident: str, players: int, set_max: int, tiles: int) -> None:
    size, got_set = hand_sizes(ident, players)
    assert got_set == set_max
    # the engine's holder has one tile fewer: look at everybody's largest hand
    d = deal(get_ruleset(ident), NAMES[:players], 1, random.Random(3))
    assert max(len(h) for _, h in d.position.hands) >= tiles
    assert min(len(h) for _, h in d.position.hands) >= tiles - 1 or d.events


def test_table_rows_by_set() -> None:
    assert hand_sizes("gamerules", 3, 12) == (16, 12) or hand_sizes("gamerules", 3, 12)[1] == 12
    assert hand_sizes("howto", 3, 6)[1] == 6
    with pytest.raises(DealError, match="names the double-15 set for 10 players but not how many tiles"):
        deal(get_ruleset("gamerules"), NAMES[:10], 1, random.Random(0))
    with pytest.raises(DealError, match="has no hand size for 3 players"):
        deal(get_ruleset("cardinal"), NAMES[:3], 1, random.Random(0))


def test_tiles_are_conserved_by_every_deal() -> None:
    for ident in ("howto", "gamerules", "masters", "cardinal", "masters+thirteen-rounds"):
        for seed in range(20):
            d = deal(get_ruleset(ident), NAMES[:4], 1 + seed % 13, random.Random(seed), 12)
            p = d.position
            bone = p.boneyard if isinstance(p.boneyard, tuple) else ()
            assert p.boneyard_count == len(bone)
            tiles = [t for _, h in p.hands for t in h] + list(bone) + [Tile.of(p.engine, p.engine)]
            assert len(tiles) == len(set(tiles)) == set_size(p.set_max)


def test_round_doubles_descend() -> None:
    for r in (1, 2, 13):
        d = deal(get_ruleset("howto"), NAMES[:4], r, random.Random(r))
        assert d.position.engine == 12 - (r - 1) and d.position.round == r
    with pytest.raises(DealError):
        deal(get_ruleset("howto"), NAMES[:4], 14, random.Random(0))


def test_howto_engine_holder_starts_and_missing_engine_is_drawn_in_turn() -> None:
    rs = get_ruleset("howto")
    d = deal(rs, NAMES[:4], 1, random.Random(2))
    holder = d.engine_holder
    assert holder is not None and d.position.turn == NAMES[holder]
    # rig it: the 12-12 is the 3rd tile of the boneyard; players draw in turn from seat 0
    others = [t for t in full_set(12) if t != Tile.of(12, 12)]
    order = others[:60] + [others[60], others[61], Tile.of(12, 12)]
    d = deal(rs, NAMES[:4], 1, Rigged(order))
    assert d.engine_holder == 2 and d.position.turn == "Cy"
    assert d.events[0].startswith("nobody holds the engine: players draw in turn")
    assert [e.split()[0] for e in d.events[1:4]] == ["Ann", "Bob", "Cy"]


def test_cardinal_everybody_draws_at_once() -> None:
    rs = get_ruleset("cardinal")
    others = [t for t in full_set(12) if t != Tile.of(12, 12)]
    # four draw at once (no 12-12), then four again: the 12-12 goes to the 2nd drawer of round two
    order = others[:60] + others[60:64] + [others[64], Tile.of(12, 12), others[65], others[66]]
    d = deal(rs, NAMES[:4], 1, Rigged(order))
    assert d.engine_holder == 1 and d.position.turn == "Bob"
    assert "every player draws one tile at the same time" in d.events[0]
    assert sum(1 for e in d.events if e.split()[0] in NAMES and " draws " in e) == 8  # all of round two draws


def test_masters_highest_double_and_left_of_placer_starts() -> None:
    rs = get_ruleset("masters")
    d = deal(rs, NAMES[:4], 1, random.Random(5))
    doubles = [t.high for _, h in d.position.hands for t in h if t.is_double]
    assert all(d.position.engine > x for x in doubles)
    assert d.position.turn == NAMES[(d.engine_holder + 1) % 4]
    # nobody holds a double: draw in turn until any double shows, placed at once
    singles = [t for t in full_set(12) if not t.is_double]
    order = singles[:30] + [singles[30], Tile.of(5, 5)]
    d = deal(rs, NAMES[:2], 1, Rigged(order))
    assert d.position.engine == 5 and d.engine_holder == 1 and d.position.turn == "Ann"


def test_gamerules_sets_the_engine_aside_and_chooses_a_starter() -> None:
    rs = get_ruleset("gamerules")
    starters = {deal(rs, NAMES[:4], 1, random.Random(s), 12).position.turn for s in range(30)}
    d = deal(rs, NAMES[:4], 1, random.Random(0), 12)
    assert d.engine_holder is None and not d.events
    assert all(Tile.of(12, 12) not in h for _, h in d.position.hands)
    assert len(starters) > 1  # chosen by chance, not by holding the engine

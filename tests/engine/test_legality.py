"""The fast path's named layers (rules.legality) on the spec's example, and parse_move(state, text)."""

from __future__ import annotations

import pytest

from rules.explain import explain
from rules.legality import (
    analyse,
    can_play,
    candidates,
    is_legal,
    legal_moves,
    legal_plays,
    parse_move,
    pseudo_legal_plays,
    verdicts,
)
from rules.moves import MEXICAN, Action, Move, MoveSyntaxError
from rules.position import Position
from rules.state import State
from rules.tiles import Tile
from rules.transitions import build
from tests.examples import SPEC_EXAMPLE
from variants.loader import get_ruleset


def spec_state(ident: str = "howto") -> State:
    return build(Position.parse(SPEC_EXAMPLE), get_ruleset(ident))


def test_parse_move_resolves_names_against_the_state() -> None:
    state = spec_state()
    assert parse_move(state, "bob: 6-4 -> cy") == Move("Bob", Action.PLAY, Tile.of(6, 4), "Cy")
    assert parse_move(state, "BOB: 9-2 -> Mexican") == Move("Bob", Action.PLAY, Tile.of(9, 2), MEXICAN)
    assert parse_move(state, "Bob: draw 5-3") == Move("Bob", Action.DRAW, Tile.of(5, 3))


@pytest.mark.parametrize(("text", "column", "found"), [
    ("Zed: pass", 1, "'Zed'"),
    ("Bob: 6-4 -> Zed", 13, "'Zed'"),
])
def test_parse_move_refuses_a_name_the_state_does_not_know(text: str, column: int, found: str) -> None:
    with pytest.raises(MoveSyntaxError) as info:
        parse_move(spec_state(), text)
    assert info.value.column == column
    assert str(info.value).endswith(f"(Ann, Bob, Cy, Dee), found {found}")


def test_the_layers_nest() -> None:
    """Legal plays are pseudo-legal plays; legal moves are the legal plays and the legal actions."""
    state = spec_state("masters")  # no double obligation: the 2-2 on the Mexican train binds nothing
    pseudo = list(pseudo_legal_plays(state))
    plays = legal_plays(state)
    assert set(plays) <= set(pseudo)
    assert [str(m) for m in pseudo] == ["Bob: 6-4 -> Cy", "Bob: 9-2 -> Ann", "Bob: 9-2 -> mexican",
                                        "Bob: 11-2 -> mexican"]
    # Cy's train carries no marker; Ann's marked train and the Mexican train are open
    assert [str(m) for m in plays] == ["Bob: 9-2 -> Ann", "Bob: 9-2 -> mexican", "Bob: 11-2 -> mexican"]
    assert legal_moves(state) == plays  # must play if able: no draw, no pass
    assert can_play(state)
    assert [m for m, legal in verdicts(state) if legal] == list(plays)
    assert len(verdicts(state)) == len(candidates(state)) == 4 * 5 + 3  # 4 tiles on 5 trains, draw, pass, done


def test_is_legal_and_explain_agree_on_the_claim() -> None:
    for ident, codes in (("masters", ["train-not-open"]), ("howto", ["must-satisfy-double", "train-not-open"])):
        state = spec_state(ident)
        claim = parse_move(state, "Bob: 6-4 -> Cy")
        assert not is_legal(state, claim)
        assert [r.code.value for r in explain(state, claim) if r.blocks] == codes
    howto = spec_state("howto")  # the open 2-2 on the Mexican train binds every tile
    assert [str(m) for m in legal_moves(howto)] == ["Bob: 9-2 -> mexican", "Bob: 11-2 -> mexican"]


def test_the_analysis_of_a_state_is_computed_once() -> None:
    state = spec_state()
    assert analyse(state) is analyse(state)
    other = spec_state("masters")
    assert analyse(other) is not analyse(state)


def test_a_player_without_a_play_cannot_play() -> None:
    text = SPEC_EXAMPLE.replace("hand: 6-4 7-7 9-2 2-11", "hand: 1-5 0-5")
    state = build(Position.parse(text), get_ruleset("masters"))
    assert not can_play(state)
    assert [str(m) for m in legal_moves(state)] == ["Bob: draw"]

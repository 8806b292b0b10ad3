"""Invariants, tested with hypothesis: parsing never raises anything but its own error,
formatting round-trips, and the fast path (is_legal, legal_moves) agrees exactly with explain()
on every state reached."""

from __future__ import annotations

import random
from collections.abc import Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.answer import rule
from rules.deal import deal
from rules.explain import Judgement, explain, judge_all
from rules.legality import candidates, legal_moves
from rules.position import Position, PositionError
from rules.ruleset import Ruleset
from rules.simulate import NAMES, agreement_problem
from rules.state import State
from rules.transitions import apply, build
from tests.examples import SPEC_EXAMPLE
from variants.loader import get_ruleset, option_ids

SAMPLE = SPEC_EXAMPLE.replace("check: Bob: 6-4 -> Cy\n", "") + """\
phase: play
hand Cy: 1-1 3-5
open-doubles: mexican
moves:
  Bob: 9-2 -> mexican
  Cy: draw
check: Dee: 12-1 -> Dee
"""
TOKENS = st.sampled_from(list("0123456789-:*#;.… \n\tabcABCmexicnpluyrdtshkov>") + [
    "->", "12-", "Ann", "Bob", "players: ", "engine: ", "turn: ", "hand: ", "moves:\n  ", "check: ", "mexican: ",
    "boneyard: ", "phase: first-turn", "open-doubles: ", "set: double-", "variant: masters", "draw", "pass", "done"])
TEXT = st.lists(TOKENS, max_size=120).map("".join)
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_judge_all_is_explain(state: State) -> None:
    """judge_all (the answer's path: tile by tile) gives every candidate exactly explain()'s reasons."""
    assert judge_all(state) == tuple(Judgement(m, explain(state, m)) for m in candidates(state))


def judge_text(text: str, rulesets: Sequence[Ruleset] | None = None) -> None:
    """Parse and judge under every ruleset (the published ones unless given); only PositionError
    may escape."""
    try:
        position = Position.parse(text)
    except PositionError:
        return
    assert Position.parse(position.format()) == position
    for ruleset in rulesets or [get_ruleset(ident) for ident in ("howto", "gamerules", "masters", "cardinal")]:
        try:
            ruling = rule(position, ruleset)
        except PositionError:
            continue
        assert agreement_problem(ruling.state) is None
        assert_judge_all_is_explain(ruling.state)
        for j in ruling.actions:
            assert j.legal == (not any(r.blocks for r in j.reasons))
            for r in j.reasons:
                r.text()


@FAST
@given(TEXT)
def test_random_texts_raise_only_position_errors(text: str) -> None:
    judge_text(text)


def mutated(data: st.DataObject, text: str = SAMPLE) -> str:
    """``text`` with one to four random edits: tokens inserted, deleted or replaced, a line doubled."""
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(text)))
        kind = data.draw(st.sampled_from(["insert", "delete", "replace", "dup-line"]))
        if kind == "insert":
            text = text[:i] + data.draw(st.lists(TOKENS, min_size=1, max_size=3).map("".join)) + text[i:]
        elif kind == "delete":
            text = text[:i] + text[i + data.draw(st.integers(1, 8)):]
        elif kind == "replace":
            text = text[:i] + data.draw(TOKENS) + text[i + 1:]
        else:
            lines = text.splitlines(keepends=True)
            k = data.draw(st.integers(0, len(lines) - 1))
            lines.insert(k, lines[k])
            text = "".join(lines)
    return text


@FAST
@given(st.data())
def test_mutated_texts_raise_only_position_errors(data: st.DataObject) -> None:
    judge_text(mutated(data))


@settings(max_examples=60, deadline=None)
@given(ident=st.sampled_from(option_ids()), players=st.integers(2, 8), seed=st.integers(0, 10**6),
       steps=st.integers(0, 80))
def test_the_fast_path_agrees_with_explain(ident: str, players: int, seed: int, steps: int) -> None:
    """On random states reached by legal play, is_legal and legal_moves agree with explain() on
    every candidate."""
    ruleset = get_ruleset(ident)
    rng_ = ruleset.flags.players_count
    players = max(rng_.min, min(players, rng_.max))
    rng = random.Random(seed)
    state = build(deal(ruleset, NAMES[:players], 1 + seed % 3, rng).position, ruleset)
    for _ in range(steps):
        if state.round_over:
            break
        problem = agreement_problem(state)
        assert problem is None, (ident, seed, problem)
        assert_judge_all_is_explain(state)
        move = rng.choice(sorted(legal_moves(state), key=str))
        if move.action.value == "draw":
            assert state.boneyard_tiles is not None
            move = type(move)(move.player, move.action, state.boneyard_tiles[0])
        state = apply(state, move)

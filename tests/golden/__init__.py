"""Golden transcripts: whole rounds under each ruleset, every judgement written down.

Each round is dealt from a fixed seed and played by a seeded random policy over the legal
moves (taken in sorted order, so that only a change of verdicts changes the game). Before
every move the transcript lists the legal moves; then the move played with each of its
reasons: code, rule key and English sentence. ``tests/engine/test_golden.py`` plays the rounds
again and compares the transcript with the file line by line.

Regenerate after an intended change of verdicts, reasons or wording (then read the diff)::

    make golden        # python -m tests.golden
"""

from __future__ import annotations

import random
from pathlib import Path

from rules.deal import deal
from rules.explain import explain
from rules.legality import legal_moves
from rules.moves import Action
from rules.scoring import round_scores
from rules.simulate import NAMES
from rules.transitions import apply, build
from variants.loader import base_ids, get_ruleset

DIRECTORY = Path(__file__).resolve().parent
PLAYERS = NAMES[:4]
GAMES = ((1, 1), (2, 2))
"""(seed, round) of each transcribed round: round 2 changes the engine where rounds have their own."""
MAX_STEPS = 2_000


def path(ruleset_id: str) -> Path:
    return DIRECTORY / f"{ruleset_id}.txt"


def transcript(ruleset_id: str) -> str:
    """Every round of ``GAMES`` under the ruleset, as the golden file holds it."""
    ruleset = get_ruleset(ruleset_id)
    out = [f"# Golden transcript: {ruleset_id}, {len(PLAYERS)} players. Regenerate with `make golden`."]
    for seed, round_no in GAMES:
        rng = random.Random(seed)
        dealt = deal(ruleset, PLAYERS, round_no, rng)
        out.append("")
        out.append(f"== seed {seed}, round {round_no}: the deal")
        out.extend(f"| {line}" for line in dealt.position.format().splitlines())
        state = build(dealt.position, ruleset)
        for step in range(1, MAX_STEPS + 1):
            if state.round_over:
                break
            options = sorted(legal_moves(state), key=str)
            out.append(f"{step}. legal: " + " | ".join(str(m) for m in options))
            move = rng.choice(options)
            if move.action is Action.DRAW:
                assert state.boneyard_tiles is not None
                move = move._replace(tile=state.boneyard_tiles[0])
            reasons = explain(state, move)
            verdict = "illegal" if any(r.blocks for r in reasons) else "legal"
            out.append(f"{step}. {move}: {verdict}")
            out.extend(f"   {'x' if r.blocks else '+'} {r.code.value} [{r.rule_key or '-'}] {r.text()}" for r in reasons)
            state = apply(state, move)
        else:
            raise AssertionError(f"{ruleset_id}, seed {seed}: the round did not end in {MAX_STEPS} moves")
        scores = round_scores(state)
        out.append("== round over: " + (", ".join(f"{p} {s}" for p, s in scores.items()) if scores else "no scores"))
    return "\n".join(out) + "\n"


def rulesets() -> tuple[str, ...]:
    return base_ids()

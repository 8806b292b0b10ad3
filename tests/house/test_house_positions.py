"""Position files for house rulesets (tests/house/positions/*.txt): each case names a house
ruleset inline (a base and rule values), and every expected verdict with its exact reason codes.

    === the name of the case
    house: masters; turn.cannot_play=marker-no-draw
    house: howto; turn.cannot_play=marker-no-draw
    <the position text>
    --- expect
    Bob: draw => illegal no-draw
    Bob: pass => legal cannot-play-pass places-marker
    round => on

``round => over`` (or ``on``) expects the round to be over (or not) once the position's moves
are played.

A case about scoring expects each player's points and the reasons of ``check: score`` (or, for a
round played to its end, only the points)::

    scores => Ann=-10 Bob=35
    check score => going-out-bonus hand-counts marker-penalty

``notes => N`` expects so many notes (a round played with another engine than the ruleset's);
``error => CODE`` expects the position refused under each ruleset with that error code.

Each ``house:`` line is built as the API builds one (``variants.schema.house_from_data``, values
read as YAML scalars) and the case is judged under each of them through the CLI's path (rulesets
given, no database), so one case proves a value under several bases."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from mextrain_site.core.referee import adjudicate
from rules.position import PositionError
from rules.ruleset import Ruleset
from variants import house as hs
from variants.schema import house_from_data

POSITIONS = Path(__file__).parent / "positions"
ROUND = "round"
"""The expectation about the round itself (over or not), not a move."""


@dataclass(frozen=True)
class Case:
    file: str
    name: str
    houses: tuple[str, ...]
    text: str
    expected: tuple[tuple[int, str, bool, tuple[str, ...]], ...]
    scores: dict[str, int | None] | None = None
    score_reasons: tuple[str, ...] | None = None
    notes: int | None = None
    error: str | None = None


def items(text: str) -> list[str]:
    """``k=v, k=v`` split at the commas outside brackets (a value may be a YAML list or mapping)."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += (ch in "[{") - (ch in "]}")
        if ch == "," and depth == 0:
            out.append(text[start:i])
            start = i + 1
    out.append(text[start:])
    return [p.strip() for p in out if p.strip()]


def house(line: str) -> Ruleset:
    base, _, rest = line.partition(";")
    rules: dict[str, Any] = {}
    for item in items(rest):
        key, _, value = item.partition("=")
        rules[key.strip()] = yaml.safe_load(value.strip())
    return hs.build(hs.check(house_from_data(base.strip(), "case", rules)))


def load() -> list[Case]:
    cases = []
    for path in sorted(POSITIONS.glob("*.txt")):
        for block in re.split(r"^=== ", path.read_text(encoding="utf-8"), flags=re.M)[1:]:
            head, _, expect = block.partition("--- expect\n")
            name, *lines = head.splitlines()
            houses = tuple(ln.removeprefix("house:").strip() for ln in lines if ln.startswith("house:"))
            text = "\n".join(ln for ln in lines if not ln.startswith("house:")) + "\n"
            expected = []
            scores: dict[str, int | None] | None = None
            score_reasons: tuple[str, ...] | None = None
            checks: dict[str, str] = {}
            for n, raw in enumerate(expect.splitlines(), 1):
                if not raw.strip() or raw.startswith("#"):
                    continue
                if raw.startswith("scores =>"):
                    scores = {k: None if v == "-" else int(v)  # "-": the hand is not given
                              for k, v in (item.split("=") for item in raw.split("=>", 1)[1].split())}
                    continue
                if raw.startswith("check score =>"):
                    score_reasons = tuple(sorted(raw.split("=>", 1)[1].split()))
                    continue
                if raw.startswith(("notes =>", "error =>")):
                    checks[raw.split()[0]] = raw.split("=>", 1)[1].strip()
                    continue
                over = re.fullmatch(r"round\s*=>\s*(over|on)\s*", raw)
                if over:
                    expected.append((n, ROUND, over.group(1) == "over", ()))
                    continue
                m = re.fullmatch(r"(.+?)\s*=>\s*(legal|illegal)((?:\s+[a-z-]+)*)\s*", raw)
                assert m, f"{path.name}: {name}: expected 'MOVE => legal|illegal CODE ...', found {raw!r}"
                expected.append((n, m.group(1), m.group(2) == "legal", tuple(m.group(3).split())))
            assert houses and (expected or scores is not None or checks), f"{path.name}: {name}: a case needs house: lines and expectations"
            notes = int(checks["notes"]) if "notes" in checks else None
            cases.append(Case(path.name, name.strip(), houses, text, tuple(expected), scores, score_reasons, notes,
                              checks.get("error")))
    return cases


CASES = load()


def test_there_are_cases_under_two_bases_each() -> None:
    assert len(CASES) >= 4
    for case in CASES:
        assert len({h.split(";")[0].split("+")[0].strip() for h in case.houses}) >= 2, case.name


@pytest.mark.django_db
@pytest.mark.parametrize("case", CASES, ids=[f"{c.file}::{c.name}" for c in CASES])
def test_case(case: Case) -> None:
    rulesets = [house(h) for h in case.houses]
    if case.error is not None:
        for rs in rulesets:
            with pytest.raises(PositionError) as info:
                adjudicate(case.text, given=[rs])
            assert info.value.code.value == case.error, (rs.id, info.value)
        return
    answer = adjudicate(case.text, given=rulesets)
    for rs, spec in zip(rulesets, case.houses, strict=True):
        ruling = answer["variants"][rs.id]
        assert "error" not in ruling, (spec, ruling)
        if case.notes is not None:
            assert len(ruling["notes"]) == case.notes, (spec, ruling["notes"])
        if case.scores is not None:
            assert ruling["scores"] == case.scores, f"{case.name} under {spec}"
        if case.score_reasons is not None:
            assert ruling["check"]["move"] == "score"
            got_reasons = tuple(sorted(r["code"] for r in ruling["check"]["reasons"]))
            assert got_reasons == case.score_reasons, f"{case.name} under {spec}"
        actions = {a["move"]: a for a in ruling.get("actions", ())}
        for _n, move, legal, codes in case.expected:
            if move == ROUND:
                assert ruling["round_over"] is legal, f"{case.name} under {spec}: round_over is {ruling['round_over']}"
                continue
            assert move in actions, f"{case.name} under {spec}: {move!r} is not a candidate: {sorted(actions)}"
            got = actions[move]
            got_codes = tuple(sorted(r["code"] for r in got["reasons"]))
            assert (got["legal"], got_codes) == (legal, tuple(sorted(codes))), (
                f"{case.name} under {spec}: {move}")

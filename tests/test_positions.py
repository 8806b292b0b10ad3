"""The table-driven engine tests: every case of every file in tests/positions/."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from rules.answer import Ruling, rule, smallest_set
from rules.explain import explain
from rules.legality import legal_moves, parse_move
from rules.position import Position, PositionError
from rules.replay import implicit_done
from variants.loader import base_ids, get_ruleset

POSITIONS = Path(__file__).parent / "positions"


@dataclass(frozen=True)
class Expectation:
    variants: tuple[str, ...]
    subject: str
    expected: str
    line: int


@dataclass(frozen=True)
class Case:
    file: str
    name: str
    text: str
    expectations: tuple[Expectation, ...]

    @property
    def id(self) -> str:
        return f"{self.file}::{self.name}"


def load_cases() -> list[Case]:
    cases = []
    for path in sorted(POSITIONS.glob("*.txt")):
        lines = path.read_text(encoding="utf-8").splitlines()
        i = 0
        while i < len(lines):
            if not lines[i].startswith("=== "):
                i += 1
                continue
            name = lines[i][4:].strip()
            i += 1
            body = []
            while i < len(lines) and lines[i].strip() != "--- expect":
                body.append(lines[i])
                i += 1
            i += 1
            exps = []
            while i < len(lines) and not lines[i].startswith("=== "):
                raw = lines[i].strip()
                if raw and not raw.startswith("#"):
                    m = re.fullmatch(r"(.+?)\s*\|\s*(.+?)\s*=>\s*(.*)", raw)
                    assert m, f"{path.name}:{i + 1}: expected 'VARIANTS | SUBJECT => EXPECTED', found {raw!r}"
                    ids = tuple(base_ids()) if m.group(1).strip() == "*" else tuple(
                        v.strip() for v in m.group(1).split(","))
                    exps.append(Expectation(ids, m.group(2), m.group(3).strip(), i + 1))
                i += 1
            assert exps, f"{path.name}: case {name!r} has no expectations"
            cases.append(Case(path.name, name, "\n".join(body) + "\n", tuple(exps)))
    return cases


CASES = load_cases()


def test_there_are_cases() -> None:
    assert len(CASES) >= 20


def _verdict(reasons: tuple, expected: str, where: str) -> None:
    words = expected.split()
    legal = not any(r.blocks for r in reasons)
    assert words and words[0] in ("legal", "illegal"), f"{where}: expected 'legal' or 'illegal' first"
    codes = [r.code.value for r in reasons]
    assert legal == (words[0] == "legal"), f"{where}: judged {'legal' if legal else 'illegal'}; reasons {codes}"
    assert sorted(codes) == sorted(words[1:]), f"{where}: reasons {codes}, expected exactly {words[1:]}"


def _judge_move(ruling: Ruling, text: str) -> tuple:
    move = parse_move(ruling.state, text)
    state = implicit_done(ruling.state, move)
    return explain(state, move)


def check_expectation(case: Case, exp: Expectation) -> None:
    where = f"{case.file}:{exp.line} [{case.name}]"
    if exp.subject == "error":
        words = exp.expected.split()
        for v in exp.variants:  # each ruleset named refuses it (not only the first)
            try:
                rule(Position.parse(case.text), get_ruleset(v))
            except PositionError as refused:
                err = refused
            else:
                pytest.fail(f"{where} under {v}: judged, expected the error {words[0]!r}")
            assert err.code.value == words[0], \
                f"{where} under {v}: error code {err.code.value!r} ({err}), expected {words[0]!r}"
            for key, value in zip(words[1::2], words[2::2]):
                got = smallest_set(Position.parse(case.text), get_ruleset(v), err) if key == "smallest-set" \
                    else getattr(err, key)
                assert str(got) == value, f"{where} under {v}: {key} is {got} ({err})"
        return
    position = Position.parse(case.text)
    for ident in exp.variants:
        ruling = rule(position, get_ruleset(ident))
        w = f"{where} under {ident}"
        subject, expected = exp.subject, exp.expected
        if subject == "check" and position.score:
            words = expected.split()
            assert ruling.count is not None and words[0] == "score", f"{w}: expected 'score CODE ...' for check: score"
            codes = [r.code.value for r in ruling.count.reasons]
            assert sorted(codes) == sorted(words[1:]), f"{w}: reasons {codes}, expected exactly {words[1:]}"
        elif subject == "check":
            assert ruling.check is not None, f"{w}: the position has no check line"
            _verdict(ruling.check.reasons, expected, w)
        elif subject == "replay":
            words = expected.split()
            rep = ruling.replay
            assert ("ok" if rep.ok else "failed") == words[0], f"{w}: replay {'ok' if rep.ok else 'failed'} " + (
                f"at {rep.failed.move} line {rep.failed.line}: {[str(r) for r in rep.reasons if r.blocks]}"
                if rep.failed else "")
            assert rep.applied == int(words[1]), f"{w}: {rep.applied} moves applied"
            if not rep.ok:
                assert rep.failed is not None
                if len(words) > 3:
                    assert words[2] == "line" and rep.failed.line == int(words[3]), f"{w}: failed on line {rep.failed.line}"
                codes = [r.code.value for r in rep.reasons]
                if len(words) > 3:
                    assert sorted(codes) == sorted(words[4:]), f"{w}: reasons {codes}, expected exactly {words[4:]}"
        elif subject == "to-move":
            assert ruling.state.player == expected, f"{w}: {ruling.state.player} to move"
        elif subject == "phase":
            assert ruling.state.phase.value == expected, f"{w}: phase {ruling.state.phase.value}"
        elif subject == "open-doubles":
            got = " ".join(ruling.state.train_name(i) for i in ruling.state.open_doubles) or "-"
            assert got == expected, f"{w}: open doubles {got}"
        elif subject == "round-over":
            assert ruling.state.round_over == (expected == "yes"), f"{w}: round_over {ruling.state.round_over}"
        elif subject == "scores":
            scores = ruling.scores
            got = "none" if scores is None else " ".join(f"{p}={'-' if s is None else s}" for p, s in scores.items())
            assert got == expected, f"{w}: scores {got}"
        elif subject == "applies":
            got = " ".join(["yes" if ruling.applies else "no", *(r.code.value for r in ruling.apart)])
            assert got == expected, f"{w}: applies {got}"
        elif subject == "legal-moves":
            want = sorted(m.strip() for m in expected.split(";") if m.strip())
            got = sorted(str(m) for m in legal_moves(ruling.state))
            assert got == want, f"{w}: legal moves {got}"
        else:
            _verdict(_judge_move(ruling, subject), expected, w)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_position(case: Case) -> None:
    for exp in case.expectations:
        check_expectation(case, exp)


SPEC_CASE = Case("inline", "spec example", (
    "players: Ann Bob Cy Dee\nengine: 12-12\nAnn: 12-4 4-4 4-9 *\nBob: 12-7 7-3\nCy: ... 2-6\nDee: - *\n"
    "mexican: 12-2 2-2\nboneyard: 23\nturn: Bob\nhand: 6-4 7-7 9-2 2-11\ncheck: Bob: 6-4 -> Cy\n"), ())


@pytest.mark.parametrize("expected", [
    "illegal train-not-open ends-match",  # must-satisfy-double left out
    "illegal train-not-open must-satisfy-double ends-match mexican-open",  # a reason the engine does not give
    "illegal train-not-open train-not-open must-satisfy-double ends-match",  # given twice, given once
])
def test_an_expectation_names_exactly_the_reasons(expected: str) -> None:
    """A reason missing from a line fails it, and so does one the line does not name."""
    exact = Expectation(("howto",), "check", "illegal train-not-open must-satisfy-double ends-match", 1)
    check_expectation(SPEC_CASE, exact)
    with pytest.raises(AssertionError, match="expected exactly"):
        check_expectation(SPEC_CASE, Expectation(("howto",), "check", expected, 1))


def test_every_position_formats_and_parses_back() -> None:
    """The spec's round trip, over every position of these files that parses (``out:`` included)."""
    parsed = 0
    for case in CASES:
        try:
            position = Position.parse(case.text)
        except PositionError:
            continue
        parsed += 1
        assert Position.parse(position.format()) == position, case.id
        assert Position.parse(position.format()).format() == position.format(), case.id
    assert parsed > 100

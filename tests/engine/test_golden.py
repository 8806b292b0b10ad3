"""Golden transcripts (tests/golden/): whole rounds whose every judgement is written down.

A change of verdict, reason, rule key or wording anywhere in these rounds shows as the first
line that differs. If the change is intended, run ``make golden`` and read the diff."""

from __future__ import annotations

import pytest

from tests import golden


@pytest.mark.parametrize("ident", golden.rulesets())
def test_transcript_matches_the_golden_file(ident: str) -> None:
    want = golden.path(ident).read_text(encoding="utf-8").splitlines()
    got = golden.transcript(ident).splitlines()
    for n, (w, g) in enumerate(zip(want, got), start=1):
        assert g == w, (f"tests/golden/{ident}.txt:{n} differs\n  file:   {w}\n  engine: {g}\n"
                        "run `make golden` if the change is intended, then read the diff")
    assert len(got) == len(want), f"tests/golden/{ident}.txt has {len(want)} lines, the engine gives {len(got)}"


def test_every_ruleset_has_a_golden_file() -> None:
    files = {p.stem for p in golden.DIRECTORY.glob("*.txt")}
    assert files == set(golden.rulesets())


def test_a_changed_judgement_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison fails when one reason's wording changes."""
    from rules.reasons import ReasonCode

    ident = golden.rulesets()[0]
    monkeypatch.setattr(ReasonCode.ENDS_MATCH, "template", "{tile} fits {train}.")
    with pytest.raises(AssertionError, match="differs"):
        test_transcript_matches_the_golden_file(ident)

"""make bench: the baseline engine runs beside the working tree's, and both figures are printed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bench.baseline import Baseline, start
from bench.loadtest import TYPICAL_POSITION

ROOT = Path(__file__).resolve().parent.parent


def test_the_baseline_worker_runs_the_baseline_engine() -> None:
    baseline = start()
    if not isinstance(baseline, Baseline):
        pytest.skip(f"no baseline here: {baseline}")
    try:
        played = baseline.ask(do="selfplay", ruleset="masters", rounds=2, seed=0)
        assert played["seconds"] > 0 and len(played["scores"]) == 2 and played["moves"] > 0
        judged = baseline.ask(do="judge", text=TYPICAL_POSITION, rulesets=["howto", "cardinal"], n=2)
        assert judged["seconds"] > 0
        # it imports the baseline's own engine, not the working tree's
        assert not (baseline.folder / "rules" / "legality.py").exists()
    finally:
        baseline.close()
    assert not baseline.folder.exists()


@pytest.mark.slow
def test_bench_prints_both_engines_side_by_side() -> None:
    out = subprocess.run([sys.executable, "-m", "bench", "--rounds", "1", "--repeats", "1", "--unchecked",
                          "--calls", "1"], capture_output=True, text=True, check=True, cwd=ROOT, timeout=300)
    assert "baseline (today's engine): commit" in out.stdout
    for ident in ("howto", "gamerules", "masters", "cardinal"):
        assert f"   {ident}" in out.stdout
    assert "judge: replay, check and a verdict on every candidate" in out.stdout

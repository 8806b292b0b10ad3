"""bench.selfplay (part of make bench): self-play beside issue 26's baseline, the strategies'
cost, and a statistics job shared by two worker processes whose merged tally equals one process's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from scripts import build_native

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_bench_selfplay_prints_every_part() -> None:
    out = subprocess.run([sys.executable, "-m", "bench.selfplay", "--rounds", "1", "--repeats", "1",
                          "--strategy-games", "1", "--games", "4", "--verify"],
                         capture_output=True, text=True, check=True, cwd=ROOT, timeout=600)
    assert "1c. unchecked self-play beside commit d35db61" in out.stdout
    assert "   all " in out.stdout or "baseline not available" in out.stdout
    assert "1 planner + 3 random" in out.stdout and "x random's cost" in out.stdout
    assert "merged == one process's tally: yes" in out.stdout
    runs = "compiled with mypyc" if build_native.extensions() else "Python source (no native build)"
    assert out.stdout.count(runs) == 3  # each part says which self-play it ran

"""Today's engine, measured beside the new one: the engine of a baseline commit, run from its own
source in a subprocess, so that ``make bench`` compares them side by side in one run.

:func:`start` extracts ``rules/`` and ``variants/`` of :data:`BASELINE` (``git archive``) into a
temporary folder and starts :data:`WORKER` there, with that folder first on ``sys.path``: it
imports the baseline's engine and nothing of the working tree. The worker answers one JSON
command a line (self-play rounds, judging a position) with the time taken, measured inside it,
so that starting a process is never counted. Without git or the commit (a shallow clone), the
baseline is unavailable and the bench says so.
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "08eca89"
"""The commit whose figures issue 8 calls today's: 176-212 rounds/s, 1.7-1.9 ms."""
SELFPLAY_BASELINE = "4f3798a"
"""The commit whose self-play issue 23 calls today's: 42-53 rounds/s checked, 1,400-1,600 unchecked."""
STATS_BASELINE = "d35db61"
"""The commit whose unchecked self-play issue 26 calls today's (1,400-1,600 rounds/s): the
statistics' self-play is measured beside it (bench/selfplay.py)."""

WORKER = r'''
import json, random, sys, time
from rules.answer import answer, rule
from rules.position import Position
from rules.simulate import NAMES, play_round
from variants.loader import get_ruleset

for line in sys.stdin:
    cmd = json.loads(line)
    if cmd["do"] == "selfplay":
        rs = get_ruleset(cmd["ruleset"])
        t = time.process_time()
        logs = [play_round(rs, NAMES[:4], 1, random.Random(seed), check=cmd.get("check", False), set_max=12)
                for seed in range(cmd["seed"], cmd["seed"] + cmd["rounds"])]
        seconds = time.process_time() - t
        out = {"seconds": seconds, "scores": [log.scores for log in logs],
               "moves": sum(len(log.position.moves) for log in logs)}
    else:
        position = Position.parse(cmd["text"])
        rulesets = [get_ruleset(i) for i in cmd["rulesets"]]
        t = time.process_time()
        for _ in range(cmd["n"]):
            if cmd["do"] == "judge":
                for rs in rulesets:
                    rule(position, rs)
            else:
                answer(position, rulesets)
        out = {"seconds": (time.process_time() - t) / cmd["n"]}
    print(json.dumps(out), flush=True)
'''


class Baseline:
    """The baseline engine in a subprocess; :meth:`ask` sends one command and reads its answer."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.proc = subprocess.Popen([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(folder)!r})\n" + WORKER],
                                     cwd=folder, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, **command: Any) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(command) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the baseline worker stopped (exit status {self.proc.wait()})")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)
        shutil.rmtree(self.folder, ignore_errors=True)


def start(commit: str = BASELINE) -> Baseline | str:
    """The baseline worker, or why it is not available."""
    git = shutil.which("git")
    if git is None:
        return "git is not installed"
    done = subprocess.run([git, "archive", commit, "rules", "variants"], cwd=ROOT, capture_output=True)
    if done.returncode != 0:
        return f"commit {commit} is not in this clone ({done.stderr.decode(errors='replace').strip()})"
    folder = Path(tempfile.mkdtemp(prefix="mextrain-baseline-"))
    with tarfile.open(fileobj=io.BytesIO(done.stdout)) as tar:
        if hasattr(tarfile, "data_filter"):  # Python 3.11.4 and later
            tar.extractall(folder, filter="data")
        else:  # git's own archive of this repository
            tar.extractall(folder)  # noqa: S202
    return Baseline(folder)

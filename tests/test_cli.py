"""The CLI: `manage.py adjudicate` and `manage.py check`, run as real processes."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.examples import SPEC_EXAMPLE

ROOT = Path(__file__).resolve().parent.parent


def manage(*args: str, stdin: str | None = None, cwd: Path = ROOT, env: dict[str, str] | None = None
           ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(cwd / "manage.py"), *args], input=stdin, capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=120)


def test_json_answer_from_stdin() -> None:
    out = manage("adjudicate", "-", "--json", stdin=SPEC_EXAMPLE)
    assert out.returncode == 0, out.stderr
    answer = json.loads(out.stdout)
    assert list(answer["variants"]) == ["howto", "gamerules", "masters", "cardinal"]
    howto = answer["variants"]["howto"]
    assert howto["replay"] == {"ok": True, "moves_applied": 0}
    assert howto["to_move"] == "Bob"
    assert howto["check"]["move"] == "Bob: 6-4 -> Cy" and howto["check"]["legal"] is False
    codes = {r["code"] for r in howto["check"]["reasons"]}
    assert {"train-not-open", "must-satisfy-double"} <= codes
    rules = {r["rule"] for r in howto["check"]["reasons"]}
    assert rules <= set(howto["rules"])
    cited = [c for key in rules for c in howto["rules"][key]["citations"]]
    assert cited and all(c["seed"].endswith(".txt") and c["quote"] for c in cited)
    assert howto["round_over"] is False and howto["scores"] is None
    legal = [a["move"] for a in howto["actions"] if a["legal"]]
    assert legal == ["Bob: 9-2 -> mexican", "Bob: 11-2 -> mexican"]


def test_variant_option_overrides_the_file(tmp_path: Path) -> None:
    f = tmp_path / "p.txt"
    f.write_text("variant: howto\n" + SPEC_EXAMPLE, encoding="utf-8")
    out = manage("adjudicate", str(f), "--json", "--variant", "masters+mandatory-doubles", "--variant", "cardinal")
    assert out.returncode == 0, out.stderr
    assert list(json.loads(out.stdout)["variants"]) == ["masters+mandatory-doubles", "cardinal"]
    out = manage("adjudicate", str(f), "--json")
    assert list(json.loads(out.stdout)["variants"]) == ["howto"]


def test_detail_check_leaves_the_actions_out() -> None:
    out = manage("adjudicate", "-", "--json", "--detail", "check", "--variant", "howto", stdin=SPEC_EXAMPLE)
    assert out.returncode == 0, out.stderr
    howto = json.loads(out.stdout)["variants"]["howto"]
    assert "actions" not in howto and howto["check"]["legal"] is False
    out = manage("adjudicate", "-", "--detail", "brief", stdin=SPEC_EXAMPLE)
    assert out.returncode == 2 and "invalid choice: 'brief'" in out.stderr


def test_check_score_table() -> None:
    out = manage("adjudicate", "-", "--variant", "howto", "--variant", "masters",
                 stdin="players: Ann Bob\nhand Bob: 0-0 12-11\ncheck: score\n")
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("SCORES Bob ") == 2
    assert "SCORES Bob 73" in out.stdout and "SCORES Bob 23" in out.stdout
    assert "+ double-blank-counts: Bob holds the double-blank, which counts 50 under this ruleset." in out.stdout


def test_readable_table() -> None:
    out = manage("adjudicate", "-", stdin=SPEC_EXAMPLE)
    assert out.returncode == 0
    assert "== masters" in out.stdout
    assert "CHECK Bob: 6-4 -> Cy: ILLEGAL" in out.stdout
    assert "Bob: 9-2 -> mexican" in out.stdout


@pytest.mark.parametrize(
    "text,message",
    [
        ("players: Ann Bob\nengine: 12\nturn: Ann\nhand: 6x4\n",
         "error: line 4, column 7: expected a tile like 6-4, found '6x4'\n"),
        ("variant: spruce\nplayers: Ann Bob\nengine: 12\nturn: Ann\n",
         "error: line 1, column 10: unknown variant 'spruce'; known variants: cardinal, gamerules, howto, masters\n"),
        ("players: Ann Bob\nengine: 12\nturn: Ann\nhand: 12-12\n",
         "error: line 4: 12-12 appears twice: in the engine (line 2) and in Ann's hand\n"),
    ],
)
def test_bad_input_exits_2_with_the_message_on_stderr(text: str, message: str) -> None:
    out = manage("adjudicate", "-", "--json", stdin=text)
    assert out.returncode == 2
    assert out.stdout == ""
    assert out.stderr == message


def test_unreadable_file_and_bad_encoding(tmp_path: Path) -> None:
    out = manage("adjudicate", str(tmp_path / "missing.txt"))
    assert out.returncode == 2 and out.stderr.startswith("error: cannot read") and "Traceback" not in out.stderr
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"players: Ann \xff\n")
    out = manage("adjudicate", str(bad))
    assert out.returncode == 2 and "is not UTF-8 text" in out.stderr


def test_check_reports_a_broken_ruleset(tmp_path: Path) -> None:
    """`manage.py check` on a copy of the project whose masters.yaml is broken."""
    copy = tmp_path / "project"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".venv", ".git", "test-artifacts", "*.sqlite3",
                                                              "node_modules", "__pycache__"))
    path = copy / "variants" / "masters.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("    value: highest-held", "    value: lowest-held", 1), encoding="utf-8")
    line = text[: text.index("    value: highest-held")].count("\n") + 1
    env = {**os.environ, "PYTHONPATH": str(copy)}
    out = manage("check", cwd=copy, env=env)
    assert out.returncode != 0
    assert (f"mextrain.E001) variants/masters.yaml:{line}: rules.engine.tile.value: expected one of "
            "'round-double', 'highest-held', 'set-highest'; found 'lowest-held'") in out.stderr
    assert manage("check").returncode == 0


@pytest.mark.parametrize("line", ["boneyard: ²", "round: ①", "boneyard: " + "9" * 4301, "variant: " + "a" * 251,
                                  "hand: ٣-٤", "engine: ₀"])
def test_strict_input_exits_2_with_one_line(line: str) -> None:
    """Issue 7: each of these was a traceback and exit 1."""
    text = SPEC_EXAMPLE.replace("boneyard: 23\n", "").replace("engine: 12-12\n", "") + line + "\n"
    if not line.startswith("engine"):
        text = "engine: 12-12\n" + text
    out = manage("adjudicate", "-", stdin=text)
    assert out.returncode == 2, out.stderr
    assert out.stderr.startswith("error: line ") and out.stderr.count("\n") == 1, out.stderr
    assert "Traceback" not in out.stderr and out.stdout == ""


def test_an_overlong_variant_option_exits_2() -> None:
    out = manage("adjudicate", "-", "--variant", "a" * 300, stdin=SPEC_EXAMPLE)
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "unknown variant" in out.stderr

"""The CLI: `manage.py adjudicate`, `manage.py check` and `manage.py simulate --rules`, run as real processes."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rules.moves import Action
from rules.position import Position
from rules.replay import replay
from rules.transitions import build
from tests.examples import SPEC_EXAMPLE
from variants import house as hs
from variants.schema import house_from_data

pytestmark = pytest.mark.slow  # the command line as real processes: make test, not make test-fast

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
                 stdin="players: Ann Bob Cy Dee\nhand Bob: 0-0 12-11\ncheck: score\n")
    assert out.returncode == 0, out.stderr
    # every player is listed: a hand the position does not give is named so, not left out
    assert out.stdout.count("SCORES Ann hand not given, Bob ") == 2
    assert "Bob 73, Cy hand not given, Dee hand not given" in out.stdout and "Bob 23, Cy" in out.stdout
    assert "+ hand-not-given: Cy's hand is not given, so it is not counted." in out.stdout
    assert "+ double-blank-counts: Bob holds the double-blank, which counts 50 under this ruleset." in out.stdout


def test_out_and_a_ruleset_set_apart_in_the_table() -> None:
    out = manage("adjudicate", "-", "--variant", "cardinal",
                 stdin="players: Ann Bob Cy\nhand Bob: 0-0 9-1\nout: Ann\ncheck: score\n")
    assert out.returncode == 0, out.stderr
    assert "set apart: Cardinal Games is for 4 to 10 players; this position has 3." in out.stdout
    assert "SCORES Ann 0, Bob 10, Cy hand not given" in out.stdout


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


# --- manage.py simulate --rules HOUSE.yaml: self-play under a house ruleset file, offline ---

HOUSE_RULES = {"turn.cannot_play": "marker-no-draw", "rounds.count": 2, "scoring.marker_penalty": 10}
"""Rules whose effects show in the output: no draw in any log, a whole game of two rounds."""


def simulate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "manage.py"), "simulate", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=300)


def offline(tmp_path: Path) -> dict[str, str]:
    """An environment whose database is a file of its own: no house ruleset stored there."""
    return {"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "mextrain_site.settings",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'none.sqlite3'}"}


@pytest.fixture
def house_file(tmp_path: Path) -> tuple[Path, str]:
    """A house ruleset file as the site serves it at /h/<id>.yaml (variants.house.to_yaml), and its id."""
    house = hs.check(house_from_data("masters+mandatory-doubles", "Kitchen table", HOUSE_RULES))
    path = tmp_path / "ours.yaml"
    path.write_text(hs.to_yaml(hs.build(house)), encoding="utf-8")
    return path, house.id


def test_simulate_plays_a_whole_game_under_a_house_file_and_its_log_replays(
        tmp_path: Path, house_file: tuple[Path, str]) -> None:
    path, ident = house_file
    log = tmp_path / "game.txt"
    out = simulate("--rules", str(path), "--players", "3", "--seed", "5", "--log", str(log))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert [ln.split(":")[0] for ln in lines] == ["round 1", "round 2", "totals", "winner"]  # rounds.count: 2
    rounds = log.read_text(encoding="utf-8").split("# round ")[1:]
    assert len(rounds) == 2
    ruleset = hs.from_file(path.read_text(encoding="utf-8"), str(path))
    for n, text in enumerate(rounds, 1):
        text = "# round " + text
        assert f"--rules {path}" in text.splitlines()[1]
        position = Position.parse(text)
        assert position.variant == ident and position.round == n and position.moves
        assert not any(m.move.action is Action.DRAW for m in position.moves)  # turn.cannot_play: marker-no-draw
        assert replay(build(position, ruleset), position.moves).ok
        # the log replays offline through the other CLI, to the scores self-play printed
        round_file = tmp_path / f"round{n}.txt"
        round_file.write_text(text, encoding="utf-8")
        judged = subprocess.run([sys.executable, str(ROOT / "manage.py"), "adjudicate", str(round_file), "--rules",
                                 str(path), "--json"], capture_output=True, text=True, cwd=ROOT, env=offline(tmp_path),
                                timeout=120)
        assert judged.returncode == 0, judged.stderr
        ruling = json.loads(judged.stdout)["variants"][ident]
        assert ruling["replay"] == {"ok": True, "moves_applied": len(position.moves)}
        assert ruling["round_over"] is True
        printed = lines[n - 1].split(": ", 1)[1].split("  (")[0]
        assert ", ".join(f"{p} {s}" for p, s in ruling["scores"].items()) == printed


def test_simulate_plays_several_games_under_a_house_file(house_file: tuple[Path, str]) -> None:
    path, ident = house_file
    out = simulate("--rules", str(path), "--players", "4", "--set", "double-12", "--rounds", "1", "--games", "2",
                   "--seed", "3")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert [ln.split(":")[0] for ln in lines[:2]] == ["game 3", "game 4"]
    assert lines[-1].startswith("2 games, 2 rounds, ") and lines[-1].endswith("every invariant held")


BAD_HOUSE = [
    ("missing", None, "error: cannot read '{file}': No such file or directory"),
    ("yaml", "title: x\nbase: [\n", "error: {file}:3: (top): expected valid YAML; found did not find expected node content"),
    ("schema", "cannot_play:\n    value: marker-no-draw|cannot_play:\n    value: nope",
     "error: {file}:{line}: rules.turn.cannot_play.value: expected one of 'draw-one', 'marker-no-draw', "
     "'draw-until-playable'; found 'nope'"),
    ("base", "base: masters+mandatory-doubles|base: spruce",
     "error: {file}:{line}: base: unknown variant 'spruce'; known variants: cardinal, gamerules, howto, masters"),
    ("combination", "title: Impossible\nbase: masters+mandatory-doubles\nrules:\n  markers.removed:\n"
     "    value: owner-plays-any-tile\n    status: house\n    cite: []\n  markers.placed:\n"
     "    value: when-own-train-unplayable\n    status: house\n    cite: []\n",
     "error: {file}:5: rules.markers.removed: expected a marker that stays down when its owner plays elsewhere "
     "(markers.placed 'when-own-train-unplayable' puts it down on that very play): use markers.removed "
     "'owner-plays-own-train' or markers.placed 'on-pass'; found markers.removed 'owner-plays-any-tile'"),
]


@pytest.mark.parametrize(("case", "edit", "message"), BAD_HOUSE, ids=[c[0] for c in BAD_HOUSE])
def test_simulate_refuses_a_bad_house_file_in_one_line(tmp_path: Path, house_file: tuple[Path, str], case: str,
                                                       edit: str | None, message: str) -> None:
    path, _ = house_file
    bad = tmp_path / "bad.yaml"
    line = 0
    if edit is not None and "|" in edit:
        old, new = edit.split("|")
        text = path.read_text(encoding="utf-8")
        assert old in text
        changed = text.replace(old, new, 1)
        line = next(n for n, (a, b) in enumerate(zip(text.splitlines(), changed.splitlines()), 1) if a != b)
        bad.write_text(changed, encoding="utf-8")
    elif edit is not None:
        bad.write_text(edit, encoding="utf-8")
    out = simulate("--rules", str(bad), "--players", "3")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == message.format(file=bad, line=line) + "\n"


def test_simulate_takes_exactly_one_ruleset_and_refuses_an_impossible_plan(house_file: tuple[Path, str]) -> None:
    path, ident = house_file
    for args in (("--rules", str(path), "--variant", "howto"), ()):
        out = simulate(*args)
        assert out.returncode == 2 and "Traceback" not in out.stderr
        assert out.stderr.splitlines()[-1].endswith(("not allowed with argument --rules",
                                                     "one of the arguments --variant --rules is required"))
    out = simulate("--rules", str(path), "--players", "3", "--rounds", "3")
    assert out.returncode == 2 and out.stderr == f"error: round 3 does not exist: a {ident} game has 2 rounds\n"

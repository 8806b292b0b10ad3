"""Apps depend downwards, and every bad input is one family: checked on the source itself."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mextrain_site.core.charsets import CharsetError
from mextrain_site.core.limits import Limit, OverLimit
from mextrain_site.core.rulesets import resolve
from mextrain_site.referee.building import EditError
from rules.deal import DealError
from rules.errors import ErrorCode, InputError
from rules.moves import MoveSyntaxError
from variants.loader import RulesetError
from variants.schema import RulesetFileError, YamlSyntaxError

SITE = Path(__file__).resolve().parent.parent / "mextrain_site"
APPS = ("core", "referee", "reference", "api", "house", "game", "stats")
BELOW = {"core": set(), "referee": {"core", "reference"}, "reference": {"core"}, "api": {"core"},
         "house": {"core", "reference"}, "game": {"core", "referee", "reference"}, "stats": {"core"}}
"""What each app may import: the apps below it."""


def _imports(path: Path) -> list[tuple[str, bool]]:
    """(module imported, whether the import is inside a function) for each import in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nested = {id(n) for f in ast.walk(tree) if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
              for n in ast.walk(f) if n is not f}
    package = ".".join(path.relative_to(SITE.parent).with_suffix("").parts[:-1])
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, id(node) in nested) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(p for p in (base, node.module or "") if p)
            out.append((module, id(node) in nested))
    return out


@pytest.mark.parametrize("app", APPS)
def test_an_app_imports_only_the_apps_below_it(app: str) -> None:
    for path in sorted((SITE / app).rglob("*.py")):
        for module, deferred in _imports(path):
            parts = module.split(".")
            if parts[0] != "mextrain_site" or len(parts) < 2 or parts[1] not in APPS or parts[1] == app:
                continue
            assert parts[1] in BELOW[app], f"{path.relative_to(SITE)} imports {module}"
            assert not deferred or path.name == "apps.py", f"{path.relative_to(SITE)} defers importing {module}"


def test_a_house_id_resolves_through_core_once_the_house_app_has_loaded(db: None) -> None:
    with pytest.raises(RulesetError) as info:
        resolve("house-aaaaaaaaaaaa")
    assert info.value.code is ErrorCode.UNKNOWN_VARIANT and "no house ruleset" in str(info.value)
    assert resolve(" masters ").id == "masters"


@pytest.mark.parametrize(("error", "code"), [
    (RulesetFileError("f.yaml", 3, "rules.x", "a", "b"), ErrorCode.IMPOSSIBLE_RULESET),
    (YamlSyntaxError("f.yaml", 3, 4, "bad"), ErrorCode.IMPOSSIBLE_RULESET),
    (MoveSyntaxError("expected a move", 2), ErrorCode.SYNTAX),
    (DealError("no hand size"), ErrorCode.IMPOSSIBLE),
    (EditError("unknown edit"), ErrorCode.FORM),
    (CharsetError("unknown charset"), ErrorCode.ENCODING),
    (OverLimit(Limit.RATE, 5, "10/m"), ErrorCode.RATE_LIMITED),
    (OverLimit(Limit.QUOTA, 5, "100"), ErrorCode.QUOTA_EXCEEDED),
])
def test_every_bad_input_is_an_input_error_with_a_code(error: InputError, code: ErrorCode) -> None:
    assert isinstance(error, InputError) and error.code is code and str(error)
    assert error.as_dict()["code"] == code.value


def test_a_ruleset_file_error_keeps_its_message_and_answers_the_reason_for_data() -> None:
    in_file = RulesetFileError("f.yaml", 3, "rules.x", "a", "b")
    assert str(in_file) == "f.yaml:3: rules.x: expected a; found b" and in_file.line == 3
    in_data = RulesetFileError("request", 0, "rules.x", "a", "b")
    assert in_data.as_dict() == {"code": "impossible-ruleset", "message": "rules.x: expected a; found b",
                                 "line": None, "column": None}


def test_matplotlib_is_imported_with_the_first_picture_not_with_the_urls() -> None:
    """Loading the site (what every server worker, command and task worker does) leaves matplotlib out:
    it was most of the URLs' import time. The first picture brings it in."""
    script = ("import os, sys, django; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'mextrain_site.settings'); "
              "django.setup(); import mextrain_site.urls; print('matplotlib' in sys.modules); "
              "from mextrain_site.core.svg import figure, svg; drawn = figure(figsize=(1, 1)); drawn.add_subplot(); "
              "print('matplotlib' in sys.modules, svg(drawn).startswith(b'<?xml'))")
    out = subprocess.run([sys.executable, "-c", script], cwd=SITE.parent, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True", "True"], out.stdout + out.stderr


@pytest.mark.slow
@pytest.mark.parametrize("broker", ["redis://127.0.0.1:9/0", "none"])
def test_a_server_with_a_broker_loads_the_celery_app_before_its_first_request(broker: str) -> None:
    """``wsgi.py`` with a broker configured: the Celery app and its task are loaded with the server, not by
    the first statistics job (0.2-0.3 s of that request), and nothing connects to the broker (port 9
    answers nothing). Without a broker (the embedded thread) Celery is not even imported."""
    script = ("import sys, mextrain_site.wsgi; loaded = 'mextrain_site.celery' in sys.modules; print(loaded); "
              "from mextrain_site.stats.queue import TASK; "
              "print(loaded and TASK in sys.modules['mextrain_site.celery'].app.tasks)")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "REDIS_URL", "STATS_"))}
    env.update(DJANGO_SETTINGS_MODULE="mextrain_site.settings", STATS_BROKER_URL=broker)
    out = subprocess.run([sys.executable, "-c", script], cwd=SITE.parent, env=env, capture_output=True, text=True,
                         check=True, timeout=60)
    expected = ["True", "True"] if broker != "none" else ["False", "False"]
    assert out.stdout.split() == expected, out.stdout + out.stderr

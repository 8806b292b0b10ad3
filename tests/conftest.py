"""Shared fixtures. Browser tests drive the system Chromium (/usr/bin/chromium) through
Playwright; `playwright install` is never needed (their own fixtures: tests/browser/conftest.py).

The suite runs in parallel (``make test``: pytest-xdist, ``--dist loadscope``, scheduled by
:func:`work_unit`). Every test file runs whole on one worker, so its module fixtures (a production stack, a gunicorn) start once, on one worker;
the browser tests and the modules in :data:`SPREAD` are spread test by test instead (their costly
fixtures are per session and each worker has its own: a Chromium, a live server). What is per worker
by construction: the test database (pytest-django names it ``test_<name>_gw0`` ...; SQLite's is in
memory), the PostgreSQL reruns' databases (tests/on_postgres.py), every server's port (free ports
from the kernel, never a fixed one) and every temporary folder (``tmp_path``). A file a test writes
in test-artifacts/ must be named after the test (its parameters included), never shared."""

from __future__ import annotations

import os
import shutil
import sys
from collections import OrderedDict
from pathlib import Path
from typing import Any

import pytest

from scripts import build_native

# Playwright's sync API runs an event loop in the test thread; Django's ORM would refuse it.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ROOT = Path(__file__).resolve().parent
ARTIFACTS = ROOT.parent / "test-artifacts"
CHROMIUM = os.environ.get("MEXTRAIN_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


SPREAD = frozenset({
    "tests/api/test_answer_bytes.py",
    "tests/engine/test_selfplay.py",
    "tests/house/test_house_selfplay.py",
    "tests/reference/test_no_english.py",
    "tests/reference/test_reference_views.py",
    "tests/test_cli.py",
})
"""Heavy modules without costly module fixtures: spread over the workers test by test."""

COSTS: tuple[tuple[str, float], ...] = (
    ("tests/browser/test_referee_player.py::test_every_page_passes_every_check", 30),
    ("tests/api/test_api_loadtest.py::test_a_short_real_run", 30),
    ("tests/reference/test_no_english.py", 15),
    ("tests/api/test_answer_bytes.py", 10),
    ("tests/test_bench.py", 10),
    ("tests/game/test_game_stack.py", 10),
    ("tests/test_stack.py", 5),
    ("tests/test_deploy.py", 5),
    ("tests/web/test_building.py", 5),
    ("tests/browser/", 4),
    ("tests/house/test_house_selfplay.py", 3),
    ("tests/test_cli.py", 2),
    ("tests/engine/test_selfplay.py", 1),
)
"""Rough seconds a test takes on a quiet machine, by the start of its id (the first match counts; any
other test: :data:`DEFAULT_COST`; a test ending in ``_postgresql``: :data:`POSTGRES_COST`). Only the order
matters: the scheduler hands out the heaviest work units first, so that no long test starts last and
keeps one worker running alone at the end. A new test of more than a few seconds belongs here."""
DEFAULT_COST = 0.1
POSTGRES_COST = 15.0


def _native() -> str:
    """The self-play compiled with mypyc (scripts/build_native.py) runs only if built from today's
    sources: stale extensions are removed here, before a test imports them, and the pure modules run."""
    if not build_native.stale():
        return "compiled with mypyc" if build_native.extensions() else "pure Python (no native build)"
    loaded = [name for name in build_native.NAMES if name in sys.modules]
    if loaded:
        pytest.exit(f"stale compiled modules already imported ({', '.join(loaded)}): run make native", 4)
    build_native.clean()
    return "pure Python: the compiled modules were older than the sources and were removed (make native builds them)"


NATIVE = _native()


def pytest_report_header() -> str:
    return f"statistics self-play: {NATIVE}"


def cost(nodeid: str) -> float:
    """A test's rough cost (:data:`COSTS`)."""
    if nodeid.split("[", 1)[0].endswith("_postgresql"):
        return POSTGRES_COST
    return next((seconds for prefix, seconds in COSTS if nodeid.startswith(prefix)), DEFAULT_COST)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test under tests/browser/ is a browser test."""
    browser_dir = ROOT / "browser"
    for item in items:
        if browser_dir in Path(str(item.path)).parents:
            item.add_marker(pytest.mark.browser)


def work_unit(nodeid: str) -> str:
    """What one worker runs together: a whole test file, but a browser test or a test of a module in
    :data:`SPREAD` alone."""
    module = nodeid.split("::", 1)[0]
    return nodeid if module.startswith("tests/browser/") or module in SPREAD else module


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadscope`` by :func:`work_unit`, the heaviest unit first (:func:`cost`). (pytest-xdist 3.8's ``loadgroup`` cannot be used: it
    renames the tests through an attribute pytest 9 no longer reads, so its groups are ignored.)"""
    if config.getvalue("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class HeaviestFirst(OrderedDict[str, dict[str, bool]]):
        """The work queue: hands out its heaviest unit first (longest processing time first)."""

        weights: dict[str, float] = {}

        def weight(self, unit: str) -> float:
            if unit not in self.weights:
                self.weights[unit] = sum(map(cost, self[unit]))
            return self.weights[unit]

        def popitem(self, last: bool = True) -> tuple[str, dict[str, bool]]:
            scope = max(self, key=self.weight)
            return scope, self.pop(scope)

    class ByWorkUnit(LoadScopeScheduling):
        def __init__(self, config: pytest.Config, log: Any = None) -> None:
            super().__init__(config, log)
            self.workqueue = HeaviestFirst()

        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

    return ByWorkUnit(config, log)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: install the Debian package 'chromium' (make test does)")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
        ],
    }


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Folder for screenshots (git-ignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(autouse=True)
def _english_by_default() -> Any:
    """Each test starts in English: a request through LocaleMiddleware leaves its language
    active in the thread, which would leak into the next test."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _rate_limits(request: pytest.FixtureRequest) -> Any:
    """Rate limits and quotas count only in tests marked ``ratelimit`` (the others judge hundreds of
    positions a second from one address); every test starts with an empty cache."""
    from django.core.cache import cache
    from django.test import override_settings

    cache.clear()
    with override_settings(RATELIMIT_ENABLE=request.node.get_closest_marker("ratelimit") is not None):
        yield

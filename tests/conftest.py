"""Shared fixtures. Browser tests drive the system Chromium (/usr/bin/chromium) through
Playwright; `playwright install` is never needed."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

# Playwright's sync API runs an event loop in the test thread; Django's ORM would refuse it.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
CHROMIUM = os.environ.get("MEXTRAIN_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


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

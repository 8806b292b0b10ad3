"""Each test starts with no house ruleset remembered by the process (the test database is emptied
between tests; in production a stored row never changes, so the process keeps what it read)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from mextrain_site.house.rulesets import forget


@pytest.fixture(autouse=True)
def _forget_house_rulesets() -> Iterator[None]:
    forget()
    yield
    forget()

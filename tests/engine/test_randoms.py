"""rules.randoms draws the numbers Python's own Random.shuffle and Random.choice draw."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType

import pytest

from rules import randoms as imported


def _source() -> ModuleType:
    """rules/randoms.py run from its source, beside the module imported (compiled where built)."""
    spec = importlib.util.spec_from_file_location("randoms_source", Path(imported.__file__).with_name("randoms.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(params=["imported", "source"])
def randoms(request: pytest.FixtureRequest) -> ModuleType:
    return imported if request.param == "imported" else _source()


@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 28, 55, 91, 190])
def test_shuffle_orders_as_random_shuffle(randoms: ModuleType, size: int) -> None:
    for seed in range(40):
        ours, theirs = random.Random(f"{seed}:{size}"), random.Random(f"{seed}:{size}")
        mine, stdlib = list(range(size)), list(range(size))
        randoms.shuffle(ours, mine)
        theirs.shuffle(stdlib)
        assert mine == stdlib
        assert ours.getstate() == theirs.getstate()  # the same numbers drawn, no more


def test_choice_chooses_as_random_choice(randoms: ModuleType) -> None:
    ours, theirs = random.Random(26), random.Random(26)
    for size in [*range(1, 70), 127, 128, 129, 1000] * 20:
        options = tuple(range(size))
        assert randoms.choice(ours, options) == theirs.choice(options)
    assert ours.getstate() == theirs.getstate()
    with pytest.raises(IndexError):
        randoms.choice(ours, ())


class _Reversed(random.Random):
    """A generator of its own kind, which shuffles and chooses otherwise."""

    def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
        x.reverse()

    def choice(self, seq: object) -> object:  # type: ignore[override]
        return "its own"


def test_another_kind_of_generator_shuffles_and_chooses_itself(randoms: ModuleType) -> None:
    x = [1, 2, 3]
    randoms.shuffle(_Reversed(1), x)
    assert x == [3, 2, 1]
    assert randoms.choice(_Reversed(1), (1, 2)) == "its own"

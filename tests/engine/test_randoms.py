"""rules.randoms draws the numbers Python's own Random.shuffle and Random.choice draw."""

from __future__ import annotations

import random

import pytest

from rules import randoms


@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 28, 55, 91, 190])
def test_shuffle_orders_as_random_shuffle(size: int) -> None:
    for seed in range(40):
        ours, theirs = random.Random(f"{seed}:{size}"), random.Random(f"{seed}:{size}")
        mine, stdlib = list(range(size)), list(range(size))
        randoms.shuffle(ours, mine)
        theirs.shuffle(stdlib)
        assert mine == stdlib
        assert ours.getstate() == theirs.getstate()  # the same numbers drawn, no more


def test_choice_chooses_as_random_choice() -> None:
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


def test_another_kind_of_generator_shuffles_and_chooses_itself() -> None:
    x = [1, 2, 3]
    randoms.shuffle(_Reversed(1), x)
    assert x == [3, 2, 1]
    assert randoms.choice(_Reversed(1), (1, 2)) == "its own"

"""``Random.shuffle`` and ``Random.choice`` drawing exactly the numbers Python 3.11's own do, at C
speed when compiled with mypyc (scripts/build_native.py).

Self-play shuffles a set for every round and chooses among the legal moves on every random
player's move; the standard library does both in Python, a method call per number. These are the
same loops over the same ``getrandbits`` calls (``Random._randbelow_with_getrandbits``: the bits of
``n``, drawn again while the number is not below ``n``), so a seeded game is the same game either
way (tests/engine/test_randoms.py compares them). A generator that is not exactly a
``random.Random`` (a subclass may draw otherwise) is asked to shuffle or choose itself.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def below(rng: random.Random, n: int) -> int:
    """``rng._randbelow(n)`` for ``n > 0``: a number from 0 to n - 1."""
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def shuffle(rng: random.Random, x: list[T]) -> None:
    """``rng.shuffle(x)``: the same order for the same state of ``rng``."""
    if type(rng) is not random.Random:
        rng.shuffle(x)
        return
    for i in range(len(x) - 1, 0, -1):
        j = below(rng, i + 1)
        x[i], x[j] = x[j], x[i]


def choice(rng: random.Random, seq: Sequence[T]) -> T:
    """``rng.choice(seq)``: the same element for the same state of ``rng``."""
    if type(rng) is not random.Random:
        return rng.choice(seq)
    if not seq:
        raise IndexError("Cannot choose from an empty sequence")
    return seq[below(rng, len(seq))]

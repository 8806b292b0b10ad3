"""The spec's worked example ("Bob claims he may play 6-4 on Cy's train"), kept once in
tests/positions/basics.txt and read from there by the tests that build on it."""

from __future__ import annotations

from pathlib import Path

_BASICS = (Path(__file__).parent / "positions" / "basics.txt").read_text(encoding="utf-8")
SPEC_EXAMPLE = _BASICS.split("=== spec example\n", 1)[1].split("--- expect", 1)[0]
"""The position text only, from 'players:' to its 'check:' line."""

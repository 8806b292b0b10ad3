"""The published rulesets' figures, computed by ``manage.py publish_stats`` (``make stats``) and
shipped in ``published.json`` beside this module, so that a fresh ``make run`` shows them at once:
a question the file answers is stored as a finished job when first asked (:func:`.jobs.ask`).

The file also holds a fingerprint of the engine: one small chunk of games and its tally. The suite
plays that chunk again (tests/stats/test_published.py); when the engine plays differently, the
tallies differ and the file is stale: ``make stats`` writes it again.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import orjson

FILE = Path(__file__).resolve().with_name("published.json")


@functools.cache
def load() -> dict[str, Any]:
    """The file's content (an empty list of figures when it is not there)."""
    try:
        data: dict[str, Any] = orjson.loads(FILE.read_bytes())
    except FileNotFoundError:
        return {"figures": [], "fingerprint": None}
    return data


@functools.cache
def _index() -> dict[tuple[str, int, int, int], dict[str, Any]]:
    return {(f["ruleset"], f["players"], f["games"], f["seed"]): f["tally"] for f in load()["figures"]}


def tally_for(ruleset: str, players: int, games: int, seed: int) -> dict[str, Any] | None:
    """The shipped tally (``Tally.to_json()``) of this question, or None."""
    return _index().get((ruleset, players, games, seed))


def write(figures: list[dict[str, Any]], fingerprint: dict[str, Any], path: Path = FILE) -> None:
    path.write_bytes(orjson.dumps({"fingerprint": fingerprint, "figures": figures},
                                  option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2) + b"\n")
    load.cache_clear()
    _index.cache_clear()

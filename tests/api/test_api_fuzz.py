"""Fuzzing POST /api/adjudicate: random and mutated texts, JSON bodies and bytes never give a 500.

Every answer must be JSON: 200 with the spec's answer, or 400/413 with the error object.
The mutations start from valid positions (the API examples, the load-test position and every
case of tests/positions/), so most inputs get deep into the parser and the engine.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.loadtest import TYPICAL_POSITION
from variants.loader import option_ids

from .conftest import ERROR_KEYS, EXAMPLES, NO_STATIC_ROOT_WARNING

pytestmark = [pytest.mark.django_db, NO_STATIC_ROOT_WARNING]
URL = "/api/adjudicate"
RULING_KEYS = {"replay", "to_move", "check", "actions", "round_over", "scores"}
# MEXTRAIN_FUZZ_EXAMPLES=5000 for a longer hunt.
FUZZ = settings(max_examples=int(os.environ.get("MEXTRAIN_FUZZ_EXAMPLES", "150")), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def seed_positions() -> list[str]:
    seeds = [(EXAMPLES / "spec-example.txt").read_text(encoding="utf-8"), TYPICAL_POSITION,
             (EXAMPLES / "bad-tile.txt").read_text(encoding="utf-8")]
    for path in sorted((Path(__file__).resolve().parent.parent / "positions").glob("*.txt")):
        case: list[str] | None = None
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("=== "):
                case = []
            elif line.strip() == "--- expect":
                if case:
                    seeds.append("\n".join(case) + "\n")
                case = None
            elif case is not None:
                case.append(line)
    return seeds


SEEDS = seed_positions()
TOKENS = [
    "-", "*", "...", "…", ":", "->", " -> ", "12-12", "6-4", "4-6", "0-0", "18-18", "19-2", "12-", "-3", "99", "#",
    "\n", "\r\n", " ", "  ", ";", "mexican", "Mexican", "draw", "draw 3-5", "pass", "done", "Ann", "Bob", "Zoë",
    "players:", "moves:", "\n  Bob: draw", "check:", "hand Ann:", "boneyard: 0", "boneyard: 3-4 5-6", "variant: masters",
    "variant: masters+mandatory-doubles", "variant: nope", "phase: first-turn", "round: 3", "set: double-9",
    "open-doubles: mexican", "engine: 9", "turn:", "\t", "\x00", "\u202e", "\ufeff", "é", "\r", "\x85", "\u2028",
    "0", "18", "-1", "1e9", "99999999999999999999",
]
VARIANT_IDS = [*option_ids(), "nope", "", "masters+", "+", "masters+free-bonus-turn", "masters++mandatory-doubles",
               "MASTERS", " masters ", "masters+mandatory-doubles+mandatory-doubles"]


TILE = re.compile(r"\b\d{1,2}-\d{1,2}\b")
tiles = st.builds(lambda a, b: f"{a}-{b}", st.integers(0, 12), st.integers(0, 12))


@st.composite
def move_line(draw: st.DrawFn, text: str) -> str:
    """A move in the move syntax, by a name found in the text, on a train named there (or not)."""
    players = re.search(r"^players:([^#\n]*)", text, re.MULTILINE | re.IGNORECASE)
    names = (players.group(1).split() if players else []) or ["Ann", "Bob"]
    who = draw(st.sampled_from(names))
    what = draw(st.sampled_from(["play", "play", "draw", "drawn", "pass", "done"]))
    if what == "play":
        return f"{who}: {draw(tiles)} -> {draw(st.sampled_from([*names, 'mexican', 'Nobody']))}"
    return f"{who}: draw {draw(tiles)}" if what == "drawn" else f"{who}: {what}"


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """A valid position with one to three edits: mostly plausible ones (another tile, a move, a
    check), some blind ones (characters and tokens inserted, deleted; lines dropped, swapped)."""
    text = draw(st.sampled_from(SEEDS))
    ops = ["retile", "retile", "move", "check", "delete", "insert", "replace", "dup_line", "drop_line",
           "swap_lines", "truncate"]
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(ops))
        lines = text.split("\n")
        if op == "retile":
            found = list(TILE.finditer(text))
            if found:
                m = draw(st.sampled_from(found))
                text = text[: m.start()] + draw(tiles) + text[m.end():]
        elif op == "move":
            moves = [draw(move_line(text)) for _ in range(draw(st.integers(1, 4)))]
            text = re.sub(r"^(moves|check):.*$", "", text, flags=re.MULTILINE | re.IGNORECASE)
            text = text.rstrip("\n") + "\nmoves: " + "; ".join(moves) + "\n"
        elif op == "check":
            text = re.sub(r"^check:.*$", "", text, flags=re.MULTILINE | re.IGNORECASE)
            text = text.rstrip("\n") + f"\ncheck: {draw(move_line(text))}\n"
        elif op in ("delete", "insert", "replace"):
            i = draw(st.integers(0, len(text)))
            j = min(len(text), i + draw(st.integers(0, 8)))
            piece = draw(st.sampled_from(TOKENS) | st.text(max_size=4)) if op != "delete" else ""
            text = text[:i] + piece + text[(j if op != "insert" else i):]
        elif op == "dup_line":
            k = draw(st.integers(0, len(lines) - 1))
            lines.insert(k, lines[k])
            text = "\n".join(lines)
        elif op == "drop_line":
            del lines[draw(st.integers(0, len(lines) - 1))]
            text = "\n".join(lines)
        elif op == "swap_lines":
            a, b = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            lines[a], lines[b] = lines[b], lines[a]
            text = "\n".join(lines)
        else:
            text = text[: draw(st.integers(0, len(text)))]
    return text


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
variant_values = (
    st.sampled_from(VARIANT_IDS)
    | st.lists(st.sampled_from(VARIANT_IDS), max_size=5)
    | st.text(max_size=30)
    | st.lists(st.text(max_size=10), max_size=3)
    | json_values
)
requests_json = st.fixed_dictionaries(
    {"position": mutated() | st.text(max_size=200) | json_values},
    optional={"variant": variant_values, "extra": json_values},
)


def check(response: Any) -> None:
    assert response.status_code in (200, 400, 413), (response.status_code, response.content[:500])
    assert response["Content-Type"].startswith("application/json")
    data = json.loads(response.content.decode("utf-8"))
    if response.status_code == 200:
        assert set(data) == {"variants"} and data["variants"]
        for ident, ruling in data["variants"].items():
            assert ("error" in ruling) or RULING_KEYS <= set(ruling), (ident, ruling)
    else:
        assert set(data) == {"error"} and set(data["error"]) == ERROR_KEYS


@FUZZ
@given(text=mutated())
def test_mutated_positions(text: str) -> None:
    check(Client().post(URL, text.encode("utf-8", "surrogatepass"), content_type="text/plain"))


@FUZZ
@given(text=st.text(max_size=300))
def test_random_text(text: str) -> None:
    check(Client().post(URL, text.encode("utf-8", "surrogatepass"), content_type="text/plain"))


@FUZZ
@given(data=requests_json)
def test_json_requests(data: dict[str, Any]) -> None:
    check(Client().post(URL, json.dumps(data), content_type="application/json"))


@FUZZ
@given(data=json_values)
def test_random_json(data: Any) -> None:
    check(Client().post(URL, json.dumps(data), content_type="application/json"))


@FUZZ
@given(body=st.binary(max_size=500) | mutated().map(lambda t: t.encode("utf-8", "surrogatepass")),
       content_type=st.sampled_from(["text/plain", "application/json", "application/x-www-form-urlencoded",
                                     "multipart/form-data; boundary=x", "", "text/plain; charset=latin-1",
                                     "text/plain; charset=utf-16", "text/plain; charset=rot13", "text/plain; charset=nonsense"]))
def test_random_bytes(body: bytes, content_type: str) -> None:
    # generic(): the body goes out as these very bytes (post() would re-encode it for the charset)
    check(Client().generic("POST", URL, body, content_type=content_type))


@FUZZ
@given(text=mutated())
def test_mutated_json_text(text: str) -> None:
    """Mutations of a JSON request body as text: mostly malformed JSON."""
    payload = json.dumps({"position": text, "variant": "masters"})
    check(Client().post(URL, payload[: len(payload) - len(text) // 3], content_type="application/json"))

"""House rulesets: a table's own rules as a ruleset (a published base plus overridden rule keys).

Pure: no Django, no I/O. The web layer stores them (``mextrain_site/house``) and turns a
``house-…`` id back into a :class:`rules.ruleset.Ruleset` through :func:`build`; the engine only
ever sees Ruleset objects.

The id is derived from the content: ``house-`` plus the first 12 characters of the base32
SHA-256 of the canonical base id and the sorted overrides (values as plain data). The name is
not part of it, so the same rules always give the same id. An override equal to the base's value
is no override and is dropped.
"""

from __future__ import annotations

import base64
import dataclasses
import enum
import hashlib
import json
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

import yaml

from rules.errors import InputError
from rules.messages import Message
from rules.ruleset import RULE_SPECS, DealRow, Rule, Ruleset, Status

from .loader import RulesetError, get_ruleset
from .schema import HouseFile, RulesetFileError, combination_errors, flags_from, parse_house

PREFIX = "house-"
ID_LENGTH = 12
ID_PATTERN = r"house-[a-z2-7]{%d,52}" % ID_LENGTH
MAX_FILE = 256 * 1024
"""Bytes of a house ruleset file accepted (an upload, the CLIs' ``--rules``)."""


DEAL_PRESETS: tuple[tuple[int, ...], ...] = (
    (15, 15, 15, 12, 12, 11, 11),
    (15, 15, 15, 11, 11, 8, 8),
    (16, 16, 15, 14, 12, 10, 9),
    (16, 15, 14, 12, 11, 10, 9),
    (16, 15, 14, 13, 12, 11, 10),
)
"""Published double-12 hand sizes for 2 to 8 players, one per player count (the builder's
presets; the self-play soak plays each)."""
PRESET_FIRST_PLAYERS = 2
PRESET_SET = 12


def preset_label(sizes: tuple[int, ...]) -> str:
    return "/".join(str(n) for n in sizes)


def preset_rows(sizes: tuple[int, ...]) -> list[dict[str, Any]]:
    """A preset as the ruleset files write ``setup.deal``: one row per player count."""
    return [file_value(DealRow(n, n, PRESET_SET, tiles)) for n, tiles in enumerate(sizes, start=PRESET_FIRST_PLAYERS)]


def is_house_id(ident: str) -> bool:
    return ident.strip().startswith(PREFIX)


def plain(value: Any) -> Any:
    """A rule value as JSON-friendly data: enums by their value, dataclasses as objects, tuples as lists."""
    if isinstance(value, enum.Enum):
        return plain(value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, frozenset, set)):
        return [plain(v) for v in value]
    return value


def file_value(value: Any) -> Any:
    """A rule value as the ruleset files (and the API's input) write it: the one place that knows a
    hand-size row's file form, ``{"players": [lo, hi], "set": n, "tiles": n}``, which the schema
    reads (``variants.schema``); any other value as :func:`plain` data. What is stored is this form,
    so a stored row reads back through the same schema as a file or an API request."""
    if isinstance(value, DealRow):
        return {"players": [value.min_players, value.max_players], "set": value.set_max, "tiles": value.tiles}
    if isinstance(value, (list, tuple)):
        return [file_value(v) for v in value]
    return plain(value)


def canonical(base: str, overrides: Mapping[str, Any]) -> bytes:
    """What the id is derived from: the canonical base id and the overrides, sorted, as plain data.
    Kept as :func:`plain` (not the file form) so that ids already given out never change: the id
    names the values, however they are written."""
    rules = {key: plain(value) for key, value in sorted(overrides.items())}
    return json.dumps({"v": 1, "base": base, "rules": rules}, ensure_ascii=False, sort_keys=True,
                      separators=(",", ":")).encode("utf-8")


def full_digest(base: str, overrides: Mapping[str, Any]) -> str:
    return base64.b32encode(hashlib.sha256(canonical(base, overrides)).digest()).decode("ascii").rstrip("=").lower()


def house_id(base: str, overrides: Mapping[str, Any], length: int = ID_LENGTH) -> str:
    return PREFIX + full_digest(base, overrides)[:length]


@dataclasses.dataclass(frozen=True)
class House:
    """A checked house ruleset: what is stored, and what the id is derived from."""

    base: str
    """The canonical published id it is built on (``masters+mandatory-doubles``)."""
    name: str
    overrides: Mapping[str, Any]
    """Rule key -> value, only where it differs from the base, in the order of RULE_SPECS."""

    @property
    def id(self) -> str:
        return house_id(self.base, self.overrides)

    def data(self) -> dict[str, Any]:
        """The overrides as a file writes them (:func:`file_value`): what the database stores, read
        back by ``variants.schema.house_from_data`` exactly as the API's ``rules`` are."""
        return {key: file_value(value) for key, value in self.overrides.items()}


def check(spec: HouseFile) -> House:
    """Check a parsed house ruleset against its base: the base exists (the loader's errors), each
    override differs from it or is dropped, and the combination works (the files' checks).
    Raises RulesetError or RulesetFileError."""
    base = get_ruleset(spec.base)
    for key, (value, listed_node) in spec.listed.items():
        if value != base.rules[key].value:
            raise spec.reader.fail(listed_node, f"rules.{key}.value", Message(
                "the value of {base} (or status: house for a rule of the table's own)", base=base.id))
    rules: dict[str, Rule] = dict(base.rules)
    rules.update(spec.rules)
    for key, expected, found in combination_errors(rules):
        node = spec.nodes.get(key) or next(iter(spec.nodes.values()), None)
        if node is None:  # cannot happen: the base alone passes the same checks
            raise RulesetFileError(spec.reader.file, 0, f"rules.{key}", expected, found)
        raise spec.reader.fail(node, f"rules.{key}", expected, found)
    overrides = {s.key: spec.rules[s.key].value for s in RULE_SPECS
                 if s.key in spec.rules and spec.rules[s.key].value != base.rules[s.key].value}
    return House(base.id, spec.name, MappingProxyType(overrides))


def build(house: House, ident: str | None = None, describe: Callable[[str, Any], str] | None = None) -> Ruleset:
    """The ruleset a house ruleset stands for: the base's rules, the overridden ones with status
    ``house``, no citation and the value's description (``describe(key, value)``, the web layer's
    English sentence) as the note. ``ident`` is the stored id (a longer one after a collision)."""
    base = get_ruleset(house.base)
    rules: dict[str, Rule] = dict(base.rules)
    for key, value in house.overrides.items():
        rules[key] = Rule(key=key, value=value, status=Status.HOUSE, citations=(),
                          note=describe(key, value) if describe else "")
    frozen = MappingProxyType(rules)
    return Ruleset(
        id=ident or house.id,
        base=base.base,
        title=house.name,
        publisher="",
        sources=base.sources,
        rules=frozen,
        flags=flags_from(frozen),
        options=(),
        built_on=base.id,
    )


def from_file(text: str, file: str, describe: Callable[[str, Any], str] | None = None) -> Ruleset:
    """A house ruleset file's text (``/h/<id>.yaml``) as its ruleset, checked as an upload is, with
    no database (the CLIs' ``--rules FILE.yaml``: offline). Raises InputError, one line: a schema
    error or an impossible combination as ``FILE:LINE: path: expected ...; found ...``
    (``impossible-ruleset``); a base the loader refuses in its words, after ``FILE:LINE: base:``."""
    spec = parse_house(text, file)  # RulesetFileError: an InputError already
    try:
        house = check(spec)
    except RulesetError as exc:
        line = spec.base_node.start_mark.line + 1 if spec.base_node is not None else 0
        raise InputError(f"{file}:{line}: base: {exc}", code=exc.code) from None
    return build(house, describe=describe)


def to_yaml(ruleset: Ruleset) -> str:
    """A house ruleset in the ruleset file format (plus ``base``): every rule, the table's own with
    ``status: house`` and the value's description as the note, the others as the base cites them.
    Uploading the file recreates the same ruleset."""
    rules: dict[str, Any] = {}
    for spec in RULE_SPECS:
        rule = ruleset.rules[spec.key]
        entry: dict[str, Any] = {"value": file_value(rule.value), "status": rule.status.value,
                                 "cite": [{"seed": c.seed, "quote": c.quote, "gloss": c.gloss} for c in rule.citations]}
        for name in ("note", "reading", "alternative"):
            if getattr(rule, name):
                entry[name] = getattr(rule, name)
        rules[spec.key] = entry
    doc = {
        "id": ruleset.id,
        "title": ruleset.title,
        "base": ruleset.built_on,
        "publisher": ruleset.publisher,
        "sources": [{"seed": s.seed, "language": s.language, "direction": s.direction} for s in ruleset.sources],
        "rules": rules,
        "options": {},
    }
    header = (f"# House ruleset {ruleset.id}: {ruleset.title}\n"
              f"# Built on {ruleset.built_on}; rules with status: house are the table's own.\n")
    return header + yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, width=100)

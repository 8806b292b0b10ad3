"""Validate a ruleset file and build frozen ruleset values from it.

Works on the YAML node tree (``yaml.compose`` with the safe loader), so every error names
the file, the line, the key path, what was expected and what was found::

    variants/masters.yaml:41: rules.first_turn.tiles.value: expected one of 'one', 'chain'; found 'chains'
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import yaml

from rules.errors import ErrorCode, InputError
from rules.messages import Lookup, Message
from rules.numbers import ascii_int
from rules.ruleset import (
    RULE_SPECS,
    SPEC_BY_KEY,
    Citation,
    DealRow,
    EngineTile,
    Flags,
    OptionSpec,
    PlayerRange,
    Rule,
    RuleSpec,
    Source,
    Status,
    ValueKind,
)


class RulesetFileError(InputError):
    """A ruleset file (or a house ruleset's data) that does not match the schema: bad input,
    ``impossible-ruleset``. ``expected`` and ``found`` are :class:`rules.messages.Message` where the
    builder or an upload can show them (the web layer words them in the reader's language); the
    message itself is English, ``FILE:LINE: path: expected …; found …``. ``line`` is the file's
    (0: data with no lines, such as the API's JSON), not a position text's."""

    def __init__(self, file: str, line: int, path: str, expected: str, found: str) -> None:
        super().__init__(f"{file}:{line}: {path}: expected {expected}; found {found}", code=ErrorCode.IMPOSSIBLE_RULESET)
        self.file, self.line, self.path, self.expected, self.found = file, line, path, expected, found

    def as_dict(self, lookup: Lookup | None = None) -> dict[str, Any]:
        """The API's ``error``: data has no file nor line, so the message is the :attr:`reason`."""
        return {"code": self.code.value, "message": self.reason if not self.line else str(self),
                "line": None, "column": None}

    @property
    def reason(self) -> str:
        """The message without the file and line (for data that has neither: an API request)."""
        return f"{self.path}: expected {self.expected}; found {self.found}"


class YamlSyntaxError(RulesetFileError):
    """A file that is not YAML at all: where the parser stopped (line and column, from 1) and its
    problem in PyYAML's English (``problem``); the message is the same as any RulesetFileError's."""

    def __init__(self, file: str, line: int, column: int, problem: str) -> None:
        super().__init__(file, line, "(top)", Message("valid YAML"), problem)
        self.column, self.problem = column, problem


@dataclass(frozen=True, slots=True)
class Option(OptionSpec):
    """An option as its file declares it: the engine's :class:`OptionSpec` and the short name a
    player reads for it (``Mandatory doubles``; the id, ``mandatory-doubles``, stays for the API, the
    CLI and the files)."""

    label: str


@dataclass(frozen=True)
class BaseRuleset:
    """A ruleset file, validated: its base rules and the options it declares."""

    id: str
    title: str
    publisher: str
    sources: tuple[Source, ...]
    rules: MappingProxyType[str, Rule]
    flags: Flags
    options: MappingProxyType[str, Option]


_TOP_KEYS = ("id", "title", "publisher", "sources", "rules", "options")
_RULE_KEYS = ("value", "status", "cite", "note", "reading", "alternative")
_OPTION_KEYS = ("label", "summary", "requires", "conflicts", "cite", "changes")
_constructor = yaml.constructor.SafeConstructor()


_INT_TAG = "tag:yaml.org,2002:int"
_QUOTED = 80
"""Most characters of a value an error message quotes."""


def _construct(node: yaml.Node) -> Any:
    """A plain YAML value; tags outside the safe schema are refused. A number is read by the one
    number parser (rules.numbers): what YAML 1.1 also reads as an int (``1_000``, ``0x10``,
    ``+1``, ``1:30``, thousands of digits) stays its text, which no number field accepts."""
    if isinstance(node, yaml.ScalarNode) and node.tag == _INT_TAG:
        number = ascii_int(node.value, signed=True)
        return node.value if number is None else number
    try:
        return _constructor.construct_object(node)
    except yaml.YAMLError:
        return _Unsafe(node.tag)


class _Unsafe:
    def __init__(self, tag: str) -> None:
        self.tag = tag

    def __repr__(self) -> str:
        return f"a value tagged {self.tag}"


def _describe(node: yaml.Node) -> str:
    if isinstance(node, yaml.ScalarNode):
        value = _construct(node)
        if isinstance(value, _Unsafe):
            return repr(value)
        if value is None:
            return Message("nothing")
        if isinstance(value, str):  # cut short: a message quotes no thousands of characters
            return repr(value if len(value) <= _QUOTED else value[:_QUOTED] + "…")
        if isinstance(value, bool):
            return Message("bool {value}", value=repr(value))
        if isinstance(value, int):
            return Message("int {value}", value=repr(value))
        if isinstance(value, float):
            return Message("float {value}", value=repr(value))
        return f"{type(value).__name__} {value!r}"
    if isinstance(node, yaml.SequenceNode):
        return Message("a list")
    return Message("a mapping")


class _Reader:
    """Reads nodes of one file, raising errors that point into it."""

    def __init__(self, file: str) -> None:
        self.file = file

    def fail(self, node: yaml.Node, path: str, expected: str, found: str | None = None) -> RulesetFileError:
        # Nodes built from data (a JSON request) have no mark: line 0.
        line = node.start_mark.line + 1 if node.start_mark is not None else 0
        return RulesetFileError(self.file, line, path, expected, found or _describe(node))

    def mapping(
        self, node: yaml.Node, path: str, required: Iterable[str], optional: Iterable[str] = ()
    ) -> dict[str, yaml.Node]:
        if not isinstance(node, yaml.MappingNode):
            raise self.fail(node, path, Message("a mapping"))
        required, optional = tuple(required), tuple(optional)
        out: dict[str, yaml.Node] = {}
        for key_node, value_node in node.value:
            key = self.scalar(key_node, path or "(top)", str, Message("a key"))
            sub = f"{path}.{key}" if path else key
            if key in out:
                raise self.fail(key_node, sub, Message("each key once"), Message("a second {key}", key=repr(key)))
            if key not in required and key not in optional:
                allowed = ", ".join(repr(k) for k in (*required, *optional))
                raise self.fail(key_node, sub, Message("one of the keys {allowed}", allowed=allowed),
                                Message("unknown key {key}", key=repr(key)))
            out[key] = value_node
        for key in required:
            if key not in out:
                raise self.fail(node, f"{path}.{key}" if path else key, Message("this key"), Message("it missing"))
        return out

    def open_mapping(self, node: yaml.Node, path: str) -> list[tuple[str, yaml.Node, yaml.Node]]:
        """A mapping whose keys are data (rule keys, option names)."""
        if not isinstance(node, yaml.MappingNode):
            raise self.fail(node, path, Message("a mapping"))
        seen: set[str] = set()
        out = []
        for key_node, value_node in node.value:
            key = self.scalar(key_node, path, str, Message("a key"))
            if key in seen:
                raise self.fail(key_node, f"{path}.{key}", Message("each key once"), Message("a second {key}", key=repr(key)))
            seen.add(key)
            out.append((key, key_node, value_node))
        return out

    def sequence(self, node: yaml.Node, path: str) -> list[yaml.Node]:
        if not isinstance(node, yaml.SequenceNode):
            raise self.fail(node, path, Message("a list"))
        return list(node.value)

    def scalar(self, node: yaml.Node, path: str, kind: type, expected: str) -> Any:
        if not isinstance(node, yaml.ScalarNode):
            raise self.fail(node, path, expected)
        value = _construct(node)
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise self.fail(node, path, expected)
        if not isinstance(value, kind):
            raise self.fail(node, path, expected)
        return value

    def text(self, node: yaml.Node, path: str, *, empty: bool = False) -> str:
        value: str = self.scalar(node, path, str, Message("a string"))
        if not empty and not value.strip():
            raise self.fail(node, path, Message("a non-empty string"), Message("an empty string"))
        return value

    def names(self, node: yaml.Node, path: str) -> tuple[str, ...]:
        return tuple(self.text(n, f"{path}[{i}]") for i, n in enumerate(self.sequence(node, path)))

    def choice(self, node: yaml.Node, path: str, enum_type: type[enum.Enum],
               members: Iterable[enum.Enum] | None = None) -> enum.Enum:
        allowed = [m.value for m in (enum_type if members is None else members)]
        expected = Message("one of {allowed}", allowed=", ".join(repr(a) for a in allowed))
        value = self.scalar(node, path, str, expected)
        if value not in allowed:
            raise self.fail(node, path, expected)
        return enum_type(value)


def _value(r: _Reader, spec: RuleSpec, node: yaml.Node, path: str) -> Any:
    kind = spec.kind
    if kind is ValueKind.BOOL:
        return r.scalar(node, path, bool, Message("true or false"))
    if kind is ValueKind.INT:
        return _number(r, spec, node, path)
    if kind is ValueKind.CHOICE_OR_NUMBER:
        assert spec.enum is not None and spec.bounds is not None
        value = _construct(node) if isinstance(node, yaml.ScalarNode) else None
        if isinstance(value, int) and not isinstance(value, bool):
            return _number(r, spec, node, path)
        allowed = [m.value for m in spec.enum]
        if not isinstance(value, str) or value not in allowed:
            lo, hi = spec.bounds
            raise r.fail(node, path, Message("one of {allowed} or a whole number from {lo} to {hi}",
                                             allowed=", ".join(repr(a) for a in allowed), lo=lo, hi=hi))
        return next(m for m in spec.enum if m.value == value)
    if kind is ValueKind.TEXT:
        return r.text(node, path)
    if kind is ValueKind.ENUM:
        assert spec.enum is not None
        return r.choice(node, path, spec.enum)
    if kind is ValueKind.ENUM_LIST:
        assert spec.enum is not None
        return tuple(r.choice(n, f"{path}[{i}]", spec.enum) for i, n in enumerate(r.sequence(node, path)))
    if kind is ValueKind.PLAYER_RANGE:
        m = r.mapping(node, path, ("min", "max"))
        lo = r.scalar(m["min"], path + ".min", int, Message("a whole number"))
        hi = r.scalar(m["max"], path + ".max", int, Message("a whole number"))
        if not 1 <= lo <= hi:
            raise r.fail(m["max"], path, Message("1 <= min <= max"), Message("min {lo}, max {hi}", lo=lo, hi=hi))
        return PlayerRange(lo, hi)
    assert kind is ValueKind.DEAL_TABLE
    rows = []
    for i, row_node in enumerate(r.sequence(node, path)):
        rp = f"{path}[{i}]"
        m = r.mapping(row_node, rp, ("players", "set", "tiles"))
        players = r.sequence(m["players"], rp + ".players")
        if len(players) != 2:
            raise r.fail(m["players"], rp + ".players", Message("[lowest, highest]"),
                         Message("a list of {n}", n=len(players)))
        lo = r.scalar(players[0], rp + ".players[0]", int, Message("a whole number"))
        hi = r.scalar(players[1], rp + ".players[1]", int, Message("a whole number"))
        if not 1 <= lo <= hi:
            raise r.fail(m["players"], rp + ".players", Message("1 <= lowest <= highest"), f"[{lo}, {hi}]")
        set_max = r.scalar(m["set"], rp + ".set", int, Message("a set size from 6 to 18"))
        if not 6 <= set_max <= 18:
            raise r.fail(m["set"], rp + ".set", Message("a set size from 6 to 18"))
        tiles_node = m["tiles"]
        tiles = None
        if not (isinstance(tiles_node, yaml.ScalarNode) and tiles_node.tag.endswith(":null")):
            tiles = r.scalar(tiles_node, rp + ".tiles", int, Message("a whole number or null"))
            size = (set_max + 1) * (set_max + 2) // 2
            if tiles < 1 or tiles * hi > size:
                raise r.fail(tiles_node, rp + ".tiles", Message("a hand that fits a double-{set} set for {players} players",
                                                                set=set_max, players=hi))
        rows.append(DealRow(lo, hi, set_max, tiles))
    if not rows:
        raise r.fail(node, path, Message("at least one row"), Message("an empty list"))
    return tuple(rows)


def _number(r: _Reader, spec: RuleSpec, node: yaml.Node, path: str) -> int:
    """A whole number within the rule's bounds (if it has any)."""
    if spec.bounds is None:
        value: int = r.scalar(node, path, int, Message("a whole number"))
        return value
    lo, hi = spec.bounds
    expected = Message("a whole number from {lo} to {hi}", lo=lo, hi=hi)
    value = r.scalar(node, path, int, expected)
    if not lo <= value <= hi:
        raise r.fail(node, path, expected)
    return value


def _citations(r: _Reader, node: yaml.Node, path: str, seeds: frozenset[str]) -> tuple[Citation, ...]:
    out = []
    for i, c in enumerate(r.sequence(node, path)):
        cp = f"{path}[{i}]"
        m = r.mapping(c, cp, ("seed", "quote", "gloss"), ("remark",))
        seed = r.text(m["seed"], cp + ".seed")
        if seed not in seeds:
            raise r.fail(m["seed"], cp + ".seed", "one of the file's sources " + ", ".join(sorted(seeds)))
        remark = r.text(m["remark"], cp + ".remark") if "remark" in m else ""
        out.append(Citation(seed, r.text(m["quote"], cp + ".quote"), r.text(m["gloss"], cp + ".gloss"), remark))
    return tuple(out)


PUBLISHED_STATUSES = (Status.STATED, Status.SILENT, Status.AMBIGUOUS)
"""What a published ruleset's rule may be; ``house`` is for a house ruleset's own rules only."""


def _rule(r: _Reader, key: str, node: yaml.Node, path: str, seeds: frozenset[str], option: str = "",
          statuses: Iterable[Status] = PUBLISHED_STATUSES) -> Rule:
    spec = SPEC_BY_KEY[key]
    m = r.mapping(node, path, ("value", "status", "cite"), ("note", "reading", "alternative"))
    status = Status(r.choice(m["status"], path + ".status", Status, statuses).value)
    cites = _citations(r, m["cite"], path + ".cite", seeds)
    if status is Status.HOUSE:
        if cites:
            raise r.fail(m["cite"], path + ".cite", Message("no citation for a house rule"),
                         Message("a list of {n}", n=len(cites)))
        value = _value(r, spec, m["value"], path + ".value")
        return Rule(key=key, value=value, status=status, citations=(), note=r.text(m["note"], path + ".note") if "note" in m else "")
    if status is not Status.SILENT and not cites:
        raise r.fail(m["cite"], path + ".cite", f"at least one citation for a {status.value} rule", "none")
    if status is not Status.STATED and "reading" not in m:
        raise r.fail(node, path + ".reading", f"the reading assumed for a {status.value} rule", "it missing")
    if status is Status.AMBIGUOUS and "alternative" not in m:
        raise r.fail(node, path + ".alternative", "the other reading of an ambiguous rule", "it missing")

    def opt(name: str) -> str:
        return r.text(m[name], f"{path}.{name}") if name in m else ""

    return Rule(
        key=key,
        value=_value(r, spec, m["value"], path + ".value"),
        status=status,
        citations=cites,
        note=opt("note"),
        reading=opt("reading"),
        alternative=opt("alternative"),
        option=option,
    )


COMBINED_KEYS = frozenset({"setup.deal", "engine.missing", "rounds.count", "markers.removed"})
"""The rule keys a problem of :func:`combination_errors` is reported under."""


def combination_errors(rules: Mapping[str, Rule]) -> list[tuple[str, str, str]]:
    """Values that each pass but cannot work together: (rule key, expected, found) per problem,
    expected and found as :class:`rules.messages.Message` (the builder words them); each key
    one of :data:`COMBINED_KEYS`.

    The same checks guard the ruleset files and house rulesets."""
    out: list[tuple[str, str, str]] = []
    players, deal = rules["players.count"].value, rules["setup.deal"].value
    missing = [n for n in range(players.min, players.max + 1)
               if not any(row.min_players <= n <= row.max_players for row in deal)]
    if missing:
        counts = ", ".join(str(n) for n in missing)
        out.append(("setup.deal",
                    Message("a hand-size row for every player count from {lo} to {hi} "
                            "(players.count): add a row for {counts} or narrow players.count",
                            lo=players.min, hi=players.max, counts=counts),
                    Message("no row for {counts} players", counts=counts)))
    engine, missing = rules["engine.tile"].value, rules["engine.missing"].value
    if missing.value == "set-aside-before-deal" and not engine.fixed:
        out.append(("engine.missing",
                    Message("an engine double known before the deal to set it aside (engine.tile 'round-double' or "
                            "'set-highest'): use one of them or another engine.missing than 'set-aside-before-deal'"),
                    Message("engine.tile 'highest-held'") if engine is EngineTile.HIGHEST_HELD
                    else f"engine.tile {engine.value!r}"))
    if missing.value == "set-aside-before-deal":
        for i, row in enumerate(deal):
            left = (row.set_max + 1) * (row.set_max + 2) // 2 - 1  # the set without its engine
            if row.tiles is not None and row.tiles * row.max_players > left:
                out.append(("setup.deal",
                            Message("hands that leave the engine out of the deal (engine.missing 'set-aside-before-deal'): "
                                    "at most {most} tiles each for {players} players from the "
                                    "{left} tiles of a double-{set} set without its engine (row {row})",
                                    most=left // row.max_players, players=row.max_players, left=left,
                                    set=row.set_max, row=i + 1),  # counted from 1, as a reader counts rows
                            Message("{tiles} tiles each", tiles=row.tiles)))
                break
    rounds = rules["rounds.count"].value
    if isinstance(rounds, int) and engine is EngineTile.ROUND_DOUBLE:
        smallest = min(row.set_max for row in deal)
        if rounds > smallest + 1:
            out.append(("rounds.count",
                        Message("at most {most} rounds with engine.tile 'round-double' (one double a round, and "
                                "setup.deal has the double-{set} set): use engine.tile 'set-highest' or fewer rounds",
                                most=smallest + 1, set=smallest),
                        Message("{rounds} rounds", rounds=rounds)))
    placed, removed = rules["markers.placed"].value, rules["markers.removed"].value
    if placed.value == "when-own-train-unplayable" and removed.value == "owner-plays-any-tile":
        out.append(("markers.removed",
                    Message("a marker that stays down when its owner plays elsewhere (markers.placed "
                            "'when-own-train-unplayable' puts it down on that very play): use markers.removed "
                            "'owner-plays-own-train' or markers.placed 'on-pass'"),
                    Message("markers.removed 'owner-plays-any-tile'")))
    return out


def flags_from(rules: MappingProxyType[str, Rule] | dict[str, Rule]) -> Flags:
    return Flags(**{spec.flag: rules[spec.key].value for spec in RULE_SPECS})


def _compose(text: str, file: str) -> yaml.Node:
    """The node tree of a file (safe loader), or an error naming the line."""
    try:
        root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        raise YamlSyntaxError(file, line, column, str(getattr(exc, "problem", exc))) from None
    if root is None:
        raise RulesetFileError(file, 1, "(top)", Message("a mapping"), Message("an empty file"))
    return root


def parse_ruleset_file(text: str, file: str, expected_id: str) -> BaseRuleset:
    """Validate the text of one ruleset file."""
    r = _Reader(file)
    root = _compose(text, file)
    top = r.mapping(root, "", _TOP_KEYS)
    ident = r.text(top["id"], "id")
    if ident != expected_id:
        raise r.fail(top["id"], "id", f"the file's name {expected_id!r}")
    sources = []
    for i, s in enumerate(r.sequence(top["sources"], "sources")):
        sp = f"sources[{i}]"
        m = r.mapping(s, sp, ("seed", "language", "direction"))
        direction = r.text(m["direction"], sp + ".direction")
        if direction not in ("ltr", "rtl"):
            raise r.fail(m["direction"], sp + ".direction", "'ltr' or 'rtl'")
        sources.append(Source(r.text(m["seed"], sp + ".seed"), r.text(m["language"], sp + ".language"), direction))
    if not sources:
        raise r.fail(top["sources"], "sources", "at least one source", "an empty list")
    seeds = frozenset(s.seed for s in sources)

    def rule_entries(node: yaml.Node, path: str, option: str = "") -> dict[str, Rule]:
        out: dict[str, Rule] = {}
        for key, key_node, value_node in r.open_mapping(node, path):
            if key not in SPEC_BY_KEY:
                raise r.fail(key_node, f"{path}.{key}", Message("a rule key declared in rules/ruleset.py"),
                             Message("unknown key {key}", key=repr(key)))
            out[key] = _rule(r, key, value_node, f"{path}.{key}", seeds, option)
        return out

    rules = rule_entries(top["rules"], "rules")
    for spec in RULE_SPECS:
        if spec.key not in rules:
            raise r.fail(top["rules"], f"rules.{spec.key}", "every rule key declared (the digest's dimensions)", "it missing")
    rules = {spec.key: rules[spec.key] for spec in RULE_SPECS}
    rule_nodes = {key: value_node for key, _, value_node in r.open_mapping(top["rules"], "rules")}
    for key, expected, found in combination_errors(rules):
        raise r.fail(rule_nodes[key], f"rules.{key}", expected, found)

    options: dict[str, Option] = {}
    option_nodes = r.open_mapping(top["options"], "options")
    names = {name for name, _, _ in option_nodes}
    for name, _, node in option_nodes:
        op = f"options.{name}"
        m = r.mapping(node, op, _OPTION_KEYS)
        requires, conflicts = r.names(m["requires"], op + ".requires"), r.names(m["conflicts"], op + ".conflicts")
        for field_name, listed in (("requires", requires), ("conflicts", conflicts)):
            for other in listed:
                if other not in names or other == name:
                    raise r.fail(m[field_name], f"{op}.{field_name}", "names of other options of this file", repr(other))
        changes = rule_entries(m["changes"], op + ".changes", name)
        if not changes:
            raise r.fail(m["changes"], op + ".changes", "at least one changed rule", "none")
        options[name] = Option(
            name=name,
            label=r.text(m["label"], op + ".label"),
            summary=r.text(m["summary"], op + ".summary"),
            requires=requires,
            conflicts=conflicts,
            citations=_citations(r, m["cite"], op + ".cite", seeds),
            changes=MappingProxyType(changes),
        )
    frozen = MappingProxyType(rules)
    return BaseRuleset(
        id=ident,
        title=r.text(top["title"], "title"),
        publisher=r.text(top["publisher"], "publisher", empty=True),
        sources=tuple(sources),
        rules=frozen,
        flags=flags_from(frozen),
        options=MappingProxyType(options),
    )



# -- house rulesets ---------------------------------------------------------------------------------

HOUSE_TOP_KEYS = ("id", "title", "base", "publisher", "sources", "rules", "options")
NAME_MAX = 60
"""Characters a house ruleset's name may have."""


@dataclass(frozen=True)
class HouseFile:
    """A house ruleset as written (a file or a request): not yet checked against its base."""

    base: str
    name: str
    rules: Mapping[str, Rule]
    """The rules the table sets itself (status ``house``), by key."""
    nodes: Mapping[str, yaml.Node]
    """Where each of those rules stands, for errors that point at it."""
    reader: _Reader
    listed: Mapping[str, tuple[Any, yaml.Node]] = field(default_factory=dict)
    """A file's other rules, listed for the reader: value and node (each must be the base's)."""
    base_node: yaml.Node | None = None
    """Where a file names its base, for the loader's errors about it."""


def house_name(r: _Reader, node: yaml.Node, path: str) -> str:
    name = " ".join(r.text(node, path).split())
    if len(name) > NAME_MAX:
        raise r.fail(node, path, Message("a name of at most {n} characters", n=NAME_MAX),
                     Message("{n} characters", n=len(name)))
    return name


def parse_house(text: str, file: str) -> HouseFile:
    """A house ruleset file (``/h/<id>.yaml``): the ruleset file format plus ``base``, where the
    rules with status ``house`` are the table's own; every other rule must be the base's (checked
    by :func:`variants.house.build`)."""
    r = _Reader(file)
    root = _compose(text, file)
    top = r.mapping(root, "", ("title", "base", "rules"), ("id", "publisher", "sources", "options"))
    base = r.text(top["base"], "base")
    name = house_name(r, top["title"], "title")
    rules: dict[str, Rule] = {}
    nodes: dict[str, yaml.Node] = {}
    listed: dict[str, tuple[Any, yaml.Node]] = {}
    for key, key_node, value_node in r.open_mapping(top["rules"], "rules"):
        if key not in SPEC_BY_KEY:
            raise r.fail(key_node, f"rules.{key}", Message("a rule key declared in rules/ruleset.py"),
                             Message("unknown key {key}", key=repr(key)))
        # The base's rules are listed for the reader; their citations are the base's.
        status_node = value_node.value if isinstance(value_node, yaml.MappingNode) else []
        is_house = any(isinstance(k, yaml.ScalarNode) and k.value == "status" and isinstance(v, yaml.ScalarNode)
                       and v.value == Status.HOUSE.value for k, v in status_node)
        if is_house:
            rules[key] = _rule(r, key, value_node, f"rules.{key}", frozenset(), statuses=(Status.HOUSE,))
            nodes[key] = value_node
        else:
            entry = r.mapping(value_node, f"rules.{key}", ("value",), _RULE_KEYS)
            path = f"rules.{key}.value"
            listed[key] = (_value(r, SPEC_BY_KEY[key], entry["value"], path), entry["value"])
    return HouseFile(base, name, MappingProxyType(rules), MappingProxyType(nodes), r, MappingProxyType(listed),
                     top["base"])


def house_from_data(base: Any, name: Any, rules: Any, file: str = "request") -> HouseFile:
    """A house ruleset from plain data (the API's JSON): each value is checked exactly as the same
    value in a file would be, with the same error texts (no line: line 0)."""
    r = _Reader(file)
    represent = yaml.representer.SafeRepresenter().represent_data
    base_text = r.text(represent(base), "base")
    name_text = house_name(r, represent(name), "name")
    if not isinstance(rules, Mapping):
        raise r.fail(represent(rules), "rules", Message("a mapping"))
    out: dict[str, Rule] = {}
    nodes: dict[str, yaml.Node] = {}
    for key, value in rules.items():
        path = f"rules.{key}"
        if key not in SPEC_BY_KEY:
            raise r.fail(represent(key), path, Message("a rule key declared in rules/ruleset.py"),
                             Message("unknown key {key}", key=repr(key)))
        node = represent(value)
        out[key] = Rule(key=key, value=_value(r, SPEC_BY_KEY[key], node, path), status=Status.HOUSE, citations=())
        nodes[key] = node
    return HouseFile(base_text, name_text, MappingProxyType(out), MappingProxyType(nodes), r)

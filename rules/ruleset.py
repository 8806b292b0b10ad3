"""The engine's view of a ruleset: frozen values, typed flags, citations.

A ruleset file (``variants/*.yaml``) declares one :class:`Rule` per dimension of the
rules digest. Each rule has a value, a status (stated, silent or ambiguous) and the
citations it rests on. The engine reads the typed :class:`Flags`; the citations travel
with every reason the engine gives, looked up by rule key.

The table :data:`RULE_SPECS` is the single declaration of every rule key: its value
type, the flag it fills and an English description. The loader in ``variants/``
validates files against it; the engine never branches on a ruleset's name.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any


class Status(enum.Enum):
    """How firmly the source states a rule."""

    STATED = "stated"
    """The source says it; the quote proves it."""
    SILENT = "silent"
    """The source says nothing; the value is the assumed default."""
    AMBIGUOUS = "ambiguous"
    """The source can be read two ways; the value is the reading chosen."""
    HOUSE = "house"
    """A table's own rule (a house ruleset's override): no source, no citation."""


class EngineTile(enum.Enum):
    ROUND_DOUBLE = "round-double"
    """Round 1 uses the set's highest double, each later round the next lower one."""
    HIGHEST_HELD = "highest-held"
    """The highest double any player holds after the deal."""


class FirstPlayer(enum.Enum):
    ENGINE_HOLDER = "engine-holder"
    CHOSEN = "chosen"
    LEFT_OF_ENGINE_HOLDER = "left-of-engine-holder"


class MissingEngine(enum.Enum):
    DRAW_IN_TURN_UNTIL_FOUND = "draw-in-turn-until-found"
    SET_ASIDE_BEFORE_DEAL = "set-aside-before-deal"
    DRAW_UNTIL_ANY_DOUBLE = "draw-until-any-double"
    ALL_DRAW_UNTIL_FOUND = "all-draw-until-found"


class Rounds(enum.Enum):
    ONE_PER_DOUBLE = "one-per-double"
    SINGLE_GAME = "single-game"


class FirstTurnTiles(enum.Enum):
    ONE = "one"
    """No special first turn: one tile, as in any later turn."""
    CHAIN = "chain"
    """As many tiles as the player wants, each continuing a valid train."""


class FirstTurnWho(enum.Enum):
    EVERY_PLAYER = "every-player"
    FIRST_PLAYER_ONLY = "first-player-only"


class FirstTurnTrains(enum.Enum):
    OWN_ONLY = "own-only"
    OWN_OR_MEXICAN = "own-or-mexican"
    ANY_AVAILABLE = "any-available"


class CannotStart(enum.Enum):
    MARKER_NO_DRAW = "marker-no-draw"
    NORMAL_TURN = "normal-turn"


class FirstTurnOut(enum.Enum):
    FINISH_ROUND_OF_TURNS = "finish-round-of-turns"
    ROUND_ENDS = "round-ends"


class CannotPlay(enum.Enum):
    DRAW_ONE = "draw-one"
    MARKER_NO_DRAW = "marker-no-draw"


class MarkerPlaced(enum.Enum):
    ON_PASS = "on-pass"
    """The marker goes down when the player ends a turn without playing."""
    WHEN_OWN_TRAIN_UNPLAYABLE = "when-own-train-unplayable"
    """The marker goes down as soon as the player cannot add to the own train."""


class MarkerRemoved(enum.Enum):
    OWNER_PLAYS_OWN_TRAIN = "owner-plays-own-train"


class DoubleObligation(enum.Enum):
    NONE = "none"
    SATISFY = "satisfy"


class FollowUp(enum.Enum):
    ANY_AVAILABLE_TRAIN = "any-available-train"
    """The layer's follow-up tile may go on any train open to the layer."""
    MUST_SATISFY = "must-satisfy"
    """The follow-up must satisfy the open double like every later move."""
    DOUBLES_ANYWHERE_THEN_SATISFY = "doubles-anywhere-then-satisfy"
    """Further doubles may go on any open train; the first non-double satisfies."""


class DoubleOrder(enum.Enum):
    OLDEST_FIRST = "oldest-first"
    NEWEST_FIRST = "newest-first"


class Branching(enum.Enum):
    NONE = "none"


class BlockedRound(enum.Enum):
    ENDS = "ends"


class TieBreak(enum.Enum):
    MOST_ZERO_ROUNDS = "most-zero-rounds"
    LOWEST_NONZERO_ROUND = "lowest-nonzero-round"


@dataclass(frozen=True, slots=True)
class DealRow:
    """One row of a hand-size table: so many players use this set and take so many."""

    min_players: int
    max_players: int
    set_max: int
    tiles: int | None
    """``None`` where the source names the set but not the hand size."""


@dataclass(frozen=True, slots=True)
class PlayerRange:
    min: int
    max: int


class ValueKind(enum.Enum):
    BOOL = "bool"
    INT = "int"
    TEXT = "text"
    ENUM = "enum"
    ENUM_LIST = "enum-list"
    DEAL_TABLE = "deal-table"
    PLAYER_RANGE = "player-range"


@dataclass(frozen=True, slots=True)
class RuleSpec:
    """The declaration of one rule key."""

    key: str
    flag: str
    kind: ValueKind
    section: str
    description: str
    enum: type[enum.Enum] | None = None


def _spec(key: str, kind: ValueKind, description: str, enum_type: type[enum.Enum] | None = None) -> RuleSpec:
    section = key.split(".", 1)[0]
    return RuleSpec(key, key.replace(".", "_"), kind, section, description, enum_type)


K = ValueKind
RULE_SPECS: tuple[RuleSpec, ...] = (
    _spec("players.count", K.PLAYER_RANGE, "How many players the source allows."),
    _spec("setup.deal", K.DEAL_TABLE, "Which set and how many tiles each player draws, by player count."),
    _spec("setup.equipment", K.TEXT, "Markers, hub and other equipment besides the tiles."),
    _spec("engine.tile", K.ENUM, "Which double is the engine of a round.", EngineTile),
    _spec("engine.missing", K.ENUM, "What happens when nobody holds the engine.", MissingEngine),
    _spec("start.first_player", K.ENUM, "Who takes the first turn of a round.", FirstPlayer),
    _spec("rounds.count", K.ENUM, "How many rounds make a game.", Rounds),
    _spec("first_turn.tiles", K.ENUM, "How many tiles a player may lay on the first turn.", FirstTurnTiles),
    _spec("first_turn.who", K.ENUM, "Whose first turn is the special one.", FirstTurnWho),
    _spec("first_turn.trains", K.ENUM, "Which trains the first turn may use.", FirstTurnTrains),
    _spec("first_turn.cannot_start", K.ENUM, "What a player does who cannot start a train on the first turn.", CannotStart),
    _spec("first_turn.going_out", K.ENUM, "What happens when a player goes out on the first turn.", FirstTurnOut),
    _spec("first_turn.doubles_apply", K.BOOL, "Whether the double rules apply during the first turn."),
    _spec("turn.matching_ends", K.BOOL, "A tile must match the open end it is laid against; a train starts with the engine's number."),
    _spec("turn.one_tile", K.BOOL, "A later turn lays one tile, unless it is a double."),
    _spec("turn.own_train_first", K.BOOL, "A player must add to the own train when able before using any other."),
    _spec("turn.marked_trains_open", K.BOOL, "Another player's train is open when it carries a marker."),
    _spec("turn.mexican_open", K.BOOL, "The Mexican train is open to every player."),
    _spec("turn.must_play", K.BOOL, "A player who can play must play."),
    _spec("turn.cannot_play", K.ENUM, "What a player does who cannot play.", CannotPlay),
    _spec("turn.drawn_tile_only", K.BOOL, "After drawing, only the drawn tile may be played."),
    _spec("turn.empty_boneyard_pass", K.BOOL, "With an empty boneyard a player who cannot play passes and marks the train."),
    _spec("turn.announce_last_tile", K.BOOL, "A player with one tile left must announce it (not judged by the engine)."),
    _spec("markers.placed", K.ENUM, "When a player's marker goes down.", MarkerPlaced),
    _spec("markers.removed", K.ENUM, "When a player's marker is lifted.", MarkerRemoved),
    _spec("doubles.play_again", K.BOOL, "A player who lays a double plays again."),
    _spec("doubles.obligation", K.ENUM, "Whether an open double must be satisfied before other trains.", DoubleObligation),
    _spec("doubles.follow_up", K.ENUM, "Where the layer's tile after a double may go.", FollowUp),
    _spec("doubles.order", K.ENUM, "Order in which several open doubles are satisfied.", DoubleOrder),
    _spec("doubles.dead", K.BOOL, "A double whose number is all played stops restricting play."),
    _spec("doubles.branching", K.ENUM, "Whether a double opens more than one end.", Branching),
    _spec("round_end.blocked", K.ENUM, "What happens when the boneyard is empty and nobody can play.", BlockedRound),
    _spec("round_end.last_tile_double", K.BOOL, "Going out on a double ends the round at once."),
    _spec("scoring.double_blank", K.INT, "What the double-blank counts in a hand at the end of a round."),
    _spec("winner.tie_breaks", K.ENUM_LIST, "How a tie for the lowest total is broken.", TieBreak),
)
SPEC_BY_KEY: Mapping[str, RuleSpec] = MappingProxyType({s.key: s for s in RULE_SPECS})


@dataclass(frozen=True, slots=True)
class Flags:
    """Every rule value, typed, for the engine to branch on."""

    players_count: PlayerRange
    setup_deal: tuple[DealRow, ...]
    setup_equipment: str
    engine_tile: EngineTile
    engine_missing: MissingEngine
    start_first_player: FirstPlayer
    rounds_count: Rounds
    first_turn_tiles: FirstTurnTiles
    first_turn_who: FirstTurnWho
    first_turn_trains: FirstTurnTrains
    first_turn_cannot_start: CannotStart
    first_turn_going_out: FirstTurnOut
    first_turn_doubles_apply: bool
    turn_matching_ends: bool
    turn_one_tile: bool
    turn_own_train_first: bool
    turn_marked_trains_open: bool
    turn_mexican_open: bool
    turn_must_play: bool
    turn_cannot_play: CannotPlay
    turn_drawn_tile_only: bool
    turn_empty_boneyard_pass: bool
    turn_announce_last_tile: bool
    markers_placed: MarkerPlaced
    markers_removed: MarkerRemoved
    doubles_play_again: bool
    doubles_obligation: DoubleObligation
    doubles_follow_up: FollowUp
    doubles_order: DoubleOrder
    doubles_dead: bool
    doubles_branching: Branching
    round_end_blocked: BlockedRound
    round_end_last_tile_double: bool
    scoring_double_blank: int
    winner_tie_breaks: tuple[TieBreak, ...]


@dataclass(frozen=True, slots=True)
class Citation:
    """A verbatim quote from a seed file, with an English gloss."""

    seed: str
    quote: str
    gloss: str


@dataclass(frozen=True, slots=True)
class Rule:
    key: str
    value: Any
    status: Status
    citations: tuple[Citation, ...]
    note: str = ""
    reading: str = ""
    """For ambiguous rules: the reading chosen. For silent rules: the assumption."""
    alternative: str = ""
    """For ambiguous rules: the other reading."""
    option: str = ""
    """The option that set this value, if any."""


@dataclass(frozen=True, slots=True)
class Source:
    seed: str
    language: str
    direction: str


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """A house rule the source itself lists."""

    name: str
    summary: str
    requires: tuple[str, ...]
    conflicts: tuple[str, ...]
    citations: tuple[Citation, ...]
    changes: Mapping[str, Rule]


@dataclass(frozen=True)
class Ruleset:
    """A ruleset: a base variant with zero or more of its options applied."""

    id: str
    """The full id, options included: ``masters+mandatory-doubles``."""
    base: str
    title: str
    publisher: str
    sources: tuple[Source, ...]
    rules: Mapping[str, Rule]
    flags: Flags
    options: tuple[str, ...] = ()
    available_options: Mapping[str, OptionSpec] = field(default_factory=lambda: MappingProxyType({}))
    built_on: str = ""
    """For a house ruleset: the published ruleset id (options included) it is built on; else empty."""

    def rule(self, key: str) -> Rule:
        return self.rules[key]

    def citations(self, key: str) -> tuple[Citation, ...]:
        rule = self.rules.get(key)
        return rule.citations if rule is not None else ()

    @cached_property
    def citations_json(self) -> Mapping[str, tuple[Mapping[str, str], ...]]:
        """Each rule's citations as JSON-ready mappings, built once (answers repeat them)."""
        return MappingProxyType({
            key: tuple(MappingProxyType({"seed": c.seed, "quote": c.quote, "gloss": c.gloss}) for c in rule.citations)
            for key, rule in self.rules.items()
        })

    def __repr__(self) -> str:
        return f"<Ruleset {self.id}>"

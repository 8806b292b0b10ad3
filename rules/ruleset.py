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
from typing import Any, Self


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


class Worded(enum.Enum):
    """An enum of rule values whose every member carries the sentence that says, for players at
    the table, what the value means (English; the web layer words it through gettext):
    ``ROUND_DOUBLE = "round-double", "Each round has its own engine: ..."``. The value is the
    spelling used in the ruleset files; a member without a sentence fails at import."""

    _value_: str
    sentence: str

    def __new__(cls, value: str, sentence: str) -> Self:
        member = object.__new__(cls)
        member._value_ = value
        member.sentence = sentence
        return member


class EngineTile(Worded):
    ROUND_DOUBLE = "round-double", "Each round has its own engine: the set's highest double in the first round, then the next lower double in each later round."
    HIGHEST_HELD = "highest-held", "The engine is the highest double any player holds after the deal."
    SET_HIGHEST = "set-highest", "Every round starts with the same engine: the set's highest double."

    @property
    def fixed(self) -> bool:
        """The engine double is known before the deal (it can be set aside)."""
        return self is not EngineTile.HIGHEST_HELD


class FirstPlayer(Worded):
    ENGINE_HOLDER = "engine-holder", "The player who holds the engine lays it and takes the first turn."
    CHOSEN = "chosen", "The players choose who takes the first turn."
    LEFT_OF_ENGINE_HOLDER = "left-of-engine-holder", "The player who lays the engine does not start: the player on their left takes the first turn."


class MissingEngine(Worded):
    DRAW_IN_TURN_UNTIL_FOUND = "draw-in-turn-until-found", "If nobody holds the engine, the players draw from the boneyard in turn until it is found."
    SET_ASIDE_BEFORE_DEAL = "set-aside-before-deal", "The engine is set aside before the deal, so it can never be missing."
    DRAW_UNTIL_ANY_DOUBLE = "draw-until-any-double", "If nobody holds a double, the players draw from the boneyard until one turns up; that double becomes the engine."
    ALL_DRAW_UNTIL_FOUND = "all-draw-until-found", "If nobody holds the engine, every player draws one more tile at the same time, until someone draws it."


class Rounds(Worded):
    ONE_PER_DOUBLE = "one-per-double", "A game has one round for each double of the set, from the highest down to the double-blank."
    SINGLE_GAME = "single-game", "A game is a single round."


MAX_ROUNDS = 30
"""The most rounds a game (``rounds.count`` as a number) and a position's ``round:`` may have."""


class FirstTurnTiles(Worded):
    ONE = "one", "There is no special first turn: a player lays one tile, as on any later turn."
    CHAIN = "chain", "On the first turn a player may lay a chain of as many tiles as they like."


class FirstTurnWho(Worded):
    EVERY_PLAYER = "every-player", "Every player's first turn follows the first-turn rules."
    FIRST_PLAYER_ONLY = "first-player-only", "Only the very first turn of the round, the first player's, follows the first-turn rules."


class FirstTurnTrains(Worded):
    OWN_ONLY = "own-only", "On the first turn a player may build only their own train."
    OWN_OR_MEXICAN = "own-or-mexican", "On the first turn a player may build their own train or the Mexican train."
    ANY_AVAILABLE = "any-available", "On the first turn a player may use any train open to them."


class CannotStart(Worded):
    MARKER_NO_DRAW = "marker-no-draw", "A player who cannot start a train on the first turn places a marker and does not draw."
    NORMAL_TURN = "normal-turn", "A player who cannot start a train on the first turn takes a normal turn: draw a tile, play it if possible, otherwise place a marker."


class FirstTurnOut(Worded):
    FINISH_ROUND_OF_TURNS = "finish-round-of-turns", "If a player goes out on the first turn, the others still take their first turn before the round ends."
    ROUND_ENDS = "round-ends", "If a player goes out on the first turn, the round ends at once."


class CannotPlay(Worded):
    DRAW_ONE = "draw-one", "A player who cannot play draws one tile from the boneyard."
    MARKER_NO_DRAW = "marker-no-draw", "A player who cannot play places a marker without drawing; the boneyard stays untouched, and the round ends once nobody can play."
    DRAW_UNTIL_PLAYABLE = "draw-until-playable", "A player who cannot play draws until they draw a tile they can play or the boneyard is empty."


class MarkerPlaced(Worded):
    ON_PASS = "on-pass", "A player's marker goes down when they end a turn without playing."
    WHEN_OWN_TRAIN_UNPLAYABLE = "when-own-train-unplayable", "A player's marker goes down as soon as they cannot add to their own train."


class MarkerRemoved(Worded):
    OWNER_PLAYS_OWN_TRAIN = "owner-plays-own-train", "A marker is lifted when its owner plays on their own train again."
    OWNER_PLAYS_ANY_TILE = "owner-plays-any-tile", "A marker is lifted as soon as its owner lays a tile on any train."


class DoublesPerTurn(Worded):
    UNLIMITED = "unlimited", "A player may lay any number of doubles in one turn."
    ONE = "one", "A player may lay at most one double in a turn: the tile after it may not be another double."


class DoubleObligation(Worded):
    NONE = "none", "An open double need not be satisfied before play goes on elsewhere."
    SATISFY = "satisfy", "An open double must be satisfied before any other train is played."


class FollowUp(Worded):
    ANY_AVAILABLE_TRAIN = "any-available-train", "The tile a player lays after their own double may go on any train open to them."
    MUST_SATISFY = "must-satisfy", "A player who lays a double must satisfy it with the next tile."
    DOUBLES_ANYWHERE_THEN_SATISFY = "doubles-anywhere-then-satisfy", "After laying a double, further doubles may go on any open train; the first tile that is not a double must satisfy the double."


class DoubleOrder(Worded):
    OLDEST_FIRST = "oldest-first", "Several open doubles are satisfied in the order they were laid."
    NEWEST_FIRST = "newest-first", "Several open doubles are satisfied in reverse order: the last one laid first."
    EITHER = "oldest-or-newest", ("Several open doubles may be satisfied in the order they were laid or in reverse "
                                  "order: the first one laid or the last one laid first.")


class Branching(Worded):
    NONE = "none", "A double opens one end only: trains do not branch."


class BlockedRound(Worded):
    ENDS = "ends", "When the boneyard is empty and nobody can play, the round ends and is scored."


class TieBreak(Worded):
    MOST_ZERO_ROUNDS = "most-zero-rounds", "the most rounds scored at zero"
    LOWEST_NONZERO_ROUND = "lowest-nonzero-round", "the lowest round total other than zero"


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
    CHOICE_OR_NUMBER = "choice-or-number"
    """One of an enum's values, or a whole number (``rounds.count``: 'one-per-double' or 10)."""


@dataclass(frozen=True, slots=True)
class RuleSpec:
    """The declaration of one rule key, with its wording: the only place a rule is worded.

    ``label`` names the rule (a heading), ``description`` says what it decides; the sentence for
    each value is ``when_true``/``when_false`` for a yes-or-no rule and each member's ``sentence``
    for a choice (a :class:`Worded` enum). Numbers, tables, lists and free text are worded by
    the page from their value. All English; the web layer translates them through gettext
    (``mextrain_site/core/engine_messages.py`` puts them in the catalogues)."""

    key: str
    flag: str
    kind: ValueKind
    section: str
    label: str
    description: str
    enum: type[Worded] | None = None
    when_true: str = ""
    when_false: str = ""
    when_zero: str = ""
    """A number rule's sentence for 0 (else ``when_number`` says 0 too)."""
    when_number: str = ""
    """A number rule's sentence for any number, with the placeholder ``{n}``."""
    bounds: tuple[int, int] | None = None
    """The lowest and highest number allowed (inclusive); None: any whole number."""
    examples: tuple[int, ...] = ()
    """Numbers tables commonly play (the builder suggests them, the self-play soak draws them)."""

    def sentence(self, value: Any) -> str | None:
        """The sentence that says this value of the rule (a number's with ``{n}`` in it), or None
        when the kind has none."""
        if self.kind is ValueKind.BOOL and isinstance(value, bool):
            return self.when_true if value else self.when_false
        if isinstance(value, Worded):
            return value.sentence
        if isinstance(value, int) and not isinstance(value, bool) and self.when_number:
            return self.when_zero if value == 0 and self.when_zero else self.when_number
        return None


def _spec(key: str, kind: ValueKind, label: str, description: str, enum_type: type[Worded] | None = None,
          examples: tuple[int, ...] = ()) -> RuleSpec:
    """A rule whose values the page words itself (a number, a table, a list, free text)."""
    return RuleSpec(key, key.replace(".", "_"), kind, key.split(".", 1)[0], label, description, enum_type,
                    examples=examples)


def _choice(key: str, label: str, description: str, enum_type: type[Worded]) -> RuleSpec:
    """A rule with one of several values, each worded on its enum member."""
    return RuleSpec(key, key.replace(".", "_"), ValueKind.ENUM, key.split(".", 1)[0], label, description, enum_type)


def _number(key: str, label: str, description: str, *, zero: str, number: str, bounds: tuple[int, int],
            examples: tuple[int, ...], enum_type: type[Worded] | None = None) -> RuleSpec:
    """A whole number within ``bounds`` (or, with ``enum_type``, one of its values or a number)."""
    kind = ValueKind.INT if enum_type is None else ValueKind.CHOICE_OR_NUMBER
    return RuleSpec(key, key.replace(".", "_"), kind, key.split(".", 1)[0], label, description, enum_type,
                    when_zero=zero, when_number=number, bounds=bounds, examples=examples)


def _bool(key: str, label: str, description: str, *, yes: str, no: str) -> RuleSpec:
    """A yes-or-no rule and the sentence for each answer."""
    return RuleSpec(key, key.replace(".", "_"), ValueKind.BOOL, key.split(".", 1)[0], label, description,
                    when_true=yes, when_false=no)


K = ValueKind
RULE_SPECS: tuple[RuleSpec, ...] = (
    _spec("players.count", K.PLAYER_RANGE, "Players", "How many players the source allows."),
    _spec("setup.deal", K.DEAL_TABLE, "Set and hand size", "Which set and how many tiles each player draws, by player count."),
    _spec("setup.equipment", K.TEXT, "Equipment", "Markers, hub and other equipment besides the tiles."),
    _choice("engine.tile", "Engine double", "Which double is the engine of a round.", EngineTile),
    _choice("engine.missing", "Missing engine", "What happens when nobody holds the engine.", MissingEngine),
    _choice("start.first_player", "First player", "Who takes the first turn of a round.", FirstPlayer),
    _number("rounds.count", "Rounds", "How many rounds make a game.", enum_type=Rounds,
            zero="", number="A game has {n} rounds.", bounds=(2, MAX_ROUNDS), examples=(7, 10, 13)),
    _choice("first_turn.tiles", "Tiles on the first turn", "How many tiles a player may lay on the first turn.", FirstTurnTiles),
    _choice("first_turn.who", "Whose first turn is special", "Whose first turn is the special one.", FirstTurnWho),
    _choice("first_turn.trains", "Trains on the first turn", "Which trains the first turn may use.", FirstTurnTrains),
    _choice("first_turn.cannot_start", "Unable to start a train", "What a player does who cannot start a train on the first turn.", CannotStart),
    _choice("first_turn.going_out", "Going out on the first turn", "What happens when a player goes out on the first turn.", FirstTurnOut),
    _bool("first_turn.doubles_apply", "Doubles on the first turn", "Whether the double rules apply during the first turn.",
          yes="The rules for doubles apply on the first turn too.",
          no="The rules for doubles do not apply on the first turn."),
    _bool("turn.matching_ends", "Matching ends", "A tile must match the open end it is laid against; a train starts with the engine's number.",
          yes="A tile must match the open end it is laid against; every train starts with the engine's number.",
          no="A tile need not match the open end it is laid against."),
    _bool("turn.one_tile", "One tile a turn", "A later turn lays one tile, unless it is a double.",
          yes="On every later turn a player lays one tile, unless it is a double.",
          no="On later turns a player may lay more than one tile."),
    _bool("turn.own_train_first", "Own train first", "A player must add to the own train when able before using any other.",
          yes="A player who can add to their own train must do so before using any other train.",
          no="A player may play on any open train, even when able to add to their own."),
    _bool("turn.marked_trains_open", "Marked trains", "Another player's train is open when it carries a marker.",
          yes="Another player's train is open to everyone while it carries its owner's marker.",
          no="Another player's train is never open, marker or not."),
    _bool("turn.mexican_open", "Mexican train", "The Mexican train is open to every player.",
          yes="The Mexican train is open to every player.",
          no="The Mexican train is not open to every player."),
    _bool("turn.must_play", "Must play", "A player who can play must play.",
          yes="A player who can play must play.",
          no="A player may draw or pass even when able to play."),
    _choice("turn.cannot_play", "Unable to play", "What a player does who cannot play.", CannotPlay),
    _bool("turn.drawn_tile_only", "After drawing", "After drawing, only the drawn tile may be played.",
          yes="After drawing, only the drawn tile may be played.",
          no="After drawing, any tile in the hand may be played."),
    _bool("turn.empty_boneyard_pass", "Empty boneyard", "With an empty boneyard a player who cannot play passes and marks the train.",
          yes="With the boneyard empty, a player who cannot play passes and marks their own train.",
          no="With the boneyard empty, a player who cannot play does not simply pass."),
    _bool("turn.other_trains_before_own", "Before the own train is started", "Whether a player may use other trains before starting their own.",
          yes="A player may play on other trains before starting their own train.",
          no="A player must start their own train before playing on any other train."),
    _bool("turn.announce_last_tile", "Announcing the last tile", "A player with one tile left must announce it (mextrain does not judge it).",
          yes="A player with one tile left must announce it.",
          no="A player need not announce their last tile."),
    _choice("markers.placed", "Marker placed", "When a player's marker goes down.", MarkerPlaced),
    _choice("markers.removed", "Marker lifted", "When a player's marker is lifted.", MarkerRemoved),
    _bool("doubles.play_again", "Playing again after a double", "A player who lays a double plays again.",
          yes="A player who lays a double plays again.",
          no="Laying a double does not give another turn."),
    _choice("doubles.per_turn", "Doubles in a turn", "How many doubles a player may lay in one turn.", DoublesPerTurn),
    _choice("doubles.obligation", "Open doubles", "Whether an open double must be satisfied before other trains.", DoubleObligation),
    _choice("doubles.follow_up", "The tile after one's own double", "Where the layer's tile after a double may go.", FollowUp),
    _choice("doubles.order", "Order of open doubles", "Order in which several open doubles are satisfied.", DoubleOrder),
    _bool("doubles.dead", "Dead doubles", "A double whose number is all played stops restricting play.",
          yes="A double whose number is all played is dead and no longer restricts play.",
          no="There are no dead doubles: a double keeps its effect even when its number is all played."),
    _choice("doubles.branching", "Branching", "Whether a double opens more than one end.", Branching),
    _choice("round_end.blocked", "Blocked round", "What happens when the boneyard is empty and nobody can play.", BlockedRound),
    _bool("round_end.last_tile_double", "Going out on a double", "Whether a player may go out on a double.",
          yes="Laying one's last tile ends the round at once, even when it is a double.",
          no="A player may not go out on a double: the last tile laid may not be a double."),
    _spec("scoring.double_blank", K.INT, "Points for the double-blank", "What the double-blank counts in a hand at the end of a round.",
          examples=(0, 25, 50)),
    _number("scoring.going_out_bonus", "Going-out bonus", "What the player who goes out scores for the round.",
            zero="The player who goes out scores nothing for the round.",
            number="The player who goes out scores {n} for the round instead of nothing.",
            bounds=(-100, 0), examples=(0, -5, -10)),
    _number("scoring.open_double_penalty", "Open double penalty", "What a double left open at the end of a round costs.",
            zero="A double left open at the end of a round costs nothing.",
            number="Each double left open at the end of a round adds {n} to the score of the player whose train it stands on (none for the Mexican train).",
            bounds=(0, 100), examples=(0, 5, 10)),
    _number("scoring.marker_penalty", "Marker penalty", "What a marker still down at the end of a round costs.",
            zero="A marker still down at the end of a round costs nothing.",
            number="A player whose marker is still down at the end of a round adds {n} to their score.",
            bounds=(0, 100), examples=(0, 5, 10, 25)),
    _spec("winner.tie_breaks", K.ENUM_LIST, "Tie-breaks", "How a tie for the lowest total is broken.", TieBreak),
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
    rounds_count: Rounds | int
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
    turn_other_trains_before_own: bool
    turn_announce_last_tile: bool
    markers_placed: MarkerPlaced
    markers_removed: MarkerRemoved
    doubles_play_again: bool
    doubles_per_turn: DoublesPerTurn
    doubles_obligation: DoubleObligation
    doubles_follow_up: FollowUp
    doubles_order: DoubleOrder
    doubles_dead: bool
    doubles_branching: Branching
    round_end_blocked: BlockedRound
    round_end_last_tile_double: bool
    scoring_double_blank: int
    scoring_going_out_bonus: int
    scoring_open_double_penalty: int
    scoring_marker_penalty: int
    winner_tie_breaks: tuple[TieBreak, ...]
    boneyard_closed: bool = field(init=False, default=False)
    """Derived, once: nobody ever draws during play (``turn.cannot_play`` marker-no-draw), so a
    round where nobody can play is blocked whatever the boneyard holds (rules.blocked)."""
    limits_plays: bool = field(init=False, default=False)
    """Derived, once: a house value that forbids plays the published rulesets allow is set (no
    going out on a double, one double a turn, the own train started first); the fast path reads
    those rules only when it is."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "boneyard_closed", self.turn_cannot_play is CannotPlay.MARKER_NO_DRAW)
        object.__setattr__(self, "limits_plays", not self.round_end_last_tile_double
                           or self.doubles_per_turn is DoublesPerTurn.ONE or not self.turn_other_trains_before_own)


@dataclass(frozen=True, slots=True)
class Citation:
    """A verbatim quote from a seed file, with an English gloss.

    ``remark`` holds the translator's remarks on the gloss ("“pips”: literally “carbuncles”"),
    kept apart so that the gloss reads as a plain rendering of the quote."""

    seed: str
    quote: str
    gloss: str
    remark: str = ""

    def as_json(self) -> dict[str, str]:
        """The citation as the API gives it: ``remark`` only when there is one."""
        out = {"seed": self.seed, "quote": self.quote, "gloss": self.gloss}
        if self.remark:
            out["remark"] = self.remark
        return out


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
            key: tuple(MappingProxyType(c.as_json()) for c in rule.citations)
            for key, rule in self.rules.items()
        })

    def __repr__(self) -> str:
        return f"<Ruleset {self.id}>"

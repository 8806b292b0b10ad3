"""Reasons: why a move is legal or illegal, with stable codes.

Each :class:`ReasonCode` has a stable code (its value), whether it forbids the move, the
rule key whose citations it carries (looked up in the ruleset file, never written here),
an English sentence template and a description for the catalogue.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import NamedTuple

from .messages import Message
from .moves import MEXICAN
from .ruleset import Citation, Ruleset


class ReasonCode(enum.Enum):
    """Every reason the engine can give. The value is the stable code."""

    def __new__(cls, code: str, blocks: bool, rule: str | None, template: str, description: str) -> ReasonCode:
        obj = object.__new__(cls)
        obj._value_ = code
        return obj

    def __init__(self, code: str, blocks: bool, rule: str | None, template: str, description: str) -> None:
        self.code = code
        self.blocks = blocks
        self.rule = rule
        self.template = template
        self.description = description

    # Members are singletons: hash by identity, in C (Enum's own __hash__ runs in Python, and
    # answers hash every reason they word).
    __hash__ = object.__hash__

    # -- reasons that forbid a move ---------------------------------------------------------
    ROUND_OVER = ("round-over", True, None,
                  "The round is over.",
                  "No move can be made once the round has ended.")
    NOT_YOUR_TURN = ("not-your-turn", True, None,
                     "It is {to_move}'s turn, not {player}'s.",
                     "Only the player to move may move.")
    TILE_NOT_IN_HAND = ("tile-not-in-hand", True, None,
                        "{player} does not hold {tile}.",
                        "A tile can only be played from the player's own hand.")
    ENDS_DO_NOT_MATCH = ("ends-do-not-match", True, "turn.matching_ends",
                         "{tile} does not match the open end {end} of {train}.",
                         "A tile must match the open end of the train it is laid on.")
    TRAIN_NOT_OPEN = ("train-not-open", True, "turn.marked_trains_open",
                      "{train} is not open to {player}: it carries no marker.",
                      "Another player's train is open only while it carries its owner's marker.")
    MEXICAN_CLOSED = ("mexican-closed", True, "turn.mexican_open",
                      "The Mexican train is not open to {player} under this ruleset.",
                      "The ruleset does not open the Mexican train to everyone.")
    OWN_TRAIN_FIRST = ("own-train-first", True, "turn.own_train_first",
                       "{player} can add {own_tile} to their own train, so must play there first.",
                       "A player must add to the own train when able before using any other train.")
    FIRST_TURN_OWN_TRAIN_ONLY = ("first-turn-own-train-only", True, "first_turn.trains",
                                 "On the first turn {player} may only build their own train.",
                                 "The special first turn builds the player's own train only.")
    FIRST_TURN_TRAINS = ("first-turn-trains", True, "first_turn.trains",
                         "On the first turn {player} may only build their own train or the Mexican train.",
                         "The special first turn uses the own train or the Mexican train only.")
    FIRST_TURN_ONE_TRAIN = ("first-turn-one-train", True, "first_turn.trains",
                            "{player} has started one train this first turn and may only go on building it.",
                            "The special first turn builds one train: the own train or the Mexican train, not both.")
    MUST_SATISFY_DOUBLE = ("must-satisfy-double", True, "doubles.obligation",
                           "The open double {double} on {required} must be satisfied first.",
                           "While a double is open, the next tile must be laid on it.")
    MUST_SATISFY_EITHER_DOUBLE = ("must-satisfy-either-double", True, "doubles.order",
                                  "The open double {double} on {required}, the first laid, or {last} on {train}, "
                                  "the last laid, must be satisfied first.",
                                  "Where open doubles may be satisfied in either order, the next tile goes on the first "
                                  "or the last one laid.")
    MUST_SATISFY_OWN_DOUBLE = ("must-satisfy-own-double", True, "doubles.follow_up",
                               "{player} must follow the double {double} on {required} with a tile on it.",
                               "The layer of a double must satisfy it (or lay another double, where allowed).")
    MUST_PLAY_DRAWN_TILE = ("must-play-drawn-tile", True, "turn.drawn_tile_only",
                            "After drawing, {player} may only play the drawn tile {drawn}.",
                            "After drawing, only the drawn tile may be played.")
    MUST_PLAY_IF_ABLE = ("must-play-if-able", True, "turn.must_play",
                         "{player} can play ({example}), so must play.",
                         "A player who can play must play; drawing or passing is not allowed.")
    ALREADY_DREW = ("already-drew", True, "turn.cannot_play",
                    "{player} has already drawn this turn.",
                    "A player draws one tile when unable to play, not more.")
    BONEYARD_EMPTY = ("boneyard-empty", True, "turn.empty_boneyard_pass",
                      "The boneyard is empty: there is nothing to draw.",
                      "With an empty boneyard a player who cannot play passes.")
    NO_DRAW_ON_FIRST_TURN = ("first-turn-no-draw", True, "first_turn.cannot_start",
                             "On the first turn a player who cannot start a train does not draw.",
                             "On the special first turn a player who cannot start places a marker without drawing.")
    NO_DRAW_RULE = ("no-draw", True, "turn.cannot_play",
                    "This ruleset has no drawing: a player who cannot play places a marker.",
                    "The ruleset does not let a player draw.")
    KEEP_DRAWING = ("keep-drawing", True, "turn.cannot_play",
                    "{player} has drawn no tile they can play, so must draw again before passing.",
                    "A player who cannot play draws until a tile can be played or the boneyard is empty.")
    STOP_DRAWING = ("stop-drawing", True, "turn.cannot_play",
                    "{player} has drawn a tile they can play, so draws no more.",
                    "Drawing stops at the first tile the player can play.")
    NO_GOING_OUT_ON_DOUBLE = ("no-going-out-on-double", True, "round_end.last_tile_double",
                              "{tile} is {player}'s last tile, and a player may not go out on a double.",
                              "The last tile a player lays may not be a double.")
    ONE_DOUBLE_A_TURN = ("one-double-a-turn", True, "doubles.per_turn",
                         "{player} has laid a double this turn and may not lay another.",
                         "A player lays at most one double in a turn.")
    OWN_TRAIN_NOT_STARTED = ("own-train-not-started", True, "turn.other_trains_before_own",
                             "{player} has not started their own train, so may not play on {train}.",
                             "A player must start the own train before playing on any other train.")
    NOT_IN_BONEYARD = ("tile-not-in-boneyard", True, None,
                       "{tile} cannot be drawn: it is not in the boneyard.",
                       "A drawn tile must be one of the tiles left in the boneyard.")
    MUST_DRAW_FIRST = ("must-draw-first", True, "turn.cannot_play",
                       "{player} must draw from the boneyard before passing.",
                       "A player who cannot play draws before passing.")
    END_FIRST_TURN_WITH_DONE = ("end-first-turn-with-done", True, "first_turn.tiles",
                                "{player} has started the first turn; end it with 'done'.",
                                "A first turn in which tiles were laid ends with 'done', not a pass.")
    NOT_A_FIRST_TURN = ("done-not-first-turn", True, "first_turn.tiles",
                        "'done' ends a multi-tile first turn; this is not one.",
                        "Only a special first turn, where several tiles may be laid, is ended with 'done'.")
    NOTHING_LAID_YET = ("done-nothing-laid", True, "first_turn.cannot_start",
                        "{player} has laid no tile yet: play, or pass if unable.",
                        "A first turn in which nothing was laid ends by passing.")
    # -- reasons that explain a legal move --------------------------------------------------
    ENDS_MATCH = ("ends-match", False, "turn.matching_ends",
                  "{tile} matches the open end {end} of {train}.",
                  "The tile matches the open end of the train.")
    OWN_TRAIN = ("own-train", False, "turn.marked_trains_open",
                 "It is {player}'s own train.",
                 "A player may always build the own train.")
    TRAIN_MARKED = ("train-marked", False, "turn.marked_trains_open",
                    "{train} carries a marker, so it is open to everyone.",
                    "A train with its owner's marker is open to every player.")
    MEXICAN_OPEN = ("mexican-open", False, "turn.mexican_open",
                    "The Mexican train is open to every player.",
                    "The Mexican train is always open.")
    SATISFIES_DOUBLE = ("satisfies-double", False, "doubles.obligation",
                        "It satisfies the open double {double} on {train}, which must be satisfied first; any player "
                        "may play there to do so, marked or not.",
                        "Satisfying an open double is allowed on any train, marked or not.")
    FIRST_TURN_CHAIN = ("first-turn-chain", False, "first_turn.tiles",
                        "On the first turn {player} may lay as many tiles as they like.",
                        "The special first turn lets a player lay several tiles.")
    PLAYS_AGAIN_AFTER_DOUBLE = ("plays-again-after-double", False, "doubles.play_again",
                                "{tile} is a double: {player} plays again.",
                                "A player who lays a double plays again.")
    LIFTS_MARKER = ("lifts-marker", False, "markers.removed",
                    "Playing on the own train lifts {player}'s marker.",
                    "A marker is lifted when its owner plays on the own train.")
    LIFTS_MARKER_ANY_TILE = ("lifts-marker-any-tile", False, "markers.removed",
                             "Laying a tile lifts {player}'s marker.",
                             "A marker is lifted when its owner lays a tile on any train.")
    DRAWS_AGAIN = ("draws-again", False, "turn.cannot_play",
                   "{player} still cannot play, so draws again.",
                   "A player who cannot play draws until a tile can be played or the boneyard is empty.")
    PLACES_MARKER = ("places-marker", False, "markers.placed",
                     "{player}'s marker goes on their own train.",
                     "A player who cannot play marks the own train.")
    GOES_OUT = ("goes-out", False, "round_end.last_tile_double",
                "It is {player}'s last tile: the round ends.",
                "Laying the last tile ends the round, even when it is a double.")
    GOES_OUT_FIRST_TURN = ("goes-out-first-turn", False, "first_turn.going_out",
                           "It is {player}'s last tile: the round ends once every player has had a first turn.",
                           "A player out on the first turn lets the others finish their first turn.")
    CANNOT_PLAY_DRAW = ("cannot-play-draw", False, "turn.cannot_play",
                        "{player} cannot play, so draws one tile.",
                        "A player who cannot play draws one tile.")
    CANNOT_PLAY_PASS = ("cannot-play-pass", False, "turn.empty_boneyard_pass",
                        "{player} cannot play and can draw no more this turn, so passes.",
                        "A player who cannot play, after drawing or with an empty boneyard, passes.")
    FIRST_TURN_PASS = ("first-turn-pass", False, "first_turn.cannot_start",
                       "{player} cannot start a train on the first turn: marker, no draw.",
                       "On the special first turn a player unable to start places a marker without drawing.")
    ENDS_FIRST_TURN = ("ends-first-turn", False, "first_turn.tiles",
                       "{player} ends the first turn.",
                       "A player may end the special first turn after laying tiles.")
    DEAD_DOUBLE = ("dead-double", False, "doubles.dead",
                   "The double {double} on {train} is dead: every tile that matches it is played.",
                   "A double that can no longer be satisfied stops restricting play.")
    # -- reasons that answer a dispute: a rule that could forbid the move does not apply here --
    DOUBLE_NOT_BINDING = ("double-not-binding", False, "doubles.obligation",
                          "The open double {double} on {train} does not have to be satisfied first under this ruleset.",
                          "Where open doubles bind no one, a player may play elsewhere while one is open.")
    DOUBLE_WAITS_FIRST_TURN = ("double-waits-first-turn", False, "first_turn.doubles_apply",
                               "The open double {double} on {train} binds no one during the first turn.",
                               "Where the double rules do not apply on the first turn, an open double does not restrict it.")
    FOLLOW_UP_ANY_TRAIN = ("follow-up-any-train", False, "doubles.follow_up",
                           "{player} laid the double {double} this turn and may follow it on any train open to them.",
                           "The layer of a double may play the next tile on any train open to them.")
    DOUBLE_BEFORE_SATISFYING = ("double-before-satisfying", False, "doubles.follow_up",
                                "{tile} is a double, which may be laid before the double {double} on {train} is satisfied.",
                                "After laying a double a player may lay further doubles before satisfying it.")
    OWN_TRAIN_UNPLAYABLE = ("own-train-unplayable", False, "turn.own_train_first",
                            "{player} has no tile for their own train, so may play on another.",
                            "The own train comes first only when the player can add to it.")
    HAND_UNKNOWN = ("hand-unknown", False, None,
                    "{player}'s hand is not given, so whether they could play is not checked.",
                    "Without the hand, must-play cannot be checked.")
    # -- reasons that explain a count (check: score) ------------------------------------------
    HAND_COUNTS = ("hand-counts", False, "scoring.double_blank",
                   "{player}'s hand counts {points}.",
                   "A hand counts the pips of the tiles left in it.")
    DOUBLE_BLANK_COUNTS = ("double-blank-counts", False, "scoring.double_blank",
                           "{player} holds the double-blank, which counts {value} under this ruleset.",
                           "What the double-blank counts in a hand differs between rulesets.")
    OUT_COUNTS_ZERO = ("out-counts-zero", False, None,
                       "{player} has no tile left: 0 points.",
                       "A player who went out counts nothing.")
    GOING_OUT_BONUS = ("going-out-bonus", False, "scoring.going_out_bonus",
                       "{player} went out: the going-out bonus adds {points}.",
                       "Some tables reward the player who goes out with points below zero.")
    OPEN_DOUBLE_PENALTY = ("open-double-penalty", False, "scoring.open_double_penalty",
                           "A double is left open on {player}'s train: the penalty adds {points}.",
                           "Some tables charge points for a double left open at the end of a round.")
    MARKER_PENALTY = ("marker-penalty", False, "scoring.marker_penalty",
                      "{player}'s marker is still down: the penalty adds {points}.",
                      "Some tables charge points for a marker still down at the end of a round.")
    HAND_NOT_GIVEN = ("hand-not-given", False, None,
                      "{player}'s hand is not given, so it is not counted.",
                      "A hand that the position does not give cannot be counted.")
    HAND_NOT_KNOWN = ("hand-not-known", False, None,
                      "{player} drew tiles unseen, so the hand is not known and is not counted.",
                      "A hand holding tiles drawn unseen cannot be counted.")
    # -- reasons that set a ruleset apart from the position as a whole ------------------------
    PLAYER_COUNT = ("player-count", False, "players.count",
                    "{ruleset} is for {low} to {high} players; this position has {count}.",
                    "A ruleset whose deal does not allow the table's number of players is judged apart.")


TRAIN_PARAMS = frozenset({"train", "required"})
"""Parameters that hold a train's name; the sentence shows them through a train label."""
TrainLabel = Callable[[str], str]


def english_train_label(name: str) -> str:
    """A train named in a sentence: a Message, so that a front end can word it (rules.messages)."""
    return Message("the Mexican train") if name == MEXICAN else Message("{name}'s train", name=name)


class Reason(NamedTuple):
    """A reason with its parameters. A named tuple: the engine makes thousands of these."""

    code: ReasonCode
    params: tuple[tuple[str, object], ...] = ()
    rule: str | None = None
    """The rule key applied, when it is not the code's default."""

    @property
    def blocks(self) -> bool:
        return self.code.blocks

    @property
    def rule_key(self) -> str | None:
        return self.rule if self.rule is not None else self.code.rule

    def text(self, template: str | None = None, train_label: TrainLabel | None = None) -> str:
        """The sentence. A caller may pass a translated ``template`` and a ``train_label``
        that names a train (a player's name, or ``mexican``) in the reader's language."""
        label = train_label or english_train_label
        params = {k: label(str(v)) if k in TRAIN_PARAMS else v for k, v in self.params}
        return (template or self.code.template).format(**params)

    def citations(self, ruleset: Ruleset) -> tuple[Citation, ...]:
        key = self.rule_key
        return ruleset.citations(key) if key is not None else ()

    def __str__(self) -> str:
        return f"{self.code.value}: {self.text()}"


DISPUTE_ANSWERS = frozenset({
    ReasonCode.DOUBLE_NOT_BINDING, ReasonCode.DOUBLE_WAITS_FIRST_TURN, ReasonCode.FOLLOW_UP_ANY_TRAIN,
    ReasonCode.DOUBLE_BEFORE_SATISFYING, ReasonCode.OWN_TRAIN_UNPLAYABLE, ReasonCode.DEAD_DOUBLE,
    ReasonCode.SATISFIES_DOUBLE, ReasonCode.TRAIN_MARKED,
})
"""Non-blocking reasons that say why a rule which forbids such a move elsewhere (under another
ruleset, or in a nearby position) does not forbid this one: shown first with a legal verdict."""


def reason(code: ReasonCode, rule: str | None = None, **params: object) -> Reason:
    """A reason; its parameters (tiles, names, pips) are formatted only when its text is read."""
    return _make(Reason, (code, tuple(params.items()), rule))


_make = tuple.__new__
"""Makes a named tuple from its fields, without the generated ``__new__`` (reasons are made by the thousand)."""

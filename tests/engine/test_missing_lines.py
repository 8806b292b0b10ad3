"""A missing required line is reported where the player types it: at the end of the last line
written that comes before it in the format's order (line 1, column 1 when none does), and only
once what is written reads correctly: an error at an exact place (a bad tile, an unknown key, a
name not in 'players') comes first, wherever it stands in the text."""

from __future__ import annotations

import pytest

from rules.errors import ErrorCode
from rules.position import MissingLineError, Position, PositionError, PositionSyntaxError

PLAYERS_FIRST = ("the position has no 'players:' line: start it with one naming the seats, "
                 "like 'players: Ann Bob'")
PLAYERS_AFTER = ("the position has no 'players:' line: add one after this line naming the seats, "
                 "like 'players: Ann Bob'")
ENGINE = "the position has no 'engine:' line: add one after this line, like 'engine: 12-12' or 'engine: 12'"


def turn(name: str = "Ann") -> str:
    return f"the position has no 'turn:' line: add one after this line naming the player to move, like 'turn: {name}'"


def error_of(text: str) -> PositionError:
    with pytest.raises(PositionError) as info:
        Position.parse(text)
    return info.value


def insert_after(text: str, line: int, column: int, new: str) -> str:
    """``text`` with ``new`` typed as a line of its own at (line, column): the end of that line, or
    the top of the text at (1, 1)."""
    lines = text.split("\n")
    if (line, column) == (1, 1) and len(lines[0]) > 0:
        return new + "\n" + text
    assert column == len(lines[line - 1]) + 1, "a missing line is reported at the end of a line"
    return "\n".join([*lines[:line], new, *lines[line:]])


# (text, line, column, message, the line a player adds there)
CASES = [
    # no 'players:' line: it starts the position, or follows the 'variant:' line
    ("", 1, 1, PLAYERS_FIRST, None),
    ("# only a comment\n\n", 1, 1, PLAYERS_FIRST, None),
    ("engine: 12-12\nAnn: -\nBob: -\nturn: Ann\n", 1, 1, PLAYERS_FIRST, "players: Ann Bob"),
    ("# a comment\nvariant: howto   # the ruleset\nengine: 12\nAnn: -\nBob: -\nturn: Ann\n", 2, 31, PLAYERS_AFTER,
     "players: Ann Bob"),
    # no 'engine:' line: it follows 'players:' (or 'set:', 'variant:', whichever is written last)
    ("players: Ann Bob\nAnn: -\nBob: -\nturn: Ann\nhand: 1-2\n", 1, 17, ENGINE, "engine: 12-12"),
    ("players: Ann Bob\nset: double-12\nAnn: -\nBob: -\nturn: Ann\n", 2, 15, ENGINE, "engine: 12"),
    ("variant: howto\nAnn: -\nBob: -\nturn: Ann\nplayers: Ann Bob\n", 5, 17, ENGINE, "engine: 12"),
    ("players: Ann Bob\nAnn: 12-1\nhand Ann: 1-2\ncheck: score\n", 1, 17, ENGINE, "engine: 12"),
    # no 'turn:' line: it follows the last train (or 'boneyard:', or any line before it in the format)
    ("players: Ann Bob\nengine: 12-12\nAnn: -\nBob: -\nhand: 1-2\n", 4, 7, turn(), "turn: Ann"),
    ("players: Ann Bob\nengine: 12-12\nAnn: -\nBob: -   # not started\nhand: 1-2\n", 4, 23, turn(), "turn: Ann"),
    ("players: Cy Dee\nengine: 12\nCy: 12-3\nmexican: -\nboneyard: 20\nhand: 3-4\nDee: -\n", 7, 7, turn("Cy"),
     "turn: Cy"),
    ("players: Ann Bob\nengine: 12\nhand: 1-2\n", 2, 11, turn(), "turn: Ann"),
    ("players: Ann Bob\nengine: 12\nhand Ann: 1-2\nmoves: Ann: draw\ncheck: score\n", 2, 11, turn(), "turn: Ann"),
    ("players: Ann Bob\r\nengine: 12\r\nAnn: -\r\nhand: 1-2\r\n", 3, 7, turn(), None),
]


@pytest.mark.parametrize("text,line,column,message,fix", CASES)
def test_a_missing_line_is_reported_where_it_is_typed(text: str, line: int, column: int, message: str,
                                                      fix: str | None) -> None:
    err = error_of(text)
    assert isinstance(err, MissingLineError) and isinstance(err, PositionSyntaxError)
    assert err.code is ErrorCode.SYNTAX
    assert (err.line, err.column) == (line, column)
    assert str(err) == f"line {line}, column {column}: {message}"
    if fix is not None:  # typed where the error points, the line is no longer missing
        fixed = insert_after(text, line, column, fix)
        try:
            Position.parse(fixed)
        except PositionError as again:
            assert not (isinstance(again, MissingLineError) and again.message == err.message), fixed


@pytest.mark.parametrize(
    "text,where,message",
    [
        # the exact error stands after the place of the missing line ...
        ("players: Ann Bob\nengine: 12-12\nAnn: -\nBob: -\nhand: 1-2 1-x\n", (5, 11),
         "expected a tile like 6-4, found '1-x'"),
        ("players: Ann Bob\nAnn: -\nBob: 12-4 4-x\nturn: Ann\n", (3, 11), "expected a tile like 6-4, found '4-x'"),
        ("players: Ann Bob\nengine: 12\nAnn: -\nhand: 1-2\ncheck: Ann: 1-2 -> Zed\n", (5, 20),
         "expected a train: a player's name or 'mexican' (Ann, Bob), found 'Zed'"),
        ("engine: 12\nAnn: -\nturn: Ann\nhand: 12-x\n", (4, 7), "expected a tile like 6-4, found '12-x'"),
        # ... and before it
        ("players: Ann Bob\ncolour: red\nAnn: -\nBob: -\nhand: 1-2\n", (2, 1),
         "expected a known key (variant, players, set, engine, phase, round, boneyard, turn, hand, open-doubles, "
         "moves, check, out, mexican) or a player's name (Ann, Bob), found 'colour'"),
        ("players: Ann Bob\nengine: 12-12\nAnn: 12-1 1-x\nBob: -\nhand: 1-2\n", (3, 11),
         "expected a tile like 6-4, found '1-x'"),
        ("players: Ann Bob\nphase: later\nAnn: -\nBob: -\nturn: Ann\n", (2, 8),
         "expected 'first-turn' or 'play', found 'later'"),
        ("variant: howto\nround: x\nengine: 12\nturn: Ann\n", (2, 8), "expected a round number from 1 to 30, found 'x'"),
        # a train that does not chain is an exact error too (once the engine is known)
        ("players: Ann Bob\nengine: 12\nAnn: 12-1 2-3\nBob: -\n", (3, 11),
         "the train does not chain: 3-2 does not match the open end 1"),
        # and so is a tile written twice, when only 'turn:' is missing (the position is whole without it)
        ("players: Ann Bob\nengine: 12\nAnn: 12-1\nBob: 12-1\n", (4, None),
         "12-1 appears twice: in Ann's train (line 3) and in Bob's train"),
    ],
)
def test_an_error_at_an_exact_place_comes_before_a_missing_line(text: str, where: tuple[int, int | None],
                                                                 message: str) -> None:
    err = error_of(text)
    assert not isinstance(err, MissingLineError)
    assert (err.line, err.column) == where
    assert err.message == message


@pytest.mark.parametrize(
    "text,line,column,message",
    [
        # checks that need the missing line: the chain of a train needs the engine, a name needs 'players:'
        ("players: Ann Bob\nAnn: 11-1 2-3\nBob: -\nturn: Ann\n", 1, 17, ENGINE),
        ("engine: 12\nZed: -\nturn: Zed\n", 1, 1, PLAYERS_FIRST),
        # a tile twice is checked on the whole position, which needs its engine
        ("players: Ann Bob\nAnn: 12-1\nBob: 12-1\nturn: Ann\n", 1, 17, ENGINE),
        # 'hand:' names the player to move: with 'turn:' missing, that is the error, not the 'hand:' line
        ("players: Ann Bob\nengine: 12\nAnn: -\nBob: -\nhand: 1-2\ncheck: Ann: 1-2 -> Ann\n", 4, 7, turn()),
        # two lines missing: the first in the format's order
        ("players: Ann Bob\nAnn: -\nBob: -\nhand: 1-2\n", 1, 17, ENGINE),
        ("Ann: -\nBob: -\nhand: 1-2\n", 1, 1, PLAYERS_FIRST),
    ],
)
def test_what_needs_the_missing_line_waits_for_it(text: str, line: int, column: int, message: str) -> None:
    err = error_of(text)
    assert isinstance(err, MissingLineError)
    assert str(err) == f"line {line}, column {column}: {message}"


def test_only_a_missing_turn_leaves_a_position_to_check_under_the_rulesets() -> None:
    """A front end checks what the rulesets refuse (a pip above the set) before the missing 'turn:'."""
    err = error_of("players: Ann Bob\nengine: 12-12\nAnn: -\nBob: -\nhand: 1-2 13-1\n")
    assert isinstance(err, MissingLineError) and err.partial is not None
    assert err.partial.players == ("Ann", "Bob") and err.partial.engine == 12 and err.partial.turn is None
    assert err.partial.highest is not None and (err.partial.highest.line, err.partial.highest.column) == (5, 11)
    engine_missing = error_of("players: Ann Bob\nAnn: -\nBob: -\nturn: Ann\n")
    assert isinstance(engine_missing, MissingLineError) and engine_missing.partial is None


def test_a_scoring_question_still_needs_no_engine_or_turn() -> None:
    p = Position.parse("players: Ann Bob\nhand Bob: 0-0 12-11\ncheck: score\n")
    assert p.engine is None and p.turn is None and p.score
    err = error_of("players: Ann Bob\nhand: 1-2\ncheck: score\n")
    assert not isinstance(err, MissingLineError)
    assert str(err) == "line 2, column 1: expected 'hand <name>:' (without a 'turn:' line, 'hand:' names nobody)"

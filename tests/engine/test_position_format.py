"""The position format: round trips, and errors that name the line and column."""

from __future__ import annotations

import pytest

from rules.moves import Move
from rules.position import ImpossiblePositionError, Position, PositionSyntaxError
from rules.tiles import Tile, full_set, set_size
from tests import examples

SPEC_EXAMPLE = (
    "# Bob claims he may play 6-4 on Cy's train\n"
    "variant: masters+mandatory-doubles   # a comment\n" + examples.SPEC_EXAMPLE
)


def test_tile_text_both_ways() -> None:
    assert Tile.parse("6-4") == Tile.parse("4-6") == Tile.of(4, 6)
    assert str(Tile.parse("4-6")) == "6-4"
    assert eval(repr(Tile.parse("12-0"))) == Tile.of(12, 0)
    assert len(full_set(12)) == set_size(12) == 91
    assert [set_size(n) for n in (6, 9, 12, 15, 18)] == [28, 55, 91, 136, 190]


def test_move_text_both_ways() -> None:
    for text in ("Bob: 7-7 -> Bob", "Bob: 7-1 -> mexican", "Cy: draw", "Cy: draw 5-3", "Cy: pass", "Ann: done"):
        assert str(Move.parse(text)) == text


def test_spec_example_round_trips() -> None:
    p = Position.parse(SPEC_EXAMPLE)
    assert p.variant == "masters+mandatory-doubles"
    assert p.train("Cy").unknown_prefix and p.train("Cy").open_end(12) == 6
    assert p.train("Ann").marker and not p.train("Bob").marker
    assert p.hand("Bob") == tuple(Tile.parse(t) for t in "6-4 7-7 9-2 2-11".split())
    again = Position.parse(p.format())
    assert again == p
    assert again.format() == p.format()


def test_keys_are_case_insensitive_and_wrong_way_tiles_are_normalised() -> None:
    p = Position.parse("PLAYERS: Ann Bob\nEngine: 9\nann: 4-9 4-4 1-4\nTurn: bob\nBoneyard: -\n")
    assert p.turn == "Bob"
    assert p.train("Ann").format(9) == "9-4 4-4 4-1"
    assert p.boneyard == 0


def test_moves_indented_or_semicolons() -> None:
    text = "players: Ann Bob\nengine: 6\nturn: Ann\nmoves: Ann: 6-1 -> Ann; Bob: draw\n  Ann: pass\n"
    p = Position.parse(text)
    assert [str(m.move) for m in p.moves] == ["Ann: 6-1 -> Ann", "Bob: draw", "Ann: pass"]
    assert [m.line for m in p.moves] == [4, 4, 5]
    assert Position.parse(p.format()) == p


@pytest.mark.parametrize(
    "text,message",
    [
        ("players: Ann Bob\nengine: 12\nturn: Ann\nhand: 6-4 6x4\n",
         "line 4, column 11: expected a tile like 6-4, found '6x4'"),
        ("players: Ann Bob\nengine: 12\nturn: Ann\nhand: 6-4 19-4\n",
         "line 4, column 11: expected pips from 0 to 18, found '19-4'"),
        ("players: Ann Bob\nengine: 12\nturn: Zed\n",
         "line 3, column 7: expected a player in 'players' (Ann, Bob), found 'Zed'"),
        ("players: Ann Bob\nengine: 12\ncolour: red\nturn: Ann\n",
         "line 3, column 1: expected a known key (variant, players, set, engine, phase, round, boneyard, turn, hand, "
         "open-doubles, moves, check, out, mexican) or a player's name (Ann, Bob), found 'colour'"),
        ("players: Ann Bob\nengine: 12\nturn: Ann\ncheck: Bob: 6-4 => Ann\n",
         "line 4, column 17: expected '-> TRAIN' after the tile, found '=>'"),
        ("players: Ann Bob\nengine: 12\nturn: Ann\nmoves:\n  Ann: 12-3 -> Cy\n",
         "line 5, column 16: expected a train: a player's name or 'mexican' (Ann, Bob), found 'Cy'"),
        ("players: Ann\nengine: 12\nturn: Ann\n", "line 1, column 10: expected at least two player names, separated by spaces"),
        ("players: Ann Bob\nengine: 12-11\nturn: Ann\n",
         "line 2, column 9: expected the engine double like 12-12 or 12, found '12-11'"),
        ("players: Ann Bob\nengine: 12\nturn: Ann\nphase: second\n",
         "line 4, column 8: expected 'first-turn' or 'play', found 'second'"),
        ("players: Ann Bob\nengine: 12\nturn: Ann\nturn: Bob\n", "line 4, column 1: 'turn' is given twice (first on line 3)"),
        ("players: Ann Bob\nengine: 12\nthis line has no colon\n",
         "line 3, column 1: expected 'key: value', found 'this line has no colon'"),
        # a count or a list of tiles is expected, not a tile alone
        ("players: Ann Bob\nengine: 12\nturn: Ann\nboneyard: -3\n",
         "line 4, column 11: expected how many tiles are left (digits 0-9) or the tiles themselves, found '-3'"),
        ("players: Ann Bob\nengine: 12\nturn: Ann\nboneyard: 3-\n",
         "line 4, column 11: expected how many tiles are left (digits 0-9) or the tiles themselves, found '3-'"),
        ("players: Ann Bob\nengine: 12\nturn: Ann\nboneyard: 3-4 -3\n",
         "line 4, column 15: expected a tile like 6-4, found '-3'"),
        ("players: Ann Bob\nhand Ann: 3-4\nout: Ann\ncheck: score\n",
         "line 3, column 6: Ann went out, so holds no tile, yet the hand on line 2 holds some"),
        ("players: Ann Bob\nout: Ann Bob\ncheck: score\n", "line 2, column 6: expected one player's name after 'out:'"),
        ("players: Ann Bob\nout: Zed\ncheck: score\n",
         "line 2, column 6: expected a player in 'players' (Ann, Bob), found 'Zed'"),
        ("players: Ann Out\nengine: 12\nturn: Ann\n",
         "line 1, column 14: expected a player's name, found the reserved word 'Out'"),
    ],
)
def test_syntax_errors_name_line_and_column(text: str, message: str) -> None:
    with pytest.raises(PositionSyntaxError) as info:
        Position.parse(text)
    assert str(info.value) == message


@pytest.mark.parametrize(
    "text,code,message",
    [
        ("players: Ann Bob\nengine: 12\nAnn: 12-3\nturn: Bob\nhand: 3-12\n", "tile-twice",
         "line 5: 12-3 appears twice: in Ann's train (line 3) and in Bob's hand"),
        ("players: Ann Bob\nengine: 12\nturn: Ann\nhand: 12-12\n", "tile-twice",
         "line 4: 12-12 appears twice: in the engine (line 2) and in Ann's hand"),
        ("players: Ann Bob\nengine: 12\nAnn: 12-3 4-5\nturn: Ann\n", "train-does-not-chain",
         "line 3, column 11: the train does not chain: 5-4 does not match the open end 3"),
        ("players: Ann Bob\nengine: 12\nAnn: 11-3\nturn: Ann\n", "train-does-not-chain",
         "line 3, column 6: the train does not chain: 11-3 does not match the open end 12 "
         "(a train starts with the engine's number)"),
        ("players: Ann Bob\nset: double-9\nengine: 9\nturn: Ann\nhand: 10-1\n", "pip-above-set",
         "line 5, column 7: 10-1 has a pip above the set's maximum 9"),
        ("players: Ann Bob\nset: double-6\nengine: 6\nturn: Ann\nboneyard: 40\n", "too-many-tiles",
         "line 5: the position holds 41 tiles but a double-6 set has only 28"),
        ("players: Ann Bob\nengine: 6\nAnn: 6-1\nturn: Ann\nopen-doubles: Ann\n", "not-an-open-double",
         "line 5: Ann's train does not end in a double"),
    ],
)
def test_impossible_positions_say_why(text: str, code: str, message: str) -> None:
    with pytest.raises(ImpossiblePositionError) as info:
        Position.parse(text)
    assert info.value.code.value == code
    assert str(info.value) == message


def test_size_limit() -> None:
    with pytest.raises(PositionSyntaxError) as info:
        Position.parse("#" * 20_001)
    assert "at most 20000 are accepted" in str(info.value)


def test_lines_are_numbered_as_an_editor_numbers_them() -> None:
    """A form feed or a Unicode line separator does not start a new line; CRLF counts once."""
    text = "players: Ann Bob\r\n# a comment\x0c with a form feed\r\nengine: 12\u2028\nturn: Ann\nhand: 6x4\n"
    with pytest.raises(PositionSyntaxError) as info:
        Position.parse(text)
    assert info.value.line == 5


def test_a_scoring_question_needs_only_players_hands_and_check_score() -> None:
    p = Position.parse("players: Ann Bob Cy\nhand Bob: 0-0 12-11\nhand Ann: -\nCHECK: Score\n")
    assert p.score and p.check is None
    assert p.engine is None and p.turn is None
    assert p.hands == (("Ann", ()), ("Bob", (Tile.of(0, 0), Tile.of(12, 11))))
    assert p.format() == "players: Ann Bob Cy\nhand Ann: -\nhand Bob: 0-0 12-11\ncheck: score\n"
    assert Position.parse(p.format()) == p


def test_a_full_scoring_question_round_trips() -> None:
    text = examples.SPEC_EXAMPLE.replace("check: Bob: 6-4 -> Cy", "check: score") + "hand Ann: 1-2\n"
    p = Position.parse(text)
    assert p.score and p.check is None and p.turn == "Bob" and p.engine == 12
    again = Position.parse(p.format())
    assert again == p and "check: score\n" in p.format()


@pytest.mark.parametrize(
    "text,message",
    [
        ("players: Ann Bob\nhand Ann: 1-2\n",
         "line 1, column 17: the position has no 'engine:' line: add one after this line, like 'engine: 12-12' or 'engine: 12'"),
        ("players: Ann Bob\nengine: 12\nhand Ann: 1-2\ncheck: Ann: draw\n",
         "line 2, column 11: the position has no 'turn:' line: add one after this line naming the player to move, like 'turn: Ann'"),
        ("players: Ann Bob\nAnn: 12-1\nhand Ann: 1-2\ncheck: score\n",
         "line 1, column 17: the position has no 'engine:' line: add one after this line, like 'engine: 12-12' or 'engine: 12'"),
        ("players: Ann Bob\nhand Ann: 1-2\nmoves: Ann: draw\ncheck: score\n",
         "line 1, column 17: the position has no 'turn:' line: add one after this line naming the player to move, like 'turn: Ann'"),
        ("players: Ann Bob\nhand: 1-2\ncheck: score\n",
         "line 2, column 1: expected 'hand <name>:' (without a 'turn:' line, 'hand:' names nobody)"),
    ],
)
def test_without_check_score_engine_and_turn_are_required(text: str, message: str) -> None:
    with pytest.raises(PositionSyntaxError) as info:
        Position.parse(text)
    assert str(info.value) == message


def test_out_names_the_player_who_went_out() -> None:
    """``out: Ann``: Ann's hand is empty (she counts 0); a player with neither a hand nor ``out:``
    is not given. The line formats after the hands and parses back."""
    p = Position.parse("players: Ann Bob Cy\nOUT: ann\nhand Bob: 0-0 12-11\ncheck: score\n")
    assert p.out == "Ann" and p.hand("Ann") == () and p.hand("Cy") is None
    assert p.format() == "players: Ann Bob Cy\nhand Bob: 0-0 12-11\nout: Ann\ncheck: score\n"
    assert Position.parse(p.format()) == p
    agreed = Position.parse("players: Ann Bob\nhand Ann: -\nout: Ann\ncheck: score\n")
    assert agreed.out == "Ann" and Position.parse(agreed.format()) == agreed

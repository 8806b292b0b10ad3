"""The position text format (``shared/spec/position-format.md``): parse and format.

``Position.parse(text)`` / ``position.format()``; ``Position.parse(p.format()) == p``.
Errors name the line and column and what was expected (:class:`PositionSyntaxError`), or
say why a well-formed position cannot arise in play (:class:`ImpossiblePositionError`).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from .errors import ErrorCode, InputError
from .messages import Message
from .moves import MEXICAN, Move, MoveSyntaxError, parse_move
from .numbers import ascii_int
from .ruleset import MAX_ROUNDS
from .tiles import MAX_PIP, STANDARD_SETS, Tile, format_tiles, set_size

MAX_TEXT = 20_000
"""Largest position text accepted, in characters."""
MAX_PLAYERS = 20
MAX_MOVES = 2_000

KEYS = ("variant", "players", "set", "engine", "phase", "round", "boneyard", "turn", "hand",
        "open-doubles", "moves", "check", "out", MEXICAN)
_NAME_RE = re.compile(r"[^\s:#;*]+\Z")
# Numbers are ASCII digits only (str.isdigit() also accepts '²', '①' or Arabic-Indic digits,
# which int() refuses or reads), and short: no int() of thousands of digits.
_ENGINE_RE = re.compile(r"(\d{1,2})(?:-(\d{1,2}))?\Z", re.ASCII)
_SET_RE = re.compile(r"double-(\d{1,2})\Z", re.IGNORECASE | re.ASCII)
_DIGITS_RE = re.compile(r"\d+\Z", re.ASCII)
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_TILE_WORD = re.compile(r"(?<!\S)\d+-\d+(?!\S)", re.ASCII)
_BEFORE_TURN = ("variant", "players", "set", "engine", "round", "phase", "boneyard")
"""The keys that come before 'turn:' in the format's order (with the trains): a missing 'turn:'
line is reported after the last of them."""
SCORE = "score"
"""``check: score``: a scoring question."""


PositionError = InputError
"""Bad input in a position: the one input-error type (rules.errors)."""


class PositionSyntaxError(InputError):
    """The text does not follow the format."""


class MissingLineError(PositionSyntaxError):
    """A required line is missing; reported at the end of the line after which it belongs.

    ``partial`` is the position as written, when what is missing is only the 'turn:' line: a front
    end checks it under the rulesets first (a pip above the set is an error at an exact place,
    reported before the missing line), then raises this error."""

    partial: Position | None = None


class ImpossiblePositionError(InputError):
    """The text is well formed but the position cannot arise in play; ``code`` names the check."""


def check_tile_count(count: int, set_max: int, line: int | None = None) -> None:
    """A position holds no more tiles than its set (the parser checks the set the text names or
    its pips need; the engine, the set each ruleset plays with)."""
    if count > set_size(set_max):
        raise ImpossiblePositionError(
            Message("the position holds {count} tiles but a double-{set} set has only {size}",
                    count=count, set=set_max, size=set_size(set_max)), line, None, ErrorCode.TOO_MANY_TILES)


class Phase(enum.Enum):
    FIRST_TURN = "first-turn"
    PLAY = "play"


@dataclass(frozen=True, slots=True)
class TrainLine:
    """A train as written: known tiles from the engine outward (or after ``...``)."""

    tiles: tuple[Tile, ...] = ()
    unknown_prefix: bool = False
    near: int | None = None
    """With ``...``: the pip of the first known tile that faces the unknown part."""
    marker: bool = False

    @property
    def started(self) -> bool:
        return bool(self.tiles) or self.unknown_prefix

    def oriented(self, engine: int) -> Iterator[tuple[int, int]]:
        """Each known tile as (near end, far end)."""
        end = self.near if self.unknown_prefix else engine
        assert end is not None or not self.tiles
        for t in self.tiles:
            assert end is not None
            far = t.other(end)
            yield end, far
            end = far

    def open_end(self, engine: int) -> int:
        if not self.tiles:
            return engine
        end = self.near if self.unknown_prefix else engine
        assert end is not None
        for t in self.tiles:
            end = t.other(end)
        return end

    def format(self, engine: int) -> str:
        parts = ["..."] if self.unknown_prefix else []
        parts += [f"{a}-{b}" for a, b in self.oriented(engine)]
        if not parts:
            parts = ["-"]
        if self.marker:
            parts.append("*")
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class TileAt:
    """A tile and where it is written (1-based line and column)."""

    tile: Tile
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class MoveLine:
    move: Move
    line: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Position:
    players: tuple[str, ...]
    engine: int | None
    """None only in a scoring question that gives no trains: the set's highest double then."""
    trains: tuple[TrainLine, ...]
    """One per player, in seat order."""
    mexican: TrainLine
    turn: str | None
    """None only in a scoring question (``check: score``) without moves."""
    boneyard: int | tuple[Tile, ...] | None = None
    """A count, the listed tiles, or None when not given."""
    hands: tuple[tuple[str, tuple[Tile, ...]], ...] = ()
    """Known hands, in seat order."""
    variant: str | None = None
    set_max: int | None = None
    phase: Phase = Phase.PLAY
    open_doubles: tuple[str, ...] | None = None
    round: int | None = None
    moves: tuple[MoveLine, ...] = ()
    check: Move | None = None
    score: bool = False
    """``check: score``: what each given hand counts."""
    out: str | None = None
    """``out:``: the player who went out this round (their hand is empty, counted 0)."""
    check_line: int = field(default=0, compare=False)
    variant_at: tuple[int, int] = field(default=(0, 0), compare=False)
    """Line and column of the variant id, for error messages."""
    hands_at: tuple[tuple[int, int], ...] = field(default=(), compare=False)
    """Line and column of each hand in ``hands``."""
    round_at: tuple[int, int] = field(default=(0, 0), compare=False)
    """Line and column of the round number."""
    boneyard_at: tuple[int, int] = field(default=(0, 0), compare=False)
    """Line and column of the boneyard's value."""
    highest: TileAt | None = field(default=None, compare=False)
    """The first tile written with the highest pip (moves included): a set too small for it is
    refused there, by line and column."""

    def __post_init__(self) -> None:
        if self.boneyard == ():
            object.__setattr__(self, "boneyard", 0)  # an empty list and '0' say the same

    @staticmethod
    def parse(text: str) -> Position:
        return _Parser(text).parse()

    def hand(self, name: str) -> tuple[Tile, ...] | None:
        """The player's hand: as given, empty for the player who went out (``out:``), else None."""
        for owner, tiles in self.hands:
            if owner == name:
                return tiles
        return () if name == self.out else None

    def train(self, name: str) -> TrainLine:
        return self.mexican if name == MEXICAN else self.trains[self.players.index(name)]

    @property
    def boneyard_count(self) -> int | None:
        return len(self.boneyard) if isinstance(self.boneyard, tuple) else self.boneyard

    def format(self) -> str:
        """The canonical text of this position; parsing it gives this position back."""
        out = []
        if self.variant is not None:
            out.append(f"variant: {self.variant}")
        out.append("players: " + " ".join(self.players))
        if self.set_max is not None:
            out.append(f"set: double-{self.set_max}")
        if self.engine is not None:
            out.append(f"engine: {self.engine}-{self.engine}")
        if self.round is not None:
            out.append(f"round: {self.round}")
        if self.phase is not Phase.PLAY:
            out.append(f"phase: {self.phase.value}")
        if self.engine is not None:
            for name, train in zip(self.players, self.trains):
                out.append(f"{name}: {train.format(self.engine)}")
            out.append(f"{MEXICAN}: {self.mexican.format(self.engine)}")
        if isinstance(self.boneyard, tuple):
            out.append("boneyard: " + (format_tiles(self.boneyard) if self.boneyard else "0"))
        elif self.boneyard is not None:
            out.append(f"boneyard: {self.boneyard}")
        if self.turn is not None:
            out.append(f"turn: {self.turn}")
        for name, tiles in self.hands:
            key = "hand" if name == self.turn else f"hand {name}"
            out.append(f"{key}: {format_tiles(tiles) if tiles else '-'}")
        if self.out is not None:
            out.append(f"out: {self.out}")
        if self.open_doubles is not None:
            out.append("open-doubles: " + (" ".join(self.open_doubles) or "-"))
        if self.moves:
            out.append("moves:")
            out.extend(f"  {m.move}" for m in self.moves)
        if self.check is not None:
            out.append(f"check: {self.check}")
        elif self.score:
            out.append(f"check: {SCORE}")
        return "\n".join(out) + "\n"

    def __str__(self) -> str:
        return self.format()


Resolver = Callable[..., str]
_WORD_RE = re.compile(r"\S+")
_NOT_A_NAME_RE = re.compile(r"[\d-]+|\.\.\.|…")
"""A word that reads as pips or '...': not a player's name."""


def _seen_in(kind: str, name: str) -> Message:
    """Where a tile was seen ("engine", "train", "hand" or "boneyard"), in words."""
    if kind == "engine":
        return Message("the engine")
    if kind == "train":
        return Message("{name}'s train", name=name) if name != MEXICAN else Message("the Mexican train")
    if kind == "hand":
        return Message("{name}'s hand", name=name)
    return Message("the boneyard")


@dataclass(slots=True)
class _Line:
    number: int
    key: str
    key_col: int
    value: str
    value_col: int
    width: int
    """The line's length as typed (comment included): its end is where a missing line is reported."""


def _clip(text: str, limit: int = 40) -> str:
    """``text``, cut short for an error message."""
    return text if len(text) <= limit else text[:limit] + "…"


def _strip_comment(raw: str) -> str:
    i = raw.find("#")
    return raw if i < 0 else raw[:i]


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.highest: TileAt | None = None

    def saw(self, tile: Tile, line: int, column: int) -> Tile:
        """Note where the highest pip is written; the tile, unchanged."""
        if self.highest is None or tile.high > self.highest.tile.high:
            self.highest = TileAt(tile, line, column)
        return tile

    def error(self, line: _Line | int, message: str, column: int | None = None) -> PositionSyntaxError:
        number = line.number if isinstance(line, _Line) else line
        col = column if column is not None else (line.value_col if isinstance(line, _Line) else 1)
        return PositionSyntaxError(message, number, col)

    def impossible(self, code: ErrorCode, message: str, line: int | None = None,
                   column: int | None = None) -> ImpossiblePositionError:
        return ImpossiblePositionError(message, line, column, code)

    def words(self, line: _Line) -> list[tuple[str, int]]:
        col = line.value_col
        return [(m.group(), col + m.start()) for m in _WORD_RE.finditer(line.value)]

    # -- lines ---------------------------------------------------------------------------
    def lines(self) -> tuple[list[_Line], list[tuple[int, str, int]]]:
        """Key lines, and move lines (number, text, column) that follow ``moves:``."""
        if len(self.text) > MAX_TEXT:
            raise PositionSyntaxError(Message("the position is {length} characters long; at most {limit} are accepted",
                                              length=len(self.text), limit=MAX_TEXT), code=ErrorCode.TOO_LARGE)
        out: list[_Line] = []
        move_lines: list[tuple[int, str, int]] = []
        in_moves = False
        # Lines end at \n, \r\n or \r only, as an editor numbers them (not at \f or \u2028).
        for number, raw in enumerate(_LINE_BREAK.split(self.text), start=1):
            body = _strip_comment(raw)
            if not body.strip():
                continue
            indented = body[0] in " \t"
            if in_moves and indented:
                stripped = body.lstrip()
                move_lines.append((number, stripped.rstrip(), len(body) - len(stripped) + 1))
                continue
            in_moves = False
            colon = body.find(":")
            lead = len(body) - len(body.lstrip())
            if colon < 0:
                raise self.error(number, Message("expected 'key: value', found {found}", found=repr(body.strip())),
                                 lead + 1)
            key = " ".join(body[:colon].split())
            rest = body[colon + 1:]
            value_col = colon + 2 + (len(rest) - len(rest.lstrip()))
            out.append(_Line(number, key, lead + 1, rest.strip(), value_col, len(raw)))
            if key.lower() == "moves":
                in_moves = True
        return out, move_lines

    def parse(self) -> Position:
        lines, move_lines = self.lines()
        seen: dict[str, _Line] = {}
        train_lines: list[_Line] = []
        hand_lines: list[tuple[_Line, str | None]] = []
        for ln in lines:
            low = ln.key.lower()
            if low.startswith("hand ") or low == "hand":
                hand_lines.append((ln, ln.key[5:].strip() if low != "hand" else None))
                continue
            if low in KEYS and low != MEXICAN:
                if low in seen:
                    raise self.error(ln, Message("'{key}' is given twice (first on line {first})", key=low,
                                                 first=seen[low].number), ln.key_col)
                seen[low] = ln
                continue
            train_lines.append(ln)
        # A missing required line is reported after what is written has been read: an error at an
        # exact place (a bad tile, an unknown key) names what to fix where it is; the missing line
        # comes next, at the end of the line after which it belongs (self.missing_at).
        missing: list[MissingLineError] = []
        players: tuple[str, ...] = ()
        if "players" in seen:
            players = self.players(seen["players"])
        else:
            line, column = self.missing_at(lines, ("variant",))
            missing.append(MissingLineError(Message(
                "the position has no 'players:' line: add one after this line naming the seats, like 'players: Ann Bob'")
                if (line, column) != (1, 1) else Message(
                "the position has no 'players:' line: start it with one naming the seats, like 'players: Ann Bob'"),
                line, column))
        folded = {p.casefold(): p for p in players}

        def resolve(name: str, line: _Line | int, column: int, what: str = "") -> str:
            if not players:  # no 'players:' line: no name can be checked (reported as missing)
                return name
            found = folded.get(name.casefold())
            if found is None:
                raise self.error(line, Message("expected {what} ({names}), found {found}",
                                               what=what or Message("a player in 'players'"),
                                               names=", ".join(players), found=repr(name)), column)
            return found

        score = "check" in seen and seen["check"].value.strip().lower() == SCORE
        engine: int | None = None
        if "engine" in seen:
            engine = self.engine(seen["engine"])
        elif not score or train_lines:
            line, column = self.missing_at(lines, ("variant", "players", "set"))
            missing.append(MissingLineError(Message(
                "the position has no 'engine:' line: add one after this line, like 'engine: 12-12' or 'engine: 12'"),
                line, column))
        set_max = self.set_line(seen["set"]) if "set" in seen else None
        trains: dict[str, TrainLine] = {}
        train_at: dict[str, _Line] = {}
        known_key = Message("a known key ({keys}) or a player's name", keys=", ".join(KEYS))
        for ln in train_lines:
            name = MEXICAN if ln.key.lower() == MEXICAN else resolve(ln.key, ln, ln.key_col, known_key)
            if name in trains:
                raise self.error(ln, Message("the train {train} is given twice (first on line {first})", train=repr(name),
                                             first=train_at[name].number), ln.key_col)
            trains[name] = self.train(ln, engine, allow_marker=name != MEXICAN)
            train_at[name] = ln
        turn: str | None = None
        turn_missing = False
        if "turn" in seen:
            tl = seen["turn"]
            turn_words = self.words(tl)
            if len(turn_words) != 1:
                raise self.error(tl, Message("expected one player's name after 'turn:'"))
            turn = resolve(turn_words[0][0], tl, turn_words[0][1])
        elif not score or "moves" in seen:
            turn_missing = True
            line, column = self.missing_at(lines, _BEFORE_TURN, train_lines)
            missing.append(MissingLineError(Message(
                "the position has no 'turn:' line: add one after this line naming the player to move, "
                "like 'turn: {name}'", name=players[0] if players else "Ann"), line, column))
        hands: dict[str, tuple[Tile, ...]] = {}
        hand_at: dict[str, _Line] = {}
        for ln, owner in hand_lines:
            if owner is None and turn is None and not turn_missing:
                raise self.error(ln, Message("expected 'hand <name>:' (without a 'turn:' line, 'hand:' names nobody)"),
                                 ln.key_col)
            # 'hand:' while the required 'turn:' line is missing: the hand of whoever it will name
            holder = (turn or "") if owner is None else resolve(owner, ln, ln.key_col + 5)
            if holder in hands:
                raise self.error(ln, Message("the hand of {name} is given twice (first on line {first})", name=holder,
                                             first=hand_at[holder].number), ln.key_col)
            hands[holder] = self.tile_list(ln, allow_dash=True)
            hand_at[holder] = ln
        went_out = self.went_out(seen["out"], hands, hand_at, resolve) if "out" in seen else None
        boneyard: int | tuple[Tile, ...] | None = None
        if "boneyard" in seen:
            boneyard = self.boneyard(seen["boneyard"])
        variant = None
        variant_at = (0, 0)
        if "variant" in seen:
            v = seen["variant"]
            if not v.value or len(v.value.split()) != 1:
                raise self.error(v, Message("expected a variant id like 'masters' or 'masters+mandatory-doubles'"))
            variant = v.value
            variant_at = (v.number, v.value_col)
        phase = Phase.PLAY
        if "phase" in seen:
            p = seen["phase"]
            try:
                phase = Phase(p.value.lower())
            except ValueError:
                raise self.error(p, Message("expected 'first-turn' or 'play', found {found}", found=repr(p.value))) from None
        round_no = None
        round_at = (0, 0)
        if "round" in seen:
            r = seen["round"]
            # The ruleset's game decides the last round (rules.limits.set_for); here only the format's limit.
            round_no = ascii_int(r.value, max_digits=3)  # the one number parser
            if round_no is None or r.value != r.value.strip() or not 1 <= round_no <= MAX_ROUNDS:
                raise self.error(r, Message("expected a round number from 1 to {limit}, found {found}", limit=MAX_ROUNDS,
                                            found=repr(_clip(r.value))))
            round_at = (r.number, r.value_col)
        open_doubles = None
        if "open-doubles" in seen:
            od = seen["open-doubles"]
            names = [] if od.value == "-" else [
                MEXICAN if w.lower() == MEXICAN else resolve(w, od, c, Message("a train: a player's name or 'mexican'"))
                for w, c in self.words(od)]
            if len(set(names)) != len(names):
                raise self.error(od, Message("expected each train once in 'open-doubles'"))
            open_doubles = tuple(names)
        moves: list[MoveLine] = []
        if "moves" in seen:
            ml = seen["moves"]
            if ml.value:
                col = ml.value_col
                for part in ml.value.split(";"):
                    if part.strip():
                        moves.append(MoveLine(self.move(part, ml.number, col + len(part) - len(part.lstrip()), resolve), ml.number))
                    col += len(part) + 1
            for number, text, col in move_lines:
                for part in text.split(";"):
                    if part.strip():
                        moves.append(MoveLine(self.move(part, number, col + len(part) - len(part.lstrip()), resolve), number))
                    col += len(part) + 1
            if len(moves) > MAX_MOVES:
                raise self.error(ml, Message("at most {limit} moves are accepted, found {count}", limit=MAX_MOVES,
                                             count=len(moves)), ml.key_col)
        check = None
        check_line = 0
        if "check" in seen:
            c = seen["check"]
            if not c.value:
                raise self.error(c, Message("expected a move after 'check:' (like 'Bob: 6-4 -> Cy') or 'score'"))
            if not score:
                check = self.move(c.value, c.number, c.value_col, resolve)
            check_line = c.number
        if missing and not turn_missing or len(missing) > 1:
            raise missing[0]  # the position needs the missing line before it can be checked as a whole
        position = Position(
            players=players,
            engine=engine,
            trains=tuple(trains.get(p, TrainLine()) for p in players),
            mexican=trains.get(MEXICAN, TrainLine()),
            turn=turn,
            boneyard=boneyard,
            hands=tuple((p, hands[p]) for p in players if p in hands),
            variant=variant,
            set_max=set_max,
            phase=phase,
            open_doubles=open_doubles,
            round=round_no,
            moves=tuple(moves),
            check=check,
            score=score,
            out=went_out,
            check_line=check_line,
            variant_at=variant_at,
            hands_at=tuple((hand_at[p].number, hand_at[p].value_col) for p in players if p in hands),
            round_at=round_at,
            boneyard_at=(seen["boneyard"].number, seen["boneyard"].value_col) if "boneyard" in seen else (0, 0),
            highest=self.highest,
        )
        self.check_possible(position, seen, train_at, hand_at)
        if missing:  # only 'turn:': the position as written has been checked; a front end checks it
            missing[0].partial = position  # under the rulesets before it reports the missing line
            raise missing[0]
        return position

    @staticmethod
    def missing_at(lines: list[_Line], before: tuple[str, ...], also: list[_Line] | None = None) -> tuple[int, int]:
        """Where a missing required line belongs: the end of the last line written whose key comes
        before it in the format's order (``before``, and the lines in ``also``), where the player
        types it; line 1, column 1 when none does (it belongs at the top)."""
        anchors = [ln for ln in lines if ln.key.lower() in before] + (also or [])
        if not anchors:
            return 1, 1
        last = max(anchors, key=lambda ln: ln.number)
        return last.number, last.width + 1

    # -- values --------------------------------------------------------------------------
    def players(self, ln: _Line) -> tuple[str, ...]:
        words = self.words(ln)
        if len(words) < 2:
            raise self.error(ln, Message("expected at least two player names, separated by spaces"))
        if len(words) > MAX_PLAYERS:
            raise self.error(ln, Message("expected at most {limit} players, found {count}", limit=MAX_PLAYERS,
                                         count=len(words)))
        seen: set[str] = set()
        for w, col in words:
            if not _NAME_RE.match(w):
                raise self.error(ln, Message("expected a name of one word without ':', '#', ';' or '*', found {found}",
                                             found=repr(w)), col)
            if w.lower() in KEYS:
                raise self.error(ln, Message("expected a player's name, found the reserved word {found}", found=repr(w)), col)
            if _NOT_A_NAME_RE.fullmatch(w):
                raise self.error(ln, Message("expected a player's name, found {found}", found=repr(w)), col)
            if w.casefold() in seen:
                raise self.error(ln, Message("expected each player once, found {found} twice", found=repr(w)), col)
            seen.add(w.casefold())
        return tuple(w for w, _ in words)

    def went_out(self, ln: _Line, hands: dict[str, tuple[Tile, ...]], hand_at: dict[str, _Line],
                 resolve: Resolver) -> str:
        """The ``out:`` line: one player's name, whose hand, if given, is empty."""
        words = self.words(ln)
        if len(words) != 1:
            raise self.error(ln, Message("expected one player's name after 'out:'"))
        name = resolve(words[0][0], ln, words[0][1])
        if hands.get(name):
            raise self.error(ln, Message("{name} went out, so holds no tile, yet the hand on line {line} holds some",
                                         name=name, line=hand_at[name].number), words[0][1])
        return name

    def engine(self, ln: _Line) -> int:
        m = _ENGINE_RE.match(ln.value)
        if not m or (m.group(2) is not None and m.group(1) != m.group(2)):
            raise self.error(ln, Message("expected the engine double like 12-12 or 12, found {found}", found=repr(ln.value)))
        value = int(m.group(1))
        if value > MAX_PIP:
            raise self.error(ln, Message("expected an engine from 0 to {limit}, found {found}", limit=MAX_PIP,
                                         found=repr(ln.value)))
        return value

    def set_line(self, ln: _Line) -> int:
        m = _SET_RE.match(ln.value)
        if not m or int(m.group(1)) not in STANDARD_SETS:
            raise self.error(ln, Message("expected a set like double-12 (double-6, -9, -12, -15 or -18), found {found}",
                                         found=repr(ln.value)))
        return int(m.group(1))

    def tile(self, word: str, line: _Line | int, column: int) -> Tile:
        try:
            tile = Tile.parse(word)
        except ValueError as exc:
            raise self.error(line, exc.args[0], column) from None
        return self.saw(tile, line.number if isinstance(line, _Line) else line, column)

    def tile_list(self, ln: _Line, *, allow_dash: bool = False) -> tuple[Tile, ...]:
        words = self.words(ln)
        if allow_dash and [w for w, _ in words] == ["-"]:
            return ()
        if not words:
            raise self.error(ln, Message("expected tiles like 6-4 separated by spaces (or '-' for none)") if allow_dash
                             else Message("expected tiles like 6-4 separated by spaces"))
        return tuple(self.tile(w, ln, c) for w, c in words)

    def boneyard(self, ln: _Line) -> int | tuple[Tile, ...]:
        value = ln.value
        if value != "-" and "-" not in value and len(value.split()) == 1:
            limit = set_size(MAX_PIP)  # the position's own set is checked with the tiles known: too-many-tiles
            if not _DIGITS_RE.match(value):
                raise self.error(ln, Message("expected how many tiles are left (digits 0-9) or the tiles themselves, "
                                             "found {found}", found=repr(_clip(value))))
            count = ascii_int(value, max_digits=3)  # the one number parser
            if count is None or count > limit:
                raise self.error(ln, Message("expected at most {limit} tiles in the boneyard, found {count}",
                                             limit=limit, count=_clip(value.lstrip("0") or "0")))
            return count
        if ln.value == "-":
            return 0
        if len(value.split()) == 1 and not _TILE_WORD.fullmatch(value):
            # '-3', '3-', '1-2-3': neither a count nor a tile; a tile is not what was surely meant
            raise self.error(ln, Message("expected how many tiles are left (digits 0-9) or the tiles themselves, "
                                         "found {found}", found=repr(_clip(value))))
        return self.tile_list(ln)

    def train(self, ln: _Line, engine: int | None, allow_marker: bool) -> TrainLine:
        """A train line; without an engine (its line is missing, reported after every line is read)
        the tiles are read but the first is not matched against it."""
        words = self.words(ln)
        marker = False
        if words and words[-1][0] == "*":
            if not allow_marker:
                raise self.error(ln, Message("the Mexican train carries no player's marker; expected no '*'"), words[-1][1])
            marker = True
            words = words[:-1]
        if not words or [w for w, _ in words] == ["-"]:
            return TrainLine(marker=marker)
        unknown = words[0][0] in ("...", "…")
        if unknown:
            words = words[1:]
            if not words:
                raise self.error(ln, Message("expected at least one tile after '...' (the open end)"),
                                 ln.value_col + len(ln.value))
        tiles: list[Tile] = []
        cols: list[int] = []
        for w, c in words:
            if w in ("...", "…", "-", "*"):
                raise self.error(ln, Message("expected a tile like 6-4, found {found} (write '...' first, '*' last)",
                                             found=repr(w)), c)
            tiles.append(self.tile(w, ln, c))
            cols.append(c)
        near: int | None = None
        if unknown:
            first_a = int(words[0][0].split("-")[0])
            first = tiles[0]
            if len(tiles) > 1 and not first.is_double and tiles[1].has(first.high) != tiles[1].has(first.low):
                near = first.low if tiles[1].has(first.high) else first.high
            else:
                near = first_a
            end = first.other(near)
            rest = zip(tiles[1:], cols[1:])
        elif engine is None:
            return TrainLine(tuple(tiles), unknown, near, marker)
        else:
            end = engine
            rest = zip(tiles, cols)
        for t, c in rest:
            if not t.has(end):
                opening = not unknown and t is tiles[0]
                raise self.impossible(
                    ErrorCode.TRAIN_DOES_NOT_CHAIN,
                    Message("the train does not chain: {tile} does not match the open end {end} "
                            "(a train starts with the engine's number)", tile=t, end=end) if opening
                    else Message("the train does not chain: {tile} does not match the open end {end}", tile=t, end=end),
                    ln.number, c)
            end = t.other(end)
        return TrainLine(tuple(tiles), unknown, near, marker)

    def move(self, text: str, number: int, column: int, resolve: Resolver) -> Move:
        try:
            move = parse_move(text)
        except MoveSyntaxError as exc:
            raise self.error(number, exc.message, column + exc.column - 1) from None
        player = resolve(move.player, number, column)
        if move.tile is not None:
            at = _TILE_WORD.search(text)
            self.saw(move.tile, number, column + (at.start() if at else 0))
        train = move.train
        if train is not None:
            train_col = column + text.find("->") + 3 if "->" in text else column
            train = MEXICAN if train.lower() == MEXICAN else resolve(
                train, number, train_col, Message("a train: a player's name or 'mexican'"))
        return Move(player, move.action, move.tile, train)

    # -- possibility ---------------------------------------------------------------------
    def check_possible(self, p: Position, seen: dict[str, _Line], train_at: dict[str, _Line],
                       hand_at: dict[str, _Line]) -> None:
        where: dict[Tile, tuple[str, str, int]] = {}
        """Where each tile was seen (a place and a name, worded by _seen_in only when a tile is
        seen twice), and on which line."""
        max_pip = 0
        if p.engine is not None:
            where[Tile.of(p.engine, p.engine)] = ("engine", "", seen["engine"].number)
            max_pip = p.engine

        def place(tiles: tuple[Tile, ...], kind: str, name: str, line: int) -> None:
            nonlocal max_pip
            for tile in tiles:
                if tile.high > max_pip:
                    max_pip = tile.high
                if tile in where:
                    first_kind, first_name, first_line = where[tile]
                    first = Message("{place} (line {line})", place=_seen_in(first_kind, first_name), line=first_line)
                    raise self.impossible(ErrorCode.TILE_TWICE, Message("{tile} appears twice: in {first} and in {second}",
                                                                tile=tile, first=first, second=_seen_in(kind, name)), line)
                where[tile] = (kind, name, line)

        if p.set_max is not None and p.engine is not None and p.engine > p.set_max:
            raise self.impossible(ErrorCode.PIP_ABOVE_SET, Message("the engine {engine}-{engine} is above the set's maximum {limit}",
                                                           engine=p.engine, limit=p.set_max), seen["engine"].number,
                                  seen["engine"].value_col)
        top = p.highest
        if p.set_max is not None and top is not None and top.tile.high > p.set_max:
            raise self.impossible(ErrorCode.PIP_ABOVE_SET, Message("{tile} has a pip above the set's maximum {limit}",
                                                           tile=top.tile, limit=p.set_max), top.line, top.column)
        for name, train in (*zip(p.players, p.trains), (MEXICAN, p.mexican)):
            if train.tiles:
                place(train.tiles, "train", name, train_at[name].number)
        for name, tiles in p.hands:
            place(tiles, "hand", name, hand_at[name].number)
        if isinstance(p.boneyard, tuple):
            place(p.boneyard, "boneyard", "", seen["boneyard"].number)
        set_max = p.set_max if p.set_max is not None else next(s for s in STANDARD_SETS if s >= max_pip)
        counted = len(where) + (p.boneyard if isinstance(p.boneyard, int) else 0)
        line = seen["boneyard"].number if isinstance(p.boneyard, int) and "boneyard" in seen else None
        check_tile_count(counted, set_max, line)
        if p.open_doubles:
            od = seen["open-doubles"]
            for name in p.open_doubles:
                train = p.train(name)
                if not train.tiles or not train.tiles[-1].is_double:
                    raise self.impossible(ErrorCode.NOT_AN_OPEN_DOUBLE, Message("{name}'s train does not end in a double", name=name),
                                          od.number)

"""The score sheet, computed from a game's events: nothing here decides a rule (the counts, the
rounds and the winner come from ``rules.game``); it replays the log."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.game import Hand, PlannedRound, RoundCount, count_round, leaders, plan, winner
from rules.ruleset import Ruleset
from rules.scoring import GameResult
from rules.tiles import Tile


@dataclass(frozen=True, slots=True)
class Entry:
    """What was entered for a round, as stored (an event's data), parsed."""

    round: int
    out: str | None
    blocked: bool
    hands: Mapping[str, Hand]

    @staticmethod
    def of(data: Mapping[str, Any]) -> Entry:
        hands = {name: v if isinstance(v, int) else tuple(Tile.parse(t) for t in v)
                 for name, v in data["hands"].items()}
        return Entry(int(data["round"]), data.get("out"), bool(data.get("blocked")), hands)

    def as_data(self) -> dict[str, Any]:
        return {"round": self.round, "out": self.out, "blocked": self.blocked,
                "hands": {n: h if isinstance(h, int) else [str(t) for t in h] for n, h in self.hands.items()}}


@dataclass(frozen=True, slots=True)
class Event:
    seq: int
    kind: str
    data: Mapping[str, Any]
    at: str
    """When, ISO 8601 UTC."""


@dataclass(frozen=True, slots=True)
class SheetRound:
    number: int
    engine: Tile | None
    count: RoundCount | None
    """None until entered."""
    running: Mapping[str, int] | None
    """The totals after this round, once entered."""
    corrected: int
    """How many times the round was corrected."""
    entry: Entry | None
    seq: int = 0
    """The version at which the round was last written (0: never)."""

    @property
    def scores(self) -> dict[str, int] | None:
        return self.count.scores if self.count is not None else None


@dataclass(frozen=True, slots=True)
class Sheet:
    id: str
    ruleset: Ruleset
    set_max: int
    players: tuple[str, ...]
    rounds: tuple[SheetRound, ...]
    totals: Mapping[str, int]
    leaders: tuple[str, ...]
    finished: bool
    result: GameResult | None
    """The winner by the ruleset's rule, once the game is finished."""
    version: int
    history: tuple[Event, ...]

    @property
    def next_round(self) -> SheetRound | None:
        return next((r for r in self.rounds if r.count is None), None) if not self.finished else None

    @property
    def played(self) -> tuple[SheetRound, ...]:
        return tuple(r for r in self.rounds if r.count is not None)

    def round(self, number: int) -> SheetRound | None:
        return next((r for r in self.rounds if r.number == number), None)


def compute(game_id: str, ruleset: Ruleset, set_max: int, players: Sequence[str], events: Sequence[Event]) -> Sheet:
    """Replay the log: the latest entry of each round counts (a correction is a later entry)."""
    planned: tuple[PlannedRound, ...] = plan(ruleset, set_max)
    latest: dict[int, Entry] = {}
    times: dict[int, int] = {}
    written: dict[int, int] = {}
    ended = False
    for event in events:
        if event.kind == "finished":
            ended = True
            continue
        read = Entry.of(event.data)
        times[read.round] = times.get(read.round, 0) + 1
        latest[read.round] = read
        written[read.round] = event.seq
    totals = dict.fromkeys(players, 0)
    rows = []
    for p in planned:
        entry = latest.get(p.number)
        count = (count_round(ruleset, set_max, players, entry.hands, entry.out, entry.blocked)
                 if entry is not None else None)
        running = None
        if count is not None:
            for name, points in count.scores.items():
                totals[name] += points
            running = dict(totals)
        rows.append(SheetRound(p.number, p.engine, count, running, max(0, times.get(p.number, 0) - 1), entry,
                              written.get(p.number, 0)))
    scored = [r.scores for r in rows if r.scores is not None]
    finished = bool(scored) and (ended or len(scored) == len(rows))
    result = winner(ruleset, scored) if finished else None
    return Sheet(game_id, ruleset, set_max, tuple(players), tuple(rows), totals,
                 leaders(totals) if scored else (), finished, result, len(events), tuple(events))

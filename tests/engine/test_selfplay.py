"""Self-play: 50 whole rounds for each ruleset and each option (200 in the soak, ``make soak``),
checking on every state that the fast path's two judges agree (the soak also that explain()
agrees with them on every candidate action), after every move that tiles are
conserved and the applied move is judged legal by explain(), and after every round that its log
re-parses and replays to the same final state. A failure names the seed."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from rules.deal import deal
from rules.legality import Analysis, play
from rules.moves import Action, Move
from rules.position import Position
from rules.scoring import game_result
from rules.simulate import NAMES, InvariantError, plan_problem, play_game, play_round
from rules.tiles import Tile
from variants.loader import get_ruleset, option_ids

ROUNDS = 50
"""Rounds per ruleset and option in every run of the suite."""
SOAK_ROUNDS = 200
"""Rounds per ruleset and option in the soak (``make soak``): the seeds of the default run and more."""


@pytest.mark.parametrize("ident", option_ids())
def test_fifty_rounds(ident: str) -> None:
    self_play(ident, ROUNDS)


@pytest.mark.soak
@pytest.mark.parametrize("ident", option_ids())
def test_two_hundred_rounds(ident: str) -> None:
    self_play(ident, SOAK_ROUNDS, thorough=True)


def self_play(ident: str, rounds: int, *, thorough: bool = False) -> None:
    """``rounds`` checked rounds under the ruleset ``ident``, seeds 0, 1, ...: the player counts it
    allows in turn, rounds 1 to 4; most rounds end by a player going out."""
    ruleset = get_ruleset(ident)
    lo, hi = ruleset.flags.players_count.min, ruleset.flags.players_count.max
    counts = [n for n in (2, 3, 4, 5, 6, 7, 8, 10) if lo <= n <= hi and n <= len(NAMES)]
    playable = []
    for n in counts:
        try:
            deal(ruleset, NAMES[:n], 1, random.Random(0))
            playable.append(n)
        except ValueError:
            pass
    assert playable
    outs = blocked = 0
    for seed in range(rounds):
        players = playable[seed % len(playable)]
        round_no = 1 + seed % 4
        log = play_round(ruleset, NAMES[:players], round_no, random.Random(seed), seed=seed, thorough=thorough)
        zero = [p for p, s in log.scores.items() if s == 0]
        if any(h is not None and h.empty for h in log.final.hands):
            outs += 1
        else:
            blocked += 1
        assert log.final.round_over and (zero or blocked)
    assert outs > rounds // 2  # most rounds end by a player going out


def _plays_by_the_ends(analysis: Analysis, tile: Tile, index: int) -> bool:
    """A fast path's verdict on a play that forgets every rule but the ends (and holding the tile)."""
    end = analysis.ends[index]
    return analysis.may_hold(tile) and end in tile


def test_the_check_catches_a_move_offered_that_the_judge_forbids(monkeypatch: pytest.MonkeyPatch) -> None:
    """The generator offers a play is_legal() forbids (a tile on a train whose end it does not
    match): the check stops the round on the first state, before the move can be played."""
    ruleset = get_ruleset("masters")
    generate = Analysis.legal_moves

    def offering_a_mismatch(self: Analysis) -> tuple[Move, ...]:
        hand = self.hand_tiles or ()
        wrong = [play(self.player, t, self.names[i]) for t in hand for i in range(len(self.ends))
                 if self.ends[i] not in t]
        return (*generate(self), *wrong[:1])

    monkeypatch.setattr(Analysis, "legal_moves", offering_a_mismatch)
    with pytest.raises(InvariantError, match=r"masters, seed 3, round 1: legal_moves\(\) offers .* not once each"):
        play_round(ruleset, NAMES[:4], 1, random.Random(3), seed=3)


def test_the_check_catches_an_illegal_move_both_fast_judges_allow(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fast path that forgets every rule but the ends, in both its judges alike (they agree):
    explain() on the move applied still finds an illegal one (a tile on another player's train
    with no marker, say), and the round stops naming it."""
    ruleset = get_ruleset("masters")
    generate = Analysis.legal_moves

    def lenient_moves(self: Analysis) -> tuple[Move, ...]:
        hand = dict.fromkeys(self.hand_tiles or ())
        plays = tuple(play(self.player, t, self.names[i]) for t in hand for i in range(len(self.ends))
                      if _plays_by_the_ends(self, t, i))
        return (*plays, *(m for m in generate(self) if m.action is not Action.PLAY))

    monkeypatch.setattr(Analysis, "legal_moves", lenient_moves)
    monkeypatch.setattr(Analysis, "play_ok", _plays_by_the_ends)
    with pytest.raises(InvariantError, match="was offered as legal but judged illegal"):
        for seed in range(5):
            play_round(ruleset, NAMES[:4], 1, random.Random(seed), seed=seed)


def test_a_whole_game_of_thirteen_rounds() -> None:
    game = play_game(get_ruleset("cardinal"), 4, None, seed=5)
    assert len(game.rounds) == 13
    engines = [r.position.engine for r in game.rounds]
    assert engines == list(range(12, -1, -1))
    assert game.result.winners


@pytest.mark.slow  # the command line as a real process: make test, not make test-fast
def test_simulate_command_writes_a_replayable_log(tmp_path: Path) -> None:
    log = tmp_path / "game.txt"
    out = subprocess.run(
        [sys.executable, "manage.py", "simulate", "--variant", "masters+mandatory-doubles", "--players", "4",
         "--rounds", "2", "--seed", "11", "--log", str(log)],
        capture_output=True, text=True, check=True, cwd=Path(__file__).resolve().parents[2])
    assert "winner:" in out.stdout
    rounds = log.read_text(encoding="utf-8").split("# round ")[1:]
    assert len(rounds) == 2
    position = Position.parse(rounds[0].split("\n", 1)[1])
    assert position.variant == "masters+mandatory-doubles" and position.moves


@pytest.mark.slow  # the command line as a real process: make test, not make test-fast
def test_simulate_command_refuses_unknown_variant() -> None:
    out = subprocess.run([sys.executable, "manage.py", "simulate", "--variant", "spruce"],
                         capture_output=True, text=True, cwd=Path(__file__).resolve().parents[2])
    assert out.returncode == 2
    assert out.stderr.startswith("error: unknown variant 'spruce'")
    assert "Traceback" not in out.stderr


def test_tie_breaks() -> None:
    howto = get_ruleset("howto")
    rounds = [{"Ann": 0, "Bob": 10}, {"Ann": 10, "Bob": 0}, {"Ann": 5, "Bob": 5}]
    assert game_result(howto, rounds).winners == ("Ann", "Bob")
    rounds = [{"Ann": 0, "Bob": 4}, {"Ann": 0, "Bob": 6}, {"Ann": 10, "Bob": 0}]
    res = game_result(howto, rounds)
    assert res.winners == ("Ann",) and res.decided_by == "most-zero-rounds"
    rounds = [{"Ann": 0, "Bob": 0}, {"Ann": 3, "Bob": 7}, {"Ann": 7, "Bob": 3}, {"Ann": 9, "Bob": 9}]
    res = game_result(howto, rounds)
    assert res.winners == ("Ann", "Bob") and res.decided_by == "tie"
    rounds = [{"Ann": 0, "Bob": 1}, {"Ann": 2, "Bob": 0}, {"Ann": 6, "Bob": 7}]
    res = game_result(howto, rounds)
    assert res.winners == ("Bob",) and res.decided_by == "lowest-nonzero-round"
    assert game_result(get_ruleset("masters"), [{"Ann": 0, "Bob": 10}, {"Ann": 10, "Bob": 0}]).decided_by == "tie"


@pytest.mark.parametrize(("ident", "players", "rounds", "set_max", "problem"), [
    ("gamerules", 4, 13, None, "round 13 does not exist with a double-9 set (one round per double): use --set double-12"),
    ("gamerules", 4, 13, 12, None),
    ("gamerules", 4, None, 15, "gamerules deals to 4 players with the double-9 or double-12 set, not double-15"),
    ("masters", 9, None, None, "masters has no hand size for 9 players"),
    ("howto", 1, None, None, "--players 1: a game needs at least 2 players"),
    ("howto", 4, 0, None, "--rounds 0: play at least one round"),
])
def test_impossible_self_play_is_refused_in_one_line(ident: str, players: int, rounds: int | None,
                                                     set_max: int | None, problem: str | None) -> None:
    assert plan_problem(get_ruleset(ident), players, rounds, set_max, 1) == problem


def test_a_set_picks_a_row_of_the_table() -> None:
    game = play_game(get_ruleset("gamerules"), 4, 2, seed=3, set_max=12)
    assert [r.position.set_max for r in game.rounds] == [12, 12]
    assert [r.position.engine for r in game.rounds] == [12, 11]


@pytest.mark.slow  # the command line as a real process: make test, not make test-fast
def test_simulate_command_plays_several_games_and_refuses_in_one_line() -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "manage.py", "simulate", *args], capture_output=True, text=True,
                              cwd=Path(__file__).resolve().parents[2], timeout=300)

    out = run("--variant", "gamerules", "--players", "4", "--set", "double-12", "--rounds", "1", "--games", "3",
              "--seed", "11")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert [line.split(":")[0] for line in lines[:3]] == ["game 11", "game 12", "game 13"]
    assert lines[-1].startswith("3 games, 3 rounds, ")
    out = run("--variant", "gamerules", "--players", "4", "--rounds", "13")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == "error: round 13 does not exist with a double-9 set (one round per double): use --set double-12\n"

"""bench/loadtest.py: reading wrk's report, the Lua body script, and (slow) a short real run."""

from __future__ import annotations

import shutil

import pytest

from bench import loadtest
from rules.answer import rule
from rules.position import Position
from variants.loader import base_ids, get_ruleset

WRK_OUTPUT = """\
Running 3s test @ http://127.0.0.1:40000/health
  2 threads and 8 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     2.90ms  743.26us  14.40ms   83.37%
    Req/Sec     1.33k    92.12     1.51k    70.00%
  Latency Distribution
     50%    2.77ms
     75%  336.00us
     90%    3.76ms
     99%    1.08s
  8227 requests in 3.10s, 1.43MB read
  Non-2xx or 3xx responses: 3
Requests/sec:   2654.05
Transfer/sec:    472.88KB
MEXTRAIN requests=8227 duration_us=3099795 p50_us=2773 p90_us=3755 p95_us=4193 p99_us=6077 max_us=14397 errors=0 status_errors=3 timeouts=0
"""


def test_parse_wrk() -> None:
    r = loadtest.parse_wrk("health", WRK_OUTPUT)
    assert r.requests == 8227 and r.rps == pytest.approx(2654.05)
    assert r.p95_ms == pytest.approx(4.193) and r.p50_ms == pytest.approx(2.773) and r.max_ms == pytest.approx(14.397)
    assert r.seconds == pytest.approx(3.099795)
    assert r.wrk_latency == {"50": 2.77, "75": 0.336, "90": 3.76, "99": 1080.0}
    assert r.non_2xx == 3 and r.errors == 0


def test_parse_wrk_without_summary_line_fails_loudly() -> None:
    with pytest.raises(ValueError, match="no summary line"):
        loadtest.parse_wrk("health", WRK_OUTPUT.replace("MEXTRAIN", "OTHER"))


@pytest.mark.parametrize("text", ["plain", "a ]] b", "]=] and ]] and ]==]", "\nleading newline", ""])
def test_lua_string_is_a_long_bracket_that_cannot_close_early(text: str) -> None:
    literal = loadtest.lua_string(text)
    level = literal.index("[", 1) - 1
    close = "]" + "=" * level + "]"
    assert literal == "[" + "=" * level + "[\n" + text + close
    assert close not in text


def test_post_script_sends_the_typical_position() -> None:
    script = loadtest.post_script(loadtest.TYPICAL_POSITION, "text/plain")
    assert 'wrk.method = "POST"' in script and loadtest.TYPICAL_POSITION in script
    assert 'wrk.headers["Content-Type"] = "text/plain"' in script
    assert "latency:percentile(95)" in script


def test_varied_positions_are_different_positions_of_the_typical_kind() -> None:
    texts = loadtest.varied_positions(16)
    assert len(texts) == len(set(texts)) == 16
    for text in texts:
        position = Position.parse(text)
        assert len(position.players) == 4 and position.engine is not None and position.turn is not None
        assert len(position.hands) == 1 and len(position.hands[0][1]) >= 8
        assert position.check is not None and not position.moves and position.variant is None
        for ident in base_ids():  # judged under every ruleset, the checked move among the candidates
            ruling = rule(position, get_ruleset(ident))
            assert position.check in {j.move for j in ruling.actions}


def test_the_cycle_script_posts_every_body_in_turn() -> None:
    bodies = ["players: A B\n", "a ]] b\n", "third\n"]
    script = loadtest.cycle_script(bodies, "text/plain")
    assert all(loadtest.lua_string(b) in script for b in bodies)
    assert "request = function()" in script and 'wrk.format("POST", nil, headers, bodies[i])' in script
    assert "latency:percentile(95)" in script


def test_typical_position_is_four_players_and_a_fifteen_tile_hand() -> None:
    lines = dict(line.split(":", 1) for line in loadtest.TYPICAL_POSITION.splitlines() if not line.startswith("#"))
    assert len(lines["players"].split()) == 4
    assert len(lines["hand"].split()) == 15
    assert "variant" not in lines


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("wrk") is None, reason="wrk is not installed (make loadtest installs it)")
def test_a_short_real_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert loadtest.main(["--duration", "1", "--warmup", "0", "--connections", "2", "--threads", "1",
                          "--varied", "20"]) == 0
    out = capsys.readouterr().out
    assert "requests/s" in out and "adjudicate/health throughput" in out and "p95" in out
    assert "median of 1 rounds" in out and "server CPU/request (ms)" in out
    assert "... 20 varied positions" in out and "the same over 20 varied positions" in out


def test_rounds_are_combined_by_medians_and_the_ratio_paired() -> None:
    def run(rps: float, cpu: float) -> loadtest.Result:
        return loadtest.Result("x", int(rps), 1.0, rps, 1.0, 2.0, 3.0, 4.0, 5.0, 0, 0, {}, cpu)

    health = [run(1000, 0.2), run(400, 0.5), run(900, 0.2)]
    api = [run(300, 1.0), run(100, 2.0), run(180, 1.0)]
    both = loadtest.combined("health", health)
    assert both.rps == 900 and both.requests == 2300 and both.cpu_ms == 0.2
    # each round's ratio: 30%, 25%, 20%: the median of the rounds, not the ratio of the medians (20%)
    assert loadtest.paired_ratio(health, api) == pytest.approx(0.25)

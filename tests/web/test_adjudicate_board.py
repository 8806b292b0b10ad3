"""The board picture: domino faces with pips, wrapping trains, markers, unknown tiles, escaping."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from mextrain_site.referee.board import WIDTH, BoardLabels, board_svg, pip_positions, tile_svg
from rules.answer import rule
from rules.position import Position
from variants.loader import get_ruleset

NS = {"s": "http://www.w3.org/2000/svg"}


def svg_of(text: str, ruleset: str = "howto", labels: BoardLabels | None = None) -> ET.Element:
    ruling = rule(Position.parse(text), get_ruleset(ruleset))
    return ET.fromstring(str(board_svg(ruling.state, labels, caption="test", ident="t")))


@pytest.mark.parametrize("n", range(19))
def test_every_face_has_its_number_of_pips_inside_the_square(n: int) -> None:
    spots = pip_positions(n)
    assert len(spots) == n and len(set(spots)) == n
    assert all(0.1 <= x <= 0.9 and 0.1 <= y <= 0.9 for x, y in spots)
    # faces are symmetric under a half turn, as printed dominoes are
    assert {(round(1 - x, 3), round(1 - y, 3)) for x, y in spots} == {(round(x, 3), round(y, 3)) for x, y in spots}


def test_tile_draws_both_halves() -> None:
    tile = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{tile_svg(0, 0, 6, 4)}</svg>')
    assert len(tile.findall(".//s:circle", NS)) == 10
    assert tile.find(".//s:title", NS).text == "6-4"


def test_long_trains_wrap_within_the_width() -> None:
    text = ("players: A B\nengine: 12\nA: 12-1 1-2 2-3 3-4 4-5 5-6 6-7 7-8 8-9 9-10 10-11 11-0 0-3 3-5 5-7\n"
            "turn: B\n")
    root = svg_of(text)
    train = root.find(".//s:g[@data-train='A']", NS)
    rects = [r for r in train.iterfind(".//s:rect[@class='tile-face']", NS)]
    assert len(rects) == 15
    xs = [float(r.get("x")) + float(r.get("width")) for r in rects]
    ys = {float(r.get("y")) for r in rects}
    assert max(xs) <= WIDTH and len(ys) >= 3  # several lines, none past the right edge
    assert root.get("width") == "100%"


def test_unknown_tiles_markers_and_empty_trains() -> None:
    root = svg_of("players: A B C\nengine: 9\nA: ... 4-5 *\nB: -\nC: - *\nturn: B\n")
    a = root.find(".//s:g[@data-train='A']", NS)
    assert a.find(".//s:g[@class='unknown-tiles']", NS) is not None
    assert a.find(".//s:g[@class='marker']", NS) is not None
    assert "not started" in "".join(root.find(".//s:g[@data-train='B']", NS).itertext())
    assert root.find(".//s:g[@data-train='C']//s:g[@class='marker']", NS) is not None
    assert "hand not given" in "".join(root.itertext())
    assert "B to move" in "".join(root.itertext())


def test_open_double_partial_marks_with_a_dagger() -> None:
    text = "players: A B\nengine: 12\nA: 12-5 5-5\nturn: B\n"
    whole = svg_of(text, labels=BoardLabels(open_doubles={0: True}))
    part = svg_of(text, labels=BoardLabels(open_doubles={0: False}))
    assert "open double †" not in "".join(whole.itertext()) and "open double" in "".join(whole.itertext())
    assert "open double †" in "".join(part.itertext())
    assert whole.find(".//s:rect[@class='open-double-glow']", NS) is not None


def test_names_are_escaped_and_shortened() -> None:
    root = svg_of("players: <&> Averyveryverylongname\nengine: 12\nturn: <&>\n")
    names = [t.text for t in root.iterfind(".//s:text[@class='train-name']", NS)]
    assert names[0] == "<&>"
    assert names[1].endswith("…") and len(names[1]) <= 16


def test_the_description_reads_the_board() -> None:
    root = svg_of("players: A B\nengine: 12\nA: 12-4 4-4 *\nturn: A\nhand: 4-1\n")
    desc = root.find("s:desc", NS).text
    assert "Engine 12-12." in desc and "A: 12-4 4-4, marker down, open double." in desc and "A's hand: 4-1." in desc

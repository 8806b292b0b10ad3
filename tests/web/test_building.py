"""The Build editor's model (mextrain_site/referee/building.py): driven by hypothesis with
random taps, the text it writes always parses back to the same position, and every choice
it offers is one it can make; then the endpoint that renders the editor."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from html import unescape
from typing import Any

import pytest
from django.test import Client, override_settings
from django.utils import translation
from django.utils.translation import gettext, pgettext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mextrain_site.referee import building as b
from mextrain_site.referee.build_views import head_comments
from mextrain_site.referee.views import EXAMPLE
from rules.position import Position, PositionError
from tests.examples import SPEC_EXAMPLE
from tests.languages import LANGUAGES

STARTS = [b.NEW_TABLE, Position.parse(EXAMPLE), Position.parse(SPEC_EXAMPLE),
          Position.parse("players: Ann Bob\nset: double-6\nengine: 6\nAnn: 6-5 5-5 *\nboneyard: 20\nturn: Bob\n"
                         "hand Ann: 4-4\nopen-doubles: Ann\n")]
NAMES = st.one_of(st.sampled_from(["Zoe", "Ann", "ann", "mexican", "12-4", "a:b", "Éva", "יעל", "Асан", "", "x y"]),
                  st.text(max_size=6))
TAPS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.mark.slow  # hundreds of random tap sequences
@TAPS
@given(start=st.sampled_from(STARTS), data=st.data())
def test_random_taps_write_a_text_that_parses_back(start: Position, data: st.DataObject) -> None:
    p = start
    for _ in range(data.draw(st.integers(1, 25), label="taps")):
        if data.draw(st.integers(0, 9), label="rename?") == 0:
            edit = b.Edit(b.Kind.PLAYER_RENAME, (data.draw(st.sampled_from(p.players)), data.draw(NAMES, label="name")))
            try:
                q = b.apply(p, edit)
            except b.EditError:
                continue  # a typed name the parser refuses: refused, the position unchanged
        else:
            edit = data.draw(st.sampled_from(b.offered(p)), label="edit")
            q = b.apply(p, edit)  # every offered edit can be made
        text = q.format()
        assert Position.parse(text) == q
        assert Position.parse(text).format() == text
        p = q


@pytest.mark.slow  # hundreds of random tap sequences
@TAPS
@given(start=st.sampled_from(STARTS), data=st.data())
def test_no_tile_is_offered_twice_or_beyond_the_set(start: Position, data: st.DataObject) -> None:
    p = start
    for _ in range(data.draw(st.integers(0, 15), label="taps")):
        p = b.apply(p, data.draw(st.sampled_from(b.offered(p)), label="edit"))
    placed = b.used(p)
    for t in b.unused(p):
        assert t not in placed and t.high <= b.set_max(p)
    for train in b.train_names(p):
        end = b.open_end(p, train)
        assert all(t.has(end) for t in b.train_tiles(p, train))
    assert b.room(p) >= 0


def test_a_table_built_by_edits() -> None:
    p = b.NEW_TABLE
    for op in ["turn:Bob", "train-unknown:Cy:4", "hand:Bob:6-4", "hand:Bob:7-7", "check-play:6-4:Cy", "boneyard:20",
               "train-marker:Dee", "player-add", "player-earlier:Eve", "player-rename:Eve:Zed"]:
        p = b.apply(p, b.Edit.parse(op))
    assert p.format() == ("players: Ann Bob Cy Zed Dee\nengine: 12-12\nAnn: -\nBob: -\nCy: ... 12-4\nZed: -\nDee: - *\n"
                          "mexican: -\nboneyard: 20\nturn: Bob\nhand: 7-7 6-4\ncheck: Bob: 6-4 -> Cy\n")
    p = b.apply(p, b.Edit.parse("hand:Bob:6-4"))  # the disputed tile leaves the hand: so does the dispute
    assert p.check is None and p.hand("Bob") == (b.Tile.of(7, 7),)
    p = b.apply(p, b.Edit.parse("player-remove:Bob"))
    assert p.turn == "Cy" and p.hands == ()


@pytest.mark.parametrize("op, message", [
    ("train-add:Ann:5-3", "5-3 is not free or does not match the open end 12"),
    ("hand:Bob:12-12", "12-12 is already placed, or the set holds no more tiles"),
    ("player-rename:Ann:Bob", "expected each player once, found 'Bob' twice"),
    ("player-rename:Ann:mexican", "expected a player's name, found the reserved word 'mexican'"),
    ("turn:Zed", "expected a player in 'players' (Ann, Bob, Cy, Dee), found 'Zed'"),
    ("engine:4x", "expected a number, found '4x'"),
    ("boneyard:²", "expected a number, found '²'"),
    ("frobnicate", "unknown edit 'frobnicate'"),
])
def test_edits_the_table_does_not_allow_are_refused(op: str, message: str) -> None:
    with pytest.raises(b.EditError) as caught:
        b.apply(b.NEW_TABLE, b.Edit.parse(op))
    assert caught.value.message == message


def test_a_listed_boneyard_can_become_a_count() -> None:
    p = Position.parse("players: Ann Bob\nset: double-6\nengine: 6\nboneyard: 1-1 2-2 3-3\nturn: Ann\n")
    assert b.boneyard_counts(p) == range(0, 28)  # the three listed tiles are freed
    assert b.apply(p, b.Edit.parse("boneyard:27")).boneyard == 27


def test_a_set_full_offers_no_tile() -> None:
    p = Position.parse("players: Ann Bob\nset: double-6\nengine: 6\nboneyard: 27\nturn: Ann\n")
    assert b.room(p) == 0 and b.unused(p) == [] and b.open_ends(p, "Ann") == []
    assert [e.kind for e in b.offered(p) if e.kind in (b.Kind.HAND_TILE, b.Kind.TRAIN_ADD)] == []


@pytest.mark.parametrize("text", [
    "players: Ann Bob\nengine: 12\nboneyard: 80\nturn: Ann\n",  # a smaller engine would shrink the set below 81
    "players: Ann Bob\nengine: 12\nAnn: 12-4 4-4\nBob: ... 6-6\nturn: Ann\n",
    "players: Ann Bob\nset: double-9\nengine: 9\nmexican: 9-3\nboneyard: 20\nturn: Ann\nhand: 5-5\n",
])
def test_every_engine_and_set_offered_parses_and_no_other_does(text: str) -> None:
    """The oracle is the parser, given the same text with another engine or set line."""
    p = Position.parse(text)

    def parses(changed: str) -> bool:
        try:
            Position.parse(changed)
        except PositionError:
            return False
        return True

    engine_line = f"engine: {p.engine}\n"
    assert [e for e in range(19) if parses(text.replace(engine_line, f"engine: {e}\n"))] == b.engines(p)
    without_set = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("set:"))
    assert [s for s in (6, 9, 12, 15, 18) if parses(f"set: double-{s}\n" + without_set)] == b.sets(p)


def test_the_title_comment_survives_edits() -> None:
    assert head_comments("# Bob asks\n\n# about 6-4\nplayers: A B\n# later\n") == "# Bob asks\n\n# about 6-4\n"
    assert head_comments("players: A B\n") == ""


# -- the endpoint -----------------------------------------------------------------------------------


def post(client: Client, language: str = "en", **fields: str) -> str:
    response = client.post(f"/{language}/adjudicate/build/", fields)
    assert response.status_code == 200
    return response.content.decode()


def text_of(html: str) -> str:
    m = re.search(r'data-text="([^"]*)"', html)
    assert m is not None
    return m.group(1).replace("&#x27;", "'").replace("&gt;", ">").replace("&lt;", "<").replace("&amp;", "&")


@pytest.mark.django_db
def test_the_endpoint_applies_a_tap_and_keeps_the_title(client: Client) -> None:
    html = post(client, position=EXAMPLE, op="train-marker:Bob")
    # the text comes back in the canonical form the parser writes (tiles high end first)
    assert text_of(html) == EXAMPLE.replace("Bob: 12-7 7-3\n", "Bob: 12-7 7-3 *\n").replace("2-11", "11-2")
    assert 'data-edited="1"' in html
    assert 'name="undo"' in html and "Bob: 12-7 7-3\n" in html  # one step back is kept
    html = post(client, position=EXAMPLE, op="open:train:Ann")
    assert text_of(html) == EXAMPLE and 'data-edited=""' in html  # opening a panel changes nothing
    # the picker offers the free tiles matching 9, Ann's open end
    assert 'value="train-add:Ann:12-9"' in html and 'value="train-add:Ann:9-1"' in html
    assert 'value="train-add:Ann:12-11"' not in html and 'value="train-add:Ann:9-2"' not in html  # 9-2: in Bob's hand


@pytest.mark.django_db
def test_the_endpoint_shows_the_parsers_error_and_the_way_back(client: Client) -> None:
    html = post(client, position=EXAMPLE.replace("Bob: 12-7 7-3", "Bob: 12-7 7-q"), op="train-marker:Bob")
    assert "line 5, column 11: expected a tile like 6-4, found <bdi>&#x27;7-q&#x27;</bdi>" in html
    assert 'class="b-btn b-back" data-line="5" data-column="11"' in html
    assert "data-edited=\"\"" in html  # the typed text is never overwritten
    html = post(client, "he", position="players: Ann\n")
    assert "b-back" in html


@pytest.mark.django_db
def test_a_refused_tap_says_why_and_changes_nothing(client: Client) -> None:
    html = post(client, position=EXAMPLE, op="train-add:Ann:5-3")
    assert text_of(html) == EXAMPLE and 'class="b-refused"' in html
    assert "5-3 is not free or does not match the open end 9" in html


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any) -> None:
        return None  # the 3xx itself is the answer under test


@pytest.mark.parametrize("language", ["en", "he", "hu"])
@pytest.mark.parametrize("path", ["build/", "share/"])
def test_a_get_of_a_post_only_address_goes_back_to_the_referee_page(live_server: Any, language: str,
                                                                    path: str) -> None:
    """A reload after an htmx error lands on these addresses: over real HTTP, a GET (with whatever
    query it carries) is sent to the page, and the query is not carried along."""
    opener = urllib.request.build_opener(NoRedirects)
    for method in ("GET", "HEAD"):
        request = urllib.request.Request(f"{live_server.url}/{language}/adjudicate/{path}?position=secret",
                                         method=method)
        with pytest.raises(urllib.error.HTTPError) as answer:
            opener.open(request, timeout=30)
        assert answer.value.code == 303, (method, answer.value.code)
        assert answer.value.headers["Location"] == f"/{language}/adjudicate/"
    # followed, it is the page, in the same language
    with urllib.request.urlopen(f"{live_server.url}/{language}/adjudicate/{path}", timeout=30) as page:
        assert page.status == 200 and page.url == f"{live_server.url}/{language}/adjudicate/"
        assert f'lang="{language}"' in page.read().decode()
    # other methods are still refused
    with pytest.raises(urllib.error.HTTPError) as answer:
        opener.open(urllib.request.Request(f"{live_server.url}/{language}/adjudicate/{path}", method="PUT"),
                    timeout=30)
    assert answer.value.code in (403, 405)


@pytest.mark.django_db
def test_the_editor_is_strict_csp_safe_and_gzipped(client: Client) -> None:
    """No inline script or style, no event-handler attributes: the page's CSP stays strict."""
    page = client.get("/en/adjudicate/").content.decode()
    start, end = page.index('<div class="build-switch"'), page.index('id="builder-text-toggle"')
    for html in (page[start:end], post(client, position=EXAMPLE, op="open:hand:Bob")):
        assert " style=" not in html and not re.search(r"<script(?![^>]*\bsrc=)", html)
        assert not re.search(r"\son[a-z]+=", html)
        assert "hx-on" not in html and "js:" not in html
    response = client.post("/en/adjudicate/build/", {"position": EXAMPLE}, HTTP_ACCEPT_ENCODING="gzip")
    assert response["Content-Encoding"] == "gzip" and len(response.content) < 8_000


@pytest.mark.ratelimit
@pytest.mark.django_db
def test_taps_count_against_their_own_rate(client: Client) -> None:
    with override_settings(RATE_LIMITS={"judge": "off", "share": "off", "ruleset": "off", "build": "3/m"}):
        ok = [client.post("/en/adjudicate/build/", {"position": EXAMPLE}).status_code for _ in range(3)]
        over = client.post("/en/adjudicate/build/", {"position": EXAMPLE})
        judged = client.post("/en/adjudicate/", {"position": EXAMPLE})
    assert ok == [200, 200, 200] and over.status_code == 429 and int(over["Retry-After"]) > 0
    assert judged.status_code == 200  # judging is counted apart


@pytest.mark.django_db
def test_a_scoring_question_without_engine_or_turn_opens_and_stays_one(client: Client) -> None:
    text = "players: Ann Bob\nhand Bob: 0-0 12-11\ncheck: score\n"
    html = post(client, position=text)
    assert "b-error" not in html and text_of(html) == text  # shown as it is: nothing rewritten
    assert 'value="check:score" aria-pressed="true"' in html
    html = post(client, position=text, op="turn:Bob")
    assert text_of(html) == ("players: Ann Bob\nengine: 12-12\nAnn: -\nBob: -\nmexican: -\nturn: Bob\nhand: 0-0 12-11\n"
                             "check: score\n")


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_sets_are_named_in_the_players_language(client: Client, language: str) -> None:
    """The Set select names each set, and the rulesets' default, with the site's one word for a set
    (the "domino set" entry of the catalogue, as the house pages use it): never a Latin "double-"
    outside English."""
    html = post(client, language, position=EXAMPLE)
    select = re.search(r'<select name="set".*?</select>', html, re.S)
    assert select is not None
    options = [unescape(o) for o in re.findall(r"<option[^>]*>([^<]*)</option>", select.group(0))]
    with translation.override(language):
        named = [pgettext("domino set", "double-%(n)s") % {"n": n} for n in (6, 9, 12, 15, 18)]
        default = gettext("as the rulesets say (%(set)s)") % {"set": named[2]}
    assert options == [default, *named[2:]]  # the example's tiles need at least double-12
    if language != "en":
        assert "double" not in html.lower()


def test_the_player_who_went_out_follows_the_seat() -> None:
    """``out:`` names a seat: renamed with it, dropped with it, and dropped when tiles go into that hand."""
    from rules.tiles import Tile

    p = Position.parse("players: Ann Bob Cy\nhand Bob: 0-0 9-1\nout: Ann\ncheck: score\n")
    assert b._player_rename(p, "Ann", "Zoe").out == "Zoe"
    assert b._player_remove(p, "Ann").out is None
    assert b._player_remove(p, "Cy").out == "Ann"
    assert b._with_hand(p, "Ann", (Tile.of(2, 1),)).out is None
    for q in (b._player_rename(p, "Ann", "Zoe"), b._player_remove(p, "Ann"), b._with_hand(p, "Ann", (Tile.of(2, 1),))):
        assert Position.parse(q.format()) == q

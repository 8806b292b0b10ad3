"""The adjudication page without JavaScript: the form, the ruling, bad input, the board."""

from __future__ import annotations

import gzip
import re
import xml.etree.ElementTree as ET
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from mextrain_site.core.i18n import option_labels, ruleset_name
from mextrain_site.referee.views import EXAMPLE
from rules.position import MAX_TEXT
from tests.languages import LANGUAGES
from tests.player_text import codes_in, player_text
from variants.loader import base_ids, get_ruleset, option_ids

pytestmark = [pytest.mark.django_db, pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]
URL = "/en/adjudicate/"


def post(client: Client, text: str, variants: list[str] | None = None, **extra: str):
    data: dict[str, object] = {"position": text}
    if variants:
        data["variant"] = variants
    return client.post(URL, data, **extra)


def html(response) -> str:
    return response.content.decode("utf-8")


def test_url_name_and_language_prefix() -> None:
    assert reverse("referee:adjudicate") == URL
    assert reverse("share:ruling", args=["abcdefghijkl"]) == "/r/abcdefghijkl/"


def test_page_offers_the_worked_example_syntax_help_and_the_picker(client: Client) -> None:
    r = client.get(URL)
    assert r.status_code == 200
    page = html(r)
    assert '<textarea id="position" name="position"' in page
    assert "check: Bob: 6-4 -&gt; Cy" in page  # the worked example, prefilled
    assert "Syntax" in page and "the move in dispute" in page
    for ident in option_ids():
        assert f'name="variant" value="{ident}"' in page
    assert "csrfmiddlewaretoken" in page
    assert 'enctype="multipart/form-data"' in page
    assert "vendor/htmx.min.js" in page
    assert 'id="ruling"' in page


def test_judging_the_example_gives_the_verdict_table_and_board(client: Client) -> None:
    r = post(client, EXAMPLE)
    assert r.status_code == 200
    page = html(r)
    assert "<html" in page  # the whole page, without htmx
    assert 'class="verdict verdict-illegal"' in page
    assert re.search(r'class="verdict-big"[^>]*>Illegal<', page)
    assert "Under all 4 rulesets judged." in page
    # each ruleset's reason, with a quote from its source in its language and direction
    assert "The open double 2-2 on the Mexican train must be satisfied first." in page
    assert "Cy&#x27;s train is not open to Bob: it carries no marker." in page
    # quoted in the reader's language first, the original one tap away, the source by its title
    assert re.search(r'<blockquote lang="en" dir="ltr" cite="/en/sources/[^"]+">If a turn ends with an open double', page)
    assert '<details class="original"><summary>The original (Hebrew)</summary>' in page
    assert '<blockquote lang="he" dir="rtl">' in page and '<blockquote lang="it" dir="ltr">' in page
    assert "<bdi>Masters Traditional Games</bdi></a></cite>" in page
    # the answer layers name no code, rule key or file name
    answer = re.sub(r"<[^>]+>", " ", page[page.index('id="verdict"'):page.index('class="layer actions"')])
    for word in ("must-satisfy-double", "train-not-open", "doubles.obligation", ".txt", "<code>masters</code>"):
        assert word not in answer
    # the table: one column per ruleset, the disputed rows marked
    for ident in base_ids():
        assert f'<th scope="col" data-ruleset="{ident}">' in page
    assert 'class="disagree"' in page and "rulesets disagree" in page
    assert "<code class=\"move\" dir=\"ltr\">Bob: 9-2 -&gt; Ann</code>" in page
    # the board
    assert '<svg class="board-svg"' in page
    # the text is kept in the textarea
    assert "# Bob claims he may play 6-4 on Cy&#x27;s train." in page


def test_verdict_comes_before_the_table_and_the_table_before_the_board(client: Client) -> None:
    page = html(post(client, EXAMPLE))
    v, w = page.index('class="verdict '), page.index('class="layer why"')
    t, b = page.index('class="layer actions"'), page.index('class="layer boards"')
    assert v < w < t < b


def test_one_ruleset_picked(client: Client) -> None:
    page = html(post(client, EXAMPLE, ["masters"]))
    assert re.search(r'class="verdict-big"[^>]*>Illegal<', page)
    assert 'data-ruleset="masters"' in page
    assert 'data-ruleset="howto"' not in page
    assert 'value="masters" checked' in page


def test_a_ruleset_with_options_changes_the_verdict(client: Client) -> None:
    """Under masters the open double 2-2 binds no one; with mandatory-doubles it does."""
    page = html(post(client, EXAMPLE, ["masters", "masters+mandatory-doubles"]))
    assert '<th scope="col" data-ruleset="masters+mandatory-doubles">' in page
    assert "rulesets disagree" in page
    # Bob: 9-2 -> Ann: legal under masters, illegal with mandatory doubles
    row = re.search(r"<tr class=\"disagree\">\s*<th scope=\"row\"><code class=\"move\" dir=\"ltr\">Bob: 9-2 -&gt; Ann</code>.*?</tr>",
                    page, re.S)
    assert row is not None
    cells = re.findall(r'<td class="cell (\w+)" data-ruleset="([^"]+)"', row.group(0))
    assert cells == [("legal", "masters"), ("illegal", "masters+mandatory-doubles")]


def test_the_text_variant_line_is_followed_when_nothing_is_ticked(client: Client) -> None:
    page = html(post(client, "variant: cardinal\n" + EXAMPLE))
    assert '<th scope="col" data-ruleset="cardinal">' in page
    assert 'data-ruleset="howto"' not in page


def test_legal_check_and_disagreeing_rulesets(client: Client) -> None:
    text = EXAMPLE.replace("check: Bob: 6-4 -> Cy", "check: Bob: 9-2 -> Ann")
    page = html(post(client, text))
    assert 'class="verdict verdict-split"' in page
    assert re.search(r'class="verdict-big"[^>]*>The rulesets disagree<', page)
    assert "Legal under <bdi>Masters Traditional Games</bdi>, <bdi>Cardinal Games</bdi>." in page
    assert ("Illegal under <bdi>How to play Mexican Train dominoes</bdi>, "
            "<bdi>Mexican Train — the game-rules page</bdi>.") in page


def test_without_check_there_is_no_verdict_but_the_table(client: Client) -> None:
    text = EXAMPLE.replace("check: Bob: 6-4 -> Cy\n", "")
    page = html(post(client, text))
    assert 'class="verdict ' not in page
    assert 'class="actions-table"' in page


def test_parse_error_names_line_and_column_keeps_text_and_marks_the_line(client: Client) -> None:
    text = EXAMPLE.replace("mexican: 12-2 2-2", "mexican: 12-2 2-x")
    r = post(client, text)
    assert r.status_code == 400
    page = html(r)
    assert "line 8, column 15: expected a tile like 6-4, found <bdi>&#x27;2-x&#x27;</bdi>" in page
    assert 'aria-invalid="true"' in page
    assert 'aria-describedby="position-hint input-error"' in page
    assert "mexican: 12-2 2-x" in page  # kept in the textarea
    bad = re.findall(r'<li value="(\d+)" class="bad" aria-current="true"><code>(.*?)</code>', page)
    assert bad == [("8", "mexican: 12-2 <mark>2-x</mark>")]
    assert 'data-error-line="8" data-error-column="15"' in page


@pytest.mark.parametrize(("text", "needle"), [
    ("", "the position has no <bdi>&#x27;players:&#x27;</bdi> line"),
    ("players: A B\nengine: 12\nturn: C\n", "found <bdi>&#x27;C&#x27;</bdi>"),
    ("players: A B\nengine: 12\nA: 12-3 3-3\nB: 12-3\nturn: A\n", "appears twice"),
    ("players: A B\nengine: 12\nA: 11-3\nturn: A\n", "does not chain"),
    ("players: A B\nengine: 12\nturn: A\nbogus: 1\n", "bogus"),
    ("variant: nonesuch\nplayers: A B\nengine: 12\nturn: A\n", "unknown variant"),
])
def test_bad_inputs_are_400_with_a_message(client: Client, text: str, needle: str) -> None:
    r = post(client, text)
    assert r.status_code == 400
    assert needle in html(r)
    assert 'class="error-message" id="input-error"' in html(r)


def test_text_above_the_limit_is_refused_with_413_and_kept(client: Client) -> None:
    text = EXAMPLE + "#" * (MAX_TEXT - len(EXAMPLE) + 1)
    r = post(client, text)
    assert r.status_code == 413
    page = html(r)
    assert "Too long to judge" in page
    assert f"at most {MAX_TEXT} are accepted" in page
    assert "#" * 1000 in page  # the text is kept
    assert 'aria-invalid="true"' not in page or "input-error" in page


def test_text_at_the_limit_is_judged(client: Client) -> None:
    text = EXAMPLE + "#" * (MAX_TEXT - len(EXAMPLE))
    assert len(text) == MAX_TEXT
    assert post(client, text).status_code == 200


def test_crlf_counts_as_one_character(client: Client) -> None:
    text = EXAMPLE + "#" * (MAX_TEXT - len(EXAMPLE))
    r = post(client, text.replace("\n", "\r\n"))
    assert r.status_code == 200


def test_null_character_is_a_form_error_not_a_crash(client: Client) -> None:
    r = post(client, "players: A\x00B\n")
    assert r.status_code == 400
    assert "Null characters are not allowed" in html(r)


def test_unknown_ruleset_in_the_picker_is_a_clear_error(client: Client) -> None:
    r = post(client, EXAMPLE, ["nonesuch"])
    assert r.status_code == 400
    assert "nonesuch" in html(r)


def test_option_combination_the_engine_refuses_is_reported(client: Client) -> None:
    r = client.post(URL, {"position": "variant: masters+free-bonus-turn\n" + EXAMPLE})
    assert r.status_code == 400
    assert "requires" in html(r)


def test_replay_that_stops_names_the_move_and_line_and_shows_the_board_before(client: Client) -> None:
    text = EXAMPLE.replace("check: Bob: 6-4 -> Cy\n", "moves:\n  Bob: 9-2 -> mexican\n  Cy: 3-3 -> Cy\n")
    page = html(post(client, text, ["howto"]))
    assert "The replay stopped at line 14" in page
    assert "<code class=\"move\" dir=\"ltr\">Cy: 3-3 -&gt; Cy</code> is illegal" in page
    assert "1 move before it was applied" in page
    assert "before the move on line 14" in page
    # the board is the one before the failing move: 9-2 is on the Mexican train, Cy to move
    svg = re.search(r"<svg class=\"board-svg\".*?</svg>", page, re.S)
    assert svg is not None
    assert "Cy to move" in svg.group(0)
    assert 'data-tile="2-9"' in svg.group(0)


def test_impossible_position_is_bad_input(client: Client) -> None:
    # 92 tiles cannot come from a double-12 set (91)
    text = "players: A B\nengine: 12\nturn: A\nset: double-12\nboneyard: 91\n"
    r = post(client, text)
    assert r.status_code == 400
    assert "line 5: the position holds 92 tiles but a double-12 set has only 91" in html(r)


def test_position_impossible_under_one_ruleset_is_said_in_its_place(client: Client, monkeypatch) -> None:
    from mextrain_site.referee import present
    from rules.position import ImpossiblePositionError

    real = present.rule

    def rule(position, ruleset):
        if ruleset.id == "cardinal":
            raise ImpossiblePositionError("cardinal cannot have this", code="test")
        return real(position, ruleset)

    monkeypatch.setattr(present, "rule", rule)
    page = html(post(client, EXAMPLE))
    assert "This position cannot arise under Cardinal Games: cardinal cannot have this" in page
    assert '<th scope="col" data-ruleset="cardinal">' not in page
    assert '<th scope="col" data-ruleset="masters">' in page
    monkeypatch.setattr(present, "rule", lambda position, ruleset: (_ for _ in ()).throw(
        ImpossiblePositionError("never", code="test")))
    r = post(client, EXAMPLE)
    assert r.status_code == 400
    assert "never" in html(r)


def test_round_over_shows_scores(client: Client) -> None:
    text = ("players: A B\nengine: 12\nA: 12-3\nB: -\nturn: A\nhand: 3-4\nhand B: 5-6\nboneyard: 0\n"
            "moves: A: 3-4 -> A\n")
    page = html(post(client, text, ["masters"]))
    assert "The round is over: each player's points" in page
    assert "<dt><bdi>B</bdi></dt><dd><span class=\"score-sum\">6-5 counts 11 = 11</span></dd>" in page
    assert "<dt><bdi>A</bdi></dt><dd><span class=\"score-sum\">no tiles left = 0</span></dd>" in page


def test_names_are_escaped_everywhere(client: Client) -> None:
    text = "players: <b>x</b> Bob\nengine: 12\nturn: Bob\nhand: 12-1\n"
    r = post(client, text)
    assert r.status_code == 200
    page = html(r)
    assert "<b>x</b>" not in page
    assert "&lt;b&gt;x&lt;/b&gt;" in page


def test_every_part_written_in_python_escapes_a_name_as_the_template_would(client: Client) -> None:
    """The verdict, the answers, the other reasons, the move table and the list of moves illegal
    everywhere are written by ruling_html, not the template engine: a name holding every
    character HTML gives a meaning to comes out escaped in each, as ``{{ name }}`` writes it."""
    name = "A<&\"'>"
    text = f"players: {name} Bob\nengine: 12\n{name}: 12-3\nBob: -\nturn: Bob\nhand: 3-4 12-5\ncheck: Bob: 3-4 -> {name}\n"
    page = html(post(client, text, HTTP_HX_REQUEST="true"))
    escaped = "A&lt;&amp;&quot;&#x27;&gt;"
    assert name not in page
    assert f'data-announce="Bob: 4-3 -&gt; {escaped}: Illegal"' in page  # the verdict
    assert f'<span class="answer-text">{escaped}&#x27;s train is not open to Bob' in page  # the answers
    assert f"4-3 matches the open end 3 of {escaped}&#x27;s train.</p>" in page  # the other reasons
    assert f'<li><code class="move" dir="ltr">Bob: 4-3 -&gt; {escaped}</code>: {escaped}&#x27;s train' in page
    rows = re.search(r'<table class="actions-table">.*?</table>', page, re.S)
    assert rows is not None and 'data-ruleset="masters"' in rows.group(0)


def test_board_svg_is_well_formed_and_shows_the_table(client: Client) -> None:
    page = html(post(client, EXAMPLE, ["howto"]))
    svg = re.search(r"<svg class=\"board-svg\".*?</svg>", page, re.S)
    assert svg is not None
    root = ET.fromstring(svg.group(0))
    ns = {"s": "http://www.w3.org/2000/svg"}
    assert root.get("viewBox", "").startswith("0 0 ") and root.get("width") == "100%"
    trains = {g.get("data-train"): g for g in root.iterfind(".//s:g[@data-train]", ns)}
    assert list(trains) == ["Ann", "Bob", "Cy", "Dee", "mexican"]
    tiles = lambda name: [t.get("data-tile") for t in trains[name].iterfind(".//s:g[@data-tile]", ns)]  # noqa: E731
    assert tiles("Ann") == ["12-4", "4-4", "4-9"]
    assert tiles("mexican") == ["12-2", "2-2"]
    assert tiles("Dee") == []
    assert trains["Ann"].find(".//s:g[@class='marker']", ns) is not None
    assert trains["Dee"].find(".//s:g[@class='marker']", ns) is not None
    assert trains["Bob"].find(".//s:g[@class='marker']", ns) is None
    assert trains["Cy"].find(".//s:g[@class='unknown-tiles']", ns) is not None
    assert trains["mexican"].find(".//s:rect[@class='open-double-glow']", ns) is not None
    assert "open double" in "".join(trains["mexican"].itertext())
    assert root.find(".//s:g[@class='engine']", ns) is not None


def test_hebrew_page_is_right_to_left_and_forms_stay_in_the_language(client: Client) -> None:
    r = client.get("/he/adjudicate/")
    assert r.status_code == 200
    page = html(r)
    assert 'dir="rtl"' in page
    assert 'action="/he/adjudicate/#ruling"' in page
    assert '<textarea id="position" name="position" rows="14" dir="ltr"' in page


def test_csrf_is_enforced_for_the_page(client: Client) -> None:
    strict = Client(enforce_csrf_checks=True)
    assert strict.post(URL, {"position": EXAMPLE}).status_code == 403
    page = html(strict.get(URL))
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token is not None
    r = strict.post(URL, {"position": EXAMPLE, "csrfmiddlewaretoken": token.group(1)})
    assert r.status_code == 200
    r = strict.post(URL, {"position": EXAMPLE}, HTTP_X_CSRFTOKEN=token.group(1), HTTP_HX_REQUEST="true")
    assert r.status_code == 200


def test_only_get_and_post(client: Client) -> None:
    assert client.put(URL).status_code == 405


def test_nav_links_to_the_page(client: Client) -> None:
    assert f'href="{URL}"' in html(client.get("/en/"))


def test_a_body_above_the_upload_limit_is_refused_not_a_crash(client: Client) -> None:
    r = post(client, "#" * 70_000)
    assert r.status_code in (400, 413)
    strict = Client(enforce_csrf_checks=True)
    assert strict.post(URL, {"position": "#" * 70_000}).status_code in (400, 403, 413)


def test_the_prefilled_example_is_light_and_compressed(client: Client) -> None:
    """Issue 9's aims: the ruling page for the example is at most 60 KB of HTML, sent gzipped."""
    r = client.post(URL, {"position": EXAMPLE}, HTTP_ACCEPT_ENCODING="gzip")
    assert r.status_code == 200 and r["Content-Encoding"] == "gzip"
    page = gzip.decompress(r.content)
    assert len(page) <= 60_000, len(page)
    assert len(r.content) < len(page) / 3


def test_a_legal_verdict_shows_first_why_the_forbidding_rule_does_not_apply(client: Client) -> None:
    text = ("players: Ann Bob Cy Dee\nengine: 12-12\nAnn: 12-9\nBob: 12-7\nCy: 12-3\nDee: 12-8\nmexican: 12-5\n"
            "boneyard: 20\nturn: Ann\nhand: 9-9 5-1 4-4 10-11\nmoves:\n  Ann: 9-9 -> Ann\ncheck: Ann: 5-1 -> mexican\n")
    page = html(post(client, text, ["masters", "cardinal"]))
    lines = re.findall(r'<li class="answer legal" data-ruleset="(\w+)" data-reason="double-not-binding">.*?<span class="answer-text">(.*?)</span>', page, re.S)
    assert lines == [
        ("masters", "The open double 9-9 on Ann&#x27;s train does not have to be satisfied first under this ruleset."),
        ("cardinal", "The open double 9-9 on Ann&#x27;s train does not have to be satisfied first under this ruleset."),
    ]
    why = page[page.index('class="layer why"'):]
    assert "Ann has no tile for their own train, so may play on another." in why
    # cardinal is silent on the obligation: its assumption names the other source as players know it
    assert "as in the basic rules of Masters Traditional Games." in page
    assert "(003)" not in page


def test_a_scoring_question_is_judged_without_a_verdict(client: Client) -> None:
    """check: score has no move to call legal or illegal; the page answers it (the scores are the referee page's to show)."""
    r = post(client, "players: Ann Bob Cy Dee\nhand Bob: 0-0 12-11\ncheck: score\n")
    assert r.status_code == 200
    page = html(r)
    assert "verdict-illegal" not in page and "verdict-legal" not in page
    assert "error-title" not in page


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_ruleset_picker_names_rulesets_and_options_as_players_do(client: Client, language: str) -> None:
    """The picker and the line that says what is picked read names (the publisher or title, the
    options' labels), never ids: the ids stay the checkboxes' values."""
    chosen = ["masters", "masters+mandatory-doubles+free-bonus-turn"]
    page = html(client.post(f"/{language}/adjudicate/", {"position": EXAMPLE, "variant": chosen}))
    picker = re.search(r'<details class="picker".*?</details>', page, re.S)
    assert picker, page[:500]
    assert codes_in(player_text(picker.group(0))) == {}
    for ident in option_ids():
        assert f'name="variant" value="{ident}"' in picker.group(0)
    with translation.override(language):
        names = [ruleset_name(get_ruleset(i)) for i in chosen]
        labels = option_labels(get_ruleset(chosen[1]))
    picked = re.search(r'<span class="picked">(.*?)</span>', picker.group(0), re.S)
    assert picked and unescape(re.sub(r"<[^>]+>", "", picked.group(1))) == ", ".join(names)
    assert unescape(" + ".join(labels)) in unescape(picker.group(0))

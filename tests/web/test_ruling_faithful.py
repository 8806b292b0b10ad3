"""What the ruling panel shows of the engine's faithful answers: a ruleset that does not fit the
table's player count set apart beside the verdict and counted apart, scoring with the hands not
given and the player who went out, and one tap to judge again with the set a pip needs."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client
from django.utils import translation

from mextrain_site.core.i18n import ruleset_name
from mextrain_site.referee.present import with_set
from rules.position import Position
from variants.loader import get_ruleset

pytestmark = [pytest.mark.django_db, pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]

THREE = """\
# three at the table: Cardinal Games is for 4 to 10
players: Ann Bob Cy
engine: 12
Ann: 12-11
Bob: -
Cy: -
turn: Bob
hand: 11-10 10-10
check: Bob: 11-10 -> Ann
"""

SCORE = """\
players: Ann Bob Cy
hand Bob: 0-0 12-11
out: Ann
check: score
"""

FIFTEEN = """\
# a pip above every default set
players: Ann Bob Cy Dee Eve
engine: 12
Ann: 12-11
turn: Bob
hand: 11-15 10-10
check: Bob: 11-15 -> Ann
"""

NINE = """\
players: Ann Bob Cy
engine: 9
Ann: 9-8
turn: Bob
hand: 8-12 10-10
check: Bob: 8-12 -> Ann
"""


def post(client: Client, text: str, lang: str = "en", variants: list[str] | None = None, **extra: str) -> str:
    data: dict[str, object] = {"position": text}
    if variants:
        data["variant"] = variants
    return client.post(f"/{lang}/adjudicate/", data, **extra).content.decode()


def visible(html: str) -> str:
    """The text a reader sees: tags dropped, entities and bidi isolates gone, spaces collapsed."""
    text = unescape(re.sub(r"<[^>]+>", " ", html))
    return " ".join(re.sub("[\u2066-\u2069\u200e\u200f]", "", text).split())


def verdict_block(page: str) -> str:
    """The verdict, from the move in dispute to the end of its answers."""
    return page[page.index('id="verdict"'):page.index('<details class="layer') if '<details class="layer' in page else None]


@pytest.mark.parametrize("htmx", [False, True])
def test_a_ruleset_for_more_players_is_set_apart_beside_the_verdict(client: Client, htmx: bool) -> None:
    page = post(client, THREE, **({"HTTP_HX_REQUEST": "true"} if htmx else {}))
    verdict = visible(verdict_block(page))
    assert "Under the 3 rulesets that allow 3 players." in verdict
    assert "Cardinal Games is for 4 to 10 players; this position has 3." in verdict
    # counted apart: its answer is listed after the sentence, not among the answers the verdict counts
    assert page.index('class="verdict-scope"') < page.index('class="apart-why"') < page.index('<ul class="answers">')
    start = page.index('<ul class="answers">')
    counted = page[start:page.index("</ul>", start)]
    assert 'data-ruleset="cardinal"' not in counted
    assert all(f'data-ruleset="{i}"' in counted for i in ("howto", "gamerules", "masters"))
    assert '<ul class="answers answers-apart">' in page and 'class="answer illegal" data-ruleset="cardinal"' in page
    # nowhere else, and never in English with the id in the board's layer
    board = page[page.index('class="layer boards"'):]
    assert "is for 4 to 10 players" not in board and "cardinal is for" not in page


@pytest.mark.parametrize("lang", ["he", "hu", "ky", "it", "el"])
def test_the_ruleset_set_apart_is_named_in_the_readers_language(client: Client, lang: str) -> None:
    page = post(client, THREE, lang)
    apart = re.search(r'<p class="apart-why" data-ruleset="cardinal">(.*?)</p>', page)
    assert apart is not None
    sentence = visible(apart.group(1))
    with translation.override(lang):
        name = ruleset_name(get_ruleset("cardinal"))
        english = translation.gettext("{ruleset} is for {low} to {high} players; this position has {count}.")
    assert visible(name) in sentence and "4" in sentence and "10" in sentence and "3" in sentence
    assert english != "{ruleset} is for {low} to {high} players; this position has {count}.", lang
    assert "players; this position" not in sentence  # the catalogue's sentence, not the English
    assert "Cardinal Games is for" not in sentence
    scope = re.search(r'<p class="verdict-scope">(.*?)</p>', page)
    assert scope is not None and "3" in scope.group(1) and "Under the" not in scope.group(1)


def test_when_every_ruleset_fits_none_is_set_apart(client: Client) -> None:
    page = post(client, THREE.replace("players: Ann Bob Cy", "players: Ann Bob Cy Dee").replace("Cy: -", "Cy: -\nDee: -"))
    assert "Under all 4 rulesets judged." in page
    assert 'class="apart' not in page


def test_a_single_ruleset_that_does_not_fit_says_so_beside_its_verdict(client: Client) -> None:
    page = post(client, THREE, variants=["cardinal"])
    verdict = visible(verdict_block(page))
    assert "Cardinal Games is for 4 to 10 players; this position has 3." in verdict
    assert re.search(r'class="verdict-big"[^>]*>Illegal<', page)  # still judged by its rules


def test_scores_list_a_hand_not_given_and_the_player_who_went_out(client: Client) -> None:
    page = post(client, SCORE, variants=["gamerules"])
    rows = {visible(m.group(1)): visible(m.group(2))
            for m in re.finditer(r"<dt>(.*?)</dt><dd>(.*?)</dd>", page)}
    assert rows["Ann (went out)"] == "no tiles left = 0"
    assert rows["Bob"] == "0-0 counts 50 + 12-11 counts 23 = 73"
    assert rows["Cy"] == "hand not given"
    assert 'class="score-row score-unknown"' in page


@pytest.mark.parametrize("lang", ["he", "hu", "ky", "it", "el"])
def test_scores_in_every_language(client: Client, lang: str) -> None:
    page = post(client, SCORE, lang, variants=["gamerules"])
    with translation.override(lang):
        not_given, went_out = translation.gettext("hand not given"), translation.gettext("went out")
    assert not_given != "hand not given" and went_out != "went out"
    assert f'<span class="score-sum">{not_given}</span>' in unescape(page)
    assert f'<span class="went-out">({went_out})</span>' in unescape(page)


def test_with_set_adds_the_line_after_players_and_keeps_the_text() -> None:
    added = with_set(FIFTEEN, 15)
    lines = added.splitlines()
    assert lines[lines.index("players: Ann Bob Cy Dee Eve") + 1] == "set: double-15"
    assert [ln for ln in lines if ln != "set: double-15"] == FIFTEEN.splitlines()
    assert Position.parse(added).set_max == 15
    assert with_set("engine: 9\n", 12).splitlines()[0] == "set: double-12"


def _retry_text(page: str) -> str:
    form = re.search(r'<form class="retry-set"[^>]*>.*?<textarea name="position"[^>]*>\n(.*?)</textarea>', page, re.S)
    assert form is not None, "no offer to judge again"
    return unescape(form.group(1))


@pytest.mark.parametrize("htmx", [False, True])
def test_a_pip_above_every_default_set_offers_to_judge_again_with_the_set(client: Client, htmx: bool) -> None:
    page = post(client, FIFTEEN, **({"HTTP_HX_REQUEST": "true"} if htmx else {}))
    assert "The position cannot be judged" in page
    assert "Add <code dir=\"ltr\">set: double-15</code> and judge again" in page
    text = _retry_text(page)
    assert text == with_set(FIFTEEN, 15)
    assert 'name="csrfmiddlewaretoken"' in page.split('class="retry-set"')[1].split("</form>")[0]  # posts without script
    again = post(client, text)
    assert 'id="verdict"' in again and "retry-set" not in again


def test_a_pip_above_some_default_sets_offers_the_set_beside_the_ruling(client: Client) -> None:
    page = post(client, NINE)
    assert page.count('class="impossible"') == 2  # How to play and Cardinal Games use a double-9 set for 3
    assert _retry_text(page) == with_set(NINE, 12)
    again = post(client, _retry_text(page))
    assert 'class="impossible"' not in again and "retry-set" not in again


def test_no_offer_when_the_text_names_its_set_or_another_error_refuses_it(client: Client) -> None:
    page = post(client, with_set(FIFTEEN, 12))
    assert "retry-set" not in page
    page = post(client, FIFTEEN.replace("hand: 11-15 10-10", "hand: 11-15 10-10 10-10"))
    assert "retry-set" not in page


@pytest.mark.parametrize("lang", ["he", "hu", "ky", "it", "el"])
def test_the_offer_in_every_language(client: Client, lang: str) -> None:
    page = post(client, FIFTEEN, lang)
    with translation.override(lang):
        button = translation.gettext("Add %(line)s and judge again")
    assert button != "Add %(line)s and judge again"
    assert button % {"line": '<code dir="ltr">set: double-15</code>'} in page

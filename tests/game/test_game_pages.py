"""The game pages through Django's test client on the real database: a new game, the sheet, round
entry with the edit secret, refusals in the reader's language with the typed input kept."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from mextrain_site.game.models import GameEvent

pytestmark = [pytest.mark.django_db]


def start(client: Client, players: str = "Ann Bob Cy", ruleset: str = "howto", lang: str = "en",
          set_: str = "12") -> tuple[str, str]:
    response = client.post(f"/{lang}/game/new/", {"players": players, "ruleset": ruleset, "set": set_})
    assert response.status_code == 303, response.content[:500]
    path, token = response["Location"].split("#")
    return path.split("/")[2], token


def text(response: object) -> str:
    """The page without its tags (a tile is wrapped to keep it whole and left to right)."""
    return re.sub(r"<bdi[^>]*>|</bdi>", "", response.content.decode())  # type: ignore[attr-defined]


def enter(client: Client, game: str, token: str, **fields: object) -> object:
    data = {"token": token, "version": "0", "round": "1", "action": "save", **fields}
    return client.post(f"/g/{game}/edit/", data)


def test_a_new_game_goes_to_its_edit_link_with_the_secret_in_the_fragment(client: Client) -> None:
    game, token = start(client)
    assert len(token) >= 32
    page = client.get(f"/g/{game}/edit/").content.decode()
    assert token not in page  # the page learns it from the fragment, in the browser
    assert page.count('class="game-tile"') == 91 * 3  # a picker of the set's tiles per hand
    assert "12-12" in page and "0-0" in page


def test_a_round_counted_from_tiles_shows_the_sum_in_words(client: Client) -> None:
    game, token = start(client)
    page = text(enter(client, game, token, out="Ann", **{"tiles-1": ["12-11", "0-0"], "points-2": "21"}))
    assert "Bob: 0-0 counts 50 + 12-11 counts 23 = 73" in page and "Round 1 is on the sheet." in page
    sheet = text(client.get(f"/g/{game}/"))
    assert "Leading (lowest total): Ann" in sheet and "0-0 counts 50 + 12-11 counts 23 = 73" in sheet
    assert "Dispute in this round" in sheet


def test_the_view_link_cannot_edit(client: Client) -> None:
    game, token = start(client)
    response = client.post(f"/g/{game}/", {"token": token, "round": "1", "out": "Ann"})
    assert response.status_code == 403
    assert "This is the view link: it shows the sheet but cannot change it." in response.content.decode()
    assert not GameEvent.objects.exists()


def test_a_wrong_secret_is_refused_with_a_sentence(client: Client) -> None:
    game, _token = start(client)
    response = enter(client, game, "not-the-secret", out="Ann", **{"points-1": "3", "points-2": "4"})
    assert response.status_code == 403 and "This link cannot change the sheet" in response.content.decode()


def test_bad_input_keeps_what_was_typed(client: Client) -> None:
    game, token = start(client)
    response = enter(client, game, token, out="Ann", **{"tiles-1": ["6-6"], "tiles-2": ["6-6"]})
    page = response.content.decode()
    assert response.status_code == 400 and "6-6 is given twice (in Bob&#x27;s hand and in Cy&#x27;s)" in page
    assert re.search(r'name="tiles-1" value="6-6" checked', page) and re.search(r'name="tiles-2" value="6-6" checked', page)
    response = enter(client, game, token, **{"points-1": "3"})
    assert response.status_code == 400 and "Mark who went out" in response.content.decode()
    assert 'value="3"' in response.content.decode()


def test_a_stale_write_shows_both_values_and_loses_nothing(client: Client) -> None:
    game, token = start(client)
    assert enter(client, game, token, out="Ann", **{"points-1": "5", "points-2": "6"}).status_code == 200
    response = enter(client, game, token, out="Bob", **{"points-0": "40", "points-2": "7"})
    page = response.content.decode()
    assert response.status_code == 409 and "was written on another phone while you typed" in page
    stale = page[page.index("game-stale"):]
    assert re.search(r"On the sheet now</th><td>0</td><td>5</td><td>6</td>", stale)
    assert re.search(r"Yours</th><td>40</td><td>0</td><td>7</td>", stale)
    assert 'name="version" value="1"' in page and 'value="40"' in page  # save again: it lands


def test_the_count_button_counts_without_storing(client: Client) -> None:
    game, token = start(client, ruleset="cardinal", players="Ann Bob Cy Dee")
    page = text(enter(client, game, token, action="count", out="Ann",
                      **{"tiles-1": ["0-0", "12-11"], "points-2": "1", "points-3": "2"}))
    assert "0-0 counts 0 + 12-11 counts 23 = 23" in page and not GameEvent.objects.exists()


def test_the_winner_is_named_with_the_tie_break_quoted(client: Client) -> None:
    game, token = start(client, players="Ann Bob", set_="6")  # howto, 7 rounds
    for n in range(1, 8):
        fields = {"out": "Ann", "points-1": "5"} if n < 7 else {"out": "Bob", "points-0": "30"}
        assert enter(client, game, token, round=str(n), version=str(n - 1), **fields).status_code == 200
    page = client.get(f"/g/{game}/").content.decode()
    assert "Ann wins." in page and "breaks the tie by the most rounds scored at zero" in page
    assert 'class="citations game-citations"' in page


def test_the_sheet_in_hebrew(client: Client) -> None:
    game, token = start(client, lang="he")
    enter(client, game, token, out="Ann", **{"points-1": "5", "points-2": "6"})
    page = client.get(f"/g/{game}/", HTTP_ACCEPT_LANGUAGE="he").content.decode()
    assert 'dir="rtl"' in page and "דף ניקוד" in page and "מובילים" in page


def test_csv(client: Client) -> None:
    game, token = start(client)
    enter(client, game, token, out="Ann", **{"points-1": "5", "points-2": "6"})
    response = client.get(f"/g/{game}/sheet.csv")
    lines = response.content.decode().splitlines()
    assert response["Content-Type"].startswith("text/csv")
    assert lines[0] == "Round,Engine,Ann,Bob,Cy" and lines[1] == "1,12-12,0,5,6" and lines[-1] == "Total,,0,5,6"


def test_a_new_game_refused_keeps_the_names(client: Client) -> None:
    response = client.post("/en/game/new/", {"players": "Ann", "ruleset": "howto", "set": ""})
    page = response.content.decode()
    assert response.status_code == 400 and "expected 2 to 14 players under howto, found 1" in page
    assert 'value="Ann"' in page


def test_an_unknown_game_is_404(client: Client) -> None:
    assert client.get("/g/aaaaaaaaaaaaa/").status_code == 404


def test_dispute_in_this_round_opens_the_referee_with_the_table_written(client: Client) -> None:
    game, token = start(client, ruleset="gamerules+reverse-order", players="Ann Bob Cy Dee")
    enter(client, game, token, out="Ann", **{"points-1": "5", "points-2": "6", "points-3": "1"})
    sheet = client.get(f"/g/{game}/").content.decode()
    href = re.search(r'class="game-dispute" href="([^"]+)"', sheet)
    assert href and href.group(1).endswith("#build")
    page = client.get(href.group(1).replace("&amp;", "&").split("#")[0]).content.decode()
    text = re.search(r'<textarea id="position"[^>]*>\n?(.*?)</textarea>', page, re.S)
    assert text, page[:300]
    lines = text.group(1).splitlines()
    assert lines[0] == f"# game: /g/{game}/"
    for line in ("variant: gamerules+reverse-order", "players: Ann Bob Cy Dee", "round: 1", "turn: Ann"):
        assert line in lines
    assert any(line.startswith("set: double-") for line in lines) and any(line.startswith("engine: ") for line in lines)


def test_a_ruling_shared_from_the_game_links_back_to_it(client: Client) -> None:
    game, token = start(client)
    enter(client, game, token, out="Ann", **{"points-1": "5", "points-2": "6"})
    href = re.search(r'class="game-dispute" href="([^"]+)"', client.get(f"/g/{game}/").content.decode())
    assert href
    page = client.get(href.group(1).replace("&amp;", "&").split("#")[0]).content.decode()
    text = re.search(r'<textarea id="position"[^>]*>\n?(.*?)</textarea>', page, re.S)
    assert text
    position = text.group(1).replace("&#x27;", "'") + "hand Bob: 5-1\ncheck: Bob: 5-1 -> Ann\n"
    shared = client.post("/en/adjudicate/share/", {"position": position})
    assert shared.status_code == 303, shared.content[:500]
    ruling = client.get(shared["Location"]).content.decode()
    assert f'href="/g/{game}/"' in ruling and "Back to the game's score sheet" in ruling


def test_the_chart_draws_the_running_totals_on_the_server(client: Client) -> None:
    from mextrain_site.game.chart import visual

    game, token = start(client, players="Ann דנה")
    enter(client, game, token, out="Ann", **{"points-1": "5"})
    sheet = client.get(f"/g/{game}/", HTTP_ACCEPT_LANGUAGE="he").content.decode()
    src = re.search(r'<img src="([^"]+)"', sheet)
    assert src and src.group(1) == f"/g/{game}/chart.svg?v=1&amp;dir=rtl"
    response = client.get(f"/g/{game}/chart.svg", {"v": "1", "dir": "rtl"})
    assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml"
    assert "immutable" in response["Cache-Control"]
    svg = response.content.decode()
    assert svg.startswith("<?xml") and "<svg" in svg
    assert visual("דנה") == "הנד" and visual("Ann") == "Ann"  # matplotlib lays text out left to right
    assert client.get(f"/g/{game}/chart.svg", {"v": "0"})["Cache-Control"] == "no-cache"  # an old version


def test_the_history_shows_every_write_a_correction_included(client: Client) -> None:
    game, token = start(client)
    enter(client, game, token, out="Ann", **{"points-1": "5", "points-2": "6"})
    enter(client, game, token, version="1", out="Bob", **{"points-0": "4", "points-2": "6"})
    page = client.get(f"/g/{game}/").content.decode()
    history = page[page.index("game-history"):]
    assert re.search(r'<li value="2">.*Round 1 corrected: Ann 4, Bob 0, Cy 6', history)
    assert re.search(r'<li value="1">.*Round 1 entered: Ann 0, Bob 5, Cy 6', history)


ODD_NUMBERS = ("₀", "²", "①", "٣", "１", "9" * 4301, "+1", " 1 1", "1_000", "")
"""What str.isdigit() or int() accept or choke on that is no ASCII number (issue 24's fuzz)."""


@pytest.mark.parametrize("odd", ODD_NUMBERS)
def test_every_number_field_refuses_odd_digits_with_a_sentence(client: Client, odd: str) -> None:
    """The set, the round, the version and a hand's points read ASCII digits only (rules.numbers):
    never a 500, the field's sentence, the typed points kept."""
    new = client.post("/en/game/new/", {"players": "Ann Bob Cy", "ruleset": "howto", "set": odd})
    assert new.status_code in (303, 400)  # no set typed: the ruleset's default (303); anything else refused
    assert (new.status_code == 303) == (odd == ""), new.content[:300]
    game, token = start(client)
    for field in ("round", "version"):
        refused = enter(client, game, token, out="Ann", **{field: odd, "points-1": "3", "points-2": "4"})
        assert refused.status_code in (400, 409), (field, refused.status_code)
        assert 'value="3"' in refused.content.decode()
    points = enter(client, game, token, out="Ann", **{"points-1": odd, "points-2": "4"})
    if odd:
        assert points.status_code == 400 and "expected the points as a whole number" in points.content.decode()
    assert not GameEvent.objects.filter(game_id=game).exists() or odd == ""

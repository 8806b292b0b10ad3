"""htmx requests get only the panel they replace: the ruling, or the share link."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from mextrain_site.referee.views import EXAMPLE
from rules.position import MAX_TEXT

pytestmark = [pytest.mark.django_db, pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]
URL = "/en/adjudicate/"
HX = {"HTTP_HX_REQUEST": "true"}


def only_the_ruling_panel(page: str) -> None:
    assert "<html" not in page and "<form id=\"adjudicate-form\"" not in page and "<textarea id=\"position\"" not in page
    assert page.strip().startswith('<section id="ruling"')
    assert page.strip().endswith("</section>")


def test_htmx_judge_returns_only_the_ruling_panel(client: Client) -> None:
    r = client.post(URL, {"position": EXAMPLE}, **HX)
    assert r.status_code == 200
    page = r.content.decode()
    only_the_ruling_panel(page)
    assert re.search(r'class="verdict-big"[^>]*>Illegal<', page)
    assert '<svg class="board-svg"' in page
    assert "Share this ruling" in page
    assert "HX-Request" in r["Vary"]


def test_without_htmx_the_same_post_renders_the_whole_page(client: Client) -> None:
    r = client.post(URL, {"position": EXAMPLE})
    assert "<html" in r.content.decode()
    assert "HX-Request" in r["Vary"]


def test_htmx_bad_input_returns_the_error_panel_with_the_line(client: Client) -> None:
    r = client.post(URL, {"position": "players: A B\nengine: 12\nA: 12-3 x\n"}, **HX)
    assert r.status_code == 400
    page = r.content.decode()
    only_the_ruling_panel(page)
    assert "line 3, column 9" in page
    assert 'data-error-line="3"' in page and 'data-error-in-text="1"' in page
    assert '<li value="3" class="bad"' in page


def test_htmx_too_large_is_413_with_the_panel(client: Client) -> None:
    r = client.post(URL, {"position": "#" * (MAX_TEXT + 1)}, **HX)
    assert r.status_code == 413
    only_the_ruling_panel(r.content.decode())


def test_page_configures_htmx_to_swap_400_413_429_and_503(client: Client) -> None:
    page = client.get(URL).content.decode()
    assert 'name="htmx-config"' in page and "^(400|413|429|503)$" in page
    assert 'hx-post="/en/adjudicate/" hx-target="#ruling" hx-swap="outerHTML"' in page


def test_htmx_share_returns_only_the_link(client: Client) -> None:
    r = client.post("/en/adjudicate/share/", {"position": EXAMPLE}, **HX)
    assert r.status_code == 200
    page = r.content.decode()
    assert "<html" not in page and "<section" not in page
    link = re.search(r'<a href="(http://testserver/r/([a-z2-7]{12})/)" class="share-url">', page)
    assert link is not None
    assert client.get(link.group(1)).status_code == 200


def test_the_ruling_panel_carries_the_share_form_with_the_judged_text(client: Client) -> None:
    page = client.post(URL, {"position": EXAMPLE, "variant": ["cardinal", "masters"]}, **HX).content.decode()
    form = re.search(r'<form class="share-form".*?</form>', page, re.S)
    assert form is not None
    assert 'hx-post="/en/adjudicate/share/"' in form.group(0)
    # fetched into the page, it posts with the page's own token (htmx includes it) ...
    assert 'hx-include="#adjudicate-form [name=csrfmiddlewaretoken]"' in form.group(0)
    assert 'name="csrfmiddlewaretoken"' not in form.group(0)
    # ... which the page's form holds; a whole page (read perhaps without script) gives it its own
    whole = client.post(URL, {"position": EXAMPLE}).content.decode()
    assert re.search(r'<form id="adjudicate-form".*?name="csrfmiddlewaretoken" value="[^"]+"', whole, re.S)
    own = re.search(r'<form class="share-form".*?</form>', whole, re.S)
    assert own is not None and re.search(r'name="csrfmiddlewaretoken" value="[^"]+"', own.group(0))
    assert "hx-include" not in own.group(0)
    assert "check: Bob: 6-4 -&gt; Cy" in form.group(0)
    assert re.findall(r'name="variant" value="([^"]+)"', form.group(0)) == ["masters", "cardinal"]


def test_htmx_share_of_bad_input_replaces_the_ruling_panel_not_the_share_slot(client: Client) -> None:
    r = client.post("/en/adjudicate/share/", {"position": "players: A B\nengine: x\n"}, **HX)
    assert r.status_code == 400
    assert r["HX-Retarget"] == "#ruling" and r["HX-Reswap"] == "outerHTML"
    only_the_ruling_panel(r.content.decode())

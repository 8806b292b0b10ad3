"""Sharing a ruling: /r/<id>/ links derived from the content, stored once, never changed."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from mextrain_site.referee.models import SharedRuling
from mextrain_site.referee.sharing import ID_LENGTH, canonical, share_id, store
from mextrain_site.referee.views import EXAMPLE

pytestmark = [pytest.mark.django_db, pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]
SHARE = "/en/adjudicate/share/"


def share(client: Client, text: str, variants: list[str] | None = None):
    data: dict[str, object] = {"position": text}
    if variants:
        data["variant"] = variants
    return client.post(SHARE, data)


def test_share_redirects_to_a_short_link_derived_from_the_content(client: Client) -> None:
    r = share(client, EXAMPLE)
    assert r.status_code == 303
    assert re.fullmatch(r"/r/[a-z2-7]{%d}/" % ID_LENGTH, r["Location"])
    assert r["Location"] == f"/r/{share_id(EXAMPLE, [])}/"
    row = SharedRuling.objects.get()
    assert row.text == EXAMPLE and row.variants == ""


def test_the_same_text_gives_the_same_link_and_one_row(client: Client) -> None:
    first = share(client, EXAMPLE)["Location"]
    assert share(client, EXAMPLE)["Location"] == first
    assert share(client, EXAMPLE.replace("\n", "\r\n"))["Location"] == first  # browsers send CRLF
    assert SharedRuling.objects.count() == 1


def test_rulesets_are_part_of_the_content_in_any_order(client: Client) -> None:
    a = share(client, EXAMPLE, ["masters", "cardinal"])["Location"]
    b = share(client, EXAMPLE, ["cardinal", "masters"])["Location"]
    c = share(client, EXAMPLE, ["masters"])["Location"]
    assert a == b != c
    assert share(client, EXAMPLE)["Location"] not in (a, c)
    assert SharedRuling.objects.get(pk=a.split("/")[2]).variants == "cardinal masters"


def test_opening_the_link_judges_it_again_and_shows_the_page(client: Client) -> None:
    url = share(client, EXAMPLE, ["masters", "masters+mandatory-doubles"])["Location"]
    r = client.get(url)
    assert r.status_code == 200
    page = r.content.decode()
    assert "A shared ruling" in page
    assert f"http://testserver{url}" in page
    assert re.search(r'class="verdict-big"[^>]*>Illegal<', page)
    assert '<th scope="col" data-ruleset="masters">' in page
    assert '<th scope="col" data-ruleset="masters+mandatory-doubles">' in page
    assert 'value="masters+mandatory-doubles" checked' in page
    assert "check: Bob: 6-4 -&gt; Cy" in page  # the text, in the textarea, ready to edit
    assert 'action="/en/adjudicate/#ruling"' in page


def test_shared_link_follows_the_reader_language(client: Client) -> None:
    url = share(client, EXAMPLE)["Location"]
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="he").content.decode()
    assert 'dir="rtl"' in page and 'action="/he/adjudicate/#ruling"' in page


def test_unknown_or_malformed_ids_are_404(client: Client) -> None:
    assert client.get("/r/aaaaaaaaaaaa/").status_code == 404
    assert client.get("/r/NOT-AN-ID/").status_code == 404


def test_bad_input_is_not_stored(client: Client) -> None:
    r = share(client, "players: A B\nengine: x\n")
    assert r.status_code == 400
    assert "line 2" in r.content.decode()
    assert SharedRuling.objects.count() == 0
    assert share(client, EXAMPLE, ["nonesuch"]).status_code == 400
    assert SharedRuling.objects.count() == 0


def test_share_needs_post_and_csrf(client: Client) -> None:
    assert client.get(SHARE)["Location"] == "/en/adjudicate/"  # sent back to the page, nothing stored
    strict = Client(enforce_csrf_checks=True)
    assert strict.post(SHARE, {"position": EXAMPLE}).status_code == 403
    assert SharedRuling.objects.count() == 0


def test_a_stored_ruling_never_changes() -> None:
    row = store(EXAMPLE, [])
    row.text = "players: A B\n"
    with pytest.raises(ValueError, match="never changes"):
        row.save()
    assert SharedRuling.objects.get(pk=row.pk).text == EXAMPLE
    assert store(EXAMPLE, []).pk == row.pk


def test_id_is_a_prefix_of_the_hash_of_a_canonical_serialisation() -> None:
    assert canonical("t", ["b", "a", "a"]) == canonical("t", ["a", "b"])
    assert canonical("t", ["a"]) != canonical("t ", ["a"])
    assert share_id("t", ["b", "a"]) == share_id("t", ["a", "b"])
    assert re.fullmatch(r"[a-z2-7]{12}", share_id("t", []))


def test_a_different_ruling_under_the_same_short_id_gets_a_longer_one(monkeypatch) -> None:
    from mextrain_site.referee import sharing

    monkeypatch.setattr(sharing, "full_digest", lambda text, variants: ("a" * 12) + ("b" if text == "one" else "c") * 40)
    one, two = store("one", []), store("two", [])
    assert one.pk == "a" * 12
    assert two.pk == "a" * 12 + "c" * 8
    assert store("two", []).pk == two.pk


def test_losing_the_insert_race_reads_the_winners_row(monkeypatch) -> None:
    """The check-then-insert window: another request inserts between our look-up and insert."""
    from django.db import IntegrityError

    from mextrain_site.referee import sharing

    winner = store(EXAMPLE, ["masters"])
    real_filter = SharedRuling.objects.filter
    calls = {"create": 0}

    class Missed:
        def first(self):
            return None  # our look-up ran before the winner committed

    def create(**kwargs):
        calls["create"] += 1
        raise IntegrityError("duplicate key value violates unique constraint")

    monkeypatch.setattr(SharedRuling.objects, "filter", lambda **kw: Missed())
    monkeypatch.setattr(SharedRuling.objects, "create", create)
    row = sharing.store(EXAMPLE, ["masters"])
    monkeypatch.setattr(SharedRuling.objects, "filter", real_filter)
    assert calls["create"] == 1
    assert row.pk == winner.pk and row.text == EXAMPLE
    assert SharedRuling.objects.count() == 1


def test_a_stored_text_that_no_longer_parses_still_opens(client: Client) -> None:
    row = SharedRuling.objects.create(id="a" * ID_LENGTH, text="players: A B\nengine: 12\nA: 12-3 x\n")
    r = client.get(f"/r/{row.pk}/")
    assert r.status_code == 200
    page = r.content.decode()
    assert "line 3, column 9" in page and '<li value="3" class="bad"' in page
    assert "A shared ruling" in page

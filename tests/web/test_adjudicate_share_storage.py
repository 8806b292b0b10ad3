"""Concurrent shares lose nothing: many threads share the same and different rulings at once,
and every one is stored exactly once.

Runs on the configured database: SQLite by default, PostgreSQL when DATABASE_URL points at
one (tests/web/test_adjudicate_postgres.py runs this file that way under `make test`).
"""

from __future__ import annotations

import json
import os
import re
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from django.test import Client

from mextrain_site.referee.models import SharedRuling
from mextrain_site.referee.sharing import share_id, store
from mextrain_site.referee.views import EXAMPLE
from tests.db_threads import in_thread

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]

THREADS = 16
TEXTS = [EXAMPLE.replace("boneyard: 23", f"boneyard: {n}") for n in range(10, 22)]



def test_the_database_in_use() -> None:
    """Under test_adjudicate_postgres.py the run must really be on PostgreSQL."""
    expected = os.environ.get("MEXTRAIN_EXPECT_DB_VENDOR")
    assert connection.vendor == (expected or connection.vendor)
    assert connection.vendor in ("sqlite", "postgresql")


def test_concurrent_stores_of_the_same_and_different_texts_store_each_once() -> None:
    jobs = [(TEXTS[i % len(TEXTS)], ["masters"] if i % 3 == 0 else []) for i in range(96)]
    barrier = threading.Barrier(THREADS)

    def job(text: str, variants: list[str]) -> str:
        try:
            barrier.wait(timeout=10)
        except threading.BrokenBarrierError:
            pass
        return store(text, variants).pk

    with ThreadPoolExecutor(THREADS) as pool:
        futures = [pool.submit(in_thread(job, text, variants)) for text, variants in jobs]
        ids = [f.result(timeout=60) for f in futures]

    expected = {share_id(text, variants) for text, variants in jobs}
    for (text, variants), got in zip(jobs, ids):
        assert got == share_id(text, variants)
    rows = list(SharedRuling.objects.all())
    assert Counter(r.pk for r in rows) == Counter(expected)  # each exactly once, none lost
    by_id = {r.pk: r for r in rows}
    for text, variants in jobs:
        row = by_id[share_id(text, variants)]
        assert row.text == text and row.variant_ids == sorted(variants)


def test_concurrent_share_requests_through_the_views() -> None:
    texts = TEXTS[:4]
    barrier = threading.Barrier(THREADS)

    def job(n: int) -> tuple[int, str]:
        client = Client()
        try:
            barrier.wait(timeout=10)
        except threading.BrokenBarrierError:
            pass
        r = client.post("/en/adjudicate/share/", {"position": texts[n % len(texts)]})
        return r.status_code, r.get("Location", "")

    with ThreadPoolExecutor(THREADS) as pool:
        results = list(pool.map(lambda n: in_thread(job, n)(), range(THREADS * 2)))

    assert {status for status, _ in results} == {303}
    assert {loc for _, loc in results} == {f"/r/{share_id(t, [])}/" for t in texts}
    assert SharedRuling.objects.count() == len(texts)
    for t in texts:
        assert SharedRuling.objects.get(pk=share_id(t, [])).text == t


# -- Control characters: refused before anything is stored, on every database (issue 24) ---------

CONTROLS = ["\x00", "\x01", "\x1b", "\x7f", "\x9f", "\ud800"]
"""A NUL (PostgreSQL refuses it: a 500 before), C0, DEL, C1 and a lone surrogate. (The controls
Python counts as white space, tab, U+001C to U+001F and U+0085, are a space in a name.)"""


@pytest.mark.parametrize("char", CONTROLS, ids=lambda c: f"U+{ord(c):04X}")
def test_a_ruleset_name_with_a_control_character_is_a_400_in_json(char: str) -> None:
    from mextrain_site.house.models import HouseRuleset

    body = json.dumps({"base": "masters", "name": f"Our{char}rules", "rules": {}})
    response = Client().post("/api/rulesets", body, content_type="application/json")
    assert response.status_code == 400, response.content[:500]
    error = json.loads(response.content)["error"]
    assert error["code"] == "control-character"
    assert f"U+{ord(char):04X}" in error["message"] and "the name" in error["message"]
    assert not HouseRuleset.objects.exists()


def test_a_rule_text_with_a_control_character_is_refused_and_a_tab_or_nel_in_the_name_is_a_space() -> None:
    from mextrain_site.house.models import HouseRuleset

    rules = {"setup.equipment": "Markers\x07 and a hub"}
    refused = Client().post("/api/rulesets", json.dumps({"base": "masters", "name": "Ours", "rules": rules}),
                            content_type="application/json")
    assert refused.status_code == 400 and json.loads(refused.content)["error"]["code"] == "control-character"
    for name in ("Our\trules", "Our\x85rules"):
        kept = Client().post("/api/rulesets", json.dumps({"base": "masters", "name": name, "rules": {}}),
                             content_type="application/json")
        assert kept.status_code == 201, kept.content[:500]
    assert [r.name for r in HouseRuleset.objects.all()] == ["Our rules"]


@pytest.mark.parametrize(("lang", "words"), [("en", "holds a control character (U+001B)"),
                                             ("el", "περιέχει έναν χαρακτήρα ελέγχου (U+001B)"),
                                             ("he", "נמצא תו בקרה (U+001B)"),
                                             ("ky", "башкаруучу белги бар (U+001B)")])
def test_a_shared_position_with_a_control_character_is_refused_in_the_readers_language(lang: str, words: str) -> None:
    text = TEXTS[0].replace("boneyard:", "# a comment with an escape \x1b in it\nboneyard:")
    response = Client().post(f"/{lang}/adjudicate/share/", {"position": text})
    page = re.sub("[\u2066-\u2069]", "", response.content.decode())  # Latin runs isolated in Hebrew
    assert response.status_code == 400, page[:2000]
    assert words in page
    assert "a comment with an escape" in page  # the text is kept in the form
    assert not SharedRuling.objects.exists()


def test_the_house_builder_refuses_a_control_character_in_the_name_and_keeps_it(client: Client) -> None:
    from mextrain_site.house.models import HouseRuleset
    from tests.house.forms import builder_form

    form = builder_form(client, lang="hu")
    response = client.post("/hu/house/", {**form, "name": "Esti\x01szabályok", "action": "save"})
    page = response.content.decode()
    assert response.status_code == 400, page[:2000]
    assert "A név vezérlőkaraktert tartalmaz (U+0001)" in page
    assert 'value="Esti\x01szabályok"' in page
    assert not HouseRuleset.objects.exists()


@pytest.mark.parametrize("escape", ["\\0", "\\e", "\\x7f", "\\x9b"])
def test_an_uploaded_house_file_with_a_control_character_escaped_in_the_title_is_refused(escape: str) -> None:
    """YAML refuses a raw control character itself; an escaped one reads as the character."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from mextrain_site.house.models import HouseRuleset

    content = f'title: "Esti{escape}szabályok"\nbase: masters\nrules: {{}}\n'.encode()
    response = Client().post("/el/house/upload/", {"file": SimpleUploadedFile("house.yaml", content)})
    page = response.content.decode()
    assert response.status_code == 400, page[:2000]
    assert "Το όνομα περιέχει έναν χαρακτήρα ελέγχου (U+" in page
    assert not HouseRuleset.objects.exists()


@pytest.mark.parametrize("ident", ["house-\x00aaaaaaaaaaa", "house-aaaaaaaaaaa\x00", "house-\ud800"])
def test_a_house_id_with_a_control_character_names_no_ruleset_without_asking_the_database(ident: str) -> None:
    """PostgreSQL refuses a NUL even in a query: such an id is no house ruleset's, said before asking."""
    from urllib.parse import quote

    if "\ud800" not in ident:
        answer = Client().get("/api/variants/" + quote(ident))
        assert answer.status_code == 404 and json.loads(answer.content)["error"]["code"] == "unknown-variant"
    body = json.dumps({"position": TEXTS[0], "variant": [ident]})
    judged = Client().post("/api/adjudicate", body, content_type="application/json")
    assert judged.status_code == 400, judged.content[:500]
    page = Client().post("/en/adjudicate/", {"position": TEXTS[0], "variant": ident.replace("\ud800", "?")})
    assert page.status_code == 400

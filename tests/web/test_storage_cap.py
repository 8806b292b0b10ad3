"""The site-wide daily storage cap (issue 24): one address is stopped at STORAGE_QUOTA_BYTES a day,
but many addresses together could store without end. Past STORAGE_SITE_DAILY_BYTES (every address
together, counted in the shared cache) new shares and house rulesets are refused with 503 and a
sentence in the reader's language (JSON from the API), reads keep working, and the log says so once."""

from __future__ import annotations

import json
import logging

import pytest
from django.test import Client, override_settings

from mextrain_site.house.models import HouseRuleset
from mextrain_site.referee.models import SharedRuling
from mextrain_site.referee.views import EXAMPLE

pytestmark = [pytest.mark.django_db, pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]

FIRST, SECOND = EXAMPLE, EXAMPLE.replace("boneyard: 23", "boneyard: 22")
CAP = len(FIRST.encode()) + 3
"""Room for the first share, and not for the second nor a house ruleset."""


def client(n: int) -> Client:
    return Client(REMOTE_ADDR=f"198.51.100.{n}")


@override_settings(STORAGE_SITE_DAILY_BYTES=CAP)
def test_past_the_cap_nothing_new_is_stored_from_any_address_and_reads_go_on(caplog: pytest.LogCaptureFixture) -> None:
    first = client(1).post("/en/adjudicate/share/", {"position": FIRST})
    assert first.status_code == 303
    with caplog.at_level(logging.WARNING, logger="mextrain_site.core.limits"):
        page = client(2).post("/el/adjudicate/share/", {"position": SECOND})
        assert page.status_code == 503 and int(page["Retry-After"]) > 0
        assert "Ο ιστότοπος αποθήκευσε σήμερα όσα μπορεί" in page.content.decode()
        htmx = client(3).post("/he/adjudicate/share/", {"position": SECOND}, HTTP_HX_REQUEST="true")
        assert htmx.status_code == 503 and htmx["HX-Retarget"] == "#ruling"
        assert "האתר שמר היום כל מה שהוא יכול" in htmx.content.decode()
        api = client(4).post("/api/rulesets", json.dumps({"base": "masters", "name": "Ours", "rules": {}}),
                             content_type="application/json")
        assert api.status_code == 503 and int(api["Retry-After"]) > 0
        assert json.loads(api.content)["error"]["code"] == "storage-full"
    said = [r.getMessage() for r in caplog.records if r.name == "mextrain_site.core.limits"]
    assert len(said) == 1 and "daily storage cap of" in said[0]  # once, not at each refusal
    assert SharedRuling.objects.count() == 1 and not HouseRuleset.objects.exists()
    # Reads keep working: the link shared before, judging, the same share again (nothing new).
    assert client(5).get(first["Location"]).status_code == 200
    assert client(5).post("/en/adjudicate/", {"position": SECOND}).status_code == 200
    assert client(6).post("/en/adjudicate/share/", {"position": FIRST}).status_code == 303


@override_settings(STORAGE_SITE_DAILY_BYTES=CAP)
def test_the_house_builder_says_so_in_the_readers_language(client: Client) -> None:
    from tests.house.forms import builder_form

    assert Client().post("/en/adjudicate/share/", {"position": FIRST}).status_code == 303
    form = builder_form(client, lang="hu")
    response = client.post("/hu/house/", {**form, "name": "Esti szabályok", "action": "save"})
    assert response.status_code == 503
    assert "Az oldal tárhelye mára megtelt" in response.content.decode()
    assert not HouseRuleset.objects.exists()


@override_settings(STORAGE_SITE_DAILY_BYTES=CAP, STORAGE_QUOTA_BYTES=1, RATELIMIT_ENABLE=True)
def test_a_text_one_address_may_not_store_takes_nothing_from_the_site() -> None:
    for _ in range(3):
        assert client(7).post("/api/rulesets", json.dumps({"base": "masters", "name": "Ours", "rules": {}}),
                              content_type="application/json").status_code == 429
    with override_settings(STORAGE_QUOTA_BYTES=0):
        assert client(8).post("/en/adjudicate/share/", {"position": FIRST}).status_code == 303


@override_settings(STORAGE_SITE_DAILY_BYTES=0)
def test_no_cap_when_the_setting_is_0() -> None:
    assert Client().post("/en/adjudicate/share/", {"position": FIRST}).status_code == 303

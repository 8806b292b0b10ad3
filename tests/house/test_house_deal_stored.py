"""A hand-size table saved as a house rule: stored in the form the ruleset files write it (players,
set, tiles), read back, and never stored when it would not read back (all or nothing). Rows stored
in the old broken form (``min_players``, ``max_players``, ``set_max``) are rewritten by migration
0002; the ids stay (they are derived from the values, not from how they are written)."""

from __future__ import annotations

import json
import os
import re
from html import unescape
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from mextrain_site.house.models import HouseRuleset
from mextrain_site.house.rulesets import forget
from tests.house.forms import builder_form
from variants import house as hs
from variants.schema import house_from_data

pytestmark = [pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]

FOURTEEN = [{"players": [2, 4], "set": 12, "tiles": 14}, {"players": [5, 6], "set": 12, "tiles": 12},
            {"players": [7, 8], "set": 12, "tiles": 10}]
"""masters' hand-size table with row 1 at 14 tiles each instead of 15."""


@pytest.mark.django_db
@pytest.mark.parametrize(("field", "value"), [("tiles", "14"), ("set", "15")])
def test_saving_a_changed_hand_size_row_stores_it_and_opens_its_page(client: Client, field: str, value: str) -> None:
    form = builder_form(client)
    assert form["rule:setup.deal:tiles:0"] == "15" and form["rule:setup.deal:set:0"] == "12"
    saved = client.post("/en/house/", {**form, f"rule:setup.deal:{field}:0": value, "action": "save",
                                       "name": "Fourteen each"})
    assert saved.status_code == 303, unescape(re.sub(r"<[^>]+>", " ", saved.content.decode()))[-2000:]
    ident = saved["Location"].removeprefix("/en/variants/").removesuffix("/")
    row = HouseRuleset.objects.get()
    assert row.pk == ident
    deal = json.loads(row.rules)["setup.deal"]
    assert all(set(r) == {"players", "set", "tiles"} for r in deal), deal  # the rule files' form
    assert deal[0] == {"players": [2, 4], "set": int(value) if field == "set" else 12,
                       "tiles": int(value) if field == "tiles" else 15}
    forget()  # as another process reads it
    for url in (saved["Location"], f"/h/{ident}/", f"/h/{ident}.yaml", f"/api/variants/{ident}"):
        assert client.get(url).status_code == 200, url
    # the builder, the API and a file agree on the id
    if field == "tiles":
        api = client.post("/api/rulesets", json.dumps({"base": "masters", "name": "n", "rules": {"setup.deal": FOURTEEN}}),
                          content_type="application/json")
        assert api.status_code == 201 and api.json()["id"] == ident
        assert HouseRuleset.objects.count() == 1
        again = client.post("/en/house/upload/", {"file": _file(client.get(f"/h/{ident}.yaml").content)})
        assert again.status_code == 303 and again["Location"] == f"/en/variants/{ident}/"


def _file(content: bytes) -> Any:
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("ours.yaml", content)


@pytest.mark.django_db
def test_a_row_that_would_not_read_back_is_never_stored(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    """The save is all or nothing: what is about to be stored is read back first, and a row that
    would not read back (here: the overrides written as plain data, the old fault) is refused
    before the insert, not after it."""
    monkeypatch.setattr(hs.House, "data", lambda self: {k: hs.plain(v) for k, v in self.overrides.items()})
    with pytest.raises(RuntimeError, match="would not read back"):
        client.post("/api/rulesets", json.dumps({"base": "masters", "name": "n", "rules": {"setup.deal": FOURTEEN}}),
                    content_type="application/json")
    assert HouseRuleset.objects.count() == 0


BROKEN = [{"max_players": 4, "min_players": 2, "set_max": 12, "tiles": 14},
          {"max_players": 6, "min_players": 5, "set_max": 12, "tiles": 12},
          {"max_players": 8, "min_players": 7, "set_max": 12, "tiles": 10}]


@pytest.mark.django_db(transaction=True)
def test_migration_rewrites_rows_stored_in_the_broken_form(client: Client) -> None:
    assert connection.vendor == os.environ.get("MEXTRAIN_EXPECT_DB_VENDOR", connection.vendor)  # PostgreSQL too
    executor = MigrationExecutor(connection)
    executor.migrate([("house", "0001_initial")])
    old = executor.loader.project_state([("house", "0001_initial")]).apps.get_model("house", "HouseRuleset")
    ident = hs.house_id("masters", {"scoring.double_blank": 25, "setup.deal": tuple(hs_row(r) for r in BROKEN)})
    broken = json.dumps({"scoring.double_blank": 25, "setup.deal": BROKEN}, sort_keys=True, separators=(",", ":"))
    old.objects.create(pk=ident, base="masters", name="Fourteen each", rules=broken)
    old.objects.create(pk="house-aaaaaaaaaaaa", base="howto", name="Untouched", rules='{"doubles.dead":true}')
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    row = HouseRuleset.objects.get(pk=ident)
    assert json.loads(row.rules) == {"scoring.double_blank": 25, "setup.deal": FOURTEEN}
    assert HouseRuleset.objects.get(pk="house-aaaaaaaaaaaa").rules == '{"doubles.dead":true}'
    forget()
    page = client.get(f"/h/{ident}/")
    assert page.status_code == 200 and "Fourteen each" in page.content.decode()
    # the same rules saved again find the rewritten row (the same id, the same stored text)
    again = client.post("/api/rulesets", json.dumps({"base": "masters", "name": "n",
                                                      "rules": {"setup.deal": FOURTEEN, "scoring.double_blank": 25}}),
                        content_type="application/json")
    assert again.status_code == 201 and again.json()["id"] == ident
    assert HouseRuleset.objects.count() == 2


def hs_row(r: dict[str, Any]) -> Any:
    from rules.ruleset import DealRow

    return DealRow(r["min_players"], r["max_players"], r["set_max"], r["tiles"])


def test_the_file_form_reads_back_for_every_preset() -> None:
    """House.data() is what is stored: it reads back as the same overrides for each published table."""
    for sizes in hs.DEAL_PRESETS:
        house = hs.check(house_from_data("masters", "n", {"setup.deal": hs.preset_rows(sizes)}))
        again = hs.check(house_from_data("masters", "n", json.loads(json.dumps(house.data()))))
        assert again.overrides == house.overrides and again.id == house.id

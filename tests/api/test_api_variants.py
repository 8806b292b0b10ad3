"""GET /api/variants and GET /api/variants/<id>: the rulesets, their options and cited rules."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from rules.ruleset import RULE_SPECS, Status
from variants.loader import base_ids, get_ruleset, load_base, option_ids

from .conftest import NO_STATIC_ROOT_WARNING, body, error_of

pytestmark = [pytest.mark.django_db, NO_STATIC_ROOT_WARNING]
STATUSES = {s.value for s in Status}


def test_url_names() -> None:
    assert reverse("api:variants") == "/api/variants"
    assert reverse("api:variant", args=["masters+mandatory-doubles"]) == "/api/variants/masters+mandatory-doubles"


def test_catalogue(client: Client) -> None:
    r = client.get("/api/variants")
    assert r.status_code == 200
    data = body(r)
    assert set(data) == {"variants", "option_ids"}
    assert [v["id"] for v in data["variants"]] == list(base_ids())
    assert data["option_ids"] == list(option_ids())
    for v in data["variants"]:
        base = load_base(v["id"])
        assert v["title"] == base.title and v["publisher"] == base.publisher
        assert v["base"] == v["id"]
        assert v["url"] == f"/api/variants/{v['id']}"
        assert v["sources"] and all(set(s) == {"seed", "language", "direction"} for s in v["sources"])
        assert all(s["direction"] in ("ltr", "rtl") for s in v["sources"])
        assert [o["id"] for o in v["options"]] == list(base.options)
        for o in v["options"]:
            spec = base.options[o["id"]]
            assert o["summary"] == spec.summary
            assert o["requires"] == list(spec.requires) and o["conflicts"] == list(spec.conflicts)
            assert all(set(c) == {"seed", "quote", "gloss"} for c in o["citations"])
            assert o["changes"] == list(spec.changes)
    masters = next(v for v in data["variants"] if v["id"] == "masters")
    assert "mandatory-doubles" in [o["id"] for o in masters["options"]]


@pytest.mark.parametrize("ident", option_ids())
def test_every_canonical_id_answers_its_full_rules(client: Client, ident: str) -> None:
    r = client.get(f"/api/variants/{ident}")
    assert r.status_code == 200
    data = body(r)
    rs = get_ruleset(ident)
    assert data["id"] == ident and data["base"] == rs.base and data["title"] == rs.title
    assert data["options"] == list(rs.options)
    assert [o["id"] for o in data["available_options"]] == list(rs.available_options)
    assert all(set(s) == {"seed", "language", "direction"} for s in data["sources"])
    keys = [rule["key"] for rule in data["rules"]]
    assert keys == [s.key for s in RULE_SPECS if s.key in rs.rules]
    assert set(keys) == set(rs.rules)
    for rule in data["rules"]:
        declared = rs.rules[rule["key"]]
        assert set(rule) == {"key", "section", "description", "value", "status", "citations", "note", "reading",
                             "alternative", "option"}
        assert rule["status"] in STATUSES and rule["status"] == declared.status.value
        assert rule["citations"] == [c.as_json() for c in declared.citations]
        assert (rule["note"], rule["reading"], rule["alternative"], rule["option"]) == (
            declared.note, declared.reading, declared.alternative, declared.option)
        assert rule["description"]
    json.dumps(data, allow_nan=False)  # plain JSON all through


def test_values_are_plain_json(client: Client) -> None:
    rules = {rule["key"]: rule for rule in body(client.get("/api/variants/masters"))["rules"]}
    assert rules["players.count"]["value"] == {"min": 2, "max": 8}
    deal = rules["setup.deal"]["value"]
    assert isinstance(deal, list) and deal[0] == {"players": [2, 4], "set": 12, "tiles": 15}  # as the files write it
    assert rules["engine.tile"]["value"] == "highest-held"
    assert rules["turn.must_play"]["value"] is True
    assert isinstance(rules["scoring.double_blank"]["value"], int)
    assert isinstance(rules["winner.tie_breaks"]["value"], list)


def test_options_change_rules_and_say_so(client: Client) -> None:
    plain = {r["key"]: r for r in body(client.get("/api/variants/masters"))["rules"]}
    changed = {r["key"]: r for r in body(client.get("/api/variants/masters+mandatory-doubles"))["rules"]}
    assert plain["doubles.obligation"]["value"] == "none" and plain["doubles.obligation"]["option"] == ""
    assert changed["doubles.obligation"]["value"] == "satisfy"
    assert changed["doubles.obligation"]["option"] == "mandatory-doubles"


def test_option_order_does_not_matter(client: Client) -> None:
    data = body(client.get("/api/variants/masters+dead-double+mandatory-doubles"))
    assert data["id"] == "masters+mandatory-doubles+dead-double"
    assert data["options"] == ["mandatory-doubles", "dead-double"]


def test_head(client: Client) -> None:
    assert client.head("/api/variants").status_code == 200
    assert client.head("/api/variants/masters").status_code == 200


@pytest.mark.parametrize("ident", ["dominos", "masters+no-such-option", "masters+", "Masters", "..", "%2E%2E%2Fsettings",
                                   "howto+mandatory-doubles", "masters%2Bmandatory-doubles%2Bbogus"])
def test_unknown_ids_are_404(client: Client, ident: str) -> None:
    err = error_of(client.get(f"/api/variants/{ident}"), 404)
    assert err["code"] in ("unknown-variant", "not-found")


def test_unknown_id_lists_the_known_ones(client: Client) -> None:
    err = error_of(client.get("/api/variants/dominos"), 404)
    assert err["code"] == "unknown-variant"
    assert all(ident in err["message"] for ident in base_ids())


@pytest.mark.parametrize(
    ("ident", "fragment"),
    [
        ("masters+free-bonus-turn", "requires"),
        ("masters+dead-double", "requires"),
        ("masters+mandatory-doubles+mandatory-doubles", "twice"),
        ("masters+reverse-order+mandatory-doubles", "requires"),
    ],
)
def test_impossible_option_combinations_are_400(client: Client, ident: str, fragment: str) -> None:
    err = error_of(client.get(f"/api/variants/{ident}"), 400)
    assert err["code"] == "impossible-options"
    assert fragment in err["message"]


def test_percent_encoded_plus(client: Client) -> None:
    data = body(client.get("/api/variants/masters%2Bmandatory-doubles"))
    assert data["id"] == "masters+mandatory-doubles"


@pytest.mark.parametrize("ident", ["howto", "gamerules", "masters", "cardinal"])
def test_a_value_read_from_the_api_can_be_sent_back_in_a_house_ruleset(client: Client, ident: str) -> None:
    """What GET /api/variants/<id> gives is what POST /api/rulesets takes: a client changes one
    row of the hand-size table it read and sends the table back."""
    rules = {rule["key"]: rule["value"] for rule in body(client.get(f"/api/variants/{ident}"))["rules"]}
    deal = [dict(row) for row in rules["setup.deal"]]
    deal[0]["tiles"] = (deal[0]["tiles"] or 10) - 1
    made = client.post("/api/rulesets", json.dumps({"base": ident, "name": "Ours", "rules": {"setup.deal": deal}}),
                       content_type="application/json")
    assert made.status_code == 201, made.content[:500]
    again = {rule["key"]: rule["value"] for rule in body(client.get(f"/api/variants/{body(made)['id']}"))["rules"]}
    assert again["setup.deal"] == deal

"""POST /api/adjudicate: the spec's JSON answer, for text and JSON bodies."""

from __future__ import annotations

import gzip
import json

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from bench.loadtest import TYPICAL_POSITION
from mextrain_site.api import views
from mextrain_site.core.referee import adjudicate
from tests.languages import TRANSLATED
from variants.loader import base_ids

from .conftest import NO_STATIC_ROOT_WARNING, body

pytestmark = [pytest.mark.django_db, NO_STATIC_ROOT_WARNING]
URL = "/api/adjudicate"
RULING_KEYS = {"replay", "to_move", "check", "actions", "round_over", "scores"}


def post_json(client: Client, data: object, **extra: str):
    return client.post(URL, json.dumps(data), content_type="application/json", **extra)


def test_url_name() -> None:
    assert reverse("api:adjudicate") == URL


def test_text_body_answers_the_spec_json_under_every_ruleset(client: Client, spec_example: str) -> None:
    r = client.post(URL, spec_example, content_type="text/plain")
    assert r.status_code == 200
    data = body(r)
    assert set(data) == {"variants"}
    assert list(data["variants"]) == list(base_ids())
    for ident, ruling in data["variants"].items():
        assert RULING_KEYS <= set(ruling), ident
        assert ruling["replay"] == {"ok": True, "moves_applied": 0}
        assert ruling["to_move"] == "Bob"
        assert ruling["round_over"] is False and ruling["scores"] is None
        check = ruling["check"]
        assert check["move"] == "Bob: 6-4 -> Cy" and check["legal"] is False
        codes = {reason["code"] for reason in check["reasons"]}
        assert "train-not-open" in codes, (ident, codes)
        for reason in check["reasons"]:
            assert set(reason) == {"code", "blocks", "text", "rule"}
        for action in ruling["actions"]:
            assert set(action) == {"move", "legal", "reasons"}
            assert all(set(reason) == {"code", "blocks", "text", "rule"} for reason in action["reasons"])
            assert action["legal"] == (not any(reason["blocks"] for reason in action["reasons"]))
        named = {r["rule"] for r in check["reasons"]} | {r["rule"] for a in ruling["actions"] for r in a["reasons"]}
        named -= {None}
        assert set(ruling["rules"]) == named, ident
        for entry in ruling["rules"].values():
            assert entry["citations"] and all({"seed", "quote", "gloss"} <= set(c) <= {"seed", "quote", "gloss", "remark"}
                                              for c in entry["citations"])


def test_compact_detail_names_each_reason_once_and_says_the_same(client: Client, spec_example: str) -> None:
    """``"detail": "compact"`` (an extension): the actions name their reasons by index in one shared
    ``reasons`` list; read back through it, the answer is the full one."""
    full = body(post_json(client, {"position": spec_example}))
    data = body(post_json(client, {"position": spec_example, "detail": "compact"}))
    assert set(data) == {"variants", "reasons"}
    table = data["reasons"]
    assert len({json.dumps(reason, sort_keys=True) for reason in table}) == len(table)  # each once
    for ruling in data["variants"].values():
        for action in ruling["actions"]:
            action["reasons"] = [table[i] for i in action["reasons"]]
    assert data["variants"] == full["variants"]


def test_each_rule_cites_its_source_once_per_ruleset(client: Client, spec_example: str) -> None:
    """Reasons name their rule; the rule's citations stand once, as the ruleset file declares them."""
    from variants.loader import get_ruleset

    data = body(client.post(URL, spec_example, content_type="text/plain"))
    for ident, ruling in data["variants"].items():
        rs = get_ruleset(ident)
        for key, entry in ruling["rules"].items():
            rule_ = rs.rule(key)
            silent = {} if rule_.status.value == "stated" else {"status": rule_.status.value, "reading": rule_.reading}
            assert entry == {"citations": [c.as_json() for c in rs.citations(key)], **silent}
        text = json.dumps(ruling, ensure_ascii=False)
        quotes = [json.dumps(c["quote"], ensure_ascii=False) for e in ruling["rules"].values() for c in e["citations"]]
        for quote in quotes:  # a quote stands once for each rule that cites it, nowhere else
            assert text.count(quote) == quotes.count(quote), (ident, quote)


def test_detail_check_leaves_the_actions_out(client: Client, spec_example: str) -> None:
    full = body(post_json(client, {"position": spec_example}))
    data = body(post_json(client, {"position": spec_example, "detail": "check"}))
    assert set(data) == {"variants"}
    for ident, ruling in data["variants"].items():
        assert "actions" not in ruling
        whole = full["variants"][ident]
        assert ruling["check"] == whole["check"]
        assert set(ruling["rules"]) == {r["rule"] for r in ruling["check"]["reasons"]} - {None}
        assert {k: v for k, v in whole.items() if k not in ("actions", "rules")} == \
            {k: v for k, v in ruling.items() if k != "rules"}
    assert body(post_json(client, {"position": spec_example, "detail": "full"})) == full


@pytest.mark.parametrize("detail", ["brief", 1, None, ["check"]])
def test_detail_must_be_full_or_check(client: Client, spec_example: str, detail: object) -> None:
    r = post_json(client, {"position": spec_example, "detail": detail})
    assert r.status_code == 400
    error = body(r)["error"]
    assert error["code"] == "bad-request" and "\"detail\" must be 'full', 'compact', 'check'" in error["message"]


SCORE_QUESTION = "players: Ann Bob Cy Dee\nhand Bob: 0-0 12-11\nhand Ann: -\ncheck: score\n"


def test_check_score_counts_each_given_hand(client: Client) -> None:
    """The spec's example: 0-0 12-11 counts 73 where the double-blank is worth 50, 23 where it counts its pips."""
    data = body(client.post(URL, SCORE_QUESTION, content_type="text/plain"))
    worth = {"howto": 73, "gamerules": 73, "masters": 23, "cardinal": 23}
    for ident, ruling in data["variants"].items():
        # a player without a hand line is listed as not given (null), not left out (the spec)
        assert ruling["scores"] == {"Ann": 0, "Bob": worth[ident], "Cy": None, "Dee": None}, ident
        check = ruling["check"]
        assert check["move"] == "score" and check["legal"] is None
        assert [r["code"] for r in check["reasons"]] == ["out-counts-zero", "hand-counts", "double-blank-counts",
                                                         "hand-not-given", "hand-not-given"]
        assert list(ruling["rules"]) == ["scoring.double_blank"]
        assert ruling["to_move"] is None and ruling["actions"] == []
    blank = data["variants"]["howto"]["check"]["reasons"][2]["text"]
    assert "50" in blank


def test_typical_answer_is_at_most_60_kb(client: Client) -> None:
    """The spec's shape, sent compressed as every HTTP client asks, and the compact extension even
    uncompressed, stay under 60 KB for the typical position under all four rulesets."""
    r = client.post(URL, TYPICAL_POSITION, content_type="text/plain", HTTP_ACCEPT_ENCODING="gzip")
    assert r.status_code == 200 and r["Content-Encoding"] == "gzip"
    assert len(r.content) <= 60_000, len(r.content)
    assert len(json.loads(gzip.decompress(r.content))["variants"]) == 4
    compact = post_json(client, {"position": TYPICAL_POSITION, "detail": "compact"})
    assert compact.status_code == 200 and "Content-Encoding" not in compact
    assert len(compact.content) <= 60_000, len(compact.content)


def test_answer_is_exactly_adjudicate(client: Client, spec_example: str) -> None:
    r = client.post(URL, spec_example, content_type="text/plain")
    assert body(r) == json.loads(json.dumps(adjudicate(spec_example)))


def test_json_body_with_one_variant(client: Client, spec_example: str) -> None:
    data = body(post_json(client, {"position": spec_example, "variant": "masters"}))
    assert list(data["variants"]) == ["masters"]
    assert data == json.loads(json.dumps(adjudicate(spec_example, ["masters"])))


def test_json_body_with_a_list_keeps_order_canonicalises_and_deduplicates(client: Client, spec_example: str) -> None:
    variants = ["cardinal", "masters+dead-double+mandatory-doubles", "masters+mandatory-doubles+dead-double", "howto"]
    data = body(post_json(client, {"position": spec_example, "variant": variants}))
    assert list(data["variants"]) == ["cardinal", "masters+mandatory-doubles+dead-double", "howto"]


def test_empty_variant_list_or_null_means_every_ruleset(client: Client, spec_example: str) -> None:
    for variant in ([], None):
        data = body(post_json(client, {"position": spec_example, "variant": variant}))
        assert list(data["variants"]) == list(base_ids())


def test_variant_line_of_the_text_is_used(client: Client, spec_example: str) -> None:
    text = "variant: gamerules\n" + spec_example
    data = body(client.post(URL, text, content_type="text/plain"))
    assert list(data["variants"]) == ["gamerules"]


def test_json_variant_overrides_the_variant_line(client: Client, spec_example: str) -> None:
    text = "variant: gamerules\n" + spec_example
    data = body(post_json(client, {"position": text, "variant": ["cardinal"]}))
    assert list(data["variants"]) == ["cardinal"]


@pytest.mark.parametrize("content_type", ["application/x-www-form-urlencoded", "application/octet-stream", ""])
def test_other_content_types_are_text_unless_the_body_is_an_object(client: Client, spec_example: str, content_type: str) -> None:
    r = client.post(URL, spec_example, content_type=content_type)
    assert list(body(r)["variants"]) == list(base_ids())
    r = client.post(URL, json.dumps({"position": spec_example, "variant": "howto"}), content_type=content_type)
    assert list(body(r)["variants"]) == ["howto"]


def test_json_content_type_with_charset_and_vendor_suffix(client: Client, spec_example: str) -> None:
    payload = json.dumps({"position": spec_example, "variant": "howto"})
    for ctype in ("application/json; charset=utf-8", "application/vnd.mextrain+json"):
        assert list(body(client.post(URL, payload, content_type=ctype))["variants"]) == ["howto"]


def test_utf8_bom_and_crlf_are_accepted(client: Client, spec_example: str) -> None:
    text = "\ufeff" + spec_example.replace("\n", "\r\n")
    r = client.post(URL, text.encode("utf-8"), content_type="text/plain")
    assert r.status_code == 200, r.content[:300]
    assert body(r)["variants"]["masters"]["check"]["legal"] is False


def test_names_in_any_script(client: Client) -> None:
    text = "players: Ádám Ζωή\nengine: 12\nÁdám: -\nΖωή: -\nturn: Ζωή\nhand: 12-3\n"
    r = client.post(URL, text.encode("utf-8"), content_type="text/plain; charset=utf-8")
    assert r.status_code == 200, r.content[:300]
    assert body(r)["variants"]["howto"]["to_move"] == "Ζωή"
    assert "Ζωή".encode() in r.content  # not \u-escaped


def test_csrf_is_not_required(spec_example: str) -> None:
    strict = Client(enforce_csrf_checks=True)
    assert strict.post(URL, spec_example, content_type="text/plain").status_code == 200


def test_replay_stopping_at_an_illegal_move_is_still_judged(client: Client) -> None:
    text = (
        "players: Ann Bob\nengine: 12\nAnn: -\nBob: -\nboneyard: 10\nturn: Ann\nhand: 12-3 5-6\n"
        "moves: Ann: 5-6 -> Ann\n"
    )
    r = client.post(URL, text, content_type="text/plain")
    assert r.status_code == 200, r.content[:300]
    replay = body(r)["variants"]["masters"]["replay"]
    assert replay["ok"] is False and replay["moves_applied"] == 0
    assert replay["failed"]["move"] in ("Ann: 5-6 -> Ann", "Ann: 6-5 -> Ann")
    assert replay["failed"]["line"] == 8


def test_typical_loadtest_position_is_judged_under_every_ruleset(client: Client) -> None:
    data = body(client.post(URL, TYPICAL_POSITION, content_type="text/plain"))
    assert list(data["variants"]) == list(base_ids())
    for ident, ruling in data["variants"].items():
        assert "error" not in ruling, (ident, ruling)
        assert len(ruling["actions"]) > 15


def test_reasons_are_english_by_default(client: Client, spec_example: str) -> None:
    r = client.post(URL, spec_example, content_type="text/plain")
    assert r.status_code == 200
    assert r["Content-Language"] == "en"
    assert body(r) == json.loads(json.dumps(adjudicate(spec_example)))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_reasons_follow_accept_language(client: Client, spec_example: str, lang: str) -> None:
    """Asked in another of the site's languages, the reasons and the glosses of their quotes come in
    it; the quotes and the rest are unchanged."""
    english = body(client.post(URL, spec_example, content_type="text/plain"))
    r = client.post(URL, spec_example, content_type="text/plain", HTTP_ACCEPT_LANGUAGE=lang)
    assert r.status_code == 200 and r["Content-Language"] == lang
    translated = body(r)
    for ident, ruling in translated["variants"].items():
        en = english["variants"][ident]
        # the same moves, verdicts and reasons, in the same order
        assert [(a["move"], a["legal"], [(r["code"], r["rule"]) for r in a["reasons"]]) for a in ruling["actions"]] == \
            [(a["move"], a["legal"], [(r["code"], r["rule"]) for r in a["reasons"]]) for a in en["actions"]]
        pairs = [(t, e) for ta, ea in zip(ruling["actions"], en["actions"]) for t, e in zip(ta["reasons"], ea["reasons"])]
        pairs += list(zip(ruling["check"]["reasons"], en["check"]["reasons"]))
        assert all(t["code"] == e["code"] and t["rule"] == e["rule"] for t, e in pairs)
        assert ruling["rules"].keys() == en["rules"].keys()
        cites = [(tc, ec) for key in en["rules"] for tc, ec in zip(ruling["rules"][key]["citations"],
                                                                    en["rules"][key]["citations"], strict=True)]
        assert all((tc["seed"], tc["quote"]) == (ec["seed"], ec["quote"]) for tc, ec in cites)
        assert all(tc["gloss"] != ec["gloss"] for tc, ec in cites)  # every gloss in the reader's language
        assert sum(t["text"] != e["text"] for t, e in pairs) == len(pairs)  # every sentence translated
    with translation.override(lang):
        mexican = translation.gettext("the Mexican train")
    texts = [r["text"] for a in translated["variants"]["howto"]["actions"] for r in a["reasons"]]
    assert any(mexican in t for t in texts)


def test_translate_hook_reaches_every_reason(client: Client, spec_example: str, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []

    class Bracketed:
        """A wording that shows which template was used."""

        def template(self, code):  # type: ignore[no-untyped-def]
            return f"[{code.value}]"

        def train_label(self, name, role=None):  # type: ignore[no-untyped-def]
            return name

        def text(self, english):  # type: ignore[no-untyped-def]
            return english
        def message(self, text):  # type: ignore[no-untyped-def]
            return f"[{text.template}]"

    def translator(request):  # type: ignore[no-untyped-def]
        seen.append(request.LANGUAGE_CODE)
        return Bracketed()

    monkeypatch.setattr(views, "reason_translator", translator)
    r = client.post(URL, spec_example, content_type="text/plain", HTTP_ACCEPT_LANGUAGE="he")
    assert seen == ["he"]
    assert r["Content-Language"] == "he"
    for ruling in body(r)["variants"].values():
        for reason in ruling["check"]["reasons"]:
            assert reason["text"] == f"[{reason['code']}]"


def test_the_sites_gettext_wording_plugs_into_the_hook(client: Client, spec_example: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the hook's docstring says to return works: the answer keeps its shape."""
    from mextrain_site.core.i18n import WORDING

    monkeypatch.setattr(views, "reason_translator", lambda request: WORDING)
    r = client.post(URL, spec_example, content_type="text/plain", HTTP_ACCEPT_LANGUAGE="hu")
    assert r.status_code == 200 and r["Content-Language"] == "hu"
    english = body(client.post(URL, spec_example, content_type="text/plain"))
    translated = body(r)
    assert translated.keys() == english.keys()
    for ident, ruling in translated["variants"].items():
        assert [a["move"] for a in ruling["actions"]] == [a["move"] for a in english["variants"][ident]["actions"]]
        assert all(r["text"] for a in ruling["actions"] for r in a["reasons"])


@pytest.mark.parametrize("lang", TRANSLATED)
def test_player_count_follows_accept_language(client: Client, lang: str) -> None:
    """A ruleset whose deal does not allow the table's number of players is marked apart
    (``"applies": false``, a ``player-count`` reason naming the range), worded in the reader's language."""
    text = "players: Ann Bob\nengine: 12\nturn: Ann\nhand: 12-3\n"
    english = body(post_json(client, {"position": text, "variant": "cardinal"}))["variants"]["cardinal"]
    assert english["applies"] is False and english["notes"] == []
    assert [(r["code"], r["text"], r["rule"]) for r in english["applies_reasons"]] == [
        ("player-count", "Cardinal Games is for 4 to 10 players; this position has 2.", "players.count")]
    assert english["rules"]["players.count"]["citations"]
    r = post_json(client, {"position": text, "variant": "cardinal"}, HTTP_ACCEPT_LANGUAGE=lang)
    texts = [r["text"] for r in body(r)["variants"]["cardinal"]["applies_reasons"]]
    assert len(texts) == 1 and texts[0] != english["applies_reasons"][0]["text"]
    assert "Cardinal Games" in texts[0] and "4" in texts[0] and "10" in texts[0]
    howto = body(post_json(client, {"position": text, "variant": "howto"}))["variants"]["howto"]
    assert howto["applies"] is True and howto["applies_reasons"] == []

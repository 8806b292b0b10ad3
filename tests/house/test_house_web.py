"""House rulesets on the site, the API and the CLI: stored once under a content-derived id,
accepted wherever a ruleset id is, judged by their own rules; the builder with and without htmx."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from html import unescape
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.test import Client
from django.utils import translation
from django.utils.html import escape

from mextrain_site.core.plain_english import PLAIN_ENGLISH
from mextrain_site.house.models import HouseRuleset
from mextrain_site.house.rulesets import forget
from mextrain_site.house.views import ruleset_name
from mextrain_site.reference import wording
from rules.ruleset import RULE_SPECS
from tests.house.forms import builder_form
from tests.languages import LANGUAGES
from tests.player_text import OPTION_ID, RULE_KEY, RULESET_ID, player_text
from variants import house as hs
from variants.loader import all_rulesets, get_ruleset
from variants.schema import house_from_data

pytestmark = [pytest.mark.django_db, pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]

ROOT = Path(__file__).resolve().parents[2]
NO_DRAW = {"base": "masters", "name": "No draw at our table", "rules": {"turn.cannot_play": "marker-no-draw"}}
STUCK = """\
players: Ann Bob
engine: 12-12
Ann: 12-4
Bob: 12-7
mexican: -
boneyard: 20
turn: Bob
hand: 1-1 2-3
"""


def create(client: Client, data: dict[str, Any]) -> Any:
    return client.post("/api/rulesets", json.dumps(data), content_type="application/json")


def verdicts(answer: dict[str, Any], ident: str) -> dict[str, tuple[bool, list[str]]]:
    return {a["move"]: (a["legal"], [r["code"] for r in a["reasons"]]) for a in answer["variants"][ident]["actions"]}


def test_post_creates_once_and_the_same_rules_give_the_same_id(client: Client) -> None:
    first = create(client, NO_DRAW)
    assert first.status_code == 201, first.content
    data = first.json()
    assert re.fullmatch(r"house-[a-z2-7]{12}", data["id"])
    assert first["Location"] == f"/api/variants/{data['id']}" == data["url"]
    assert data["page"] == f"/h/{data['id']}/" and data["yaml"] == f"/h/{data['id']}.yaml"
    rules = {r["key"]: r for r in data["ruleset"]["rules"]}
    assert rules["turn.cannot_play"]["status"] == "house" and rules["turn.cannot_play"]["citations"] == []
    assert rules["turn.cannot_play"]["note"] == "A player who cannot play places a marker without drawing; the boneyard stays untouched, and the round ends once nobody can play."
    assert rules["turn.matching_ends"]["status"] == "stated" and rules["turn.matching_ends"]["citations"]
    assert data["ruleset"]["built_on"] == "masters" and data["ruleset"]["title"] == "No draw at our table"
    again = create(client, {**NO_DRAW, "name": "Another name"})
    assert again.status_code == 201 and again.json()["id"] == data["id"]
    assert HouseRuleset.objects.count() == 1
    assert HouseRuleset.objects.get().name == "No draw at our table"  # stored once, never changed
    with pytest.raises(ValueError):
        HouseRuleset.objects.get().save()
    # and the GET answers like any ruleset
    got = client.get(data["url"])
    assert got.status_code == 200 and got.json() == data["ruleset"]


@pytest.mark.parametrize(("payload", "code", "message"), [
    ({**NO_DRAW, "rules": {"turn.cannot_play": "draw-two"}}, "impossible-ruleset",
     "rules.turn.cannot_play: expected one of 'draw-one', 'marker-no-draw', 'draw-until-playable'; found 'draw-two'"),
    ({**NO_DRAW, "base": "masters+free-bonus-turn"}, "impossible-options",
     "option 'free-bonus-turn' of 'masters' requires 'mandatory-doubles': use masters+mandatory-doubles+free-bonus-turn"),
    ({**NO_DRAW, "rules": {"players.count": {"min": 2, "max": 9}}}, "impossible-ruleset",
     "rules.setup.deal: expected a hand-size row for every player count from 2 to 9 (players.count): "
     "add a row for 9 or narrow players.count; found no row for 9 players"),
    ({**NO_DRAW, "base": "dominos"}, "unknown-variant",
     "unknown variant 'dominos'; known variants: cardinal, gamerules, howto, masters"),
    ({"base": "masters", "rules": {}}, "bad-request", "missing field 'name'; the fields are: base, name, rules"),
    ({**NO_DRAW, "extra": 1}, "bad-request", "unknown field 'extra'; the fields are: base, name, rules"),
    ({**NO_DRAW, "name": "n" * 61}, "impossible-ruleset", "name: expected a name of at most 60 characters; found 61 characters"),
    ({**NO_DRAW, "rules": {"markers.placed": "when-own-train-unplayable", "markers.removed": "owner-plays-any-tile"}},
     "impossible-ruleset",
     "rules.markers.removed: expected a marker that stays down when its owner plays elsewhere (markers.placed "
     "'when-own-train-unplayable' puts it down on that very play): use markers.removed 'owner-plays-own-train' or "
     "markers.placed 'on-pass'; found markers.removed 'owner-plays-any-tile'"),
    ({**NO_DRAW, "rules": {"rounds.count": 13, "engine.tile": "round-double",
                           "setup.deal": [{"players": [2, 8], "set": 9, "tiles": None}]}}, "impossible-ruleset",
     "rules.rounds.count: expected at most 10 rounds with engine.tile 'round-double' (one double a round, and "
     "setup.deal has the double-9 set): use engine.tile 'set-highest' or fewer rounds; found 13 rounds"),
    ({**NO_DRAW, "rules": {"setup.deal": [{"players": [2, 8], "set": 12, "tiles": 12}]}}, "impossible-ruleset",
     "rules.setup.deal[0].tiles: expected a hand that fits a double-12 set for 8 players; found int 12"),
])
def test_post_refuses_an_impossible_ruleset_with_the_exact_reason(client: Client, payload: dict[str, Any], code: str,
                                                                  message: str) -> None:
    response = create(client, payload)
    assert response.status_code == 400
    assert response.json() == {"error": {"code": code, "message": message, "line": None, "column": None}}
    assert HouseRuleset.objects.count() == 0


def test_malformed_json_and_wrong_method(client: Client) -> None:
    response = client.post("/api/rulesets", "{", content_type="application/json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad-json"
    assert client.get("/api/rulesets").status_code == 405


def test_the_engine_judges_by_the_house_rules_everywhere_an_id_is_accepted(client: Client) -> None:
    ident = create(client, NO_DRAW).json()["id"]
    # the API's variant
    answer = client.post("/api/adjudicate", json.dumps({"position": STUCK, "variant": ["masters", ident]}),
                         content_type="application/json").json()
    assert verdicts(answer, "masters")["Bob: draw"] == (True, ["cannot-play-draw"])
    assert verdicts(answer, ident)["Bob: draw"] == (False, ["no-draw"])
    assert verdicts(answer, ident)["Bob: pass"] == (True, ["cannot-play-pass", "places-marker"])
    # variant: in the position
    answer = client.post("/api/adjudicate", json.dumps({"position": f"variant: {ident}\n" + STUCK}),
                         content_type="application/json").json()
    assert list(answer["variants"]) == [ident]
    # the referee's page: picker and judging
    page = client.post("/en/adjudicate/", {"position": STUCK, "variant": [ident]})
    assert page.status_code == 200 and ident in page.content.decode()
    assert "Bob cannot play and can draw no more this turn, so passes." in page.content.decode()
    assert "Bob cannot play and can draw no more this turn, so passes." not in client.post(
        "/en/adjudicate/", {"position": STUCK, "variant": ["masters"]}).content.decode()
    ticked = client.get(f"/en/adjudicate/?variant={ident}").content.decode()
    assert re.search(rf'value="{ident}"\s+checked', ticked)
    # compare, which, the ruleset page
    compare = client.get(f"/en/compare/?v={ident}&v=masters&diff=1").content.decode()
    assert ident in compare and 'id="row-turn.cannot_play"' in compare
    which = client.get(f"/en/which/?key=turn.cannot_play&v={ident}").content.decode()
    assert f"/en/variants/{ident}/" in which
    assert client.get(f"/en/variants/{ident}/").status_code == 200


def test_an_unknown_house_id_is_refused_everywhere(client: Client) -> None:
    ident = "house-zzzzzzzzzzzz"
    response = client.post("/api/adjudicate", json.dumps({"position": STUCK, "variant": ident}),
                           content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"] == {"code": "unknown-variant", "message": f"no house ruleset is called '{ident}'",
                                        "line": None, "column": None}
    assert client.get(f"/api/variants/{ident}").status_code == 404
    assert client.get(f"/h/{ident}/").status_code == 404
    assert client.get(f"/h/{ident}.yaml").status_code == 404
    assert client.get(f"/en/variants/{ident}/").status_code == 404
    assert client.post("/en/adjudicate/", {"position": STUCK, "variant": [ident]}).status_code == 400


def test_the_house_page_and_its_yaml_and_upload_elsewhere(client: Client) -> None:
    created = create(client, {"base": "howto", "name": "Our rules", "rules": {"scoring.double_blank": 25,
                                                                                "doubles.dead": True}}).json()
    ident = created["id"]
    page = client.get(f"/h/{ident}/")
    html = page.content.decode()
    assert page.status_code == 200 and "Our rules" in html and f"variant: {ident}" in html
    assert f'href="/en/adjudicate/?variant={ident}"' in html
    assert f"/en/compare/?v={ident}&amp;v=howto" in html and f'href="/h/{ident}.yaml"' in html
    assert html.count("flag-house") == 4  # each own rule twice: in its section and in the summary of changes
    assert (f'<a href="/en/compare/?v={ident}&amp;v=howto&amp;diff=1">differs from <bdi>How to play Mexican Train '
            "dominoes</bdi> in 2 rules</a>") in html  # the comparison shows which
    compared = client.get(f"/en/compare/?v={ident}&v=howto&diff=1").content.decode()
    assert compared.count('id="row-') == 2 and 'id="row-scoring.double_blank"' in compared
    download = client.get(f"/h/{ident}.yaml")
    assert download["Content-Type"].startswith("application/yaml")
    assert download["Content-Disposition"] == f'attachment; filename="{ident}.yaml"'
    doc = yaml.safe_load(download.content)
    assert doc["rules"]["scoring.double_blank"]["status"] == "house"
    # elsewhere: a fresh database gets the file and makes the same ruleset
    HouseRuleset.objects.all().delete()
    forget()  # as a fresh server would be
    assert client.get(f"/h/{ident}/").status_code == 404
    from django.core.files.uploadedfile import SimpleUploadedFile

    up = client.post("/en/house/upload/", {"file": SimpleUploadedFile("ours.yaml", download.content)})
    assert up.status_code == 303 and up["Location"] == f"/en/variants/{ident}/"
    assert HouseRuleset.objects.get().name == "Our rules"
    bad = client.post("/en/house/upload/", {"file": SimpleUploadedFile("b.yaml", b"title: x\nbase: nope\nrules: {}\n")})
    assert bad.status_code == 400
    assert "unknown variant <bdi>&#x27;nope&#x27;</bdi>" in bad.content.decode()  # the quoted id isolated (core/bidi.py)


def test_builder_without_javascript_previews_refuses_inline_and_saves(client: Client) -> None:
    page = client.get("/en/house/")
    assert page.status_code == 200
    form = builder_form(client)
    assert form["rule:turn.cannot_play"] == "draw-one" and form["rule:players.count:max"] == "8"
    preview = client.post("/en/house/", {**form, "rule:turn.cannot_play": "marker-no-draw", "action": "preview"})
    html = preview.content.decode()
    assert preview.status_code == 200 and "1 rule changed from the base" in html
    assert "differs from <bdi>Masters Traditional Games</bdi> in 1 rule" in html
    # an impossible combination: refused at the rule, with the reason and the fix
    bad = client.post("/en/house/", {**form, "rule:players.count:max": "9", "action": "save", "name": "x"})
    assert bad.status_code == 400
    text = bad.content.decode()
    assert "add a row for 9 or allow fewer players" in text and "house-rule-error" in text
    assert HouseRuleset.objects.count() == 0
    unnamed = client.post("/en/house/", {**form, "rule:turn.cannot_play": "marker-no-draw", "action": "save"})
    assert unnamed.status_code == 400 and "Give the house rules a name" in unnamed.content.decode()
    saved = client.post("/en/house/", {**form, "rule:turn.cannot_play": "marker-no-draw", "action": "save",
                                       "name": "No draw at our table"})
    expected = hs.check(house_from_data("masters", "n", NO_DRAW["rules"])).id
    assert saved.status_code == 303
    ident = saved["Location"].removeprefix("/en/variants/").removesuffix("/")
    assert ident == create(client, NO_DRAW).json()["id"]  # the builder and the API agree
    assert expected == ident


def test_builder_preview_with_htmx_answers_the_summary_only(client: Client) -> None:
    form = builder_form(client, "howto")
    response = client.post("/en/house/", {**form, "rule:scoring.double_blank": "7",
                                          "action": "preview"}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200 and html.startswith('<div id="house-summary"')
    assert "1 rule changed from the base" in html and "<form" not in html
    wrong = client.post("/en/house/", {**form, "rule:scoring.double_blank": "many", "action": "preview"},
                        HTTP_HX_REQUEST="true")
    assert wrong.status_code == 200 and "expected a whole number; found <bdi>&#x27;many&#x27;</bdi>" in wrong.content.decode()


def _deal_rows(html: str) -> list[tuple[str, ...]]:
    """The hand-size table editor's filled rows: (from, to, set, tiles)."""
    form = {}
    for name, value in re.findall(r'name="(rule:setup\.deal:\w+:\d+)"[^>]*value="([^"]*)"', html):
        form[name] = value
    for name, body in re.findall(r'name="(rule:setup\.deal:set:\d+)">(.*?)</select>', html, re.S):
        form[name] = re.search(r'<option value="([^"]*)" selected', body).group(1)  # type: ignore[union-attr]
    rows = [tuple(form.get(f"rule:setup.deal:{f}:{i}", "") for f in ("lo", "hi", "set", "tiles")) for i in range(32)]
    return [r for r in rows if any(r)]


def test_builder_hand_size_table_editor_with_the_published_presets(client: Client) -> None:
    form = builder_form(client)
    assert _deal_rows(client.get("/en/house/?base=masters").content.decode()) == [("2", "4", "12", "15"), ("5", "6", "12", "12"),
                                                                      ("7", "8", "12", "10")]
    # each published table is offered and fills the editor, one row per player count from 2 to 8
    for i, sizes in enumerate(hs.DEAL_PRESETS):
        page = client.post("/en/house/", {**form, "action": "preset", "preset": str(i)})
        html = page.content.decode()
        assert f'<option value="{i}">{hs.preset_label(sizes)}</option>' in html
        assert _deal_rows(html) == [(str(n), str(n), "12", str(t)) for n, t in enumerate(sizes, start=2)]
        assert page.status_code == 200 and "1 rule changed from the base" in html
    # with htmx: the editor and (out of band) the summary only
    swap = client.post("/en/house/", {**form, "action": "preset", "preset": "2"}, HTTP_HX_REQUEST="true")
    html = swap.content.decode()
    assert html.startswith('<div id="deal-editor"') and 'id="house-summary"' in html and 'hx-swap-oob="true"' in html
    assert "<form" not in html and _deal_rows(html)[0] == ("2", "2", "12", "16")
    # editing the numbers: a row changed, a row added (an empty 'to' is the same count)
    edited = {**form, "rule:setup.deal:tiles:0": "14", "rule:setup.deal:lo:3": "9", "rule:setup.deal:set:3": "15",
              "rule:setup.deal:tiles:3": "9", "rule:players.count:max": "9", "action": "preview"}
    html = client.post("/en/house/", edited).content.decode()
    assert _deal_rows(html) == [("2", "4", "12", "14"), ("5", "6", "12", "12"), ("7", "8", "12", "10"),
                                ("9", "", "15", "9")]
    assert "2 rules changed from the base" in html
    # a row removed (emptied): the table no longer covers 7 and 8 players, refused with the fix
    removed = {**form, "rule:setup.deal:lo:2": "", "rule:setup.deal:hi:2": "", "rule:setup.deal:set:2": "",
               "rule:setup.deal:tiles:2": "", "action": "preview"}
    bad = client.post("/en/house/", removed)
    assert bad.status_code == 400 and "add a row for 7, 8 or allow fewer players" in bad.content.decode()


def test_builder_refuses_a_hand_size_table_that_does_not_fit_naming_the_row(client: Client) -> None:
    form = builder_form(client)
    too_many = client.post("/en/house/", {**form, "rule:setup.deal:tiles:2": "12", "action": "preview"})
    html = too_many.content.decode()
    assert too_many.status_code == 400
    # the rule by its label and the row in words (no key path), the value as a player wrote it (no type)
    assert "Set and hand size, row 3: expected a hand that fits a double-12 set for 8 players; found 12" in html
    assert "rules.setup.deal" not in html
    assert html.count('class="deal-row-error"') == 1 and 'aria-invalid="true"' in html
    not_a_number = client.post("/en/house/", {**form, "rule:setup.deal:tiles:1": "many", "action": "preview"})
    assert ("Set and hand size, row 2: expected a whole number, or empty where the source does not say; found <bdi>&#x27;many&#x27;</bdi>"
            in not_a_number.content.decode())


def test_builder_sets_a_number_of_rounds_and_the_scoring_bonus_and_penalties(client: Client) -> None:
    form = builder_form(client)
    assert form["rule:rounds.count"] == "single-game" and form["rule:rounds.count:number"] == ""
    data = {**form, "rule:rounds.count": "number", "rule:rounds.count:number": "10", "rule:engine.tile": "set-highest",
            "rule:scoring.going_out_bonus": "-10", "rule:scoring.open_double_penalty": "5",
            "rule:scoring.marker_penalty": "25"}
    html = client.post("/en/house/", {**data, "action": "preview"}).content.decode()
    assert "5 rules changed from the base" in html
    assert '<option value="number" selected>A game has … rounds.</option>' in html
    saved = client.post("/en/house/", {**data, "action": "save", "name": "Ten rounds"})
    assert saved.status_code == 303
    ident = saved["Location"].removeprefix("/en/variants/").removesuffix("/")
    rules = {"rounds.count": 10, "engine.tile": "set-highest", "scoring.going_out_bonus": -10,
             "scoring.open_double_penalty": 5, "scoring.marker_penalty": 25}
    assert ident == create(client, {"base": "masters", "name": "n", "rules": rules}).json()["id"]
    page = client.get(f"/en/variants/{ident}/").content.decode()
    assert 'A game has <bdi dir="ltr">10</bdi> rounds.' in page
    assert 'The player who goes out scores <bdi dir="ltr">-10</bdi> for the round instead of nothing.' in page
    wrong = client.post("/en/house/", {**data, "rule:rounds.count:number": "40", "action": "preview"})
    assert "<strong>Rounds</strong>: expected a whole number from 2 to 30; found 40" in wrong.content.decode()
    assert "rules.rounds.count" not in wrong.content.decode()


@pytest.mark.ratelimit
def test_creating_is_rate_limited(client: Client, settings: Any) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "ruleset": "2/h"}
    for i in range(2):
        assert create(client, {**NO_DRAW, "rules": {"scoring.double_blank": i + 1}}).status_code == 201
    over = create(client, {**NO_DRAW, "rules": {"scoring.double_blank": 9}})
    assert over.status_code == 429 and over.json()["error"]["code"] == "rate-limited" and over["Retry-After"]


@pytest.mark.slow  # the command line as a real process
def test_cli_judges_under_a_house_file_offline(client: Client, tmp_path: Path) -> None:
    ident = create(client, NO_DRAW).json()["id"]
    house_file = tmp_path / "ours.yaml"
    house_file.write_bytes(client.get(f"/h/{ident}.yaml").content)
    position = tmp_path / "stuck.txt"
    position.write_text(STUCK, encoding="utf-8")
    env = {"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "mextrain_site.settings",
           "DATABASE_URL": f"sqlite:///{tmp_path / 'none.sqlite3'}"}  # no house ruleset stored there
    out = subprocess.run([sys.executable, str(ROOT / "manage.py"), "adjudicate", str(position), "--rules", str(house_file),
                          "--variant", "masters", "--json"], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    answer = json.loads(out.stdout)
    assert list(answer["variants"]) == ["masters", ident]
    assert verdicts(answer, ident)["Bob: draw"] == (False, ["no-draw"])
    broken = tmp_path / "broken.yaml"
    broken.write_text(house_file.read_text(encoding="utf-8").replace("turn.cannot_play:\n    value: marker-no-draw", "turn.cannot_play:\n    value: nope"), encoding="utf-8")
    out = subprocess.run([sys.executable, str(ROOT / "manage.py"), "adjudicate", str(position), "--rules", str(broken)],
                         capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert re.match(rf"error: {re.escape(str(broken))}:\d+: rules.turn.cannot_play.value: expected one of "
                    r"'draw-one', 'marker-no-draw', 'draw-until-playable'; found 'nope'", out.stderr)


def test_check_score_counts_by_the_house_rules(client: Client) -> None:
    """The double-blank counts what the table says: 25 at this table built on masters (0 there)."""
    ident = create(client, {"base": "masters", "name": "Blank is 25", "rules": {"scoring.double_blank": 25}}).json()["id"]
    text = f"variant: {ident}\nplayers: Ann Bob Cy\nhand Bob: 0-0 12-11\nhand Ann: -\ncheck: score\n"
    answer = client.post("/api/adjudicate", json.dumps({"position": text}), content_type="application/json").json()
    assert answer["variants"][ident]["scores"] == {"Ann": 0, "Bob": 48, "Cy": None}  # Cy: hand not given
    plain = client.post("/api/adjudicate", json.dumps({"position": text.replace(ident, "masters")}),
                        content_type="application/json").json()
    assert plain["variants"]["masters"]["scores"] == {"Ann": 0, "Bob": 23, "Cy": None}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_referee_page_writes_the_bonus_and_penalties_into_the_sum(client: Client, lang: str) -> None:
    """Going out with the marker still down: the going-out bonus and the marker penalty stand in
    the sum as terms, in each language, beside the tiles the others hold."""
    rules = {"scoring.going_out_bonus": -10, "scoring.marker_penalty": 25, "scoring.open_double_penalty": 5}
    ident = create(client, {"base": "masters", "name": "Bonus and penalties", "rules": rules}).json()["id"]
    text = ("players: Ann Bob\nset: double-12\nengine: 12-12\nAnn: 12-4 *\nBob: 12-7 7-7\nmexican: 12-9\n"
            "boneyard: 30\nturn: Ann\nhand: 9-8\nhand Bob: 0-0 12-11\nmoves: Ann: 9-8 -> mexican\n")
    page = client.post(f"/{lang}/adjudicate/", {"position": text, "variant": [ident]}).content.decode()
    with translation.override(lang):
        bonus, marker, double = (wording.label(k) for k in rules)
        adds = translation.gettext("%(rule)s adds %(points)s")
        left = translation.gettext("no tiles left")
        counts = translation.gettext("%(tile)s counts %(points)s")
    ann = " + ".join([left, adds % {"rule": bonus, "points": -10}, adds % {"rule": marker, "points": 25}]) + " = 15"
    bob = " + ".join([counts % {"tile": "0-0", "points": 0}, counts % {"tile": "12-11", "points": 23},
                      adds % {"rule": double, "points": 5}]) + " = 28"
    assert f'<span class="score-sum">{escape(ann)}</span>' in page
    assert f'<span class="score-sum">{escape(bob)}</span>' in page
    if lang != "en":
        assert "adds" not in ann and "adds" not in bob


IMPOSSIBLE = {
    "markers": ({"rule:markers.placed": "when-own-train-unplayable", "rule:markers.removed": "owner-plays-any-tile"},
                "markers.removed",
                "a marker that stays down when its owner plays elsewhere (markers.placed 'when-own-train-unplayable' "
                "puts it down on that very play): use markers.removed 'owner-plays-own-train' or markers.placed 'on-pass'",
                "markers.removed 'owner-plays-any-tile'"),
    "deal row": ({"rule:setup.deal:tiles:2": "12"}, "setup.deal",
                 "a hand that fits a double-{set} set for {players} players", "int {value}"),
    "rounds": ({"rule:rounds.count": "number", "rule:rounds.count:number": "13", "rule:engine.tile": "round-double",
                **{f"rule:setup.deal:{f}:{i}": v for i in range(3) for f, v in (("set", "9"), ("tiles", ""))}},
               "rounds.count",
               "at most {most} rounds with engine.tile 'round-double' (one double a round, and setup.deal has the "
               "double-{set} set): use engine.tile 'set-highest' or fewer rounds", "{rounds} rounds"),
}
"""Builder submissions that cannot work: the form's changes, the rule refused, and the templates of what
the schema expected and found (the engine messages the page words in the reader's language)."""


def _refusal(html: str) -> str:
    """The text of the builder's refusals (the summary's alert and the rule's own error)."""
    parts = re.findall(r'<div class="alert" role="alert">.*?</div>|<p class="field-error" role="alert">.*?</p>', html, re.S)
    return " ".join(unescape(re.sub(r"<[^>]+>", "", " ".join(parts))).split())


@pytest.mark.parametrize("lang", ["he", "hu"])
@pytest.mark.parametrize("case", list(IMPOSSIBLE))
def test_builder_refuses_in_the_readers_language(client: Client, lang: str, case: str) -> None:
    changes, key, expected, found = IMPOSSIBLE[case]
    form = builder_form(client)
    response = client.post(f"/{lang}/house/", {**form, **changes, "action": "preview"})
    assert response.status_code == 400
    html = response.content.decode()
    text = _refusal(html)
    with translation.override(lang):
        label = str(wording.label(key))
        assert translation.gettext(expected) != expected and translation.gettext(found) != found
        # the fix, worded: the translated template's words are on the page (placeholders filled)
        for template in (expected, found):
            for piece in re.split(r"\{[^}]*\}", translation.gettext(template)):
                assert piece.strip() in text, (piece, text)
    assert label in text and "house-rule-error" in html
    assert "rules." not in text  # no key path
    english = re.findall(r"\b(expected|found|stays down|rounds with|a hand that fits|players)\b", text)
    assert not english, (english, text)
    if case == "deal row":
        assert ("שורה 3" if lang == "he" else "3. sor") in text and html.count('class="deal-row-error"') == 1


@pytest.mark.parametrize("case", list(IMPOSSIBLE))
def test_builder_refuses_in_plain_english_and_the_api_keeps_its_reason(client: Client, case: str) -> None:
    """The English builder words a refusal as the translations do (rules by their labels, values by
    what they do, no type), through PLAIN_ENGLISH; the API's reason is the schema's English, unchanged."""
    form = builder_form(client)
    changes, key, expected, found = IMPOSSIBLE[case]
    html = client.post("/en/house/", {**form, **changes, "action": "preview"}).content.decode()
    text = _refusal(html)
    assert f"{wording.label(key)}" in text
    for template in (expected, found):  # the plain template's words are on the page (placeholders filled)
        plain = PLAIN_ENGLISH.get(template, template)  # a template not listed is plain already
        for piece in re.split(r"\{[^}]*\}", plain):
            assert piece.strip() in text, (piece, text)
        for piece in re.split(r"\{[^}]*\}", template):  # the schema's own words that differ are not
            if piece.strip() and piece.strip() not in plain:
                assert piece.strip() not in text, (piece, text)
    assert not RULE_KEY.findall(text) and "int " not in text, text
    if case == "markers":
        reason = create(client, {**NO_DRAW, "rules": {"markers.placed": "when-own-train-unplayable",
                                                      "markers.removed": "owner-plays-any-tile"}}).json()["error"]["message"]
        assert reason == f"rules.markers.removed: expected {expected}; found {found}"  # byte for byte
        assert reason.removeprefix("rules.markers.removed: ") not in text


@pytest.mark.slow  # every schema message built and worded
def test_plain_english_covers_every_schema_message_that_names_a_key_or_a_type() -> None:
    """Each entry rewords a template the schema has, keeps its placeholders and names no rule key; every
    schema template naming a rule key, a value as a file writes it or a Python type has an entry."""
    from mextrain_site.core.management.commands.engine_messages import message_templates
    from rules.messages import fields

    templates = set(message_templates())
    for template, plain in PLAIN_ENGLISH.items():
        assert template in templates, template
        assert fields(plain) == fields(template), template
        assert not RULE_KEY.findall(plain) and not re.search(r"'[a-z-]+'", plain), plain  # no key, no value id
    schema = {t for t in templates if t in set(_schema_templates())}
    named = {t for t in schema if RULE_KEY.findall(t) or re.match(r"(int|bool|float) \{", t)}
    assert named and named <= set(PLAIN_ENGLISH), sorted(named - set(PLAIN_ENGLISH))


def _schema_templates() -> list[str]:
    import ast
    from pathlib import Path

    import variants.house
    import variants.schema

    out = []
    for module in (variants.schema, variants.house):
        tree = ast.parse(Path(module.__file__ or "").read_text(encoding="utf-8"))
        out += [n.args[0].value for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                and n.func.id == "Message" and n.args and isinstance(n.args[0], ast.Constant)]
    return out


def test_upload_refuses_in_the_readers_language(client: Client) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    text = ("title: Ours\nbase: masters\nrules:\n  rounds.count:\n    value: 40\n    status: house\n    cite: []\n")
    bad = client.post("/he/house/upload/", {"file": SimpleUploadedFile("ours.yaml", text.encode())})
    assert bad.status_code == 400
    shown = _refusal(bad.content.decode())
    with translation.override("he"):
        assert translation.gettext("line {line}: ").format(line=5) in shown
        assert str(wording.label("rounds.count")) in shown
        assert translation.gettext("a whole number from {lo} to {hi}").format(lo=2, hi=30) in shown
    assert "rules." not in shown and "expected" not in shown
    english = client.post("/en/house/upload/", {"file": SimpleUploadedFile("ours.yaml", text.encode())})
    assert "line 5: Rounds: expected a whole number from 2 to 30; found 40" in _refusal(english.content.decode())


def _published_names(lang: str) -> list[str]:
    """The published rulesets as the referee page names them, in ``lang``."""
    with translation.override(lang):
        return [ruleset_name(r) for r in all_rulesets()]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_house_pages_show_players_no_rule_key_or_ruleset_id(client: Client, lang: str) -> None:
    """The builder, a refused builder and a stored house ruleset's page: each rule by its label,
    each ruleset by its name (the publisher or the translated title, and its options: never
    ``masters+mandatory-doubles``), the keys only in the collapsed help for editing the file."""
    ident = create(client, {"base": "masters+mandatory-doubles", "name": "Kitchen",
                            "rules": {"turn.cannot_play": "marker-no-draw"}}).json()["id"]
    form = builder_form(client)
    pages = {
        "builder": client.get(f"/{lang}/house/?base=masters%2Bmandatory-doubles"),
        "refused": client.post(f"/{lang}/house/", {**form, "rule:markers.placed": "when-own-train-unplayable",
                                                   "rule:markers.removed": "owner-plays-any-tile", "action": "preview"}),
        "house page": client.get(f"/{lang}/variants/{ident}/"),
        "short link": client.get(f"/h/{ident}/", HTTP_ACCEPT_LANGUAGE=lang),
    }
    assert [r.status_code for r in pages.values()] == [200, 400, 200, 200]
    names = _published_names(lang)
    with translation.override(lang):
        combined = ruleset_name(get_ruleset("masters+mandatory-doubles"))
        option = translation.gettext("Mandatory doubles")
    assert combined.endswith(f" + {option}") and "masters" not in combined
    assert lang == "en" or option != "Mandatory doubles"
    for name, response in pages.items():
        html = response.content.decode()
        text = player_text(html).replace(f"/h/{ident}/", "")  # the page's own link is a link
        keys = {m.group(0) for m in RULE_KEY.finditer(text)}  # the English refusal too: plain English
        assert not keys, (name, sorted(keys)[:5])
        assert not RULESET_ID.findall(text), (name, RULESET_ID.findall(text)[:5])
        assert not OPTION_ID.findall(text), (name, OPTION_ID.findall(text)[:5])
        for published in names:
            assert escape(published) in html, (name, published)
        if name != "refused":
            assert escape(combined) in html, name
    builder = pages["builder"].content.decode()
    assert 'class="rule-key"' not in builder
    help_box = re.search(r'<details class="house-details">(.*?)</details>', builder, re.S)
    assert help_box is not None  # the keys stay where a file is edited by hand: each with its label
    with translation.override(lang):
        for spec in RULE_SPECS:
            assert f"<dt>{escape(wording.label(spec.key))}</dt><dd><code dir=\"ltr\">{spec.key}</code></dd>" in help_box.group(1)
    page = pages["house page"].content.decode()
    assert f'<code dir="ltr">variant: {ident}</code>' in page  # for a position typed by hand


def test_a_house_page_names_its_base_as_the_referee_page_does(client: Client) -> None:
    ident = create(client, {"base": "gamerules", "name": "Ours", "rules": {"scoring.double_blank": 25}}).json()["id"]
    for lang in ("en", "he"):
        html = client.get(f"/{lang}/variants/{ident}/").content.decode()
        with translation.override(lang):
            title = translation.gettext("Mexican Train — the game-rules page")
            same = translation.gettext("the same as <bdi>%(ruleset)s</bdi>")
        assert f'<a href="/{lang}/variants/gamerules/"><bdi>{escape(title)}</bdi></a>' in html
        assert (same % {"ruleset": escape(title)}) not in html  # one rule differs
        if lang == "he":
            assert title != "Mexican Train — the game-rules page"


YAML_ERRORS = [
    (b"title: x\nbase: masters\nrules: {a: b: c}\n", 3, 13, "did not find expected ',' or '}'"),
    (b"title: x\n\tbase: masters\n", 2, 1, "found a tab character that violates indentation"),
    (b"title: [x\n", 2, 1, "did not find expected ',' or ']'"),
]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("raw", "line", "column", "problem"), YAML_ERRORS)
def test_an_upload_that_is_not_yaml_is_refused_in_the_readers_language(client: Client, lang: str, raw: bytes,
                                                                        line: int, column: int, problem: str) -> None:
    """The sentence in the reader's language with the line and the column (from 1); PyYAML's own
    words only as a quoted detail, marked as English."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = client.post(f"/{lang}/house/upload/", {"file": SimpleUploadedFile("ours.yaml", raw)})
    assert response.status_code == 400
    html = response.content.decode()
    with translation.override(lang):
        frame = translation.gettext("The file is not valid YAML at line %(line)s, column %(column)s:")
    assert lang == "en" or frame != "The file is not valid YAML at line %(line)s, column %(column)s:"
    sentence = escape(frame % {"line": line, "column": column})
    assert f'{sentence} <code class="yaml-problem" lang="en" dir="ltr">{escape(problem)}</code>' in html
    assert "expected valid YAML" not in html and "(top)" not in html
    assert HouseRuleset.objects.count() == 0


def test_a_file_that_is_not_yaml_keeps_its_english_message_for_the_cli() -> None:
    """The CLIs and str() keep the one-line English of every ruleset file error."""
    from rules.errors import InputError

    with pytest.raises(InputError) as info:
        hs.from_file("title: x\nbase: masters\nrules: {a: b: c}\n", "ours.yaml")
    assert str(info.value) == "ours.yaml:3: (top): expected valid YAML; found did not find expected ',' or '}'"


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_a_hand_size_row_is_counted_from_one_as_the_builder_labels_it(client: Client, lang: str) -> None:
    """The engine is set aside before the deal (gamerules): the second row's hands do not leave it
    out of a double-6 set. The refusal names "row 2", as the editor's labels count."""
    form = builder_form(client, "gamerules")
    rows = {**{k: "" for k in form if k.startswith("rule:setup.deal:")},
            **{f"rule:setup.deal:{f}:0": v for f, v in (("lo", "3"), ("hi", "8"), ("set", "12"), ("tiles", "7"))},
            **{f"rule:setup.deal:{f}:1": v for f, v in (("lo", "2"), ("hi", "2"), ("set", "6"), ("tiles", "14"))}}
    response = client.post(f"/{lang}/house/", {**form, **rows, "rule:players.count:min": "2",
                                               "rule:players.count:max": "8", "action": "preview"})
    assert response.status_code == 400
    text = _refusal(response.content.decode())
    template = ("hands that leave the engine out of the deal (engine.missing 'set-aside-before-deal'): at most {most} "
                "tiles each for {players} players from the {left} tiles of a double-{set} set without its engine (row {row})")
    with translation.override(lang):
        words = PLAIN_ENGLISH[template] if lang == "en" else translation.gettext(template)  # in English: plain English
        worded = words.format(most=13, players=2, left=27, set=6, row=2)
        label = str(wording.label("setup.deal"))
        row_label = translation.gettext("Row %(n)s: players from") % {"n": 2}
    assert f"{label}: " in text and worded in text, text
    assert 'aria-label="' + escape(row_label) + '"' in response.content.decode()  # the editor's row 2: the same row


@pytest.mark.parametrize("lang", ["he", "it"])
def test_the_builder_shows_the_base_s_text_in_the_reader_s_language_and_keeps_it_unless_edited(
        client: Client, lang: str) -> None:
    """The equipment text is the base's, translated, as its page shows it; sent back untouched it
    changes nothing, and a table's own words are kept as typed."""
    form = builder_form(client, "howto", lang)
    english = str(get_ruleset("howto").rules["setup.equipment"].value)
    with translation.override(lang):
        shown = translation.gettext(english)
    assert shown != english and form["rule:setup.equipment"] == shown
    untouched = client.post(f"/{lang}/house/", {**form, "action": "save", "name": "Ours"})
    assert untouched.status_code == 303
    assert json.loads(HouseRuleset.objects.get().rules) == {}
    edited = client.post(f"/{lang}/house/", {**form, "rule:setup.equipment": "our own hub", "action": "save",
                                             "name": "Ours"})
    assert edited.status_code == 303
    assert json.loads(HouseRuleset.objects.exclude(rules="{}").get().rules) == {"setup.equipment": "our own hub"}


def test_a_quote_under_house_rules_credits_its_source_not_the_table(client: Client) -> None:
    """The table wrote none of the passages its house ruleset keeps from the base: each quote on
    the referee's page is credited to the source it comes from, never to the house's name."""
    ident = create(client, NO_DRAW).json()["id"]
    html = client.post("/en/adjudicate/", {"position": STUCK + "check: Bob: 2-3 -> Ann\n", "variant": [ident]}).content.decode()
    credits = set(re.findall(r"<cite><a [^>]*><bdi>([^<]*)</bdi></a></cite>", html))
    assert credits == {"Masters Traditional Games"}, credits
    assert NO_DRAW["name"] in html  # the ruleset is still named by the table's name

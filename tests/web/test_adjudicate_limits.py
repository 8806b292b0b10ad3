"""Bounded work on the page (issue 7, part 4): the page renders every judgement as HTML, so its
limit is MAX_PAGE_WORK; the worst requests within it are rendered in under 0.5 s of CPU time, a
shared ruling included, and one over it is refused with 413 saying what to reduce."""

from __future__ import annotations

import re
import time

import pytest
from django.test import Client

from bench.worst import Worst, cases, over_the_limit
from mextrain_site.referee.sharing import store
from rules.limits import MAX_PAGE_WORK

pytestmark = [pytest.mark.django_db, pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]
URL = "/en/adjudicate/"
WITHIN = [c for c in cases(MAX_PAGE_WORK) if "over the limit" not in c.name]
CPU_BUDGET = 0.5


@pytest.mark.parametrize("case", WITHIN, ids=lambda c: c.name)
def test_the_worst_pages_within_the_limit_render_in_time(client: Client, case: Worst) -> None:
    client.get(URL)
    t = time.process_time()
    response = client.post(URL, {"position": case.text, "variant": list(case.variants)})
    seconds = time.process_time() - t
    assert response.status_code == 200
    assert seconds < CPU_BUDGET, f"{case.name}: {seconds:.3f} s of CPU time"


def test_a_shared_ruling_within_the_limit_opens_in_time(client: Client) -> None:
    case = WITHIN[0]
    row = store(case.text, list(case.variants))
    client.get(URL)
    t = time.process_time()
    response = client.get(f"/r/{row.id}/")
    assert response.status_code == 200
    assert time.process_time() - t < CPU_BUDGET


@pytest.mark.parametrize("path", [URL, URL + "share/"])
def test_too_much_work_is_refused_with_413(client: Client, path: str) -> None:
    case = over_the_limit(MAX_PAGE_WORK)
    response = client.post(path, {"position": case.text, "variant": list(case.variants)})
    assert response.status_code == 413
    assert "judge fewer rulesets" in response.content.decode()


# -- Request size: 20,000 characters in any script, posted as a browser posts them (issue 24) ------

SCRIPTS = {"el": "αβγδεζηθικλμνξοπρστυφχψω", "he": "אבגדהוזחטיכלמנסעפצקרשת", "ky": "абвгдеёжзийклмнңоөпрстуүфхцчшщыэюя",
           "en": "\U00010330\U00010331\U00010332\U00010333"}
"""Greek, Hebrew and Kyrgyz letters take 2 bytes in UTF-8 (6 URL-encoded); Gothic (for the English page) 4 (12)."""
WORDS = {"el": "γίνονται δεκτοί το πολύ 20000", "he": "מתקבלים לכל היותר 20000", "ky": "эң көп дегенде 20000 символ",
         "en": "at most 20000 are accepted"}


def padded(language: str, length: int) -> str:
    """The spec's example, then comment lines of ``language``'s letters up to ``length`` characters."""
    from tests.examples import SPEC_EXAMPLE

    letters = SCRIPTS[language]
    lines, size = [SPEC_EXAMPLE.rstrip("\n")], len(SPEC_EXAMPLE.rstrip("\n"))
    while size < length:
        line = "\n# " + (letters * 40)[: min(78, length - size - 3)]
        lines.append(line)
        size += len(line)
    text = "".join(lines)
    assert len(text) == length, len(text)
    return text


def post_urlencoded(client: Client, path: str, text: str) -> object:
    from urllib.parse import urlencode

    client.get(URL)
    return client.post(path, urlencode({"position": text}), content_type="application/x-www-form-urlencoded")


@pytest.mark.parametrize("language", list(SCRIPTS))
def test_a_position_of_20000_characters_in_any_script_is_judged_urlencoded_or_multipart(client: Client,
                                                                                         language: str) -> None:
    from mextrain_site.core.sizes import FORM_BYTES

    text = padded(language, 20_000)
    response = post_urlencoded(client, f"/{language}/adjudicate/", text)
    assert response.status_code == 200, response.content[:2000]  # type: ignore[attr-defined]
    multipart = client.post(f"/{language}/adjudicate/", {"position": text})
    assert multipart.status_code == 200
    from urllib.parse import quote

    assert len(quote(text)) <= FORM_BYTES  # the assumption the limit is built on


@pytest.mark.parametrize("language", list(SCRIPTS))
def test_20001_characters_are_refused_in_the_readers_language_with_the_text_kept(client: Client,
                                                                                 language: str) -> None:
    text = padded(language, 20_001)
    response = post_urlencoded(client, f"/{language}/adjudicate/", text)
    page = response.content.decode()  # type: ignore[attr-defined]
    assert response.status_code == 413, page[:2000]  # type: ignore[attr-defined]
    assert WORDS[language] in re.sub("[\u2066-\u2069]", "", page)
    assert text.splitlines()[-1] in page  # the text is still in the form


@pytest.mark.parametrize(("language", "words"), [("el", "Πολύ μεγάλο για ανάγνωση"), ("he", "גדול מכדי לקרוא"),
                                                 ("ky", "Окуу үчүн өтө чоң"), ("en", "Too large to read")])
def test_over_the_hard_cap_a_page_in_the_readers_language_not_a_bare_400(client: Client, language: str,
                                                                         words: str) -> None:
    from mextrain_site.core.sizes import FORM_BYTES

    for path in (f"/{language}/adjudicate/", f"/{language}/adjudicate/share/"):
        response = post_urlencoded(client, path, "#" * FORM_BYTES)
        page = response.content.decode()  # type: ignore[attr-defined]
        assert response.status_code == 413, page[:500]  # type: ignore[attr-defined]
        assert words in page and f'lang="{language}"' in page and "Bad Request" not in page


def test_over_the_hard_cap_htmx_gets_the_notice_in_place_of_the_ruling(client: Client) -> None:
    from urllib.parse import urlencode

    from mextrain_site.core.sizes import FORM_BYTES

    client.get(URL)
    response = client.post("/he/adjudicate/", urlencode({"position": "#" * FORM_BYTES}),
                           content_type="application/x-www-form-urlencoded", HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert response.status_code == 413 and response["HX-Retarget"] == "#ruling"
    assert page.lstrip().startswith('<section id="ruling"') and "גדול מכדי לקרוא" in page


def test_over_the_hard_cap_the_api_answers_json(client: Client) -> None:
    import json

    from mextrain_site.core.sizes import FORM_BYTES

    response = client.post("/api/adjudicate", "#" * (FORM_BYTES + 1), content_type="text/plain")
    assert response.status_code == 413 and json.loads(response.content)["error"]["code"] == "too-large"

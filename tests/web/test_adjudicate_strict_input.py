"""Strict input on the page (issue 7, part 3): odd digits, huge numbers, lone surrogates, odd
charsets and overlong ids are answered with a 400 that says what is wrong, never a 500."""

from __future__ import annotations

import pytest
from django.http import QueryDict
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mextrain_site.referee.forms import AdjudicateForm, read_plainly
from tests.odd_input import BASE, long_ids, odd_charsets, planted
from variants.loader import option_ids

pytestmark = [pytest.mark.django_db, pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]
URL = "/en/adjudicate/"
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def check(response) -> str:
    assert response.status_code in (200, 400, 413), response.status_code
    page = response.content.decode("utf-8")
    if response.status_code != 200 and response["Content-Type"].startswith("text/html"):
        assert 'class="error-message" id="input-error"' in page
    return page


@FUZZ
@given(text=planted().filter(lambda t: not any(0xD800 <= ord(c) <= 0xDFFF for c in t)))
def test_planted_odd_input(client: Client, text: str) -> None:
    check(client.post(URL, {"position": text}))


MULTIPART = (b'--x\r\nContent-Disposition: form-data; name="position"\r\n\r\n'
             b"players: Ann Bob\nengine: 12\nturn: Ann\n\r\n--x--\r\n")


@FUZZ
@given(charset=odd_charsets, multipart=st.booleans())
def test_odd_charsets(client: Client, charset: str, multipart: bool) -> None:
    """Never a 500 (Django itself refuses a urlencoded form that is not UTF-8, with a bare 400)."""
    body = MULTIPART if multipart else b"position=players%3A+Ann+Bob%0Aengine%3A+12%0Aturn%3A+Ann%0A"
    ctype = "multipart/form-data; boundary=x" if multipart else "application/x-www-form-urlencoded"
    response = client.generic("POST", URL, body, content_type=ctype + (f"; charset={charset}" if charset else ""))
    assert response.status_code in (200, 400), response.status_code


@pytest.mark.parametrize("charset", ["idna", "punycode", "utf-7"])
def test_host_name_and_escaping_charsets_are_refused(client: Client, charset: str) -> None:
    response = client.generic("POST", URL, MULTIPART, content_type=f"multipart/form-data; boundary=x; charset={charset}")
    assert response.status_code == 400 and b"UTF-8" in response.content


@FUZZ
@given(ident=long_ids, where=st.sampled_from(["line", "picker"]))
def test_overlong_ruleset_ids(client: Client, ident: str, where: str) -> None:
    if where == "line":
        check(client.post(URL, {"position": BASE + f"variant: {ident}\n"}))
    else:
        check(client.post(URL, {"position": BASE, "variant": [ident]}))


@pytest.mark.parametrize("value", ["²", "①", "₀", "٣", "9" * 4301])
def test_the_audit_numbers_say_where(client: Client, value: str) -> None:
    page = check(client.post(URL, {"position": BASE.replace("boneyard: 23", f"boneyard: {value}")}))
    assert "line 8, column 11" in page


@settings(max_examples=200, deadline=None)
@given(texts=st.lists(st.text(alphabet=st.sampled_from("ab \r\n\x00-:>*"), max_size=12), max_size=2),
       variants=st.lists(st.sampled_from([*option_ids(), "nope", "", " masters", "MASTERS", "masters+"]), max_size=4))
def test_the_plain_reading_is_what_the_form_cleans(texts: list[str], variants: list[str]) -> None:
    """Judge reads a plain form without the form's machinery (read_plainly): whenever it does,
    the form would have accepted the same and cleaned it to the same text and rulesets."""
    data = QueryDict(mutable=True)
    data.setlist("position", texts)
    data.setlist("variant", variants)
    plain = read_plainly(data)
    form = AdjudicateForm(data)
    if plain is not None:
        assert form.is_valid(), form.errors
        assert plain == (form.cleaned_data["position"], form.cleaned_data["variant"])
    else:
        assert not form.is_valid()  # no house ruleset here: only what the form refuses is left to it

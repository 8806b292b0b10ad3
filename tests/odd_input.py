"""Hypothesis strategies for the input classes the audits found crashing: numbers in non-ASCII
digits or thousands of digits long, lone surrogates, control characters (NUL), odd charsets, overlong ids. The
parser, API and page properties plant them where a number, a name or an id is read."""

from __future__ import annotations

import re

from hypothesis import strategies as st

from tests.examples import SPEC_EXAMPLE

# Characters str.isdigit() or int() accept that are not ASCII digits: superscripts, circled,
# subscripts, Arabic-Indic, Devanagari, fullwidth ...
UNICODE_DIGITS = st.characters(categories=["Nd", "No", "Nl"]).filter(lambda c: not c.isascii())
SAMPLE_DIGITS = st.sampled_from(["²", "①", "₀", "٣", "۷", "३", "９", "𝟠", "Ⅻ", "½"])
odd_digits = st.lists(UNICODE_DIGITS | SAMPLE_DIGITS | st.sampled_from("0123456789"), min_size=1, max_size=6).map(
    "".join).filter(lambda s: not s.isascii())
huge_numbers = st.integers(4_000, 6_000).flatmap(
    lambda n: st.sampled_from(["9", "1", "0"]).map(lambda d: d * n))
odd_numbers = odd_digits | huge_numbers | st.integers(10**3, 10**40).map(str)
surrogates = st.integers(0xD800, 0xDFFF).map(chr)
controls = st.sampled_from(["\x00", "\x01", "\x1b", "\x7f", "\x85", "\x9f"])
"""Control characters (NUL among them, which PostgreSQL refuses in a text): C0, DEL, C1."""
long_ids = st.integers(200, 400).flatmap(lambda n: st.sampled_from(["a", "masters", "é", "-"]).map(lambda c: (c * n)[:n]))
ODD_CHARSETS = ["idna", "punycode", "utf-7", "unicode_escape", "raw_unicode_escape", "rot13", "base64", "uu",
                "hex", "zlib", "nonsense", "utf-8", "latin-1", "utf-16", "cp1252", '"utf-8"', ""]
odd_charsets = st.sampled_from(ODD_CHARSETS)

BASE = SPEC_EXAMPLE
"""A valid position to plant odd input in."""


@st.composite
def planted(draw: st.DrawFn, base: str = BASE) -> str:
    """``base`` with an odd number where a number is read (round, boneyard, engine, set, a pip),
    or a lone surrogate or a control character in a name, or an overlong variant id."""
    where = draw(st.sampled_from(["round", "boneyard", "engine", "set", "pip", "surrogate", "control", "variant"]))
    text = re.sub(r"^(round|boneyard|variant|set):.*\n", "", base, flags=re.MULTILINE)
    if where == "round":
        return text + f"round: {draw(odd_numbers)}\n"
    if where == "boneyard":
        return text + f"boneyard: {draw(odd_numbers)}\n"
    if where == "engine":
        return re.sub(r"^engine:.*$", f"engine: {draw(odd_numbers)}", text, flags=re.MULTILINE)
    if where == "set":
        return text + f"set: double-{draw(odd_numbers)}\n"
    if where == "pip":
        found = list(re.finditer(r"\b\d{1,2}-\d{1,2}\b", text))
        m = draw(st.sampled_from(found))
        return text[:m.start()] + f"{draw(odd_numbers)}-{draw(odd_numbers)}" + text[m.end():]
    if where == "surrogate":
        return text.replace("Bob", "B" + draw(surrogates) + "b")
    if where == "control":
        return text.replace("Bob", "B" + draw(controls) + "b")
    return text + f"variant: {draw(long_ids)}\n"

"""The reader's check of the page tests can fail: it finds each kind of id a player should not read, and
only where it stands as a word of its own."""

from __future__ import annotations

from rules.ruleset import RULE_SPECS
from tests.player_text import codes_in, player_text


def test_codes_in_finds_each_kind_and_only_whole_words() -> None:
    text = ("Rule turn.cannot_play. Played as masters+mandatory-doubles or house-abcdefghijkl, with "
            "(dead-double); not x-turn.must_play, doubles.dead-x, masters-like or re-mandatory-doubles.")
    assert codes_in(text) == {
        "rule keys": ["turn.cannot_play"],
        "ruleset ids": ["house-abcdefghijkl", "masters+mandatory-doubles"],
        "option ids": ["dead-double", "mandatory-doubles"],
    }
    assert codes_in(" ".join(spec.key for spec in RULE_SPECS))["rule keys"] == sorted(s.key for s in RULE_SPECS)
    assert codes_in(player_text('<p title="turn.one_tile">Turn</p><script>turn.must_play</script>')) == {
        "rule keys": ["turn.one_tile"]}

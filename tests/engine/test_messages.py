"""Messages: English strings that remember their template, so a front end can word them."""

from __future__ import annotations

import pickle

import pytest

from rules.messages import Message, word
from rules.position import Position, PositionError


def test_a_message_is_its_english_text() -> None:
    m = Message("expected a tile like 6-4, found {found}", found="'6x4'")
    assert m == "expected a tile like 6-4, found '6x4'"
    assert m.template == "expected a tile like 6-4, found {found}" and m.params == {"found": "'6x4'"}
    assert pickle.loads(pickle.dumps(m)).params == m.params


def test_word_translates_nested_messages_and_keeps_english_when_a_placeholder_is_lost() -> None:
    catalogue = {
        "{tile} appears twice: in {first} and in {second}": "{tile} deux fois : dans {first} et dans {second}",
        "{name}'s hand": "la main de {name}",
        "the boneyard": "la pioche",
        "{place} (line {line})": "{place} (ligne {line})",
    }
    m = Message("{tile} appears twice: in {first} and in {second}", tile="6-4",
                first=Message("{place} (line {line})", place=Message("the boneyard"), line=3),
                second=Message("{name}'s hand", name="Ann"))
    assert word(m, lambda t: catalogue.get(t, t)) == "6-4 deux fois : dans la pioche (ligne 3) et dans la main de Ann"
    broken = {"{name}'s hand": "la main de {nom}"}
    assert word(Message("{name}'s hand", name="Ann"), lambda t: broken.get(t, t)) == "Ann's hand"
    assert word("plain text", lambda t: "translated") == "plain text"


@pytest.mark.parametrize("text", [
    "players: Ann Bob\nengine: 12\nturn: Ann\nhand: 6x4\n",
    "players: Ann Bob\nengine: 12\nAnn: 12-3\nturn: Bob\nhand: 3-12\n",
    "players: Ann Bob\nengine: 12\nturn: Zed\n",
    "players: Ann Bob\nengine: 12\nturn: Ann\nmoves:\n  Ann: 12-3 => Bob\n",
])
def test_position_errors_are_worded_whole(text: str) -> None:
    with pytest.raises(PositionError) as info:
        Position.parse(text)
    err = info.value
    assert err.worded(lambda t: t) == str(err)  # the identity wording is the English text
    marked = err.worded(lambda t: f"\u27e8{t}\u27e9")  # every template goes through the lookup, nested too
    assert marked.startswith("\u27e8line ") and marked.replace("\u27e8", "").replace("\u27e9", "") == str(err)
    assert marked.count("\u27e8") >= 2

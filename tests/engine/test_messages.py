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


def test_a_phrase_in_a_part_of_a_sentence_is_looked_up_in_its_context_then_without() -> None:
    catalogue = {"on\x04{name}'s train": "sul treno di {name}", "{name}'s train": "treno di {name}"}
    phrase = Message("{name}'s train", name="Ann")
    on = phrase.within("on")
    assert on == "Ann's train" and on.context == "on" and phrase.context is None
    assert word(on, lambda t: catalogue.get(t, t)) == "sul treno di Ann"
    assert word(phrase.within("of"), lambda t: catalogue.get(t, t)) == "treno di Ann"  # no entry for the part
    assert pickle.loads(pickle.dumps(on)).context == "on"


def test_every_reason_that_names_a_train_gives_it_a_part() -> None:
    """A new reason with a train's placeholder must say which part the train plays in its sentence
    (rules.reasons.TRAIN_ROLES), or a language that inflects would get the wrong form."""
    from rules.messages import fields
    from rules.reasons import TRAIN_PARAMS, TRAIN_ROLES, ReasonCode

    naming = {code for code in ReasonCode if (fields(code.template) or frozenset()) & TRAIN_PARAMS}
    assert naming and set(TRAIN_ROLES) == naming


@pytest.mark.parametrize("train", ["Ann", "mexican"])
def test_english_names_a_train_alike_in_every_part(train: str) -> None:
    from rules.reasons import TrainRole, english_train_label

    forms = {str(english_train_label(train, role)) for role in TrainRole}
    assert forms == {"Ann's train" if train == "Ann" else "the Mexican train"}


def test_a_sentence_that_opens_with_a_train_opens_with_a_capital_and_a_name_stays_as_written() -> None:
    from rules.reasons import ReasonCode, reason

    assert reason(ReasonCode.TRAIN_MARKED, train="mexican").text().startswith("The Mexican train carries")
    assert reason(ReasonCode.TRAIN_MARKED, train="ann").text().startswith("ann's train carries")
    italian = reason(ReasonCode.TRAIN_MARKED, train="ann").text("{train} ha un segnalino.", lambda n, _: f"il treno di {n}")
    assert italian == "Il treno di ann ha un segnalino."

"""Plain English for players: the ruleset schema's messages that name rule keys, values as written
in a file or Python types, as a translator words them for the other five languages.

The schema (``variants/schema.py``) writes its messages for whoever edits a ruleset file or calls
the API: ``markers.removed 'owner-plays-any-tile'``, ``int 12``. That English stays, byte for
byte, in ``str(exc)``, the API's ``reason``, the CLIs and the files. A player reading the house
builder or a refused upload in English reads this wording instead (each rule by its label, each
value by what it does, no type names), through the same path as a translation:
:func:`rules.messages.word` with this table as the lookup (``WORDING.player_message``). A template
not listed here is already plain English and is shown as it is.
"""

from __future__ import annotations

PLAIN_ENGLISH: dict[str, str] = {
    # what a value was found to be: the value itself, not its Python type
    "int {value}": "{value}",
    "float {value}": "{value}",
    "bool {value}": "{value}",
    "a mapping": "keys with values",
    "1 <= min <= max": "at least 1, and the lowest no higher than the highest",
    "min {lo}, max {hi}": "lowest {lo}, highest {hi}",
    "[lowest, highest]": "two numbers, the lowest and the highest",
    "1 <= lowest <= highest": "at least 1, and the lowest no higher than the highest",
    "a whole number or null": "a whole number, or empty where the source does not say",
    "a rule key declared in rules/ruleset.py": "the key of a rule (each rule's key is listed under “Editing the file by hand”)",
    # rules that cannot work together (variants.schema.combination_errors): rules by their labels
    "a hand-size row for every player count from {lo} to {hi} (players.count): add a row for {counts} or narrow players.count":
        "a hand-size row for every player count from {lo} to {hi} (Players): add a row for {counts} "
        "or allow fewer players",
    "an engine double known before the deal to set it aside (engine.tile 'round-double' or 'set-highest'): "
    "use one of them or another engine.missing than 'set-aside-before-deal'":
        "an engine double known before the deal, so that it can be set aside (Engine double: each round its "
        "own, or always the set's highest double): choose one of them, or for Missing engine something other "
        "than setting it aside before the deal",
    "engine.tile 'highest-held'": "Engine double: the highest double held after the deal",
    "hands that leave the engine out of the deal (engine.missing 'set-aside-before-deal'): at most {most} tiles "
    "each for {players} players from the {left} tiles of a double-{set} set without its engine (row {row})":
        "hands that leave the engine out of the deal (Missing engine: set aside before the deal): at most {most} "
        "tiles each for {players} players from the {left} tiles of a double-{set} set without its engine (row {row})",
    "at most {most} rounds with engine.tile 'round-double' (one double a round, and setup.deal has the "
    "double-{set} set): use engine.tile 'set-highest' or fewer rounds":
        "at most {most} rounds when each round has its own engine (one double a round, and Set and hand size "
        "has the double-{set} set): choose the set's highest double as every round's engine, or fewer rounds",
    "a marker that stays down when its owner plays elsewhere (markers.placed 'when-own-train-unplayable' puts "
    "it down on that very play): use markers.removed 'owner-plays-own-train' or markers.placed 'on-pass'":
        "a marker that stays down when its owner plays elsewhere (under Marker placed it goes down on that very "
        "play, as soon as its owner cannot add to their own train): choose for Marker lifted that it is lifted "
        "when its owner plays on their own train again, or for Marker placed that it goes down when a turn ends "
        "without a play",
    "markers.removed 'owner-plays-any-tile'": "Marker lifted: as soon as its owner lays a tile on any train",
}
"""The schema's template -> the plain English template (the same placeholders)."""


def plain_english(template: str) -> str:
    """A lookup for :func:`rules.messages.word`: the plain English of a schema template, or the template."""
    return PLAIN_ENGLISH.get(template, template)

"""What a player should never read, shared by the page tests and the browser tests: a rule key
(``turn.cannot_play``), a ruleset id (``masters+mandatory-doubles``, ``house-…``) or an option id
(``mandatory-doubles``). Players read names: the label of a rule, the publisher or title of a
ruleset, the label of an option. Ids stay in links, form values, the files, the API and the CLI."""

from __future__ import annotations

import re
from html import unescape

from rules.ruleset import RULE_SPECS
from variants.loader import base_ids, load_base


def _rule_keys() -> str:
    """The rule keys as one alternation grouped by their first part (``turn\\.(?:must_play|…)|…``): the
    same matches as one branch per key, since no key is the start of another, and some thirty times
    faster on a long page (the engine tries two branches at a place instead of forty)."""
    groups: dict[str, list[str]] = {}
    for spec in RULE_SPECS:
        head, tail = spec.key.split(".", 1)
        groups.setdefault(head, []).append(re.escape(tail))
    return "|".join(rf"{re.escape(head)}\.(?:{'|'.join(tails)})" for head, tails in groups.items())


RULE_KEY = re.compile(rf"(?<![\w.-])(?:{_rule_keys()})(?![\w-])")
RULESET_ID = re.compile(rf"(?<![\w-])(?:house-[a-z2-7]{{12}}|(?:{'|'.join(base_ids())})(?:\+[a-z-]+)*)(?![\w-])")
OPTION_ID = re.compile(rf"(?<![\w-])(?:{'|'.join(sorted({re.escape(name) for ident in base_ids() for name in load_base(ident).options}))})(?![\w-])")


def codes_in(text: str) -> dict[str, list[str]]:
    """The rule keys, ruleset ids and option ids in ``text``, each kind sorted (empty when none)."""
    found = {"rule keys": RULE_KEY.findall(text), "ruleset ids": RULESET_ID.findall(text),
             "option ids": OPTION_ID.findall(text)}
    return {kind: sorted(set(items)) for kind, items in found.items() if items}


def player_text(html: str) -> str:
    """What a player reads on a page, from its HTML: the text and the labels read aloud, without the
    markup, the script and the collapsed details kept for whoever types a position or edits a file
    by hand (``house-details``, ``position-line``)."""
    html = re.sub(r'<details class="(?:house-details|position-line)">.*?</details>|<script.*?</script>|<head>.*?</head>',
                  " ", html, flags=re.S)
    shown = re.findall(r'(?:title|aria-label|placeholder|alt)="([^"]*)"', html)
    return unescape(" ".join([re.sub(r"<[^>]+>", " ", html), *shown]))

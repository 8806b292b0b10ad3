"""Rewrite hand-size tables stored in the broken form (2026-11-30 to 2026-12-01).

Until then a house ruleset that changed ``setup.deal`` was stored with each row as its internal
fields (``{"min_players": 2, "max_players": 4, "set_max": 12, "tiles": 14}``), which the schema
cannot read: the save answered 400 and the row stayed, and its page, file and id were dead. The
rows are rewritten to the form the ruleset files (and the reading code) use,
``{"players": [2, 4], "set": 12, "tiles": 14}``; the id is derived from the values, not their
written form, so it stays and any link already given out starts to work. The conversion is
written out here (not imported) so this migration keeps doing what it did if the code changes.
Rows in any other form are left as they are. Going back leaves the rows in the readable form.
"""

from __future__ import annotations

import json
from typing import Any

from django.db import migrations

BROKEN_KEYS = {"min_players", "max_players", "set_max", "tiles"}


def _file_row(row: Any) -> Any:
    if isinstance(row, dict) and set(row) == BROKEN_KEYS:
        return {"players": [row["min_players"], row["max_players"]], "set": row["set_max"], "tiles": row["tiles"]}
    return row


def rewrite_deal_rows(apps: Any, schema_editor: Any) -> None:
    model = apps.get_model("house", "HouseRuleset")
    for row in model.objects.filter(rules__contains="min_players").only("pk", "rules").iterator():
        rules = json.loads(row.rules)
        deal = rules.get("setup.deal") if isinstance(rules, dict) else None
        if not isinstance(deal, list) or not any(isinstance(r, dict) and set(r) == BROKEN_KEYS for r in deal):
            continue
        rules["setup.deal"] = [_file_row(r) for r in deal]
        # as rulesets.store writes it, so that saving the same rules again finds this row
        text = json.dumps(rules, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        model.objects.filter(pk=row.pk).update(rules=text)  # a stored row is otherwise never changed


class Migration(migrations.Migration):

    dependencies = [
        ("house", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(rewrite_deal_rows, migrations.RunPython.noop, elidable=False),
    ]

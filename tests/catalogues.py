"""The translation catalogues as the tests read them: (English, translation) pairs."""

from __future__ import annotations

import re
from pathlib import Path

LOCALE = Path(__file__).resolve().parent.parent / "locale"


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "django.po"


def entries(lang: str) -> list[tuple[str, str]]:
    """(English, translation) of every entry of a catalogue, header excluded; a plural entry gives
    its singular with the first form and its plural with the last."""
    out = []
    for block in po_path(lang).read_text(encoding="utf-8").split("\n\n"):
        fields: dict[str, str] = {}
        key = ""
        for line in block.splitlines():
            m = re.match(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?) "(.*)"$', line)
            if m:
                key, fields[m.group(1)] = m.group(1), m.group(2)
            elif line.startswith('"') and key:
                fields[key] += line[1:-1]
        if fields.get("msgid"):
            forms = sorted(k for k in fields if k.startswith("msgstr["))
            if forms:
                out += [(fields["msgid"], fields[forms[0]]), (fields["msgid_plural"], fields[forms[-1]])]
            else:
                out.append((fields["msgid"], fields.get("msgstr", "")))
    return [(e.replace('\\"', '"').replace("\\n", " "), t.replace('\\"', '"')) for e, t in out]

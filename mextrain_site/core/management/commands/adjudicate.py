"""``python manage.py adjudicate FILE|- [--variant ID ...] [--rules HOUSE.yaml ...] [--json] [--detail full|compact|check]``.

Exit 0 when the input was judged (whatever the verdicts), 2 on bad input, with the message
on standard error and never a traceback.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from mextrain_site.core.referee import adjudicate
from mextrain_site.house.rulesets import describe
from rules.answer import Detail
from rules.errors import InputError
from rules.position import MAX_TEXT
from rules.ruleset import Ruleset
from variants.house import MAX_FILE, from_file
from variants.loader import read_text


class Command(BaseCommand):
    help = "Judge a Mexican Train position (the position text format) under one or more rulesets."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the position file, or - for standard input")
        parser.add_argument("--variant", action="append", default=[], metavar="ID",
                            help="ruleset id, options joined by + (repeatable); overrides the file's variant line")
        parser.add_argument("--rules", action="append", default=[], metavar="FILE.yaml",
                            help="a house ruleset file (as downloaded from /h/<id>.yaml; repeatable): judge under "
                                 "it, offline; alone it overrides the file's variant line")
        parser.add_argument("--json", action="store_true", help="print the JSON answer of the spec")
        parser.add_argument("--detail", choices=[d.value for d in Detail], default=Detail.FULL.value,
                            help="'check' leaves the candidate actions out (the check and the scores only)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            text = self.read(options["file"])
            given = [self.house(name) for name in options["rules"]]
            result = adjudicate(text, options["variant"] or None, detail=Detail(options["detail"]), given=given)
        except InputError as exc:  # any code: exit status 2
            sys.stderr.write(f"error: {exc}\n")
            sys.exit(2)
        except Exception as exc:  # an engine bug: still one line and the bad-input status, never a traceback
            sys.stderr.write(f"error: the referee failed on this input ({type(exc).__name__}); please report it\n")
            sys.exit(2)
        if options["json"]:
            self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2))
        else:
            self.stdout.write(render_table(result))

    def house(self, name: str) -> Ruleset:
        """A house ruleset file, checked as the site checks an upload (no database: offline)."""
        return from_file(read_text(name, MAX_FILE), name, describe=describe)

    def read(self, name: str) -> str:
        return read_text(name, MAX_TEXT * 4)


def _scores(scores: dict[str, int | None]) -> str:
    """Each player's points; a hand the position does not give is named so, not left out."""
    return ", ".join(f"{p} {'hand not given' if s is None else s}" for p, s in scores.items())


def render_table(result: dict[str, Any]) -> str:
    """A readable ruling: per ruleset, the check first, then every action with its reasons."""
    lines: list[str] = []
    for ident, ruling in result["variants"].items():
        lines.append(f"== {ident}")
        if "error" in ruling:
            lines.append(f"   cannot arise under this ruleset: {ruling['error']['message']}")
            continue
        rep = ruling["replay"]
        if not rep["ok"]:
            failed = rep["failed"]
            lines.append(f"   replay stopped at line {failed['line']}: {failed['move']} is illegal "
                         f"({rep['moves_applied']} moves applied)")
            lines.extend(f"     - {r['code']}: {r['text']}" for r in failed["reasons"] if r["blocks"])
        lines.extend(f"   set apart: {r['text']}" for r in ruling.get("applies_reasons", ()))
        for note in ruling["notes"]:
            lines.append(f"   note: {note}")
        counted = ruling["check"] is not None and ruling["check"]["legal"] is None  # check: score
        if ruling["round_over"]:
            lines.append("   the round is over" + (
                ": " + _scores(ruling["scores"]) if ruling["scores"] and not counted else ""))
        if ruling["check"] is not None:
            c = ruling["check"]
            if c["legal"] is None:  # check: score
                lines.append("   SCORES " + (_scores(ruling["scores"]) or "-"))
            else:
                lines.append(f"   CHECK {c['move']}: {'LEGAL' if c['legal'] else 'ILLEGAL'}")
            lines.extend(f"     {'x' if r['blocks'] else '+'} {r['code']}: {r['text']}" for r in c["reasons"])
        if ruling.get("actions"):
            lines.append(f"   {ruling['to_move']} to move:")
            width = max(len(a["move"]) for a in ruling["actions"])
            for a in ruling["actions"]:
                # compact detail names each reason by its index in the answer's shared list
                reasons = [result["reasons"][r] if isinstance(r, int) else r for r in a["reasons"]]
                codes = ", ".join(r["code"] for r in reasons if r["blocks"] == (not a["legal"])) or "-"
                lines.append(f"     {a['move']:<{width}}  {'legal  ' if a['legal'] else 'illegal'}  {codes}")
    return "\n".join(lines) + "\n"

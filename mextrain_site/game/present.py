"""The sheet as data for the API and the CSV, and as words for the pages (no rule decided here)."""

from __future__ import annotations

import csv
import io
from typing import Any

from django.utils.translation import gettext

from mextrain_site.core.ruleset_json import citation_json
from mextrain_site.referee.view_models import HandScore, TileCount
from rules.game import HandCount

from .sheet import Sheet, SheetRound

TIE_RULE = "winner.tie_breaks"


def round_json(r: SheetRound) -> dict[str, Any]:
    out: dict[str, Any] = {"number": r.number, "engine": str(r.engine) if r.engine else None, "scores": r.scores}
    if r.count is not None:
        out["out"] = next((h.player for h in r.count.hands if h.out), None)
        out["blocked"] = r.count.blocked
        out["counted"] = {h.player: hand_sum(h) for h in r.count.hands if h.tiles is not None and not h.out}
        out["corrected"] = r.corrected
    return out


def winner_json(sheet: Sheet) -> dict[str, Any] | None:
    result = sheet.result
    if result is None:
        return None
    by_rule = result.decided_by not in ("lowest-total", "tie")
    return {"players": list(result.winners), "tie": len(result.winners) > 1, "decided_by": result.decided_by,
            "rule": TIE_RULE if result.decided_by != "lowest-total" else None,
            "citations": [citation_json(c) for c in sheet.ruleset.citations(TIE_RULE)] if by_rule or len(result.winners) > 1 else []}


def sheet_json(sheet: Sheet) -> dict[str, Any]:
    return {"id": sheet.id, "ruleset": sheet.ruleset.id, "set": sheet.set_max, "players": list(sheet.players),
            "rounds": [round_json(r) for r in sheet.rounds], "totals": dict(sheet.totals),
            "leader": list(sheet.leaders), "finished": sheet.finished, "winner": winner_json(sheet),
            "version": sheet.version}


def hand_sum(hand: HandCount) -> str:
    """The count written out as ``check: score`` words it: '0-0 counts 50 + 12-11 counts 23 = 73'."""
    if hand.tiles is None:
        return str(hand.points)
    return HandScore(hand.player, tuple(TileCount(str(t), p) for t, p in hand.tiles), hand.points).sum


def sheet_csv(sheet: Sheet) -> str:
    """One row per round (its engine, each player's points), then the totals."""
    buffer = io.StringIO()
    w = csv.writer(buffer)
    w.writerow([gettext("Round"), gettext("Engine"), *sheet.players])
    for r in sheet.rounds:
        scores = r.scores
        w.writerow([r.number, str(r.engine) if r.engine else "", *((scores[p] if scores else "") for p in sheet.players)])
    w.writerow([gettext("Total"), "", *(sheet.totals[p] for p in sheet.players)])
    return buffer.getvalue()

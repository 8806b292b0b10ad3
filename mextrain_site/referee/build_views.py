"""Build mode: the editor that lays out a position by taps (``templates/referee/_builder.html``).

One htmx endpoint. It parses the page's text with the engine's parser (the single source of
truth), applies the tapped edit (:mod:`.building`), and renders the editor partial, which
carries the new text back for the page's textarea. A text the parser refuses is shown with
the parser's error and its line, and an offer to go back to the text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_POST

from mextrain_site.core.limits import limited
from mextrain_site.core.posting import get_goes_to
from mextrain_site.core.referee import parse
from rules.errors import InputError
from rules.limits import default_set
from rules.messages import word
from rules.moves import MEXICAN, Action
from rules.position import MAX_PLAYERS, SCORE, Position
from rules.tiles import MAX_PIP, Tile
from variants.loader import RulesetError, all_rulesets, get_ruleset

from . import building as b
from .board import _half
from .forms import normalise_newlines
from .present import echo

TEMPLATE = "referee/_builder.html#editor"
FIELD_EDITS = {b.Kind.ENGINE, b.Kind.SET, b.Kind.BONEYARD}
"""Edits whose argument comes from a field of the same name (the page's selects)."""


def set_name(n: int) -> str:
    """A set by its highest double ("double-12"), in the player's words: the catalogue's one
    "domino set" entry, which the house pages use too. Plain text: it goes in an <option>."""
    return pgettext("domino set", "double-%(n)s") % {"n": n}


def faces() -> list[tuple[int, SafeString]]:
    """The pips of each number as on the board picture, one SVG symbol each."""
    return [(n, mark_safe(_half(0, 0, n))) for n in range(MAX_PIP + 1)]


FACES = faces()


@dataclass
class TrainView:
    key: str
    label: str
    tiles: list[tuple[int, int]]
    unknown: bool
    marker: bool
    started: bool
    end: int
    is_open: bool
    add: list[Tile] = field(default_factory=list)
    ends: list[int] = field(default_factory=list)


@dataclass
class HandView:
    player: str
    tiles: tuple[Tile, ...] | None
    is_open: bool
    grid: list[tuple[Tile, bool]] = field(default_factory=list)


def head_comments(text: str) -> str:
    """The comment lines a text starts with (its title, usually): kept across edits."""
    out = []
    for line in text.split("\n"):
        if line.strip() and not line.lstrip().startswith("#"):
            break
        out.append(line)
    return "\n".join(out).strip("\n") + ("\n" if any(line.strip() for line in out) else "")


def set_default(p: Position) -> str:
    """The set the rulesets judged use when the text names none."""
    try:
        rulesets = (get_ruleset(p.variant),) if p.variant else all_rulesets()
    except RulesetError:
        rulesets = all_rulesets()
    found = sorted({default_set(rs, len(p.players), b.engine_of(p)) for rs in rulesets})
    return " / ".join(set_name(s) for s in found)


def train_label(name: str) -> str:
    return _("Mexican train") if name == MEXICAN else _("%(player)s's train") % {"player": name}


def table(p: Position, opened: str, picked: str) -> dict[str, Any]:
    """What the editor shows for ``p``: ``opened`` names the one open panel, ``picked`` the
    tile chosen for a move (``check:6-4`` or ``move:6-4``)."""
    trains = []
    for name in b.train_names(p):
        line = p.train(name)
        is_open = opened == f"train:{name}"
        view = TrainView(name, train_label(name), list(line.oriented(b.engine_of(p))), line.unknown_prefix, line.marker,
                         line.started, b.open_end(p, name), is_open)
        if is_open:
            view.add, view.ends = b.train_tiles(p, name), b.open_ends(p, name)
        trains.append(view)

    def hand(name: str) -> HandView:
        is_open = opened == f"hand:{name}"
        return HandView(name, p.hand(name), is_open, b.hand_tiles(p, name) if is_open else [])

    pick_for, _sep, pick_tile = picked.partition(":")
    playable = [(t, str(t)) for t in b.playable(p)]
    labels = [s for _t, s in playable]
    check = p.check
    return {
        "p": p,
        "players": [{"name": n, "to_move": n == p.turn, "first": i == 0} for i, n in enumerate(p.players)],
        "can_add_player": len(p.players) < MAX_PLAYERS,
        "can_remove_player": len(p.players) > 2,
        "engines": b.engines(p),
        "sets": [(s, set_name(s)) for s in b.sets(p)],
        "set_default": set_default(p),
        "trains": trains,
        "boneyard": p.boneyard_count,
        "boneyard_listed": isinstance(p.boneyard, tuple) and bool(p.boneyard),
        "boneyard_counts": b.boneyard_counts(p),
        "room": b.room(p),
        "hand": hand(b.mover(p)),
        "others": [hand(n) for n in p.players if n != p.turn],
        "playable": playable,
        "picked_for": pick_for if pick_tile in labels else "",
        "picked_tile": pick_tile if pick_tile in labels else "",
        "check_actions": [("draw", _("draw")), ("pass", _("pass")), ("done", _("done")),
                          (SCORE, _("What does each hand count?")), ("none", _("no move"))],
        "check": check,
        "check_tile": str(check.tile) if check is not None and check.action is Action.PLAY else "",
        "check_action": check.action.value if check is not None else SCORE if p.score else "",
        "moves": [m.move for m in p.moves],
        "extras": [f"{k}: {v}" for k, v in (("variant", p.variant), ("phase", p.phase.value if p.phase.value != "play" else None),
                                             ("round", p.round),
                                             ("open-doubles", " ".join(p.open_doubles) if p.open_doubles else None))
                   if v is not None],
        "opened": opened,
        "fresh": p == b.NEW_TABLE,
    }


def _edit_from(request: HttpRequest) -> b.Edit | None:
    op = request.POST.get("op", "")
    if not op:
        return None
    edit = b.Edit.parse(op) if ":" in op or op not in {k.value for k in FIELD_EDITS} else None
    if edit is None:
        kind = b.Kind(op)
        edit = b.Edit(kind, (request.POST.get(op, ""),))
    if edit.kind is b.Kind.PLAYER_RENAME:
        edit = b.Edit(edit.kind, (edit.args[0], request.POST.get(f"rename:{edit.args[0]}", "")))
    return edit


def _opened_after(edit: b.Edit | None, opened: str) -> str:
    """The panel to show open after an edit: the one the edit belongs to."""
    if edit is None:
        return opened
    if edit.kind in (b.Kind.TRAIN_ADD, b.Kind.TRAIN_POP, b.Kind.TRAIN_MARKER):
        return f"train:{edit.args[0]}"
    if edit.kind is b.Kind.TRAIN_UNKNOWN:
        return ""
    if edit.kind in (b.Kind.MOVE_PLAY, b.Kind.MOVE_DRAW, b.Kind.MOVE_POP):
        return "moves"
    if edit.kind in (b.Kind.HAND_TILE, b.Kind.HAND_GIVEN):
        return f"hand:{edit.args[0]}"
    if edit.kind is b.Kind.TURN:  # whose turn it is, then what they hold: their hand opens
        return f"hand:{edit.args[0]}"
    if edit.kind in (b.Kind.NEW, b.Kind.PLAYER_REMOVE, b.Kind.PLAYER_RENAME):
        return ""
    return opened


@get_goes_to("referee:adjudicate")
@limited("build")
@require_POST
def build(request: HttpRequest) -> HttpResponse:
    """Render the editor for the posted text, after the tapped edit if there is one.

    Fields: ``position`` (the text), ``op`` (an edit, ``kind:arg:arg``; ``open:<panel>`` and
    ``pick:<for>:<tile>`` only change what is shown), ``open``, ``picked``, ``undo``."""
    text = normalise_newlines(request.POST.get("position", ""))
    opened = request.POST.get("open", "")
    picked = request.POST.get("picked", "")
    op = request.POST.get("op", "")
    context: dict[str, Any] = {"text": text, "undo": request.POST.get("undo", ""), "faces": FACES, "edited": False}
    if op.startswith("open:"):
        wanted = op[5:]
        opened = "" if wanted == opened else wanted
        op = ""
    elif op.startswith("pick:"):
        wanted = op[5:]
        picked = "" if wanted == picked else wanted
        op = ""
    elif op == "undo":
        text, context["text"], context["undo"], context["edited"] = context["undo"], context["undo"], "", True
        op = ""
    try:
        position = b.complete(parse(text).position if text.strip() else b.NEW_TABLE)
    except InputError as exc:
        context["error"] = {"message": exc.worded(_), "line": exc.line, "column": exc.column,
                            "echo": echo(text, exc.line, exc.column)}
        return render(request, TEMPLATE, context, status=200)
    try:
        edit = _edit_from(request) if op else None
        if edit is not None:
            before = position
            position = b.apply(position, edit)
            picked = "" if edit.kind in (b.Kind.CHECK_PLAY, b.Kind.MOVE_PLAY) else picked
            opened = _opened_after(edit, opened)
            if position != before or edit.kind is b.Kind.NEW:
                head = "" if edit.kind is b.Kind.NEW else head_comments(text)
                context.update(text=head + position.format(), undo=text, edited=True)
    except (b.EditError, ValueError) as exc:
        context["refused"] = word(exc.args[0], _) if exc.args else _("That change cannot be made.")
    context.update(table(position, opened, picked))
    context["picked"] = f"{context['picked_for']}:{context['picked_tile']}" if context["picked_tile"] else ""
    return render(request, TEMPLATE, context)

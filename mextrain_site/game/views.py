"""The game pages: a new game (/<lang>/game/new/), the sheet for everyone (/g/<id>/), the sheet with
round entry for whoever holds the edit link (/g/<id>/edit/#<secret>), and the CSV.

The edit secret travels in the link's fragment, which browsers never send: the page's script puts
it in the form, so it reaches the server only in a POST body and never in a URL, a log or a
Referer. The pages decide no rule: the store counts and checks through ``rules.game``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language_bidi
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods
from django.views.decorators.vary import vary_on_headers

from mextrain_site.core.game_links import GAME_COMMENT
from mextrain_site.core.i18n import ruleset_name
from mextrain_site.core.limits import OverLimit, charge_storage, limited
from mextrain_site.reference.citations import CitationView, citation_views
from rules.errors import InputError
from rules.game import HandCount, count_round
from rules.messages import word
from rules.numbers import ascii_int
from rules.position import Position, TrainLine
from rules.ruleset import TieBreak
from rules.tiles import STANDARD_SETS, Tile, full_set
from variants.loader import RulesetError, base_ids, get_ruleset

from . import store
from .chart import chart_svg
from .models import Game
from .present import TIE_RULE, hand_sum, sheet_csv
from .sheet import Entry, Sheet, SheetRound

BLOCKED = "-blocked-"
"""The value of the 'went out' choice that says nobody did."""
NAMES_SPLIT = re.compile(r"[\s,;]+")


def _worded(exc: InputError | RulesetError) -> str:
    return word(exc.message, _) if isinstance(exc, RulesetError) else exc.worded(_)


# -- a new game --------------------------------------------------------------------------------


def _rulesets() -> list[tuple[str, str]]:
    return [(ident, ruleset_name(get_ruleset(ident))) for ident in base_ids()]


@never_cache
@require_http_methods(["GET", "POST"])
@limited("share")
def new_view(request: HttpRequest) -> HttpResponse:
    """Players, ruleset, set: one form. A new game goes straight to its edit link."""
    typed = {"players": request.POST.get("players", ""), "ruleset": request.POST.get("ruleset", "howto"),
             "other": request.POST.get("other", "").strip(), "set": request.POST.get("set", "")}
    context: dict[str, Any] = {"typed": typed, "rulesets": _rulesets(), "sets": STANDARD_SETS}
    if request.method == "GET":
        return render(request, "game/new.html", context)
    names = [n for n in NAMES_SPLIT.split(typed["players"].strip()) if n]
    ident = typed["other"] or typed["ruleset"]
    try:
        set_max = ascii_int(typed["set"]) if typed["set"] else None
        if typed["set"] and set_max is None:
            raise ValueError(typed["set"])
        game, token = store.create(ident, names, set_max, before_insert=lambda text: charge_storage(request, text))
    except OverLimit:
        raise  # a rate, the address's quota or the site's cap: answered by @limited
    except (InputError, RulesetError) as exc:
        context["error"] = _worded(exc)
        return render(request, "game/new.html", context, status=400)
    except ValueError:
        context["error"] = _("Choose a set from the list.")
        return render(request, "game/new.html", context, status=400)
    return HttpResponseRedirect(reverse("game:edit", args=[game.id]) + "#" + token, status=303)


# -- the sheet ---------------------------------------------------------------------------------


@dataclass
class Cell:
    player: str
    points: int | None
    running: int | None
    sum: SafeString | str = ""
    out: bool = False


@dataclass
class Row:
    number: int
    engine: str
    cells: list[Cell]
    blocked: bool
    corrected: int
    dispute: str
    seq: int


@dataclass
class Form:
    """What was typed in the round form, kept when it is refused."""

    round: int
    out: str = ""
    points: list[str] = field(default_factory=list)
    tiles: list[set[str]] = field(default_factory=list)


def _engine(r: SheetRound) -> str:
    return str(r.engine) if r.engine is not None else _("highest double held")


def dispute_text(sheet: Sheet, r: SheetRound) -> str:
    """The table of a round as the position format writes it: the players, the ruleset, the set,
    the round and its engine (where the ruleset takes the highest double held, the set's highest:
    change it in Build mode), nothing laid yet, the first seat to move."""
    engine = r.engine.high if r.engine is not None else sheet.set_max
    n = len(sheet.players)
    position = Position(players=sheet.players, engine=engine, trains=(TrainLine(),) * n, mexican=TrainLine(),
                        turn=sheet.players[0], variant=sheet.ruleset.id, set_max=sheet.set_max, round=r.number)
    return GAME_COMMENT.format(path=reverse("game:sheet", args=[sheet.id])) + "\n" + position.format()


def dispute_url(sheet: Sheet, r: SheetRound) -> str:
    """The referee with the round's table written in, in Build mode."""
    return reverse("referee:adjudicate") + "?" + urlencode({"position": dispute_text(sheet, r)}) + "#build"


def _cells(sheet: Sheet, r: SheetRound) -> list[Cell]:
    if r.count is None:
        return [Cell(p, None, None) for p in sheet.players]
    by = {h.player: h for h in r.count.hands}
    running = r.running or {}
    return [_cell(by[p], running.get(p)) for p in sheet.players]


def _cell(h: HandCount, running: int | None) -> Cell:
    return Cell(h.player, h.points, running, sum_html(h) if h.tiles else "", h.out)


def sum_html(hand: HandCount) -> SafeString:
    """:func:`~.present.hand_sum` for a page: each tile kept whole and left to right (a tile read
    inside a right-to-left sentence must not turn 2-1 into 1-2, nor break at its hyphen)."""
    assert hand.tiles is not None
    counts = conditional_escape(_("%(tile)s counts %(points)s"))
    parts = [counts % {"tile": format_html('<bdi class="game-tile-name" dir="ltr">{}</bdi>', t), "points": p}
             for t, p in hand.tiles]
    return mark_safe(" + ".join(parts) + f" = {hand.points}")  # noqa: S308  (escaped above)


def sheet_context(request: HttpRequest, sheet: Sheet) -> dict[str, Any]:
    rows = [Row(r.number, _engine(r), _cells(sheet, r), bool(r.count and r.count.blocked), r.corrected,
                dispute_url(sheet, r), r.seq) for r in sheet.rounds]
    result = sheet.result
    citations: tuple[CitationView, ...] = ()
    rule = ""
    if result is not None and result.decided_by != "lowest-total":
        citations = citation_views(sheet.ruleset, sheet.ruleset.citations(TIE_RULE))
        if result.decided_by != "tie":
            rule = _(next(t for t in TieBreak if t.value == result.decided_by).sentence)
    return {"sheet": sheet, "rows": rows, "history": _history(sheet), "ruleset_name": ruleset_name(sheet.ruleset),
            "totals": [sheet.totals[p] for p in sheet.players], "leaders": ", ".join(sheet.leaders),
            "winners": ", ".join(result.winners) if result else "", "tie": bool(result and len(result.winners) > 1),
            "decided_by": result.decided_by if result else "", "tie_rule": rule, "citations": citations,
            "first_player": _(sheet.ruleset.flags.start_first_player.sentence),
            "view_url": request.build_absolute_uri(reverse("game:sheet", args=[sheet.id])),
            "events_url": reverse("game:events", args=[sheet.id]),
            "csv_url": reverse("game:csv", args=[sheet.id]),
            "chart_url": reverse("game:chart", args=[sheet.id]) + "?" + urlencode(
                {"v": sheet.version, **({"dir": "rtl"} if get_language_bidi() else {})})}


@dataclass
class Written:
    seq: int
    kind: str
    at: str
    round: int
    scores: str


def _history(sheet: Sheet) -> list[Written]:
    """Every write, newest first: a correction shows what it put on the sheet (the log keeps both)."""
    out = []
    for event in sheet.history:
        if event.kind == "finished":
            out.append(Written(event.seq, event.kind, event.at, 0, ""))
            continue
        entry = Entry.of(event.data)
        try:
            scores = count_round(sheet.ruleset, sheet.set_max, sheet.players, entry.hands, entry.out, entry.blocked).scores
        except InputError:
            continue
        out.append(Written(event.seq, event.kind, event.at, entry.round,
                           ", ".join(f"{p} {scores[p]}" for p in sheet.players)))
    return out[::-1]


def _game(game_id: str) -> Game:
    try:
        return store.get(game_id)
    except store.NoGame:
        raise Http404(game_id) from None


def _sheet_page(request: HttpRequest, game: Game, editable: bool, status: int = 200,
                **extra: Any) -> HttpResponse:
    sheet = extra.pop("sheet", None) or store.sheet(game)
    context = {**sheet_context(request, sheet), "editable": editable, **extra}
    if editable:
        context.setdefault("form", _empty_form(sheet))
        context["tiles"] = [str(t) for t in full_set(sheet.set_max)]
        context["player_rows"] = _player_rows(sheet, context["form"])
        context["round_choices"] = [(r.number, _engine(r), r.count is not None) for r in sheet.rounds]
    if request.headers.get("HX-Request") and request.method == "GET":
        return render(request, "game/sheet.html#sheet", context, status=status)
    return render(request, "game/sheet.html", context, status=status)


def _empty_form(sheet: Sheet) -> Form:
    following = sheet.next_round or sheet.rounds[-1]
    return Form(following.number, "", [""] * len(sheet.players), [set() for _p in sheet.players])


def _player_rows(sheet: Sheet, form: Form) -> list[dict[str, Any]]:
    return [{"index": i, "name": name, "points": form.points[i] if i < len(form.points) else "",
             "tiles": form.tiles[i] if i < len(form.tiles) else set()} for i, name in enumerate(sheet.players)]


@vary_on_headers("HX-Request")
@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def sheet_view(request: HttpRequest, game_id: str) -> HttpResponse:
    """The read-only sheet; a POST here is refused with a sentence (the view link cannot edit)."""
    game = _game(game_id)
    if request.method == "POST":
        return _sheet_page(request, game, False, 403, refused=_(
            "This is the view link: it shows the sheet but cannot change it. Rounds are entered through the edit link."))
    return _sheet_page(request, game, False)


def _read_form(request: HttpRequest, sheet: Sheet) -> tuple[Form, Entry]:
    number = ascii_int(request.POST.get("round", "")) or 0
    out = request.POST.get("out", "")
    form = Form(number, out, [request.POST.get(f"points-{i}", "").strip() for i in range(len(sheet.players))],
                [set(request.POST.getlist(f"tiles-{i}")) for i in range(len(sheet.players))])
    if number not in {r.number for r in sheet.rounds}:
        raise _FormError(form, _("Choose the round from the list."))
    if not out:
        raise _FormError(form, _("Mark who went out, or that the round was blocked."))
    hands: dict[str, tuple[Tile, ...] | int] = {}
    for i, name in enumerate(sheet.players):
        if name == out:
            continue
        if form.tiles[i]:
            try:
                hands[name] = tuple(Tile.parse(t) for t in sorted(form.tiles[i], key=_tile_order))
            except ValueError as exc:
                raise _FormError(form, word(exc.args[0], _)) from None
        elif form.points[i]:
            points = ascii_int(form.points[i], signed=True, max_digits=6)
            if points is None:
                raise _FormError(form, _("%(player)s: expected the points as a whole number, found “%(found)s”.")
                                 % {"player": name, "found": form.points[i]})
            hands[name] = points
    return form, Entry(number, None if out == BLOCKED else out, out == BLOCKED, hands)


def _tile_order(text: str) -> tuple[int, int]:
    tile = Tile.parse(text)
    return (tile.high, tile.low)


class _FormError(Exception):
    def __init__(self, form: Form, message: str) -> None:
        super().__init__(message)
        self.form = form
        self.message = message


@vary_on_headers("HX-Request")
@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
@limited("share")
def edit_view(request: HttpRequest, game_id: str) -> HttpResponse:
    """The sheet with round entry. POST ``action``: ``count`` (the engine counts, nothing stored),
    ``save`` (the round, based on ``version``) or ``finish`` (end the game now)."""
    game = _game(game_id)
    if request.method != "POST":
        return _sheet_page(request, game, True)
    token = request.POST.get("token", "")
    if not store.may_edit(game, token):
        return _sheet_page(request, game, False, 403, refused=_(
            "This link cannot change the sheet: rounds are entered through the edit link, which holds the game's "
            "secret. Open the edit link you were given."))
    sheet = store.sheet(game)
    action = request.POST.get("action", "save")
    version = ascii_int(request.POST.get("version", ""))
    if version is None:
        version = -1
    if action == "finish":
        try:
            new = store.append(game, token, version, None)
        except store.Stale as exc:
            return _sheet_page(request, game, True, 409, sheet=exc.sheet, token=token,
                               error=_("The sheet changed on another phone: look at it again before ending the game."))
        except InputError as exc:
            return _sheet_page(request, game, True, 400, token=token, error=exc.worded(_))
        return _sheet_page(request, game, True, sheet=new, token=token)
    try:
        form, entry = _read_form(request, sheet)
        if action == "count":
            counted = count_round(sheet.ruleset, sheet.set_max, sheet.players, entry.hands, entry.out, entry.blocked)
            return _sheet_page(request, game, True, sheet=sheet, token=token, form=form,
                               counted=[(h.player, hand_sum(h) if h.tiles is not None else str(h.points))
                                        for h in counted.hands])
        new = store.append(game, token, version, entry, lambda text: charge_storage(request, text))
    except OverLimit:
        raise  # answered by @limited
    except _FormError as exc:
        return _sheet_page(request, game, True, 400, sheet=sheet, token=token, form=exc.form, error=exc.message)
    except InputError as exc:
        return _sheet_page(request, game, True, 400, sheet=sheet, token=token, form=form, error=exc.worded(_))
    except store.Stale as exc:
        theirs = exc.sheet.round(entry.round)
        return _sheet_page(request, game, True, 409, sheet=exc.sheet, token=token, form=form,
                           stale=_stale(exc.sheet, theirs, entry, sheet))
    return _sheet_page(request, game, True, sheet=new, token=token,
                       saved=_("Round %(n)s is on the sheet.") % {"n": entry.round})


def _stale(now: Sheet, theirs: SheetRound | None, mine: Entry, before: Sheet) -> dict[str, Any]:
    """Both values of a round written from two phones: what the sheet has now, and what was typed."""
    try:
        yours = count_round(before.ruleset, before.set_max, before.players, mine.hands, mine.out, mine.blocked).scores
    except InputError:
        yours = {}
    return {"round": mine.round, "players": list(now.players),
            "theirs": [theirs.scores.get(p) if theirs and theirs.scores else None for p in now.players],
            "yours": [yours.get(p) for p in now.players]}


@require_http_methods(["GET", "HEAD"])
def chart_view(request: HttpRequest, game_id: str) -> HttpResponse:
    """The running totals as SVG; ``?v=<version>&dir=rtl`` as the page links it (kept a year: a
    version never changes)."""
    sheet = store.sheet(_game(game_id))
    response = HttpResponse(chart_svg(sheet, request.GET.get("dir") == "rtl"), content_type="image/svg+xml")
    current = request.GET.get("v") == str(sheet.version)
    response["Cache-Control"] = "public, max-age=31536000, immutable" if current else "no-cache"
    return response


@require_http_methods(["GET", "HEAD"])
def csv_view(request: HttpRequest, game_id: str) -> HttpResponse:
    sheet = store.sheet(_game(game_id))
    response = HttpResponse(sheet_csv(sheet), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="mextrain-{sheet.id}.csv"'
    response["Cache-Control"] = "no-cache"
    return response

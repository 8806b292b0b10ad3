"""Creating a game and appending to its log; reading its sheet. The only module that writes games.

The edit secret is 192 random bits, given once to the creator; only its SHA-256 is stored, and it
is compared in constant time. A write names the version it was based on: the event it inserts
takes the next number, which a concurrent write based on the same version cannot also take
(``game_event_once_per_version``), so exactly one of them lands and the other is told it is stale.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable, Sequence

from django.db import IntegrityError, OperationalError, transaction

from mextrain_site.core.rulesets import resolve
from mextrain_site.core.storing import NAME, refuse_control
from rules.errors import ErrorCode, InputError
from rules.game import check_table, count_round
from rules.messages import Message

from . import live
from .models import Game, GameEvent
from .sheet import Entry, Event, Sheet, compute

ID_PATTERN = r"[a-z2-7]{13}"


class Forbidden(Exception):
    """The edit secret is missing or wrong."""


class Stale(Exception):
    """The write was based on an older version than the sheet's."""

    def __init__(self, sheet: Sheet, based_on: int) -> None:
        super().__init__(f"based on version {based_on}, the sheet is at version {sheet.version}")
        self.sheet = sheet
        self.based_on = based_on


class NoGame(Exception):
    pass


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def create(ruleset_id: str, players: Sequence[str], set_max: int | None,
           before_insert: Callable[[str], None] | None = None) -> tuple[Game, str]:
    """A new game and its edit secret; InputError (the exact reason) for a table the ruleset refuses.
    ``before_insert(text)`` is called with what is stored (the storage quota; it may raise)."""
    ruleset = resolve(ruleset_id)
    for name in players:
        refuse_control(name, NAME)
    chosen = check_table(ruleset, list(players), set_max)
    token = secrets.token_urlsafe(24)
    game_id = base64.b32encode(secrets.token_bytes(8)).decode("ascii").rstrip("=").lower()
    if before_insert is not None:
        before_insert(json.dumps([ruleset.id, list(players)], ensure_ascii=False))
    game = Game(id=game_id, ruleset=ruleset.id, set_max=chosen, players=list(players), token_hash=_hash(token))
    game.save()
    return game, token


def get(game_id: str) -> Game:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise NoGame(game_id)
    return game


def may_edit(game: Game, token: str | None) -> bool:
    return bool(token) and hmac.compare_digest(_hash(token or ""), game.token_hash)


def sheet(game: Game) -> Sheet:
    events = [Event(e.seq, e.kind, e.data, e.created.isoformat(timespec="seconds"))
              for e in GameEvent.objects.filter(game=game).order_by("seq")]
    return compute(game.id, resolve(game.ruleset), game.set_max, game.players, events)


def append(game: Game, token: str | None, based_on: int, entry: Entry | None,
           before_insert: Callable[[str], None] | None = None, retries: int = 20) -> Sheet:
    """Append a round (``entry``) or the end of the game (None) to the log; the new sheet.
    Forbidden without the edit secret; Stale when the sheet moved past ``based_on`` (also when a
    concurrent write took the version first); InputError for a round the ruleset cannot count."""
    if not may_edit(game, token):
        raise Forbidden
    delay = 0.005
    for attempt in range(retries):
        try:
            return _append(game, based_on, entry, before_insert)
        except OperationalError as exc:  # SQLite: a concurrent writer holds the database
            if ("locked" not in str(exc) and "busy" not in str(exc)) or attempt == retries - 1:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.2)
    raise AssertionError("unreachable")


def _append(game: Game, based_on: int, entry: Entry | None, before_insert: Callable[[str], None] | None) -> Sheet:
    current = sheet(game)
    if based_on != current.version:
        raise Stale(current, based_on)
    if current.finished and entry is None:
        raise InputError(Message("the game is already finished"), code=ErrorCode.BAD_REQUEST)
    if entry is not None:
        row = current.round(entry.round)
        if row is None:
            raise InputError(Message("expected a round from 1 to {last}, found {found}",
                                     last=len(current.rounds), found=entry.round), code=ErrorCode.BAD_REQUEST)
        # Count it now: a round the ruleset cannot count is refused before it is stored.
        check = Entry.of(entry.as_data())
        count_round(current.ruleset, current.set_max, current.players, check.hands, check.out, check.blocked)
        kind = GameEvent.Kind.ROUND if row.count is None else GameEvent.Kind.CORRECTION
        data = entry.as_data()
    else:
        kind, data = GameEvent.Kind.FINISHED, {}
    if before_insert is not None:
        before_insert(json.dumps(data, ensure_ascii=False))
    try:
        with transaction.atomic():
            GameEvent(game=game, seq=based_on + 1, kind=kind, data=data).save()
    except IntegrityError:
        raise Stale(sheet(game), based_on) from None
    transaction.on_commit(lambda: live.publish(game.id, based_on + 1))  # every open page, on every server
    return sheet(game)

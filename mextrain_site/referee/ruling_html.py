"""The ruling panel of a judged position as HTML, written in Python rather than by the template engine.

The verdict with its per-ruleset answers, the other reasons, the table of candidate moves, the
moves illegal everywhere, the board layer and every quote are the same few shapes repeated
dozens of times; Django's template engine resolved every variable and tag of every row again
(some 2,000 nodes for the prefilled example, most of the page's time), and even the panel's frame
cost Judge a quarter of a millisecond. Here each shape is one f-string, every value is escaped
exactly as the template escaped it (:func:`html.escape`, what :func:`django.utils.html.escape`
does; values already marked safe are kept), and the words are the same catalogue entries
(``gettext``/``ngettext`` with the msgids the ``translate`` and ``blocktranslate`` tags had).
Judge (htmx) gets :func:`panel` alone; the whole page includes the same through the template's
``ruling`` partial (``templatetags/ruling_tags.py``), which keeps only the panels of bad input.

The fixed words and escaped texts depend only on immutable values and the reader's language, so
each is built once per process (bounded). A quote is written by the one renderer of citations the
rule reference uses too (:func:`mextrain_site.reference.citations.quote_html`, memoized alike).
Nothing here decides a rule.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from django.conf import settings
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.utils.safestring import SafeData, SafeString, mark_safe
from django.utils.translation import get_language, gettext, ngettext

from mextrain_site.reference.citations import quote_html
from rules.memo import Memo

from .present import _Links
from .view_models import Answer, Cell, Judged, ReasonView, Retry, Row

ESCAPED_LIMIT = 20_000
_ESCAPED: Memo[str, str] = Memo(ESCAPED_LIMIT)
"""Escaped texts by text: ruleset titles and ids, moves and sentences recur on every page."""


def esc(value: object) -> str:
    """What ``{{ value }}`` writes: the value escaped, unless it is already marked safe."""
    if value.__class__ is str:  # most values: a plain text written before
        known = _ESCAPED.get(value)
        if known is not None:
            return known
    if isinstance(value, SafeData):
        return str(value)
    text = str(value)
    found = _ESCAPED.get(text)
    return found if found is not None else _ESCAPED.keep(text, html.escape(text))


_TILE = re.compile(r"(?<![\w.-])\d{1,2}-\d{1,2}(?![\w-])|-&gt;")
_KEPT_WHOLE: Memo[str, str] = Memo(ESCAPED_LIMIT)


def whole(text: object) -> str:
    """``text`` escaped, each tile (``9-2``) and arrow (``->``) in a span that never breaks (``.tile-nw``):
    a narrow phone wrapped "(9-2 -> Ann)" after its hyphen. The text itself is unchanged (a player
    copies it back with its ASCII hyphen)."""
    escaped = esc(text)
    found = _KEPT_WHOLE.get(escaped)
    if found is None:
        found = _KEPT_WHOLE.keep(escaped, _TILE.sub(lambda m: f'<span class="tile-nw">{m.group(0)}</span>', escaped))
    return found


@dataclass(frozen=True)
class _Words:
    """The fixed words of these fragments in one language, unescaped as ``{% translate %}`` writes them.
    Looked up once per panel and handed down (the active language is a context variable, and
    each look-up of it costs a microsecond)."""

    language: str
    legal: str
    illegal: str
    disagree: str
    not_candidate: str
    badge_legal: str
    badge_illegal: str
    silent: str
    ambiguous: str
    disagree_verdict: str
    move_in_dispute: str
    line: str
    legal_under: str
    illegal_under: str
    why: str
    candidates_of: str
    candidates: str
    move: str
    none_legal: str
    closed_label: str
    under: str
    before_stop: str
    open_only: str
    board: str
    hand_counts: str
    the_ruling: str
    stopped: str
    is_illegal: str
    under_lower: str
    what_follows: str
    impossible: str
    round_over: str
    each_counts: str
    share: str
    link: str
    copied: str
    copy: str
    link_hint: str
    went_out: str
    judge_again: str
    """'Add %(line)s and judge again': the offer of a larger set, the line to fill in."""


_WORDS: dict[str, _Words] = {}
MEMO_LIMIT = 4096


def _words() -> _Words:
    language = get_language() or "en"
    found = _WORDS.get(language)
    if found is None:
        found = _WORDS[language] = _Words(
            language=language,
            legal=gettext("legal"),
            illegal=gettext("illegal"),
            disagree=gettext("rulesets disagree"),
            not_candidate=gettext("not a candidate under this ruleset"),
            badge_legal=gettext("Legal"),
            badge_illegal=gettext("Illegal"),
            silent=gettext("The source says nothing on this; the ruleset assumes:"),
            ambiguous=gettext("The source can be read two ways; the reading chosen:"),
            disagree_verdict=gettext("The rulesets disagree"),
            move_in_dispute=gettext("The move in dispute"),
            line=gettext("line %(line)s"),
            legal_under=gettext("Legal under %(ids)s."),
            illegal_under=gettext("Illegal under %(ids)s."),
            why=gettext("Why: the other reasons"),
            candidates_of=gettext("Every candidate move for <bdi>%(player)s</bdi>"),
            candidates=gettext("Every candidate move for the player to move"),
            move=gettext("Move"),
            none_legal=gettext("No candidate move is legal under any ruleset judged."),
            closed_label=gettext("Moves illegal under every ruleset"),
            under=gettext("Under %(ids)s"),
            before_stop=gettext("before the move on line %(line)s (<code>%(move)s</code>), where the replay stopped"),
            open_only=gettext("The double ending %(train)s is open only under %(ids)s."),
            board=gettext("The board"),
            hand_counts=gettext("What each hand counts"),
            the_ruling=gettext("The ruling"),
            stopped=gettext("The replay stopped at line %(line)s"),
            is_illegal=gettext("is illegal"),
            under_lower=gettext("under %(ids)s"),
            what_follows=gettext("what follows judges the position before that move."),
            impossible=gettext("This position cannot arise under %(title)s: %(message)s"),
            round_over=gettext("The round is over: each player's points"),
            each_counts=gettext("Each hand counts the pips on its tiles; the double-blank (0-0) counts %(n)s."),
            share=gettext("Share this ruling"),
            link=gettext("Link to this ruling:"),
            copied=gettext("Copied"),
            copy=gettext("Copy"),
            link_hint=gettext("The link stores this text and these rulesets, not the verdict: they are judged by the "
                              "current version of the site when the link is first opened in a language, and that "
                              "ruling is shown until the site is updated."),
            went_out=gettext("went out"),
            judge_again=gettext("Add %(line)s and judge again"),
        )
    return found


def rule_words(r: ReasonView, words: _Words) -> str:
    """Under a reason: the deciding rule quoted, or the reading a ruleset assumes where its
    source is silent or ambiguous."""
    if r.quote is not None:
        return quote_html(r.quote)
    if r.assumed:
        lead = words.silent if r.silent else words.ambiguous
        return f'<p class="assumed">{lead} <span lang="{esc(r.assumed_lang)}">{esc(r.assumed)}</span></p>'
    return ""


_VIEWS_HTML: Memo[int, tuple[ReasonView, str, str]] = Memo(MEMO_LIMIT)
"""A reason's HTML by the identity of its view: the rule under it, and its item under 'Why'. Views
are made once per language, ruleset and process (:data:`.present._VIEWS`), so this is too; each
entry keeps its view, so no other view can take its id while it stands."""


def _view_html(r: ReasonView, words: _Words) -> tuple[ReasonView, str, str]:
    """(the view, the rule under it, its item under 'Why')."""
    found = _VIEWS_HTML.get(id(r))
    if found is None:
        under = rule_words(r, words)
        kind, sign = ("forbids", "✗") if r.blocks else ("allows", "✓")
        item = (f'<li class="reason {kind}"><p class="reason-text"><span class="reason-sign" '
                f'aria-hidden="true">{sign}</span> {esc(r.text)}</p>{under}</li>')
        found = _VIEWS_HTML.keep(id(r), (r, under, item))
    return found


def answers(items: Sequence[Answer], words: _Words) -> SafeString:
    """Per ruleset, the verdict on the disputed move in one line, the deciding rule quoted."""
    out = []
    for a in items:
        r = a.headline
        col = a.column
        reason = f' data-reason="{esc(r.code)}"' if r else ""
        text = f': <span class="answer-text">{esc(r.text)}</span>' if r else ""
        out.append(
            f'\n        <li class="answer {"legal" if a.legal else "illegal"}" data-ruleset="{esc(col.id)}"{reason}>\n'
            f'          <p class="answer-line"><span class="badge">'
            f'{words.badge_legal if a.legal else words.badge_illegal}</span>\n'
            f'            <a class="answer-title" href="{esc(col.url)}"><bdi>{esc(col.title)}</bdi></a>{text}</p>\n'
            f'          {_view_html(r, words)[1] if r else ""}\n        </li>\n        ')
    return mark_safe("".join(out))


def other_reasons(items: Sequence[Answer], words: _Words) -> SafeString:
    """Under 'Why': per ruleset, the reasons besides the deciding one, each with its rule."""
    out = []
    for a in items:
        if not a.others:
            continue
        lis = [_view_html(r, words)[2] for r in a.others]
        out.append(f'\n      <h3 class="why-title"><bdi>{esc(a.column.title)}</bdi></h3>\n'
                   f'      <ul class="why-reasons">\n        {"".join(lis)}\n      </ul>\n      ')
    return mark_safe("".join(out))


def rows(items: Iterable[Row], words: _Words) -> SafeString:
    """The table's rows: a move, then per ruleset its verdict and the reason that decides it."""
    out = []
    cells: dict[Cell, str] = {}
    for row in items:
        badge = f' <span class="disagree-badge">{words.disagree}</span>' if row.disagree else ""
        tds = []
        for cell in row.cells:
            td = cells.get(cell)
            if td is None:
                ident, present, legal, headline = cell
                if not present:
                    td = (f'<td class="cell na" data-ruleset="{esc(ident)}"><span class="na-mark" '
                          f'title="{words.not_candidate}">—</span></td>')
                elif legal:
                    td = (f'<td class="cell legal" data-ruleset="{esc(ident)}"><span class="cell-verdict">✓ '
                          f'{words.legal}</span> <span class="cell-headline">{whole(headline)}</span></td>')
                else:
                    td = (f'<td class="cell illegal" data-ruleset="{esc(ident)}"><span class="cell-verdict">✗ '
                          f'{words.illegal}</span> <span class="cell-headline">{whole(headline)}</span></td>')
                cells[cell] = td
            tds.append(td)
        marked = ' class="disagree"' if row.disagree else ""
        out.append(f'\n<tr{marked}><th scope="row"><code class="move" dir="ltr">'
                   f'{esc(row.move)}</code>{badge}</th>{"".join(tds)}</tr>')
    out.append("\n")
    return mark_safe("".join(out))


def closed_rows(items: Iterable[Row], titles: Mapping[str, str]) -> SafeString:
    """The moves illegal under every ruleset, each with the sentences that forbid it (each once).
    Where the rulesets forbid it in different words, each sentence names the rulesets that give
    it: two sentences side by side, unattributed, read as a contradiction."""
    out = []
    for row in items:
        said: dict[str, list[str]] = {}
        for cell in row.cells:
            if cell.headline:
                said.setdefault(cell.headline, []).append(titles.get(cell.ruleset, cell.ruleset))
        if len(said) > 1:
            by = "".join(f'<li><span class="closed-by">{", ".join(f"<bdi>{esc(n)}</bdi>" for n in names)}:</span> '
                         f'{whole(s)}</li>'
                         for s, names in said.items())
            body = f'<ul class="closed-by-ruleset">{by}</ul>'
        else:
            body = " ".join(whole(s) for s in said)
        out.append(f'<li><code class="move" dir="ltr">{esc(row.move)}</code>: {body}</li>\n          ')
    return mark_safe("".join(out))


def _join(items: Iterable[object], sep: str = ", ") -> str:
    """What ``{{ items|join:", " }}`` writes: each item escaped (unless safe)."""
    return sep.join(esc(i) for i in items)


def verdict(judged: Judged, words: _Words) -> SafeString:
    """The disputed move, the verdict, and per ruleset the answer (the first thing a player reads)."""
    check = judged.check
    if check is None:
        return mark_safe("")
    shown = check.verdict
    word = words.badge_legal if shown == "legal" else words.badge_illegal if shown == "illegal" else \
        words.disagree_verdict
    move = esc(check.move)
    line = (f' <span class="hint">({words.line % {"line": check.line}})</span>'
            if check.line else "")
    scope = ""
    n = len(check.answers)
    if shown == "split":
        scope = (f'\n      <p class="verdict-scope">{words.legal_under % {"ids": check.legal_titles}} '
                 f'{words.illegal_under % {"ids": check.illegal_titles}}</p>\n      ')
    elif check.apart:
        under = ngettext("Under the one ruleset that allows %(players)s players.",
                         "Under the %(n)s rulesets that allow %(players)s players.", n) % {"n": n, "players": check.players}
        scope = f'\n      <p class="verdict-scope">{under}</p>\n      '
    elif judged.multiple:
        under = ngettext("Under the one ruleset judged.", "Under all %(n)s rulesets judged.", n) % {"n": n}
        scope = f'\n      <p class="verdict-scope">{under}</p>\n      '
    apart_answers = (f'<ul class="answers answers-apart">{answers(check.apart, words)}</ul>'
                     if check.apart else "")
    return mark_safe(
        f'\n    <div class="verdict verdict-{shown}" id="verdict"\n'
        f'         data-announce="{move}: {word}">\n'
        f'      <p class="verdict-move">{words.move_in_dispute}{line}: <code class="move" dir="ltr">{move}</code></p>\n'
        f'      <h2 id="ruling-heading" class="verdict-big" tabindex="-1">{word}</h2>\n'
        f'      {scope}{apart(judged)}\n'
        f'      <ul class="answers">\n        {answers(check.answers, words)}\n      </ul>\n'
        f'      {apart_answers}\n    </div>\n    ')


def apart(judged: Judged) -> str:
    """Under the verdict's count: each ruleset set apart from it, by its name, and why ("Cardinal
    Games is for 4 to 10 players; this position has 3."). Its answer follows the counted ones."""
    columns = judged.apart
    if not columns:
        return ""
    why = "".join(f'<p class="apart-why" data-ruleset="{esc(c.id)}">{esc(c.apart)}</p>' for c in columns)
    return f'<div class="apart">{why}</div>'


def why(judged: Judged, words: _Words) -> SafeString:
    """Layer two: the other reasons, collapsed."""
    check = judged.check
    if check is None or not check.has_others:
        return mark_safe("")
    return mark_safe(
        f'\n    <details class="layer why">\n'
        f'      <summary><h2 class="layer-heading">{words.why}</h2></summary>\n'
        f'      {other_reasons(check.answers + check.apart, words)}\n    </details>\n    ')


def actions(judged: Judged, words: _Words) -> SafeString:
    """Layer three: every candidate move, the table of those legal somewhere, the rest listed."""
    if not judged.rows:
        return mark_safe("")
    to_move = judged.to_move
    if len(to_move) == 1:
        heading = words.candidates_of % {"player": esc(to_move[0])}
    else:
        heading = words.candidates
    n = len(judged.rows)
    count = ngettext("%(n)s candidate move.", "%(n)s candidate moves.", n) % {"n": n}
    d = judged.disagreements
    disagree = (ngettext("The rulesets disagree on %(n)s of them (marked).",
                         "The rulesets disagree on %(n)s of them (marked).", d) % {"n": d}) if d else ""
    if judged.open_rows:
        heads = "".join(
            f'<th scope="col" data-ruleset="{esc(col.id)}">'
            + (f'<a href="{esc(col.url)}">{esc(col.title)}</a>' if col.url else esc(col.title)) + "</th>"
            for col in judged.ruled)
        table = (f'\n      <div class="table-scroll" role="region" aria-labelledby="actions-heading" tabindex="0">\n'
                 f'        <table class="actions-table">\n<thead><tr>\n'
                 f'  <th scope="col">{words.move}</th>\n  {heads}\n</tr></thead>\n\n'
                 f'          <tbody>{rows(judged.open_rows, words)}</tbody>\n        </table>\n      </div>\n      ')
    else:
        table = f'\n      <p>{words.none_legal}</p>\n      '
    closed = ""
    if judged.closed_rows:
        c = len(judged.closed_rows)
        summary = ngettext("%(n)s move illegal under every ruleset", "%(n)s moves illegal under every ruleset",
                           c) % {"n": c}
        closed = (f'\n      <details class="closed-rows">\n        <summary>{summary}</summary>\n'
                  f'        <ul class="closed-list" aria-label="{words.closed_label}">\n'
                  f'          {closed_rows(judged.closed_rows, {col.id: col.title for col in judged.ruled})}\n        </ul>\n      </details>\n      ')
    return mark_safe(
        f'\n    <details class="layer actions"{"" if judged.check else " open"}>\n'
        f'      <summary><h2 class="layer-heading" id="actions-heading">{heading}</h2></summary>\n'
        f'      <p class="hint">{count}\n        {disagree}</p>\n'
        f'      {table}\n      {closed}\n    </details>\n    ')


def boards(judged: Judged, words: _Words) -> SafeString:
    """Layer three: the board, once per group of rulesets that see it alike."""
    several = len(judged.boards) > 1
    figures = []
    for b in judged.boards:
        caption = ""
        if several or b.stop:
            under = words.under % {"ids": _join(b.titles)} if several else ""
            stop = ""
            if b.stop:
                stop = (" — " if several else "") + words.before_stop % {
                    "line": b.stop.line, "move": esc(b.stop.move)}
            caption = f"\n        <figcaption>{under}{stop}</figcaption>\n        "
        partial = "".join(
            f'\n        <p class="hint">† '
            f'{words.open_only % {"train": esc(train), "ids": _join(ids)}}'
            f'</p>\n        ' for train, ids in b.partial_open)
        figures.append(f'\n      <figure class="board">\n        {caption}\n        <div class="board-box">{b.svg}</div>\n'
                       f'        {partial}\n      </figure>\n      ')
    notes = "".join(f'<p class="note">{esc(n)}</p>' for n in judged.notes)
    return mark_safe(
        f'<details class="layer boards">\n'
        f'      <summary><h2 class="layer-heading" id="board-heading">{words.board}</h2></summary>\n'
        f'      {"".join(figures)}\n      {notes}\n    </details>')


def _stops(judged: Judged, words: _Words) -> str:
    out = []
    for stop in judged.stops:
        under = f" {words.under_lower % {'ids': _join(stop.titles)}}" if judged.multiple else ""
        applied = ngettext("%(n)s move before it was applied;", "%(n)s moves before it were applied;",
                           stop.applied) % {"n": stop.applied}
        sentences = "".join(f'<li><span class="reason-sign" aria-hidden="true">✗</span> {esc(s)}</li>'
                            for s in stop.sentences)
        out.append(f'\n    <div class="replay-stop">\n      <h3>{words.stopped % {"line": stop.line}}</h3>\n'
                   f'      <p><code class="move" dir="ltr">{esc(stop.move)}</code> {words.is_illegal}{under}.\n'
                   f'        {applied}\n        {words.what_follows}</p>\n'
                   f'      <ul class="stop-reasons">{sentences}</ul>\n    </div>\n    ')
    return "".join(out)


def _scores(judged: Judged, words: _Words) -> str:
    out = []
    for n, s in enumerate(judged.scores, start=1):
        under = f'<p class="hint">{words.under % {"ids": _join(s.titles)}}</p>' if judged.multiple else ""
        hands = "".join(f'<div class="score-row{" score-unknown" if h.total is None else ""}"><dt><bdi>{esc(h.player)}</bdi>'
                        + (f' <span class="went-out">({words.went_out})</span>' if h.went_out else "")
                        + f'</dt><dd><span class="score-sum">{esc(h.sum)}</span></dd></div>' for h in s.hands)
        out.append(f'\n    <section class="scores" aria-labelledby="scores-{n}">\n'
                   f'      <h3 id="scores-{n}">{words.round_over if s.round_over else words.hand_counts}</h3>\n'
                   f'      {under}\n      <dl class="score-list">\n        {hands}\n      </dl>\n'
                   f'      <p class="score-rule">{words.each_counts % {"n": s.blank}}</p>\n'
                   f'      {quote_html(s.quote) if s.quote else ""}\n    </section>\n    ')
    return "".join(out)


def share_link(share_url: str, words: _Words | None = None) -> SafeString:
    """The template's ``share`` partial: the short link, a copy button, what the link keeps. The
    link is an address: left to right on a Hebrew page too (``<bdi dir="ltr">``), else its final
    slash goes to the far end ("/https://…/r/xxxx")."""
    words = words or _words()
    url = esc(share_url)
    return mark_safe(
        f'\n<div class="share-link" id="share-link">\n'
        f'  <p><strong>{words.link}</strong> <bdi dir="ltr"><a href="{url}" class="share-url">{url}</a></bdi>\n'
        f'    <button type="button" class="copy-link secondary" data-copy="{url}" data-done="{words.copied}" hidden>'
        f'{words.copy}</button></p>\n  <p class="hint">{words.link_hint}</p>\n</div>\n')


def retry_form(retry: Retry, variants: Sequence[str], csrf_token: str, words: _Words | None = None) -> SafeString:
    """One tap to judge the text again with the ``set:`` line added (the text as typed kept): a form
    that posts the whole page (the new text then stands in the textarea); with script, the page's
    helper puts the text in the textarea and judges it (``static/referee/adjudicate.js``).
    ``csrf_token``: "" in a panel fetched by Judge, which has script."""
    words = words or _words()
    action = esc(_Links(get_language() or "")("referee:adjudicate") + "#ruling")
    token = f'<input type="hidden" name="csrfmiddlewaretoken" value="{esc(csrf_token)}">' if csrf_token else ""
    hidden = "".join(f'<input type="hidden" name="variant" value="{esc(v)}">' for v in variants)
    line = f'<code dir="ltr">{esc(retry.line)}</code>'
    return mark_safe(
        f'\n    <form class="retry-set" method="post" action="{action}" data-set-line="{esc(retry.line)}">{token}\n'
        f'      <textarea name="position" hidden aria-hidden="true" tabindex="-1">\n{html.escape(retry.text)}</textarea>'
        f'{hidden}\n      <button type="submit">{words.judge_again % {"line": line}}</button>\n    </form>\n    ')


PAGE_TOKEN = "#adjudicate-form [name=csrfmiddlewaretoken]"
"""The page's own CSRF token, which the share form of a panel fetched by Judge posts with."""


def section(judged: Judged, text: str, variants: Sequence[str], share_action: str, csrf_token: str,
            share_url: str = "") -> SafeString:
    """The whole ruling panel of a judged position (the template's ``ruling`` partial when it has
    a ruling): the verdict, the stops of the replay, the scores, the share form or link, and the
    three layers. ``csrf_token``: the share form's token (and the offer's to judge again with a
    larger set); empty: it posts with the page's own (:data:`PAGE_TOKEN`, which htmx includes), as
    a panel fetched by Judge does."""
    words = _words()
    if judged.check is not None:
        head: str = verdict(judged, words)
    else:
        title = words.hand_counts if judged.scores and not judged.rows else words.the_ruling
        head = f'\n    <h2 id="ruling-heading" tabindex="-1">{title}</h2>\n    {apart(judged)}\n    '
    impossible = "".join(
        f'\n    <p class="impossible">{words.impossible % {"title": esc(c.title), "message": esc(c.error)}}</p>\n    '
        for c in judged.impossible)
    if judged.retry is not None:
        impossible += retry_form(judged.retry, variants, csrf_token, words)
    if share_url:
        share = f"\n      {share_link(share_url, words)}\n      "
    else:
        token = f'<input type="hidden" name="csrfmiddlewaretoken" value="{esc(csrf_token)}">' if csrf_token else ""
        page_token = "" if csrf_token else f' hx-include="{PAGE_TOKEN}"'
        hidden = "".join(f'<input type="hidden" name="variant" value="{esc(v)}">' for v in variants)
        action = esc(share_action)
        share = (f'\n      <form class="share-form" method="post" action="{action}" enctype="multipart/form-data"\n'
                 f'            data-urlencoded-up-to="{settings.DATA_UPLOAD_MAX_MEMORY_SIZE}" hx-post="{action}" '
                 f'hx-target="#share-slot" hx-swap="innerHTML" hx-disabled-elt="find button"{page_token}>\n'
                 f'        {token}\n'
                 f'        <textarea name="position" hidden aria-hidden="true" tabindex="-1">\n'
                 f'{html.escape(text)}</textarea>\n        {hidden}\n'
                 f'        <button type="submit" class="secondary">{words.share}</button>\n      </form>\n'
                 f'      <div id="share-slot" aria-live="polite"></div>\n      ')
    return mark_safe(
        f'\n  <section id="ruling" class="ruling" tabindex="-1" aria-labelledby="ruling-heading"\n'
        f'           data-error-line="" data-error-column=""\n           data-error-in-text="">\n  \n'
        f'    {head}\n\n    {_stops(judged, words)}\n\n    {impossible}\n\n    {_scores(judged, words)}\n\n'
        f'    <div class="ruling-actions">\n      {share}\n    </div>\n\n    {why(judged, words)}\n\n    {actions(judged, words)}\n\n'
        f'    {boards(judged, words)}\n  \n  </section>\n')


class _Lookup(Protocol):
    def get(self, key: str, default: Any = None, /) -> Any: ...


def panel(request: HttpRequest | None, context: _Lookup, judged: Judged, *, alone: bool = False) -> SafeString:
    """:func:`section` with what the template's context holds: the text and rulesets posted, the
    share link of a shared ruling, and the CSRF token (``{% csrf_token %}``'s, or the context's own)
    for the share form and the offer to judge again with a larger set.

    ``alone``: the panel Judge fetches into the page, whose form holds a token already: its share
    form posts with that one (htmx includes it), so no token is minted, masked and set again in
    the cookie for every Judge. The whole page, which may be read without script, has its own."""
    share_url = context.get("share_url") or ""
    token = ""
    if not alone and (not share_url or judged.retry is not None):  # the share form's, or the offer to judge again's
        given = context.get("csrf_token")
        token = str(given) if given else get_token(request) if request is not None else ""
        if token == "NOTPROVIDED":
            token = ""
    action = _Links(get_language() or "")("referee:share")
    return section(judged, context.get("text") or "", context.get("variants") or (), action, token, share_url)

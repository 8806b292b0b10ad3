"""The ruling's repetitive parts as HTML, written in Python rather than by the template engine.

The table of candidate moves, the per-ruleset answers, the other reasons and the quotes are the
same few shapes repeated dozens of times; Django's template engine would resolve every variable
and tag of every row again (some 2,000 nodes for the prefilled example, most of the page's
time). Here each shape is one f-string, every value is escaped exactly as the template would
escape it (:func:`html.escape`, what :func:`django.utils.html.escape` does; values already marked
safe are kept), and the words come from the same catalogue entries. The template keeps the
page's structure and includes these through the filters of ``templatetags/ruling_tags.py``.

A quote's HTML depends only on the quote and the reader's language, so it is built once per
process (like the quote itself, see :class:`.present._Reasons`). Nothing here decides a rule.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.utils.safestring import SafeData, SafeString, mark_safe
from django.utils.translation import get_language, gettext

from .present import Answer, Quote, ReasonView, Row


def esc(value: object) -> str:
    """What ``{{ value }}`` writes: the value escaped, unless it is already marked safe."""
    if isinstance(value, SafeData):
        return str(value)
    return html.escape(str(value))


@dataclass(frozen=True)
class _Words:
    """The fixed words of these fragments in one language, written as `{% translate %}` writes them (unescaped)."""

    legal: str
    illegal: str
    disagree: str
    not_candidate: str
    badge_legal: str
    badge_illegal: str
    original: str
    """'The original (%(language)s)': a sentence with the language's name to fill in."""
    translators_note: str
    silent: str
    ambiguous: str


_WORDS: dict[str, _Words] = {}
_QUOTES: dict[tuple[str, Quote], str] = {}
"""Quotes' HTML by (language, quote): built once per process. Quotes come from the loaded
rulesets (and the few house rulesets in use), so the memo is bounded by :data:`MEMO_LIMIT`."""
MEMO_LIMIT = 4096


def _words() -> tuple[str, _Words]:
    language = get_language() or "en"
    found = _WORDS.get(language)
    if found is None:
        found = _WORDS[language] = _Words(
            legal=gettext("legal"),
            illegal=gettext("illegal"),
            disagree=gettext("rulesets disagree"),
            not_candidate=gettext("not a candidate under this ruleset"),
            badge_legal=gettext("Legal"),
            badge_illegal=gettext("Illegal"),
            original=gettext("The original (%(language)s)"),
            translators_note=gettext("Translator's note:"),
            silent=gettext("The source says nothing on this; the ruleset assumes:"),
            ambiguous=gettext("The source can be read two ways; the reading chosen:"),
        )
    return language, found


def quote(q: Quote) -> SafeString:
    """A rule's words in the reader's language, its source, and the original one tap away."""
    language, words = _words()
    key = (language, q)
    found = _QUOTES.get(key)
    if found is None:
        original = ""
        if not q.is_original:
            remark = (f'<p class="remark"><span class="aside-label">{words.translators_note}</span> '
                      f'{esc(q.remark)}</p>' if q.remark else "")
            original = (f'\n    <details class="original"><summary>'
                        f'{words.original % {"language": esc(q.original_language)}}</summary>\n'
                        f'      <blockquote lang="{esc(q.original_lang)}" dir="{esc(q.original_dir)}">'
                        f'{esc(q.original)}</blockquote>\n      {remark}</details>')
        found = (f'<figure class="quote">\n'
                 f'  <blockquote lang="{esc(q.lang)}" dir="{esc(q.dir)}">{esc(q.text)}</blockquote>\n'
                 f'  <figcaption>— <cite><a href="{esc(q.url)}"><bdi>{esc(q.source)}</bdi></a></cite>'
                 f'{original}</figcaption>\n</figure>')
        if len(_QUOTES) >= MEMO_LIMIT:
            _QUOTES.clear()
        _QUOTES[key] = found
    return mark_safe(found)


def rule_words(r: ReasonView) -> str:
    """Under a reason: the deciding rule quoted, or the reading a ruleset assumes where its
    source is silent or ambiguous."""
    if r.quote is not None:
        return quote(r.quote)
    if r.assumed:
        _, words = _words()
        lead = words.silent if r.silent else words.ambiguous
        return f'<p class="assumed">{lead} <span lang="{esc(r.assumed_lang)}">{esc(r.assumed)}</span></p>'
    return ""


def answers(items: Sequence[Answer]) -> SafeString:
    """Per ruleset, the verdict on the disputed move in one line, the deciding rule quoted."""
    _, words = _words()
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
            f'          {rule_words(r) if r else ""}\n        </li>\n        ')
    return mark_safe("".join(out))


def other_reasons(items: Sequence[Answer]) -> SafeString:
    """Under 'Why': per ruleset, the reasons besides the deciding one, each with its rule."""
    out = []
    done: dict[int, str] = {}
    for a in items:
        if not a.others:
            continue
        lis = []
        for r in a.others:
            li = done.get(id(r))
            if li is None:
                kind, sign = ("forbids", "✗") if r.blocks else ("allows", "✓")
                li = done[id(r)] = (f'<li class="reason {kind}"><p class="reason-text"><span class="reason-sign" '
                                    f'aria-hidden="true">{sign}</span> {esc(r.text)}</p>{rule_words(r)}</li>')
            lis.append(li)
        out.append(f'\n      <h3 class="why-title"><bdi>{esc(a.column.title)}</bdi></h3>\n'
                   f'      <ul class="why-reasons">\n        {"".join(lis)}\n      </ul>\n      ')
    return mark_safe("".join(out))


def rows(items: Iterable[Row]) -> SafeString:
    """The table's rows: a move, then per ruleset its verdict and the reason that decides it."""
    _, words = _words()
    out = []
    cells: dict[tuple[str, bool, bool, str], str] = {}
    for row in items:
        badge = f' <span class="disagree-badge">{words.disagree}</span>' if row.disagree else ""
        tds = []
        for cell in row.cells:
            ident = cell.column.id
            headline = cell.headline if cell.present else ""
            key = (ident, cell.present, cell.legal, headline)
            td = cells.get(key)
            if td is None:
                if not cell.present:
                    td = (f'<td class="cell na" data-ruleset="{esc(ident)}"><span class="na-mark" '
                          f'title="{words.not_candidate}">—</span></td>')
                elif cell.legal:
                    td = (f'<td class="cell legal" data-ruleset="{esc(ident)}"><span class="cell-verdict">✓ '
                          f'{words.legal}</span> <span class="cell-headline">{esc(headline)}</span></td>')
                else:
                    td = (f'<td class="cell illegal" data-ruleset="{esc(ident)}"><span class="cell-verdict">✗ '
                          f'{words.illegal}</span> <span class="cell-headline">{esc(headline)}</span></td>')
                cells[key] = td
            tds.append(td)
        marked = ' class="disagree"' if row.disagree else ""
        out.append(f'\n<tr{marked}><th scope="row"><code class="move" dir="ltr">'
                   f'{esc(row.move)}</code>{badge}</th>{"".join(tds)}</tr>')
    out.append("\n")
    return mark_safe("".join(out))


def closed_rows(items: Iterable[Row]) -> SafeString:
    """The moves illegal under every ruleset, each with the sentences that forbid it."""
    return mark_safe("".join(f'<li><code class="move" dir="ltr">{esc(row.move)}</code>: '
                             f'{" ".join(esc(s) for s in row.reasons)}</li>\n          ' for row in items))

"""The ruling's repetitive parts, written by :mod:`mextrain_site.referee.ruling_html`."""

from __future__ import annotations

from django import template

from mextrain_site.referee import ruling_html

register = template.Library()

register.filter("quote_html", ruling_html.quote)
register.filter("answers_html", ruling_html.answers)
register.filter("other_reasons_html", ruling_html.other_reasons)
register.filter("rows_html", ruling_html.rows)
register.filter("closed_rows_html", ruling_html.closed_rows)
register.filter("verdict_html", ruling_html.verdict)
register.filter("why_html", ruling_html.why)
register.filter("actions_html", ruling_html.actions)
register.filter("boards_html", ruling_html.boards)

"""The ruling panel of a judged position, written by :mod:`mextrain_site.referee.ruling_html`."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from mextrain_site.referee import ruling_html

register = template.Library()


@register.simple_tag(takes_context=True)
def ruling_section(context: template.Context, judged: Any) -> SafeString:
    """Inside the whole page: the panel Judge (htmx) gets alone, the same function, the same bytes."""
    return ruling_html.panel(context.get("request"), context, judged)


@register.simple_tag(takes_context=True)
def retry_set_form(context: template.Context, retry: Any) -> SafeString:
    """In the panel of a refused position: one tap to judge it again with the ``set:`` line added
    (:func:`~mextrain_site.referee.ruling_html.retry_form`, the same form as beside a ruling)."""
    token = context.get("csrf_token")
    return ruling_html.retry_form(retry, context.get("variants") or (), str(token) if token else "")

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

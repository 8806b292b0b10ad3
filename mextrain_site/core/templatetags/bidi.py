"""``{{ message|isolate_quoted }}``: see :mod:`mextrain_site.core.bidi`."""

from __future__ import annotations

from django import template

from mextrain_site.core.bidi import isolate_quoted

register = template.Library()
register.filter("isolate_quoted", isolate_quoted, is_safe=True)

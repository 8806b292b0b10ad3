"""``{{ message|isolate_quoted }}``, ``{{ name|isolate_foreign }}``: see :mod:`mextrain_site.core.bidi`."""

from __future__ import annotations

from django import template

from mextrain_site.core.bidi import isolate_foreign, isolate_quoted

register = template.Library()
register.filter("isolate_quoted", isolate_quoted, is_safe=True)
register.filter("isolate_foreign", isolate_foreign, is_safe=True)

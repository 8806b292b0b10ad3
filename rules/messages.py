"""Messages that can be worded in another language.

The engine speaks English. A :class:`Message` is an English string (so it prints, compares
and formats as one) that also remembers its template and parameters, so that a front end can
word it in the reader's language: :func:`word` looks each template up through a callback
(gettext in the web layer) and fills it again. Parameters may be messages themselves (a
phrase such as "Ann's train" inside a sentence); they are worded too.

Every template is a literal first argument of ``Message(...)`` in ``rules/``, so that the
catalogue generator can find them all (``manage.py engine_messages``).
"""

from __future__ import annotations

import string
from collections.abc import Callable
from typing import Any

Lookup = Callable[[str], str]


class Message(str):
    """An English message with its template and parameters."""

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, **params: Any) -> Message:
        obj = super().__new__(cls, template.format(**params))
        obj.template = template
        obj.params = params
        return obj

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.template, self.params))


def _rebuild(template: str, params: dict[str, Any]) -> Message:
    return Message(template, **params)


def fields(template: str) -> frozenset[str] | None:
    """The placeholders of a template, or None when it is not a valid template."""
    try:
        return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)
    except ValueError:
        return None


def word(text: str, lookup: Lookup) -> str:
    """``text`` in the language ``lookup`` gives; a plain string or a translation that lost or
    renamed a placeholder is kept in English."""
    if not isinstance(text, Message):
        return text
    template = lookup(text.template)
    if fields(template) != fields(text.template):
        template = text.template
    params = {k: word(v, lookup) if isinstance(v, str) else v for k, v in text.params.items()}
    return template.format(**params)

"""Messages that can be worded in another language.

The engine speaks English. A :class:`Message` is an English string (so it prints, compares
and formats as one) that also remembers its template and parameters, so that a front end can
word it in the reader's language: :func:`word` looks each template up through a callback
(gettext in the web layer) and fills it again. Parameters may be messages themselves (a
phrase such as "Ann's train" inside a sentence); they are worded too.

A phrase set into a sentence may carry a *context* (:meth:`Message.within`): the part it plays
there ("on Ann's train", "of Ann's train"). English words it alike in every part; another language
words it in the form that part needs (Hungarian "Ann vonatán", "Ann vonatának"). The lookup asks
for the context, U+0004 and the template first (gettext's key of an entry with ``msgctxt``), then for
the template alone.

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
    context: str | None = None
    """The part the message plays in a sentence, as a gettext context (None: no part)."""

    def __new__(cls, template: str, **params: Any) -> Message:
        obj = super().__new__(cls, template.format(**params))
        obj.template = template
        obj.params = params
        return obj

    def within(self, context: str) -> Message:
        """The same message in the part ``context`` of a sentence (the English is unchanged)."""
        obj = Message(self.template, **self.params)
        obj.context = context
        return obj

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.template, self.params, self.context))


def _rebuild(template: str, params: dict[str, Any], context: str | None = None) -> Message:
    message = Message(template, **params)
    return message.within(context) if context is not None else message


CONTEXT_SEPARATOR = "\x04"
"""Between a context and a template in a gettext key (what ``pgettext`` looks up)."""


def _translated(text: Message, lookup: Lookup) -> str:
    """The template of ``text`` in the lookup's language: the entry of its context when there is
    one, else the entry without a context."""
    if text.context is not None:
        found = lookup(f"{text.context}{CONTEXT_SEPARATOR}{text.template}")
        if CONTEXT_SEPARATOR not in found:
            return found
    return lookup(text.template)


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
    template = _translated(text, lookup)
    if fields(template) != fields(text.template):
        template = text.template
    params = {k: word(v, lookup) if isinstance(v, str) else v for k, v in text.params.items()}
    return template.format(**params)

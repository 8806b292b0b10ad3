"""Which charset a request body may name: one place for the API and the pages.

``bytes.decode`` accepts any codec name, including ``idna`` and ``punycode``, which encode host
names (and raise ``UnicodeError``, not ``UnicodeDecodeError``, or decode slowly), codecs that
decode escapes into lone surrogates (``utf-7``, ``unicode_escape``), and codecs that are not
text encodings at all (``rot13``, ``base64``). A body names a text charset or is refused.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest

from rules.errors import ErrorCode, InputError

HOST_NAME_CODECS = frozenset({"idna", "punycode"})
"""Codecs that encode host names, not text: refused."""
ESCAPING_CODECS = frozenset({"utf-7", "unicode-escape", "raw-unicode-escape"})
"""Codecs that decode escapes into any code point, lone surrogates included (which no page or
JSON answer can carry): refused."""


class CharsetError(InputError):
    """A charset a body cannot be in (``encoding``); the message says why, in English."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code=ErrorCode.ENCODING)


def body_codec(charset: str | None) -> str:
    """The codec for a body in ``charset`` (UTF-8 when none); CharsetError when it is not a text charset."""
    name = (charset or "utf-8").strip().strip('"') or "utf-8"
    shown = name[:40]
    try:
        info = codecs.lookup(name)
    except LookupError:
        raise CharsetError(f"unknown charset {shown!r}; send UTF-8") from None
    if info.name in HOST_NAME_CODECS:
        raise CharsetError(f"charset {shown!r} encodes host names, not text; send UTF-8")
    if info.name in ESCAPING_CODECS:
        raise CharsetError(f"charset {shown!r} is not accepted; send UTF-8")
    if not getattr(info, "_is_text_encoding", True):
        raise CharsetError(f"charset {shown!r} is not a text encoding; send UTF-8")
    return info.name


class BodyCharsetMiddleware:
    """Refuse a body in a charset that is not text before Django decodes a form with it (a
    ``UnicodeError`` there would be a 500). The API answers for itself, in JSON."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        charset = (request.content_params or {}).get("charset")
        if charset is not None and not request.path.startswith("/api/"):
            try:
                body_codec(charset)
            except CharsetError as exc:
                return HttpResponseBadRequest(f"{exc}\n", content_type="text/plain; charset=utf-8")
        return self.get_response(request)

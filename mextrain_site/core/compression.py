"""Pages and API answers compressed with gzip at a fast level.

Django's ``GZipMiddleware`` compresses at level 6. Levels 1 to 3 are zlib's fast strategy: the
referee page's ruling (31 KB of HTML) in 0.07 ms instead of 0.19, 6.1 KB instead of 5.5; the
API's full answer (143 KB) in 0.24 ms instead of 1.1, 11.3 KB instead of 9.8. The time is the
server's, while the bytes are few either way (level 1 is barely faster, and larger). Everything else is Django's: the same conditions (nothing under 200 bytes,
nothing already encoded, only for a client that accepts gzip, only when smaller), ``Vary:
Accept-Encoding``, a weakened strong ETag, and the random padding against BREACH. Streaming
answers go through Django's own code unchanged.

Behind nginx the answers pass through already compressed (deploy/nginx/mextrain.conf does not
compress): the app compresses once, with the padding, for ``make run`` and production alike.
"""

from __future__ import annotations

import gzip
import secrets

from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.middleware.gzip import GZipMiddleware, re_accepts_gzip
from django.utils.cache import patch_vary_headers

LEVEL = 3
"""gzip's compression level: zlib's fastest strategy (levels 1 to 3), its best matches (3)."""


def compress(content: bytes, level: int = LEVEL, max_random_bytes: int = GZipMiddleware.max_random_bytes) -> bytes:
    """``content`` gzipped, padded as Django pads it (:func:`django.utils.text.compress_string`):
    a file name of 0 to ``max_random_bytes - 1`` bytes, so the length says less about the content."""
    data = gzip.compress(content, compresslevel=level, mtime=0)
    header = bytearray(data[:10])
    header[3] = gzip.FNAME
    return bytes(header) + b"a" * secrets.randbelow(max_random_bytes) + b"\x00" + data[10:]


class FastGZipMiddleware(GZipMiddleware):
    """Django's ``GZipMiddleware`` at level :data:`LEVEL` (see the module's note)."""

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if not isinstance(response, HttpResponse):  # streaming: Django's own code
            return super().process_response(request, response)
        content = response.content
        if len(content) < 200 or response.has_header("Content-Encoding"):
            return response
        patch_vary_headers(response, ("Accept-Encoding",))
        if not re_accepts_gzip.search(request.META.get("HTTP_ACCEPT_ENCODING", "")):
            return response
        compressed = compress(content, max_random_bytes=self.max_random_bytes)
        if len(compressed) >= len(content):
            return response
        response.content = compressed
        response.headers["Content-Length"] = str(len(compressed))
        etag = response.get("ETag")
        if etag and etag.startswith('"'):
            response.headers["ETag"] = "W/" + etag
        response.headers["Content-Encoding"] = "gzip"
        return response

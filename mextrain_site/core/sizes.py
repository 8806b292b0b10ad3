"""How large a request may be, derived from the app's own limits (imported by the settings, so
nothing here imports Django).

A position may hold :data:`rules.position.MAX_TEXT` characters in any script. A character takes up
to 4 bytes in UTF-8, and a browser that posts the form URL-encoded writes each byte as 3 (``%CE``),
so the position alone may take 12 bytes a character; the form's other fields (the CSRF token, the
rulesets ticked, htmx's own) add at most :data:`OTHER_FIELDS_BYTES`. Django's
``DATA_UPLOAD_MAX_MEMORY_SIZE`` is :data:`FORM_BYTES`: a position within the app's limit is never
refused by Django, and one over it reaches the app, which says so in the reader's language with the
text kept. A house ruleset file (:data:`variants.house.MAX_FILE`, posted as a multipart file, which
Django does not count in that limit) comes with its own multipart framing.
:data:`BODY_BYTES` is the largest body either takes: nginx's ``client_max_body_size``
(``deploy/nginx/mextrain.conf``, checked by ``tests/test_deploy.py``)."""

from __future__ import annotations

from rules.position import MAX_TEXT
from variants.house import MAX_FILE

UTF8_BYTES_PER_CHARACTER = 4
PERCENT_ENCODED_PER_BYTE = 3
OTHER_FIELDS_BYTES = 16 * 1024
"""The form's fields besides the position: the CSRF token (64), up to 64 ruleset ids, htmx's."""
FORM_BYTES = MAX_TEXT * UTF8_BYTES_PER_CHARACTER * PERCENT_ENCODED_PER_BYTE + OTHER_FIELDS_BYTES
"""The largest form (or API body) the app reads: 256,384 bytes."""
MULTIPART_FRAMING_BYTES = 16 * 1024
"""A multipart upload's boundaries and part headers, and the form's other fields, around the file."""
UPLOAD_BYTES = MAX_FILE + MULTIPART_FRAMING_BYTES
BODY_BYTES = max(FORM_BYTES, UPLOAD_BYTES)
"""The largest request body: nginx refuses a larger one before the app sees it."""
NGINX_BODY_LIMIT = f"{-(-BODY_BYTES // 1024)}k"
""":data:`BODY_BYTES` as nginx writes a size (kilobytes, rounded up)."""

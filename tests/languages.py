"""The site's languages, as the tests loop over them: read from ``settings.LANGUAGES``, so a language
added there is tested everywhere without touching a test."""

from __future__ import annotations

from django.conf import settings

LANGUAGES: tuple[str, ...] = tuple(code for code, _ in settings.LANGUAGES)
"""Every language of the site, English first."""

TRANSLATED: tuple[str, ...] = tuple(code for code in LANGUAGES if code != settings.LANGUAGE_CODE)
"""Every language but English (the source language of the catalogues)."""

BIDI: tuple[str, ...] = ("en", "he")
"""One left-to-right and one right-to-left language: the pair a check runs in when it is about the
direction of the text rather than its words."""

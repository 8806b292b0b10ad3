"""The house builder's form as a browser sends it untouched: every control with its value."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

from django.test import Client


def builder_form(client: Client, base: str = "masters", lang: str = "en") -> dict[str, Any]:
    """Each input, select, textarea and checked box of the builder on ``base``, by name."""
    html = client.get(f"/{lang}/house/?base={base}").content.decode()
    form: dict[str, Any] = {"base": base}
    for name, value in re.findall(r'<input (?![^>]*checkbox)[^>]*name="(rule:[^"]+)"[^>]*value="([^"]*)"', html):
        form[name] = unescape(value)
    for name, body in re.findall(r'<select [^>]*name="(rule:[^"]+)">(.*?)</select>', html, re.S):
        form[name] = re.search(r'<option value="([^"]*)" selected', body).group(1)  # type: ignore[union-attr]
    for name, body in re.findall(r'<textarea [^>]*name="(rule:[^"]+)"[^>]*>(.*?)</textarea>', html, re.S):
        form[name] = unescape(body)
    checks: dict[str, list[str]] = {}
    for name, value in re.findall(r'<input type="checkbox" name="(rule:[^"]+)" value="([^"]+)" checked', html):
        checks.setdefault(name, []).append(value)
    form.update(checks)
    return form

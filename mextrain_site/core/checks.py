"""System check: every ruleset file must load (``python manage.py check``)."""

from __future__ import annotations

from typing import Any

from django.core.checks import CheckMessage, Error, register

from variants.loader import check_files


@register()
def rulesets_load(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    return [
        Error(str(exc), hint="Fix the ruleset file; see variants/README.md for its format.", id="mextrain.E001")
        for exc in check_files()
    ]

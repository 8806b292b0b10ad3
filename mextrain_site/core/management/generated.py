"""A management command that writes one generated file, or with ``--check`` exits 1 when it is stale."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser


class GeneratedFileCommand(BaseCommand):
    requires_system_checks: list[str] = []
    target: Path
    """The file the command writes."""

    def render(self) -> str:
        raise NotImplementedError

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true", help="exit 1 if the file is not up to date")

    def handle(self, *args: Any, **options: Any) -> None:
        text = self.render()
        if options["check"]:
            if not self.target.exists() or self.target.read_text(encoding="utf-8") != text:
                name = self.__module__.rsplit(".", 1)[-1]
                sys.stderr.write(f"{self.target} is stale: run python manage.py {name}\n")
                sys.exit(1)
            return
        self.target.write_text(text, encoding="utf-8")
        self.stdout.write(f"wrote {self.target}")

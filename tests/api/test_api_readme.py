"""The curl examples of the API reference (docs/api.md) are run, so the docs cannot rot.

Each ``curl`` line (backslash continuations joined) ends with ``# STATUS``. It is parsed (method,
path, headers, body or ``@file``) and replayed through Django's test client, and, where curl is
installed, run as written with its URL pointed at a live server.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.test import Client

from .conftest import NO_STATIC_ROOT_WARNING

ROOT = Path(__file__).resolve().parent.parent.parent
API_DOC = ROOT / "docs" / "api.md"
BASE = "http://127.0.0.1:8000"
CURL = shutil.which("curl")
pytestmark = NO_STATIC_ROOT_WARNING


@dataclass
class Example:
    line: int
    command: str
    argv: list[str]
    status: int
    method: str = "GET"
    path: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes | None = None

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "application/x-www-form-urlencoded" if self.body is not None else "")


def api_doc() -> tuple[int, str]:
    """The API reference's text and the line it starts on."""
    return 1, API_DOC.read_text(encoding="utf-8")


def shell_lines(first_line: int, text: str) -> list[tuple[int, str]]:
    """Logical lines of the fenced sh blocks: continuations joined, with their first line number."""
    out: list[tuple[int, str]] = []
    in_block, pending, start = False, "", 0
    for n, line in enumerate(text.split("\n"), first_line):
        if line.startswith("```"):
            in_block = line.strip() in ("```sh", "```bash", "```console", "```shell")
            continue
        if not in_block:
            continue
        if not pending:
            start = n
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        out.append((start, pending + line))
        pending = ""
    return out


def parse_curl(line: int, command: str) -> Example:
    comment = re.search(r"\s#\s*(\d{3})\b", command)
    assert comment, f"docs/api.md:{line}: a curl example must end with '# STATUS': {command}"
    argv = shlex.split(command, comments=True)
    ex = Example(line, command, argv, int(comment.group(1)))
    data: list[bytes] = []
    method = None
    args = iter(argv[1:])
    for arg in args:
        if arg in ("-s", "--silent", "-S", "--show-error", "-i", "--include", "-sS"):
            continue
        if arg in ("-X", "--request"):
            method = next(args)
        elif arg in ("-H", "--header"):
            name, _, value = next(args).partition(":")
            ex.headers[name.strip().lower()] = value.strip()
        elif arg in ("-d", "--data", "--data-ascii", "--data-binary", "--data-raw"):
            value = next(args)
            if value.startswith("@") and arg != "--data-raw":
                raw = (ROOT / value[1:]).read_bytes()
                if arg != "--data-binary":  # curl -d @file drops carriage returns and newlines
                    raw = raw.replace(b"\r", b"").replace(b"\n", b"")
                data.append(raw)
            else:
                data.append(value.encode("utf-8"))
        elif arg.startswith("http://") or arg.startswith("https://"):
            assert arg.startswith(BASE + "/"), f"docs/api.md:{line}: examples use {BASE}: {arg}"
            ex.path = arg[len(BASE):]
        else:
            raise AssertionError(f"docs/api.md:{line}: this test does not know curl's {arg!r}; teach it or drop it")
    assert ex.path, f"docs/api.md:{line}: no URL in {command}"
    ex.body = b"&".join(data) if data else None
    ex.method = method or ("POST" if data else "GET")
    return ex


def examples() -> list[Example]:
    first, text = api_doc()
    return [parse_curl(n, cmd) for n, cmd in shell_lines(first, text) if cmd.lstrip().startswith("curl ")]


EXAMPLES = examples()
IDS = [f"docs/api.md:{ex.line}" for ex in EXAMPLES]


def test_the_examples_cover_the_api() -> None:
    assert len(EXAMPLES) >= 8
    paths = {(ex.method, ex.path.split("/")[2] if ex.path.count("/") >= 2 else ex.path) for ex in EXAMPLES}
    assert ("POST", "adjudicate") in paths and ("GET", "variants") in paths
    assert any(ex.path.startswith("/api/variants/") for ex in EXAMPLES)
    assert {200, 400, 404, 405} <= {ex.status for ex in EXAMPLES}
    assert any(ex.headers.get("content-type") == "application/json" for ex in EXAMPLES)


@pytest.mark.django_db
@pytest.mark.parametrize("ex", EXAMPLES, ids=IDS)
def test_example_through_the_test_client(client: Client, ex: Example) -> None:
    headers = {k: v for k, v in ex.headers.items() if k != "content-type"}
    r = client.generic(ex.method, ex.path, ex.body or b"", content_type=ex.content_type, headers=headers)
    assert r.status_code == ex.status, (ex.command, r.content[:500])
    assert r["Content-Type"].startswith("application/json")


@pytest.mark.skipif(CURL is None, reason="curl is not installed")
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("ex", EXAMPLES, ids=IDS)
def test_example_with_real_curl(live_server, ex: Example) -> None:  # type: ignore[no-untyped-def]
    argv = [live_server.url + a[len(BASE):] if a.startswith(BASE + "/") else a for a in ex.argv]
    done = subprocess.run([*argv, "-o", "/dev/null", "-w", "%{http_code}"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(ex.status), (ex.command, done.stdout, done.stderr)


@pytest.mark.django_db
def test_the_error_shown_is_the_error_answered(client: Client) -> None:
    """The API reference's sample error body is what the bad-tile example answers."""
    _, text = api_doc()
    shown = re.search(r"```json\n(.*?)\n```", text, re.DOTALL)
    assert shown, "the JSON API section shows an error body in a ```json block"
    bad = next(ex for ex in EXAMPLES if b"4-x" in (ex.body or b""))
    r = client.generic(bad.method, bad.path, bad.body or b"", content_type=bad.content_type)
    assert json.loads(r.content) == json.loads(shown.group(1))

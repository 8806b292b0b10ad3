"""Fixtures of the API tests: example files and a helper that checks every answer is JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.http import HttpResponse

EXAMPLES = Path(__file__).resolve().parent / "examples"
ERROR_KEYS = {"code", "message", "line", "column"}
# WhiteNoise warns, once per test client, that the development checkout has no collected STATIC_ROOT.
NO_STATIC_ROOT_WARNING = pytest.mark.filterwarnings("ignore:No directory at:UserWarning")


def body(response: HttpResponse) -> Any:
    """The JSON of a response, after checking it is JSON."""
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    return json.loads(response.content.decode("utf-8"))


def error_of(response: HttpResponse, status: int) -> dict[str, Any]:
    """The error object of an error response, after checking its status and shape."""
    assert response.status_code == status, (response.status_code, response.content[:500])
    data = body(response)
    assert set(data) == {"error"}, data
    err = data["error"]
    assert set(err) == ERROR_KEYS, err
    assert isinstance(err["code"], str) and err["code"]
    assert isinstance(err["message"], str) and err["message"]
    assert err["line"] is None or isinstance(err["line"], int)
    assert err["column"] is None or isinstance(err["column"], int)
    return err


@pytest.fixture(scope="session")
def spec_example() -> str:
    return (EXAMPLES / "spec-example.txt").read_text(encoding="utf-8")

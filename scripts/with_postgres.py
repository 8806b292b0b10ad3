"""Run a command with a throwaway PostgreSQL cluster: ``python scripts/with_postgres.py CMD ...``.

Creates a cluster in a temporary folder, starts it on a free loopback port, exports its
address as ``MEXTRAIN_TEST_POSTGRES_URL`` for the tests that run against PostgreSQL, runs the
command, then stops the cluster and removes the folder. Without the server binaries it runs
the command as is (those tests then skip, saying why). The cluster itself is
``bench.stack.postgres_cluster``, which the production-stack tests and ``make loadtest`` use too.

One cluster serves every pytest-xdist worker: each worker's tests use a database of their own in it,
which pytest-django creates and drops (tests/on_postgres.py names them), so nothing is created here.
"""

from __future__ import annotations

import os
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.stack import Unavailable, postgres_cluster  # noqa: E402  (after the path is set)


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: with_postgres.py COMMAND [ARGS...]", file=sys.stderr)
        return 2
    with ExitStack() as stack:
        try:
            url = stack.enter_context(postgres_cluster())
        except Unavailable as exc:
            print(f"with_postgres: {exc}; PostgreSQL tests will skip", file=sys.stderr)
            return subprocess.call(argv)
        return subprocess.call(argv, env={**os.environ, "MEXTRAIN_TEST_POSTGRES_URL": url})


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Run a command with a throwaway PostgreSQL cluster: ``python scripts/with_postgres.py CMD ...``.

Creates a cluster in a temporary folder, starts it on a free loopback port, exports its
address as ``MEXTRAIN_TEST_POSTGRES_URL`` for the tests that run against PostgreSQL, runs the
command, then stops the cluster and removes the folder. Without the server binaries it runs
the command as is (those tests then skip, saying why).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile


def find(binary: str) -> str | None:
    found = shutil.which(binary)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{binary}"))
    return candidates[-1] if candidates else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main(argv: list[str]) -> int:
    initdb, pg_ctl = find("initdb"), find("pg_ctl")
    if not argv:
        print("usage: with_postgres.py COMMAND [ARGS...]", file=sys.stderr)
        return 2
    if not initdb or not pg_ctl:
        print("with_postgres: no PostgreSQL server binaries; PostgreSQL tests will skip", file=sys.stderr)
        return subprocess.call(argv)
    root = tempfile.mkdtemp(prefix="mextrain-pg-")
    data = os.path.join(root, "data")
    port = free_port()
    run_as: dict[str, object] = {}
    if os.getuid() == 0:  # the server refuses to run as root: use an unprivileged account
        user = next((u for u in ("postgres", "nobody") if _has_user(u)), None)
        if user is None:
            print("with_postgres: running as root with no 'postgres' user; PostgreSQL tests will skip", file=sys.stderr)
            return subprocess.call(argv)
        pw = pwd.getpwnam(user)
        os.chown(root, pw.pw_uid, pw.pw_gid)
        run_as = {"user": pw.pw_uid, "group": pw.pw_gid}
    env = dict(os.environ)
    try:
        subprocess.run([initdb, "-D", data, "-U", "mextrain", "--auth=trust", "-E", "UTF8", "--no-locale"],
                       check=True, stdout=subprocess.DEVNULL, **run_as)  # type: ignore[arg-type]
        subprocess.run([pg_ctl, "-D", data, "-l", os.path.join(root, "log"), "-w", "-o",
                        f"-h 127.0.0.1 -p {port} -k {root} -c fsync=off", "start"],
                       check=True, stdout=subprocess.DEVNULL, **run_as)  # type: ignore[arg-type]
    except (subprocess.CalledProcessError, OSError) as exc:
        print(f"with_postgres: could not start PostgreSQL ({exc}); PostgreSQL tests will skip", file=sys.stderr)
        shutil.rmtree(root, ignore_errors=True)
        return subprocess.call(argv)
    env["MEXTRAIN_TEST_POSTGRES_URL"] = f"postgres://mextrain@127.0.0.1:{port}/postgres"
    try:
        return subprocess.call(argv, env=env)
    finally:
        subprocess.run([pg_ctl, "-D", data, "-m", "fast", "-w", "stop"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, **run_as)  # type: ignore[arg-type]
        shutil.rmtree(root, ignore_errors=True)


def _has_user(name: str) -> bool:
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

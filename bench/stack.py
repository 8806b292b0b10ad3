"""The production shape on loopback: PostgreSQL, Redis, gunicorn servers and nginx in front, each
started on a free port in a temporary folder and stopped afterwards (tests, ``make loadtest``).

* :func:`postgres_cluster`: a throwaway PostgreSQL cluster (Debian's server binaries), its URL;
  :func:`restart_postgres` restarts it (the stack test does so under load).
* :func:`redis_server`: a throwaway Redis (Debian's ``redis-server``), no persistence, its URL.
* :class:`Server`: ``gunicorn mextrain_site.wsgi`` with the production settings, in its own process group.
* :class:`Nginx`: Debian's nginx with ``deploy/nginx/mextrain.conf`` filled in for the given servers.
* :func:`production_stack`: all of it: migrated, static files collected, N servers behind one nginx.
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NGINX_TEMPLATE = ROOT / "deploy" / "nginx" / "mextrain.conf"
SETTINGS_VARIABLES = (
    "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "STATIC_ROOT", "CSRF_TRUSTED_ORIGINS", "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS", "LOG_LEVEL", "REDIS_URL", "TRUSTED_PROXY_HOPS", "RATELIMIT_ENABLE", "RATELIMIT_JUDGE",
    "RATELIMIT_SHARE", "RATELIMIT_RULESET", "STORAGE_QUOTA_BYTES", "STORAGE_SITE_DAILY_BYTES", "SHARED_PAGE_CACHE_SECONDS",
    "STATS_BROKER_URL", "STATS_THREADS", "STATS_QUEUED_PER_ADDRESS", "STATS_STALE_SECONDS", "STATS_CHUNK_GAMES",
    "RATELIMIT_STATS",
)
"""The environment variables the settings read: a production process gets only those it is given."""


class Unavailable(RuntimeError):
    """A service's binaries are missing or it would not start (the tests that need it skip, saying why)."""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def production_env(tmp: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES and not k.startswith("DJANGO_")}
    env.update(
        DJANGO_SETTINGS_MODULE="mextrain_site.settings",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        DATABASE_URL=f"sqlite:///{tmp / 'db.sqlite3'}",
        STATIC_ROOT=str(tmp / "static"),
        SECURE_SSL_REDIRECT="0",  # plain HTTP on loopback; behind a TLS proxy in production
        LOG_LEVEL="WARNING",
        PYTHONDONTWRITEBYTECODE="1",
    )
    env.update(extra)
    return env


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL)


def _stop_group(proc: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, sig)  # our own session: the master and its workers
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _wait_port(port: int, proc: subprocess.Popen[bytes], what: str, log: Path, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise Unavailable(f"{what} exited with status {proc.returncode}:\n{log.read_text(errors='replace')[-3000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise Unavailable(f"{what} did not listen on port {port} within {timeout:.0f} s")


class Server:
    """gunicorn on a free loopback port, in its own process group; with ``asgi``, uvicorn serving
    ``mextrain_site.asgi`` instead (the live score sheet's event streams: one process, no workers
    to fill)."""

    def __init__(self, env: dict[str, str], workers: int, log: Path, timeout: int = 60, asgi: bool = False) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        self._log_file = log.open("wb")
        command = ([sys.executable, "-m", "uvicorn", "mextrain_site.asgi:application", "--host", "127.0.0.1",
                    "--port", str(self.port), "--no-access-log", "--log-level", "warning", "--lifespan", "off"]
                   if asgi else
                   [sys.executable, "-m", "gunicorn", "mextrain_site.wsgi", "--bind", f"127.0.0.1:{self.port}",
                    "--workers", str(workers), "--worker-class", "sync", "--timeout", str(timeout), "--keep-alive", "5",
                    "--error-logfile", "-"])
        self.proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=self._log_file, stderr=subprocess.STDOUT,
                                     start_new_session=True)

    def wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited with status {self.proc.returncode}:\n{self.log.read_text()}")
            try:
                with urllib.request.urlopen(f"{self.url}/health", timeout=2) as r:
                    if r.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.1)
        raise RuntimeError(f"gunicorn did not answer /health within {timeout:.0f} s:\n{self.log.read_text()}")

    def cpu_seconds(self) -> float | None:
        """CPU time (user and system) used so far by gunicorn and its workers, from /proc; None
        where there is no /proc. Unlike requests per second, it does not count the time other
        processes of a shared machine held the CPU."""
        total = 0.0
        pids = [self.proc.pid]
        try:
            children = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text().split()
            pids += [int(c) for c in children]
            for pid in pids:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime
        except (OSError, ValueError, IndexError):
            return None
        return total

    def stop(self) -> None:
        _stop_group(self.proc)
        self._log_file.close()


# -- PostgreSQL --------------------------------------------------------------------------------


def find_postgres(binary: str) -> str | None:
    found = shutil.which(binary)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{binary}"))
    return candidates[-1] if candidates else None


def _has_user(name: str) -> bool:
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


@contextmanager
def postgres_cluster() -> Iterator[str]:
    """A PostgreSQL cluster in a temporary folder on a free loopback port; yields its URL."""
    initdb, pg_ctl = find_postgres("initdb"), find_postgres("pg_ctl")
    if not initdb or not pg_ctl:
        raise Unavailable("no PostgreSQL server binaries (Debian package postgresql)")
    root = tempfile.mkdtemp(prefix="mextrain-pg-")
    data = os.path.join(root, "data")
    port = free_port()
    run_as: dict[str, int] = {}
    if os.getuid() == 0:  # the server refuses to run as root: use an unprivileged account
        user = next((u for u in ("postgres", "nobody") if _has_user(u)), None)
        if user is None:
            shutil.rmtree(root, ignore_errors=True)
            raise Unavailable("running as root with no 'postgres' user")
        pw = pwd.getpwnam(user)
        os.chown(root, pw.pw_uid, pw.pw_gid)
        run_as = {"user": pw.pw_uid, "group": pw.pw_gid}
    try:
        subprocess.run([initdb, "-D", data, "-U", "mextrain", "--auth=trust", "-E", "UTF8", "--no-locale"],
                       check=True, stdout=subprocess.DEVNULL, **run_as)  # type: ignore[call-overload]
        start = [pg_ctl, "-D", data, "-l", os.path.join(root, "log"), "-w", "-o",
                 f"-h 127.0.0.1 -p {port} -k {root} -c fsync=off", "start"]
        subprocess.run(start, check=True, stdout=subprocess.DEVNULL, **run_as)  # type: ignore[call-overload]
    except (subprocess.CalledProcessError, OSError) as exc:
        shutil.rmtree(root, ignore_errors=True)
        raise Unavailable(f"could not start PostgreSQL ({exc})") from exc
    url = f"postgres://mextrain@127.0.0.1:{port}/postgres"
    _RESTARTS[url] = lambda pause: _restart([pg_ctl, "-D", data, "-m", "fast", "-w", "stop"], start, pause, run_as)
    try:
        yield url
    finally:
        _RESTARTS.pop(url, None)
        subprocess.run([pg_ctl, "-D", data, "-m", "fast", "-w", "stop"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, **run_as)  # type: ignore[call-overload]
        shutil.rmtree(root, ignore_errors=True)


_RESTARTS: dict[str, Callable[[float], float]] = {}
"""How to restart each running cluster, by its URL (:func:`restart_postgres`)."""


def restart_postgres(url: str, pause: float = 0.3) -> float:
    """Restart the cluster :func:`postgres_cluster` yielded ``url`` for: a fast shutdown (every
    connection cut), ``pause`` seconds down, started again. Returns the seconds it was down."""
    return _RESTARTS[url](pause)


def _restart(stop: list[str], start: list[str], pause: float, run_as: dict[str, int]) -> float:
    began = time.monotonic()
    subprocess.run(stop, check=True, stdout=subprocess.DEVNULL, **run_as)  # type: ignore[call-overload]
    time.sleep(pause)
    subprocess.run(start, check=True, stdout=subprocess.DEVNULL, **run_as)  # type: ignore[call-overload]
    return time.monotonic() - began


# -- Redis -------------------------------------------------------------------------------------


@contextmanager
def redis_server() -> Iterator[str]:
    """Debian's redis-server on a free loopback port, without persistence; yields its URL."""
    binary = shutil.which("redis-server")
    if not binary:
        raise Unavailable("no redis-server (Debian package redis-server)")
    root = Path(tempfile.mkdtemp(prefix="mextrain-redis-"))
    port = free_port()
    log = root / "redis.log"
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", str(root),
         "--daemonize", "no", "--logfile", str(log), "--maxmemory", "256mb", "--maxmemory-policy", "allkeys-lru"],
        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True,
    )
    try:
        log.touch()
        _wait_port(port, proc, "redis-server", log)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        _stop_group(proc)
        shutil.rmtree(root, ignore_errors=True)


# -- nginx -------------------------------------------------------------------------------------


def render_nginx(listen: str, upstreams: Sequence[str], streams: Sequence[str] = ()) -> str:
    """``deploy/nginx/mextrain.conf`` with its placeholders filled in (the event streams go to
    ``streams``, else to the gunicorn servers)."""
    servers = "\n    ".join(f"server {u} max_fails=1 fail_timeout=5s;" for u in upstreams)
    stream_servers = "\n    ".join(f"server {u};" for u in streams) if streams else servers
    lines = NGINX_TEMPLATE.read_text().splitlines(keepends=True)
    return "".join(line if line.lstrip().startswith("#") else line.replace("@LISTEN@", listen)
                   .replace("@STREAM_UPSTREAMS@", stream_servers).replace("@UPSTREAMS@", servers) for line in lines)


class Nginx:
    """nginx in the foreground (its own process group) on a free loopback port, in front of ``upstreams``."""

    def __init__(self, upstreams: Sequence[str], root: Path, streams: Sequence[str] = ()) -> None:
        binary = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
        if not binary:
            raise Unavailable("no nginx (Debian package nginx)")
        root.mkdir(parents=True, exist_ok=True)
        root.chmod(0o755)  # workers run unprivileged when started as root: they write the temporary files here
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        (root / "mextrain.conf").write_text(render_nginx(f"127.0.0.1:{self.port}", upstreams, streams))
        temp = "\n".join(f"  {kind}_temp_path {root / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        user = "user nobody nogroup;\n" if os.getuid() == 0 else ""
        (root / "nginx.conf").write_text(
            f"{user}worker_processes 1;\npid {root / 'nginx.pid'};\nerror_log {root / 'error.log'} warn;\n"
            f"worker_rlimit_nofile 8192;\nevents {{ worker_connections 4096; }}\n"
            f"http {{\n  access_log off;\n{temp}\n  include {root / 'mextrain.conf'};\n}}\n"
        )
        self.log = root / "error.log"
        self.log.touch()
        test = subprocess.run([binary, "-t", "-q", "-p", str(root), "-c", str(root / "nginx.conf")],
                              capture_output=True, text=True)
        if test.returncode != 0:
            raise Unavailable(f"nginx refused the configuration:\n{test.stderr}")
        self.proc = subprocess.Popen([binary, "-p", str(root), "-c", str(root / "nginx.conf"), "-g", "daemon off;"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True)
        _wait_port(self.port, self.proc, "nginx", self.log)

    def stop(self) -> None:
        _stop_group(self.proc, signal.SIGQUIT)  # graceful: finish the answers in flight


@dataclass
class Stack:
    servers: list[Server]
    nginx: Nginx
    env: dict[str, str]
    root: Path
    streams: list[Server] = field(default_factory=list)
    """The ASGI servers of the event streams (``production_stack(streams=True)``), one per server."""

    @property
    def url(self) -> str:
        return self.nginx.url


@contextmanager
def production_stack(servers: int = 2, workers: int = 2, postgres: bool = True, redis: bool = True,
                     streams: bool = False, **settings: str) -> Iterator[Stack]:
    """``servers`` gunicorn servers (``workers`` sync workers each) behind one nginx, sharing a
    throwaway PostgreSQL (else SQLite) and a throwaway Redis (else each process its own memory).
    With ``streams``, beside each gunicorn server a uvicorn server (``Stack.streams``) to which nginx
    sends the live score sheet's event streams."""
    with ExitStack() as stack:
        root = Path(tempfile.mkdtemp(prefix="mextrain-stack-"))
        stack.callback(shutil.rmtree, root, True)
        extra = {"TRUSTED_PROXY_HOPS": "1", **settings}
        if postgres:
            extra["DATABASE_URL"] = stack.enter_context(postgres_cluster())
        if redis:
            extra["REDIS_URL"] = stack.enter_context(redis_server())
        env = production_env(root, **extra)
        manage(env, "migrate", "--noinput", "-v", "0")
        manage(env, "collectstatic", "--noinput", "-v", "0")
        started: list[Server] = []
        for n in range(servers):
            server = Server(env, workers, root / f"gunicorn-{n}.log")
            stack.callback(server.stop)
            started.append(server)
        streaming: list[Server] = []
        for n in range(servers if streams else 0):
            server = Server(env, 1, root / f"uvicorn-{n}.log", asgi=True)
            stack.callback(server.stop)
            streaming.append(server)
        for server in (*started, *streaming):
            server.wait_ready()
        nginx = Nginx([f"127.0.0.1:{s.port}" for s in started], root / "nginx",
                      [f"127.0.0.1:{s.port}" for s in streaming])
        stack.callback(nginx.stop)
        yield Stack(started, nginx, env, root, streaming)

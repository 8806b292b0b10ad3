# mextrain: `make run` sets everything up and serves on 127.0.0.1:8000; `make test` sets up and runs the suite.
SHELL := /bin/bash
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
# Python's bytecode and pytest's rewritten test modules are cached in __pycache__ (git-ignored): without the
# cache every pytest worker rewrote every test module's asserts again, about 7 s of each run's start.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: setup native run test test-fast soak bench loadtest golden typecheck messages compilemessages check clean system-deps server-deps browser-deps stats

setup: $(STAMP) compilemessages native
	$(PY) manage.py migrate --noinput -v 0

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null || { echo "Python 3.11 is needed ($(PYTHON) not found)"; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

# The statistics' self-play compiled with mypyc (scripts/build_native.py): extensions beside rules/*.py,
# built again whenever an engine source changes. Without a C compiler the pure-Python modules run.
NATIVE := rules/.native
native: $(NATIVE)

$(NATIVE): $(wildcard rules/*.py) scripts/build_native.py | $(STAMP)
	$(PY) scripts/build_native.py

# Debian packages: `system-deps` for the suite (gettext for msgfmt, chromium for the browser tests, and the
# server packages); `server-deps` for the production stack and the load test (PostgreSQL server binaries,
# nginx, redis-server, wrk). Each installs only what is missing.
APT_INSTALL = if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

system-deps: server-deps
	@missing=""; \
	command -v msgfmt >/dev/null || missing="$$missing gettext"; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	$(APT_INSTALL)

server-deps:
	@missing=""; \
	{ command -v initdb >/dev/null || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; } || missing="$$missing postgresql"; \
	{ command -v nginx >/dev/null || test -x /usr/sbin/nginx; } || missing="$$missing nginx"; \
	command -v redis-server >/dev/null || missing="$$missing redis-server"; \
	command -v wrk >/dev/null || missing="$$missing wrk"; \
	$(APT_INSTALL)

# Each catalogue compiled when it changed, as Django's compilemessages does it (msgfmt --check-format), but only
# then: compilemessages itself compiles all five every time (a second of every make test-fast).
CATALOGUES := $(patsubst %.po,%.mo,$(wildcard locale/*/LC_MESSAGES/django.po))
compilemessages: $(CATALOGUES)

locale/%/LC_MESSAGES/django.mo: locale/%/LC_MESSAGES/django.po
	msgfmt --check-format -o $@ $<

LANGS := he hu ky it el
MESSAGE_IGNORES := --ignore='.venv/*' --ignore='tests/*' --ignore='staticfiles/*' --ignore='test-artifacts/*' --ignore='bench/*'

# Refresh the catalogues after changing a user-visible string (then translate what is new).
messages: $(STAMP)
	$(PY) manage.py engine_messages
	$(PY) manage.py ruleset_messages
	$(PY) manage.py makemessages $(foreach l,$(LANGS),-l $(l)) $(MESSAGE_IGNORES) --no-obsolete -v 0

run: setup
	$(PY) manage.py runserver $(HOST):$(PORT)

# The suite runs on WORKERS processes (pytest-xdist). Each test file stays on one worker (its module
# fixtures start once) but for the browser tests, which spread one by one (tests/conftest.py); the
# workers wait on Chromium, the live servers and the subprocesses as much as they compute, so one
# more worker than cores is fastest here (docs: the suite's timings). PYTEST_ARGS narrows a run,
# e.g. make test PYTEST_ARGS=tests/engine.
WORKERS ?= 3
PYTEST_ARGS ?=
PYTEST := $(PY) -m pytest -q -p no:cacheprovider -n $(WORKERS) --dist loadscope
# The tests marked quiet measure a wall-time ratio that needs both cores free (two Celery workers against
# one): they run after the others, alone, in one process.
# pytest's exit status 5 means no test was selected (a narrowed run, or no soak yet): not a failure.
NONE_SELECTED_OK = || { rc=$$?; if [ $$rc = 5 ]; then echo "no test selected"; else exit $$rc; fi; }

test: system-deps setup
	$(PY) -m ruff check --quiet rules variants mextrain_site bench scripts tests
	$(PY) -m mypy
	$(PY) scripts/with_postgres.py $(PYTEST) -m "not soak and not quiet" $(PYTEST_ARGS) $(NONE_SELECTED_OK)
	$(PY) -m pytest -q -p no:cacheprovider -m "quiet and not soak" $(PYTEST_ARGS) $(NONE_SELECTED_OK)

# Under 90 s: no browser, no production stack, no PostgreSQL, no slow run and no soak. What is left computes
# and waits on nothing, so one worker per core (-n auto) beats WORKERS. The tests make their own databases, so
# the development database is not migrated first (setup's last step, 2 s).
test-fast: $(STAMP) compilemessages native
	$(PYTEST) -n auto -x -m "not browser and not stack and not postgres and not slow and not soak" $(PYTEST_ARGS) $(NONE_SELECTED_OK)

# The long soaks left out of make test (.ci/run runs them when MEXTRAIN_SOAK=1): the tests marked
# soak, then the house rulesets' self-play at 200 rounds apiece (30 in make test).
soak: system-deps setup
	$(PY) scripts/with_postgres.py $(PYTEST) -m soak $(PYTEST_ARGS) $(NONE_SELECTED_OK)
	MEXTRAIN_SOAK_ROUNDS=200 $(PYTEST) tests/house/test_house_selfplay.py $(PYTEST_ARGS) $(NONE_SELECTED_OK)

typecheck: $(STAMP)
	$(PY) -m mypy

# The engine beside the baseline commit's, then the API's throughput against /health (the direct
# gunicorn run of make loadtest; make loadtest also runs the production stack).
bench: server-deps setup
	$(PY) -m bench
	$(PY) -m bench.selfplay
	$(PY) -m bench.loadtest --no-stack

# Rewrite the golden transcripts (tests/golden/) after an intended change of verdicts or wording; read the diff.
golden: $(STAMP)
	$(PY) -m tests.golden

# The published rulesets' statistics (self-play of every ruleset and option, 2,000 games each), written to
# mextrain_site/stats/published.json, which the site ships so that a fresh make run shows them at once.
# Run it again when the engine plays differently (tests/stats/test_published.py says so).
stats: setup
	$(PY) manage.py publish_stats

loadtest: server-deps setup
	$(PY) -m bench.loadtest
	$(PY) -m bench.streams

check: $(STAMP)
	$(PY) manage.py check

clean:
	rm -rf $(VENV) staticfiles test-artifacts .pytest_cache .mypy_cache build rules/*.so rules/.native mextrain_native__mypyc*
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +

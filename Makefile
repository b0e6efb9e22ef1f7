# Spielcenter: `make run` starts everything, `make test` checks everything.
# Set-up steps are stamped, so a second `make run` goes straight to starting.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed-stamp

WEB_DEPS := web/node_modules/.installed-stamp
WEB_BUILT := web/dist/.built-stamp
WEB_SOURCES := $(shell find web -path web/node_modules -prune -o -path web/dist -prune -o -type f -print 2>/dev/null)

# Benchmarks: every bench/*.py module except the per-game ones that bench/engines.py collects and the
# players and routers the benchmarks start or import (frozen previous players, the sparring trader,
# the ladder core, the routers in front of the services).
BENCH_MODULES := $(filter-out __init__ engine_% inprocess_ladder %_previous_stark %_previous_search %_previous_eval hanse_expert ladder_results nginx_router proxy,$(basename $(notdir $(wildcard bench/*.py))))

.PHONY: run test proof lint bench setup web chromium nginx promtool lock redis-sentinel

run: setup
	$(PY) -m services.supervisor

# The suite runs in two parts: most tests spread over TEST_WORKERS processes (pytest-xdist, a
# whole module per process; every process starts its own PostgreSQL, Redis and services), then
# the tests marked `serial` (they time themselves or load the machine) one at a time, alone.
# Both parts always run; the last line adds them up.
# Every program a test runs (nginx, promtool, redis-sentinel, chromium: installed here as root;
# kubectl, hadolint: from the lock) must be there: a test whose program is missing fails
# (tests/required_tools.py).  `make test REQUIRE_TOOLS=0` lets those tests skip instead.
TEST_WORKERS ?= 4
TEST_REPORTS := test-results
REQUIRE_TOOLS ?= 1

# The computer players are compiled once, into numba's on-disk cache, before the suite's
# processes start their Celery workers; otherwise each of them compiles the same kernels at once.
test: setup chromium promtool lint
	@rm -f $(TEST_REPORTS)/parallel.xml $(TEST_REPORTS)/serial.xml
	$(PY) -c "from services.ai_worker.move_task import warm_up_players; warm_up_players()"
	@export SPIELCENTER_REQUIRE_TOOLS=$(REQUIRE_TOOLS); status=0; \
	$(PY) -m pytest -m "not slow and not serial" -n $(TEST_WORKERS) --dist loadfile \
		--junitxml=$(TEST_REPORTS)/parallel.xml || status=$$?; \
	$(PY) -m pytest -m "serial and not slow" --junitxml=$(TEST_REPORTS)/serial.xml || status=$$?; \
	$(PY) -m tests.suite_total $(TEST_REPORTS)/parallel.xml $(TEST_REPORTS)/serial.xml || status=1; \
	exit $$status

proof: setup chromium
	$(PY) -m pytest -m slow
	$(MAKE) bench

lint: $(INSTALLED)
	$(VENV)/bin/ruff check .

bench: $(INSTALLED)
	@for module in $(BENCH_MODULES); do echo "# bench.$$module" >&2; $(PY) -m bench.$$module || exit 1; done

setup: $(INSTALLED) web nginx redis-sentinel

$(PY):
	$(PYTHON) -m venv $(VENV)

# Every Python package at the version and hash of the lock file (the project's own code
# editable, from this checkout); reinstalled only when the lock changes.  The lock holds
# the [embedded] and [test] extras; requirements.lock, the image's, holds neither.
LOCK := requirements.lock
DEV_LOCK := requirements-dev.lock
UV_VERSION := 0.13.8
LOCK_OPTIONS := --universal --python-version 3.11 --generate-hashes

$(INSTALLED): $(DEV_LOCK) | $(PY)
	$(PY) -m pip install --require-hashes -r $(DEV_LOCK)
	$(PY) -m pip install --no-deps --no-build-isolation -e .
	touch $@

# After a change of pyproject.toml: both lock files again (uv resolves; the image's lock
# takes the development lock's versions, so both run the same code).
lock: | $(PY)
	$(PY) -m pip install uv==$(UV_VERSION)
	$(VENV)/bin/uv pip compile pyproject.toml --extra embedded --extra test $(LOCK_OPTIONS) -o $(DEV_LOCK)
	$(VENV)/bin/uv pip compile pyproject.toml -c $(DEV_LOCK) $(LOCK_OPTIONS) -o $(LOCK)

# Node.js 22 builds the web client (20 is out of support; the image builds on node:22).
# When the node on PATH is older, Node 22 comes from the npm registry, whose package
# node-linux-<arch> holds the official binary, into .node/ (once, about 10 s).
NODE_VERSION := 22.23.5
NODE_MAJOR := $(firstword $(subst ., ,$(NODE_VERSION)))
SYSTEM_NODE_MAJOR := $(shell node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
ifeq ($(shell [ "$(SYSTEM_NODE_MAJOR)" -ge $(NODE_MAJOR) ] && echo ok),ok)
NODE :=
WITH_NODE :=
else
NODE_ARCH := $(if $(filter aarch64 arm64,$(shell uname -m)),arm64,x64)
NODE := .node/node_modules/node-linux-$(NODE_ARCH)/bin/node
WITH_NODE := PATH="$(CURDIR)/$(dir $(NODE)):$$PATH"

$(NODE):
	@echo "node $(SYSTEM_NODE_MAJOR) on PATH is older than $(NODE_MAJOR): Node $(NODE_VERSION) into .node/" >&2
	npm install --no-save --no-audit --no-fund --prefix .node node-linux-$(NODE_ARCH)@$(NODE_VERSION)
	@test "$$($(NODE) -p 'process.versions.node.split(".")[0]')" = $(NODE_MAJOR)
endif

ifneq ($(wildcard web/package.json),)
web: $(WEB_BUILT)

# npm ci wipes node_modules: only when the lock file changes.
$(WEB_DEPS): web/package.json $(wildcard web/package-lock.json) | $(NODE)
	cd web && if [ -f package-lock.json ]; then $(WITH_NODE) npm ci; else $(WITH_NODE) npm install; fi
	touch $@

$(WEB_BUILT): $(WEB_DEPS) $(WEB_SOURCES)
	cd web && $(WITH_NODE) npm run build
	touch $@
else
web:
	@echo "web/package.json not found: no web client to build"
endif

# The browser tests drive Debian's chromium; install it when missing and we may.
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
		if [ "$$(id -u)" = 0 ]; then apt-get update && apt-get install -y chromium; \
		else echo "chromium missing and not root: the browser tests will fail (install it as root: make chromium)" >&2; fi; \
	fi

# The deploy's own router (deploy/nginx.conf) runs in front of the benchmark's and the
# routing tests' processes (bench/nginx_router.py): Debian's nginx, installed when missing
# and we may.  Only the binary is used; its system service is never started.
nginx:
	@if [ ! -x /usr/sbin/nginx ]; then \
		if [ "$$(id -u)" = 0 ]; then apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nginx; \
		else echo "nginx missing and not root: make test fails its nginx tests (install it as root: make nginx; or make test REQUIRE_TOOLS=0 skips them); bench.tables --router nginx fails" >&2; fi; \
	fi

# tests/deploy/test_monitoring.py checks the alert rules with Debian's promtool (package prometheus,
# about 20 MB), installed when missing and we may; only the binary is used.
promtool:
	@if ! command -v promtool >/dev/null; then \
		if [ "$$(id -u)" = 0 ]; then apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends prometheus; \
		else echo "promtool missing and not root: make test fails the promtool checks (install it as root: make promtool; or make test REQUIRE_TOOLS=0 skips them)" >&2; fi; \
	fi

# The Redis failover test (tests/platform/test_redis_failover.py) runs Debian's redis-server as a primary
# and a replica and redis-sentinel watching them; installed when missing and we may.  The test
# starts the binaries itself, on free ports; it never uses their system services.
redis-sentinel:
	@if [ ! -x /usr/bin/redis-sentinel ] || [ ! -x /usr/bin/redis-server ]; then \
		if [ "$$(id -u)" = 0 ]; then apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends redis-server redis-sentinel; \
		else echo "redis-sentinel missing and not root: make test fails the Redis failover test (install it as root: make redis-sentinel; or make test REQUIRE_TOOLS=0 skips it)" >&2; fi; \
	fi

# Spielcenter: `make run` starts everything, `make test` checks everything.
# Set-up steps are stamped, so a second `make run` goes straight to starting.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed-stamp

WEB_DEPS := web/node_modules/.installed-stamp
WEB_BUILT := web/dist/.built-stamp
WEB_SOURCES := $(shell find web -path web/node_modules -prune -o -path web/dist -prune -o -type f -print 2>/dev/null)

# Benchmarks: every bench/*.py module except the per-game ones that bench/engines.py collects.
BENCH_MODULES := $(filter-out __init__ engine_% inprocess_ladder,$(basename $(notdir $(wildcard bench/*.py))))

.PHONY: run test proof lint bench setup web chromium

run: setup
	$(PY) -m services.supervisor

# The suite runs in two parts: most tests spread over TEST_WORKERS processes (pytest-xdist, a
# whole module per process; every process starts its own PostgreSQL, Redis and services), then
# the tests marked `serial` (they time themselves or load the machine) one at a time, alone.
# Both parts always run; the last line adds them up.
TEST_WORKERS ?= 4
TEST_REPORTS := test-results

test: setup chromium lint
	@rm -f $(TEST_REPORTS)/parallel.xml $(TEST_REPORTS)/serial.xml
	@status=0; \
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

setup: $(INSTALLED) web

$(PY):
	$(PYTHON) -m venv $(VENV)

# Reinstall only when the dependency pins change.
$(INSTALLED): pyproject.toml | $(PY)
	$(PY) -m pip install -e '.[test]'
	touch $@

ifneq ($(wildcard web/package.json),)
web: $(WEB_BUILT)

# npm ci wipes node_modules: only when the lock file changes.
$(WEB_DEPS): web/package.json $(wildcard web/package-lock.json)
	cd web && if [ -f package-lock.json ]; then npm ci; else npm install; fi
	touch $@

$(WEB_BUILT): $(WEB_DEPS) $(WEB_SOURCES)
	cd web && npm run build
	touch $@
else
web:
	@echo "web/package.json not found: no web client to build"
endif

# The browser tests drive Debian's chromium; install it when missing and we may.
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
		if [ "$$(id -u)" = 0 ]; then apt-get update && apt-get install -y chromium; \
		else echo "chromium missing and not root: browser tests will fail" >&2; fi; \
	fi

# Pipboard: every developer and CI command. `make test` and `make sim` set up
# a fresh machine by themselves (Debian packages, .venv, npm packages).

VENV    := .venv
PY      := $(VENV)/bin/python
PIP     := $(VENV)/bin/pip
PYTEST  := $(VENV)/bin/pytest
PIPBOARD := $(VENV)/bin/pipboard
APT_PACKAGES := gnubg chromium nodejs npm mosquitto
PYTHON  ?= python3

.PHONY: all setup test soak bench sim deploy lint clean pico

all: test

# -- set-up ------------------------------------------------------------
$(VENV)/.stamp-apt: Makefile
	@missing=""; \
	[ -x /usr/games/gnubg ] || missing="$$missing gnubg"; \
	[ -x /usr/bin/chromium ] || missing="$$missing chromium"; \
	[ -x /usr/sbin/mosquitto ] || missing="$$missing mosquitto"; \
	command -v node >/dev/null || missing="$$missing nodejs"; \
	command -v npm >/dev/null || missing="$$missing npm"; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi
	@mkdir -p $(VENV) && touch $@

$(VENV)/.stamp-pip: pyproject.toml $(VENV)/.stamp-apt
	@[ -x $(PY) ] || $(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -e '.[dev]'
	@touch $@

node_modules/.stamp: package.json $(VENV)/.stamp-apt
	npm install --no-audit --no-fund --loglevel=error
	@touch $@

setup: $(VENV)/.stamp-pip node_modules/.stamp

# -- everyday commands ---------------------------------------------------
test: setup
	$(PYTEST) -q -n auto -m "not soak and not pico" -p no:cacheprovider tests

soak: setup
	$(PYTEST) -q -n auto -m soak -p no:cacheprovider tests

# PORT=/dev/ttyACM0 or PIPBOARD_RP2EMU=DIR: the same budgets measured on that Pico too, beside the estimates
# (tests/bench/pico_figures.py).
bench: setup
	$(PIP) install -q -e '.[bench]'
	@command -v valgrind >/dev/null || { echo "installing Debian packages: valgrind (instruction counts: tests/bench/instructions.py)"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq valgrind >/dev/null; }
	@failed=""; est=$$(mktemp -d); for b in tests/bench/bench_*.py; do echo "== $$b"; \
	  $(PY) $$b > $$est/$$(basename $$b .py).txt 2>&1; rc=$$?; cat $$est/$$(basename $$b .py).txt; \
	  [ $$rc = 0 ] || failed="$$failed $$b"; done; \
	if [ -n "$(PORT)$(PIPBOARD_RP2EMU)" ]; then echo "== the same budgets on the Pico"; \
	  $(PY) tests/bench/pico_figures.py $(if $(PORT),--port $(PORT),--rp2emu $(PIPBOARD_RP2EMU)) --estimates $$est \
	  || failed="$$failed tests/bench/pico_figures.py"; fi; rm -rf $$est; \
	if [ -n "$$failed" ]; then echo "over budget or broken:$$failed"; exit 1; fi

# The firmware measured on a Pico (tests/README.md, "On a Pico"): deploy in test mode, every tests/pico
# script, whole games through the protocol, one table. PORT=/dev/ttyACM0: a Pico on USB; else the emulated
# Pico of PIPBOARD_RP2EMU, or of ../shared/tools/rp2emu beside the clone; else the Pico found on USB.
# QUICK=1: CI's short set. CHECK_ARGS: more options of `pipboard check` (--games N, --seed S, --scripts ...).
RP2EMU ?= $(or $(PIPBOARD_RP2EMU),$(wildcard $(abspath ../shared/tools/rp2emu)))
pico: setup
	$(PIPBOARD) check $(if $(PORT),--port $(PORT),$(if $(RP2EMU),--rp2emu $(RP2EMU))) $(if $(QUICK),--quick) $(CHECK_ARGS)

sim: setup
	$(PIPBOARD) sim

deploy: setup
	$(PIPBOARD) deploy

# ruff over the code and pyright over the firmware (MicroPython and CircuitPython stubs); part of make test too
lint: setup
	$(PYTEST) -q -p no:cacheprovider tests/test_lint.py

clean:
	rm -rf $(VENV) node_modules build .pytest_cache

# The two commands of the README: `make demo` and `make test`. Everything they need is installed here.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
# torch is pinned to the CPU build that this machine kind ships; a looser pin would pull a CUDA build.
TORCH  ?= torch==2.13.0
PYTEST_ARGS ?=

.PHONY: demo test test-unit bench lint docs install install-dev browser clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml setup.py | $(BIN)/python
	$(BIN)/pip install -q "$(TORCH)"
	$(BIN)/pip install -q -e '.[train,nlp]'
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed
	$(BIN)/pip install -q -e '.[train,nlp,dev]'
	touch $@

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

# Headless Chromium from Debian's packages for the browser tests (Playwright drives it; no browser download).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null; \
	  else echo "chromium missing: run 'sudo apt-get install chromium' for the browser tests"; fi; }

demo: install
	$(BIN)/assay demo

test: install-dev browser
	$(BIN)/pytest -m "not benchmark" $(PYTEST_ARGS)

test-unit: install-dev
	$(BIN)/pytest tests/unit -q $(PYTEST_ARGS)

bench: install-dev
	@set -e; for b in tests/benchmarks/bench_*.py; do echo "== $$b"; $(BIN)/python $$b $(BENCH_ARGS); done

lint: install-dev
	$(BIN)/ruff check platform operators pipelines dashboards tests
	$(BIN)/pytest -q -p no:cacheprovider tests/unit/test_layers.py

# The command-line reference and the error codes, written from the commands and the error catalogue
# (tests/unit/test_cli_reference.py fails while either is stale).
docs: install
	$(BIN)/python -m assay.cli.reference > docs/cli.md
	$(BIN)/python -c 'from assay.errors import reference; print(reference(), end="")' > docs/errors.md

clean:
	rm -rf $(VENV) build *.egg-info platform/*.egg-info .pytest_cache .ruff_cache

# The two commands of the README: `make demo` and `make test`. Everything they need is installed here.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
# torch is pinned to the CPU build that this machine kind ships; a looser pin would pull a CUDA build.
TORCH  ?= torch==2.13.0
PYTEST_ARGS ?=
# The compatibility suite's venv: the oldest Ray that pyproject.toml allows (the lower bound of its pin).
COMPAT_VENV := .venv-compat
RAY_OLDEST  := $(shell sed -n 's/.*"ray\[data,train\]>=\([0-9.]*\),.*/\1/p' pyproject.toml)
# The runtime's and the jobs' unit suites, and a few integration tests of what a Ray release can change
# (a pipeline on embedded Ray, a killed worker, the embedded instance's stop, a job's restart and resize,
# Ray's quiet start-up): about 8 minutes on 2 busy cores. Not here: the stall test that names the stuck
# stage, which needs Ray Data's no-progress guard (from Ray 2.58; before, a stalled run still fails, at 2 x the
# stall time + 10 s, without the stage's name).
COMPAT_TESTS := tests/unit/test_ray_session.py tests/unit/test_cluster_auth.py tests/unit/test_local_runner.py \
	tests/unit/test_run_plan.py tests/unit/test_watchdog.py tests/unit/test_sink_cadence.py \
	tests/unit/test_sink_types.py tests/unit/test_runtime_sink_background.py \
	tests/unit/test_stage_records.py tests/unit/test_early_planning.py \
	tests/unit/test_jobs_*.py tests/unit/test_training.py \
	"tests/integration/test_runtime.py::test_counts_reconcile_and_every_file_is_accounted_for" \
	"tests/integration/test_runtime.py::test_a_killed_worker_leaves_the_same_database_as_a_clean_run" \
	"tests/integration/test_runtime_clusters.py::test_stopping_the_embedded_instance_stops_every_process_it_started" \
	"tests/integration/test_jobs_faults.py::test_killed_worker_process_restarts_from_the_checkpoint" \
	"tests/integration/test_jobs_faults.py::test_resize_replans_the_layout_and_keeps_the_global_batch" \
	tests/integration/test_quiet_ray.py

# The four source folders map onto one import namespace (setup.py), so setuptools installs them editable
# through its meta path finder and says so in a multi-line note on every install ("Editable installation.
# Please be careful with folders ... same name as your package"); the layout is fixed and no folder here
# shadows the package, so the note is filtered by its first words and nothing else is.
EDITABLE := PYTHONWARNINGS="ignore:Editable installation"

.PHONY: demo test test-unit test-compat bench lint docs install install-dev browser clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml setup.py | $(BIN)/python
	$(BIN)/pip install -q "$(TORCH)"
	$(EDITABLE) $(BIN)/pip install -q -e '.[train,nlp]'
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed
	$(EDITABLE) $(BIN)/pip install -q -e '.[train,nlp,dev]'
	touch $@

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

# Headless Chromium from Debian's packages for the browser tests (Playwright drives it; no browser download),
# with fonts for every glyph the dashboards draw: CJK names (fonts-noto-cjk) and the verdict icons
# (fonts-noto-color-emoji; without it they render as empty boxes).
BROWSER_PACKAGES := chromium fonts-noto-cjk fonts-noto-color-emoji
browser:
	@missing=""; command -v chromium >/dev/null 2>&1 || missing="chromium"; \
	for p in $(filter fonts-%,$(BROWSER_PACKAGES)); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else echo "missing for the browser tests:$$missing (run: sudo apt-get install$$missing)"; fi; fi

$(COMPAT_VENV)/.installed: pyproject.toml setup.py
	$(PYTHON) -m venv $(COMPAT_VENV)
	$(COMPAT_VENV)/bin/pip install -q --upgrade pip
	$(COMPAT_VENV)/bin/pip install -q "$(TORCH)"
	$(EDITABLE) $(COMPAT_VENV)/bin/pip install -q -e '.[train,dev]' "ray[data,train]==$(RAY_OLDEST)"
	touch $@

demo: install
	$(BIN)/assay demo

test: install-dev browser
	$(BIN)/pytest -m "not benchmark" $(PYTEST_ARGS)

test-unit: install-dev
	$(BIN)/pytest tests/unit -q $(PYTEST_ARGS)

# The runtime and jobs suites on the oldest supported Ray, in a venv of their own (CI runs it after `make test`).
test-compat: $(COMPAT_VENV)/.installed
	$(COMPAT_VENV)/bin/python -c 'import ray; print("test-compat on Ray", ray.__version__)'
	$(COMPAT_VENV)/bin/pytest -q -p no:cacheprovider $(COMPAT_TESTS) $(PYTEST_ARGS)

bench: install-dev
	@set -e; for b in tests/benchmarks/bench_*.py; do echo "== $$b"; $(BIN)/python $$b $(BENCH_ARGS); done

lint: install-dev
	$(BIN)/ruff check platform operators pipelines dashboards tests
	$(BIN)/pytest -q -p no:cacheprovider tests/unit/test_layers.py tests/unit/test_pipelines_through_store_queries.py

# The command-line reference and the error codes, written from the commands and the error catalogue
# (tests/unit/test_cli_reference.py fails while either is stale).
docs: install
	$(BIN)/python -m assay.cli.reference > docs/cli.md
	$(BIN)/python -c 'from assay.errors import reference; print(reference(), end="")' > docs/errors.md

clean:
	rm -rf $(VENV) $(COMPAT_VENV) build *.egg-info platform/*.egg-info .pytest_cache .ruff_cache

# Two everyday commands: `make play` and `make test`. Each sets itself up (a local .venv
# with the project installed in editable mode) and is quick when that is done. Each installs
# only what it needs: play the core (which needs nothing beside Python), serve the `web`
# extra, test and lint the `dev` extra (which holds web's packages too). One stamp per set,
# each newer than pyproject.toml when that set is installed from it: edit pyproject.toml and
# the next command reinstalls what it needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CORE := $(VENV)/.installed-core
WEB := $(VENV)/.installed-web
NOTEBOOK := $(VENV)/.installed-notebook
DEV := $(VENV)/.installed-dev

# What an install builds from: editing setup.py or a native kernel's C source reinstalls
# (and so rebuilds the kernel) on the next `make`.
SOURCES := pyproject.toml setup.py $(wildcard src/zerosum/games/*/*.c src/zerosum/games/*/*.h src/zerosum/learn/*.c)

.PHONY: play serve notebook test test-slow lint bench bench-deps setup clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Installing an extra installs the core too, so each stamp below also renews $(CORE).
$(CORE): $(SOURCES) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(WEB): $(SOURCES) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[web]'
	touch $@ $(CORE)

$(NOTEBOOK): $(SOURCES) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[notebook]'
	touch $@ $(CORE)

$(DEV): $(SOURCES) | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(NOTEBOOK) $(WEB) $(CORE)

setup: $(DEV)

play: $(CORE)
	$(BIN)/zerosum play

# The browser UI on http://127.0.0.1:8000/ (this machine only).
serve: $(WEB)
	$(BIN)/zerosum serve

# The notebook widget's extra (anywidget) in the .venv, for Jupyter, VS Code or Colab
# kernels run from it: docs/tutorial.ipynb shows the widget.
notebook: $(NOTEBOOK)

lint: $(DEV)
	$(BIN)/ruff check .
	$(BIN)/mypy

test: lint
	$(BIN)/pytest -m "not slow" -n 2

test-slow: $(DEV)
	$(BIN)/pytest -m slow -n 2

bench: $(DEV)
	$(BIN)/python bench/search_speed.py

# OpenSpiel and easyAI, which some bench scripts compare against (never needed by tests).
bench-deps: $(DEV)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis

# Two everyday commands: `make play` and `make test`. Each sets itself up (a local
# .venv with the project installed in editable mode) and is quick when that is done.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play serve test test-slow lint bench bench-deps setup clean

# setup.py and the C sources too: editing a native kernel rebuilds it on the next `make`.
$(STAMP): pyproject.toml setup.py $(wildcard src/zerosum/games/*/*.c)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

play: $(STAMP)
	$(BIN)/zerosum play

# The browser UI on http://127.0.0.1:8000/ (this machine only).
serve: $(STAMP)
	$(BIN)/zerosum serve

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

test: lint
	$(BIN)/pytest -m "not slow" -n 2

test-slow: $(STAMP)
	$(BIN)/pytest -m slow -n 2

bench: $(STAMP)
	$(BIN)/python bench/search_speed.py

# OpenSpiel and easyAI, which some bench scripts compare against (never needed by tests).
bench-deps: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis

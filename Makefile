# The two commands of the README: `make play` and `make test`. Both set up everything.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: play test golden bench lint clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.dev-installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed

# `make play PORT=8001 HOST=0.0.0.0`: the server on another port or address (default 127.0.0.1:8000).
play: $(VENV)/.installed
	$(BIN)/matanui serve $(if $(PORT),--port $(PORT)) $(if $(HOST),--host $(HOST))

test: $(VENV)/.dev-installed
	$(BIN)/pytest

golden: $(VENV)/.dev-installed
	$(BIN)/python -m tests.golden --write

bench: $(VENV)/.installed
	$(BIN)/matanui bench

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check src tests

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build src/*.egg-info

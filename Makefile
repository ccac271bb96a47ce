# Two commands for a fresh machine: `make kit` (the print kit into output/) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: kit test lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

kit: $(VENV)/.installed
	$(BIN)/hashi-print kit --out output

test: $(VENV)/.installed
	$(BIN)/python -m pytest -q
	$(BIN)/ruff check .

lint: $(VENV)/.installed
	$(BIN)/ruff check .

bench: $(VENV)/.installed
	$(BIN)/python bench/solve.py

clean:
	rm -rf $(VENV) output/* build *.egg-info

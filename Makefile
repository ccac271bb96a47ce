# Two commands for a fresh machine: `make kit` (the print kit into output/) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: kit test lint bench clean catalogs fonts

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

# hashi-print alone, for `make kit` (the test extra adds Playwright, Dask and the rest).
$(VENV)/.kit: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

kit: $(VENV)/.kit
	$(BIN)/hashi-print kit --out output

test: $(VENV)/.installed
	$(BIN)/python -m pytest -q
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports

lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports

bench: $(VENV)/.installed
	$(BIN)/python bench/solve.py

clean:
	rm -rf $(VENV) output/* build *.egg-info

# Message catalogs (see docs/languages.md): collect the marked text, merge it into each language's .po,
# and compile the .mo files that ship in the package.
LOCALE := hashi_print/locale
catalogs: $(VENV)/.installed
	$(BIN)/pybabel extract -F babel.cfg --no-location --sort-output --project=hashi-print \
		--copyright-holder=hashi_print --msgid-bugs-address="" -o $(LOCALE)/hashi_print.pot .
	$(BIN)/pybabel update -i $(LOCALE)/hashi_print.pot -d $(LOCALE) -D hashi_print --no-fuzzy-matching \
		--ignore-obsolete --width=100
	$(BIN)/pybabel compile -d $(LOCALE) -D hashi_print --statistics

# The Korean and Japanese font subsets (needs Debian's fonts-nanum and fonts-ipaexfont); rerun after
# `make catalogs` when a translation brings new characters.
fonts: $(VENV)/.installed
	$(BIN)/python scripts/subset_fonts.py

# The two commands of the README: `make run` and `make test`. Both create .venv/ when it is missing.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.harp-installed

.PHONY: run test lint lit unit ecosystem clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/harp analyze examples/ ; test $$? -le 1

test: $(STAMP) lint lit unit

lint: $(STAMP)
	$(BIN)/ruff check .

lit: $(STAMP)
	PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/lit -sv tests/lit

unit: $(STAMP)
	$(BIN)/python -m pytest -q tests/unit

# harp on real programs nobody here wrote, scored against reviewed verdicts (README, "Measured")
ecosystem: $(STAMP)
	$(BIN)/python bench/ecosystem.py

clean:
	rm -rf $(VENV) build *.egg-info

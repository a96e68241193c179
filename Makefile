# The two commands of the README: `make run` and `make test`. Both create .venv/ when it is missing.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.harp-installed

.PHONY: run test lint lit unit ecosystem clean

# The official SARIF 2.1.0 JSON schema (rtm.5, the final 2.1.0 text) for the SARIF output's
# test. No Python distribution ships it; Microsoft's @microsoft/jest-sarif on the npm registry
# does. The tarball is checked against its pinned digest and only the schema is kept.
SARIF_SCHEMA := $(VENV)/share/sarif-schema-2.1.0.json
SARIF_TGZ_URL := https://registry.npmjs.org/@microsoft/jest-sarif/-/jest-sarif-1.0.0-beta.0.tgz
SARIF_TGZ_SHA256 := 748e2c3d1a842e7bb258416685c7ea3a0da40005b72267b2052c2856d48ad102

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

$(SARIF_SCHEMA):
	mkdir -p $(VENV)/share/sarif.tmp
	curl -fsSL --retry 3 -o $(VENV)/share/sarif.tmp/pkg.tgz $(SARIF_TGZ_URL)
	echo "$(SARIF_TGZ_SHA256)  $(VENV)/share/sarif.tmp/pkg.tgz" | sha256sum -c --quiet
	tar -xzf $(VENV)/share/sarif.tmp/pkg.tgz -C $(VENV)/share/sarif.tmp package/lib/schemas/sarif-2.1.0-rtm.5.json
	mv $(VENV)/share/sarif.tmp/package/lib/schemas/sarif-2.1.0-rtm.5.json $@
	rm -rf $(VENV)/share/sarif.tmp

run: $(STAMP)
	$(BIN)/harp analyze examples/ ; test $$? -le 1

test: $(STAMP) lint lit unit

lint: $(STAMP)
	$(BIN)/ruff check .

lit: $(STAMP)
	PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/lit -sv tests/lit

unit: $(STAMP) $(SARIF_SCHEMA)
	$(BIN)/python -m pytest -q tests/unit

# harp on real programs nobody here wrote, scored against reviewed verdicts (README, "Measured")
ecosystem: $(STAMP)
	$(BIN)/python bench/ecosystem.py

clean:
	rm -rf $(VENV) build *.egg-info

# make prove  - certify every spec in mechanisms/, refute every one in mechanisms/refuted/ (writes certificates/)
# make test   - the test suite (unit, golden, real Coq)
# make test-certificates - re-make tests/certificates/ (the test specs' certificates the Coq tests read)
# Each sets up what it needs: Coq from Debian's packages (when root) and a
# virtual environment with the package.
# make docker-check - build the Docker image with podman, proving and testing inside the build
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
OBLIGATIONS := $(VENV)/bin/obligations

.PHONY: all help setup coq venv theories prove test-certificates verify test test-unit lint docs golden bench docker-check clean

all: prove

help:
	@echo "make prove         certify every spec in mechanisms/ and refute the false claims of mechanisms/refuted/ (sets up Coq, the venv and the library)"
	@echo "make verify        re-check every certificate in certificates/ with Coq"
	@echo "make test-certificates  re-make tests/certificates/ (the test specs' certificates the Coq tests read)"
	@echo "make test          the test suite: unit, golden, real Coq (long: about 12 min on 2 cores)"
	@echo "make test-unit     the unit tests only (no Coq)"
	@echo "make venv          the virtual environment .venv with the package (editable) and its extras"
	@echo "make theories      compile the Coq library obligations/theories/"
	@echo "make lint          ruff, mypy --strict, the import contracts"
	@echo "make docs          the documentation site in build/site (MkDocs, --strict: a broken link or anchor fails)"
	@echo "make docker-check  build the Docker image, proving and testing inside the build"
	@echo ""
	@echo "Variables (make VAR=value target):"
	@echo "  NPROC=n  files coqc compiles at once in 'make theories', test workers in 'make test' (default: every core, now $(NPROC));"
	@echo "           NPROC=1 on a shared or small machine"
	@echo "  JOBS=n   Coq jobs at once in 'make prove' (default 0: one per core; JOBS=1 one at a time)"
	@echo "  PYTHON   the interpreter the venv is made from (default python3)"

setup: coq venv

coq:
	@bash scripts/install-coq.sh

venv: $(VENV)/.installed

# setuptools says, as a UserWarning, that an editable install of a package whose folder is
# in the working directory may be imported from there: that is this repository's layout on
# purpose (the tests and `python -m obligations` run from the root), so it is not printed.
# --no-compile: pip would byte-compile every installed module (about 30 s of CPU, most of it
# modules never imported); Python compiles what is imported, once, on first use (unless
# PYTHONDONTWRITEBYTECODE is set, as on this project's machines: then every process compiles
# again, and the test suite turns the caches back on for itself, tests/conftest.py).
EDITABLE = PYTHONWARNINGS=ignore::UserWarning $(PY) -m pip install -q --no-compile -e

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(EDITABLE) '.[test,plot,lint,docs,cluster]'
	-$(EDITABLE) '.[clients]' || echo "diffprivlib not installed: its client tests will skip"
	touch $@ $(VENV)/.docs-installed

# files coqc compiles at once when building theories/ (the library: about 140 files)
NPROC ?= $(shell nproc 2>/dev/null || echo 2)
theories: coq
	cd obligations/theories && coq_makefile -f _CoqProject -o Makefile.coq >/dev/null && $(MAKE) -s -f Makefile.coq -j$(NPROC)

# Coq jobs at once for prove: 0 = one per core (make prove JOBS=1: one at a time)
JOBS ?= 0

# mechanisms/refuted/ holds claims that are false on purpose (diffprivlib as shipped, a peer
# accountant's wrong value): each must be refuted, with its certificate.
prove: setup theories
	$(OBLIGATIONS) prove mechanisms/ --jobs $(JOBS)
	@mkdir -p build
	$(OBLIGATIONS) prove mechanisms/refuted/ --jobs $(JOBS) --json > build/refuted.json; \
	  $(PY) scripts/expect-refuted.py $$? < build/refuted.json

# The certificates of the test specs the Coq tests only read (tests/committed.py): re-make
# them, as certificates/ with `make prove`, when test_committed_certificates says they are stale.
test-certificates: setup theories
	@mkdir -p build
	$(OBLIGATIONS) prove $$(grep -v '^#' tests/certificates/SPECS) --out tests/certificates --jobs $(JOBS) \
	  --json > build/test-certificates.json; \
	  $(PY) scripts/expect-refuted.py --decided tests/certificates/ $$? < build/test-certificates.json

verify: setup theories
	$(OBLIGATIONS) verify certificates/

# One worker per core (NPROC), each test file in one of them (module fixtures are not shared
# across processes): the real-Coq files are long and independent.  The longest files start
# first (tests/conftest.py orders them; xdist would otherwise reorder by test count).
# The whole suite; the library is built (and checked by coqchk) while the tests that need no
# Coq run, then the Coq tests (scripts/test.sh).
# Coq is installed (when missing) beside the tests that need none: scripts/test.sh.
test: venv
	@bash scripts/test.sh "$(PY)" "$(NPROC)"

# The site of docs/ (mkdocs.yml) in build/site, with MkDocs from the `docs` extra; --strict
# turns every warning into a failure: a link to a missing page or anchor, a link outside docs/.
docs: $(VENV)/.docs-installed
	$(VENV)/bin/mkdocs build --strict --site-dir build/site

$(VENV)/.docs-installed: $(VENV)/.installed
	$(EDITABLE) '.[docs]'
	touch $@

# ruff on everything (pyproject.toml: pyflakes, import order, likely bugs, modern syntax, a
# complexity bound); mypy --strict on the whole package and the Coq lint; the import
# contracts of pyproject.toml (one direction of flow, the four models independent of each
# other, no import circles, only obligations.prover starts processes); the Coq library's
# house rules (scripts/coq-lint.py: nothing assumed, headers, names, Requires at the top,
# no bare simpl on reals).
lint: venv
	$(VENV)/bin/ruff check obligations tests bench scripts
	$(VENV)/bin/mypy --strict obligations scripts/coq-lint.py
	$(VENV)/bin/lint-imports
	$(PY) scripts/coq-lint.py

test-unit: venv
	$(PY) -m pytest tests/unit -q

golden: venv
	$(PY) -m pytest tests/golden -q --regen-golden

bench: setup theories
	$(PY) bench/finite_scaling.py

docker-check:
	@bash scripts/docker-check.sh

clean:
	rm -rf build
	cd obligations/theories && rm -f .coqchk-ok-* Makefile.coq Makefile.coq.conf .Makefile.coq.d && \
	  find . \( -name '*.vo' -o -name '*.vok' -o -name '*.vos' -o -name '*.glob' -o -name '.*.aux' \) -delete

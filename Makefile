# Two commands do all set-up: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# The data lives in .rulekb/ here: rulekb's own default when it runs from a checkout (as
# installed below), so `.venv/bin/rulekb` finds what `make run` built. RULEKB_HOME overrides it.
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test install install-test build bench clean

$(BIN)/rulekb: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e .
	touch $@

install: $(BIN)/rulekb

install-test: install
	$(BIN)/pip install -q -e '.[test]'

build: install
	$(BIN)/rulekb build

# Ctrl-C or SIGTERM stops the server cleanly (web.serving.serve_until_stopped): it answers the
# requests it has and exits 0, so make reports no error (make itself, when signalled as well,
# then ends by that signal, saying nothing).
run: build
	$(BIN)/rulekb serve --host $(HOST) --port $(PORT)

# The suite runs on every core (pytest-xdist): PYTEST_XDIST=N runs N workers, PYTEST_XDIST=0
# runs it in this one process. Each test file runs whole, in its order, on one worker
# (loadfile): some files are a sequence against one home (import, then list, then check), and
# a worker given only a file's tail would run them against a home that never imported; a
# file's fixtures are built once; tests/conftest.py hands the files out costliest first and keeps
# the files reading the session's offline pack on one worker. pytest exits 5 when it collects
# no test; that is not a failure of the suite.
PYTEST_XDIST ?= auto
XDIST_ARGS := $(if $(filter 0,$(PYTEST_XDIST)),-p no:xdist,-n $(PYTEST_XDIST) --dist loadfile)
test: install-test
	$(BIN)/python -m pytest $(XDIST_ARGS) $(PYTEST_ARGS); rc=$$?; if [ $$rc -eq 5 ]; then echo "no tests collected"; exit 0; fi; exit $$rc

bench: install-test
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .rulekb .pytest_cache

# Set-up and the two jobs. `make demo` and `make test` each install what is missing first:
# system packages (apt), a virtual environment in .venv, and the package with its dependencies.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
SAMPLE := companion/games/sekigahara/samples/sekigahara-demo.jsonl

.PHONY: demo test test-fast shots lint setup clean

# The simulated table: a whole game through camera frames, the card reader and buttons, the
# referee and the record, with the live tablet at http://127.0.0.1:8000/ (CI: headless).
DEMO_ARGS ?= $(if $(CI),--headless --port 0,--pace 0.3)

demo: setup
	$(BIN)/companion kit check sekigahara
	$(BIN)/companion replay --check $(SAMPLE)
	$(BIN)/companion demo $(DEMO_ARGS)

# The suite runs on WORKERS processes (pytest-xdist). Many tests wait on child processes,
# browsers and brokers, so WORKERS=2 (the default) measured best on 2 cores; `make test
# WORKERS=4` on a bigger machine. The tests sharing a module's chromium, broker or measured
# board stay on one worker (loadgroup, tests/conftest.py); the few that assert a wall-clock time
# (marked timed) run after them, alone. One file, one at a time, as always:
# `.venv/bin/python -m pytest tests/test_web.py`.
WORKERS ?= 2
PYTEST  := $(BIN)/python -m pytest -n $(WORKERS) --dist loadgroup

# Everything: lint, types and the whole suite (CI runs this).
test: setup
	scripts/install-system-packages system-packages.txt system-packages-test.txt
	$(BIN)/ruff check companion tests
	$(BIN)/mypy
	$(PYTEST) -m "not timed"
	$(BIN)/python -m pytest -m timed

# Daily work: the same without the tests marked slow (whole demo games, crash trials, sweeps).
test-fast: setup
	scripts/install-system-packages system-packages.txt system-packages-test.txt
	$(BIN)/ruff check companion tests
	$(BIN)/mypy
	$(PYTEST) -m "not slow and not timed"
	$(BIN)/python -m pytest -m "timed and not slow"

# The screens as the browser tests see them, saved under tests/artifacts/ (tablet 1280x800 and
# phone 390x844) for a person to open: the tests that draw a screen, with screenshots on.
SHOT_TESTS := tests/test_browser.py tests/test_browser_room.py tests/test_screen_*.py \
	tests/test_setup_page.py tests/test_kit_author.py tests/test_broadcast_dashboard.py \
	tests/test_replay_viewer.py tests/test_camera_watch.py
shots: setup
	COMPANION_SHOTS=1 $(PYTEST) -m "not timed" $(SHOT_TESTS)

lint: setup
	$(BIN)/ruff check companion tests
	$(BIN)/mypy

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml system-packages.txt
	scripts/install-system-packages
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache .hypothesis

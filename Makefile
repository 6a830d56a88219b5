# Capital Lux Tutor: build, test and run targets.
# Every variable can be overridden: `make test PYTHON=python3.12`.

SHELL := /bin/bash

ROOT      := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
PYTHON    ?= python3
VENV      ?= $(ROOT)/.venv
VPY       ?= $(VENV)/bin/python
PIP       ?= $(VPY) -m pip
STAMP     ?= $(VENV)/.installed
EXTRAS    ?= test
CHROMIUM  ?= /usr/bin/chromium
APT_GET   ?= apt-get
SUDO      ?= $(shell [ "$$(id -u)" = 0 ] || echo sudo)

MYPY      ?= $(VENV)/bin/mypy
MYPYFLAGS ?=
PYTEST    ?= $(VPY) -m pytest
PYTESTFLAGS ?=
# The test files spread over workers, each file on one (its servers started once): one per
# core and one more (much of a browser test is waiting on a server, a cull or a kernel), at
# most 4 (each worker's browser tests start a server, its kernels and a Chromium). Two per core
# was slower on 2 cores: 661.2 s of pytest and 984 s of CPU against 579.8 s and 864 s.
# PARALLEL= runs them in one process.
WORKERS   ?= $(shell n=$$(nproc 2>/dev/null || echo 1); echo $$(( n + 1 > 4 ? 4 : n + 1 )))
PARALLEL  ?= --numprocesses=$(WORKERS) --dist=loadfile --no-loadscope-reorder
TESTS     ?= tests
NOTEBOOKS ?= $(wildcard $(ROOT)/notebooks/*.ipynb)
NBVAL_ARGS ?= $(if $(strip $(NOTEBOOKS)),--nbval-lax notebooks)

# The class server: Voila with capital_lux.serve's guards (see docs/operator.md, "The class server and its guards").
VOILA     ?= $(VPY) -m capital_lux.serve
TUTOR_NB  ?= notebooks/tutorial.ipynb
PORT      ?= 8866
HOST      ?= 127.0.0.1

# Browser tests use Debian's Chromium; Playwright never downloads its own.
export CAPITAL_LUX_CHROMIUM ?= $(CHROMIUM)
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD ?= 1

.PHONY: all venv chromium proxy test typecheck pytest tutor class class-stop class-key bench clean

all: test

venv: $(STAMP)

# Reinstall only when the package's build changes (or the venv is gone): pyproject.toml,
# setup.py, or a module compiled with mypyc (capital_lux/compiled.py lists them), whose
# stale build would otherwise leave the package on its pure-Python fallback.
COMPILED_SOURCES := $(addprefix $(ROOT)/capital_lux/,engine/kernel.py engine/kernel_state.py \
                      players/rule_of_thumb.py players/policies.py players/quick_rule.py \
                      players/search_tree.py analysis/endgame.py)
TEMPLATE := share/jupyter/voila/templates/capital-lux
$(STAMP): $(ROOT)/pyproject.toml $(ROOT)/setup.py $(COMPILED_SOURCES)
	@test -x $(VPY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade pip
	cd $(ROOT) && $(PIP) install -e ".[$(EXTRAS)]"
	@# An editable install leaves out pyproject's data-files: link the tutor's Voila template
	@# where a plain install puts it, so edits to it apply at once.
	mkdir -p $(VENV)/share/jupyter/voila/templates
	ln -sfn $(ROOT)/$(TEMPLATE) $(VENV)/$(TEMPLATE)
	@touch $@

chromium:
	@if [ -x "$(CHROMIUM)" ]; then \
	  echo "chromium: $(CHROMIUM) present"; \
	else \
	  $(SUDO) $(APT_GET) update && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y chromium; \
	fi

# JupyterHub's proxy (deploy/, tests/test_hub.py), from npm into the checkout's .node folder.
NPM       ?= npm
NODE_DIR  ?= $(ROOT)/.node
PROXY     := $(NODE_DIR)/node_modules/.bin/configurable-http-proxy
PROXY_VERSION ?= 5
proxy: $(PROXY)

$(PROXY):
	@command -v $(NPM) >/dev/null || { echo "make proxy: npm is missing: install Node.js and npm (configurable-http-proxy, JupyterHub's proxy, comes from npm)" >&2; exit 1; }
	$(NPM) install --prefix $(NODE_DIR) --no-save --no-audit --no-fund configurable-http-proxy@$(PROXY_VERSION) \
	  || { echo "make proxy: npm could not install configurable-http-proxy into $(NODE_DIR) (see above)" >&2; exit 1; }
	@test -x $@ || { echo "make proxy: npm finished but $@ is missing" >&2; exit 1; }

test: venv chromium proxy
	cd $(ROOT) && $(MYPY) $(MYPYFLAGS)
	cd $(ROOT) && $(PYTEST) $(TESTS) $(NBVAL_ARGS) $(PARALLEL) $(PYTESTFLAGS)

typecheck: venv
	cd $(ROOT) && $(MYPY) $(MYPYFLAGS)

pytest: venv chromium proxy
	cd $(ROOT) && $(PYTEST) $(TESTS) $(NBVAL_ARGS) $(PARALLEL) $(PYTESTFLAGS)

# Voila reads voila.json from the current directory, so run from the repo root.
tutor: venv
	cd $(ROOT) && $(VOILA) $(TUTOR_NB) --port=$(PORT) --no-browser --Voila.ip=$(HOST)

# A class: the exercises and the teacher's page served to the room's network, in the background
# (capital_lux/serve/classroom.py). ADDRESS= listens on one address only (default: every one);
# CLASS_OPTIONS= passes more settings to the server, e.g. --ClassKernels.max_kernels=40.
ADDRESS   ?=
CLASS_OPTIONS ?=
class: venv
	@cd $(ROOT) && $(VPY) -m capital_lux.serve.classroom start --port=$(PORT) $(if $(ADDRESS),--address=$(ADDRESS)) $(CLASS_OPTIONS)

class-stop:
	@cd $(ROOT) && $(VPY) -m capital_lux.serve.classroom stop

# A new teacher's key for the class (running or not), and every wrong key typed so far forgotten.
class-key:
	@cd $(ROOT) && $(VPY) -m capital_lux.serve.classroom key

bench: venv
	cd $(ROOT) && $(VPY) -m capital_lux bench

# The manual (docs/): built with warnings as errors (a broken link to a page or a heading is
# one), its examples run (Sphinx's doctest builder, and the docstrings' in tests/test_doctests.py),
# then the learner's and teacher's guides in French. DOCS_OUT= chooses the output folder.
SPHINX    ?= $(VPY) -m sphinx
DOCS_OUT  ?= $(ROOT)/docs/_build
.PHONY: docs docs-po screenshots
docs: venv
	cd $(ROOT) && $(SPHINX) -W --keep-going -q -b html docs $(DOCS_OUT)/html
	cd $(ROOT) && $(SPHINX) -W --keep-going -q -b doctest docs $(DOCS_OUT)/doctest
	cd $(ROOT) && $(SPHINX) -W --keep-going -q -b html -D language=fr docs $(DOCS_OUT)/html/fr
	cd $(ROOT) && $(PYTEST) -q tests/test_docs.py tests/test_doctests.py

# The guides' texts for translators: docs/_build/gettext/*.pot merged into docs/locale/fr (Babel).
docs-po: venv
	cd $(ROOT) && $(VPY) docs/translate.py

# The README's and the guides' pictures, taken from the real pages in the browser tests' Chromium.
screenshots: venv chromium
	cd $(ROOT) && $(VPY) docs/screenshots.py docs/_static

clean:
	rm -rf $(VENV) $(ROOT)/.pytest_cache $(ROOT)/.mypy_cache $(ROOT)/.hypothesis \
	  $(ROOT)/build $(ROOT)/dist $(ROOT)/docs/_build $(ROOT)/*.egg-info $(ROOT)/test-artifacts $(NODE_DIR)
	find $(ROOT) -path $(VENV) -prune -o -type d -name __pycache__ -prune -exec rm -rf {} +
	find $(ROOT)/capital_lux \( -name '*.so' -o -name '_compiled_sources.json' \) -delete

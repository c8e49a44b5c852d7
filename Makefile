# groundplan: `make demo` runs the main job offline; `make test` runs the whole suite.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# aws-sam-cli pins its own boto3/click/pydantic: it gets a virtualenv of its own, used only by
# the template's `sam validate --lint` test.
SAM_VENV := .venv-sam
SAM      := $(SAM_VENV)/bin/sam
# The web console's browser test drives Debian's chromium through chromium-driver (selenium).
CHROMEDRIVER := /usr/bin/chromedriver
# The SSH provisioner tests run throwaway sshd servers (Debian's openssh-server; ssh-keygen and
# openssl make their keys and password hash).
SSHD         := /usr/sbin/sshd
SUDO         := $(if $(filter 0,$(shell id -u)),,sudo)

.PHONY: demo demo-cloud test lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(SAM): infra/sam-requirements.txt
	$(PYTHON) -m venv $(SAM_VENV)
	$(SAM_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(SAM_VENV)/bin/python -m pip install --quiet -r infra/sam-requirements.txt

$(CHROMEDRIVER):
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver

$(SSHD):
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssh-server openssh-client openssl

demo: $(STAMP)
	$(BIN)/python examples/demo.py
	$(BIN)/python examples/demo_cloud.py

demo-cloud: $(STAMP)
	$(BIN)/python examples/demo_cloud.py

test: $(STAMP) $(SAM) $(CHROMEDRIVER) $(SSHD)
	$(BIN)/ruff check engine providers functions tests benchmarks examples
	$(BIN)/mypy
	$(BIN)/python -m pytest -n 2 --dist loadfile tests

lint: $(STAMP)
	$(BIN)/ruff check engine providers functions tests benchmarks examples
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python benchmarks/parse_load.py

clean:
	rm -rf $(VENV) $(SAM_VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache

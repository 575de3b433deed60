# Guardian: `make run` starts the whole system natively, `make test` runs the whole suite.
SHELL := /bin/bash
SWIFT ?= swift
CONFIG ?= debug

.PHONY: deps build run test bench demo compose-check compose-test clean stop timeline-check

## Install the Debian packages Guardian needs (only the missing ones).
deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build -c $(CONFIG)

## Build, start mosquitto (broker-config/) and every service; Ctrl-C stops them all.
run: build
	@GUARDIAN_BIN="$$($(SWIFT) build -c $(CONFIG) --show-bin-path)" scripts/run-local.sh

## Stop a `make run` started elsewhere (e.g. in another terminal).
stop:
	@scripts/run-local.sh --stop

## The whole suite: the demo (every service as a process), docker compose on a real container engine
## (compose-test), then every unit and integration test over a real mosquitto, and last the
## hostile-input floods (600,000 messages) on their own, so that they do not starve the process tests
## on a small machine. Each run has its own TMPDIR: its brokers and files, removed at the end, never
## another run's.
test: deps
	@scripts/check-compose.sh
	@$(SWIFT) build --build-tests
	@GUARDIAN_BIN="$$($(SWIFT) build --show-bin-path)" scripts/demo.sh
	@GUARDIAN_BIN="$$($(SWIFT) build --show-bin-path)" scripts/compose-test.sh
	@tmp="$$(mktemp -d /tmp/guardian-test.XXXXXX)"; trap 'scripts/cleanup-test-brokers.sh "$$tmp"; rm -rf "$$tmp"' EXIT; \
	  export TMPDIR="$$tmp"; \
	  $(SWIFT) test --skip-build --skip HostileInputTests; first=$$?; \
	  $(SWIFT) test --skip-build --filter HostileInputTests && exit $$first

## The scripted end-to-end demo: every service as its own process over a real mosquitto.
demo: build
	@GUARDIAN_BIN="$$($(SWIFT) build -c $(CONFIG) --show-bin-path)" scripts/demo.sh

## Benchmarks (release build): figures and ratios against baselines measured in the same run.
## Built as the Docker image ships them (static Swift runtime), so memory figures are the product's;
## last, the release image's size (podman; skipped where podman cannot build).
## Installs what it compares against (XGBoost from PyPI) and fails if a comparison cannot run.
bench:
	@scripts/install-deps.sh --bench
	$(SWIFT) build -c release --static-swift-stdlib
	@tmp="$$(mktemp -d /tmp/guardian-bench.XXXXXX)"; trap 'scripts/cleanup-test-brokers.sh "$$tmp"; rm -rf "$$tmp"' EXIT; \
	  TMPDIR="$$tmp" "$$($(SWIFT) build -c release --static-swift-stdlib --show-bin-path)/guardian-bench"
	@echo "== timeline on labelled held-out days (guardian timeline evaluate) =="
	@"$$($(SWIFT) build -c release --static-swift-stdlib --show-bin-path)/guardian" timeline evaluate
	@echo "== the release image's size against the 200 MB goal (scripts/image-size.sh, podman) =="
	@scripts/image-size.sh "$$($(SWIFT) build -c release --static-swift-stdlib --show-bin-path)"

compose-check:
	@scripts/check-compose.sh

## The timeline on labelled days made apart from its own generator (docs/timeline.md; python3, about 3 s).
timeline-check: build
	@python3 scripts/timeline-check/score.py --bin "$$($(SWIFT) build -c $(CONFIG) --show-bin-path)/guardian"

## compose/docker-compose.yml on podman with Docker's compose CLI, tested from outside (README: Docker).
compose-test: deps
	@$(SWIFT) build
	@GUARDIAN_BIN="$$($(SWIFT) build --show-bin-path)" scripts/compose-test.sh

clean:
	rm -rf .build .run

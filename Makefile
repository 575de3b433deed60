# Guardian: `make run` starts the whole system natively, `make test` runs the whole suite.
SHELL := /bin/bash
SWIFT ?= swift
CONFIG ?= debug

.PHONY: deps build run test bench demo compose-check clean stop

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

## The whole suite: unit and integration tests over a real mosquitto, the compose check, and the demo.
test: deps
	@scripts/check-compose.sh
	@trap 'scripts/cleanup-test-brokers.sh' EXIT; $(SWIFT) build --build-tests && $(SWIFT) test --skip-build
	@GUARDIAN_BIN="$$($(SWIFT) build --show-bin-path)" scripts/demo.sh

## The scripted end-to-end demo: every service as its own process over a real mosquitto.
demo: build
	@GUARDIAN_BIN="$$($(SWIFT) build -c $(CONFIG) --show-bin-path)" scripts/demo.sh

## Benchmarks (release build): figures and ratios against baselines measured in the same run.
bench: deps
	$(SWIFT) build -c release
	@trap 'scripts/cleanup-test-brokers.sh' EXIT; "$$($(SWIFT) build -c release --show-bin-path)/guardian-bench"

compose-check:
	@scripts/check-compose.sh

clean:
	rm -rf .build .run

# Reten: every target describes itself; `make help` lists them.
SHELL := /bin/bash
GO ?= go
BIN := bin/reten
# The PostgreSQL server used to diff versioned migrations (a scratch database is created and dropped).
MIGRATE_DEV_PG ?= postgres://postgres@127.0.0.1:5432
MIGRATION_NAME ?= changes

.PHONY: help run build test test-sqlite generate generate-check migrations lint lint-openapi codegen-check bench

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-16s %s\n", $$1, $$2}'

run: ## start the service on the embedded SQLite default (./data/reten.db); prints the URLs to open once it listens
	$(GO) run ./cmd/reten serve

build: ## build the reten binary into bin/
	$(GO) build -o $(BIN) ./cmd/reten

test: ## run the whole suite on SQLite, and on PostgreSQL too when TEST_DATABASE_URL is set
	$(GO) test -count=1 -p 2 -timeout 30m ./...

generate: ## regenerate ent, entgql and gqlgen code, then diff versioned migrations for both dialects
	$(GO) generate ./ent
	$(GO) run ./graph/gen
	$(MAKE) migrations

migrations: ## write a new versioned migration per dialect when the ent schema changed (MIGRATION_NAME=...)
	PGOPTIONS='--client-min-messages=warning' psql "$(MIGRATE_DEV_PG)/postgres" -qc 'DROP DATABASE IF EXISTS reten_migrate_dev' -c 'CREATE DATABASE reten_migrate_dev' >/dev/null
	$(GO) run ./ent/migrate/diff -name $(MIGRATION_NAME) -pg "$(MIGRATE_DEV_PG)/reten_migrate_dev?sslmode=disable"
	psql "$(MIGRATE_DEV_PG)/postgres" -qc 'DROP DATABASE IF EXISTS reten_migrate_dev' >/dev/null

generate-check: generate ## fail when regeneration changes a tracked file (CI)
	@changes=$$(git status --porcelain -- ent graph schema gqlgen.yml go.mod go.sum); \
	if [ -n "$$changes" ]; then echo "$$changes"; echo "generated code is stale: run make generate and commit" >&2; exit 1; fi

# Benchmarks measure the production store: a scratch schema of this PostgreSQL
# database is created per benchmark and dropped afterwards.
BENCH_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/reten_test?sslmode=disable
BENCH ?= .

bench: ## run the benchmarks on PostgreSQL (BENCH=regexp; BENCH_SNAPSHOTS, BENCH_LIST_ROWS (snapshot, transition, activity, commerce lists), BENCH_RESULTS, BENCH_GENERATION, BENCH_WEBHOOK_EVENTS, BENCH_WEBHOOK_RESULTS set sizes; BENCH_WEBHOOK_ROUNDS the webhook on/off rounds; BENCH_RESULT_WORKERS the result clients, BENCH_RESULT_ROUNDS the rounds its two phases alternate in; BENCH_API_ROWS, BENCH_API_WORKERS, BENCH_API_SECONDS, BENCH_API_ROUNDS the list and GraphQL request benchmarks; BENCH_PLANS_ROWS the kept-plans list; BENCH_DB_PREPARED the statements kept prepared, 0 for none)
	TEST_DATABASE_URL="$(BENCH_DATABASE_URL)" $(GO) test -run '^$$' -bench '$(BENCH)' -benchtime 1x -timeout 60m ./rest/
	$(GO) test -run '^$$' -bench '$(BENCH)' -benchmem ./internal/querybuilder/

lint: ## gofmt and go vet
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

# The two OpenAPI linters, pinned in tools/openapi-lint (package-lock.json),
# installed without install scripts when the lock file changes.
OPENAPI_LINT := tools/openapi-lint

$(OPENAPI_LINT)/node_modules/.package-lock.json: $(OPENAPI_LINT)/package-lock.json
	cd $(OPENAPI_LINT) && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error

lint-openapi: $(OPENAPI_LINT)/node_modules/.package-lock.json ## lint the served OpenAPI document with Redocly CLI and Spectral (recommended rulesets; needs node and npm)
	@doc=$$(mktemp --suffix=.yaml); trap 'rm -f "$$doc"' EXIT; \
	$(GO) run ./tools/contract openapi "$$doc" && cd $(OPENAPI_LINT) && \
	REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true npx --no-install redocly lint --config redocly.yaml "$$doc" && \
	npx --no-install spectral lint --ruleset .spectral.yaml --fail-severity error --display-only-failures "$$doc"

# GraphQL Code Generator, pinned in tools/graphql-codegen (package-lock.json),
# installed without install scripts when the lock file changes.
GRAPHQL_CODEGEN := tools/graphql-codegen

$(GRAPHQL_CODEGEN)/node_modules/.package-lock.json: $(GRAPHQL_CODEGEN)/package-lock.json
	cd $(GRAPHQL_CODEGEN) && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error

codegen-check: $(GRAPHQL_CODEGEN)/node_modules/.package-lock.json ## generate typed TypeScript clients of the query-builder operations from the served SDL and type-check a client of them (needs node and npm)
	@sdl=$$(mktemp --suffix=.graphql); trap 'rm -f "$$sdl"; rm -rf $(GRAPHQL_CODEGEN)/generated' EXIT; \
	$(GO) run ./tools/contract sdl "$$sdl" && cd $(GRAPHQL_CODEGEN) && \
	SCHEMA="$$sdl" npx --no-install graphql-codegen --config codegen.yml --silent && \
	npx --no-install tsc --project tsconfig.json

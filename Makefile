# Hark — the two commands a newcomer needs are `make run` and `make test`.
.PHONY: run test web web-deps server bench e2e clean api-types train-sentiment fuzz

CARGO ?= cargo

run: web
	$(CARGO) build --release -p hark
	./target/release/hark serve

test:
	bash scripts/test.sh

web-deps:
	@cd web && if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then npm install --no-audit --no-fund; fi

web: web-deps
	cd web && npm run build

server:
	$(CARGO) build -p hark

e2e: web server
	cd web && node --test e2e/

# The OpenAPI document the web app's types are generated from, and those types
# (web/src/api/openapi.json, web/src/api/schema.d.ts): run after changing the API.
api-types: web-deps
	$(CARGO) run -q -p hark -- openapi > web/src/api/openapi.json
	cd web && npm run api-types

bench:
	bash scripts/bench.sh

# Schemathesis against the served OpenAPI document (installed from PyPI on first use): no 5xx, and
# every answer's status, content type and body as the document says; then cargo-fuzz on the
# parsers (scripts/fuzz.sh: the search builder, the import formats, each connector's payloads;
# cargo-fuzz installed from crates.io on first use). Both run, and it fails if either found a
# problem. Bounded: Schemathesis to ST_TIMEOUT seconds, each of the 16 fuzz targets to
# FUZZ_SECONDS, about 11 minutes in all once built.
ST_TIMEOUT ?= 420
FUZZ_SECONDS ?= 15
fuzz: server
	@command -v schemathesis >/dev/null 2>&1 || python3 -m pip install -q schemathesis || echo "could not install schemathesis" >&2
	@status=0; \
	ST_TIMEOUT=$(ST_TIMEOUT) bash scripts/schemathesis.sh || status=1; \
	FUZZ_SECONDS=$(FUZZ_SECONDS) bash scripts/fuzz.sh || status=1; \
	exit $$status

# Trains the learned sentiment model from ../shared/data (see scripts/train-sentiment.sh) and
# writes its weights into crates/hark-enrich/src/sentiment/; CHECK=1 compares a fresh run with
# the shipped weights instead.
train-sentiment:
	bash scripts/train-sentiment.sh

clean:
	$(CARGO) clean
	rm -rf web/dist

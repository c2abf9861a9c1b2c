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
# every answer's status, content type and body as the document says. Bounded to 15 minutes.
fuzz: server
	@command -v schemathesis >/dev/null 2>&1 || python3 -m pip install -q schemathesis
	bash scripts/schemathesis.sh

# Trains the learned sentiment model from ../shared/data (see scripts/train-sentiment.sh) and
# writes its weights into crates/hark-enrich/src/sentiment/; CHECK=1 compares a fresh run with
# the shipped weights instead.
train-sentiment:
	bash scripts/train-sentiment.sh

clean:
	$(CARGO) clean
	rm -rf web/dist

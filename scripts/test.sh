#!/usr/bin/env bash
# Installs what the tests need on a fresh machine, then runs them all: Rust (SQLite and PostgreSQL),
# web unit tests, and browser end-to-end tests in Debian's Chromium on both databases.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
step() { printf '\n==> [%dm%02ds] %s\n' $(((SECONDS - started) / 60)) $(((SECONDS - started) % 60)) "$*"; }

step "Checking tools"
if [ ! -x /usr/bin/chromium ]; then
  step "Installing Chromium (Debian package)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
if ! command -v pdftotext >/dev/null 2>&1; then
  step "Installing poppler-utils (the PDF report's tests read it back)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq poppler-utils >/dev/null
fi
make --no-print-directory web-deps

# PostgreSQL: the configured server, the local one, or a throwaway cluster.
source scripts/postgres.sh
ensure_postgres
export HARK_TEST_POSTGRES_URL="$PG_URL"
echo "PostgreSQL for tests: $HARK_TEST_POSTGRES_URL"

step "Building the Rust tests and the server"
# A build with nothing to reuse gains nothing from incremental caches, and is faster without them.
if [ ! -d target/debug ]; then export CARGO_INCREMENTAL=0; fi
# The CLI's tests need the server binary, so this builds it too; the browser tests below use that
# one when it is new (a second build with the tests' feature set left out would recompile ~60 crates).
built_after=$(mktemp)
if command -v cargo-nextest >/dev/null 2>&1; then
  cargo nextest run --workspace --no-run
else
  cargo test --workspace --no-run
fi

# The web app's checks, run beside the Rust tests (which leave about a third of two cores idle,
# waiting on servers and leases) at a lower priority than them.
web_checks() {
  set -e
  cd web
  echo "--- Web unit tests"
  npx vitest run
  echo "--- Checking the generated API types are current"
  # The Rust tests check web/src/api/openapi.json against the server; here the types made from it.
  local generated
  generated=$(mktemp --suffix=.d.ts)
  npx openapi-typescript src/api/openapi.json -o "$generated" >/dev/null
  if ! diff -q "$generated" src/api/schema.d.ts >/dev/null; then
    echo "web/src/api/schema.d.ts is not generated from web/src/api/openapi.json: run 'make api-types'" >&2
    rm -f "$generated"
    return 1
  fi
  rm -f "$generated"
  echo "--- Building the web app"
  npm run build
}

step "Rust tests (SQLite and PostgreSQL); beside them the web unit tests and the web app's build"
web_log=$(mktemp)
(renice -n 10 -p "$BASHPID" >/dev/null 2>&1 || true; web_checks) >"$web_log" 2>&1 &
web_pid=$!
rust_rc=0 web_rc=0
if command -v cargo-nextest >/dev/null 2>&1; then
  cargo nextest run --workspace --no-fail-fast || rust_rc=$?
else
  cargo test --workspace --no-fail-fast || rust_rc=$?
fi
wait "$web_pid" || web_rc=$?
step "Web unit tests, generated API types, web app build (exit $web_rc)"
cat "$web_log"
rm -f "$web_log"
if [ "$rust_rc" -ne 0 ] || [ "$web_rc" -ne 0 ]; then
  echo "Failed: Rust tests exit $rust_rc, web checks exit $web_rc" >&2
  exit 1
fi

if [ target/debug/hark -nt "$built_after" ]; then
  echo "Server binary: built with the Rust tests"
else
  step "Building the server"
  cargo build -p hark
fi
rm -f "$built_after"

step "Browser tests on SQLite and on PostgreSQL, side by side"
# The two runs wait on servers and browsers more than they compute, so side by side they take
# little more than one. Every server a PostgreSQL test starts gets its own fresh database there.
sqlite_log=$(mktemp) pg_log=$(mktemp)
(cd web && node --test e2e/ >"$sqlite_log" 2>&1) &
sqlite_pid=$!
(cd web && HARK_E2E_POSTGRES_URL="$PG_URL" node --test e2e/ >"$pg_log" 2>&1) &
pg_pid=$!
sqlite_rc=0 pg_rc=0
wait "$sqlite_pid" || sqlite_rc=$?
wait "$pg_pid" || pg_rc=$?
step "Browser tests on SQLite (exit $sqlite_rc)"
cat "$sqlite_log"
step "Browser tests on PostgreSQL (exit $pg_rc)"
cat "$pg_log"

# A file that failed side by side is run once more, alone on that database. One that passes then is
# named as flaky below (its first failure stays printed above); one that fails again, or a failure
# that names no file, fails the run.
again_alone() { # label log [VAR=value...]
  local label=$1 log=$2 files f
  shift 2
  files=$(sed -nE "s/^ *location: '(.*\.test\.mjs):[0-9]+:[0-9]+'$/\1/p" "$log" | sort -u)
  [ -n "$files" ] || return 1
  for f in $files; do
    step "Browser tests on $label: $(basename "$f") again, alone"
    (cd web && env "$@" node --test "$f") || return 1
    flaky+=("$label: $(basename "$f")")
  done
}
flaky=()
if [ "$sqlite_rc" -ne 0 ]; then again_alone SQLite "$sqlite_log" && sqlite_rc=0; fi
if [ "$pg_rc" -ne 0 ]; then again_alone PostgreSQL "$pg_log" HARK_E2E_POSTGRES_URL="$PG_URL" && pg_rc=0; fi
rm -f "$sqlite_log" "$pg_log"
if [ "$sqlite_rc" -ne 0 ] || [ "$pg_rc" -ne 0 ]; then
  echo "Browser tests failed: SQLite exit $sqlite_rc, PostgreSQL exit $pg_rc" >&2
  exit 1
fi
if [ "${#flaky[@]}" -gt 0 ]; then
  printf 'FLAKY (failed side by side, passed alone): %s\n' "${flaky[@]}"
fi

step "All tests passed"

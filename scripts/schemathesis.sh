#!/usr/bin/env bash
# Fuzzes the JSON API with Schemathesis against the server's own OpenAPI document
# (/api/v1/openapi.json): a throwaway server on SQLite in a temp dir, seeded with the first
# account, a tracker and a few imported posts, then `schemathesis run` signed in as that account.
# Exits 0 when Schemathesis found nothing, 1 when it found problems (or failed), 2 when it is
# not installed.
#
# Needs Schemathesis installed beforehand (nothing is downloaded here):
#   python3 -m pip install schemathesis
#
# Settings (environment):
#   HARK_BIN          server binary (default target/debug/hark; build it first: make server)
#   ST_CHECKS         checks to run (default: no 5xx, and every answer as its document says: schema,
#                     status code, content type; `all` adds Schemathesis's checks of the request
#                     schemas' strictness: the rules a schema can state are in the document, and
#                     what it still reports as "schema-valid request rejected" are rules on stored
#                     data (an unknown subtracker or tag, no connector set up), across fields (a
#                     search needs one term; a chart or a page), on today's date, or whole-number
#                     floats such as 2.0 where an integer is asked for)
#   ST_MAX_EXAMPLES   test cases per operation and phase (default 30)
#   ST_TIMEOUT        hard wall-time limit of the Schemathesis run, in seconds (default 900)
#   ST_WORKERS        concurrent workers (default 2)
#   ST_REPORT_DIR     where the JUnit and NDJSON reports and the server log go
#                     (default target/schemathesis)
# Extra arguments are passed on to `schemathesis run` (e.g. --phases fuzzing --seed 1).
#
# Left out of the run, because they end the run's own session or delete the seeded tracker:
#   POST /api/v1/auth/logout (logout), DELETE /api/v1/trackers/{hash} (delete_tracker).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

HARK_BIN=${HARK_BIN:-target/debug/hark}
ST_CHECKS=${ST_CHECKS:-not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance}
ST_MAX_EXAMPLES=${ST_MAX_EXAMPLES:-30}
ST_TIMEOUT=${ST_TIMEOUT:-900}
ST_WORKERS=${ST_WORKERS:-2}
ST_REPORT_DIR=${ST_REPORT_DIR:-target/schemathesis}

if ! command -v schemathesis >/dev/null 2>&1; then
  echo "schemathesis is not installed: python3 -m pip install schemathesis" >&2
  exit 2
fi
for tool in curl python3 timeout; do
  command -v "$tool" >/dev/null 2>&1 || { echo "$tool is needed" >&2; exit 1; }
done
case $HARK_BIN in /*) ;; *) HARK_BIN=$root/$HARK_BIN ;; esac
if [ ! -x "$HARK_BIN" ]; then
  echo "no server binary at $HARK_BIN: build it (make server) or set HARK_BIN" >&2
  exit 1
fi
case $ST_REPORT_DIR in /*) ;; *) ST_REPORT_DIR=$root/$ST_REPORT_DIR ;; esac
mkdir -p "$ST_REPORT_DIR"

work=$(mktemp -d "${TMPDIR:-/tmp}/hark-schemathesis.XXXXXX")
server_pid=
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base=http://127.0.0.1:$port
echo "==> Starting $HARK_BIN on $base (data in $work/data)"
mkdir -p "$work/data"
HARK_LOG=${HARK_LOG:-warn} "$HARK_BIN" serve --data-dir "$work/data" --bind "127.0.0.1:$port" --no-demo \
  --web-dir /nonexistent --public-rate-limit 1000000 >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 100); do
  curl -fsS -o /dev/null "$base/api/v1/health" 2>/dev/null && break
  if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "the server stopped while starting:" >&2
    cat "$work/server.log" >&2
    exit 1
  fi
  sleep 0.2
done
curl -fsS -o /dev/null "$base/api/v1/health" || { echo "the server did not answer in 20 s" >&2; cat "$work/server.log" >&2; exit 1; }

jar=$work/cookies
cookie() { awk -v n="$1" '$6 == n { v = $7 } END { print v }' "$jar"; }
# A state-changing request with the session cookies and the CSRF header; prints the body, fails
# unless the status is the expected one.
send() {
  local method=$1 path=$2 type=$3 data=$4 want=$5 out status
  out=$work/answer
  status=$(curl -sS -o "$out" -w '%{http_code}' -b "$jar" -c "$jar" -X "$method" \
    -H "X-CSRF-Token: $(cookie hark_csrf)" -H "Content-Type: $type" --data-binary "$data" "$base$path")
  if [ "$status" != "$want" ]; then
    echo "seeding: $method $path answered $status, expected $want:" >&2
    cat "$out" >&2
    echo >&2
    exit 1
  fi
  cat "$out"
}

echo "==> Seeding: first account, a tracker, a few posts"
curl -fsS -o /dev/null -b "$jar" -c "$jar" "$base/api/v1/me"
send POST /api/v1/setup application/json \
  '{"email":"admin@example.org","password":"password123","name":"Ada"}' 201 >/dev/null
hash=$(send POST /api/v1/trackers application/json \
  '{"platforms":{"twt":1},"search":{"rows":[{"type":"+","searches":["coffee"]}]}}' 201 |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["hash"])')
now=$(($(date +%s) * 1000))
posts=
for i in 1 2 3 4 5 6; do
  posts+="{\"platform\":\"twitter\",\"id\":\"$i\",\"text\":\"coffee number $i #coffee @user$(((i % 3) + 1))\","
  posts+="\"createdAt\":$((now - i * 3600000)),\"author\":{\"username\":\"user$i\",\"name\":\"User $i\"},"
  posts+="\"counts\":{\"likes\":$((i * 3)),\"shares\":$i}}"$'\n'
done
send POST "/api/v1/trackers/$hash/import?format=ndjson" application/x-ndjson "$posts" 200 >/dev/null
session=$(cookie hark_session)
csrf=$(cookie hark_csrf)
[ -n "$session" ] && [ -n "$csrf" ] || { echo "seeding: no session or CSRF cookie" >&2; exit 1; }
echo "    tracker $hash"

# Schemathesis settings: the session on every request, the seeded tracker as every {hash}.
cat >"$work/schemathesis.toml" <<EOF
[headers]
Cookie = "hark_session=$session; hark_csrf=$csrf"
X-CSRF-Token = "$csrf"

[parameters]
"path.hash" = "$hash"
EOF
# The import route takes an NDJSON (or CSV) body, which Schemathesis cannot serialise by itself.
cat >"$work/hark_schemathesis_hooks.py" <<'EOF'
import json

import schemathesis


@schemathesis.serializer("application/x-ndjson")
def ndjson(ctx, value):
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8", "surrogatepass")
    return (json.dumps(value) + "\n").encode()
EOF

echo "==> schemathesis $(schemathesis --version | awk '{print $NF}'): checks $ST_CHECKS, $ST_MAX_EXAMPLES examples, at most $ST_TIMEOUT s"
status=0
(
  cd "$work"
  PYTHONPATH=$work${PYTHONPATH:+:$PYTHONPATH} SCHEMATHESIS_HOOKS=hark_schemathesis_hooks \
    timeout --signal=INT --kill-after=30 "$ST_TIMEOUT" \
    schemathesis --config-file "$work/schemathesis.toml" run "$base/api/v1/openapi.json" \
    --checks "$ST_CHECKS" --max-examples "$ST_MAX_EXAMPLES" --workers "$ST_WORKERS" \
    --exclude-operation-id logout --exclude-operation-id delete_tracker \
    --generation-database none --no-color \
    --report junit,ndjson --report-dir "$ST_REPORT_DIR" "$@"
) || status=$?

cp "$work/server.log" "$ST_REPORT_DIR/server.log"
if ! kill -0 "$server_pid" 2>/dev/null; then
  echo "the server died during the run; its log:" >&2
  tail -50 "$work/server.log" >&2
  status=1
elif grep -qi 'panicked' "$work/server.log"; then
  echo "the server logged a panic:" >&2
  grep -i -A5 'panicked' "$work/server.log" | head -40 >&2
  [ "$status" -ne 0 ] || status=1
fi
case $status in
  0) echo "==> Schemathesis found no problems" ;;
  124 | 130 | 137) echo "==> Schemathesis did not finish within $ST_TIMEOUT s" >&2; status=1 ;;
  *) echo "==> Schemathesis found problems (exit $status); reports in $ST_REPORT_DIR" >&2; status=1 ;;
esac
exit "$status"

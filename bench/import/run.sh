#!/usr/bin/env bash
# `hark import` of a file, timed end to end: the command a user runs, on SQLite (a fresh data
# directory) and PostgreSQL (a fresh database). The file: HARK_IMPORT_POSTS posts of real tweet
# texts (make_file.py). Prints posts/s over the whole command and its peak memory (RSS).
#
#   HARK_IMPORT_POSTS     posts in the file (200000)
#   HARK_IMPORT_BACKENDS  sqlite,postgres
#   HARK_IMPORT_RUNS      runs per database (1); each imports into a tracker of its own
#   HARK_IMPORT_FILE      the file to import; made there first when missing or empty
#   HARK_IMPORT_SHAPE     the file's accounts: real (equally likely, the default) or zipf (heavy-tailed)
#   HARK_BIN              the binary (target/release/hark, built when missing)
#   PG_URL                PostgreSQL server (postgres://postgres@127.0.0.1:5432/test)
set -euo pipefail
cd "$(dirname "$0")/../.."
posts=${HARK_IMPORT_POSTS:-200000}
backends=${HARK_IMPORT_BACKENDS:-sqlite,postgres}
runs=${HARK_IMPORT_RUNS:-1}
PG_URL=${PG_URL:-postgres://postgres@127.0.0.1:5432/test}
bin=${HARK_BIN:-target/release/hark}
[ -x "$bin" ] || cargo build -q --release -p hark
# GNU time gives the command's peak memory (Debian: the package `time`).
[ -x /usr/bin/time ] || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time >/dev/null; } || true
[ -x /usr/bin/time ] || { echo "/usr/bin/time is needed (Debian: apt-get install time)"; exit 2; }
work=$(mktemp -d)
server=""
pgdb=""
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null || true
  wait 2>/dev/null || true
  if [ -n "$pgdb" ]; then psql "$PG_URL" -qc "DROP DATABASE IF EXISTS $pgdb WITH (FORCE)" >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

file=${HARK_IMPORT_FILE:-$work/posts.ndjson}
[ -s "$file" ] || python3 bench/import/make_file.py "$posts" "$file" "${HARK_IMPORT_SHAPE:-real}"
posts=$(wc -l <"$file")
echo "file: $posts posts, $(du -m "$file" | cut -f1) MB"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# A user and the load test's tracker (#loadtest) through the API of a server started for it; the
# tracker's hash goes to $work/hash.
make_tracker() {
  local port
  port=$(free_port)
  "$bin" serve "$@" --bind "127.0.0.1:$port" --no-demo --web-dir /nonexistent >"$work/serve.log" 2>&1 &
  server=$!
  for _ in $(seq 1 200); do curl -sf "http://127.0.0.1:$port/api/v1/health" >/dev/null && break; sleep 0.1; done
  python3 - "http://127.0.0.1:$port" >"$work/setup.json" <<'PY'
import sys, os
sys.path.insert(0, os.path.join("bench", "load"))
import drive
drive.setup(sys.argv[1], 0)
PY
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hash"])' "$work/setup.json" >"$work/hash"
  kill "$server"
  wait "$server" 2>/dev/null || true
  server=""
}

# import NAME DB-ARGS...: runs the import, prints its rate and peak memory.
import() {
  local name=$1
  shift
  local t0 t1
  t0=$(date +%s.%N)
  /usr/bin/time -f "%M" -o "$work/rss" "$bin" import "$@" --tracker "$(cat "$work/hash")" --progress-secs 0 "$file" >"$work/import.log" 2>&1 \
    || { cat "$work/import.log" >&2; exit 1; }
  t1=$(date +%s.%N)
  python3 -c 'import sys; n,t0,t1,rss=int(sys.argv[2]),float(sys.argv[3]),float(sys.argv[4]),int(sys.argv[5]); print(f"{sys.argv[1]:<10} hark import of {n} posts: {t1-t0:.1f} s, {n/(t1-t0):,.0f} posts/s, peak RSS {rss/1024:.0f} MB")' \
    "$name" "$posts" "$t0" "$t1" "$(cat "$work/rss")"
  tail -1 "$work/import.log"
}

for i in $(seq 1 "$runs"); do
  if [[ $backends == *sqlite* ]]; then
    rm -rf "$work/data" && mkdir -p "$work/data"
    make_tracker --data-dir "$work/data"
    import sqlite --data-dir "$work/data"
  fi
  if [[ $backends == *postgres* ]]; then
    pgdb="hark_import_$$_$i"
    psql "$PG_URL" -qc "CREATE DATABASE $pgdb" >/dev/null
    url="${PG_URL%/*}/$pgdb"
    make_tracker --data-dir "$work/pgdata" --database-url "$url"
    import postgres --data-dir "$work/pgdata" --database-url "$url"
    psql "$PG_URL" -qc "DROP DATABASE IF EXISTS $pgdb WITH (FORCE)" >/dev/null
    pgdb=""
  fi
done

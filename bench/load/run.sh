#!/usr/bin/env bash
# The load test: dashboard viewers and posts-page users (wrk, real connections on 127.0.0.1) while
# posts are imported at a steady rate, on SQLite (one server) and on PostgreSQL (three servers on
# one database). Prints per request kind: requests, errors (must be 0), p50/p95/p99/max in ms, and
# the ingest's rate reached and import latency (its lag). Bounded: setup, then HARK_LOAD_SECONDS
# of load per database.
#
#   HARK_LOAD_SECONDS   length of the load (60)
#   HARK_LOAD_RATE      posts a second imported meanwhile (5000)
#   HARK_LOAD_VIEWERS   concurrent dashboard viewers (200)
#   HARK_LOAD_USERS     concurrent posts-page users (50)
#   HARK_LOAD_SEED      posts in the tracker before the load (50000)
#   HARK_LOAD_SENDERS   the feeder's senders (32): enough that it keeps its schedule while answers
#                       take their time, so the rate reached is the server's
#   HARK_LOAD_BACKENDS  sqlite,postgres
#   HARK_BIN            server binary (target/release/hark, built when missing)
#   HARK_LOAD_LOGS      a directory the servers' logs are copied to at the end
#   HARK_LOAD_LOG       the servers' log filter (warn; tower_http=debug logs every request's latency)
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${HARK_LOAD_SECONDS:-60}
rate=${HARK_LOAD_RATE:-5000}
viewers=${HARK_LOAD_VIEWERS:-200}
users=${HARK_LOAD_USERS:-50}
seed=${HARK_LOAD_SEED:-50000}
backends=${HARK_LOAD_BACKENDS:-sqlite,postgres}
command -v wrk >/dev/null || { echo "wrk is needed (Debian: apt-get install wrk)"; exit 2; }
bin=${HARK_BIN:-target/release/hark}
[ -x "$bin" ] || cargo build -q --release -p hark
work=$(mktemp -d)
pids=()
pgdb=""
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [ -n "${HARK_LOAD_LOGS:-}" ]; then mkdir -p "$HARK_LOAD_LOGS" && cp "$work"/*.log "$HARK_LOAD_LOGS"/ 2>/dev/null || true; fi
  if [ -n "$pgdb" ]; then psql "$PG_URL" -qc "DROP DATABASE IF EXISTS $pgdb WITH (FORCE)" >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# start_server NAME [ENV=VALUE...]: a server on a free port; its base URL goes to $work/NAME.url.
start_server() {
  local name=$1 port
  shift
  port=$(free_port)
  mkdir -p "$work/$name"
  env "$@" HARK_LOG="${HARK_LOAD_LOG:-warn}" "$bin" serve --data-dir "$work/$name" --bind "127.0.0.1:$port" --no-demo --web-dir /nonexistent \
    --public-rate-limit 1000000 >"$work/$name.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 200); do
    curl -sf "http://127.0.0.1:$port/api/v1/health" >/dev/null && { echo "http://127.0.0.1:$port" >"$work/$name.url"; return; }
    sleep 0.1
  done
  echo "server $name did not start:" >&2
  cat "$work/$name.log" >&2
  exit 1
}

# load LABEL BASE...: seeds through the first server, then the readers and the ingest at once.
load() {
  local label=$1
  shift
  local bases=("$@") n=$#
  echo "== $label: $n server(s); seeding $seed posts"
  local t0=$SECONDS
  local setup
  setup=$(python3 bench/load/drive.py setup "${bases[0]}" "$seed")
  local cookie hash
  cookie=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["cookie"])' "$setup")
  hash=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["hash"])' "$setup")
  echo "   seeded in $((SECONDS - t0)) s; $viewers dashboard viewers, $users posts-page users, $rate posts/s for $seconds s"
  local joined
  joined=$(IFS=,; echo "${bases[*]}")
  python3 bench/load/drive.py ingest "$joined" "$cookie" "$hash" "$rate" "$seconds" >"$work/ingest.out" &
  local ing=$!
  local i=0 runs=()
  for b in "${bases[@]}"; do
    local v=$(((viewers + n - 1 - i) / n)) u=$(((users + n - 1 - i) / n))
    HARK_KIND=dashboard HARK_HASH=$hash HARK_COOKIE=$cookie wrk -t1 -c"$v" -d"${seconds}s" --timeout 10s -s bench/load/read.lua "$b" >"$work/dash$i.out" &
    runs+=($!)
    HARK_KIND=posts HARK_HASH=$hash HARK_COOKIE=$cookie wrk -t1 -c"$u" -d"${seconds}s" --timeout 10s -s bench/load/read.lua "$b" >"$work/posts$i.out" &
    runs+=($!)
    i=$((i + 1))
  done
  for r in "${runs[@]}"; do wait "$r"; done
  wait "$ing"
  # Per kind over the servers: requests and errors summed, each percentile the worst server's.
  python3 - "$work" "$n" "$label" "$seconds" <<'EOF'
import glob, re, sys
work, n, label, seconds = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
def rows(pattern):
    out = []
    for f in sorted(glob.glob(f"{work}/{pattern}")):
        for line in open(f):
            if line.startswith("RESULT"):
                out.append({k: float(v) if re.fullmatch(r"[\d.]+", v) else v for k, v in (kv.split("=") for kv in line.split()[1:])})
    return out
for kind, pattern in (("dashboard", "dash*.out"), ("posts page", "posts*.out")):
    r = rows(pattern)
    if len(r) != n:
        print(f"   {kind}: wrk printed no result"); continue
    req = sum(x["requests"] for x in r); err = sum(x["errors"] for x in r)
    non2xx = sum(x["non2xx"] for x in r); timeouts = sum(x["timeouts"] for x in r)
    worst = lambda k: max(x[k] for x in r)
    print(f"   {label} {kind:10s} requests {req:8.0f} ({req / seconds:.0f}/s)  errors {err:.0f} (non-2xx {non2xx:.0f}, timeouts {timeouts:.0f})  p50 {worst('p50'):.1f}  p95 {worst('p95'):.1f}  p99 {worst('p99'):.1f}  max {worst('max'):.1f} ms")
for x in rows("ingest.out"):
    print(f"   {label} ingest     stored {x['stored']:.0f} in {x['seconds']:.1f} s = {x['rate']:.0f} posts/s, sustained {x['sustained']:.0f} posts/s (target {x['target']:.0f})  errors {x['errors']:.0f}")
    print(f"   {label} ingest lag import latency p50 {x['p50']:.1f}  p95 {x['p95']:.1f}  max {x['max']:.1f} ms; p95 over the last third {x['last_p95']:.1f} ms; feeder's latest send {x['slip']:.0f} ms behind schedule")
EOF
}

if [[ ",$backends," == *,sqlite,* ]]; then
  start_server sqlite
  load "SQLite" "$(cat "$work/sqlite.url")"
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  pids=()
fi

if [[ ",$backends," == *,postgres,* ]]; then
  source scripts/postgres.sh
  ensure_postgres
  pgdb="hark_load_$$"
  psql "$PG_URL" -qc "CREATE DATABASE $pgdb" >/dev/null
  url="${PG_URL%%\?*}"
  url="${url%/*}/$pgdb"
  key=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
  # The first server migrates the database; the others join it.
  for s in pg1 pg2 pg3; do start_server $s HARK_DATABASE_URL="$url" HARK_SECRET_KEY="$key"; done
  load "PostgreSQL" "$(cat "$work/pg1.url")" "$(cat "$work/pg2.url")" "$(cat "$work/pg3.url")"
fi

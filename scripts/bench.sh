#!/usr/bin/env bash
# Runs the hot-path benchmarks (release builds). Everything printed also goes to a dated file in
# bench/results/; figures go to BENCHMARKS.md by hand, with the command and data size printed here.
# The end prints BENCHMARKS.md's table of every hot path, to set today's figures against.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/results
out="bench/results/$(date -u +%Y-%m-%d)-make-bench.txt"
exec > >(tee -a "$out") 2>&1
echo "== make bench, $(date -u '+%Y-%m-%d %H:%M UTC'), $(git rev-parse --short HEAD 2>/dev/null || echo 'no git'): output also in $out"
source scripts/postgres.sh
ensure_postgres
echo "== Matching (hark-core)"
cargo bench -p hark-core --bench matching
echo "== Sentiment (hark-enrich, with the Python reference when available)"
python3 -c 'import vaderSentiment' 2>/dev/null || pip install -q vaderSentiment || true
cargo bench -p hark-enrich --bench sentiment
echo "== End-to-end ingest (hark-ingest): SQLite and PostgreSQL"
HARK_BENCH_POSTGRES_URL="$PG_URL" cargo bench -p hark-ingest --bench ingest
echo "== Dashboard panels (hark-ingest): four data shapes, rollup path against the post-rows baseline and DuckDB, SQLite and PostgreSQL"
# DuckDB (PyPI) answers the same questions over the raw rows, in target/bench-venv.
if ! target/bench-venv/bin/python -c 'import duckdb' 2>/dev/null; then
  { python3 -m venv target/bench-venv && target/bench-venv/bin/pip install -q duckdb==2.0.1; } ||
    echo "DuckDB could not be installed: the dashboard runs without its DuckDB baseline"
fi
HARK_BENCH_POSTGRES_URL="$PG_URL" cargo bench -p hark-ingest --bench dashboard
echo "== Influencers page (hark-ingest): four data shapes, against the post-rows baseline, SQLite and PostgreSQL"
HARK_BENCH_POSTGRES_URL="$PG_URL" cargo bench -p hark-ingest --bench influencers
echo "== Trending topics and sentiment (hark-ingest): four data shapes, against the post-rows baseline, SQLite and PostgreSQL"
HARK_BENCH_POSTGRES_URL="$PG_URL" cargo bench -p hark-ingest --bench topics
echo "== Exports (hark-ingest): the posts CSV streamed and the XLS workbook through a running server, four data shapes, SQLite and PostgreSQL"
HARK_BENCH_POSTGRES_URL="$PG_URL" cargo bench -p hark-ingest --bench exports
echo "== Enrichment alone (hark-ingest): the demo generator's posts through language, sentiment and entities, one thread"
cargo bench -p hark-ingest --bench demo_enrich
echo "== Posts page (hark-ingest): every filter and order of the page, SQLite and PostgreSQL"
HARK_BENCH_POSTGRES_URL="$PG_URL" cargo bench -p hark-ingest --bench posts_query
echo "== Media wall data request (hark-ingest): three data shapes on SQLite, the demo's on PostgreSQL"
HARK_BENCH_POSTGRES_URL="$PG_URL" HARK_BENCH_BACKENDS=sqlite,postgres HARK_BENCH_SHAPES=demo,real,zipf cargo bench -p hark-ingest --bench media_wall
echo "== Media wall frames in headless Chromium (debug server, built web app)"
if [ -x /usr/bin/chromium ] && [ -f web/dist/index.html ]; then
  cargo build -q -p hark
  HARK_BIN=target/debug/hark HARK_E2E_WEB_DIR=web/dist node bench/web/media-wall-frames.mjs
else
  echo "skipped: needs /usr/bin/chromium and a built web app (make web)"
fi
echo "== hark import of a file of 1,000,000 real-text posts, timed end to end with its peak memory, SQLite and PostgreSQL"
cargo build -q --release -p hark
PG_URL="$PG_URL" HARK_BIN=target/release/hark HARK_IMPORT_POSTS=1000000 bash bench/import/run.sh
echo "== Load test: 200 dashboard viewers and 50 posts-page users (wrk) while importing 5,000 posts/s, SQLite (one server) and PostgreSQL (three servers)"
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; } || true
cargo build -q --release -p hark
PG_URL="$PG_URL" HARK_BIN=target/release/hark bash bench/load/run.sh
echo
echo "== BENCHMARKS.md: every hot path, its target and its recorded figure (compare with the runs above)"
awk '/^\| hot path \|/ { shown = 1 } shown && /^$/ { exit } shown' BENCHMARKS.md

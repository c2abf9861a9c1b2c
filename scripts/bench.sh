#!/usr/bin/env bash
# Runs the hot-path benchmarks (release builds). Figures go to BENCHMARKS.md by hand, with the
# command and data size printed here.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/postgres.sh
ensure_postgres
echo "== Matching (hark-core)"
cargo bench -p hark-core --bench matching
echo "== Sentiment (hark-enrich, with the Python reference when available)"
python3 -c 'import vaderSentiment' 2>/dev/null || pip install -q vaderSentiment || true
cargo bench -p hark-enrich --bench sentiment
echo "== End-to-end ingest (hark-ingest): SQLite and PostgreSQL"
HARK_BENCH_POSTGRES_URL="$PG_URL" cargo bench -p hark-ingest --bench ingest
echo "== Dashboard panels (hark-ingest): rollup path against the post-rows baseline, SQLite and PostgreSQL"
HARK_BENCH_POSTGRES_URL="$PG_URL" cargo bench -p hark-ingest --bench dashboard
echo "== Influencers page (hark-ingest): four data shapes, against the post-rows baseline, SQLite and PostgreSQL"
HARK_BENCH_POSTGRES_URL="$PG_URL" cargo bench -p hark-ingest --bench influencers
echo "== Trending topics and sentiment (hark-ingest): four data shapes, against the post-rows baseline, SQLite and PostgreSQL"
HARK_BENCH_POSTGRES_URL="$PG_URL" cargo bench -p hark-ingest --bench topics
echo "== Exports (hark-ingest): the posts CSV streamed and the XLS workbook through a running server, four data shapes, SQLite and PostgreSQL"
HARK_BENCH_POSTGRES_URL="$PG_URL" cargo bench -p hark-ingest --bench exports

# Sourced by the test and bench scripts: sets PG_URL to a PostgreSQL server whose database accepts
# CREATE DATABASE. Uses HARK_TEST_POSTGRES_URL when set, else the local server on 5432, else starts a
# throwaway cluster with initdb.

pg_url_for() { # URL of another database on the same server
  local base="${PG_URL%%\?*}"
  echo "${base%/*}/$1"
}

ensure_postgres() {
  if [ -n "${HARK_TEST_POSTGRES_URL:-}" ]; then
    PG_URL="$HARK_TEST_POSTGRES_URL"
    return
  fi
  if command -v pg_isready >/dev/null 2>&1 && pg_isready -q -h 127.0.0.1 -p 5432; then
    PG_URL="postgres://postgres@127.0.0.1:5432/test"
    if psql "$PG_URL" -qc 'SELECT 1' >/dev/null 2>&1; then return; fi
    PG_URL="postgres://postgres@127.0.0.1:5432/postgres"
    psql "$PG_URL" -qc 'SELECT 1' >/dev/null 2>&1 && return
  fi
  local bin
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
  if [ -z "$bin" ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
  fi
  local dir=/tmp/hark-pg port=55432
  local as=()
  if [ "$(id -u)" = 0 ]; then as=(runuser -u postgres --); fi
  if ! pg_isready -q -h 127.0.0.1 -p "$port" 2>/dev/null; then
    rm -rf "$dir" && mkdir -p "$dir" && chown "$( [ ${#as[@]} -gt 0 ] && echo postgres || id -un)" "$dir"
    "${as[@]}" "$bin/initdb" -D "$dir/data" -A trust -U postgres >/dev/null
    "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -o "-p $port -k $dir -c listen_addresses=127.0.0.1" -l "$dir/log" -w start >/dev/null
  fi
  PG_URL="postgres://postgres@127.0.0.1:$port/postgres"
}

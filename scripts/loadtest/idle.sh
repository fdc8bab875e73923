#!/usr/bin/env bash
# Counts the statements an idle instance sends PostgreSQL (issue 37's
# target: at most 2 a second on average over a minute). It serves a
# throwaway database whose statements PostgreSQL logs (log_statement =
# 'all' for that database only), lets the site settle, then counts the
# statements logged for that database over $SECONDS_A_RUN seconds (read
# from the server's log with pg_read_file: needs a superuser), by kind.
#
#   bash scripts/loadtest/idle.sh                      # this tree's build
#   BIN=/tmp/oware-old bash scripts/loadtest/idle.sh   # another build
set -euo pipefail
cd "$(dirname "$0")/../.."

PG=${PG:-postgres://postgres@127.0.0.1:5432}
ADDR=${ADDR:-127.0.0.1:19390}
DB=${DB:-oware_idle}
SECONDS_A_RUN=${SECONDS_A_RUN:-60}
LOG=${PGLOG:-/var/log/postgresql/postgresql-15-main.log}
TMP=$(mktemp -d)
PID=
cleanup() {
	[ -n "$PID" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null || true
	psql "$PG/postgres" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1
	rm -rf "$TMP"
}
trap cleanup EXIT

if [ -z "${BIN:-}" ]; then
	go build -o "$TMP/oware" ./cmd/oware
	BIN=$TMP/oware
fi
psql "$PG/postgres" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB" \
	-c "ALTER DATABASE $DB SET log_statement = 'all'" >/dev/null
"$BIN" -addr "$ADDR" -database "$PG/$DB?sslmode=disable" -table-seeds 0 -build-tables=false 2>"$TMP/server.log" &
PID=$!
for _ in $(seq 100); do curl -fs "http://$ADDR/healthz" >/dev/null && break; sleep 0.2; done
sleep 10 # the start's migrations and first passes
size() { psql "$PG/postgres" -Atc "SELECT size FROM pg_stat_file('$LOG')"; }
from=$(size)
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
sleep "$SECONDS_A_RUN"
to=$(size)
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
psql "$PG/postgres" -Atc "SELECT pg_read_file('$LOG', $from, $to - $from)" |
	grep -E "@$DB (LOG|STATEMENT): +(statement|execute)" >"$TMP/statements" || true
n=$(wc -l <"$TMP/statements")
awk -v n="$n" -v s="$SECONDS_A_RUN" 'BEGIN { printf "statements: %d in %d s: %.2f a second\n", n, s, n / s }'
echo "by kind (first 60 characters):"
sed -E 's/.*(statement|execute[^:]*): +//' "$TMP/statements" | cut -c1-60 | sort | uniq -c | sort -rn | head -20

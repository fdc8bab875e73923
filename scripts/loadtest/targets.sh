#!/usr/bin/env bash
# Measures the targets of issue 10 on this machine, on PostgreSQL: builds
# the server and the load test, serves throwaway databases and prints every
# run (A and B alternate, as the machine is noisy). About 6 minutes.
#
#   bash scripts/loadtest/targets.sh            # everything
#   bash scripts/loadtest/targets.sh pages      # one part: cpu, fsync, long, spectators, pages
set -euo pipefail
cd "$(dirname "$0")/../.."

PG=${PG:-postgres://postgres@127.0.0.1:5432}
ADDR=127.0.0.1:18080
RUNS=${RUNS:-3}
BIN=$(mktemp -d)
SERVER=
cleanup() {
	[ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null && wait "$SERVER" 2>/dev/null || true
	psql "$PG/postgres" -qc 'DROP DATABASE IF EXISTS oware_load WITH (FORCE)' -c 'DROP DATABASE IF EXISTS oware_bench WITH (FORCE)' >/dev/null
	rm -rf "$BIN"
}
trap cleanup EXIT

go build -o "$BIN/oware" ./cmd/oware
go build -o "$BIN/loadtest" ./scripts/loadtest
psql "$PG/postgres" -qc 'DROP DATABASE IF EXISTS oware_load WITH (FORCE)' -c 'CREATE DATABASE oware_load' \
	-c 'DROP DATABASE IF EXISTS oware_bench WITH (FORCE)' -c 'CREATE DATABASE oware_bench' >/dev/null

# serve starts the server with synchronous_commit $1 ("on" or "off").
serve() {
	[ -n "$SERVER" ] && kill "$SERVER" && wait "$SERVER" 2>/dev/null || true
	nice -n 10 "$BIN/oware" -addr "$ADDR" -database "$PG/oware_load?sslmode=disable&synchronous_commit=$1" 2>/dev/null &
	SERVER=$!
	for _ in $(seq 50); do curl -fs "http://$ADDR/healthz" >/dev/null && return; sleep 0.2; done
	echo "the server did not start" >&2
	exit 1
}
load() { nice -n 10 "$BIN/loadtest" -url "http://$ADDR" -pid "$SERVER" -pgdb oware_load "$@"; }
bench() { nice -n 10 "$BIN/loadtest" -mode pgbench -pg "$PG/oware_bench" "$@"; }
# part reports whether part $1 is asked for by the rest (none: every part).
part() {
	local p=$1
	shift
	[ $# -eq 0 ] || [[ " $* " == *" $p "* ]]
}
step() { printf '\n== %s\n' "$*"; }

if part cpu "$@"; then
	step "CPU per move against pgbench, synchronous_commit off on both, 8 clients"
	serve off
	for _ in $(seq "$RUNS"); do
		load -mode moves -workers 8 -duration 10s
		bench -clients 8 -synchronous-commit off -duration 10s
	done
fi
if part fsync "$@"; then
	step "moves per second against pgbench, fsync and synchronous_commit on, 8 clients"
	serve on
	for _ in $(seq "$RUNS"); do
		load -mode moves -workers 8 -duration 10s
		bench -clients 8 -synchronous-commit on -duration 10s
	done
fi
if part long "$@"; then
	step "a move by ply"
	serve on
	load -mode long -rules namnam -games 3 -plies 600
	load -mode long -rules abapa -quiet -games 3 -plies 600
fi
if part spectators "$@"; then
	step "1000 spectators"
	serve on
	load -mode spectators -spectators 1000 -moves 30
fi
if part pages "$@"; then
	step "pages against a static file"
	serve on
	load -mode pages -page rules -workers 4 -duration 5s -rounds "$RUNS"
	load -mode pages -page game -workers 4 -duration 5s -rounds "$RUNS"
fi

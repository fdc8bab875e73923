#!/usr/bin/env bash
# Measures the limits docs/capacity.md quotes, on PostgreSQL: 10,000
# spectators of one game on one instance (each an event stream: the move's
# answer to the last watcher, p90 target <= 150 ms, and the server's
# memory per idle stream, target <= 20 KB), and the notifications a second
# one PostgreSQL carries with 8 listening instances (LISTEN/NOTIFY as the
# broker uses it: a channel per game). About 4 minutes.
#
#   bash scripts/loadtest/capacity.sh                # both
#   bash scripts/loadtest/capacity.sh spectators     # one part: spectators, notify
#   SPECTATORS=2000 bash scripts/loadtest/capacity.sh spectators
#   BASE=/tmp/oware-old bash scripts/loadtest/capacity.sh spectators
#                           # also the build $BASE, in turns (which goes
#                           # first alternates with the run)
#   ADDR=127.0.0.1:18200 DBPREFIX=mine ...   # another address and prefix
#                           # of the databases: two runs side by side
set -euo pipefail
cd "$(dirname "$0")/../.."

PG=${PG:-postgres://postgres@127.0.0.1:5432}
ADDR=${ADDR:-127.0.0.1:19790}
P=${DBPREFIX:-oware}
SPECTATORS=${SPECTATORS:-10000}
RUNS=${RUNS:-2}
BIN=$(mktemp -d)
SERVER=
cleanup() {
	[ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null && wait "$SERVER" 2>/dev/null || true
	for db in ${P}_capacity ${P}_notify; do
		psql "$PG/postgres" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1
	done
	rm -rf "$BIN"
}
trap cleanup EXIT

go build -o "$BIN/oware" ./cmd/oware
go build -o "$BIN/loadtest" ./scripts/loadtest
loadavg() { echo "-- $* (load average $(cut -d' ' -f1-3 /proc/loadavg))"; }
part() {
	local p=$1
	shift
	[ $# -eq 0 ] && return 0
	for a in "$@"; do [ "$a" = "$p" ] && return 0; done
	return 1
}

if part spectators "$@"; then
	# Each stream is a file descriptor in the server and one in the client.
	need=$((SPECTATORS + 1000))
	if [ "$(ulimit -n)" -lt "$need" ]; then
		ulimit -n "$need" 2>/dev/null || {
			echo "ulimit -n is $(ulimit -n): $need descriptors are needed (raise the hard limit)" >&2
			exit 1
		}
	fi
	for i in $(seq "$RUNS"); do
		order=(new)
		if [ -n "${BASE:-}" ]; then
			order=(new base)
			[ $((i % 2)) -eq 0 ] && order=(base new)
		fi
		for which in "${order[@]}"; do
			bin=$BIN/oware
			[ "$which" = base ] && bin=$BASE
			psql "$PG/postgres" -qc "DROP DATABASE IF EXISTS ${P}_capacity WITH (FORCE)" -c "CREATE DATABASE ${P}_capacity" >/dev/null 2>&1
			# The spectators come from one address: no stream limit per client.
			"$bin" -addr "$ADDR" -database "$PG/${P}_capacity?sslmode=disable" -table-seeds 0 -build-tables=false \
				-stream-limits "$need,$need,$need" 2>"$BIN/server.log" &
			SERVER=$!
			for _ in $(seq 100); do curl -fs "http://$ADDR/healthz" >/dev/null && break; sleep 0.2; done
			loadavg "spectators, run $i ($which${BASE:+, base $BASE}): $SPECTATORS event streams on one game"
			"$BIN/loadtest" -url "http://$ADDR" -pid "$SERVER" -mode spectators -spectators "$SPECTATORS" -moves 30
			loadavg "spectators, run $i ($which): done"
			kill "$SERVER" && wait "$SERVER" 2>/dev/null || true
			SERVER=
		done
	done
fi

if part notify "$@"; then
	psql "$PG/postgres" -qc "DROP DATABASE IF EXISTS ${P}_notify WITH (FORCE)" -c "CREATE DATABASE ${P}_notify" >/dev/null 2>&1
	for i in $(seq "$RUNS"); do
		for rate in 5000 10000 20000 0; do
			loadavg "notify, run $i: 8 listening instances, 8000 games, rate $rate (0: as fast as 8 publishers can)"
			"$BIN/loadtest" -mode notify -pg "$PG/${P}_notify?sslmode=disable" -pgdb ${P}_notify \
				-listeners 8 -workers 8 -games 8000 -batch 50 -rate "$rate" -duration 10s
		done
	done
fi

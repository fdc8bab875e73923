#!/usr/bin/env bash
# Measures the targets of issues 10 and 21 on this machine, on PostgreSQL:
# builds the server and the load test, serves throwaway databases (the
# server never builds endgame tables meanwhile: -build-tables=false) and
# prints every run, A and B alternated as the machine is noisy, with the
# ratio of each pair and the load average. About 6 minutes.
#
#   bash scripts/loadtest/targets.sh            # everything
#   bash scripts/loadtest/targets.sh pages      # one part: cpu, fsync, long, spectators, pages
#   BASE=/tmp/oware-old bash scripts/loadtest/targets.sh cpu fsync
#                                               # also moves on another build, in turns
set -euo pipefail
cd "$(dirname "$0")/../.."

PG=${PG:-postgres://postgres@127.0.0.1:5432}
ADDR=${ADDR:-127.0.0.1:18080}         # (another address and prefix of the
P=${DBPREFIX:-oware}                     # databases: two runs side by side)
RUNS=${RUNS:-3}
BIN=$(mktemp -d)
SERVER=
cleanup() {
	[ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null && wait "$SERVER" 2>/dev/null || true
	for db in ${P}_load ${P}_base ${P}_bench; do
		psql "$PG/postgres" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1
	done
	rm -rf "$BIN"
}
trap cleanup EXIT

go build -o "$BIN/oware" ./cmd/oware
go build -o "$BIN/loadtest" ./scripts/loadtest
for db in ${P}_load ${P}_base ${P}_bench; do
	psql "$PG/postgres" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db" >/dev/null 2>&1
done

# serve starts the server with synchronous_commit $1 ("on" or "off"); with
# $2 "base", the build $BASE on its own database.
DB=${P}_load
serve() {
	[ -n "$SERVER" ] && kill "$SERVER" && wait "$SERVER" 2>/dev/null || true
	local bin=$BIN/oware
	# The spectators come from one address: no stream limit per client.
	local flags=(-stream-limits 20000,20000,20000 -build-tables=false)
	DB=${P}_load
	if [ "${2:-}" = base ]; then
		# (the same flags: the old build must not build tables either)
		bin=$BASE DB=${P}_base
	fi
	nice -n 10 "$bin" -addr "$ADDR" -database "$PG/$DB?sslmode=disable&synchronous_commit=$1" "${flags[@]}" 2>/dev/null &
	SERVER=$!
	# (builds before /readyz answer /healthz only; a fresh database's
	# migrations take 15 s at load 13)
	local ready=/readyz
	[ "${2:-}" = base ] && ready=/healthz
	for _ in $(seq 300); do curl -fs "http://$ADDR$ready" >/dev/null && return; sleep 0.2; done
	echo "the server did not start" >&2
	exit 1
}
load() { nice -n 10 "$BIN/loadtest" -url "http://$ADDR" -pid "$SERVER" -pgdb "$DB" "$@"; }
# moves runs the moves mode with synchronous_commit $1 on this build and,
# with $BASE, on that build too (in turns: which goes first alternates with
# the run number $2); it prints the outputs and keeps them in $OUT and
# $OUT_BASE.
OUT= OUT_BASE=
moves() {
	local order=(new base)
	[ -n "${BASE:-}" ] && [ $(($2 % 2)) -eq 0 ] && order=(base new)
	for which in "${order[@]}"; do
		if [ "$which" = new ]; then
			serve "$1"
			OUT=$(load -mode moves -workers 8 -duration 10s -pg "$PG/$DB?sslmode=disable")
			echo "$OUT"
		elif [ -n "${BASE:-}" ]; then
			echo "-- $BASE:"
			serve "$1" base
			OUT_BASE=$(load -mode moves -workers 8 -duration 10s -pg "$PG/$DB?sslmode=disable")
			echo "$OUT_BASE"
		fi
	done
}
# field prints the number after the text $2 in the output $1.
field() { grep -o "$2[0-9.]*" <<<"$1" | head -1 | sed "s/^$2//"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "?" }'; }
load_avg() { cut -d' ' -f1-3 /proc/loadavg; }
SUMMARY=
note() { SUMMARY+="$*"$'\n'; printf '>> %s\n' "$*"; }
bench() { nice -n 10 "$BIN/loadtest" -mode pgbench -pg "$PG/${P}_bench" "$@"; }
# part reports whether part $1 is asked for by the rest (none: every part).
part() {
	local p=$1
	shift
	[ $# -eq 0 ] || [[ " $* " == *" $p "* ]]
}
step() { printf '\n== %s\n' "$*"; }

if part cpu "$@"; then
	step "CPU per move against pgbench, synchronous_commit off on both, 8 clients"
	for i in $(seq "$RUNS"); do
		moves off "$i"
		site=$(field "$OUT" "CPU per move: .*= ")
		hot=$(field "$OUT" "HOT updates of games: [0-9]* of [0-9]* (")
		b=$(bench -clients 8 -synchronous-commit off -duration 10s)
		echo "$b"
		pg=$(field "$b" "CPU per transaction: .*= ")
		note "cpu run $i: CPU per move $site µs / pgbench $pg µs = $(ratio "$site" "$pg") (target <= 2.0); HOT $hot % (target >= 95); load $(load_avg)"
		if [ -n "${BASE:-}" ]; then
			old=$(field "$OUT_BASE" "CPU per move: .*= ")
			note "cpu run $i, base: CPU per move $old µs / pgbench $pg µs = $(ratio "$old" "$pg"); new/base $(ratio "$site" "$old")"
		fi
	done
fi
if part fsync "$@"; then
	step "moves per second against pgbench, fsync and synchronous_commit on, 8 clients"
	for i in $(seq "$RUNS"); do
		moves on "$i"
		site=$(field "$OUT" "ok (")
		b=$(bench -clients 8 -synchronous-commit on -duration 10s)
		echo "$b"
		pg=$(field "$b" "transactions, ")
		note "fsync run $i: $site moves/s / pgbench $pg tx/s = $(ratio "$site" "$pg") (target >= 0.7); load $(load_avg)"
		if [ -n "${BASE:-}" ]; then
			old=$(field "$OUT_BASE" "ok (")
			note "fsync run $i, base: $old moves/s / pgbench $pg tx/s = $(ratio "$old" "$pg"); new/base $(ratio "$site" "$old")"
		fi
	done
fi
if part long "$@"; then
	step "a move by ply"
	for which in new base; do
		[ "$which" = base ] && [ -z "${BASE:-}" ] && continue
		[ "$which" = base ] && echo "-- $BASE:"
		serve on ${which/new/}
		for style in "namnam" "abapa -quiet"; do
			out=$(load -mode long -rules $style -games 3 -plies 600)
			echo "$out"
			note "long $which $style: ply 551-600 / 1-50 $(grep -o 'latency p50 [0-9.]\+' <<<"$out") (target <= 1.1); load $(load_avg)"
		done
	done
fi
if part spectators "$@"; then
	step "1000 spectators"
	serve on
	out=$(load -mode spectators -spectators 1000 -moves 30)
	echo "$out"
	note "spectators: last of 1000 sees a move, $(grep -o 'p90 [^,]*' <<<"$out") (target <= 50ms); load $(load_avg)"
fi
if part pages "$@"; then
	step "pages against a static file of about the same size (gzip), wrk"
	serve on
	wrk=()
	command -v wrk >/dev/null && wrk=(-wrk)
	for page in rules game; do
		out=$(load -mode pages -page $page -workers 4 -duration 5s -rounds "$RUNS" "${wrk[@]}")
		echo "$out"
		note "pages $page: $(grep -o 'ratio [0-9.]*$' <<<"$out" | tr '\n' ' ')(target >= 0.5); load $(load_avg)"
	done
fi
printf '\n== summary\n%s' "$SUMMARY"

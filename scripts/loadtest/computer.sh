#!/usr/bin/env bash
# Measures the computer's targets of issue 21 on this machine, on
# PostgreSQL: builds the server and the load test, serves throwaway
# databases and prints every run (A and B alternate, as the machine is
# noisy), with the load average before each. About 8 minutes.
#
#   bash scripts/loadtest/computer.sh             # everything
#   bash scripts/loadtest/computer.sh replies     # one part: replies, people, scale, queue
#   BASE=/tmp/oware-old bash scripts/loadtest/computer.sh queue
#                                                 # the queue against another build's
#   ADDR=127.0.0.1:18120 DB_PREFIX=oware_cpt bash scripts/loadtest/computer.sh people
#                                                 # another port and database name: the
#                                                 # database is $DB_PREFIX_<this shell's pid>,
#                                                 # so two runs never share one
#
# replies: 20 players against level 8 at once, the site alone on both
#   cores: the reply times (target p99 <= 3 s). Each player waits for the
#   reply on the game's event stream, as a browser does (WAIT=poll: it
#   asks GET /api/v1/games/{id} every 10 ms, 1,000-2,000 requests a
#   second of the 20 players' own that no browser makes).
# people: people's moves (8 players, games between people) alone (A),
#   then with the 20 players of "replies" keeping the computer saturated,
#   its workers in the site (B), then in an `oware worker` process under
#   SCHED_IDLE (chrt --idle 0; nice 19 where chrt is missing) beside a site
#   with none (C), as deploy/oware-worker.service runs them, then with a
#   busy loop per core under the same policy and no computer (D: the
#   machine's own price of idle-class CPU use, which no site work has);
#   prints B/A, C/A (target: p99 with <= 1.3 x p99 without) and D/A.
# scale: the site on core 0 with one worker, then with an `oware worker`
#   of one worker on core 1 (its own CPU, as another machine): replies per
#   second (target: doubled).
# queue: level 1 replies (the search takes nothing: the queue's own time),
#   this build's durable jobs (its workers at nice 10, then at 0) against
#   $BASE's (the in-memory pool).
set -euo pipefail
cd "$(dirname "$0")/../.."

PG=${PG:-postgres://postgres@127.0.0.1:5432}
ADDR=${ADDR:-127.0.0.1:18090}
DB=${DB_PREFIX:-oware_computer}_$$
WAIT=${WAIT:-stream} # how the computer's players wait for a reply: stream (as a browser) or poll (every 10 ms)
RUNS=${RUNS:-2}
SECONDS_A_RUN=${SECONDS_A_RUN:-30}
BIN=$(mktemp -d)
PIDS=()
stopAll() {
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null || true; done
	PIDS=()
}
cleanup() {
	stopAll
	psql "$PG/postgres" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1
	rm -rf "$BIN"
}
trap cleanup EXIT

go build -o "$BIN/oware" ./cmd/oware
go build -o "$BIN/loadtest" ./scripts/loadtest
DSN="$PG/$DB?sslmode=disable"

# serve [taskset cpus|-] [binary|-] [flags...]: starts the site on a fresh
# database and waits until it is ready.
serve() {
	stopAll
	psql "$PG/postgres" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB" >/dev/null
	local cpus=$1 bin=$2
	shift 2
	[ "$bin" = - ] && bin=$BIN/oware
	local pre=()
	[ "$cpus" != - ] && pre=(taskset -c "$cpus")
	"${pre[@]}" "$bin" -addr "$ADDR" -database "$DSN" -table-seeds 0 -build-tables=false "$@" 2>"$BIN/server.log" &
	PIDS+=($!)
	for _ in $(seq 100); do curl -fs "http://$ADDR/healthz" >/dev/null && return; sleep 0.2; done
	echo "the server did not start" >&2
	tail -20 "$BIN/server.log" >&2
	exit 1
}
load() { "$BIN/loadtest" -url "http://$ADDR" -pid "${PIDS[0]}" "$@"; }
saturate() { load -mode computer -workers 20 -level 8 -games 1000 -duration "${SECONDS_A_RUN}s" -wait "$WAIT" "$@"; }
loadavg() { echo "-- $* (load average $(cut -d' ' -f1-3 /proc/loadavg))"; }

replies() {
	for i in $(seq "$RUNS"); do
		serve - -
		loadavg "replies, run $i: 20 players against level 8, the site alone"
		saturate
	done
}

# p99ms: the p99 of a "move latency: ..." line on stdin, in milliseconds.
p99ms() {
	sed -n 's/.*move latency:.* p99 \([^,]*\),.*/\1/p' | awk '{
		v = $1 + 0; u = $1; sub(/^[0-9.]+/, "", u)
		if (u == "s") v *= 1000; else if (u == "µs") v /= 1000; else if (u == "ns") v /= 1e6
		print v }'
}

# saturated [label]: people's moves while the 20 players of "replies"
# keep the computer busy; the p99 in $BIN/p99.
saturated() {
	saturate -duration 40s >"$BIN/saturate.out" &
	local sat=$!
	sleep 10 # the queue fills
	load -mode moves -workers 8 -duration 20s -pgdb "$DB" | tee "$BIN/moves.out"
	wait "$sat"
	sed 's/^/   computer meanwhile: /' "$BIN/saturate.out"
	p99ms <"$BIN/moves.out" >"$BIN/p99"
}

people() {
	local idle=(chrt --idle 0)
	command -v chrt >/dev/null || idle=(nice -n 19)
	for i in $(seq "$RUNS"); do
		serve - -
		loadavg "people, run $i, A: people's moves alone"
		load -mode moves -workers 8 -duration 20s -pgdb "$DB" | tee "$BIN/moves.out"
		local a b c d
		a=$(p99ms <"$BIN/moves.out")
		serve - -
		loadavg "people, run $i, B: people's moves with the computer saturated, its workers in the site"
		saturated
		b=$(cat "$BIN/p99")
		serve - - -computer-jobs=false
		"${idle[@]}" "$BIN/oware" worker -database "$DSN" -table-seeds 0 -build-tables=false -computer "$(nproc)" 2>"$BIN/worker.log" &
		PIDS+=($!)
		loadavg "people, run $i, C: the same, the workers in an oware worker under ${idle[*]}"
		saturated
		c=$(cat "$BIN/p99")
		# D: no computer, a CPU burner per core under the same policy (no
		# memory, no database, nothing of the site): what the machine
		# itself charges the site for the idle-class CPU use of C.
		serve - -
		for _ in $(seq "$(nproc)"); do
			"${idle[@]}" sh -c 'while :; do :; done' &
			PIDS+=($!)
		done
		loadavg "people, run $i, D: no computer, $(nproc) busy loops under ${idle[*]}"
		load -mode moves -workers 8 -duration 20s -pgdb "$DB" | tee "$BIN/moves.out"
		d=$(p99ms <"$BIN/moves.out")
		awk -v a="$a" -v b="$b" -v c="$c" -v d="$d" -v i="$i" 'BEGIN {
			printf "people, run %s: p99 A %.2f ms, B %.2f ms, C %.2f ms, D %.2f ms; B/A %.2f, C/A %.2f (target <= 1.3), D/A %.2f\n", i, a, b, c, d, b / a, c / a, d / a }'
	done
}

scale() {
	for i in $(seq "$RUNS"); do
		serve 0 - -computer 1
		loadavg "scale, run $i, A: the site on core 0, one worker"
		saturate
		serve 0 - -computer 1
		taskset -c 1 "$BIN/oware" worker -database "$DSN" -table-seeds 0 -build-tables=false -computer 1 2>"$BIN/worker.log" &
		PIDS+=($!)
		loadavg "scale, run $i, B: and an oware worker of one worker on core 1"
		saturate
	done
}

queue() {
	for i in $(seq "$RUNS"); do
		for build in this nice0 base; do
			[ "$build" = base ] && [ -z "${BASE:-}" ] && continue
			local bin=- flags=()
			[ "$build" = base ] && bin=$BASE
			[ "$build" = nice0 ] && flags=(-computer-nice 0)
			serve - "$bin" "${flags[@]}"
			loadavg "queue, run $i, $build build: 4 players against level 1"
			load -mode computer -workers 4 -level 1 -games 1000 -duration 20s
		done
	done
}

parts=("$@")
[ ${#parts[@]} -eq 0 ] && parts=(replies people scale queue)
for p in "${parts[@]}"; do "$p"; done

#!/bin/sh
# bench-builds.sh: two builds of crawlaudit, run in turn on the realistic 1 M-line
# month (crawlaudit gen --realistic) and on the same month with robots.txt 503 and 404
# answers (--robots-outage), with GoAccess's full report of each month in the same runs.
# Prints, per month and build, the medians of RUNS runs of `crawlaudit audit --timings
# --quiet` under GNU time (wall, user and system CPU, peak RSS), the load average the runs met,
# and the ratio to GoAccess. Alternating the builds within each run lets the machine's
# drift hit them alike; on a shared machine the load average says how far to trust it.
#
#   go build -tags duckdb_arrow -o /tmp/ca-after ./cmd/crawlaudit
#   git worktree add /tmp/before main && (cd /tmp/before && go build -tags duckdb_arrow -o /tmp/ca-before ./cmd/crawlaudit)
#   BEFORE=/tmp/ca-before AFTER=/tmp/ca-after RUNS=7 DIR=/tmp/bench scripts/bench-builds.sh
#
# Environment: BEFORE and AFTER (the binaries, required), RUNS (default 7), LINES
# (default 1000000), DIR keeps the generated months (default: a temporary directory,
# removed at the end), GOACCESS=0 skips GoAccess, MODE=json times `--json` (summary.json
# with its block list) in place of `--quiet`.
set -eu

: "${BEFORE:?give BEFORE=binary}" "${AFTER:?give AFTER=binary}"
RUNS=${RUNS:-7}
MODE=${MODE:-quiet}
case $MODE in
quiet | json) ;;
*)
	echo "MODE is quiet or json, not $MODE" >&2
	exit 2
	;;
esac
LINES=${LINES:-1000000}
keep=1
if [ -z "${DIR:-}" ]; then
	DIR=$(mktemp -d)
	keep=0
fi
mkdir -p "$DIR"
cleanup() { [ "$keep" = 1 ] || rm -rf "$DIR"; }
trap cleanup EXIT

# The outages of the sample month (loggen.SampleOutages): 503 for five hours, 404 for a day.
outages="--robots-outage 2026-10-22T06:00:00Z/2026-10-22T11:00:00Z=503 --robots-outage 2026-10-27T06:00:00Z/2026-10-28T06:00:00Z=404"
for m in realistic outages; do
	if [ ! -s "$DIR/$m/access.log" ]; then
		echo "generating $m ($LINES lines) ..." >&2
		extra=""
		[ "$m" = outages ] && extra=$outages
		# shellcheck disable=SC2086
		"$AFTER" gen --realistic --lines "$LINES" --robots-dir "$DIR/$m/robots" $extra -o "$DIR/$m/access.log"
	fi
done

# timed NAME CMD...: runs CMD under GNU time and appends "NAME wall user sys rss load"
# to $DIR/times.txt (seconds, MiB, the 1-minute load average before the run).
timed() {
	name=$1
	shift
	load=$(cut -d' ' -f1 /proc/loadavg)
	t0=$(date +%s%N)
	/usr/bin/time -f '%e %U %S %M' -o "$DIR/time.txt" "$@" >/dev/null 2>"$DIR/err.txt" || {
		echo "$name: $* failed:" >&2
		tail -5 "$DIR/err.txt" >&2
		exit 1
	}
	t1=$(date +%s%N)
	# The wall time to the millisecond from the clock (GNU time gives
	# hundredths, a few per cent of an audit).
	awk -v name="$name" -v load="$load" -v ns=$((t1 - t0)) '{ printf "%s %.3f %s %s %.0f %s\n", name, ns / 1e9, $2, $3, $4 / 1024, load }' "$DIR/time.txt" >>"$DIR/times.txt"
}

median() {
	awk -v name="$1" -v f="$2" '$1 == name { print $f }' "$DIR/times.txt" | sort -g |
		awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.1f", a / b }'; }

# A binary the linker has just written is mapped in larger pieces than one
# read back from disk: its peak RSS reads higher (the binary's own resident
# pages in /proc/PID/smaps; docs/performance.md, "The floor on two cores"),
# which says nothing of the code. Both builds are dropped from the page cache
# and run once untimed, so that they are mapped alike.
for b in "$BEFORE" "$AFTER"; do
	dd if="$b" iflag=nocache count=0 status=none || true
	"$b" audit --quiet --robots "$DIR/realistic/robots" "$DIR/realistic/access.log" >/dev/null 2>&1 || true
done

: >"$DIR/times.txt"
for run in $(seq "$RUNS"); do
	echo "run $run of $RUNS ..." >&2
	for m in realistic outages; do
		timed "before-$m" "$BEFORE" audit --timings "--$MODE" --robots "$DIR/$m/robots" "$DIR/$m/access.log"
		timed "after-$m" "$AFTER" audit --timings "--$MODE" --robots "$DIR/$m/robots" "$DIR/$m/access.log"
		if [ "${GOACCESS:-1}" = 1 ] && command -v goaccess >/dev/null 2>&1; then
			timed "goaccess-$m" goaccess "$DIR/$m/access.log" --log-format=COMBINED --no-global-config --no-progress -o "$DIR/goaccess.csv"
		fi
	done
done

echo
echo "medians of $RUNS alternated runs of --$MODE, $LINES lines ($(nproc) CPUs, $(date -u +%Y-%m-%dT%H:%MZ))"
echo '| month | build | wall (s) | user (s) | system (s) | peak RSS (MiB) | load average | GoAccess (s) | × GoAccess |'
echo '|---|---|---:|---:|---:|---:|---:|---:|---:|'
for m in realistic outages; do
	ga=$(median "goaccess-$m" 2)
	for b in before after; do
		w=$(median "$b-$m" 2)
		printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$m" "$b" "$w" "$(median "$b-$m" 3)" "$(median "$b-$m" 4)" \
			"$(median "$b-$m" 5)" "$(median "$b-$m" 6)" "$ga" "$(ratio "$ga" "$w")"
	done
done
for m in realistic outages; do
	awk -v m="$m" -v b="$(median "before-$m" 2)" -v a="$(median "after-$m" 2)" \
		'BEGIN { if (b > 0) printf "%s: after against before, wall %+.1f%%\n", m, (a / b - 1) * 100 }'
done

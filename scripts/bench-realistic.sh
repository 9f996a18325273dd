#!/bin/sh
# bench-realistic.sh: the whole audit of issue 15's realistic month (crawlaudit
# gen --realistic: ~104 distinct paths per 1,000 lines with a Zipf law, 271
# User-Agents, 30% crawlers, the 60-rule robots.txt) at 1 M and 4 M lines (16 M
# with BENCH_16M=1), next to what the same machine does in the same run: `cat`
# of the plain file (the read alone), `gzip -dc` of the gzipped file, and
# GoAccess's full report of the plain file. Prints one table; every figure is
# the median of RUNS runs, the commands alternated within each run so that the
# machine's drift hits them alike. Needs GNU time (/usr/bin/time); GoAccess and
# gzip are measured when installed.
#
#   scripts/bench-realistic.sh
#   RUNS=5 BENCH_16M=1 DIR=/tmp/bench scripts/bench-realistic.sh
#
# Environment: RUNS (default 3), BENCH_16M=1 adds 16 M lines (a 4.2 GB file;
# GoAccess takes minutes on it), GOACCESS_MAX_LINES (default 16000000) skips
# GoAccess above it, DIR keeps the generated logs (default: a temporary
# directory, removed at the end), CA the binary to measure (default: built from
# this tree), ARGS more audit flags, SIZES the line counts (default "1000000 4000000").
set -eu
cd "$(dirname "$0")/.."

RUNS=${RUNS:-3}
keep=1
if [ -z "${DIR:-}" ]; then
	DIR=$(mktemp -d)
	keep=0
fi
mkdir -p "$DIR"
cleanup() { [ "$keep" = 1 ] || rm -rf "$DIR"; }
trap cleanup EXIT

if [ -z "${CA:-}" ]; then
	CA=$DIR/crawlaudit
	go build -tags duckdb_arrow -o "$CA" ./cmd/crawlaudit
fi
have() { command -v "$1" >/dev/null 2>&1; }

sizes=${SIZES:-"1000000 4000000"}
[ "${BENCH_16M:-}" = 1 ] && sizes="$sizes 16000000"

# timed NAME CMD...: runs CMD under GNU time and appends "NAME wall rss
# majflt minflt" to $DIR/times.txt (wall in seconds, rss in MiB).
timed() {
	name=$1
	shift
	/usr/bin/time -v -o "$DIR/time.txt" "$@" >/dev/null 2>"$DIR/err.txt" || {
		echo "$name: $* failed:" >&2
		tail -5 "$DIR/err.txt" >&2
		exit 1
	}
	awk -v name="$name" -F': ' '
		/Elapsed \(wall clock\)/ { n = split($2, p, ":"); w = 0; for (i = 1; i <= n; i++) w = w * 60 + p[i] }
		/Maximum resident set size/ { rss = $2 / 1024 }
		/Major \(requiring I\/O\) page faults/ { maj = $2 }
		/Minor \(reclaiming a frame\) page faults/ { min = $2 }
		END { printf "%s %.3f %.0f %d %d\n", name, w, rss, maj, min }' "$DIR/time.txt" >>"$DIR/times.txt"
}

# median NAME FIELD: the median of FIELD (2 wall, 3 rss, 4 majflt, 5 minflt)
# of NAME's runs.
median() {
	awk -v name="$1" -v f="$2" '$1 == name { print $f }' "$DIR/times.txt" | sort -g |
		awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.2f", a / b }'; }

: >"$DIR/times.txt"
for n in $sizes; do
	log=$DIR/realistic-$n.log
	robots=$DIR/realistic-$n-robots
	if [ ! -s "$log" ] || [ ! -s "$log.gz" ]; then
		echo "generating $n lines ..." >&2
		"$CA" gen --realistic --lines "$n" --robots-dir "$robots" -o "$log"
		"$CA" gen --realistic --lines "$n" --gzip -o "$log.gz"
	fi
	for run in $(seq "$RUNS"); do
		echo "$n lines, run $run of $RUNS ..." >&2
		timed "cat-$n" cat "$log"
		# shellcheck disable=SC2086
		timed "audit-$n" "$CA" audit --robots "$robots" --quiet ${ARGS:-} "$log"
		# shellcheck disable=SC2086
		timed "audit-gz-$n" "$CA" audit --robots "$robots" --quiet ${ARGS:-} "$log.gz"
		have gzip && timed "gzip-dc-$n" gzip -dc "$log.gz"
		if have goaccess && [ "$n" -le "${GOACCESS_MAX_LINES:-16000000}" ]; then
			timed "goaccess-$n" goaccess "$log" --log-format=COMBINED --no-global-config --no-progress -o "$DIR/goaccess.csv"
		fi
	done
done

echo
echo "crawlaudit audit of the realistic month: medians of $RUNS runs ($(nproc) CPUs, $(date -u +%Y-%m-%dT%H:%MZ))"
printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' lines "cat (s)" "audit (s)" "lines/s" "peak RSS (MiB)" \
	"minor faults" "audit .gz (s)" "gzip -dc (s)" "x gzip -dc" "GoAccess (s)" "GoAccess RSS (MiB)" "x GoAccess"
echo '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|'
for n in $sizes; do
	a=$(median "audit-$n" 2)
	g=$(median "audit-gz-$n" 2)
	dc=$(median "gzip-dc-$n" 2)
	ga=$(median "goaccess-$n" 2)
	lps=$(awk -v n="$n" -v a="$a" 'BEGIN { printf "%.0f", n / a }')
	printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$n" "$(median "cat-$n" 2)" "$a" "$lps" \
		"$(median "audit-$n" 3)" "$(median "audit-$n" 5)" "$g" "$dc" "$(ratio "$g" "$dc")" "$ga" "$(median "goaccess-$n" 3)" "$(ratio "$ga" "$a")"
done

#!/bin/sh
# memory.sh: the peak memory (RSS) and wall time of `crawlaudit audit` on the
# inputs of README "Memory": an ordinary ~4 GB log through stdin, and the
# hostile ones of internal/hostilegen (2 M distinct bot User-Agents and 5 M
# distinct paths; 60 KB URLs). Needs /usr/bin/time (GNU time).
#
#   scripts/memory.sh [INPUT...]     INPUT: ordinary, cardinality, cardinality-1m, long, long-default (default: all)
#
# Environment: DIR keeps the generated inputs (default: a temporary directory,
# removed at the end; give DIR to generate them once and rerun), CA the
# binary to measure (default: built from this tree), ARGS more audit flags
# (e.g. ARGS="--db /tmp/a.duckdb" or ARGS="--out /tmp/out").
set -eu
cd "$(dirname "$0")/.."

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
[ -x "$DIR/hostilegen" ] || go build -o "$DIR/hostilegen" ./internal/hostilegen/cmd/hostilegen

inputs=${*:-ordinary cardinality cardinality-1m long long-default}

# measure NAME LOG ROBOTS [FLAGS...]: audits LOG through stdin and prints the
# peak RSS and the wall time.
measure() {
	name=$1 log=$2 robots=$3
	shift 3
	# shellcheck disable=SC2086
	/usr/bin/time -v -o "$DIR/time.txt" "$CA" audit --robots "$robots" --quiet ${ARGS:-} "$@" - <"$log" >"$DIR/out.txt" 2>"$DIR/err.txt" || {
		echo "$name: audit failed:" >&2
		tail -5 "$DIR/err.txt" >&2
	}
	rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f MiB", $2 / 1024}' "$DIR/time.txt")
	wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$DIR/time.txt")
	size=$(du -hL "$log" | cut -f1)
	printf '%-14s %-8s peak RSS %-10s wall %s\n' "$name" "$size" "$rss" "$wall"
}

for in in $inputs; do
	case $in in
	ordinary)
		# 16 M lines of crawlaudit gen, about 4 GB.
		[ -s "$DIR/ordinary.log" ] || "$CA" gen --lines 16000000 --robots-dir "$DIR/ordinary-robots" -o "$DIR/ordinary.log"
		measure ordinary "$DIR/ordinary.log" "$DIR/ordinary-robots"
		;;
	cardinality)
		# 5 M bot lines, 2 M distinct bot User-Agents, 5 M distinct paths,
		# 1 M distinct addresses.
		[ -s "$DIR/cardinality.log" ] || "$DIR/hostilegen" -lines 5000000 -agents 2000000 -addresses 1000000 -o "$DIR/cardinality.log" -robots "$DIR/robots.txt"
		measure cardinality "$DIR/cardinality.log" "$DIR/robots.txt"
		;;
	cardinality-1m)
		# 1 M bot lines, 400 K distinct bot User-Agents, 200 K addresses.
		[ -s "$DIR/cardinality-1m.log" ] || "$DIR/hostilegen" -lines 1000000 -agents 400000 -addresses 200000 -o "$DIR/cardinality-1m.log" -robots "$DIR/robots.txt"
		measure cardinality-1m "$DIR/cardinality-1m.log" "$DIR/robots.txt"
		;;
	long | long-default)
		# 5,000 bot lines with 60 KB URLs: with --max-line-bytes 200000
		# ("long") they are requests, at the default limit of 64 KiB
		# ("long-default") too.
		[ -s "$DIR/long.log" ] || "$DIR/hostilegen" -lines 5000 -path-bytes 60000 -o "$DIR/long.log" -robots "$DIR/robots.txt"
		if [ "$in" = long ]; then
			measure long "$DIR/long.log" "$DIR/robots.txt" --max-line-bytes 200000
		else
			measure long-default "$DIR/long.log" "$DIR/robots.txt"
		fi
		;;
	*)
		echo "unknown input $in: use ordinary, cardinality, cardinality-1m, long, long-default" >&2
		exit 2
		;;
	esac
done

#!/bin/sh
# memory.sh: the peak memory (RSS) and wall time of `crawlaudit audit` on the
# inputs of README "Memory": an ordinary ~4 GB log through stdin, and the
# hostile ones of internal/hostilegen (2 M distinct bot User-Agents and 5 M
# distinct paths; 60 KB URLs); and the ones that write files, which must
# spill rather than fail (docs/performance.md): --out on 60 KB URLs
# (and with --db and --parquet besides), on a month read three times, on 2 M
# distinct client addresses, on 3 M distinct IPv6 addresses (and their block
# lists in every format but aws-waf, aggregated), and --parquet on a 3 M-line month.
# Needs /usr/bin/time (GNU time).
#
#   scripts/memory.sh [INPUT...]     INPUT: ordinary, cardinality, cardinality-1m, long, long-default,
#                                    out-long, out-long-all, out-thrice, out-addresses,
#                                    out-ipv6, out-ipv6-aggregate, parquet-month
#                                    (default: all)
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

inputs=${*:-ordinary cardinality cardinality-1m long long-default out-long out-long-all out-thrice out-addresses out-ipv6 out-ipv6-aggregate parquet-month}

# measure NAME LOG ROBOTS [FLAGS...]: audits LOG through stdin (TIMES times
# over when TIMES is set) and prints the peak RSS and the wall time.
measure() {
	name=$1 log=$2 robots=$3
	shift 3
	n=${TIMES:-1}
	# shellcheck disable=SC2086
	for _ in $(seq "$n"); do cat "$log"; done |
		/usr/bin/time -v -o "$DIR/time.txt" "$CA" audit --robots "$robots" --quiet ${ARGS:-} "$@" - >"$DIR/out.txt" 2>"$DIR/err.txt" || {
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
	out-long)
		# 4,000 bot lines with 60 KB URLs, --out: DuckDB's vectors of
		# such strings (120 MB each) must fit its memory limit.
		[ -s "$DIR/out-long.log" ] || "$DIR/hostilegen" -lines 4000 -path-bytes 60000 -o "$DIR/out-long.log" -robots "$DIR/robots.txt"
		rm -rf "$DIR/out"
		measure out-long "$DIR/out-long.log" "$DIR/robots.txt" --max-line-bytes 200000 --out "$DIR/out"
		;;
	out-long-all)
		# The same with --db and --parquet besides: DuckDB's raised limit,
		# the database's COMMIT and the Parquet writer at once.
		[ -s "$DIR/out-long.log" ] || "$DIR/hostilegen" -lines 4000 -path-bytes 60000 -o "$DIR/out-long.log" -robots "$DIR/robots.txt"
		rm -rf "$DIR/out" "$DIR/parquet" "$DIR/audit.duckdb" "$DIR/audit.duckdb.wal"
		measure out-long-all "$DIR/out-long.log" "$DIR/robots.txt" --max-line-bytes 200000 --out "$DIR/out" --db "$DIR/audit.duckdb" --parquet "$DIR/parquet"
		;;
	out-thrice)
		# A 3 M-line gen month read three times through stdin, --out:
		# 0.9 M breaches to sort for breaches.csv.
		[ -s "$DIR/month.log" ] || "$CA" gen --lines 3000000 --robots-dir "$DIR/month-robots" -o "$DIR/month.log"
		rm -rf "$DIR/out"
		TIMES=3
		measure out-thrice "$DIR/month.log" "$DIR/month-robots" --out "$DIR/out"
		TIMES=1
		;;
	out-addresses)
		# 2 M bot lines from 2 M distinct client addresses, every one on
		# the block list, --out.
		[ -s "$DIR/addresses.log" ] || "$DIR/hostilegen" -lines 2000000 -addresses 2000000 -o "$DIR/addresses.log" -robots "$DIR/robots.txt"
		rm -rf "$DIR/out"
		measure out-addresses "$DIR/addresses.log" "$DIR/robots.txt" --out "$DIR/out"
		;;
	out-ipv6 | out-ipv6-aggregate)
		# 4 M bot lines from 3.1 M distinct IPv6 addresses (four to a
		# /64, over eight /32s), every one on the block list, --out; with
		# every block-list format but aws-waf (an AWS WAF IP set holds
		# 10,000 addresses: it refuses 1.7 M) and --block-aggregate
		# /24,/64 ("out-ipv6-aggregate").
		[ -s "$DIR/ipv6.log" ] || "$DIR/hostilegen" -lines 4000000 -addresses 8000000 -ipv6 -o "$DIR/ipv6.log" -robots "$DIR/robots.txt"
		rm -rf "$DIR/out"
		if [ "$in" = out-ipv6 ]; then
			measure out-ipv6 "$DIR/ipv6.log" "$DIR/robots.txt" --out "$DIR/out"
		else
			measure out-ipv6-aggregate "$DIR/ipv6.log" "$DIR/robots.txt" --out "$DIR/out" --block-format cidr,nftables,ipset,iptables,nginx,apache,haproxy,cloudflare,crowdsec,csv --block-aggregate /24,/64
		fi
		;;
	parquet-month)
		# The 3 M-line gen month (1.2 M bot requests), --parquet.
		[ -s "$DIR/month.log" ] || "$CA" gen --lines 3000000 --robots-dir "$DIR/month-robots" -o "$DIR/month.log"
		rm -rf "$DIR/parquet"
		measure parquet-month "$DIR/month.log" "$DIR/month-robots" --parquet "$DIR/parquet"
		;;
	*)
		echo "unknown input $in: use ordinary, cardinality, cardinality-1m, long, long-default, out-long, out-long-all, out-thrice, out-addresses, out-ipv6, out-ipv6-aggregate, parquet-month" >&2
		exit 2
		;;
	esac
done

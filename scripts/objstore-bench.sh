#!/bin/sh
# objstore-bench.sh: `crawlaudit audit` of a log read from an S3 object
# against the same bytes read from a file: wall time, throughput and peak
# RSS of each (docs/performance.md, "Logs in object storage"). The object
# is served from the file by a fake S3 server on 127.0.0.1 in a process of
# its own (internal/fakes3/cmd/fakes3serve), so the audit's peak RSS is its
# own. Needs /usr/bin/time (GNU time).
#
#   scripts/objstore-bench.sh
#
# Environment: DIR keeps the generated month (default: a temporary
# directory, removed at the end), LINES its lines (default 4,100,000:
# about 1 GB), RUNS the runs of each (default 3), CA the binary to measure
# (default: built from this tree).
set -eu
cd "$(dirname "$0")/.."

keep=1
if [ -z "${DIR:-}" ]; then
	DIR=$(mktemp -d)
	keep=0
fi
mkdir -p "$DIR/bucket"
pid=
cleanup() {
	[ -z "$pid" ] || kill "$pid" 2>/dev/null || true
	[ "$keep" = 1 ] || rm -rf "$DIR"
}
trap cleanup EXIT

if [ -z "${CA:-}" ]; then
	CA=$DIR/crawlaudit
	go build -tags duckdb_arrow -o "$CA" ./cmd/crawlaudit
fi
go build -o "$DIR/fakes3serve" ./internal/fakes3/cmd/fakes3serve

log=$DIR/bucket/access-2026-10.log
if [ ! -s "$log" ]; then
	"$CA" gen --lines "${LINES:-4100000}" --robots-dir "$DIR/robots" -o "$log"
fi
size=$(wc -c < "$log")

"$DIR/fakes3serve" -bucket logs -dir "$DIR/bucket" > "$DIR/server.url" &
pid=$!
while [ ! -s "$DIR/server.url" ]; do sleep 0.1; done
endpoint=$(head -n 1 "$DIR/server.url")
# Any credentials do: the fake server checks no signature. None of a real
# cloud is used (no profile, no instance role).
export AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench AWS_EC2_METADATA_DISABLED=true
export AWS_CONFIG_FILE=/nonexistent AWS_SHARED_CREDENTIALS_FILE=/nonexistent
url="s3://logs/access-2026-10.log?endpoint=$endpoint&use_path_style=true&region=us-east-1"

echo "$(date -u +%Y-%m-%d): $(awk "BEGIN{printf \"%.2f\", $size/1073741824}") GiB, $(wc -l < "$log") lines; $(nproc) cores"
# measure NAME INPUT: one audit of INPUT, its wall time, throughput and peak RSS.
measure() {
	/usr/bin/time -f '%e %M' -o "$DIR/time" "$CA" audit --robots "$DIR/robots" "$2" > /dev/null
	read -r wall kb < "$DIR/time"
	awk -v n="$1" -v w="$wall" -v kb="$kb" -v s="$size" \
		'BEGIN{printf "%-5s wall %6.2f s  %6.1f MiB/s  peak RSS %5.0f MiB\n", n, w, s/w/1048576, kb/1024}'
}
for _ in $(seq "${RUNS:-3}"); do
	measure file "$log"
	measure s3 "$url"
done

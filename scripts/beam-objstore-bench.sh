#!/bin/sh
# beam-objstore-bench.sh: crawlaudit-beam reading a month of logs from a
# bucket, against `crawlaudit audit` of the same URL (docs/performance.md,
# "Beam over object storage"). The month is cut into one CloudFront-named
# gzip object per day, served by a fake S3 server on 127.0.0.1 in a process
# of its own (internal/fakes3/cmd/fakes3serve); each run's summary.json is
# compared with audit's, without the "blocklist" that audit --json adds
# (the pipeline makes no block list). Needs /usr/bin/time (GNU time) and jq.
#
#   scripts/beam-objstore-bench.sh
#
# Environment: DIR keeps the month and the binaries (default: a temporary
# directory, removed at the end), LINES the month's lines (default
# 1,000,000), RUNS the runs of each (default 3). SAMPLE=1 takes the sample
# month of testdata/sample instead of a generated one, and HOURLY=1 cuts
# one object per hour (of the log's own time zone) instead of per day, as
# CloudFront delivers them: many small objects.
set -eu
cd "$(dirname "$0")/.."

keep=1
if [ -z "${DIR:-}" ]; then
	DIR=$(mktemp -d)
	keep=0
fi
mkdir -p "$DIR/bucket/cf" "$DIR/out"
pids=
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null || true; done
	[ "$keep" = 1 ] || rm -rf "$DIR"
}
trap cleanup EXIT

[ -x "$DIR/crawlaudit" ] || go build -tags duckdb_arrow -o "$DIR/crawlaudit" ./cmd/crawlaudit
[ -x "$DIR/fakes3serve" ] || go build -o "$DIR/fakes3serve" ./internal/fakes3/cmd/fakes3serve
[ -x "$DIR/crawlaudit-beam" ] || (cd cmd/crawlaudit-beam && go build -tags duckdb_arrow -o "$DIR/crawlaudit-beam" .)
[ -x "$DIR/prism" ] || (cd cmd/crawlaudit-beam && go build -o "$DIR/prism" github.com/apache/beam/sdks/v2/go/cmd/prism)

if [ ! -s "$DIR/month.log" ]; then
	if [ "${SAMPLE:-0}" = 1 ]; then
		gzip -dc testdata/sample/access-2026-10.log.gz > "$DIR/month.log"
		cp -r testdata/sample/robots "$DIR/robots"
	else
		"$DIR/crawlaudit" gen --lines "${LINES:-1000000}" --robots-dir "$DIR/robots" -o "$DIR/month.log"
	fi
	# One object per day (or hour) of the requests, named as CloudFront
	# names its files (DIST.YYYY-MM-DD-HH.ID.gz).
	awk -v dir="$DIR/bucket/cf" -v hourly="${HOURLY:-0}" '
		match($0, /\[[0-9][0-9]\/[A-Z][a-z][a-z]\/[0-9][0-9][0-9][0-9]:[0-9][0-9]/) {
			d = substr($0, RSTART + 1, 2); m = substr($0, RSTART + 4, 3); y = substr($0, RSTART + 8, 4)
			h = hourly == 1 ? substr($0, RSTART + 13, 2) : "00"
			mm = (index("JanFebMarAprMayJunJulAugSepOctNovDec", m) + 2) / 3
			f = sprintf("%s/E2GEN.%s-%02d-%s-%s.%s%02d%s.log", dir, y, mm, d, h, "a1b2c3", d, h)
			if (f != last) { if (last != "") close(last); last = f }
		}
		{ print >> f }' "$DIR/month.log"
	gzip -q "$DIR"/bucket/cf/*.log
	for f in "$DIR"/bucket/cf/*.log.gz; do mv "$f" "${f%.log.gz}.gz"; done
fi

rm -f "$DIR/server.url"
"$DIR/fakes3serve" -bucket logs -dir "$DIR/bucket" > "$DIR/server.url" &
pids="$pids $!"
until grep -q '^http://127\.0\.0\.1:[0-9]*$' "$DIR/server.url" 2>/dev/null; do sleep 0.1; done
endpoint=$(head -n 1 "$DIR/server.url")
port=$(awk 'BEGIN{srand(); print 20000 + int(rand() * 20000)}')
"$DIR/prism" --job_port "$port" --serve_http=false --log_level=warn 2> "$DIR/prism.log" &
pids="$pids $!"
# Any credentials do: the fake server checks no signature. None of a real
# cloud is used (no profile, no instance role).
export AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench AWS_EC2_METADATA_DISABLED=true
export AWS_CONFIG_FILE=/nonexistent AWS_SHARED_CREDENTIALS_FILE=/nonexistent
q="?endpoint=$endpoint&use_path_style=true&region=us-east-1"
url="s3://logs/cf/$q"

echo "$(date -u +%Y-%m-%d): $(ls "$DIR"/bucket/cf | wc -l) objects, $(du -sm "$DIR/bucket/cf" | cut -f1) MB gzip, $(wc -l < "$DIR/month.log") lines; $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
"$DIR/crawlaudit" audit --robots "$DIR/robots" --json "$url" | jq -S 'del(.blocklist)' > "$DIR/audit.json"
# measure NAME COMMAND...: one run, its wall time and peak RSS, and
# whether its summary.json equals audit's.
measure() {
	name=$1
	shift
	/usr/bin/time -f '%e %M' -o "$DIR/time" "$@" > "$DIR/run.json"
	read -r wall kb < "$DIR/time"
	same=equal
	jq -S 'del(.blocklist)' "$DIR/run.json" | cmp -s - "$DIR/audit.json" || same=DIFFERENT
	printf '%-34s wall %6.2f s  peak RSS %5.0f MiB  summary.json %s\n' "$name" "$wall" "$((kb / 1024))" "$same"
}
for _ in $(seq "${RUNS:-3}"); do
	measure "audit" "$DIR/crawlaudit" audit --robots "$DIR/robots" --json "$url"
	measure "beam, one piece" "$DIR/crawlaudit-beam" --split-bytes 0 --robots "$DIR/robots" --json "$url"
	measure "beam, pieces of 8 MiB" "$DIR/crawlaudit-beam" --split-bytes 8388608 --robots "$DIR/robots" --json "$url"
	measure "beam, one object a piece" "$DIR/crawlaudit-beam" --split-bytes 1 --robots "$DIR/robots" --json "$url"
	measure "beam, LOOPBACK, 8 MiB, --out s3" "$DIR/crawlaudit-beam" --runner universal --endpoint "localhost:$port" \
		--environment_type LOOPBACK --split-bytes 8388608 --robots "$DIR/robots" --json --out "s3://logs/out/$q" "$url"
done

// Command crawlaudit-beam runs `crawlaudit audit` as an Apache Beam
// pipeline, for logs one machine cannot hold: the same judge per input file (or byte range of
// a large plain file) on as many workers as the runner gives, the window
// measures per bot, host and identity after a GroupByKey, and one
// summary.json that equals `crawlaudit audit --json`'s (see README.md for
// what it does and does not do).
//
// Usage:
//
//	crawlaudit-beam --robots SRC [audit flags] [--json] [--out DIR] [Beam flags] LOG...
//
// The audit flags are crawlaudit audit's: --robots, --host, --spec,
// --grace, --from, --to, --format, --log-format, --json-fields, --ranges,
// --trusted-proxy, --max-line-bytes, --workers, --keep-going, --fail-on,
// --quiet. A LOG may be an s3://, gs://, azblob:// or https:// URL, as
// audit takes it: the objects of a prefix or glob are read in pieces of
// about --split-bytes, each by the worker that judges it. --out DIR writes summary.json and
// agents.json into DIR, --out s3://BUCKET/PREFIX/ (gs://, azblob://) uploads them there;
// --json prints summary.json. --split-bytes N (64 MiB
// by default; 0: whole files) reads a plain LOG file longer than N bytes
// as byte ranges of N bytes on separate workers. Flags come before the
// LOG arguments.
//
// Beam's flags choose where it runs: --runner prism (the default) runs the
// pipeline in this process on Beam's Prism runner; --runner universal (or
// flink, spark) with --endpoint HOST:PORT submits it to a portable job
// server; --environment_type, --environment_config, --job_name,
// --parallelism and Beam's other flags pass through. See README.md.
//
// Exit status: 0 success; 2 a usage or input error, a pipeline that failed,
// or an input that audits nothing.
package main

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// auditOnly are the flags of `crawlaudit audit` that crawlaudit-beam does
// not take, each with the reason, said when one is given: a user moving a
// command line from one to the other learns why rather than only that the
// flag is unknown.
var auditOnly = map[string]string{
	"limit":      "no table is printed: summary.json holds every bot row",
	"batch-rows": "the pipeline's batches are its own",
	"timings":    "the runner times its stages (its own logs: CRAWLAUDIT_BEAM_VERBOSE=1)",
	"keys":       "signed requests (Web Bot Auth) are not verified here, since a replay is told only from the requests before it across all parts; a log with signatures is refused: audit it with crawlaudit audit",
}

// outputsNotMade are the flags of audit's outputs that need the judged
// requests of the whole audit in one DuckDB database, which the pipeline
// never gathers in one place.
var outputsNotMade = []string{"report", "parquet", "db", "what-if",
	"block-min", "block-on", "block-verified", "block-format", "block-ttl", "block-aggregate", "block-aggregate-force", "allow-list",
	"rdns", "rdns-cache", "rdns-server", "rdns-timeout", "rdns-concurrency", "rdns-budget"}

func init() {
	for _, f := range outputsNotMade {
		auditOnly[f] = "the pipeline writes summary.json and agents.json only; reports, block lists, --db, --parquet, --what-if and reverse DNS need the whole audit in one database: run crawlaudit audit for them"
	}
}

// parseArgs parses args into fs (whose errors are its own to report: it
// must continue on error) and returns the exit status to stop with, or -1
// to go on. -h and --help print the usage; an audit flag this command
// does not take is named with its reason; any other error is said in one
// line, with where the flags are listed.
func parseArgs(fs *flag.FlagSet, args []string, usage func(), stderr io.Writer) int {
	out := fs.Output()
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	fs.SetOutput(out)
	switch {
	case err == nil:
		return -1
	case errors.Is(err, flag.ErrHelp):
		usage()
		return exitOK
	}
	const undefined = "flag provided but not defined: -"
	if msg, ok := strings.CutPrefix(err.Error(), undefined); ok {
		name := strings.TrimPrefix(msg, "-")
		if why, ok := auditOnly[name]; ok {
			fmt.Fprintf(stderr, "crawlaudit-beam: --%s is crawlaudit audit's and not taken here: %s\n", name, why)
			return exitError
		}
		fmt.Fprintf(stderr, "crawlaudit-beam: no flag --%s (crawlaudit-beam --help lists them; flags come before the LOG arguments)\n", name)
		return exitError
	}
	fmt.Fprintf(stderr, "crawlaudit-beam: %v (crawlaudit-beam --help lists the flags)\n", err)
	return exitError
}

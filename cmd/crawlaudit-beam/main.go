package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners"
	"golang.org/x/term"

	auditpkg "github.com/crawlaudit/crawlaudit/audit"
	"github.com/crawlaudit/crawlaudit/audit/auditflags"
	"github.com/crawlaudit/crawlaudit/ingest/objstore"
	"github.com/crawlaudit/crawlaudit/internal/atomicfile"
	"github.com/crawlaudit/crawlaudit/report"

	// The runners: Prism in process, the portable ones, and Dataflow's
	// (Google's API client for it is the only code it adds).
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/dataflow"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/flink"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/spark"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal"
)

// Exit statuses, audit's.
const (
	exitOK    = 0
	exitFound = 1 // --fail-on found a finding
	exitError = 2
)

// findingsError is --fail-on's outcome: the findings, one line per bot
// row (summary.json is written or printed all the same).
type findingsError struct{ lines []string }

func (e *findingsError) Error() string { return strings.Join(e.lines, "\n") }

// defaultRunner runs the pipeline in process.
const defaultRunner = "prism"

func main() {
	var opt cliOptions
	defineFlags(flag.CommandLine, &opt)
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "Usage: crawlaudit-beam --robots SRC [flags] LOG...\n\nRuns crawlaudit audit as an Apache Beam pipeline (--runner prism, the default, in this process).\n\n")
		flag.PrintDefaults()
	}
	// Errors of the command line are said in words (parseArgs), not with
	// the whole usage.
	flag.CommandLine.Init(os.Args[0], flag.ContinueOnError)
	if code := parseArgs(flag.CommandLine, os.Args[1:], flag.Usage, os.Stderr); code >= 0 {
		os.Exit(code)
	}
	// A worker started by a runner returns from Init only when done.
	beam.Init()
	removeTemp := privateTempDir()
	code := run(context.Background(), &opt, flag.Args(), os.Stdout, os.Stderr)
	removeTemp()
	os.Exit(code)
}

// privateTempDir points TMPDIR at a new directory of this process's own
// and returns the function that removes it and restores TMPDIR. Beam's Go
// SDK (2.77.0, runners/universal/runnerlib/execute.go) creates an empty
// "beamloopbackworker-*" file in the temporary directory for each
// pipeline run in loopback mode, Prism's, and never removes it
// (apache/beam#27569); in this directory it is removed with the rest. When
// the directory cannot be made, TMPDIR stays as it was.
func privateTempDir() (remove func()) {
	dir, err := os.MkdirTemp("", "crawlaudit-beam-")
	if err != nil {
		return func() {}
	}
	prev, had := os.LookupEnv("TMPDIR")
	os.Setenv("TMPDIR", dir)
	return func() {
		if had {
			os.Setenv("TMPDIR", prev)
		} else {
			os.Unsetenv("TMPDIR")
		}
		os.RemoveAll(dir)
	}
}

// run audits logs as opt asks, on the runner of Beam's --runner flag, and
// returns the exit status.
func run(ctx context.Context, opt *cliOptions, logs []string, stdout, stderr io.Writer) int {
	if !verboseBeam() {
		// Prism logs every job's steps at INFO.
		level := slog.LevelWarn
		if opt.quiet {
			level = slog.LevelError
		}
		slog.SetDefault(slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level})))
	}
	if f, ok := stderr.(*os.File); ok && !opt.quiet && term.IsTerminal(int(f.Fd())) {
		opt.progress = stderr
	}
	err := runAudit(ctx, opt, logs, *runners.Runner, stdout)
	var found *findingsError
	switch {
	case errors.As(err, &found):
		for _, l := range found.lines {
			fmt.Fprintln(stderr, "crawlaudit-beam: --fail-on:", l)
		}
		return exitFound
	case err != nil:
		fmt.Fprintln(stderr, "crawlaudit-beam:", err)
		return exitError
	}
	return exitOK
}

// beamCause returns the last line of a pipeline's error: a runner wraps
// the error of a step in the plan of its stage, line after line.
func beamCause(err error) string {
	lines := strings.Split(strings.TrimSpace(err.Error()), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// distinctLogs returns logs without the arguments that name a file named
// before (the same path, cleaned), which audit reads once, or a URL given
// before (the same URL but for its query: "a//b" and "a/b" are two keys
// of a bucket). A
// file reached both through a directory or glob and by name is still read
// twice, as is an object reached through a prefix and by name.
func distinctLogs(logs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range logs {
		k := "\x00url:" + objstore.Name(l) // audit's name of an object
		if !objstore.IsURL(l) {
			k = filepath.Clean(l)
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, l)
		}
	}
	return out
}

// verboseBeam reports whether CRAWLAUDIT_BEAM_VERBOSE asks for the
// runner's own logs.
func verboseBeam() bool { return os.Getenv("CRAWLAUDIT_BEAM_VERBOSE") != "" }

// runAudit runs the pipeline of logs on runner ("" for the default) and
// writes or prints summary.json.
func runAudit(ctx context.Context, opt *cliOptions, logs []string, runner string, stdout io.Writer) error {
	if len(logs) == 0 {
		return usageErr("give at least one LOG (flags come before the LOG arguments)")
	}
	cfg, err := opt.config()
	if err != nil {
		return err
	}
	// The history is loaded here, once, and refused as audit refuses it
	// before any worker starts; the workers get it in the pipeline.
	if cfg.History, err = opt.packInputs(cfg); err != nil {
		return err
	}
	if _, err := auditpkg.NewPartialAuditor(cfg); err != nil {
		return usageErr("%v", err)
	}
	if !opt.json && opt.out == "" {
		return usageErr("give --json, --out DIR, or both")
	}
	failOn, err := auditflags.ParseFailOn(opt.failOn)
	if err != nil {
		return usageErr("--fail-on: %v", err)
	}
	if slices.Contains(logs, "-") {
		return usageErr("standard input cannot be split over workers: give files")
	}
	if err := auditflags.MissingLogs(logs); err != nil {
		return usageErr("%v", err)
	}
	if runner == "" {
		runner = defaultRunner
	}
	out := output{Place: opt.out}
	switch {
	case out.isURL():
		if err := out.check(ctx); err != nil {
			return err
		}
	case out.Place == "":
		// --json alone: summary.json goes through a directory of this
		// machine, which the workers of Prism (in process) share.
		dir, err := os.MkdirTemp("", "crawlaudit-beam-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		out.Place = dir
	default:
		if out.Place, err = filepath.Abs(out.Place); err != nil {
			return err
		}
		// A previous run killed before its rename left this.
		atomicfile.SweepStaleOf(out.Place, summaryFile)
		atomicfile.SweepStaleOf(out.Place, agentsFile)
	}
	// The logs keep the names given, as audit's evidence does (file in
	// rejected samples and robots_status): a worker resolves a relative
	// name against its own working directory.
	if err := out.remove(ctx, errorFile); err != nil { // a previous run's
		return fmt.Errorf("--out: %w", err)
	}
	if err := defaultWorkerBinary(runner); err != nil {
		return err
	}
	p := buildPipeline(opt.options, distinctLogs(logs), out)
	start := time.Now()
	if opt.progress != nil {
		fmt.Fprintf(opt.progress, "crawlaudit-beam: running the pipeline on %s (%d LOG arguments)\n", runnerName(runner), len(logs))
	}
	if _, err := beam.Run(ctx, runner, p); err != nil {
		return fmt.Errorf("the pipeline on %s failed: %s", runnerName(runner), beamCause(err))
	}
	if opt.progress != nil {
		fmt.Fprintf(opt.progress, "crawlaudit-beam: the pipeline finished in %s\n", time.Since(start).Round(100*time.Millisecond))
	}
	if msg, err := out.read(ctx, errorFile); err == nil {
		out.remove(ctx, errorFile)
		return errors.New(string(msg))
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if !opt.json && len(failOn) == 0 {
		return nil
	}
	data, err := out.read(ctx, summaryFile)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) && !out.isURL() {
			return fmt.Errorf("the pipeline wrote no %s into %s: the workers must write --out on a file system this machine sees too (or give --out an s3://, gs:// or azblob:// prefix)", summaryFile, out.Place)
		}
		return err
	}
	if opt.json {
		if _, err := stdout.Write(data); err != nil {
			return err
		}
	}
	if len(failOn) > 0 {
		var s report.Summary
		if err := json.Unmarshal(data, &s); err != nil {
			return fmt.Errorf("--fail-on: reading %s: %w", out.name(summaryFile), err)
		}
		if found := auditflags.FailFindings(&s, failOn); len(found) > 0 {
			return &findingsError{lines: found}
		}
	}
	return nil
}

// defaultWorkerBinary makes this executable the worker binary that a
// runner other than Prism in process stages for its workers, when
// --worker_binary is not given: Beam's Go SDK (2.77.0,
// runners/universal/runnerlib/compile.go) would instead try to compile the
// program from its source with go build, which is not here, and without
// the duckdb_arrow tag. Workers run linux/amd64 (Beam's containers), so
// only such an executable can be staged; elsewhere --worker_binary must
// name one.
func defaultWorkerBinary(runner string) error {
	f := flag.Lookup("worker_binary")
	env := flag.Lookup("environment_type")
	if runner == "prism" || f == nil || f.Value.String() != "" || (env != nil && strings.EqualFold(env.Value.String(), "loopback")) {
		return nil
	}
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		return usageErr("--runner %s stages a worker binary for linux/amd64 and this one is for %s/%s: build crawlaudit-beam for linux/amd64 (go build -tags duckdb_arrow, on such a machine) and give it as --worker_binary FILE", runner, runtime.GOOS, runtime.GOARCH)
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding this executable to stage it as the worker binary (give --worker_binary FILE): %w", err)
	}
	return flag.Set("worker_binary", self)
}

// runnerName names runner in messages, with the job server's endpoint
// when it runs on one.
func runnerName(runner string) string {
	if f := flag.Lookup("endpoint"); f != nil && f.Value.String() != "" && runner != "prism" {
		return runner + " at " + f.Value.String()
	}
	return runner
}

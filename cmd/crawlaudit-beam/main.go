package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners"

	auditpkg "github.com/crawlaudit/crawlaudit/audit"
	"github.com/crawlaudit/crawlaudit/internal/atomicfile"

	// The runners: Prism in process, and the portable ones.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/flink"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/spark"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal"
)

// Exit statuses.
const (
	exitOK    = 0
	exitError = 2
)

// defaultRunner runs the pipeline in process.
const defaultRunner = "prism"

func main() {
	var opt cliOptions
	defineFlags(flag.CommandLine, &opt)
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "Usage: crawlaudit-beam --robots SRC [flags] LOG...\n\nRuns crawlaudit audit as an Apache Beam pipeline (--runner prism, the default, in this process).\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	// A worker started by a runner returns from Init only when done.
	beam.Init()
	os.Exit(run(context.Background(), &opt, flag.Args(), os.Stdout, os.Stderr))
}

// run audits logs as opt asks, on the runner of Beam's --runner flag, and
// returns the exit status.
func run(ctx context.Context, opt *cliOptions, logs []string, stdout, stderr io.Writer) int {
	if !verboseBeam() {
		// Prism logs every job's steps at INFO.
		slog.SetDefault(slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	}
	err := runAudit(ctx, opt, logs, *runners.Runner, stdout)
	if err != nil {
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
// before (the same path, cleaned), which audit reads once. A file reached
// both through a directory or glob and by name is still read twice.
func distinctLogs(logs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range logs {
		if k := filepath.Clean(l); !seen[k] {
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
	// The history is refused here as audit refuses it, before any worker
	// starts (each worker loads it again).
	if _, err := auditpkg.NewPartialAuditor(cfg); err != nil {
		return usageErr("%v", err)
	}
	if !opt.json && opt.out == "" {
		return usageErr("give --json, --out DIR, or both")
	}
	if slices.Contains(logs, "-") {
		return usageErr("standard input cannot be split over workers: give files")
	}
	for _, l := range logs {
		if _, err := os.Stat(l); err != nil {
			return usageErr("%v", err)
		}
	}
	if runner == "" {
		runner = defaultRunner
	}
	out := opt.out
	if out == "" {
		// --json alone: summary.json goes through a directory of this
		// machine, which the workers of Prism (in process) share.
		dir, err := os.MkdirTemp("", "crawlaudit-beam-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		out = dir
	}
	out, err = filepath.Abs(out)
	if err != nil {
		return err
	}
	if opt.out != "" {
		// A previous run killed before its rename left this.
		atomicfile.SweepStaleOf(out, summaryFile)
	}
	// The logs keep the names given, as audit's evidence does (file in
	// rejected samples and robots_status): a worker resolves a relative
	// name against its own working directory.
	errPath := filepath.Join(out, errorFile)
	os.Remove(errPath) // a previous run's
	p := buildPipeline(opt.options, distinctLogs(logs), out)
	if _, err := beam.Run(ctx, runner, p); err != nil {
		return fmt.Errorf("the pipeline on %s failed: %s", runner, beamCause(err))
	}
	if msg, err := os.ReadFile(errPath); err == nil {
		os.Remove(errPath)
		return errors.New(string(msg))
	}
	if !opt.json {
		return nil
	}
	f, err := os.Open(filepath.Join(out, summaryFile))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("the pipeline wrote no %s into %s: with a remote runner give --out on a file system the workers share", summaryFile, out)
		}
		return err
	}
	defer f.Close()
	_, err = io.Copy(stdout, f)
	return err
}

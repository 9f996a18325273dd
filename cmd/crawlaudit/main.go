package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"golang.org/x/term"

	"github.com/crawlaudit/crawlaudit/internal/atomicfile"
)

// goMemoryLimit is the Go heap's soft limit unless GOMEMLIMIT says
// otherwise: with DuckDB's own limit (store.MemoryLimit) it keeps the
// process under 1 GiB on hostile inputs (docs/performance.md); ordinary audits stay
// far below it and never feel it.
const goMemoryLimit = 384 << 20

// goMemoryLimitAfterRead is the soft limit once the logs are read
// (audit.Config.GoMemoryLimitAfterRead) unless GOMEMLIMIT says otherwise:
// the judge's state is gone by then, and a lower limit leaves DuckDB's
// queries their share (docs/performance.md has the peaks it
// saves on a hostile log).
const goMemoryLimitAfterRead = 256 << 20

// gcPercent is the garbage collector's GOGC unless GOGC says otherwise.
// Reading a month of logs, the Go heap grows from nothing to its live state
// of some tens of MB, and at Go's default of 100 the collector runs half a
// dozen times on the way, stopping both cores each time; at 400 it runs
// less, and the soft memory limit above still bounds the heap
// (docs/performance.md has the figures).
const gcPercent = 400

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(goMemoryLimit)
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	os.Exit(runInterruptible(os.Args[1:]))
}

// runInterruptible runs the command line with SIGINT and SIGTERM handled,
// and SIGHUP (a closed terminal or ssh session) and SIGQUIT
// as SIGTERM: the first signal cancels the run, which unwinds and
// removes its temporary files, leaving --out and --db as they were or
// complete; the exit status is then 128 + the signal's number (130, 143,
// 129, 131) with a one-line message. A second signal exits at once, after
// removing the temporary files still there.
func runInterruptible(args []string) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	caught := make(chan os.Signal, 1)
	go func() {
		first := <-sigs
		if first == syscall.SIGHUP {
			// The terminal is gone: writing to it must fail, not kill the
			// process (SIGPIPE) before it has removed its temporary files.
			signal.Ignore(syscall.SIGPIPE)
		}
		caught <- first
		cancel()
		<-sigs
		atomicfile.RemoveTemporary()
		fmt.Fprintf(os.Stderr, "%scrawlaudit: %s again: stopped at once; temporary files removed, outputs left as they were\n", clearLine(), signalName(first))
		os.Exit(signalStatus(first))
	}()
	code := run(ctx, args, os.Stdin, os.Stdout, os.Stderr)
	select {
	case sig := <-caught:
		atomicfile.RemoveTemporary()
		fmt.Fprintf(os.Stderr, "%scrawlaudit: interrupted by %s: stopped; no temporary file is left and --out, --db are as they were before the run, or complete\n", clearLine(), signalName(sig))
		return signalStatus(sig)
	default:
		// What a run leaves to the process's exit (an in-memory audit's
		// spill directory, closed in the background) goes now.
		atomicfile.RemoveTemporary()
		return code
	}
}

// clearLine returns what erases a progress bar's line on a terminal stderr
// ("" when stderr is not a terminal).
func clearLine() string {
	if term.IsTerminal(int(os.Stderr.Fd())) {
		return "\r\033[K"
	}
	return ""
}

// signalStatus is the shell's exit status for a process ended by sig.
func signalStatus(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 130
}

func signalName(sig os.Signal) string {
	switch sig {
	case syscall.SIGINT:
		return "SIGINT (Ctrl-C)"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP (terminal closed)"
	case syscall.SIGQUIT:
		return "SIGQUIT"
	}
	return sig.String()
}

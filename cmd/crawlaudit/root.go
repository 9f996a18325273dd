package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/crawlaudit/crawlaudit/report"
)

// Exit statuses, the same for every subcommand, so that a
// script can tell a finding (1) from a failure (2).
const (
	exitOK    = 0 // success, nothing found
	exitFound = 1 // "found something": check: a URL is disallowed; lint: errors
	exitUsage = 2 // usage or input error
)

// exitError carries an exit status out of a subcommand's run function. A nil
// err with code exitFound means the command succeeded and found something.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// found reports a successful run that found something (exit status 1).
func found() error { return &exitError{code: exitFound} }

// usageErr reports a usage or input error (exit status 2).
func usageErr(format string, args ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, args...)}
}

// needArgs requires at least one positional argument and, without one,
// says in a sentence which argument is missing (cobra's own message,
// "requires at least 1 arg(s), only received 0", names none).
func needArgs(command, missing string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return usageErr("%s: %s; see crawlaudit %s --help", command, missing, command)
		}
		return nil
	}
}

// cobraMessage rewords the errors cobra itself makes for a terminal line:
// its suggestion for a mistyped command comes on lines of its own behind a
// tab, which the terminal escaping would print as a literal "\t".
func cobraMessage(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, "\n\nDid you mean this?\n"); i >= 0 {
		var names []string
		for _, l := range strings.Split(msg[i+len("\n\nDid you mean this?\n"):], "\n") {
			if l = strings.TrimSpace(l); l != "" {
				names = append(names, strconv.Quote(l))
			}
		}
		msg = msg[:i] + "; did you mean " + strings.Join(names, " or ") + "?"
	}
	if strings.HasPrefix(msg, "unknown command ") {
		msg += " See crawlaudit --help for the commands."
	}
	return strings.TrimSpace(msg)
}

// env is what every subcommand gets from the process: its streams, and
// whether stderr is a terminal (progress bars are drawn only then).
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	stderrTTY      bool
	stdoutTTY      bool
	// stdoutWidth is the terminal's width when stdout is one (COLUMNS
	// overrides it); color: stdout is a terminal, NO_COLOR is not set and
	// TERM is not "dumb" (https://no-color.org).
	stdoutWidth int
	color       bool
}

// subcommands holds the constructors of the subcommands; each subcommand's
// file appends its own in an init function.
var subcommands []func(*env) *cobra.Command

func newRootCmd(e *env) *cobra.Command {
	root := &cobra.Command{
		Use:   "crawlaudit",
		Short: "Audit web crawlers' compliance with robots.txt from access logs",
		Long: `crawlaudit reads a period of web access logs and the history of the site's
robots.txt, and reports which crawlers broke the rules in effect when they made
each request: disallowed requests, Crawl-delay, Request-rate and Visit-time
breaches, per bot and host, with a block list for firewalls.

Exit status: 0 success; 1 something was found (check: a URL is disallowed,
lint: errors); 2 usage or input error.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       toolVersion(),
	}
	root.SetVersionTemplate("crawlaudit {{.Version}}\n")
	var cpuProfile, memProfile string
	var stopProfile func()
	root.PersistentFlags().StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile to `FILE`")
	root.PersistentFlags().StringVar(&memProfile, "memprofile", "", "write a heap profile to `FILE` at exit")
	_ = root.PersistentFlags().MarkHidden("cpuprofile")
	_ = root.PersistentFlags().MarkHidden("memprofile")
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		var err error
		stopProfile, err = startProfiles(cpuProfile, memProfile)
		return err
	}
	root.PersistentPostRun = func(cmd *cobra.Command, args []string) {
		if stopProfile != nil {
			stopProfile()
		}
	}
	root.SetIn(e.stdin)
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	for _, sub := range subcommands {
		root.AddCommand(sub(e))
	}
	return root
}

// run executes the command line args and returns the exit status. A
// cancelled ctx stops the command (main cancels it on SIGINT and SIGTERM).
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	if f, ok := stderr.(*os.File); ok {
		e.stderrTTY = term.IsTerminal(int(f.Fd()))
	}
	if f, ok := stdout.(*os.File); ok {
		e.stdoutTTY = term.IsTerminal(int(f.Fd()))
		if e.stdoutTTY {
			if w, _, err := term.GetSize(int(f.Fd())); err == nil {
				e.stdoutWidth = w
			}
		}
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		e.stdoutWidth = n
	}
	_, noColor := os.LookupEnv("NO_COLOR")
	e.color = e.stdoutTTY && !noColor && os.Getenv("TERM") != "dumb"
	root := newRootCmd(e)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	if ctx.Err() != nil {
		// Interrupted: the caller says so (runInterruptible), not the
		// "context canceled" of whatever was stopped.
		return exitUsage
	}
	var xe *exitError
	if errors.As(err, &xe) {
		if xe.err != nil {
			fmt.Fprintf(stderr, "crawlaudit: %s\n", report.TerminalSafe(xe.err.Error()))
		}
		return xe.code
	}
	// Errors from cobra itself (unknown flag, wrong argument count) are usage errors.
	fmt.Fprintf(stderr, "crawlaudit: %s\n", report.TerminalSafe(cobraMessage(err)))
	return exitUsage
}

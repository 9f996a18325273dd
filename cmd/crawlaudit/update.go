package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// updateFlags are the flags of an update of a dated directory (ranges
// update, keys update): the directory, the sources to fetch, a mirror and
// the timeout of one download.
type updateFlags struct {
	dir, names, baseURL string
	timeout             time.Duration
}

// register adds the flags to f: --dir (its default and help), the flag
// that names the sources (namesFlag, its help), --base-url and --timeout.
func (u *updateFlags) register(f *pflag.FlagSet, dirDefault, dirHelp, namesFlag, namesHelp, baseURLHelp string) {
	f.StringVar(&u.dir, "dir", dirDefault, dirHelp)
	f.StringVar(&u.names, namesFlag, "", namesHelp)
	f.StringVar(&u.baseURL, "base-url", "", baseURLHelp)
	f.DurationVar(&u.timeout, "timeout", 30*time.Second, "timeout of one download")
}

// start checks the flags of cmd ("ranges update") and makes the
// directory: it returns the context and the HTTP client of the downloads.
func (u *updateFlags) start(ctx context.Context, cmd string) (context.Context, *http.Client, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if u.dir == "" {
		return nil, nil, usageErr("%s: --dir must not be empty", cmd)
	}
	if err := os.MkdirAll(u.dir, 0o755); err != nil {
		return nil, nil, usageErr("%s: %v", cmd, err)
	}
	return ctx, &http.Client{Timeout: u.timeout}, nil
}

// updateLine is what an update of a dated directory (ranges update, keys
// update) tells of one source: an error, or the line done says, and its
// warnings.
type updateLine struct {
	name     string
	err      error
	refused  bool // err says the download was refused as implausible
	done     string
	warnings []string
}

// updateReport names an update command's words for reportUpdate.
type updateReport struct {
	cmd   string // "ranges update"
	what  string // what the sources are called in the closing sentence: "sources"
	kept  string // what a refusal leaves newest: "the list"
	width int    // the width of the name column
	dir   string
}

// reportUpdate prints one line per source (errors and warnings on stderr)
// and returns the command's result: exit 2 when a source failed or was
// refused, or when err (the update's own, such as an interruption) is set.
func reportUpdate(e *env, u updateReport, lines []updateLine, err error) error {
	if err != nil && len(lines) == 0 {
		return usageErr("%s: %v", u.cmd, err)
	}
	failed := 0
	for _, l := range lines {
		switch {
		case l.refused:
			failed++
			fmt.Fprintf(e.stderr, "%-*s refused: %v\n%-*s nothing was stored: %s stored before stays the newest\n", u.width, l.name, l.err, u.width, "", u.kept)
		case l.err != nil:
			failed++
			fmt.Fprintf(e.stderr, "%-*s failed: %v\n", u.width, l.name, l.err)
		default:
			fmt.Fprintf(e.stdout, "%-*s %s\n", u.width, l.name, l.done)
		}
		for _, w := range l.warnings {
			fmt.Fprintf(e.stderr, "%-*s warning: %s\n", u.width, l.name, w)
		}
	}
	if failed > 0 {
		return &exitError{code: exitUsage, err: fmt.Errorf("%s: %d of %d %s failed (see above); the others were written to %s", u.cmd, failed, len(lines), u.what, u.dir)}
	}
	if err != nil {
		return usageErr("%s: %v", u.cmd, err) // interrupted
	}
	return nil
}

// commaList splits a comma list flag into its non-empty, trimmed items.
func commaList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

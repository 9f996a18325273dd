package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/robots"
)

// lintOptions are the arguments of `crawlaudit lint`.
type lintOptions struct {
	files []string // robots.txt files or history directories, "-" for stdin
	json  bool     // diagnostics as JSON lines
}

// lintDiagnostic is one line of lint --json.
type lintDiagnostic struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Severity string `json:"severity"`
	Code     string `json:"code"`
	Message  string `json:"message"`
}

func init() {
	subcommands = append(subcommands, func(e *env) *cobra.Command {
		o := &lintOptions{}
		cmd := &cobra.Command{
			Use:   "lint ROBOTS_FILE|DIR...",
			Short: "Report problems in robots.txt files",
			Long: `lint parses each robots.txt file and prints every diagnostic as
"file:line: severity: message": unknown keys and likely misspellings, missing
colons, rules before any User-agent line, invalid Crawl-delay, Request-rate
and Visit-time values, several "*" groups, blank lines inside a group, lines
over 16,664 bytes, files over 500 KiB, bytes that are not UTF-8, HTML pages
served as robots.txt; in Content-Usage and Content-Signal lines, values that
are not label=value lists, unknown and obsolete labels (ai=n), values other
than y/n (yes/no), repeated labels and lines, and path lines that leave unknown
what a broader line states (docs/preferences.md). An error is something that does not take effect as
written (or a file that is not a robots.txt); a warning is read, but not by
every crawler the same way.

A directory is a robots.txt history (audit --robots DIR): every version file
in it (INSTANT.txt, or HOST/INSTANT.txt) is linted, in order. --json prints
one JSON object per diagnostic: {"file","line","severity","code","message"}.

Exit status: 0 no errors (warnings allowed); 1 errors found; 2 a file could
not be read.`,
			Example: `  crawlaudit lint robots.txt
  curl -s https://example.com/robots.txt | crawlaudit lint -
  crawlaudit lint sites/*/robots.txt || echo "fix the errors above"
  crawlaudit lint --json testdata/sample/robots | jq -r 'select(.severity == "error") | .file'`,
			Args: needArgs("lint", "no ROBOTS_FILE given: name the robots.txt files or directories to lint"),
			RunE: func(cmd *cobra.Command, args []string) error {
				o.files = args
				return runLint(e, o)
			},
		}
		cmd.Flags().BoolVar(&o.json, "json", false, "print diagnostics as JSON lines")
		return cmd
	})
}

// lintPaths expands the arguments of lint: a directory is a robots.txt
// history, whose version files (*.txt, at its top or one host directory
// down, hidden names skipped) are linted in order.
func lintPaths(args []string) ([]string, error) {
	var paths []string
	for _, a := range args {
		fi, err := os.Stat(a)
		if a == "-" || err != nil || !fi.IsDir() {
			paths = append(paths, a)
			continue
		}
		var found []string
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(a, p)
			depth := strings.Count(rel, string(filepath.Separator))
			switch {
			case p == a:
			case strings.HasPrefix(d.Name(), "."):
				if d.IsDir() {
					return filepath.SkipDir
				}
			case d.IsDir() && depth >= 1:
				return filepath.SkipDir
			case !d.IsDir() && strings.HasSuffix(d.Name(), ".txt"):
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("cannot read robots.txt history %s: %w", a, err)
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("robots.txt history %s holds no version file (INSTANT.txt or HOST/INSTANT.txt)", a)
		}
		slices.Sort(found)
		paths = append(paths, found...)
	}
	return paths, nil
}

// runLint runs `crawlaudit lint`. Every readable file is linted; a file
// that cannot be read is reported after the others (exit 2).
func runLint(e *env, o *lintOptions) error {
	if len(o.files) == 0 {
		return usageErr("lint: no robots.txt file given")
	}
	errorsFound := false
	var readErr error
	files, err := lintPaths(o.files)
	if err != nil {
		return usageErr("lint: %v", err)
	}
	enc := json.NewEncoder(e.stdout)
	enc.SetEscapeHTML(false)
	for _, path := range files {
		name, data, err := readRobots(e, path)
		if err != nil {
			if readErr == nil {
				readErr = err
			} else {
				fmt.Fprintf(e.stderr, "crawlaudit: lint: %s\n", report.TerminalSafe(err.Error()))
			}
			continue
		}
		f := robots.Parse(data)
		for _, d := range f.Diagnostics {
			if o.json {
				if err := enc.Encode(lintDiagnostic{name, d.Line, d.Severity.String(), string(d.Code), d.Message}); err != nil {
					return err
				}
			} else {
				fmt.Fprintf(e.stdout, "%s:%d: %s: %s\n", report.Printable(name, 0), d.Line, d.Severity, report.Printable(d.Message, 0))
			}
			errorsFound = errorsFound || d.Severity == robots.Error
		}
	}
	if readErr != nil {
		return usageErr("lint: %v", readErr)
	}
	if errorsFound {
		return found()
	}
	return nil
}

package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/crawlaudit/crawlaudit/robots"
)

// lintOptions are the arguments of `crawlaudit lint`.
type lintOptions struct {
	files []string // robots.txt files, "-" for stdin
}

func init() {
	subcommands = append(subcommands, func(e *env) *cobra.Command {
		o := &lintOptions{}
		return &cobra.Command{
			Use:   "lint ROBOTS_FILE...",
			Short: "Report problems in robots.txt files",
			Long: `lint parses each robots.txt file and prints every diagnostic as
"file:line: severity: message": unknown keys and likely misspellings, missing
colons, rules before any User-agent line, invalid Crawl-delay, Request-rate
and Visit-time values, several "*" groups, blank lines inside a group, lines
over 16,664 bytes, files over 500 KiB, bytes that are not UTF-8, HTML pages
served as robots.txt. An error is something that does not take effect as
written (or a file that is not a robots.txt); a warning is read, but not by
every crawler the same way.

Exit status: 0 no errors (warnings allowed); 1 errors found; 2 a file could
not be read.`,
			Example: `  crawlaudit lint robots.txt
  curl -s https://example.com/robots.txt | crawlaudit lint -
  crawlaudit lint sites/*/robots.txt || echo "fix the errors above"`,
			Args: cobra.MinimumNArgs(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				o.files = args
				return runLint(e, o)
			},
		}
	})
}

// runLint runs `crawlaudit lint`. Every readable file is linted; a file
// that cannot be read is reported after the others (exit 2).
func runLint(e *env, o *lintOptions) error {
	if len(o.files) == 0 {
		return usageErr("lint: no robots.txt file given")
	}
	errorsFound := false
	var readErr error
	for _, path := range o.files {
		name, data, err := readRobots(e, path)
		if err != nil {
			if readErr == nil {
				readErr = err
			} else {
				fmt.Fprintf(e.stderr, "crawlaudit: lint: %v\n", err)
			}
			continue
		}
		f := robots.Parse(data)
		for _, d := range f.Diagnostics {
			fmt.Fprintf(e.stdout, "%s:%d: %s: %s\n", name, d.Line, d.Severity, d.Message)
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

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/audit/auditflags"
	"github.com/crawlaudit/crawlaudit/report"
)

// TestFailOnQuiet checks --fail-on as audit has it (exit 1, one line per
// bot row with a finding, the same rows as audit's, summary.json written
// all the same) and that --quiet and -q are accepted.
func TestFailOnQuiet(t *testing.T) {
	if testing.Short() {
		t.Skip("runs pipelines on Prism")
	}
	defer func(l *slog.Logger) { slog.SetDefault(l) }(slog.Default())
	opt := options{Values: auditflags.Values{Robots: sampleRobots, Grace: 24 * time.Hour}}
	var want report.Summary
	if err := json.Unmarshal(auditJSON(t, opt, []string{sampleLog}), &want); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		quiet, kinds string
	}{
		{"--quiet", "disallowed,spoofed"},
		{"-q", "request-rate"},
		{"--quiet", "visit-time,in-grace"},
	} {
		t.Run(tc.kinds, func(t *testing.T) {
			kinds, err := auditflags.ParseFailOn(tc.kinds)
			if err != nil {
				t.Fatal(err)
			}
			wantLines := auditflags.FailFindings(&want, kinds)
			if tc.kinds == "disallowed,spoofed" && len(wantLines) == 0 {
				t.Fatal("the sample month has no disallowed request: nothing to find")
			}
			out := t.TempDir()
			fs := flag.NewFlagSet("crawlaudit-beam", flag.ContinueOnError)
			var o cliOptions
			defineFlags(fs, &o)
			if err := fs.Parse([]string{"--robots", sampleRobots, tc.quiet, "--fail-on", tc.kinds, "--out", out, sampleLog}); err != nil {
				t.Fatal(err)
			}
			if !o.quiet {
				t.Errorf("%s not taken", tc.quiet)
			}
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), &o, fs.Args(), &stdout, &stderr)
			var gotLines []string
			for _, l := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
				if l != "" {
					gotLines = append(gotLines, strings.TrimPrefix(l, "crawlaudit-beam: --fail-on: "))
				}
			}
			wantCode := exitOK
			if len(wantLines) > 0 {
				wantCode = exitFound
			}
			if code != wantCode || !slices.Equal(gotLines, wantLines) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d and the findings:\n%s", code, stderr.String(), wantCode, strings.Join(wantLines, "\n"))
			}
			if _, err := os.Stat(filepath.Join(out, summaryFile)); err != nil {
				t.Errorf("summary.json not written: %v", err)
			}
		})
	}
}

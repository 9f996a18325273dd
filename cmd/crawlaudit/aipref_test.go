//go:build duckdb_arrow

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAuditAIPrefMonth audits the month whose robots.txt gains
// Content-Usage: train-ai=n (testdata/aipref-month at the top of the
// repository) with --out and compares agents.json, and the section
// preferences of report.md and report.html, with the golden files of
// testdata/aipref. In agents.json GPTBot, which fetched /robots.txt and one
// disallowed path, is Partial; ClaudeBot and Googlebot fetched it and broke
// nothing, so Yes; PerplexityBot and ChatGPT-User never fetched it and
// broke nothing, so Unclear. The sections show the exposure per crawler
// before the change (none) and after it.
func TestAuditAIPrefMonth(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := runCLI(t, "", "audit", "--out", dir, "--robots", "../../testdata/aipref-month/robots", "../../testdata/aipref-month/access.log")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, c := range []struct{ file, golden, from, to string }{
		{"agents.json", "agents.golden.json", "", ""},
		{"report.md", "preferences.md.golden", "## AI-use preferences", "\n## "},
		{"report.html", "preferences.html.golden", `<section id="preferences">`, "</section>"},
	} {
		data, err := os.ReadFile(filepath.Join(dir, c.file))
		if err != nil {
			t.Fatal(err)
		}
		got := string(data)
		if c.from != "" {
			i := strings.Index(got, c.from)
			if i < 0 {
				t.Fatalf("%s has no %q", c.file, c.from)
			}
			got = got[i:]
			j := strings.Index(got[len(c.from):], c.to)
			if j < 0 {
				t.Fatalf("%s: the section does not end", c.file)
			}
			end := len(c.from) + j
			if c.to == "</section>" {
				end += len(c.to) // the section's end is the section's
			}
			got = got[:end]
		}
		golden := filepath.Join("testdata", "aipref", c.golden)
		if *update {
			if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test -tags duckdb_arrow ./cmd/crawlaudit -run TestAuditAIPrefMonth -update)", err)
		}
		if got != string(want) {
			t.Errorf("%s differs from %s (rerun with -update if the change is intended):\n%s", c.file, golden, diffLines(string(want), got))
		}
	}
}

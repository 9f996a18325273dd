package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crawlaudit/crawlaudit/report"
)

// TestAuditReportFlag: --report FILE.html writes the HTML report alone,
// with no temporary file left beside it; the table's footer sends the user
// to report.html; a --report into a directory that does not exist is a
// usage error.
func TestAuditReportFlag(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "october.html")
	code, out, stderr := runCLI(t, "", "audit", "--report", page, "--robots", sampleRobots, sampleLog)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 1 || es[0].Name() != "october.html" {
		t.Errorf("--report left %v", es)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	html := string(b)
	if !strings.HasPrefix(html, "<!DOCTYPE html>") || !strings.Contains(html, `http-equiv="Content-Security-Policy"`) || len(b) > 1<<20 {
		t.Errorf("not the report (%d bytes): %.200s", len(b), html)
	}
	for _, s := range report.Sections {
		if !strings.Contains(html, `<section id="`+s.ID+`">`) {
			t.Errorf("no section %s", s.ID)
		}
	}
	// Without --out the block list section says what --out would write.
	if !strings.Contains(html, "No block-list file was written with this report") {
		t.Error("the block list section does not say that no file was written")
	}
	if !strings.Contains(stderr, "Wrote the report to "+page) {
		t.Errorf("stderr %q does not say where the report went", stderr)
	}
	if !strings.HasPrefix(out, "bot\thost\t") {
		t.Errorf("stdout is not the TSV: %.200s", out)
	}
	for _, o := range []*auditOptions{{}, {out: "out"}} {
		if next := nextSteps(o); !strings.Contains(next, "report.html") {
			t.Errorf("the footer for --out %q does not mention report.html: %s", o.out, next)
		}
	}

	code, _, stderr = runCLI(t, "", "audit", "--report", filepath.Join(dir, "missing", "r.html"), "--robots", sampleRobots, sampleLog)
	if code != exitUsage || !strings.Contains(stderr, "--report") {
		t.Errorf("--report into a missing directory: exit %d, stderr %q", code, stderr)
	}
}

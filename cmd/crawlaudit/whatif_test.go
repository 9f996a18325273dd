package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWhatIfPiped: with stdout piped, --what-if adds no second table to
// it: stdout is the bots' tab-separated rows alone, and the what-if totals
// are one sentence on stderr that says where the rows are.
func TestWhatIfPiped(t *testing.T) {
	proposed := filepath.Join(t.TempDir(), "proposed.txt")
	if err := os.WriteFile(proposed, []byte("User-agent: *\nDisallow: /private/\nDisallow: /search\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCLI(t, "", "audit", "--robots", sampleRobots, "--what-if", proposed, sampleLog)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if !strings.HasPrefix(lines[0], "bot\thost\tidentity\t") {
		t.Errorf("stdout does not start with the bots' header: %q", lines[0])
	}
	// Every line is a row of the bots table: as many fields as its header.
	cols := strings.Count(lines[0], "\t")
	for i, l := range lines {
		if n := strings.Count(l, "\t"); n != cols {
			t.Errorf("stdout line %d has %d tabs, not the bots table's %d: %q", i+1, n, cols, l)
		}
	}
	if strings.Contains(out, "newly_disallowed") || strings.Contains(out, "What if") {
		t.Errorf("stdout holds the what-if table:\n%s", out)
	}
	if !strings.Contains(stderr, "What if robots.txt were "+proposed+": ") || !strings.Contains(stderr, "newly disallowed") || !strings.Contains(stderr, "what_if in summary.json") {
		t.Errorf("stderr does not give the what-if totals and where the rows are:\n%s", stderr)
	}
}

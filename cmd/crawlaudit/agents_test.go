//go:build duckdb_arrow

package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestAuditAgentsGolden audits the month whose robots.txt gains
// Content-Usage: train-ai=n (testdata/aipref-month at the top of the
// repository) with --out and compares agents.json with
// testdata/aipref/agents.golden.json: GPTBot, which fetched /robots.txt and
// one disallowed path, is Partial; the others read no /robots.txt and broke
// no rule, so Unclear; pref_exposed is in each evidence.
func TestAuditAgentsGolden(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := runCLI(t, "", "audit", "--out", dir, "--robots", "../../testdata/aipref-month/robots", "../../testdata/aipref-month/access.log")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got, err := os.ReadFile(filepath.Join(dir, "agents.json"))
	if err != nil {
		t.Fatal(err)
	}
	const golden = "testdata/aipref/agents.golden.json"
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -tags duckdb_arrow ./cmd/crawlaudit -run TestAuditAgentsGolden -update)", err)
	}
	if string(got) != string(want) {
		t.Errorf("agents.json differs from %s (rerun with -update if the change is intended):\n%s", golden, diffLines(string(want), string(got)))
	}
}

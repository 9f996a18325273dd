package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/report"
)

// TestAuditRobotsEvidence audits the sample month against its history
// without the version of 2026-10-20: the logs' /robots.txt answers go from
// 1809 to 1997 bytes with no version going live, which audit says on
// stderr, in summary.json's robots_evidence and in report.md. Against the
// whole history it says nothing: the sizes change where the versions do.
func TestAuditRobotsEvidence(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "www.example.com")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"2026-09-15T00:00:00Z.txt", "2026-10-10T12:00:00Z.txt"} {
		b, err := os.ReadFile(filepath.Join(sampleRobots, "www.example.com", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	code, stdout, stderr := runCLI(t, "", "audit", "--json", "--out", out, "--robots", filepath.Dir(dir), sampleLog)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var s report.Summary
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatal(err)
	}
	if len(s.RobotsEvidence) != 1 {
		t.Fatalf("robots_evidence = %+v, want one change", s.RobotsEvidence)
	}
	e := s.RobotsEvidence[0]
	// The first 1997-byte answer comes after 2026-10-20T00:00Z, when the
	// sample's missing version went live, and the last 1809-byte one to
	// the same operators before it.
	if e.Host != "www.example.com" || e.BytesBefore != 1809 || e.BytesAfter != 1997 || len(e.Operators) < 2 ||
		e.Before.Before(timeOf(t, "2026-10-20T00:00:00Z")) || !e.After.Before(e.Before) || e.After.Before(timeOf(t, "2026-10-10T12:00:00Z")) {
		t.Errorf("robots_evidence = %+v", e)
	}
	t.Logf("robots_evidence: %s %d -> %d bytes between %s and %s, operators %v", e.Host, e.BytesBefore, e.BytesAfter, e.After, e.Before, e.Operators)
	if !strings.Contains(stderr, "crawlaudit: warning: the robots.txt of www.example.com changed between") ||
		!strings.Contains(stderr, "from 1809 to 1997 bytes") {
		t.Errorf("stderr lacks the warning:\n%s", stderr)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "**A change the history lacks:** on www.example.com the answers to crawlers' /robots.txt went from 1,809 to 1,997 bytes") {
		t.Errorf("report.md lacks the change")
	}

	code, stdout, stderr = runCLI(t, "", "audit", "--json", "--robots", sampleRobots, sampleLog)
	if code != exitOK || strings.Contains(stderr, "changed between") || !strings.Contains(stdout, `"robots_evidence": []`) {
		t.Errorf("the whole history: exit %d, stderr %s, robots_evidence not empty", code, stderr)
	}
}

func timeOf(t *testing.T, s string) time.Time {
	t.Helper()
	at, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return at
}

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/audit/auditflags"
	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/robots/history"
)

// TestPipelineEqualsAuditUncertain runs the pipeline on the sample month
// under a history as crawlaudit history fetch rebuilds it: the version of
// 2026-10-10T12:00 carries a not_before two days and a half earlier (its
// requests in between judged by both versions), and the version of
// 2026-10-20 is missing, so the logs' /robots.txt answers change size
// (1809 to 1997 bytes) with no version going live: robots_evidence. The
// summary must equal `crawlaudit audit --json`'s byte for byte.
func TestPipelineEqualsAuditUncertain(t *testing.T) {
	if testing.Short() {
		t.Skip("runs pipelines on Prism")
	}
	robotsDir := filepath.Join(t.TempDir(), "robots")
	host := filepath.Join(robotsDir, "www.example.com")
	if err := os.MkdirAll(host, 0o755); err != nil {
		t.Fatal(err)
	}
	m := history.Manifest{Host: "www.example.com", Archive: "http://127.0.0.1:1"}
	for _, v := range []struct{ file, notBefore string }{
		{"2026-09-15T00:00:00Z.txt", ""},
		{"2026-10-10T12:00:00Z.txt", "2026-10-08T00:00:00Z"},
	} {
		body, err := os.ReadFile(filepath.Join(sampleRobots, "www.example.com", v.file))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(host, v.file), body, 0o644); err != nil {
			t.Fatal(err)
		}
		mv := history.ManifestVersion{File: v.file, Status: 200, Bytes: len(body)}
		if v.notBefore != "" {
			nb, err := time.Parse(time.RFC3339, v.notBefore)
			if err != nil {
				t.Fatal(err)
			}
			mv.NotBefore = &nb
		}
		m.Versions = append(m.Versions, mv)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(host, history.ManifestName), b, 0o644); err != nil {
		t.Fatal(err)
	}
	opt := options{Values: auditflags.Values{Robots: robotsDir, Grace: 24 * time.Hour}}
	logs := []string{sampleLog}
	want := auditJSON(t, opt, logs)
	got := beamJSON(t, opt, logs)
	if !bytes.Equal(got, want) {
		t.Errorf("summary.json differs from crawlaudit audit --json's:\n%s", diffLines(want, got))
	}
	var s report.Summary
	if err := json.Unmarshal(got, &s); err != nil {
		t.Fatal(err)
	}
	if len(s.Robots) != 1 || len(s.Robots[0].VersionsDetail) != 2 || s.Robots[0].VersionsDetail[1].NotBefore == nil {
		t.Errorf("robots = %+v: want the second version's not_before", s.Robots)
	}
	if len(s.RobotsEvidence) != 1 || s.RobotsEvidence[0].BytesBefore != 1809 || s.RobotsEvidence[0].BytesAfter != 1997 {
		t.Errorf("robots_evidence = %+v: want 1809 → 1997 bytes", s.RobotsEvidence)
	}
}

//go:build duckdb_arrow

package audit

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/report/markdown"
)

// TestRobotsEvidenceAudit: a log whose /robots.txt answers change size
// while the history (one file, for all time) does not change. Only the
// 200 GET answers of crawlers that are not spoofed count: a HEAD, a 304
// and a Googlebot from an address outside Google's ranges do not. The
// full and the lean audit find the same change, warn, and report.md says
// it.
func TestRobotsEvidenceAudit(t *testing.T) {
	dir := t.TempDir()
	robotsFile := filepath.Join(dir, "robots.txt")
	if err := os.WriteFile(robotsFile, []byte("User-agent: *\nDisallow: /private/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l := func(ip, ts, method, status, size, ua string) string {
		return ip + ` - - [` + ts + `] "` + method + ` /robots.txt HTTP/1.1" ` + status + ` ` + size + ` "-" "` + ua + `"`
	}
	log := []string{
		l("66.249.66.1", "01/Oct/2026:00:00:00 +0000", "GET", "200", "500", uaGooglebot),
		l("157.55.39.1", "01/Oct/2026:01:00:00 +0000", "GET", "200", "500", uaBing),
		l("157.55.39.1", "02/Oct/2026:01:00:00 +0000", "HEAD", "200", "900", uaBing),   // not a GET
		l("66.249.66.1", "03/Oct/2026:00:00:00 +0000", "GET", "304", "0", uaGooglebot), // not a 200
		l("66.249.66.1", "05/Oct/2026:00:00:00 +0000", "GET", "200", "620", uaGooglebot),
		l("157.55.39.1", "05/Oct/2026:02:00:00 +0000", "GET", "200", "620", uaBing),
		l("203.0.113.9", "06/Oct/2026:00:00:00 +0000", "GET", "200", "777", uaGooglebot), // spoofed
		l("157.55.39.1", "06/Oct/2026:01:00:00 +0000", "GET", "200", "777", uaBing),
	}
	logFile := filepath.Join(dir, "access.log")
	if err := os.WriteFile(logFile, []byte(strings.Join(log, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	after := time.Date(2026, 10, 1, 1, 0, 0, 0, time.UTC)
	before := time.Date(2026, 10, 5, 0, 0, 0, 0, time.UTC)
	for _, lean := range []bool{false, true} {
		res, err := Run(context.Background(), Config{Robots: robotsFile, Host: "www.example.com", Lean: lean}, []string{logFile})
		if err != nil {
			t.Fatal(err)
		}
		defer res.Close()
		ev := res.Summary.RobotsEvidence
		if len(ev) != 1 || ev[0].Host != "www.example.com" || !ev[0].After.Equal(after) || !ev[0].Before.Equal(before) ||
			ev[0].BytesBefore != 500 || ev[0].BytesAfter != 620 || strings.Join(ev[0].Operators, ",") != "Google,Microsoft" {
			t.Fatalf("lean %v: robots_evidence = %+v, want 500→620 between %s and %s seen by Google and Microsoft", lean, ev, after, before)
		}
		warned := false
		for _, w := range res.Warnings {
			warned = warned || strings.Contains(w, "the robots.txt of www.example.com changed between 2026-10-01T01:00:00Z and 2026-10-05T00:00:00Z")
		}
		if !warned {
			t.Errorf("lean %v: no warning of the change among %q", lean, res.Warnings)
		}
		var js bytes.Buffer
		if err := report.WriteJSON(&js, &res.Summary); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(js.String(), `"bytes_before": 500`) {
			t.Errorf("summary.json lacks robots_evidence:\n%s", js.String())
		}
		if lean {
			continue
		}
		f, err := res.Findings(context.Background(), BlockPolicy{}, ReportOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var md bytes.Buffer
		if err := markdown.Write(&md, f); err != nil {
			t.Fatal(err)
		}
		if w := "went from 500 to 620 bytes between 2026-10-01 01:00 and 2026-10-05 00:00 UTC (seen by Google, Microsoft)"; !strings.Contains(md.String(), w) {
			t.Errorf("report.md lacks %q", w)
		}
	}
}

// TestRobotsEvidenceBound: past maxRobotsResponses answers the judge keeps
// no more, and the audit says how many it left out.
func TestRobotsEvidenceBound(t *testing.T) {
	defer func(n int) { maxRobotsResponses = n }(maxRobotsResponses)
	maxRobotsResponses = 3
	dir := t.TempDir()
	robotsFile := filepath.Join(dir, "robots.txt")
	if err := os.WriteFile(robotsFile, []byte("User-agent: *\nDisallow: /private/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var log []string
	for i := range 5 {
		log = append(log, `66.249.66.1 - - [0`+string(rune('1'+i))+`/Oct/2026:00:00:00 +0000] "GET /robots.txt HTTP/1.1" 200 500 "-" "`+uaGooglebot+`"`)
	}
	logFile := filepath.Join(dir, "access.log")
	if err := os.WriteFile(logFile, []byte(strings.Join(log, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, lean := range []bool{false, true} {
		res, err := Run(context.Background(), Config{Robots: robotsFile, Host: "www.example.com", Lean: lean}, []string{logFile})
		if err != nil {
			t.Fatal(err)
		}
		defer res.Close()
		want := "the logs hold more than 3 answers to crawlers' /robots.txt requests; 2 of them were not compared"
		found := false
		for _, w := range res.Warnings {
			found = found || strings.HasPrefix(w, want)
		}
		if !found {
			t.Errorf("lean %v: warnings %q lack %q", lean, res.Warnings, want)
		}
	}
}

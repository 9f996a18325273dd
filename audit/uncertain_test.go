//go:build duckdb_arrow

package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/report/markdown"
	"github.com/crawlaudit/crawlaudit/report/page"
	"github.com/crawlaudit/crawlaudit/robots/history"
)

// uncertainVersions is a history as crawlaudit history fetch rebuilds it:
// v2 and v3 carry a not_before (the archive's last capture of the version
// before), v4 none (its change time is known).
var uncertainVersions = []struct {
	file, notBefore, body string
}{
	{"2026-10-01T00:00:00Z.txt", "", "User-agent: *\nDisallow: /nothing-here/\n"},                              // v0 allows all
	{"2026-10-05T00:00:00Z.txt", "", "User-agent: *\nDisallow: /both/\nDisallow: /old/\n"},                     // v1
	{"2026-10-10T00:00:00Z.txt", "2026-10-08T00:00:00Z", "User-agent: *\nDisallow: /both/\nDisallow: /new/\n"}, // v2
	{"2026-10-20T00:00:00Z.txt", "2026-10-18T00:00:00Z", "User-agent: *\nDisallow: /both/\n"},                  // v3
	{"2026-10-20T12:00:00Z.txt", "", "User-agent: *\nDisallow: /both/\nDisallow: /new/\n"},                     // v4
}

// uncertainRows are requests with their verdicts worked out by hand from
// the rule of docs/robots-history.md ("Uncertain change times"): with the
// versions.json and a 24 h grace, with it and no grace, and without the
// versions.json (change times taken as certain) and a 24 h grace.
var uncertainRows = []struct {
	ts, target, ua          string
	grace24, grace0, noJSON string
	why                     string
}{
	{"07/Oct/2026:12:00:00 +0000", "/both/", uaGooglebot, "disallowed", "disallowed", "disallowed", "v1 surely in effect, and 24 h earlier"},
	{"05/Oct/2026:12:00:00 +0000", "/both/", uaGooglebot, "disallowed_in_grace", "disallowed", "disallowed_in_grace", "RFC 9309 §2.4 cache: v0 24 h earlier allowed"},
	{"09/Oct/2026:00:00:00 +0000", "/none/", uaGooglebot, "allowed", "allowed", "allowed", "v1 or v2: both allow"},
	{"09/Oct/2026:00:00:00 +0000", "/old/", uaGooglebot, "disallowed_in_grace", "disallowed_in_grace", "disallowed", "v1 (in effect) disallows, v2 (maybe live) allows"},
	{"09/Oct/2026:00:00:00 +0000", "/new/", uaGooglebot, "disallowed_in_grace", "disallowed_in_grace", "allowed", "v1 (in effect) allows, v2 (maybe live) disallows"},
	{"09/Oct/2026:00:00:00 +0000", "/both/", uaGooglebot, "disallowed", "disallowed", "disallowed", "v1 and v2 disallow; 24 h earlier v1 or v2, both disallow"},
	{"08/Oct/2026:00:00:00 +0000", "/new/", uaGooglebot, "disallowed_in_grace", "disallowed_in_grace", "allowed", "not_before itself is in the uncertain interval"},
	{"07/Oct/2026:23:59:59 +0000", "/new/", uaGooglebot, "allowed", "allowed", "allowed", "a second before not_before: v1 only"},
	{"10/Oct/2026:00:00:00 +0000", "/old/", uaGooglebot, "allowed", "allowed", "allowed", "v2's file instant: v2 surely live"},
	{"10/Oct/2026:06:00:00 +0000", "/new/", uaGooglebot, "disallowed_in_grace", "disallowed", "disallowed_in_grace", "v2 disallows; 24 h earlier v1 or v2, v1 allowed"},
	{"19/Oct/2026:00:00:00 +0000", "/new/", uaGooglebot, "disallowed_in_grace", "disallowed_in_grace", "disallowed", "v2 (in effect) disallows, v3 (maybe live) allows"},
	{"20/Oct/2026:06:00:00 +0000", "/new/", uaGooglebot, "allowed", "allowed", "allowed", "v3 surely live, allows"},
	{"20/Oct/2026:18:00:00 +0000", "/new/", uaGooglebot, "disallowed_in_grace", "disallowed", "disallowed", "v4 disallows; 24 h earlier v2 or v3, v3 allowed"},
	{"09/Oct/2026:00:00:00 +0000", "/new/", uaChatGPTUser, "user_triggered", "user_triggered", "allowed", "a user-triggered fetcher: v2 may disallow"},
}

// writeUncertain writes the history (with or without its versions.json)
// and the log of uncertainRows.
func writeUncertain(t *testing.T, withJSON bool) (robotsDir, logFile string) {
	t.Helper()
	dir := t.TempDir()
	robotsDir = filepath.Join(dir, "robots")
	host := filepath.Join(robotsDir, "www.example.com")
	if err := os.MkdirAll(host, 0o755); err != nil {
		t.Fatal(err)
	}
	m := history.Manifest{Host: "www.example.com", Archive: "http://127.0.0.1:1"}
	for _, v := range uncertainVersions {
		if err := os.WriteFile(filepath.Join(host, v.file), []byte(v.body), 0o644); err != nil {
			t.Fatal(err)
		}
		first, err := time.Parse(time.RFC3339, strings.TrimSuffix(v.file, ".txt"))
		if err != nil {
			t.Fatal(err)
		}
		mv := history.ManifestVersion{File: v.file, FirstSeen: first, LastSeen: first, Status: 200, Bytes: len(v.body), Captures: 1}
		if v.notBefore != "" {
			nb, err := time.Parse(time.RFC3339, v.notBefore)
			if err != nil {
				t.Fatal(err)
			}
			mv.NotBefore = &nb
		}
		m.Versions = append(m.Versions, mv)
	}
	if withJSON {
		b, err := json.MarshalIndent(m, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(host, history.ManifestName), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var lines []string
	for _, r := range uncertainRows {
		lines = append(lines, line("66.249.66.1", r.ts, r.target, r.ua))
	}
	logFile = filepath.Join(dir, "access.log")
	if err := os.WriteFile(logFile, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return robotsDir, logFile
}

// TestUncertainChangeTimes judges each row of uncertainRows in the full
// audit, and checks that the lean audit counts the same verdicts.
func TestUncertainChangeTimes(t *testing.T) {
	for _, c := range []struct {
		name     string
		withJSON bool
		grace    time.Duration
		want     func(i int) string
	}{
		{"not_before, grace 24h", true, 24 * time.Hour, func(i int) string { return uncertainRows[i].grace24 }},
		{"not_before, grace 0", true, 0, func(i int) string { return uncertainRows[i].grace0 }},
		{"no versions.json, grace 24h", false, 24 * time.Hour, func(i int) string { return uncertainRows[i].noJSON }},
	} {
		t.Run(c.name, func(t *testing.T) {
			robotsDir, logFile := writeUncertain(t, c.withJSON)
			cfg := Config{Robots: robotsDir, Grace: c.grace, GraceForAll: true}
			res, err := Run(context.Background(), cfg, []string{logFile})
			if err != nil {
				t.Fatal(err)
			}
			defer res.Close()
			got := map[int64]string{}
			err = res.Store().Each(context.Background(), "SELECT r.line, d.value FROM requests r JOIN dict d ON d.id = r.verdict_id", nil, func(v []any) error {
				got[v[0].(int64)] = v[1].(string)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]int64{}
			for i, r := range uncertainRows {
				w := c.want(i)
				want[w]++
				if g := got[int64(i+1)]; g != w {
					t.Errorf("line %d (%s %s, %s): %s, want %s", i+1, r.ts, r.target, r.why, g, w)
				}
			}
			// The lean audit judges with the same judge; its counts must
			// match the rows'.
			cfg.Lean = true
			lean, err := Run(context.Background(), cfg, []string{logFile})
			if err != nil {
				t.Fatal(err)
			}
			defer lean.Close()
			var dis, grace, user int64
			for _, b := range lean.Summary.Bots {
				dis += b.Disallowed
				grace += b.DisallowedInGrace
				user += b.UserTriggered
			}
			if fmt.Sprint(dis, grace, user) != fmt.Sprint(want["disallowed"], want["disallowed_in_grace"], want["user_triggered"]) {
				t.Errorf("lean audit: disallowed %d, in grace %d, user-triggered %d; want %d, %d, %d",
					dis, grace, user, want["disallowed"], want["disallowed_in_grace"], want["user_triggered"])
			}
		})
	}
}

// TestUncertainIntervalShown: summary.json's robots gives each version's
// not_before, and report.md and report.html show the interval as uncertain.
func TestUncertainIntervalShown(t *testing.T) {
	robotsDir, logFile := writeUncertain(t, true)
	res, err := Run(context.Background(), Config{Robots: robotsDir, Grace: 24 * time.Hour}, []string{logFile})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	if len(res.Summary.Robots) != 1 {
		t.Fatalf("robots = %+v, want one host", res.Summary.Robots)
	}
	var got []string
	for _, v := range res.Summary.Robots[0].VersionsDetail {
		nb := "null"
		if v.NotBefore != nil {
			nb = v.NotBefore.Format(time.RFC3339)
		}
		got = append(got, filepath.Base(v.File)+" "+v.From.Format(time.RFC3339)+" "+nb)
	}
	// Each file's instant, and the not_before of versions.json (the first
	// version and v4 have none).
	want := []string{
		"2026-10-01T00:00:00Z.txt 2026-10-01T00:00:00Z null",
		"2026-10-05T00:00:00Z.txt 2026-10-05T00:00:00Z null",
		"2026-10-10T00:00:00Z.txt 2026-10-10T00:00:00Z 2026-10-08T00:00:00Z",
		"2026-10-20T00:00:00Z.txt 2026-10-20T00:00:00Z 2026-10-18T00:00:00Z",
		"2026-10-20T12:00:00Z.txt 2026-10-20T12:00:00Z null",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("versions_detail:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var js bytes.Buffer
	if err := report.WriteJSON(&js, &res.Summary); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"not_before": "2026-10-08T00:00:00Z"`) {
		t.Errorf("summary.json lacks the not_before of v2:\n%s", js.String())
	}
	f, err := res.Findings(context.Background(), BlockPolicy{}, ReportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var md, html bytes.Buffer
	if err := markdown.Write(&md, f); err != nil {
		t.Fatal(err)
	}
	if err := page.Write(&html, f); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		"between 2026-10-08 00:00 and 2026-10-10 00:00 (uncertain: judged by both versions)",
		"between 2026-10-18 00:00 and 2026-10-20 00:00 (uncertain: judged by both versions)",
	} {
		if !strings.Contains(md.String(), w) {
			t.Errorf("report.md lacks %q", w)
		}
	}
	for _, w := range []string{
		"live from between 2026-10-08 00:00 UTC and 2026-10-10 00:00 UTC",
		"When it went live is uncertain: the history shows the version before it until 2026-10-18 00:00 UTC",
	} {
		if !strings.Contains(html.String(), w) {
			t.Errorf("report.html lacks %q", w)
		}
	}
	if strings.Count(md.String(), "(uncertain: judged by both versions)") != 2 {
		t.Errorf("report.md marks %d versions uncertain, want 2", strings.Count(md.String(), "(uncertain: judged by both versions)"))
	}
}

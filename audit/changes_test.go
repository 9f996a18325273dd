//go:build duckdb_arrow

package audit

import (
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/report"
)

// TestChangesGitHistory: summary.json's "changes" on a git: history made by the
// test. Version 2 (committed 2026-10-10 12:00) adds "Disallow: /new/".
// Googlebot breaks it twice, fetches robots.txt 3 hours after the change,
// and obeys from its next request; bingbot fetches robots.txt first and
// never breaks it. Every expected figure is worked out by hand below.
func TestChangesGitHistory(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repo := t.TempDir()
	git := func(env []string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Env = append(os.Environ(), env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git(nil, "init", "-q")
	for _, v := range []struct{ date, body string }{
		{"2026-10-01T00:00:00Z", "User-agent: *\nDisallow: /private/\n"},
		{"2026-10-10T12:00:00Z", "User-agent: *\nDisallow: /private/\nDisallow: /new/\n"},
	} {
		if err := os.WriteFile(filepath.Join(repo, "robots.txt"), []byte(v.body), 0o644); err != nil {
			t.Fatal(err)
		}
		env := []string{"GIT_AUTHOR_DATE=" + v.date, "GIT_COMMITTER_DATE=" + v.date}
		git(env, "add", "robots.txt")
		git(env, "commit", "-q", "-m", "robots "+v.date)
	}
	const google, bing = "66.249.66.1", "157.55.39.10"
	lines := []string{
		statusLine(google, "09/Oct/2026:12:00:00 +0000", "/new/old", 200, uaGooglebot),    // before the change: allowed
		statusLine(google, "10/Oct/2026:13:00:00 +0000", "/new/a", 200, uaGooglebot),      // +1 h: breaks /new/ (grace 0)
		statusLine(google, "10/Oct/2026:14:30:00 +0000", "/new/b", 200, uaGooglebot),      // +2.5 h: breaks it again: the last
		statusLine(google, "10/Oct/2026:15:00:00 +0000", "/robots.txt", 200, uaGooglebot), // +3 h: first fetch
		statusLine(google, "10/Oct/2026:15:06:00 +0000", "/x", 200, uaGooglebot),          // +3.1 h: first obeying
		statusLine(google, "10/Oct/2026:16:00:00 +0000", "/y", 200, uaGooglebot),
		statusLine(bing, "10/Oct/2026:18:00:00 +0000", "/robots.txt", 200, uaBing), // +6 h: first fetch
		statusLine(bing, "10/Oct/2026:18:30:00 +0000", "/z", 200, uaBing),          // +6.5 h: first obeying
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "access.log")
	if err := os.WriteFile(log, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Config{Robots: "git:" + repo + "//robots.txt", Host: "www.example.com", GraceForAll: true}, []string{log})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	hours := func(p *float64) float64 {
		if p == nil {
			return -1
		}
		return *p
	}
	want := map[string]struct {
		fetch, obey, lastBreak float64
		breaking               int64
	}{
		"Googlebot": {3, 3.1, 2.5, 2},
		"bingbot":   {6, 6.5, -1, 0},
	}
	if len(res.Summary.Changes) != len(want) {
		t.Fatalf("changes = %+v, want one per bot", res.Summary.Changes)
	}
	at := time.Date(2026, 10, 10, 12, 0, 0, 0, time.UTC)
	for _, c := range res.Summary.Changes {
		w, ok := want[c.Bot]
		if !ok || c.Identity != report.IdentityVerified || !c.At.Equal(at) || c.Host != "www.example.com" {
			t.Errorf("unexpected change %+v", c)
			continue
		}
		if strings.Join(c.AddedRules, "|") != "Disallow: /new/" {
			t.Errorf("%s: added rules %q", c.Bot, c.AddedRules)
		}
		got := struct {
			fetch, obey, lastBreak float64
			breaking               int64
		}{round(hours(c.HoursToRobotsFetch)), round(hours(c.HoursToObeying)), round(hours(c.HoursToLastBreaking)), c.Breaking}
		if got != w {
			t.Errorf("%s: hours to fetch, obeying, last breaking, breaking = %v, want %v", c.Bot, got, w)
		}
	}
}

func round(h float64) float64 { return math.Round(h*1000) / 1000 }

// TestChangesSample: on the sample month, every change of its history
// (2026-10-10 12:00 and 2026-10-20) is followed for the bots active around
// it, and the verified Googlebot, which fetches robots.txt daily, reacts
// to both within a day.
func TestChangesSample(t *testing.T) {
	res, err := Run(context.Background(), Config{Robots: "../testdata/sample/robots", Grace: 24 * time.Hour}, []string{whatIfSampleLog})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	seen := map[string]bool{}
	for _, c := range res.Summary.Changes {
		seen[c.At.Format(time.RFC3339)] = true
		if c.Bot != "Googlebot" || c.Identity != report.IdentityVerified {
			continue
		}
		if c.HoursToRobotsFetch == nil || *c.HoursToRobotsFetch > 24 || c.HoursToObeying == nil || *c.HoursToObeying < *c.HoursToRobotsFetch {
			t.Errorf("Googlebot at %v: fetch after %v h, obeying after %v h", c.At, c.HoursToRobotsFetch, c.HoursToObeying)
		}
		if len(c.AddedRules) == 0 {
			t.Errorf("Googlebot at %v: no added rule", c.At)
		}
	}
	if !seen["2026-10-10T12:00:00Z"] || !seen["2026-10-20T00:00:00Z"] || len(seen) != 2 {
		t.Errorf("changes at %v, want the sample's two", seen)
	}
}

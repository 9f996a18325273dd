package main

import (
	"context"
	"encoding/csv"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/robots/history"
	"github.com/crawlaudit/crawlaudit/robots/wayback/waybacktest"
)

// sampleQuarter is a stand-in archive holding a quarter of captures of the
// sample site's robots.txt: the sample's three versions at their instants,
// an older one before, a 404 and a return to the first after October, with
// the repeats, redirect, server error and variants of waybacktest.Quarter.
func sampleQuarter(t *testing.T) *waybacktest.Archive {
	t.Helper()
	dir := filepath.Join(sampleRobots, "www.example.com")
	var vs [3]string
	for i, name := range []string{"2026-09-15T00:00:00Z.txt", "2026-10-10T12:00:00Z.txt", "2026-10-20T00:00:00Z.txt"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		vs[i] = string(b)
	}
	return waybacktest.New(t, waybacktest.Quarter("User-agent: *\nDisallow: /checkout/\n", vs[0], vs[1], vs[2]))
}

// TestHistoryFetchAudit fetches the sample site's history from a stand-in
// archive, then audits the sample month against it. The versions go live
// at the sample's own instants, but the archive shows only that the
// 2026-10-10T12:00 version went live after 2026-09-23T08:11:22, the
// 2026-10-20 one after 2026-10-16, and the November 404 after 2026-10-20:
// the requests in between are judged by both versions (auditUncertain
// checks them). A second fetch reads no body again.
func TestHistoryFetchAudit(t *testing.T) {
	a := sampleQuarter(t)
	dir := t.TempDir()
	code, out, stderr := runCLI(t, "", "history", "fetch", "--host", "www.example.com", "-o", dir,
		"--archive-url", a.URL, "--rate", "1000")
	if code != exitOK {
		t.Fatalf("history fetch: exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"www.example.com: 13 captures, 6 versions, 2 captures without a version",
		"2026-10-10T12:00:00Z.txt  live between 2026-09-23T08:11:22Z and 2026-10-10T12:00:00Z",
		"2026-11-03T12:00:00Z.txt  live between 2026-10-20T00:00:00Z and 2026-11-03T12:00:00Z  (HTTP 404: empty, allows all, 2 captures)",
		"no version: 2026-10-04T17:33:44Z  HTTP 503",
		"4 bodies read from the archive, 0 reused; 5 requests to the archive",
		"crawlaudit audit --robots " + filepath.ToSlash(dir),
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if stderr != "" {
		t.Errorf("stderr not empty off a terminal: %q", stderr)
	}

	auditUncertain(t, dir)

	code, out, stderr = runCLI(t, "", "history", "fetch", "--host", "www.example.com", "-o", dir,
		"--archive-url", a.URL, "--rate", "1000")
	if code != exitOK || !strings.Contains(out, "0 bodies read from the archive, 4 reused; 1 requests") {
		t.Errorf("second fetch: exit %d, stdout %s, stderr %s", code, out, stderr)
	}
	if got := a.BodyRequests.Load(); got != 4 {
		t.Errorf("%d body requests over two runs, want 4", got)
	}
}

// TestHistoryFetchBadInput checks exit 2, a message naming the URL, and
// nothing written for an archive that answers HTML, and the usage errors.
func TestHistoryFetchBadInput(t *testing.T) {
	a := sampleQuarter(t)
	a.Intercept = func(w http.ResponseWriter, r *http.Request) bool {
		w.Write([]byte("<html><head><title>Wayback Machine</title></head><body>Down for maintenance</body></html>"))
		return true
	}
	dir := t.TempDir()
	code, _, stderr := runCLI(t, "", "history", "fetch", "--host", "www.example.com", "-o", dir, "--archive-url", a.URL, "--rate", "1000")
	if code != exitUsage || !strings.Contains(stderr, a.URL+"/cdx/search/cdx?") || !strings.Contains(stderr, "not a JSON CDX answer") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("exit %d, stderr %q; want 2 and one line naming the CDX URL", code, stderr)
	}
	if es, _ := os.ReadDir(dir); len(es) != 0 {
		t.Errorf("%s holds %d entries after a failed fetch", dir, len(es))
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"history", "fetch", "-o", dir}, "no --host given"},
		{[]string{"history", "fetch", "--host", "example.com"}, "no -o DIR given"},
		{[]string{"history", "fetch", "--host", "https://example.com/", "-o", dir}, "give the host name alone"},
		{[]string{"history", "fetch", "--host", "example.com", "-o", dir, "--from", "last week"}, "--from: cannot parse"},
		{[]string{"history", "fetch", "--host", "example.com", "-o", dir, "--rate", "0"}, "--rate 0"},
		{[]string{"history", "fetch", "--host", "example.com", "-o", dir, "--archive-url", "web.archive.org"}, "not an http or https URL"},
	} {
		code, _, stderr := runCLI(t, "", tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
}

// TestHistoryFetchNotBefore checks that robots/history reads the fetched
// directory's not_before.
func TestHistoryFetchNotBefore(t *testing.T) {
	a := sampleQuarter(t)
	dir := t.TempDir()
	if code, _, stderr := runCLI(t, "", "history", "fetch", "--host", "www.example.com", "-o", dir, "--archive-url", a.URL, "--rate", "1000", "--to", "2026-10-31"); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	h, err := history.Load(dir, history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range h.Versions("www.example.com") {
		got = append(got, filepath.Base(v.Name)+" "+v.NotBefore.Format("2006-01-02T15:04:05Z"))
	}
	want := []string{
		"2026-08-02T09:30:15Z.txt 0001-01-01T00:00:00Z",
		"2026-09-15T00:00:00Z.txt 2026-08-19T14:12:03Z",
		"2026-10-10T12:00:00Z.txt 2026-09-23T08:11:22Z",
		"2026-10-20T00:00:00Z.txt 2026-10-16T00:00:00Z",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("versions\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestHistoryFetchProgress draws the bar of bodies read when stderr is a
// terminal, and none with --quiet.
func TestHistoryFetchProgress(t *testing.T) {
	for _, quiet := range []bool{false, true} {
		a := sampleQuarter(t)
		var out, errb strings.Builder
		e := &env{stdout: &out, stderr: &errb, stderrTTY: true}
		opt := &historyFetchOptions{host: "www.example.com", out: t.TempDir(), archive: a.URL, rate: 1000, retries: 5, timeout: time.Minute, quiet: quiet}
		if err := runHistoryFetch(context.Background(), e, opt); err != nil {
			t.Fatal(err)
		}
		drawn := strings.Contains(errb.String(), "captures") && strings.Contains(errb.String(), "4/4")
		if drawn == quiet {
			t.Errorf("quiet=%v: stderr %q", quiet, errb.String())
		}
	}
}

// auditUncertain audits the sample month against the history fetched into
// dir (grace 0, so that only the uncertain intervals make requests in
// grace) and checks, request by request (violations.csv), that:
//
//   - without its versions.json the verdicts are those of the sample's own
//     history: the same versions at the same instants;
//   - with it, a request outside the uncertain intervals keeps its
//     verdict, and one inside is disallowed when both versions disallow it
//     and in grace when one of them does, each version's verdict taken
//     from an audit of the whole month under that version alone.
func auditUncertain(t *testing.T, dir string) {
	t.Helper()
	host := filepath.Join(dir, "www.example.com")
	// violations returns the disallowed requests of an audit under robots
	// ("file:line" → in grace), and the lines of its warnings.
	violations := func(extra ...string) (map[string]bool, map[string]time.Time, string) {
		t.Helper()
		out := t.TempDir()
		args := append([]string{"audit", "--grace", "0", "--out", out}, extra...)
		code, _, stderr := runCLI(t, "", append(args, sampleLog)...)
		if code != exitOK {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		f, err := os.Open(filepath.Join(out, "violations.csv"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		rows, err := csv.NewReader(f).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		col := map[string]int{}
		for i, c := range rows[0] {
			col[c] = i
		}
		got, at := map[string]bool{}, map[string]time.Time{}
		for _, r := range rows[1:] {
			k := r[col["file"]] + ":" + r[col["line"]]
			ts, err := time.Parse(time.RFC3339, r[col["ts"]])
			if err != nil {
				t.Fatalf("violations.csv ts %q: %v", r[col["ts"]], err)
			}
			got[k], at[k] = r[col["in_grace"]] == "true", ts
		}
		return got, at, stderr
	}
	own, ownAt, _ := violations("--robots", sampleRobots)

	// Without versions.json: the sample's own verdicts.
	bare := filepath.Join(t.TempDir(), "www.example.com")
	if err := os.MkdirAll(bare, 0o755); err != nil {
		t.Fatal(err)
	}
	es, err := os.ReadDir(host)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if strings.HasSuffix(e.Name(), ".txt") {
			b, err := os.ReadFile(filepath.Join(host, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(bare, e.Name()), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if got, _, _ := violations("--robots", filepath.Dir(bare)); !maps.Equal(got, own) {
		t.Errorf("without versions.json: %d disallowed requests, the sample's own history %d", len(got), len(own))
	}

	// With it.
	got, gotAt, _ := violations("--robots", dir)
	intervals := []struct {
		from, to     time.Time
		older, newer string
	}{
		{time.Date(2026, 9, 23, 8, 11, 22, 0, time.UTC), time.Date(2026, 10, 10, 12, 0, 0, 0, time.UTC), "2026-09-15T00:00:00Z.txt", "2026-10-10T12:00:00Z.txt"},
		{time.Date(2026, 10, 16, 0, 0, 0, 0, time.UTC), time.Date(2026, 10, 20, 0, 0, 0, 0, time.UTC), "2026-10-10T12:00:00Z.txt", "2026-10-20T00:00:00Z.txt"},
		// The archive's one capture of the 2026-10-20 version is its
		// first: the 404 of November (an empty version, allowing all) may
		// have begun right after it.
		{time.Date(2026, 10, 20, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 3, 12, 0, 0, 0, time.UTC), "2026-10-20T00:00:00Z.txt", "2026-11-03T12:00:00Z.txt"},
	}
	inside := func(ts time.Time) int {
		for i, iv := range intervals {
			if !ts.Before(iv.from) && ts.Before(iv.to) {
				return i
			}
		}
		return -1
	}
	// Outside the intervals: the sample's verdicts.
	for k, g := range own {
		if inside(ownAt[k]) < 0 && (got[k] != g || gotAt[k].IsZero()) {
			t.Errorf("%s at %s outside the uncertain intervals: in grace %v (present %v), the sample's own %v", k, ownAt[k], got[k], !gotAt[k].IsZero(), g)
		}
	}
	for k := range got {
		if inside(gotAt[k]) < 0 && ownAt[k].IsZero() {
			t.Errorf("%s at %s outside the uncertain intervals: disallowed, allowed by the sample's own history", k, gotAt[k])
		}
	}
	// Inside: by both versions, each alone.
	for i, iv := range intervals {
		// --keep-going: the empty version (a 404) allows all, which audit
		// refuses as a history of one file unless asked.
		older, olderAt, _ := violations("--keep-going", "--robots", filepath.Join(host, iv.older), "--host", "www.example.com")
		newer, newerAt, _ := violations("--keep-going", "--robots", filepath.Join(host, iv.newer), "--host", "www.example.com")
		want := map[string]bool{}
		for k := range older {
			if inside(olderAt[k]) == i {
				want[k] = true // in grace unless newer disallows too
			}
		}
		for k := range newer {
			if inside(newerAt[k]) == i {
				_, both := want[k]
				want[k] = !both
			}
		}
		have := map[string]bool{}
		for k, g := range got {
			if inside(gotAt[k]) == i {
				have[k] = g
			}
		}
		var grace, dis int
		for _, g := range want {
			if g {
				grace++
			} else {
				dis++
			}
		}
		if !maps.Equal(have, want) {
			t.Errorf("%s to %s: %d requests disallowed or in grace, want %d (%d disallowed by both, %d by one)", iv.from, iv.to, len(have), len(want), dis, grace)
		}
		if grace == 0 {
			t.Errorf("%s to %s: no request disallowed by one version only: the interval tests nothing", iv.from, iv.to)
		}
		t.Logf("%s to %s: %d requests disallowed by both versions, %d by one only (in grace)", iv.from.Format(time.RFC3339), iv.to.Format(time.RFC3339), dis, grace)
	}
}

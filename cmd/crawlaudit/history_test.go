package main

import (
	"context"
	"encoding/json"
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
// archive, then audits the sample month against it: every bot's counts are
// those of the audit against the sample's own history, since the versions
// in effect in October are the same at the same instants. A second fetch
// reads no body again.
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

	code, fetched, stderr := runCLI(t, "", "audit", "--json", "--robots", dir, sampleLog)
	if code != exitOK {
		t.Fatalf("audit against the fetched history: exit %d: %s", code, stderr)
	}
	code, own, stderr := runCLI(t, "", "audit", "--json", "--robots", sampleRobots, sampleLog)
	if code != exitOK {
		t.Fatalf("audit against the sample history: exit %d: %s", code, stderr)
	}
	var fs, os_ struct {
		Bots []json.RawMessage `json:"bots"`
	}
	if err := json.Unmarshal([]byte(fetched), &fs); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(own), &os_); err != nil {
		t.Fatal(err)
	}
	if len(fs.Bots) == 0 || len(fs.Bots) != len(os_.Bots) {
		t.Fatalf("%d bot rows against the fetched history, %d against the sample's", len(fs.Bots), len(os_.Bots))
	}
	for i := range fs.Bots {
		if string(fs.Bots[i]) != string(os_.Bots[i]) {
			t.Errorf("bot row %d:\nfetched %s\nsample  %s", i, fs.Bots[i], os_.Bots[i])
		}
	}

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
// directory's not_before (the audit does not use it yet).
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

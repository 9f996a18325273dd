//go:build duckdb_arrow

package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/crawlaudit/crawlaudit/report"
)

// writeTemp writes data into a new file name in a test directory.
func writeTemp(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func gzipped(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.Bytes()
}

const (
	tinyRobots = "User-agent: *\nDisallow: /private/\n"
	tinyLine   = `66.249.66.1 - - [02/Oct/2026:10:00:00 +0000] "GET /index.html HTTP/1.1" 200 512 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"` + "\n"
)

// TestAuditNothingToAudit: an input that yields nothing to audit is said so
// on stderr with what and why, exit 2, and no table, so that an unattended run
// does not report an empty audit as a clean one. A --robots file that is plainly the wrong one goes on with
// --keep-going.
func TestAuditNothingToAudit(t *testing.T) {
	robotsOK := writeTemp(t, "robots.txt", []byte(tinyRobots))
	logOK := writeTemp(t, "access.log", []byte(tinyLine))
	utf16 := []byte{0xff, 0xfe}
	for _, r := range "User-agent: *\r\nDisallow: /\r\n" {
		utf16 = append(utf16, byte(r), 0)
	}
	for _, c := range []struct {
		name      string
		robots    string
		log       string
		extra     []string
		want      string // in stderr
		keepGoing bool   // --keep-going makes it exit 0
	}{
		{"empty log", robotsOK, writeTemp(t, "empty.log", nil), nil, "hold no line", false},
		{"empty gzip log", robotsOK, writeTemp(t, "empty.log.gz", gzipped(t, "")), nil, "hold no line", false},
		{"no line parses", robotsOK, writeTemp(t, "junk.log", []byte("hello\nworld\n")), nil, "none of the 2 log lines", false},
		{"all outside the period", robotsOK, logOK, []string{"--from", "2026-11-01"}, "all 1 requests are outside --from/--to (the logs run from 2026-10-02T10:00:00Z", false},
		{"no version covers a bot request", sampleRobots, writeTemp(t, "sept.log", []byte(strings.Replace(tinyLine, "02/Oct", "01/Sep", 1))), nil, "no robots.txt version of " + sampleRobots + " covers any of the 1 bot requests", false},
		{"robots.txt is HTML", writeTemp(t, "robots.txt", []byte("<!DOCTYPE html>\n<html><body><h1>Welcome</h1></body></html>\n")), logOK, nil, "looks like an HTML page", true},
		{"robots.txt is UTF-16", writeTemp(t, "robots.txt", utf16), logOK, nil, "UTF-16LE text", true},
		{"robots.txt is gzip", writeTemp(t, "robots.txt", gzipped(t, tinyRobots)), logOK, nil, "gzip-compressed data", true},
		{"robots.txt is binary", writeTemp(t, "robots.txt", []byte("\x7fELF\x02\x01\x01\x00\x00\x00\n\x00\x03\x00>\x00")), logOK, nil, "binary data", true},
		{"robots.txt has no directive", writeTemp(t, "robots.txt", []byte("# nothing here yet\n")), logOK, nil, "not a single directive", true},
	} {
		args := append([]string{"audit", "--robots", c.robots}, c.extra...)
		code, out, stderr := runCLI(t, "", append(args, c.log)...)
		if code != exitUsage || out != "" || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 2, no table, %q", c.name, code, out, stderr, c.want)
		}
		code, out, stderr = runCLI(t, "", append(append(args, "--keep-going"), c.log)...)
		if c.keepGoing && (code != exitOK || !strings.Contains(out, "Googlebot") || !strings.Contains(stderr, "warning: --robots")) {
			t.Errorf("%s --keep-going: exit %d, stdout %q, stderr %q; want 0, the table and a warning", c.name, code, out, stderr)
		}
		if !c.keepGoing && code != exitUsage {
			t.Errorf("%s --keep-going: exit %d, want 2 still", c.name, code)
		}
	}
	// The sample is not nothing.
	if code, _, stderr := runCLI(t, "", "audit", "--robots", sampleRobots, sampleLog); code != exitOK {
		t.Errorf("sample: exit %d: %s", code, stderr)
	}
}

// dirState returns the names and contents of the files in dir.
func dirState(t *testing.T, dir string) map[string]string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, e := range es {
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		m[e.Name()] = string(b)
	}
	return m
}

// TestAuditKeptOutputsSurvive: a kept audit (--db) and a complete --out
// set survive every run that fails, is empty, or meets a damaged input;
// only a complete run replaces them, and no temporary file is left
// (a cron job that meets a bad day must not destroy yesterday's
// results).
func TestAuditKeptOutputsSurvive(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "audit.duckdb")
	out := filepath.Join(dir, "out")
	good := []string{"audit", "-q", "--db", db, "--out", out, "--robots", sampleRobots}
	if code, _, stderr := runCLI(t, "", append(good, sampleLog)...); code != exitOK {
		t.Fatalf("first audit: exit %d: %s", code, stderr)
	}
	queryRequests := func() string {
		code, stdout, stderr := runCLI(t, "", "query", "--db", db, "SELECT count(*) FROM requests")
		if code != exitOK {
			t.Fatalf("query: exit %d: %s", code, stderr)
		}
		return stdout
	}
	before, beforeOut := queryRequests(), dirState(t, out)
	beforeDir := dirState(t, dir)
	sample, err := os.ReadFile(sampleLog)
	if err != nil {
		t.Fatal(err)
	}
	truncated := writeTemp(t, "cut.log.gz", sample[:len(sample)/2])
	for _, c := range []struct {
		name string
		args []string
	}{
		{"a typo'd log path", append(slices.Clone(good), "/nonexistent/access.log")},
		{"an empty log", append(slices.Clone(good), writeTemp(t, "empty.log", nil))},
		{"a robots.txt that is HTML", []string{"audit", "-q", "--db", db, "--out", out, "--robots", writeTemp(t, "robots.txt", []byte("<html><body>no</body></html>\n")), sampleLog}},
		{"a truncated log", append(slices.Clone(good), truncated)},
		{"a bad flag value", append(slices.Clone(good), "--block-format", "bogus", sampleLog)},
	} {
		code, _, stderr := runCLI(t, "", c.args...)
		if code != exitUsage {
			t.Errorf("%s: exit %d, want 2: %s", c.name, code, stderr)
		}
		if got := queryRequests(); got != before {
			t.Errorf("%s: the kept audit changed: %q, was %q", c.name, got, before)
		}
		if got := dirState(t, out); !mapsEqual(got, beforeOut) {
			t.Errorf("%s: --out changed", c.name)
		}
		if got := dirState(t, dir); len(got) != len(beforeDir) {
			t.Errorf("%s: files left beside --db: %v", c.name, keys(got))
		}
	}
	// With --keep-going the truncated log's readable lines are a report,
	// and it replaces both.
	code, _, stderr := runCLI(t, "", append(append(slices.Clone(good), "--keep-going"), truncated)...)
	if code != exitOK {
		t.Fatalf("--keep-going: exit %d: %s", code, stderr)
	}
	if got := queryRequests(); got == before {
		t.Errorf("--keep-going: the kept audit was not replaced (%q)", got)
	}
	if got := dirState(t, out); got["summary.json"] == beforeOut["summary.json"] {
		t.Errorf("--keep-going: --out was not replaced")
	}
	if got := dirState(t, dir); len(got) != len(beforeDir) {
		t.Errorf("files left beside --db: %v", keys(got))
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func keys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// TestAuditDBRefusesForeignFile: --db never replaces a file that is not
// an earlier audit.
func TestAuditDBRefusesForeignFile(t *testing.T) {
	notDB := writeTemp(t, "access.log", []byte(tinyLine))
	code, out, stderr := runCLI(t, "", "audit", "--db", notDB, "--robots", sampleRobots, sampleLog)
	if code != exitUsage || out != "" || !strings.Contains(stderr, "is not a DuckDB database") {
		t.Errorf("a log as --db: exit %d, stderr %q", code, stderr)
	}
	if b, _ := os.ReadFile(notDB); string(b) != tinyLine {
		t.Errorf("the file given as --db was changed")
	}
}

// TestAuditFailOn: --fail-on KINDS exits 1 when a bot has such a finding,
// naming it on stderr, and 0 when none has, for CI and cron jobs.
func TestAuditFailOn(t *testing.T) {
	for _, c := range []struct {
		kinds string
		code  int
		want  string
	}{
		{"disallowed", exitFound, "Bytespider on www.example.com: disallowed 1168"},
		{"spoofed", exitFound, "Googlebot (spoofed) on www.example.com: spoofed 160"},
		{"breaches", exitFound, "MJ12bot on www.example.com: breaches 721"},
		{"visit-time", exitFound, "PetalBot on www.example.com: visit-time 477"},
		{"bogus", exitUsage, "unknown kind \"bogus\""},
	} {
		code, out, stderr := runCLI(t, "", "audit", "--fail-on", c.kinds, "--robots", sampleRobots, sampleLog)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("--fail-on %s: exit %d, stderr %q; want %d and %q", c.kinds, code, stderr, c.code, c.want)
		}
		if c.code == exitFound && !strings.Contains(out, "Bytespider") {
			t.Errorf("--fail-on %s: no table", c.kinds)
		}
	}
	// Nothing found: exit 0.
	robots := writeTemp(t, "robots.txt", []byte(tinyRobots))
	log := writeTemp(t, "access.log", []byte(tinyLine))
	if code, _, stderr := runCLI(t, "", "audit", "--fail-on", "disallowed,spoofed,breaches", "--robots", robots, log); code != exitOK {
		t.Errorf("clean log: exit %d: %s", code, stderr)
	}
}

// TestVersion: --version and the version command say what the binary is
// made of.
func TestVersion(t *testing.T) {
	code, out, _ := runCLI(t, "", "--version")
	if code != exitOK || !strings.HasPrefix(out, "crawlaudit ") || strings.Count(out, "\n") != 1 {
		t.Errorf("--version: exit %d, %q", code, out)
	}
	code, out, _ = runCLI(t, "", "version")
	for _, want := range []string{"Go go1.", "DuckDB v1.5.5", "github.com/duckdb/duckdb-go/v2 v2.10505.0", "github.com/apache/arrow-go/v18 v18.", "IP range snapshot made "} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("version: exit %d, no %q in %q", code, want, out)
		}
	}
}

// TestAuditRejectedOnStderr: the first rejected lines are shown with file
// and line, escape sequences made harmless: a log's
// lines are written by whoever sent the requests.
func TestAuditRejectedOnStderr(t *testing.T) {
	robots := writeTemp(t, "robots.txt", []byte(tinyRobots))
	log := writeTemp(t, "access.log", []byte(tinyLine+"garbage \x1b[2J line\n"+tinyLine+"66.249.66.1 - - [02/Oct/2026:10:00:00 +0000] \"GET /cut\n"))
	code, _, stderr := runCLI(t, "", "audit", "--robots", robots, log)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"2 of 4 log lines rejected", log + ":2: ", `garbage \x1b[2J line`, log + ":4: truncated line"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("no %q in stderr %q", want, stderr)
		}
	}
	if strings.Contains(stderr, "\x1b") {
		t.Errorf("an escape sequence reached the terminal: %q", stderr)
	}
}

// TestNoEscapeReachesTheTerminal: check's rule text, error messages and
// lint's output strip control characters: a robots.txt may come
// from anyone.
func TestNoEscapeReachesTheTerminal(t *testing.T) {
	robots := writeTemp(t, "robots.txt", []byte("User-agent: *\nDisallow: /\x1b[2J\x1b]0;owned\x07\n"))
	for _, args := range [][]string{
		{"check", "--robots", robots, "--agent", "Googlebot", "/\x1b[2J\x1b]0;owned\x07"},
		{"check", "--robots", robots, "--agent", "Googlebot", "/x\x1b[31m"},
		{"lint", robots},
		{"audit", "--robots", robots + "\x1b[2J", sampleLog},
		{"audit", "--robots", sampleRobots, "/nonexistent/\x1b[2J.log"},
	} {
		_, out, stderr := runCLI(t, "", args...)
		if strings.ContainsAny(out+stderr, "\x1b\x07") {
			t.Errorf("%q: a control character reached the terminal:\nstdout %q\nstderr %q", args, out, stderr)
		}
	}
}

// TestAuditDamagedGzip: a gzip member that fails its integrity check
// contributes no row — not the invented bots a flipped byte makes, not a
// browser's address on the block list —, and the error names the member
// and its offset, so that the user can find it.
func TestAuditDamagedGzip(t *testing.T) {
	var lines1, lines2 strings.Builder
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&lines1, `198.51.100.7 - - [02/Oct/2026:10:%02d:%02d +0000] "GET /private/%d HTTP/1.1" 200 512 "-" "Mozilla/5.0 (compatible; Bytespider; spider-feedback@bytedance.com)"`+"\n", i/60, i%60, i)
		fmt.Fprintf(&lines2, `203.0.113.9 - - [02/Oct/2026:11:%02d:%02d +0000] "GET /private/%d HTTP/1.1" 200 512 "-" "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15"`+"\n", i/60, i%60, i)
	}
	member1, member2 := gzipped(t, lines1.String()), gzipped(t, lines2.String())
	damaged := append(slices.Clone(member1), member2...)
	damaged[len(member1)+len(member2)/2] ^= 0x10 // inside member 2's deflate data
	dir := t.TempDir()
	bad := filepath.Join(dir, "access.log.1.gz")
	good := filepath.Join(dir, "access.log")
	os.WriteFile(bad, damaged, 0o644)
	os.WriteFile(good, []byte(strings.Repeat(tinyLine, 3)), 0o644)
	robots := writeTemp(t, "robots.txt", []byte(tinyRobots))

	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := runCLI(t, "", "audit", "--json", "--out", out, "--robots", robots, good, bad)
	wantErr := fmt.Sprintf("%s: gzip member 2 (at byte offset %d): integrity check failed", bad, len(member1))
	if code != exitUsage || !strings.Contains(stderr, wantErr) {
		t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr, wantErr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("--out was written by a run with a damaged input")
	}
	check := func(stdout string) {
		t.Helper()
		var s report.Summary
		if err := json.Unmarshal([]byte(stdout), &s); err != nil {
			t.Fatalf("summary: %v\n%s", err, stdout)
		}
		// Only the good file's three Googlebot requests: member 1 was
		// readable, but its file is damaged, so none of its rows count.
		if s.Input.Lines != 3 || s.Input.BotRequests != 3 || len(s.Bots) != 1 || s.Bots[0].Bot != "Googlebot" {
			t.Errorf("input %+v, bots %+v: want the good file's 3 Googlebot requests only", s.Input, s.Bots)
		}
		if len(s.Input.Excluded) != 1 || s.Input.Excluded[0].File != bad || !strings.Contains(s.Input.Excluded[0].Reason, fmt.Sprintf("gzip member 2 (at byte offset %d)", len(member1))) || s.Input.Excluded[0].Lines < 200 {
			t.Errorf("excluded: %+v", s.Input.Excluded)
		}
	}
	check(stdout)
	// --keep-going: reported, excluded, exit 0, and the outputs written
	// without a row of the damaged file.
	code, stdout, stderr = runCLI(t, "", "audit", "--json", "--keep-going", "--out", out, "--robots", robots, good, bad)
	if code != exitOK || !strings.Contains(stderr, "none of its") {
		t.Errorf("--keep-going: exit %d, stderr %q", code, stderr)
	}
	check(stdout)
	for _, f := range []string{"blocklist.txt", "violations.csv"} {
		b, _ := os.ReadFile(filepath.Join(out, f))
		if strings.Contains(string(b), "198.51.100.7") || strings.Contains(string(b), "203.0.113.9") {
			t.Errorf("%s holds an address of the damaged file:\n%s", f, b)
		}
	}
}

// TestAuditInvalidClients: client fields that are not addresses are
// counted by reason and never reach a block list; a bracketed IPv6 with a
// port is an address (RFC 3986 §3.2.2).
func TestAuditInvalidClients(t *testing.T) {
	var log strings.Builder
	for i, client := range []string{"999.1.1.1", "1.2.3.4:8080", "fe80::1%eth0", "crawl-66-249-66-1.googlebot.com", "[2001:db8::3]:443"} {
		fmt.Fprintf(&log, `%s - - [02/Oct/2026:10:00:%02d +0000] "GET /private/x HTTP/1.1" 200 5 "-" "Mozilla/5.0 (compatible; Bytespider; spider-feedback@bytedance.com)"`+"\n", client, i)
	}
	robots := writeTemp(t, "robots.txt", []byte(tinyRobots))
	logFile := writeTemp(t, "access.log", []byte(log.String()))
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := runCLI(t, "", "audit", "--json", "--out", out, "--block-format", "all", "--robots", robots, logFile)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var s report.Summary
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatal(err)
	}
	var invalid int64
	for _, n := range s.Input.InvalidClients {
		invalid += n
	}
	if invalid != 4 || s.Input.Parsed != 5 || len(s.Input.InvalidClientSamples) == 0 {
		t.Errorf("invalid clients %v (samples %v), parsed %d: want 4 of 5 lines", s.Input.InvalidClients, s.Input.InvalidClientSamples, s.Input.Parsed)
	}
	if len(s.Bots) != 1 || s.Bots[0].Disallowed != 5 {
		t.Errorf("bots %+v: the 5 disallowed requests still count", s.Bots)
	}
	es, _ := os.ReadDir(out)
	for _, e := range es {
		if !strings.HasPrefix(e.Name(), "blocklist") {
			continue
		}
		b, _ := os.ReadFile(filepath.Join(out, e.Name()))
		for _, bad := range []string{"999.1.1.1", "1.2.3.4", "fe80::1", "googlebot.com"} {
			if strings.Contains(string(b), bad) {
				t.Errorf("%s holds %q", e.Name(), bad)
			}
		}
		if e.Name() == "blocklist.txt" && !strings.Contains(string(b), "2001:db8::3") {
			t.Errorf("blocklist.txt lacks 2001:db8::3:\n%s", b)
		}
	}
}

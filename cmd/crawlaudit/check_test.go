package main

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
)

const checkRobots = `# test file
User-agent: Googlebot
Disallow: /private/
Allow: /private/ok
Crawl-delay: 10
Request-rate: 1/10s
Request-rate: 1/2s 0800-0900
Visit-time: 0100-0600

User-agent: *
Disallow: /
`

// runCheckCLI runs the whole command line (cobra included) with stdin.
func runCheckCLI(stdin string, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func writeRobots(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCheckJSON: contract §2.1, the exact keys, types and nulls.
func TestCheckJSON(t *testing.T) {
	p := writeRobots(t, checkRobots)
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb}
	o := &checkOptions{
		robots: p, agent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", spec: "rfc9309", json: true,
		urls: []string{"http://example.com/private/x?y=1&z=<2>", "/private/ok.html", "/"},
		now:  func() time.Time { return time.Date(2026, 10, 1, 8, 30, 0, 0, time.UTC) },
	}
	err := runCheck(e, o)
	if code := exitCode(err); code != exitFound {
		t.Fatalf("exit %d (%v), want 1", code, err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	want := []string{
		`{"url":"http://example.com/private/x?y=1&z=<2>","allowed":false,"group":"googlebot","rule":"Disallow: /private/","line":3,"crawl_delay":10,"request_rate":[1,2],"visit_time":["0100","0600"]}`,
		`{"url":"/private/ok.html","allowed":true,"group":"googlebot","rule":"Allow: /private/ok","line":4,"crawl_delay":10,"request_rate":[1,2],"visit_time":["0100","0600"]}`,
		`{"url":"/","allowed":true,"group":"googlebot","rule":null,"line":null,"crawl_delay":10,"request_rate":[1,2],"visit_time":["0100","0600"]}`,
	}
	if len(lines) != len(want) {
		t.Fatalf("output:\n%s", out.String())
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, lines[i], want[i])
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(lines[i]), &m); err != nil || len(m) != 8 {
			t.Errorf("line %d: %v, %d keys", i+1, err, len(m))
		}
	}
	if errb.Len() != 0 {
		t.Errorf("stderr: %s", errb.String())
	}

	// The "*" group, and no group at all: nulls; outside the Request-rate
	// window the unwindowed rate.
	out.Reset()
	o.agent, o.urls = "OtherBot", []string{"/a"}
	if code := exitCode(runCheck(e, o)); code != exitFound {
		t.Errorf("exit %d", code)
	}
	if got := strings.TrimSpace(out.String()); got != `{"url":"/a","allowed":false,"group":"*","rule":"Disallow: /","line":11,"crawl_delay":null,"request_rate":null,"visit_time":null}` {
		t.Errorf("star: %s", got)
	}
	out.Reset()
	o.robots = writeRobots(t, "User-agent: GPTBot\nDisallow: /\n")
	if code := exitCode(runCheck(e, o)); code != exitOK {
		t.Errorf("exit %d", code)
	}
	if got := strings.TrimSpace(out.String()); got != `{"url":"/a","allowed":true,"group":null,"rule":null,"line":null,"crawl_delay":null,"request_rate":null,"visit_time":null}` {
		t.Errorf("none: %s", got)
	}
	out.Reset()
	o.robots, o.agent, o.now = p, "googlebot", func() time.Time { return time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC) }
	runCheck(e, o)
	if !strings.Contains(out.String(), `"request_rate":[1,10]`) {
		t.Errorf("rate at noon: %s", out.String())
	}
}

// TestCheckCLI: the command line end to end: exit statuses, stdin, the
// readable output, usage errors with one-line messages.
func TestCheckCLI(t *testing.T) {
	p := writeRobots(t, checkRobots)
	for _, c := range []struct {
		name, stdin string
		args        []string
		code        int
		out, err    []string // substrings
	}{
		{"all allowed", "", []string{"check", "--robots", p, "--agent", "Googlebot", "/", "/public"}, 0,
			[]string{"allowed     /  (no rule matches)", `group "googlebot": crawl-delay 10 s`, "visit-time 0100-0600 UTC"}, nil},
		{"some disallowed", "", []string{"check", "--robots", p, "--agent", "Googlebot", "/", "/private/a"}, 1,
			[]string{"DISALLOWED  /private/a  (line 3: Disallow: /private/)"}, nil},
		{"stdin", checkRobots, []string{"check", "--robots", "-", "--agent", "bingbot", "--json", "/x"}, 1,
			[]string{`"group":"*"`}, nil},
		{"koster1996", "User-agent: *\nAllow: /a\nDisallow: /a/b\n", []string{"check", "--robots", "-", "--agent", "x", "--spec", "koster1996", "/a/b"}, 0, nil, nil},
		{"rfc9309 same file", "User-agent: *\nAllow: /a\nDisallow: /a/b\n", []string{"check", "--robots", "-", "--agent", "x", "/a/b"}, 1, nil, nil},
		{"no group", "User-agent: a\nDisallow: /\n", []string{"check", "--robots", "-", "--agent", "b", "/x"}, 0, []string{"no group applies"}, nil},
		{"file with errors warns", "Disallow: /\nUser-agent: *\nDisallow: /x\n", []string{"check", "--robots", "-", "--agent", "b", "/y"}, 0, nil, []string{"has 1 error(s)"}},
		{"missing robots", "", []string{"check", "--agent", "a", "/"}, 2, nil, []string{"--robots FILE is required"}},
		{"missing agent", "", []string{"check", "--robots", p, "/"}, 2, nil, []string{"--agent AGENT is required"}},
		{"no URL", "", []string{"check", "--robots", p, "--agent", "a"}, 2, nil, []string{"requires at least 1 arg"}},
		{"bad spec", "", []string{"check", "--robots", p, "--agent", "a", "--spec", "rfc2000", "/"}, 2, nil, []string{`unknown robots.txt profile "rfc2000"`}},
		{"bad URL", "", []string{"check", "--robots", p, "--agent", "a", "example.com/x"}, 2, nil, []string{`invalid URL "example.com/x"`}},
		{"unreadable file", "", []string{"check", "--robots", filepath.Join(t.TempDir(), "nope.txt"), "--agent", "a", "/"}, 2, nil, []string{"nope.txt", "no such file"}},
		{"directory", "", []string{"check", "--robots", t.TempDir(), "--agent", "a", "/"}, 2, nil, []string{"is a directory"}},
	} {
		code, out, errs := runCheckCLI(c.stdin, c.args...)
		if code != c.code {
			t.Errorf("%s: exit %d, want %d (stdout %q, stderr %q)", c.name, code, c.code, out, errs)
		}
		for _, s := range c.out {
			if !strings.Contains(out, s) {
				t.Errorf("%s: stdout lacks %q:\n%s", c.name, s, out)
			}
		}
		for _, s := range c.err {
			if !strings.Contains(errs, s) {
				t.Errorf("%s: stderr lacks %q:\n%s", c.name, s, errs)
			}
		}
		if c.code == 2 && strings.Count(errs, "\n") != 1 {
			t.Errorf("%s: stderr is not one line: %q", c.name, errs)
		}
	}
}

// TestCheckLintHelp: both --help show an example.
func TestCheckLintHelp(t *testing.T) {
	for _, cmd := range []string{"check", "lint"} {
		code, out, _ := runCheckCLI("", cmd, "--help")
		if code != 0 || !strings.Contains(out, "Examples:") || !strings.Contains(out, "crawlaudit "+cmd+" ") {
			t.Errorf("%s --help (exit %d):\n%s", cmd, code, out)
		}
	}
}

// TestLint: every diagnostic as file:line: severity: message; exit 1 on
// errors, 0 on warnings only, 2 on an unreadable file.
func TestLint(t *testing.T) {
	bad := writeRobots(t, "Disallow: /early\nUser-agent: *\nDissalow: /x\nCrawl-delay: soon\nuser-agent FooBot\n")
	good := writeRobots(t, "User-agent: *\nDisallow: /x\n\nDisallow: /y\n")
	code, out, errs := runCheckCLI("", "lint", bad, good)
	if code != 1 {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	want := []string{
		bad + ":1: error: Disallow before any User-agent line is ignored",
		bad + `:3: error: unknown key "Dissalow", likely a misspelling of Disallow: line ignored (the google profile reads it as Disallow)`,
		bad + `:4: error: invalid Crawl-delay: "soon" is not a number of seconds: line ignored`,
		bad + `:5: warning: missing colon after "user-agent": read as User-agent`,
		good + ":3: warning: blank line inside a group",
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	if n := strings.Count(out, "\n"); n != 5 {
		t.Errorf("%d lines:\n%s", n, out)
	}

	if code, out, _ := runCheckCLI("", "lint", good); code != 0 || !strings.Contains(out, "warning") {
		t.Errorf("warnings only: exit %d\n%s", code, out)
	}
	if code, out, _ := runCheckCLI("User-agent: *\nDisallow: /\n", "lint", "-"); code != 0 || out != "" {
		t.Errorf("clean stdin: exit %d %q", code, out)
	}
	if code, out, _ := runCheckCLI("<html><body>Not found</body></html>\n", "lint", "-"); code != 1 || !strings.HasPrefix(out, "<stdin>:1: error: looks like an HTML page") {
		t.Errorf("html stdin: exit %d %q", code, out)
	}
	missing := filepath.Join(t.TempDir(), "missing.txt")
	code, out, errs = runCheckCLI("", "lint", missing, bad)
	if code != 2 || !strings.Contains(errs, "missing.txt") || strings.Count(errs, "\n") != 1 || !strings.Contains(out, bad+":1:") {
		t.Errorf("unreadable: exit %d stderr %q stdout %q", code, errs, out)
	}
	if code, _, _ := runCheckCLI("", "lint"); code != 2 {
		t.Errorf("no args: exit %d", code)
	}
}

// exitCode maps a run function's error to the exit status run would give.
func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	if xe, ok := err.(*exitError); ok {
		return xe.code
	}
	return exitUsage
}

// TestCheckGoogleURLs: under --spec google, check reads a URL as Google's
// matcher does (google/robotstxt robots.cc, GetPathParamsQuery; cases of
// robots_test.cc TestGetPathParamsQuery and GoogleOnly_SystemTest): a URL
// without a scheme is cut to its path ("example.com/a" is "/a", "a/b" is
// "/b", "//a/b/c" is "/b/c"), the empty URL is "/", and the URL is matched
// as written (ID_Encoding). The default profile still refuses a URL that is
// neither absolute nor a path.
func TestCheckGoogleURLs(t *testing.T) {
	p := writeRobots(t, "User-agent: Googlebot\nDisallow: /a\nDisallow: /b/c\nDisallow: /b$\nDisallow: /$\nDisallow: /ツ\n")
	for _, c := range []struct {
		url, rule string // rule "" = allowed, no rule matches
		line      int
	}{
		{"example.com/a", "Disallow: /a", 2},
		{"//a/b/c", "Disallow: /b/c", 3},
		{"a/b", "Disallow: /b$", 4},
		{"", "Disallow: /$", 5},
		{"example.com", "Disallow: /$", 5},
		{"example.com#a/b", "Disallow: /$", 5}, // a fragment before the path
		{"example.com/a;b#c", "Disallow: /a", 2},
		{"/%E3%83%84", "Disallow: /ツ", 6},
		{"/ツ", "", 0}, // the URL is not %-encoded: not the rule's octets
	} {
		code, out, errs := runCheckCLI("", "check", "--spec", "google", "--robots", p, "--agent", "Googlebot", "--json", c.url)
		want := `"allowed":true,"group":"googlebot","rule":null,"line":null`
		wantCode := exitOK
		if c.rule != "" {
			want = fmt.Sprintf(`"allowed":false,"group":"googlebot","rule":%q,"line":%d`, c.rule, c.line)
			wantCode = exitFound
		}
		if code != wantCode || !strings.HasPrefix(out, fmt.Sprintf(`{"url":%q,`, c.url)) || !strings.Contains(out, want) {
			t.Errorf("google %q: exit %d (want %d), stdout %q, stderr %q; want %s", c.url, code, wantCode, out, errs, want)
		}
	}
	// rfc9309 keeps its reading: a scheme-less URL is a usage error, and
	// "//a/b/c" is the path it looks like.
	if code, _, errs := runCheckCLI("", "check", "--robots", p, "--agent", "Googlebot", "example.com/a"); code != exitUsage || !strings.Contains(errs, "invalid URL") {
		t.Errorf("rfc9309 example.com/a: exit %d, stderr %q", code, errs)
	}
	if code, out, _ := runCheckCLI("", "check", "--robots", p, "--agent", "Googlebot", "//a/b/c"); code != exitOK {
		t.Errorf("rfc9309 //a/b/c: exit %d, stdout %q", code, out)
	}
}

// TestCheckGoogleAgents: under --spec google an empty --agent is accepted
// and gets only the "*" groups (GoogleOnly_SystemTest: an empty agent in a
// file without "*" group is allowed everything); a User-agent value is cut
// at the first character outside [A-Za-z_-] (ExtractUserAgent), so
// "User-agent: MJ12bot" names "MJ", not the crawler MJ12bot. rfc9309 still
// wants an agent.
func TestCheckGoogleAgents(t *testing.T) {
	fooOnly := writeRobots(t, "user-agent: FooBot\ndisallow: /\n")
	withStar := writeRobots(t, "user-agent: *\ndisallow: /x\nuser-agent: FooBot\ndisallow: /\n")
	mj := writeRobots(t, "User-agent: MJ12bot\nDisallow: /\n")
	for _, c := range []struct {
		robots, agent, url string
		code               int
		out                string
	}{
		{fooOnly, "FooBot", "", exitFound, `"group":"foobot","rule":"Disallow: /"`},
		{fooOnly, "", "", exitOK, `"allowed":true,"group":null`},
		{fooOnly, "", "http://foo.bar/x", exitOK, `"allowed":true,"group":null`},
		{withStar, "", "/x", exitFound, `"allowed":false,"group":"*","rule":"Disallow: /x","line":2`},
		{withStar, "", "/y", exitOK, `"allowed":true,"group":"*"`},
		{withStar, "FooBot", "/y", exitFound, `"group":"foobot"`},
		{mj, "MJ12bot", "/a", exitOK, `"allowed":true,"group":null`},
		{mj, "MJ", "/a", exitFound, `"group":"mj"`},
	} {
		code, out, errs := runCheckCLI("", "check", "--spec", "google", "--robots", c.robots, "--agent", c.agent, "--json", c.url)
		if code != c.code || !strings.Contains(out, c.out) {
			t.Errorf("google agent %q url %q: exit %d (want %d), stdout %q (want %s), stderr %q", c.agent, c.url, code, c.code, out, c.out, errs)
		}
	}
	if code, _, errs := runCheckCLI("", "check", "--robots", fooOnly, "--agent", "", "/"); code != exitUsage || !strings.Contains(errs, "--agent AGENT is required") {
		t.Errorf("rfc9309 empty agent: exit %d, stderr %q", code, errs)
	}
	if code, _, errs := runCheckCLI("", "check", "--spec", "google", "--robots", fooOnly, "/"); code != exitUsage || !strings.Contains(errs, "--agent AGENT is required") {
		t.Errorf("google without --agent: exit %d, stderr %q", code, errs)
	}
}

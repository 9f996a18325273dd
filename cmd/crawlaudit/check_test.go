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

// TestCheckJSON: the exact keys, types and nulls of `check --json`, a
// stable format that scripts read.
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
	const rates = `"request_rates":[{"requests":1,"seconds":10,"window":null,"line":6,"in_force":false},{"requests":1,"seconds":2,"window":["0800","0900"],"line":7,"in_force":true}]`
	want := []string{
		`{"url":"http://example.com/private/x?y=1&z=<2>","allowed":false,"group":"googlebot","rule":"Disallow: /private/","line":3,"crawl_delay":10,"request_rate":[1,2],"visit_time":["0100","0600"],` + rates + `}`,
		`{"url":"/private/ok.html","allowed":true,"group":"googlebot","rule":"Allow: /private/ok","line":4,"crawl_delay":10,"request_rate":[1,2],"visit_time":["0100","0600"],` + rates + `}`,
		`{"url":"/","allowed":true,"group":"googlebot","rule":null,"line":null,"crawl_delay":10,"request_rate":[1,2],"visit_time":["0100","0600"],` + rates + `}`,
	}
	if len(lines) != len(want) {
		t.Fatalf("output:\n%s", out.String())
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, lines[i], want[i])
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(lines[i]), &m); err != nil || len(m) != 9 {
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
	if got := strings.TrimSpace(out.String()); got != `{"url":"/a","allowed":false,"group":"*","rule":"Disallow: /","line":11,"crawl_delay":null,"request_rate":null,"visit_time":null,"request_rates":[]}` {
		t.Errorf("star: %s", got)
	}
	out.Reset()
	o.robots = writeRobots(t, "User-agent: GPTBot\nDisallow: /\n")
	if code := exitCode(runCheck(e, o)); code != exitOK {
		t.Errorf("exit %d", code)
	}
	if got := strings.TrimSpace(out.String()); got != `{"url":"/a","allowed":true,"group":null,"rule":null,"line":null,"crawl_delay":null,"request_rate":null,"visit_time":null,"request_rates":[]}` {
		t.Errorf("none: %s", got)
	}
	out.Reset()
	o.robots, o.agent, o.now = p, "googlebot", func() time.Time { return time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC) }
	runCheck(e, o)
	if !strings.Contains(out.String(), `"request_rate":[1,10]`) || !strings.Contains(out.String(), `"line":6,"in_force":true},{`) {
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
		{"no URL", "", []string{"check", "--robots", p, "--agent", "a"}, 2, nil, []string{"check: no URL given"}},
		{"bad spec", "", []string{"check", "--robots", p, "--agent", "a", "--spec", "rfc2000", "/"}, 2, nil, []string{`unknown robots.txt profile "rfc2000"`, "orig1994, spc2"}},
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
// "User-agent: MJ12bot" names "MJ", not the crawler MJ12bot; a crawler name
// with a space is compared whole. rfc9309 still wants an agent.
func TestCheckGoogleAgents(t *testing.T) {
	fooOnly := writeRobots(t, "user-agent: FooBot\ndisallow: /\n")
	withStar := writeRobots(t, "user-agent: *\ndisallow: /x\nuser-agent: FooBot\ndisallow: /\n")
	mj := writeRobots(t, "User-agent: MJ12bot\nDisallow: /\n")
	firstSpace := writeRobots(t, "User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n")
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
		// GoogleOnly_AcceptUserAgentUpToFirstSpace: "User-Agent: Foo Bar"
		// names Foo, but the crawler "Foo Bar" is compared whole.
		{firstSpace, "Foo", "/x/y", exitOK, `"allowed":true,"group":"foo","rule":"Allow: /x/"`},
		{firstSpace, "Foo Bar", "/x/y", exitFound, `"allowed":false,"group":"*","rule":"Disallow: /"`},
		{firstSpace, "Mozilla/5.0 (compatible; Foo/1.0)", "/x/y", exitOK, `"group":"foo"`},
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

// checkAtRobots has several windowed Request-rate lines (the
// line whose window covers the time applies, the strictest of several,
// else the strictest without a window; windows are UTC, start inclusive,
// end exclusive, wrapping midnight when the start is later), and a
// Visit-time window.
const checkAtRobots = `# windows
User-agent: Googlebot
Disallow: /private/
Request-rate: 1/10s
Request-rate: 1/2s 0800-0900
Request-rate: 1/5s 0830-0845
Request-rate: 5/1m 2200-0200
Request-rate: 1/1d 1200-1300
Visit-time: 0600-1800

User-agent: *
Disallow: /
`

// TestCheckAt: check --at T evaluates Request-rate and Visit-time at T
// (the limits in force then, not now, so that a past request can be
// checked). Each row is derived by hand from checkAtRobots and the rules
// of Request-rate and Visit-time.
func TestCheckAt(t *testing.T) {
	p := writeRobots(t, checkAtRobots)
	for _, c := range []struct {
		at      string
		utc     string // "at" in the output
		rate    [2]int // request_rate
		line    int    // the line in force
		inVisit bool
		why     string
	}{
		{"2026-10-01 08:20", "2026-10-01T08:20:00Z", [2]int{1, 2}, 5, true, "inside 0800-0900 only"},
		{"2026-10-01T08:30:00Z", "2026-10-01T08:30:00Z", [2]int{1, 5}, 6, true, "0800-0900 and 0830-0845 cover it: the strictest, 1/5s"},
		{"2026-10-01T08:45:00Z", "2026-10-01T08:45:00Z", [2]int{1, 2}, 5, true, "0830-0845 ends (exclusive)"},
		{"2026-10-01 09:00", "2026-10-01T09:00:00Z", [2]int{1, 10}, 4, true, "0800-0900 ends: the line without a window"},
		{"2026-10-01 12:15", "2026-10-01T12:15:00Z", [2]int{1, 86400}, 8, true, "1/1d inside 1200-1300"},
		{"2026-10-01 06:00", "2026-10-01T06:00:00Z", [2]int{1, 10}, 4, true, "Visit-time starts (inclusive)"},
		{"2026-10-01 18:00", "2026-10-01T18:00:00Z", [2]int{1, 10}, 4, false, "Visit-time ends (exclusive)"},
		{"2026-10-01T23:30:00+02:00", "2026-10-01T21:30:00Z", [2]int{1, 10}, 4, false, "21:30 UTC: before 2200-0200"},
		{"2026-10-01 22:00", "2026-10-01T22:00:00Z", [2]int{5, 60}, 7, false, "2200-0200 starts"},
		{"2026-10-02T01:59:59.5Z", "2026-10-02T01:59:59.5Z", [2]int{5, 60}, 7, false, "2200-0200 wraps midnight"},
		{"2026-10-02 02:00", "2026-10-02T02:00:00Z", [2]int{1, 10}, 4, false, "2200-0200 ends"},
	} {
		code, out, errs := runCheckCLI("", "check", "--robots", p, "--agent", "Googlebot", "--at", c.at, "--json", "/private/x")
		if code != exitFound || errs != "" {
			t.Errorf("--at %q: exit %d, stderr %q", c.at, code, errs)
			continue
		}
		var got struct {
			RequestRate  [2]int `json:"request_rate"`
			RequestRates []struct {
				Line    int  `json:"line"`
				InForce bool `json:"in_force"`
			} `json:"request_rates"`
			At          *string `json:"at"`
			InVisitTime *bool   `json:"in_visit_time"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("--at %q: %v: %s", c.at, err, out)
		}
		var inForce []int
		for _, r := range got.RequestRates {
			if r.InForce {
				inForce = append(inForce, r.Line)
			}
		}
		if got.RequestRate != c.rate || fmt.Sprint(inForce) != fmt.Sprint([]int{c.line}) || len(got.RequestRates) != 5 ||
			got.At == nil || *got.At != c.utc || got.InVisitTime == nil || *got.InVisitTime != c.inVisit {
			t.Errorf("--at %q (%s): got %s\nwant request_rate %v, line %d in force, at %s, in_visit_time %v", c.at, c.why, out, c.rate, c.line, c.utc, c.inVisit)
		}
	}

	// One line whole: the keys --at adds, after the stable ones.
	_, out, _ := runCheckCLI("", "check", "--robots", p, "--agent", "Googlebot", "--at", "2026-10-01 22:00", "--json", "/")
	want := `{"url":"/","allowed":true,"group":"googlebot","rule":null,"line":null,"crawl_delay":null,"request_rate":[5,60],"visit_time":["0600","1800"],` +
		`"request_rates":[{"requests":1,"seconds":10,"window":null,"line":4,"in_force":false},` +
		`{"requests":1,"seconds":2,"window":["0800","0900"],"line":5,"in_force":false},` +
		`{"requests":1,"seconds":5,"window":["0830","0845"],"line":6,"in_force":false},` +
		`{"requests":5,"seconds":60,"window":["2200","0200"],"line":7,"in_force":true},` +
		`{"requests":1,"seconds":86400,"window":["1200","1300"],"line":8,"in_force":false}],` +
		`"at":"2026-10-01T22:00:00Z","in_visit_time":false}` + "\n"
	if out != want {
		t.Errorf("--at --json:\n got %s\nwant %s", out, want)
	}

	// No Visit-time: T is never outside it; the "*" group has no rate.
	_, out, _ = runCheckCLI("", "check", "--robots", p, "--agent", "bingbot", "--at", "2026-10-01 03:00", "--json", "/")
	if !strings.HasSuffix(out, `"visit_time":null,"request_rates":[],"at":"2026-10-01T03:00:00Z","in_visit_time":true}`+"\n") {
		t.Errorf("no Visit-time: %s", out)
	}

	// The readable output lists every line and marks the one in force.
	code, out, _ := runCheckCLI("", "check", "--robots", p, "--agent", "Googlebot", "--at", "2026-10-01T08:30:00Z", "/")
	for _, s := range []string{
		`group "googlebot": request-rate 1 per 5 s (at 2026-10-01T08:30:00Z), visit-time 0600-1800 UTC (2026-10-01T08:30:00Z is inside it)`,
		"  line 4: Request-rate 1 per 10 s, when no window covers the time\n",
		"  line 5: Request-rate 1 per 2 s, 0800-0900 UTC\n",
		"  line 6: Request-rate 1 per 5 s, 0830-0845 UTC  (in force at 2026-10-01T08:30:00Z)\n",
		"  line 7: Request-rate 5 per 1 min, 2200-0200 UTC\n",
		"  line 8: Request-rate 1 per 1 d, 1200-1300 UTC\n",
	} {
		if code != exitOK || !strings.Contains(out, s) {
			t.Errorf("readable --at (exit %d) lacks %q:\n%s", code, s, out)
		}
	}
	if _, out, _ := runCheckCLI("", "check", "--robots", p, "--agent", "Googlebot", "--at", "2026-10-01 19:00", "/"); !strings.Contains(out, "(2026-10-01T19:00:00Z is outside it)") {
		t.Errorf("readable --at outside: %s", out)
	}
}

// TestCheckRequestRatesNow: without --at, check lists every Request-rate
// line with its window, in JSON and in the readable output, and
// request_rate stays the one in force now, as scripts of
// `check --json` read it.
func TestCheckRequestRatesNow(t *testing.T) {
	p := writeRobots(t, checkAtRobots)
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb}
	o := &checkOptions{robots: p, agent: "Googlebot", spec: "rfc9309", json: true, urls: []string{"/"},
		now: func() time.Time { return time.Date(2026, 10, 1, 12, 30, 0, 0, time.UTC) }}
	if err := runCheck(e, o); err != nil {
		t.Fatal(err)
	}
	want := `"request_rate":[1,86400],"visit_time":["0600","1800"],"request_rates":[` +
		`{"requests":1,"seconds":10,"window":null,"line":4,"in_force":false},` +
		`{"requests":1,"seconds":2,"window":["0800","0900"],"line":5,"in_force":false},` +
		`{"requests":1,"seconds":5,"window":["0830","0845"],"line":6,"in_force":false},` +
		`{"requests":5,"seconds":60,"window":["2200","0200"],"line":7,"in_force":false},` +
		`{"requests":1,"seconds":86400,"window":["1200","1300"],"line":8,"in_force":true}]}` + "\n"
	if !strings.HasSuffix(out.String(), want) || strings.Contains(out.String(), `"at"`) || strings.Contains(out.String(), "in_visit_time") {
		t.Errorf("got %s\nwant …%s", out.String(), want)
	}
	out.Reset()
	o.json = false
	if err := runCheck(e, o); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"request-rate 1 per 1 d (now)", "  line 8: Request-rate 1 per 1 d, 1200-1300 UTC  (in force now)\n", "  line 7: Request-rate 5 per 1 min, 2200-0200 UTC\n"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("readable output lacks %q:\n%s", s, out.String())
		}
	}
}

// TestCheckAtInvalid: an --at that is neither form exits 2 with one line
// naming the accepted forms.
func TestCheckAtInvalid(t *testing.T) {
	p := writeRobots(t, checkAtRobots)
	for _, at := range []string{"", "yesterday", "2026-10-01", "2026-10-01T08:30", "2026-10-01 08:30:00", "2026-13-01 08:30", "2026-10-01 08:30 UTC", "1727771400", "2026-10-01T08:30:00Z\x1b[2J"} {
		code, out, errs := runCheckCLI("", "check", "--robots", p, "--agent", "Googlebot", "--at", at, "/")
		if code != exitUsage || out != "" || strings.Count(errs, "\n") != 1 || strings.Contains(errs, "\x1b") ||
			!strings.Contains(errs, "invalid --at") || !strings.Contains(errs, "RFC 3339 (2026-10-01T08:30:00Z)") || !strings.Contains(errs, "YYYY-MM-DD HH:MM in UTC") {
			t.Errorf("--at %q: exit %d, stdout %q, stderr %q", at, code, out, errs)
		}
	}
}

// TestCheckSpc2: --spec spc2 reads seed 000's Chives record (lines 48-50 of
// 000_1daf4344aa268b6b.txt): "Allow: */index.html # only allow index
// pages" and no Disallow allows only what the Allow matches; the URL it
// leaves out is disallowed by the Robot-version line. The same file under
// koster1996 allows it.
func TestCheckSpc2(t *testing.T) {
	p := writeRobots(t, "User-agent: Chives\nRobot-version: 2.0.0\nAllow: */index.html # only allow index pages\n\nUser-agent: *\nDisallow: /\n")
	code, out, errs := runCheckCLI("", "check", "--robots", p, "--agent", "Chives", "--spec", "spc2", "--json", "/docs/index.html", "/docs/a.html")
	want := `{"url":"/docs/index.html","allowed":true,"group":"chives","rule":"Allow: */index.html","line":3,` +
		`"crawl_delay":null,"request_rate":null,"visit_time":null,"request_rates":[]}` + "\n" +
		`{"url":"/docs/a.html","allowed":false,"group":"chives","rule":"Robot-version: 2.0.0","line":2,` +
		`"crawl_delay":null,"request_rate":null,"visit_time":null,"request_rates":[]}` + "\n"
	if code != exitFound || out != want || errs != "" {
		t.Errorf("spc2 --json: exit %d, stderr %q\n got %s\nwant %s", code, errs, out, want)
	}
	code, out, _ = runCheckCLI("", "check", "--robots", p, "--agent", "Chives", "--spec", "spc2", "/docs/a.html")
	if code != exitFound || !strings.Contains(out, "DISALLOWED  /docs/a.html  (line 2: Robot-version: 2.0.0: no Allow line of this group matches, and it allows only what they match)") {
		t.Errorf("spc2 readable: exit %d\n%s", code, out)
	}
	if code, _, _ := runCheckCLI("", "check", "--robots", p, "--agent", "Chives", "--spec", "koster1996", "/docs/a.html"); code != exitOK {
		t.Errorf("koster1996: exit %d, want 0", code)
	}
	if code, out, _ := runCheckCLI("", "check", "--help"); code != exitOK || !strings.Contains(out, "orig1994 or spc2") || !strings.Contains(out, "--at T") || !strings.Contains(out, "YYYY-MM-DD HH:MM in UTC") {
		t.Errorf("check --help (exit %d):\n%s", code, out)
	}
}
